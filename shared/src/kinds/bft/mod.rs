//! The sweep kinds of the Burke–Ferland–Teng checks. All three are random or
//! small-exhaustive sweeps over a list of instances numbered `0..total`, so
//! they share one plan shape: shard payload `range A B` covers instances
//! `A..B`. Instance `i` depends only on (params, i), so any plan gives the
//! same merged result.

pub mod degree3;
pub mod reduction;
pub mod strategy;

pub use degree3::Degree3Sweep;
pub use reduction::ReductionSweep;
pub use strategy::StrategySweep;

use crate::sweep::{Record, ShardSpec, SweepError};

/// The sentence every report carries about the part of the paper we leave out.
pub const SECTION5_NOTE: &str =
    "Section 5 of the paper (the polynomial-size construction of *n) is not covered: \
the description available to us does not give its chain lengths or gadget interiors, \
so it cannot be rebuilt without the paper text; nothing here checks it.";

/// Kept exception records per list (all are counted).
pub(crate) const EXCEPTION_CAP: u64 = 1000;

/// Split `0..total` into about `target` (0 = `default`) contiguous ranges;
/// `estimate(a, b)` gives each shard's estimated work.
pub(crate) fn plan_ranges(
    total: u64,
    target: u32,
    default: u32,
    estimate: impl Fn(u64, u64) -> u64,
) -> Vec<ShardSpec> {
    let want = if target == 0 { default } else { target } as u64;
    let shards = want.clamp(1, total.max(1));
    (0..shards)
        .map(|k| {
            let a = total * k / shards;
            let b = total * (k + 1) / shards;
            ShardSpec {
                index: k as u32,
                payload: format!("range {a} {b}"),
                estimate: estimate(a, b),
            }
        })
        .collect()
}

/// Parse a `range A B` payload and check `A ≤ B ≤ total`.
pub(crate) fn parse_range(kind: &str, payload: &str, total: u64) -> Result<(u64, u64), SweepError> {
    let bad = |reason: String| SweepError::BadShard {
        kind: kind.into(),
        reason,
    };
    let words: Vec<&str> = payload.split_ascii_whitespace().collect();
    match words.as_slice() {
        ["range", a, b] => {
            let a: u64 = a.parse().map_err(|_| bad(format!("bad start `{a}`")))?;
            let b: u64 = b.parse().map_err(|_| bad(format!("bad end `{b}`")))?;
            if a > b || b > total {
                return Err(bad(format!("range {a}..{b} not inside 0..{total}")));
            }
            Ok((a, b))
        }
        _ => Err(bad(format!("expected `range A B`, got `{payload:.40}`"))),
    }
}

/// Nimber notation: 0, *, *2, …
pub(crate) fn nim(v: u64) -> String {
    match v {
        0 => "0".into(),
        1 => "*".into(),
        k => format!("*{k}"),
    }
}

pub(crate) use crate::sweep::thousands;

/// A record as JSON (every field, so exceptions are complete).
pub(crate) fn record_json(r: &Record) -> serde_json::Value {
    serde_json::json!({
        "vertices": r.vertices,
        "edges": r.edges,
        "code": r.code,
        "index": r.index,
        "detail": r.detail,
        "note": r.note,
    })
}

/// The closing sections of a report: the exceptions (full records; any is
/// news) and the line saying what is not covered.
pub(crate) fn write_exceptions_and_not_covered(s: &mut String, doc: &serde_json::Value) {
    use std::fmt::Write as _;
    let exceptions = doc["exceptions"].as_u64().unwrap_or(0);
    if exceptions > 0 {
        let _ = writeln!(s, "\n## Exceptions ({exceptions}; this is news)\n");
        for e in doc["exception_records"].as_array().into_iter().flatten() {
            let _ = writeln!(
                s,
                "- `{}` ({} vertices, {} edges), {}: {}",
                e["code"].as_str().unwrap_or(""),
                e["vertices"],
                e["edges"],
                e["detail"].as_str().unwrap_or(""),
                e["note"].as_str().unwrap_or("")
            );
        }
    }
    let _ = writeln!(s, "\n## Not covered\n");
    let _ = writeln!(s, "{}", doc["not_covered"].as_str().unwrap_or(""));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_partition_and_parse_back() {
        for (total, target) in [(0u64, 0u32), (1, 5), (69, 4), (469, 16), (10, 100)] {
            let plan = plan_ranges(total, target, 8, |a, b| b - a);
            let mut next = 0;
            for s in &plan {
                let (a, b) = parse_range("k", &s.payload, total).unwrap();
                assert_eq!(a, next);
                next = b;
            }
            assert_eq!(next, total);
        }
        for bad in [
            "",
            "range",
            "range 1",
            "range 2 1",
            "range 0 11",
            "range x 1",
            "top 1 2",
        ] {
            assert!(parse_range("k", bad, 10).is_err(), "{bad:?}");
        }
        assert_eq!(thousands(1801), "1,801");
        assert_eq!(nim(1), "*");
    }
}
