//! The report text of `cgt-check` (outside the kind's version: display only).

pub(super) mod present;

use super::*;

/// The Markdown report of an `cgt-check` document.
pub(super) fn report_md(d: &CgtCheckDoc) -> String {
    let mut md = String::from("# CGT check: canonical values vs naive win/lose search\n\n| set | positions | disagreements |\n|---|---|---|\n");
    let sets = [
        (
            "col",
            "Col, connected graphs ≤ 6 vertices, colourings without a same-colour edge",
            &d.sets.col,
        ),
        (
            "myopic",
            "Myopic Col, labelled digraphs on 2..4 vertices, all colourings",
            &d.sets.myopic,
        ),
    ];
    for (_, label, s) in &sets {
        let _ = writeln!(
            md,
            "| {label} | {} | {} |",
            thousands(s.positions),
            s.disagreements
        );
    }
    for (part, _, s) in &sets {
        if s.disagreements > 0 {
            let _ = writeln!(md, "\n## Disagreements ({part})\n");
            records_md(&mut md, &s.records);
        }
    }
    md
}
