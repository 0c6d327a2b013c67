//! The `uvg` sweep: every connected graph on 1..=N vertices, every start vertex.
//!
//! Per vertex count n: graphs, positions, the Grundy histogram, first-player
//! wins, matching-theorem exceptions (exact value 0 vs the ν test), the
//! max-degree-≤3 subset checked against the degree-3 algorithm, a witness for
//! each value (the smallest position in witness order), and optionally every
//! position of value ≥ `--collect-min-value`.

mod present;

use crate::graph::{graph6, BitGraph};
use crate::sweep::graphplan::{self, GraphShard};
use crate::sweep::merge::{add, add_counts, merge_maps, MergeError};
use crate::sweep::report::nim;
use crate::sweep::{
    thousands, Kind, Max, Merge, ParamDef, Record, RecordSet, ShardCtx, Smallest, SweepError,
};
use crate::uvg;
use crate::uvg::extension;
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

fn record(g: &BitGraph, code: String, start: usize, note: String) -> Record {
    Record {
        vertices: g.n() as u32,
        edges: g.edge_count() as u32,
        code,
        index: start as u64,
        detail: format!("start {start}"),
        note,
    }
}

/// Per-shard accumulator: plain arrays on the hot path, turned into a
/// [`UvgOutput`] once at the end.
struct Acc {
    max_n: usize,
    collect: u8,
    graphs: Vec<u64>,
    positions: Vec<u64>,
    grundy: Vec<[u64; VALUES]>,
    fpw: Vec<u64>,
    d3_graphs: Vec<u64>,
    d3_positions: Vec<u64>,
    d3_tests: Vec<u64>,
    d3_max_tests: Vec<u64>,
    /// Best witness (edges, graph6, start) per (n, value).
    witness: Vec<[Option<(usize, String, usize)>; VALUES]>,
    /// Graphs whose start values include every one of 0..t-1 but not t, per (n, t).
    cover: Vec<[u64; VALUES + 1]>,
    /// Smallest graph (edges, graph6) whose start values include 0..k-1, per (n, k).
    cover_witness: Vec<[Option<(usize, String)>; VALUES + 1]>,
    matching_exceptions: Vec<RecordSet>,
    degree3_exceptions: Vec<RecordSet>,
    collected: Vec<RecordSet>,
    /// The smallest-*k search: its target k (0 = off) and its figures.
    ext_k: u8,
    ext: ExtensionCounts,
}

impl Acc {
    fn new(max_n: usize, collect: u8, ext_k: u8) -> Self {
        let z = max_n + 1;
        Acc {
            max_n,
            collect,
            graphs: vec![0; z],
            positions: vec![0; z],
            grundy: vec![[0; VALUES]; z],
            fpw: vec![0; z],
            d3_graphs: vec![0; z],
            d3_positions: vec![0; z],
            d3_tests: vec![0; z],
            d3_max_tests: vec![0; z],
            witness: vec![std::array::from_fn(|_| None); z],
            cover: vec![[0; VALUES + 1]; z],
            cover_witness: vec![std::array::from_fn(|_| None); z],
            matching_exceptions: vec![RecordSet::new(EXCEPTION_CAP); z],
            degree3_exceptions: vec![RecordSet::new(EXCEPTION_CAP); z],
            collected: vec![RecordSet::new(u64::MAX); z],
            ext_k,
            ext: ExtensionCounts::default(),
        }
    }

    /// Count `g`, whose start values are `values`.
    fn visit(&mut self, g: &BitGraph, values: &[u8]) {
        let n = g.n();
        let all = g.all();
        // One matching computation answers the matching-theorem test for every start.
        let winners = uvg::first_player_wins_all(g);
        self.graphs[n] += 1;
        self.positions[n] += n as u64;
        let mut code: Option<String> = None;
        let m = g.edge_count();
        let deg3 = g.max_degree() <= 3;
        if deg3 {
            self.d3_graphs[n] += 1;
            self.d3_positions[n] += n as u64;
        }
        let mask = values.iter().fold(0u32, |m, &v| m | 1 << v);
        let t = mask.trailing_ones() as usize;
        if self.ext_k != 0 && n + 1 >= self.max_n {
            if let Some(case) = extension::case_of(self.ext_k, self.max_n, g, values) {
                let st = extension::search(self.ext_k, case, g, values, &mut |_, _| {});
                let e = &mut self.ext;
                e.d_case_a += st.d_case_a;
                e.d_case_b += st.d_case_b;
                e.t_sets += st.t_sets;
                e.c_exact += st.c_exact;
                e.hits += st.hits;
                if let Some(w) = st.witness {
                    e.witness.offer(w);
                }
                e.graphs.insert(extension::record(g, values));
            }
        }
        self.cover[n][t] += 1;
        // Only k >= 3 is interesting (and k <= 2 would make this the hot spot).
        for k in 3..=t {
            let slot = &mut self.cover_witness[n][k];
            let better = match slot {
                None => true,
                Some((e, _)) if m < *e => true,
                Some((e, c)) if m == *e => {
                    code.get_or_insert_with(|| graph6::encode_bitgraph(g))
                        .as_str()
                        < c.as_str()
                }
                _ => false,
            };
            if better {
                *slot = Some((
                    m,
                    code.get_or_insert_with(|| graph6::encode_bitgraph(g))
                        .clone(),
                ));
            }
        }
        for (v, &val) in values.iter().enumerate() {
            self.grundy[n][val as usize] += 1;
            let wins = winners >> v & 1 == 1;
            self.fpw[n] += wins as u64;
            if wins != (val != 0) {
                let c = code
                    .get_or_insert_with(|| graph6::encode_bitgraph(g))
                    .clone();
                let note = format!("exact={} matching_says_first_player_wins={wins}", val);
                self.matching_exceptions[n].add(record(g, c, v, note));
            }
            if deg3 {
                match uvg::degree3::grundy_degree3(g, v, all) {
                    Some((d, tests)) => {
                        self.d3_tests[n] += tests as u64;
                        self.d3_max_tests[n] = self.d3_max_tests[n].max(tests as u64);
                        if d != val {
                            let c = code
                                .get_or_insert_with(|| graph6::encode_bitgraph(g))
                                .clone();
                            let note = format!("exact={val} degree3={d}");
                            self.degree3_exceptions[n].add(record(g, c, v, note));
                        }
                    }
                    None => unreachable!("max degree checked above"),
                }
            }
            // Witness order: vertices (fixed n here), edges, graph6, start.
            let slot = &mut self.witness[n][val as usize];
            let better = match slot {
                None => true,
                Some((e, _, _)) if m < *e => true,
                Some((e, c, s)) if m == *e => {
                    let mine = code.get_or_insert_with(|| graph6::encode_bitgraph(g));
                    (mine.as_str(), v) < (c.as_str(), *s)
                }
                _ => false,
            };
            if better {
                let c = code
                    .get_or_insert_with(|| graph6::encode_bitgraph(g))
                    .clone();
                *slot = Some((m, c, v));
            }
            if self.collect > 0 && val >= self.collect {
                let c = code
                    .get_or_insert_with(|| graph6::encode_bitgraph(g))
                    .clone();
                self.collected[n].add(record(g, c, v, format!("grundy={val}")));
            }
        }
    }

    fn finish(self) -> UvgOutput {
        let mut out = UvgOutput {
            extension: self.ext,
            ..UvgOutput::default()
        };
        let parts = self
            .matching_exceptions
            .into_iter()
            .zip(self.degree3_exceptions)
            .zip(self.collected)
            .enumerate();
        for (n, ((mexc, dexc), collected)) in parts {
            if n == 0 || n > self.max_n || self.graphs[n] == 0 {
                continue;
            }
            let nonzero = |a: &[u64]| -> BTreeMap<u8, u64> {
                a.iter()
                    .enumerate()
                    .filter(|(_, &c)| c > 0)
                    .map(|(v, &c)| (v as u8, c))
                    .collect()
            };
            let cover_witnesses = self.cover_witness[n]
                .iter()
                .enumerate()
                .filter_map(|(k, w)| {
                    let (m, code) = w.as_ref()?;
                    let w = GraphWitness {
                        edges: *m as u32,
                        graph6: code.clone(),
                    };
                    Some((k as u8, Smallest(Some(w))))
                })
                .collect();
            let witnesses = self.witness[n]
                .iter()
                .enumerate()
                .filter_map(|(val, w)| {
                    let (m, code, s) = w.as_ref()?;
                    let w = StartWitness {
                        edges: *m as u32,
                        graph6: code.clone(),
                        start: *s as u32,
                    };
                    Some((val as u8, Smallest(Some(w))))
                })
                .collect();
            let counts = UvgCounts {
                graphs: self.graphs[n],
                positions: self.positions[n],
                grundy: nonzero(&self.grundy[n]),
                first_player_wins: self.fpw[n],
                degree3: Degree3Counts {
                    graphs: self.d3_graphs[n],
                    positions: self.d3_positions[n],
                    win_lose_tests: self.d3_tests[n],
                    max_win_lose_tests: Max(self.d3_max_tests[n]),
                },
                cover: nonzero(&self.cover[n]),
                cover_witnesses,
                witnesses,
                matching_exceptions: mexc,
                degree3_exceptions: dexc,
                collected,
            };
            out.by_n.insert(n, counts);
        }
        out
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
        // Every node of the walk (counted or not) extends the subset table
        // its children reuse; only the counted ones are visited.
        let mut table = uvg::incremental::Incremental::new();
        graphplan::walk_tree(&walk, max_n, &mut |g, counted| {
            if cancelled || !(counted || g.n() < max_n) {
                return;
            }
            // Nodes on the last level have no children: their own rows
            // need not be kept, which `push_leaf` exploits.
            let values = if g.n() == max_n {
                table.push_leaf(g)
            } else {
                table.push(g)
            };
            if !counted {
                return;
            }
            acc.visit(g, values);
            since += g.n() as u64;
            if since >= 1 << 16 {
                ctx.add_progress(since);
                since = 0;
                cancelled = ctx.cancelled();
            }
        });
        ctx.add_progress(since);
        ctx.check()?;
        Ok(acc.finish())
    }

    fn validate(
        &self,
        params: &UvgParams,
        shard: &GraphShard,
        out: &UvgOutput,
    ) -> Result<(), String> {
        validate(params, shard, out)
    }

    fn recount(
        &self,
        params: &UvgParams,
        shard: &GraphShard,
        out: &UvgOutput,
    ) -> Option<Result<(), String>> {
        Some(recount(params, shard, out))
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
        present::present(doc)
    }
    fn report(&self, _params: &UvgParams, doc: &UvgDoc) -> String {
        report_md(doc)
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

/// Connected graphs on n vertices, n = 0..=12 (OEIS A001349): no shard can
/// count more.
const CONNECTED_GRAPHS: [u64; 13] = [
    0,
    1,
    1,
    2,
    6,
    21,
    112,
    853,
    11_117,
    261_080,
    11_716_571,
    1_006_700_565,
    164_059_830_476,
];

/// Largest graph a witness may have for validation and rendering to re-solve
/// it: [`uvg::grundy_all`] on 12 vertices takes well under a millisecond, on
/// 31 it would not finish. The committed runs' largest witnesses have 12.
pub const WITNESS_BUDGET_N: usize = UVG_MAX_N as usize;

/// A witness graph `code` claimed to have `n` vertices and `edges` edges,
/// decoded and checked: within the budget, connected, and (for a prefix
/// shard) one of the shard's prefixes on its first `depth` vertices: the
/// generator appends vertices, so that is the graph's chain of parents.
fn witness_graph(
    what: &str,
    code: &str,
    n: usize,
    edges: Option<u32>,
    walk: &graphplan::Walk,
    prefixes: &[String],
) -> Result<BitGraph, String> {
    let (vertices, _) = graph6::decode(code).map_err(|e| format!("{what}: `{code:.40}`: {e}"))?;
    if vertices > WITNESS_BUDGET_N {
        return Err(format!(
            "{what}: witness on {vertices} vertices exceeds the validation budget ({WITNESS_BUDGET_N})"
        ));
    }
    let g = graph6::parse_bitgraph(code).map_err(|e| format!("{what}: `{code}`: {e}"))?;
    if g.n() != n {
        return Err(format!("{what}: `{code}` has {} vertices, not {n}", g.n()));
    }
    if edges.is_some_and(|m| m as usize != g.edge_count()) {
        return Err(format!(
            "{what}: `{code}` has {} edges, not {}",
            g.edge_count(),
            edges.unwrap_or(0)
        ));
    }
    if !g.is_connected() {
        return Err(format!("{what}: `{code}` is not connected"));
    }
    if let graphplan::Walk::Prefixes(ps) = walk {
        let depth = ps[0].n();
        let head = graph6::encode_bitgraph(&g.induced((1u32 << depth) - 1));
        if !prefixes.contains(&head) {
            return Err(format!(
                "{what}: `{code}` is not in this shard (its first {depth} vertices are `{head}`, not one of the shard's prefixes)"
            ));
        }
    }
    Ok(g)
}

/// Check a record set of a shard: at most `cap` kept, no more kept than
/// counted, at most `limit` counted.
fn check_set(what: &str, r: &RecordSet, cap: u64, limit: u64) -> Result<(), String> {
    if r.cap != cap {
        return Err(format!("{what}.cap is {}, not {cap}", r.cap));
    }
    if r.kept.len() as u64 > r.total.min(cap) {
        return Err(format!(
            "{what} keeps {} records of {} counted (cap {cap})",
            r.kept.len(),
            r.total
        ));
    }
    if r.total > limit {
        return Err(format!("{what}.total is {}, above {limit}", r.total));
    }
    Ok(())
}

/// [`Kind::validate`] for `uvg`: see there.
/// The shard's graphs counted again by enumerating them (no solving): the
/// graphs on each number of vertices, and of those the ones of maximum
/// degree ≤ 3, must be what `out` says.
fn recount(params: &UvgParams, shard: &GraphShard, out: &UvgOutput) -> Result<(), String> {
    params.check().map_err(|e| e.to_string())?;
    let walk = shard.decode("uvg").map_err(|e| e.to_string())?;
    let max_n = params.max_n;
    let mut graphs = vec![0u64; max_n + 1];
    let mut degree3 = vec![0u64; max_n + 1];
    graphplan::walk_tree(&walk, max_n, &mut |g, counted| {
        if counted {
            graphs[g.n()] += 1;
            degree3[g.n()] += u64::from(g.max_degree() <= 3);
        }
    });
    let empty = UvgCounts::default();
    for n in 1..=max_n {
        let c = out.by_n.get(&n).unwrap_or(&empty);
        for (field, said, counted) in [
            ("graphs", c.graphs, graphs[n]),
            ("degree3.graphs", c.degree3.graphs, degree3[n]),
        ] {
            if said != counted {
                return Err(format!(
                    "by_n[{n}].{field} is {said}, but the shard holds {counted}"
                ));
            }
        }
    }
    Ok(())
}

fn validate(params: &UvgParams, shard: &GraphShard, out: &UvgOutput) -> Result<(), String> {
    params.check().map_err(|e| e.to_string())?;
    let walk = shard.decode("uvg").map_err(|e| e.to_string())?;
    let (lo, hi, prefixes) = match (&walk, shard) {
        (graphplan::Walk::Top { depth }, _) => (1, (*depth - 1).min(params.max_n), &[][..]),
        (graphplan::Walk::Prefixes(ps), GraphShard::Prefixes { prefixes, .. }) => {
            (ps[0].n().max(1), params.max_n, &prefixes[..])
        }
        (graphplan::Walk::Split(_), _) => (1, params.max_n, &[][..]),
        _ => unreachable!("decode keeps the shard's variant"),
    };
    for (&n, c) in &out.by_n {
        let at = |field: &str| format!("by_n[{n}].{field}");
        if n < lo || n > hi {
            return Err(format!(
                "by_n[{n}]: this shard only has graphs on {lo}..={hi} vertices"
            ));
        }
        let nn = n as u64;
        if c.graphs == 0 || c.graphs > CONNECTED_GRAPHS[n] {
            return Err(format!(
                "{} is {}: there are 1..={} connected graphs on {n} vertices",
                at("graphs"),
                c.graphs,
                CONNECTED_GRAPHS[n]
            ));
        }
        if c.positions != c.graphs * nn {
            return Err(format!(
                "{} is {}, not {n} × {} graphs",
                at("positions"),
                c.positions,
                c.graphs
            ));
        }
        if let Some((&v, _)) = c.grundy.range(n as u8..).next() {
            return Err(format!(
                "{}: value {v} on {n} vertices (a start's value is below its degree + 1 ≤ {n})",
                at("grundy")
            ));
        }
        let sum = |m: &BTreeMap<u8, u64>| m.values().try_fold(0u64, |a, &b| a.checked_add(b));
        if sum(&c.grundy) != Some(c.positions) {
            return Err(format!(
                "{} sums to {:?}, not positions = {}",
                at("grundy"),
                sum(&c.grundy),
                c.positions
            ));
        }
        if let Some((&t, _)) = c.cover.range(n as u8 + 1..).next() {
            return Err(format!("{}: t = {t} on {n} vertices", at("cover")));
        }
        if sum(&c.cover) != Some(c.graphs) {
            return Err(format!(
                "{} sums to {:?}, not graphs = {}",
                at("cover"),
                sum(&c.cover),
                c.graphs
            ));
        }
        if c.first_player_wins > c.positions {
            return Err(format!(
                "{} is {}, above positions = {}",
                at("first_player_wins"),
                c.first_player_wins,
                c.positions
            ));
        }
        check_set(
            &at("matching_exceptions"),
            &c.matching_exceptions,
            EXCEPTION_CAP,
            c.positions,
        )?;
        // The matching test and value ≠ 0 agree except at the exceptions.
        let nonzero = c.positions - c.grundy.get(&0).copied().unwrap_or(0);
        if c.first_player_wins.abs_diff(nonzero) > c.matching_exceptions.total {
            return Err(format!(
                "{} is {} but {nonzero} positions have a non-zero value and only {} are matching exceptions",
                at("first_player_wins"),
                c.first_player_wins,
                c.matching_exceptions.total
            ));
        }
        let d = &c.degree3;
        if d.graphs > c.graphs || d.positions != d.graphs * nn {
            return Err(format!(
                "{}: {} graphs and {} positions, of {} graphs on {n} vertices",
                at("degree3"),
                d.graphs,
                d.positions,
                c.graphs
            ));
        }
        if d.max_win_lose_tests.0 > d.win_lose_tests || (d.positions == 0 && d.win_lose_tests > 0) {
            return Err(format!(
                "{}: max {} of {} tests over {} positions",
                at("degree3.win_lose_tests"),
                d.max_win_lose_tests.0,
                d.win_lose_tests,
                d.positions
            ));
        }
        check_set(
            &at("degree3_exceptions"),
            &c.degree3_exceptions,
            EXCEPTION_CAP,
            d.positions,
        )?;
        let collected: u64 = match params.collect_min_value {
            0 => 0,
            k => c.grundy.range(k..).map(|(_, &x)| x).sum(),
        };
        check_set(&at("collected"), &c.collected, u64::MAX, collected)?;
        if c.collected.total != collected {
            return Err(format!(
                "{}.total is {}, but {collected} positions have a value ≥ {}",
                at("collected"),
                c.collected.total,
                params.collect_min_value
            ));
        }
        // Witnesses: in the shard, and of the value claimed (re-solved).
        for (&v, w) in &c.witnesses {
            let what = format!("{}[{v}]", at("witnesses"));
            let Some(w) = &w.0 else {
                return Err(format!("{what} is empty"));
            };
            if !c.grundy.contains_key(&v) {
                return Err(format!("{what}: no position of value {v} is counted"));
            }
            let g = witness_graph(&what, &w.graph6, n, Some(w.edges), &walk, prefixes)?;
            let values = uvg::grundy_all(&g);
            match values.get(w.start as usize) {
                Some(&x) if x == v => {}
                Some(&x) => {
                    return Err(format!(
                        "{what}: `{}` start {} has value {x}, not {v}",
                        w.graph6, w.start
                    ))
                }
                None => return Err(format!("{what}: start {} ≥ {n}", w.start)),
            }
        }
        if c.witnesses.len() != c.grundy.len() {
            return Err(format!(
                "{}: {} witnesses for {} values",
                at("witnesses"),
                c.witnesses.len(),
                c.grundy.len()
            ));
        }
        for (&k, w) in &c.cover_witnesses {
            let what = format!("{}[{k}]", at("cover_witnesses"));
            let Some(w) = &w.0 else {
                return Err(format!("{what} is empty"));
            };
            if k < 3 || c.cover.range(k..).next().is_none() {
                return Err(format!("{what}: no graph with t ≥ {k} is counted"));
            }
            let g = witness_graph(&what, &w.graph6, n, Some(w.edges), &walk, prefixes)?;
            let mask = uvg::grundy_all(&g).iter().fold(0u32, |m, &x| m | 1 << x);
            if (mask.trailing_ones() as u8) < k {
                return Err(format!(
                    "{what}: `{}` does not have starts of every value 0..{}",
                    w.graph6,
                    k - 1
                ));
            }
        }
        let with_cover = c.cover.range(3..).map(|(&t, _)| t).max().unwrap_or(0);
        if c.cover_witnesses.len() != with_cover.saturating_sub(2) as usize {
            return Err(format!(
                "{}: {} witnesses, but graphs with t up to {with_cover} are counted",
                at("cover_witnesses"),
                c.cover_witnesses.len()
            ));
        }
        // The kept records: in the shard, and of the values their notes claim.
        let sets = [
            ("matching_exceptions", &c.matching_exceptions),
            ("degree3_exceptions", &c.degree3_exceptions),
            ("collected", &c.collected),
        ];
        for (name, set) in sets {
            for (i, r) in set.kept.iter().enumerate() {
                let what = format!("{}.kept[{i}]", at(name));
                if r.vertices as usize != n {
                    return Err(format!("{what}: {} vertices under n = {n}", r.vertices));
                }
                let g = witness_graph(&what, &r.code, n, Some(r.edges), &walk, prefixes)?;
                let s = r.index as usize;
                if s >= n {
                    return Err(format!("{what}: start {s} ≥ {n}"));
                }
                let val = uvg::grundy_all(&g)[s];
                let wins = uvg::first_player_wins_all(&g) >> s & 1 == 1;
                let ok = match name {
                    "matching_exceptions" => {
                        wins != (val != 0)
                            && r.note
                                == format!("exact={val} matching_says_first_player_wins={wins}")
                    }
                    "degree3_exceptions" => {
                        g.max_degree() <= 3
                            && uvg::degree3::grundy_degree3(&g, s, g.all()).is_some_and(|(d, _)| {
                                d != val && r.note == format!("exact={val} degree3={d}")
                            })
                    }
                    _ => val >= params.collect_min_value && r.note == format!("grundy={val}"),
                };
                if !ok {
                    return Err(format!(
                        "{what}: `{}` start {s} (value {val}) is not what `{}` says",
                        r.code, r.note
                    ));
                }
            }
        }
    }
    validate_extension(params, &out.extension)
}

/// The smallest-*k search's figures against its records: every D re-solved
/// and feeding the case it is counted in, the number of sets T recounted,
/// the other counters consistent, the witness re-solved to value k.
fn validate_extension(params: &UvgParams, e: &ExtensionCounts) -> Result<(), String> {
    let k = params.extension_value;
    if k == 0 {
        return match e.is_empty() {
            true => Ok(()),
            false => Err("extension: figures of a search that was not asked for".into()),
        };
    }
    let (mut a, mut b, mut t) = (0u64, 0u64, 0u64);
    for rec in &e.graphs {
        let (d, case) = extension::check_record(k, params.max_n, rec)?;
        match case {
            extension::Case::A => a += 1,
            extension::Case::B => b += 1,
        }
        t += extension::admissible_sets(k, case, &uvg::grundy_all(&d));
    }
    if (a, b, t) != (e.d_case_a, e.d_case_b, e.t_sets) {
        return Err(format!(
            "extension: {} + {} graphs D and {} sets T claimed, the records give {a} + {b} and {t}",
            e.d_case_a, e.d_case_b, e.t_sets
        ));
    }
    if e.c_exact > e.t_sets || e.hits > e.t_sets {
        return Err(format!(
            "extension: {} exact and {} hits out of {} sets T",
            e.c_exact, e.hits, e.t_sets
        ));
    }
    match (&e.witness.0, e.hits) {
        (None, 0) => Ok(()),
        (Some(w), h) if h > 0 => {
            let g = graph6::parse_bitgraph(&w.graph6)
                .map_err(|err| format!("extension.witness `{}`: {err}", w.graph6))?;
            let ok = g.n() == params.max_n + 2
                && w.start < g.n()
                && g.edge_count() == w.edges
                && uvg::grundy(&g, w.start, g.all()) == k;
            match ok {
                true => Ok(()),
                false => Err(format!(
                    "extension.witness `{}` start {} is not a *{k} on {} vertices",
                    w.graph6,
                    w.start,
                    params.max_n + 2
                )),
            }
        }
        _ => Err(format!(
            "extension: {} hits but the witness is {}",
            e.hits,
            if e.witness.0.is_some() {
                "present"
            } else {
                "missing"
            }
        )),
    }
}

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

/// Render report.md from the results.json document only.
fn report_md(doc: &UvgDoc) -> String {
    let rows = &doc.by_n;
    let max_n = doc.params.max_n;
    let max_value = rows
        .iter()
        .filter_map(|r| {
            r.grundy
                .iter()
                .filter(|(_, &c)| c > 0)
                .map(|(&v, _)| v)
                .max()
        })
        .max()
        .unwrap_or(0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Undirected vertex geography: every connected graph on ≤ {max_n} vertices, every start\n"
    );
    let _ = writeln!(s, "Generated by `gamesweep run uvg --max-n {max_n}` from `results.json`; every number below is computed.\n");
    let _ = writeln!(s, "## Grundy values over all (graph, start) pairs\n");
    let mut head = "| n | graphs | pairs |".to_string();
    let mut sep = "|---|---|---|".to_string();
    for v in 0..=max_value {
        head.push_str(&format!(" {} |", nim(v as u64)));
        sep.push_str("---|");
    }
    let _ = writeln!(s, "{head}\n{sep}");
    let (mut tg, mut tp, mut tf, mut tme) = (0, 0, 0, 0);
    let (mut dg, mut dp, mut de, mut dt, mut dmax) = (0, 0, 0, 0, 0);
    for row in rows {
        let mut line = format!(
            "| {} | {} | {} |",
            row.n,
            thousands(row.graphs),
            thousands(row.positions)
        );
        for v in 0..=max_value {
            match row.grundy.get(&v) {
                Some(&c) if c > 0 => line.push_str(&format!(" {} |", thousands(c))),
                _ => line.push_str(" |"),
            }
        }
        let _ = writeln!(s, "{line}");
        tg += row.graphs;
        tp += row.positions;
        tf += row.first_player_wins;
        tme += row.matching_exceptions;
        let d = &row.maxdeg3;
        dg += d.graphs;
        dp += d.positions;
        de += d.exceptions;
        dt += d.win_lose_tests;
        dmax = dmax.max(d.max_win_lose_tests);
    }
    let _ = writeln!(
        s,
        "\nTotal: {} graphs, {} pairs, {} first-player wins.\n",
        thousands(tg),
        thousands(tp),
        thousands(tf)
    );
    let _ = writeln!(s, "## Matching theorem (Fraenkel–Scheinerman–Ullman)\n");
    let _ = writeln!(
        s,
        "Exact Grundy value 0 ⇔ ν(G) = ν(G − s), checked on {} pairs: **{} exceptions**.\n",
        thousands(tp),
        thousands(tme)
    );
    for row in rows {
        for e in &row.matching_exception_records {
            let _ = writeln!(
                s,
                "- n = {}: `` {} `` start {} ({})",
                row.n, e.graph6, e.start, e.values
            );
        }
    }
    let _ = writeln!(
        s,
        "## Degree-3 algorithm (Burke–Ferland–Teng) vs exact search\n"
    );
    let mean = if dp > 0 { dt as f64 / dp as f64 } else { 0.0 };
    let _ = writeln!(
        s,
        "Connected graphs of maximum degree ≤ 3: {} graphs, {} starts, **{} exceptions**; win/lose tests: {} in all, mean {:.3} per start, max {}.\n",
        thousands(dg),
        thousands(dp),
        thousands(de),
        thousands(dt),
        mean,
        dmax
    );
    let _ = writeln!(
        s,
        "| n | graphs | starts | exceptions | mean tests |\n|---|---|---|---|---|"
    );
    for row in rows {
        let d = &row.maxdeg3;
        let m = if d.positions > 0 {
            d.win_lose_tests as f64 / d.positions as f64
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {:.3} |",
            row.n,
            thousands(d.graphs),
            thousands(d.positions),
            d.exceptions,
            m
        );
    }
    let _ = writeln!(s, "\n## Smallest positions of each value\n");
    let _ = writeln!(
        s,
        "Witness order: fewer vertices, then fewer edges, then graph6, then start vertex.\n"
    );
    let _ = writeln!(
        s,
        "| value | vertices | edges | graph6 | start |\n|---|---|---|---|---|"
    );
    // The first row (fewest vertices) with a position of value `v`, and that position.
    let smallest = |v: u8| {
        rows.iter()
            .find_map(|row| row.witnesses.get(&v).map(|w| (row, w)))
    };
    for v in 0..=max_value {
        if let Some((row, w)) = smallest(v) {
            let _ = writeln!(
                s,
                "| {} | {} | {} | `` {} `` | {} |",
                nim(v as u64),
                row.n,
                w.edges,
                w.graph6,
                w.start
            );
        }
    }
    let _ = writeln!(s, "\n## Extension step: the smallest *k\n");
    let _ = writeln!(
        s,
        "A start s of value *k on m vertices has an option of value *(k−1), on the token's component after deleting s. \
If *(k−1) needs at least a vertices, a *k on a + 1 vertices must therefore be a connected a-vertex graph H with a start of value *(k−1), \
plus s joined to some of H's vertices; its value is the mex of H's start values at s's neighbours. So *k exists on a + 1 vertices \
exactly when some connected a-vertex graph has starts of every value 0, …, k−1 (then join s to one start of each).\n"
    );
    for k in 1..=max_value + 1 {
        let Some((row, _)) = smallest(k - 1) else {
            break;
        };
        let a = row.n;
        if k < 3 {
            continue;
        }
        match row.extensions.get(&k).filter(|e| e.graphs > 0) {
            Some(ext) => {
                let _ = writeln!(
                    s,
                    "- *{k}: the smallest *{} has {a} vertices; {} connected {a}-vertex graphs have starts of every value 0..{}; so the smallest *{k} has exactly **{} vertices**: `` {} `` start {} (value {}).",
                    k - 1,
                    thousands(ext.graphs),
                    k - 1,
                    a + 1,
                    ext.extended_graph6.as_deref().unwrap_or("?"),
                    ext.extended_start.map_or("?".into(), |s| s.to_string()),
                    ext.extended_value.map_or("?".into(), |v| nim(v as u64))
                );
            }
            None if a < max_n => {
                let _ = writeln!(s, "- *{k}: the smallest *{} has {a} vertices and no connected {a}-vertex graph has starts of every value 0..{}: the smallest *{k} has **at least {} vertices**.", k - 1, k - 1, a + 2);
            }
            None => {
                let _ = writeln!(
                    s,
                    "- *{k}: the smallest *{} has {a} vertices; none of the {} connected {a}-vertex graphs has starts of every value 0..{}, so **no *{k} exists on {} vertices**: the smallest *{k} has at least {} vertices.",
                    k - 1,
                    thousands(row.graphs),
                    k - 1,
                    a + 1,
                    a + 2
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "\nNo position of value {} or more on ≤ {max_n} vertices.",
        nim(max_value as u64 + 1)
    );
    if let Some(e) = &doc.extension_search {
        extension_section(&mut s, max_n, e);
    }
    for row in rows {
        if let Some(c) = row.collected.as_ref().filter(|c| c.count > 0) {
            let _ = writeln!(
                s,
                "\nn = {}: {} positions of value ≥ {} (listed in results.json).",
                row.n,
                thousands(c.count),
                nim(c.min_value as u64)
            );
        }
    }
    s
}

/// The report's section on the smallest-*k search.
fn extension_section(s: &mut String, max_n: usize, e: &ExtensionSearch) {
    let k = e.value;
    let a = max_n + 1;
    let _ = writeln!(
        s,
        "\n## Is there a *{k} on {} vertices? The finite search\n",
        e.vertices
    );
    let _ = writeln!(
        s,
        "Premises, read off the rows above: (P1) no *{} on ≤ {max_n} vertices: **{}**; (P2) no *{} on < {} vertices: **{}**.\n",
        k - 1,
        if e.premise_1 { "holds" } else { "fails" },
        k - 2,
        max_n.saturating_sub(1),
        if e.premise_2 { "holds" } else { "fails" }
    );
    let _ = writeln!(s, "By (P1) a *{k} on {} vertices is a start joined to a connected {a}-vertex graph C whose starts take every value 0..{}. Such a C has a start u of value *{}, whose *{} option lies on a component D of C − u with at least {} vertices by (P2): either D = C − u (case A: D on {max_n} vertices with starts of every value 0..{}, u joined to a set T of them covering 0..{}) or C − u = D plus a leaf x on u (case B: D on {} vertices with starts of every value 1..{}, T covering 1..{}). Every such (D, T) was built and C solved exactly.\n", e.vertices, k - 1, k - 1, k - 2, max_n.saturating_sub(1), k - 2, k - 2, max_n.saturating_sub(1), k - 2, k - 2);
    let _ = writeln!(s, "| graphs D, case A | graphs D, case B | sets T (graphs C solved) | C with u of value *{} | C with starts of every value 0..{} |", k - 1, k - 1);
    let _ = writeln!(s, "|---|---|---|---|---|");
    let _ = writeln!(
        s,
        "| {} | {} | {} | {} | {} |\n",
        thousands(e.d_case_a),
        thousands(e.d_case_b),
        thousands(e.t_sets),
        thousands(e.c_exact),
        thousands(e.hits)
    );
    if !(e.premise_1 && e.premise_2) {
        let _ = writeln!(
            s,
            "The premises do not hold for this sweep, so the search decides nothing."
        );
    } else if let Some(w) = &e.witness {
        let _ = writeln!(s, "**A *{k} exists on {} vertices**: `` {} `` start {} ({} edges), so the smallest *{k} has exactly {} vertices.", e.vertices, w.graph6, w.start, w.edges, e.vertices);
    } else {
        let _ = writeln!(s, "No C has starts of every value 0..{}: **no *{k} exists on {} vertices**, so the smallest *{k} has at least {} vertices. The graphs D are listed in `extension-{k}-graphs.txt`.", k - 1, e.vertices, e.vertices + 1);
    }
}

#[cfg(test)]
#[path = "uvg_test.rs"]
mod tests;
