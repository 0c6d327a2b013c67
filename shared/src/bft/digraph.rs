//! Small digraphs and directed vertex geography.
//!
//! Directed vertex geography: a token on a vertex; the player to move moves it
//! along an out-arc to a vertex not yet visited, and the vertex it left is
//! deleted. A player who cannot move loses. The state is (token, remaining
//! vertices); the solver memoises on exactly that pair, which is plenty for
//! the digraphs of at most a handful of vertices that the reduction checks use.

use crate::graph::graph6::{self, Graph6Error};
use crate::graph::{members, VSet};
use std::collections::HashMap;

/// Why a digraph was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DigraphError {
    /// The digraph6 text did not parse.
    #[error("bad digraph6: {0}")]
    Digraph6(#[from] Graph6Error),
    /// More vertices than the bitset representation holds.
    #[error("digraph has {n} vertices; at most {max} are supported")]
    TooManyVertices {
        /// Vertices asked for.
        n: usize,
        /// The limit.
        max: usize,
    },
    /// An arc endpoint outside `0..n`.
    #[error("arc {from} → {to} has an endpoint outside 0..{n}")]
    VertexOutOfRange {
        /// Tail.
        from: usize,
        /// Head.
        to: usize,
        /// Vertex count.
        n: usize,
    },
    /// An arc `v → v`.
    #[error("loop at vertex {0}: geography digraphs have no loops")]
    Loop(usize),
}

/// A loop-free digraph on at most [`Digraph::MAX_N`] vertices; `out[v]` is the
/// out-neighbour set of `v`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Digraph {
    n: usize,
    out: Vec<VSet>,
}

impl Digraph {
    /// Largest supported vertex count (one `u32` bitset per row).
    pub const MAX_N: usize = 32;

    /// Build from arcs `(from, to)`.
    pub fn from_arcs(n: usize, arcs: &[(usize, usize)]) -> Result<Self, DigraphError> {
        if n > Self::MAX_N {
            return Err(DigraphError::TooManyVertices {
                n,
                max: Self::MAX_N,
            });
        }
        let mut out = vec![0; n];
        for &(from, to) in arcs {
            if from >= n || to >= n {
                return Err(DigraphError::VertexOutOfRange { from, to, n });
            }
            if from == to {
                return Err(DigraphError::Loop(from));
            }
            out[from] |= 1 << to;
        }
        Ok(Digraph { n, out })
    }

    /// Parse nauty's digraph6 (`&...`).
    pub fn from_digraph6(s: &str) -> Result<Self, DigraphError> {
        let (n, arcs) = graph6::decode_digraph(s)?;
        Self::from_arcs(n, &arcs)
    }

    /// The digraph6 text of this digraph.
    pub fn to_digraph6(&self) -> String {
        graph6::encode_digraph_with(self.n, |i, j| self.out[i] >> j & 1 == 1)
    }

    /// Number of vertices.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Out-neighbours of `v`.
    pub fn out(&self, v: usize) -> VSet {
        self.out[v]
    }

    /// Number of arcs.
    pub fn arc_count(&self) -> usize {
        self.out.iter().map(|r| r.count_ones() as usize).sum()
    }

    /// All arcs in row-major order (by tail, then head). The reduction numbers
    /// its gadgets in this order.
    pub fn arcs(&self) -> Vec<(usize, usize)> {
        (0..self.n)
            .flat_map(|x| members(self.out[x]).map(move |y| (x, y)))
            .collect()
    }

    /// Directed geography from `s` with every vertex present: does the player to move win?
    /// Panics if `s >= n` (callers validate user input).
    pub fn first_player_wins(&self, s: usize) -> bool {
        assert!(s < self.n, "start {s} out of range");
        let all = if self.n == 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        };
        Geography::new(self).wins(s, all)
    }

    /// P/N of every start vertex.
    pub fn first_player_wins_all(&self) -> Vec<bool> {
        let all = if self.n == 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        };
        let mut g = Geography::new(self);
        (0..self.n).map(|s| g.wins(s, all)).collect()
    }
}

/// Memoised directed geography search over one digraph.
struct Geography<'d> {
    d: &'d Digraph,
    memo: HashMap<(usize, VSet), bool>,
}

impl<'d> Geography<'d> {
    fn new(d: &'d Digraph) -> Self {
        Geography {
            d,
            memo: HashMap::new(),
        }
    }

    /// Token on `v`, `alive` the remaining vertices (containing `v`).
    fn wins(&mut self, v: usize, alive: VSet) -> bool {
        if let Some(&w) = self.memo.get(&(v, alive)) {
            return w;
        }
        let rest = alive & !(1 << v);
        // The mover wins iff some move leaves the opponent in a losing position.
        let w = members(self.d.out[v] & rest).any(|u| !self.wins(u, rest));
        self.memo.insert((v, alive), w);
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directed_paths_and_cycles() {
        // Path 0 → 1 → 2: from 0 two moves are made, so the first player loses.
        let p = Digraph::from_arcs(3, &[(0, 1), (1, 2)]).unwrap();
        assert_eq!(p.first_player_wins_all(), vec![false, true, false]);
        // Directed 3-cycle: the token goes round and the third mover is stuck
        // (the start was deleted): 2 moves, so the first player loses.
        let c = Digraph::from_arcs(3, &[(0, 1), (1, 2), (2, 0)]).unwrap();
        assert_eq!(c.first_player_wins_all(), vec![false; 3]);
        // 0 → 1, 0 → 2, 1 → 2: from 0 move to 2 (a sink) and win.
        let t = Digraph::from_arcs(3, &[(0, 1), (0, 2), (1, 2)]).unwrap();
        assert!(t.first_player_wins(0));
    }

    #[test]
    fn digraph6_round_trip_and_errors() {
        let d = Digraph::from_arcs(4, &[(0, 1), (1, 0), (2, 3), (3, 1)]).unwrap();
        let s = d.to_digraph6();
        assert_eq!(Digraph::from_digraph6(&s).unwrap(), d);
        assert_eq!(d.arcs(), vec![(0, 1), (1, 0), (2, 3), (3, 1)]);
        assert!(matches!(
            Digraph::from_digraph6("Bg"),
            Err(DigraphError::Digraph6(_))
        ));
        assert_eq!(Digraph::from_arcs(2, &[(1, 1)]), Err(DigraphError::Loop(1)));
        assert!(matches!(
            Digraph::from_arcs(2, &[(0, 2)]),
            Err(DigraphError::VertexOutOfRange { .. })
        ));
        assert!(matches!(
            Digraph::from_arcs(33, &[]),
            Err(DigraphError::TooManyVertices { .. })
        ));
    }

    /// Cross-check the memoised search against a plain game-tree search on
    /// every labelled digraph on 3 vertices.
    #[test]
    fn memo_agrees_with_plain_search() {
        fn plain(d: &Digraph, v: usize, visited: VSet) -> bool {
            (0..d.n())
                .filter(|&u| d.out(v) >> u & 1 == 1 && visited >> u & 1 == 0)
                .any(|u| !plain(d, u, visited | 1 << u))
        }
        let pairs: Vec<(usize, usize)> = (0..3)
            .flat_map(|i| (0..3).filter(move |&j| j != i).map(move |j| (i, j)))
            .collect();
        for mask in 0u32..64 {
            let arcs: Vec<_> = pairs
                .iter()
                .enumerate()
                .filter(|(k, _)| mask >> k & 1 == 1)
                .map(|(_, &p)| p)
                .collect();
            let d = Digraph::from_arcs(3, &arcs).unwrap();
            for s in 0..3 {
                assert_eq!(d.first_player_wins(s), plain(&d, s, 1 << s), "{arcs:?} {s}");
            }
        }
    }
}
