//! The report text of `col` (outside the kind's version: display only).

pub(super) mod present;

use super::*;

/// The Markdown report of a `col` document.
pub(super) fn report_md(p: &ColParams, d: &ColDoc) -> String {
    let max_n = p.max_n;
    let t = &d.totals;
    let mut md = String::new();
    let _ = writeln!(md, "# Col on connected graphs: every value is cold\n");
    let _ = writeln!(md, "Connected graphs on 1..={max_n} vertices (one per isomorphism class), every colouring without a same-colour edge. Cold = a number x or x + *.\n");
    let _ = writeln!(md, "| n | graphs | positions | non-cold | distinct values | largest denominator | empty board 0 | empty board * | empty other |\n|---|---|---|---|---|---|---|---|---|");
    for row in &d.by_n {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            row.n,
            thousands(row.graphs),
            thousands(row.positions),
            row.non_cold,
            row.distinct_values,
            row.largest_denominator,
            thousands(row.empty_zero),
            thousands(row.empty_star),
            row.empty_other
        );
    }
    let _ = writeln!(
        md,
        "| total | {} | {} | {} | {} | {} | | | |\n",
        thousands(t.graphs),
        thousands(t.positions),
        t.non_cold,
        t.distinct_values,
        t.largest_denominator
    );
    // Every non-cold position is both counted and recorded, so the
    // section appears exactly when one was found.
    if t.non_cold > 0 {
        let _ = writeln!(md, "## Non-cold positions: {}\n", t.non_cold);
        records_md(&mut md, &d.non_cold);
        md.push('\n');
    }
    let _ = writeln!(md, "## Values ({} distinct)\n\nSmallest position of each value (witness order: vertices, edges, graph6, colouring index; `.` uncoloured, `L` blue, `R` red).\n\n| value | positions | smallest position |\n|---|---|---|", d.values.len());
    values_md(&mut md, &d.values, "vertices");
    md
}
