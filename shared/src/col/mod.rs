//! Col and Myopic Col: rules model, reduced positions, component values.
//!
//! **Rules.** Blue (Left) and Red (Right) alternately colour an uncoloured vertex.
//! Each vertex `u` has a *look-list*: in Col all its neighbours, in Myopic Col
//! its out-neighbours. `u` may not take colour `c` if a vertex it looks at
//! already has colour `c`. Normal play.
//!
//! **Reduced positions** ([`Pos`]): coloured vertices are gone; each uncoloured
//! vertex keeps its set of still-available colours (bit `u` of `l` = may turn
//! blue, of `r` = may turn red); a vertex with neither is deleted. An arc
//! `u → w` is *dropped* when `u` and `w` share no available colour: colouring
//! `w` can then only take from `u` a colour `u` no longer has. (Two adjacent
//! red-only vertices share red, so their arc stays: value −1, not −2.)
//! The remaining (weakly) connected components are independent games and the
//! value is the sum of their values ([`Solver`]), each memoised under a code
//! that names its isomorphism class ([`canon`]).
//!
//! [`solve_position`] is the entry point for one position (the CLI's `solve`);
//! [`naive`] is a plain win/lose search with none of the reductions, for
//! cross-checking; the sweeps live in `crate::kinds` (`col`, `cgt_check`, `myopic_*`).

pub mod canon;
pub mod naive;
mod solver;
pub mod trees;

pub use solver::{MemoMode, Solver, SolverOptions, SolverStats};

use crate::cgt::Outcome;
use crate::graph::graph6::{self, Graph6Error};
use crate::graph::{members, BitGraph, VSet};
use std::fmt;

/// Which game: the look-lists of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Rules {
    /// Col on an undirected graph: every vertex looks at all its neighbours.
    Col,
    /// Myopic Col on a digraph: every vertex looks at its out-neighbours.
    Myopic,
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rules::Col => "col",
            Rules::Myopic => "myopic",
        })
    }
}

/// A board: `n <= 32` vertices and their look-lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    n: usize,
    /// `look[u]`: the vertices `u` looks at.
    look: [VSet; 32],
    /// `watch[w]`: the vertices that look at `w` (who lose a colour when `w` takes it).
    watch: [VSet; 32],
}

impl Board {
    /// A board from arcs `(u, w)` meaning "u looks at w" (`u != w`, both `< n <= 32`).
    pub fn from_looks(n: usize, arcs: &[(usize, usize)]) -> Self {
        assert!(n <= 32);
        let mut b = Board {
            n,
            look: [0; 32],
            watch: [0; 32],
        };
        for &(u, w) in arcs {
            debug_assert!(u != w && u < n && w < n);
            b.look[u] |= 1 << w;
            b.watch[w] |= 1 << u;
        }
        b
    }

    /// A Col board: each edge is looked at from both ends.
    pub fn col(n: usize, edges: &[(usize, usize)]) -> Self {
        let arcs: Vec<_> = edges.iter().flat_map(|&(u, v)| [(u, v), (v, u)]).collect();
        Self::from_looks(n, &arcs)
    }

    /// A Myopic board: arcs as given.
    pub fn myopic(n: usize, arcs: &[(usize, usize)]) -> Self {
        Self::from_looks(n, arcs)
    }

    /// Number of vertices.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The vertices `u` looks at.
    #[inline]
    pub fn look(&self, u: usize) -> VSet {
        self.look[u]
    }

    /// The vertices looking at `w`.
    #[inline]
    pub fn watchers(&self, w: usize) -> VSet {
        self.watch[w]
    }

    /// Number of arcs (look relations).
    pub fn arc_count(&self) -> usize {
        self.look[..self.n]
            .iter()
            .map(|r| r.count_ones() as usize)
            .sum()
    }

    /// The reduced position of a colouring.
    pub fn position(&self, colouring: &[Colour]) -> Pos {
        let (mut blue, mut red) = (0u32, 0u32);
        for (v, c) in colouring.iter().enumerate() {
            match c {
                Colour::Blue => blue |= 1 << v,
                Colour::Red => red |= 1 << v,
                Colour::None => {}
            }
        }
        self.position_masks(blue, red)
    }

    /// The reduced position where `blue` and `red` (disjoint vertex sets) are coloured.
    #[inline]
    pub fn position_masks(&self, blue: VSet, red: VSet) -> Pos {
        let all = if self.n == 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        };
        let unc = all & !(blue | red);
        let (mut l, mut r) = (0u32, 0u32);
        for u in members(unc) {
            if self.look[u] & blue == 0 {
                l |= 1 << u;
            }
            if self.look[u] & red == 0 {
                r |= 1 << u;
            }
        }
        Pos { l, r }
    }
}

/// Call `f(blue, red)` for every colouring of `g` without a same-colour edge
/// (the Col positions of `g`), in a fixed order.
pub fn proper_colourings(g: &BitGraph, f: &mut dyn FnMut(VSet, VSet)) {
    fn rec(g: &BitGraph, v: usize, blue: VSet, red: VSet, f: &mut dyn FnMut(VSet, VSet)) {
        if v == g.n() {
            f(blue, red);
            return;
        }
        rec(g, v + 1, blue, red, f);
        let nb = g.nbrs(v);
        if nb & blue == 0 {
            rec(g, v + 1, blue | 1 << v, red, f);
        }
        if nb & red == 0 {
            rec(g, v + 1, blue, red | 1 << v, f);
        }
    }
    rec(g, 0, 0, 0, f);
}

/// Colouring number `c` of `n` vertices (base 3, vertex 0 least significant;
/// digit 0 uncoloured, 1 blue, 2 red) as blue/red masks.
pub fn colouring_from_index(n: usize, mut c: u64) -> (VSet, VSet) {
    let (mut blue, mut red) = (0, 0);
    for v in 0..n {
        match c % 3 {
            1 => blue |= 1 << v,
            2 => red |= 1 << v,
            _ => {}
        }
        c /= 3;
    }
    (blue, red)
}

/// A vertex's state in a colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Uncoloured (`.`).
    None,
    /// Blue, Left (`L` or `B`).
    Blue,
    /// Red, Right (`R`).
    Red,
}

/// A reduced position: the uncoloured vertices that may still turn blue (`l`)
/// and red (`r`). Alive vertices are `l | r`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    /// May still take blue.
    pub l: VSet,
    /// May still take red.
    pub r: VSet,
}

impl Pos {
    /// Alive (uncoloured, with a colour left) vertices.
    #[inline]
    pub fn alive(self) -> VSet {
        self.l | self.r
    }

    /// Left colours `u` blue (`u` in `l`): `u` goes, its watchers lose blue.
    #[inline]
    pub fn move_left(self, b: &Board, u: usize) -> Pos {
        let bit = 1u32 << u;
        Pos {
            l: self.l & !bit & !b.watch[u],
            r: self.r & !bit,
        }
    }

    /// Right colours `u` red.
    #[inline]
    pub fn move_right(self, b: &Board, u: usize) -> Pos {
        let bit = 1u32 << u;
        Pos {
            l: self.l & !bit,
            r: self.r & !bit & !b.watch[u],
        }
    }

    /// The vertices sharing an available colour with `u` (other than `u`).
    #[inline]
    pub fn share(self, u: usize) -> VSet {
        let mut s = 0;
        if self.l >> u & 1 == 1 {
            s |= self.l;
        }
        if self.r >> u & 1 == 1 {
            s |= self.r;
        }
        s & !(1 << u)
    }

    /// The component of `v` over the kept arcs (both directions).
    #[inline]
    pub fn component(self, b: &Board, v: usize, drop_arcs: bool) -> VSet {
        let alive = self.alive();
        let mut comp = 1u32 << v;
        let mut frontier = comp;
        while frontier != 0 {
            let u = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let mut nb = (b.look[u] | b.watch[u]) & alive;
            if drop_arcs {
                nb &= self.share(u);
            }
            let new = nb & !comp;
            comp |= new;
            frontier |= new;
        }
        comp
    }

    /// Restrict to a vertex set.
    #[inline]
    pub fn restrict(self, s: VSet) -> Pos {
        Pos {
            l: self.l & s,
            r: self.r & s,
        }
    }
}

/// Why a position was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColError {
    /// The board text is not valid graph6 / digraph6.
    #[error("bad board: {0}")]
    Graph(#[from] Graph6Error),
    /// More vertices than the bitset solver holds.
    #[error("board has {0} vertices; at most 32 are supported")]
    TooManyVertices(usize),
    /// The colouring string has the wrong length.
    #[error("colouring has {got} characters but the board has {expected} vertices")]
    ColouringLength {
        /// Vertices on the board.
        expected: usize,
        /// Characters given.
        got: usize,
    },
    /// A character other than `.`, `L`, `B`, `R`.
    #[error("colouring character {ch:?} at position {pos} is not one of '.', 'L', 'B', 'R'")]
    BadColourChar {
        /// 0-based position.
        pos: usize,
        /// The character.
        ch: char,
    },
    /// [`solve_position_within`]: the solver's work reached the budget.
    #[error("search budget of {budget} positions exceeded")]
    BudgetExceeded {
        /// The budget (work units of [`Solver::work`]: components expanded
        /// plus games held).
        budget: u64,
    },
    /// The search's [`Meter`](crate::meter::Meter) was stopped.
    #[error("the search was stopped")]
    Stopped,
    /// Col forbids two adjacent vertices of the same colour.
    #[error("vertices {u} and {v} are adjacent and have the same colour, which Col never allows")]
    SameColourEdge {
        /// One end.
        u: usize,
        /// Other end.
        v: usize,
    },
}

/// Parse a colouring string: `.` uncoloured, `L`/`B` blue, `R` red.
pub fn parse_colouring(s: &str, n: usize) -> Result<Vec<Colour>, ColError> {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() != n {
        return Err(ColError::ColouringLength {
            expected: n,
            got: chars.len(),
        });
    }
    chars
        .iter()
        .enumerate()
        .map(|(pos, &ch)| match ch {
            '.' => Ok(Colour::None),
            'L' | 'B' => Ok(Colour::Blue),
            'R' => Ok(Colour::Red),
            _ => Err(ColError::BadColourChar { pos, ch }),
        })
        .collect()
}

/// Parse a board: graph6 for Col, digraph6 for Myopic Col.
pub fn parse_board(rules: Rules, text: &str) -> Result<Board, ColError> {
    let (n, arcs) = match rules {
        Rules::Col => graph6::decode(text)?,
        Rules::Myopic => graph6::decode_digraph(text)?,
    };
    if n > 32 {
        return Err(ColError::TooManyVertices(n));
    }
    Ok(match rules {
        Rules::Col => Board::col(n, &arcs),
        Rules::Myopic => Board::myopic(n, &arcs),
    })
}

/// One move and the value it leads to.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MoveReport {
    /// The vertex coloured.
    pub vertex: usize,
    /// Value of the resulting position (CGSuite notation).
    pub value: String,
}

/// The solution of one position.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SolveReport {
    /// Which game.
    pub rules: Rules,
    /// The board as given (graph6 / digraph6).
    pub board: String,
    /// The colouring as given.
    pub colouring: String,
    /// Canonical value in CGSuite notation.
    pub value: String,
    /// Outcome class: `L`, `R`, `N` or `P`.
    pub outcome: Outcome,
    /// Is the value a number or a number plus `*`?
    pub cold: bool,
    /// Blue's (Left's) legal moves and their values.
    pub left_options: Vec<MoveReport>,
    /// Red's (Right's) legal moves and their values.
    pub right_options: Vec<MoveReport>,
}

impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} {} colouring {}",
            self.rules, self.board, self.colouring
        )?;
        writeln!(f, "value:   {}", self.value)?;
        let who = match self.outcome {
            Outcome::L => "Left (Blue) wins",
            Outcome::R => "Right (Red) wins",
            Outcome::N => "the first player wins",
            Outcome::P => "the second player wins",
        };
        writeln!(f, "outcome: {} ({who})", self.outcome)?;
        for (name, opts) in [("Left", &self.left_options), ("Right", &self.right_options)] {
            if opts.is_empty() {
                writeln!(f, "{name} moves: none")?;
            } else {
                let list: Vec<String> = opts
                    .iter()
                    .map(|m| format!("{} → {}", m.vertex, m.value))
                    .collect();
                writeln!(f, "{name} moves: {}", list.join(", "))?;
            }
        }
        Ok(())
    }
}

/// Solve one position: `text` is graph6 (Col) or digraph6 (Myopic), `colouring`
/// one character per vertex (`.` uncoloured, `L`/`B` blue, `R` red).
///
/// ```
/// use gamesweep::col::{solve_position, Rules};
/// // Myopic: root 0 → 1, 0 → 2 with vertex 1 blue: value −1/2 (the seed's example).
/// let d6 = gamesweep::graph::graph6::encode_digraph_with(3, |i, j| i == 0 && j > 0);
/// let rep = solve_position(Rules::Myopic, &d6, ".L.").unwrap();
/// assert_eq!(rep.value, "-1/2");
/// assert_eq!(rep.outcome.to_string(), "R");
/// ```
pub fn solve_position(rules: Rules, text: &str, colouring: &str) -> Result<SolveReport, ColError> {
    solve_position_within(rules, text, colouring, None)
}

/// [`solve_position`] with at most `budget` units of solver work
/// ([`Solver::work`]: components expanded plus games held; `None`:
/// unlimited), which bounds its time and memory: more is
/// [`ColError::BudgetExceeded`].
///
/// ```
/// use gamesweep::col::{solve_position_within, ColError, Rules};
/// let p3 = solve_position_within(Rules::Col, "Bg", "...", Some(1000)).unwrap();
/// assert_eq!(p3.value, "0");
/// let p20 = gamesweep::graph::graph6::encode_with(20, |i, j| j == i + 1);
/// assert_eq!(
///     solve_position_within(Rules::Col, &p20, &".".repeat(20), Some(50)),
///     Err(ColError::BudgetExceeded { budget: 50 })
/// );
/// ```
pub fn solve_position_within(
    rules: Rules,
    text: &str,
    colouring: &str,
    budget: Option<u64>,
) -> Result<SolveReport, ColError> {
    let board = parse_board(rules, text)?;
    let cols = parse_colouring(colouring, board.n())?;
    if rules == Rules::Col {
        for u in 0..board.n() {
            for w in members(board.look(u)) {
                if u < w && cols[u] != Colour::None && cols[u] == cols[w] {
                    return Err(ColError::SameColourEdge { u, v: w });
                }
            }
        }
    }
    let pos = board.position(&cols);
    let mut solver = Solver::with_budget(SolverOptions::default(), budget);
    let over = |solver: &Solver| match budget {
        _ if solver.stopped() => Err(ColError::Stopped),
        Some(budget) if solver.budget_exceeded() => Err(ColError::BudgetExceeded { budget }),
        _ => Ok(()),
    };
    let g = solver.value(&board, pos);
    over(&solver)?;
    let value = solver.arena.display(g);
    let outcome = solver.arena.outcome(g);
    let cold = solver.arena.is_cold(g);
    let mut left_options = Vec::new();
    for u in members(pos.l) {
        let c = solver.value(&board, pos.move_left(&board, u));
        left_options.push(MoveReport {
            vertex: u,
            value: solver.arena.display(c),
        });
    }
    let mut right_options = Vec::new();
    for u in members(pos.r) {
        let c = solver.value(&board, pos.move_right(&board, u));
        right_options.push(MoveReport {
            vertex: u,
            value: solver.arena.display(c),
        });
    }
    over(&solver)?;
    Ok(SolveReport {
        rules,
        board: graph6::strip_header(text.trim()).to_string(),
        colouring: colouring.to_string(),
        value,
        outcome,
        cold,
        left_options,
        right_options,
    })
}

#[cfg(test)]
mod tests;
