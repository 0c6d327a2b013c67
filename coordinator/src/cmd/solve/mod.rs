//! `gamesweep solve ...`: the exact value of a single position, or (with
//! `-` for the graph) of every graph read from standard input, one result
//! line per input line, like a filter after nauty's `geng`.
//!
//! Pipelines (`solve uvg -`, `solve col -`, `solve myopic -`, `solve GAME -`): lines are read
//! with a buffered reader in chunks of [`CHUNK`](crate::ops::solve::CHUNK) lines, each chunk solved on
//! `--threads` threads and written in input order through a buffered writer.
//! Blank lines are skipped. A line that cannot be solved (bad graph6, a
//! budget run out, ...) is reported on standard error as `gamesweep: line
//! K: reason` and gives no output line; the other lines are still solved,
//! and the command then fails (exit code 2) saying how many lines were bad.
//!
//! What each does (solving a line, the pipeline, the summaries, budgets and
//! limits) lives in [`crate::ops::solve`]; these modules parse and print.

mod col;
mod game;
mod gamegraph;
mod subtraction;
mod sum;
mod uvg;

pub use col::ColArgs;
pub use gamegraph::{GameFormat, GamegraphArgs};
pub use subtraction::SubtractionArgs;
pub use sum::{SumArgs, TreeArgs, DEFAULT_TREE_POSITIONS};
pub use uvg::UvgArgs;

use crate::error::UsageError;

/// Which game to solve.
#[derive(clap::Subcommand, Debug)]
#[command(
    after_help = "Games on the graph-game layer: `gamesweep solve GAME GRAPH6 [--json]` values every position of one graph (DIGRAPH6 for a game on digraphs); `gamesweep solve GAME - [--json] [--threads N]` every graph read from standard input, a line `CODE VALUE...` each; GAME is the game's sweep kind (`gamesweep kinds`), e.g. node-kayles or snort."
)]
pub enum SolveCommand {
    /// Undirected vertex geography on a graph given in graph6: Grundy value, winner, winning move per start.
    Uvg(UvgArgs),
    /// An explicit game graph from a file (see docs/gamegraph-format.md): outcome labels, Grundy numbers,
    /// a kernel, minimax values, and for a declared sum the pair table.
    Gamegraph(GamegraphArgs),
    /// Col on a graph (graph6 or sparse6) with a partial colouring: canonical value, outcome class, options.
    #[command(mut_arg("board", |a| a.help(board_help("graph6 or sparse6"))))]
    Col(ColArgs),
    /// Myopic Col on a digraph (digraph6) with a partial colouring: canonical value, outcome class, options.
    #[command(mut_arg("board", |a| a.help(board_help("digraph6 (starts with `&`)"))))]
    Myopic(ColArgs),
    /// A subtraction game (take s counters, s in the set): the losing heaps up to N and the Grundy
    /// sequence with its proven preperiod and period.
    Subtraction(SubtractionArgs),
    /// The sum of two or more positions (UVG, Col, Myopic Col, loop-free game graphs): its canonical
    /// value, outcome class, each summand's value and the simplest winning move of each player.
    #[command(after_help = TERM_HELP)]
    Sum(SumArgs),
    /// The game tree of one position: its options, each with its canonical value, to a depth.
    #[command(after_help = TERM_HELP)]
    Tree(TreeArgs),
    /// A game on the graph-game layer, named as its sweep kind (`node-kayles`, `arc-kayles`,
    /// `snort`, `geography-vertex`, `geography-edge`, …): `solve GAME GRAPH6 [--json]` values every
    /// position of the graph (digraph6 for a game on digraphs).
    #[command(external_subcommand)]
    Game(Vec<String>),
}

/// How `solve sum` and `solve tree` name a position.
const TERM_HELP: &str = "\
A TERM names one position:
  uvg:GRAPH6@S              UVG, the token on start vertex S
  uvg:GRAPH6@S,V1,V2        ... moved along the path S, V1, V2 (all visited)
  col:CODE[:COLOURING]      Col on a graph6/sparse6 board; colouring as `solve col`
                            (`.` uncoloured, `L`/`B` blue, `R` red; default all `.`)
  myopic:DIGRAPH6[:COLOURING]  Myopic Col
  gamegraph:FILE            a game file's only game, from its start
  gamegraph:FILE#POS        ... from position POS (several games: the start of game POS)
  gamegraph:FILE#GAME#POS   position POS of game GAME
UVG and game-graph positions are impartial (value *g, g the Grundy number);
game graphs must be normal play and loop-free from the position.

Examples:
  gamesweep solve sum col:@ col:@ uvg:Bg@1        (* + * + * = *)
  gamesweep solve sum col:A_:R. col:A_:L.         (1 + -1 = 0)
  gamesweep solve tree col:Bg --depth 2
  gamesweep solve tree uvg:Ch@1 --json";

/// A drawing instead of text: `--dot` / `--svg`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct DrawArgs {
    /// Print the board as Graphviz (DOT) text instead.
    #[arg(long, conflicts_with_all = ["json", "svg"])]
    pub dot: bool,
    /// Print the board as an SVG picture instead.
    #[arg(long, conflicts_with_all = ["json", "dot"])]
    pub svg: bool,
}

impl DrawArgs {
    fn any(self) -> bool {
        self.dot || self.svg
    }

    /// Refuse a drawing with `-` (one board at a time).
    fn single(self) -> Result<(), UsageError> {
        if self.any() {
            Err(UsageError(
                "--dot and --svg draw one board: they do not go with `-`".into(),
            ))
        } else {
            Ok(())
        }
    }
}

/// Size of `--svg` pictures, in pixels.
const SVG_SIZE: u32 = 360;

/// The help of `solve col`'s and `solve myopic`'s BOARD, in `format`: each
/// speaks of its own format only.
fn board_help(format: &str) -> String {
    format!("The board, in {format}; `-`: read `BOARD [COLOURING]` lines from standard input and print `BOARD COLOURING VALUE OUTCOME` for each")
}

/// Run `solve`.
pub fn exec(cmd: SolveCommand) -> anyhow::Result<()> {
    match cmd {
        SolveCommand::Uvg(a) if a.graph6 == "-" => {
            a.draw.single()?;
            uvg::stream_uvg(a)
        }
        SolveCommand::Col(a) if a.board == "-" => {
            a.draw.single()?;
            col::stream_col(gamesweep::col::Rules::Col, a)
        }
        SolveCommand::Myopic(a) if a.board == "-" => {
            a.draw.single()?;
            col::stream_col(gamesweep::col::Rules::Myopic, a)
        }
        SolveCommand::Subtraction(a) => subtraction::solve_subtraction(a),
        SolveCommand::Sum(a) => sum::solve_sum(a),
        SolveCommand::Tree(a) => sum::solve_tree(a),
        SolveCommand::Game(args) => game::solve_game(&args),
        SolveCommand::Uvg(a) => uvg::solve_one(a),
        SolveCommand::Gamegraph(a) => gamegraph::solve_gamegraph(a),
        SolveCommand::Col(a) => col::solve_col(gamesweep::col::Rules::Col, a),
        SolveCommand::Myopic(a) => col::solve_col(gamesweep::col::Rules::Myopic, a),
    }
}
