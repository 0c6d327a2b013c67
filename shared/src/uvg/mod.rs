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
mod tests;
