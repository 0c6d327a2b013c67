//! The report text of `uvg` (outside the kind's version: display only).

pub(super) mod present;

use super::*;
use crate::sweep::report::{md_code_wide, md_code_wide_cell};

/// Render report.md from the results.json document only.
pub(super) fn report_md(doc: &UvgDoc) -> String {
    let rows = &doc.by_n;
    let max_n = doc.params.max_n;
    let max_value = rows
        .iter()
        .filter_map(|r| {
            r.grundy
                .iter()
                .filter(|(_, &c)| c > 0)
                .map(|(&v, _)| v)
                .max()
        })
        .max()
        .unwrap_or(0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Undirected vertex geography: every connected graph on ≤ {max_n} vertices, every start\n"
    );
    grundy_section(&mut s, rows, max_value);
    matching_section(&mut s, rows);
    degree3_section(&mut s, rows);
    smallest_section(&mut s, rows, max_value);
    smallest_k_section(&mut s, rows, max_n, max_value);
    let _ = writeln!(
        s,
        "\nNo position of value {} or more on ≤ {max_n} vertices.",
        nim(max_value as u64 + 1)
    );
    if let Some(e) = &doc.extension_search {
        extension_section(&mut s, max_n, e);
    }
    for row in rows {
        if let Some(c) = row.collected.as_ref().filter(|c| c.count > 0) {
            let _ = writeln!(
                s,
                "\nn = {}: {} positions of value ≥ {} (listed in results.json).",
                row.n,
                thousands(c.count),
                nim(c.min_value as u64)
            );
        }
    }
    s
}

/// The first row (fewest vertices) with a position of value `v`, and that position.
fn smallest(rows: &[UvgRow], v: u8) -> Option<(&UvgRow, &WitnessRow)> {
    rows.iter()
        .find_map(|row| row.witnesses.get(&v).map(|w| (row, w)))
}

/// The Grundy values over all (graph, start) pairs: a row per n, and the totals.
fn grundy_section(s: &mut String, rows: &[UvgRow], max_value: u8) {
    let _ = writeln!(s, "## Grundy values over all (graph, start) pairs\n");
    let mut head = "| n | graphs | pairs |".to_string();
    let mut sep = "|---|---|---|".to_string();
    for v in 0..=max_value {
        head.push_str(&format!(" {} |", nim(v as u64)));
        sep.push_str("---|");
    }
    let _ = writeln!(s, "{head}\n{sep}");
    let (mut tg, mut tp, mut tf) = (0, 0, 0);
    for row in rows {
        let mut line = format!(
            "| {} | {} | {} |",
            row.n,
            thousands(row.graphs),
            thousands(row.positions)
        );
        for v in 0..=max_value {
            match row.grundy.get(&v) {
                Some(&c) if c > 0 => line.push_str(&format!(" {} |", thousands(c))),
                _ => line.push_str(" |"),
            }
        }
        let _ = writeln!(s, "{line}");
        tg += row.graphs;
        tp += row.positions;
        tf += row.first_player_wins;
    }
    let _ = writeln!(
        s,
        "\nTotal: {} graphs, {} pairs, {} first-player wins.\n",
        thousands(tg),
        thousands(tp),
        thousands(tf)
    );
}

/// The matching theorem checked on every pair, and its exceptions.
fn matching_section(s: &mut String, rows: &[UvgRow]) {
    let tp: u64 = rows.iter().map(|r| r.positions).sum();
    let tme: u64 = rows.iter().map(|r| r.matching_exceptions).sum();
    let _ = writeln!(s, "## Matching theorem (Fraenkel–Scheinerman–Ullman)\n");
    let _ = writeln!(
        s,
        "Exact Grundy value 0 ⇔ ν(G) = ν(G − s), checked on {} pairs: **{} exceptions**.\n",
        thousands(tp),
        thousands(tme)
    );
    for row in rows {
        for e in &row.matching_exception_records {
            let _ = writeln!(
                s,
                "- n = {}: {} start {} ({})",
                row.n,
                md_code_wide(&e.graph6),
                e.start,
                e.values
            );
        }
    }
}

/// The degree-3 algorithm against exact search: totals, then a row per n.
fn degree3_section(s: &mut String, rows: &[UvgRow]) {
    let (mut dg, mut dp, mut de, mut dt, mut dmax) = (0, 0, 0, 0, 0);
    for row in rows {
        let d = &row.maxdeg3;
        dg += d.graphs;
        dp += d.positions;
        de += d.exceptions;
        dt += d.win_lose_tests;
        dmax = dmax.max(d.max_win_lose_tests);
    }
    let _ = writeln!(
        s,
        "## Degree-3 algorithm (Burke–Ferland–Teng) vs exact search\n"
    );
    let mean = if dp > 0 { dt as f64 / dp as f64 } else { 0.0 };
    let _ = writeln!(
        s,
        "Connected graphs of maximum degree ≤ 3: {} graphs, {} starts, **{} exceptions**; win/lose tests: {} in all, mean {:.3} per start, max {}.\n",
        thousands(dg),
        thousands(dp),
        thousands(de),
        thousands(dt),
        mean,
        dmax
    );
    let _ = writeln!(
        s,
        "| n | graphs | starts | exceptions | mean tests |\n|---|---|---|---|---|"
    );
    for row in rows {
        let d = &row.maxdeg3;
        let m = if d.positions > 0 {
            d.win_lose_tests as f64 / d.positions as f64
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {:.3} |",
            row.n,
            thousands(d.graphs),
            thousands(d.positions),
            d.exceptions,
            m
        );
    }
}

/// The smallest position of each value.
fn smallest_section(s: &mut String, rows: &[UvgRow], max_value: u8) {
    let _ = writeln!(s, "\n## Smallest positions of each value\n");
    let _ = writeln!(
        s,
        "Witness order: fewer vertices, then fewer edges, then graph6, then start vertex.\n"
    );
    let _ = writeln!(
        s,
        "| value | vertices | edges | graph6 | start |\n|---|---|---|---|---|"
    );
    for v in 0..=max_value {
        if let Some((row, w)) = smallest(rows, v) {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} |",
                nim(v as u64),
                row.n,
                w.edges,
                md_code_wide_cell(&w.graph6),
                w.start
            );
        }
    }
}

/// The extension step: for each k, the smallest *k from the smallest *(k−1).
fn smallest_k_section(s: &mut String, rows: &[UvgRow], max_n: usize, max_value: u8) {
    let _ = writeln!(s, "\n## Extension step: the smallest *k\n");
    let _ = writeln!(
        s,
        "A start s of value *k on m vertices has an option of value *(k−1), on the token's component after deleting s. \
If *(k−1) needs at least a vertices, a *k on a + 1 vertices must therefore be a connected a-vertex graph H with a start of value *(k−1), \
plus s joined to some of H's vertices; its value is the mex of H's start values at s's neighbours. So *k exists on a + 1 vertices \
exactly when some connected a-vertex graph has starts of every value 0, …, k−1 (then join s to one start of each).\n"
    );
    for k in 1..=max_value + 1 {
        let Some((row, _)) = smallest(rows, k - 1) else {
            break;
        };
        let a = row.n;
        if k < 3 {
            continue;
        }
        match row.extensions.get(&k).filter(|e| e.graphs > 0) {
            Some(ext) => {
                let _ = writeln!(
                    s,
                    "- *{k}: the smallest *{} has {a} vertices; {} connected {a}-vertex graphs have starts of every value 0..{}; so the smallest *{k} has exactly **{} vertices**: {} start {} (value {}).",
                    k - 1,
                    thousands(ext.graphs),
                    k - 1,
                    a + 1,
                    md_code_wide(ext.extended_graph6.as_deref().unwrap_or("?")),
                    ext.extended_start.map_or("?".into(), |s| s.to_string()),
                    ext.extended_value.map_or("?".into(), |v| nim(v as u64))
                );
            }
            None if a < max_n => {
                let _ = writeln!(s, "- *{k}: the smallest *{} has {a} vertices and no connected {a}-vertex graph has starts of every value 0..{}: the smallest *{k} has **at least {} vertices**.", k - 1, k - 1, a + 2);
            }
            None => {
                let _ = writeln!(
                    s,
                    "- *{k}: the smallest *{} has {a} vertices; none of the {} connected {a}-vertex graphs has starts of every value 0..{}, so **no *{k} exists on {} vertices**: the smallest *{k} has at least {} vertices.",
                    k - 1,
                    thousands(row.graphs),
                    k - 1,
                    a + 1,
                    a + 2
                );
            }
        }
    }
}

/// The report's section on the smallest-*k search.
fn extension_section(s: &mut String, max_n: usize, e: &ExtensionSearch) {
    let k = e.value;
    let a = max_n + 1;
    let _ = writeln!(
        s,
        "\n## Is there a *{k} on {} vertices? The finite search\n",
        e.vertices
    );
    let _ = writeln!(
        s,
        "Premises, read off the rows above: (P1) no *{} on ≤ {max_n} vertices: **{}**; (P2) no *{} on < {} vertices: **{}**.\n",
        k - 1,
        if e.premise_1 { "holds" } else { "fails" },
        k - 2,
        max_n.saturating_sub(1),
        if e.premise_2 { "holds" } else { "fails" }
    );
    let _ = writeln!(s, "By (P1) a *{k} on {} vertices is a start joined to a connected {a}-vertex graph C whose starts take every value 0..{}. Such a C has a start u of value *{}, whose *{} option lies on a component D of C − u with at least {} vertices by (P2): either D = C − u (case A: D on {max_n} vertices with starts of every value 0..{}, u joined to a set T of them covering 0..{}) or C − u = D plus a leaf x on u (case B: D on {} vertices with starts of every value 1..{}, T covering 1..{}). Every such (D, T) was built and C solved exactly.\n", e.vertices, k - 1, k - 1, k - 2, max_n.saturating_sub(1), k - 2, k - 2, max_n.saturating_sub(1), k - 2, k - 2);
    let _ = writeln!(s, "| graphs D, case A | graphs D, case B | sets T (graphs C solved) | C with u of value *{} | C with starts of every value 0..{} |", k - 1, k - 1);
    let _ = writeln!(s, "|---|---|---|---|---|");
    let _ = writeln!(
        s,
        "| {} | {} | {} | {} | {} |\n",
        thousands(e.d_case_a),
        thousands(e.d_case_b),
        thousands(e.t_sets),
        thousands(e.c_exact),
        thousands(e.hits)
    );
    if !(e.premise_1 && e.premise_2) {
        let _ = writeln!(
            s,
            "The premises do not hold for this sweep, so the search decides nothing."
        );
    } else if let Some(w) = &e.witness {
        let _ = writeln!(s, "**A *{k} exists on {} vertices**: {} start {} ({} edges), so the smallest *{k} has exactly {} vertices.", e.vertices, md_code_wide(&w.graph6), w.start, w.edges, e.vertices);
    } else {
        let _ = writeln!(s, "No C has starts of every value 0..{}: **no *{k} exists on {} vertices**, so the smallest *{k} has at least {} vertices. The graphs D are listed in `extension-{k}-graphs.txt`.", k - 1, e.vertices, e.vertices + 1);
    }
}
