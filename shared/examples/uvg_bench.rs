//! Benchmark of the UVG solvers (figures go to runs/bench-uvg.md).
//!
//! ```text
//! nauty-geng -cq 9 > /tmp/uvg9.g6
//! cargo run --release -p gamesweep --example uvg_bench -- /tmp/uvg9.g6
//! ```
//! Without a file argument it uses 100,000 random connected graphs on 9 vertices.
//! Reports, per algorithm, the total time, µs per graph (all starts) and a
//! checksum (Grundy histogram) so that the variants can be seen to agree.

use std::time::Instant;

use gamesweep::graph::general::GeneralGraph;
use gamesweep::graph::{graph6, BitGraph};
use gamesweep::uvg::{self, degree3, general, matching, variants};
use rand::{Rng, SeedableRng};

fn load(args: &[String]) -> Vec<BitGraph> {
    if let Some(path) = args.get(1) {
        let text = std::fs::read_to_string(path).expect("read graph6 file");
        text.lines()
            .map(|l| graph6::parse_bitgraph(l).expect("graph6"))
            .collect()
    } else {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let mut out = Vec::new();
        while out.len() < 100_000 {
            let mut g = BitGraph::new(9);
            for j in 1..9 {
                for i in 0..j {
                    if rng.random::<bool>() {
                        g.add_edge(i, j);
                    }
                }
            }
            if g.is_connected() {
                out.push(g);
            }
        }
        out
    }
}

fn hist(vals: &[u8], h: &mut [u64; 32]) {
    for &x in vals {
        h[x as usize] += 1;
    }
}

/// CPU time of this thread in seconds (the machine is shared, so wall time
/// overstates our cost; Linux only).
fn cpu_now() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns * 1e-9)
}

fn time<F: FnMut(&BitGraph, &mut [u64; 32])>(name: &str, graphs: &[BitGraph], mut f: F) {
    // Best of `REPS` runs: the machine is shared, the minimum is the least disturbed.
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut h = [0u64; 32];
    let mut dt = f64::INFINITY;
    let mut wall = f64::INFINITY;
    for rep in 0..reps {
        let mut hh = [0u64; 32];
        let c = cpu_now();
        let t = Instant::now();
        for g in graphs {
            f(g, &mut hh);
        }
        wall = wall.min(t.elapsed().as_secs_f64());
        dt = dt.min(cpu_now() - c);
        if rep == 0 {
            h = hh;
        }
    }
    print!("[wall {wall:.2} s] ");
    let last = h.iter().rposition(|&c| c != 0).unwrap_or(0);
    println!(
        "{name:<34} cpu {:>8.3} s  {:>7.3} µs/graph  {:?}",
        dt,
        dt * 1e6 / graphs.len() as f64,
        &h[..=last]
    );
}

/// Reduced graph of the complete digraph on 4 vertices (focs-constructions.md).
fn reduced_k4() -> GeneralGraph {
    let n = 4;
    let mut edges = Vec::new();
    let mut next = n;
    for v in 0..n {
        edges.push((v, next));
        next += 1;
    }
    for x in 0..n {
        for y in 0..n {
            if x == y {
                continue;
            }
            let [a, b, c, d, f, a0, c0, d0]: [usize; 8] = std::array::from_fn(|i| next + i);
            next += 8;
            edges.extend([
                (x, a),
                (a, b),
                (b, c),
                (c, d),
                (d, y),
                (a, a0),
                (c, c0),
                (d, d0),
                (b, f),
                (f, d),
            ]);
        }
    }
    GeneralGraph::from_edges(next, &edges).unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let graphs = load(&args);
    let n = graphs.first().map_or(0, |g| g.n());
    println!("{} graphs, n = {n}", graphs.len());

    time("grundy_all (production)", &graphs, |g, h| {
        hist(&uvg::grundy_all(g), h)
    });
    time("variant: SWAR bit-plane DP (reach)", &graphs, |g, h| {
        hist(&variants::swar_planes(g), h)
    });
    time(
        "variant: bit-sliced DP",
        &graphs,
        |g, h| match variants::bitsliced(g) {
            Some(v) => hist(&v, h),
            None => hist(&uvg::grundy_all(g), h),
        },
    );
    println!(
        "  bit-sliced fallbacks (a value >= 4 somewhere): {}",
        graphs
            .iter()
            .filter(|g| variants::bitsliced(g).is_none())
            .count()
    );
    let mut tab64 = Vec::new();
    time(
        "variant: SWAR DP, all subsets",
        &graphs,
        |g, h| match variants::swar_planes_all_subsets(g, &mut tab64) {
            Some(v) => hist(&v, h),
            None => hist(&uvg::grundy_all(g), h),
        },
    );
    let mut tab16 = Vec::new();
    time("variant: scalar bit-plane DP", &graphs, |g, h| {
        hist(&variants::scalar_planes_dp(g, &mut tab16), h)
    });
    let mut tab = Vec::new();
    time("variant: OR-mask DP", &graphs, |g, h| {
        hist(&variants::or_mask_dp(g, &mut tab), h)
    });
    let mut sm = variants::StampedMemo::new();
    time("variant: top-down stamped (v,S)", &graphs, |g, h| {
        hist(&sm.grundy_all(g), h)
    });
    println!(
        "  top-down visits {:.1} positions per graph (subset DP: {})",
        sm.states as f64 / graphs.len() as f64,
        n << (n - 1)
    );
    time("variant: top-down (v,component) hash", &graphs, |g, h| {
        hist(&variants::component_memo(g), h)
    });

    // Two threads, grundy_all only (the sweep's shape).
    let t = Instant::now();
    let half = graphs.len() / 2;
    let (a, b) = graphs.split_at(half);
    let sums: Vec<u64> = std::thread::scope(|s| {
        let ha = s.spawn(|| a.iter().map(|g| uvg::grundy_all(g)[0] as u64).sum::<u64>());
        let hb = s.spawn(|| b.iter().map(|g| uvg::grundy_all(g)[0] as u64).sum::<u64>());
        vec![ha.join().unwrap(), hb.join().unwrap()]
    });
    println!(
        "grundy_all, 2 threads                {:>8.3} s  (checksum {})",
        t.elapsed().as_secs_f64(),
        sums.iter().sum::<u64>()
    );

    time("first_player_wins_all (1 blossom)", &graphs, |g, h| {
        let w = uvg::first_player_wins_all(g);
        h[1] += w.count_ones() as u64;
        h[0] += (g.n() as u32 - w.count_ones()) as u64;
    });
    time("variant: generic blossom, all starts", &graphs, |g, h| {
        let w = variants::generic_always_matched(g, g.all());
        h[1] += w.count_ones() as u64;
        h[0] += (g.n() as u32 - w.count_ones()) as u64;
    });
    time("first_player_wins per start", &graphs, |g, h| {
        for v in 0..g.n() {
            h[uvg::first_player_wins(g, v, g.all()) as usize] += 1;
        }
    });
    time("max_matching", &graphs, |g, h| {
        h[matching::max_matching(g, g.all()) as usize] += 1;
    });
    let deg3: Vec<BitGraph> = graphs
        .iter()
        .filter(|g| g.max_degree() <= 3)
        .copied()
        .collect();
    let mut tests = 0u64;
    time(
        &format!("degree3, {} graphs of maxdeg<=3", deg3.len()),
        &deg3,
        |g, h| {
            for v in 0..g.n() {
                let (x, t) = degree3::grundy_degree3(g, v, g.all()).unwrap();
                h[x as usize] += 1;
                tests += t as u64;
            }
        },
    );
    if !deg3.is_empty() {
        println!(
            "  win/lose tests: {tests} over {} starts, mean {:.3}",
            deg3.len() * n,
            tests as f64 / (deg3.len() * n) as f64
        );
    }

    // Large instances.
    for k in [8u32, 10, 12] {
        let t8 = general::tree_t(k);
        let t = Instant::now();
        let r = general::grundy_general(&t8, 0, None).unwrap();
        println!(
            "grundy_general t({k}) root ({} vertices): value {} nodes {} in {:.4} s",
            t8.n(),
            r.value,
            r.nodes,
            t.elapsed().as_secs_f64()
        );
    }
    let k4 = reduced_k4();
    for s in 0..4 {
        let t = Instant::now();
        let r = general::grundy_general(&k4, s, None).unwrap();
        println!(
            "grundy_general reduced K4 ({} vertices) from {s}: value {} nodes {} in {:.3} s",
            k4.n(),
            r.value,
            r.nodes,
            t.elapsed().as_secs_f64()
        );
    }
    let t = Instant::now();
    let all = k4.all();
    let mut wins = 0;
    for v in 0..k4.n() {
        wins += general::first_player_wins_general(&k4, v, &all) as u32;
    }
    println!(
        "first_player_wins_general on reduced K4, all {} starts: {wins} wins, {:.1} µs/start",
        k4.n(),
        t.elapsed().as_secs_f64() * 1e6 / k4.n() as f64
    );
}
