//! Run one Col / Myopic Col sweep kind in-process (all shards, in parallel
//! threads), then write the rendered `results.json` and `report.md`.
//!
//! ```text
//! cargo run --release -p gamesweep --example col_sweep -- myopic-tree --max-nodes 11 --out runs/myopic-tree
//! cargo run --release -p gamesweep --example col_sweep -- col --max-n 8 --threads 2
//! ```
//! Options: `--threads T` (default: available parallelism), `--shards S` (plan
//! hint, default: the kind's own), `--out DIR` (omit to only print the summary).
//! Wall time goes to stderr only; the written files contain no timings.

use gamesweep::sweep::{self, Params, ShardCtx, SweepResult};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!(
            "usage: col_sweep KIND [--param value]... [--threads T] [--shards S] [--out DIR]"
        );
        std::process::exit(2);
    }
    let kind = match sweep::find(&args[0]) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut given = Params::new();
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut shards = 0u32;
    let mut out_dir = None;
    let mut i = 1;
    while i < args.len() {
        let name = args[i].trim_start_matches("--").replace('-', "_");
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match name.as_str() {
            "threads" => threads = value.parse().expect("--threads N"),
            "shards" => shards = value.parse().expect("--shards N"),
            "out" => out_dir = Some(value),
            _ => {
                given.insert(name, value.parse().expect("numeric parameter"));
            }
        }
        i += 2;
    }
    let params = match sweep::resolve_params(kind, &given) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let t0 = Instant::now();
    let plan = kind.plan(&params, shards).expect("plan");
    let next = AtomicUsize::new(0);
    let merged = Mutex::new(SweepResult::default());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let j = next.fetch_add(1, Ordering::Relaxed);
                let Some(shard) = plan.get(j) else { break };
                let r = kind
                    .run_shard(&params, shard, &ShardCtx::detached())
                    .expect("shard");
                merged.lock().unwrap().merge(r);
            });
        }
    });
    let merged = merged.into_inner().unwrap();
    let rendered = kind.render(&params, &merged);
    let secs = t0.elapsed().as_secs_f64();
    eprintln!(
        "{}: {} shards, {} positions, {:.2} s wall on {} threads",
        kind.name(),
        plan.len(),
        merged.work,
        secs,
        threads
    );
    match out_dir {
        Some(dir) => {
            std::fs::create_dir_all(&dir).expect("create output dir");
            let json = serde_json::to_string_pretty(&rendered.results_json).unwrap() + "\n";
            std::fs::write(format!("{dir}/results.json"), json).expect("write results.json");
            std::fs::write(format!("{dir}/report.md"), &rendered.report_md)
                .expect("write report.md");
            eprintln!("wrote {dir}/results.json and {dir}/report.md");
        }
        None => print!("{}", rendered.report_md),
    }
}
