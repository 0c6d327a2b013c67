//! One position of a layered game on one graph, for a person: what
//! `gamesweep explore` draws and plays ([`board`]), derived from the game's
//! definition alone. A position is named by its start (an index into
//! [`GraphGame::positions`]) and the moves made from it, each an index into
//! the options of the side to move ([`GraphGame::options`]); in a partizan
//! game the sides alternate from the side that moves first. The answer has
//! the value of the position and of every option, where each option is
//! played on the drawing ([`GraphGame::places`]), how the position looks
//! ([`GraphGame::picture`]) and the solver's move: a winning one when
//! there is one (the quickest), else the longest resistance, by
//! remoteness.

use super::{Graph, GraphGame, Play, Side, Solver, Value};
use crate::cgt::Outcome;
use crate::fxhash::{FxHashMap, FxHashSet};
use serde::Serialize;

/// Positions a board may value at most (those reachable from the roots it
/// shows, counted before any is valued); past it the board is refused.
pub const BOARD_BUDGET: usize = 2_000_000;

/// Why a board was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The graph, start or a move is wrong (one line saying which).
    #[error("{0}")]
    Input(String),
    /// The position has more positions below it than the budget.
    #[error("{0}")]
    Budget(String),
}

/// Where a move is made on a drawing of the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Place {
    /// On a vertex (the vertex taken, coloured, or the token's new place).
    Vertex(usize),
    /// On an edge, by its ends (an arc `u → v` of a digraph).
    Edge(usize, usize),
}

/// How a position looks on the drawing of its graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Picture {
    /// One character per vertex: `.` untouched, `x` gone, `L` blue (Left),
    /// `R` red (Right), `T` the token, `v` visited.
    pub vertices: String,
    /// The edges (arcs) used up, by their ends, in [`Graph::edges`] order.
    pub used: Vec<(usize, usize)>,
}

impl Picture {
    /// Nothing marked on `g`.
    pub fn blank(g: &Graph) -> Picture {
        Picture {
            vertices: ".".repeat(g.n()),
            used: Vec::new(),
        }
    }
    /// `marks` as a picture: start vertices as the token, a colouring as
    /// it is.
    pub fn of_marks(g: &Graph, marks: &crate::sweep::Marks) -> Picture {
        let mut p = Picture::blank(g);
        match marks {
            crate::sweep::Marks::Start(vs) => {
                let mut c: Vec<char> = p.vertices.chars().collect();
                for &v in vs {
                    if let Some(x) = c.get_mut(v) {
                        *x = 'T';
                    }
                }
                p.vertices = c.into_iter().collect();
            }
            crate::sweep::Marks::Colouring(s) if s.chars().count() == g.n() => {
                p.vertices = s.clone();
            }
            _ => {}
        }
        p
    }
    /// Where the move from `self` to `after` was made, when the pictures
    /// say it: the one vertex that became the token or a colour, else the
    /// one edge used up, else the one vertex that changed.
    pub fn place_of(&self, after: &Picture) -> Option<Place> {
        let changed: Vec<(usize, char)> = self
            .vertices
            .chars()
            .zip(after.vertices.chars())
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (_, b))| (i, b))
            .collect();
        let marked: Vec<usize> = changed
            .iter()
            .filter(|(_, b)| matches!(b, 'T' | 'L' | 'R'))
            .map(|&(i, _)| i)
            .collect();
        if let [v] = marked[..] {
            return Some(Place::Vertex(v));
        }
        let edges: Vec<&(usize, usize)> = after
            .used
            .iter()
            .filter(|e| !self.used.contains(e))
            .collect();
        if let [&(u, v)] = edges[..] {
            return Some(Place::Edge(u, v));
        }
        if let [(v, _)] = changed[..] {
            return Some(Place::Vertex(v));
        }
        None
    }
}

/// Which position of a game on a graph a board shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The start: an index into the game's positions of the graph; `None`
    /// (a game with several starts): none chosen yet.
    pub start: Option<usize>,
    /// The moves from the start, each an index into the options of the
    /// side to move.
    pub moves: Vec<usize>,
    /// The side that moves first (partizan games; impartial ones ignore it).
    pub first: Option<Side>,
}

/// A position's value as a board shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Valued {
    /// CGSuite's text (`0`, `*2`, `±1`, `{1|0}`, …).
    pub value: String,
    /// The Grundy value (impartial games).
    pub grundy: Option<u32>,
    /// Its outcome class: `P`, `N`, `L` or `R`.
    pub outcome: String,
}

/// One start position of the graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StartView {
    /// Its index in the game's positions.
    pub index: usize,
    /// The game's words for it ("start 3", "the whole board").
    pub describe: String,
    /// Where a person picks it on the drawing (the token's vertex), if anywhere.
    pub place: Option<Place>,
    /// Its value.
    #[serde(flatten)]
    pub valued: Valued,
}

/// One option of the position shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// `L` or `R` in a partizan game; `None` in an impartial one.
    pub side: Option<&'static str>,
    /// Its index in that side's options (what a line names).
    pub index: usize,
    /// Where it is made on the drawing, if the game says.
    pub place: Option<Place>,
    /// The value of the position it leads to.
    #[serde(flatten)]
    pub valued: Valued,
    /// Does it win for the player making it (the opponent, to move there, loses)?
    pub wins: bool,
    /// Moves (both sides') to the end from there with the opponent to move,
    /// the winner hurrying and the loser delaying.
    pub remoteness: u32,
}

/// One move of the line, as the move list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Played {
    /// `L` or `R` in a partizan game.
    pub side: Option<&'static str>,
    /// Its index in that side's options.
    pub index: usize,
    /// Where it was made.
    pub place: Option<Place>,
}

/// The position at the end of the line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionView {
    /// The game's words for the start.
    pub describe: String,
    /// How it looks.
    pub picture: Picture,
    /// Its value.
    #[serde(flatten)]
    pub valued: Valued,
    /// The side to move (`L`/`R`, partizan games).
    pub to_move: Option<&'static str>,
    /// Does the side (player) to move win?
    pub mover_wins: bool,
    /// Moves to the end from here, as [`MoveView::remoteness`].
    pub remoteness: u32,
    /// The options of the side to move (impartial: the options); in a
    /// partizan game the other side's options follow, marked by `side`.
    pub moves: Vec<MoveView>,
    /// The solver's move for the side to move: the index of its option
    /// (the quickest win, else the longest resistance, lowest index on
    /// ties); `None` when it cannot move.
    pub reply: Option<usize>,
}

/// A layered game's board: the graph, its starts, the line and the
/// position it reaches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// The game's name (`node-kayles`).
    pub game: &'static str,
    /// Impartial (Grundy values) or partizan (canonical values).
    pub impartial: bool,
    /// Played on a digraph.
    pub directed: bool,
    /// The graph's vertices.
    pub n: usize,
    /// Its edges (arcs).
    pub edges: Vec<(usize, usize)>,
    /// The start positions, valued: every one until a start is chosen,
    /// then the one chosen.
    pub starts: Vec<StartView>,
    /// The start shown, if one is chosen.
    pub start: Option<usize>,
    /// The side that moved first (partizan games).
    pub first: Option<&'static str>,
    /// The moves of the line.
    pub line: Vec<Played>,
    /// The position the line reaches (`None` until a start is chosen).
    pub position: Option<PositionView>,
    /// Positions valued for this answer.
    pub work: usize,
}

/// `L` or `R`.
fn letter(s: Side) -> &'static str {
    match s {
        Side::Left => "L",
        Side::Right => "R",
    }
}

fn flip(s: Side) -> Side {
    match s {
        Side::Left => Side::Right,
        Side::Right => Side::Left,
    }
}

/// The graph `code` of `game`, within its size limit: at most
/// `MAX_N + 3` vertices (values grow exponentially), graph6 or digraph6
/// as the game is played.
pub fn graph_of<G: GraphGame>(code: &str) -> Result<Graph, String> {
    let g = Graph::parse(code.trim(), G::DIRECTED)?;
    let limit = vertex_limit::<G>();
    if g.n() > limit {
        return Err(format!(
            "{} vertices: `{}` values graphs of at most {limit} vertices",
            g.n(),
            G::NAME
        ));
    }
    Ok(g)
}

/// The most vertices a graph of `G` may have for one graph's values.
pub fn vertex_limit<G: GraphGame>() -> usize {
    (G::MAX_N + 3).min(32)
}

/// The game's name for people: its `ABOUT` up to the first colon
/// ("Node Kayles"), else its name.
pub fn title<G: GraphGame>() -> &'static str {
    G::ABOUT.split_once(": ").map_or(G::NAME, |(t, _)| t)
}

/// Count the positions reachable from `roots` (either side's options),
/// refusing past `budget`.
fn reachable<G: GraphGame>(
    game: &G,
    g: &Graph,
    roots: &[G::State],
    budget: usize,
) -> Result<usize, Refused> {
    let mut seen: FxHashSet<G::State> = FxHashSet::default();
    let mut todo: Vec<G::State> = Vec::new();
    for r in roots {
        if seen.insert(*r) {
            todo.push(*r);
        }
    }
    let sides: &[Side] = match G::PLAY {
        Play::Impartial => &[Side::Left],
        Play::Partizan => &[Side::Left, Side::Right],
    };
    while let Some(p) = todo.pop() {
        for &s in sides {
            for o in game.options(g, &p, s) {
                if seen.insert(o) {
                    if seen.len() > budget {
                        return Err(Refused::Budget(format!(
                            "this position has more than {budget} positions below it, the board's budget (`gamesweep solve {}` values the start positions without one)",
                            G::NAME
                        )));
                    }
                    todo.push(o);
                }
            }
        }
    }
    Ok(seen.len())
}

/// Remoteness with `side` to move (both sides alternate; impartial games
/// ask as Left): 0 when it cannot move; else 1 + the least even
/// remoteness of an option if there is one (a win), else 1 + the
/// greatest. Odd: the side to move wins.
struct Remote<'a, G: GraphGame> {
    game: &'a G,
    g: &'a Graph,
    memo: FxHashMap<(G::State, bool), u32>,
}

impl<G: GraphGame> Remote<'_, G> {
    fn side(&self, s: Side) -> Side {
        match G::PLAY {
            Play::Impartial => Side::Left,
            Play::Partizan => s,
        }
    }
    fn of(&mut self, p: &G::State, s: Side) -> u32 {
        let s = self.side(s);
        let key = (*p, s == Side::Left);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        let rs: Vec<u32> = self
            .game
            .options(self.g, p, s)
            .iter()
            .map(|o| self.of(o, flip(s)))
            .collect();
        let r = match rs.iter().filter(|r| *r % 2 == 0).min() {
            Some(&win) => 1 + win,
            None => rs.iter().max().map_or(0, |m| 1 + m),
        };
        self.memo.insert(key, r);
        r
    }
}

fn valued(v: Value) -> Valued {
    Valued {
        value: v.text,
        grundy: v.grundy,
        outcome: v.outcome.to_string(),
    }
}

/// Does the player who moved to a position of outcome `o` win (the other
/// side, `next`, to move there)?
fn mover_wins_at(o: Outcome, next: Side) -> bool {
    match o {
        Outcome::P => true,
        Outcome::N => false,
        Outcome::L => next == Side::Right,
        Outcome::R => next == Side::Left,
    }
}

/// Where each option of `p` for `side` is played: the game's places, with
/// any place two options share dropped (the list tells them apart).
fn places<G: GraphGame>(
    game: &G,
    g: &Graph,
    p: &G::State,
    side: Side,
    k: usize,
) -> Vec<Option<Place>> {
    let mut ps = game.places(g, p, side);
    ps.resize(k, None);
    let all = ps.clone();
    for x in ps.iter_mut() {
        if x.is_some() && all.iter().filter(|y| *y == x).count() > 1 {
            *x = None;
        }
    }
    ps
}

/// The board of `game` on the graph `code` at `line` ([`Line`]), within
/// [`BOARD_BUDGET`] positions (`budget` to change it).
pub fn board<G: GraphGame>(
    game: &G,
    code: &str,
    line: &Line,
    budget: usize,
) -> Result<BoardView, Refused> {
    let g = graph_of::<G>(code).map_err(Refused::Input)?;
    if g.n() == 0 {
        return Err(Refused::Input("the graph has no vertices".into()));
    }
    let starts = game.positions(&g);
    let partizan = G::PLAY == Play::Partizan;
    let first = if partizan {
        line.first.unwrap_or(Side::Left)
    } else {
        Side::Left
    };
    let start = chosen_start::<G>(line, starts.len())?;
    // Walk the line.
    let (played, at, side) = match start {
        Some(s) => {
            let (played, p, side) = walk_line(game, &g, starts[s], line, first)?;
            (played, Some(p), side)
        }
        None => (Vec::new(), None, first),
    };
    // Count before valuing: the roots are the starts, or the position.
    let roots: Vec<G::State> = match at {
        Some(p) => vec![p],
        None => starts.clone(),
    };
    let work = reachable(game, &g, &roots, budget)?;
    let mut solver = Solver::<G>::default();
    let start_views = start_views(game, &g, &mut solver, &starts, at.is_some(), start);
    let position = at.map(|p| {
        let describe = game.describe(&g, &starts[start.unwrap_or(0)]);
        position_view(game, &g, &mut solver, &p, side, describe)
    });
    Ok(BoardView {
        game: G::NAME,
        impartial: !partizan,
        directed: G::DIRECTED,
        n: g.n(),
        edges: g.edges(),
        starts: start_views,
        start,
        first: partizan.then(|| letter(first)),
        line: played,
        position,
        work,
    })
}

/// The start a line chose (an index into the game's `count` starts): given,
/// or the only one there is; `None` to show every start.
fn chosen_start<G: GraphGame>(line: &Line, count: usize) -> Result<Option<usize>, Refused> {
    let start = match line.start {
        Some(s) if s < count => Some(s),
        Some(s) => {
            return Err(Refused::Input(format!(
                "start {s}: `{}` has {count} start position{} on this graph (0..{})",
                G::NAME,
                if count == 1 { "" } else { "s" },
                count.saturating_sub(1)
            )))
        }
        None if count == 1 => Some(0),
        None => None,
    };
    if start.is_none() && !line.moves.is_empty() {
        return Err(Refused::Input(
            "moves without a start: choose a start first".into(),
        ));
    }
    Ok(start)
}

/// The line's moves played from `p`, `first` to move: what was played, the
/// position reached and the side to move there.
fn walk_line<G: GraphGame>(
    game: &G,
    g: &Graph,
    mut p: G::State,
    line: &Line,
    first: Side,
) -> Result<(Vec<Played>, G::State, Side), Refused> {
    let partizan = G::PLAY == Play::Partizan;
    let mut played = Vec::new();
    let mut side = first;
    for (k, &i) in line.moves.iter().enumerate() {
        let opts = game.options(g, &p, side);
        let Some(&o) = opts.get(i) else {
            return Err(Refused::Input(format!(
                "move {}: {} has {} option{} here, not {i} (0..{})",
                k + 1,
                if partizan {
                    if side == Side::Left {
                        "Left (Blue)"
                    } else {
                        "Right (Red)"
                    }
                } else {
                    "the player to move"
                },
                opts.len(),
                if opts.len() == 1 { "" } else { "s" },
                opts.len().saturating_sub(1)
            )));
        };
        let place = places(game, g, &p, side, opts.len())[i];
        played.push(Played {
            side: partizan.then(|| letter(side)),
            index: i,
            place,
        });
        p = o;
        if partizan {
            side = flip(side);
        }
    }
    Ok((played, p, side))
}

/// The starts the board lists: each valued unless a start is chosen and
/// the line is under way (`walking`), then only the chosen one.
fn start_views<G: GraphGame>(
    game: &G,
    g: &Graph,
    solver: &mut Solver<G>,
    starts: &[G::State],
    walking: bool,
    start: Option<usize>,
) -> Vec<StartView> {
    let views = starts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            // With a start chosen, only its value is new work; the others
            // are valued too (the board lists them), within the same memo.
            let v = if walking && Some(i) != start {
                None
            } else {
                Some(valued(solver.value(game, g, p)))
            };
            (i, p, v)
        })
        .collect::<Vec<_>>();
    let blank = Picture::blank(g);
    views
        .into_iter()
        .filter_map(|(i, p, v)| {
            let pic = game.picture(g, p);
            let place = match pic.vertices.matches('T').count() {
                1 => pic.vertices.find('T').map(Place::Vertex),
                _ => None,
            }
            .or_else(|| (starts.len() > 1).then(|| blank.place_of(&pic)).flatten());
            v.map(|valued| StartView {
                index: i,
                describe: game.describe(g, p),
                place,
                valued,
            })
        })
        .collect()
}

/// The position reached, `side` to move: its value, who wins, every move
/// with its value and remoteness, and the solver's reply.
fn position_view<G: GraphGame>(
    game: &G,
    g: &Graph,
    solver: &mut Solver<G>,
    p: &G::State,
    side: Side,
    describe: String,
) -> PositionView {
    let partizan = G::PLAY == Play::Partizan;
    let mut remote = Remote {
        game,
        g,
        memo: FxHashMap::default(),
    };
    let here = solver.value(game, g, p);
    let mover_wins = match G::PLAY {
        Play::Impartial => here.grundy != Some(0),
        Play::Partizan => !mover_wins_at(here.outcome, side),
    };
    let remoteness = remote.of(p, side);
    let sides: Vec<Side> = if partizan {
        vec![side, flip(side)]
    } else {
        vec![Side::Left]
    };
    let mut moves = Vec::new();
    let mut reply: Option<(bool, u32, usize)> = None;
    for (si, &s) in sides.iter().enumerate() {
        let opts = game.options(g, p, s);
        let places = places(game, g, p, s, opts.len());
        for (i, o) in opts.iter().enumerate() {
            let v = solver.value(game, g, o);
            let wins = match G::PLAY {
                Play::Impartial => v.grundy == Some(0),
                Play::Partizan => mover_wins_at(v.outcome, flip(s)),
            };
            let r = remote.of(o, flip(s));
            if si == 0 {
                // The quickest win, else the longest resistance.
                let better = match reply {
                    None => true,
                    Some((w, best, _)) => {
                        (wins && !w) || (wins == w && if wins { r < best } else { r > best })
                    }
                };
                if better {
                    reply = Some((wins, r, i));
                }
            }
            moves.push(MoveView {
                side: partizan.then(|| letter(s)),
                index: i,
                place: places[i],
                valued: valued(v),
                wins,
                remoteness: r,
            });
        }
    }
    PositionView {
        describe,
        picture: game.picture(g, p),
        valued: valued(here),
        to_move: partizan.then(|| letter(side)),
        mover_wins,
        remoteness,
        moves,
        reply: reply.map(|(_, _, i)| i),
    }
}
