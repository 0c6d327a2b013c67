//! Benchmark / smoke driver for `gamesweep::gen`.
//!
//! `cargo run --release -p gamesweep --example gen_bench -- N [--all] [--threads T] [--depth K] [--estimate]`
//!
//! Counts the (connected unless `--all`) graphs on N vertices, single-threaded by
//! default; with `--threads T` the prefixes at depth K (default 5) are shared
//! out over T threads (`std::thread::scope`, work-stealing through an atomic
//! index). Prints the count and the wall time.
use gamesweep::gen;
use gamesweep::graph::BitGraph;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(9);
    let all = args.iter().any(|a| a == "--all");
    let opt = |name: &str, def: usize| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|s| s.parse().ok())
            .unwrap_or(def)
    };
    let threads = opt("--threads", 1);
    let depth = opt("--depth", 5).min(n);
    let t0 = Instant::now();
    if args.iter().any(|a| a == "--estimate") {
        let pre = gen::prefixes(depth);
        let est: u64 = pre.iter().map(|p| gen::estimate(p, n)).sum();
        let root = gen::estimate(&BitGraph::new(0), n);
        println!(
            "estimate n={n}: root {root}, sum over {} prefixes at depth {depth}: {est}  ({:.3} s)",
            pre.len(),
            t0.elapsed().as_secs_f64()
        );
        return;
    }
    let total = if threads <= 1 {
        gen::count(&BitGraph::new(0), n, !all)
    } else {
        let pre = gen::prefixes(depth);
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|| {
                        let mut c = 0u64;
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(p) = pre.get(i) else { break };
                            c += gen::count(p, n, !all);
                        }
                        c
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).sum()
        })
    };
    println!(
        "n={n} {} threads={threads}: {total} graphs in {:.3} s",
        if all { "all" } else { "connected" },
        t0.elapsed().as_secs_f64()
    );
}
