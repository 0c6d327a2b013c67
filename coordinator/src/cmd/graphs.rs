//! `gamesweep graphs N [MINE:MAXE] [RES/MOD]`: graphs on N vertices by
//! canonical augmentation, as graph6 lines (one per isomorphism class),
//! following nauty's `geng` so that scripts can use either: its switches
//! (`-c`, `-b`, `-t`, `-f`, `-d#`, `-D#`, `-u`, `-s`, `-g`, `-q`, `-m`,
//! clusters like `-ctfd1D7`), `mine:maxe`, `res/mod`, its `>A` and `>Z`
//! lines on standard error (`-u`: the count only there), and the same
//! graphs, up to labelling. The switches it lacks are refused by name
//! ([`geng`]).
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
use std::io::Write as _;

/// Arguments of `graphs`: geng's, read as geng reads them (switch clusters
/// such as `-ctfd1D7` too, a switch given again is no error; see [`geng`]).
#[derive(clap::Args, Debug)]
#[command(args_override_self = true)]
pub struct GraphsArgs {
    /// Number of vertices (1..=16).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=16))]
    pub n: u32,
    /// Edge range MINE:MAXE and/or part RES/MOD, in geng's order and
    /// meaning. MINE:MAXE keeps graphs with MINE..=MAXE edges (`E` alone:
    /// exactly E; `E:0`: E or more, except `0:0`; `-` may stand for `:`).
    /// RES/MOD (0 <= RES < MOD) keeps part RES of MOD: the MOD parts
    /// partition the output and are about equally large.
    #[arg(value_names = ["MINE:MAXE", "RES/MOD"], num_args = 0..=2)]
    pub rest: Vec<String>,
    /// Only connected graphs (geng -c).
    #[arg(short = 'c', long)]
    pub connected: bool,
    /// Only bipartite graphs (geng -b).
    #[arg(short = 'b', long)]
    pub bipartite: bool,
    /// Only triangle-free graphs (geng -t).
    #[arg(short = 't', long)]
    pub triangle_free: bool,
    /// Only 4-cycle-free graphs: no 4-cycle, induced or not (geng -f).
    #[arg(short = 'f', long)]
    pub square_free: bool,
    /// Write no graphs, only their number, on standard error in the `>Z`
    /// line (geng -u).
    #[arg(short = 'u', long)]
    pub count: bool,
    /// Write sparse6 instead of graph6 (geng -s).
    #[arg(short = 's', long)]
    pub sparse6: bool,
    /// Write graph6, the default (geng -g).
    #[arg(short = 'g', long)]
    pub graph6: bool,
    /// Quiet: no `>A` and `>Z` lines on standard error (geng -q).
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// geng's memory saving (geng -m): accepted, and shown in the `>A`
    /// line as geng shows it; it changes no output.
    #[arg(short = 'm', long)]
    pub save_memory: bool,
    /// Only graphs of minimum degree at least D (geng -d; geng's clusters
    /// such as -d1D7 too).
    #[arg(short = 'd', long, value_name = "D")]
    pub min_degree: Option<String>,
    /// Only graphs of maximum degree at most D (geng -D).
    #[arg(short = 'D', long, value_name = "D")]
    pub max_degree: Option<String>,
    /// The same as the positional RES/MOD (0-based part I of M).
    #[arg(long, value_name = "I/M")]
    pub shard: Option<String>,
    /// Threads for `--count` (output order of graph6 lines is always single-threaded and deterministic).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
    /// geng's switches that `graphs` refuses, each with what to do instead.
    #[command(flatten)]
    pub refused: Refused,
}

/// geng's switches that `graphs` does not support: read (so that clap does
/// not answer with its own puzzling message) and refused by
/// [`geng::refusal`], which says what to do instead. Hidden from `--help`.
#[derive(clap::Args, Debug)]
pub struct Refused {
    /// geng -C (biconnected).
    #[arg(short = 'C', hide = true)]
    pub biconnected: bool,
    /// geng -k (K4-free).
    #[arg(short = 'k', hide = true)]
    pub k4_free: bool,
    /// geng -T (chordal).
    #[arg(short = 'T', hide = true)]
    pub chordal: bool,
    /// geng -S (split).
    #[arg(short = 'S', hide = true)]
    pub split: bool,
    /// geng -P (perfect).
    #[arg(short = 'P', hide = true)]
    pub perfect: bool,
    /// geng -F (claw-free).
    #[arg(short = 'F', hide = true)]
    pub claw_free: bool,
    /// geng -l (canonical labelling).
    #[arg(short = 'l', hide = true)]
    pub canonical: bool,
    /// geng -v (counts by edges).
    #[arg(short = 'v', hide = true)]
    pub by_edges: bool,
    /// geng -y (y-format).
    #[arg(short = 'y', hide = true)]
    pub y_format: bool,
    /// geng -n (nauty format).
    #[arg(short = 'n', hide = true)]
    pub nauty_format: bool,
    /// geng -x# (splitting tuning).
    #[arg(short = 'x', hide = true)]
    pub x: Option<String>,
    /// geng -X# (splitting tuning).
    #[arg(short = 'X', hide = true)]
    pub big_x: Option<String>,
}

impl Refused {
    /// The first refused switch given, if any.
    fn first(&self) -> Option<char> {
        [
            (self.biconnected, 'C'),
            (self.k4_free, 'k'),
            (self.chordal, 'T'),
            (self.split, 'S'),
            (self.perfect, 'P'),
            (self.claw_free, 'F'),
            (self.canonical, 'l'),
            (self.by_edges, 'v'),
            (self.y_format, 'y'),
            (self.nauty_format, 'n'),
            (self.x.is_some(), 'x'),
            (self.big_x.is_some(), 'X'),
        ]
        .into_iter()
        .find_map(|(given, letter)| given.then_some(letter))
    }
}

impl GraphsArgs {
    /// The switches as geng would read them: the flags, then the clusters
    /// clap left in the values of `-d` and `-D` (`-cd1D7` gives `-d` the
    /// value `1D7`). A refused switch is an error naming it.
    pub fn switches(&self) -> Result<geng::Switches, UsageError> {
        if let Some(letter) = self.refused.first() {
            return Err(geng::refusal(letter));
        }
        let mut sw = geng::Switches {
            connected: self.connected,
            bipartite: self.bipartite,
            triangle_free: self.triangle_free,
            square_free: self.square_free,
            count: self.count,
            sparse6: self.sparse6,
            quiet: self.quiet,
            save_memory: self.save_memory,
            min_degree: None,
            max_degree: None,
        };
        let (d, big_d) = (&self.min_degree, &self.max_degree);
        // clap says which values -d and -D had, not where they stood, so a
        // bound both given on its own and inside the other's cluster
        // (`-D5 -d1D7`: geng takes the later) is refused, not guessed.
        for (own, other, letter) in [(d, big_d, 'd'), (big_d, d, 'D')] {
            if own.is_some() && other.as_ref().is_some_and(|v| v.contains(letter)) {
                return Err(UsageError(format!(
                    "give -{letter} once (here both on its own and inside a cluster)"
                )));
            }
        }
        for (letter, value) in [('d', d), ('D', big_d)] {
            if let Some(v) = value {
                sw.read_cluster(&format!("{letter}{v}"))?;
            }
        }
        Ok(sw)
    }
}

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
struct Degrees {
    min: u32,
    max: u32,
}

impl Degrees {
    fn admits(&self, g: &BitGraph) -> bool {
        (0..g.n()).all(|v| (self.min..=self.max).contains(&g.degree(v)))
    }
}

/// What a listed graph must satisfy besides being generated: `-d`/`-D`,
/// `mine:maxe` and the classes `-b`, `-t`, `-f`.
#[derive(Clone, Copy, Debug)]
struct Filter {
    deg: Degrees,
    edges: EdgeRange,
    /// The classes asked for; `None` when there are none, so that a plain
    /// listing tests nothing more than before.
    class: Option<geng::Classes>,
}

impl Filter {
    fn admits(&self, g: &BitGraph) -> bool {
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
fn walk(
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

/// The name geng's `>A` line starts with: the program as invoked (geng
/// writes its `argv[0]`).
fn program_name() -> String {
    std::env::args_os()
        .next()
        .map(|a| a.to_string_lossy().into_owned())
        .unwrap_or_else(|| "gamesweep".into())
}

/// Run `graphs`.
pub fn exec(args: GraphsArgs) -> anyhow::Result<()> {
    let n = args.n as usize;
    let sw = args.switches()?;
    let (mut range, mut positional_part) = (None, None);
    for a in &args.rest {
        if a.contains('/') {
            if positional_part.replace(a.clone()).is_some() {
                return Err(UsageError(format!("give RES/MOD once, got a second `{a}`")).into());
            }
        } else if positional_part.is_some() {
            return Err(UsageError(format!(
                "the edge range `{a}` comes before RES/MOD, as in geng (graphs N MINE:MAXE RES/MOD)"
            ))
            .into());
        } else if range.replace(parse_edges(a)?).is_some() {
            return Err(UsageError(format!("give MINE:MAXE once, got a second `{a}`")).into());
        }
    }
    let part = match (&positional_part, &args.shard) {
        (Some(_), Some(_)) => {
            return Err(
                UsageError("give the part once: RES/MOD or --shard I/M, not both".into()).into(),
            )
        }
        (Some(s), None) | (None, Some(s)) => Some(parse_shard(s)?),
        (None, None) => None,
    };
    let bounds = geng::bounds(args.n, &sw, range.map(|r: EdgeRange| (r.min, r.max)))?;
    if !sw.quiet {
        eprintln!(
            "{}",
            geng::a_line(&program_name(), args.n, &sw, &bounds, part)
        );
    }
    let started = std::time::Instant::now();
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
    let summary = |count: u64| {
        if !sw.quiet {
            eprintln!("{}", geng::z_line(count, started.elapsed().as_secs_f64()));
        }
    };
    if sw.count {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads as usize)
            .build()?;
        let total: u64 = pool.install(|| {
            pieces
                .par_iter()
                .map(|p| {
                    let mut c = 0u64;
                    walk(n, p, opts, filter, &mut |_| c += 1);
                    c
                })
                .sum()
        });
        // geng -u: the number only in the `>Z` line.
        summary(total);
        return Ok(());
    }
    let encode = |g: &BitGraph| {
        if sw.sparse6 {
            sparse6::encode(g.n(), &g.edges().collect::<Vec<_>>())
        } else {
            graph6::encode_bitgraph(g)
        }
    };
    let mut listed = 0u64;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut err = None;
    for p in &pieces {
        walk(n, p, opts, filter, &mut |g: &BitGraph| {
            if err.is_none() {
                listed += 1;
                if let Err(e) = writeln!(out, "{}", encode(g)) {
                    err = Some(e);
                }
            }
        });
        if err.is_some() {
            break;
        }
    }
    let res = match err {
        Some(e) => Err(e),
        None => out.flush(),
    };
    match res {
        // `gamesweep graphs 9 | head` is fine.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        other => other?,
    }
    summary(listed);
    Ok(())
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
            deg: Degrees {
                min: 0,
                max: u32::MAX,
            },
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
