//! `col`: Col on every connected graph (Conway's "Col is cold").
//!
//!
//! `col --max-n N`: every connected graph on 1..=N vertices (one per
//! isomorphism class, from [`crate::gen`]), every assignment of
//! {uncoloured, blue, red} without a same-colour edge. Per n: graphs,
//! positions, non-cold positions (recorded), the value distribution with the
//! smallest position of each value, the largest denominator, and the values
//! of the empty boards (0 or *, by symmetry). Shards: canonical-form prefixes
//! ([`crate::sweep::graphplan`]).

mod report;
#[cfg(test)]
mod tests;
mod validate;

use crate::col::{proper_colourings, Solver, SolverOptions};
use crate::families::col::validate::{col_board, col_record, RESOLVE_BUDGET};
use crate::families::col::{
    position_record, records_md, values_md, PositionDoc, Records, ValueCounter, ValueRow,
    ValueStats, RECORD_CAP,
};
use crate::graph::{graph6, BitGraph};
use crate::sweep::graphplan::{self, GraphShard};
use crate::sweep::merge::{add, merge_maps, MergeError};
use crate::sweep::ValidateError;
use crate::sweep::{thousands, Kind, Merge, ParamDef, ShardCtx, SweepError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The `col` sweep kind.
pub struct ColSweep;

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
        let zero = solver.arena.zero();
        let star = solver.arena.star();
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
                if !solver.arena.is_cold(v) {
                    let s = solver.arena.display(v);
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
        out.values = tally.finish(&mut solver.arena);
        Ok(out)
    }
    fn validate(
        &self,
        p: &ColParams,
        shard: &GraphShard,
        out: &ColOutput,
    ) -> Result<(), ValidateError> {
        validate::validate_col(p, shard, out)
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
        report::present::present(doc)
    }
    fn report(&self, p: &ColParams, d: &ColDoc) -> String {
        report::report_md(p, d)
    }
}
