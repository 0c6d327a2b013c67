//! The `uvg` sweep's per-graph work at n = 11 (or N), split into its parts:
//! generation alone, generation + the incremental subset table
//! (`uvg::incremental`, production), generation + `grundy_all` per graph
//! (the solver before it), and the matching test. CPU time of this thread.
//!
//! `cargo run --release -p gamesweep --example uvg_walk_bench -- [N=11] [PREFIXES=40] [SEED=1]`
//! walks PREFIXES depth-(N−2) prefixes chosen with a fixed seed, each mode
//! over the same prefixes, and prints µs per connected N-vertex graph.

use gamesweep::gen::{self, WalkOptions};
use gamesweep::graph::BitGraph;
use gamesweep::uvg;

fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--random") {
        let n = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(14);
        let count = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
        return random_mode(n, count);
    }
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(11);
    let count: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(40);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let all = gen::prefixes(n - 2);
    // A fixed pseudo-random choice (splitmix64 of the seed).
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let picked: Vec<BitGraph> = (0..count)
        .map(|_| all[(next() % all.len() as u64) as usize])
        .collect();
    let opts = WalkOptions {
        connected_only: true,
        min_n: 1,
    };
    let mut graphs = 0u64;
    let mut check = [0u64; 4];
    let modes = [
        "walk only",
        "walk + incremental table",
        "walk + grundy_all per graph",
        "walk + matching (all starts)",
    ];
    for (mode, name) in modes.iter().enumerate() {
        let t0 = cpu_ns();
        let mut inc = uvg::incremental::Incremental::new();
        let mut hist = [0u64; 8];
        let mut seen = 0u64;
        for p in &picked {
            gen::walk_nodes(p, n, opts, &mut |g, shown| {
                match mode {
                    1 => {
                        let vals = if g.n() == n {
                            inc.push_leaf(g)
                        } else {
                            inc.push(g)
                        };
                        if shown && g.n() == n {
                            for &v in vals {
                                hist[v as usize] += 1;
                            }
                        }
                    }
                    2 if shown && g.n() == n => {
                        for v in uvg::grundy_all(g) {
                            hist[v as usize] += 1;
                        }
                    }
                    3 if shown && g.n() == n => {
                        hist[0] += uvg::first_player_wins_all(g).count_ones() as u64;
                    }
                    _ => {}
                }
                if shown && g.n() == n {
                    seen += 1;
                }
            });
        }
        let dt = cpu_ns() - t0;
        graphs = seen;
        check[mode] = hist
            .iter()
            .enumerate()
            .map(|(i, c)| c * (i as u64 + 1))
            .sum();
        println!(
            "{name:32} {:8.3} s CPU  {:7.3} µs/graph  histogram {:?}",
            dt as f64 / 1e9,
            dt as f64 / 1e3 / seen as f64,
            hist
        );
    }
    assert_eq!(check[1], check[2], "incremental and grundy_all disagree");
    println!(
        "{graphs} connected graphs on {n} vertices under {count} prefixes of depth {}",
        n - 2
    );
}

/// `--random N COUNT`: an independent solver (the plain game rule, memoised,
/// [`naive_grundy`]) vs a fresh incremental table on random
/// G(N, 1/2) graphs (no parent in place, as for one position in `solve`).
/// Comparing with `grundy_all` would compare the table with itself from 12
/// vertices on, where `grundy_all` uses it.
/// The game rule alone, for the comparison: the token on `v`, `alive` the
/// vertices not yet deleted (`v` among them); a move deletes `v` and puts the
/// token on a live neighbour; the value is the mex of the moves' values.
fn naive_grundy(
    g: &BitGraph,
    v: usize,
    alive: u32,
    memo: &mut std::collections::HashMap<(usize, u32), u8>,
) -> u8 {
    if let Some(&x) = memo.get(&(v, alive)) {
        return x;
    }
    let rest = alive & !(1 << v);
    let mut seen = 0u64;
    for u in 0..g.n() {
        if rest >> u & 1 == 1 && g.has_edge(v, u) {
            seen |= 1 << naive_grundy(g, u, rest, memo);
        }
    }
    let x = (!seen).trailing_zeros() as u8;
    memo.insert((v, alive), x);
    x
}

fn random_mode(n: usize, count: usize) {
    let mut graphs = Vec::new();
    let mut state = 99u64;
    let mut bit = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state & 1 == 1
    };
    for _ in 0..count {
        let mut g = BitGraph::new(n);
        for j in 1..n {
            for i in 0..j {
                if bit() {
                    g.add_edge(i, j);
                }
            }
        }
        graphs.push(g);
    }
    // Wall time: these runs are shorter than the scheduler's CPU-time tick.
    let t0 = std::time::Instant::now();
    let a: Vec<Vec<u8>> = graphs
        .iter()
        .map(|g| {
            let mut memo = std::collections::HashMap::new();
            (0..g.n())
                .map(|v| naive_grundy(g, v, (1u32 << g.n()) - 1, &mut memo))
                .collect()
        })
        .collect();
    let t1 = t0.elapsed().as_nanos();
    let mut inc = uvg::incremental::Incremental::new();
    let b: Vec<Vec<u8>> = graphs.iter().map(|g| inc.push_leaf(g).to_vec()).collect();
    let t2 = t0.elapsed().as_nanos();
    let t0 = 0;
    assert_eq!(a, b);
    println!(
        "n = {n}: plain memoised game rule {:.1} µs/graph, incremental from scratch {:.1} µs/graph",
        (t1 - t0) as f64 / 1e3 / count as f64,
        (t2 - t1) as f64 / 1e3 / count as f64
    );
}
