//! The report text of `uvg-local-search` (outside the kind's version: display only).

pub(super) mod present;

use super::*;

/// The Markdown report of a document.
pub(super) fn report_md(doc: &SearchDoc) -> String {
    let p = &doc.params;
    let mut s = String::new();
    let (k, n) = (p.value, p.vertices);
    let _ = writeln!(
        s,
        "# UVG local search: a start of value ≥ *{k} on {n} vertices\n"
    );
    let _ = writeln!(
        s,
        "Upper bounds only: a found position proves \"smallest ≤ {n} vertices\", a miss proves nothing.\n"
    );
    let _ = writeln!(
        s,
        "{} climbs, {} steps, {} Grundy evaluations.\n",
        doc.climbs, doc.steps, doc.evaluations
    );
    let _ = writeln!(s, "| best value of a climb | climbs | smallest witness (graph6) | start | edges |\n|---|---|---|---|---|");
    for (v, x) in doc.best_values.iter().rev() {
        let _ = writeln!(
            s,
            "| *{v} | {} | {} | {} | {} |",
            x.climbs,
            crate::sweep::report::md_code_wide_cell(&x.graph6),
            x.start,
            x.edges
        );
    }
    s
}
