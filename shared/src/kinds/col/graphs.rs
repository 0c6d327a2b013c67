//! `col` (Col on every connected graph, Conway's "Col is cold") and
//! `engine-check` (the solver against the naive search).
//!
//! `col --max-n N`: every connected graph on 1..=N vertices (one per
//! isomorphism class, from [`crate::gen`]), every assignment of
//! {uncoloured, blue, red} without a same-colour edge. Per n: graphs,
//! positions, non-cold positions (recorded), the value distribution with the
//! smallest position of each value, the largest denominator, and the values
//! of the empty boards (0 or *, by symmetry). Shards: canonical-form prefixes
//! ([`crate::sweep::graphplan`]).
//!
//! `engine-check`: the outcome class from the canonical value against
//! [`crate::col::naive`] on every Col position of a connected graph with ≤ 6
//! vertices and every Myopic position of a labelled digraph on 2..4 vertices.

use super::*;
use crate::cgt::Outcome;
use crate::col::{naive, Board, Solver, SolverOptions};
use crate::graph::{graph6, BitGraph};
use crate::sweep::graphplan;
use crate::sweep::{param, ParamDef, Params, LegacyRendered, ShardCtx, ShardSpec, SweepError, UntypedKind};
use std::fmt::Write as _;

/// The `col` sweep kind.
pub struct ColSweep;
/// The `engine-check` sweep kind.
pub struct EngineCheckSweep;

const COL_PARAMS: &[ParamDef] = &[ParamDef {
    name: "max_n",
    help: "largest vertex count",
    default: Some(8),
    min: 1,
    max: 10,
}];

/// Call `f(blue, red)` for every colouring of `g` without a same-colour edge.
pub fn proper_colourings(g: &BitGraph, f: &mut dyn FnMut(u32, u32)) {
    fn rec(g: &BitGraph, v: usize, blue: u32, red: u32, f: &mut dyn FnMut(u32, u32)) {
        if v == g.n() {
            f(blue, red);
            return;
        }
        rec(g, v + 1, blue, red, f);
        let nb = g.nbrs(v);
        if nb & blue == 0 {
            rec(g, v + 1, blue | 1 << v, red, f);
        }
        if nb & red == 0 {
            rec(g, v + 1, blue, red | 1 << v, f);
        }
    }
    rec(g, 0, 0, 0, f);
}

fn col_board(g: &BitGraph) -> Board {
    Board::col(g.n(), &g.edges().collect::<Vec<_>>())
}

impl UntypedKind for ColSweep {
    fn name(&self) -> &'static str {
        "col"
    }
    fn about(&self) -> &'static str {
        "Col on every connected graph and colouring: values, cold check (ONAG), empty boards"
    }
    fn params(&self) -> &'static [ParamDef] {
        COL_PARAMS
    }
    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        Ok(graphplan::plan_payloads(
            param(params, "max_n") as usize,
            target_shards,
            graphplan::Work::None,
        ))
    }
    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError> {
        let max_n = param(params, "max_n") as usize;
        let gs = graphplan::parse(self.name(), &shard.payload)?;
        let mut solver = Solver::new(SolverOptions::default());
        let zero = solver.engine.zero();
        let star = solver.engine.star();
        let mut out = SweepResult::default();
        let mut tally = ValueTally::default();
        let mut cancelled = false;
        graphplan::walk_connected(&gs, max_n, &mut |g| {
            if cancelled || ctx.cancelled() {
                cancelled = true;
                return;
            }
            let n = g.n();
            let b = col_board(g);
            let code = graph6::encode_bitgraph(g);
            let edges = g.edge_count();
            let mut positions = 0u64;
            proper_colourings(g, &mut |blue, red| {
                positions += 1;
                let v = solver.value(&b, b.position_masks(blue, red));
                tally.add(n, v, edges, &code, blue, red);
                if !solver.engine.is_cold(v) {
                    let s = solver.engine.display(v);
                    out.record(
                        "non_cold",
                        RECORD_CAP,
                        position_record(n, edges, &code, blue, red, format!("value {s}")),
                    );
                    out.count(format!("n={n:02}/non_cold"), 1);
                }
                if blue | red == 0 {
                    let which = if v == zero {
                        "empty_zero"
                    } else if v == star {
                        "empty_star"
                    } else {
                        "empty_other"
                    };
                    out.count(format!("n={n:02}/{which}"), 1);
                }
            });
            out.count(format!("n={n:02}/graphs"), 1);
            out.count(format!("n={n:02}/positions"), positions);
            out.work += positions;
            ctx.add_progress(positions);
        });
        if cancelled {
            return Err(SweepError::Cancelled);
        }
        tally.emit(&mut solver.engine, &mut out);
        Ok(out)
    }
    fn render(&self, params: &Params, r: &SweepResult) -> LegacyRendered {
        let max_n = param(params, "max_n") as usize;
        let c = |n: usize, k: &str| r.counter(&format!("n={n:02}/{k}"));
        let mut md = String::new();
        let _ = writeln!(md, "# Col on connected graphs: every value is cold\n");
        let _ = writeln!(md, "Connected graphs on 1..={max_n} vertices (one per isomorphism class), every colouring without a same-colour edge. Cold = a number x or x + *.\n");
        let _ = writeln!(md, "| n | graphs | positions | non-cold | distinct values | largest denominator | empty board 0 | empty board * | empty other |\n|---|---|---|---|---|---|---|---|---|");
        let mut rows = Vec::new();
        let (mut tg, mut tp, mut tnc) = (0, 0, 0);
        for n in 1..=max_n {
            let den = r
                .maxima
                .get(&format!("n={n:02}/max_denominator"))
                .copied()
                .unwrap_or(0);
            let row = json!({
                "n": n, "graphs": c(n, "graphs"), "positions": c(n, "positions"),
                "non_cold": c(n, "non_cold"), "distinct_values": distinct_in(r, n),
                "largest_denominator": den, "empty_zero": c(n, "empty_zero"),
                "empty_star": c(n, "empty_star"), "empty_other": c(n, "empty_other"),
            });
            tg += c(n, "graphs");
            tp += c(n, "positions");
            tnc += c(n, "non_cold");
            let _ = writeln!(
                md,
                "| {n} | {} | {} | {} | {} | {den} | {} | {} | {} |",
                thousands(c(n, "graphs")),
                thousands(c(n, "positions")),
                c(n, "non_cold"),
                distinct_in(r, n),
                thousands(c(n, "empty_zero")),
                thousands(c(n, "empty_star")),
                c(n, "empty_other")
            );
            rows.push(row);
        }
        let values = value_table(r);
        let den_all = (1..=max_n)
            .filter_map(|n| r.maxima.get(&format!("n={n:02}/max_denominator")).copied())
            .max()
            .unwrap_or(0);
        let _ = writeln!(
            md,
            "| total | {} | {} | {tnc} | {} | {den_all} | | | |\n",
            thousands(tg),
            thousands(tp),
            values.len()
        );
        if let Some(set) = r.records.get("non_cold") {
            let _ = writeln!(md, "## Non-cold positions: {}\n", set.total);
            for x in &set.kept {
                let _ = writeln!(md, "- {}", record_md(x));
            }
            md.push('\n');
        }
        let _ = writeln!(md, "## Values ({} distinct)\n\nSmallest position of each value (witness order: vertices, edges, graph6, colouring index; `.` uncoloured, `L` blue, `R` red).\n\n| value | positions | smallest position |\n|---|---|---|", values.len());
        let mut vals = Vec::new();
        for (s, cnt) in &values {
            let w = r.witnesses.get(&format!("value={s}"));
            let _ = writeln!(
                md,
                "| {s} | {} | {} |",
                thousands(*cnt),
                w.map_or(String::new(), |w| format!(
                    "`{}` {} vertices, {}",
                    w.code, w.vertices, w.detail
                ))
            );
            vals.push(json!({"value": s, "positions": cnt, "smallest": w.map(record_json)}));
        }
        LegacyRendered {
            results_json: json!({
                "kind": "col",
                "params": {"max_n": max_n},
                "by_n": rows,
                "totals": {"graphs": tg, "positions": tp, "non_cold": tnc, "distinct_values": values.len(), "largest_denominator": den_all},
                "non_cold": records_json(r, "non_cold"),
                "values": vals,
            }),
            report_md: md,
        }
    }
}

/// Labelled digraph number `code` on `n` vertices: base-4 digit per pair
/// `(i, j)`, `i < j`, pairs in graph6 column order `(0,1), (0,2), (1,2), (0,3), …`;
/// digit 0 none, 1 `i → j`, 2 `j → i`, 3 both.
pub fn digraph_from_index(n: usize, mut code: u64) -> Vec<(usize, usize)> {
    let mut arcs = Vec::new();
    for j in 1..n {
        for i in 0..j {
            match code % 4 {
                1 => arcs.push((i, j)),
                2 => arcs.push((j, i)),
                3 => {
                    arcs.push((i, j));
                    arcs.push((j, i));
                }
                _ => {}
            }
            code /= 4;
        }
    }
    arcs
}

/// digraph6 of a board.
pub fn board_digraph6(b: &Board) -> String {
    graph6::encode_digraph_with(b.n(), |i, j| b.look(i) >> j & 1 == 1)
}

/// Colouring number `c` (base 3, vertex 0 least significant) as blue/red masks.
pub fn colouring_from_index(n: usize, mut c: u64) -> (u32, u32) {
    let (mut blue, mut red) = (0, 0);
    for v in 0..n {
        match c % 3 {
            1 => blue |= 1 << v,
            2 => red |= 1 << v,
            _ => {}
        }
        c /= 3;
    }
    (blue, red)
}

/// Shards of the exhaustive labelled-digraph set on 2..=4 vertices: `exh n lo hi` (digraph index range).
pub fn digraph_shards(parts_for_4: u64) -> Vec<String> {
    let mut v = vec!["exh 2 0 4".to_string(), "exh 3 0 64".to_string()];
    let parts = parts_for_4.max(1);
    for p in 0..parts {
        v.push(format!(
            "exh 4 {} {}",
            4096 * p / parts,
            4096 * (p + 1) / parts
        ));
    }
    v
}

/// Parse `exh n lo hi`.
pub fn parse_exh(kind: &str, payload: &str) -> Result<(usize, u64, u64), SweepError> {
    let w: Vec<&str> = payload.split_ascii_whitespace().collect();
    let bad = || SweepError::BadShard {
        kind: kind.into(),
        reason: format!("bad payload `{payload:.60}`"),
    };
    if w.len() != 4 || w[0] != "exh" {
        return Err(bad());
    }
    let n: usize = w[1].parse().map_err(|_| bad())?;
    let lo: u64 = w[2].parse().map_err(|_| bad())?;
    let hi: u64 = w[3].parse().map_err(|_| bad())?;
    if !(2..=4).contains(&n) || lo > hi || hi > 4u64.pow((n * (n - 1) / 2) as u32) {
        return Err(bad());
    }
    Ok((n, lo, hi))
}

impl UntypedKind for EngineCheckSweep {
    fn name(&self) -> &'static str {
        "engine-check"
    }
    fn about(&self) -> &'static str {
        "the canonical-value solver against a naive win/lose search: Col ≤ 6 vertices, Myopic digraphs ≤ 4"
    }
    fn params(&self) -> &'static [ParamDef] {
        &[]
    }
    fn plan(&self, _params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        let mut payloads = vec!["col".to_string()];
        payloads.extend(digraph_shards(if target_shards == 0 {
            8
        } else {
            target_shards as u64
        }));
        Ok(crate::sweep::numbered(payloads.into_iter().map(|p| (p, 0))))
    }
    fn run_shard(
        &self,
        _params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError> {
        let mut solver = Solver::new(SolverOptions::default());
        let mut out = SweepResult::default();
        let mut check = |out: &mut SweepResult,
                         part: &str,
                         b: &Board,
                         code: &str,
                         edges: usize,
                         blue: u32,
                         red: u32| {
            let g = solver.value(b, b.position_masks(blue, red));
            let o = solver.engine.outcome(g);
            let want: Outcome = naive::outcome(b, blue, red);
            out.count(format!("{part}/positions"), 1);
            out.work += 1;
            if o != want {
                let s = solver.engine.display(g);
                out.record(
                    format!("{part}/disagreements"),
                    RECORD_CAP,
                    position_record(
                        b.n(),
                        edges,
                        code,
                        blue,
                        red,
                        format!("value {s} outcome {o}, naive {want}"),
                    ),
                );
            }
        };
        if shard.payload == "col" {
            let opts = crate::gen::WalkOptions {
                connected_only: true,
                min_n: 1,
            };
            crate::gen::walk_filtered(&BitGraph::new(0), 6, opts, &mut |g| {
                let b = col_board(g);
                let code = graph6::encode_bitgraph(g);
                proper_colourings(g, &mut |blue, red| {
                    check(&mut out, "col", &b, &code, g.edge_count(), blue, red)
                });
            });
        } else {
            let (n, lo, hi) = parse_exh(self.name(), &shard.payload)?;
            for idx in lo..hi {
                ctx.check()?;
                let b = Board::myopic(n, &digraph_from_index(n, idx));
                let code = board_digraph6(&b);
                for c in 0..3u64.pow(n as u32) {
                    let (blue, red) = colouring_from_index(n, c);
                    check(&mut out, "myopic", &b, &code, b.arc_count(), blue, red);
                }
            }
        }
        Ok(out)
    }
    fn render(&self, _params: &Params, r: &SweepResult) -> LegacyRendered {
        let mut md = String::from("# Engine check: canonical values vs naive win/lose search\n\n| set | positions | disagreements |\n|---|---|---|\n");
        let mut parts = serde_json::Map::new();
        for (part, label) in [
            (
                "col",
                "Col, connected graphs ≤ 6 vertices, colourings without a same-colour edge",
            ),
            (
                "myopic",
                "Myopic Col, labelled digraphs on 2..4 vertices, all colourings",
            ),
        ] {
            let p = r.counter(&format!("{part}/positions"));
            let d = records_total(r, &format!("{part}/disagreements"));
            let _ = writeln!(md, "| {label} | {} | {d} |", thousands(p));
            parts.insert(part.into(), json!({"positions": p, "disagreements": d, "records": records_json(r, &format!("{part}/disagreements"))}));
        }
        for part in ["col", "myopic"] {
            if let Some(set) = r.records.get(&format!("{part}/disagreements")) {
                let _ = writeln!(md, "\n## Disagreements ({part})\n");
                for x in &set.kept {
                    let _ = writeln!(md, "- {}", record_md(x));
                }
            }
        }
        LegacyRendered {
            results_json: json!({"kind": "engine-check", "params": {}, "sets": parts}),
            report_md: md,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::legacy::{resolve_params, run_all_sequential};

    #[test]
    fn col_small_and_plan_independent() {
        let kind = &ColSweep;
        let params = resolve_params(kind, &[("max_n".to_string(), 6)].into()).unwrap();
        let a = run_all_sequential(kind, &params, &kind.plan(&params, 1).unwrap()).unwrap();
        let b = run_all_sequential(kind, &params, &kind.plan(&params, 5).unwrap()).unwrap();
        assert_eq!(a, b);
        let total: u64 = (1..=6)
            .map(|n| a.counter(&format!("n={n:02}/positions")))
            .sum();
        // the engine-check Col set is exactly these positions
        assert_eq!(total, 18_037);
        assert_eq!(records_total(&a, "non_cold"), 0);
        let graphs: Vec<u64> = (1..=6)
            .map(|n| a.counter(&format!("n={n:02}/graphs")))
            .collect();
        assert_eq!(graphs, vec![1, 1, 2, 6, 21, 112]);
        // empty boards are 0 or * (symmetric); each graph has one
        for n in 1..=6 {
            let c = |k: &str| a.counter(&format!("n={n:02}/{k}"));
            assert_eq!(c("empty_zero") + c("empty_star"), c("graphs"));
            assert_eq!(c("empty_other"), 0);
        }
    }

    #[test]
    fn engine_check_full() {
        let kind = &EngineCheckSweep;
        let params = resolve_params(kind, &Default::default()).unwrap();
        let r = run_all_sequential(kind, &params, &kind.plan(&params, 3).unwrap()).unwrap();
        assert_eq!(r.counter("col/positions"), 18_037);
        assert_eq!(r.counter("myopic/positions"), 333_540);
        assert_eq!(records_total(&r, "col/disagreements"), 0);
        assert_eq!(records_total(&r, "myopic/disagreements"), 0);
    }
}
