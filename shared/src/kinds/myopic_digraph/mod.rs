//! `myopic-digraph`: the unwatched-source rule on general digraphs.
//!
//! A vertex `r` of a position is an **unwatched-source subject** when `r` is
//! uncoloured, has at least one out-neighbour, every out-neighbour is
//! uncoloured, and no uncoloured vertex has an arc to `r` (an uncoloured vertex
//! counts as a watcher even when it has no colour left). Claim:
//! `G = * + G(board − r)`. A **watched case** is the same with at least one
//! uncoloured in-neighbour; we count how often the formula breaks there.
//! Subjects are counted per (position, r).
//!
//! Sets: every labelled digraph on 2..4 vertices (each pair none, →, ←, both)
//! with every colouring (shards [`DigraphShard::Exhaustive`], digraph index
//! ranges), and with `--random K`, K random digraphs on `--vertices V`
//! vertices (shards [`DigraphShard::Random`], sample index ranges).
//!
//! **Random stream** (portable, independent of the shard plan): sample `i`
//! uses `ChaCha8Rng::seed_from_u64(S)` with `set_stream(i)`; it draws, for
//! each pair `(a, b)`, `a < b` in graph6 column order, a uniform integer `x`
//! in `0..20` (none if `x < 11`, `a → b` if `x < 15`, `b → a` if `x < 19`,
//! else both: probabilities .55/.2/.2/.05), then per vertex `y` in `0..4`
//! (0–1 uncoloured, 2 blue, 3 red). A uniform integer below `m` is the first
//! `next_u32()` value below `m·⌊2^32/m⌋`, taken mod `m`.

mod validate;

mod report;
mod run;

use crate::col::{Board, Pos, Solver, SolverOptions};
use crate::families::col::{board_digraph6, digraph_ranges, DigraphRange};
use crate::families::col::{position_record, records_md, PositionDoc, Records};
use crate::graph::members;
use crate::sweep::merge::{add, MergeError};
use crate::sweep::ValidateError;
use crate::sweep::{thousands, Kind, Merge, ParamDef, Record, ShardCtx, Smallest, SweepError};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use run::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The `myopic-digraph` sweep kind.
pub struct MyopicDigraphSweep;

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "random",
        help: "number of random digraphs (0 = exhaustive set only)",
        default: Some(0),
        min: 0,
        max: 100_000_000,
    },
    ParamDef {
        name: "vertices",
        help: "vertices of each random digraph",
        default: Some(8),
        min: 2,
        max: 20,
    },
    ParamDef {
        name: "seed",
        help: "seed of the random stream",
        default: Some(1),
        min: 0,
        max: u64::MAX,
    },
];

/// Parameters of `myopic-digraph`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigraphParams {
    /// Number of random digraphs (0 = the exhaustive set only).
    pub random: u64,
    /// Vertices of each random digraph.
    pub vertices: usize,
    /// Seed of the random stream.
    pub seed: u64,
}

/// One shard of `myopic-digraph`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum DigraphShard {
    /// A range of the exhaustive labelled digraphs, every colouring.
    Exhaustive(DigraphRange),
    /// Random samples `lo..hi` of the documented stream.
    Random {
        /// First sample index.
        lo: u64,
        /// One past the last sample index.
        hi: u64,
    },
}

/// Counts of one set (exhaustive or random) of `myopic-digraph`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleCounts {
    /// Positions valued.
    pub positions: u64,
    /// Unwatched-source subjects (per position and r).
    pub subjects: u64,
    /// Subjects where `G = * + G(board − r)` fails.
    pub exceptions: Records,
    /// Watched cases.
    pub watched: u64,
    /// Watched cases where the formula fails.
    pub watched_broken: u64,
    /// The smallest broken watched case.
    pub smallest_watched_broken: Smallest<Record>,
    /// Positions whose value is not cold.
    pub non_cold: Records,
}

impl RuleCounts {
    fn merge(&mut self, o: RuleCounts) -> Result<(), MergeError> {
        add(&mut self.positions, o.positions, "positions")?;
        add(&mut self.subjects, o.subjects, "subjects")?;
        self.exceptions
            .merge(o.exceptions)
            .map_err(|e| e.within("exceptions"))?;
        add(&mut self.watched, o.watched, "watched")?;
        add(&mut self.watched_broken, o.watched_broken, "watched_broken")?;
        self.smallest_watched_broken
            .merge(o.smallest_watched_broken);
        self.non_cold
            .merge(o.non_cold)
            .map_err(|e| e.within("non_cold"))?;
        Ok(())
    }
}

/// The result of `myopic-digraph` shards.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigraphOutput {
    /// The exhaustive set.
    pub exhaustive: RuleCounts,
    /// The random set.
    pub random: RuleCounts,
}

impl Merge for DigraphOutput {
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        self.exhaustive
            .merge(other.exhaustive)
            .map_err(|e| e.within("exhaustive"))?;
        self.random
            .merge(other.random)
            .map_err(|e| e.within("random"))?;
        Ok(())
    }
    fn work(&self) -> u64 {
        self.exhaustive.positions + self.random.positions
    }
}

/// One set of the `myopic-digraph` document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSetDoc {
    /// Positions valued.
    pub positions: u64,
    /// Unwatched-source subjects.
    pub subjects: u64,
    /// Subjects where the formula fails.
    pub exceptions: u64,
    /// The kept exceptions.
    pub exception_records: Vec<PositionDoc>,
    /// Watched cases.
    pub watched: u64,
    /// Watched cases where the formula fails.
    pub watched_broken: u64,
    /// The smallest broken watched case.
    pub smallest_watched_broken: Option<PositionDoc>,
    /// Non-cold positions.
    pub non_cold: u64,
    /// The kept non-cold positions.
    pub non_cold_records: Vec<PositionDoc>,
}

impl From<&RuleCounts> for RuleSetDoc {
    fn from(c: &RuleCounts) -> Self {
        RuleSetDoc {
            positions: c.positions,
            subjects: c.subjects,
            exceptions: c.exceptions.total(),
            exception_records: c.exceptions.docs(),
            watched: c.watched,
            watched_broken: c.watched_broken,
            smallest_watched_broken: c.smallest_watched_broken.0.as_ref().map(PositionDoc::from),
            non_cold: c.non_cold.total(),
            non_cold_records: c.non_cold.docs(),
        }
    }
}

/// The sets of the `myopic-digraph` document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSets {
    /// Labelled digraphs on 2..4 vertices.
    pub exhaustive: RuleSetDoc,
    /// The random digraphs (absent when `--random 0`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random: Option<RuleSetDoc>,
}

/// The `results.json` of `myopic-digraph`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigraphDoc {
    /// Always `myopic-digraph`.
    pub kind: String,
    /// The parameters.
    pub params: DigraphParams,
    /// The sets.
    pub sets: RuleSets,
}

impl Kind for MyopicDigraphSweep {
    type Params = DigraphParams;
    type Shard = DigraphShard;
    type Output = DigraphOutput;
    type Doc = DigraphDoc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "myopic-digraph"
    }
    fn about(&self) -> &'static str {
        "Myopic Col on digraphs: the unwatched-source rule G = * + G(board − r), exhaustive ≤ 4 vertices plus random"
    }
    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }
    fn plan(
        &self,
        p: &DigraphParams,
        target_shards: u32,
    ) -> Result<Vec<(DigraphShard, u64)>, SweepError> {
        let k = p.random;
        let target = if target_shards == 0 {
            16
        } else {
            target_shards as u64
        };
        let mut shards: Vec<(DigraphShard, u64)> = digraph_ranges(target.min(16))
            .into_iter()
            .map(|r| (DigraphShard::Exhaustive(r), 0))
            .collect();
        if k > 0 {
            let parts = target.min(k);
            for i in 0..parts {
                shards.push((
                    DigraphShard::Random {
                        lo: k * i / parts,
                        hi: k * (i + 1) / parts,
                    },
                    0,
                ));
            }
        }
        Ok(shards)
    }
    fn run(
        &self,
        p: &DigraphParams,
        shard: &DigraphShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<DigraphOutput, SweepError> {
        let mut solver = Solver::new(SolverOptions::default());
        let mut out = DigraphOutput::default();
        match *shard {
            DigraphShard::Random { lo, hi } => {
                if lo > hi || hi > p.random {
                    return Err(SweepError::BadShard {
                        kind: self.name().into(),
                        reason: format!("random samples {lo}..{hi} outside 0..{}", p.random),
                    });
                }
                if !(2..=20).contains(&p.vertices) {
                    return Err(SweepError::BadParams {
                        kind: self.name().into(),
                        reason: format!("vertices {} out of 2..=20", p.vertices),
                    });
                }
                for i in lo..hi {
                    if i % 1024 == 0 {
                        ctx.check()?;
                    }
                    let (b, blue, red) = random_position(p.seed, i, p.vertices);
                    let code = board_digraph6(&b);
                    check_position(&mut solver, &mut out.random, &b, &code, blue, red);
                }
                ctx.add_progress(hi - lo);
            }
            DigraphShard::Exhaustive(range) => {
                let set = &mut out.exhaustive;
                range.for_each(self.name(), ctx, &mut |b, code, blue, red| {
                    check_position(&mut solver, set, b, code, blue, red)
                })?;
            }
        }
        Ok(out)
    }
    fn validate(
        &self,
        p: &DigraphParams,
        shard: &DigraphShard,
        out: &DigraphOutput,
    ) -> Result<(), ValidateError> {
        validate::validate(p, shard, out)
    }
    fn doc(&self, p: &DigraphParams, r: &DigraphOutput) -> DigraphDoc {
        DigraphDoc {
            kind: "myopic-digraph".into(),
            params: p.clone(),
            sets: RuleSets {
                exhaustive: (&r.exhaustive).into(),
                random: (p.random > 0).then(|| (&r.random).into()),
            },
        }
    }
    fn present(&self, doc: &DigraphDoc) -> crate::sweep::Presentation {
        report::present::present(doc)
    }
    fn report(&self, p: &DigraphParams, d: &DigraphDoc) -> String {
        report::report_md(p, d)
    }
}
#[cfg(test)]
mod tests;
