//! UVG: the values of a graph6 line (the pipeline's and Python's), the
//! analysis of one graph (`solve uvg GRAPH6`), a stream's summary.

use super::{line_over_budget, over_budget};
use crate::error::UsageError;
use gamesweep::board::uvg::{analyse, UvgAnalysis};
use gamesweep::graph::graph6;
use gamesweep::uvg::position::{start_values, PositionError};
use std::collections::BTreeMap;

/// Default `--budget` of `solve uvg`: search nodes of all starts together
/// (about ten seconds and 200 MB at most).
pub const DEFAULT_UVG_BUDGET: u64 = 5_000_000;

/// The Grundy value of every start of the graph6 (or sparse6) `line`, by
/// [`start_values`] (the subset DP on the thread's incremental table, or the
/// search within `budget` search nodes of all starts together), or the
/// line's one-line error.
pub fn uvg_line(line: &str, budget: Option<u64>) -> Result<Vec<u32>, String> {
    let (n, edges) = graph6::decode(line).map_err(|e| {
        let format = if line.starts_with([':', ';']) {
            "sparse6"
        } else {
            "graph6"
        };
        format!("bad {format} `{line:.40}`: {e}")
    })?;
    start_values(n, &edges, budget).map_err(|e| match e {
        PositionError::BudgetExceeded { budget, .. } => line_over_budget(e, budget),
        e => e.to_string(),
    })
}

/// Why one graph could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The start asked for is not a vertex (the CLI names its option).
    #[error("{0}")]
    Start(PositionError),
    /// Anything else: bad input, a budget run out (with how long it took).
    #[error(transparent)]
    Other(#[from] UsageError),
}

/// The analysis `solve uvg GRAPH6 [--start S]` prints: [`analyse`] within
/// `budget` search nodes (`None`: unlimited).
pub fn uvg_analysis(
    g6: &str,
    start: Option<usize>,
    budget: Option<u64>,
) -> Result<UvgAnalysis, AnalysisError> {
    let since = std::time::Instant::now();
    analyse(g6, start, budget).map_err(|e| match e {
        e @ PositionError::StartOutOfRange { .. } => AnalysisError::Start(e),
        PositionError::BudgetExceeded { budget, .. } => over_budget(e, budget, since).into(),
        e => UsageError(e.to_string()).into(),
    })
}

/// One number of vertices in a pipeline's UVG summary, named as in a uvg
/// sweep's `results.json` (`by_n`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct UvgSummaryRow {
    /// Number of vertices (absent in the total).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<usize>,
    /// Graphs read.
    pub graphs: u64,
    /// (graph, start) pairs.
    pub positions: u64,
    /// Positions of non-zero Grundy value (the player to move wins).
    pub first_player_wins: u64,
    /// Positions by Grundy value.
    pub grundy: BTreeMap<u32, u64>,
}

impl UvgSummaryRow {
    /// Count one graph's start values.
    fn add(&mut self, values: &[u32]) {
        self.graphs += 1;
        self.positions += values.len() as u64;
        for &v in values {
            self.first_player_wins += u64::from(v != 0);
            *self.grundy.entry(v).or_default() += 1;
        }
    }

    /// Add another row's counts.
    fn merge(&mut self, other: &UvgSummaryRow) {
        self.graphs += other.graphs;
        self.positions += other.positions;
        self.first_player_wins += other.first_player_wins;
        for (v, c) in &other.grundy {
            *self.grundy.entry(*v).or_default() += c;
        }
    }
}

impl std::fmt::Display for UvgSummaryRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.n {
            Some(n) => write!(f, "n {n}:")?,
            None => write!(f, "total:")?,
        }
        write!(
            f,
            " {} graphs, {} positions, {} first-player wins; grundy",
            self.graphs, self.positions, self.first_player_wins
        )?;
        for (i, (v, c)) in self.grundy.iter().enumerate() {
            write!(f, "{} {v}: {c}", if i == 0 { "" } else { "," })?;
        }
        Ok(())
    }
}

/// A pipeline's UVG summary: by number of vertices, and the total.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct UvgSummary {
    /// Rows by number of vertices, increasing.
    pub by_n: Vec<UvgSummaryRow>,
    /// All graphs read.
    pub total: UvgSummaryRow,
}

impl UvgSummary {
    /// The summary of the graphs whose start values `values` gives.
    pub fn of<'a>(values: impl IntoIterator<Item = &'a [u32]>) -> UvgSummary {
        let mut tally = UvgTally::default();
        for v in values {
            tally.add(v);
        }
        tally.summary()
    }
}

/// A [`UvgSummary`] as the graphs come.
#[derive(Clone, Debug, Default)]
pub struct UvgTally {
    rows: BTreeMap<usize, UvgSummaryRow>,
}

impl UvgTally {
    /// Count one graph's start values (one a vertex).
    pub fn add(&mut self, values: &[u32]) {
        self.rows.entry(values.len()).or_default().add(values);
    }

    /// The summary of the graphs counted.
    pub fn summary(self) -> UvgSummary {
        let mut s = UvgSummary::default();
        for (n, mut row) in self.rows {
            row.n = Some(n);
            s.total.merge(&row);
            s.by_n.push(row);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_valued_on_either_side_of_the_cut_off() {
        // The path 0 - 1 - 2.
        assert_eq!(uvg_line("Bg", Some(1)), Ok(vec![0, 1, 0]));
        // K18 needs more than one search node; K16 never needs any.
        let k = |n| graph6::encode_with(n, |_, _| true);
        assert_eq!(uvg_line(&k(16), Some(1)).unwrap(), vec![1; 16]);
        let e = uvg_line(&k(18), Some(1)).unwrap_err();
        assert_eq!(
            e,
            "search budget of 1 positions exceeded; pass --budget 10 to allow more, --budget 0 for unlimited"
        );
        assert!(uvg_line("?", None).unwrap_err().contains("no vertices"));
        assert!(uvg_line("B!", None)
            .unwrap_err()
            .starts_with("bad graph6 `B!`"));
    }

    #[test]
    fn the_summary_counts_by_order_and_in_total() {
        let s = UvgSummary::of([&[0u32, 1, 0][..], &[1, 1], &[0, 2, 0]]);
        let rows: Vec<String> = s
            .by_n
            .iter()
            .chain([&s.total])
            .map(|r| r.to_string())
            .collect();
        assert_eq!(
            rows,
            [
                "n 2: 1 graphs, 2 positions, 2 first-player wins; grundy 1: 2",
                "n 3: 2 graphs, 6 positions, 2 first-player wins; grundy 0: 4, 1: 1, 2: 1",
                "total: 3 graphs, 8 positions, 4 first-player wins; grundy 0: 4, 1: 3, 2: 1",
            ]
        );
    }
}
