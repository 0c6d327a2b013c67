//! Sums of short-game positions (`gamesweep solve sum`, the boards' sum
//! panel): each summand is named by a *term*, valued in one CGT
//! [`Arena`], and the sum's canonical value is the arena's `add` of the
//! summands' values.
//!
//! **Terms.** One position each, in the notation of the `solve` commands:
//!
//! | term | position |
//! |---|---|
//! | `uvg:GRAPH6@S` | UVG on the graph, the token on start `S` |
//! | `uvg:GRAPH6@S,V1,V2` | the token moved along the path `S → V1 → V2` (all visited) |
//! | `col:CODE[:COLOURING]` | Col on a graph6 / sparse6 board; colouring `.` `L`/`B` `R`, default all `.` |
//! | `myopic:DIGRAPH6[:COLOURING]` | Myopic Col on a digraph6 board |
//! | `gamegraph:FILE` | the start of the file's only game |
//! | `gamegraph:FILE#POS` | position `POS` of the file's only game (several games: the start of game `POS`) |
//! | `gamegraph:FILE#GAME#POS` | position `POS` of game `GAME` |
//!
//! **Values.** UVG and game-graph positions are impartial: their value is
//! the nimber `*g` of their Grundy number (game graphs: normal play, and
//! loop-free from the position — a loopy summand is refused, naming it).
//! Col and Myopic Col positions are valued by [`crate::col::Solver`], whose
//! arena holds every value here, so partizan and impartial summands add in
//! one arena.
//!
//! The answer ([`SumReport`]) lists every summand's value (and a Col
//! board's components with theirs: how its value decomposes), the sum's
//! value and outcome class, and for each player moving first the simplest
//! winning move: the one to the sum of smallest birthday (ties: the first
//! summand, then the first move).
//!
//! ```
//! use gamesweep::board::sum::{sum, Limits};
//! // Two isolated uncoloured Col vertices (* + *) and the UVG path 0 - 1 - 2
//! // from its middle (*): * + * + * = *.
//! let r = sum(&["col:@", "col:@", "uvg:Bg@1"], &Limits::default(), &|_| Err("no files".into()))
//!     .unwrap();
//! assert_eq!((r.value.as_str(), r.outcome.to_string().as_str()), ("*", "N"));
//! assert_eq!(r.summands[2].value, "*");
//! ```

use crate::cgt::{Arena, GameId, Outcome};
use crate::col::{parse_board, parse_colouring, Board, Colour, Rules, Solver, SolverOptions};
use crate::gamegraph::{parse, Format, GameGraph, SinkLabel};
use crate::graph::{graph6, members};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// Reads a game file by the name a `gamegraph:` term gives (the CLI: from
/// disk; the boards: from the request), or says why it cannot.
pub type FileLoader<'a> = &'a dyn Fn(&str) -> Result<String, String>;

/// Most summands in one sum.
pub const MAX_TERMS: usize = 64;

/// The work allowed to one analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Col / Myopic Col solver work ([`Solver::work`]); `None`: unlimited.
    pub col_work: Option<u64>,
    /// UVG search nodes of all positions valued together (graphs of at
    /// most 16 vertices never use any); `None`: unlimited.
    pub uvg_nodes: Option<u64>,
    /// Most vertices of a UVG graph.
    pub uvg_max_n: usize,
    /// Most vertices of a Col board (the solver holds 32).
    pub col_max_n: usize,
}

impl Default for Limits {
    /// `solve`'s defaults: 1,000,000 Col work units, 5,000,000 UVG nodes.
    fn default() -> Self {
        Limits {
            col_work: Some(1_000_000),
            uvg_nodes: Some(5_000_000),
            uvg_max_n: 64,
            col_max_n: 32,
        }
    }
}

/// Why a sum or a tree could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SumError {
    /// No summand given.
    #[error("no summands: give at least one term (e.g. `col:Bg` or `uvg:Bg@1`)")]
    NoTerms,
    /// More summands than [`MAX_TERMS`].
    #[error("{0} summands; at most {MAX_TERMS} are summed")]
    TooManyTerms(usize),
    /// A term that does not name a position.
    #[error("bad term `{term}`: {why}")]
    Term {
        /// The term as given (cut to 80 characters).
        term: String,
        /// What was wrong.
        why: String,
    },
    /// A game-graph position from which a cycle can be reached.
    #[error("summand `{term}` is loopy: {cycle} can be reached from it; loopy game graphs are not summed")]
    Loopy {
        /// The term.
        term: String,
        /// One cycle, as `a -> b -> a`.
        cycle: String,
    },
    /// A budget ran out.
    #[error("`{term}`: {why}")]
    Budget {
        /// The term being valued.
        term: String,
        /// What ran out.
        why: String,
    },
    /// A tree larger than allowed.
    #[error("the tree of `{term}` to depth {depth} has more than {limit} positions")]
    TreeTooBig {
        /// The root's term.
        term: String,
        /// The depth asked for.
        depth: u32,
        /// The limit on positions.
        limit: usize,
    },
}

impl SumError {
    /// Did a budget (work, nodes, tree size) run out, rather than the input being wrong?
    pub fn is_budget(&self) -> bool {
        matches!(self, SumError::Budget { .. } | SumError::TreeTooBig { .. })
    }
}

/// Cut `s` to at most 80 characters for an error message.
fn cut(s: &str) -> String {
    s.chars().take(80).collect()
}

fn bad(term: &str, why: impl Into<String>) -> SumError {
    SumError::Term {
        term: cut(term),
        why: why.into(),
    }
}

/// A position a term names, parsed and checked.
#[derive(Clone, Debug)]
pub enum Position {
    /// UVG: the token walked along `path` (every vertex of it visited, the token on the last).
    Uvg {
        /// The graph, graph6 (no header).
        code: String,
        /// The graph's edges, as graph6 lists them.
        edges: Rc<Vec<(usize, usize)>>,
        /// Each vertex's neighbours, increasing.
        adj: Rc<Vec<Vec<usize>>>,
        /// The token's walk, start first.
        path: Vec<usize>,
    },
    /// Col or Myopic Col with a colouring.
    Col {
        /// Which game.
        rules: Rules,
        /// The board's code (no header).
        code: String,
        /// The board.
        board: Rc<Board>,
        /// Each vertex's colour.
        colours: Vec<Colour>,
    },
    /// A position of a game graph.
    Graph {
        /// The file's name as the term gives it.
        file: String,
        /// The game.
        game: Rc<GameGraph>,
        /// The position's number in the game.
        at: usize,
    },
}

impl Position {
    /// The game's name: `uvg`, `col`, `myopic` or `gamegraph`.
    pub fn game(&self) -> &'static str {
        match self {
            Position::Uvg { .. } => "uvg",
            Position::Col {
                rules: Rules::Col, ..
            } => "col",
            Position::Col { .. } => "myopic",
            Position::Graph { .. } => "gamegraph",
        }
    }

    /// Impartial (both players have the same moves)?
    pub fn impartial(&self) -> bool {
        !matches!(self, Position::Col { .. })
    }

    /// The canonical term: `uvg:CODE@PATH`, `col:CODE:COLOURING` (`L`, `R`,
    /// `.`), `gamegraph:FILE#GAME#POS`. Parsing it gives this position back.
    pub fn term(&self) -> String {
        match self {
            Position::Uvg { code, path, .. } => {
                let p: Vec<String> = path.iter().map(usize::to_string).collect();
                format!("uvg:{code}@{}", p.join(","))
            }
            Position::Col { code, colours, .. } => {
                format!("{}:{code}:{}", self.game(), colouring_text(colours))
            }
            Position::Graph { file, game, at } => {
                format!("gamegraph:{file}#{}#{}", game.name(), game.name_of(*at))
            }
        }
    }
}

/// A colouring as text: `.`, `L`, `R`.
fn colouring_text(c: &[Colour]) -> String {
    c.iter()
        .map(|c| match c {
            Colour::None => '.',
            Colour::Blue => 'L',
            Colour::Red => 'R',
        })
        .collect()
}

/// One option of a position: who may take it, what it is, where it leads.
#[derive(Clone, Debug)]
pub struct Move {
    /// The move in words of its game: the vertex coloured or moved to, or
    /// the game graph's position moved to.
    pub label: String,
    /// The position after it.
    pub to: Position,
}

/// The options of a position: Left's and Right's (equal for an impartial game).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Left's (Blue's) options.
    pub left: Vec<Move>,
    /// Right's (Red's) options.
    pub right: Vec<Move>,
}

/// Values positions: one CGT arena (the Col solver's) for every summand,
/// the game files read so far and their Grundy numbers.
pub struct Analyst<'a> {
    solver: Solver,
    limits: Limits,
    load: FileLoader<'a>,
    files: HashMap<String, Vec<Rc<GameGraph>>>,
    /// Grundy numbers of a game's positions, by (file, game index); `None`: not yet known.
    grundy: HashMap<(String, usize), Vec<Option<u32>>>,
    /// UVG search nodes used so far.
    uvg_used: u64,
    /// UVG values by term.
    uvg_memo: HashMap<String, u32>,
}

impl<'a> Analyst<'a> {
    /// An analyst within `limits`, reading game files with `load`.
    pub fn new(limits: Limits, load: FileLoader<'a>) -> Self {
        Analyst {
            solver: Solver::with_budget(SolverOptions::default(), limits.col_work),
            limits,
            load,
            files: HashMap::new(),
            grundy: HashMap::new(),
            uvg_used: 0,
            uvg_memo: HashMap::new(),
        }
    }

    /// The arena holding every value returned.
    pub fn arena(&mut self) -> &mut Arena {
        &mut self.solver.arena
    }

    /// Parse `term` into the position it names, checking it.
    pub fn resolve(&mut self, term: &str) -> Result<Position, SumError> {
        let t = term.trim();
        let Some((game, rest)) = t.split_once(':') else {
            return Err(bad(
                t,
                "expected GAME:..., GAME one of uvg, col, myopic, gamegraph",
            ));
        };
        match game {
            "uvg" => self.resolve_uvg(t, rest),
            "col" => self.resolve_col(t, Rules::Col, rest),
            "myopic" => self.resolve_col(t, Rules::Myopic, rest),
            "gamegraph" => self.resolve_graph(t, rest),
            g => Err(bad(
                t,
                format!("unknown game `{}` (uvg, col, myopic or gamegraph)", cut(g)),
            )),
        }
    }

    fn resolve_uvg(&mut self, t: &str, rest: &str) -> Result<Position, SumError> {
        // graph6 may contain `@` itself: the path follows the last one.
        let Some((code, path)) = rest.rsplit_once('@') else {
            return Err(bad(t, "expected uvg:GRAPH6@START (or @START,V1,V2,...)"));
        };
        let code = graph6::strip_header(code);
        if code.starts_with('&') {
            return Err(bad(
                t,
                "UVG takes an undirected graph (graph6), not digraph6",
            ));
        }
        let (n, edges) = graph6::decode(code).map_err(|e| bad(t, format!("bad graph6: {e}")))?;
        if n == 0 {
            return Err(bad(t, "the graph has no vertices"));
        }
        if n > self.limits.uvg_max_n {
            return Err(bad(
                t,
                format!("{n} vertices; at most {} here", self.limits.uvg_max_n),
            ));
        }
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in &edges {
            if a != b && !adj[a].contains(&b) {
                adj[a].push(b);
                adj[b].push(a);
            }
        }
        for a in &mut adj {
            a.sort_unstable();
        }
        let mut walk = Vec::new();
        for w in path.split(',') {
            let v: usize = w.trim().parse().map_err(|_| {
                bad(
                    t,
                    format!(
                        "`{}` is not a vertex number (expected @START or @START,V1,...)",
                        cut(w)
                    ),
                )
            })?;
            if v >= n {
                return Err(bad(
                    t,
                    format!("{v} is not a vertex (the graph has vertices 0..{})", n - 1),
                ));
            }
            if walk.contains(&v) {
                return Err(bad(t, format!("the path visits {v} twice")));
            }
            if let Some(&prev) = walk.last() {
                if !adj[prev].contains(&v) {
                    return Err(bad(t, format!("{prev} and {v} are not adjacent")));
                }
            }
            walk.push(v);
        }
        Ok(Position::Uvg {
            code: code.to_string(),
            edges: Rc::new(edges),
            adj: Rc::new(adj),
            path: walk,
        })
    }

    fn resolve_col(&mut self, t: &str, rules: Rules, rest: &str) -> Result<Position, SumError> {
        // A sparse6 code starts with `:` and has no other; graph6 and
        // digraph6 have none: a colouring follows a `:` after the first character.
        let (code, colouring) = match rest.get(1..).and_then(|r| r.rfind(':')) {
            Some(k) => (&rest[..k + 1], Some(&rest[k + 2..])),
            None => (rest, None),
        };
        let code = graph6::strip_header(code);
        if rules == Rules::Col && code.starts_with('&') {
            return Err(bad(
                t,
                "Col takes an undirected graph (graph6 or sparse6); digraph6 is for myopic:",
            ));
        }
        if rules == Rules::Myopic && !code.starts_with('&') {
            return Err(bad(
                t,
                "Myopic Col takes a digraph6 board (starts with `&`)",
            ));
        }
        let board = parse_board(rules, code).map_err(|e| bad(t, e.to_string()))?;
        let n = board.n();
        if n > self.limits.col_max_n {
            return Err(bad(
                t,
                format!("{n} vertices; at most {} here", self.limits.col_max_n),
            ));
        }
        let colours = match colouring {
            Some(c) => parse_colouring(c, n).map_err(|e| bad(t, e.to_string()))?,
            None => vec![Colour::None; n],
        };
        if rules == Rules::Col {
            for u in 0..n {
                for w in members(board.look(u)) {
                    if u < w && colours[u] != Colour::None && colours[u] == colours[w] {
                        return Err(bad(
                            t,
                            format!("vertices {u} and {w} are adjacent and have the same colour, which Col never allows"),
                        ));
                    }
                }
            }
        }
        Ok(Position::Col {
            rules,
            code: code.to_string(),
            board: Rc::new(board),
            colours,
        })
    }

    fn resolve_graph(&mut self, t: &str, rest: &str) -> Result<Position, SumError> {
        let mut parts = rest.split('#');
        let file = parts.next().unwrap_or_default();
        let (a, b) = (parts.next(), parts.next());
        if parts.next().is_some() {
            return Err(bad(
                t,
                "expected gamegraph:FILE[#GAME]#POSITION (names never contain `#`)",
            ));
        }
        if file.is_empty() {
            return Err(bad(t, "no file: expected gamegraph:FILE[#GAME]#POSITION"));
        }
        if !self.files.contains_key(file) {
            let text = (self.load)(file).map_err(|e| bad(t, e))?;
            let parsed = parse(&text, Format::Auto).map_err(|e| bad(t, format!("{file}: {e}")))?;
            let games = parsed.games.into_iter().map(Rc::new).collect();
            self.files.insert(file.to_string(), games);
        }
        let games = &self.files[file];
        let names = || {
            games
                .iter()
                .map(|g| g.name().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let find_game = |name: &str| {
            games.iter().position(|g| g.name() == name).ok_or_else(|| {
                bad(
                    t,
                    format!(
                        "{file} has no game `{}` (its games: {})",
                        cut(name),
                        names()
                    ),
                )
            })
        };
        let (gi, pos) = match (a, b) {
            (Some(g), Some(p)) => (find_game(g)?, Some(p)),
            (one, None) if games.len() == 1 => (0, one),
            (Some(g), None) => (find_game(g)?, None),
            (None, _) => {
                return Err(bad(
                    t,
                    format!(
                        "{file} has {} games ({}): name one, gamegraph:FILE#GAME[#POSITION]",
                        games.len(),
                        names()
                    ),
                ))
            }
        };
        let game = games[gi].clone();
        let at = match pos {
            Some(p) => game.position(p).ok_or_else(|| {
                bad(t, format!("game `{}` has no position `{}`", game.name(), cut(p)))
            })?,
            None => game.start().ok_or_else(|| {
                bad(
                    t,
                    format!("game `{}` declares no start: name a position, gamegraph:FILE#GAME#POSITION", game.name()),
                )
            })?,
        };
        Ok(Position::Graph {
            file: file.to_string(),
            game,
            at,
        })
    }

    /// The options of `p`.
    pub fn options(&self, p: &Position) -> Options {
        match p {
            Position::Uvg {
                code,
                edges,
                adj,
                path,
            } => {
                let token = *path.last().expect("a path has a start");
                let moves: Vec<Move> = adj[token]
                    .iter()
                    .filter(|v| !path.contains(v))
                    .map(|&v| {
                        let mut path = path.clone();
                        path.push(v);
                        Move {
                            label: v.to_string(),
                            to: Position::Uvg {
                                code: code.clone(),
                                edges: edges.clone(),
                                adj: adj.clone(),
                                path,
                            },
                        }
                    })
                    .collect();
                Options {
                    left: moves.clone(),
                    right: moves,
                }
            }
            Position::Col {
                rules,
                code,
                board,
                colours,
            } => {
                let side = |c: Colour| -> Vec<Move> {
                    (0..board.n())
                        .filter(|&u| {
                            colours[u] == Colour::None
                                && members(board.look(u)).all(|w| colours[w] != c)
                        })
                        .map(|u| {
                            let mut colours = colours.clone();
                            colours[u] = c;
                            Move {
                                label: u.to_string(),
                                to: Position::Col {
                                    rules: *rules,
                                    code: code.clone(),
                                    board: board.clone(),
                                    colours,
                                },
                            }
                        })
                        .collect()
                };
                Options {
                    left: side(Colour::Blue),
                    right: side(Colour::Red),
                }
            }
            Position::Graph { file, game, at } => {
                let moves: Vec<Move> = game
                    .moves(*at)
                    .iter()
                    .map(|&w| Move {
                        label: game.name_of(w).to_string(),
                        to: Position::Graph {
                            file: file.clone(),
                            game: game.clone(),
                            at: w,
                        },
                    })
                    .collect();
                Options {
                    left: moves.clone(),
                    right: moves,
                }
            }
        }
    }

    /// The canonical value of `p` in [`Analyst::arena`].
    pub fn value(&mut self, p: &Position) -> Result<GameId, SumError> {
        match p {
            Position::Uvg { .. } => {
                let g = self.uvg_grundy(p)?;
                Ok(self.solver.arena.nimber(g))
            }
            Position::Col { board, colours, .. } => {
                let pos = board.position(colours);
                let g = self.solver.value(board, pos);
                self.col_budget(p)?;
                Ok(g)
            }
            Position::Graph { file, game, at } => {
                let g = self.graph_grundy(p, file, game, *at)?;
                Ok(self.solver.arena.nimber(g))
            }
        }
    }

    fn col_budget(&self, p: &Position) -> Result<(), SumError> {
        match self.limits.col_work {
            _ if self.solver.stopped() => Err(SumError::Budget {
                term: cut(&p.term()),
                why: "the search was stopped".into(),
            }),
            Some(b) if self.solver.budget_exceeded() => Err(SumError::Budget {
                term: cut(&p.term()),
                why: format!("Col solver budget of {b} work units exceeded"),
            }),
            _ => Ok(()),
        }
    }

    fn uvg_grundy(&mut self, p: &Position) -> Result<u32, SumError> {
        let Position::Uvg {
            edges, adj, path, ..
        } = p
        else {
            unreachable!("called on UVG positions")
        };
        let term = p.term();
        if let Some(&g) = self.uvg_memo.get(&term) {
            return Ok(g);
        }
        let token = *path.last().expect("a path has a start");
        let mut keep = vec![true; adj.len()];
        for &v in path {
            keep[v] = false;
        }
        keep[token] = true;
        let v = super::uvg::values_without(
            adj.len(),
            edges,
            &keep,
            &[token],
            self.limits.uvg_nodes,
            &mut self.uvg_used,
        )
        .map_err(|e| match e {
            crate::uvg::position::PositionError::BudgetExceeded { budget, .. } => {
                SumError::Budget {
                    term: cut(&term),
                    why: format!("UVG search budget of {budget} nodes exceeded"),
                }
            }
            e @ crate::uvg::position::PositionError::Stopped { .. } => SumError::Budget {
                term: cut(&term),
                why: e.to_string(),
            },
            e => bad(&term, e.to_string()),
        })?;
        let g = v[0].grundy;
        self.uvg_memo.insert(term, g);
        Ok(g)
    }

    /// The Grundy number of `at` in `game`, over the positions reachable
    /// from it, which must be loop-free and end in `win` sinks only.
    fn graph_grundy(
        &mut self,
        p: &Position,
        file: &str,
        game: &Rc<GameGraph>,
        at: usize,
    ) -> Result<u32, SumError> {
        let games = &self.files[file];
        let gi = games
            .iter()
            .position(|g| Rc::ptr_eq(g, game))
            .expect("a resolved game is in its file");
        let memo = self
            .grundy
            .entry((file.to_string(), gi))
            .or_insert_with(|| vec![None; game.len()]);
        if let Some(g) = memo[at] {
            return Ok(g);
        }
        // Iterative depth-first search; `on_path` finds a cycle.
        let mut on_path = vec![false; game.len()];
        let mut stack: Vec<(usize, usize)> = vec![(at, 0)];
        on_path[at] = true;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            let moves = game.moves(v);
            if moves.is_empty() {
                if let Some(l) = game.sink_label(v).filter(|l| *l != SinkLabel::Win) {
                    return Err(bad(
                        &p.term(),
                        format!("sink `{}` is labelled `{l}`, not `win`: only normal-play game graphs are summed", game.name_of(v)),
                    ));
                }
            }
            if *next < moves.len() {
                let w = moves[*next];
                *next += 1;
                if on_path[w] {
                    let from = stack
                        .iter()
                        .position(|&(u, _)| u == w)
                        .expect("on the path");
                    let mut cycle: Vec<&str> = stack[from..]
                        .iter()
                        .map(|&(u, _)| game.name_of(u))
                        .collect();
                    cycle.push(game.name_of(w));
                    return Err(SumError::Loopy {
                        term: cut(&p.term()),
                        cycle: format!("the cycle {}", cycle.join(" -> ")),
                    });
                }
                if memo[w].is_none() {
                    on_path[w] = true;
                    stack.push((w, 0));
                }
                continue;
            }
            let mut seen: Vec<u32> = moves.iter().map(|&w| memo[w].expect("done")).collect();
            seen.sort_unstable();
            seen.dedup();
            let mex = seen
                .iter()
                .enumerate()
                .find(|&(i, &g)| g != i as u32)
                .map_or(seen.len() as u32, |(i, _)| i as u32);
            memo[v] = Some(mex);
            on_path[v] = false;
            stack.pop();
        }
        Ok(memo[at].expect("computed"))
    }

    /// The canonical value of `g` as CGSuite writes it.
    pub fn display(&mut self, g: GameId) -> String {
        self.solver.arena.display(g)
    }

    /// A Col position's components (the vertex sets the solver splits it
    /// into) and their values; empty for other games.
    pub fn components(&mut self, p: &Position) -> Result<Vec<Component>, SumError> {
        let Position::Col { board, colours, .. } = p else {
            return Ok(Vec::new());
        };
        let pos = board.position(colours);
        let parts = self.solver.components(board, pos);
        self.col_budget(p)?;
        Ok(parts
            .into_iter()
            .map(|(set, g)| Component {
                vertices: members(set).collect(),
                value: self.solver.arena.display(g),
            })
            .collect())
    }
}

/// A component of a Col position and its value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Component {
    /// Its uncoloured vertices.
    pub vertices: Vec<usize>,
    /// Its value.
    pub value: String,
}

/// One summand of a [`SumReport`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SummandReport {
    /// Its canonical term ([`Position::term`]).
    pub term: String,
    /// `uvg`, `col`, `myopic` or `gamegraph`.
    pub game: String,
    /// Its canonical value (CGSuite notation).
    pub value: String,
    /// Its outcome class.
    pub outcome: Outcome,
    /// Col / Myopic Col: the components the position splits into and
    /// their values (they add up to `value`); absent for other games.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<Component>,
}

/// A winning move in a sum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WinningMove {
    /// The summand moved in (0-based).
    pub summand: usize,
    /// The move in that summand's game (vertex or position name).
    #[serde(rename = "move")]
    pub label: String,
    /// The summand after the move (a term).
    pub term: String,
    /// The sum's value after the move.
    pub value: String,
    /// How many winning moves this player has in the sum.
    pub winning_moves: usize,
}

/// `solve sum --json`: the sum of the summands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SumReport {
    /// The sum's canonical value (CGSuite notation, as `solve col` prints values).
    pub value: String,
    /// Its outcome class: `L`, `R`, `N` or `P`.
    pub outcome: Outcome,
    /// The outcome in words.
    pub winner: String,
    /// Is the value a number or a number plus `*` (Col's values always are)?
    pub cold: bool,
    /// The summands in the order given.
    pub summands: Vec<SummandReport>,
    /// Left (Blue) moving first: the simplest winning move, if Left has one.
    pub left_wins_by: Option<WinningMove>,
    /// Right (Red) moving first: the simplest winning move, if Right has one.
    pub right_wins_by: Option<WinningMove>,
}

/// The outcome class in words.
pub fn outcome_words(o: Outcome) -> &'static str {
    match o {
        Outcome::L => "Left (Blue) wins",
        Outcome::R => "Right (Red) wins",
        Outcome::N => "the first player wins",
        Outcome::P => "the second player wins",
    }
}

/// The sum of the positions `terms` name, within `limits`, game files read by `load`.
pub fn sum(terms: &[&str], limits: &Limits, load: FileLoader) -> Result<SumReport, SumError> {
    if terms.is_empty() {
        return Err(SumError::NoTerms);
    }
    if terms.len() > MAX_TERMS {
        return Err(SumError::TooManyTerms(terms.len()));
    }
    let mut a = Analyst::new(*limits, load);
    let positions = terms
        .iter()
        .map(|t| a.resolve(t))
        .collect::<Result<Vec<_>, _>>()?;
    let mut values = Vec::with_capacity(positions.len());
    let mut summands = Vec::with_capacity(positions.len());
    for p in &positions {
        let g = a.value(p)?;
        values.push(g);
        let components = a.components(p)?;
        let outcome = a.arena().outcome(g);
        summands.push(SummandReport {
            term: p.term(),
            game: p.game().to_string(),
            value: a.display(g),
            outcome,
            components,
        });
    }
    let total = values
        .iter()
        .fold(a.arena().zero(), |s, &g| a.solver.arena.add(s, g));
    let outcome = a.arena().outcome(total);
    let cold = a.arena().is_cold(total);
    let zero = a.arena().zero();
    // Each player's winning moves: to a sum >= 0 (Left) or <= 0 (Right).
    let mut best: [Option<(u32, WinningMove)>; 2] = [None, None];
    let mut count = [0usize; 2];
    for (i, p) in positions.iter().enumerate() {
        let rest = a.solver.arena.sub(total, values[i]);
        let opts = a.options(p);
        for (side, moves) in [(0, &opts.left), (1, &opts.right)] {
            for m in moves {
                let o = a.value(&m.to)?;
                let after = a.solver.arena.add(rest, o);
                let wins = if side == 0 {
                    a.solver.arena.le(zero, after)
                } else {
                    a.solver.arena.le(after, zero)
                };
                if !wins {
                    continue;
                }
                count[side] += 1;
                let birthday = a.arena().birthday(after);
                if best[side].as_ref().is_none_or(|(b, _)| birthday < *b) {
                    best[side] = Some((
                        birthday,
                        WinningMove {
                            summand: i,
                            label: m.label.clone(),
                            term: m.to.term(),
                            value: a.display(after),
                            winning_moves: 0,
                        },
                    ));
                }
            }
        }
    }
    let [l, r] = best;
    let finish = |b: Option<(u32, WinningMove)>, n: usize| {
        b.map(|(_, mut m)| {
            m.winning_moves = n;
            m
        })
    };
    Ok(SumReport {
        value: a.display(total),
        outcome,
        winner: outcome_words(outcome).to_string(),
        cold,
        summands,
        left_wins_by: finish(l, count[0]),
        right_wins_by: finish(r, count[1]),
    })
}

impl fmt::Display for SumReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.summands.iter().enumerate() {
            writeln!(
                f,
                "summand {}: {} = {} ({})",
                i + 1,
                s.term,
                s.value,
                s.outcome
            )?;
            if s.components.len() > 1 {
                let parts: Vec<String> = s
                    .components
                    .iter()
                    .map(|c| {
                        let v: Vec<String> = c.vertices.iter().map(usize::to_string).collect();
                        format!("{{{}}}: {}", v.join(","), c.value)
                    })
                    .collect();
                // Each component's value, then what they make: "{0} = 1 +
                // {2,3,4,5} = -3/4" would read as one equation.
                writeln!(
                    f,
                    "  components: {} (the value is their sum)",
                    parts.join(", ")
                )?;
            }
        }
        writeln!(f, "sum:     {}", self.value)?;
        writeln!(f, "outcome: {} ({})", self.outcome, self.winner)?;
        for (who, m) in [
            ("Left (Blue)", &self.left_wins_by),
            ("Right (Red)", &self.right_wins_by),
        ] {
            match m {
                None => writeln!(f, "{who} moving first: no winning move")?,
                Some(m) => writeln!(
                    f,
                    "{who} moving first wins by: summand {}, move {} (to {}), leaving {} ({} winning move{})",
                    m.summand + 1,
                    m.label,
                    m.term,
                    m.value,
                    m.winning_moves,
                    if m.winning_moves == 1 { "" } else { "s" }
                )?,
            }
        }
        Ok(())
    }
}
