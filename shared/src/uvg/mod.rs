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

pub mod degree3;
pub mod general;
pub mod matching;

mod fxhash;
pub(crate) use fxhash::FxBuildHasher;

/// Largest `n` for which [`grundy_all`] uses the bottom-up subset DP (its
/// table has `2^n` rows; at 16 that is 2^16 · 17 `u16` ≈ 2.2 MB per thread).
pub const SUBSET_DP_MAX_N: usize = 16;

thread_local! {
    static PLANES: RefCell<Vec<u16>> = const { RefCell::new(Vec::new()) };
}

/// Exact Grundy value of every start vertex of a small graph (n ≤ 32, tuned
/// for n ≤ 12). `out[v]` = value of the position (token on `v`, all vertices
/// remaining).
///
/// For `n ≤ 16` this is a bottom-up DP over all vertex subsets `S` in
/// increasing numeric order (so `S − v` is always done before `S`). Row `S`
/// stores "bit planes": `plane[S][k]` = the set of `u ∈ S` with
/// `g(u, S) = k`. Then `g(v, S)` is the least `k` with
/// `plane[S − v][k] ∩ N(v) = ∅` — one AND per candidate value instead of one
/// lookup per option, and the answer is usually 0 or 1. Positions whose
/// `S` is disconnected are computed too; that is wasted work but cheaper
/// than finding components (`runs/bench-uvg.md` compares the variants).
pub fn grundy_all(g: &BitGraph) -> Vec<u8> {
    let n = g.n();
    if n == 0 {
        return Vec::new();
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
fn planes_dp(g: &BitGraph, tab: &mut Vec<u16>) -> Vec<u8> {
    let n = g.n();
    debug_assert!((1..=16).contains(&n));
    // Values never exceed the maximum degree, so planes 0..=maxdeg suffice:
    // the search for the least empty plane stops at k ≤ |N(v) ∩ S| ≤ maxdeg.
    let p = g.max_degree() as usize + 1;
    let rows = 1usize << n;
    if tab.len() < rows * p {
        tab.resize(rows * p, 0);
    }
    let adj: [u16; 16] = std::array::from_fn(|v| if v < n { g.nbrs(v) as u16 } else { 0 });
    tab[..p].fill(0);
    for s in 1..rows {
        let (done, row) = tab.split_at_mut(s * p);
        let row = &mut row[..p];
        row.fill(0);
        let mut vs = s as u16;
        while vs != 0 {
            let v = vs.trailing_zeros() as usize;
            vs &= vs - 1;
            let t = s & !(1 << v);
            let nb = adj[v] & s as u16;
            let mut k = 0;
            if nb != 0 {
                let prev = &done[t * p..t * p + p];
                while prev[k] & nb != 0 {
                    k += 1;
                }
            }
            row[k] |= 1 << v;
        }
    }
    let full = &tab[(rows - 1) * p..rows * p];
    (0..n)
        .map(|v| full.iter().position(|&pl| pl >> v & 1 == 1).unwrap() as u8)
        .collect()
}

/// Memo for the top-down search: key = token | component << 32.
type Memo = HashMap<u64, u8, FxBuildHasher>;

/// Top-down memoised search; `comp` must be the component of `v` (so the key
/// is canonical for the position).
fn memo_grundy(g: &BitGraph, v: usize, comp: VSet, memo: &mut Memo) -> u8 {
    let key = v as u64 | (comp as u64) << 32;
    if let Some(&x) = memo.get(&key) {
        return x;
    }
    let rest = comp & !(1 << v);
    let mut seen = 0u32;
    for u in members(g.nbrs(v) & rest) {
        let cu = g.component(u, rest);
        let x = if cu == 1 << u {
            0
        } else {
            memo_grundy(g, u, cu, memo)
        };
        seen |= 1 << x;
    }
    let x = seen.trailing_ones() as u8;
    memo.insert(key, x);
    x
}

/// Exact Grundy value of the position (token at `v`, remaining vertices
/// `alive`, `v ∈ alive`). Vertices outside `0..g.n()` in `alive` are ignored.
///
/// Small components (≤ 10 vertices) run the subset DP of [`grundy_all`] on
/// the induced component; larger ones a memoised search over (token,
/// component) positions reachable from `v`.
pub fn grundy(g: &BitGraph, v: usize, alive: VSet) -> u8 {
    let alive = (alive & g.all()) | 1 << v;
    let comp = g.component(v, alive);
    if comp.count_ones() <= 10 {
        let h = g.induced(comp);
        let idx = (comp & ((1u32 << v) - 1)).count_ones() as usize;
        PLANES.with(|t| planes_dp(&h, &mut t.borrow_mut()))[idx]
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
    let view = matching::BitView { g, alive: comp };
    let mut b = matching::Blossom::new(&view);
    b.maximize();
    let d = b.missable();
    if d[v] {
        None
    } else {
        matching::mate_options(&b.mate)[v]
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
