//! The Burke–Ferland–Teng algorithm for max degree ≤ 3 (MISSION.md "UVG
//! rules"): the Grundy value from win/lose tests (maximum matchings) only.
//!
//! * 0 options: 0 (no test).
//! * One option: `*` if the position moved to is a second-player win, else 0.
//!   (Not "if it is a first-player win" — that mix-up is the seed's recorded
//!   pitfall, caught by the 2-vertex graph.)
//! * Two options: both first-player wins → 0; both second-player wins → `*`;
//!   exactly one second-player win → the other option has value `*` or `*2`;
//!   find it (x) recursively and return 3 − x. The recursion is one path.
//! * Three options (only possible at the start, since later the vertex the
//!   token came from is gone): each option has ≤ 2 options; value each by the
//!   rules above and take the mex.
//!
//! [`run`] is written once over the [`Degree3Game`] trait so that the
//! [`BitGraph`] version here and `uvg::general::degree3_general` are the same
//! code.

use crate::graph::{members, BitGraph, VSet};

/// What the algorithm needs from a graph: options and a win/lose test.
pub(crate) trait Degree3Game {
    /// A set of remaining vertices.
    type Set: Clone;
    /// Neighbours of `v` in `alive`.
    fn options(&self, v: usize, alive: &Self::Set) -> Vec<usize>;
    /// `alive` without `v`.
    fn without(&self, alive: &Self::Set, v: usize) -> Self::Set;
    /// Does the player to move from `v` (remaining `alive`) win?
    fn wins(&self, v: usize, alive: &Self::Set) -> bool;
}

/// Value of (token `v`, remaining `alive`) for a position with at most two
/// options, following the single path of "exactly one losing option" steps.
/// Returns `None` if a position on the path has more than two options.
fn value_le2<G: Degree3Game>(
    game: &G,
    mut v: usize,
    mut alive: G::Set,
    tests: &mut u32,
) -> Option<u8> {
    let mut flips = 0u32;
    let base = loop {
        let opts = game.options(v, &alive);
        let rest = game.without(&alive, v);
        match opts[..] {
            [] => break 0,
            [u] => {
                *tests += 1;
                break if game.wins(u, &rest) { 0 } else { 1 };
            }
            [a, b] => {
                *tests += 2;
                match (game.wins(a, &rest), game.wins(b, &rest)) {
                    (true, true) => break 0,
                    (false, false) => break 1,
                    (true, false) => v = a,
                    (false, true) => v = b,
                }
                // Value = 3 − value(other option).
                flips += 1;
                alive = rest;
            }
            _ => return None,
        }
    };
    if flips & 1 == 0 {
        Some(base)
    } else {
        // The recursion's end is a first-player win (value * or *2), so this
        // is 3 − x with x ∈ {1, 2}; a 0 here would contradict the matching
        // theorem.
        Some(3u8.checked_sub(base)?)
    }
}

/// The algorithm from the start position. `None` if some position it meets
/// has too many options (the caller checks max degree ≤ 3 first).
pub(crate) fn run<G: Degree3Game>(game: &G, v: usize, alive: G::Set) -> Option<(u8, u32)> {
    let mut tests = 0;
    let opts = game.options(v, &alive);
    let value = if opts.len() <= 2 {
        value_le2(game, v, alive, &mut tests)?
    } else if opts.len() == 3 {
        let rest = game.without(&alive, v);
        let mut seen = 0u32;
        for u in opts {
            let x = value_le2(game, u, rest.clone(), &mut tests)?;
            seen |= 1 << x;
        }
        seen.trailing_ones() as u8
    } else {
        return None;
    };
    Some((value, tests))
}

struct BitGame<'g>(&'g BitGraph);

impl Degree3Game for BitGame<'_> {
    type Set = VSet;
    fn options(&self, v: usize, alive: &VSet) -> Vec<usize> {
        members(self.0.nbrs(v) & alive).collect()
    }
    fn without(&self, alive: &VSet, v: usize) -> VSet {
        alive & !(1 << v)
    }
    fn wins(&self, v: usize, alive: &VSet) -> bool {
        super::first_player_wins(self.0, v, *alive)
    }
}

/// Burke–Ferland–Teng degree-3 algorithm (module docs): the value of (token
/// `v`, remaining `alive`) from win/lose tests only. Requires max degree ≤ 3
/// in `v`'s component of `alive` (the only part that matters); returns `None`
/// otherwise. Returns (value, number of win/lose tests used).
pub fn grundy_degree3(g: &BitGraph, v: usize, alive: VSet) -> Option<(u8, u32)> {
    if v >= g.n() {
        return None;
    }
    let alive = (alive & g.all()) | 1 << v;
    let comp = g.component(v, alive);
    if members(comp).any(|u| (g.nbrs(u) & comp).count_ones() > 3) {
        return None;
    }
    run(&BitGame(g), v, comp)
}
