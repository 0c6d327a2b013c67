//! What the `octal` sweep shows besides its report text. Display only:
//! nothing here reaches `results.json`.

use super::super::OctalDoc;
use crate::sweep::{Chart, Presentation};

/// Codes by largest Grundy value, proven period and preperiod (bar charts).
pub fn present(d: &OctalDoc) -> Presentation {
    let h = &d.histograms;
    Presentation {
        charts: vec![
            Chart::bars(
                "max-grundy",
                "Codes by largest Grundy value",
                "largest Grundy value (heaps up to max-heap)",
                "codes (log scale)",
                h.max_grundy.clone(),
            ),
            Chart::bars(
                "period",
                "Codes by proven period",
                "period",
                "codes (log scale)",
                h.period.clone(),
            ),
            Chart::bars(
                "preperiod",
                "Codes by proven preperiod",
                "preperiod",
                "codes (log scale)",
                h.preperiod.clone(),
            ),
        ],
        witnesses: Vec::new(),
    }
}
