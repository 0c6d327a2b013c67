//! Typed building blocks shared by the Col kinds' results and documents: a
//! value tally ([`ValueCounter`] on the hot path, [`ValueStats`] as the
//! mergeable result, [`ValueRow`] in documents), capped record lists
//! ([`Records`]), the `results.json` form of a position ([`PositionDoc`]),
//! the Markdown renderers ([`records_md`], [`values_md`]) and a parameter
//! range check. Groups are vertex (node) counts, values display strings.

use super::{colouring_index, position_record, RECORD_CAP};
use crate::cgt::{Arena, GameId};
use crate::fxhash::FxHashMap;
use crate::sweep::merge::{add_counts, merge_maps, MergeError};
use crate::sweep::present::cmp_game_values;
use crate::sweep::report::{md_code, md_code_cell, vertices};
use crate::sweep::{thousands, Marks, Max, ParamDef, Record, RecordSet, Role, SweepError, Witness};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A group of positions in a value tally: the vertex (node) count.
pub type Group = u32;

/// Per-shard value tally on the hot path: counts per (group, value) and the
/// smallest position per value, kept as arena ids; turned into a typed
/// [`ValueStats`] once per shard by [`ValueCounter::finish`].
#[derive(Default)]
pub struct ValueCounter {
    counts: FxHashMap<(usize, GameId), u64>,
    /// Smallest (n, edges, code, colouring index, blue, red) seen per value.
    best: FxHashMap<GameId, (usize, usize, String, u64, u32, u32)>,
}

impl ValueCounter {
    /// Count one position of value `g` on `n` vertices with `edges`
    /// edges/arcs, structure `code` and colouring (`blue`, `red`).
    #[inline]
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

    /// The typed tally, with values written out by `e` (once per shard).
    pub fn finish(self, e: &mut Arena) -> ValueStats {
        let mut names: FxHashMap<GameId, String> = FxHashMap::default();
        let mut name =
            |e: &mut Arena, g: GameId| names.entry(g).or_insert_with(|| e.display(g)).clone();
        let mut out = ValueStats::default();
        for ((n, g), c) in self.counts {
            let s = name(e, g);
            let group = n as Group;
            *out.counts.entry(group).or_default().entry(s).or_insert(0) += c;
            if let Some((x, _)) = e.number_nimber(g) {
                out.max_denominator
                    .entry(group)
                    .or_default()
                    .offer(x.denominator());
            }
        }
        for (g, (n, edges, code, _, blue, red)) in self.best {
            let s = name(e, g);
            let r = position_record(n, edges, &code, blue, red, format!("value {s}"));
            out.offer_smallest(s, r);
        }
        out
    }
}

/// Values found, by group: how many positions of each value, the largest
/// denominator of a number (or number plus nimber) value, and the smallest
/// position of each value in witness order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueStats {
    /// Positions per group and value (the value's display string).
    pub counts: BTreeMap<Group, BTreeMap<String, u64>>,
    /// Largest denominator per group (absent: no number values).
    pub max_denominator: BTreeMap<Group, Max>,
    /// Smallest position (witness order) of each value.
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
    pub fn merge(&mut self, other: ValueStats) -> Result<(), MergeError> {
        merge_maps(&mut self.counts, other.counts, "counts", |a, b| {
            add_counts(a, b, "")
        })?;
        merge_maps(
            &mut self.max_denominator,
            other.max_denominator,
            "max_denominator",
            |a, b| {
                a.merge(b);
                Ok(())
            },
        )?;
        for (v, r) in other.smallest {
            self.offer_smallest(v, r);
        }
        Ok(())
    }

    /// Distinct values in `group`.
    pub fn distinct_in(&self, group: Group) -> usize {
        self.counts.get(&group).map_or(0, |m| m.len())
    }

    /// Largest denominator in `group` (0 when it has no number values).
    pub fn max_denominator_in(&self, group: Group) -> u64 {
        self.max_denominator.get(&group).map_or(0, |m| m.0)
    }

    /// Largest denominator over all groups (0 when none).
    pub fn max_denominator_all(&self) -> u64 {
        self.max_denominator
            .values()
            .map(|m| m.0)
            .max()
            .unwrap_or(0)
    }

    /// Positions per value over all groups, in value-string order.
    pub fn totals(&self) -> BTreeMap<&str, u64> {
        let mut m: BTreeMap<&str, u64> = BTreeMap::new();
        for per in self.counts.values() {
            for (v, &c) in per {
                *m.entry(v.as_str()).or_insert(0) += c;
            }
        }
        m
    }

    /// The `values` table of a document: each value, its positions and its
    /// smallest position, in value-string order.
    pub fn rows(&self) -> Vec<ValueRow> {
        self.totals()
            .into_iter()
            .map(|(v, c)| ValueRow {
                value: v.to_string(),
                positions: c,
                smallest: self.smallest.get(v).map(PositionDoc::from),
            })
            .collect()
    }
}

/// One row of a document's `values` table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueRow {
    /// The value (display string).
    pub value: String,
    /// Positions of this value.
    pub positions: u64,
    /// Its smallest position in witness order.
    pub smallest: Option<PositionDoc>,
}

/// Records of one list (counterexamples, non-cold positions): the
/// [`RECORD_CAP`] smallest kept, all counted.
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
    #[inline]
    pub fn add(&mut self, r: Record) {
        self.0.add(r);
    }
    /// Fold `other` in.
    pub fn merge(&mut self, other: Records) -> Result<(), MergeError> {
        self.0.merge(other.0)
    }
    /// How many records were added in all.
    pub fn total(&self) -> u64 {
        self.0.total
    }
    /// The kept records as document entries, smallest first.
    pub fn docs(&self) -> Vec<PositionDoc> {
        self.0.kept.iter().map(PositionDoc::from).collect()
    }
}

/// A recorded position as written in `results.json` (a [`Record`] with its
/// index named `colouring_index`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionDoc {
    /// Structure code (digraph6, graph6, list lengths).
    pub code: String,
    /// Vertices (nodes).
    pub vertices: u32,
    /// Edges (arcs).
    pub edges: u32,
    /// Base-3 colouring index (see [`colouring_index`]).
    pub colouring_index: u64,
    /// `colouring L.R.`-style text or other detail.
    pub detail: String,
    /// What was found, e.g. `value 1/2`.
    pub note: String,
}

impl From<&Record> for PositionDoc {
    fn from(x: &Record) -> Self {
        PositionDoc {
            code: x.code.clone(),
            vertices: x.vertices,
            edges: x.edges,
            colouring_index: x.index,
            detail: x.detail.clone(),
            note: x.note.clone(),
        }
    }
}

/// Markdown list lines (`- …`, one per position) of recorded positions.
pub fn records_md(md: &mut String, records: &[PositionDoc]) {
    for x in records {
        let _ = writeln!(
            md,
            "- {} ({} vertices, {} arcs/edges), {}: {}",
            md_code(&x.code),
            x.vertices,
            x.edges,
            x.detail,
            x.note
        );
    }
}

/// Markdown table rows (`| value | positions | smallest position |`) of a
/// document's `values`; `unit` names the smallest position's vertices
/// (`vertices`, `nodes`).
pub fn values_md(md: &mut String, rows: &[ValueRow], unit: &str) {
    for v in in_value_order(rows) {
        let _ = write!(md, "| {} | {} | ", v.value, thousands(v.positions));
        if let Some(w) = &v.smallest {
            let _ = write!(
                md,
                "{} {} {unit}, {}",
                md_code_cell(&w.code),
                w.vertices,
                w.detail
            );
        }
        md.push_str(" |\n");
    }
}

/// `rows` in the order of their values ([`cmp_game_values`]: numbers by
/// size, `x` before `x*`), not the text order `results.json` keeps them in.
pub fn in_value_order(rows: &[ValueRow]) -> Vec<&ValueRow> {
    let mut v: Vec<&ValueRow> = rows.iter().collect();
    v.sort_by(|a, b| cmp_game_values(&a.value, &b.value));
    v
}

/// `Err(BadParams)` unless every `(name, value)` lies in its declared range
/// in `defs` (parameters normally arrive resolved; this guards direct calls).
pub fn check_ranges(
    kind: &str,
    defs: &[ParamDef],
    values: &[(&str, u64)],
) -> Result<(), SweepError> {
    for &(name, value) in values {
        let d = defs
            .iter()
            .find(|d| d.name == name)
            .ok_or_else(|| SweepError::BadParams {
                kind: kind.into(),
                reason: format!("no parameter `{name}`"),
            })?;
        if value < d.min || value > d.max {
            return Err(SweepError::BadParams {
                kind: kind.into(),
                reason: format!("{name} = {value} outside {}..={}", d.min, d.max),
            });
        }
    }
    Ok(())
}

/// How a position of a Col kind is shown ([`crate::sweep::Presentation`]).
impl PositionDoc {
    /// Its colouring marks (`colouring …` detail), or none.
    pub fn marks(&self) -> Marks {
        match self.detail.strip_prefix("colouring ") {
            Some(text) => Marks::Colouring(text.to_string()),
            None => Marks::None,
        }
    }

    /// The position shown as `what` under `role`: the caption gives its
    /// size, its colouring or detail and what was found (its value).
    pub fn witness(&self, role: Role, what: &str) -> Witness {
        let mut caption = format!("{what}: {}", vertices(self.vertices));
        if !self.detail.is_empty() {
            caption.push_str(", ");
            caption.push_str(&self.detail);
        }
        if !self.note.is_empty() {
            caption.push_str(", ");
            caption.push_str(&self.note);
        }
        Witness {
            role,
            size: (self.vertices, self.edges),
            code: self.code.clone(),
            marks: self.marks(),
            value: self.note.strip_prefix("value ").map(str::to_string),
            caption,
        }
    }
}

/// The smallest position of each value of `values`, shown with its value,
/// in the order of the values.
pub fn smallest_witnesses(values: &[ValueRow]) -> Vec<Witness> {
    in_value_order(values)
        .into_iter()
        .filter_map(|v| {
            let p = v.smallest.as_ref()?;
            let mut w = p.witness(Role::Smallest, &format!("smallest {}", v.value));
            // The note repeats the value; the caption says it once.
            w.caption = format!("smallest {}: {}", v.value, vertices(p.vertices));
            if !p.detail.is_empty() {
                w.caption.push_str(", ");
                w.caption.push_str(&p.detail);
            }
            w.value = Some(v.value.clone());
            Some(w)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(v: u32, code: &str) -> Record {
        Record {
            vertices: v,
            edges: 0,
            code: code.into(),
            index: 0,
            detail: String::new(),
            note: String::new(),
        }
    }

    #[test]
    fn tally_merge_is_order_independent() {
        let mut a = ValueStats::default();
        a.counts.entry(2).or_default().insert("*".into(), 3);
        a.max_denominator.insert(2, Max(2));
        a.offer_smallest("*".into(), rec(2, "B"));
        let mut b = ValueStats::default();
        b.counts.entry(2).or_default().insert("*".into(), 1);
        b.counts.entry(3).or_default().insert("0".into(), 5);
        b.max_denominator.insert(2, Max(4));
        b.offer_smallest("*".into(), rec(2, "A"));
        let mut ab = a.clone();
        ab.merge(b.clone()).unwrap();
        let mut ba = b;
        ba.merge(a).unwrap();
        assert_eq!(ab, ba);
        assert_eq!(ab.totals(), BTreeMap::from([("*", 4), ("0", 5)]));
        assert_eq!(ab.smallest["*"].code, "A");
        assert_eq!(ab.max_denominator_in(2), 4);
        assert_eq!(ab.max_denominator_in(3), 0);
        assert_eq!(ab.distinct_in(2), 1);
        // the tally round-trips through its JSON encoding (integer map keys)
        let text = serde_json::to_string(&ab).unwrap();
        assert_eq!(serde_json::from_str::<ValueStats>(&text).unwrap(), ab);
    }

    #[test]
    fn ranges_are_checked() {
        let defs = [ParamDef {
            name: "x",
            help: "",
            default: None,
            min: 1,
            max: 3,
        }];
        assert!(check_ranges("k", &defs, &[("x", 3)]).is_ok());
        assert!(matches!(
            check_ranges("k", &defs, &[("x", 4)]),
            Err(SweepError::BadParams { .. })
        ));
        assert!(check_ranges("k", &defs, &[("y", 1)]).is_err());
    }
}
