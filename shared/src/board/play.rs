//! Playing UVG against the solver: in a game under way, the remoteness of
//! every move and the solver's reply.
//!
//! The *remoteness* of a position is the number of moves left when the
//! winner plays to win as fast as it can and the loser to lose as slowly as
//! it can (Steinhaus): 0 with no move; else 1 + the least even remoteness of
//! an option if some option has even remoteness (those options are the
//! positions lost for the player then to move), else 1 + the greatest
//! remoteness of an option. The player to move wins exactly when it is odd.
//!
//! The reply is a winning move when there is one (the winning move of least
//! remoteness), else the move of greatest remoteness; ties go to the lowest
//! vertex. The search is exact, over (token, token's component of the
//! unvisited vertices) positions, on graphs of at most [`PLAY_MAX_N`]
//! vertices. On graphs `solve uvg` solves by the subset DP
//! ([`crate::uvg::position::method`]) its table is a flat array indexed by
//! (token, vertex set), at most 16 × 2^16 bytes, and it always runs to the
//! end, whatever the budget: a dense 16-vertex graph takes a few tens of
//! milliseconds. Above, it stops with [`PlayError::BudgetExceeded`] after
//! `budget` positions.
//!
//! ```
//! use gamesweep::board::play::reply;
//! // The path 0 - 1 - 2 - 3, token on 1 (nothing visited yet): moving to 0
//! // ends the game at once, so the solver does that.
//! let r = reply("Ch", &[], 1, None).unwrap();
//! assert_eq!((r.mover_wins, r.remoteness, r.reply), (true, 1, Some(0)));
//! ```

use crate::fxhash::FxHashMap;
use crate::graph::graph6::{self, Graph6Error};
use crate::meter::Gauge;
use crate::uvg::position::{method, Method};
use serde::Serialize;

/// The most vertices [`reply`] plays on (a vertex set is one `u64`).
pub const PLAY_MAX_N: usize = 64;

/// A flat table's empty cell (remoteness is at most 63).
const UNKNOWN: u8 = u8::MAX;

/// Why there is no reply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The graph6 text does not parse.
    #[error("bad graph6 `{text}`: {source}")]
    Graph6 {
        /// The text as given.
        text: String,
        /// What was wrong.
        source: Graph6Error,
    },
    /// More vertices than [`PLAY_MAX_N`].
    #[error("{n} vertices is too many to play on (at most {PLAY_MAX_N})")]
    TooBig {
        /// The vertex count.
        n: usize,
    },
    /// The token or a visited vertex is not a vertex.
    #[error("vertex {v} is not a vertex (the graph has vertices 0..{last})")]
    NoVertex {
        /// The vertex named.
        v: usize,
        /// The largest vertex (or 0 for an empty graph).
        last: usize,
    },
    /// The search needed more positions than the budget.
    #[error("search budget of {budget} positions exceeded")]
    BudgetExceeded {
        /// The budget (positions evaluated).
        budget: u64,
    },
    /// The search's [`Meter`](crate::meter::Meter) was stopped.
    #[error("the search was stopped")]
    Stopped,
}

/// One legal move and the remoteness of the position it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayMove {
    /// The vertex the token moves to.
    pub vertex: usize,
    /// Remoteness after the move (even: the mover wins by it).
    pub remoteness: u32,
    /// Does the player making this move win (under best play afterwards)?
    pub wins: bool,
}

/// The solver's view of a game under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reply {
    /// The vertex the token is on.
    pub token: usize,
    /// Does the player to move win?
    pub mover_wins: bool,
    /// Remoteness of the position: moves left under best play.
    pub remoteness: u32,
    /// The solver's move (`None`: no legal move, the player to move has lost).
    pub reply: Option<usize>,
    /// Every legal move, by vertex.
    pub moves: Vec<PlayMove>,
    /// Positions the search evaluated.
    pub nodes: u64,
}

/// The search's table of remoteness by (token, vertex set).
enum ReplyMemo {
    /// [`Method::SubsetDp`] graphs: cell `token << n | set`, both the
    /// set as asked and the token's component of it.
    Flat { n: usize, cells: Vec<u8> },
    /// Larger graphs: by (token, component).
    Map(FxHashMap<(u8, u64), u32>),
}

impl ReplyMemo {
    fn get(&self, t: usize, set: u64) -> Option<u32> {
        match self {
            ReplyMemo::Flat { n, cells } => {
                let c = cells[(t << n) | set as usize];
                (c != UNKNOWN).then_some(u32::from(c))
            }
            ReplyMemo::Map(m) => m.get(&(t as u8, set)).copied(),
        }
    }

    fn put(&mut self, t: usize, set: u64, r: u32) {
        match self {
            ReplyMemo::Flat { n, cells } => cells[(t << *n) | set as usize] = r as u8,
            ReplyMemo::Map(m) => {
                m.insert((t as u8, set), r);
            }
        }
    }
}

/// The search: adjacency as bit rows, memo by (token, component).
struct Search {
    adj: Vec<u64>,
    memo: ReplyMemo,
    nodes: u64,
    budget: Option<u64>,
    gauge: Gauge,
}

/// Bits of `s`, lowest first.
fn bits(mut s: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (s != 0).then(|| {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            v
        })
    })
}

impl Search {
    /// The vertices of `free` reachable from `t` through `free` (without `t`).
    fn reach(&self, t: usize, free: u64) -> u64 {
        let mut seen = 0u64;
        let mut frontier = self.adj[t] & free;
        while frontier != 0 {
            let w = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            seen |= 1 << w;
            frontier |= self.adj[w] & free & !seen;
        }
        seen
    }

    /// Remoteness of (token `t`, unvisited vertices `free`, `t ∉ free`).
    fn remoteness(&mut self, t: usize, asked: u64) -> Result<u32, PlayError> {
        let flat = matches!(self.memo, ReplyMemo::Flat { .. });
        if flat {
            // The set as asked is a key too: a hit skips the search of the
            // component.
            if let Some(r) = self.memo.get(t, asked) {
                return Ok(r);
            }
        }
        let free = self.reach(t, asked);
        if self.adj[t] & free == 0 {
            return Ok(0);
        }
        if let Some(r) = self.memo.get(t, free) {
            if flat {
                self.memo.put(t, asked, r);
            }
            return Ok(r);
        }
        self.nodes += 1;
        if self.gauge.tick(1) {
            return Err(PlayError::Stopped);
        }
        if let Some(budget) = self.budget {
            if self.nodes > budget {
                return Err(PlayError::BudgetExceeded { budget });
            }
        }
        let (mut least_even, mut most) = (None::<u32>, 0u32);
        for u in bits(self.adj[t] & free) {
            let r = self.remoteness(u, free & !(1 << u))?;
            if r.is_multiple_of(2) {
                least_even = Some(least_even.map_or(r, |e| e.min(r)));
            }
            most = most.max(r);
        }
        let r = 1 + least_even.unwrap_or(most);
        self.memo.put(t, free, r);
        if flat {
            self.memo.put(t, asked, r);
        }
        Ok(r)
    }
}

/// The solver's reply on `text` (graph6) with the token on `token` and the
/// vertices `visited` used up (the token's own vertex may be listed or not),
/// after at most `budget` positions evaluated (`None`: unlimited; graphs the
/// subset DP takes, by [`method`], are searched to the end whatever it is,
/// with a flat table).
pub fn reply(
    text: &str,
    visited: &[usize],
    token: usize,
    budget: Option<u64>,
) -> Result<Reply, PlayError> {
    let text = text.trim();
    let (n, edges) = graph6::decode(text).map_err(|source| PlayError::Graph6 {
        text: text.to_string(),
        source,
    })?;
    if n > PLAY_MAX_N {
        return Err(PlayError::TooBig { n });
    }
    if let Some(&v) = visited.iter().chain([&token]).find(|&&v| v >= n) {
        return Err(PlayError::NoVertex {
            v,
            last: n.saturating_sub(1),
        });
    }
    let mut adj = vec![0u64; n];
    for &(a, b) in &edges {
        adj[a] |= 1 << b;
        adj[b] |= 1 << a;
    }
    let mut free = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    for &v in visited {
        free &= !(1 << v);
    }
    free &= !(1 << token);
    let (memo, budget) = match method(n, budget) {
        Method::SubsetDp => (
            ReplyMemo::Flat {
                n,
                cells: vec![UNKNOWN; n << n],
            },
            None,
        ),
        Method::Search { budget } => (ReplyMemo::Map(FxHashMap::default()), budget),
    };
    search(
        Search {
            adj,
            memo,
            nodes: 0,
            budget,
            gauge: Gauge::current(),
        },
        token,
        free,
    )
}

/// [`reply`] by the search `s`, token on `token`, `free` unvisited.
fn search(mut s: Search, token: usize, free: u64) -> Result<Reply, PlayError> {
    let mut moves = Vec::new();
    for u in bits(s.adj[token] & free) {
        let r = s.remoteness(u, free & !(1 << u))?;
        moves.push(PlayMove {
            vertex: u,
            remoteness: r,
            wins: r.is_multiple_of(2),
        });
    }
    let win = moves
        .iter()
        .filter(|m| m.wins)
        .min_by_key(|m| (m.remoteness, m.vertex));
    let (choice, remoteness) = match win {
        Some(m) => (Some(m.vertex), m.remoteness + 1),
        None => match moves
            .iter()
            .max_by_key(|m| (m.remoteness, std::cmp::Reverse(m.vertex)))
        {
            Some(m) => (Some(m.vertex), m.remoteness + 1),
            None => (None, 0),
        },
    };
    Ok(Reply {
        token,
        mover_wins: remoteness % 2 == 1,
        remoteness,
        reply: choice,
        moves,
        nodes: s.nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search of `text` from `token` (nothing visited), with a flat
    /// table or a map.
    fn by(text: &str, token: usize, flat: bool) -> Reply {
        let (n, edges) = graph6::decode(text).unwrap();
        let mut adj = vec![0u64; n];
        for &(a, b) in &edges {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        let memo = if flat {
            ReplyMemo::Flat {
                n,
                cells: vec![UNKNOWN; n << n],
            }
        } else {
            ReplyMemo::Map(FxHashMap::default())
        };
        let s = Search {
            adj,
            memo,
            nodes: 0,
            budget: None,
            gauge: Gauge::default(),
        };
        let free = ((1u64 << n) - 1) & !(1 << token);
        let mut r = search(s, token, free).unwrap();
        r.nodes = 0;
        r
    }

    #[test]
    fn the_flat_table_and_the_map_agree() {
        // Seeded random graphs of 2..=11 vertices, every token.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for i in 0..60 {
            let n = 2 + i % 10;
            let pct = 20 + next() % 70;
            let m: Vec<bool> = (0..n * n).map(|_| next() % 100 < pct).collect();
            let text = graph6::encode_with(n, |a, b| m[a * n + b]);
            for t in 0..n {
                assert_eq!(by(&text, t, true), by(&text, t, false), "{text} token {t}");
            }
        }
    }

    /// Regression: on a dense 16-vertex graph the reply's search ran past its
    /// budget of 300,000 positions (and past 100 ms); up to 16 vertices it
    /// is exact whatever the budget.
    #[test]
    fn sixteen_vertices_are_searched_to_the_end_whatever_the_budget() {
        // K16 minus a perfect matching.
        let text = graph6::encode_with(16, |a, b| a / 2 != b / 2);
        let r = reply(&text, &[], 0, Some(1)).unwrap();
        let g = crate::graph::BitGraph::from_edges(16, &graph6::decode(&text).unwrap().1);
        assert_eq!(
            r.mover_wins,
            crate::uvg::first_player_wins(&g, 0, g.all()),
            "{r:?}"
        );
        assert_eq!(r.moves.len(), 14);
        // Past 16 vertices the budget holds.
        let k18 = graph6::encode_with(18, |_, _| true);
        assert_eq!(
            reply(&k18, &[], 0, Some(1000)),
            Err(PlayError::BudgetExceeded { budget: 1000 })
        );
    }
}
