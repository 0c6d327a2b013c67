//! Shard balance of graph plans, measured on a seeded sample of shards.
//!
//! `cargo run --release -p gamesweep --example plan_balance -- N prefix|split [SHARDS=default] [SAMPLE=24] [SEED=2026]`
//!
//! Plans `uvg --max-n N` (per-vertex estimates) either as prefix lists
//! (`plan_by_prefix`, the plan before cuts) or as `plan` gives it, prints the
//! planning time and the plan's size (its shards as JSON), then walks
//! `SAMPLE` shards picked uniformly at random (seeded; the `top` shard
//! excluded) and prints, per shard, the positions it counts (one per vertex
//! of each connected graph: the `uvg` solver's work) and the generation time,
//! then min / median / max and max ÷ median of both.
use gamesweep::sweep::graphplan::{self, Work};
use rand::{Rng, SeedableRng};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(11);
    let how = args.get(1).map(String::as_str).unwrap_or("split");
    let num = |i: usize, def: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(def);
    let (shards, sample, seed) = (num(2, 0) as u32, num(3, 24) as usize, num(4, 2026));
    let t0 = Instant::now();
    let plan = match how {
        "prefix" => graphplan::plan_by_prefix(n, shards, Work::PerVertex),
        "split" => graphplan::plan(n, shards, Work::PerVertex),
        other => {
            eprintln!("plan_balance: unknown plan `{other}` (prefix or split)");
            std::process::exit(2);
        }
    };
    let plan_s = t0.elapsed().as_secs_f64();
    let bytes: usize = plan
        .iter()
        .map(|(s, _)| serde_json::to_string(s).unwrap().len())
        .sum();
    let est: u64 = plan.iter().map(|(_, e)| e).sum();
    println!(
        "n={n} plan={how}: {} shards in {plan_s:.2} s, {bytes} bytes of shard JSON, estimate {est} positions",
        plan.len()
    );
    let candidates: Vec<usize> = (0..plan.len())
        .filter(|&i| !matches!(plan[i].0, graphplan::GraphShard::Top { .. }))
        .collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut picked = Vec::new();
    while picked.len() < sample.min(candidates.len()) {
        let i = candidates[rng.random_range(0..candidates.len())];
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    let mut rows = Vec::new();
    for &i in &picked {
        let walk = plan[i].0.decode("uvg").unwrap();
        let t = Instant::now();
        let mut positions = 0u64;
        graphplan::walk_connected(&walk, n, &mut |g| positions += g.n() as u64);
        let dt = t.elapsed().as_secs_f64();
        println!(
            "shard {i}: {positions} positions (estimate {}), generation {dt:.3} s",
            plan[i].1
        );
        rows.push((positions as f64, dt));
    }
    let stats = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let med = if v.len() % 2 == 1 {
            v[v.len() / 2]
        } else {
            (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
        };
        (v[0], med, v[v.len() - 1])
    };
    let (a, b, c) = stats(rows.iter().map(|r| r.0).collect());
    println!(
        "positions min/median/max {a:.0} / {b:.0} / {c:.0}, max/median {:.2}",
        c / b
    );
    let (a, b, c) = stats(rows.iter().map(|r| r.1).collect());
    println!(
        "generation s min/median/max {a:.3} / {b:.3} / {c:.3}, max/median {:.2}",
        c / b
    );
}
