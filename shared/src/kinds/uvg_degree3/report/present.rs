//! What the `uvg-degree3` sweep shows besides its report text. Display
//! only: nothing here reaches `results.json`.

use super::super::Degree3Doc;
use crate::sweep::{Chart, Presentation};

/// Starts by Grundy value and by win/lose tests (bar charts); the
/// exceptions of the degree-3 algorithm.
pub fn present(d: &Degree3Doc) -> Presentation {
    Presentation {
        charts: vec![
            Chart::bars(
                "values",
                "Starts by Grundy value",
                "Grundy value",
                "starts (log scale)",
                d.values.iter().map(|(&k, &v)| (k, v)).collect(),
            ),
            Chart::bars(
                "win-lose-tests",
                "Starts by win/lose tests of the degree-3 algorithm",
                "win/lose tests",
                "starts (log scale)",
                d.win_lose_tests_per_start
                    .iter()
                    .map(|(&k, &v)| (k, v))
                    .collect(),
            ),
        ],
        witnesses: d
            .exception_records
            .iter()
            .map(|r| r.start_counterexample("exception"))
            .collect(),
    }
}
