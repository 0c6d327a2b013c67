//! Shard plans for sweeps over all connected graphs on 1..=N vertices.
//!
//! Two kinds of plan, both exact for any shard count (every isomorphism
//! class counted exactly once, so the merged result does not depend on the
//! plan):
//!
//! - **By prefix** (up to N = 10, when there are at least 4 prefixes per
//!   shard): the generation tree of [`crate::gen`] is cut at depth `k`: shard
//!   [`GraphShard::Top`] covers every graph with fewer than `k` vertices
//!   (walked from the root), and every other shard is a list of depth-`k`
//!   prefixes (graph6, in the generator's own labelling) whose subtrees it
//!   walks down to `N`. Prefixes are dealt by estimate, largest first, to the
//!   least loaded shard.
//! - **Split** (from N = 11 on, and wherever prefixes are too few): geng-style
//!   `res/mod` cuts ([`GraphShard::Split`]), one per level from
//!   `min(9, N − 2)` to `N − 1`: a shard walks the tree from the root and, at
//!   each cut level, keeps only the nodes whose index among those it reaches
//!   there is in its residue class. At N ≥ 11 every shard gets thousands of
//!   nodes from all over the tree at each cut, so shards balance without
//!   per-subtree estimates (one Knuth probe per prefix is far too noisy for
//!   that at N = 12, and some single depth-9 subtrees are many shards large),
//!   and a shard is a few numbers, not a list of prefixes.

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
    /// geng-style `res/mod` cuts of the whole tree, walked from the root: at
    /// each cut's level, only the nodes whose index among the nodes reached
    /// there is `≡ res (mod modulus)` (and their subtrees). A graph above a
    /// cut level is counted only by the shard with residue 0 at that cut.
    Split {
        /// The cuts, levels strictly increasing.
        cuts: Vec<Cut>,
    },
}

/// One `res/mod` cut of a [`GraphShard::Split`] shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cut {
    /// The level (number of vertices) cut.
    pub level: usize,
    /// The residue kept, below `modulus`.
    pub res: u64,
    /// The modulus, at least 1.
    pub modulus: u64,
}

/// Largest modulus a cut may have.
const MAX_MODULUS: u64 = 1 << 32;

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
    /// The tree from the root under these `res/mod` cuts.
    Split(Vec<gen::Residue>),
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
            GraphShard::Split { cuts } => {
                if cuts.is_empty() || cuts.len() > 4 {
                    return Err(bad(format!("{} cuts, not 1..=4", cuts.len())));
                }
                let mut out = Vec::with_capacity(cuts.len());
                let mut above = 0;
                for c in cuts {
                    if c.level <= above || c.level > BitGraph::MAX_N {
                        return Err(bad(format!(
                            "cut level {} (levels must increase, within 1..={})",
                            c.level,
                            BitGraph::MAX_N
                        )));
                    }
                    if c.modulus == 0 || c.modulus > MAX_MODULUS || c.res >= c.modulus {
                        return Err(bad(format!(
                            "cut at level {}: residue {} modulus {} (need 0 <= res < modulus <= 2^32)",
                            c.level, c.res, c.modulus
                        )));
                    }
                    above = c.level;
                    out.push(gen::Residue {
                        level: c.level,
                        res: c.res,
                        modulus: c.modulus,
                    });
                }
                Ok(Walk::Split(out))
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
        // ~2.5 million graphs (~200 s of CPU) per shard at n = 12; a split
        // plan (see `split_layout`) has exactly this many shards.
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

/// Plan shards for all graphs on 1..=`max_n` vertices: a split plan
/// ([`split_layout`]; about `target_shards` rounded up to a power of two) from
/// `max_n` = 11 on or when prefixes are too few, else [`plan_by_prefix`].
/// Each shard's `estimate` is its expected number of positions under `work`:
/// exact for the `top` shard and the first level below the prefixes, a
/// fixed-seed Knuth probe estimate ([`gen::estimate_connected_levels`]) below
/// that, so the plan is deterministic.
pub fn plan(max_n: usize, target_shards: u32, work: Work) -> Vec<(GraphShard, u64)> {
    let (depth, target) = choose_depth(max_n, target_shards);
    if let Some((level, moduli)) = split_layout(max_n, depth, target) {
        return plan_split(max_n, level, &moduli, work);
    }
    plan_by_prefix(max_n, target_shards, work)
}

/// The prefix plan (a `top` shard and lists of depth-`k` prefixes dealt by
/// estimate), whatever `max_n` and the shard count: what [`plan`] gives up to
/// `max_n` = 10 when there are at least 4 prefixes per shard.
pub fn plan_by_prefix(max_n: usize, target_shards: u32, work: Work) -> Vec<(GraphShard, u64)> {
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

/// When a plan is cut by `res/mod` instead of by prefix lists: from
/// `max_n` = 11 on (so that no shard is one huge prefix, and shards balance
/// without per-prefix estimates), and whenever there are fewer than 4
/// prefixes per shard at the deepest prefix depth allowed. Then `Some((L,
/// moduli))`: one cut per level from `L = min(9, max_n − 2)` to `max_n − 1`,
/// the `log2(target)` bits of the shard count shared out evenly over them
/// (the first cuts get the odd ones), at most about 4 nodes per group at the
/// first cut. The first cut deals the level-`L` nodes round-robin into
/// groups, which balance because each has thousands of nodes from all over
/// the tree at `max_n` ≥ 11; the cuts below interleave each group's deeper
/// nodes, so a shard's share of a group is even too. Each cut costs every
/// shard the generation of all the nodes at its level that it reaches (at
/// `L` = 9, all 274,668: about 0.07 s).
fn split_layout(max_n: usize, depth: usize, target: usize) -> Option<(usize, Vec<u64>)> {
    if max_n < 4 || target <= 1 {
        return None;
    }
    if max_n < 11 && gen::prefixes(depth).len() >= 4 * target {
        return None;
    }
    let level = (max_n - 2).min(9);
    let cuts = max_n - 1 - level + 1;
    let bits = target.next_power_of_two().ilog2() as usize;
    let mut moduli: Vec<u64> = (0..cuts)
        .map(|i| 1u64 << (bits / cuts + usize::from(i < bits % cuts)))
        .collect();
    let nodes = gen::prefixes(level).len() as u64;
    moduli[0] = moduli[0].min(nodes).max(1);
    moduli[1] = moduli[1].min((4 * nodes / moduli[0]).max(1));
    Some((level, moduli))
}

/// The shards of a split plan ([`split_layout`]): one per combination of
/// residues, group-major. A shard walks the level-`L` nodes `≡ g (mod K)`
/// and, at each deeper cut, the nodes in its residue class among those it
/// reaches; it counts a graph above a cut only if its residue there is 0.
/// Estimates (under `work`): each group's Knuth estimate ([`prefix_estimates`]
/// of its level-`L` nodes) below level `L`, shared equally by the group's
/// shards; exact above (the graphs above level `L` go to the all-0 shard,
/// the group's level-`L` graphs to its first shard).
fn plan_split(max_n: usize, level: usize, moduli: &[u64], work: Work) -> Vec<(GraphShard, u64)> {
    let k = moduli[0] as usize;
    let sub: u64 = moduli[1..].iter().product();
    let mut above = 0u64;
    let mut own = vec![0u64; k];
    let mut below = vec![0f64; k];
    if work == Work::PerVertex {
        walk_connected(&Walk::Top { depth: level }, max_n, &mut |g| {
            above += g.n() as u64
        });
        let nodes = gen::prefixes(level);
        let est = prefix_estimates(&nodes, max_n);
        for (i, (g, e)) in nodes.iter().zip(est).enumerate() {
            let mine = if g.is_connected() { level as u64 } else { 0 };
            own[i % k] += mine;
            below[i % k] += (e - mine as f64).max(0.0);
        }
    }
    let mut specs = Vec::with_capacity(k * sub as usize);
    for g in 0..k {
        for j in 0..sub {
            let mut cuts = vec![Cut {
                level,
                res: g as u64,
                modulus: moduli[0],
            }];
            // Residues of the deeper cuts: `j` in mixed radix, last cut fastest.
            let mut rest = j;
            let mut deeper = Vec::new();
            for (i, &m) in moduli.iter().enumerate().skip(1).rev() {
                deeper.push(Cut {
                    level: level + i,
                    res: rest % m,
                    modulus: m,
                });
                rest /= m;
            }
            cuts.extend(deeper.into_iter().rev());
            let mut est = below[g] / sub as f64;
            if j == 0 {
                est += own[g] as f64;
                if g == 0 {
                    est += above as f64;
                }
            }
            specs.push((GraphShard::Split { cuts }, est.round() as u64));
        }
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
        Walk::Split(cuts) => {
            gen::walk_nodes_split(&BitGraph::new(0), max_n, opts, cuts, &mut |g, shown| {
                // Above a cut, only residue 0 counts the graph.
                let mine = cuts.iter().all(|c| c.level <= g.n() || c.res == 0);
                visit(g, shown && mine)
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connected graphs on n = 1..=9 vertices (OEIS A001349).
    const CONNECTED: [u64; 10] = [0, 1, 1, 2, 6, 21, 112, 853, 11_117, 261_080];

    fn split(cuts: &[(usize, u64, u64)]) -> Vec<GraphShard> {
        // Every combination of residues of the given (level, modulus) cuts.
        let mut shards = vec![Vec::new()];
        for &(level, _, modulus) in cuts {
            shards = shards
                .into_iter()
                .flat_map(|c: Vec<Cut>| {
                    (0..modulus).map(move |res| {
                        let mut c = c.clone();
                        c.push(Cut {
                            level,
                            res,
                            modulus,
                        });
                        c
                    })
                })
                .collect();
        }
        shards
            .into_iter()
            .map(|cuts| GraphShard::Split { cuts })
            .collect()
    }

    /// The connected graphs each shard counts, graph6 in the generator's labelling.
    fn counted(shards: &[GraphShard], max_n: usize) -> Vec<String> {
        let mut out = Vec::new();
        for s in shards {
            let w = s.decode("test").unwrap();
            walk_connected(&w, max_n, &mut |g| out.push(graph6::encode_bitgraph(g)));
        }
        out
    }

    /// `res/mod` cuts split the tree exactly: over all residues, the counted
    /// graphs are the whole walk's, each once (same labelled graphs), and
    /// their numbers per n are the connected graph counts.
    #[test]
    fn split_shards_partition_exactly() {
        let mut whole = counted(&[GraphShard::Top { depth: 9 }], 8);
        whole.sort();
        for cuts in [
            vec![(5, 0, 3)],
            vec![(6, 0, 7)],
            vec![(4, 0, 2), (6, 0, 5)],
            vec![(5, 0, 4), (6, 0, 4), (7, 0, 3)],
            vec![(8, 0, 16)],
            vec![(3, 0, 2), (9, 0, 5)],
        ] {
            let mut got = counted(&split(&cuts), 8);
            got.sort();
            assert_eq!(got, whole, "cuts {cuts:?}");
        }
        let mut by_n = [0u64; 10];
        for s in split(&[(7, 0, 5), (8, 0, 3)]) {
            walk_connected(&s.decode("t").unwrap(), 9, &mut |g| by_n[g.n()] += 1);
        }
        assert_eq!(by_n, CONNECTED);
    }

    /// A split shard's walk keeps the tree contract: every node after the
    /// root is the last node with one vertex fewer plus a vertex, labels
    /// intact; no node at a cut level outside the shard's residue is visited.
    #[test]
    fn split_walk_tree_visits_parents_first() {
        let shards = split(&[(5, 0, 3), (6, 0, 2)]);
        let mut at5 = 0;
        for s in &shards {
            let w = s.decode("t").unwrap();
            let mut stack: Vec<BitGraph> = Vec::new();
            walk_tree(&w, 7, &mut |g, _| {
                let n = g.n();
                if n > 0 {
                    let parent = stack[n - 1];
                    assert_eq!(g.induced((1u32 << (n - 1)) - 1), parent);
                }
                stack.truncate(n);
                stack.push(*g);
                at5 += usize::from(n == 5);
            });
        }
        // Each of the 34 graphs on 5 vertices is reached by the 2 shards of its residue.
        assert_eq!(at5, 34 * 2);
    }

    /// Plans are deterministic, cover every graph once whatever the shard
    /// count, and use splits where prefixes are too few.
    #[test]
    fn plans_partition_exactly_and_deterministically() {
        for (max_n, shards) in [(7, 300), (8, 40), (8, 17), (6, 1000)] {
            let p = plan(max_n, shards, Work::PerVertex);
            assert_eq!(p, plan(max_n, shards, Work::PerVertex));
            let mut by_n = [0u64; 10];
            let mut positions = 0u64;
            for (s, _) in &p {
                walk_connected(&s.decode("t").unwrap(), max_n, &mut |g| {
                    by_n[g.n()] += 1;
                    positions += g.n() as u64;
                });
            }
            assert_eq!(by_n[1..=max_n], CONNECTED[1..=max_n], "{max_n} {shards}");
            let est: u64 = p.iter().map(|(_, e)| e).sum();
            assert!(
                (est as f64 - positions as f64).abs() < 0.1 * positions as f64,
                "estimate {est} vs {positions}"
            );
        }
        assert!(matches!(
            plan(7, 300, Work::None)[0].0,
            GraphShard::Split { .. }
        ));
        assert!(matches!(
            plan(8, 17, Work::None)[1].0,
            GraphShard::Prefixes { .. }
        ));
        // Default plans up to n = 10 are prefix plans: 256 + top at n = 10.
        assert_eq!(split_layout(10, choose_depth(10, 0).0, 256), None);
        assert_eq!(plan(10, 0, Work::None).len(), 257);
        assert_eq!(split_layout(11, 9, 4096), Some((9, vec![64, 64])));
        assert_eq!(split_layout(12, 9, 65536), Some((9, vec![64, 32, 32])));
    }

    /// Shards survive JSON; shards stored in the old form still decode.
    #[test]
    fn shards_round_trip_and_old_forms_decode() {
        for (s, _) in plan(7, 300, Work::None)
            .into_iter()
            .chain(plan(7, 3, Work::None))
        {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(serde_json::from_str::<GraphShard>(&json).unwrap(), s);
        }
        let old = r#"{"prefixes":{"depth":3,"prefixes":["Bw","BW"]}}"#;
        let s: GraphShard = serde_json::from_str(old).unwrap();
        assert_eq!(serde_json::to_string(&s).unwrap(), old);
        assert!(matches!(s.decode("t"), Ok(Walk::Prefixes(ps)) if ps.len() == 2));
        let top = r#"{"top":{"depth":4}}"#;
        let s: GraphShard = serde_json::from_str(top).unwrap();
        assert_eq!(serde_json::to_string(&s).unwrap(), top);
        let cut = r#"{"split":{"cuts":[{"level":9,"res":3,"modulus":64}]}}"#;
        let s: GraphShard = serde_json::from_str(cut).unwrap();
        assert_eq!(serde_json::to_string(&s).unwrap(), cut);
    }

    /// Bad cuts are one-line errors, not panics.
    #[test]
    fn bad_cuts_are_errors() {
        for (cuts, want) in [
            (vec![], "0 cuts"),
            (vec![(5, 3, 3)], "residue 3 modulus 3"),
            (vec![(5, 0, 0)], "residue 0 modulus 0"),
            (vec![(5, 0, 1 << 33)], "modulus 8589934592"),
            (vec![(0, 0, 2)], "cut level 0"),
            (vec![(33, 0, 2)], "cut level 33"),
            (vec![(6, 0, 2), (6, 1, 2)], "cut level 6"),
            (vec![(6, 0, 2), (5, 1, 2)], "cut level 5"),
            (
                vec![(1, 0, 2), (2, 0, 2), (3, 0, 2), (4, 0, 2), (5, 0, 2)],
                "5 cuts",
            ),
        ] {
            let cuts = cuts
                .into_iter()
                .map(|(level, res, modulus)| Cut {
                    level,
                    res,
                    modulus,
                })
                .collect();
            let e = GraphShard::Split { cuts }
                .decode("uvg")
                .unwrap_err()
                .to_string();
            assert!(e.contains(want) && !e.contains('\n'), "{e}");
        }
        for bad in [
            r#"{"split":{"cuts":[{"level":5,"res":0}]}}"#,
            r#"{"split":{"cuts":[{"level":5,"res":0,"modulus":2,"x":1}]}}"#,
            r#"{"split":{"cuts":[{"level":5,"res":-1,"modulus":2}]}}"#,
        ] {
            assert!(serde_json::from_str::<GraphShard>(bad).is_err(), "{bad}");
        }
    }
}
