//! The report text of `myopic-list` (outside the kind's version: display only).

pub(super) mod present;

use super::*;

/// The Markdown report of a document.
pub(super) fn report_md(d: &ListDoc) -> String {
    let mut md = String::from("# Myopic Col on lists: lemma and corollary\n\n");
    let (l, s, f) = (&d.lemma, &d.corollary.single, &d.corollary.forests);
    let p = &d.params;
    let _ = writeln!(md, "| check | positions | exceptions |\n|---|---|---|");
    let _ = writeln!(
        md,
        "| lemma, n = 1..{}, three tails (n·*, (n−1)·* − 1, (n−1)·* + 1) | {} | {} |",
        l.max_len,
        thousands(l.checked),
        l.exceptions
    );
    let _ = writeln!(
        md,
        "| corollary a·* + b − c, single lists of 1..{} nodes, all colourings | {} | {} |",
        p.max_single,
        thousands(s.positions),
        s.exceptions
    );
    let _ = writeln!(
        md,
        "| corollary, ordered tuples of 2–4 lists, ≤ {} nodes, all colourings | {} | {} |",
        p.max_forest,
        thousands(f.positions),
        f.exceptions
    );
    let _ = writeln!(md, "\nNon-cold positions: {}.\n", d.non_cold);
    for (key, total, records) in [
        ("lemma/exceptions", l.exceptions, &l.records),
        ("single/exceptions", s.exceptions, &s.records),
        ("forest/exceptions", f.exceptions, &f.records),
        ("non_cold", d.non_cold, &d.non_cold_records),
    ] {
        if total > 0 {
            let _ = writeln!(md, "## {key}: {total}\n");
            records_md(&mut md, records);
            md.push('\n');
        }
    }
    md
}
