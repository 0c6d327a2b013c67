//! Benchmark / smoke driver for `gamesweep::gen`.
//!
//! `cargo run --release -p gamesweep --example gen_bench -- N [--all] [--threads T] [--depth K] [--levels [--probes P]] [--per-prefix]`
//!
//! Counts the (connected unless `--all`) graphs on N vertices, single-threaded by
//! default; with `--threads T` the prefixes at depth K are shared
//! out over T threads (K default 6; `std::thread::scope`, work-stealing through an atomic
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
    let depth = opt("--depth", 6).min(n);
    let t0 = Instant::now();
    if args.iter().any(|a| a == "--levels") {
        // Knuth probes per prefix (what shard plans use): the summed level
        // estimates against the exact counts are the estimator's accuracy.
        let probes = opt("--probes", 2);
        let pre = gen::prefixes(depth);
        let t1 = Instant::now();
        let mut sum = vec![0f64; n + 1];
        for (i, p) in pre.iter().enumerate() {
            let e = gen::estimate_connected_levels(p, n, probes, i as u64);
            for (m, x) in e.iter().enumerate() {
                sum[m] += x;
            }
        }
        println!(
            "levels n={n} depth={depth} prefixes={} probes={probes}: {:?}  (prefixes {:.3} s, estimate {:.3} s)",
            pre.len(),
            sum.iter().map(|x| x.round() as u64).collect::<Vec<_>>(),
            (t1 - t0).as_secs_f64(),
            t1.elapsed().as_secs_f64()
        );
        return;
    }
    if args.iter().any(|a| a == "--per-prefix") {
        // Each prefix's subtree timed on its own: the sum should be about one
        // full run (shards do no duplicated work beyond their prefix).
        let pre = gen::prefixes(depth);
        let mut sum_t = 0f64;
        let mut sum_c = 0u64;
        let mut max_t = 0f64;
        for p in &pre {
            let t = Instant::now();
            sum_c += gen::count(p, n, !all);
            let dt = t.elapsed().as_secs_f64();
            sum_t += dt;
            max_t = max_t.max(dt);
        }
        println!(
            "n={n}: {} prefixes at depth {depth}: {sum_c} graphs, sum of shard times {sum_t:.3} s, largest shard {max_t:.3} s",
            pre.len()
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
