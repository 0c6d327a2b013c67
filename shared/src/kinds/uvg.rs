//! The `uvg` sweep: every connected graph on 1..=N vertices, every start vertex.
//!
//! Per vertex count n: graphs, positions, the Grundy histogram, first-player
//! wins, matching-theorem exceptions (exact value 0 vs the ν test), the
//! max-degree-≤3 subset checked against the degree-3 algorithm, a witness for
//! each value (the smallest position in witness order), and optionally every
//! position of value ≥ `--collect-min-value`.

use crate::sweep::graphplan::{self, Walk};
use crate::sweep::thousands;
use crate::sweep::{
    param, ParamDef, Params, Record, LegacyRendered, ShardCtx, ShardSpec, SweepError, UntypedKind,
    SweepResult,
};
use crate::graph::{graph6, BitGraph};
use crate::uvg;
use serde_json::{json, Map, Value};
use std::fmt::Write as _;

/// Largest n the `uvg` sweep accepts (the bitset solver's memo grows as n·2^n).
pub const UVG_MAX_N: u64 = 12;

/// Counterexample records kept per list (all are counted).
const EXCEPTION_CAP: u64 = 1000;

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
];

fn key(n: usize, what: &str) -> String {
    format!("n={n:02}/{what}")
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
/// [`SweepResult`] once at the end.
struct Acc {
    max_n: usize,
    collect: u8,
    graphs: Vec<u64>,
    positions: Vec<u64>,
    grundy: Vec<[u64; 32]>,
    fpw: Vec<u64>,
    d3_graphs: Vec<u64>,
    d3_positions: Vec<u64>,
    d3_tests: Vec<u64>,
    d3_max_tests: Vec<u64>,
    /// Best witness (edges, graph6, start) per (n, value).
    witness: Vec<[Option<(usize, String, usize)>; 32]>,
    /// Graphs whose start values include every one of 0..t-1 but not t, per (n, t).
    cover: Vec<[u64; 33]>,
    /// Smallest graph (edges, graph6) whose start values include 0..k-1, per (n, k).
    cover_witness: Vec<[Option<(usize, String)>; 33]>,
    out: SweepResult,
}

impl Acc {
    fn new(max_n: usize, collect: u8) -> Self {
        let z = max_n + 1;
        Acc {
            max_n,
            collect,
            graphs: vec![0; z],
            positions: vec![0; z],
            grundy: vec![[0; 32]; z],
            fpw: vec![0; z],
            d3_graphs: vec![0; z],
            d3_positions: vec![0; z],
            d3_tests: vec![0; z],
            d3_max_tests: vec![0; z],
            witness: vec![std::array::from_fn(|_| None); z],
            cover: vec![[0; 33]; z],
            cover_witness: vec![std::array::from_fn(|_| None); z],
            out: SweepResult::default(),
        }
    }

    fn visit(&mut self, g: &BitGraph) {
        let n = g.n();
        let all = g.all();
        let values = uvg::grundy_all(g);
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
                self.out.record(
                    key(n, "matching_exceptions"),
                    EXCEPTION_CAP,
                    record(g, c, v, note),
                );
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
                            self.out.record(
                                key(n, "degree3_exceptions"),
                                EXCEPTION_CAP,
                                record(g, c, v, note),
                            );
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
                self.out.record(
                    key(n, "collected"),
                    u64::MAX,
                    record(g, c, v, format!("grundy={val}")),
                );
            }
        }
    }

    fn finish(mut self) -> SweepResult {
        for n in 1..=self.max_n {
            if self.graphs[n] == 0 {
                continue;
            }
            let r = &mut self.out;
            r.work += self.positions[n];
            r.count(key(n, "graphs"), self.graphs[n]);
            r.count(key(n, "positions"), self.positions[n]);
            r.count(key(n, "first_player_wins"), self.fpw[n]);
            for (val, &c) in self.grundy[n].iter().enumerate() {
                if c > 0 {
                    r.count(key(n, &format!("grundy={val:02}")), c);
                }
            }
            r.count(key(n, "degree3/graphs"), self.d3_graphs[n]);
            r.count(key(n, "degree3/positions"), self.d3_positions[n]);
            r.count(key(n, "degree3/win_lose_tests"), self.d3_tests[n]);
            for (t, &c) in self.cover[n].iter().enumerate() {
                if c > 0 {
                    r.count(key(n, &format!("cover={t:02}")), c);
                }
            }
            for (k, w) in self.cover_witness[n].iter().enumerate() {
                if let Some((m, code)) = w {
                    let rec = Record {
                        vertices: n as u32,
                        edges: *m as u32,
                        code: code.clone(),
                        index: 0,
                        detail: String::new(),
                        note: format!("values include 0..{}", k - 1),
                    };
                    r.witness(key(n, &format!("cover_witness={k:02}")), rec);
                }
            }
            for (val, w) in self.witness[n].iter().enumerate() {
                if let Some((m, code, s)) = w {
                    let rec = Record {
                        vertices: n as u32,
                        edges: *m as u32,
                        code: code.clone(),
                        index: *s as u64,
                        detail: format!("start {s}"),
                        note: format!("grundy={val}"),
                    };
                    r.witness(key(n, &format!("witness={val:02}")), rec);
                }
            }
        }
        for n in 1..=self.max_n {
            if self.d3_max_tests[n] > 0 {
                self.out
                    .maximum(key(n, "degree3/max_win_lose_tests"), self.d3_max_tests[n]);
            }
        }
        self.out
    }
}

impl UntypedKind for UvgSweep {
    fn name(&self) -> &'static str {
        "uvg"
    }

    fn about(&self) -> &'static str {
        "undirected vertex geography on every connected graph with <= max-n vertices, every start"
    }

    fn params(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        Ok(graphplan::plan_payloads(
            param(params, "max_n") as usize,
            target_shards,
            graphplan::Work::PerVertex,
        ))
    }

    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError> {
        let max_n = param(params, "max_n") as usize;
        let parsed: Walk = graphplan::parse(self.name(), &shard.payload)?;
        let mut acc = Acc::new(max_n, param(params, "collect_min_value") as u8);
        let mut since = 0u64;
        let mut cancelled = false;
        graphplan::walk_connected(&parsed, max_n, &mut |g| {
            if cancelled {
                return;
            }
            acc.visit(g);
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

    fn render(&self, params: &Params, merged: &SweepResult) -> LegacyRendered {
        render(params, merged)
    }

    fn exports(&self, params: &Params, rendered: &LegacyRendered) -> Vec<(String, String)> {
        let k = param(params, "collect_min_value");
        if k == 0 {
            return Vec::new();
        }
        let mut text = String::new();
        for row in rendered.results_json["by_n"]
            .as_array()
            .into_iter()
            .flatten()
        {
            for p in row["collected"]["positions"]
                .as_array()
                .into_iter()
                .flatten()
            {
                text.push_str(p.as_str().unwrap_or_default());
                text.push('\n');
            }
        }
        vec![(format!("collected-min-value-{k}.txt"), text)]
    }
}

fn get(r: &SweepResult, n: usize, what: &str) -> u64 {
    r.counter(&key(n, what))
}

fn records_json(r: &SweepResult, k: &str) -> Value {
    match r.records.get(k) {
        None => json!([]),
        Some(set) => Value::Array(
            set.kept
                .iter()
                .map(|x| json!({"graph6": x.code, "start": x.index, "vertices": x.vertices, "edges": x.edges, "values": x.note}))
                .collect(),
        ),
    }
}

fn render(params: &Params, r: &SweepResult) -> LegacyRendered {
    let max_n = param(params, "max_n") as usize;
    let mut by_n = Vec::new();
    let mut max_value = 0usize;
    for n in 1..=max_n {
        let mut grundy = Map::new();
        for v in 0..32 {
            let c = get(r, n, &format!("grundy={v:02}"));
            if c > 0 {
                grundy.insert(v.to_string(), json!(c));
                max_value = max_value.max(v);
            }
        }
        let mut witnesses = Map::new();
        for v in 0..32 {
            if let Some(w) = r.witnesses.get(&key(n, &format!("witness={v:02}"))) {
                witnesses.insert(
                    v.to_string(),
                    json!({"graph6": w.code, "start": w.index, "edges": w.edges}),
                );
            }
        }
        let d3_pos = get(r, n, "degree3/positions");
        let d3_tests = get(r, n, "degree3/win_lose_tests");
        let d3_max = r
            .maxima
            .get(&key(n, "degree3/max_win_lose_tests"))
            .copied()
            .unwrap_or(0);
        let mexc = r
            .records
            .get(&key(n, "matching_exceptions"))
            .map(|s| s.total)
            .unwrap_or(0);
        let dexc = r
            .records
            .get(&key(n, "degree3_exceptions"))
            .map(|s| s.total)
            .unwrap_or(0);
        let mut row = json!({
            "n": n,
            "graphs": get(r, n, "graphs"),
            "positions": get(r, n, "positions"),
            "grundy": grundy,
            "first_player_wins": get(r, n, "first_player_wins"),
            "matching_exceptions": mexc,
            "matching_exception_records": records_json(r, &key(n, "matching_exceptions")),
            "maxdeg3": {
                "graphs": get(r, n, "degree3/graphs"),
                "positions": d3_pos,
                "exceptions": dexc,
                "exception_records": records_json(r, &key(n, "degree3_exceptions")),
                "win_lose_tests": d3_tests,
                "max_win_lose_tests": d3_max,
            },
            "witnesses": witnesses,
        });
        let mut extensions = Map::new();
        for k in 3..=32usize {
            let graphs: u64 = (k..=32).map(|t| get(r, n, &format!("cover={t:02}"))).sum();
            if graphs == 0 {
                continue;
            }
            let mut e = json!({"graphs": graphs});
            if let Some(w) = r.witnesses.get(&key(n, &format!("cover_witness={k:02}"))) {
                e["smallest_base"] = json!(w.code);
                if let Some((code, start, value)) = extend(&w.code, k) {
                    e["extended_graph6"] = json!(code);
                    e["extended_start"] = json!(start);
                    e["extended_value"] = json!(value);
                }
            }
            extensions.insert(k.to_string(), e);
        }
        row["extensions"] = Value::Object(extensions);
        if param(params, "collect_min_value") > 0 {
            let c = r.records.get(&key(n, "collected"));
            row["collected"] = json!({
                "min_value": param(params, "collect_min_value"),
                "count": c.map(|s| s.total).unwrap_or(0),
                "positions": c.map(|s| s.kept.iter().map(|x| format!("{} {}", x.code, x.index)).collect::<Vec<_>>()).unwrap_or_default(),
            });
        }
        by_n.push(row);
    }
    let results_json = json!({
        "kind": "uvg",
        "params": params,
        "by_n": by_n,
    });
    let report_md = report_md(&results_json, max_value);
    LegacyRendered {
        results_json,
        report_md,
    }
}

/// Attach a new vertex to the smallest start of each value 0..k-1 of the graph
/// `base` (graph6); returns the new graph's graph6, the new vertex and its exact
/// value (which is *k when the construction is right: its options are exactly
/// those starts, on the whole connected base graph).
fn extend(base: &str, k: usize) -> Option<(String, usize, u8)> {
    let h = graph6::parse_bitgraph(base).ok()?;
    if h.n() >= BitGraph::MAX_N {
        return None;
    }
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

fn nim(v: usize) -> String {
    match v {
        0 => "0".into(),
        1 => "*".into(),
        k => format!("*{k}"),
    }
}

/// Render report.md from the results.json document only.
fn report_md(doc: &Value, max_value: usize) -> String {
    let rows = doc["by_n"].as_array().cloned().unwrap_or_default();
    let u = |v: &Value| v.as_u64().unwrap_or(0);
    let mut s = String::new();
    let max_n = doc["params"]["max_n"].as_u64().unwrap_or(0);
    let _ = writeln!(
        s,
        "# Undirected vertex geography: every connected graph on ≤ {max_n} vertices, every start\n"
    );
    let _ = writeln!(s, "Generated by `gamesweep run uvg --max-n {max_n}` from `results.json`; every number below is computed.\n");
    let _ = writeln!(s, "## Grundy values over all (graph, start) pairs\n");
    let mut head = "| n | graphs | pairs |".to_string();
    let mut sep = "|---|---|---|".to_string();
    for v in 0..=max_value {
        head.push_str(&format!(" {} |", nim(v)));
        sep.push_str("---|");
    }
    let _ = writeln!(s, "{head}\n{sep}");
    let (mut tg, mut tp, mut tf, mut tme) = (0, 0, 0, 0);
    let (mut dg, mut dp, mut de, mut dt, mut dmax) = (0, 0, 0, 0, 0);
    for row in &rows {
        let mut line = format!(
            "| {} | {} | {} |",
            row["n"],
            thousands(u(&row["graphs"])),
            thousands(u(&row["positions"]))
        );
        for v in 0..=max_value {
            let c = u(&row["grundy"][v.to_string()]);
            line.push_str(&if c == 0 {
                " |".to_string()
            } else {
                format!(" {} |", thousands(c))
            });
        }
        let _ = writeln!(s, "{line}");
        tg += u(&row["graphs"]);
        tp += u(&row["positions"]);
        tf += u(&row["first_player_wins"]);
        tme += u(&row["matching_exceptions"]);
        let d = &row["maxdeg3"];
        dg += u(&d["graphs"]);
        dp += u(&d["positions"]);
        de += u(&d["exceptions"]);
        dt += u(&d["win_lose_tests"]);
        dmax = dmax.max(u(&d["max_win_lose_tests"]));
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
    for row in &rows {
        for e in row["matching_exception_records"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let _ = writeln!(
                s,
                "- n = {}: `` {} `` start {} ({})",
                row["n"],
                e["graph6"].as_str().unwrap_or(""),
                e["start"],
                e["values"].as_str().unwrap_or("")
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
    for row in &rows {
        let d = &row["maxdeg3"];
        let p = u(&d["positions"]);
        let m = if p > 0 {
            u(&d["win_lose_tests"]) as f64 / p as f64
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {:.3} |",
            row["n"],
            thousands(u(&d["graphs"])),
            thousands(p),
            u(&d["exceptions"]),
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
    for v in 0..=max_value {
        if let Some(row) = rows
            .iter()
            .find(|row| row["witnesses"].get(v.to_string()).is_some())
        {
            let w = &row["witnesses"][v.to_string()];
            let _ = writeln!(
                s,
                "| {} | {} | {} | `` {} `` | {} |",
                nim(v),
                row["n"],
                w["edges"],
                w["graph6"].as_str().unwrap_or(""),
                w["start"]
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
    let smallest = |v: usize| {
        rows.iter()
            .find(|row| row["witnesses"].get(v.to_string()).is_some())
            .and_then(|r| r["n"].as_u64())
    };
    for k in 1..=max_value + 1 {
        let Some(a) = smallest(k - 1) else { break };
        let Some(row) = rows.iter().find(|r| r["n"].as_u64() == Some(a)) else {
            break;
        };
        let ext = &row["extensions"][k.to_string()];
        let graphs = u(&ext["graphs"]);
        if k >= 3 {
            if graphs > 0 {
                let _ = writeln!(
                    s,
                    "- *{k}: the smallest *{} has {a} vertices; {} connected {a}-vertex graphs have starts of every value 0..{}; so the smallest *{k} has exactly **{} vertices**: `` {} `` start {} (value {}).",
                    k - 1, thousands(graphs), k - 1, a + 1,
                    ext["extended_graph6"].as_str().unwrap_or("?"), ext["extended_start"], nim(u(&ext["extended_value"]) as usize)
                );
            } else if a < max_n {
                let _ = writeln!(s, "- *{k}: the smallest *{} has {a} vertices and no connected {a}-vertex graph has starts of every value 0..{}: the smallest *{k} has **at least {} vertices**.", k - 1, k - 1, a + 2);
            } else {
                let _ = writeln!(
                    s,
                    "- *{k}: the smallest *{} has {a} vertices; none of the {} connected {a}-vertex graphs has starts of every value 0..{}, so **no *{k} exists on {} vertices**: the smallest *{k} has at least {} vertices.",
                    k - 1, thousands(u(&row["graphs"])), k - 1, a + 1, a + 2
                );
            }
        }
    }
    let none_above = max_value + 1;
    let _ = writeln!(
        s,
        "\nNo position of value {} or more on ≤ {max_n} vertices.",
        nim(none_above)
    );
    for row in &rows {
        if let Some(c) = row.get("collected").filter(|c| u(&c["count"]) > 0) {
            let _ = writeln!(
                s,
                "\nn = {}: {} positions of value ≥ {} (listed in results.json).",
                row["n"],
                thousands(u(&c["count"])),
                nim(u(&c["min_value"]) as usize)
            );
        }
    }
    s
}

#[cfg(test)]
#[path = "uvg_test.rs"]
mod tests;
