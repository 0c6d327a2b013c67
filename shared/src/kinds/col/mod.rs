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
use crate::sweep::{Record, SweepResult};
use serde_json::{json, Value};

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

    /// Emit into `out`: counters `n=NN/value=V`, maxima `n=NN/max_denominator`,
    /// witnesses `value=V`.
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

/// Distinct values and their counts from `n=NN/value=V` counters (all n).
pub fn value_table(r: &SweepResult) -> Vec<(String, u64)> {
    let mut m: std::collections::BTreeMap<String, u64> = Default::default();
    for (k, &c) in &r.counters {
        if let Some(v) = k.split_once("/value=").map(|(_, v)| v) {
            *m.entry(v.to_string()).or_insert(0) += c;
        }
    }
    m.into_iter().collect()
}

/// Number of distinct values in group `n`.
pub fn distinct_in(r: &SweepResult, n: usize) -> usize {
    let prefix = format!("n={n:02}/value=");
    r.counters.keys().filter(|k| k.starts_with(&prefix)).count()
}

/// JSON list of a record set.
pub fn records_json(r: &SweepResult, key: &str) -> Value {
    match r.records.get(key) {
        None => json!([]),
        Some(set) => Value::Array(set.kept.iter().map(record_json).collect()),
    }
}

/// Total count of a record set.
pub fn records_total(r: &SweepResult, key: &str) -> u64 {
    r.records.get(key).map_or(0, |s| s.total)
}

/// One record as JSON.
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

/// One record as a Markdown line.
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
