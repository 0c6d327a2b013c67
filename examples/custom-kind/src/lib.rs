//! An example sweep kind defined outside the gamesweep workspace's crates:
//! **Node Kayles** on every graph with at most `--max-n` vertices (one per
//! isomorphism class): how many graphs of each size have each Grundy value,
//! and the smallest graph of each value.
//!
//! What it takes to add a kind from outside (README.md):
//! 1. implement [`gamesweep::sweep::Kind`] (here [`NodeKaylesSweep`]);
//! 2. give it a solver version: `build.rs` calls
//!    `gamesweep_build::emit_kind_version()` and [`Kind::outside_version`]
//!    returns `Some(env!("GAMESWEEP_KIND_VERSION"))`;
//! 3. build binaries that register it: `gamesweep_coordinator::main_with(KINDS)`
//!    and `gamesweep_worker::cli::main_with_kinds(KINDS, args)`
//!    (`src/bin/`).

pub mod game;
mod report;

use gamesweep::graph::graph6;
use gamesweep::graph::BitGraph;
use gamesweep::sweep::merge::{add, add_counts, merge_maps, MergeError};
use gamesweep::sweep::{
    Kind, Merge, ParamDef, Presentation, ShardCtx, SweepError, SweepKind, ValidateError,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The kind's name on the command line.
pub const NAME: &str = "node-kayles";

/// The largest `--max-n`: 274,668 graphs on 9 vertices, each with a table
/// of 512 subsets, is seconds; 10 would be minutes.
pub const MAX_N: u64 = 9;

/// The kinds this crate adds, for `main_with` and `main_with_kinds`.
pub static KINDS: &[&dyn SweepKind] = &[&NodeKaylesSweep];

const PARAMS: &[ParamDef] = &[ParamDef {
    name: "max_n",
    help: "largest number of vertices",
    default: Some(7),
    min: 1,
    max: MAX_N,
}];

/// The `node-kayles` sweep kind.
pub struct NodeKaylesSweep;

/// Typed parameters.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeKaylesParams {
    /// Largest number of vertices.
    pub max_n: u64,
}

/// One shard: every graph with exactly `n` vertices.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeKaylesShard {
    /// The number of vertices.
    pub n: u32,
}

/// A graph shown as the smallest of its value; ordered by (vertices,
/// edges, graph6), the witness order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pos {
    /// Vertices.
    pub n: u32,
    /// Edges.
    pub edges: u32,
    /// graph6.
    pub code: String,
}

/// The result of one shard, or the merge of several.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeKaylesOutput {
    /// `graphs[n][value]`: graphs on `n` vertices whose Node Kayles value is
    /// `*value`.
    pub graphs: BTreeMap<u32, BTreeMap<u32, u64>>,
    /// `smallest[value]`: the smallest graph of that value.
    pub smallest: BTreeMap<u32, Pos>,
}

impl Merge for NodeKaylesOutput {
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        merge_maps(&mut self.graphs, other.graphs, "graphs", |a, b| {
            add_counts(a, b, "values")
        })?;
        for (v, p) in other.smallest {
            let mine = self.smallest.entry(v).or_insert_with(|| p.clone());
            if p < *mine {
                *mine = p;
            }
        }
        Ok(())
    }

    fn work(&self) -> u64 {
        let mut total = 0;
        for c in self.graphs.values().flat_map(|m| m.values()) {
            // saturating: `work` is for progress only
            if add(&mut total, *c, "graphs").is_err() {
                return u64::MAX;
            }
        }
        total
    }
}

/// The parameters as written in `results.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocParams {
    /// Largest number of vertices.
    pub max_n: u64,
}

/// One row of the document: the graphs on `n` vertices.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByN {
    /// Vertices.
    pub n: u32,
    /// Graphs on `n` vertices.
    pub graphs: u64,
    /// Graphs by value (value → graphs).
    pub values: BTreeMap<u32, u64>,
}

/// The smallest graph of one value, in the document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmallestDoc {
    /// The Grundy value.
    pub value: u32,
    /// Vertices.
    pub vertices: u32,
    /// Edges.
    pub edges: u32,
    /// graph6.
    pub graph6: String,
}

/// The `results.json` document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeKaylesDoc {
    /// `node-kayles`.
    pub kind: String,
    /// The parameters.
    pub params: DocParams,
    /// Graphs by number of vertices and value.
    pub by_n: Vec<ByN>,
    /// The smallest graph of each value, in value order.
    pub smallest: Vec<SmallestDoc>,
    /// The largest value of any graph.
    pub largest_value: u32,
}

fn bad_shard(reason: impl Into<String>) -> SweepError {
    SweepError::BadShard {
        kind: NAME.into(),
        reason: reason.into(),
    }
}

/// `max_n` within 1..=[`MAX_N`] (plan and run may be called without
/// `resolve_params`).
fn check_params(p: &NodeKaylesParams) -> Result<u32, SweepError> {
    if (1..=MAX_N).contains(&p.max_n) {
        Ok(p.max_n as u32)
    } else {
        Err(bad_shard(format!(
            "max_n {} is not in 1..={MAX_N}",
            p.max_n
        )))
    }
}

impl Kind for NodeKaylesSweep {
    type Params = NodeKaylesParams;
    type Shard = NodeKaylesShard;
    type Output = NodeKaylesOutput;
    type Doc = NodeKaylesDoc;

    fn name(&self) -> &'static str {
        NAME
    }

    fn about(&self) -> &'static str {
        "Node Kayles values of every graph with at most --max-n vertices (an outside kind)"
    }

    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn source_file(&self) -> &'static str {
        file!()
    }

    fn outside_version(&self) -> Option<&'static str> {
        Some(env!("GAMESWEEP_KIND_VERSION"))
    }

    fn plan(
        &self,
        params: &NodeKaylesParams,
        _target_shards: u32,
    ) -> Result<Vec<(NodeKaylesShard, u64)>, SweepError> {
        let max_n = check_params(params)?;
        // One shard per size; the estimate is the subsets of one graph.
        Ok((1..=max_n)
            .map(|n| (NodeKaylesShard { n }, 1u64 << n))
            .collect())
    }

    fn run(
        &self,
        params: &NodeKaylesParams,
        shard: &NodeKaylesShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<NodeKaylesOutput, SweepError> {
        let max_n = check_params(params)?;
        let n = shard.n;
        if !(1..=max_n).contains(&n) {
            return Err(bad_shard(format!("n {n} is not in 1..={max_n}")));
        }
        let mut out = NodeKaylesOutput::default();
        let mut counts: BTreeMap<u32, u64> = BTreeMap::new();
        let mut stopped = false;
        gamesweep::gen::walk(&BitGraph::new(0), n as usize, &mut |g| {
            if g.n() != n as usize || stopped {
                return;
            }
            if ctx.cancelled() {
                stopped = true;
                return;
            }
            let v = game::grundy(g).expect("n ≤ MAX_N ≤ MAX_VERTICES");
            *counts.entry(v).or_default() += 1;
            let p = Pos {
                n,
                edges: g.edge_count() as u32,
                code: graph6::encode_bitgraph(g),
            };
            match out.smallest.get(&v) {
                Some(q) if *q <= p => {}
                _ => {
                    out.smallest.insert(v, p);
                }
            }
            ctx.add_progress(1u64 << n);
        });
        ctx.check()?;
        out.graphs.insert(n, counts);
        Ok(out)
    }

    fn validate(
        &self,
        _params: &NodeKaylesParams,
        shard: &NodeKaylesShard,
        out: &NodeKaylesOutput,
    ) -> Result<(), ValidateError> {
        let n = shard.n;
        if out.graphs.len() != 1 || !out.graphs.contains_key(&n) {
            return Err(ValidateError::new(
                "graphs",
                format!(
                    "sizes {:?}, but the shard holds only {n}",
                    out.graphs.keys()
                ),
            ));
        }
        let values = &out.graphs[&n];
        for (v, c) in values {
            if *v > n || *c == 0 {
                return Err(ValidateError::new(
                    format!("graphs[{n}][{v}]"),
                    format!("{c} graphs, but a value is at most {n} and a count is positive"),
                ));
            }
        }
        if out.smallest.keys().ne(values.keys()) {
            return Err(ValidateError::new(
                "smallest",
                "not one graph for each value counted",
            ));
        }
        for (v, p) in &out.smallest {
            let field = format!("smallest[{v}]");
            let g = graph6::parse_bitgraph(&p.code)
                .map_err(|e| ValidateError::new(field.clone(), e))?;
            if g.n() != n as usize || p.n != n || g.edge_count() != p.edges as usize {
                return Err(ValidateError::new(
                    field,
                    format!(
                        "{} is not a graph on {n} vertices with {} edges",
                        p.code, p.edges
                    ),
                ));
            }
            // Re-solved: 2^n ≤ 512 subsets.
            if game::grundy(&g) != Some(*v) {
                return Err(ValidateError::new(
                    field,
                    format!("{} is not of value {v}", p.code),
                ));
            }
        }
        Ok(())
    }

    fn doc(&self, params: &NodeKaylesParams, merged: &NodeKaylesOutput) -> NodeKaylesDoc {
        NodeKaylesDoc {
            kind: NAME.into(),
            params: DocParams {
                max_n: params.max_n,
            },
            by_n: merged
                .graphs
                .iter()
                .map(|(n, values)| ByN {
                    n: *n,
                    graphs: values.values().fold(0u64, |a, c| a.saturating_add(*c)),
                    values: values.clone(),
                })
                .collect(),
            smallest: merged
                .smallest
                .iter()
                .map(|(v, p)| SmallestDoc {
                    value: *v,
                    vertices: p.n,
                    edges: p.edges,
                    graph6: p.code.clone(),
                })
                .collect(),
            largest_value: merged.smallest.keys().max().copied().unwrap_or(0),
        }
    }

    fn report(&self, _params: &NodeKaylesParams, doc: &NodeKaylesDoc) -> String {
        report::report_md(doc)
    }

    fn present(&self, doc: &NodeKaylesDoc) -> Presentation {
        report::present(doc)
    }
}

#[cfg(test)]
mod tests;
