//! Shard plans for sweeps over all connected graphs on 1..=N vertices, by
//! canonical-form prefix.
//!
//! The generation tree of [`crate::gen`] is cut at depth `k`: shard
//! [`GraphShard::Top`] covers every graph with fewer than `k` vertices
//! (walked from the root), and every other shard is a list of depth-`k`
//! prefixes (graph6, in the generator's own labelling) whose subtrees it walks
//! down to `N`. Prefixes are dealt by estimate, largest first, to the least
//! loaded shard. Any `k` covers every isomorphism class
//! exactly once, so the merged result does not depend on the plan.

use super::SweepError;
use crate::gen::{self, WalkOptions};
use crate::graph::{graph6, BitGraph};
use serde::{Deserialize, Serialize};

/// One shard of a graph plan, as planned, stored and sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum GraphShard {
    /// Every graph with fewer than `depth` vertices (and at most `max_n`).
    Top {
        /// The plan's prefix depth.
        depth: usize,
    },
    /// The subtrees of these depth-`depth` prefixes (graph6).
    Prefixes {
        /// The plan's prefix depth.
        depth: usize,
        /// The prefixes, graph6 in the generator's labelling.
        prefixes: Vec<String>,
    },
}

/// A shard checked and decoded, ready to walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Walk {
    /// Every graph with fewer than `depth` vertices.
    Top {
        /// The plan's prefix depth.
        depth: usize,
    },
    /// The subtrees of these prefixes.
    Prefixes(Vec<BitGraph>),
}

impl GraphShard {
    /// Check the shard (depth in range, prefixes valid graph6 of `depth`
    /// vertices, at least one) and decode its prefixes.
    pub fn decode(&self, kind: &str) -> Result<Walk, SweepError> {
        let bad = |reason: String| SweepError::BadShard {
            kind: kind.into(),
            reason,
        };
        match self {
            GraphShard::Top { depth } if (2..=12).contains(depth) => {
                Ok(Walk::Top { depth: *depth })
            }
            GraphShard::Top { depth } => Err(bad(format!("bad depth {depth} for a top shard"))),
            GraphShard::Prefixes { depth, prefixes } => {
                if *depth > 12 {
                    return Err(bad(format!("bad depth {depth}")));
                }
                let mut out = Vec::with_capacity(prefixes.len());
                for w in prefixes {
                    let g = graph6::parse_bitgraph(w)
                        .map_err(|e| bad(format!("prefix `{w:.40}`: {e}")))?;
                    if g.n() != *depth {
                        return Err(bad(format!(
                            "prefix `{w}` has {} vertices, plan depth is {depth}",
                            g.n()
                        )));
                    }
                    out.push(g);
                }
                if out.is_empty() {
                    return Err(bad("no prefixes".into()));
                }
                Ok(Walk::Prefixes(out))
            }
        }
    }
}

/// The prefix depth for `max_n` and a target shard count (0 = default): the
/// smallest depth with at least 4 prefixes per shard, never deeper than `max_n - 1`.
pub fn choose_depth(max_n: usize, target_shards: u32) -> (usize, usize) {
    let target = if target_shards == 0 {
        default_shards(max_n)
    } else {
        target_shards as usize
    };
    let mut depth = 0;
    let mut count = 1;
    while depth + 1 < max_n && count < 4 * target && depth < 9 {
        depth += 1;
        count = gen::prefixes(depth).len();
    }
    (depth, target)
}

/// Default shard count: enough to balance a few dozen workers, few enough to keep overheads small.
pub fn default_shards(max_n: usize) -> usize {
    match max_n {
        0..=6 => 1,
        7 => 4,
        8 => 16,
        9 => 64,
        10 => 256,
        11 => 4096,
        // ~2.5 million graphs (~200 s of CPU) per shard at n = 12.
        _ => 65536,
    }
}

/// Work per graph, for shard estimates: `PerVertex` counts one position per
/// vertex (a sweep over every start vertex), `None` leaves estimates at 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// No estimate (the kind's work per graph is not a function of `n`).
    None,
    /// `n` positions per graph on `n` vertices.
    PerVertex,
}

/// Total Knuth probes spent on a plan's estimates (split over its prefixes,
/// at least one each): about 0.2 s of planning at `max_n` = 10, 4 s of CPU at
/// 11 (one probe for each of the 274,668 depth-9 prefixes).
const PROBE_BUDGET: usize = 1 << 14;

/// Plan shards for all graphs on 1..=`max_n` vertices. Each shard's
/// `estimate` is its expected number of positions under `work`: exact for the
/// `top` shard and the first level below the prefixes, a fixed-seed Knuth
/// probe estimate ([`gen::estimate_connected_levels`]) below that, so the
/// plan is deterministic.
pub fn plan(max_n: usize, target_shards: u32, work: Work) -> Vec<(GraphShard, u64)> {
    let (depth, target) = choose_depth(max_n, target_shards);
    let mut specs = Vec::new();
    if depth > 1 {
        let mut est = 0u64;
        if work == Work::PerVertex {
            walk_connected(&Walk::Top { depth }, max_n, &mut |g| est += g.n() as u64);
        }
        specs.push((GraphShard::Top { depth }, est));
    }
    let prefixes = gen::prefixes(depth);
    let shards = target.min(prefixes.len()).max(1);
    let per_prefix = match work {
        Work::None => vec![0f64; prefixes.len()],
        Work::PerVertex => prefix_estimates(&prefixes, max_n),
    };
    let mut lists = vec![(Vec::new(), 0f64); shards];
    for (i, s) in deal(&per_prefix, shards).into_iter().enumerate() {
        let l = &mut lists[s];
        l.0.push(graph6::encode_bitgraph(&prefixes[i]));
        l.1 += per_prefix[i];
    }
    for (l, est) in lists {
        specs.push((
            GraphShard::Prefixes { depth, prefixes: l },
            est.round() as u64,
        ));
    }
    specs
}

/// The shard of each prefix. Without estimates, round-robin (like geng's
/// res/mod). With them, largest estimate first to the least loaded shard
/// (ties by index), so shards come out about equally large even when a few
/// subtrees are much bigger than the rest. Deterministic either way, and every
/// shard gets at least one prefix when there are at least as many prefixes.
fn deal(estimates: &[f64], shards: usize) -> Vec<usize> {
    use std::cmp::Reverse;
    if estimates.iter().all(|&e| e == 0.0) {
        return (0..estimates.len()).map(|i| i % shards).collect();
    }
    let mut order: Vec<usize> = (0..estimates.len()).collect();
    order.sort_by(|&a, &b| estimates[b].total_cmp(&estimates[a]).then(a.cmp(&b)));
    // Loads in whole positions keep the heap's order exact and deterministic.
    let mut heap: std::collections::BinaryHeap<Reverse<(u64, usize)>> =
        (0..shards).map(|s| Reverse((0, s))).collect();
    let mut out = vec![0; estimates.len()];
    for i in order {
        let Reverse((load, s)) = heap.pop().expect("at least one shard");
        out[i] = s;
        heap.push(Reverse((load + estimates[i].round().max(1.0) as u64, s)));
    }
    out
}

/// Expected positions (one per vertex) in each prefix's subtree, on all cores.
/// Prefix `i` uses seed `i`, so the values do not depend on the thread count.
fn prefix_estimates(prefixes: &[BitGraph], max_n: usize) -> Vec<f64> {
    let probes = (PROBE_BUDGET / prefixes.len().max(1)).max(1);
    let one = |i: usize| -> f64 {
        gen::estimate_connected_levels(&prefixes[i], max_n, probes, i as u64)
            .iter()
            .enumerate()
            .map(|(m, x)| m as f64 * x)
            .sum()
    };
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(prefixes.len().div_ceil(256))
        .max(1);
    let mut out = vec![0f64; prefixes.len()];
    let chunk = prefixes.len().div_ceil(threads);
    std::thread::scope(|sc| {
        for (c, slot) in out.chunks_mut(chunk).enumerate() {
            sc.spawn(move || {
                for (k, x) in slot.iter_mut().enumerate() {
                    *x = one(c * chunk + k);
                }
            });
        }
    });
    out
}

/// Visit every connected graph of the shard with `1..=max_n` vertices.
pub fn walk_connected(shard: &Walk, max_n: usize, visit: &mut dyn FnMut(&BitGraph)) {
    walk_tree(shard, max_n, &mut |g, counted| {
        if counted {
            visit(g)
        }
    })
}

/// Every node of the generation tree the shard walks, in depth-first
/// preorder ([`gen::walk_nodes`]): `visit(g, counted)`, `counted` = `g` is a
/// connected graph with `1..=max_n` vertices that this shard covers (the
/// graphs [`walk_connected`] visits, in the same order). A node with `n`
/// vertices is its parent (the last node visited with `n − 1` vertices) plus
/// vertex `n − 1`; the first node of each prefix's subtree is the prefix.
pub fn walk_tree(shard: &Walk, max_n: usize, visit: &mut dyn FnMut(&BitGraph, bool)) {
    let opts = WalkOptions {
        connected_only: true,
        min_n: 1,
    };
    match shard {
        Walk::Top { depth } => {
            let hi = (*depth - 1).min(max_n);
            gen::walk_nodes(&BitGraph::new(0), hi, opts, visit);
        }
        Walk::Prefixes(ps) => {
            for p in ps {
                gen::walk_nodes(p, max_n, opts, visit);
            }
        }
    }
}
