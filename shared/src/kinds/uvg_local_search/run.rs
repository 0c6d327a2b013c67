//! The shard work of `uvg-local-search`.

use super::*;

/// Rejected steps in a row before a climb is kicked.
pub(super) const STALL: u32 = 400;

pub(super) fn score(values: &[u8]) -> u128 {
    values
        .iter()
        .map(|&v| 1u128 << (3 * v.min(40) as u32))
        .sum()
}

pub(super) fn random_connected(rng: &mut ChaCha8Rng, n: usize) -> BitGraph {
    let mut g = BitGraph::new(n);
    for v in 1..n {
        let u = rng.random_range(0..v);
        g.add_edge(u, v);
    }
    for v in 1..n {
        for u in 0..v {
            if !g.has_edge(u, v) && rng.random_bool(0.25) {
                g.add_edge(u, v);
            }
        }
    }
    g
}

pub(super) fn toggle(g: &mut BitGraph, u: usize, v: usize) {
    if g.has_edge(u, v) {
        g.remove_edge(u, v)
    } else {
        g.add_edge(u, v)
    }
}

pub(super) fn random_pair(rng: &mut ChaCha8Rng, n: usize) -> (usize, usize) {
    let u = rng.random_range(0..n);
    let mut v = rng.random_range(0..n - 1);
    if v >= u {
        v += 1;
    }
    (u, v)
}

/// Outcome of one climb.
pub(super) struct Climb {
    pub(super) best: BitGraph,
    pub(super) best_values: Vec<u8>,
    pub(super) steps: u64,
    pub(super) evaluations: u64,
}

pub(super) fn climb(n: usize, target: u8, steps: u64, seed: u64, index: u64) -> Climb {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let mut g = random_connected(&mut rng, n);
    let mut values = uvg::grundy_all(&g);
    let mut cur = score(&values);
    let (mut best, mut best_values) = (g, values.clone());
    let mut evaluations = 1u64;
    let mut stall = 0u32;
    let mut step = 0u64;
    while step < steps && *best_values.iter().max().unwrap_or(&0) < target {
        step += 1;
        let (u, v) = random_pair(&mut rng, n);
        toggle(&mut g, u, v);
        if !g.is_connected() {
            toggle(&mut g, u, v);
            stall += 1;
        } else {
            let vals = uvg::grundy_all(&g);
            evaluations += 1;
            let s = score(&vals);
            if s >= cur {
                cur = s;
                values = vals;
                stall = 0;
                if values.iter().max() > best_values.iter().max() {
                    best = g;
                    best_values = values.clone();
                }
            } else {
                toggle(&mut g, u, v);
                stall += 1;
            }
        }
        if stall >= STALL {
            stall = 0;
            for _ in 0..3 {
                let (u, v) = random_pair(&mut rng, n);
                toggle(&mut g, u, v);
                if !g.is_connected() {
                    toggle(&mut g, u, v);
                }
            }
            values = uvg::grundy_all(&g);
            evaluations += 1;
            cur = score(&values);
        }
    }
    Climb {
        best,
        best_values,
        steps: step,
        evaluations,
    }
}
