//! The report text of `uvg-strategy` (outside the kind's version: display only).

pub(super) mod present;

use super::*;

/// Render report.md from the results.json document only.
pub(super) fn report_md(doc: &StrategyDoc) -> String {
    let games = doc.games;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Matching strategy vs a random mover (Fraenkel–Scheinerman–Ullman)\n"
    );
    let _ = writeln!(
        s,
        "- Games: {} on random connected graphs of {MIN_N}–{MAX_N} vertices, from winning starts. Model: {}.",
        thousands(games),
        doc.random_model
    );
    let _ = writeln!(
        s,
        "- The strategy (move to the token's mate in a maximum matching) won **{} of {} games**; exceptions: **{}**.",
        thousands(doc.strategy_wins),
        thousands(games),
        doc.exceptions
    );
    let _ = writeln!(
        s,
        "- Moves: {} in all ({} by the strategy, {} by the random mover), longest game {} moves. After every strategy move the exact Grundy value of the opponent's position was computed: {} moves led to a non-zero value.",
        thousands(doc.moves),
        thousands(doc.strategy_moves),
        thousands(doc.random_moves),
        doc.moves_max,
        doc.strategy_moves_to_nonzero_value
    );
    let _ = writeln!(
        s,
        "- Graphs redrawn because no start was winning: {}.\n",
        thousands(doc.graphs_redrawn_without_winning_start)
    );
    let _ = writeln!(s, "| n | games |\n|---|---|");
    for row in &doc.games_by_n {
        let _ = writeln!(s, "| {} | {} |", row.n, thousands(row.games));
    }
    write_graph_exceptions(
        &mut s,
        doc.exceptions,
        &doc.exception_records,
        &doc.not_covered,
    );
    s
}
