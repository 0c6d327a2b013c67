//! The report text of `uvg-degree3` (outside the kind's version: display only).

pub(super) mod present;

use super::*;

/// Render report.md from the results.json document only.
pub(super) fn report_md(doc: &Degree3Doc) -> String {
    let p = &doc.params;
    let rows = &doc.by_n;
    let (mut graphs, mut starts, mut tests, mut tmax, mut nodes) = (0, 0, 0, 0, 0);
    for row in rows {
        graphs += row.graphs;
        starts += row.starts;
        tests += row.win_lose_tests;
        tmax = tmax.max(row.win_lose_tests_max);
        nodes += row.exact_nodes;
    }
    let ratio = |a: u64, b: u64| if b > 0 { a as f64 / b as f64 } else { 0.0 };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Burke–Ferland–Teng: the degree-3 algorithm vs exact search\n"
    );
    let _ = writeln!(
        s,
        "- Graphs: {} random connected graphs of maximum degree ≤ 3 on {}–{} vertices, {} starts. Model: {}.",
        thousands(graphs),
        p.min_n,
        p.max_n,
        thousands(starts),
        doc.random_model
    );
    let _ = writeln!(
        s,
        "- Degree-3 algorithm (values from win/lose tests only) vs exact search (memo on token + component), every start: **{} exceptions**.",
        doc.exceptions
    );
    let _ = writeln!(
        s,
        "- Win/lose tests per start: mean {:.3}, max {} ({} tests in all). Exact search: mean {:.1} nodes per start ({} in all).",
        ratio(tests, starts),
        tmax,
        thousands(tests),
        ratio(nodes, starts),
        thousands(nodes)
    );
    let _ = writeln!(
        s,
        "- Values over all starts: {}.\n",
        values_line(&doc.values)
    );
    let _ = writeln!(s, "## By graph size\n");
    let _ = writeln!(
        s,
        "| n | graphs | starts | mean tests | max tests | solver nodes per start (mean / max) | reachable positions per start (mean / max) | reachable positions per graph (mean / max) |\n|---|---|---|---|---|---|---|---|"
    );
    for row in rows {
        let (st, gr) = (row.starts, row.graphs);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.3} | {} | {:.1} / {} | {:.1} / {} | {:.1} / {} |",
            row.n,
            thousands(gr),
            thousands(st),
            ratio(row.win_lose_tests, st),
            row.win_lose_tests_max,
            ratio(row.exact_nodes, st),
            thousands(row.exact_nodes_max),
            ratio(row.reachable_positions_per_start, st),
            thousands(row.reachable_positions_per_start_max),
            ratio(row.reachable_positions_per_graph, gr),
            thousands(row.reachable_positions_per_graph_max)
        );
    }
    let _ = writeln!(
        s,
        "\nSolver nodes: {}. Reachable positions: {}.",
        doc.exact_nodes, doc.reachable_positions
    );
    let _ = writeln!(s, "\n## Win/lose tests per start\n");
    let _ = writeln!(s, "| tests | starts |\n|---|---|");
    for (t, c) in &doc.win_lose_tests_per_start {
        let _ = writeln!(s, "| {t} | {} |", thousands(*c));
    }
    write_graph_exceptions(
        &mut s,
        doc.exceptions,
        &doc.exception_records,
        &doc.not_covered,
    );
    s
}
