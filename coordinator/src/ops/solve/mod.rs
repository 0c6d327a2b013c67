//! Solving single positions and streams of them, as `gamesweep solve` does
//! and Python calls: the values of a UVG graph6 line ([`uvg::uvg_line`]),
//! a Col / Myopic Col line ([`col::col_line`]), the summaries of a stream,
//! a subtraction game's sequences, a game file's text, and the pipeline
//! that runs a line solver over standard input ([`pipeline::stream`]).
//! Budgets and limits are stated here once.

pub mod col;
pub mod gamegraph;
pub mod pipeline;
pub mod subtraction;
pub mod uvg;

use crate::error::UsageError;

pub use col::{blank_colouring, col_line, ColLine, ColSummary, DEFAULT_COL_BUDGET};
pub use gamegraph::{read_game_file, MAX_GAME_FILE_BYTES};
pub use pipeline::{CHUNK, MAX_LINE};
pub use subtraction::{subtraction, SubtractionReport, MAX_UPTO};
pub use uvg::{uvg_analysis, uvg_line, UvgSummary, UvgSummaryRow, DEFAULT_UVG_BUDGET};

/// `--budget` as the solvers take it: 0 is unlimited.
pub fn budget(b: u64) -> Option<u64> {
    (b > 0).then_some(b)
}

/// The one-line error when a budget ran out: what ran out, after how long,
/// and the option to raise it.
pub fn over_budget(
    what: impl std::fmt::Display,
    budget: u64,
    since: std::time::Instant,
) -> UsageError {
    UsageError(format!(
        "{what} after {:.1} s; pass --budget {} to allow more, --budget 0 for unlimited",
        since.elapsed().as_secs_f64(),
        budget.saturating_mul(10)
    ))
}

/// The error of a pipeline line whose budget ran out (no time: a line's
/// time says little), with the option to raise it.
fn line_over_budget(what: impl std::fmt::Display, budget: u64) -> String {
    format!(
        "{what}; pass --budget {} to allow more, --budget 0 for unlimited",
        budget.saturating_mul(10)
    )
}
