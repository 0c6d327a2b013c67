//! The report text of `uvg-reduction` (outside the kind's version: display only).

pub(super) mod present;

use super::*;

/// Render report.md from the results.json document only.
pub(super) fn report_md(doc: &ReductionDoc) -> String {
    let (t, ex, rn) = (&doc.total, &doc.exhaustive, &doc.random);
    let exc = &doc.exceptions;
    let seed = doc.params.seed;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Burke–Ferland–Teng: directed → undirected geography reduction\n"
    );
    let _ = writeln!(s, "## Instances\n");
    let _ = writeln!(
        s,
        "- Exhaustive: every labelled digraph on 1–3 vertices ({} digraphs), every start: **{} positions**, {} gadgets.",
        thousands(ex.digraphs),
        thousands(ex.positions),
        thousands(ex.gadgets)
    );
    let _ = writeln!(
        s,
        "- Random: {} digraphs on 4 vertices, seed {seed}, every start: **{} positions**, {} gadgets. Model: {}.",
        thousands(rn.digraphs),
        thousands(rn.positions),
        thousands(rn.gadgets),
        doc.random_model
    );
    let _ = writeln!(
        s,
        "- In all: **{} positions**, **{} gadgets**; reduced graphs up to {} vertices ({} with the prefix gadget); {} exact-search nodes in all, at most {} for one position.",
        thousands(t.positions),
        thousands(t.gadgets),
        t.reduced_vertices_max,
        t.prefixed_vertices_max,
        thousands(t.search_nodes),
        thousands(t.search_nodes_max_one_position)
    );
    let _ = writeln!(
        s,
        "- Gadget count: {}. (The seed gave its gadget count without a counting rule — see spec/focs-constructions.md; this count is ours.)\n",
        doc.gadget_count
    );
    let _ = writeln!(s, "## Checks\n");
    let _ = writeln!(
        s,
        "- Main claim (P-position of directed geography ⇒ UVG value exactly *; N-position ⇒ neither 0 nor *): {} positions, **{} exceptions**. P-positions: {} (values: {}); N-positions: {} (values: {}).",
        thousands(t.positions),
        exc.main.count,
        thousands(total(&t.main_p_values)),
        values_line(&t.main_p_values),
        thousands(total(&t.main_n_values)),
        values_line(&t.main_n_values)
    );
    let _ = writeln!(
        s,
        "- Wrong Way (token enters a gadget backwards: {}; value *2 or *3): {} gadgets, **{} exceptions**; values: {}.",
        doc.wrong_way_position,
        thousands(t.gadgets),
        exc.wrong_way.count,
        values_line(&t.wrong_way_values)
    );
    let occurs = |v: u64| t.wrong_way_values.get(&v).is_some_and(|&c| c > 0);
    let _ = writeln!(
        s,
        "  Both *2 and *3 occur: **{}**.",
        if occurs(2) && occurs(3) { "yes" } else { "no" }
    );
    for v in [2, 3] {
        if let Some(e) = doc.wrong_way_examples.get(&v) {
            let _ = writeln!(
                s,
                "  Smallest *{v} (witness order): digraph {}, {}.",
                crate::sweep::report::md_code(&e.code),
                e.detail
            );
        }
    }
    let cw = &doc.correct_way_positions;
    let _ = writeln!(
        s,
        "- Correct Way (after x → a [{}] the value is * ⇔ after d → y it is *): {} gadgets, both routes checked, **{} exceptions**. When the token reaches y, the deleted vertices are, via c: {}; via f: {}. Values after x → a: {}; after d → y via c: {}; via f: {}.",
        cw.entry,
        thousands(t.gadgets),
        exc.correct_way.count,
        cw.exit_via_c.trim_start_matches("token on y, deleted: "),
        cw.exit_via_f.trim_start_matches("token on y, deleted: "),
        values_line(&t.correct_way_entry_values),
        values_line(&t.correct_way_exit_via_c_values),
        values_line(&t.correct_way_exit_via_f_values)
    );
    let _ = writeln!(
        s,
        "- Prefix gadget (start–start0, start–p, p–p0, p–s, token on start: value * if (U, s) is *, else *2): {} positions, **{} exceptions**; values: {}.",
        thousands(total(&t.prefix_values)),
        exc.prefix.count,
        values_line(&t.prefix_values)
    );
    let _ = writeln!(
        s,
        "- The two lemmas in play contexts ({}): {} contexts (positions with the token on a digraph vertex); Wrong Way entered {} times, **{} exceptions**, values: {}; Correct Way entered {} times, {} of them with y remaining (both exits checked), **{} exceptions**. Digraphs skipped (reduced graph over 128 vertices): {}.",
        doc.contexts,
        thousands(t.context_states),
        thousands(total(&t.context_wrong_way_values)),
        exc.context_wrong_way.count,
        values_line(&t.context_wrong_way_values),
        thousands(t.context_correct_way_entries),
        thousands(t.context_correct_way_with_exit),
        exc.context_correct_way.count,
        t.context_skipped_digraphs
    );
    let checks = exc.in_report_order();
    write_exceptions_and_not_covered(
        &mut s,
        checks.iter().map(|(_, l)| l.count).sum(),
        checks.iter().flat_map(|(key, l)| {
            l.records.iter().map(move |record| ExceptionLine {
                label: format!("{key}: digraph "),
                record,
            })
        }),
        "arcs",
        &doc.not_covered,
    );
    s
}
