//! The report text of `subtraction` (outside the kind's version: display only).

pub(super) mod present;

use super::*;

pub(super) fn report_md(d: &SubtractionDoc) -> String {
    let mut s = String::new();
    let m = d.params.max_element;
    let _ = writeln!(s, "# Subtraction games: every non-empty S ⊆ {{1..{m}}}\n");
    let _ = writeln!(
        s,
        "A heap of n counters; a move removes s ∈ S counters (s ≤ n); normal play. For each S the \
         outcome (P/N) and Grundy sequences are computed until a window of max(S) consecutive \
         values repeats; from then on the sequence is periodic (every value is a function of the \
         previous max(S) values), which proves the period. Reported: the smallest preperiod and \
         the smallest period.\n"
    );
    let _ = writeln!(
        s,
        "- sets analysed: {} (expected 2^{m} − 1 = {})",
        d.sets, d.expected_sets
    );
    let _ = writeln!(
        s,
        "- consistency (outcome = [Grundy = 0], so its period divides the Grundy period and its \
         preperiod is not longer): {} sets where the outcome period does not divide the Grundy \
         period, {} where the outcome preperiod is longer",
        d.checks.outcome_period_not_dividing_grundy_period,
        d.checks.outcome_preperiod_above_grundy_preperiod
    );
    let _ = writeln!(
        s,
        "- per-set table in results.json: {}\n",
        if d.per_set_complete {
            "complete"
        } else {
            "partial (the smallest sets by (max, size, elements))"
        }
    );
    if let Some(row) = d.per_set.iter().find(|r| r.starts_with("{2,4,7}:")) {
        let _ = writeln!(s, "Course example: `{row}` (preperiod+period).\n");
    }
    let _ = writeln!(s, "## Extremes\n");
    let _ = writeln!(s, "| quantity | largest value | sets attaining it | smallest such set (outcome pre/per, Grundy pre/per) |");
    let _ = writeln!(s, "|---|---:|---:|---|");
    for (heading, e) in QUANTITIES.iter().zip(d.extremes.all()) {
        let Some(e) = e else { continue };
        let smallest = match &e.smallest_set {
            Some(w) => format!(
                "{} ({}/{}, {}/{})",
                fmt_set(&w.set),
                w.outcome.preperiod,
                w.outcome.period,
                w.grundy.preperiod,
                w.grundy.period
            ),
            None => "{} (null/null, null/null)".into(),
        };
        let _ = writeln!(s, "| {heading} | {} | {} | {smallest} |", e.value, e.sets);
    }
    let _ = writeln!(s);
    for (heading, e) in QUANTITIES.iter().zip(d.extremes.all()).take(4) {
        let Some(e) = e else { continue };
        let sets: Vec<String> = e.listed_sets.iter().map(|x| fmt_set(x)).collect();
        let more = e.sets.saturating_sub(e.listed_sets.len() as u64);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "Sets with the largest {heading}: {}{more}",
            sets.join(", ")
        );
    }
    let _ = writeln!(s);
    let h = &d.histograms;
    for (title, a, b) in [
        ("Periods", &h.outcome_period, &h.grundy_period),
        ("Preperiods", &h.outcome_preperiod, &h.grundy_preperiod),
    ] {
        let _ = writeln!(s, "## {title}: number of sets\n");
        let _ = writeln!(s, "| value | outcome sequence | Grundy sequence |");
        let _ = writeln!(s, "|---:|---:|---:|");
        let mut values: Vec<u64> = a.iter().chain(b.iter()).map(|p| p.0).collect();
        values.sort_unstable();
        values.dedup();
        for v in values {
            let find = |h: &[(u64, u64)]| h.iter().find(|p| p.0 == v).map_or(0, |p| p.1);
            let _ = writeln!(s, "| {v} | {} | {} |", find(a), find(b));
        }
        let _ = writeln!(s);
    }
    s
}
