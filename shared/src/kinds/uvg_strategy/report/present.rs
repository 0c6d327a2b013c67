//! What the `uvg-strategy` sweep shows besides its report text. Display
//! only: nothing here reaches `results.json`.

use super::super::StrategyDoc;
use crate::sweep::{Chart, Presentation};

/// Games by vertex count (a bar chart); the games the matching strategy
/// lost.
pub fn present(d: &StrategyDoc) -> Presentation {
    Presentation {
        charts: vec![Chart::bars(
            "games-by-n",
            "Games by vertex count",
            "n (vertices)",
            "games (log scale)",
            d.games_by_n.iter().map(|g| (g.n, g.games)).collect(),
        )],
        witnesses: d
            .exception_records
            .iter()
            .map(|r| r.start_counterexample("exception"))
            .collect(),
    }
}
