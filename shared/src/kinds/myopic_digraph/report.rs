//! The report text of `myopic-digraph` (outside the kind's version: display only).

pub(super) mod present;

use super::*;

/// The Markdown report of a document.
pub(super) fn report_md(p: &DigraphParams, d: &DigraphDoc) -> String {
    let mut md = String::from("# Myopic Col: the unwatched-source rule G = * + G(board − r)\n\n");
    let _ = writeln!(md, "Subject: r uncoloured, ≥ 1 out-neighbour, all out-neighbours uncoloured, no uncoloured in-neighbour (counted per position and r). Watched case: the same with an uncoloured in-neighbour.\n");
    let _ = writeln!(md, "| set | positions | subjects | exceptions | watched cases | watched broken | non-cold |\n|---|---|---|---|---|---|---|");
    let mut sets = vec![(
        "exhaustive",
        "labelled digraphs on 2..4 vertices, all colourings".to_string(),
        &d.sets.exhaustive,
    )];
    if let Some(r) = &d.sets.random {
        sets.push((
            "random",
            format!(
                "{} random digraphs on {} vertices, seed {}",
                p.random, p.vertices, p.seed
            ),
            r,
        ));
    }
    for (_, label, s) in &sets {
        let _ = writeln!(
            md,
            "| {label} | {} | {} | {} | {} | {} | {} |",
            thousands(s.positions),
            thousands(s.subjects),
            s.exceptions,
            thousands(s.watched),
            thousands(s.watched_broken),
            s.non_cold
        );
    }
    md.push('\n');
    for (part, _, s) in &sets {
        if let Some(w) = &s.smallest_watched_broken {
            let arcs: Vec<String> = crate::graph::graph6::decode_digraph(&w.code)
                .map(|(_, a)| a.iter().map(|(u, v)| format!("{u}→{v}")).collect())
                .unwrap_or_default();
            let _ = writeln!(
                md,
                "Smallest broken watched case ({part}): {} vertices, arcs {}, {}, {}: {}\n",
                w.vertices,
                arcs.join(", "),
                crate::sweep::report::md_code(&w.code),
                w.detail,
                w.note
            );
        }
        // Every exception and non-cold position is recorded, so a
        // section appears exactly when one was found.
        for (what, total, records) in [
            ("exceptions", s.exceptions, &s.exception_records),
            ("non_cold", s.non_cold, &s.non_cold_records),
        ] {
            if total > 0 {
                let _ = writeln!(md, "## {part}/{what}: {total}\n");
                records_md(&mut md, records);
                md.push('\n');
            }
        }
    }
    md
}
