//! `uvg-reduction`: the directed-to-undirected reduction of Burke–Ferland–Teng
//! on every labelled digraph with 1–3 vertices (exhaustive) plus `--random K`
//! seeded random 4-vertex digraphs, every start vertex.
//!
//! Instances are digraphs, numbered: first the exhaustive ones (n = 1, 2, 3;
//! within n by arc mask over the ordered pairs in row-major order), then the
//! random ones (`random::random_digraph4(seed, i)`). Per digraph D with
//! reduced graph U:
//! * per start s (a *position*): P/N of directed geography on D from s; the
//!   exact UVG value of (U, s) — the main claim: P ⇒ exactly *, N ⇒ neither
//!   0 nor *; and the prefix gadget in front of s — value * if (U, s) is *,
//!   else *2;
//! * per arc (a *gadget*), in U with nothing deleted but the path stated:
//!   Wrong Way — token on d, y deleted: value *2 or *3; Correct Way — token on
//!   a with x deleted has value * iff the token on y has value * after the
//!   token ran through the gadget, checked for both routes: via c (deleted
//!   x, a, b, c, d) and via f (deleted x, a, b, f, d).
//!
//! A gadget is counted once per (digraph, arc): its checks do not depend on
//! the start vertex, because every gadget position above is fixed by the
//! gadget and the path through it.

use super::{nim, parse_range, plan_ranges, record_json, thousands, EXCEPTION_CAP, SECTION5_NOTE};
use crate::bft::digraph::Digraph;
use crate::bft::random::{digraph_from_mask, random_digraph4};
use crate::bft::reduction::{Position, Reduced};
use crate::bft::solve;
use crate::sweep::{
    param, ParamDef, Params, Record, LegacyRendered, ShardCtx, ShardSpec, SweepError, UntypedKind,
    SweepResult,
};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;

/// The `uvg-reduction` sweep kind.
pub struct ReductionSweep;

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "random",
        help: "number of seeded random 4-vertex digraphs (each adds 4 positions)",
        default: Some(400),
        min: 0,
        max: 1_000_000,
    },
    ParamDef {
        name: "seed",
        help: "seed of the random digraphs (ChaCha8, one stream per digraph)",
        default: Some(1),
        min: 0,
        max: u64::MAX,
    },
];

/// The random model, stated in results.json and the report.
pub const RANDOM_MODEL: &str = "labelled digraphs on 4 vertices, uniform over all 4,096: \
digraph i is drawn from ChaCha8Rng::seed_from_u64(seed) with set_stream(i); the low 12 bits of \
its first next_u32() decide the 12 ordered pairs (i, j), i ≠ j, in row-major order \
(each an arc with probability 1/2, independently)";

/// Largest vertex count of the exhaustive part.
const EXHAUSTIVE_MAX_N: usize = 3;

/// Number of labelled loop-free digraphs on `n` vertices: 2^(n(n−1)).
fn labelled_digraphs(n: usize) -> u64 {
    1u64 << (n * (n - 1))
}

/// Digraphs in the exhaustive part (all labelled digraphs on 1..=3 vertices).
pub fn exhaustive_digraphs() -> u64 {
    (1..=EXHAUSTIVE_MAX_N).map(labelled_digraphs).sum()
}

/// Which part of the sweep an instance belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// All labelled digraphs on 1..=3 vertices.
    Exhaustive,
    /// Seeded random 4-vertex digraphs.
    Random,
}

impl Part {
    fn key(self) -> &'static str {
        match self {
            Part::Exhaustive => "exhaustive",
            Part::Random => "random",
        }
    }
}

/// Instance `idx` of the sweep: (part, number inside the part, digraph).
pub fn instance(seed: u64, idx: u64) -> (Part, u64, Digraph) {
    let mut rest = idx;
    for n in 1..=EXHAUSTIVE_MAX_N {
        let c = labelled_digraphs(n);
        if rest < c {
            return (Part::Exhaustive, idx, digraph_from_mask(n, rest as u32));
        }
        rest -= c;
    }
    (Part::Random, rest, random_digraph4(seed, rest))
}

fn total_instances(params: &Params) -> u64 {
    exhaustive_digraphs() + param(params, "random")
}

/// Positions (digraph, start) of instances `a..b`.
fn positions_in(a: u64, b: u64) -> u64 {
    let ex = exhaustive_digraphs();
    let mut p = 0;
    let mut idx = 0;
    for n in 1..=EXHAUSTIVE_MAX_N {
        let c = labelled_digraphs(n);
        let lo = a.max(idx);
        let hi = b.min(idx + c);
        if hi > lo {
            p += (hi - lo) * n as u64;
        }
        idx += c;
    }
    p + b.max(ex).saturating_sub(a.max(ex)) * 4
}

fn vkey(part: Part, what: &str, v: u32) -> String {
    format!("{}/{what}/value={v:02}", part.key())
}

struct Ctx<'a> {
    part: Part,
    number: u64,
    d: &'a Digraph,
    code: String,
    u: &'a Reduced,
}

impl Ctx<'_> {
    fn record(&self, index: u64, detail: String, note: String) -> Record {
        Record {
            vertices: self.d.n() as u32,
            edges: self.d.arc_count() as u32,
            code: self.code.clone(),
            index,
            detail: format!("{} digraph #{}: {detail}", self.part.key(), self.number),
            note,
        }
    }

    fn deleted(&self, pos: &Position) -> String {
        pos.deleted
            .iter()
            .map(|&v| self.u.label(v))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Solve `pos`, adding its search nodes to the shard's tallies.
fn solved(out: &mut SweepResult, part: Part, pos: &Position) -> u32 {
    let s = solve::value(pos);
    out.count(format!("{}/search_nodes", part.key()), s.nodes);
    out.maximum(format!("{}/search_nodes_max", part.key()), s.nodes);
    s.value
}

fn check_digraph(out: &mut SweepResult, part: Part, number: u64, d: &Digraph) {
    let u = Reduced::new(d);
    let c = Ctx {
        part,
        number,
        d,
        code: d.to_digraph6(),
        u: &u,
    };
    let p = part.key();
    out.count(format!("{p}/digraphs"), 1);
    out.count(format!("{p}/positions"), d.n() as u64);
    out.count(format!("{p}/gadgets"), d.arc_count() as u64);
    out.maximum(format!("{p}/reduced_vertices_max"), u.vertices() as u64);
    out.maximum(
        format!("{p}/prefixed_vertices_max"),
        u.vertices() as u64 + 4,
    );
    for (s, wins) in d.first_player_wins_all().into_iter().enumerate() {
        let value = solved(out, part, &u.start(s));
        let class = if wins { "N" } else { "P" };
        out.count(vkey(part, &format!("main/{class}"), value), 1);
        let ok = if wins {
            value != 0 && value != 1
        } else {
            value == 1
        };
        if !ok {
            out.record(
                "exceptions/main",
                EXCEPTION_CAP,
                c.record(
                    s as u64,
                    format!("start {s}, reduced graph on {} vertices", u.vertices()),
                    format!(
                        "geography={class} uvg_value={} (claim: P ⇒ *, N ⇒ not 0 and not *)",
                        nim(value as u64)
                    ),
                ),
            );
        }
        let pg = u.prefixed(s);
        let pv = solved(out, part, &pg.position);
        out.count(vkey(part, "prefix", pv), 1);
        let want = if value == 1 { 1 } else { 2 };
        if pv != want {
            out.record(
                "exceptions/prefix",
                EXCEPTION_CAP,
                c.record(
                    s as u64,
                    format!(
                        "start {s}, prefix gadget start={} start0={} p={} p0={}",
                        pg.start, pg.start0, pg.p, pg.p0
                    ),
                    format!(
                        "value(s)={} value(start)={} expected {}",
                        nim(value as u64),
                        nim(pv as u64),
                        nim(want as u64)
                    ),
                ),
            );
        }
    }
    check_contexts(out, &c);
    for (i, g) in u.gadgets().iter().enumerate() {
        let what = format!("arc {}→{} (gadget {i})", g.x, g.y);
        let ww = u.wrong_way(g);
        let w = solved(out, part, &ww);
        out.count(vkey(part, "wrong_way", w), 1);
        let rec = c.record(
            i as u64,
            format!("{what}: token on d, deleted {}", c.deleted(&ww)),
            format!("wrong_way_value={}", nim(w as u64)),
        );
        if w == 2 || w == 3 {
            out.witness(format!("wrong_way_example/value={w:02}"), rec);
        } else {
            out.record("exceptions/wrong_way", EXCEPTION_CAP, rec);
        }
        let entry = solved(out, part, &u.correct_way_entry(g));
        let via_c = solved(out, part, &u.correct_way_exit_via_c(g));
        let via_f = solved(out, part, &u.correct_way_exit_via_f(g));
        out.count(vkey(part, "correct_way/entry", entry), 1);
        out.count(vkey(part, "correct_way/exit_via_c", via_c), 1);
        out.count(vkey(part, "correct_way/exit_via_f", via_f), 1);
        for (route, exit) in [("c", via_c), ("f", via_f)] {
            if (entry == 1) != (exit == 1) {
                out.record(
                    "exceptions/correct_way",
                    EXCEPTION_CAP,
                    c.record(
                        i as u64,
                        format!("{what}: exit via {route}"),
                        format!(
                            "after x→a: {}; after d→y via {route}: {}",
                            nim(entry as u64),
                            nim(exit as u64)
                        ),
                    ),
                );
            }
        }
    }
}

/// The lemmas in every play context: for each position reachable from any
/// start with the token on a digraph vertex (see
/// [`Reduced::digraph_vertex_contexts`]) and each gadget that can be entered
/// from there with its interior untouched — forwards from x (a remaining):
/// Correct Way, with both exits when y remains; backwards from y (d
/// remaining): Wrong Way.
fn check_contexts(out: &mut SweepResult, c: &Ctx<'_>) {
    let (part, u) = (c.part, c.u);
    let p = part.key();
    let Some(contexts) = u.digraph_vertex_contexts() else {
        out.count(format!("{p}/context/skipped_digraphs"), 1);
        return;
    };
    let has = |set: u128, v: usize| set >> v & 1 == 1;
    for (tok, comp) in contexts {
        out.count(format!("{p}/context/states"), 1);
        for (i, g) in u.gadgets().iter().enumerate() {
            let what = || {
                format!(
                    "arc {}→{} (gadget {i}) in context token {} with remaining component {}",
                    g.x,
                    g.y,
                    u.label(tok),
                    u.label_set(comp)
                )
            };
            if g.x == tok && has(comp, g.a) {
                let entry = solved(out, part, &u.context_position(g.a, comp, &[g.x]));
                out.count(format!("{p}/context/correct_way_entries"), 1);
                if has(comp, g.y) {
                    out.count(format!("{p}/context/correct_way"), 1);
                    let via_c = solved(
                        out,
                        part,
                        &u.context_position(g.y, comp, &[g.x, g.a, g.b, g.c, g.d]),
                    );
                    let via_f = solved(
                        out,
                        part,
                        &u.context_position(g.y, comp, &[g.x, g.a, g.b, g.f, g.d]),
                    );
                    for (route, exit) in [("c", via_c), ("f", via_f)] {
                        if (entry == 1) != (exit == 1) {
                            out.record(
                                "exceptions/context_correct_way",
                                EXCEPTION_CAP,
                                c.record(
                                    i as u64,
                                    format!("{}: exit via {route}", what()),
                                    format!(
                                        "after x→a: {}; after d→y via {route}: {}",
                                        nim(entry as u64),
                                        nim(exit as u64)
                                    ),
                                ),
                            );
                        }
                    }
                }
            }
            if g.y == tok && has(comp, g.d) {
                let w = solved(out, part, &u.context_position(g.d, comp, &[g.y]));
                out.count(vkey(part, "context/wrong_way", w), 1);
                if w != 2 && w != 3 {
                    out.record(
                        "exceptions/context_wrong_way",
                        EXCEPTION_CAP,
                        c.record(
                            i as u64,
                            what(),
                            format!("wrong_way_value={}", nim(w as u64)),
                        ),
                    );
                }
            }
        }
    }
}

impl UntypedKind for ReductionSweep {
    fn name(&self) -> &'static str {
        "uvg-reduction"
    }

    fn about(&self) -> &'static str {
        "Burke-Ferland-Teng reduction: all digraphs on 1..3 vertices + random 4-vertex digraphs, every start; main claim, Wrong/Correct Way lemmas, prefix gadget"
    }

    fn params(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        Ok(plan_ranges(
            total_instances(params),
            target_shards,
            16,
            positions_in,
        ))
    }

    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError> {
        let (a, b) = parse_range(self.name(), &shard.payload, total_instances(params))?;
        let seed = param(params, "seed");
        let mut out = SweepResult::default();
        for idx in a..b {
            ctx.check()?;
            let (part, number, d) = instance(seed, idx);
            check_digraph(&mut out, part, number, &d);
            out.work += d.n() as u64;
            ctx.add_progress(d.n() as u64);
        }
        Ok(out)
    }

    fn render(&self, params: &Params, merged: &SweepResult) -> LegacyRendered {
        render(params, merged)
    }
}

/// `{value: count}` of counters `{part}/{what}/value=VV`, summed over `parts`.
fn histogram(r: &SweepResult, parts: &[Part], what: &str) -> Map<String, Value> {
    let mut m = Map::new();
    for v in 0..64u32 {
        let c: u64 = parts.iter().map(|&p| r.counter(&vkey(p, what, v))).sum();
        if c > 0 {
            m.insert(v.to_string(), json!(c));
        }
    }
    m
}

fn hist_total(h: &Map<String, Value>) -> u64 {
    h.values().filter_map(Value::as_u64).sum()
}

fn exceptions_json(r: &SweepResult, key: &str) -> Value {
    let set = r.records.get(key);
    json!({
        "count": set.map(|s| s.total).unwrap_or(0),
        "records": set.map(|s| s.kept.iter().map(record_json).collect::<Vec<_>>()).unwrap_or_default(),
    })
}

fn part_json(r: &SweepResult, parts: &[Part]) -> Value {
    let sum = |what: &str| -> u64 {
        parts
            .iter()
            .map(|p| r.counter(&format!("{}/{what}", p.key())))
            .sum()
    };
    let max = |what: &str| -> u64 {
        parts
            .iter()
            .filter_map(|p| r.maxima.get(&format!("{}/{what}", p.key())).copied())
            .max()
            .unwrap_or(0)
    };
    json!({
        "digraphs": sum("digraphs"),
        "positions": sum("positions"),
        "gadgets": sum("gadgets"),
        "reduced_vertices_max": max("reduced_vertices_max"),
        "prefixed_vertices_max": max("prefixed_vertices_max"),
        "main_p_values": histogram(r, parts, "main/P"),
        "main_n_values": histogram(r, parts, "main/N"),
        "prefix_values": histogram(r, parts, "prefix"),
        "wrong_way_values": histogram(r, parts, "wrong_way"),
        "correct_way_entry_values": histogram(r, parts, "correct_way/entry"),
        "correct_way_exit_via_c_values": histogram(r, parts, "correct_way/exit_via_c"),
        "correct_way_exit_via_f_values": histogram(r, parts, "correct_way/exit_via_f"),
        "context_states": sum("context/states"),
        "context_correct_way_entries": sum("context/correct_way_entries"),
        "context_correct_way_with_exit": sum("context/correct_way"),
        "context_wrong_way_values": histogram(r, parts, "context/wrong_way"),
        "context_skipped_digraphs": sum("context/skipped_digraphs"),
        "search_nodes": sum("search_nodes"),
        "search_nodes_max_one_position": max("search_nodes_max"),
    })
}

fn render(params: &Params, r: &SweepResult) -> LegacyRendered {
    let examples: Map<String, Value> = r
        .witnesses
        .iter()
        .filter_map(|(k, w)| {
            k.strip_prefix("wrong_way_example/value=")
                .and_then(|v| v.parse::<u64>().ok())
                .map(|v| (v.to_string(), record_json(w)))
        })
        .collect();
    let results_json = json!({
        "kind": "uvg-reduction",
        "params": params,
        "exhaustive_model": "every labelled loop-free digraph on 1, 2, 3 vertices (2^(n(n-1)) each), every start",
        "random_model": RANDOM_MODEL,
        "gadget_count": "one gadget per (digraph, arc); its lemma checks do not depend on the start",
        "wrong_way_position": "token on d, deleted: y",
        "correct_way_positions": {
            "entry": "token on a, deleted: x",
            "exit_via_c": "token on y, deleted: x, a, b, c, d",
            "exit_via_f": "token on y, deleted: x, a, b, f, d",
        },
        "exhaustive": part_json(r, &[Part::Exhaustive]),
        "random": part_json(r, &[Part::Random]),
        "total": part_json(r, &[Part::Exhaustive, Part::Random]),
        "wrong_way_examples": examples,
        "exceptions": {
            "main": exceptions_json(r, "exceptions/main"),
            "prefix": exceptions_json(r, "exceptions/prefix"),
            "wrong_way": exceptions_json(r, "exceptions/wrong_way"),
            "correct_way": exceptions_json(r, "exceptions/correct_way"),
            "context_wrong_way": exceptions_json(r, "exceptions/context_wrong_way"),
            "context_correct_way": exceptions_json(r, "exceptions/context_correct_way"),
        },
        "contexts": "every position reachable in play on U from any start with the token on a digraph vertex, counted once per digraph; in each, every gadget entered forwards from x with a remaining (Correct Way; both exits when y remains) and every gadget entered backwards from y with d remaining (Wrong Way)",
        "not_covered": SECTION5_NOTE,
    });
    let report_md = report_md(&results_json);
    LegacyRendered {
        results_json,
        report_md,
    }
}

fn values_line(h: &Value) -> String {
    let Some(m) = h.as_object() else {
        return String::new();
    };
    let mut items: Vec<(u64, u64)> = m
        .iter()
        .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_u64()?)))
        .collect();
    items.sort_unstable();
    items
        .iter()
        .map(|(v, c)| format!("{} ×{}", nim(*v), thousands(*c)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Render report.md from the results.json document only.
fn report_md(doc: &Value) -> String {
    let u = |v: &Value| v.as_u64().unwrap_or(0);
    let t = &doc["total"];
    let ex = &doc["exhaustive"];
    let rn = &doc["random"];
    let exc = |k: &str| u(&doc["exceptions"][k]["count"]);
    let k = u(&doc["params"]["random"]);
    let seed = u(&doc["params"]["seed"]);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Burke–Ferland–Teng: directed → undirected geography reduction\n"
    );
    let _ = writeln!(
        s,
        "Reproduce with `gamesweep run uvg-reduction --random {k} --seed {seed}`. LegacyRendered from `results.json`; every number below is computed.\n"
    );
    let _ = writeln!(s, "## Instances\n");
    let _ = writeln!(
        s,
        "- Exhaustive: every labelled digraph on 1–3 vertices ({} digraphs), every start: **{} positions**, {} gadgets.",
        thousands(u(&ex["digraphs"])),
        thousands(u(&ex["positions"])),
        thousands(u(&ex["gadgets"]))
    );
    let _ = writeln!(
        s,
        "- Random: {} digraphs on 4 vertices, seed {seed}, every start: **{} positions**, {} gadgets. Model: {}.",
        thousands(u(&rn["digraphs"])),
        thousands(u(&rn["positions"])),
        thousands(u(&rn["gadgets"])),
        doc["random_model"].as_str().unwrap_or("")
    );
    let _ = writeln!(
        s,
        "- In all: **{} positions**, **{} gadgets**; reduced graphs up to {} vertices ({} with the prefix gadget); {} exact-search nodes in all, at most {} for one position.",
        thousands(u(&t["positions"])),
        thousands(u(&t["gadgets"])),
        u(&t["reduced_vertices_max"]),
        u(&t["prefixed_vertices_max"]),
        thousands(u(&t["search_nodes"])),
        thousands(u(&t["search_nodes_max_one_position"]))
    );
    let _ = writeln!(
        s,
        "- Gadget count: {}. (The seed gave its gadget count without a counting rule — see spec/focs-constructions.md; this count is ours.)\n",
        doc["gadget_count"].as_str().unwrap_or("")
    );
    let _ = writeln!(s, "## Checks\n");
    let p_total = hist_total(t["main_p_values"].as_object().unwrap_or(&Map::new()));
    let n_total = hist_total(t["main_n_values"].as_object().unwrap_or(&Map::new()));
    let _ = writeln!(
        s,
        "- Main claim (P-position of directed geography ⇒ UVG value exactly *; N-position ⇒ neither 0 nor *): {} positions, **{} exceptions**. P-positions: {} (values: {}); N-positions: {} (values: {}).",
        thousands(u(&t["positions"])),
        exc("main"),
        thousands(p_total),
        values_line(&t["main_p_values"]),
        thousands(n_total),
        values_line(&t["main_n_values"])
    );
    let _ = writeln!(
        s,
        "- Wrong Way (token enters a gadget backwards: {}; value *2 or *3): {} gadgets, **{} exceptions**; values: {}.",
        doc["wrong_way_position"].as_str().unwrap_or(""),
        thousands(u(&t["gadgets"])),
        exc("wrong_way"),
        values_line(&t["wrong_way_values"])
    );
    let ww = &t["wrong_way_values"];
    let both = u(&ww["2"]) > 0 && u(&ww["3"]) > 0;
    let _ = writeln!(
        s,
        "  Both *2 and *3 occur: **{}**.",
        if both { "yes" } else { "no" }
    );
    for v in ["2", "3"] {
        if let Some(e) = doc["wrong_way_examples"].get(v) {
            let _ = writeln!(
                s,
                "  Smallest *{v} (witness order): digraph `{}`, {}.",
                e["code"].as_str().unwrap_or(""),
                e["detail"].as_str().unwrap_or("")
            );
        }
    }
    let cw = &doc["correct_way_positions"];
    let _ = writeln!(
        s,
        "- Correct Way (after x → a [{}] the value is * ⇔ after d → y it is *): {} gadgets, both routes checked, **{} exceptions**. When the token reaches y, the deleted vertices are, via c: {}; via f: {}. Values after x → a: {}; after d → y via c: {}; via f: {}.",
        cw["entry"].as_str().unwrap_or(""),
        thousands(u(&t["gadgets"])),
        exc("correct_way"),
        cw["exit_via_c"].as_str().unwrap_or("").trim_start_matches("token on y, deleted: "),
        cw["exit_via_f"].as_str().unwrap_or("").trim_start_matches("token on y, deleted: "),
        values_line(&t["correct_way_entry_values"]),
        values_line(&t["correct_way_exit_via_c_values"]),
        values_line(&t["correct_way_exit_via_f_values"])
    );
    let _ = writeln!(
        s,
        "- Prefix gadget (start–start0, start–p, p–p0, p–s, token on start: value * if (U, s) is *, else *2): {} positions, **{} exceptions**; values: {}.",
        thousands(hist_total(t["prefix_values"].as_object().unwrap_or(&Map::new()))),
        exc("prefix"),
        values_line(&t["prefix_values"])
    );
    let ctx_ww = hist_total(
        t["context_wrong_way_values"]
            .as_object()
            .unwrap_or(&Map::new()),
    );
    let _ = writeln!(
        s,
        "- The two lemmas in play contexts ({}): {} contexts (positions with the token on a digraph vertex); Wrong Way entered {} times, **{} exceptions**, values: {}; Correct Way entered {} times, {} of them with y remaining (both exits checked), **{} exceptions**. Digraphs skipped (reduced graph over 128 vertices): {}.",
        doc["contexts"].as_str().unwrap_or(""),
        thousands(u(&t["context_states"])),
        thousands(ctx_ww),
        exc("context_wrong_way"),
        values_line(&t["context_wrong_way_values"]),
        thousands(u(&t["context_correct_way_entries"])),
        thousands(u(&t["context_correct_way_with_exit"])),
        exc("context_correct_way"),
        u(&t["context_skipped_digraphs"])
    );
    let all = exc("main")
        + exc("wrong_way")
        + exc("correct_way")
        + exc("prefix")
        + exc("context_wrong_way")
        + exc("context_correct_way");
    if all > 0 {
        let _ = writeln!(s, "\n## Exceptions ({all}; this is news)\n");
        for key in [
            "main",
            "wrong_way",
            "correct_way",
            "prefix",
            "context_wrong_way",
            "context_correct_way",
        ] {
            for e in doc["exceptions"][key]["records"]
                .as_array()
                .into_iter()
                .flatten()
            {
                let _ = writeln!(
                    s,
                    "- {key}: digraph `{}` ({} vertices, {} arcs), {}: {}",
                    e["code"].as_str().unwrap_or(""),
                    e["vertices"],
                    e["edges"],
                    e["detail"].as_str().unwrap_or(""),
                    e["note"].as_str().unwrap_or("")
                );
            }
        }
    }
    let _ = writeln!(s, "\n## Not covered\n");
    let _ = writeln!(s, "{}", doc["not_covered"].as_str().unwrap_or(""));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::legacy::{resolve_params, run_all_sequential};

    #[test]
    fn instance_numbering() {
        assert_eq!(exhaustive_digraphs(), 1 + 4 + 64);
        let (p, _, d) = instance(1, 0);
        assert_eq!((p, d.n()), (Part::Exhaustive, 1));
        let (_, _, d) = instance(1, 4);
        assert_eq!((d.n(), d.arc_count()), (2, 2));
        let (_, _, d) = instance(1, 68);
        assert_eq!((d.n(), d.arc_count()), (3, 6));
        let (p, i, d) = instance(9, 69 + 5);
        assert_eq!((p, i), (Part::Random, 5));
        assert_eq!(d, random_digraph4(9, 5));
        // 201 exhaustive positions: 1·1 + 2·4 + 3·64.
        assert_eq!(positions_in(0, 69), 201);
        assert_eq!(positions_in(0, 69 + 400), 1801);
        assert_eq!(positions_in(3, 70), positions_in(3, 69) + 4);
    }

    fn params(random: u64, seed: u64) -> Params {
        resolve_params(
            &ReductionSweep,
            &[("random".to_string(), random), ("seed".to_string(), seed)].into(),
        )
        .unwrap()
    }

    fn doc(p: &Params, shards: u32) -> Value {
        let plan = ReductionSweep.plan(p, shards).unwrap();
        let merged = run_all_sequential(&ReductionSweep, p, &plan).unwrap();
        ReductionSweep.render(p, &merged).results_json
    }

    /// The headline run: `--random 400` gives exactly 1,801 positions (201
    /// exhaustive + 1,600), every claim holds, both Wrong Way values occur,
    /// and the gadget count equals the arcs of the instances, recounted here.
    #[test]
    fn headline_run_has_1801_positions_and_no_exceptions() {
        let p = params(400, 1);
        let d = doc(&p, 0);
        assert_eq!(d["exhaustive"]["positions"], 201);
        assert_eq!(d["random"]["positions"], 1600);
        assert_eq!(d["total"]["positions"], 1801);
        let arcs: u64 = (0..exhaustive_digraphs() + 400)
            .map(|i| instance(1, i).2.arc_count() as u64)
            .sum();
        assert_eq!(d["total"]["gadgets"], arcs);
        assert_eq!(d["exhaustive"]["gadgets"], 2 * 2 + 6 * 32);
        for k in [
            "main",
            "prefix",
            "wrong_way",
            "correct_way",
            "context_wrong_way",
            "context_correct_way",
        ] {
            assert_eq!(d["exceptions"][k]["count"], 0, "{k}");
        }
        // The play contexts include every start, so they cover the
        // context-free checks: at least one Wrong Way / Correct Way per gadget.
        let ctx_ww: u64 = d["total"]["context_wrong_way_values"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert!(ctx_ww >= arcs);
        assert!(
            d["total"]["context_correct_way_with_exit"]
                .as_u64()
                .unwrap()
                >= arcs
        );
        assert_eq!(d["total"]["context_skipped_digraphs"], 0);
        let ww = &d["total"]["wrong_way_values"];
        assert!(ww["2"].as_u64().unwrap() > 0 && ww["3"].as_u64().unwrap() > 0);
        assert_eq!(
            ww["2"].as_u64().unwrap() + ww["3"].as_u64().unwrap(),
            arcs,
            "every Wrong Way value is *2 or *3"
        );
        // P/N split agrees with directed geography, recomputed here.
        let p_count: u64 = (0..exhaustive_digraphs() + 400)
            .map(|i| {
                let g = instance(1, i).2;
                g.first_player_wins_all().iter().filter(|w| !**w).count() as u64
            })
            .sum();
        assert_eq!(d["total"]["main_p_values"]["1"], p_count);
        let report = ReductionSweep.render(&p, &{
            let plan = ReductionSweep.plan(&p, 3).unwrap();
            run_all_sequential(&ReductionSweep, &p, &plan).unwrap()
        });
        assert!(report.report_md.contains("**1,801 positions**"));
        assert!(report.report_md.contains("Section 5"));
    }

    #[test]
    fn result_does_not_depend_on_the_plan() {
        let p = params(30, 7);
        let a = doc(&p, 1);
        for shards in [2, 5, 99, 1000] {
            assert_eq!(a, doc(&p, shards), "shards = {shards}");
        }
        assert_ne!(a, doc(&params(30, 8), 1), "the seed matters");
    }

    /// The complete digraph on 4 vertices: the largest reduced graph
    /// (4 + 4 + 12·8 = 104 vertices), every start, every gadget.
    #[test]
    fn complete_digraph_on_four_vertices() {
        let d = digraph_from_mask(4, 0xfff);
        let mut out = SweepResult::default();
        check_digraph(&mut out, Part::Random, 0, &d);
        assert_eq!(out.maxima["random/reduced_vertices_max"], 104);
        assert!(out.records.is_empty(), "{:?}", out.records);
        // Complete digraph on 4 vertices: the token walks a Hamiltonian path,
        // 3 moves, so the first player wins from every start.
        assert_eq!(d.first_player_wins_all(), vec![true; 4]);
        assert_eq!(out.counter("random/positions"), 4);
        assert_eq!(out.counter("random/gadgets"), 12);
    }

    #[test]
    fn bad_payloads_are_errors() {
        let p = params(10, 1);
        for payload in ["", "range 0", "range 5 4", "range 0 80", "prefixes 1 A"] {
            let shard = ShardSpec {
                index: 0,
                payload: payload.into(),
                estimate: 0,
            };
            assert!(
                matches!(
                    ReductionSweep.run_shard(&p, &shard, &ShardCtx::detached()),
                    Err(SweepError::BadShard { .. })
                ),
                "{payload:?}"
            );
        }
    }
}
