//! Code the Burke–Ferland–Teng sweep kinds share (`uvg-reduction`,
//! `uvg-degree3`, `uvg-strategy`). All three are random or
//! small-exhaustive sweeps over a list of instances numbered `0..total`, so
//! they share one plan shape: shard [`RangeShard`] `{start, end}` covers instances
//! `start..end`. Instance `i` depends only on (params, i), so any plan gives
//! the same merged result.

use crate::sweep::merge::{add_vecs, MergeError};
use crate::sweep::report::{md_code, nim, thousands};
use crate::sweep::{Record, RecordSet, SweepError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The sentence every report carries about the part of the paper we leave out.
pub const SECTION5_NOTE: &str =
    "Section 5 of the paper (the polynomial-size construction of *n) is not covered: \
the description available to us does not give its chain lengths or gadget interiors, \
so it cannot be rebuilt without the paper text; nothing here checks it.";

/// Kept exception records per list (all are counted).
pub(crate) const EXCEPTION_CAP: u64 = 1000;

/// One shard of a BFT sweep: instances `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeShard {
    /// First instance.
    pub start: u64,
    /// One past the last instance.
    pub end: u64,
}

impl RangeShard {
    /// The instances of the shard, checked to lie inside `0..total`.
    pub(crate) fn instances(
        self,
        kind: &str,
        total: u64,
    ) -> Result<std::ops::Range<u64>, SweepError> {
        if self.start > self.end || self.end > total {
            return Err(SweepError::BadShard {
                kind: kind.into(),
                reason: format!("range {}..{} not inside 0..{total}", self.start, self.end),
            });
        }
        Ok(self.start..self.end)
    }
}

/// Split `0..total` into about `target` (0 = `default`) contiguous ranges;
/// `estimate(a, b)` gives each shard's estimated work.
pub(crate) fn plan_ranges(
    total: u64,
    target: u32,
    default: u32,
    estimate: impl Fn(u64, u64) -> u64,
) -> Vec<(RangeShard, u64)> {
    let want = if target == 0 { default } else { target } as u64;
    let shards = want.clamp(1, total.max(1));
    (0..shards)
        .map(|k| {
            let start = total * k / shards;
            let end = total * (k + 1) / shards;
            (RangeShard { start, end }, estimate(start, end))
        })
        .collect()
}

/// Exceptions of one check: all counted, the [`EXCEPTION_CAP`] smallest kept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Exceptions(pub RecordSet);

impl Default for Exceptions {
    fn default() -> Self {
        Exceptions(RecordSet::new(EXCEPTION_CAP))
    }
}

impl Exceptions {
    /// Add one exception.
    pub fn add(&mut self, r: Record) {
        self.0.add(r);
    }
    /// Merge another shard's exceptions.
    pub fn merge(&mut self, other: Exceptions) -> Result<(), MergeError> {
        self.0.merge(other.0)
    }
    /// How many were found in all.
    pub fn count(&self) -> u64 {
        self.0.total
    }
    /// The kept records, smallest first.
    pub fn records(&self) -> Vec<Record> {
        self.0.kept.iter().cloned().collect()
    }
}

/// Counts by a small value (index = value): a histogram of Grundy values or
/// test counts, grown as needed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ValueCounts(pub Vec<u64>);

impl ValueCounts {
    /// Count `value` once.
    #[inline]
    pub fn add(&mut self, value: u32) {
        let i = value as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, 0);
        }
        self.0[i] += 1;
    }
    /// Merge another histogram.
    pub fn merge(&mut self, other: ValueCounts) -> Result<(), MergeError> {
        add_vecs(&mut self.0, other.0, "")
    }
    /// `{value: count}` of the values that occur, for results.json.
    pub fn to_map(&self) -> BTreeMap<u64, u64> {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(v, &c)| (v as u64, c))
            .collect()
    }
}

/// How many were counted in a `{value: count}` histogram.
pub(crate) fn total(h: &BTreeMap<u64, u64>) -> u64 {
    h.values().sum()
}

/// `*2 ×1,138, *3 ×1,479`: a `{value: count}` histogram in nimber notation.
pub(crate) fn values_line(h: &BTreeMap<u64, u64>) -> String {
    h.iter()
        .map(|(&v, &c)| format!("{} ×{}", nim(v), thousands(c)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One exception line of a report.
pub(crate) struct ExceptionLine<'a> {
    /// Text before the code, e.g. `main: digraph ` (empty for none).
    pub label: String,
    /// The record.
    pub record: &'a Record,
}

/// The closing sections of every BFT report: the exceptions (`count` in all,
/// the kept records in full — any is news), then what is not covered.
/// `edge_word` names the records' `edges` (`edges` or `arcs`).
pub(crate) fn write_exceptions_and_not_covered<'a>(
    s: &mut String,
    count: u64,
    lines: impl IntoIterator<Item = ExceptionLine<'a>>,
    edge_word: &str,
    not_covered: &str,
) {
    if count > 0 {
        let _ = writeln!(s, "\n## Exceptions ({count}; this is news)\n");
        for ExceptionLine { label, record: e } in lines {
            let _ = writeln!(
                s,
                "- {label}{} ({} vertices, {} {edge_word}), {}: {}",
                md_code(&e.code),
                e.vertices,
                e.edges,
                e.detail,
                e.note
            );
        }
    }
    let _ = writeln!(s, "\n## Not covered\n");
    let _ = writeln!(s, "{not_covered}");
}

/// [`write_exceptions_and_not_covered`] for records of graphs (`edges`)
/// listed without a label.
pub(crate) fn write_graph_exceptions(
    s: &mut String,
    count: u64,
    records: &[Record],
    not_covered: &str,
) {
    let lines = records.iter().map(|record| ExceptionLine {
        label: String::new(),
        record,
    });
    write_exceptions_and_not_covered(s, count, lines, "edges", not_covered);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_partition_and_bad_ranges_are_errors() {
        for (total, target) in [(0u64, 0u32), (1, 5), (69, 4), (469, 16), (10, 100)] {
            let plan = plan_ranges(total, target, 8, |a, b| b - a);
            let mut next = 0;
            for (s, est) in &plan {
                let r = s.instances("k", total).unwrap();
                assert_eq!(r.start, next);
                assert_eq!(*est, r.end - r.start);
                next = r.end;
            }
            assert_eq!(next, total);
        }
        for (start, end) in [(2, 1), (0, 11), (11, 12)] {
            assert!(matches!(
                RangeShard { start, end }.instances("k", 10),
                Err(SweepError::BadShard { .. })
            ));
        }
        assert_eq!(thousands(1801), "1,801");
        assert_eq!(nim(1), "*");
    }

    #[test]
    fn value_counts_merge_and_map() {
        let mut a = ValueCounts::default();
        a.add(3);
        a.add(1);
        let mut b = ValueCounts::default();
        b.add(1);
        a.merge(b).unwrap();
        assert_eq!(a.to_map(), BTreeMap::from([(1, 2), (3, 1)]));
        assert_eq!(total(&a.to_map()), 3);
        assert_eq!(values_line(&a.to_map()), "* ×2, *3 ×1");
    }

    #[test]
    fn exceptions_section_lists_every_record() {
        let r = Record {
            vertices: 3,
            edges: 2,
            code: "&B?o".into(),
            index: 1,
            detail: "start 1".into(),
            note: "exact=0 degree3=*".into(),
        };
        let mut s = String::new();
        write_exceptions_and_not_covered(&mut s, 0, [], "edges", "nothing");
        assert_eq!(s, "\n## Not covered\n\nnothing\n");
        let mut s = String::new();
        let lines = [
            ExceptionLine {
                label: String::new(),
                record: &r,
            },
            ExceptionLine {
                label: "main: digraph ".into(),
                record: &r,
            },
        ];
        write_exceptions_and_not_covered(&mut s, 5, lines, "arcs", "nothing");
        assert_eq!(
            s,
            "\n## Exceptions (5; this is news)\n\n\
- `&B?o` (3 vertices, 2 arcs), start 1: exact=0 degree3=*\n\
- main: digraph `&B?o` (3 vertices, 2 arcs), start 1: exact=0 degree3=*\n\
\n## Not covered\n\nnothing\n"
        );
    }
}
