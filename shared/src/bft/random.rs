//! Seeded random models. Every random instance `i` of a sweep with seed `S`
//! is drawn from its own ChaCha8 stream: `ChaCha8Rng::seed_from_u64(S)` with
//! `set_stream(i)`. So an instance depends only on (S, i) — never on the
//! shard plan or on the instances before it — and bounded integers come from
//! [`below`] (multiply-shift on `next_u64`), not from `rand`'s range sampling,
//! so the instances stay the same across `rand` versions too.

use super::digraph::Digraph;
use crate::graph::BitGraph;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The generator of instance `instance` under `seed`.
pub fn instance_rng(seed: u64, instance: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(instance);
    rng
}

/// A number in `0..n` (`n ≥ 1`): `⌊next_u64 · n / 2^64⌋`. Its bias is below
/// n / 2^64, far under anything these sweeps could detect.
pub fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    debug_assert!(n >= 1);
    ((rng.next_u64() as u128 * n as u128) >> 64) as u64
}

/// Model of `uvg-reduction`: a uniformly random labelled digraph on 4
/// vertices — each of the 12 ordered pairs (i, j), i ≠ j, in row-major order
/// is an arc iff the matching bit of the low 12 bits of one `next_u32` is set
/// (each arc independently with probability 1/2).
pub fn random_digraph4(seed: u64, instance: u64) -> Digraph {
    let bits = instance_rng(seed, instance).next_u32() & 0xfff;
    digraph_from_mask(4, bits)
}

/// The labelled digraph on `n` vertices whose arcs are the set bits of `mask`
/// over the ordered pairs (i, j), i ≠ j, in row-major order (bit 0 = (0, 1)).
pub fn digraph_from_mask(n: usize, mask: u32) -> Digraph {
    let arcs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
        .enumerate()
        .filter(|(k, _)| mask >> k & 1 == 1)
        .map(|(_, p)| p)
        .collect();
    Digraph::from_arcs(n, &arcs).expect("pairs are in range and loop-free")
}

/// Model of `uvg-degree3`: a connected graph on `n` (1..=32) vertices of
/// maximum degree ≤ 3. A random tree first — vertex v = 1, …, n−1 joins a
/// uniformly chosen earlier vertex of degree < 3 (one always exists: a tree
/// has a leaf) — then `n` attempts at an extra edge: a uniform pair (u, w),
/// added iff u ≠ w, not yet adjacent, and both have degree < 3.
pub fn random_degree3_graph(rng: &mut ChaCha8Rng, n: usize) -> BitGraph {
    let mut g = BitGraph::new(n);
    for v in 1..n {
        let open: Vec<usize> = (0..v).filter(|&u| g.degree(u) < 3).collect();
        let u = open[below(rng, open.len() as u64) as usize];
        g.add_edge(u, v);
    }
    for _ in 0..n {
        let u = below(rng, n as u64) as usize;
        let w = below(rng, n as u64) as usize;
        if u != w && !g.has_edge(u, w) && g.degree(u) < 3 && g.degree(w) < 3 {
            g.add_edge(u, w);
        }
    }
    g
}

/// Model of `uvg-strategy`: a connected graph on `n` (1..=32) vertices. A
/// random recursive tree (vertex v joins a uniform earlier vertex), then every
/// other pair, in lexicographic order, becomes an edge with probability
/// `percent`/100 (`below(100) < percent`).
pub fn random_connected_graph(rng: &mut ChaCha8Rng, n: usize, percent: u64) -> BitGraph {
    let mut g = BitGraph::new(n);
    for v in 1..n {
        let u = below(rng, v as u64) as usize;
        g.add_edge(u, v);
    }
    for u in 0..n {
        for w in u + 1..n {
            if !g.has_edge(u, w) && below(rng, 100) < percent {
                g.add_edge(u, w);
            }
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<_> = (0..20).map(|i| random_digraph4(7, i).arcs()).collect();
        let b: Vec<_> = (0..20).map(|i| random_digraph4(7, i).arcs()).collect();
        assert_eq!(a, b);
        let c: Vec<_> = (0..20).map(|i| random_digraph4(8, i).arcs()).collect();
        assert_ne!(a, c);
        // Not all instances of one seed coincide.
        assert!(a.iter().any(|x| *x != a[0]));
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = instance_rng(1, 0);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[below(&mut rng, 7) as usize] += 1;
        }
        // Each of 7 outcomes expected 1000 times; 800 is > 6 standard deviations off.
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
    }

    #[test]
    fn degree3_graphs_are_connected_and_subcubic() {
        for i in 0..200 {
            let mut rng = instance_rng(3, i);
            let n = 1 + (i as usize % 32);
            let g = random_degree3_graph(&mut rng, n);
            assert_eq!(g.n(), n);
            assert!(g.is_connected());
            assert!(g.max_degree() <= 3);
        }
    }

    #[test]
    fn connected_graphs_are_connected() {
        for i in 0..100 {
            let mut rng = instance_rng(4, i);
            let g = random_connected_graph(&mut rng, 8 + i as usize % 10, 20);
            assert!(g.is_connected());
        }
    }

    #[test]
    fn digraph_masks_follow_row_major_pairs() {
        assert_eq!(digraph_from_mask(3, 0b1).arcs(), vec![(0, 1)]);
        assert_eq!(digraph_from_mask(3, 0b100).arcs(), vec![(1, 0)]);
        assert_eq!(digraph_from_mask(4, 0xfff).arc_count(), 12);
    }
}
