//! The report text of `octal` (outside the kind's version: display only).

pub(super) mod present;

use super::*;

pub(super) fn report_md(d: &OctalDoc) -> String {
    let mut s = String::new();
    let (k, n) = (d.params.digits, d.params.max_heap);
    let _ = writeln!(
        s,
        "# Octal games: every code 0.d1..d{k} with d{k} ≠ 0, heaps up to {n}\n"
    );
    let _ = writeln!(
        s,
        "Digit d_i allows removing i tokens from a heap: bit 1 leaving no heap, bit 2 leaving one \
         nonzero heap, bit 4 leaving two nonzero heaps. G(0..={n}) by mex (a split is the XOR of \
         its heaps). Periodicity is proven by the Octal Game Theorem: if G(n+p) = G(n) for all \
         n0 ≤ n < 2·n0 + p + t (t = {k}), then for all n ≥ n0. Reported: the smallest period p \
         proven within {n}, and for it the smallest preperiod n0.\n"
    );
    let _ = writeln!(
        s,
        "- codes analysed: {} (expected 7·8^{} = {})",
        d.codes,
        k - 1,
        d.expected_codes
    );
    let _ = writeln!(s, "- periodicity proven: {}", d.proven);
    let _ = writeln!(s, "- not proven within {n}: {}\n", d.not_proven);
    let _ = writeln!(s, "## Extremes\n");
    let _ = writeln!(
        s,
        "| quantity | largest value | codes attaining it | smallest such code |"
    );
    let _ = writeln!(s, "|---|---:|---:|---|");
    let e = &d.extremes;
    for (heading, x) in [
        ("proven period", &e.largest_period),
        ("proven preperiod", &e.largest_preperiod),
        ("largest Grundy value", &e.largest_max_grundy),
    ] {
        if let Some(x) = x {
            let _ = writeln!(
                s,
                "| {heading} | {} | {} | {} |",
                x.value, x.codes, x.smallest_code
            );
        }
    }
    let _ = writeln!(s);
    for (title, h) in [
        ("Proven periods", &d.histograms.period),
        ("Proven preperiods", &d.histograms.preperiod),
        ("Largest Grundy values", &d.histograms.max_grundy),
    ] {
        let _ = writeln!(s, "## {title}: number of codes\n");
        let _ = writeln!(s, "| value | codes |");
        let _ = writeln!(s, "|---:|---:|");
        for (v, c) in h {
            let _ = writeln!(s, "| {v} | {c} |");
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "## Per code\n");
    let _ = writeln!(s, "| code | preperiod | period | largest Grundy value |");
    let _ = writeln!(s, "|---|---:|---:|---:|");
    for r in &d.per_code {
        let opt = |x: Option<u64>| x.map_or("not proven".to_string(), |v| v.to_string());
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            r.code,
            opt(r.preperiod),
            opt(r.period),
            r.max_grundy
        );
    }
    s
}
