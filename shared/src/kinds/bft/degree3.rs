//! `uvg-degree3`: the degree-3 algorithm of Burke–Ferland–Teng against exact
//! search on seeded random connected graphs of maximum degree ≤ 3.
//!
//! Graph i has `min_n + (i mod (max_n − min_n + 1))` vertices (so the sizes
//! are spread evenly) and is drawn by [`random_degree3_graph`] from stream i.
//! For every start: the degree-3 value and its number of win/lose (matching)
//! tests, the exact value and the exact search's node count (a fresh search
//! per start, memo on token + component).

use super::{nim, parse_range, plan_ranges, record_json, thousands, EXCEPTION_CAP, SECTION5_NOTE};
use crate::bft::random::{instance_rng, random_degree3_graph};
use crate::bft::reduction::Position;
use crate::bft::solve;
use crate::graph::{graph6, members, BitGraph, VSet};
use crate::sweep::{
    param, ParamDef, Params, Record, LegacyRendered, ShardCtx, ShardSpec, SweepError, UntypedKind,
    SweepResult,
};
use crate::uvg::degree3::grundy_degree3;
use serde_json::{json, Value};
use std::collections::HashSet;
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

fn sizes(params: &Params) -> Result<(usize, usize), SweepError> {
    let lo = param(params, "min_n");
    let hi = param(params, "max_n");
    if lo > hi {
        return Err(SweepError::OutOfRange {
            kind: "uvg-degree3".into(),
            param: "min-n".into(),
            value: lo,
            min: 1,
            max: hi,
        });
    }
    Ok((lo as usize, hi as usize))
}

/// Graph `i` of the sweep.
pub fn instance(seed: u64, min_n: usize, max_n: usize, i: u64) -> BitGraph {
    let n = min_n + (i % (max_n - min_n + 1) as u64) as usize;
    random_degree3_graph(&mut instance_rng(seed, i), n)
}

fn key(n: usize, what: &str) -> String {
    format!("n={n:02}/{what}")
}

impl UntypedKind for Degree3Sweep {
    fn name(&self) -> &'static str {
        "uvg-degree3"
    }

    fn about(&self) -> &'static str {
        "Burke-Ferland-Teng degree-3 algorithm vs exact search on seeded random connected graphs of max degree <= 3"
    }

    fn params(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        let (lo, hi) = sizes(params)?;
        let span = (hi - lo + 1) as u64;
        Ok(plan_ranges(
            param(params, "random"),
            target_shards,
            8,
            |a, b| (a..b).map(|i| lo as u64 + i % span).sum(),
        ))
    }

    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError> {
        let (lo, hi) = sizes(params)?;
        let (a, b) = parse_range(self.name(), &shard.payload, param(params, "random"))?;
        let seed = param(params, "seed");
        let mut out = SweepResult::default();
        for i in a..b {
            ctx.check()?;
            let g = instance(seed, lo, hi, i);
            check_graph(&mut out, i, &g);
            out.work += g.n() as u64;
            ctx.add_progress(g.n() as u64);
        }
        Ok(out)
    }

    fn render(&self, params: &Params, merged: &SweepResult) -> LegacyRendered {
        render(params, merged)
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

fn check_graph(out: &mut SweepResult, i: u64, g: &BitGraph) {
    let n = g.n();
    let edges: Vec<(usize, usize)> = g.edges().collect();
    out.count(key(n, "graphs"), 1);
    // One memo for the whole graph (all starts) ...
    let mut shared = HashSet::new();
    for v in 0..n {
        out.count(
            key(n, "reachable_graph"),
            reachable_positions(g, v, &mut shared),
        );
        // ... and a fresh one per start.
        let own = reachable_positions(g, v, &mut HashSet::new());
        out.count(key(n, "reachable_start"), own);
        out.maximum(key(n, "reachable_start_max"), own);
    }
    out.maximum(key(n, "reachable_graph_max"), shared.len() as u64);
    for v in 0..n {
        let exact = solve::value(&Position {
            n,
            edges: edges.clone(),
            deleted: Vec::new(),
            token: v,
        });
        out.count(key(n, "starts"), 1);
        out.count(key(n, "nodes"), exact.nodes);
        out.maximum(key(n, "nodes_max"), exact.nodes);
        out.count(format!("value={:02}", exact.value), 1);
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
                out.count(key(n, "tests"), tests as u64);
                out.maximum(key(n, "tests_max"), tests as u64);
                out.count(format!("tests={tests:03}"), 1);
                if d as u32 != exact.value {
                    out.record(
                        "exceptions",
                        EXCEPTION_CAP,
                        record(format!(
                            "exact={} degree3={}",
                            nim(exact.value as u64),
                            nim(d as u64)
                        )),
                    );
                }
            }
            None => out.record(
                "exceptions",
                EXCEPTION_CAP,
                record("degree-3 algorithm declined a graph of max degree ≤ 3".into()),
            ),
        }
    }
}

fn render(params: &Params, r: &SweepResult) -> LegacyRendered {
    let lo = param(params, "min_n") as usize;
    let hi = param(params, "max_n") as usize;
    let mut by_n = Vec::new();
    for n in lo..=hi.max(lo) {
        let starts = r.counter(&key(n, "starts"));
        if starts == 0 {
            continue;
        }
        by_n.push(json!({
            "n": n,
            "graphs": r.counter(&key(n, "graphs")),
            "starts": starts,
            "win_lose_tests": r.counter(&key(n, "tests")),
            "win_lose_tests_max": r.maxima.get(&key(n, "tests_max")).copied().unwrap_or(0),
            "exact_nodes": r.counter(&key(n, "nodes")),
            "exact_nodes_max": r.maxima.get(&key(n, "nodes_max")).copied().unwrap_or(0),
            "reachable_positions_per_start": r.counter(&key(n, "reachable_start")),
            "reachable_positions_per_start_max": r.maxima.get(&key(n, "reachable_start_max")).copied().unwrap_or(0),
            "reachable_positions_per_graph": r.counter(&key(n, "reachable_graph")),
            "reachable_positions_per_graph_max": r.maxima.get(&key(n, "reachable_graph_max")).copied().unwrap_or(0),
        }));
    }
    let hist = |prefix: &str| -> serde_json::Map<String, Value> {
        r.counters
            .iter()
            .filter_map(|(k, &c)| {
                k.strip_prefix(prefix)
                    .and_then(|v| v.parse::<u64>().ok())
                    .map(|v| (v.to_string(), json!(c)))
            })
            .collect()
    };
    let exc = r.records.get("exceptions");
    let results_json = json!({
        "kind": "uvg-degree3",
        "params": params,
        "random_model": RANDOM_MODEL,
        "exact_nodes": "search nodes of the library's exact solver (uvg::general::grundy_general, fresh per start; it skips moves onto leaves and counts each distinct position it evaluates)",
        "reachable_positions": "distinct (token, component) positions reachable from a start: the node count of a plain search memoised on (token, component), with no shortcuts; per start (fresh memo) and per graph (one memo shared by all starts)",
        "by_n": by_n,
        "values": hist("value="),
        "win_lose_tests_per_start": hist("tests="),
        "exceptions": exc.map(|s| s.total).unwrap_or(0),
        "exception_records": exc.map(|s| s.kept.iter().map(record_json).collect::<Vec<_>>()).unwrap_or_default(),
        "not_covered": SECTION5_NOTE,
    });
    let report_md = report_md(&results_json);
    LegacyRendered {
        results_json,
        report_md,
    }
}

/// Render report.md from the results.json document only.
fn report_md(doc: &Value) -> String {
    let u = |v: &Value| v.as_u64().unwrap_or(0);
    let p = &doc["params"];
    let rows = doc["by_n"].as_array().cloned().unwrap_or_default();
    let (mut graphs, mut starts, mut tests, mut tmax, mut nodes) = (0, 0, 0, 0, 0);
    for row in &rows {
        graphs += u(&row["graphs"]);
        starts += u(&row["starts"]);
        tests += u(&row["win_lose_tests"]);
        tmax = tmax.max(u(&row["win_lose_tests_max"]));
        nodes += u(&row["exact_nodes"]);
    }
    let ratio = |a: u64, b: u64| if b > 0 { a as f64 / b as f64 } else { 0.0 };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Burke–Ferland–Teng: the degree-3 algorithm vs exact search\n"
    );
    let _ = writeln!(
        s,
        "Reproduce with `gamesweep run uvg-degree3 --random {} --min-n {} --max-n {} --seed {}`. LegacyRendered from `results.json`; every number below is computed.\n",
        u(&p["random"]),
        u(&p["min_n"]),
        u(&p["max_n"]),
        u(&p["seed"])
    );
    let _ = writeln!(
        s,
        "- Graphs: {} random connected graphs of maximum degree ≤ 3 on {}–{} vertices, {} starts. Model: {}.",
        thousands(graphs),
        u(&p["min_n"]),
        u(&p["max_n"]),
        thousands(starts),
        doc["random_model"].as_str().unwrap_or("")
    );
    let _ = writeln!(
        s,
        "- Degree-3 algorithm (values from win/lose tests only) vs exact search (memo on token + component), every start: **{} exceptions**.",
        u(&doc["exceptions"])
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
    let values = doc["values"].as_object().cloned().unwrap_or_default();
    let mut vs: Vec<(u64, u64)> = values
        .iter()
        .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_u64()?)))
        .collect();
    vs.sort_unstable();
    let _ = writeln!(
        s,
        "- Values over all starts: {}.\n",
        vs.iter()
            .map(|(v, c)| format!("{} ×{}", nim(*v), thousands(*c)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(s, "## By graph size\n");
    let _ = writeln!(
        s,
        "| n | graphs | starts | mean tests | max tests | solver nodes per start (mean / max) | reachable positions per start (mean / max) | reachable positions per graph (mean / max) |\n|---|---|---|---|---|---|---|---|"
    );
    for row in &rows {
        let st = u(&row["starts"]);
        let gr = u(&row["graphs"]);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.3} | {} | {:.1} / {} | {:.1} / {} | {:.1} / {} |",
            row["n"],
            thousands(gr),
            thousands(st),
            ratio(u(&row["win_lose_tests"]), st),
            u(&row["win_lose_tests_max"]),
            ratio(u(&row["exact_nodes"]), st),
            thousands(u(&row["exact_nodes_max"])),
            ratio(u(&row["reachable_positions_per_start"]), st),
            thousands(u(&row["reachable_positions_per_start_max"])),
            ratio(u(&row["reachable_positions_per_graph"]), gr),
            thousands(u(&row["reachable_positions_per_graph_max"]))
        );
    }
    let mut th: Vec<(u64, u64)> = doc["win_lose_tests_per_start"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_u64()?)))
        .collect();
    th.sort_unstable();
    let _ = writeln!(
        s,
        "\nSolver nodes: {}. Reachable positions: {}.",
        doc["exact_nodes"].as_str().unwrap_or(""),
        doc["reachable_positions"].as_str().unwrap_or("")
    );
    let _ = writeln!(s, "\n## Win/lose tests per start\n");
    let _ = writeln!(s, "| tests | starts |\n|---|---|");
    for (t, c) in th {
        let _ = writeln!(s, "| {t} | {} |", thousands(c));
    }
    super::write_exceptions_and_not_covered(&mut s, doc);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::legacy::{resolve_params, run_all_sequential};
    use crate::uvg;

    fn params(k: u64, lo: u64, hi: u64, seed: u64) -> Params {
        resolve_params(
            &Degree3Sweep,
            &[
                ("random".to_string(), k),
                ("min_n".to_string(), lo),
                ("max_n".to_string(), hi),
                ("seed".to_string(), seed),
            ]
            .into(),
        )
        .unwrap()
    }

    fn doc(p: &Params, shards: u32) -> Value {
        let plan = Degree3Sweep.plan(p, shards).unwrap();
        let merged = run_all_sequential(&Degree3Sweep, p, &plan).unwrap();
        Degree3Sweep.render(p, &merged).results_json
    }

    #[test]
    fn no_exceptions_and_plan_independent() {
        let p = params(40, 10, 22, 5);
        let a = doc(&p, 1);
        assert_eq!(a["exceptions"], 0);
        let starts: u64 = a["by_n"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["starts"].as_u64().unwrap())
            .sum();
        let want: u64 = (0..40).map(|i| instance(5, 10, 22, i).n() as u64).sum();
        assert_eq!(starts, want);
        for shards in [3, 40, 500] {
            assert_eq!(a, doc(&p, shards));
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
        let d = doc(&p, 0);
        for (v, &c) in hist.iter().enumerate() {
            assert_eq!(d["values"][v.to_string()].as_u64().unwrap_or(0), c);
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
            Degree3Sweep.plan(&p, 0),
            Err(SweepError::OutOfRange { .. })
        ));
    }
}
