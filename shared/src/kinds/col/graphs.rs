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
}
