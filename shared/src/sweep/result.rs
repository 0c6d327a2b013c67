//! Shard results and their merge.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One position worth keeping: a witness, a counterexample, or a collected position.
///
/// The derived order is the spec's *witness order*: fewer vertices, then fewer
/// edges, then the code string (graph6, digraph6, tree code), then `index`
/// (start vertex, colouring index), then the remaining text. It makes "the
/// smallest" well defined, so merging never depends on shard order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Record {
    /// Number of vertices (nodes) of the structure.
    pub vertices: u32,
    /// Number of edges (arcs).
    pub edges: u32,
    /// The structure in its text format (graph6, digraph6, ...).
    pub code: String,
    /// The position inside the structure: start vertex, or colouring index.
    pub index: u64,
    /// Human-readable details of the position (start, colouring string, ...).
    pub detail: String,
    /// Values found (e.g. `exact=0 matching=N`), free text.
    pub note: String,
}

/// A bounded set of records: the `cap` smallest by witness order are kept,
/// `total` counts all that were ever added (across merges).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSet {
    /// How many records were found in all (kept or not).
    pub total: u64,
    /// Most records kept (the smallest ones).
    pub cap: u64,
    /// The kept records, smallest first.
    pub kept: BTreeSet<Record>,
}

impl RecordSet {
    /// An empty set keeping at most `cap` records.
    pub fn new(cap: u64) -> Self {
        RecordSet {
            total: 0,
            cap,
            kept: BTreeSet::new(),
        }
    }

    /// Add one record.
    pub fn add(&mut self, r: Record) {
        self.total += 1;
        self.kept.insert(r);
        self.trim();
    }

    fn trim(&mut self) {
        while self.kept.len() as u64 > self.cap {
            self.kept.pop_last();
        }
    }

    /// Merge another set of disjoint records into this one.
    pub fn merge(&mut self, other: RecordSet) {
        self.total += other.total;
        self.cap = self.cap.max(other.cap);
        self.kept.extend(other.kept);
        self.trim();
    }
}

/// The result of one shard, or the merge of many.
///
/// Merging adds `work` and counters, keeps the smallest witness per key, and
/// unions record sets; it is associative and commutative, so a sweep's merged
/// result is independent of how its plan was split and scheduled.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepResult {
    /// Positions processed (drives progress, rate and ETA).
    pub work: u64,
    /// Named counts, e.g. `n=9/grundy=3`.
    pub counters: BTreeMap<String, u64>,
    /// The smallest record seen per key, e.g. `n=9/witness=4`.
    pub witnesses: BTreeMap<String, Record>,
    /// Counterexamples and collections per key.
    pub records: BTreeMap<String, RecordSet>,
    /// Named maxima (merge keeps the larger), e.g. the most win/lose tests of one start.
    pub maxima: BTreeMap<String, u64>,
}

impl SweepResult {
    /// Add `by` to counter `key`.
    #[inline]
    pub fn count(&mut self, key: impl Into<String>, by: u64) {
        *self.counters.entry(key.into()).or_insert(0) += by;
    }

    /// The value of counter `key` (0 if absent).
    pub fn counter(&self, key: &str) -> u64 {
        self.counters.get(key).copied().unwrap_or(0)
    }

    /// Raise maximum `key` to at least `value`.
    #[inline]
    pub fn maximum(&mut self, key: impl Into<String>, value: u64) {
        let slot = self.maxima.entry(key.into()).or_insert(value);
        *slot = (*slot).max(value);
    }

    /// Offer `r` as the witness for `key`; kept if smaller than the current one.
    pub fn witness(&mut self, key: impl Into<String>, r: Record) {
        let key = key.into();
        match self.witnesses.get(&key) {
            Some(old) if *old <= r => {}
            _ => {
                self.witnesses.insert(key, r);
            }
        }
    }

    /// Add a record to the set `key`, created with capacity `cap` if new.
    pub fn record(&mut self, key: impl Into<String>, cap: u64, r: Record) {
        self.records
            .entry(key.into())
            .or_insert_with(|| RecordSet::new(cap))
            .add(r);
    }

    /// Fold another result into this one.
    pub fn merge(&mut self, other: SweepResult) {
        self.work += other.work;
        for (k, v) in other.counters {
            *self.counters.entry(k).or_insert(0) += v;
        }
        for (k, v) in other.maxima {
            self.maximum(k, v);
        }
        for (k, r) in other.witnesses {
            self.witness(k, r);
        }
        for (k, set) in other.records {
            match self.records.get_mut(&k) {
                Some(mine) => mine.merge(set),
                None => {
                    self.records.insert(k, set);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(v: u32, code: &str, index: u64) -> Record {
        Record {
            vertices: v,
            edges: 0,
            code: code.into(),
            index,
            detail: String::new(),
            note: String::new(),
        }
    }

    fn sample(seed: u64) -> SweepResult {
        let mut r = SweepResult {
            work: seed,
            ..Default::default()
        };
        r.count("a", seed);
        r.count(format!("b{}", seed % 3), 1);
        r.witness("w", rec((seed % 5) as u32 + 1, "X", seed));
        r.record("ex", 3, rec(seed as u32, "Y", seed));
        r.maximum("m", seed * 7 % 11);
        r
    }

    #[test]
    fn merge_is_order_independent() {
        let parts: Vec<_> = (1..=7).map(sample).collect();
        let mut fwd = SweepResult::default();
        for p in parts.iter().cloned() {
            fwd.merge(p);
        }
        let mut rev = SweepResult::default();
        for p in parts.iter().rev().cloned() {
            rev.merge(p);
        }
        // grouped: (1..3) + (4..7)
        let mut left = SweepResult::default();
        let mut right = SweepResult::default();
        for (i, p) in parts.into_iter().enumerate() {
            if i < 3 {
                left.merge(p)
            } else {
                right.merge(p)
            }
        }
        right.merge(left);
        assert_eq!(fwd, rev);
        assert_eq!(fwd, right);
        assert_eq!(fwd.counter("a"), 28);
        assert_eq!(fwd.witnesses["w"].vertices, 1);
        assert_eq!(fwd.maxima["m"], 10);
        assert_eq!(fwd.witnesses["w"].index, 5);
        let ex = &fwd.records["ex"];
        assert_eq!(ex.total, 7);
        assert_eq!(
            ex.kept.iter().map(|r| r.index).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
    }
}
