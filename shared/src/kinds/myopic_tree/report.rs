//! The report text of `myopic-tree` and `myopic-rooted` (outside the kind's version: display only).

pub(super) mod present;

use super::*;

/// The Markdown report of a document.
pub(super) fn report_md(shape: Shape, d: &TreeDoc) -> String {
    let max_nodes = d.params.max_nodes;
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", shape.title());
    let _ = writeln!(md, "Trees up to {}, arcs parent → child, root uncoloured, every colouring of the other nodes.\n", plural(max_nodes as u64, "node"));
    let mut header = "| nodes | trees | positions |".to_string();
    let mut sep = "|---|---|---|".to_string();
    for g in d.totals.groups.keys() {
        let _ = write!(header, " {} | exceptions |", g.label());
        sep.push_str("---|---|");
    }
    header.push_str(" distinct values | largest denominator | non-cold |");
    sep.push_str("---|---|---|");
    let _ = writeln!(md, "{header}\n{sep}");
    let group_cells = |line: &mut String, groups: &BTreeMap<SubjectGroup, GroupCounts>| {
        for c in groups.values() {
            let _ = write!(
                line,
                " {} | {} |",
                thousands(c.subjects),
                thousands(c.exceptions)
            );
        }
    };
    for row in &d.by_nodes {
        let mut line = format!(
            "| {} | {} | {} |",
            row.nodes,
            thousands(row.trees),
            thousands(row.positions)
        );
        group_cells(&mut line, &row.groups);
        let _ = write!(
            line,
            " {} | {} | {} |",
            row.distinct_values, row.largest_denominator, row.non_cold
        );
        let _ = writeln!(md, "{line}");
    }
    let t = &d.totals;
    let mut line = format!(
        "| 1–{max_nodes} | {} | {} |",
        thousands(t.trees),
        thousands(t.positions)
    );
    group_cells(&mut line, &t.groups);
    let _ = write!(
        line,
        " {} | {} | {} |",
        t.distinct_values, t.largest_denominator, t.non_cold
    );
    let _ = writeln!(md, "{line}\n");
    for (g, c) in &t.groups {
        if c.exceptions > 0 {
            let _ = writeln!(md, "## Exceptions ({}): {}\n", g.label(), c.exceptions);
            records_md(&mut md, d.exceptions.get(g).map_or(&[], Vec::as_slice));
            md.push('\n');
        }
    }
    if t.non_cold > 0 {
        let _ = writeln!(md, "## Non-cold positions: {}\n", t.non_cold);
        records_md(&mut md, &d.non_cold);
        md.push('\n');
    }
    let _ = writeln!(md, "## Values ({} distinct)\n", d.values.len());
    let _ = writeln!(md, "Smallest position of each value (fewest nodes, then digraph6, then colouring index; colouring: `.` uncoloured, `L` blue, `R` red; node 0 is the root).\n");
    let _ = writeln!(
        md,
        "| value | positions | smallest position |\n|---|---|---|"
    );
    values_md(&mut md, &d.values, "nodes");
    md
}
