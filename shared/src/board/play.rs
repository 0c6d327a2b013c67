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
//! vertices, and stops with [`PlayError::BudgetExceeded`] after `budget`
//! positions.
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
use serde::Serialize;

/// The most vertices [`reply`] plays on (a vertex set is one `u64`).
pub const PLAY_MAX_N: usize = 64;

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

/// The search: adjacency as bit rows, memo by (token, component).
struct Search {
    adj: Vec<u64>,
    memo: FxHashMap<(u8, u64), u32>,
    nodes: u64,
    budget: Option<u64>,
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
    fn remoteness(&mut self, t: usize, free: u64) -> Result<u32, PlayError> {
        let free = self.reach(t, free);
        if self.adj[t] & free == 0 {
            return Ok(0);
        }
        if let Some(&r) = self.memo.get(&(t as u8, free)) {
            return Ok(r);
        }
        self.nodes += 1;
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
        self.memo.insert((t as u8, free), r);
        Ok(r)
    }
}

/// The solver's reply on `text` (graph6) with the token on `token` and the
/// vertices `visited` used up (the token's own vertex may be listed or not),
/// after at most `budget` positions evaluated (`None`: unlimited).
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
    let mut s = Search {
        adj,
        memo: FxHashMap::default(),
        nodes: 0,
        budget,
    };
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
