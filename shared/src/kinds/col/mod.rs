//! Sweep kinds over Col and Myopic Col positions.
//!
//! | kind | structures | sharded by |
//! |---|---|---|
//! | `myopic-tree` | unordered binary trees, root uncoloured, every colouring | tree shape |
//! | `myopic-rooted` | rooted trees (A000081), root uncoloured | tree shape |
//! | `myopic-digraph` | labelled digraphs on 2..4 vertices + random digraphs | index ranges |
//! | `myopic-list` | the list lemma and its corollary | list length / composition |
//! | `col` | connected graphs, colourings without a same-colour edge | canonical-form prefix |
//! | `engine-check` | solver vs naive search, Col ≤ 6 and Myopic ≤ 4 | prefix / index ranges |
//!
//! Every position whose value is not cold (a number or a number plus `*`) is
//! recorded in full, as is every exception to a rule a sweep checks.

pub mod digraph;
pub mod graphs;
#[cfg(test)]
#[path = "headline_test.rs"]
mod headline;
pub mod list;
pub mod tree;
pub mod typed;

pub use digraph::MyopicDigraphSweep;
pub use graphs::{ColSweep, EngineCheckSweep};
pub use list::MyopicListSweep;

pub use tree::{MyopicRootedSweep, MyopicTreeSweep};

use crate::cgt::{Engine, GameId};
use crate::fxhash::FxHashMap;
use crate::sweep::merge::{add_counts, merge_maps};
use crate::sweep::{Record, RecordSet, SweepResult};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Records kept per counterexample list (all are counted).
pub const RECORD_CAP: u64 = 200;

/// `"L.R."`-style colouring text from blue/red masks.
pub fn colouring_string(n: usize, blue: u32, red: u32) -> String {
    (0..n)
        .map(|v| {
            if blue >> v & 1 == 1 {
                'L'
            } else if red >> v & 1 == 1 {
                'R'
            } else {
                '.'
            }
        })
        .collect()
}

/// Base-3 index of a colouring (digit of vertex v: 0 uncoloured, 1 blue, 2 red; vertex 0 least significant).
pub fn colouring_index(n: usize, blue: u32, red: u32) -> u64 {
    (0..n).rev().fold(0u64, |acc, v| {
        acc * 3 + u64::from(blue >> v & 1 == 1) + 2 * u64::from(red >> v & 1 == 1)
    })
}

/// A position record: structure code, colouring, free note.
pub fn position_record(
    n: usize,
    edges: usize,
    code: &str,
    blue: u32,
    red: u32,
    note: String,
) -> Record {
    Record {
        vertices: n as u32,
        edges: edges as u32,
        code: code.to_string(),
        index: colouring_index(n, blue, red),
        detail: format!("colouring {}", colouring_string(n, blue, red)),
        note,
    }
}

/// Per-shard tallies of values: counts per (group, value) and the smallest
/// position of each value, kept as ids on the hot path and turned into
/// strings once per shard.
#[derive(Default)]
pub struct ValueTally {
    counts: FxHashMap<(usize, GameId), u64>,
    /// Smallest (n, edges, code, index) seen per value.
    best: FxHashMap<GameId, (usize, usize, String, u64, u32, u32)>,
}

impl ValueTally {
    /// Count one position of value `g` in group `n`; `code` etc. describe it for the witness.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn add(&mut self, n: usize, g: GameId, edges: usize, code: &str, blue: u32, red: u32) {
        *self.counts.entry((n, g)).or_insert(0) += 1;
        let idx = colouring_index(n, blue, red);
        match self.best.get_mut(&g) {
            Some(b) => {
                if (n, edges, code, idx) < (b.0, b.1, b.2.as_str(), b.3) {
                    *b = (n, edges, code.to_string(), idx, blue, red);
                }
            }
            None => {
                self.best
                    .insert(g, (n, edges, code.to_string(), idx, blue, red));
            }
        }
    }

    /// The typed tallies, with values as display strings (once per shard).
    pub fn into_stats(self, e: &mut Engine) -> ValueStats {
        let mut names: FxHashMap<GameId, String> = FxHashMap::default();
        let mut name =
            |e: &mut Engine, g: GameId| names.entry(g).or_insert_with(|| e.display(g)).clone();
        let mut out = ValueStats::default();
        for ((n, g), c) in self.counts {
            let s = name(e, g);
            let group = n as u32;
            *out.counts.entry(group).or_default().entry(s).or_insert(0) += c;
            if let Some((x, _)) = e.number_nimber(g) {
                let d = out.max_denominator.entry(group).or_insert(0);
                *d = (*d).max(x.denominator());
            }
        }
        for (g, (n, edges, code, _, blue, red)) in self.best {
            let s = name(e, g);
            let r = position_record(n, edges, &code, blue, red, format!("value {s}"));
            out.offer_smallest(s, r);
        }
        out
    }

    /// TRANSITIONAL (untyped kinds): emit into `out`: counters
    /// `n=NN/value=V`, maxima `n=NN/max_denominator`, witnesses `value=V`.
    pub fn emit(self, e: &mut Engine, out: &mut SweepResult) {
        let mut names: FxHashMap<GameId, String> = FxHashMap::default();
        let mut name =
            |e: &mut Engine, g: GameId| names.entry(g).or_insert_with(|| e.display(g)).clone();
        for ((n, g), c) in self.counts {
            let s = name(e, g);
            out.count(format!("n={n:02}/value={s}"), c);
            if let Some((x, _)) = e.number_nimber(g) {
                out.maximum(format!("n={n:02}/max_denominator"), x.denominator());
            }
        }
        for (g, (n, edges, code, _, blue, red)) in self.best {
            let s = name(e, g);
            out.witness(
                format!("value={s}"),
                position_record(n, edges, &code, blue, red, format!("value {s}")),
            );
        }
    }
}

/// Values of positions, typed: counts per (group, value), the largest
/// denominator of a number-valued position per group, and the smallest
/// position (witness order) of each value. Groups are vertex or node counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueStats {
    /// Positions per group and value (value in display notation).
    pub counts: BTreeMap<u32, BTreeMap<String, u64>>,
    /// Largest denominator of a number (or number plus nimber) value per
    /// group; absent for a group without one.
    pub max_denominator: BTreeMap<u32, u64>,
    /// The smallest position of each value.
    pub smallest: BTreeMap<String, Record>,
}

impl ValueStats {
    fn offer_smallest(&mut self, value: String, r: Record) {
        match self.smallest.get_mut(&value) {
            Some(old) if *old <= r => {}
            Some(old) => *old = r,
            None => {
                self.smallest.insert(value, r);
            }
        }
    }

    /// Fold `other` in (associative and commutative).
    pub fn merge(&mut self, other: ValueStats) {
        merge_maps(&mut self.counts, other.counts, add_counts);
        merge_maps(&mut self.max_denominator, other.max_denominator, |a, b| {
            *a = (*a).max(b)
        });
        for (v, r) in other.smallest {
            self.offer_smallest(v, r);
        }
    }

    /// Distinct values and their position counts over all groups, in value-string order.
    pub fn table(&self) -> Vec<(String, u64)> {
        let mut m: BTreeMap<String, u64> = BTreeMap::new();
        for per in self.counts.values() {
            for (v, &c) in per {
                *m.entry(v.clone()).or_insert(0) += c;
            }
        }
        m.into_iter().collect()
    }

    /// Number of distinct values in `group`.
    pub fn distinct_in(&self, group: u32) -> usize {
        self.counts.get(&group).map_or(0, |m| m.len())
    }

    /// The largest denominator in `group` (0 when it has no number value).
    pub fn denominator_in(&self, group: u32) -> u64 {
        self.max_denominator.get(&group).copied().unwrap_or(0)
    }

    /// The largest denominator over all groups (0 when none).
    pub fn denominator_max(&self) -> u64 {
        self.max_denominator.values().copied().max().unwrap_or(0)
    }

    /// The `values` rows of a document: each value, its count and smallest position.
    pub fn rows(&self) -> Vec<ValueRow> {
        self.table()
            .into_iter()
            .map(|(value, positions)| ValueRow {
                smallest: self.smallest.get(&value).map(PositionJson::from),
                value,
                positions,
            })
            .collect()
    }
}

/// One value in a document: its notation, how many positions have it, and
/// the smallest of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueRow {
    /// The value in display notation.
    pub value: String,
    /// Positions with this value.
    pub positions: u64,
    /// The smallest such position (witness order).
    pub smallest: Option<PositionJson>,
}

/// A recorded Col position as written in `results.json` (a [`Record`] with
/// its index named `colouring_index`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionJson {
    /// The structure: graph6, digraph6, or tree code.
    pub code: String,
    /// Vertices (nodes).
    pub vertices: u32,
    /// Edges (arcs).
    pub edges: u32,
    /// Base-3 colouring index ([`colouring_index`]).
    pub colouring_index: u64,
    /// `colouring L.R.`-style text.
    pub detail: String,
    /// What was found, e.g. `value 1/2`.
    pub note: String,
}

impl From<&Record> for PositionJson {
    fn from(x: &Record) -> Self {
        PositionJson {
            code: x.code.clone(),
            vertices: x.vertices,
            edges: x.edges,
            colouring_index: x.index,
            detail: x.detail.clone(),
            note: x.note.clone(),
        }
    }
}

impl PositionJson {
    /// One Markdown line (without the list bullet).
    pub fn md(&self) -> String {
        format!(
            "`{}` ({} vertices, {} arcs/edges), {}: {}",
            self.code, self.vertices, self.edges, self.detail, self.note
        )
    }
}

/// A set of recorded positions (counterexamples, non-cold positions): the
/// [`RECORD_CAP`] smallest are kept, all are counted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Records(pub RecordSet);

impl Default for Records {
    fn default() -> Self {
        Records(RecordSet::new(RECORD_CAP))
    }
}

impl Records {
    /// Add one record.
    pub fn add(&mut self, r: Record) {
        self.0.add(r)
    }
    /// Merge another set of disjoint records.
    pub fn merge(&mut self, other: Records) {
        self.0.merge(other.0)
    }
    /// How many were found in all.
    pub fn total(&self) -> u64 {
        self.0.total
    }
    /// The kept records, smallest first, as written in `results.json`.
    pub fn to_json(&self) -> Vec<PositionJson> {
        self.0.kept.iter().map(PositionJson::from).collect()
    }
}

/// Markdown list lines (`- …`) of recorded positions.
pub fn records_md(md: &mut String, records: &[PositionJson]) {
    for x in records {
        md.push_str("- ");
        md.push_str(&x.md());
        md.push('\n');
    }
}

/// TRANSITIONAL (untyped kinds): distinct values and their counts from `n=NN/value=V` counters (all n).
pub fn value_table(r: &SweepResult) -> Vec<(String, u64)> {
    let mut m: std::collections::BTreeMap<String, u64> = Default::default();
    for (k, &c) in &r.counters {
        if let Some(v) = k.split_once("/value=").map(|(_, v)| v) {
            *m.entry(v.to_string()).or_insert(0) += c;
        }
    }
    m.into_iter().collect()
}

/// TRANSITIONAL (untyped kinds): number of distinct values in group `n`.
pub fn distinct_in(r: &SweepResult, n: usize) -> usize {
    let prefix = format!("n={n:02}/value=");
    r.counters.keys().filter(|k| k.starts_with(&prefix)).count()
}

/// TRANSITIONAL (untyped kinds): JSON list of a record set.
pub fn records_json(r: &SweepResult, key: &str) -> Value {
    match r.records.get(key) {
        None => json!([]),
        Some(set) => Value::Array(set.kept.iter().map(record_json).collect()),
    }
}

/// TRANSITIONAL (untyped kinds): total count of a record set.
pub fn records_total(r: &SweepResult, key: &str) -> u64 {
    r.records.get(key).map_or(0, |s| s.total)
}

/// TRANSITIONAL (untyped kinds): one record as JSON.
pub fn record_json(x: &Record) -> Value {
    json!({
        "code": x.code,
        "vertices": x.vertices,
        "edges": x.edges,
        "colouring_index": x.index,
        "detail": x.detail,
        "note": x.note,
    })
}

/// TRANSITIONAL (untyped kinds): one record as a Markdown line.
pub fn record_md(x: &Record) -> String {
    format!(
        "`{}` ({} vertices, {} arcs/edges), {}: {}",
        x.code, x.vertices, x.edges, x.detail, x.note
    )
}

pub(crate) use crate::sweep::thousands;

/// Split `items` (with weights) into `shards` lists, heaviest first onto the
/// lightest list; deterministic.
pub fn balance<T: Clone>(items: &[(T, u64)], shards: usize) -> Vec<(Vec<T>, u64)> {
    let shards = shards.max(1).min(items.len().max(1));
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(items[i].1), i));
    let mut out: Vec<(Vec<T>, u64)> = vec![(Vec::new(), 0); shards];
    for i in order {
        let j = (0..shards).min_by_key(|&j| (out[j].1, j)).unwrap();
        out[j].0.push(items[i].0.clone());
        out[j].1 += items[i].1;
    }
    out.retain(|s| !s.0.is_empty());
    out
}
