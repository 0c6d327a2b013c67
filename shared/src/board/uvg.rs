//! UVG on one graph, everything the seed's demo board shows: per start the
//! Grundy value, the value of every legal move, the winner and a winning
//! move, ν(G − s) and (max degree ≤ 3) the degree-3 algorithm's value with
//! its number of win/lose tests; for the graph a maximum matching, ν(G) and
//! the vertices it leaves unmatched.
//!
//! The start values come from [`crate::uvg::position::solve_position_within`]
//! (what `solve uvg` always printed), the move values from the same solvers
//! on G − s, chosen by [`method`](crate::uvg::position::method): the bitset subset DP (fixed, small work)
//! or the general search, within what is left of the budget.
//!
//! ```
//! use gamesweep::board::uvg::analyse;
//! // The path 0 - 1 - 2: from the middle the mover wins by moving to an end.
//! let a = analyse("Bg", None, None).unwrap();
//! assert_eq!(a.nu, 1);
//! let mid = &a.starts[1];
//! assert_eq!((mid.grundy, mid.winning_move, mid.nu_without), (1, Some(0), 0));
//! assert_eq!(mid.moves.iter().map(|m| m.grundy).collect::<Vec<_>>(), [0, 0]);
//! ```

use crate::graph::general::GeneralGraph;
use crate::graph::graph6;
use crate::uvg::general::{degree3_general, max_matching_general, max_matching_size_general};
use crate::uvg::position::{nimber, solve_position_within, values_without, PositionError};
use serde::Serialize;
use std::fmt;

/// One legal move and the Grundy value of the position it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UvgMove {
    /// The vertex the token moves to.
    pub vertex: usize,
    /// Grundy value of the position after the move (0: the mover wins by it).
    pub grundy: u32,
}

/// The degree-3 algorithm's answer (Burke–Ferland–Teng, win/lose tests only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Degree3 {
    /// The Grundy value it finds.
    pub grundy: u32,
    /// Win/lose tests (maximum matchings) it used.
    pub tests: u32,
}

/// One start vertex. The first four fields (and `nodes`) are those of
/// [`crate::uvg::position::StartReport`], in its order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UvgStart {
    /// The start vertex.
    pub start: usize,
    /// Exact Grundy value.
    pub grundy: u32,
    /// Does the player to move win (ν(G) > ν(G − s))?
    pub first_player_wins: bool,
    /// A winning move (the start's partner in a maximum matching), if any.
    pub winning_move: Option<usize>,
    /// Search nodes of the start's exact search (general solver only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Every legal move (each neighbour, in increasing order) and its value.
    pub moves: Vec<UvgMove>,
    /// ν(G − s).
    pub nu_without: usize,
    /// The degree-3 algorithm's answer; `None` when the start's component
    /// has a vertex of degree more than 3.
    pub degree3: Option<Degree3>,
}

/// The analysis of a graph from one or every start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UvgAnalysis {
    /// Number of vertices.
    pub n: usize,
    /// Per start asked for, in increasing order.
    pub starts: Vec<UvgStart>,
    /// The graph (graph6, as given, trimmed).
    pub graph6: String,
    /// The edges `(u, v)`, `u < v`, in graph6 order.
    pub edges: Vec<(usize, usize)>,
    /// Largest vertex degree.
    pub max_degree: usize,
    /// ν(G), the size of a maximum matching.
    pub nu: usize,
    /// A maximum matching (Edmonds' blossom algorithm), edges `(u, v)`, `u < v`, by `u`.
    pub matching: Vec<(usize, usize)>,
    /// The vertices this matching leaves unmatched.
    pub unmatched: Vec<usize>,
}

/// Analyse UVG on `text` (graph6) from `start` (default: every vertex) with
/// at most `budget` search nodes of the exact searches, all starts and all
/// their moves together (`None`: unlimited). Graphs the subset DP takes
/// ([`method`](crate::uvg::position::method)) never run out. Errors are those of
/// [`solve_position_within`].
pub fn analyse(
    text: &str,
    start: Option<usize>,
    budget: Option<u64>,
) -> Result<UvgAnalysis, PositionError> {
    // The code as echoed (`graph6` of the answer): without a `>>graph6<<` header.
    let text = graph6::strip_header(text.trim());
    let rep = solve_position_within(text, start, budget)?;
    let (n, edges) = graph6::decode(text).map_err(|source| PositionError::Graph6 {
        text: text.to_string(),
        source,
    })?;
    let g = GeneralGraph::from_edges(n, &edges)?;
    let all = g.all();
    let mates = max_matching_general(&g, &all);
    let matching: Vec<(usize, usize)> = mates
        .iter()
        .enumerate()
        .filter_map(|(u, m)| m.filter(|&v| u < v).map(|v| (u, v)))
        .collect();
    let unmatched: Vec<usize> = (0..n).filter(|&v| mates[v].is_none()).collect();
    let max_degree = g.max_degree();
    let mut used: u64 = rep.starts.iter().filter_map(|s| s.nodes).sum();
    let mut starts = Vec::with_capacity(rep.starts.len());
    for s in rep.starts {
        let v = s.start;
        let moves = move_values(n, &edges, v, budget, &mut used)?;
        let mut rest = all.clone();
        rest.remove(v);
        let degree3 = degree3_general(&g, v, &all).map(|(grundy, tests)| Degree3 { grundy, tests });
        starts.push(UvgStart {
            start: v,
            grundy: s.grundy.expect("solve_position_within gives every value"),
            first_player_wins: s.first_player_wins,
            winning_move: s.winning_move,
            nodes: s.nodes,
            moves,
            nu_without: max_matching_size_general(&g, &rest),
            degree3,
        });
    }
    Ok(UvgAnalysis {
        n,
        starts,
        graph6: text.to_string(),
        edges,
        max_degree,
        nu: matching.len(),
        matching,
        unmatched,
    })
}

/// The Grundy value of every position (token on `u`, vertex `gone` removed)
/// for `u` a neighbour of `gone`: the moves from start `gone`. `used` counts
/// the search nodes spent so far against `budget`.
fn move_values(
    n: usize,
    edges: &[(usize, usize)],
    gone: usize,
    budget: Option<u64>,
    used: &mut u64,
) -> Result<Vec<UvgMove>, PositionError> {
    let mut nbrs: Vec<usize> = edges
        .iter()
        .filter_map(|&(a, b)| match (a == gone, b == gone) {
            (true, _) => Some(b),
            (_, true) => Some(a),
            _ => None,
        })
        .collect();
    nbrs.sort_unstable();
    let mut keep = vec![true; n];
    keep[gone] = false;
    moves_without(n, edges, &keep, &nbrs, budget, used)
}

/// [`values_without`] with each token's vertex: the moves a board lists.
fn moves_without(
    n: usize,
    edges: &[(usize, usize)],
    keep: &[bool],
    tokens: &[usize],
    budget: Option<u64>,
    used: &mut u64,
) -> Result<Vec<UvgMove>, PositionError> {
    let values = values_without(n, edges, keep, tokens, budget, used)?;
    Ok(tokens
        .iter()
        .zip(values)
        .map(|(&vertex, grundy)| UvgMove { vertex, grundy })
        .collect())
}

/// The Grundy value of a game under way and of each of its moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionValues {
    /// The vertex the token is on.
    pub token: usize,
    /// Grundy value of the position (0: the player to move loses).
    pub grundy: u32,
    /// Every legal move (each unvisited neighbour, in increasing order) and its value.
    pub moves: Vec<UvgMove>,
}

/// Grundy values in a game under way on `text` (graph6): the token on
/// `token`, the vertices `visited` used up (the token's own vertex may be
/// listed or not). Bounded like [`analyse`] (graphs the subset DP takes
/// never run out).
pub fn position_values(
    text: &str,
    visited: &[usize],
    token: usize,
    budget: Option<u64>,
) -> Result<PositionValues, PositionError> {
    let (n, edges, mut keep) = position(text, visited, token)?;
    let mut used = 0u64;
    let grundy = values_without(n, &edges, &keep, &[token], budget, &mut used)?[0];
    keep[token] = false;
    let mut nbrs: Vec<usize> = edges
        .iter()
        .filter_map(|&(a, b)| match (a == token, b == token) {
            (true, _) => Some(b),
            (_, true) => Some(a),
            _ => None,
        })
        .filter(|&u| keep[u])
        .collect();
    nbrs.sort_unstable();
    let moves = moves_without(n, &edges, &keep, &nbrs, budget, &mut used)?;
    Ok(PositionValues {
        token,
        grundy,
        moves,
    })
}

/// The Grundy value of one position of a game under way (as
/// [`position_values`], without the moves) and the search nodes it took
/// (0 when the dense DP valued it).
pub fn position_value(
    text: &str,
    visited: &[usize],
    token: usize,
    budget: Option<u64>,
) -> Result<(u32, u64), PositionError> {
    let (n, edges, keep) = position(text, visited, token)?;
    let mut used = 0u64;
    let grundy = values_without(n, &edges, &keep, &[token], budget, &mut used)?[0];
    Ok((grundy, used))
}

/// A game under way: the order, the edges and the vertices left.
type Position = (usize, Vec<(usize, usize)>, Vec<bool>);

/// The graph of `text` and the vertices left (`visited` gone, `token` kept).
fn position(text: &str, visited: &[usize], token: usize) -> Result<Position, PositionError> {
    let text = text.trim();
    let (n, edges) = graph6::decode(text).map_err(|source| PositionError::Graph6 {
        text: text.to_string(),
        source,
    })?;
    if n == 0 {
        return Err(PositionError::NoVertices);
    }
    if let Some(&v) = visited.iter().chain([&token]).find(|&&v| v >= n) {
        return Err(PositionError::StartOutOfRange {
            start: v,
            last: n - 1,
        });
    }
    let mut keep = vec![true; n];
    for &v in visited {
        keep[v] = false;
    }
    keep[token] = true;
    Ok((n, edges, keep))
}

impl fmt::Display for UvgAnalysis {
    /// What `gamesweep solve uvg` prints: the table of starts (start, Grundy
    /// value, winner, winning move, ν(G − s), every move's value), the
    /// matching, ν(G), the unmatched vertices and the degree-3 line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "UVG on {} {}, {} edge{}, max degree {}",
            self.n,
            if self.n == 1 { "vertex" } else { "vertices" },
            self.edges.len(),
            if self.edges.len() == 1 { "" } else { "s" },
            self.max_degree
        )?;
        writeln!(
            f,
            "{:>6}  {:>7}  {:>8}  {:>12}  {:>7}  moves (to → value)",
            "start", "grundy", "winner", "winning move", "ν(G−s)"
        )?;
        for s in &self.starts {
            let w = if s.first_player_wins {
                "first"
            } else {
                "second"
            };
            let m = s
                .winning_move
                .map(|u| u.to_string())
                .unwrap_or_else(|| "-".into());
            let moves: Vec<String> = s
                .moves
                .iter()
                .map(|m| format!("{} → {}", m.vertex, nimber(m.grundy)))
                .collect();
            let moves = if moves.is_empty() {
                "none".to_string()
            } else {
                moves.join(", ")
            };
            writeln!(
                f,
                "{:>6}  {:>7}  {:>8}  {:>12}  {:>7}  {moves}",
                s.start,
                nimber(s.grundy),
                w,
                m,
                s.nu_without
            )?;
        }
        let pairs: Vec<String> = self
            .matching
            .iter()
            .map(|(u, v)| format!("{u}-{v}"))
            .collect();
        writeln!(
            f,
            "maximum matching: {} (ν(G) = {})",
            if pairs.is_empty() {
                "none".to_string()
            } else {
                pairs.join(" ")
            },
            self.nu
        )?;
        let un: Vec<String> = self.unmatched.iter().map(|v| v.to_string()).collect();
        writeln!(
            f,
            "unmatched vertices: {}",
            if un.is_empty() {
                "none".to_string()
            } else {
                un.join(" ")
            }
        )?;
        writeln!(
            f,
            "ν(G) = {}: the first player wins from s exactly when ν(G − s) < ν(G)",
            self.nu
        )?;
        if self.max_degree > 3 {
            writeln!(
                f,
                "degree-3 algorithm: not applicable (max degree {} > 3)",
                self.max_degree
            )?;
        } else {
            let parts: Vec<String> = self
                .starts
                .iter()
                .map(|s| match s.degree3 {
                    Some(d) => format!(
                        "{}: {} in {} test{}",
                        s.start,
                        nimber(d.grundy),
                        d.tests,
                        if d.tests == 1 { "" } else { "s" }
                    ),
                    None => format!("{}: -", s.start),
                })
                .collect();
            writeln!(
                f,
                "degree-3 algorithm (value in win/lose tests): {}",
                parts.join(", ")
            )?;
        }
        Ok(())
    }
}
