//! `uvg-degree3`: the degree-3 algorithm of Burke–Ferland–Teng against exact
//! search on seeded random connected graphs of maximum degree ≤ 3.
//!
//! Graph i has `min_n + (i mod (max_n − min_n + 1))` vertices (so the sizes
//! are spread evenly) and is drawn by [`random_degree3_graph`] from stream i.
//! For every start: the degree-3 value and its number of win/lose (matching)
//! tests, the exact value and the exact search's node count (a fresh search
//! per start, memo on token + component).

mod present;

use super::{
    plan_ranges, values_line, write_graph_exceptions, Exceptions, RangeShard, ValueCounts,
    SECTION5_NOTE,
};
use crate::bft::random::{instance_rng, random_degree3_graph};
use crate::bft::reduction::Position;
use crate::bft::solve;
use crate::graph::{graph6, members, BitGraph, VSet};
use crate::sweep::merge::{add, merge_maps, MergeError};
use crate::sweep::report::{nim, thousands};
use crate::sweep::{Kind, Max, Merge, ParamDef, Record, ShardCtx, SweepError};
use crate::uvg::degree3::grundy_degree3;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

/// The `uvg-degree3` sweep kind.
pub struct Degree3Sweep;

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "random",
        help: "number of random graphs",
        default: Some(200),
        min: 0,
        max: 10_000_000,
    },
    ParamDef {
        name: "min_n",
        help: "smallest vertex count",
        default: Some(12),
        min: 1,
        max: 32,
    },
    ParamDef {
        name: "max_n",
        help: "largest vertex count (at most 32)",
        default: Some(28),
        min: 1,
        max: 32,
    },
    ParamDef {
        name: "seed",
        help: "seed of the random graphs (ChaCha8, one stream per graph)",
        default: Some(1),
        min: 0,
        max: u64::MAX,
    },
];

/// The random model, stated in results.json and the report.
pub const RANDOM_MODEL: &str = "graph i has min_n + (i mod (max_n − min_n + 1)) vertices and is drawn from \
ChaCha8Rng::seed_from_u64(seed) with set_stream(i): a random tree (vertex v = 1, …, n−1 joins a uniform \
earlier vertex of degree < 3), then n attempts at an extra edge between a uniform pair (u, w), added iff \
u ≠ w, not adjacent, both of degree < 3; connected, maximum degree ≤ 3";

/// The parameters of `uvg-degree3`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Degree3Params {
    /// Number of random graphs.
    pub random: u64,
    /// Smallest vertex count.
    pub min_n: u64,
    /// Largest vertex count.
    pub max_n: u64,
    /// Seed of the random graphs.
    pub seed: u64,
}

impl Degree3Params {
    /// `(min_n, max_n)`, checked to be in order.
    fn sizes(&self) -> Result<(usize, usize), SweepError> {
        if self.min_n > self.max_n {
            return Err(SweepError::OutOfRange {
                kind: "uvg-degree3".into(),
                param: "min-n".into(),
                value: self.min_n,
                min: 1,
                max: self.max_n,
            });
        }
        Ok((self.min_n as usize, self.max_n as usize))
    }
}

/// Graph `i` of the sweep.
pub fn instance(seed: u64, min_n: usize, max_n: usize, i: u64) -> BitGraph {
    let n = min_n + (i % (max_n - min_n + 1) as u64) as usize;
    random_degree3_graph(&mut instance_rng(seed, i), n)
}

/// Tallies of the graphs of one size.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SizeStats {
    /// Graphs.
    pub graphs: u64,
    /// Starts (graphs × n).
    pub starts: u64,
    /// Win/lose tests of the degree-3 algorithm, all starts.
    pub tests: u64,
    /// The most tests of one start.
    pub tests_max: Max,
    /// Exact-search nodes, all starts.
    pub nodes: u64,
    /// The most exact-search nodes of one start.
    pub nodes_max: Max,
    /// Reachable positions per start (fresh memo), summed.
    pub reachable_start: u64,
    /// The most reachable positions of one start.
    pub reachable_start_max: Max,
    /// Reachable positions per graph (one memo for all starts), summed.
    pub reachable_graph: u64,
    /// The most reachable positions of one graph.
    pub reachable_graph_max: Max,
}

impl SizeStats {
    fn merge(&mut self, o: SizeStats) -> Result<(), MergeError> {
        add(&mut self.graphs, o.graphs, "graphs")?;
        add(&mut self.starts, o.starts, "starts")?;
        add(&mut self.tests, o.tests, "tests")?;
        self.tests_max.merge(o.tests_max);
        add(&mut self.nodes, o.nodes, "nodes")?;
        self.nodes_max.merge(o.nodes_max);
        add(
            &mut self.reachable_start,
            o.reachable_start,
            "reachable_start",
        )?;
        self.reachable_start_max.merge(o.reachable_start_max);
        add(
            &mut self.reachable_graph,
            o.reachable_graph,
            "reachable_graph",
        )?;
        self.reachable_graph_max.merge(o.reachable_graph_max);
        Ok(())
    }
}

/// The merged result of graphs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Degree3Output {
    /// Positions processed (starts).
    pub work: u64,
    /// Tallies by vertex count.
    pub by_n: BTreeMap<u64, SizeStats>,
    /// Exact values over all starts.
    pub values: ValueCounts,
    /// Win/lose tests per start, over the starts the algorithm answered.
    pub tests_per_start: ValueCounts,
    /// Disagreements with exact search, and graphs the algorithm declined.
    pub exceptions: Exceptions,
}

impl Merge for Degree3Output {
    fn merge(&mut self, o: Self) -> Result<(), MergeError> {
        add(&mut self.work, o.work, "work")?;
        merge_maps(&mut self.by_n, o.by_n, "by_n", SizeStats::merge)?;
        self.values
            .merge(o.values)
            .map_err(|e| e.within("values"))?;
        self.tests_per_start
            .merge(o.tests_per_start)
            .map_err(|e| e.within("tests_per_start"))?;
        self.exceptions
            .merge(o.exceptions)
            .map_err(|e| e.within("exceptions"))?;
        Ok(())
    }
    fn work(&self) -> u64 {
        self.work
    }
}

/// One row of `by_n` in results.json.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeRow {
    /// Vertex count.
    pub n: u64,
    /// Graphs.
    pub graphs: u64,
    /// Starts.
    pub starts: u64,
    /// Win/lose tests, all starts.
    pub win_lose_tests: u64,
    /// The most tests of one start.
    pub win_lose_tests_max: u64,
    /// Exact-search nodes, all starts.
    pub exact_nodes: u64,
    /// The most exact-search nodes of one start.
    pub exact_nodes_max: u64,
    /// Reachable positions per start, summed.
    pub reachable_positions_per_start: u64,
    /// The most reachable positions of one start.
    pub reachable_positions_per_start_max: u64,
    /// Reachable positions per graph, summed.
    pub reachable_positions_per_graph: u64,
    /// The most reachable positions of one graph.
    pub reachable_positions_per_graph_max: u64,
}

/// `results.json` of `uvg-degree3`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Degree3Doc {
    /// `uvg-degree3`.
    pub kind: String,
    /// The parameters.
    pub params: Degree3Params,
    /// [`RANDOM_MODEL`].
    pub random_model: String,
    /// What the exact-search node count counts.
    pub exact_nodes: String,
    /// What the reachable-position count counts.
    pub reachable_positions: String,
    /// Tallies by vertex count (sizes with graphs only).
    pub by_n: Vec<SizeRow>,
    /// `{value: starts}`.
    pub values: BTreeMap<u64, u64>,
    /// `{tests: starts}`.
    pub win_lose_tests_per_start: BTreeMap<u64, u64>,
    /// Exceptions in all.
    pub exceptions: u64,
    /// The kept exceptions, smallest first.
    pub exception_records: Vec<Record>,
    /// [`SECTION5_NOTE`].
    pub not_covered: String,
}

const EXACT_NODES: &str = "search nodes of the library's exact solver (uvg::general::grundy_general, fresh per start; it skips moves onto leaves and counts each distinct position it evaluates)";

const REACHABLE_POSITIONS: &str = "distinct (token, component) positions reachable from a start: the node count of a plain search memoised on (token, component), with no shortcuts; per start (fresh memo) and per graph (one memo shared by all starts)";

impl Kind for Degree3Sweep {
    type Params = Degree3Params;
    type Shard = RangeShard;
    type Output = Degree3Output;
    type Doc = Degree3Doc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "uvg-degree3"
    }

    fn about(&self) -> &'static str {
        "Burke-Ferland-Teng degree-3 algorithm vs exact search on seeded random connected graphs of max degree <= 3"
    }

    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn plan(
        &self,
        params: &Degree3Params,
        target_shards: u32,
    ) -> Result<Vec<(RangeShard, u64)>, SweepError> {
        let (lo, hi) = params.sizes()?;
        let span = (hi - lo + 1) as u64;
        Ok(plan_ranges(params.random, target_shards, 8, |a, b| {
            (a..b).map(|i| lo as u64 + i % span).sum()
        }))
    }

    fn run(
        &self,
        params: &Degree3Params,
        shard: &RangeShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<Degree3Output, SweepError> {
        let (lo, hi) = params.sizes()?;
        let mut out = Degree3Output::default();
        for i in shard.instances(Kind::name(self), params.random)? {
            ctx.check()?;
            let g = instance(params.seed, lo, hi, i);
            check_graph(&mut out, i, &g);
            out.work += g.n() as u64;
            ctx.add_progress(g.n() as u64);
        }
        Ok(out)
    }

    fn validate(
        &self,
        params: &Degree3Params,
        shard: &RangeShard,
        out: &Degree3Output,
    ) -> Result<(), String> {
        validate(params, shard, out)
    }

    fn doc(&self, params: &Degree3Params, r: &Degree3Output) -> Degree3Doc {
        Degree3Doc {
            kind: Kind::name(self).into(),
            params: params.clone(),
            random_model: RANDOM_MODEL.into(),
            exact_nodes: EXACT_NODES.into(),
            reachable_positions: REACHABLE_POSITIONS.into(),
            by_n: r
                .by_n
                .iter()
                .filter(|(_, t)| t.starts > 0)
                .map(|(&n, t)| SizeRow {
                    n,
                    graphs: t.graphs,
                    starts: t.starts,
                    win_lose_tests: t.tests,
                    win_lose_tests_max: t.tests_max.0,
                    exact_nodes: t.nodes,
                    exact_nodes_max: t.nodes_max.0,
                    reachable_positions_per_start: t.reachable_start,
                    reachable_positions_per_start_max: t.reachable_start_max.0,
                    reachable_positions_per_graph: t.reachable_graph,
                    reachable_positions_per_graph_max: t.reachable_graph_max.0,
                })
                .collect(),
            values: r.values.to_map(),
            win_lose_tests_per_start: r.tests_per_start.to_map(),
            exceptions: r.exceptions.count(),
            exception_records: r.exceptions.records(),
            not_covered: SECTION5_NOTE.into(),
        }
    }

    fn present(&self, doc: &Degree3Doc) -> crate::sweep::Presentation {
        present::present(doc)
    }
    fn report(&self, _params: &Degree3Params, doc: &Degree3Doc) -> String {
        report_md(doc)
    }
}

/// The game positions (token, token's component) reachable from the starts
/// `starts` of `g`, every start with all vertices present — the node count of
/// a plain exact search memoised on (token, component), independent of any
/// solver's shortcuts. `seen` is shared across calls to count a whole graph
/// with one memo.
pub fn reachable_positions(g: &BitGraph, start: usize, seen: &mut HashSet<(usize, VSet)>) -> u64 {
    let before = seen.len();
    let first = (start, g.component(start, g.all()));
    if seen.insert(first) {
        let mut stack = vec![first];
        while let Some((v, comp)) = stack.pop() {
            let rest = comp & !(1 << v);
            for u in members(g.nbrs(v) & rest) {
                let next = (u, g.component(u, rest));
                if seen.insert(next) {
                    stack.push(next);
                }
            }
        }
    }
    (seen.len() - before) as u64
}

fn check_graph(out: &mut Degree3Output, i: u64, g: &BitGraph) {
    let n = g.n();
    let edges: Vec<(usize, usize)> = g.edges().collect();
    let t = out.by_n.entry(n as u64).or_default();
    t.graphs += 1;
    // One memo for the whole graph (all starts) ...
    let mut shared = HashSet::new();
    for v in 0..n {
        t.reachable_graph += reachable_positions(g, v, &mut shared);
        // ... and a fresh one per start.
        let own = reachable_positions(g, v, &mut HashSet::new());
        t.reachable_start += own;
        t.reachable_start_max.offer(own);
    }
    t.reachable_graph_max.offer(shared.len() as u64);
    for v in 0..n {
        let exact = solve::value(&Position {
            n,
            edges: edges.clone(),
            deleted: Vec::new(),
            token: v,
        });
        let t = out.by_n.entry(n as u64).or_default();
        t.starts += 1;
        t.nodes += exact.nodes;
        t.nodes_max.offer(exact.nodes);
        out.values.add(exact.value);
        let record = |note: String| Record {
            vertices: n as u32,
            edges: edges.len() as u32,
            code: graph6::encode_bitgraph(g),
            index: v as u64,
            detail: format!("random graph #{i}, start {v}"),
            note,
        };
        match grundy_degree3(g, v, g.all()) {
            Some((d, tests)) => {
                t.tests += tests as u64;
                t.tests_max.offer(tests as u64);
                out.tests_per_start.add(tests);
                if d as u32 != exact.value {
                    out.exceptions.add(record(format!(
                        "exact={} degree3={}",
                        nim(exact.value as u64),
                        nim(d as u64)
                    )));
                }
            }
            None => out.exceptions.add(record(
                "degree-3 algorithm declined a graph of max degree ≤ 3".into(),
            )),
        }
    }
}

/// Exception records whose graph [`Kind::validate`] regenerates (a seeded
/// random graph, no solving): a fixed budget.
const REGENERATE_BUDGET: usize = 16;

/// [`Kind::validate`] for `uvg-degree3`: instance i has min_n + i mod span
/// vertices, so the graphs per size of a shard are known exactly; starts are
/// graphs × n; the tallies' maxima lie within their sums; the value and
/// test histograms count at most the starts (values exactly, all below 4 =
/// degree + 1); exceptions are within the starts and their records are
/// starts of the shard's graphs, the first [`REGENERATE_BUDGET`] regenerated.
fn validate(params: &Degree3Params, shard: &RangeShard, out: &Degree3Output) -> Result<(), String> {
    let (lo, hi) = params.sizes().map_err(|e| e.to_string())?;
    let range = shard
        .instances("uvg-degree3", params.random)
        .map_err(|e| e.to_string())?;
    let span = (hi - lo + 1) as u64;
    let size = |i: u64| lo as u64 + i % span;
    let mut want: BTreeMap<u64, u64> = BTreeMap::new();
    // At most `span` sizes: count each size's instances in closed form.
    for k in 0..span.min(range.end - range.start) {
        let first = range.start + k;
        let count = (range.end - first).div_ceil(span);
        want.insert(size(first), count);
    }
    if out.by_n.keys().ne(want.keys()) {
        return Err(format!(
            "by_n has sizes {:?}, but the shard's graphs have {:?}",
            out.by_n.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>()
        ));
    }
    let mut starts = 0u64;
    for (&n, t) in &out.by_n {
        let at = |f: &str| format!("by_n[{n}].{f}");
        if t.graphs != want[&n] {
            return Err(format!(
                "{} is {}, but the shard has {} graphs on {n} vertices",
                at("graphs"),
                t.graphs,
                want[&n]
            ));
        }
        if t.starts != t.graphs * n {
            return Err(format!(
                "{} is {}, not {} graphs × {n}",
                at("starts"),
                t.starts,
                t.graphs
            ));
        }
        let pairs = [
            ("tests_max", t.tests_max.0, "tests", t.tests),
            ("nodes_max", t.nodes_max.0, "nodes", t.nodes),
            (
                "reachable_start_max",
                t.reachable_start_max.0,
                "reachable_start",
                t.reachable_start,
            ),
            (
                "reachable_graph_max",
                t.reachable_graph_max.0,
                "reachable_graph",
                t.reachable_graph,
            ),
        ];
        for (m, max, f, sum) in pairs {
            if max > sum {
                return Err(format!("{} is {max}, above {} = {sum}", at(m), at(f)));
            }
        }
        // Every start is a reachable position of its own; a graph's shared
        // memo counts each position once, a fresh memo per start at least as
        // often.
        if t.reachable_graph < t.starts || t.reachable_start < t.reachable_graph {
            return Err(format!(
                "{}: {} per graph and {} per start for {} starts",
                at("reachable_graph"),
                t.reachable_graph,
                t.reachable_start,
                t.starts
            ));
        }
        if t.nodes < t.starts {
            return Err(format!(
                "{} is {}, below {} starts",
                at("nodes"),
                t.nodes,
                t.starts
            ));
        }
        starts += t.starts;
    }
    if out.work != starts {
        return Err(format!("work is {}, not the {starts} starts", out.work));
    }
    let values: u64 = out.values.0.iter().sum();
    if values != starts || out.values.0.len() > 4 {
        return Err(format!(
            "values count {values} starts with {} values, not {starts} starts with values below 4",
            out.values.0.len()
        ));
    }
    let answered: u64 = out.tests_per_start.0.iter().sum();
    let tests: u64 = out.by_n.values().map(|t| t.tests).sum();
    let weighted = out
        .tests_per_start
        .0
        .iter()
        .enumerate()
        .try_fold(0u64, |a, (k, &c)| a.checked_add((k as u64).checked_mul(c)?));
    if answered > starts || weighted != Some(tests) {
        return Err(format!(
            "tests_per_start counts {answered} starts and {weighted:?} tests, but there are {starts} starts and {tests} tests"
        ));
    }
    let rs = &out.exceptions.0;
    if rs.cap != super::EXCEPTION_CAP
        || rs.total > starts
        || rs.total < starts - answered
        || rs.kept.len() as u64 != rs.total.min(super::EXCEPTION_CAP)
    {
        return Err(format!(
            "exceptions: total {} with {} kept (cap {}), for {starts} starts of which {} were declined (cap {})",
            rs.total,
            rs.kept.len(),
            rs.cap,
            starts - answered,
            super::EXCEPTION_CAP
        ));
    }
    for (k, r) in rs.kept.iter().enumerate() {
        let what = format!("exceptions[`{:.40}` {:.40}]", r.code, r.detail);
        let parsed = r
            .detail
            .strip_prefix("random graph #")
            .and_then(|d| d.split_once(", start "))
            .and_then(|(i, v)| Some((i.parse::<u64>().ok()?, v.parse::<u64>().ok()?)));
        let Some((i, v)) = parsed.filter(|&(i, v)| range.contains(&i) && v == r.index) else {
            return Err(format!(
                "{what}: not a start of a graph {}..{} of the shard",
                range.start, range.end
            ));
        };
        let n = size(i);
        if r.vertices as u64 != n || v >= n {
            return Err(format!(
                "{what}: {} vertices, start {v}, but graph #{i} has {n} vertices",
                r.vertices
            ));
        }
        if k < REGENERATE_BUDGET {
            let g = instance(params.seed, lo, hi, i);
            if graph6::encode_bitgraph(&g) != r.code || g.edge_count() != r.edges as usize {
                return Err(format!("{what}: graph #{i} is not `{:.40}`", r.code));
            }
        }
    }
    Ok(())
}

/// Render report.md from the results.json document only.
fn report_md(doc: &Degree3Doc) -> String {
    let p = &doc.params;
    let rows = &doc.by_n;
    let (mut graphs, mut starts, mut tests, mut tmax, mut nodes) = (0, 0, 0, 0, 0);
    for row in rows {
        graphs += row.graphs;
        starts += row.starts;
        tests += row.win_lose_tests;
        tmax = tmax.max(row.win_lose_tests_max);
        nodes += row.exact_nodes;
    }
    let ratio = |a: u64, b: u64| if b > 0 { a as f64 / b as f64 } else { 0.0 };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Burke–Ferland–Teng: the degree-3 algorithm vs exact search\n"
    );
    let _ = writeln!(
        s,
        "Reproduce with `gamesweep run uvg-degree3 --random {} --min-n {} --max-n {} --seed {}`. Rendered from `results.json`; every number below is computed.\n",
        p.random, p.min_n, p.max_n, p.seed
    );
    let _ = writeln!(
        s,
        "- Graphs: {} random connected graphs of maximum degree ≤ 3 on {}–{} vertices, {} starts. Model: {}.",
        thousands(graphs),
        p.min_n,
        p.max_n,
        thousands(starts),
        doc.random_model
    );
    let _ = writeln!(
        s,
        "- Degree-3 algorithm (values from win/lose tests only) vs exact search (memo on token + component), every start: **{} exceptions**.",
        doc.exceptions
    );
    let _ = writeln!(
        s,
        "- Win/lose tests per start: mean {:.3}, max {} ({} tests in all). Exact search: mean {:.1} nodes per start ({} in all).",
        ratio(tests, starts),
        tmax,
        thousands(tests),
        ratio(nodes, starts),
        thousands(nodes)
    );
    let _ = writeln!(
        s,
        "- Values over all starts: {}.\n",
        values_line(&doc.values)
    );
    let _ = writeln!(s, "## By graph size\n");
    let _ = writeln!(
        s,
        "| n | graphs | starts | mean tests | max tests | solver nodes per start (mean / max) | reachable positions per start (mean / max) | reachable positions per graph (mean / max) |\n|---|---|---|---|---|---|---|---|"
    );
    for row in rows {
        let (st, gr) = (row.starts, row.graphs);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.3} | {} | {:.1} / {} | {:.1} / {} | {:.1} / {} |",
            row.n,
            thousands(gr),
            thousands(st),
            ratio(row.win_lose_tests, st),
            row.win_lose_tests_max,
            ratio(row.exact_nodes, st),
            thousands(row.exact_nodes_max),
            ratio(row.reachable_positions_per_start, st),
            thousands(row.reachable_positions_per_start_max),
            ratio(row.reachable_positions_per_graph, gr),
            thousands(row.reachable_positions_per_graph_max)
        );
    }
    let _ = writeln!(
        s,
        "\nSolver nodes: {}. Reachable positions: {}.",
        doc.exact_nodes, doc.reachable_positions
    );
    let _ = writeln!(s, "\n## Win/lose tests per start\n");
    let _ = writeln!(s, "| tests | starts |\n|---|---|");
    for (t, c) in &doc.win_lose_tests_per_start {
        let _ = writeln!(s, "| {t} | {} |", thousands(*c));
    }
    write_graph_exceptions(
        &mut s,
        doc.exceptions,
        &doc.exception_records,
        &doc.not_covered,
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::{run_typed, SweepKind};
    use crate::uvg;

    fn params(random: u64, min_n: u64, max_n: u64, seed: u64) -> Degree3Params {
        Degree3Params {
            random,
            min_n,
            max_n,
            seed,
        }
    }

    fn run(p: &Degree3Params, shards: u32) -> Degree3Output {
        run_typed(&Degree3Sweep, p, shards).unwrap()
    }

    #[test]
    fn no_exceptions_and_plan_independent() {
        let p = params(40, 10, 22, 5);
        let a = run(&p, 1);
        assert_eq!(a.exceptions.count(), 0);
        let starts: u64 = a.by_n.values().map(|t| t.starts).sum();
        let want: u64 = (0..40).map(|i| instance(5, 10, 22, i).n() as u64).sum();
        assert_eq!(starts, want);
        assert_eq!(a.work, want);
        for shards in [3, 40, 500] {
            assert_eq!(a, run(&p, shards));
        }
    }

    /// The sweep's exact values (general solver) agree with the BitGraph
    /// solver `uvg::grundy_all` on the same graphs.
    #[test]
    fn exact_values_agree_with_bitgraph_solver() {
        let mut hist = [0u64; 8];
        for i in 0..30 {
            let g = instance(2, 8, 18, i);
            for (v, x) in uvg::grundy_all(&g).into_iter().enumerate() {
                let pos = Position {
                    n: g.n(),
                    edges: g.edges().collect(),
                    deleted: vec![],
                    token: v,
                };
                assert_eq!(solve::value(&pos).value, x as u32);
                hist[x as usize] += 1;
            }
        }
        let p = params(30, 8, 18, 2);
        let d = Degree3Sweep.doc(&p, &run(&p, 0));
        for (v, &c) in hist.iter().enumerate() {
            assert_eq!(d.values.get(&(v as u64)).copied().unwrap_or(0), c);
        }
    }

    #[test]
    fn reachable_positions_by_hand() {
        // Path 0-1-2 from 0: (0,{012}), (1,{12}), (2,{2}) = 3; from 1: (1,{012}),
        // (0,{0}), (2,{2}) = 3, of which (2,{2}) is shared with start 0.
        let p = BitGraph::from_edges(3, &[(0, 1), (1, 2)]);
        assert_eq!(reachable_positions(&p, 0, &mut HashSet::new()), 3);
        assert_eq!(reachable_positions(&p, 1, &mut HashSet::new()), 3);
        let mut shared = HashSet::new();
        let total: u64 = (0..3)
            .map(|v| reachable_positions(&p, v, &mut shared))
            .sum();
        // Start 2 adds (2,{012}) and (1,{01}); (0,{0}) is known from start 1.
        assert_eq!(total, 3 + 2 + 2);
        assert_eq!(shared.len() as u64, total);
    }

    #[test]
    fn min_above_max_is_an_error() {
        let p = params(5, 20, 12, 1);
        assert!(matches!(
            Kind::plan(&Degree3Sweep, &p, 0),
            Err(SweepError::OutOfRange { .. })
        ));
        assert!(matches!(
            Degree3Sweep.run(&p, &RangeShard { start: 0, end: 1 }, &ShardCtx::detached()),
            Err(SweepError::OutOfRange { .. })
        ));
    }

    #[test]
    fn bad_shards_and_params_are_errors() {
        let p = Degree3Sweep
            .resolve_params(&[("random".to_string(), 5)].into())
            .unwrap();
        for payload in [
            "range 0 5",
            r#"{"start":0,"end":6}"#,
            r#"{"start":0,"end":1,"x":2}"#,
        ] {
            let shard = crate::sweep::ShardSpec {
                index: 0,
                payload: payload.into(),
                estimate: 0,
            };
            assert!(
                matches!(
                    SweepKind::run_shard(&Degree3Sweep, &p, &shard, &ShardCtx::detached()),
                    Err(SweepError::BadShard { .. })
                ),
                "{payload:?}"
            );
        }
        let mut bad = p.clone();
        bad.remove("seed");
        assert!(matches!(
            SweepKind::plan(&Degree3Sweep, &bad, 0),
            Err(SweepError::BadParams { .. })
        ));
    }

    /// Every shard of real plans validates: the committed run's parameters
    /// (`runs/uvg-degree3`: 200 graphs on 12..=28 vertices, seed 1) cut to
    /// its first 34 graphs (two of each size), and smaller ones in several
    /// plan sizes.
    #[test]
    fn real_shard_results_validate() {
        for (p, shards) in [
            (params(40, 10, 22, 5), 1),
            (params(40, 10, 22, 5), 7),
            (params(34, 12, 28, 1), 0),
            (params(30, 8, 12, 1), 0),
            (params(5, 6, 6, 2), 2),
        ] {
            for (s, _) in Kind::plan(&Degree3Sweep, &p, shards).unwrap() {
                let out = Degree3Sweep.run(&p, &s, &ShardCtx::detached()).unwrap();
                assert_eq!(validate(&p, &s, &out), Ok(()), "{p:?} {s:?}");
            }
        }
    }

    /// Forged results are refused, naming the field.
    #[test]
    fn forged_degree3_results_are_refused_naming_the_field() {
        let p = params(12, 8, 10, 3);
        let s = RangeShard { start: 2, end: 9 };
        let honest = Degree3Sweep.run(&p, &s, &ShardCtx::detached()).unwrap();
        assert_eq!(validate(&p, &s, &honest), Ok(()));
        let refused = |f: &dyn Fn(&mut Degree3Output), want: &str| {
            let mut out = honest.clone();
            f(&mut out);
            let e = validate(&p, &s, &out).expect_err(want);
            assert!(e.contains(want), "`{e}` does not contain `{want}`");
        };
        // instances 2..9 have 10, 8, 9, 10, 8, 9, 10 vertices
        refused(
            &|o| o.by_n.get_mut(&10).unwrap().graphs += 1,
            "by_n[10].graphs is 4, but the shard has 3 graphs on 10 vertices",
        );
        refused(
            &|o| {
                let t = o.by_n.remove(&8).unwrap();
                o.by_n.insert(11, t);
            },
            "by_n has sizes",
        );
        refused(
            &|o| o.by_n.get_mut(&9).unwrap().starts += 1,
            "by_n[9].starts is 19",
        );
        refused(&|o| o.work += 1, "work is");
        refused(&|o| o.values.0.push(1), "values count");
        refused(
            &|o| o.by_n.get_mut(&9).unwrap().nodes_max.0 = u64::MAX,
            "by_n[9].nodes_max",
        );
        refused(&|o| o.tests_per_start.0[1] += 1, "tests_per_start counts");
        refused(
            &|o| o.exceptions.0.total = 1,
            "exceptions: total 1 with 0 kept",
        );
        let fake = |detail: &str, code: &str| {
            let detail = detail.to_string();
            let code = code.to_string();
            move |o: &mut Degree3Output| {
                let g = instance(3, 8, 10, 3);
                o.exceptions.add(Record {
                    vertices: 8,
                    edges: g.edge_count() as u32,
                    code: code.clone(),
                    index: 0,
                    detail: detail.clone(),
                    note: "forged".into(),
                });
            }
        };
        let real = graph6::encode_bitgraph(&instance(3, 8, 10, 3));
        refused(
            &fake("random graph #11, start 0", &real),
            "not a start of a graph 2..9",
        );
        refused(
            &fake("random graph #2, start 0", &real),
            "graph #2 has 10 vertices",
        );
        refused(&fake("random graph #6, start 0", &real), "graph #6 is not");
    }
}
