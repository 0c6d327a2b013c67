//! `uvg-degree3`: the degree-3 algorithm of Burke–Ferland–Teng against exact
//! search on seeded random connected graphs of maximum degree ≤ 3.
//!
//! Graph i has `min_n + (i mod (max_n − min_n + 1))` vertices (so the sizes
//! are spread evenly) and is drawn by [`random_degree3_graph`] from stream i.
//! For every start: the degree-3 value and its number of win/lose (matching)
//! tests, the exact value and the exact search's node count (a fresh search
//! per start, memo on token + component).

mod report;
mod run;
mod validate;

use crate::bft::random::{instance_rng, random_degree3_graph};
use crate::bft::reduction::Position;
use crate::bft::solve;
use crate::families::bft::{
    plan_ranges, values_line, write_graph_exceptions, Exceptions, RangeShard, ValueCounts,
    SECTION5_NOTE,
};
use crate::graph::{graph6, BitGraph};
use crate::sweep::merge::{add, merge_maps, MergeError};
use crate::sweep::report::{nim, thousands};
use crate::sweep::ValidateError;
use crate::sweep::{Kind, Max, Merge, ParamDef, Record, ShardCtx, SweepError};
use crate::uvg::degree3::grundy_degree3;
use crate::uvg::general::reachable_positions;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
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

/// The parameters of `uvg-degree3`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Degree3Params {
    /// Number of random graphs.
    pub random: u64,
    /// Smallest vertex count.
    pub min_n: u64,
    /// Largest vertex count.
    pub max_n: u64,
    /// Seed of the random graphs.
    pub seed: u64,
}

impl Degree3Params {
    /// `(min_n, max_n)`, checked to be in order.
    fn sizes(&self) -> Result<(usize, usize), SweepError> {
        if self.min_n > self.max_n {
            return Err(SweepError::OutOfRange {
                kind: "uvg-degree3".into(),
                param: "min-n".into(),
                value: self.min_n,
                min: 1,
                max: self.max_n,
            });
        }
        Ok((self.min_n as usize, self.max_n as usize))
    }
}

/// Graph `i` of the sweep.
pub fn instance(seed: u64, min_n: usize, max_n: usize, i: u64) -> BitGraph {
    let n = min_n + (i % (max_n - min_n + 1) as u64) as usize;
    random_degree3_graph(&mut instance_rng(seed, i), n)
}

/// Tallies of the graphs of one size.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SizeStats {
    /// Graphs.
    pub graphs: u64,
    /// Starts (graphs × n).
    pub starts: u64,
    /// Win/lose tests of the degree-3 algorithm, all starts.
    pub tests: u64,
    /// The most tests of one start.
    pub tests_max: Max,
    /// Exact-search nodes, all starts.
    pub nodes: u64,
    /// The most exact-search nodes of one start.
    pub nodes_max: Max,
    /// Reachable positions per start (fresh memo), summed.
    pub reachable_start: u64,
    /// The most reachable positions of one start.
    pub reachable_start_max: Max,
    /// Reachable positions per graph (one memo for all starts), summed.
    pub reachable_graph: u64,
    /// The most reachable positions of one graph.
    pub reachable_graph_max: Max,
}

impl SizeStats {
    fn merge(&mut self, o: SizeStats) -> Result<(), MergeError> {
        add(&mut self.graphs, o.graphs, "graphs")?;
        add(&mut self.starts, o.starts, "starts")?;
        add(&mut self.tests, o.tests, "tests")?;
        self.tests_max.merge(o.tests_max);
        add(&mut self.nodes, o.nodes, "nodes")?;
        self.nodes_max.merge(o.nodes_max);
        add(
            &mut self.reachable_start,
            o.reachable_start,
            "reachable_start",
        )?;
        self.reachable_start_max.merge(o.reachable_start_max);
        add(
            &mut self.reachable_graph,
            o.reachable_graph,
            "reachable_graph",
        )?;
        self.reachable_graph_max.merge(o.reachable_graph_max);
        Ok(())
    }
}

/// The merged result of graphs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Degree3Output {
    /// Positions processed (starts).
    pub work: u64,
    /// Tallies by vertex count.
    pub by_n: BTreeMap<u64, SizeStats>,
    /// Exact values over all starts.
    pub values: ValueCounts,
    /// Win/lose tests per start, over the starts the algorithm answered.
    pub tests_per_start: ValueCounts,
    /// Disagreements with exact search, and graphs the algorithm declined.
    pub exceptions: Exceptions,
}

impl Merge for Degree3Output {
    fn merge(&mut self, o: Self) -> Result<(), MergeError> {
        add(&mut self.work, o.work, "work")?;
        merge_maps(&mut self.by_n, o.by_n, "by_n", SizeStats::merge)?;
        self.values
            .merge(o.values)
            .map_err(|e| e.within("values"))?;
        self.tests_per_start
            .merge(o.tests_per_start)
            .map_err(|e| e.within("tests_per_start"))?;
        self.exceptions
            .merge(o.exceptions)
            .map_err(|e| e.within("exceptions"))?;
        Ok(())
    }
    fn work(&self) -> u64 {
        self.work
    }
}

/// One row of `by_n` in results.json.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeRow {
    /// Vertex count.
    pub n: u64,
    /// Graphs.
    pub graphs: u64,
    /// Starts.
    pub starts: u64,
    /// Win/lose tests, all starts.
    pub win_lose_tests: u64,
    /// The most tests of one start.
    pub win_lose_tests_max: u64,
    /// Exact-search nodes, all starts.
    pub exact_nodes: u64,
    /// The most exact-search nodes of one start.
    pub exact_nodes_max: u64,
    /// Reachable positions per start, summed.
    pub reachable_positions_per_start: u64,
    /// The most reachable positions of one start.
    pub reachable_positions_per_start_max: u64,
    /// Reachable positions per graph, summed.
    pub reachable_positions_per_graph: u64,
    /// The most reachable positions of one graph.
    pub reachable_positions_per_graph_max: u64,
}

/// `results.json` of `uvg-degree3`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Degree3Doc {
    /// `uvg-degree3`.
    pub kind: String,
    /// The parameters.
    pub params: Degree3Params,
    /// [`RANDOM_MODEL`].
    pub random_model: String,
    /// What the exact-search node count counts.
    pub exact_nodes: String,
    /// What the reachable-position count counts.
    pub reachable_positions: String,
    /// Tallies by vertex count (sizes with graphs only).
    pub by_n: Vec<SizeRow>,
    /// `{value: starts}`.
    pub values: BTreeMap<u64, u64>,
    /// `{tests: starts}`.
    pub win_lose_tests_per_start: BTreeMap<u64, u64>,
    /// Exceptions in all.
    pub exceptions: u64,
    /// The kept exceptions, smallest first.
    pub exception_records: Vec<Record>,
    /// [`SECTION5_NOTE`].
    pub not_covered: String,
}

const EXACT_NODES: &str = "search nodes of the library's exact solver (uvg::general::grundy_general, fresh per start; it skips moves onto leaves and counts each distinct position it evaluates)";

const REACHABLE_POSITIONS: &str = "distinct (token, component) positions reachable from a start: the node count of a plain search memoised on (token, component), with no shortcuts; per start (fresh memo) and per graph (one memo shared by all starts)";

impl Kind for Degree3Sweep {
    type Params = Degree3Params;
    type Shard = RangeShard;
    type Output = Degree3Output;
    type Doc = Degree3Doc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "uvg-degree3"
    }

    fn about(&self) -> &'static str {
        "Burke-Ferland-Teng degree-3 algorithm vs exact search on seeded random connected graphs of max degree <= 3"
    }

    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn plan(
        &self,
        params: &Degree3Params,
        target_shards: u32,
    ) -> Result<Vec<(RangeShard, u64)>, SweepError> {
        let (lo, hi) = params.sizes()?;
        let span = (hi - lo + 1) as u64;
        Ok(plan_ranges(params.random, target_shards, 8, |a, b| {
            (a..b).map(|i| lo as u64 + i % span).sum()
        }))
    }

    fn run(
        &self,
        params: &Degree3Params,
        shard: &RangeShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<Degree3Output, SweepError> {
        let (lo, hi) = params.sizes()?;
        let mut out = Degree3Output::default();
        for i in shard.instances(Kind::name(self), params.random)? {
            ctx.check()?;
            let g = instance(params.seed, lo, hi, i);
            run::check_graph(&mut out, i, &g);
            out.work += g.n() as u64;
            ctx.add_progress(g.n() as u64);
        }
        Ok(out)
    }

    fn validate(
        &self,
        params: &Degree3Params,
        shard: &RangeShard,
        out: &Degree3Output,
    ) -> Result<(), ValidateError> {
        validate::validate(params, shard, out)
    }

    fn doc(&self, params: &Degree3Params, r: &Degree3Output) -> Degree3Doc {
        Degree3Doc {
            kind: Kind::name(self).into(),
            params: params.clone(),
            random_model: RANDOM_MODEL.into(),
            exact_nodes: EXACT_NODES.into(),
            reachable_positions: REACHABLE_POSITIONS.into(),
            by_n: r
                .by_n
                .iter()
                .filter(|(_, t)| t.starts > 0)
                .map(|(&n, t)| SizeRow {
                    n,
                    graphs: t.graphs,
                    starts: t.starts,
                    win_lose_tests: t.tests,
                    win_lose_tests_max: t.tests_max.0,
                    exact_nodes: t.nodes,
                    exact_nodes_max: t.nodes_max.0,
                    reachable_positions_per_start: t.reachable_start,
                    reachable_positions_per_start_max: t.reachable_start_max.0,
                    reachable_positions_per_graph: t.reachable_graph,
                    reachable_positions_per_graph_max: t.reachable_graph_max.0,
                })
                .collect(),
            values: r.values.to_map(),
            win_lose_tests_per_start: r.tests_per_start.to_map(),
            exceptions: r.exceptions.count(),
            exception_records: r.exceptions.records(),
            not_covered: SECTION5_NOTE.into(),
        }
    }

    fn present(&self, doc: &Degree3Doc) -> crate::sweep::Presentation {
        report::present::present(doc)
    }
    fn report(&self, _params: &Degree3Params, doc: &Degree3Doc) -> String {
        report::report_md(doc)
    }
}

#[cfg(test)]
mod tests;
