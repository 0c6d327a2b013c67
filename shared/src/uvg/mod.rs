//! Undirected vertex geography (UVG): exact Grundy values, matching winner, degree-3 algorithm.
//!
//! Rules (MISSION.md "UVG rules"): a token sits on a vertex; the player to
//! move moves it to an adjacent vertex and the vertex it left is deleted; a
//! player who cannot move loses. A position is (token `v`, remaining vertices
//! `alive` ∋ `v`); only the component of `v` in `alive` matters.
//!
//! * [`grundy_all`] / [`grundy`]: exact Grundy values on a [`BitGraph`]. The
//!   sweep hot path is [`grundy_all`]; for `n ≤ 16` it is a bottom-up subset
//!   DP over "bit planes" (see [`grundy_all`]), above that a memoised search
//!   keyed on (token, token's component).
//! * [`first_player_wins`] / [`winning_move`]: the matching theorem
//!   (Fraenkel–Scheinerman–Ullman), via Edmonds' blossom algorithm in
//!   [`matching`].
//! * [`degree3`]: the Burke–Ferland–Teng algorithm for max degree ≤ 3.
//! * [`general`]: the same on [`GeneralGraph`](crate::graph::general::GeneralGraph)
//!   for instances of hundreds of vertices.
//! * [`position`]: one position solved for `gamesweep solve uvg` (value,
//!   winner and winning move of every start, with an optional budget).
//!
//! ```
//! use gamesweep::graph::BitGraph;
//! use gamesweep::uvg;
//! // Path on 3 vertices: from an end the mover loses, from the middle wins.
//! let p3 = BitGraph::from_edges(3, &[(0, 1), (1, 2)]);
//! assert_eq!(uvg::grundy_all(&p3), vec![0, 1, 0]);
//! assert!(uvg::first_player_wins(&p3, 1, p3.all()));
//! assert_eq!(uvg::winning_move(&p3, 0, p3.all()), None);
//! ```

use std::cell::RefCell;
use std::collections::HashMap;

use crate::graph::{members, BitGraph, VSet};

mod bitsliced;
pub mod degree3;
pub mod extension;
pub mod general;
pub mod incremental;
pub mod lift;
pub mod matching;
pub mod position;
mod smallblossom;

/// Alternative DP and matching kernels kept as benchmark baselines and test
/// oracles only (`--features bench-variants`, or in tests).
#[cfg(any(test, feature = "bench-variants"))]
#[doc(hidden)]
pub mod variants;
pub(crate) use crate::fxhash::FxBuildHasher;

/// Largest `n` for which [`grundy_all`] uses the bottom-up subset DP (its
/// table has `2^n` rows of 1–4 words; at 16 that is at most 2 MB per thread).
pub const SUBSET_DP_MAX_N: usize = 16;

/// Per-thread scratch of the subset DP (reused across calls: no allocation
/// on the hot path besides the result).
struct Scratch {
    tab: Vec<u64>,
    reach: Vec<u16>,
}

thread_local! {
    static PLANES: RefCell<Scratch> = const { RefCell::new(Scratch { tab: Vec::new(), reach: Vec::new() }) };
}

/// Exact Grundy value of every start vertex of a small graph (n ≤ 32, tuned
/// for n ≤ 16). `out[v]` = value of the position (token on `v`, all vertices
/// remaining).
///
/// * n ≤ 11: the bit-sliced subset DP (`uvg/bitsliced.rs`): truth tables over
///   all subsets, updated with 256-bit ORs, iterated to a fixed point.
/// * 12 ≤ n ≤ 16: the incremental subset table ([`incremental`]), kept per
///   thread: complete rows for the graph minus its last vertex, then only
///   the lost positions of the rows with the last vertex and a top-down
///   search for the other starts (a call whose graph shares its first
///   vertices with the previous call's reuses their rows).
/// * the rare overflow of either (a value ≥ 8 somewhere): a per-position
///   subset DP over "bit planes": `plane[S][k]` = the set of `u ∈ S` with
///   `g(u, S) = k`, so `g(v, S)` is the least `k` with
///   `plane[S − v][k] ∩ N(v) = ∅`, found branch-free with SWAR lane tests.
/// * above 16: memoised search keyed on (token, token's component).
///
/// `runs/BENCHMARKS.md` ("UVG solvers") compares these.
pub fn grundy_all(g: &BitGraph) -> Vec<u8> {
    let n = g.n();
    if (12..=incremental::MAX_N).contains(&n) {
        return TABLE.with(|t| t.borrow_mut().push_leaf(g).to_vec());
    }
    grundy_all_direct(g)
}

thread_local! {
    static TABLE: RefCell<incremental::Incremental> = RefCell::new(incremental::Incremental::new());
}

/// [`grundy_all`] without the incremental table (its fallback).
fn grundy_all_direct(g: &BitGraph) -> Vec<u8> {
    let n = g.n();
    if n == 0 {
        return Vec::new();
    }
    if n <= 12 {
        if let Some(vals) = bitsliced::grundy_all_bitsliced(g) {
            return vals;
        }
    }
    if n <= SUBSET_DP_MAX_N {
        PLANES.with(|t| planes_dp(g, &mut t.borrow_mut()))
    } else {
        let mut memo = Memo::default();
        (0..n)
            .map(|v| {
                let comp = g.component(v, g.all());
                memo_grundy(g, v, comp, &mut memo)
            })
            .collect()
    }
}

/// The bit-plane subset DP (see [`grundy_all`]); `tab` is reusable scratch.
///
/// Planes are 16-bit lanes packed four to a `u64` word, `W` words per row
/// (so values `< 4W`). The least empty plane of `row[S − v] ∩ N(v)` is found
/// branch-free with a SWAR "lane is non-zero" test and `trailing_zeros`.
/// Most graphs only ever see values ≤ 3, so we run with `W = 1` first and
/// redo the graph with more words only if some position needs a fifth plane.
fn planes_dp(g: &BitGraph, scratch: &mut Scratch) -> Vec<u8> {
    debug_assert!((1..=16).contains(&g.n()));
    let tab = &mut scratch.tab;
    planes_dp_1(g, tab, &mut scratch.reach)
        .or_else(|| planes_dp_w::<2>(g, tab))
        .or_else(|| planes_dp_w::<4>(g, tab))
        .expect("16 planes hold every value of a graph on at most 16 vertices")
}

const LANE_LO15: u64 = 0x7fff_7fff_7fff_7fff;
const LANE_HI: u64 = 0x8000_8000_8000_8000;
const LANE_ONES: u64 = 0x0001_0001_0001_0001;

/// `W = 1` (values ≤ 3), fully branch-free per position: the lowest empty
/// lane's high bit `2^(16k+15)`, shifted down by 15 and up by `v`, is exactly
/// bit `v` of plane `k`.
///
/// Only positions reachable from some start are evaluated (about half of
/// all (v, S) at n = 9): a first pass over S in decreasing order pushes
/// `reach[S − v] |= N(v) ∩ S` for every reachable `v ∈ reach[S]`. A reachable
/// position's options are reachable, so the planes it reads are complete on
/// `N(v)`; entries of rows never written are only read under an empty `N(v)`
/// mask, which zeroes them.
fn planes_dp_1(g: &BitGraph, tab: &mut Vec<u64>, reach: &mut Vec<u16>) -> Option<Vec<u8>> {
    let n = g.n();
    let rows = 1usize << n;
    if tab.len() < rows {
        tab.resize(rows, 0);
    }
    if reach.len() < rows {
        reach.resize(rows, 0);
    }
    let adj: [u16; 16] = std::array::from_fn(|v| if v < n { g.nbrs(v) as u16 } else { 0 });
    let adjb: [u64; 16] = std::array::from_fn(|v| adj[v] as u64 * LANE_ONES);
    let reach = &mut reach[..rows];
    reach.fill(0);
    reach[rows - 1] = (rows - 1) as u16;
    for s in (1..rows).rev() {
        let mut r = reach[s];
        while r != 0 {
            let v = r.trailing_zeros() as usize;
            r &= r - 1;
            reach[s ^ (1 << v)] |= adj[v] & s as u16;
        }
    }
    tab[0] = 0;
    let mut bad = false;
    for s in 1..rows {
        let mut vs = reach[s];
        if vs == 0 {
            continue;
        }
        let sb = s as u64 * LANE_ONES;
        let mut cur = 0u64;
        while vs != 0 {
            let v = vs.trailing_zeros() as usize;
            vs &= vs - 1;
            let x = tab[s ^ (1 << v)] & adjb[v] & sb;
            let nonzero = (x | ((x & LANE_LO15) + LANE_LO15)) & LANE_HI;
            let empty = nonzero ^ LANE_HI;
            bad |= empty == 0;
            cur |= ((empty & empty.wrapping_neg()) >> 15) << v;
        }
        tab[s] = cur;
    }
    if bad {
        return None;
    }
    let full = tab[rows - 1];
    Some(
        (0..n)
            .map(|v| {
                (0..4)
                    .position(|k| full >> (16 * k + v) & 1 == 1)
                    .expect("has a value") as u8
            })
            .collect(),
    )
}

#[inline(always)]
fn planes_dp_w<const W: usize>(g: &BitGraph, tab: &mut Vec<u64>) -> Option<Vec<u8>> {
    let n = g.n();
    let rows = 1usize << n;
    if tab.len() < rows * W {
        tab.resize(rows * W, 0);
    }
    let adj: [u64; 16] = std::array::from_fn(|v| if v < n { g.nbrs(v) as u64 } else { 0 });
    tab[..W].fill(0);
    for s in 1..rows {
        let mut cur = [0u64; W];
        let mut vs = s as u64;
        while vs != 0 {
            let v = vs.trailing_zeros() as usize;
            vs &= vs - 1;
            let t = s & !(1 << v);
            // N(v) ∩ S broadcast to the four lanes.
            let nbb = (adj[v] & s as u64) * LANE_ONES;
            let prev = &tab[t * W..t * W + W];
            let mut placed = false;
            for w in 0..W {
                let x = prev[w] & nbb;
                let nonzero = (x | ((x & LANE_LO15) + LANE_LO15)) & LANE_HI;
                let empty = !nonzero & LANE_HI;
                if empty != 0 {
                    cur[w] |= (1u64 << v) << (empty.trailing_zeros() - 15);
                    placed = true;
                    break;
                }
            }
            if !placed {
                return None;
            }
        }
        tab[s * W..s * W + W].copy_from_slice(&cur);
    }
    let full = &tab[(rows - 1) * W..rows * W];
    Some(
        (0..n)
            .map(|v| {
                (0..4 * W)
                    .position(|k| full[k / 4] >> (16 * (k % 4) + v) & 1 == 1)
                    .expect("every vertex has a value") as u8
            })
            .collect(),
    )
}

/// Memo for the top-down search: key = token | component << 32.
type Memo = HashMap<u64, u8, FxBuildHasher>;

/// Top-down memoised search; `comp` must be the component of `v` (so the key
/// is canonical for the position).
fn memo_grundy(g: &BitGraph, v: usize, comp: VSet, memo: &mut Memo) -> u8 {
    let mut left = u64::MAX;
    memo_grundy_budget(g, v, comp, memo, &mut left).expect("unlimited budget")
}

/// [`memo_grundy`] that gives up (`None`) once `left` new positions have
/// been evaluated; `left` is decremented per evaluated position.
fn memo_grundy_budget(
    g: &BitGraph,
    v: usize,
    comp: VSet,
    memo: &mut Memo,
    left: &mut u64,
) -> Option<u8> {
    let key = v as u64 | (comp as u64) << 32;
    if let Some(&x) = memo.get(&key) {
        return Some(x);
    }
    *left = left.checked_sub(1)?;
    let rest = comp & !(1 << v);
    let mut seen = 0u32;
    for u in members(g.nbrs(v) & rest) {
        let cu = g.component(u, rest);
        let x = if cu == 1 << u {
            0
        } else {
            memo_grundy_budget(g, u, cu, memo, left)?
        };
        seen |= 1 << x;
    }
    let x = seen.trailing_ones() as u8;
    memo.insert(key, x);
    Some(x)
}

/// Exact Grundy value of the position (token at `v`, remaining vertices
/// `alive`, `v ∈ alive`). Vertices outside `0..g.n()` in `alive` are ignored.
///
/// Components of at most 16 vertices run [`grundy_all`] on the induced
/// component; larger ones a memoised search over the (token, component)
/// positions reachable from `v`.
pub fn grundy(g: &BitGraph, v: usize, alive: VSet) -> u8 {
    let alive = (alive & g.all()) | 1 << v;
    let comp = g.component(v, alive);
    if comp.count_ones() as usize <= SUBSET_DP_MAX_N {
        let h = g.induced(comp);
        let idx = (comp & ((1u32 << v) - 1)).count_ones() as usize;
        grundy_all(&h)[idx]
    } else {
        memo_grundy(g, v, comp, &mut Memo::default())
    }
}

/// Matching theorem: the player to move from `v` (remaining `alive`) wins iff
/// ν(G) > ν(G − v), i.e. iff `v` is covered by every maximum matching (only
/// `v`'s component matters).
pub fn first_player_wins(g: &BitGraph, v: usize, alive: VSet) -> bool {
    let alive = (alive & g.all()) | 1 << v;
    let comp = g.component(v, alive);
    matching::always_matched(g, comp) >> v & 1 == 1
}

/// A winning move (`v`'s partner in a maximum matching) if the mover wins, else `None`.
pub fn winning_move(g: &BitGraph, v: usize, alive: VSet) -> Option<usize> {
    let alive = (alive & g.all()) | 1 << v;
    let comp = g.component(v, alive);
    let mut b = smallblossom::SmallBlossom::new(g, comp);
    b.maximize();
    if b.missable() >> v & 1 == 1 {
        None
    } else {
        Some(b.mate[v] as usize)
    }
}

/// For every start vertex at once: the set of starts from which the player
/// to move wins (all vertices remaining), by the matching theorem — one
/// blossom run plus one forest search for the whole graph.
pub fn first_player_wins_all(g: &BitGraph) -> VSet {
    matching::always_matched(g, g.all())
}

#[cfg(test)]
mod tests {
    // Cross-checks of every UVG solver against independent naive definitions.
    #![allow(clippy::needless_range_loop)] // vertex-indexed loops read clearer here

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::general::*;
    use super::*;
    use crate::graph::general::{GeneralGraph, VertexSet};

    /// Grundy value straight from the definition: no memo, no components.
    fn naive_grundy(g: &BitGraph, v: usize, alive: VSet) -> u8 {
        let rest = alive & !(1 << v);
        let mut seen = 0u64;
        for u in members(g.nbrs(v) & rest) {
            seen |= 1 << naive_grundy(g, u, rest);
        }
        seen.trailing_ones() as u8
    }

    /// Matching number by exhaustive recursion.
    fn naive_nu(g: &BitGraph, s: VSet) -> u32 {
        if s == 0 {
            return 0;
        }
        let v = s.trailing_zeros() as usize;
        let rest = s & !(1 << v);
        let mut best = naive_nu(g, rest);
        for u in members(g.nbrs(v) & rest) {
            best = best.max(1 + naive_nu(g, rest & !(1 << u)));
        }
        best
    }

    /// Every labelled graph on `n` vertices (all 2^(n choose 2) edge subsets).
    fn all_labelled(n: usize) -> impl Iterator<Item = BitGraph> {
        let pairs: Vec<(usize, usize)> = (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).collect();
        (0u64..1 << pairs.len()).map(move |mask| {
            let mut g = BitGraph::new(n);
            for (k, &(i, j)) in pairs.iter().enumerate() {
                if mask >> k & 1 == 1 {
                    g.add_edge(i, j);
                }
            }
            g
        })
    }

    fn random_graph(rng: &mut ChaCha8Rng, n: usize, p: f64) -> BitGraph {
        let mut g = BitGraph::new(n);
        for j in 1..n {
            for i in 0..j {
                if rng.random::<f64>() < p {
                    g.add_edge(i, j);
                }
            }
        }
        g
    }

    /// Random graph with max degree ≤ 3: random edges, kept only while both ends have room.
    fn random_deg3(rng: &mut ChaCha8Rng, n: usize, tries: usize) -> BitGraph {
        let mut g = BitGraph::new(n);
        for _ in 0..tries {
            let a = rng.random_range(0..n);
            let b = rng.random_range(0..n);
            if a != b && g.degree(a) < 3 && g.degree(b) < 3 {
                g.add_edge(a, b);
            }
        }
        g
    }

    #[test]
    fn grundy_all_matches_naive_on_all_labelled_graphs_up_to_6() {
        for n in 1..=6 {
            for g in all_labelled(n) {
                let all = grundy_all(&g);
                for v in 0..n {
                    assert_eq!(all[v], naive_grundy(&g, v, g.all()), "{g:?} from {v}");
                }
            }
        }
    }

    #[test]
    fn grundy_of_positions_matches_naive() {
        // Every position (v, alive) of every labelled graph on 5 vertices, and
        // random positions of random graphs up to 11 vertices (naive is exponential).
        for g in all_labelled(5) {
            for alive in 1..32u32 {
                for v in members(alive) {
                    assert_eq!(grundy(&g, v, alive), naive_grundy(&g, v, alive));
                }
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..300 {
            let n = rng.random_range(6..=11);
            let p = rng.random_range(0.2..0.6);
            let g = random_graph(&mut rng, n, p);
            let alive = rng.random::<u32>() & g.all();
            let v = rng.random_range(0..n);
            assert_eq!(
                grundy(&g, v, alive | 1 << v),
                naive_grundy(&g, v, alive | 1 << v)
            );
        }
    }

    #[test]
    fn large_n_search_matches_subset_dp() {
        // grundy_all switches from the subset DP to the memoised search above
        // SUBSET_DP_MAX_N; both must agree on the same graphs.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..40 {
            let n = rng.random_range(8..=14);
            let p = rng.random_range(0.15..0.5);
            let g = random_graph(&mut rng, n, p);
            let dp = grundy_all(&g);
            let mut memo = Memo::default();
            for v in 0..n {
                let comp = g.component(v, g.all());
                assert_eq!(dp[v], memo_grundy(&g, v, comp, &mut memo));
            }
        }
        // And a graph above the switch: the tree t(4) plus a pendant path, 20 vertices.
        let t4 = tree_t(4).to_bitgraph().unwrap();
        let mut g = t4;
        let mut last = 15;
        for _ in 0..4 {
            last = g.push_vertex(1 << last);
        }
        assert!(g.n() > SUBSET_DP_MAX_N);
        let vals = grundy_all(&g);
        for v in 0..g.n() {
            assert_eq!(vals[v], grundy(&g, v, g.all()));
        }
        assert_eq!(vals[0], 4);
    }

    #[test]
    fn max_matching_matches_brute_force() {
        for n in 1..=6 {
            for g in all_labelled(n) {
                for alive in [g.all(), g.all() & 0b101101, g.all() & 0b11110] {
                    let nu = matching::max_matching(&g, alive);
                    assert_eq!(nu, naive_nu(&g, alive), "{g:?} alive {alive:b}");
                    let mates = matching::max_matching_mates(&g, alive);
                    let mut count = 0;
                    for (v, m) in mates.iter().enumerate() {
                        if let Some(u) = *m {
                            assert!(g.has_edge(u, v) && alive >> u & 1 == 1 && alive >> v & 1 == 1);
                            assert_eq!(mates[u], Some(v));
                            count += 1;
                        }
                    }
                    assert_eq!(count, 2 * nu);
                }
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..300 {
            let n = rng.random_range(7..=16);
            let p = rng.random_range(0.1..0.5);
            let g = random_graph(&mut rng, n, p);
            let nu = naive_nu(&g, g.all());
            assert_eq!(matching::max_matching(&g, g.all()), nu);
            assert_eq!(variants::generic_max_matching(&g, g.all()), nu);
        }
        // Larger graphs (no brute force): the stack-array and the generic
        // blossom implementations agree on ν and on D(G) (and ν(G − v) = ν(G)
        // exactly for v ∈ D(G)).
        for _ in 0..300 {
            let n = rng.random_range(17..=32);
            let p = rng.random_range(0.03..0.3);
            let g = random_graph(&mut rng, n, p);
            let alive = g.all() & !(rng.random::<u32>() & rng.random::<u32>());
            let nu = matching::max_matching(&g, alive);
            assert_eq!(variants::generic_max_matching(&g, alive), nu);
            let am = matching::always_matched(&g, alive);
            assert_eq!(variants::generic_always_matched(&g, alive), am);
            for v in members(alive) {
                let nu_v = matching::max_matching(&g, alive & !(1 << v));
                assert_eq!(am >> v & 1 == 1, nu_v < nu);
            }
        }
    }

    #[test]
    fn matching_theorem_on_every_position() {
        // first_player_wins ⇔ grundy ≠ 0, ⇔ ν(G) > ν(G − v) by brute force;
        // winning_move is a legal move to a 0-position.
        let check = |g: &BitGraph, v: usize, alive: VSet, x: u8| {
            let comp = g.component(v, alive);
            let wins = first_player_wins(g, v, alive);
            assert_eq!(wins, x != 0, "{g:?} v={v} alive={alive:b}");
            assert_eq!(wins, naive_nu(g, comp) > naive_nu(g, comp & !(1 << v)));
            match winning_move(g, v, alive) {
                Some(u) => {
                    assert!(wins && g.has_edge(v, u) && alive >> u & 1 == 1);
                    assert_eq!(grundy(g, u, alive & !(1 << v)), 0);
                }
                None => assert!(!wins),
            }
        };
        for n in 1..=5 {
            for g in all_labelled(n) {
                for alive in 1..=g.all() {
                    for v in members(alive) {
                        check(&g, v, alive, naive_grundy(&g, v, alive));
                    }
                }
            }
        }
        for g in all_labelled(6) {
            let vals = grundy_all(&g);
            let wins_all = first_player_wins_all(&g);
            for v in 0..6 {
                check(&g, v, g.all(), vals[v]);
                assert_eq!(wins_all >> v & 1 == 1, vals[v] != 0);
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..400 {
            let n = rng.random_range(7..=13);
            let p = rng.random_range(0.1..0.6);
            let g = random_graph(&mut rng, n, p);
            let alive = (rng.random::<u32>() | rng.random::<u32>()) & g.all();
            let v = rng.random_range(0..n);
            let alive = alive | 1 << v;
            check(&g, v, alive, grundy(&g, v, alive));
        }
    }

    #[test]
    fn degree3_matches_exact() {
        let mut positions = 0;
        let mut tests_used = 0u64;
        for n in 1..=7 {
            for g in all_labelled(n) {
                if g.max_degree() > 3 {
                    assert_eq!(degree3::grundy_degree3(&g, 0, g.all()).is_none(), {
                        let c = g.component(0, g.all());
                        members(c).any(|u| (g.nbrs(u) & c).count_ones() > 3)
                    });
                    continue;
                }
                let vals = grundy_all(&g);
                for v in 0..n {
                    let (x, t) = degree3::grundy_degree3(&g, v, g.all()).unwrap();
                    assert_eq!(x, vals[v], "{g:?} from {v}");
                    positions += 1;
                    tests_used += t as u64;
                }
            }
        }
        assert!(positions > 100_000);
        assert!(tests_used > 0);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for _ in 0..200 {
            let n = rng.random_range(12..=28);
            let g = random_deg3(&mut rng, n, 2 * n);
            let v = rng.random_range(0..n);
            let (x, _) = degree3::grundy_degree3(&g, v, g.all()).unwrap();
            assert_eq!(x, grundy(&g, v, g.all()), "{g:?} from {v}");
            let gg = GeneralGraph::from_bitgraph(&g);
            let (y, _) = degree3_general(&gg, v, &gg.all()).unwrap();
            assert_eq!(y, x as u32);
        }
    }

    #[test]
    fn one_option_pitfall_two_vertices() {
        // K2: the single option leaves the opponent stuck, so the value is *,
        // not 0 (the seed's first degree-3 implementation got this backwards).
        let k2 = BitGraph::from_edges(2, &[(0, 1)]);
        assert_eq!(grundy_all(&k2), vec![1, 1]);
        assert_eq!(degree3::grundy_degree3(&k2, 0, k2.all()), Some((1, 1)));
        assert!(first_player_wins(&k2, 0, k2.all()));
        assert_eq!(winning_move(&k2, 0, k2.all()), Some(1));
        let g = GeneralGraph::from_bitgraph(&k2);
        assert_eq!(degree3_general(&g, 1, &g.all()), Some((1, 1)));
        // A vertex of degree 4 is refused.
        let star = BitGraph::from_edges(5, &[(0, 1), (0, 2), (0, 3), (0, 4)]);
        assert_eq!(degree3::grundy_degree3(&star, 1, star.all()), None);
    }

    #[test]
    fn general_solver_matches_bitgraph_solver() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        for _ in 0..150 {
            let n = rng.random_range(2..=14);
            let p = rng.random_range(0.1..0.5);
            let b = random_graph(&mut rng, n, p);
            let g = GeneralGraph::from_bitgraph(&b);
            let vals = grundy_all(&b);
            let all = g.all();
            for v in 0..n {
                // small_limit 0: the pure adjacency-list search, no BitGraph hand-off.
                let r = grundy_general_with(&g, v, None, 0).unwrap();
                assert_eq!(r.value, vals[v] as u32, "{b:?} from {v}");
                assert_eq!(grundy_general(&g, v, None).unwrap().value, vals[v] as u32);
                assert_eq!(first_player_wins_general(&g, v, &all), vals[v] != 0);
                match winning_move_general(&g, v, &all) {
                    Some(u) => {
                        let mut rest = all.clone();
                        rest.remove(v);
                        assert!(g.has_edge(u, v));
                        assert_eq!(grundy(&b, u, b.all() & !(1 << v)), 0);
                        let _ = rest;
                    }
                    None => assert_eq!(vals[v], 0),
                }
            }
            let mates = max_matching_general(&g, &all);
            let nu = mates.iter().filter(|m| m.is_some()).count() / 2;
            assert_eq!(nu as u32, naive_nu(&b, b.all()));
            assert_eq!(max_matching_size_general(&g, &all), nu);
        }
    }

    #[test]
    fn trees_have_value_k() {
        for k in 0..=8u32 {
            let t = tree_t(k);
            assert_eq!(t.n(), 1 << k);
            assert_eq!(t.edge_count(), (1 << k) - 1);
            let r = grundy_general(&t, 0, None).unwrap();
            assert_eq!(r.value, k);
            let r0 = grundy_general_with(&t, 0, None, 0).unwrap();
            assert_eq!(r0.value, k);
            if k <= 5 {
                let b = t.to_bitgraph().unwrap();
                assert_eq!(grundy_all(&b)[0] as u32, k);
            }
            // k ≥ 1: the root is in every maximum matching (value ≠ 0).
            assert_eq!(first_player_wins_general(&t, 0, &t.all()), k != 0);
        }
    }

    #[test]
    fn budget_is_enforced() {
        let t = tree_t(8);
        let full = grundy_general_with(&t, 0, None, 0).unwrap();
        assert!(full.nodes > 10);
        let err = grundy_general_with(&t, 0, Some(10), 0).unwrap_err();
        assert_eq!(
            err,
            BudgetExceeded {
                nodes: 11,
                stopped: false
            }
        );
        assert_eq!(
            grundy_general_with(&t, 0, Some(full.nodes), 0).unwrap(),
            full
        );
        // With the BitGraph hand-off (components ≤ 32 vertices) the budget still
        // binds: t(9) from the root meets t(5) components (32 vertices).
        let t9 = tree_t(9);
        let full = grundy_general(&t9, 0, None).unwrap();
        assert_eq!(full.value, 9);
        assert_eq!(grundy_general(&t9, 0, Some(full.nodes)).unwrap(), full);
        for b in [0, 1, 5, 40, full.nodes - 1] {
            let e = grundy_general(&t9, 0, Some(b)).unwrap_err();
            assert!(e.nodes > b, "budget {b}: {e:?}");
        }
        // A 32-vertex component handed to the BitGraph search also respects it.
        let t5 = tree_t(5);
        let all5 = grundy_general(&t5, 0, None).unwrap();
        assert_eq!(all5.value, 5);
        assert!(grundy_general(&t5, 0, Some(all5.nodes - 1)).is_err());
    }

    /// The directed → undirected reduction of focs-constructions.md applied to
    /// a digraph on `n` vertices: original vertices keep their numbers, leaf
    /// `v0` for each, and the 8-vertex gadget per arc.
    fn reduce_digraph(n: usize, arcs: &[(usize, usize)]) -> GeneralGraph {
        let mut edges = Vec::new();
        let mut next = n;
        let mut fresh = || {
            next += 1;
            next - 1
        };
        for v in 0..n {
            let leaf = fresh();
            edges.push((v, leaf));
        }
        for &(x, y) in arcs {
            let [a, b, c, d, f, a0, c0, d0] = std::array::from_fn(|_| fresh());
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
        GeneralGraph::from_edges(next, &edges).unwrap()
    }

    /// Directed vertex geography by plain recursion: does the mover from `v` win?
    fn dvg_wins(arcs: &[(usize, usize)], v: usize, alive: u32) -> bool {
        let rest = alive & !(1 << v);
        arcs.iter()
            .any(|&(x, y)| x == v && rest >> y & 1 == 1 && !dvg_wins(arcs, y, rest))
    }

    #[test]
    fn reduced_complete_digraph_k4() {
        let arcs: Vec<(usize, usize)> = (0..4)
            .flat_map(|x| (0..4).filter(move |&y| y != x).map(move |y| (x, y)))
            .collect();
        assert_eq!(arcs.len(), 12);
        let g = reduce_digraph(4, &arcs);
        assert_eq!(g.n(), 104);
        for s in 0..4 {
            let r = grundy_general(&g, s, Some(50_000_000)).unwrap();
            // The paper's claim: P-position → exactly *, N-position → not 0, not *.
            if dvg_wins(&arcs, s, 0b1111) {
                assert!(r.value >= 2, "start {s}: value {}", r.value);
            } else {
                assert_eq!(r.value, 1);
            }
            assert_eq!(first_player_wins_general(&g, s, &g.all()), r.value != 0);
        }
    }

    #[test]
    fn reduction_claim_on_small_digraphs() {
        // All digraphs on 3 vertices, every start: the reduction's value is * iff
        // the start is a P-position of directed geography (paper's claim).
        let pairs: Vec<(usize, usize)> = (0..3)
            .flat_map(|x| (0..3).filter(move |&y| y != x).map(move |y| (x, y)))
            .collect();
        for mask in 0u32..1 << pairs.len() {
            let arcs: Vec<_> = (0..pairs.len())
                .filter(|k| mask >> k & 1 == 1)
                .map(|k| pairs[k])
                .collect();
            let g = reduce_digraph(3, &arcs);
            for s in 0..3 {
                let x = grundy_general(&g, s, None).unwrap().value;
                assert_eq!(x == 1, !dvg_wins(&arcs, s, 0b111), "arcs {arcs:?} s {s}");
                assert_ne!(x, 0);
            }
        }
        let _ = VertexSet::empty(0);
    }

    /// The matching test from the parent's matching (`matching_and_missable`
    /// of `g` minus its last vertex, then `always_matched_extending`) agrees
    /// with the one from scratch and with the matching number by recursion:
    /// every labelled graph up to 7 vertices (connected or not), and random
    /// ones up to 16.
    #[test]
    fn always_matched_extending_agrees_with_from_scratch() {
        let check = |g: &BitGraph| {
            let n = g.n();
            let below = g.all() >> 1;
            let (mate, nu, d) = matching::matching_and_missable(g, below);
            assert_eq!(nu, naive_nu(g, below));
            let got = matching::always_matched_extending(g, &mate, nu, d);
            assert_eq!(got, matching::always_matched(g, g.all()), "n = {n}");
            // Against the definition: v is always matched iff removing it
            // lowers the matching number.
            let full = naive_nu(g, g.all());
            let want = members(g.all())
                .filter(|&v| naive_nu(g, g.all() & !(1 << v)) < full)
                .fold(0, |s, v| s | 1 << v);
            assert_eq!(got, want, "n = {n}");
        };
        for n in 2..=7 {
            for g in all_labelled(n) {
                check(&g);
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(39);
        for _ in 0..3000 {
            let n = rng.random_range(8..=16);
            let p = rng.random_range(0.05..0.5);
            check(&random_graph(&mut rng, n, p));
        }
    }
}
