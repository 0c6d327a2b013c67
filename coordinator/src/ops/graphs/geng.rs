//! nauty geng's conventions for `gamesweep graphs`: its switches (clusters
//! such as `-ctfd1D7` included, and the ones refused, each with what to do
//! instead), its bounds on degrees and edges as geng tightens them, its
//! `>A` and `>Z` lines, and the graph classes `-b`, `-t`, `-f`.
//!
//! The classes are tests on each finished graph, not pruning of the
//! generation tree as geng does: the generator (`gamesweep::gen`) is shared
//! with the sweep kinds, whose solver versions hash its source, so it stays
//! untouched. Bipartite, triangle-free and 4-cycle-free graphs are closed
//! under deleting a vertex, so pruning would give the same graphs, only
//! sooner; the counts and isomorphism classes are geng's either way.

use crate::error::UsageError;
use gamesweep::graph::{members, BitGraph};

/// The geng switches `graphs` understands, after clusters are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Switches {
    /// `-c`: connected graphs only.
    pub connected: bool,
    /// `-b`: bipartite graphs only.
    pub bipartite: bool,
    /// `-t`: triangle-free graphs only.
    pub triangle_free: bool,
    /// `-f`: 4-cycle-free graphs only.
    pub square_free: bool,
    /// `-u`: count only.
    pub count: bool,
    /// `-s`: sparse6 output.
    pub sparse6: bool,
    /// `-q`: no `>A`/`>Z` lines.
    pub quiet: bool,
    /// `-m`: geng's memory saving; read (it is in geng's `>A` line) and
    /// otherwise ignored, since it changes no output.
    pub save_memory: bool,
    /// `-d#`: lower bound on the minimum degree.
    pub min_degree: Option<u32>,
    /// `-D#`: upper bound on the maximum degree.
    pub max_degree: Option<u32>,
}

/// What geng's switch `letter` does, and what to do instead, for the
/// switches `graphs` refuses; `None` for a letter geng does not have.
fn unsupported(letter: char) -> Option<(&'static str, &'static str)> {
    let use_geng = "run `nauty-geng` with it instead (its graph6 and sparse6 lines go into `gamesweep solve KIND -` as ours do)";
    Some(match letter {
        'C' => ("biconnected graphs", use_geng),
        'k' => ("K4-free graphs", use_geng),
        'T' => ("chordal graphs", use_geng),
        'S' => ("split graphs", use_geng),
        'P' => ("perfect graphs", use_geng),
        'F' => ("claw-free graphs", use_geng),
        'l' => (
            "nauty's canonical labelling",
            "the graphs (one per isomorphism class, as geng's) come in gamesweep's own labelling; pipe them through `nauty-labelg` for nauty's",
        ),
        'v' => (
            "counts by number of edges",
            "count one edge number E at a time with `gamesweep graphs N E -u`",
        ),
        'h' => (
            "a >>graph6<< header",
            "read the lines without one (every graph6 reader accepts that)",
        ),
        'y' => ("y-format output", "use graph6 (the default) or sparse6 (-s)"),
        'n' => ("nauty's binary output", "use graph6 (the default) or sparse6 (-s)"),
        'x' | 'X' => (
            "a tuning of geng's own res/mod splitting",
            "drop it: RES/MOD works without it",
        ),
        '$' => ("geng's hidden switch", "drop it"),
        _ => return None,
    })
}

/// The refusal of geng's switch `letter` (or of a letter geng does not
/// have either).
pub fn refusal(letter: char) -> UsageError {
    UsageError(match unsupported(letter) {
        Some((what, instead)) => {
            format!("geng's -{letter} is not supported ({what}); {instead}")
        }
        None => format!(
            "-{letter} is not a switch of geng or of `graphs` (`gamesweep graphs --help` lists them)"
        ),
    })
}

impl Switches {
    /// Read the rest of a geng cluster (`ctfd1D7`, or the `1D7` that clap
    /// gave as the value of `-d` in `-cd1D7`, passed as `d1D7`): each
    /// letter a switch, `d`/`D` followed by their number, as geng reads it
    /// (a bound given again replaces the earlier one, as in geng).
    pub fn read_cluster(&mut self, cluster: &str) -> Result<(), UsageError> {
        let mut rest = cluster;
        while let Some(c) = rest.chars().next() {
            rest = &rest[c.len_utf8()..];
            match c {
                'c' => self.connected = true,
                'b' => self.bipartite = true,
                't' => self.triangle_free = true,
                'f' => self.square_free = true,
                'u' => self.count = true,
                's' => self.sparse6 = true,
                // graph6 is the default output.
                'g' => {}
                'q' => self.quiet = true,
                'm' => self.save_memory = true,
                'd' | 'D' => {
                    let end = rest
                        .find(|ch: char| !ch.is_ascii_digit())
                        .unwrap_or(rest.len());
                    let bad = || {
                        UsageError(format!(
                            "-{c} takes a number of edges at a vertex (as in geng: -{c}3 or -{c} 3), got `-{c}{}`",
                            &rest[..end]
                        ))
                    };
                    let value: u32 = rest[..end].parse().map_err(|_| bad())?;
                    rest = &rest[end..];
                    if c == 'd' {
                        self.min_degree = Some(value);
                    } else {
                        self.max_degree = Some(value);
                    }
                }
                other => return Err(refusal(other)),
            }
        }
        Ok(())
    }
}

/// geng's largest number of edges of a graph on `n` vertices (index `n`,
/// 0..=16) that is bipartite (or triangle-free: Mantel, ⌊n²/4⌋),
/// 4-cycle-free, triangle- and 4-cycle-free, bipartite and 4-cycle-free:
/// the bounds geng clamps its edge range to (and prints in its `>A` line).
const MAXE_B: [i64; 17] = [0, 0, 1, 2, 4, 6, 9, 12, 16, 20, 25, 30, 36, 42, 49, 56, 64];
/// 4-cycle-free (see [`MAXE_B`]).
const MAXE_F: [i64; 17] = [0, 0, 1, 3, 4, 6, 7, 9, 11, 13, 16, 18, 21, 24, 27, 30, 33];
/// Triangle- and 4-cycle-free (see [`MAXE_B`]).
const MAXE_TF: [i64; 17] = [0, 0, 1, 2, 3, 5, 6, 8, 10, 12, 15, 16, 18, 21, 23, 26, 28];
/// Bipartite and 4-cycle-free (see [`MAXE_B`]).
const MAXE_BF: [i64; 17] = [0, 0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 14, 16, 18, 21, 22, 24];

/// geng's `MAXN` (the build `nauty-geng` is): `E:0` means up to
/// `MAXN·(MAXN−1)/2` edges before the bounds are tightened.
const GENG_MAXN: i64 = 32;

/// The degree and edge bounds of a run, tightened as geng tightens them:
/// the same graphs pass them as pass the bounds given, and they are what
/// geng's `>A` line shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Least minimum degree.
    pub min_degree: i64,
    /// Largest maximum degree.
    pub max_degree: i64,
    /// Fewest edges.
    pub min_edges: i64,
    /// Most edges (less than `min_edges` when no graph of the class fits,
    /// which geng runs, finding nothing).
    pub max_edges: i64,
}

/// geng's tightening of the bounds for `n` vertices, switches `sw` and the
/// edge range `edges` (`(min, max)`, `None` for every count): every step
/// only drops degrees or edge counts no graph of the class can have, so the
/// graphs kept are the same. Bounds no graph can meet are refused, as geng
/// refuses them ("impossible mine,maxe,mindeg,maxdeg values").
pub fn bounds(n: u32, sw: &Switches, edges: Option<(u32, u32)>) -> Result<Bounds, UsageError> {
    let n = i64::from(n);
    let mut max_degree = sw.max_degree.map_or(GENG_MAXN, i64::from);
    let mut min_degree = sw.min_degree.map_or(0, i64::from);
    let (mut min_edges, mut max_edges) = match edges {
        // geng's own reading of `E:0` (E or more) caps at its MAXN.
        Some((lo, hi)) => (
            i64::from(lo),
            i64::from(hi).min(GENG_MAXN * (GENG_MAXN - 1) / 2),
        ),
        None => (0, n * (n - 1) / 2),
    };
    if sw.connected && min_degree < 1 && n > 1 {
        min_degree = 1;
    }
    max_degree = max_degree.min(n - 1);
    max_edges = max_edges.min(n * max_degree / 2);
    max_degree = max_degree.min(max_edges);
    min_edges = min_edges.max((n * min_degree + 1) / 2);
    max_degree = max_degree.min(2 * max_edges - min_degree * (n - 1));
    if min_edges > max_edges || max_edges < 0 || max_degree < 0 {
        let given = |x: Option<u32>, default: i64| x.map_or(default, i64::from);
        let (lo, hi) = edges.map_or((0, n * (n - 1) / 2), |(lo, hi)| {
            (i64::from(lo), i64::from(hi).min(n * (n - 1) / 2))
        });
        return Err(UsageError(format!(
            "no graph on {n} vertices has degrees {}..={} and {lo}..={hi} edges{}; geng refuses these bounds too",
            given(sw.min_degree, i64::from(sw.connected && n > 1)),
            given(sw.max_degree, n - 1).min(n - 1),
            if sw.connected { " and is connected" } else { "" },
        )));
    }
    if sw.connected && min_edges < n - 1 {
        min_edges = n - 1;
    }
    let i = n as usize;
    let class_max = match (sw.bipartite, sw.triangle_free, sw.square_free) {
        (true, _, true) => MAXE_BF[i],
        (true, _, false) | (false, true, false) => MAXE_B[i],
        (false, true, true) => MAXE_TF[i],
        (false, false, true) => MAXE_F[i],
        (false, false, false) => n * (n - 1) / 2,
    };
    max_edges = max_edges.min(class_max);
    Ok(Bounds {
        min_degree,
        max_degree,
        min_edges,
        max_edges,
    })
}

/// geng's `>A` line (without the newline): `>A PROGRAM -SWITCHES dMINDEG
/// DMAXDEG n=N e=MINE[-MAXE]`, with geng's `X…x…` tuning values and
/// ` class=RES/MOD` for a part, e.g. `>A nauty-geng -cd1D7 n=8 e=7-28`.
/// `program` stands where geng writes its `argv[0]`.
pub fn a_line(
    program: &str,
    n: u32,
    sw: &Switches,
    b: &Bounds,
    part: Option<(usize, usize)>,
) -> String {
    let flag = |on: bool, s: &'static str| if on { s } else { "" };
    let mut line = format!(
        ">A {program} -{}{}{}{}{}",
        flag(sw.connected, "c"),
        flag(sw.triangle_free, "t"),
        flag(sw.square_free, "f"),
        flag(sw.bipartite, "b"),
        flag(sw.save_memory, "m"),
    );
    let part = part.filter(|&(_, m)| m > 1);
    if let Some((_, m)) = part {
        // geng's defaults: no level increment, 50 nodes per class.
        line += &format!("X0x{}", 50 * m);
    }
    line += &format!("d{}D{} n={n} e={}", b.min_degree, b.max_degree, b.min_edges);
    if b.max_edges > b.min_edges {
        line += &format!("-{}", b.max_edges);
    }
    if let Some((r, m)) = part {
        line += &format!(" class={r}/{m}");
    }
    line
}

/// geng's `>Z` line (without the newline): `>Z COUNT graphs generated in
/// SECONDS sec`.
pub fn z_line(count: u64, seconds: f64) -> String {
    format!(">Z {count} graphs generated in {seconds:.2} sec")
}

/// The graph classes `-b`, `-t`, `-f` (any combination), as tests of a
/// finished graph.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Classes {
    /// `-b`.
    pub bipartite: bool,
    /// `-t`.
    pub triangle_free: bool,
    /// `-f`.
    pub square_free: bool,
}

impl Classes {
    /// Does any class restrict the graphs? (Checked once per run, so the
    /// plain listing pays one branch per graph.)
    pub fn any(&self) -> bool {
        self.bipartite || self.triangle_free || self.square_free
    }

    /// Is `g` in every class asked for?
    pub fn admits(&self, g: &BitGraph) -> bool {
        (!self.triangle_free || triangle_free(g))
            && (!self.square_free || square_free(g))
            && (!self.bipartite || bipartite(g))
    }
}

/// No triangle: the ends of every edge have no common neighbour.
pub fn triangle_free(g: &BitGraph) -> bool {
    (0..g.n()).all(|u| members(g.nbrs(u)).all(|v| g.nbrs(u) & g.nbrs(v) == 0))
}

/// No 4-cycle as a subgraph (geng's `-f`, induced or not): every two
/// vertices have at most one common neighbour.
pub fn square_free(g: &BitGraph) -> bool {
    (0..g.n()).all(|u| (u + 1..g.n()).all(|v| (g.nbrs(u) & g.nbrs(v)).count_ones() <= 1))
}

/// Two-colourable: each component coloured breadth-first (bitsets, one
/// layer at a time) has no edge inside a layer's colour.
pub fn bipartite(g: &BitGraph) -> bool {
    let mut left = g.all();
    while left != 0 {
        let start = 1 << left.trailing_zeros();
        // Even and odd layers of the breadth-first search from `start`.
        let (mut sides, mut frontier, mut seen, mut odd) = ([start, 0], start, start, false);
        while frontier != 0 {
            let next = members(frontier).fold(0, |acc, v| acc | g.nbrs(v)) & !seen;
            odd = !odd;
            sides[usize::from(odd)] |= next;
            seen |= next;
            frontier = next;
        }
        if sides
            .iter()
            .any(|&side| members(side).any(|v| g.nbrs(v) & side != 0))
        {
            return false;
        }
        left &= !seen;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every graph on `n` labelled vertices (as edge masks over the pairs).
    fn all_labelled(n: usize) -> impl Iterator<Item = BitGraph> {
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .collect();
        (0u32..1 << pairs.len()).map(move |mask| {
            let es: Vec<(usize, usize)> = pairs
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &e)| e)
                .collect();
            BitGraph::from_edges(n, &es)
        })
    }

    /// The classes agree with their definitions, by brute force over every
    /// labelled graph on up to 6 vertices: a proper 2-colouring among all
    /// colourings, no 3 pairwise adjacent vertices, no 4 vertices in a
    /// cycle a-b-c-d-a.
    #[test]
    fn classes_match_their_definitions() {
        for n in 1..=6usize {
            for g in all_labelled(n) {
                let e = |a: usize, b: usize| g.has_edge(a, b);
                let two_col =
                    (0u32..1 << n).any(|c| g.edges().all(|(u, v)| (c >> u ^ c >> v) & 1 == 1));
                let mut tri = false;
                let mut sq = false;
                for a in 0..n {
                    for b in 0..n {
                        for c in 0..n {
                            let distinct3 = a != b && b != c && a != c;
                            tri |= distinct3 && e(a, b) && e(b, c) && e(a, c);
                            for d in 0..n {
                                sq |= distinct3
                                    && d != a
                                    && d != b
                                    && d != c
                                    && e(a, b)
                                    && e(b, c)
                                    && e(c, d)
                                    && e(d, a);
                            }
                        }
                    }
                }
                assert_eq!(
                    bipartite(&g),
                    two_col,
                    "{:?}",
                    g.edges().collect::<Vec<_>>()
                );
                assert_eq!(triangle_free(&g), !tri);
                assert_eq!(square_free(&g), !sq);
            }
        }
    }

    #[test]
    fn clusters_read_as_geng_reads_them() {
        let mut sw = Switches::default();
        sw.read_cluster("ctfd1D7").unwrap();
        assert!(sw.connected && sw.triangle_free && sw.square_free && !sw.bipartite);
        assert_eq!((sw.min_degree, sw.max_degree), (Some(1), Some(7)));
        let mut sw = Switches::default();
        sw.read_cluster("D12bugsqm").unwrap();
        assert!(sw.bipartite && sw.count && sw.sparse6 && sw.quiet && sw.save_memory);
        assert_eq!(sw.max_degree, Some(12));
        let err = |c: &str| Switches::default().read_cluster(c).unwrap_err().0;
        assert!(
            err("cT").starts_with("geng's -T is not supported (chordal graphs); run `nauty-geng`")
        );
        assert!(err("d").contains("-d takes a number"));
        let mut sw = Switches::default();
        sw.read_cluster("d1d2").unwrap();
        assert_eq!(sw.min_degree, Some(2), "the last one, as in geng");
        assert!(err("cz").contains("-z is not a switch of geng"));
    }

    /// The `>A` lines nauty-geng 2.8.6 writes (`nauty-geng ARGS` as shown).
    #[test]
    fn a_lines_are_gengs() {
        let line = |args: &str, n: u32, edges: Option<(u32, u32)>, part| {
            let mut sw = Switches::default();
            sw.read_cluster(args).unwrap();
            a_line("nauty-geng", n, &sw, &bounds(n, &sw, edges).unwrap(), part)
        };
        // -c 8; 8 7:9; -c 8 10:0; -bf 8; -ctf 9; -cb 8 7:10; 1; -d2 -D3 8;
        // -c 8 0/3; 8 2/3; -cbm 8.
        assert_eq!(line("c", 8, None, None), ">A nauty-geng -cd1D7 n=8 e=7-28");
        assert_eq!(
            line("", 8, Some((7, 9)), None),
            ">A nauty-geng -d0D7 n=8 e=7-9"
        );
        assert_eq!(
            line("c", 8, Some((10, u32::MAX)), None),
            ">A nauty-geng -cd1D7 n=8 e=10-28"
        );
        assert_eq!(line("bf", 8, None, None), ">A nauty-geng -fbd0D7 n=8 e=0-9");
        assert_eq!(
            line("ctf", 9, None, None),
            ">A nauty-geng -ctfd1D8 n=9 e=8-12"
        );
        assert_eq!(
            line("bc", 8, Some((7, 10)), None),
            ">A nauty-geng -cbd1D7 n=8 e=7-10"
        );
        assert_eq!(line("", 1, None, None), ">A nauty-geng -d0D0 n=1 e=0");
        assert_eq!(
            line("d2D3", 8, None, None),
            ">A nauty-geng -d2D3 n=8 e=8-12"
        );
        assert_eq!(
            line("c", 8, None, Some((0, 3))),
            ">A nauty-geng -cX0x150d1D7 n=8 e=7-28 class=0/3"
        );
        assert_eq!(
            line("", 8, None, Some((2, 3))),
            ">A nauty-geng -X0x150d0D7 n=8 e=0-28 class=2/3"
        );
        assert_eq!(
            line("cbm", 8, None, None),
            ">A nauty-geng -cbmd1D7 n=8 e=7-16"
        );
        // geng -c 8 0:0: "impossible mine,maxe,mindeg,maxdeg values".
        let sw = Switches {
            connected: true,
            ..Switches::default()
        };
        assert!(bounds(8, &sw, Some((0, 0)))
            .unwrap_err()
            .0
            .contains("geng refuses these bounds too"));
        assert_eq!(
            z_line(11117, 0.014),
            ">Z 11117 graphs generated in 0.01 sec"
        );
    }
}
