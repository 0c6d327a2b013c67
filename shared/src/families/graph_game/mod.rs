//! The graph-game layer: a game states its positions on a graph and its
//! options, in one file implementing [`GraphGame`]; [`Layered`] turns it
//! into a whole sweep kind (parameters over a graph class, canonical-prefix
//! shards, typed results with the smallest witness of each value and the
//! counterexamples of the game's property, labelled counts beside the
//! unlabelled ones, validation, a report), and [`solve_code`] values it on
//! one graph for `gamesweep solve`.
//!
//! Values: impartial games by memoised mex (Grundy values, printed as
//! nimbers `0`, `*`, `*2`, …), partizan games by their canonical forms in
//! the CGT arena ([`crate::cgt::Arena`], printed as CGSuite does). The
//! memo key is the position itself (`GraphGame::State`, e.g. a bitmask of
//! remaining vertices), one memo per graph.
//!
//! Temperatures (partizan games): every value's temperature (the arena's
//! thermograph, CGSuite's conventions), positions by temperature on each
//! n, and on each n two records with their smallest witness: the largest
//! temperature, and the largest temperature ÷ maximum degree of the
//! position's graph. A record is kept by a total order (key, then witness
//! order), so merging stays associative and commutative.

pub mod board;
pub mod graphs;
mod kind;
mod model;
pub mod report;
mod validate;

pub use graphs::{Class, Graph};
pub use kind::labelled_connected;
pub use model::{
    max_degree, parse_dyadic, Counterexample, Counts, GameDoc, GameOutput, GameShard, Hottest,
    Layered, Spot, Tally,
};

use crate::cgt::{Arena, Dyadic, GameId, Outcome};
use crate::fxhash::FxHashMap;
use crate::sweep::Marks;
use std::fmt::Debug;
use std::hash::Hash;

/// Who moves: impartial games have one set of options (asked as `Left`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Left (Blue); the only side of an impartial game.
    Left,
    /// Right (Red).
    Right,
}

/// Impartial (one set of options, Grundy values) or partizan (Left's and
/// Right's options, canonical values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Both players have the same options.
    Impartial,
    /// Left and Right have their own options.
    Partizan,
}

/// A position's value, as the layer hands it to [`GraphGame::check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// CGSuite's text: `0`, `*3` (impartial), `1/2`, `^*`, `±1`, ….
    pub text: String,
    /// The Grundy value, for an impartial game.
    pub grundy: Option<u32>,
    /// Who wins.
    pub outcome: Outcome,
    /// Its temperature, for a partizan game (CGSuite's convention, as
    /// [`Arena::temperature`]: −1 for an integer, −1/2^k for `m/2^k`, 0 for
    /// a number plus an infinitesimal).
    pub temperature: Option<Dyadic>,
}

/// A game on graphs: everything a sweep over a graph class needs to know
/// about it. The layer derives the rest ([`Layered`]).
pub trait GraphGame: Send + Sync + 'static {
    /// A position, also the memo key (keep it small: a vertex bitmask, a
    /// token and a bitmask, two colour masks).
    type State: Copy + Eq + Hash + Debug + Send + Sync;
    /// The kind's name on the command line (`node-kayles`).
    const NAME: &'static str;
    /// One line: the rule.
    const ABOUT: &'static str;
    /// Impartial or partizan.
    const PLAY: Play;
    /// Played on digraphs (`true`) or on undirected graphs.
    const DIRECTED: bool = false;
    /// The largest `--max-n` the game allows.
    const MAX_N: usize = 9;
    /// The default `--max-n`.
    const DEFAULT_N: usize = 7;
    /// The property [`GraphGame::check`] tests, in words (a conjecture);
    /// `None` if the game checks nothing.
    const PROPERTY: Option<&'static str> = None;
    /// The positions of `g` to value (every start vertex, the whole board,
    /// every colouring, …), in a fixed order: a witness names its position
    /// by its index here.
    fn positions(&self, g: &Graph) -> Vec<Self::State>;
    /// The options of `side` from `p` (impartial games: asked as `Left` only).
    fn options(&self, g: &Graph, p: &Self::State, side: Side) -> Vec<Self::State>;
    /// Does `p`, of value `v`, satisfy the game's property? A `false` is a
    /// counterexample. Always `true` by default.
    fn check(&self, _g: &Graph, _p: &Self::State, _v: &Value) -> bool {
        true
    }
    /// The position for a person ("start 3"), in witness tables.
    fn describe(&self, _g: &Graph, p: &Self::State) -> String {
        format!("{p:?}")
    }
    /// How a drawing marks the position (start vertices, a colouring).
    fn marks(&self, _g: &Graph, _p: &Self::State) -> Marks {
        Marks::None
    }
    /// How a board draws `p` (`gamesweep explore`): vertices gone, coloured,
    /// visited, the token, edges used. By default its [`GraphGame::marks`]
    /// (the token on start vertices, a colouring as it is).
    fn picture(&self, g: &Graph, p: &Self::State) -> board::Picture {
        board::Picture::of_marks(g, &self.marks(g, p))
    }
    /// Where a person makes each option of [`GraphGame::options`]`(g, p,
    /// side)` on a drawing, in the same order (`None`: the board lists it
    /// but nothing on the drawing makes it). By default read off the
    /// pictures ([`board::Picture::place_of`]): the vertex that became the
    /// token or a colour, else the one edge used up, else the one vertex
    /// that changed.
    fn places(&self, g: &Graph, p: &Self::State, side: Side) -> Vec<Option<board::Place>> {
        let before = self.picture(g, p);
        self.options(g, p, side)
            .iter()
            .map(|o| before.place_of(&self.picture(g, o)))
            .collect()
    }
    /// `file!()`, in the game's own file: it selects the solver version
    /// (the hash of that file and of all it uses, this layer included).
    fn source_file(&self) -> &'static str;
    /// For a game defined outside this crate: its build script's version
    /// (`Some(env!("GAMESWEEP_KIND_VERSION"))`, see `Kind::outside_version`).
    fn outside_version(&self) -> Option<&'static str> {
        None
    }
}

/// Values positions of one graph at a time: memoised mex or canonical
/// forms. Reset between graphs ([`Solver::reset`]); the arena is kept.
pub struct Solver<G: GraphGame> {
    nim: FxHashMap<G::State, u32>,
    part: FxHashMap<G::State, GameId>,
    arena: Arena,
    /// Positions valued (memo misses), for budgets.
    pub work: u64,
}

impl<G: GraphGame> Default for Solver<G> {
    fn default() -> Self {
        Solver {
            nim: FxHashMap::default(),
            part: FxHashMap::default(),
            arena: Arena::new(),
            work: 0,
        }
    }
}

impl<G: GraphGame> Solver<G> {
    /// Forget the memo (a new graph).
    pub fn reset(&mut self) {
        self.nim.clear();
        self.part.clear();
        // Values of one sweep stay few; a big arena is dropped.
        if self.arena.len() > 1 << 20 {
            self.arena = Arena::new();
        }
    }

    /// The value of `p` on `g`.
    pub fn value(&mut self, game: &G, g: &Graph, p: &G::State) -> Value {
        match G::PLAY {
            Play::Impartial => {
                let k = self.grundy(game, g, p);
                Value {
                    text: crate::sweep::report::nim(u64::from(k)),
                    grundy: Some(k),
                    outcome: if k == 0 { Outcome::P } else { Outcome::N },
                    temperature: None,
                }
            }
            Play::Partizan => {
                let id = self.canonical(game, g, p);
                Value {
                    text: text(&mut self.arena, id),
                    grundy: None,
                    outcome: self.arena.outcome(id),
                    temperature: Some(self.arena.temperature(id)),
                }
            }
        }
    }

    /// The Grundy value of `p` (memoised mex of its options').
    pub fn grundy(&mut self, game: &G, g: &Graph, p: &G::State) -> u32 {
        if let Some(&k) = self.nim.get(p) {
            return k;
        }
        self.work += 1;
        let opts = game.options(g, p, Side::Left);
        let mut seen: Vec<u32> = opts.iter().map(|o| self.grundy(game, g, o)).collect();
        seen.sort_unstable();
        seen.dedup();
        let k = seen
            .iter()
            .enumerate()
            .find(|&(i, &v)| v != i as u32)
            .map_or(seen.len(), |(i, _)| i) as u32;
        self.nim.insert(*p, k);
        k
    }

    /// The canonical form of `p` in the solver's arena.
    pub fn canonical(&mut self, game: &G, g: &Graph, p: &G::State) -> GameId {
        if let Some(&id) = self.part.get(p) {
            return id;
        }
        self.work += 1;
        let left: Vec<GameId> = game
            .options(g, p, Side::Left)
            .iter()
            .map(|o| self.canonical(game, g, o))
            .collect();
        let right: Vec<GameId> = game
            .options(g, p, Side::Right)
            .iter()
            .map(|o| self.canonical(game, g, o))
            .collect();
        let id = self.arena.game(&left, &right);
        self.part.insert(*p, id);
        id
    }

    /// The arena holding the canonical forms.
    pub fn arena(&mut self) -> &mut Arena {
        &mut self.arena
    }
}

/// CGSuite's text of `g` with every option list in value order: the
/// arena's own display lists options in the order they were interned,
/// which depends on what the arena valued before (a shard's other
/// graphs), so a value's text would depend on the shard plan.
pub fn text(e: &mut Arena, g: GameId) -> String {
    let shown = e.display(g);
    if !shown.contains('{') {
        return shown;
    }
    let l = e.left_options(g).to_vec();
    let r = e.right_options(g).to_vec();
    if l.len() == 1 && r.len() == 1 && e.neg(l[0]) == r[0] {
        let inner = text(e, l[0]);
        return if e.is_number(l[0]) {
            format!("±{inner}")
        } else {
            format!("±({inner})")
        };
    }
    let mut side = |opts: &[GameId]| {
        let mut ts: Vec<String> = opts.iter().map(|&o| text(e, o)).collect();
        ts.sort_by(|a, b| model::cmp_values(a, b));
        ts.join(",")
    };
    let (ls, rs) = (side(&l), side(&r));
    format!("{{{ls}|{rs}}}")
}

/// One position of a graph as `gamesweep solve GAME CODE` prints it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Solved {
    /// Its index in the game's positions of the graph.
    pub position: usize,
    /// The game's description of it.
    pub describe: String,
    /// Its value.
    pub value: String,
    /// Its outcome class (`P`, `N`, `L`, `R`).
    pub outcome: String,
    /// Whether it has the game's property (always `true` without one).
    pub property: bool,
}

/// Every position of the graph `code` (graph6, or digraph6 for a directed
/// game), valued: what `gamesweep solve GAME CODE` shows. A graph larger
/// than the game's `MAX_N` + 3 is refused (values grow exponentially).
pub fn solve_code<G: GraphGame>(game: &G, code: &str) -> Result<Vec<Solved>, String> {
    let g = board::graph_of::<G>(code)?;
    let mut s = Solver::<G>::default();
    Ok(game
        .positions(&g)
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let v = s.value(game, &g, p);
            Solved {
                position: i,
                describe: game.describe(&g, p),
                property: game.check(&g, p, &v),
                outcome: v.outcome.to_string(),
                value: v.text,
            }
        })
        .collect())
}

/// A layered game's kind as `gamesweep solve` sees it: a sweep kind that
/// also values the positions of one graph.
pub trait GameKind: crate::sweep::SweepKind {
    /// Every position of the graph `code` valued ([`solve_code`]).
    fn solve(&self, code: &str) -> Result<Vec<Solved>, String>;
    /// Played on digraphs (digraph6) rather than graphs (graph6)?
    fn directed(&self) -> bool;
    /// Impartial (Grundy values) rather than partizan (canonical values)?
    fn impartial(&self) -> bool;
    /// Its name for people ([`board::title`]: "Node Kayles").
    fn title(&self) -> &'static str;
    /// The most vertices of a graph [`GameKind::solve`] and
    /// [`GameKind::board`] take.
    fn max_vertices(&self) -> usize;
    /// The position `line` of the graph `code` with the value of every
    /// option and the solver's move, for a board ([`board::board`]),
    /// within `budget` positions.
    fn board(
        &self,
        code: &str,
        line: &board::Line,
        budget: usize,
    ) -> Result<board::BoardView, board::Refused>;
}

impl<G: GraphGame> GameKind for Layered<G> {
    fn solve(&self, code: &str) -> Result<Vec<Solved>, String> {
        solve_code(&self.0, code)
    }
    fn directed(&self) -> bool {
        G::DIRECTED
    }
    fn impartial(&self) -> bool {
        G::PLAY == Play::Impartial
    }
    fn title(&self) -> &'static str {
        board::title::<G>()
    }
    fn max_vertices(&self) -> usize {
        board::vertex_limit::<G>()
    }
    fn board(
        &self,
        code: &str,
        line: &board::Line,
        budget: usize,
    ) -> Result<board::BoardView, board::Refused> {
        board::board(&self.0, code, line, budget)
    }
}
