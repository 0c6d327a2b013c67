//! What the boards show, computed from the shared solvers: a UVG position
//! (token path on a graph) with the value of every start or every move, a
//! maximum matching, ν values, the degree-3 algorithm and the solver's
//! reply; a Col / Myopic Col position with its value, outcome and options.
//! UVG values and the play reply come from [`gamesweep::board`] and
//! `solve uvg`'s own solver; Col values from a per-visit [`ColTable`].
//! Pure functions of their input plus a work budget; no I/O.

use gamesweep::board::colplay::{self, Side};
use gamesweep::cgt::Outcome;
use gamesweep::col::{self, Board, Colour, Rules, Solver, SolverOptions};
use gamesweep::graph::graph6;
use gamesweep::graph::{members, BitGraph};
use gamesweep::uvg;
use gamesweep::uvg::position::{solve_position_within, PositionError};
use serde::Serialize;

/// Largest UVG graph whose values are computed by the fixed-size subset DP
/// (always exact, small fixed work).
pub const UVG_DP_LIMIT: usize = uvg::SUBSET_DP_MAX_N;

/// Largest UVG graph a board takes (the bitset graph's limit). Between
/// [`UVG_DP_LIMIT`] and this, components larger than the DP limit are
/// searched with a node budget.
pub const UVG_MAX_N: usize = 32;

/// Search nodes a UVG request may use (graphs above the DP limit).
pub const UVG_BUDGET: u64 = 2_000_000;

/// Nodes the remoteness search behind the solver's reply may use on graphs
/// above [`UVG_DP_LIMIT`] vertices; up to it the search is always exact
/// (a flat table, [`gamesweep::board::play::DENSE_LIMIT`]), as the values are.
pub const REMOTENESS_BUDGET: u64 = 300_000;

/// Most search nodes one search asked for past the budget
/// (`/explore/api/uvg/search`) may use: about 2 GB of memo and a few
/// minutes.
pub const SEARCH_BUDGET_MAX: u64 = 50_000_000;

/// Bytes the tables of one such search may hold, unless the coordinator
/// or `explore` is given `--search-memory`: a search of the whole node
/// budget would hold about 2 GB, inside the process that holds the sweeps.
pub const SEARCH_MEMORY_DEFAULT: u64 = 256 << 20;

/// The budget the page offers for such a search.
pub const SEARCH_BUDGET_DEFAULT: u64 = 10_000_000;

/// Longest such a search may run.
pub const SEARCH_TIME_MAX: std::time::Duration = std::time::Duration::from_secs(300);

/// Work units (components expanded plus games held) a visit's Col table may
/// grow to before it is started afresh; one request that needs more is refused.
pub const COL_BUDGET: u64 = 1_000_000;

/// Positions the remoteness search behind the Col solver's reply
/// ([`gamesweep::board::colplay`]) may evaluate; past it the reply is the
/// lowest winning move by the values (or the lowest move when none wins).
pub const COL_REMOTENESS_BUDGET: u64 = 300_000;

/// Largest Col / Myopic Col board.
pub const COL_MAX_N: usize = 24;

pub use super::presets::{drawing, Drawing, BOX};

/// Why a board cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The text is not graph6 / digraph6.
    #[error("bad {what} `{text}`: {why}")]
    Code {
        /// graph6 or digraph6.
        what: &'static str,
        /// The text.
        text: String,
        /// The decoder's reason.
        why: String,
    },
    /// Too many vertices.
    #[error("{n} vertices is too many for this board (at most {max})")]
    TooBig {
        /// Vertices.
        n: usize,
        /// The limit.
        max: usize,
    },
    /// No vertices.
    #[error("the graph has no vertices")]
    Empty,
    /// A path step is not a legal move.
    #[error("{0}")]
    Illegal(String),
    /// A budget ran out.
    #[error("{0}")]
    Budget(String),
    /// The Col solver refused the position.
    #[error("{0}")]
    Col(String),
}

fn decode_graph(text: &str) -> Result<(usize, Vec<(usize, usize)>), BoardError> {
    let t = text.trim();
    if t.starts_with('&') {
        return Err(BoardError::Code {
            what: "graph6",
            text: t.to_string(),
            why: "this is digraph6 (starts with `&`); UVG and Col take an undirected graph, Myopic Col a digraph".into(),
        });
    }
    graph6::decode(t).map_err(|e| BoardError::Code {
        what: "graph6",
        text: t.to_string(),
        why: e.to_string(),
    })
}

/// One move of the token and the value of the position it leads to.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct UvgMove {
    /// Where the token goes.
    pub vertex: usize,
    /// Grundy value after the move (0: a winning move); null when the
    /// exact search ran past the page's budget ([`UvgView::over_budget`]).
    pub value: Option<u32>,
    /// The move wins: the opponent loses from there (matching theorem,
    /// always exact).
    pub wins: bool,
}

/// The solver's answer in a position.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Reply {
    /// The vertex the solver moves to.
    pub vertex: usize,
    /// `winning` (a move to value 0, lowest vertex) or `remoteness` (no
    /// winning move: the move that makes the game last longest, lowest
    /// vertex on ties) or `lowest` (the remoteness search ran out of budget).
    pub why: String,
    /// Moves left under best play after the reply, when known.
    pub remoteness: Option<u32>,
}

/// A UVG position as the board shows it.
#[derive(Clone, Debug, Serialize)]
pub struct UvgView {
    /// The graph as given (trimmed).
    pub graph6: String,
    /// The picture.
    pub drawing: Drawing,
    /// Largest degree.
    pub max_degree: u32,
    /// The token's path: start first, token last (empty: no token yet).
    pub path: Vec<usize>,
    /// Vertex holding the token.
    pub token: Option<usize>,
    /// Vertices still on the board (the token's included).
    pub alive: Vec<usize>,
    /// Without a token: the Grundy value of each start (index = vertex);
    /// null when the exact search ran past the page's budget.
    pub start_values: Option<Vec<u32>>,
    /// Without a token: does the first player win from each start
    /// (matching theorem, always exact; index = vertex)?
    pub start_wins: Option<Vec<bool>>,
    /// Why the Grundy values are missing: the exact search ran past the
    /// page's budget. The winners, the matching and the solver's replies
    /// (by the matching theorem) are still given, and one start or move can
    /// be searched with a budget of its own (`/explore/api/uvg/search`).
    pub over_budget: Option<String>,
    /// With a token: the value of the position (player to move).
    pub value: Option<u32>,
    /// With a token: every legal move and the value it leads to.
    pub moves: Vec<UvgMove>,
    /// A maximum matching of the remaining graph (gold).
    pub matching: Vec<(usize, usize)>,
    /// Remaining vertices the matching leaves out (red).
    pub unmatched: Vec<usize>,
    /// ν of the remaining graph.
    pub nu: u32,
    /// ν of the remaining graph without the token's vertex.
    pub nu_without_token: Option<u32>,
    /// Does the player to move win (ν(G) > ν(G − s))?
    pub mover_wins: Option<bool>,
    /// The degree-3 algorithm's value and its win/lose tests (token's
    /// component of maximum degree ≤ 3).
    pub degree3: Option<(u32, u32)>,
    /// The solver's reply (with a token and a legal move).
    pub reply: Option<Reply>,
    /// Without a token: where the solver puts it when it moves first
    /// ([`start_reply`]).
    pub start_reply: Option<Reply>,
    /// How the values were computed.
    pub method: String,
}

/// The one-line message of a UVG budget run out.
fn over(budget: u64) -> BoardError {
    BoardError::Budget(format!(
        "the exact search ran past this page's budget of {budget} search nodes; \
         graphs of up to {UVG_DP_LIMIT} vertices are always exact (`gamesweep solve uvg` takes a larger --budget)"
    ))
}

fn position_error(e: PositionError) -> BoardError {
    match e {
        PositionError::BudgetExceeded { budget, .. } => over(budget),
        e @ PositionError::Stopped { .. } => BoardError::Budget(e.to_string()),
        e => BoardError::Illegal(e.to_string()),
    }
}

/// The solver's reply ([`gamesweep::board::play`]): the winning move of
/// least remoteness, else the move of greatest remoteness, lowest vertex on
/// ties; the lowest move when the remoteness search runs out of budget.
fn reply(code: &str, visited: &[usize], token: usize, moves: &[UvgMove]) -> Option<Reply> {
    match gamesweep::board::play::reply(code, visited, token, Some(REMOTENESS_BUDGET)) {
        Ok(r) => {
            let v = r.reply?;
            let m = r.moves.iter().find(|m| m.vertex == v);
            Some(Reply {
                vertex: v,
                why: if r.mover_wins {
                    "winning"
                } else {
                    "remoteness"
                }
                .into(),
                remoteness: m.map(|m| m.remoteness),
            })
        }
        Err(_) => moves.first().map(|m| Reply {
            vertex: m.vertex,
            why: "lowest".into(),
            remoteness: None,
        }),
    }
}

/// Where the solver puts the token when it moves first (it then moves
/// from there): as a reply, a start from which the player to move wins
/// (value ≠ 0) of least remoteness, else the start of greatest remoteness,
/// lowest vertex on ties. Above [`UVG_DP_LIMIT`] vertices (or when a
/// remoteness search runs out of budget) the lowest start of value ≠ 0,
/// else vertex 0.
pub fn start_reply(code: &str, n: usize, values: &[u32]) -> Option<Reply> {
    let exact = (n <= UVG_DP_LIMIT)
        .then(|| {
            (0..n)
                .map(|s| {
                    gamesweep::board::play::reply(code, &[], s, Some(REMOTENESS_BUDGET))
                        .map(|r| (s, r.mover_wins, r.remoteness))
                })
                .collect::<Result<Vec<_>, _>>()
                .ok()
        })
        .flatten();
    if let Some(all) = exact {
        let win = all.iter().filter(|x| x.1).min_by_key(|x| (x.2, x.0));
        let pick = win.or_else(|| all.iter().max_by_key(|x| (x.2, std::cmp::Reverse(x.0))))?;
        return Some(Reply {
            vertex: pick.0,
            why: if pick.1 { "winning" } else { "remoteness" }.into(),
            remoteness: Some(pick.2),
        });
    }
    let win = values.iter().position(|&v| v != 0);
    Some(Reply {
        vertex: win.unwrap_or(0),
        why: if win.is_some() { "winning" } else { "lowest" }.into(),
        remoteness: None,
    })
}

/// Parse a token path `0,3,2` (empty: no token).
pub fn parse_path(text: &str) -> Result<Vec<usize>, BoardError> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(Vec::new());
    }
    t.split(',')
        .map(|s| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| BoardError::Illegal(format!("bad path `{t}`: `{s}` is not a vertex")))
        })
        .collect()
}

/// A UVG game under way: the order, the edges, the bitset graph and the
/// vertices left (the token's included).
type Walked = (usize, Vec<(usize, usize)>, BitGraph, u32);

/// The graph of `code` with the token moved along `path`, or why the path
/// is not a game on it.
fn walk(code: &str, path: &[usize]) -> Result<Walked, BoardError> {
    let (n, edges) = decode_graph(code)?;
    if n == 0 {
        return Err(BoardError::Empty);
    }
    if n > UVG_MAX_N {
        return Err(BoardError::TooBig { n, max: UVG_MAX_N });
    }
    let g = BitGraph::from_edges(n, &edges);
    let mut alive = g.all();
    for (i, &v) in path.iter().enumerate() {
        if v >= n {
            return Err(BoardError::Illegal(format!(
                "vertex {v} does not exist (the graph has vertices 0..{})",
                n - 1
            )));
        }
        if alive >> v & 1 == 0 {
            return Err(BoardError::Illegal(format!(
                "vertex {v} was already visited"
            )));
        }
        if i > 0 {
            let from = path[i - 1];
            if !g.has_edge(from, v) {
                return Err(BoardError::Illegal(format!(
                    "{from} → {v} is not a move: they are not adjacent"
                )));
            }
            alive &= !(1 << from);
        }
    }
    Ok((n, edges, g, alive))
}

/// The UVG board for graph `code` with the token moved along `path`.
pub fn uvg_view(code: &str, path: &[usize]) -> Result<UvgView, BoardError> {
    let code = code.trim();
    let (n, edges, g, alive) = walk(code, path)?;
    let token = path.last().copied();
    let mates = uvg::matching::max_matching_mates(&g, alive);
    let matching: Vec<(usize, usize)> = (0..n)
        .filter_map(|u| mates[u].filter(|&w| u < w).map(|w| (u, w)))
        .collect();
    let unmatched: Vec<usize> = members(alive).filter(|&u| mates[u].is_none()).collect();
    let nu = uvg::matching::max_matching(&g, alive);
    let mut view = UvgView {
        graph6: code.to_string(),
        drawing: drawing(code, n, edges, false),
        max_degree: g.max_degree(),
        path: path.to_vec(),
        token,
        alive: members(alive).collect(),
        start_values: None,
        start_wins: None,
        over_budget: None,
        value: None,
        moves: Vec::new(),
        matching,
        unmatched,
        nu,
        nu_without_token: None,
        mover_wins: None,
        degree3: None,
        reply: None,
        start_reply: None,
        method: if n <= UVG_DP_LIMIT {
            format!("exact: subset DP (n ≤ {UVG_DP_LIMIT})")
        } else {
            format!("exact: search within a budget of {UVG_BUDGET} nodes (n > {UVG_DP_LIMIT})")
        },
    };
    match token {
        None => {
            view.start_wins = Some(
                (0..n)
                    .map(|s| uvg::first_player_wins(&g, s, alive))
                    .collect(),
            );
            // What `gamesweep solve uvg G` computes.
            match solve_position_within(code, None, Some(UVG_BUDGET)) {
                Ok(rep) => {
                    let values = rep
                        .starts
                        .iter()
                        .map(|s| s.grundy.ok_or_else(|| over(UVG_BUDGET)))
                        .collect::<Result<Vec<_>, _>>()?;
                    view.start_reply = start_reply(code, n, &values);
                    view.start_values = Some(values);
                }
                Err(PositionError::BudgetExceeded { budget, .. }) => {
                    view.over_budget = Some(over(budget).to_string());
                    let win = (0..n).find(|&s| uvg::first_player_wins(&g, s, alive));
                    view.start_reply = Some(Reply {
                        vertex: win.unwrap_or(0),
                        why: if win.is_some() { "winning" } else { "lowest" }.into(),
                        remoteness: None,
                    });
                }
                Err(e) => return Err(position_error(e)),
            }
        }
        Some(t) => {
            let visited = &path[..path.len() - 1];
            let rest = alive & !(1 << t);
            let nbrs: Vec<usize> = members(g.nbrs(t) & rest).collect();
            let wins = |w: usize| !uvg::first_player_wins(&g, w, rest);
            match gamesweep::board::uvg::position_values(code, visited, t, Some(UVG_BUDGET)) {
                Ok(pv) => {
                    view.value = Some(pv.grundy);
                    view.moves = pv
                        .moves
                        .iter()
                        .map(|m| UvgMove {
                            vertex: m.vertex,
                            value: Some(m.grundy),
                            wins: wins(m.vertex),
                        })
                        .collect();
                    view.reply = reply(code, visited, t, &view.moves);
                }
                Err(PositionError::BudgetExceeded { budget, .. }) => {
                    view.over_budget = Some(over(budget).to_string());
                    view.moves = nbrs
                        .iter()
                        .map(|&w| UvgMove {
                            vertex: w,
                            value: None,
                            wins: wins(w),
                        })
                        .collect();
                    // The matching theorem's winning move, else the lowest.
                    let win = uvg::winning_move(&g, t, alive);
                    view.reply = win.or(nbrs.first().copied()).map(|w| Reply {
                        vertex: w,
                        why: if win.is_some() { "winning" } else { "lowest" }.into(),
                        remoteness: None,
                    });
                }
                Err(e) => return Err(position_error(e)),
            }
            view.nu_without_token = Some(uvg::matching::max_matching(&g, rest));
            view.mover_wins = Some(uvg::first_player_wins(&g, t, alive));
            view.degree3 =
                uvg::degree3::grundy_degree3(&g, t, alive).map(|(v, k)| (u32::from(v), k));
        }
    }
    Ok(view)
}

/// The exact value of one position searched past the page's budget.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SearchAnswer {
    /// The game so far: a start, then the moves (the last one is the
    /// start or move searched).
    pub line: Vec<usize>,
    /// Grundy value of the position `line` leads to, the player to move
    /// being the opponent of whoever made its last step (0: that step wins).
    pub value: u32,
    /// Search nodes used.
    pub nodes: u64,
    /// The budget it had.
    pub budget: u64,
}

/// The exact Grundy value after `line` on `code` (a start when `line` has
/// one vertex, else the position after its last move), within `budget`
/// search nodes; stopped through the calling thread's
/// [`Meter`](gamesweep::meter::Meter), it ends with [`BoardError::Budget`].
pub fn uvg_search(code: &str, line: &[usize], budget: u64) -> Result<SearchAnswer, BoardError> {
    let code = code.trim();
    search_line(code, line)?;
    let (&token, visited) = line
        .split_last()
        .expect("search_line refuses an empty line");
    let (value, nodes) = gamesweep::board::uvg::position_value(code, visited, token, Some(budget))
        .map_err(|e| match e {
            PositionError::BudgetExceeded { budget, .. } => BoardError::Budget(format!(
                "the search needs more than its budget of {budget} positions: give it a larger one \
                 (at most {SEARCH_BUDGET_MAX} here; `gamesweep solve uvg --budget 0` has no limit)"
            )),
            e => position_error(e),
        })?;
    Ok(SearchAnswer {
        line: line.to_vec(),
        value,
        nodes,
        budget,
    })
}

/// Why `line` cannot be searched on `code` (see [`uvg_search`]), if it cannot.
pub fn search_line(code: &str, line: &[usize]) -> Result<(), BoardError> {
    walk(code.trim(), line)?;
    if line.is_empty() {
        return Err(BoardError::Illegal(
            "nothing to search: give a start (and moves)".into(),
        ));
    }
    Ok(())
}

/// A Col / Myopic Col option.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ColMove {
    /// The vertex coloured.
    pub vertex: usize,
    /// The value after the move (CGSuite notation).
    pub value: String,
    /// Does the side making this move win, under best play afterwards
    /// (the other side to move: Left's move wins when its value is ≥ 0,
    /// Right's when ≤ 0)? Not sent: the options are sent as `solve col
    /// --json` gives them.
    #[serde(skip)]
    pub wins: bool,
}

/// The solver's move in a Col position with a side to move.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ColPlay {
    /// The side to move.
    pub side: Side,
    /// Does the side to move win (the canonical value's outcome)?
    pub mover_wins: bool,
    /// Moves left under best play, both sides' (winner quickest, loser
    /// slowest), when the search finished within its budget.
    pub remoteness: Option<u32>,
    /// The solver's move for the side to move (`None`: it cannot move).
    pub reply: Option<Reply>,
}

/// A Col / Myopic Col position as the board shows it.
#[derive(Clone, Debug, Serialize)]
pub struct ColView {
    /// `col` or `myopic`.
    pub rules: Rules,
    /// The board's code.
    pub board: String,
    /// The colouring (`.`, `L`, `R` per vertex).
    pub colouring: String,
    /// The picture.
    pub drawing: Drawing,
    /// Canonical value (CGSuite notation).
    pub value: String,
    /// Outcome class.
    pub outcome: gamesweep::cgt::Outcome,
    /// A number or a number plus `*`.
    pub cold: bool,
    /// Blue's moves.
    pub left_options: Vec<ColMove>,
    /// Red's moves.
    pub right_options: Vec<ColMove>,
    /// Values held by this visit's table after the request.
    pub table_games: usize,
    /// The table was started afresh for this request (it had grown to the budget).
    pub table_reset: bool,
    /// With a side to move asked for: the solver's move for it.
    pub play: Option<ColPlay>,
}

/// Parse a Col / Myopic board and colouring, as `solve col` does (Col
/// forbids equal colours on an edge).
pub fn col_board(
    rules: Rules,
    code: &str,
    colouring: &str,
) -> Result<(Board, Vec<Colour>, Drawing), BoardError> {
    let code = code.trim();
    let (n, arcs) = match rules {
        Rules::Col => decode_graph(code)?,
        Rules::Myopic => graph6::decode_digraph(code).map_err(|e| BoardError::Code {
            what: "digraph6",
            text: code.to_string(),
            why: if code.starts_with('&') {
                e.to_string()
            } else {
                format!("{e} (Myopic Col takes a digraph: digraph6 starts with `&`)")
            },
        })?,
    };
    if n == 0 {
        return Err(BoardError::Empty);
    }
    if n > COL_MAX_N {
        return Err(BoardError::TooBig { n, max: COL_MAX_N });
    }
    let board = match rules {
        Rules::Col => Board::col(n, &arcs),
        Rules::Myopic => Board::myopic(n, &arcs),
    };
    let colouring = if colouring.is_empty() {
        ".".repeat(n)
    } else {
        colouring.to_string()
    };
    let cols = col::parse_colouring(&colouring, n).map_err(|e| BoardError::Col(e.to_string()))?;
    if rules == Rules::Col {
        for (u, w) in &arcs {
            if cols[*u] != Colour::None && cols[*u] == cols[*w] {
                return Err(BoardError::Illegal(format!(
                    "illegal colouring: vertices {u} and {w} are adjacent and have the same colour, which Col never allows"
                )));
            }
        }
    }
    let d = drawing(code, n, arcs, rules == Rules::Myopic);
    Ok((board, cols, d))
}

/// Value, outcome, coldness, Left's and Right's options.
type Solved = (
    String,
    gamesweep::cgt::Outcome,
    bool,
    Vec<ColMove>,
    Vec<ColMove>,
);

/// A visit's Col table: one solver per visit, kept across requests.
pub struct ColTable {
    solver: Solver,
}

impl Default for ColTable {
    fn default() -> Self {
        ColTable::new()
    }
}

impl ColTable {
    /// An empty table.
    pub fn new() -> Self {
        ColTable {
            solver: Solver::with_budget(SolverOptions::default(), Some(COL_BUDGET)),
        }
    }

    /// Work units of its solver: what its memory grows with.
    pub fn work(&self) -> u64 {
        self.solver.work()
    }

    /// Values held.
    pub fn games(&self) -> usize {
        self.solver.arena.len()
    }

    fn solve(&mut self, board: &Board, pos: col::Pos) -> Option<Solved> {
        let s = &mut self.solver;
        let g = s.value(board, pos);
        if s.budget_exceeded() {
            return None;
        }
        let value = s.arena.display(g);
        let outcome = s.arena.outcome(g);
        let cold = s.arena.is_cold(g);
        let mut left = Vec::new();
        for u in members(pos.l) {
            let c = s.value(board, pos.move_left(board, u));
            left.push(ColMove {
                vertex: u,
                value: s.arena.display(c),
                wins: matches!(s.arena.outcome(c), Outcome::L | Outcome::P),
            });
        }
        let mut right = Vec::new();
        for u in members(pos.r) {
            let c = s.value(board, pos.move_right(board, u));
            right.push(ColMove {
                vertex: u,
                value: s.arena.display(c),
                wins: matches!(s.arena.outcome(c), Outcome::R | Outcome::P),
            });
        }
        if s.budget_exceeded() {
            return None;
        }
        Some((value, outcome, cold, left, right))
    }

    /// The board `code` with `colouring` under `rules`, valued with this
    /// table (started afresh once if it had grown to the budget).
    pub fn view(
        &mut self,
        rules: Rules,
        code: &str,
        colouring: &str,
    ) -> Result<ColView, BoardError> {
        self.view_to_move(rules, code, colouring, None)
    }

    /// [`ColTable::view`], with the solver's move for `side` to move when
    /// given ([`col_play`]).
    pub fn view_to_move(
        &mut self,
        rules: Rules,
        code: &str,
        colouring: &str,
        side: Option<Side>,
    ) -> Result<ColView, BoardError> {
        let (board, cols, drawing) = col_board(rules, code, colouring)?;
        let pos = board.position(&cols);
        let mut reset = false;
        let solved = match self.solve(&board, pos) {
            Some(s) => s,
            None => {
                // The table was full (or this position too big): once more
                // from an empty table, then refuse.
                *self = ColTable::new();
                reset = true;
                match self.solve(&board, pos) {
                    Some(s) => s,
                    None => {
                        *self = ColTable::new();
                        return Err(BoardError::Budget(format!(
                            "this position needs more than the page's budget of {COL_BUDGET} work units \
                             (`gamesweep solve {} --budget 0` has no limit)",
                            match rules { Rules::Col => "col", Rules::Myopic => "myopic" }
                        )));
                    }
                }
            }
        };
        let (value, outcome, cold, left_options, right_options) = solved;
        let play = side.map(|side| {
            let options = match side {
                Side::Left => &left_options,
                Side::Right => &right_options,
            };
            col_play(&board, pos, side, outcome, options)
        });
        let colouring: String = cols
            .iter()
            .map(|c| match c {
                Colour::None => '.',
                Colour::Blue => 'L',
                Colour::Red => 'R',
            })
            .collect();
        Ok(ColView {
            rules,
            board: code.trim().to_string(),
            colouring,
            drawing,
            value,
            outcome,
            cold,
            left_options,
            right_options,
            table_games: self.games(),
            table_reset: reset,
            play,
        })
    }
}

/// The solver's move for `side` in `pos` ([`gamesweep::board::colplay`]:
/// the quickest win, else the longest resistance, lowest vertex on ties);
/// when its search runs past [`COL_REMOTENESS_BUDGET`], the lowest
/// winning move by the values (`options`, the side's moves valued), else
/// the lowest move.
pub fn col_play(
    board: &Board,
    pos: col::Pos,
    side: Side,
    outcome: Outcome,
    options: &[ColMove],
) -> ColPlay {
    let mover_wins = match side {
        Side::Left => matches!(outcome, Outcome::L | Outcome::N),
        Side::Right => matches!(outcome, Outcome::R | Outcome::N),
    };
    match colplay::reply_at(board, pos, side, Some(COL_REMOTENESS_BUDGET)) {
        Ok(r) => ColPlay {
            side,
            mover_wins,
            remoteness: Some(r.remoteness),
            reply: r.reply.map(|v| Reply {
                vertex: v,
                why: if r.mover_wins { "winning" } else { "longest" }.into(),
                remoteness: r.moves.iter().find(|m| m.vertex == v).map(|m| m.remoteness),
            }),
        },
        Err(_) => {
            let pick = options.iter().find(|m| m.wins);
            ColPlay {
                side,
                mover_wins,
                remoteness: None,
                reply: pick.or(options.first()).map(|m| Reply {
                    vertex: m.vertex,
                    why: if pick.is_some() { "winning" } else { "lowest" }.into(),
                    remoteness: None,
                }),
            }
        }
    }
}

// ---- game graphs from files ----

/// The largest game file the boards take, in bytes.
pub const GAME_TEXT_MAX: usize = 1 << 20;

/// Games with more positions than this are tabled but not drawn.
pub const GAME_DRAW_MAX: usize = 150;

/// One game of a file: its positions drawn (when small enough).
#[derive(Clone, Debug, Serialize)]
pub struct GameDrawing {
    /// The game's name.
    pub name: String,
    /// The drawing (positions in the order of the report's table, arcs
    /// from each position to its options; by level when acyclic), or
    /// `None` when too large.
    pub drawing: Option<super::gamedraw::GamePicture>,
    /// Why there is no drawing.
    pub not_drawn: Option<String>,
}

/// A game file solved: exactly `solve gamegraph --json`'s report, plus
/// drawings and a declared sum's pair table.
#[derive(Clone, Debug, Serialize)]
pub struct GameGraphView {
    /// What `solve gamegraph --json` prints for the same text.
    pub report: gamesweep::gamegraph::SolveReport,
    /// One per game of the report, in its order.
    pub drawings: Vec<GameDrawing>,
    /// The declared sum's pair table as `solve gamegraph` prints it (at
    /// most [`super::gamedraw::PAIR_ROWS_MAX`] rows), when it was computed.
    pub pair_table: Option<gamesweep::gamegraph::PairTable>,
    /// Per game, per position (the table's order): whether `solve sum`
    /// takes it as a summand ([`summable`]). The page offers "add" only
    /// there (issue 46: it offered it on loopy rows, and the sum refused).
    pub summable: Vec<Vec<bool>>,
}

/// Per position of `g`: whether `solve sum` takes it (normal play and loop
/// free from there): no cycle is reachable from it, and every sink reachable
/// is labelled `win`. Peeled from the sinks backwards, O(positions + moves).
pub fn summable(g: &gamesweep::gamegraph::GameGraph) -> Vec<bool> {
    use gamesweep::gamegraph::SinkLabel;
    let n = g.len();
    let mut left: Vec<usize> = (0..n).map(|v| g.moves(v).len()).collect();
    let mut back: Vec<Vec<usize>> = vec![Vec::new(); n];
    for v in 0..n {
        for &w in g.moves(v) {
            back[w].push(v);
        }
    }
    let mut ok = vec![false; n];
    let mut todo: Vec<usize> = (0..n)
        .filter(|&v| left[v] == 0 && g.sink_label(v).is_none_or(|l| l == SinkLabel::Win))
        .collect();
    for &v in &todo {
        ok[v] = true;
    }
    while let Some(w) = todo.pop() {
        for &u in &back[w] {
            // A move repeated to the same position counts once per arc.
            left[u] -= 1;
            if left[u] == 0 && !ok[u] {
                ok[u] = true;
                todo.push(u);
            }
        }
    }
    ok
}

/// The longest a game-graph request may compute, in all.
pub const GAME_TIME_BUDGET: std::time::Duration = std::time::Duration::from_secs(5);

/// The largest sum (positions of the product) the boards compute; `solve
/// gamegraph` goes to [`gamesweep::gamegraph::sum::MAX_SUM_POSITIONS`].
/// The product's graph and tables are held whole while it is solved.
pub const GAME_SUM_MAX: usize = 250_000;

/// Solve a game file's text (text format or JSON, as `solve gamegraph`
/// reads it, with its default kernel-search budget) and lay out each small
/// game.
pub fn gamegraph_view(text: &str) -> Result<GameGraphView, BoardError> {
    gamegraph_view_until(text, &|| None)
}

/// [`gamegraph_view`], asking `stop` between games (solved one at a time,
/// each within its kernel-search budget) and drawings: `Some(why)` ends the
/// request with [`BoardError::Budget`]`(why)` (the time budget ran out, or
/// the client went away). A sum larger than [`GAME_SUM_MAX`] is reported
/// unavailable instead of computed. Otherwise the report is exactly `solve
/// gamegraph --json`'s.
pub fn gamegraph_view_until(
    text: &str,
    stop: &dyn Fn() -> Option<String>,
) -> Result<GameGraphView, BoardError> {
    use gamesweep::gamegraph::{parse, solve_with, Format, GameFile, SolveReport};
    if text.len() > GAME_TEXT_MAX {
        return Err(BoardError::Illegal(format!(
            "the game file has {} bytes; the boards take at most {GAME_TEXT_MAX} (`gamesweep solve gamegraph FILE` takes up to 64 MiB)",
            text.len()
        )));
    }
    if text.trim().is_empty() {
        return Err(BoardError::Illegal(
            "no game: paste a game file (docs/gamegraph-format.md) or choose one".into(),
        ));
    }
    let check = || stop().map_or(Ok(()), |why| Err(BoardError::Budget(why)));
    let file =
        parse(text, Format::Auto).map_err(|e| BoardError::Illegal(format!("game file: {e}")))?;
    let mut games = Vec::with_capacity(file.games.len());
    for g in &file.games {
        check()?;
        let one = GameFile {
            games: vec![g.clone()],
            sum: None,
        };
        games.extend(solve_with(&one, None).games);
    }
    let sum = match file.sum {
        None => None,
        Some((a, b)) => {
            check()?;
            let (l, r) = (&file.games[a], &file.games[b]);
            let pair = GameFile {
                games: vec![l.clone(), r.clone()],
                sum: Some((0, 1)),
            };
            if l.len().saturating_mul(r.len()) > GAME_SUM_MAX {
                // Reported as `solve gamegraph` reports a sum over its
                // limits: unavailable, with the reason.
                Some(gamesweep::gamegraph::SumReport {
                    left: l.name().to_string(),
                    right: r.name().to_string(),
                    left_positions: l.names().to_vec(),
                    right_positions: r.names().to_vec(),
                    unavailable: Some(format!(
                        "the sum has {} positions; the boards compute sums of at most {GAME_SUM_MAX} (`gamesweep solve gamegraph` goes further)",
                        l.len().saturating_mul(r.len())
                    )),
                    positions: 0,
                    moves: 0,
                    left_grundy: None,
                    right_grundy: None,
                    grundy_table: None,
                    xor_mismatches: None,
                    outcome_table: Vec::new(),
                    second_player_wins: Vec::new(),
                    start: None,
                    start_outcome: None,
                })
            } else {
                solve_with(&pair, None).sum
            }
        }
    };
    let report = SolveReport { games, sum };
    check()?;
    let drawings = report
        .games
        .iter()
        .map(|g| {
            check()?;
            let n = g.table.len();
            if n > GAME_DRAW_MAX {
                return Ok(GameDrawing {
                    name: g.name.clone(),
                    drawing: None,
                    not_drawn: Some(format!(
                        "{n} positions: only games of at most {GAME_DRAW_MAX} positions are drawn"
                    )),
                });
            }
            Ok(GameDrawing {
                name: g.name.clone(),
                drawing: Some(super::gamedraw::picture(&g.table)),
                not_drawn: None,
            })
        })
        .collect::<Result<_, BoardError>>()?;
    let pair_table = report.sum.as_ref().and_then(super::gamedraw::pair_table);
    Ok(GameGraphView {
        report,
        drawings,
        pair_table,
        summable: file.games.iter().map(summable).collect(),
    })
}
