//! Playing Col and Myopic Col against the solver: in a position with a side
//! to move, the remoteness of every move and the solver's reply.
//!
//! **Longest, for a partizan game.** A Col position and the side to move
//! (Left, Blue, or Right, Red) fix a game of alternating moves: the side to
//! move colours a vertex, then the other side, and so on; whoever cannot
//! move loses. Its *remoteness* is Steinhaus's, on that alternating game:
//! 0 when the side to move has no legal move; else, if some move leads to a
//! position of even remoteness (one lost for the opponent, who is then to
//! move), 1 + the least such; else 1 + the greatest remoteness of a move's
//! position. It is the number of moves still to be made when the winner
//! plays to win as fast as it can and the loser to lose as slowly as it
//! can, both sides' moves counted. The side to move wins exactly when it is
//! odd (so the side to move wins here exactly when the canonical value says
//! it does: Left moving first wins iff the value is > 0 or fuzzy).
//!
//! **The reply.** A winning move when there is one: the winning move of
//! least remoteness (the quickest win); else the move of greatest
//! remoteness (the longest resistance); ties go to the lowest vertex, so
//! the reply is a pure function of (board, colouring, side to move).
//!
//! The search is exact, memoised by the reduced position
//! ([`crate::col::Pos`]: the colours each uncoloured vertex may still take)
//! and the side to move, and stops with [`ColPlayError::BudgetExceeded`]
//! after `budget` positions.
//!
//! ```
//! use gamesweep::board::colplay::{reply, Side};
//! use gamesweep::col::Rules;
//! // Col on the path 0 - 1 - 2 (graph6 `Bg`), nothing coloured, Blue to
//! // move: whatever Blue colours, Red answers with the vertex that leaves
//! // Blue no move (the value is 0: the first player loses). Every move
//! // lasts two moves, so the solver takes the lowest vertex.
//! let r = reply(Rules::Col, "Bg", "...", Side::Left, None).unwrap();
//! assert!(!r.mover_wins);
//! assert_eq!((r.remoteness, r.reply), (2, Some(0)));
//! ```

use crate::col::{parse_board, parse_colouring, Board, ColError, Colour, Pos, Rules};
use crate::fxhash::FxHashMap;
use crate::graph::members;
use crate::meter::Gauge;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A side: Left (Blue) or Right (Red).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// Left, Blue (`L`).
    #[serde(rename = "L")]
    Left,
    /// Right, Red (`R`).
    #[serde(rename = "R")]
    Right,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }

    /// `L` or `R` (also `B` for Blue); anything else is `None`.
    pub fn parse(s: &str) -> Option<Side> {
        match s.trim() {
            "L" | "l" | "B" | "b" | "left" | "blue" => Some(Side::Left),
            "R" | "r" | "right" | "red" => Some(Side::Right),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Left => "L",
            Side::Right => "R",
        })
    }
}

/// Why there is no reply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColPlayError {
    /// The board or colouring was refused (as `solve col` refuses it).
    #[error("{0}")]
    Col(#[from] ColError),
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

/// One legal move of the side to move and the remoteness after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ColPlayMove {
    /// The vertex coloured.
    pub vertex: usize,
    /// Remoteness after the move, the other side to move (even: the mover
    /// wins by it).
    pub remoteness: u32,
    /// Does the side making this move win (under best play afterwards)?
    pub wins: bool,
}

/// The solver's view of a Col position with a side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ColReply {
    /// The side to move.
    pub side: Side,
    /// Does the side to move win?
    pub mover_wins: bool,
    /// Remoteness of the position: moves left under best play, both sides'.
    pub remoteness: u32,
    /// The solver's move for the side to move (`None`: it has no legal
    /// move, it has lost).
    pub reply: Option<usize>,
    /// Every legal move of the side to move, by vertex.
    pub moves: Vec<ColPlayMove>,
    /// Positions the search evaluated.
    pub nodes: u64,
}

/// The remoteness search: memo by (reduced position, side to move).
struct Search<'a> {
    board: &'a Board,
    memo: FxHashMap<(u32, u32, bool), u8>,
    nodes: u64,
    budget: Option<u64>,
    gauge: Gauge,
}

impl Search<'_> {
    fn options(&self, p: Pos, side: Side) -> impl Iterator<Item = (usize, Pos)> + '_ {
        let b = self.board;
        let set = match side {
            Side::Left => p.l,
            Side::Right => p.r,
        };
        members(set).map(move |u| {
            (
                u,
                match side {
                    Side::Left => p.move_left(b, u),
                    Side::Right => p.move_right(b, u),
                },
            )
        })
    }

    fn remoteness(&mut self, p: Pos, side: Side) -> Result<u32, ColPlayError> {
        let set = match side {
            Side::Left => p.l,
            Side::Right => p.r,
        };
        if set == 0 {
            return Ok(0);
        }
        let key = (p.l, p.r, side == Side::Left);
        if let Some(&r) = self.memo.get(&key) {
            return Ok(u32::from(r));
        }
        self.nodes += 1;
        if self.gauge.tick(1) {
            return Err(ColPlayError::Stopped);
        }
        if let Some(budget) = self.budget {
            if self.nodes > budget {
                return Err(ColPlayError::BudgetExceeded { budget });
            }
        }
        let (mut least_even, mut most) = (None::<u32>, 0u32);
        let opts: Vec<(usize, Pos)> = self.options(p, side).collect();
        for (_, q) in opts {
            let r = self.remoteness(q, side.other())?;
            if r.is_multiple_of(2) {
                least_even = Some(least_even.map_or(r, |e| e.min(r)));
            }
            most = most.max(r);
        }
        let r = 1 + least_even.unwrap_or(most);
        // At most 32 moves are left (one a vertex): fits a byte.
        self.memo.insert(key, r as u8);
        Ok(r)
    }
}

/// The solver's reply in the reduced position `pos` of `board`, `side` to
/// move, after at most `budget` positions evaluated (`None`: unlimited).
pub fn reply_at(
    board: &Board,
    pos: Pos,
    side: Side,
    budget: Option<u64>,
) -> Result<ColReply, ColPlayError> {
    let mut s = Search {
        board,
        memo: FxHashMap::default(),
        nodes: 0,
        budget,
        gauge: Gauge::current(),
    };
    let opts: Vec<(usize, Pos)> = s.options(pos, side).collect();
    let mut moves = Vec::with_capacity(opts.len());
    for (u, q) in opts {
        let r = s.remoteness(q, side.other())?;
        moves.push(ColPlayMove {
            vertex: u,
            remoteness: r,
            wins: r.is_multiple_of(2),
        });
    }
    let win = moves
        .iter()
        .filter(|m| m.wins)
        .min_by_key(|m| (m.remoteness, m.vertex));
    let chosen = win.or_else(|| {
        moves
            .iter()
            .max_by_key(|m| (m.remoteness, std::cmp::Reverse(m.vertex)))
    });
    let (reply, remoteness) = match chosen {
        Some(m) => (Some(m.vertex), m.remoteness + 1),
        None => (None, 0),
    };
    Ok(ColReply {
        side,
        mover_wins: remoteness % 2 == 1,
        remoteness,
        reply,
        moves,
        nodes: s.nodes,
    })
}

/// The solver's reply on `text` (graph6 for Col, digraph6 for Myopic Col)
/// with `colouring` (one character a vertex: `.`, `L`/`B`, `R`; empty: all
/// uncoloured), `side` to move, within `budget` positions (`None`:
/// unlimited). The board and colouring are refused as `solve col` refuses
/// them (in Col no edge joins two vertices of one colour).
pub fn reply(
    rules: Rules,
    text: &str,
    colouring: &str,
    side: Side,
    budget: Option<u64>,
) -> Result<ColReply, ColPlayError> {
    let text = text.trim();
    let board = parse_board(rules, text)?;
    let colouring = if colouring.is_empty() {
        ".".repeat(board.n())
    } else {
        colouring.to_string()
    };
    let cols = parse_colouring(&colouring, board.n())?;
    if rules == Rules::Col {
        for u in 0..board.n() {
            for w in members(board.look(u)) {
                if u < w && cols[u] != Colour::None && cols[u] == cols[w] {
                    return Err(ColError::SameColourEdge { u, v: w }.into());
                }
            }
        }
    }
    reply_at(&board, board.position(&cols), side, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::graph6;
    use crate::graph::BitGraph;
    use std::collections::HashMap;

    /// Brute force by the definition, on colourings (blue, red masks) and
    /// the rules' look-lists, with none of the reductions.
    struct Brute<'a> {
        b: &'a Board,
        memo: HashMap<(u32, u32, bool), u32>,
    }

    impl Brute<'_> {
        /// The legal moves of `side`: uncoloured vertices that look at no
        /// vertex of its colour.
        fn moves(&self, blue: u32, red: u32, side: Side) -> Vec<usize> {
            let own = if side == Side::Left { blue } else { red };
            (0..self.b.n())
                .filter(|&u| (blue | red) >> u & 1 == 0 && self.b.look(u) & own == 0)
                .collect()
        }

        fn play(blue: u32, red: u32, side: Side, u: usize) -> (u32, u32) {
            match side {
                Side::Left => (blue | 1 << u, red),
                Side::Right => (blue, red | 1 << u),
            }
        }

        fn remoteness(&mut self, blue: u32, red: u32, side: Side) -> u32 {
            if let Some(&r) = self.memo.get(&(blue, red, side == Side::Left)) {
                return r;
            }
            let rs: Vec<u32> = self
                .moves(blue, red, side)
                .into_iter()
                .map(|u| {
                    let (b2, r2) = Self::play(blue, red, side, u);
                    self.remoteness(b2, r2, side.other())
                })
                .collect();
            let r = if rs.is_empty() {
                0
            } else if let Some(e) = rs.iter().filter(|r| r.is_multiple_of(2)).min() {
                e + 1
            } else {
                rs.iter().max().unwrap() + 1
            };
            self.memo.insert((blue, red, side == Side::Left), r);
            r
        }
    }

    fn colouring_text(n: usize, blue: u32, red: u32) -> String {
        (0..n)
            .map(|v| {
                if blue >> v & 1 == 1 {
                    'L'
                } else if red >> v & 1 == 1 {
                    'R'
                } else {
                    '.'
                }
            })
            .collect()
    }

    /// The reply on (board, colouring, side) against the brute force:
    /// moves, their remoteness, the winner, the choice and its ties.
    fn check(rules: Rules, text: &str, b: &Board, brute: &mut Brute, blue: u32, red: u32) {
        let n = b.n();
        let c = colouring_text(n, blue, red);
        for side in [Side::Left, Side::Right] {
            let r = reply(rules, text, &c, side, None).unwrap();
            let legal = brute.moves(blue, red, side);
            assert_eq!(
                r.moves.iter().map(|m| m.vertex).collect::<Vec<_>>(),
                legal,
                "{text} {c} {side}"
            );
            for m in &r.moves {
                let (b2, r2) = Brute::play(blue, red, side, m.vertex);
                let want = brute.remoteness(b2, r2, side.other());
                assert_eq!(m.remoteness, want, "{text} {c} {side} {}", m.vertex);
                assert_eq!(m.wins, want.is_multiple_of(2));
            }
            let want = brute.remoteness(blue, red, side);
            assert_eq!(r.remoteness, want, "{text} {c} {side}");
            assert_eq!(
                r.mover_wins,
                crate::col::naive::to_move_wins(b, blue, red, side == Side::Left),
                "{text} {c} {side}"
            );
            match r.reply {
                None => assert!(legal.is_empty() && want == 0),
                Some(u) => {
                    let m = r.moves.iter().find(|m| m.vertex == u).unwrap();
                    assert_eq!(m.wins, r.mover_wins, "{text} {c} {side}");
                    assert_eq!(m.remoteness + 1, want, "{text} {c} {side}");
                    for o in &r.moves {
                        if o.wins == m.wins && o.remoteness == m.remoteness {
                            assert!(o.vertex >= u, "{text} {c} {side}: ties go low");
                        }
                        if o.wins == m.wins {
                            if m.wins {
                                assert!(o.remoteness >= m.remoteness, "not the quickest win");
                            } else {
                                assert!(o.remoteness <= m.remoteness, "not the longest loss");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn col_replies_agree_with_brute_force_on_every_graph_to_six_vertices() {
        let mut graphs = 0;
        let mut positions = 0;
        for n in 1..=6 {
            crate::gen::walk_filtered(
                &BitGraph::new(0),
                n,
                crate::gen::WalkOptions {
                    connected_only: false,
                    min_n: n,
                },
                &mut |g| {
                    graphs += 1;
                    let text = graph6::encode_bitgraph(g);
                    let b = parse_board(Rules::Col, &text).unwrap();
                    let mut brute = Brute {
                        b: &b,
                        memo: HashMap::new(),
                    };
                    crate::col::proper_colourings(g, &mut |blue, red| {
                        positions += 1;
                        check(Rules::Col, &text, &b, &mut brute, blue, red);
                    });
                },
            );
        }
        assert_eq!(graphs, 1 + 2 + 4 + 11 + 34 + 156);
        assert!(positions > 10_000, "{positions}");
    }

    #[test]
    fn myopic_replies_agree_with_brute_force_on_small_digraphs_and_trees() {
        // Every labelled digraph on at most 4 vertices, every colouring.
        for n in 1..=4usize {
            let pairs: Vec<(usize, usize)> = (0..n)
                .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
                .collect();
            for mask in 0u32..1 << pairs.len() {
                let text = graph6::encode_digraph_with(n, |i, j| {
                    pairs
                        .iter()
                        .position(|&p| p == (i, j))
                        .is_some_and(|k| mask >> k & 1 == 1)
                });
                let b = parse_board(Rules::Myopic, &text).unwrap();
                let mut brute = Brute {
                    b: &b,
                    memo: HashMap::new(),
                };
                for c in 0..3u64.pow(n as u32) {
                    let (blue, red) = crate::col::colouring_from_index(n, c);
                    check(Rules::Myopic, &text, &b, &mut brute, blue, red);
                }
            }
        }
        // Every rooted out-tree on 5 and 6 nodes, every colouring.
        let cat = crate::col::trees::TreeCatalogue::new(6, usize::MAX);
        for n in 5..=6 {
            for i in 0..cat.count(n) {
                let text = cat.tree(n, i).digraph6();
                let b = parse_board(Rules::Myopic, &text).unwrap();
                let mut brute = Brute {
                    b: &b,
                    memo: HashMap::new(),
                };
                for c in 0..3u64.pow(n as u32) {
                    let (blue, red) = crate::col::colouring_from_index(n, c);
                    check(Rules::Myopic, &text, &b, &mut brute, blue, red);
                }
            }
        }
    }

    #[test]
    fn the_winner_is_the_canonical_values_winner() {
        // Left moving first wins iff the value is positive or fuzzy (outcome
        // L or N); Right moving first iff R or N.
        use crate::cgt::Outcome;
        for (rules, text) in [
            (Rules::Col, graph6::encode_with(7, |i, j| j == i + 1)),
            (
                Rules::Col,
                graph6::encode_with(6, |i, j| j == i + 1 || j == i + 3),
            ),
            (
                Rules::Myopic,
                graph6::encode_digraph_with(7, |i, j| j == 2 * i + 1 || j == 2 * i + 2),
            ),
        ] {
            let n = parse_board(rules, &text).unwrap().n();
            for c in 0..3u64.pow(n as u32) {
                let (blue, red) = crate::col::colouring_from_index(n, c);
                let col = colouring_text(n, blue, red);
                let Ok(s) = crate::col::solve_position(rules, &text, &col) else {
                    continue; // a same-colour edge
                };
                let l = reply(rules, &text, &col, Side::Left, None).unwrap();
                let r = reply(rules, &text, &col, Side::Right, None).unwrap();
                assert_eq!(
                    l.mover_wins,
                    matches!(s.outcome, Outcome::L | Outcome::N),
                    "{text} {col}"
                );
                assert_eq!(
                    r.mover_wins,
                    matches!(s.outcome, Outcome::R | Outcome::N),
                    "{text} {col}"
                );
            }
        }
    }

    #[test]
    fn errors_and_the_budget() {
        assert!(matches!(
            reply(Rules::Col, "xx", "", Side::Left, None),
            Err(ColPlayError::Col(ColError::Graph(_)))
        ));
        assert_eq!(
            reply(Rules::Col, "Bg", "LL.", Side::Left, None),
            Err(ColPlayError::Col(ColError::SameColourEdge { u: 0, v: 1 }))
        );
        assert_eq!(
            reply(Rules::Col, "Bg", "..", Side::Left, None),
            Err(ColPlayError::Col(ColError::ColouringLength {
                expected: 3,
                got: 2
            }))
        );
        // Myopic Col takes any colouring (a vertex may look at its colour).
        let d = graph6::encode_digraph_with(2, |i, j| i == 0 && j == 1);
        assert!(reply(Rules::Myopic, &d, "LL", Side::Right, None).is_ok());
        let p20 = graph6::encode_with(20, |i, j| j == i + 1);
        assert_eq!(
            reply(Rules::Col, &p20, "", Side::Left, Some(100)),
            Err(ColPlayError::BudgetExceeded { budget: 100 })
        );
        assert_eq!(
            ColPlayError::BudgetExceeded { budget: 100 }.to_string(),
            "search budget of 100 positions exceeded"
        );
        assert_eq!(Side::parse("R"), Some(Side::Right));
        assert_eq!(Side::parse("x"), None);
        // No move: the side to move has lost.
        let r = reply(Rules::Col, "A_", "LR", Side::Left, None).unwrap();
        assert_eq!((r.reply, r.remoteness, r.mover_wins), (None, 0, false));
    }
}
