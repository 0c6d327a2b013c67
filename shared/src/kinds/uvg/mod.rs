//! The `uvg` sweep: every connected graph on 1..=N vertices, every start vertex.
//!
//! Per vertex count n: graphs, positions, the Grundy histogram, first-player
//! wins, matching-theorem exceptions (exact value 0 vs the ν test), the
//! max-degree-≤3 subset checked against the degree-3 algorithm, a witness for
//! each value (the smallest position in witness order), and optionally every
//! position of value ≥ `--collect-min-value`.

mod report;
mod run;
mod validate;

use crate::graph::{graph6, BitGraph};
use crate::sweep::graphplan::{self, GraphShard};
use crate::sweep::merge::{add, add_counts, merge_maps, MergeError};
use crate::sweep::positions::graph_part;
use crate::sweep::report::nim;
use crate::sweep::ValidateError;
use crate::sweep::{
    thousands, Kind, Max, Merge, ParamDef, Record, RecordSet, ShardCtx, Smallest, SweepError,
};
use crate::uvg;
use crate::uvg::extension;
use run::Acc;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Largest n the `uvg` sweep accepts (the bitset solver's memo grows as n·2^n).
pub const UVG_MAX_N: u64 = 12;

/// Counterexample records kept per list (all are counted).
const EXCEPTION_CAP: u64 = 1000;

/// Start values are below this (they index a `u32` bit mask).
const VALUES: usize = 32;

/// The `uvg` sweep kind.
pub struct UvgSweep;

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "max_n",
        help: "largest vertex count",
        default: Some(9),
        min: 1,
        max: UVG_MAX_N,
    },
    ParamDef {
        name: "collect_min_value",
        help: "also list every position whose Grundy value is at least this (0 = off)",
        default: Some(0),
        min: 0,
        max: 31,
    },
    ParamDef {
        name: "extension_value",
        help: "search for a start of value *k on max-n + 2 vertices from the graphs on max-n and max-n - 1 vertices (the smallest-*k case analysis; 0 = off, else 3..=20)",
        default: Some(0),
        min: 0,
        max: 20,
    },
];

/// Parameters of the `uvg` sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UvgParams {
    /// Largest vertex count (1..=[`UVG_MAX_N`]).
    pub max_n: usize,
    /// List every position of at least this Grundy value (0 = off).
    pub collect_min_value: u8,
    /// Run the finite search for a `*k` on `max_n + 2` vertices, `k` = this
    /// (0 = off; see [`crate::uvg::extension`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extension_value: u8,
}

fn is_zero(x: &u8) -> bool {
    *x == 0
}

impl UvgParams {
    fn check(&self) -> Result<(), SweepError> {
        if self.max_n == 0
            || self.max_n as u64 > UVG_MAX_N
            || self.collect_min_value as usize >= VALUES
            || (self.extension_value != 0 && !(3..=20).contains(&self.extension_value))
            || (self.extension_value != 0 && self.max_n < 4)
        {
            return Err(SweepError::BadParams {
                kind: "uvg".into(),
                reason: format!(
                    "{self:?} out of range (max_n 1..={UVG_MAX_N}, collect_min_value 0..=31, extension_value 0 or 3..=20 with max_n ≥ 4)"
                ),
            });
        }
        Ok(())
    }
}

/// A start witness: the smallest position of a value on n vertices, in
/// witness order (n is fixed by where it is kept: edges, graph6, start).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct StartWitness {
    /// Edges of the graph.
    pub edges: u32,
    /// The graph (graph6).
    pub graph6: String,
    /// The start vertex.
    pub start: u32,
}

/// A graph witness (edges, then graph6).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GraphWitness {
    /// Edges of the graph.
    pub edges: u32,
    /// The graph (graph6).
    pub graph6: String,
}

/// The max-degree-≤3 subset of one vertex count, checked against the
/// Burke–Ferland–Teng degree-3 algorithm.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Degree3Counts {
    /// Graphs of maximum degree ≤ 3.
    pub graphs: u64,
    /// Their (graph, start) positions.
    pub positions: u64,
    /// Win/lose tests the algorithm made, in all.
    pub win_lose_tests: u64,
    /// Most win/lose tests for one start.
    pub max_win_lose_tests: Max,
}

/// Everything counted for the connected graphs on one vertex count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UvgCounts {
    /// Connected graphs.
    pub graphs: u64,
    /// (graph, start) positions.
    pub positions: u64,
    /// Positions by exact Grundy value.
    pub grundy: BTreeMap<u8, u64>,
    /// Positions the matching theorem says the first player wins.
    pub first_player_wins: u64,
    /// The max-degree-≤3 subset.
    pub degree3: Degree3Counts,
    /// Graphs by `t`: their start values include every one of 0..t-1 but not t.
    pub cover: BTreeMap<u8, u64>,
    /// Smallest graph whose start values include 0..k-1, by k (k ≥ 3 only).
    pub cover_witnesses: BTreeMap<u8, Smallest<GraphWitness>>,
    /// Smallest position of each value.
    pub witnesses: BTreeMap<u8, Smallest<StartWitness>>,
    /// Positions where exact value 0 and the matching test disagree.
    pub matching_exceptions: RecordSet,
    /// Max-degree-≤3 positions where the degree-3 algorithm and the exact value disagree.
    pub degree3_exceptions: RecordSet,
    /// Positions of value ≥ `collect_min_value` (when on).
    pub collected: RecordSet,
}

impl Default for UvgCounts {
    fn default() -> Self {
        UvgCounts {
            graphs: 0,
            positions: 0,
            grundy: BTreeMap::new(),
            first_player_wins: 0,
            degree3: Degree3Counts::default(),
            cover: BTreeMap::new(),
            cover_witnesses: BTreeMap::new(),
            witnesses: BTreeMap::new(),
            matching_exceptions: RecordSet::new(EXCEPTION_CAP),
            degree3_exceptions: RecordSet::new(EXCEPTION_CAP),
            collected: RecordSet::new(u64::MAX),
        }
    }
}

impl UvgCounts {
    fn merge(&mut self, o: UvgCounts) -> Result<(), MergeError> {
        add(&mut self.graphs, o.graphs, "graphs")?;
        add(&mut self.positions, o.positions, "positions")?;
        add_counts(&mut self.grundy, o.grundy, "grundy")?;
        add(
            &mut self.first_player_wins,
            o.first_player_wins,
            "first_player_wins",
        )?;
        let (d, od) = (&mut self.degree3, o.degree3);
        add(&mut d.graphs, od.graphs, "degree3.graphs")?;
        add(&mut d.positions, od.positions, "degree3.positions")?;
        add(
            &mut d.win_lose_tests,
            od.win_lose_tests,
            "degree3.win_lose_tests",
        )?;
        d.max_win_lose_tests.merge(od.max_win_lose_tests);
        add_counts(&mut self.cover, o.cover, "cover")?;
        merge_maps(
            &mut self.cover_witnesses,
            o.cover_witnesses,
            "cover_witnesses",
            |a, b| {
                a.merge(b);
                Ok(())
            },
        )?;
        merge_maps(&mut self.witnesses, o.witnesses, "witnesses", |a, b| {
            a.merge(b);
            Ok(())
        })?;
        (self.matching_exceptions.merge(o.matching_exceptions))
            .map_err(|e| e.within("matching_exceptions"))?;
        (self.degree3_exceptions.merge(o.degree3_exceptions))
            .map_err(|e| e.within("degree3_exceptions"))?;
        (self.collected.merge(o.collected)).map_err(|e| e.within("collected"))
    }
}

/// The result of a `uvg` shard, or of many merged: counts per vertex count.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UvgOutput {
    /// By vertex count (only counts that had graphs in the shard).
    pub by_n: BTreeMap<usize, UvgCounts>,
    /// The smallest-*k search (only with `extension_value`).
    #[serde(default, skip_serializing_if = "ExtensionCounts::is_empty")]
    pub extension: ExtensionCounts,
}

/// The figures of the smallest-*k search ([`crate::uvg::extension`]) over
/// the graphs D of a shard, and the graphs themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtensionCounts {
    /// Graphs D of case A (`max_n` vertices, starts covering 0..k−2).
    pub d_case_a: u64,
    /// Graphs D of case B (`max_n − 1` vertices, starts covering 1..k−2).
    pub d_case_b: u64,
    /// Sets T tried (graphs C built and solved).
    pub t_sets: u64,
    /// C whose new start u has value exactly k − 1.
    pub c_exact: u64,
    /// C whose starts cover 0..k−1 (each gives a *k on max_n + 2 vertices).
    pub hits: u64,
    /// The least hit's (max_n + 2)-vertex graph and start (edges, graph6, start).
    pub witness: Smallest<extension::Hit>,
    /// Every D, as `GRAPH6 v0,v1,…` (its start values).
    pub graphs: BTreeSet<String>,
}

impl ExtensionCounts {
    fn is_empty(&self) -> bool {
        *self == ExtensionCounts::default()
    }

    fn merge(&mut self, o: ExtensionCounts) -> Result<(), MergeError> {
        add(&mut self.d_case_a, o.d_case_a, "extension.d_case_a")?;
        add(&mut self.d_case_b, o.d_case_b, "extension.d_case_b")?;
        add(&mut self.t_sets, o.t_sets, "extension.t_sets")?;
        add(&mut self.c_exact, o.c_exact, "extension.c_exact")?;
        add(&mut self.hits, o.hits, "extension.hits")?;
        self.witness.merge(o.witness);
        // Shards hold disjoint graphs, so the union keeps every D once.
        self.graphs.extend(o.graphs);
        Ok(())
    }
}

impl Merge for UvgOutput {
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        merge_maps(&mut self.by_n, other.by_n, "by_n", UvgCounts::merge)?;
        self.extension.merge(other.extension)
    }
    fn work(&self) -> u64 {
        self.by_n.values().map(|c| c.positions).sum()
    }
}

/// `results.json` of the `uvg` sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UvgDoc {
    /// Always `uvg`.
    pub kind: String,
    /// The parameters.
    pub params: UvgParams,
    /// One row per vertex count 1..=max_n.
    pub by_n: Vec<UvgRow>,
    /// The smallest-*k search (with `extension_value`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extension_search: Option<ExtensionSearch>,
}

/// The smallest-*k search in `results.json` ([`crate::uvg::extension`]):
/// does a *k exist on `vertices` = max_n + 2 vertices?
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtensionSearch {
    /// k.
    pub value: u8,
    /// The vertex count asked about (max_n + 2).
    pub vertices: usize,
    /// P1: no *(k−1) on ≤ max_n vertices (from the rows above).
    pub premise_1: bool,
    /// P2: no *(k−2) on < max_n − 1 vertices (from the rows above).
    pub premise_2: bool,
    /// Graphs D of case A.
    pub d_case_a: u64,
    /// Graphs D of case B.
    pub d_case_b: u64,
    /// Sets T tried.
    pub t_sets: u64,
    /// C whose start u has value exactly k − 1.
    pub c_exact: u64,
    /// C whose starts cover 0..k−1.
    pub hits: u64,
    /// The least *k found on `vertices` vertices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness: Option<WitnessRow>,
    /// Every D: `GRAPH6 v0,v1,…`.
    pub graphs: Vec<String>,
}

/// One vertex count's row of `results.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UvgRow {
    /// Vertex count.
    pub n: usize,
    /// Connected graphs.
    pub graphs: u64,
    /// (graph, start) positions.
    pub positions: u64,
    /// Positions by Grundy value (values that occur).
    pub grundy: BTreeMap<u8, u64>,
    /// Positions the first player wins.
    pub first_player_wins: u64,
    /// Matching-theorem exceptions (count).
    pub matching_exceptions: u64,
    /// The first of them in witness order.
    pub matching_exception_records: Vec<ExceptionRow>,
    /// The max-degree-≤3 subset.
    pub maxdeg3: MaxDeg3Row,
    /// Smallest position of each value that occurs.
    pub witnesses: BTreeMap<u8, WitnessRow>,
    /// The extension step, by k ≥ 3: graphs whose starts have every value 0..k-1.
    pub extensions: BTreeMap<u8, Extension>,
    /// Positions of value ≥ `collect_min_value` (only when collecting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collected: Option<Collected>,
}

/// A counterexample position in `results.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExceptionRow {
    /// The graph.
    pub graph6: String,
    /// The start vertex.
    pub start: u64,
    /// Vertices.
    pub vertices: u32,
    /// Edges.
    pub edges: u32,
    /// The disagreeing values, e.g. `exact=1 degree3=0`.
    pub values: String,
}

impl ExceptionRow {
    fn from_set(set: &RecordSet) -> Vec<ExceptionRow> {
        set.kept
            .iter()
            .map(|r| ExceptionRow {
                graph6: r.code.clone(),
                start: r.index,
                vertices: r.vertices,
                edges: r.edges,
                values: r.note.clone(),
            })
            .collect()
    }
}

/// The max-degree-≤3 subset in `results.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaxDeg3Row {
    /// Graphs.
    pub graphs: u64,
    /// Starts.
    pub positions: u64,
    /// Disagreements with the exact value (count).
    pub exceptions: u64,
    /// The first of them in witness order.
    pub exception_records: Vec<ExceptionRow>,
    /// Win/lose tests in all.
    pub win_lose_tests: u64,
    /// Most tests for one start.
    pub max_win_lose_tests: u64,
}

/// The smallest position of a value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WitnessRow {
    /// The graph.
    pub graph6: String,
    /// The start vertex.
    pub start: u32,
    /// Edges.
    pub edges: u32,
}

/// Graphs on n vertices whose starts have every value 0..k-1, and the
/// (n+1)-vertex position of value *k built from the smallest of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extension {
    /// How many such graphs.
    pub graphs: u64,
    /// The smallest of them (graph6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smallest_base: Option<String>,
    /// It plus a vertex joined to one start of each value 0..k-1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extended_graph6: Option<String>,
    /// The new vertex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extended_start: Option<usize>,
    /// Its exact value (k when the construction is right).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extended_value: Option<u8>,
}

/// Collected positions of one vertex count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Collected {
    /// The `collect_min_value` parameter.
    pub min_value: u8,
    /// How many positions.
    pub count: u64,
    /// `GRAPH6 START`, in witness order.
    pub positions: Vec<String>,
}

impl Kind for UvgSweep {
    type Params = UvgParams;
    type Shard = GraphShard;
    type Output = UvgOutput;
    type Doc = UvgDoc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "uvg"
    }

    fn about(&self) -> &'static str {
        "undirected vertex geography on every connected graph with <= max-n vertices, every start"
    }

    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn position_digest(&self) -> bool {
        true
    }

    fn plan(
        &self,
        params: &UvgParams,
        target_shards: u32,
    ) -> Result<Vec<(GraphShard, u64)>, SweepError> {
        params.check()?;
        Ok(graphplan::plan(
            params.max_n,
            target_shards,
            graphplan::Work::PerVertex,
        ))
    }

    fn run(
        &self,
        params: &UvgParams,
        shard: &GraphShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<UvgOutput, SweepError> {
        params.check()?;
        let max_n = params.max_n;
        let walk = shard.decode(Kind::name(self))?;
        let mut acc = Acc::new(max_n, params.collect_min_value, params.extension_value);
        let mut since = 0u64;
        let mut cancelled = false;
        // The position digest, only when one is asked for (a comparable
        // lease): one fold per graph over its rows and start values.
        let salt = ctx.salt();
        let mut positions = 0u64;
        // The counted nodes and the leaves' parents are pushed on the
        // subset table; any other node's rows are built when a descendant
        // is pushed (`push` rebuilds the levels that differ from the
        // table's), so a node whose subtree the shard's cuts drop costs no
        // row. Only the counted ones are visited.
        let mut table = uvg::incremental::Incremental::new();
        graphplan::walk_tree(&walk, max_n, &mut |g, counted| {
            if cancelled || !(counted || g.n() + 1 == max_n) {
                return;
            }
            // Nodes on the last level have no children: their own rows
            // need not be kept, which `push_leaf` exploits; their parents'
            // and grandparents' rows are read only through plane 0, which
            // `push_parent` derives (the values by a search, on demand)
            // instead of computing every value.
            if g.n() == max_n {
                table.push_leaf(g);
            } else if g.n() + 2 >= max_n {
                table.push_parent(g);
            } else {
                table.push(g);
            }
            if !counted {
                return;
            }
            let (values, counts) = table.counted(g.n());
            acc.visit(g, values, counts, table.leaf_parent());
            if let Some(salt) = salt {
                positions = positions.wrapping_add(graph_part(salt, g.rows(), values));
            }
            since += g.n() as u64;
            if since >= 1 << 16 {
                ctx.add_progress(since);
                since = 0;
                cancelled = ctx.cancelled();
            }
        });
        ctx.add_progress(since);
        ctx.check()?;
        ctx.add_positions(positions);
        Ok(acc.finish())
    }

    fn validate(
        &self,
        params: &UvgParams,
        shard: &GraphShard,
        out: &UvgOutput,
    ) -> Result<(), ValidateError> {
        validate::validate(params, shard, out)
    }

    fn truths(&self, doc: &UvgDoc) -> Vec<crate::sweep::TruthCheck> {
        validate::truths(doc)
    }

    fn rows(
        &self,
        params: &UvgParams,
        shard: &GraphShard,
    ) -> Option<std::ops::RangeInclusive<usize>> {
        validate::rows(params, shard)
    }

    fn recount(
        &self,
        params: &UvgParams,
        shard: &GraphShard,
        out: &UvgOutput,
    ) -> Option<Result<(), ValidateError>> {
        Some(validate::recount(params, shard, out))
    }

    fn doc(&self, params: &UvgParams, merged: &UvgOutput) -> UvgDoc {
        let empty = UvgCounts::default();
        let by_n = (1..=params.max_n)
            .map(|n| row(params, n, merged.by_n.get(&n).unwrap_or(&empty)))
            .collect();
        let extension_search = (params.extension_value != 0).then(|| {
            let k = params.extension_value;
            let rows: &Vec<UvgRow> = &by_n;
            let has = |n: usize, v: u8| {
                rows.get(n.wrapping_sub(1))
                    .is_some_and(|r| r.grundy.get(&v).is_some_and(|&c| c > 0))
            };
            let (p1, p2) = extension::premises(k, params.max_n, &has);
            let e = &merged.extension;
            ExtensionSearch {
                value: k,
                vertices: params.max_n + 2,
                premise_1: p1,
                premise_2: p2,
                d_case_a: e.d_case_a,
                d_case_b: e.d_case_b,
                t_sets: e.t_sets,
                c_exact: e.c_exact,
                hits: e.hits,
                witness: e.witness.0.as_ref().map(|w| WitnessRow {
                    graph6: w.graph6.clone(),
                    start: w.start as u32,
                    edges: w.edges as u32,
                }),
                graphs: e.graphs.iter().cloned().collect(),
            }
        });
        UvgDoc {
            kind: Kind::name(self).into(),
            params: params.clone(),
            by_n,
            extension_search,
        }
    }

    fn present(&self, doc: &UvgDoc) -> crate::sweep::Presentation {
        report::present::present(doc)
    }
    fn report(&self, _params: &UvgParams, doc: &UvgDoc) -> String {
        report::report_md(doc)
    }

    fn exports(&self, params: &UvgParams, doc: &UvgDoc) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let k = params.collect_min_value;
        if k != 0 {
            let mut text = String::new();
            for c in doc.by_n.iter().filter_map(|r| r.collected.as_ref()) {
                for p in &c.positions {
                    text.push_str(p);
                    text.push('\n');
                }
            }
            out.push((format!("collected-min-value-{k}.txt"), text));
        }
        if let Some(e) = &doc.extension_search {
            let text: String = e.graphs.iter().map(|g| format!("{g}\n")).collect();
            out.push((format!("extension-{}-graphs.txt", e.value), text));
        }
        out
    }
}

/// The row of vertex count `n` from its merged counts.
fn row(params: &UvgParams, n: usize, c: &UvgCounts) -> UvgRow {
    let witnesses = c
        .witnesses
        .iter()
        .filter_map(|(&v, w)| {
            let w = w.0.as_ref()?;
            Some((
                v,
                WitnessRow {
                    graph6: w.graph6.clone(),
                    start: w.start,
                    edges: w.edges,
                },
            ))
        })
        .collect();
    let mut extensions = BTreeMap::new();
    for k in 3..=VALUES as u8 {
        let graphs: u64 = c.cover.range(k..).map(|(_, &g)| g).sum();
        if graphs == 0 {
            continue;
        }
        let base = c.cover_witnesses.get(&k).and_then(|w| w.0.as_ref());
        let ext = base.and_then(|w| extend(&w.graph6, n, k as usize));
        extensions.insert(
            k,
            Extension {
                graphs,
                smallest_base: base.map(|w| w.graph6.clone()),
                extended_graph6: ext.as_ref().map(|e| e.0.clone()),
                extended_start: ext.as_ref().map(|e| e.1),
                extended_value: ext.as_ref().map(|e| e.2),
            },
        );
    }
    let collected = (params.collect_min_value > 0).then(|| Collected {
        min_value: params.collect_min_value,
        count: c.collected.total,
        positions: c
            .collected
            .kept
            .iter()
            .map(|x| format!("{} {}", x.code, x.index))
            .collect(),
    });
    UvgRow {
        n,
        graphs: c.graphs,
        positions: c.positions,
        grundy: c.grundy.clone(),
        first_player_wins: c.first_player_wins,
        matching_exceptions: c.matching_exceptions.total,
        matching_exception_records: ExceptionRow::from_set(&c.matching_exceptions),
        maxdeg3: MaxDeg3Row {
            graphs: c.degree3.graphs,
            positions: c.degree3.positions,
            exceptions: c.degree3_exceptions.total,
            exception_records: ExceptionRow::from_set(&c.degree3_exceptions),
            win_lose_tests: c.degree3.win_lose_tests,
            max_win_lose_tests: c.degree3.max_win_lose_tests.0,
        },
        witnesses,
        extensions,
        collected,
    }
}

/// Largest graph a witness may have for validation and rendering to re-solve
/// it: [`uvg::grundy_all`] on 12 vertices takes well under a millisecond, on
/// 31 it would not finish. The committed runs' largest witnesses have 12.
pub const WITNESS_BUDGET_N: usize = UVG_MAX_N as usize;

/// Attach a new vertex to the smallest start of each value 0..k-1 of the graph
/// `base` (graph6); returns the new graph's graph6, the new vertex and its exact
/// value (which is *k when the construction is right: its options are exactly
/// those starts, on the whole connected base graph). None (rendered as
/// unknown) unless `base` has `n` ≤ [`WITNESS_BUDGET_N`] vertices: a witness
/// from a corrupt store must not start a search that never ends.
fn extend(base: &str, n: usize, k: usize) -> Option<(String, usize, u8)> {
    let (vertices, _) = graph6::decode(base).ok()?;
    if vertices != n || vertices > WITNESS_BUDGET_N {
        return None;
    }
    let h = graph6::parse_bitgraph(base).ok()?;
    let vals = uvg::grundy_all(&h);
    let mut nbrs = 0u32;
    for want in 0..k {
        let v = vals.iter().position(|&x| x as usize == want)?;
        nbrs |= 1 << v;
    }
    let mut g = h;
    let s = g.push_vertex(nbrs);
    let value = uvg::grundy(&g, s, g.all());
    Some((graph6::encode_bitgraph(&g), s, value))
}

#[cfg(test)]
mod tests;
