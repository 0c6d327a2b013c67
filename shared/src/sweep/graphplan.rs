//! Shard plans for sweeps over all connected graphs on 1..=N vertices, by
//! canonical-form prefix.
//!
//! The generation tree of [`crate::gen`] is cut at depth `k`: shard payload
//! `top` covers every graph with fewer than `k` vertices (walked from the
//! root), and every other shard is a list of depth-`k` prefixes (graph6, in
//! the generator's own labelling) whose subtrees it walks down to `N`. The
//! prefixes are dealt round-robin (like geng's res/mod), which spreads the
//! large and small subtrees evenly. Any `k` covers every isomorphism class
//! exactly once, so the merged result does not depend on the plan.

use super::{ShardSpec, SweepError};
use crate::gen::{self, WalkOptions};
use crate::graph::{graph6, BitGraph};

/// One parsed shard of a graph plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GraphShard {
    /// Every graph with fewer than `depth` vertices (and at most `max_n`).
    Top {
        /// The plan's prefix depth.
        depth: usize,
    },
    /// The subtrees of these depth-`k` prefixes.
    Prefixes(Vec<BitGraph>),
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
        _ => 4096,
    }
}

/// Plan shards for all graphs on 1..=`max_n` vertices.
pub fn plan(max_n: usize, target_shards: u32) -> Vec<ShardSpec> {
    let (depth, target) = choose_depth(max_n, target_shards);
    let mut specs = Vec::new();
    if depth > 1 {
        specs.push(format!("top {depth}"));
    }
    let prefixes = gen::prefixes(depth);
    let shards = target.min(prefixes.len()).max(1);
    let mut lists = vec![Vec::new(); shards];
    for (i, p) in prefixes.iter().enumerate() {
        lists[i % shards].push(graph6::encode_bitgraph(p));
    }
    for l in lists {
        // graph6 of the empty graph (depth 0) is "?", so lists are never empty strings.
        specs.push(format!("prefixes {depth} {}", l.join(" ")));
    }
    specs
        .into_iter()
        .enumerate()
        .map(|(i, payload)| ShardSpec {
            index: i as u32,
            payload,
            estimate: 0,
        })
        .collect()
}

/// Parse a payload written by [`plan`].
pub fn parse(kind: &str, payload: &str) -> Result<GraphShard, SweepError> {
    let bad = |reason: String| SweepError::BadShard {
        kind: kind.into(),
        reason,
    };
    let mut words = payload.split_ascii_whitespace();
    let tag = words.next().ok_or_else(|| bad("empty payload".into()))?;
    let depth: usize = words
        .next()
        .and_then(|d| d.parse().ok())
        .filter(|&d| d <= 12)
        .ok_or_else(|| bad(format!("missing or bad depth in `{payload:.40}`")))?;
    match tag {
        "top" => Ok(GraphShard::Top { depth }),
        "prefixes" => {
            let mut out = Vec::new();
            for w in words {
                let g = graph6::parse_bitgraph(w).map_err(|e| bad(format!("prefix `{w}`: {e}")))?;
                if g.n() != depth {
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
            Ok(GraphShard::Prefixes(out))
        }
        other => Err(bad(format!("unknown shard tag `{other}`"))),
    }
}

/// Visit every connected graph of the shard with `1..=max_n` vertices.
pub fn walk_connected(shard: &GraphShard, max_n: usize, visit: &mut dyn FnMut(&BitGraph)) {
    match shard {
        GraphShard::Top { depth } => {
            let hi = (*depth - 1).min(max_n);
            let opts = WalkOptions {
                connected_only: true,
                min_n: 1,
            };
            gen::walk_filtered(&BitGraph::new(0), hi, opts, visit);
        }
        GraphShard::Prefixes(ps) => {
            let opts = WalkOptions {
                connected_only: true,
                min_n: 1,
            };
            for p in ps {
                gen::walk_filtered(p, max_n, opts, visit);
            }
        }
    }
}
