//! Run the Burke–Ferland–Teng sweeps in-process and write their reports:
//! plan, run every shard on a small thread pool, merge, render, write
//! `runs/<kind>/results.json` (pretty, newline-terminated, as `gamesweep run`
//! writes it) and `runs/<kind>/report.md`.
//!
//! ```text
//! cargo run --release -p gamesweep --example bft_reports -- [KIND ...] [--out-root DIR] [--threads T] [--param name=value ...]
//! ```
//! With no KIND it runs `uvg-reduction`, `uvg-degree3` and `uvg-strategy` with
//! their default parameters. Timings go to stderr only (results.json has none).

use gamesweep::sweep::{self, Params, ShardCtx, SweepResult};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

fn main() {
    if let Err(e) = run() {
        eprintln!("bft_reports: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut kinds = Vec::new();
    let mut out_root = PathBuf::from("runs");
    let mut threads = 2usize;
    let mut given = Params::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out-root" => out_root = args.next().ok_or("--out-root needs a value")?.into(),
            "--threads" => threads = args.next().ok_or("--threads needs a value")?.parse()?,
            "--param" => {
                let kv = args.next().ok_or("--param needs name=value")?;
                let (k, v) = kv.split_once('=').ok_or("--param needs name=value")?;
                given.insert(k.replace('-', "_"), v.parse()?);
            }
            k => kinds.push(k.to_string()),
        }
    }
    if kinds.is_empty() {
        kinds = ["uvg-reduction", "uvg-degree3", "uvg-strategy"]
            .map(String::from)
            .to_vec();
    }
    for name in kinds {
        let kind = sweep::find(&name)?;
        let mine: Params = given
            .iter()
            .filter(|(k, _)| kind.params().iter().any(|d| d.name == k.as_str()))
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        let params = sweep::resolve_params(kind, &mine)?;
        let plan = kind.plan(&params, 0)?;
        let t0 = Instant::now();
        let next = Mutex::new(0usize);
        let merged = Mutex::new(SweepResult::default());
        let failed = Mutex::new(None);
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        let i = *n;
                        *n += 1;
                        i
                    };
                    let Some(shard) = plan.get(i) else { break };
                    match kind.run_shard(&params, shard, &ShardCtx::detached()) {
                        Ok(r) => merged.lock().unwrap().merge(r),
                        Err(e) => *failed.lock().unwrap() = Some(e),
                    }
                });
            }
        });
        if let Some(e) = failed.into_inner().unwrap() {
            return Err(e.into());
        }
        let merged = merged.into_inner().unwrap();
        let rendered = kind.render(&params, &merged);
        let dir = out_root.join(&name);
        std::fs::create_dir_all(&dir)?;
        let mut json = serde_json::to_string_pretty(&rendered.results_json)?;
        json.push('\n');
        std::fs::write(dir.join("results.json"), json)?;
        std::fs::write(dir.join("report.md"), &rendered.report_md)?;
        eprintln!(
            "{name}: {} shards, {} work units in {:.2} s on {threads} threads -> {}",
            plan.len(),
            merged.work,
            t0.elapsed().as_secs_f64(),
            dir.display()
        );
    }
    Ok(())
}
