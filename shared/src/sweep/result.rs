//! Records (witnesses, counterexamples, collected positions) and bounded
//! record sets: typed building blocks of the kinds' results.

use super::merge::MergeError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

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

    /// Merge another set of disjoint records into this one (`total` adds
    /// with checked arithmetic).
    pub fn merge(&mut self, other: RecordSet) -> Result<(), MergeError> {
        super::merge::add(&mut self.total, other.total, "total")?;
        self.cap = self.cap.max(other.cap);
        self.kept.extend(other.kept);
        self.trim();
        Ok(())
    }
}

impl Record {
    /// This record shown as a counterexample whose `index` is its start
    /// vertex: the caption gives what it is, its size, its detail and what
    /// was found.
    pub fn start_counterexample(&self, what: &str) -> super::Witness {
        let mut caption = format!("{what}: {}", super::report::vertices(self.vertices));
        for part in [&self.detail, &self.note] {
            if !part.is_empty() {
                caption.push_str(", ");
                caption.push_str(part);
            }
        }
        super::Witness {
            role: super::Role::Counterexample,
            size: (self.vertices, self.edges),
            code: self.code.clone(),
            marks: super::Marks::Start(vec![self.index as usize]),
            value: None,
            caption,
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

    #[test]
    fn record_sets_merge_order_independently() {
        let parts: Vec<RecordSet> = (1..=7u64)
            .map(|seed| {
                let mut r = RecordSet::new(3);
                r.add(rec(seed as u32, "Y", seed));
                r
            })
            .collect();
        let mut fwd = RecordSet::new(3);
        for p in parts.iter().cloned() {
            fwd.merge(p).unwrap();
        }
        let mut rev = RecordSet::new(3);
        for p in parts.iter().rev().cloned() {
            rev.merge(p).unwrap();
        }
        // grouped: (1..3) + (4..7)
        let (mut left, mut right) = (RecordSet::new(3), RecordSet::new(3));
        for (i, p) in parts.into_iter().enumerate() {
            if i < 3 {
                left.merge(p).unwrap()
            } else {
                right.merge(p).unwrap()
            }
        }
        right.merge(left).unwrap();
        assert_eq!(fwd, rev);
        assert_eq!(fwd, right);
        assert_eq!(fwd.total, 7);
        assert_eq!(
            fwd.kept.iter().map(|r| r.index).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
    }
}
