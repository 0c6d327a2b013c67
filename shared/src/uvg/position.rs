//! One UVG position solved for `gamesweep solve uvg`: the exact Grundy value,
//! the winner (matching theorem) and a winning move of every start (or one),
//! with an optional search budget.
//!
//! How a graph is solved is decided here once, by [`method`]: graphs of up
//! to [`Method::DP_MAX_N`] vertices use the bitset subset DP, whose work is
//! small and fixed (a budget does not apply to it); larger graphs use the
//! general-graph solver ([`super::general`]), which counts the search nodes
//! it uses. Every caller (`solve uvg`, its pipeline, the boards, Python)
//! asks [`method`] or goes through [`start_values`] / [`solve_position_within`].
//! [`solve_position_within`] bounds the nodes of all starts together (what
//! `solve uvg` uses); [`solve_position`] bounds each start separately.
//!
//! ```
//! use gamesweep::uvg::position::solve_position;
//! // The path on 3 vertices, 0 - 1 - 2 (graph6 `Bg`).
//! let rep = solve_position("Bg", None, None).unwrap();
//! let values: Vec<_> = rep.starts.iter().map(|s| s.grundy).collect();
//! assert_eq!(values, [Some(0), Some(1), Some(0)]);
//! assert!(rep.starts[1].first_player_wins);
//! ```

use super::general::{first_player_wins_general, grundy_general, winning_move_general};
use super::incremental::Incremental;
use super::{first_player_wins, grundy_all, winning_move};
use crate::graph::general::{GeneralGraph, GraphError};
use crate::graph::graph6::{self, Graph6Error};
use crate::graph::BitGraph;
use serde::Serialize;
use std::cell::RefCell;
use std::fmt;

/// How the values of a UVG graph are computed ([`method`] chooses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The bitset subset DP: exact, fixed and small work (a table indexed by
    /// vertex subsets, 2^16 rows at most, a few milliseconds), no budget.
    SubsetDp,
    /// The exact search of the general-graph solver, within `budget` search
    /// nodes (`None`: unlimited).
    Search {
        /// Search nodes the search may use.
        budget: Option<u64>,
    },
}

impl Method {
    /// The most vertices [`Method::SubsetDp`] takes, for text that names
    /// the cut-off (decisions go through [`method`]).
    pub const DP_MAX_N: usize = super::SUBSET_DP_MAX_N;
}

/// How a graph on `n` vertices is solved, given a search `budget`: the one
/// place the cut-off between the subset DP and the budgeted search is
/// decided. A budget only ever applies above [`Method::DP_MAX_N`] vertices.
///
/// ```
/// use gamesweep::uvg::position::{method, Method};
/// assert_eq!(method(16, Some(10)), Method::SubsetDp);
/// assert_eq!(method(17, Some(10)), Method::Search { budget: Some(10) });
/// ```
pub fn method(n: usize, budget: Option<u64>) -> Method {
    if n <= super::SUBSET_DP_MAX_N {
        Method::SubsetDp
    } else {
        Method::Search { budget }
    }
}

thread_local! {
    /// Each thread's incremental subset table for [`start_values`]:
    /// consecutive graphs of a stream (geng, `gamesweep graphs`) mostly
    /// share all but their last vertex (in the same labelling), and the
    /// table then computes only the rows with that vertex.
    static STREAM: RefCell<Incremental> = RefCell::new(Incremental::new());
}

/// The Grundy value of every start of the graph on `n` vertices with
/// `edges`, by [`method`]: the subset DP on this thread's incremental table
/// (fixed work; exact for any order of graphs, fastest when consecutive
/// graphs share their first vertices), else the search within `budget`
/// search nodes of all starts together (a search that needs more stops with
/// [`PositionError::BudgetExceeded`]).
///
/// ```
/// use gamesweep::uvg::position::start_values;
/// // The path 0 - 1 - 2.
/// assert_eq!(start_values(3, &[(0, 1), (1, 2)], Some(1)).unwrap(), [0, 1, 0]);
/// ```
pub fn start_values(
    n: usize,
    edges: &[(usize, usize)],
    budget: Option<u64>,
) -> Result<Vec<u32>, PositionError> {
    if n == 0 {
        return Err(PositionError::NoVertices);
    }
    match method(n, budget) {
        Method::SubsetDp => {
            let g = BitGraph::from_edges(n, edges);
            Ok(STREAM.with(|t| {
                t.borrow_mut()
                    .push_leaf(&g)
                    .iter()
                    .map(|&v| u32::from(v))
                    .collect()
            }))
        }
        Method::Search { .. } => {
            let starts: Vec<usize> = (0..n).collect();
            let rep = solve_decoded(n, edges, starts, budget, true)?;
            Ok(rep
                .starts
                .iter()
                .map(|s| s.grundy.expect("a total budget gives every value"))
                .collect())
        }
    }
}

/// Why a position could not be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The graph6 text does not parse.
    #[error("bad graph6 `{text}`: {source}")]
    Graph6 {
        /// The text as given.
        text: String,
        /// What was wrong.
        source: Graph6Error,
    },
    /// The graph has no vertices, so no start.
    #[error("the graph has no vertices: there is no start vertex")]
    NoVertices,
    /// The requested start is not a vertex.
    #[error("start {start} is not a vertex (the graph has vertices 0..{last})")]
    StartOutOfRange {
        /// The start asked for.
        start: usize,
        /// The largest vertex.
        last: usize,
    },
    /// The graph is not simple.
    #[error("bad graph: {0}")]
    Graph(#[from] GraphError),
    /// [`solve_position_within`]: the starts together needed more search
    /// nodes than the budget.
    #[error("search budget of {budget} positions exceeded")]
    BudgetExceeded {
        /// The budget (search nodes of all starts together).
        budget: u64,
        /// Nodes used when the search stopped (more than `budget`).
        nodes: u64,
    },
    /// The search's [`Meter`](crate::meter::Meter) was stopped.
    #[error("the search was stopped after {nodes} positions")]
    Stopped {
        /// Nodes used when the search stopped.
        nodes: u64,
    },
}

/// One start vertex's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StartReport {
    /// The start vertex.
    pub start: usize,
    /// Exact Grundy value, or null when the budget ran out.
    pub grundy: Option<u32>,
    /// Matching theorem: does the player to move win?
    pub first_player_wins: bool,
    /// A winning move (partner in a maximum matching), or null.
    pub winning_move: Option<usize>,
    /// Search nodes used by the exact search (general solver only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}

/// The answer for a graph: `{"n": .., "starts": [..]}` as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionReport {
    /// Number of vertices.
    pub n: usize,
    /// Per start vertex asked for, in order.
    pub starts: Vec<StartReport>,
}

/// Solve UVG on the graph `text` (graph6) from `start` (default: every
/// vertex). With a `budget`, the exact search of each start gives up after
/// that many search nodes (its `grundy` is then `None`; the winner and a
/// winning move, from the matching theorem, are always given). Graphs the
/// subset DP takes ([`method`]) are always solved exactly.
pub fn solve_position(
    text: &str,
    start: Option<usize>,
    budget: Option<u64>,
) -> Result<PositionReport, PositionError> {
    solve(text, start, budget, false)
}

/// Solve UVG on the graph `text` (graph6) from `start` (default: every
/// vertex) with at most `budget` search nodes for all starts together
/// (`None`: unlimited). Every `grundy` of the answer is known; a search that
/// needs more nodes stops at once with [`PositionError::BudgetExceeded`].
/// The search's memory is bounded by the nodes it evaluates. Graphs the
/// subset DP takes ([`method`]) are solved by it whatever the budget (its
/// work is fixed and small).
///
/// ```
/// use gamesweep::uvg::position::{solve_position_within, PositionError};
/// // K20: the exact search needs far more than 1000 positions.
/// let k20 = gamesweep::graph::graph6::encode_with(20, |_, _| true);
/// assert!(matches!(
///     solve_position_within(&k20, None, Some(1000)),
///     Err(PositionError::BudgetExceeded { budget: 1000, .. })
/// ));
/// ```
pub fn solve_position_within(
    text: &str,
    start: Option<usize>,
    budget: Option<u64>,
) -> Result<PositionReport, PositionError> {
    solve(text, start, budget, true)
}

/// [`solve_position`] (`total == false`: `budget` per start, unknown values
/// allowed) or [`solve_position_within`] (`total`: one budget, exceeded is an
/// error).
fn solve(
    text: &str,
    start: Option<usize>,
    budget: Option<u64>,
    total: bool,
) -> Result<PositionReport, PositionError> {
    let (n, edges) = graph6::decode(text.trim()).map_err(|source| PositionError::Graph6 {
        text: text.to_string(),
        source,
    })?;
    if n == 0 {
        return Err(PositionError::NoVertices);
    }
    let starts: Vec<usize> = match start {
        Some(s) if s >= n => {
            return Err(PositionError::StartOutOfRange {
                start: s,
                last: n - 1,
            })
        }
        Some(s) => vec![s],
        None => (0..n).collect(),
    };
    solve_decoded(n, &edges, starts, budget, total)
}

/// [`solve`] on the decoded graph (`n ≥ 1`, every start a vertex).
fn solve_decoded(
    n: usize,
    edges: &[(usize, usize)],
    starts: Vec<usize>,
    budget: Option<u64>,
    total: bool,
) -> Result<PositionReport, PositionError> {
    let mut out = Vec::with_capacity(starts.len());
    if method(n, budget) == Method::SubsetDp {
        let g = BitGraph::from_edges(n, edges);
        let all = g.all();
        let values = grundy_all(&g);
        for s in starts {
            out.push(StartReport {
                start: s,
                grundy: Some(values[s] as u32),
                first_player_wins: first_player_wins(&g, s, all),
                winning_move: winning_move(&g, s, all),
                nodes: None,
            });
        }
    } else {
        let g = GeneralGraph::from_edges(n, edges)?;
        let all = g.all();
        let mut used = 0u64;
        for s in starts {
            let left = match (budget, total) {
                (Some(b), true) => Some(b.saturating_sub(used)),
                (b, _) => b,
            };
            let (grundy, nodes) = match grundy_general(&g, s, left) {
                Ok(o) => (Some(o.value), o.nodes),
                Err(e) if e.stopped => {
                    return Err(PositionError::Stopped {
                        nodes: used.saturating_add(e.nodes),
                    })
                }
                Err(e) if total => {
                    return Err(PositionError::BudgetExceeded {
                        budget: budget.unwrap_or(u64::MAX),
                        nodes: used.saturating_add(e.nodes),
                    })
                }
                Err(e) => (None, e.nodes),
            };
            used = used.saturating_add(nodes);
            out.push(StartReport {
                start: s,
                grundy,
                first_player_wins: first_player_wins_general(&g, s, &all),
                winning_move: winning_move_general(&g, s, &all),
                nodes: Some(nodes),
            });
        }
    }
    Ok(PositionReport { n, starts: out })
}

/// The Grundy value of the token on each of `tokens` (in that order) in the subgraph induced by
/// `keep` (every token kept), by [`method`] on the kept vertices: the dense
/// DP, or the general search within `budget` (`used` so far).
pub fn values_without(
    n: usize,
    edges: &[(usize, usize)],
    keep: &[bool],
    tokens: &[usize],
    budget: Option<u64>,
    used: &mut u64,
) -> Result<Vec<u32>, PositionError> {
    if tokens.is_empty() {
        return Ok(Vec::new());
    }
    // New numbers of the kept vertices, in increasing order.
    let mut index = vec![usize::MAX; n];
    let mut k = 0usize;
    for v in 0..n {
        if keep[v] {
            index[v] = k;
            k += 1;
        }
    }
    let sub: Vec<(usize, usize)> = edges
        .iter()
        .filter(|&&(a, b)| keep[a] && keep[b])
        .map(|&(a, b)| (index[a], index[b]))
        .collect();
    if method(k, budget) == Method::SubsetDp {
        let h = BitGraph::from_edges(k, &sub);
        let values = grundy_all(&h);
        return Ok(tokens
            .iter()
            .map(|&u| u32::from(values[index[u]]))
            .collect());
    }
    let h = GeneralGraph::from_edges(k, &sub)?;
    let mut out = Vec::with_capacity(tokens.len());
    for &u in tokens {
        let left = budget.map(|b| b.saturating_sub(*used));
        match grundy_general(&h, index[u], left) {
            Ok(o) => {
                *used = used.saturating_add(o.nodes);
                out.push(o.value);
            }
            Err(e) if e.stopped => {
                return Err(PositionError::Stopped {
                    nodes: used.saturating_add(e.nodes),
                })
            }
            Err(e) => {
                return Err(PositionError::BudgetExceeded {
                    budget: budget.unwrap_or(u64::MAX),
                    nodes: used.saturating_add(e.nodes),
                })
            }
        }
    }
    Ok(out)
}

/// CGSuite-style nimber: `0`, `*`, `*2`, …
pub fn nimber(v: u32) -> String {
    match v {
        0 => "0".into(),
        1 => "*".into(),
        k => format!("*{k}"),
    }
}

impl fmt::Display for PositionReport {
    /// The table `gamesweep solve uvg` prints: start, Grundy value, winner, winning move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "UVG on {} vertices", self.n)?;
        writeln!(
            f,
            "{:>6}  {:>7}  {:>8}  {:>12}",
            "start", "grundy", "winner", "winning move"
        )?;
        for s in &self.starts {
            let g = s
                .grundy
                .map(nimber)
                .unwrap_or_else(|| "unknown (budget)".into());
            let w = if s.first_player_wins {
                "first"
            } else {
                "second"
            };
            let m = s
                .winning_move
                .map(|u| u.to_string())
                .unwrap_or_else(|| "-".into());
            writeln!(f, "{:>6}  {:>7}  {:>8}  {:>12}", s.start, g, w, m)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::graph6::encode_bitgraph;
    use crate::uvg::grundy;

    fn path(n: usize) -> String {
        graph6::encode_with(n, |u, v| u.abs_diff(v) == 1)
    }

    /// A winning move leads to a position of value 0 (a loss for the mover's opponent).
    fn check_moves(text: &str, rep: &PositionReport) {
        let (n, edges) = graph6::decode(text).unwrap();
        let g = BitGraph::from_edges(n, &edges);
        for s in &rep.starts {
            assert_eq!(
                s.winning_move.is_some(),
                s.first_player_wins,
                "start {}",
                s.start
            );
            if let Some(g0) = s.grundy {
                assert_eq!(g0 != 0, s.first_player_wins, "start {}", s.start);
            }
            if let Some(m) = s.winning_move {
                assert!(g.has_edge(s.start, m));
                assert_eq!(grundy(&g, m, g.all() & !(1 << s.start)), 0);
            }
        }
    }

    #[test]
    fn path_on_three_vertices() {
        let p3 = path(3);
        assert_eq!(p3, "Bg");
        let rep = solve_position(&p3, None, None).unwrap();
        assert_eq!(rep.n, 3);
        let values: Vec<_> = rep.starts.iter().map(|s| s.grundy).collect();
        assert_eq!(values, [Some(0), Some(1), Some(0)]);
        assert_eq!(rep.starts[0].winning_move, None);
        assert!(rep.starts.iter().all(|s| s.nodes.is_none()));
        check_moves(&p3, &rep);
        let json = serde_json::to_string(&rep.starts[0]).unwrap();
        assert_eq!(
            json,
            r#"{"start":0,"grundy":0,"first_player_wins":false,"winning_move":null}"#
        );
        let one = solve_position(&p3, Some(1), None).unwrap();
        assert_eq!(one.starts, vec![rep.starts[1].clone()]);
    }

    #[test]
    fn dense_and_general_solvers_agree() {
        // Every connected graph on up to 6 vertices, via a budget large enough
        // to force the general solver to finish.
        let mut texts = Vec::new();
        for n in 1..=6 {
            crate::gen::walk_filtered(
                &BitGraph::new(0),
                n,
                crate::gen::WalkOptions {
                    connected_only: true,
                    min_n: n,
                },
                &mut |g| texts.push(encode_bitgraph(g)),
            );
        }
        assert_eq!(texts.len(), 1 + 1 + 2 + 6 + 21 + 112);
        for t in &texts {
            let dense = solve_position(t, None, None).unwrap();
            check_moves(t, &dense);
            let (n, edges) = graph6::decode(t).unwrap();
            let g = GeneralGraph::from_edges(n, &edges).unwrap();
            for d in &dense.starts {
                let general = grundy_general(&g, d.start, None).unwrap();
                assert_eq!(d.grundy, Some(general.value), "{t}");
                assert_eq!(
                    d.first_player_wins,
                    first_player_wins_general(&g, d.start, &g.all()),
                    "{t}"
                );
            }
            // A budget keeps small graphs on the dense solver: same answer,
            // also from the incremental table of `start_values`.
            let values: Vec<u32> = dense.starts.iter().map(|s| s.grundy.unwrap()).collect();
            assert_eq!(start_values(n, &edges, Some(1)).unwrap(), values, "{t}");
            assert_eq!(solve_position(t, None, Some(1)).unwrap(), dense, "{t}");
            assert_eq!(
                solve_position_within(t, None, Some(1)).unwrap(),
                dense,
                "{t}"
            );
        }
    }

    #[test]
    fn large_graphs_and_budgets() {
        // A path on 40 vertices: from an end every move is forced, 39 of them.
        let p40 = path(40);
        let rep = solve_position(&p40, Some(0), None).unwrap();
        assert_eq!(rep.n, 40);
        assert_eq!(rep.starts[0].grundy, Some(1));
        assert!(rep.starts[0].first_player_wins);
        assert_eq!(rep.starts[0].winning_move, Some(1));
        assert!(rep.starts[0].nodes.is_some());
        // On K18 (past the exact dense path's 16 vertices) a budget of one
        // node is not enough, but the winner is still known (K18 has a
        // perfect matching: the mover wins).
        let k18 = graph6::encode_with(18, |_, _| true);
        let rep = solve_position(&k18, Some(2), Some(1)).unwrap();
        let s = &rep.starts[0];
        assert_eq!((s.start, s.grundy, s.first_player_wins), (2, None, true));
        assert!(rep.to_string().contains("unknown (budget)"));
        assert_eq!(
            solve_position_within(&k18, Some(2), Some(1)),
            Err(PositionError::BudgetExceeded {
                budget: 1,
                nodes: 2
            })
        );
    }

    #[test]
    fn start_values_use_the_search_past_the_cut_off() {
        assert_eq!(method(16, None), Method::SubsetDp);
        assert_eq!(method(17, None), Method::Search { budget: None });
        assert_eq!(start_values(0, &[], None), Err(PositionError::NoVertices));
        let p40 = path(40);
        let (n, edges) = graph6::decode(&p40).unwrap();
        let full = solve_position_within(&p40, None, None).unwrap();
        let values: Vec<u32> = full.starts.iter().map(|s| s.grundy.unwrap()).collect();
        assert_eq!(start_values(n, &edges, None).unwrap(), values);
        let k18 = graph6::encode_with(18, |_, _| true);
        let (n, edges) = graph6::decode(&k18).unwrap();
        assert_eq!(
            start_values(n, &edges, Some(1)),
            Err(PositionError::BudgetExceeded {
                budget: 1,
                nodes: 2
            })
        );
    }

    #[test]
    fn a_total_budget_bounds_all_starts_together() {
        // The path on 40 vertices: every start is cheap, but their nodes add up.
        let p40 = path(40);
        let full = solve_position_within(&p40, None, None).unwrap();
        let total: u64 = full.starts.iter().map(|s| s.nodes.unwrap()).sum();
        let most = full.starts.iter().map(|s| s.nodes.unwrap()).max().unwrap();
        assert!(most < total);
        // Exactly enough for all: the same answer as without a budget.
        assert_eq!(
            solve_position_within(&p40, None, Some(total)).unwrap(),
            full
        );
        // Enough for any one start but not for all: an error, where the
        // per-start budget of `solve_position` would go on.
        assert!(matches!(
            solve_position_within(&p40, None, Some(most)),
            Err(PositionError::BudgetExceeded { budget, nodes }) if budget == most && nodes > most
        ));
        let per_start = solve_position(&p40, None, Some(most)).unwrap();
        assert!(per_start.starts.iter().all(|s| s.grundy.is_some()));
        assert_eq!(
            PositionError::BudgetExceeded {
                budget: 7,
                nodes: 8
            }
            .to_string(),
            "search budget of 7 positions exceeded"
        );
    }

    #[test]
    fn k40_stops_within_a_budget() {
        // Before the hash fix (fxhash.rs) and the total budget, this ran for
        // minutes: the memo's keys all fell in a few buckets.
        let k40 = graph6::encode_with(40, |_, _| true);
        let t = std::time::Instant::now();
        let e = solve_position_within(&k40, None, Some(200_000)).unwrap_err();
        assert!(
            matches!(e, PositionError::BudgetExceeded { budget: 200_000, nodes } if nodes > 200_000),
            "{e:?}"
        );
        assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
    }

    /// Regression: every graph of at most 16 vertices is exact whatever the
    /// budget (the subset DP, no search nodes counted): a 16-vertex graph
    /// that needs about 10^7 nodes of the general search, and K16.
    #[test]
    fn graphs_of_sixteen_vertices_are_exact_under_any_budget() {
        let hard = "OpU_E_pAwILxuFsesdJc]";
        let k16 = graph6::encode_with(16, |_, _| true);
        for (text, want) in [(hard, None), (k16.as_str(), Some(vec![1u32; 16]))] {
            let rep = solve_position_within(text, None, Some(1))
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(rep.n, 16);
            assert!(
                rep.starts.iter().all(|s| s.nodes.is_none()),
                "{text}: searched"
            );
            check_moves(text, &rep);
            let values: Vec<u32> = rep.starts.iter().map(|s| s.grundy.unwrap()).collect();
            let want = want.unwrap_or_else(|| {
                // The general solver, unbounded, on the hard graph.
                let (n, edges) = graph6::decode(text).unwrap();
                let g = GeneralGraph::from_edges(n, &edges).unwrap();
                (0..n)
                    .map(|s| grundy_general(&g, s, None).unwrap().value)
                    .collect()
            });
            assert_eq!(values, want, "{text}");
        }
        // Above 16 the budget applies.
        let k17 = graph6::encode_with(17, |_, _| true);
        assert!(matches!(
            solve_position_within(&k17, None, Some(1)),
            Err(PositionError::BudgetExceeded { .. })
        ));
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(matches!(
            solve_position("not graph6 at all", None, None),
            Err(PositionError::Graph6 { .. })
        ));
        assert_eq!(
            solve_position("?", None, None),
            Err(PositionError::NoVertices)
        );
        assert_eq!(
            solve_position("Bg", Some(3), None),
            Err(PositionError::StartOutOfRange { start: 3, last: 2 })
        );
    }

    #[test]
    fn table_text() {
        let rep = solve_position("Bg", None, None).unwrap();
        let want = "UVG on 3 vertices\n start   grundy    winner  winning move\n     0        0    second             -\n";
        assert!(rep.to_string().starts_with(want), "{rep}");
        assert_eq!(rep.to_string().lines().count(), 5);
        assert_eq!(nimber(0), "0");
        assert_eq!(nimber(1), "*");
        assert_eq!(nimber(7), "*7");
    }
}
