//! One shard of the `uvg --max-n N` split plan, run as a worker runs it
//! (`Kind::run`), with nothing else in the process: for profiling the
//! sweep's per-shard work (`perf record -e cpu-clock -g`) without the
//! planning or the coordinator around it. Prints the thread CPU time and
//! positions per CPU-second.
//!
//! `cargo run --release -p gamesweep --example uvg_shard_bench -- N SHARD [REPS=1]`
//! (`EXT=K` and `COLLECT=V` in the environment: the sweep's
//! `--extension-value` and `--collect-min-value`; `SALT=S`: run as a
//! comparable lease does, computing the position digest under salt `S`;
//! `OUT=1`: print a hash of the shard's result, to compare builds, and
//! `OUT=json` the result itself;
//! `GEN=1`: only walk the shard's part of the generation tree as the kind
//! does, solving nothing: the generation floor, for solve ÷ generation)
//! (n = 11: 4,096 shards, cuts 64 × 64 at levels 9, 10; n = 12: 65,536
//! shards, cuts 64 × 32 × 32 at levels 9, 10, 11 — as `graphplan::plan`
//! numbers them; `--check` compares the cuts with the plan's).

use gamesweep::kinds::uvg::{UvgParams, UvgSweep};
use gamesweep::sweep::graphplan::{self, Cut, GraphShard};
use gamesweep::sweep::{Kind, Merge, ShardCtx};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The cuts of shard `index` of the split plan at `n` (11 or 12).
fn shard(n: usize, index: u64) -> GraphShard {
    let moduli: &[u64] = match n {
        11 => &[64, 64],
        12 => &[64, 32, 32],
        _ => panic!("n = 11 or 12"),
    };
    let mut rest = index;
    let mut cuts = Vec::new();
    for (i, &m) in moduli.iter().enumerate().rev() {
        cuts.push(Cut {
            level: 9 + i,
            res: rest % m,
            modulus: m,
        });
        rest /= m;
    }
    cuts.reverse();
    GraphShard::Split { cuts }
}

/// A small number from the environment variable `name` (0 if unset).
fn env_u8(name: &str) -> u8 {
    std::env::var(name).map_or(0, |v| v.parse().expect("a number 0..=255"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--check").collect();
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(11);
    let index: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let reps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let s = shard(n, index);
    if check {
        let plan = graphplan::plan(n, 0, graphplan::Work::PerVertex);
        assert_eq!(plan[index as usize].0, s, "the plan's shard {index}");
        println!("shard {index} of {} matches the plan", plan.len());
    }
    let params = UvgParams {
        max_n: n,
        // The sweep's options, as `run uvg --collect-min-value V
        // --extension-value K` takes them (both off by default).
        collect_min_value: env_u8("COLLECT"),
        extension_value: env_u8("EXT"),
    };
    let salt: Option<u64> = std::env::var("SALT")
        .ok()
        .map(|v| v.parse().expect("SALT: a number"));
    if std::env::var_os("GEN").is_some() {
        for _ in 0..reps {
            let walk = s.decode("uvg").expect("a split shard");
            let t0 = cpu_ns();
            let mut positions = 0u64;
            // The kind's walk and filter, with no table pushed.
            graphplan::walk_tree(&walk, n, &mut |g, counted| {
                if counted {
                    positions += g.n() as u64;
                }
            });
            let dt = cpu_ns() - t0;
            println!(
                "n = {n} shard {index}: {positions} positions, {:.3} s CPU, generation only",
                dt as f64 / 1e9
            );
        }
        return;
    }
    for _ in 0..reps {
        let (cancel, progress, digest) =
            (AtomicBool::new(false), AtomicU64::new(0), AtomicU64::new(0));
        let ctx = match salt {
            Some(salt) => ShardCtx::new(&cancel, &progress).with_salt(salt, &digest),
            None => ShardCtx::new(&cancel, &progress),
        };
        let t0 = cpu_ns();
        let out = UvgSweep.run(&params, &s, &ctx).expect("the shard runs");
        let dt = cpu_ns() - t0;
        if salt.is_some() {
            println!("  position digest {:016x}", digest.load(Ordering::Relaxed));
        }
        if std::env::var_os("OUT").is_some() {
            use std::hash::{Hash, Hasher};
            let json = serde_json::to_string(&out).expect("a result serialises");
            let mut h = std::hash::DefaultHasher::new();
            json.hash(&mut h);
            println!(
                "  result hash {:016x} ({} bytes of JSON)",
                h.finish(),
                json.len()
            );
            if std::env::var("OUT").is_ok_and(|v| v == "json") {
                println!("{json}");
            }
        }
        let positions = out.work();
        println!(
            "n = {n} shard {index}: {positions} positions, {:.3} s CPU, {:.0} positions/s",
            dt as f64 / 1e9,
            positions as f64 / (dt as f64 / 1e9)
        );
        let e = &out.extension;
        if params.extension_value != 0 {
            println!(
                "  extension *{}: D case A {}, case B {}, sets T {}, C exact {}, hits {}",
                params.extension_value, e.d_case_a, e.d_case_b, e.t_sets, e.c_exact, e.hits
            );
        }
        if params.collect_min_value != 0 {
            let kept: u64 = out.by_n.values().map(|c| c.collected.total).sum();
            println!(
                "  collected (value >= {}): {kept}",
                params.collect_min_value
            );
        }
    }
}
