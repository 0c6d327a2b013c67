//! What the `subtraction` sweep shows besides its report text. Display
//! only: nothing here reaches `results.json`.

use super::super::SubtractionDoc;
use crate::sweep::{Chart, Presentation};

/// Sets by largest Grundy value, Grundy and outcome period and preperiod
/// (bar charts).
pub fn present(d: &SubtractionDoc) -> Presentation {
    let h = &d.histograms;
    let chart = |stem: &str, what: &str, v: &Vec<(u64, u64)>| {
        Chart::bars(
            stem,
            &format!("Sets by {what}"),
            what,
            "sets (log scale)",
            v.clone(),
        )
    };
    Presentation {
        charts: vec![
            chart("max-grundy", "largest Grundy value", &h.max_grundy),
            chart("grundy-period", "Grundy period", &h.grundy_period),
            chart("grundy-preperiod", "Grundy preperiod", &h.grundy_preperiod),
            chart("outcome-period", "outcome period", &h.outcome_period),
            chart(
                "outcome-preperiod",
                "outcome preperiod",
                &h.outcome_preperiod,
            ),
        ],
        witnesses: Vec::new(),
    }
}
