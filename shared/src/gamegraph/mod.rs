//! Explicit game graphs (the course notes' textbook layer): outcome labelling
//! with draws, Grundy numbers, sums, kernels, minimax, subtraction games.
//!
//! A game graph is a finite digraph: positions are vertices, moves are arcs,
//! and each sink carries a label saying what happens to the player who moves
//! into it ([`SinkLabel`]: win, lose, draw, or a numeric payoff). Normal play
//! means every sink is a `win` sink.
//!
//! * [`parse`] reads the text format and JSON (`docs/gamegraph-format.md`).
//! * [`outcomes`] (retrograde analysis, any graph) and [`outcomes_acyclic`]
//!   (the course's rule in reverse topological order) label positions I / II / *.
//! * [`grundy`] gives Grundy numbers (mex) of normal-play acyclic graphs, or a
//!   typed error naming a cycle.
//! * [`sum_graph`], [`sum_grundy`], [`sum_outcome`]: sums of games and the
//!   Sprague–Grundy check.
//! * [`kernel_acyclic`] and [`find_kernel`]: kernels of digraphs.
//! * [`minimax`]: negamax labels of payoff trees and DAGs.
//! * [`subtraction`]: subtraction games and their proven periodicity; the
//!   `subtraction` sweep kind (`crate::kinds::subtraction`).
//! * [`solve_text`]: everything above for one file, as a [`SolveReport`]
//!   (`gamesweep solve gamegraph FILE`).
//!
//! ```
//! use gamesweep::gamegraph::{solve_text, Format, Outcome};
//! let report = solve_text("start a\na -> b c\nb -> c\n", Format::Auto).unwrap();
//! let game = &report.games[0];
//! assert_eq!(game.start_outcome, Some(Outcome::First)); // a → c wins
//! assert_eq!(game.kernel.members(), Some(&["c".to_string()][..]));
//! ```

mod graph;
pub mod kernel;
pub mod label;
pub mod minimax;
pub mod parse;
pub mod solve;
pub mod subtraction;
pub mod sum;
#[cfg(test)]
mod tests;

pub use graph::{GameGraph, Outcome, SinkLabel};
pub use kernel::{find_kernel, is_kernel, kernel_acyclic, KernelSearch};
pub use label::{grundy, mex, outcomes, outcomes_acyclic, reverse_topological_order};
pub use minimax::minimax;
pub use parse::{parse, Format, GameFile, ParseErrorKind};
pub use solve::{
    solve, solve_text, solve_text_with, solve_with, GameReport, KernelReport, SolveReport,
    SumReport,
};
pub use sum::{sum_graph, sum_grundy, sum_outcome};

/// Everything that can go wrong reading or solving a game graph.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameGraphError {
    /// The text format was rejected at `line` (1-based; 0 = the file as a whole).
    #[error("line {line}: {kind}")]
    Parse {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        kind: ParseErrorKind,
    },
    /// Malformed JSON (syntax or schema), as reported by serde_json.
    #[error("JSON: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// serde_json's message (includes the position).
        message: String,
    },
    /// Well-formed JSON describing an invalid game file.
    #[error("JSON at {path}: {kind}")]
    JsonInvalid {
        /// Where, e.g. `games[0].sinks.d`.
        path: String,
        /// What was wrong.
        kind: ParseErrorKind,
    },
    /// A computation that needs an acyclic graph met a cycle.
    #[error("game `{game}` is cyclic ({} -> {}); Grundy numbers, minimax and greedy kernels need an acyclic game graph", cycle.join(" -> "), cycle.first().map_or("", String::as_str))]
    Cyclic {
        /// The game.
        game: String,
        /// One directed cycle, as position names in order.
        cycle: Vec<String>,
    },
    /// Grundy numbers and sums need normal play (every sink a `win` sink).
    #[error("game `{game}` is not normal play: sink `{position}` is labelled `{label}` (Grundy numbers and sums need every sink to be `win`)")]
    NotNormalPlay {
        /// The game.
        game: String,
        /// The first offending sink.
        position: String,
        /// Its label.
        label: String,
    },
    /// A construction would exceed a size limit.
    #[error("{what} would have {size} positions; the limit is {limit}")]
    TooLarge {
        /// What was being built.
        what: String,
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The exact kernel search ran out of its branching budget.
    #[error("kernel search in game `{game}` gave up after {branches} branching decisions")]
    SearchLimit {
        /// The game.
        game: String,
        /// The budget that was exhausted.
        branches: u64,
    },
    /// An invalid subtraction set.
    #[error("bad subtraction set: {0}")]
    BadSubtractionSet(String),
}
