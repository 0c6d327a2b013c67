//! Col and Myopic Col: a board's default colouring, one position (`solve
//! col`), a pipeline line and a stream's summary.

use super::{line_over_budget, over_budget};
use crate::error::UsageError;
use gamesweep::board::col::{analyse, ColAnalysis};
use gamesweep::col::{ColError, Rules, SolveReport};
use gamesweep::graph::graph6::{self, Graph6Error};
use std::collections::BTreeMap;

/// Default `--budget` of `solve col` / `solve myopic`: about ten seconds and
/// 250 MB at most.
pub const DEFAULT_COL_BUDGET: u64 = 1_000_000;

/// The all-uncoloured colouring of `board` (graph6, sparse6, or digraph6
/// starting with `&`): one `.` per vertex.
pub fn blank_colouring(board: &str) -> Result<String, Graph6Error> {
    let n = if board.starts_with('&') {
        graph6::decode_digraph(board).map(|(n, _)| n)
    } else {
        graph6::decode(board).map(|(n, _)| n)
    }?;
    Ok(".".repeat(n))
}

/// The colouring given, or the blank one of `board`.
pub fn colouring_or_blank(board: &str, colouring: Option<String>) -> Result<String, UsageError> {
    match colouring {
        Some(c) => Ok(c),
        None => blank_colouring(board).map_err(|e| UsageError(format!("bad board `{board}`: {e}"))),
    }
}

/// A budget run out (with how long it took) or the solver's own error.
fn col_error(e: ColError, since: std::time::Instant) -> UsageError {
    match e {
        ColError::BudgetExceeded { budget } => over_budget(e, budget, since),
        e => UsageError(e.to_string()),
    }
}

/// `solve col|myopic BOARD`: the position's value and outcome, within
/// `budget` units of solver work.
pub fn col_position(
    rules: Rules,
    board: &str,
    colouring: &str,
    budget: Option<u64>,
) -> Result<SolveReport, UsageError> {
    let since = std::time::Instant::now();
    gamesweep::col::solve_position_within(rules, board, colouring, budget)
        .map_err(|e| col_error(e, since))
}

/// The position with its options, as its pictures show it.
pub fn col_analysis(
    rules: Rules,
    board: &str,
    colouring: &str,
    budget: Option<u64>,
) -> Result<ColAnalysis, UsageError> {
    let since = std::time::Instant::now();
    analyse(rules, board, colouring, budget).map_err(|e| col_error(e, since))
}

/// One Col / Myopic Col line, solved.
#[derive(Debug, serde::Serialize)]
pub struct ColLine {
    /// The board, without a `>>graph6<<` / `>>digraph6<<` header.
    pub board: String,
    /// The colouring solved (the line's, or all uncoloured).
    pub colouring: String,
    /// The value, in CGSuite notation.
    pub value: String,
    /// The outcome class (`L`, `R`, `N` or `P`).
    pub outcome: String,
}

/// Solve the `BOARD [COLOURING]` `line` within `budget`, or the line's
/// one-line error.
pub fn col_line(rules: Rules, line: &str, budget: Option<u64>) -> Result<ColLine, String> {
    let mut words = line.split_whitespace();
    let board = words.next().unwrap_or_default();
    let given = words.next();
    if words.next().is_some() {
        return Err(format!(
            "expected `BOARD [COLOURING]`, got more than two words: `{line:.60}`"
        ));
    }
    let colouring = match given {
        Some(c) => c.to_string(),
        None => blank_colouring(board).map_err(|e| format!("bad board `{board:.40}`: {e}"))?,
    };
    let r = gamesweep::col::solve_position_within(rules, board, &colouring, budget).map_err(
        |e| match e {
            ColError::BudgetExceeded { budget } => line_over_budget(e, budget),
            e => e.to_string(),
        },
    )?;
    Ok(ColLine {
        board: graph6::strip_header(board).to_string(),
        colouring,
        value: r.value,
        outcome: r.outcome.to_string(),
    })
}

/// A pipeline's Col / Myopic Col summary.
#[derive(Debug, Default, serde::Serialize)]
pub struct ColSummary {
    /// Positions read.
    pub positions: u64,
    /// Positions by outcome class (`L`, `N`, `P`, `R`).
    pub outcomes: BTreeMap<String, u64>,
    /// Positions by value (CGSuite notation); written in the order of game
    /// values (numbers by size, `x` before `x*`), as the reports list them.
    #[serde(serialize_with = "in_value_order")]
    pub values: BTreeMap<String, u64>,
}

impl ColSummary {
    /// Count one solved line.
    pub fn add(&mut self, line: ColLine) {
        self.positions += 1;
        *self.outcomes.entry(line.outcome).or_default() += 1;
        *self.values.entry(line.value).or_default() += 1;
    }

    /// The values and their counts in the order of game values (numbers by
    /// size, `x` before `x*`), not the text order of the map (`-1, -1/2, -2`).
    pub fn values_in_order(&self) -> Vec<(&String, &u64)> {
        value_order(&self.values)
    }
}

fn value_order(values: &BTreeMap<String, u64>) -> Vec<(&String, &u64)> {
    let mut v: Vec<_> = values.iter().collect();
    v.sort_by(|a, b| gamesweep::sweep::present::cmp_game_values(a.0, b.0));
    v
}

/// Serialize a value histogram as a JSON object whose keys are in
/// `value_order` (an object, as before, so readers keep working).
fn in_value_order<S: serde::Serializer>(
    values: &BTreeMap<String, u64>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_map(value_order(values))
}
