//! `cgt-check` (the CGT solver against the naive search): the outcome class
//! from the canonical value against [`crate::col::naive`] on every Col position
//! of a connected graph with ≤ 6 vertices and every Myopic position of a
//! labelled digraph on 2..4 vertices.

mod report;
#[cfg(test)]
mod tests;
mod validate;

use crate::cgt::Outcome;
use crate::col::{naive, proper_colourings, Board, Solver, SolverOptions};
use crate::families::col::validate::{col_board, col_record, record_colouring, RESOLVE_BUDGET};
use crate::families::col::{
    digraph_ranges, position_record, records_md, DigraphRange, PositionDoc, Records, RECORD_CAP,
};
use crate::graph::{graph6, BitGraph};
use crate::sweep::graphplan;
use crate::sweep::merge::{add, MergeError};
use crate::sweep::ValidateError;
use crate::sweep::{thousands, Kind, Merge, ParamDef, ShardCtx, SweepError};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The `cgt-check` sweep kind.
pub struct CgtCheckSweep;

/// Parameters of `cgt-check` (none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

/// One shard of `cgt-check`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum CgtCheckShard {
    /// Every Col position of a connected graph with at most 6 vertices.
    Col,
    /// Every Myopic position of a range of labelled digraphs.
    Myopic(DigraphRange),
}

/// Positions checked and disagreements found in one set of `cgt-check`.
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

/// The result of `cgt-check` shards.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CgtCheckOutput {
    /// The Col set.
    pub col: CheckCounts,
    /// The Myopic set.
    pub myopic: CheckCounts,
}

impl Merge for CgtCheckOutput {
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

/// One set of the `cgt-check` document.
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

/// The sets of the `cgt-check` document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSets {
    /// Col, connected graphs ≤ 6 vertices.
    pub col: CheckSetDoc,
    /// Myopic Col, labelled digraphs on 2..4 vertices.
    pub myopic: CheckSetDoc,
}

/// The `results.json` of `cgt-check`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CgtCheckDoc {
    /// Always `cgt-check`.
    pub kind: String,
    /// The parameters (none).
    pub params: NoParams,
    /// The two sets.
    pub sets: CheckSets,
}

impl Kind for CgtCheckSweep {
    type Params = NoParams;
    type Shard = CgtCheckShard;
    type Output = CgtCheckOutput;
    type Doc = CgtCheckDoc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "cgt-check"
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
    ) -> Result<Vec<(CgtCheckShard, u64)>, SweepError> {
        let parts = if target_shards == 0 {
            8
        } else {
            target_shards as u64
        };
        let mut shards = vec![(CgtCheckShard::Col, 0)];
        shards.extend(
            digraph_ranges(parts)
                .into_iter()
                .map(|r| (CgtCheckShard::Myopic(r), 0)),
        );
        Ok(shards)
    }
    fn run(
        &self,
        _p: &NoParams,
        shard: &CgtCheckShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<CgtCheckOutput, SweepError> {
        let mut solver = Solver::new(SolverOptions::default());
        let mut out = CgtCheckOutput::default();
        let mut check =
            |set: &mut CheckCounts, b: &Board, code: &str, edges: usize, blue: u32, red: u32| {
                let g = solver.value(b, b.position_masks(blue, red));
                let o = solver.arena.outcome(g);
                let want: Outcome = naive::outcome(b, blue, red);
                set.positions += 1;
                if o != want {
                    let s = solver.arena.display(g);
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
            CgtCheckShard::Col => {
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
            CgtCheckShard::Myopic(range) => {
                let set = &mut out.myopic;
                range.for_each("cgt-check", ctx, &mut |b, code, blue, red| {
                    check(set, b, code, b.arc_count(), blue, red)
                })?;
            }
        }
        Ok(out)
    }
    fn validate(
        &self,
        _p: &NoParams,
        shard: &CgtCheckShard,
        out: &CgtCheckOutput,
    ) -> Result<(), ValidateError> {
        validate::validate_cgt_check(shard, out)
    }
    fn doc(&self, _p: &NoParams, r: &CgtCheckOutput) -> CgtCheckDoc {
        CgtCheckDoc {
            kind: "cgt-check".into(),
            params: NoParams {},
            sets: CheckSets {
                col: (&r.col).into(),
                myopic: (&r.myopic).into(),
            },
        }
    }
    fn present(&self, doc: &CgtCheckDoc) -> crate::sweep::Presentation {
        report::present::present(doc)
    }
    fn report(&self, _p: &NoParams, d: &CgtCheckDoc) -> String {
        report::report_md(d)
    }
}
