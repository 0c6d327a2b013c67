//! Graphs on N vertices by canonical augmentation, one per isomorphism
//! class, as `gamesweep graphs` lists them and Python's `graphs()` yields
//! them: geng's bounds and classes ([`geng`]), the edge range and part
//! arguments, and the [`Listing`] that walks or counts them.
//!
//!
//! Part `res/mod` cuts the generation tree at one level ([`split_level`]):
//! of the nodes there, in the order the walk generates them, the part keeps
//! those whose index is `≡ res (mod mod)` and walks only their subtrees
//! ([`gen::walk_nodes_split`], the cut the sweep planner uses). Every part
//! generates the whole tree above the cut, so the `mod` parts together list
//! every graph exactly once. The level is the shallowest with at least
//! [`NODES_PER_PART`] nodes per part (or `N` itself), so each part gets
//! dozens of subtrees from all over the tree and the parts come out about
//! equally large.

pub mod geng;

use crate::error::UsageError;
use gamesweep::gen::{self, Residue, WalkOptions};
use gamesweep::graph::{graph6, sparse6, BitGraph};
use rayon::prelude::*;

/// Nodes of the cut level per part that [`split_level`] asks for.
pub const NODES_PER_PART: u64 = 64;

/// Graphs on `k` vertices up to isomorphism, `k` = 0..=16 (OEIS A000088):
/// the nodes of the generation tree at level `k` (15 and 16: more than
/// `u64::MAX`, held as that).
const NODES: [u64; 17] = [
    1,
    1,
    2,
    4,
    11,
    34,
    156,
    1_044,
    12_346,
    274_668,
    12_005_168,
    1_018_997_864,
    165_091_172_592,
    50_502_031_367_952,
    29_054_155_657_235_488,
    u64::MAX,
    u64::MAX,
];

/// The level (number of vertices) at which part `res/mod` of the graphs on
/// `n` vertices is cut: the shallowest with at least [`NODES_PER_PART`]
/// nodes per part, at most `n`. A fixed function of `n` and `mod`, so every
/// part cuts at the same level.
pub fn split_level(n: usize, modulus: u64) -> usize {
    let want = modulus.saturating_mul(NODES_PER_PART);
    (1..=n).find(|&k| NODES[k] >= want).unwrap_or(n)
}

/// Parse `I/M` (geng's `res/mod`).
pub fn parse_shard(s: &str) -> Result<(usize, usize), UsageError> {
    let bad = || {
        UsageError(format!(
            "a part is RES/MOD with 0 <= RES < MOD (e.g. 0/4), got `{s}`"
        ))
    };
    let (i, m) = s.split_once('/').ok_or_else(bad)?;
    let i: usize = i.trim().parse().map_err(|_| bad())?;
    let m: usize = m.trim().parse().map_err(|_| bad())?;
    if m == 0 || i >= m || m as u64 > 1 << 32 {
        return Err(bad());
    }
    Ok((i, m))
}

/// geng's `mine:maxe`: the edge counts kept, as an inclusive range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeRange {
    /// Fewest edges.
    pub min: u32,
    /// Most edges.
    pub max: u32,
}

impl EdgeRange {
    /// Every edge count.
    pub const ALL: EdgeRange = EdgeRange {
        min: 0,
        max: u32::MAX,
    };
}

/// Parse geng's `mine:maxe` (also `mine-maxe`): `E` is exactly E, `E:0`
/// is E or more (except `0:0`, no edges), `:M` is at most M, `E:` is
/// exactly E (as geng reads it).
pub fn parse_edges(s: &str) -> Result<EdgeRange, UsageError> {
    let bad = |why: &str| {
        UsageError(format!(
            "`{s}` is neither an edge range MINE:MAXE (E, E:0 or MINE:MAXE as in geng, e.g. 10:12) nor a part RES/MOD: {why}"
        ))
    };
    let num = |t: &str| -> Result<u32, UsageError> {
        t.trim()
            .parse::<u32>()
            .map_err(|_| bad(&format!("`{t}` is not a number of edges")))
    };
    let Some((a, b)) = s.split_once([':', '-']) else {
        let e = num(s)?;
        return Ok(EdgeRange { min: e, max: e });
    };
    let min = if a.is_empty() { 0 } else { num(a)? };
    let max = match (b.is_empty(), a.is_empty()) {
        (true, true) => return Err(bad("give at least one bound")),
        (true, false) => min,
        (false, _) => match num(b)? {
            0 if min > 0 => u32::MAX,
            m => m,
        },
    };
    if max < min {
        return Err(bad("MAXE is less than MINE"));
    }
    Ok(EdgeRange { min, max })
}

/// The degree filter of `-d`/`-D`.
#[derive(Clone, Copy, Debug)]
pub struct Degrees {
    /// Least degree of every vertex.
    pub min: u32,
    /// Greatest degree of every vertex.
    pub max: u32,
}

impl Degrees {
    /// Every degree.
    pub const ALL: Degrees = Degrees {
        min: 0,
        max: u32::MAX,
    };

    fn admits(&self, g: &BitGraph) -> bool {
        (0..g.n()).all(|v| (self.min..=self.max).contains(&g.degree(v)))
    }
}

/// What a listed graph must satisfy besides being generated: `-d`/`-D`,
/// `mine:maxe` and the classes `-b`, `-t`, `-f`.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    /// The degrees allowed.
    pub deg: Degrees,
    /// The edge counts allowed.
    pub edges: EdgeRange,
    /// The classes asked for; `None` when there are none, so that a plain
    /// listing tests nothing more than before.
    pub class: Option<geng::Classes>,
}

impl Filter {
    /// Does `g` pass?
    pub fn admits(&self, g: &BitGraph) -> bool {
        (self.edges.min..=self.edges.max).contains(&(g.edge_count() as u32))
            && self.deg.admits(g)
            && self.class.is_none_or(|c| c.admits(g))
    }
}

/// Depth of the generation tree at which an unsplit listing is walked
/// prefix by prefix (so that a closed pipe stops it between prefixes).
pub fn split_depth(n: usize) -> usize {
    n.saturating_sub(3).min(8)
}

/// The pieces walked, in order, for the graphs on `n` vertices of `part`
/// (`(res, mod)`): each a prefix (a node of the generation tree) and the
/// cuts below it. Their walks, in order, visit exactly the nodes that one
/// walk from the root cut at [`split_level`] visits, in the same order: a
/// prefix just above the cut level gets the residue that makes its local
/// node indices there line up with the global ones (the nodes below earlier
/// prefixes are counted first). Walking prefix by prefix lets a listing stop
/// early and a count run on several threads.
pub fn pieces(n: usize, part: Option<(usize, usize)>) -> Vec<(BitGraph, Vec<Residue>)> {
    let (res, modulus) = match part {
        Some((res, m)) if m > 1 => (res as u64, m as u64),
        _ => {
            return gen::prefixes(split_depth(n))
                .into_iter()
                .map(|p| (p, Vec::new()))
                .collect()
        }
    };
    let level = split_level(n, modulus);
    let cut = |res| {
        vec![Residue {
            level,
            res,
            modulus,
        }]
    };
    if level == n {
        // Counting the nodes at the last level would cost a whole walk.
        return vec![(BitGraph::new(0), cut(res))];
    }
    // The nodes at `level` below each prefix, as a walk down to `n`
    // generates them (not the last level, so never pruned to connected).
    let opts = WalkOptions {
        connected_only: false,
        min_n: level,
    };
    let mut before = 0u64;
    let mut out = Vec::new();
    for p in gen::prefixes(level - 1) {
        let mut here = 0u64;
        gen::walk_nodes(&p, level, opts, &mut |g, _| {
            here += u64::from(g.n() == level)
        });
        // Local index i is global index before + i.
        let local = (res + modulus - before % modulus) % modulus;
        before += here;
        if here > 0 {
            out.push((p, cut(local)));
        }
    }
    out
}

/// Walk the graphs on exactly `n` vertices of `piece` (a prefix and the cuts below it) that
/// pass `opts` and `filter`, in generation order.
pub fn walk(
    n: usize,
    piece: &(BitGraph, Vec<Residue>),
    opts: WalkOptions,
    filter: Filter,
    visit: &mut dyn FnMut(&BitGraph),
) {
    gen::walk_nodes_split(&piece.0, n, opts, &piece.1, &mut |g, shown| {
        if shown && g.n() == n && filter.admits(g) {
            visit(g)
        }
    });
}

/// The graph6 (or, with `sparse6`, sparse6) line of `g`.
pub fn encode(g: &BitGraph, sparse6: bool) -> String {
    if sparse6 {
        sparse6::encode(g.n(), &g.edges().collect::<Vec<_>>())
    } else {
        graph6::encode_bitgraph(g)
    }
}

/// The graphs `gamesweep graphs` lists: what to walk and what to keep.
#[derive(Clone, Debug)]
pub struct Listing {
    /// Number of vertices.
    pub n: usize,
    /// The bounds as geng tightens them (its `>A` line shows them).
    pub bounds: geng::Bounds,
    opts: WalkOptions,
    filter: Filter,
    pieces: Vec<(BitGraph, Vec<Residue>)>,
}

impl Listing {
    /// The graphs on `n` vertices that geng's switches `sw`, the edge range
    /// `range` and the part `part` (`(res, mod)`) keep.
    pub fn new(
        n: u32,
        sw: &geng::Switches,
        range: Option<EdgeRange>,
        part: Option<(usize, usize)>,
    ) -> Result<Listing, UsageError> {
        let bounds = geng::bounds(n, sw, range.map(|r| (r.min, r.max)))?;
        let n = n as usize;
        // The bounds are geng's tightening of the ones given: the same graphs
        // pass them (all within 0..=n(n-1)/2, so they fit u32).
        let clamp = |x: i64| x.clamp(0, i64::from(u32::MAX)) as u32;
        let classes = geng::Classes {
            bipartite: sw.bipartite,
            triangle_free: sw.triangle_free,
            square_free: sw.square_free,
        };
        let filter = Filter {
            deg: Degrees {
                min: clamp(bounds.min_degree),
                max: clamp(bounds.max_degree),
            },
            edges: EdgeRange {
                min: clamp(bounds.min_edges),
                max: clamp(bounds.max_edges),
            },
            class: classes.any().then_some(classes),
        };
        let opts = WalkOptions {
            connected_only: sw.connected,
            min_n: n,
        };
        // No edge count fits the class (geng runs, finding nothing): no walk.
        let pieces = if bounds.min_edges > bounds.max_edges {
            Vec::new()
        } else {
            pieces(n, part)
        };
        Ok(Listing {
            n,
            bounds,
            opts,
            filter,
            pieces,
        })
    }

    /// How many graphs there are, counted on `threads` threads.
    pub fn count(&self, threads: usize) -> Result<u64, rayon::ThreadPoolBuildError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        Ok(pool.install(|| {
            self.pieces
                .par_iter()
                .map(|p| {
                    let mut c = 0u64;
                    walk(self.n, p, self.opts, self.filter, &mut |_| c += 1);
                    c
                })
                .sum()
        }))
    }

    /// Visit the graphs in generation order until `visit` says stop
    /// (`false`), between pieces of the walk.
    pub fn for_each(&self, visit: &mut dyn FnMut(&BitGraph) -> bool) {
        let mut go = true;
        for p in &self.pieces {
            walk(self.n, p, self.opts, self.filter, &mut |g| {
                if go {
                    go = visit(g);
                }
            });
            if !go {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The graph6 of part `part` walked piece by piece.
    fn listed(n: usize, connected: bool, part: Option<(usize, usize)>) -> Vec<String> {
        let opts = WalkOptions {
            connected_only: connected,
            min_n: n,
        };
        let filter = Filter {
            deg: Degrees::ALL,
            edges: EdgeRange::ALL,
            class: None,
        };
        let mut out = Vec::new();
        for p in pieces(n, part) {
            walk(n, &p, opts, filter, &mut |g| {
                out.push(graph6::encode_bitgraph(g))
            });
        }
        out
    }

    /// Pieces walk exactly what one walk from the root under the same cut
    /// walks, in the same order.
    #[test]
    fn pieces_match_one_walk_from_the_root() {
        for (n, connected, m) in [
            (8, true, 2),
            (8, false, 3),
            (9, true, 8),
            (8, true, 16),
            (9, true, 64),
        ] {
            let level = split_level(n, m as u64);
            assert!(level < n, "n {n} mod {m}: the cut is above the last level");
            for res in 0..m {
                let opts = WalkOptions {
                    connected_only: connected,
                    min_n: n,
                };
                let cut = [Residue {
                    level,
                    res: res as u64,
                    modulus: m as u64,
                }];
                let mut want = Vec::new();
                gen::walk_nodes_split(&BitGraph::new(0), n, opts, &cut, &mut |g, shown| {
                    if shown && g.n() == n {
                        want.push(graph6::encode_bitgraph(g));
                    }
                });
                assert_eq!(
                    listed(n, connected, Some((res, m))),
                    want,
                    "n {n} part {res}/{m}"
                );
            }
        }
    }

    #[test]
    fn edge_ranges_read_as_geng_reads_them() {
        let r = |min, max| Some(EdgeRange { min, max });
        let parse_edges = |s| parse_edges(s).ok();
        assert_eq!(parse_edges("4"), r(4, 4));
        assert_eq!(parse_edges("4:5"), r(4, 5));
        assert_eq!(parse_edges("4-5"), r(4, 5));
        assert_eq!(parse_edges("4:0"), r(4, u32::MAX));
        assert_eq!(parse_edges("0:0"), r(0, 0));
        assert_eq!(parse_edges("4:"), r(4, 4));
        assert_eq!(parse_edges(":3"), r(0, 3));
        for bad in ["", ":", "x", "5:4", "1:2:3"] {
            let e = super::parse_edges(bad).unwrap_err().0;
            assert!(e.starts_with(&format!("`{bad}` is neither")), "{bad}: {e}");
        }
    }

    #[test]
    fn split_level_is_shallowest_with_enough_nodes() {
        assert_eq!(split_level(9, 2), 6);
        assert_eq!(split_level(9, 64), 8);
        assert_eq!(split_level(7, 4), 7);
        assert_eq!(split_level(11, 1000), 9);
        assert_eq!(split_level(3, 1 << 32), 3);
    }
}
