//! The `uvg-local-search` sweep: seeded hill climbing for UVG positions of a
//! high nimber on a fixed number of vertices, sharded by random seed.
//!
//! It only ever finds upper bounds for "smallest graph with a start of value
//! *k" (the exact answers come from exhaustive sweeps). Every seed index `i`
//! runs an independent climb driven by `ChaCha8Rng::seed_from_u64(seed)` with
//! stream `i` (rand_chacha's portable ChaCha8: the same seed gives the same
//! graphs on every machine and version). A climb starts from a random
//! connected graph (random recursive tree: vertex v joins a uniform earlier
//! vertex; then every other pair is an edge with probability 1/4) and repeats:
//! toggle a uniformly random vertex pair; reject if the graph disconnects;
//! accept if the score Σ_v 8^grundy(v) does not drop; after `stall` rejected
//! steps in a row, kick the graph with three random toggles. It stops at the
//! first graph with a start of value ≥ `--value`, or after `--steps` steps.

mod validate;

mod report;
mod run;

use crate::graph::{graph6, BitGraph};
use crate::sweep::merge::{add, merge_maps, MergeError};
use crate::sweep::ValidateError;
use crate::sweep::{Kind, Merge, ParamDef, ShardCtx, Smallest, SweepError};
use crate::uvg;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use run::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The `uvg-local-search` sweep kind.
pub struct UvgLocalSearch;

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "value",
        help: "target nimber k: stop a climb at the first start of value >= *k",
        default: Some(6),
        min: 1,
        max: 20,
    },
    ParamDef {
        name: "vertices",
        help: "number of vertices of the graphs searched",
        default: Some(12),
        min: 2,
        max: 16,
    },
    ParamDef {
        name: "seeds",
        help: "independent climbs (seed indices 0..seeds)",
        default: Some(64),
        min: 1,
        max: 1 << 24,
    },
    ParamDef {
        name: "steps",
        help: "edge toggles per climb at most",
        default: Some(20_000),
        min: 1,
        max: 1 << 32,
    },
    ParamDef {
        name: "seed",
        help: "base random seed (ChaCha8)",
        default: Some(1),
        min: 0,
        max: u64::MAX,
    },
];

/// Parameters of the `uvg-local-search` sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    /// Target nimber k: a climb stops at the first start of value ≥ *k.
    pub value: u8,
    /// Vertices of the graphs searched.
    pub vertices: usize,
    /// Independent climbs (seed indices `0..seeds`).
    pub seeds: u64,
    /// Edge toggles per climb at most.
    pub steps: u64,
    /// Base random seed (ChaCha8).
    pub seed: u64,
}

impl SearchParams {
    fn check(&self) -> Result<(), SweepError> {
        if !(2..=16).contains(&self.vertices) || self.value == 0 || self.seeds == 0 {
            return Err(SweepError::BadParams {
                kind: "uvg-local-search".into(),
                reason: format!("{self:?} out of range (vertices 2..=16, value >= 1, seeds >= 1)"),
            });
        }
        Ok(())
    }
}

/// One shard: the climbs of seed indices `start..end`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedRange {
    /// First seed index.
    pub start: u64,
    /// One past the last seed index.
    pub end: u64,
}

/// The best position of a climb, ordered as witnesses are (vertices are
/// fixed by the parameters: edges, graph6, start, then the seed index).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ClimbWitness {
    /// Edges of the graph.
    pub edges: u32,
    /// The graph (graph6).
    pub graph6: String,
    /// A start of the climb's best value.
    pub start: u32,
    /// The seed index of the climb that found it.
    pub seed_index: u64,
}

/// The climbs whose best value was one value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BestValue {
    /// How many climbs.
    pub climbs: u64,
    /// The smallest of their best positions.
    pub witness: Smallest<ClimbWitness>,
}

/// The result of some climbs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchOutput {
    /// Climbs run.
    pub climbs: u64,
    /// Edge toggles tried, in all.
    pub steps: u64,
    /// Grundy evaluations (one per connected graph visited).
    pub evaluations: u64,
    /// By the best value a climb reached.
    pub best: BTreeMap<u8, BestValue>,
}

impl Merge for SearchOutput {
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        add(&mut self.climbs, other.climbs, "climbs")?;
        add(&mut self.steps, other.steps, "steps")?;
        add(&mut self.evaluations, other.evaluations, "evaluations")?;
        merge_maps(&mut self.best, other.best, "best", |a, b| {
            add(&mut a.climbs, b.climbs, "climbs")?;
            a.witness.merge(b.witness);
            Ok(())
        })
    }
    fn work(&self) -> u64 {
        self.steps
    }
}

/// `results.json` of the `uvg-local-search` sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchDoc {
    /// Always `uvg-local-search`.
    pub kind: String,
    /// The parameters.
    pub params: SearchParams,
    /// Climbs run.
    pub climbs: u64,
    /// Edge toggles tried.
    pub steps: u64,
    /// Grundy evaluations.
    pub evaluations: u64,
    /// By the best value a climb reached.
    pub best_values: BTreeMap<u8, BestRow>,
}

/// The climbs that reached one best value, and the smallest position found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BestRow {
    /// How many climbs.
    pub climbs: u64,
    /// The graph (graph6).
    pub graph6: String,
    /// A start of that value.
    pub start: u32,
    /// Edges.
    pub edges: u32,
    /// `seed index I`: the climb that found it.
    pub found_by: String,
}

impl Kind for UvgLocalSearch {
    type Params = SearchParams;
    type Shard = SeedRange;
    type Output = SearchOutput;
    type Doc = SearchDoc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "uvg-local-search"
    }
    fn about(&self) -> &'static str {
        "seeded hill climbing for UVG starts of value >= *k on n vertices (upper bounds), sharded by seed"
    }
    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }
    fn plan(
        &self,
        params: &SearchParams,
        target_shards: u32,
    ) -> Result<Vec<(SeedRange, u64)>, SweepError> {
        params.check()?;
        let seeds = params.seeds;
        let shards = if target_shards == 0 {
            seeds.min(256)
        } else {
            (target_shards as u64).min(seeds)
        };
        let per = seeds.div_ceil(shards);
        Ok((0..shards)
            .map(|i| (i * per, ((i + 1) * per).min(seeds)))
            .filter(|(a, b)| a < b)
            .map(|(start, end)| {
                let estimate = (end - start).saturating_mul(params.steps);
                (SeedRange { start, end }, estimate)
            })
            .collect())
    }
    fn run(
        &self,
        params: &SearchParams,
        shard: &SeedRange,
        ctx: &ShardCtx<'_>,
    ) -> Result<SearchOutput, SweepError> {
        params.check()?;
        if shard.start >= shard.end {
            return Err(SweepError::BadShard {
                kind: Kind::name(self).into(),
                reason: format!("empty seed range {}..{}", shard.start, shard.end),
            });
        }
        let n = params.vertices;
        let mut out = SearchOutput::default();
        for i in shard.start..shard.end {
            ctx.check()?;
            let c = climb(n, params.value, params.steps, params.seed, i);
            let max = *c.best_values.iter().max().unwrap_or(&0);
            ctx.add_progress(c.steps);
            out.climbs += 1;
            out.steps += c.steps;
            out.evaluations += c.evaluations;
            let start = c.best_values.iter().position(|&v| v == max).unwrap_or(0);
            let best = out.best.entry(max).or_default();
            best.climbs += 1;
            best.witness.offer(ClimbWitness {
                edges: c.best.edge_count() as u32,
                graph6: graph6::encode_bitgraph(&c.best),
                start: start as u32,
                seed_index: i,
            });
        }
        Ok(out)
    }
    fn validate(
        &self,
        params: &SearchParams,
        shard: &SeedRange,
        out: &SearchOutput,
    ) -> Result<(), ValidateError> {
        validate::validate(params, shard, out)
    }
    fn doc(&self, params: &SearchParams, r: &SearchOutput) -> SearchDoc {
        let best_values = r
            .best
            .iter()
            .filter_map(|(&v, b)| {
                let w = b.witness.0.as_ref()?;
                Some((
                    v,
                    BestRow {
                        climbs: b.climbs,
                        graph6: w.graph6.clone(),
                        start: w.start,
                        edges: w.edges,
                        found_by: format!("seed index {}", w.seed_index),
                    },
                ))
            })
            .collect();
        SearchDoc {
            kind: Kind::name(self).into(),
            params: params.clone(),
            climbs: r.climbs,
            steps: r.steps,
            evaluations: r.evaluations,
            best_values,
        }
    }
    fn present(&self, doc: &SearchDoc) -> crate::sweep::Presentation {
        report::present::present(doc)
    }
    fn report(&self, _params: &SearchParams, doc: &SearchDoc) -> String {
        report::report_md(doc)
    }
}
#[cfg(test)]
mod tests;
