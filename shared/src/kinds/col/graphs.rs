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

mod present;

use super::{
    position_record, records_md, values_md, PositionDoc, Records, ValueCounter, ValueRow,
    ValueStats,
};
use crate::cgt::Outcome;
use crate::col::{colouring_from_index, naive, proper_colourings, Board, Solver, SolverOptions};
use crate::graph::{graph6, BitGraph};
use crate::sweep::graphplan::{self, GraphShard};
use crate::sweep::merge::{add, merge_maps, MergeError};
use crate::sweep::{thousands, Kind, Merge, ParamDef, ShardCtx, SweepError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
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

/// Parameters of `col`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColParams {
    /// Largest vertex count.
    pub max_n: usize,
}

fn col_board(g: &BitGraph) -> Board {
    Board::col(g.n(), &g.edges().collect::<Vec<_>>())
}

/// Counts of one vertex count `n` in `col`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColCounts {
    /// Connected graphs (isomorphism classes).
    pub graphs: u64,
    /// Positions (colourings without a same-colour edge).
    pub positions: u64,
    /// Positions whose value is not cold.
    pub non_cold: u64,
    /// Empty boards of value 0.
    pub empty_zero: u64,
    /// Empty boards of value *.
    pub empty_star: u64,
    /// Empty boards of any other value.
    pub empty_other: u64,
}

impl ColCounts {
    fn add(&mut self, o: &ColCounts) -> Result<(), MergeError> {
        add(&mut self.graphs, o.graphs, "graphs")?;
        add(&mut self.positions, o.positions, "positions")?;
        add(&mut self.non_cold, o.non_cold, "non_cold")?;
        add(&mut self.empty_zero, o.empty_zero, "empty_zero")?;
        add(&mut self.empty_star, o.empty_star, "empty_star")?;
        add(&mut self.empty_other, o.empty_other, "empty_other")?;
        Ok(())
    }
}

/// The result of `col` shards.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColOutput {
    /// Positions valued.
    pub work: u64,
    /// Counts per vertex count.
    pub by_n: BTreeMap<u32, ColCounts>,
    /// Value distribution per vertex count, with witnesses.
    pub values: ValueStats,
    /// The non-cold positions.
    pub non_cold: Records,
}

impl Merge for ColOutput {
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        add(&mut self.work, other.work, "work")?;
        merge_maps(&mut self.by_n, other.by_n, "by_n", |a, b| a.add(&b))?;
        self.values
            .merge(other.values)
            .map_err(|e| e.within("values"))?;
        self.non_cold
            .merge(other.non_cold)
            .map_err(|e| e.within("non_cold"))?;
        Ok(())
    }
    fn work(&self) -> u64 {
        self.work
    }
}

/// One row of the `col` table (one vertex count).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColRow {
    /// Vertices.
    pub n: usize,
    /// Connected graphs.
    pub graphs: u64,
    /// Positions.
    pub positions: u64,
    /// Non-cold positions.
    pub non_cold: u64,
    /// Distinct values among the positions on `n` vertices.
    pub distinct_values: usize,
    /// Largest denominator of a value on `n` vertices.
    pub largest_denominator: u64,
    /// Empty boards of value 0.
    pub empty_zero: u64,
    /// Empty boards of value *.
    pub empty_star: u64,
    /// Empty boards of another value.
    pub empty_other: u64,
}

/// Totals over every vertex count of `col`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColTotals {
    /// Connected graphs.
    pub graphs: u64,
    /// Positions.
    pub positions: u64,
    /// Non-cold positions.
    pub non_cold: u64,
    /// Distinct values.
    pub distinct_values: usize,
    /// Largest denominator.
    pub largest_denominator: u64,
}

/// The `results.json` of `col`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColDoc {
    /// Always `col`.
    pub kind: String,
    /// The parameters.
    pub params: ColParams,
    /// One row per vertex count 1..=max_n.
    pub by_n: Vec<ColRow>,
    /// Totals.
    pub totals: ColTotals,
    /// The kept non-cold positions (count in `totals.non_cold`).
    pub non_cold: Vec<PositionDoc>,
    /// Every value, in value-string order.
    pub values: Vec<ValueRow>,
}

impl Kind for ColSweep {
    type Params = ColParams;
    type Shard = GraphShard;
    type Output = ColOutput;
    type Doc = ColDoc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "col"
    }
    fn about(&self) -> &'static str {
        "Col on every connected graph and colouring: values, cold check (ONAG), empty boards"
    }
    fn param_defs(&self) -> &'static [ParamDef] {
        COL_PARAMS
    }
    fn plan(
        &self,
        p: &ColParams,
        target_shards: u32,
    ) -> Result<Vec<(GraphShard, u64)>, SweepError> {
        Ok(graphplan::plan(
            p.max_n,
            target_shards,
            graphplan::Work::None,
        ))
    }
    fn run(
        &self,
        p: &ColParams,
        shard: &GraphShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<ColOutput, SweepError> {
        let max_n = p.max_n;
        if !(1..=10).contains(&max_n) {
            return Err(SweepError::BadParams {
                kind: "col".into(),
                reason: format!("max_n {max_n} out of 1..=10"),
            });
        }
        let walk = shard.decode("col")?;
        let mut solver = Solver::new(SolverOptions::default());
        let zero = solver.engine.zero();
        let star = solver.engine.star();
        let mut out = ColOutput::default();
        let mut counts = vec![ColCounts::default(); max_n + 1];
        let mut tally = ValueCounter::default();
        let mut cancelled = false;
        graphplan::walk_connected(&walk, max_n, &mut |g| {
            if cancelled || ctx.cancelled() {
                cancelled = true;
                return;
            }
            let n = g.n();
            let b = col_board(g);
            let code = graph6::encode_bitgraph(g);
            let edges = g.edge_count();
            let c = &mut counts[n];
            let before = c.positions;
            proper_colourings(g, &mut |blue, red| {
                c.positions += 1;
                let v = solver.value(&b, b.position_masks(blue, red));
                tally.add(n, v, edges, &code, blue, red);
                if !solver.engine.is_cold(v) {
                    let s = solver.engine.display(v);
                    out.non_cold.add(position_record(
                        n,
                        edges,
                        &code,
                        blue,
                        red,
                        format!("value {s}"),
                    ));
                    c.non_cold += 1;
                }
                if blue | red == 0 {
                    if v == zero {
                        c.empty_zero += 1;
                    } else if v == star {
                        c.empty_star += 1;
                    } else {
                        c.empty_other += 1;
                    }
                }
            });
            c.graphs += 1;
            let positions = c.positions - before;
            out.work += positions;
            ctx.add_progress(positions);
        });
        if cancelled {
            return Err(SweepError::Cancelled);
        }
        out.by_n = counts
            .into_iter()
            .enumerate()
            .filter(|(_, c)| *c != ColCounts::default())
            .map(|(n, c)| (n as u32, c))
            .collect();
        out.values = tally.finish(&mut solver.engine);
        Ok(out)
    }
    fn validate(&self, p: &ColParams, shard: &GraphShard, out: &ColOutput) -> Result<(), String> {
        validate_col(p, shard, out)
    }
    fn doc(&self, p: &ColParams, r: &ColOutput) -> ColDoc {
        let mut by_n = Vec::new();
        let mut tot = ColCounts::default();
        for n in 1..=p.max_n {
            let c = r.by_n.get(&(n as u32)).copied().unwrap_or_default();
            // A display total (`doc` cannot fail); see `ColOutput::merge`
            // for the checked counters. An overflowing total stays partial.
            let _ = tot.add(&c);
            by_n.push(ColRow {
                n,
                graphs: c.graphs,
                positions: c.positions,
                non_cold: c.non_cold,
                distinct_values: r.values.distinct_in(n as u32),
                largest_denominator: r.values.max_denominator_in(n as u32),
                empty_zero: c.empty_zero,
                empty_star: c.empty_star,
                empty_other: c.empty_other,
            });
        }
        let values = r.values.rows();
        ColDoc {
            kind: "col".into(),
            params: p.clone(),
            by_n,
            totals: ColTotals {
                graphs: tot.graphs,
                positions: tot.positions,
                non_cold: tot.non_cold,
                distinct_values: values.len(),
                largest_denominator: r.values.max_denominator_all(),
            },
            non_cold: r.non_cold.docs(),
            values,
        }
    }
    fn present(&self, doc: &ColDoc) -> crate::sweep::Presentation {
        present::col(doc)
    }
    fn report(&self, p: &ColParams, d: &ColDoc) -> String {
        let max_n = p.max_n;
        let t = &d.totals;
        let mut md = String::new();
        let _ = writeln!(md, "# Col on connected graphs: every value is cold\n");
        let _ = writeln!(md, "Connected graphs on 1..={max_n} vertices (one per isomorphism class), every colouring without a same-colour edge. Cold = a number x or x + *.\n");
        let _ = writeln!(md, "| n | graphs | positions | non-cold | distinct values | largest denominator | empty board 0 | empty board * | empty other |\n|---|---|---|---|---|---|---|---|---|");
        for row in &d.by_n {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                row.n,
                thousands(row.graphs),
                thousands(row.positions),
                row.non_cold,
                row.distinct_values,
                row.largest_denominator,
                thousands(row.empty_zero),
                thousands(row.empty_star),
                row.empty_other
            );
        }
        let _ = writeln!(
            md,
            "| total | {} | {} | {} | {} | {} | | | |\n",
            thousands(t.graphs),
            thousands(t.positions),
            t.non_cold,
            t.distinct_values,
            t.largest_denominator
        );
        // Every non-cold position is both counted and recorded, so the
        // section appears exactly when one was found.
        if t.non_cold > 0 {
            let _ = writeln!(md, "## Non-cold positions: {}\n", t.non_cold);
            records_md(&mut md, &d.non_cold);
            md.push('\n');
        }
        let _ = writeln!(md, "## Values ({} distinct)\n\nSmallest position of each value (witness order: vertices, edges, graph6, colouring index; `.` uncoloured, `L` blue, `R` red).\n\n| value | positions | smallest position |\n|---|---|---|", d.values.len());
        values_md(&mut md, &d.values, "vertices");
        md
    }
}

/// Connected graphs on n vertices, n = 0..=10 (OEIS A001349): no shard can
/// count more.
const CONNECTED_GRAPHS: [u64; 11] = [0, 1, 1, 2, 6, 21, 112, 853, 11_117, 261_080, 11_716_571];

/// Recorded positions re-valued by [`Kind::validate`] of `col`, at most: a
/// fixed budget (each a fresh Col solve on ≤ [`RESOLVE_MAX_N`] vertices,
/// microseconds to a millisecond; a shard values thousands of positions).
const RESOLVE_BUDGET: usize = 12;

/// Largest recorded position `col` validation re-values.
const RESOLVE_MAX_N: usize = 8;

/// The blue and red vertex masks of a record's `colouring L.R.` detail on `n`
/// vertices, checked against its colouring index.
fn record_colouring(what: &str, r: &crate::sweep::Record, n: usize) -> Result<(u32, u32), String> {
    let text = r
        .detail
        .strip_prefix("colouring ")
        .filter(|t| t.chars().count() == n)
        .ok_or_else(|| {
            format!(
                "{what}: detail `{:.40}` is not a colouring of {n} vertices",
                r.detail
            )
        })?;
    let (mut blue, mut red) = (0u32, 0u32);
    for (v, ch) in text.chars().enumerate() {
        match ch {
            'L' => blue |= 1 << v,
            'R' => red |= 1 << v,
            '.' => {}
            _ => return Err(format!("{what}: colouring `{text}` has `{ch}`")),
        }
    }
    if super::colouring_index(n, blue, red) != r.index {
        return Err(format!(
            "{what}: colouring index {} is not that of `{text}`",
            r.index
        ));
    }
    Ok((blue, red))
}

/// A recorded Col position of `col`: a connected graph on `vertices`
/// (within the shard's `lo..=hi`, and for a prefix shard one of its prefixes
/// on the first vertices) with `edges` edges and a proper colouring.
fn col_record(
    what: &str,
    r: &crate::sweep::Record,
    (lo, hi): (usize, usize),
    walk: &graphplan::Walk,
    prefixes: &[String],
) -> Result<(BitGraph, u32, u32), String> {
    let n = r.vertices as usize;
    if n < lo || n > hi {
        return Err(format!(
            "{what}: `{}` on {n} vertices, but this shard only has graphs on {lo}..={hi}",
            r.code
        ));
    }
    let g =
        graph6::parse_bitgraph(&r.code).map_err(|e| format!("{what}: `{:.40}`: {e}", r.code))?;
    if g.n() != n || g.edge_count() != r.edges as usize || !g.is_connected() {
        return Err(format!(
            "{what}: `{}` is not a connected graph on {n} vertices with {} edges",
            r.code, r.edges
        ));
    }
    if let graphplan::Walk::Prefixes(ps) = walk {
        let depth = ps[0].n();
        let head = graph6::encode_bitgraph(&g.induced((1u32 << depth) - 1));
        if !prefixes.contains(&head) {
            return Err(format!(
                "{what}: `{}` is not in this shard (its first {depth} vertices are `{head}`)",
                r.code
            ));
        }
    }
    let (blue, red) = record_colouring(what, r, n)?;
    if g.edges().any(|(u, v)| {
        let same = |m: u32| m >> u & 1 == 1 && m >> v & 1 == 1;
        same(blue) || same(red)
    }) {
        return Err(format!(
            "{what}: `{}` {} has a same-colour edge",
            r.code, r.detail
        ));
    }
    Ok((g, blue, red))
}

/// [`Kind::validate`] for `col`: per vertex count, graphs within the
/// connected graphs on n vertices, positions within 1..=3^n per graph, one
/// empty board per graph, the value tally summing to the positions; every
/// record (smallest position per value, non-cold positions) a proper
/// colouring of a connected graph in the shard; up to [`RESOLVE_BUDGET`] of
/// them re-valued, non-cold records first.
fn validate_col(p: &ColParams, shard: &GraphShard, out: &ColOutput) -> Result<(), String> {
    let max_n = p.max_n;
    if !(1..=10).contains(&max_n) {
        return Err(format!("params: max_n {max_n} out of 1..=10"));
    }
    let walk = shard.decode("col").map_err(|e| e.to_string())?;
    let (lo, hi, prefixes) = match (&walk, shard) {
        (graphplan::Walk::Top { depth }, _) => (1, (*depth - 1).min(max_n), &[][..]),
        (graphplan::Walk::Prefixes(ps), GraphShard::Prefixes { prefixes, .. }) => {
            (ps[0].n().max(1), max_n, &prefixes[..])
        }
        (graphplan::Walk::Split(_), _) => (1, max_n, &[][..]),
        _ => return Err("shard: its walk does not match its variant".into()),
    };
    let mut positions = 0u64;
    let mut non_cold = 0u64;
    for (&n32, c) in &out.by_n {
        let n = n32 as usize;
        let at = |f: &str| format!("by_n[{n}].{f}");
        if n < lo || n > hi {
            return Err(format!(
                "by_n[{n}]: this shard only has graphs on {lo}..={hi} vertices"
            ));
        }
        if c.graphs == 0 || c.graphs > CONNECTED_GRAPHS[n] {
            return Err(format!(
                "{} is {}: there are 1..={} connected graphs on {n} vertices",
                at("graphs"),
                c.graphs,
                CONNECTED_GRAPHS[n]
            ));
        }
        let most = c.graphs * 3u64.pow(n as u32);
        if c.positions < c.graphs || c.positions > most {
            return Err(format!(
                "{} is {}, not within {}..={most} for {} graphs on {n} vertices",
                at("positions"),
                c.positions,
                c.graphs,
                c.graphs
            ));
        }
        let empty = c.empty_zero + c.empty_star + c.empty_other;
        if empty != c.graphs {
            return Err(format!(
                "{}: {empty} empty boards (0, *, other) for {} graphs",
                at("empty_zero"),
                c.graphs
            ));
        }
        if c.non_cold > c.positions {
            return Err(format!(
                "{} is {}, above positions = {}",
                at("non_cold"),
                c.non_cold,
                c.positions
            ));
        }
        let tally = out.values.counts.get(&n32);
        let sum = tally.map_or(Some(0), |m| {
            m.values().try_fold(0u64, |a, &b| a.checked_add(b))
        });
        if sum != Some(c.positions) {
            return Err(format!(
                "values.counts[{n}] sums to {sum:?}, not by_n[{n}].positions = {}",
                c.positions
            ));
        }
        positions += c.positions;
        non_cold += c.non_cold;
    }
    if out.work != positions {
        return Err(format!(
            "work is {}, not the {positions} positions counted",
            out.work
        ));
    }
    if let Some(n) = out.values.counts.keys().find(|n| !out.by_n.contains_key(n)) {
        return Err(format!(
            "values.counts[{n}]: no graphs on {n} vertices are counted"
        ));
    }
    for (n, m) in &out.values.max_denominator {
        if !out.by_n.contains_key(n) || m.0 == 0 || !m.0.is_power_of_two() {
            return Err(format!(
                "values.max_denominator[{n}] is {}: not a power of two of a counted vertex count",
                m.0
            ));
        }
    }
    let totals = out.values.totals();
    if out.values.smallest.len() != totals.len() {
        return Err(format!(
            "values.smallest has {} positions for {} values",
            out.values.smallest.len(),
            totals.len()
        ));
    }
    let mut solver: Option<Solver> = None;
    let mut budget = RESOLVE_BUDGET;
    let mut resolve = |what: &str, g: &BitGraph, blue: u32, red: u32, value: &str| {
        if budget == 0 || g.n() > RESOLVE_MAX_N {
            return Ok(None);
        }
        budget -= 1;
        let solver = solver.get_or_insert_with(|| Solver::new(SolverOptions::default()));
        let b = col_board(g);
        let v = solver.value(&b, b.position_masks(blue, red));
        let shown = solver.engine.display(v);
        if shown != value {
            return Err(format!(
                "{what}: the position has value {shown}, not {value}"
            ));
        }
        Ok(Some(solver.engine.is_cold(v)))
    };
    // The non-cold records first: they are the findings.
    let rs = &out.non_cold.0;
    if rs.cap != super::RECORD_CAP {
        return Err(format!(
            "non_cold.cap is {}, not {}",
            rs.cap,
            super::RECORD_CAP
        ));
    }
    if rs.total != non_cold || rs.kept.len() as u64 != non_cold.min(rs.cap) {
        return Err(format!(
            "non_cold: total {} with {} kept, but {non_cold} non-cold positions are counted (cap {})",
            rs.total,
            rs.kept.len(),
            rs.cap
        ));
    }
    for r in &rs.kept {
        let what = format!("non_cold[`{}` {}]", r.code, r.detail);
        let (g, blue, red) = col_record(&what, r, (lo, hi), &walk, prefixes)?;
        let value = r
            .note
            .strip_prefix("value ")
            .ok_or_else(|| format!("{what}: note `{:.40}` is not `value …`", r.note))?;
        if resolve(&what, &g, blue, red, value)? == Some(true) {
            return Err(format!("{what}: value {value} is cold"));
        }
    }
    for (value, r) in &out.values.smallest {
        let what = format!("values.smallest[{value}]");
        if !totals.contains_key(value.as_str()) {
            return Err(format!("{what}: no position of value {value} is counted"));
        }
        let n = r.vertices;
        if out
            .values
            .counts
            .get(&n)
            .and_then(|m| m.get(value))
            .is_none()
        {
            return Err(format!(
                "{what}: no position of value {value} on {n} vertices is counted"
            ));
        }
        if r.note != format!("value {value}") {
            return Err(format!(
                "{what}: note `{:.40}` is not `value {value}`",
                r.note
            ));
        }
        let (g, blue, red) = col_record(&what, r, (lo, hi), &walk, prefixes)?;
        resolve(&what, &g, blue, red, value)?;
    }
    Ok(())
}

/// Col positions of the connected graphs on ≤ 6 vertices: the `col` shard
/// of `engine-check` checks exactly these.
const ENGINE_CHECK_COL_POSITIONS: u64 = 18_037;

/// [`Kind::validate`] for `engine-check`: the shard's positions are known
/// exactly (18,037 Col positions; (hi − lo) digraphs × 3^n colourings), the
/// other set is empty, the disagreements are within the positions and their
/// records are positions of the shard; up to [`RESOLVE_BUDGET`] Col
/// disagreements are re-checked (solver and naive search must differ).
fn validate_engine_check(shard: &EngineCheckShard, out: &EngineCheckOutput) -> Result<(), String> {
    let (name, set, other, other_name, positions) = match shard {
        EngineCheckShard::Col => (
            "col",
            &out.col,
            &out.myopic,
            "myopic",
            ENGINE_CHECK_COL_POSITIONS,
        ),
        EngineCheckShard::Myopic(r) => {
            r.check("engine-check").map_err(|e| e.to_string())?;
            let n = 3u64.pow(r.n as u32);
            ("myopic", &out.myopic, &out.col, "col", (r.hi - r.lo) * n)
        }
    };
    if *other != CheckCounts::default() {
        return Err(format!(
            "{other_name}: {} positions, but this is a {name} shard",
            other.positions
        ));
    }
    if set.positions != positions {
        return Err(format!(
            "{name}.positions is {}, but the shard has {positions} positions",
            set.positions
        ));
    }
    let rs = &set.disagreements.0;
    let cap = super::RECORD_CAP;
    if rs.cap != cap || rs.total > positions || rs.kept.len() as u64 != rs.total.min(cap) {
        return Err(format!(
            "{name}.disagreements: total {} with {} kept (cap {}), of {positions} positions (cap {cap})",
            rs.total,
            rs.kept.len(),
            rs.cap
        ));
    }
    let mut solver: Option<Solver> = None;
    for (i, r) in rs.kept.iter().enumerate() {
        let what = format!("{name}.disagreements[`{:.40}` {}]", r.code, r.detail);
        match shard {
            EngineCheckShard::Col => {
                let top = graphplan::Walk::Top { depth: 7 };
                let (g, blue, red) = col_record(&what, r, (1, 6), &top, &[])?;
                if i < RESOLVE_BUDGET {
                    let solver =
                        solver.get_or_insert_with(|| Solver::new(SolverOptions::default()));
                    let b = col_board(&g);
                    let v = solver.value(&b, b.position_masks(blue, red));
                    let (o, want) = (solver.engine.outcome(v), naive::outcome(&b, blue, red));
                    if o == want {
                        return Err(format!(
                            "{what}: solver and naive search agree ({o}): not a disagreement"
                        ));
                    }
                }
            }
            EngineCheckShard::Myopic(range) => {
                let n = range.n;
                if r.vertices as usize != n {
                    return Err(format!(
                        "{what}: {} vertices, but the shard's digraphs have {n}",
                        r.vertices
                    ));
                }
                record_colouring(&what, r, n)?;
            }
        }
    }
    Ok(())
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

/// A range `lo..hi` of labelled digraphs on `n` vertices ([`digraph_from_index`]),
/// each with every colouring: one shard of the exhaustive digraph set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigraphRange {
    /// Vertices, 2..=4.
    pub n: usize,
    /// First digraph index.
    pub lo: u64,
    /// One past the last digraph index.
    pub hi: u64,
}

impl DigraphRange {
    /// Check the range (`n` in 2..=4, `lo <= hi <= 4^(n(n-1)/2)`).
    pub fn check(&self, kind: &str) -> Result<(), SweepError> {
        let DigraphRange { n, lo, hi } = *self;
        if !(2..=4).contains(&n) || lo > hi || hi > 4u64.pow((n * (n - 1) / 2) as u32) {
            return Err(SweepError::BadShard {
                kind: kind.into(),
                reason: format!("bad digraph range n = {n}, {lo}..{hi}"),
            });
        }
        Ok(())
    }

    /// Call `f(board, digraph6, blue, red)` for every digraph of the range
    /// and every colouring, checking `ctx` for cancellation per digraph.
    pub fn for_each(
        &self,
        kind: &str,
        ctx: &ShardCtx<'_>,
        f: &mut dyn FnMut(&Board, &str, u32, u32),
    ) -> Result<(), SweepError> {
        self.check(kind)?;
        let n = self.n;
        let colourings = 3u64.pow(n as u32);
        for idx in self.lo..self.hi {
            ctx.check()?;
            let b = Board::myopic(n, &digraph_from_index(n, idx));
            let code = board_digraph6(&b);
            for c in 0..colourings {
                let (blue, red) = colouring_from_index(n, c);
                f(&b, &code, blue, red);
            }
            ctx.add_progress(colourings);
        }
        Ok(())
    }
}

/// The exhaustive labelled-digraph set on 2..=4 vertices, as digraph index
/// ranges: all of n = 2 and n = 3, n = 4 in `parts_for_4` parts.
pub fn digraph_ranges(parts_for_4: u64) -> Vec<DigraphRange> {
    let mut v = vec![
        DigraphRange { n: 2, lo: 0, hi: 4 },
        DigraphRange {
            n: 3,
            lo: 0,
            hi: 64,
        },
    ];
    let parts = parts_for_4.max(1);
    for p in 0..parts {
        v.push(DigraphRange {
            n: 4,
            lo: 4096 * p / parts,
            hi: 4096 * (p + 1) / parts,
        });
    }
    v
}

/// Parameters of `engine-check` (none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

/// One shard of `engine-check`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum EngineCheckShard {
    /// Every Col position of a connected graph with at most 6 vertices.
    Col,
    /// Every Myopic position of a range of labelled digraphs.
    Myopic(DigraphRange),
}

/// Positions checked and disagreements found in one set of `engine-check`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckCounts {
    /// Positions checked.
    pub positions: u64,
    /// Positions where the solver's outcome differs from the naive search.
    pub disagreements: Records,
}

impl CheckCounts {
    fn merge(&mut self, o: CheckCounts) -> Result<(), MergeError> {
        add(&mut self.positions, o.positions, "positions")?;
        self.disagreements
            .merge(o.disagreements)
            .map_err(|e| e.within("disagreements"))?;
        Ok(())
    }
}

/// The result of `engine-check` shards.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineCheckOutput {
    /// The Col set.
    pub col: CheckCounts,
    /// The Myopic set.
    pub myopic: CheckCounts,
}

impl Merge for EngineCheckOutput {
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        self.col.merge(other.col).map_err(|e| e.within("col"))?;
        self.myopic
            .merge(other.myopic)
            .map_err(|e| e.within("myopic"))?;
        Ok(())
    }
    fn work(&self) -> u64 {
        self.col.positions + self.myopic.positions
    }
}

/// One set of the `engine-check` document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSetDoc {
    /// Positions checked.
    pub positions: u64,
    /// Disagreements found.
    pub disagreements: u64,
    /// The kept disagreements.
    pub records: Vec<PositionDoc>,
}

impl From<&CheckCounts> for CheckSetDoc {
    fn from(c: &CheckCounts) -> Self {
        CheckSetDoc {
            positions: c.positions,
            disagreements: c.disagreements.total(),
            records: c.disagreements.docs(),
        }
    }
}

/// The sets of the `engine-check` document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSets {
    /// Col, connected graphs ≤ 6 vertices.
    pub col: CheckSetDoc,
    /// Myopic Col, labelled digraphs on 2..4 vertices.
    pub myopic: CheckSetDoc,
}

/// The `results.json` of `engine-check`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineCheckDoc {
    /// Always `engine-check`.
    pub kind: String,
    /// The parameters (none).
    pub params: NoParams,
    /// The two sets.
    pub sets: CheckSets,
}

impl Kind for EngineCheckSweep {
    type Params = NoParams;
    type Shard = EngineCheckShard;
    type Output = EngineCheckOutput;
    type Doc = EngineCheckDoc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "engine-check"
    }
    fn about(&self) -> &'static str {
        "the canonical-value solver against a naive win/lose search: Col ≤ 6 vertices, Myopic digraphs ≤ 4"
    }
    fn param_defs(&self) -> &'static [ParamDef] {
        &[]
    }
    fn plan(
        &self,
        _p: &NoParams,
        target_shards: u32,
    ) -> Result<Vec<(EngineCheckShard, u64)>, SweepError> {
        let parts = if target_shards == 0 {
            8
        } else {
            target_shards as u64
        };
        let mut shards = vec![(EngineCheckShard::Col, 0)];
        shards.extend(
            digraph_ranges(parts)
                .into_iter()
                .map(|r| (EngineCheckShard::Myopic(r), 0)),
        );
        Ok(shards)
    }
    fn run(
        &self,
        _p: &NoParams,
        shard: &EngineCheckShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<EngineCheckOutput, SweepError> {
        let mut solver = Solver::new(SolverOptions::default());
        let mut out = EngineCheckOutput::default();
        let mut check =
            |set: &mut CheckCounts, b: &Board, code: &str, edges: usize, blue: u32, red: u32| {
                let g = solver.value(b, b.position_masks(blue, red));
                let o = solver.engine.outcome(g);
                let want: Outcome = naive::outcome(b, blue, red);
                set.positions += 1;
                if o != want {
                    let s = solver.engine.display(g);
                    set.disagreements.add(position_record(
                        b.n(),
                        edges,
                        code,
                        blue,
                        red,
                        format!("value {s} outcome {o}, naive {want}"),
                    ));
                }
            };
        match shard {
            EngineCheckShard::Col => {
                let opts = crate::gen::WalkOptions {
                    connected_only: true,
                    min_n: 1,
                };
                let set = &mut out.col;
                let mut cancelled = false;
                crate::gen::walk_filtered(&BitGraph::new(0), 6, opts, &mut |g| {
                    if cancelled || ctx.cancelled() {
                        cancelled = true;
                        return;
                    }
                    let b = col_board(g);
                    let code = graph6::encode_bitgraph(g);
                    let before = set.positions;
                    proper_colourings(g, &mut |blue, red| {
                        check(set, &b, &code, g.edge_count(), blue, red)
                    });
                    ctx.add_progress(set.positions - before);
                });
                if cancelled {
                    return Err(SweepError::Cancelled);
                }
            }
            EngineCheckShard::Myopic(range) => {
                let set = &mut out.myopic;
                range.for_each("engine-check", ctx, &mut |b, code, blue, red| {
                    check(set, b, code, b.arc_count(), blue, red)
                })?;
            }
        }
        Ok(out)
    }
    fn validate(
        &self,
        _p: &NoParams,
        shard: &EngineCheckShard,
        out: &EngineCheckOutput,
    ) -> Result<(), String> {
        validate_engine_check(shard, out)
    }
    fn doc(&self, _p: &NoParams, r: &EngineCheckOutput) -> EngineCheckDoc {
        EngineCheckDoc {
            kind: "engine-check".into(),
            params: NoParams {},
            sets: CheckSets {
                col: (&r.col).into(),
                myopic: (&r.myopic).into(),
            },
        }
    }
    fn present(&self, doc: &EngineCheckDoc) -> crate::sweep::Presentation {
        present::engine_check(doc)
    }
    fn report(&self, _p: &NoParams, d: &EngineCheckDoc) -> String {
        let mut md = String::from("# Engine check: canonical values vs naive win/lose search\n\n| set | positions | disagreements |\n|---|---|---|\n");
        let sets = [
            (
                "col",
                "Col, connected graphs ≤ 6 vertices, colourings without a same-colour edge",
                &d.sets.col,
            ),
            (
                "myopic",
                "Myopic Col, labelled digraphs on 2..4 vertices, all colourings",
                &d.sets.myopic,
            ),
        ];
        for (_, label, s) in &sets {
            let _ = writeln!(
                md,
                "| {label} | {} | {} |",
                thousands(s.positions),
                s.disagreements
            );
        }
        for (part, _, s) in &sets {
            if s.disagreements > 0 {
                let _ = writeln!(md, "\n## Disagreements ({part})\n");
                records_md(&mut md, &s.records);
            }
        }
        md
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::{run_typed, ShardSpec, SweepKind};

    #[test]
    fn col_small_and_plan_independent() {
        let p = ColParams { max_n: 6 };
        let a = run_typed(&ColSweep, &p, 1).unwrap();
        let b = run_typed(&ColSweep, &p, 5).unwrap();
        assert_eq!(a, b);
        let total: u64 = a.by_n.values().map(|c| c.positions).sum();
        // the engine-check Col set is exactly these positions
        assert_eq!(total, 18_037);
        assert_eq!(a.work, 18_037);
        assert_eq!(a.non_cold.total(), 0);
        let graphs: Vec<u64> = (1..=6).map(|n| a.by_n[&n].graphs).collect();
        assert_eq!(graphs, vec![1, 1, 2, 6, 21, 112]);
        // empty boards are 0 or * (symmetric); each graph has one
        for c in a.by_n.values() {
            assert_eq!(c.empty_zero + c.empty_star, c.graphs);
            assert_eq!(c.empty_other, 0);
        }
        let d = ColSweep.doc(&p, &a);
        assert_eq!(d.totals.positions, 18_037);
        assert_eq!(d.by_n.len(), 6);
        assert_eq!(d.values.len(), d.totals.distinct_values);
    }

    #[test]
    fn outputs_round_trip_through_their_encoding() {
        let params = SweepKind::resolve_params(&ColSweep, &[("max_n".into(), 5)].into()).unwrap();
        let plan = SweepKind::plan(&ColSweep, &params, 3).unwrap();
        let mut merged = ColSweep.empty();
        for shard in &plan {
            let out = ColSweep
                .run_shard(&params, shard, &ShardCtx::detached())
                .unwrap();
            let back = ColSweep.decode(&out.encode()).unwrap();
            assert_eq!(back, out);
            merged.merge(back).unwrap();
        }
        let r: &ColOutput = merged.get("col").unwrap();
        assert_eq!(r.work, 3 + 7 + 30 + 200 + 1481);
    }

    #[test]
    fn engine_check_full() {
        let r = run_typed(&EngineCheckSweep, &NoParams {}, 3).unwrap();
        assert_eq!(r.col.positions, 18_037);
        assert_eq!(r.myopic.positions, 333_540);
        assert_eq!(r.col.disagreements.total(), 0);
        assert_eq!(r.myopic.disagreements.total(), 0);
    }

    #[test]
    fn bad_shards_and_params_are_errors() {
        let params = SweepKind::resolve_params(&EngineCheckSweep, &Default::default()).unwrap();
        let ctx = ShardCtx::detached();
        for payload in [
            "\"exh 4 0 5000\"",
            "{\"myopic\":{\"n\":4,\"lo\":0,\"hi\":5000}}",
            "{\"myopic\":{\"n\":5,\"lo\":0,\"hi\":1}}",
            "{\"myopic\":{\"n\":3,\"lo\":9,\"hi\":1}}",
            "\"rand\"",
        ] {
            let shard = ShardSpec {
                index: 0,
                payload: payload.into(),
                estimate: 0,
            };
            assert!(
                matches!(
                    EngineCheckSweep.run_shard(&params, &shard, &ctx),
                    Err(SweepError::BadShard { .. })
                ),
                "{payload}"
            );
        }
        // an unknown parameter, and a bad graph shard for col
        assert!(
            SweepKind::resolve_params(&EngineCheckSweep, &[("max_n".into(), 3)].into()).is_err()
        );
        let params = SweepKind::resolve_params(&ColSweep, &[("max_n".into(), 4)].into()).unwrap();
        let shard = ShardSpec {
            index: 0,
            payload: "{\"top\":{\"depth\":40}}".into(),
            estimate: 0,
        };
        assert!(matches!(
            ColSweep.run_shard(&params, &shard, &ctx),
            Err(SweepError::BadShard { .. })
        ));
    }

    /// Every shard of real plans validates (`col` up to 6 and 7 vertices in
    /// several plan sizes).
    #[test]
    fn real_col_shard_results_validate() {
        for (max_n, shards) in [(1, 1), (6, 1), (6, 5), (7, 0), (7, 12)] {
            let p = ColParams { max_n };
            for (s, _) in Kind::plan(&ColSweep, &p, shards).unwrap() {
                let out = ColSweep.run(&p, &s, &ShardCtx::detached()).unwrap();
                assert_eq!(validate_col(&p, &s, &out), Ok(()), "max_n {max_n} {s:?}");
            }
        }
    }

    /// `f` applied to the result of the prefix shard of `col --max-n 5` in
    /// one shard (3..=5 vertices) is refused with a message containing `want`.
    fn refused(f: impl FnOnce(&mut ColOutput), want: &str) {
        let p = ColParams { max_n: 5 };
        let (s, _) = Kind::plan(&ColSweep, &p, 1).unwrap().pop().unwrap();
        assert!(matches!(s, GraphShard::Prefixes { .. }));
        let mut out = ColSweep.run(&p, &s, &ShardCtx::detached()).unwrap();
        assert_eq!(validate_col(&p, &s, &out), Ok(()));
        f(&mut out);
        let e = validate_col(&p, &s, &out).expect_err(want);
        assert!(e.contains(want), "`{e}` does not contain `{want}`");
    }

    /// Each forged field is refused, naming it.
    #[test]
    fn forged_col_results_are_refused_naming_the_field() {
        refused(
            |o| {
                let c = o.by_n.get_mut(&5).unwrap();
                c.graphs += 1;
                c.empty_zero += 1;
            },
            "by_n[5].graphs is 22: there are 1..=21 connected graphs on 5 vertices",
        );
        refused(
            |o| {
                let c = *o.by_n.get(&5).unwrap();
                o.by_n.insert(2, c);
            },
            "by_n[2]: this shard only has graphs on 3..=5 vertices",
        );
        refused(
            |o| o.by_n.get_mut(&4).unwrap().positions += 1,
            "values.counts[4] sums to",
        );
        refused(
            |o| o.by_n.get_mut(&4).unwrap().empty_star += 1,
            "by_n[4].empty_zero: 7 empty boards",
        );
        refused(|o| o.work += 1, "work is");
        refused(
            |o| o.by_n.get_mut(&4).unwrap().non_cold = 1,
            "non_cold: total 0 with 0 kept, but 1 non-cold",
        );
        refused(
            |o| {
                o.values.smallest.pop_first();
            },
            "values.smallest has",
        );
        // A smallest position of another size (the 2-vertex path is not in
        // this shard).
        refused(
            |o| {
                let (v, r) = o.values.smallest.pop_first().unwrap();
                let x = crate::sweep::Record {
                    vertices: 2,
                    edges: 1,
                    code: "A_".into(),
                    index: 0,
                    detail: "colouring ..".into(),
                    note: r.note.clone(),
                };
                o.values.smallest.insert(v, x);
            },
            "values.smallest[*]: no position of value * on 2 vertices is counted",
        );
        // A smallest position whose value is not the one claimed: swap the
        // positions of two values.
        refused(
            |o| {
                let mut it = o.values.smallest.iter_mut();
                let (a, ra) = it.next().unwrap();
                let (b, rb) = it.next().unwrap();
                std::mem::swap(&mut ra.code, &mut rb.code);
                std::mem::swap(&mut ra.vertices, &mut rb.vertices);
                std::mem::swap(&mut ra.edges, &mut rb.edges);
                std::mem::swap(&mut ra.index, &mut rb.index);
                std::mem::swap(&mut ra.detail, &mut rb.detail);
                assert_ne!(a, b);
            },
            "values.smallest[",
        );
        // A forged non-cold record: a real position, counted, but cold.
        refused(
            |o| {
                let r = o.values.smallest.values().next().unwrap().clone();
                let n = r.vertices;
                o.by_n.get_mut(&n).unwrap().non_cold = 1;
                o.non_cold.add(crate::sweep::Record {
                    note: "value ↑".into(),
                    ..r
                });
            },
            "non_cold[`",
        );
    }

    /// Every shard of `engine-check` (the committed run: default plan, and a
    /// 3-part plan) validates.
    #[test]
    fn real_engine_check_shard_results_validate() {
        for shards in [0, 3] {
            for (s, _) in Kind::plan(&EngineCheckSweep, &NoParams {}, shards).unwrap() {
                let out = EngineCheckSweep
                    .run(&NoParams {}, &s, &ShardCtx::detached())
                    .unwrap();
                assert_eq!(validate_engine_check(&s, &out), Ok(()), "{s:?}");
            }
        }
    }

    /// Forged `engine-check` results are refused, naming the field.
    #[test]
    fn forged_engine_check_results_are_refused_naming_the_field() {
        let refused = |shard: &EngineCheckShard, f: &dyn Fn(&mut EngineCheckOutput), want: &str| {
            let mut out = EngineCheckSweep
                .run(&NoParams {}, shard, &ShardCtx::detached())
                .unwrap();
            assert_eq!(validate_engine_check(shard, &out), Ok(()));
            f(&mut out);
            let e = validate_engine_check(shard, &out).expect_err(want);
            assert!(e.contains(want), "`{e}` does not contain `{want}`");
        };
        let small = EngineCheckShard::Myopic(DigraphRange {
            n: 3,
            lo: 10,
            hi: 20,
        });
        refused(
            &small,
            &|o| o.myopic.positions += 1,
            "myopic.positions is 271, but the shard has 270",
        );
        refused(
            &small,
            &|o| o.col.positions = 1,
            "col: 1 positions, but this is a myopic shard",
        );
        refused(
            &small,
            &|o| {
                o.myopic.disagreements.add(crate::sweep::Record {
                    vertices: 4,
                    edges: 0,
                    code: "x".into(),
                    index: 0,
                    detail: "colouring ....".into(),
                    note: String::new(),
                })
            },
            "4 vertices, but the shard's digraphs have 3",
        );
        refused(
            &small,
            &|o| o.myopic.disagreements.0.total = 3,
            "myopic.disagreements: total 3 with 0 kept",
        );
        // A Col "disagreement" where solver and naive search agree.
        refused(
            &EngineCheckShard::Col,
            &|o| {
                o.col.disagreements.add(crate::sweep::Record {
                    vertices: 2,
                    edges: 1,
                    code: "A_".into(),
                    index: 1,
                    detail: "colouring L.".into(),
                    note: "forged".into(),
                })
            },
            "not a disagreement",
        );
        refused(
            &EngineCheckShard::Col,
            &|o| o.col.positions -= 1,
            "col.positions is 18036",
        );
    }
}
