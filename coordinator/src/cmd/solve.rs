//! `gamesweep solve ...`: the exact value of a single position, or (with
//! `-` for the graph) of every graph read from standard input, one result
//! line per input line, like a filter after nauty's `geng`.
//!
//! Pipelines (`solve uvg -`, `solve col -`, `solve myopic -`): lines are read
//! with a buffered reader in chunks of [`CHUNK`] lines, each chunk solved on
//! `--threads` threads and written in input order through a buffered writer.
//! Blank lines are skipped. A line that cannot be solved (bad graph6, a
//! budget run out, ...) is reported on standard error as `gamesweep: line
//! K: reason` and gives no output line; the other lines are still solved,
//! and the command then fails (exit code 2) saying how many lines were bad.

use crate::error::UsageError;
use crate::output;
use anyhow::Context as _;
use gamesweep::graph::graph6;

/// Which game to solve.
#[derive(clap::Subcommand, Debug)]
#[command(
    after_help = "Games on the graph-game layer: `gamesweep solve GAME GRAPH6 [--json]` values every position of one graph (DIGRAPH6 for a game on digraphs); GAME is the game's sweep kind (`gamesweep kinds`), e.g. node-kayles or snort."
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

/// Arguments of `solve sum`.
#[derive(clap::Args, Debug)]
pub struct SumArgs {
    /// The summands, two or more (one is allowed: its value as `solve` gives it).
    #[arg(value_name = "TERM", required = true)]
    pub terms: Vec<String>,
    /// Print JSON: {"value", "outcome", "winner", "cold", "summands": [{"term", "game",
    /// "value", "outcome", "components" (Col: [{"vertices", "value"}])}],
    /// "left_wins_by", "right_wins_by": {"summand" (0-based), "move", "term", "value",
    /// "winning_moves"} or null}.
    #[arg(long)]
    pub json: bool,
    /// Col / Myopic Col solver work allowed (as `solve col --budget`); 0: unlimited.
    #[arg(long, value_name = "WORK", default_value_t = DEFAULT_COL_BUDGET)]
    pub budget: u64,
    /// UVG search nodes allowed to each position valued (as `solve uvg --budget`;
    /// graphs of at most 16 vertices never need any); 0: unlimited.
    #[arg(long, value_name = "NODES", default_value_t = DEFAULT_UVG_BUDGET)]
    pub uvg_budget: u64,
}

/// Arguments of `solve tree`.
#[derive(clap::Args, Debug)]
pub struct TreeArgs {
    /// The position.
    #[arg(value_name = "TERM")]
    pub term: String,
    /// Levels of options listed below the position (0: the position only).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub depth: u32,
    /// Most positions listed (the root included); a larger tree is an error; 0: unlimited.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_TREE_POSITIONS)]
    pub max_positions: usize,
    /// Print JSON: {"game", "impartial", "depth", "positions", "root"}, each node
    /// {"move" (absent at the root), "term", "value", "outcome", "expanded", "option_count",
    /// and when expanded "moves" (impartial) or "left" and "right" (partizan): nodes}.
    #[arg(long)]
    pub json: bool,
    /// Col / Myopic Col solver work allowed (as `solve col --budget`); 0: unlimited.
    #[arg(long, value_name = "WORK", default_value_t = DEFAULT_COL_BUDGET)]
    pub budget: u64,
    /// UVG search nodes allowed to each position valued; 0: unlimited.
    #[arg(long, value_name = "NODES", default_value_t = DEFAULT_UVG_BUDGET)]
    pub uvg_budget: u64,
}

/// Default `--max-positions` of `solve tree`.
pub const DEFAULT_TREE_POSITIONS: usize = 100_000;

/// The limits of `solve sum` / `solve tree` from their options.
fn sum_limits(col: u64, uvg: u64) -> gamesweep::board::sum::Limits {
    gamesweep::board::sum::Limits {
        col_work: budget(col),
        uvg_nodes: budget(uvg),
        ..Default::default()
    }
}

/// A `gamegraph:` term's file, read from disk (at most [`MAX_GAME_FILE_BYTES`]).
fn load_game_file(name: &str) -> Result<String, String> {
    if name == "-" {
        return Err("a term names a game file, not standard input (`-`)".into());
    }
    read_game_file(std::path::Path::new(name)).map_err(|e| format!("{e:#}"))
}

/// A sum or tree error as the CLI reports it (exit code 2).
fn sum_error(e: gamesweep::board::sum::SumError) -> UsageError {
    use gamesweep::board::sum::SumError;
    match e {
        SumError::TreeTooBig { limit, .. } => UsageError(format!(
            "{e}; pass a smaller --depth, or --max-positions {} (0: unlimited)",
            limit.saturating_mul(10)
        )),
        SumError::Budget { .. } => UsageError(format!(
            "{e}; pass a larger --budget (Col) or --uvg-budget (UVG), 0 for unlimited"
        )),
        e => UsageError(e.to_string()),
    }
}

fn solve_sum(a: SumArgs) -> anyhow::Result<()> {
    let terms: Vec<&str> = a.terms.iter().map(String::as_str).collect();
    let report =
        gamesweep::board::sum::sum(&terms, &sum_limits(a.budget, a.uvg_budget), &load_game_file)
            .map_err(sum_error)?;
    if a.json {
        output::print(format_args!("{}\n", serde_json::to_string(&report)?))?;
    } else {
        output::print(&report)?;
    }
    Ok(())
}

fn solve_tree(a: TreeArgs) -> anyhow::Result<()> {
    let max = if a.max_positions == 0 {
        usize::MAX
    } else {
        a.max_positions
    };
    let report = gamesweep::board::tree::tree(
        &a.term,
        a.depth,
        max,
        &sum_limits(a.budget, a.uvg_budget),
        &load_game_file,
    )
    .map_err(sum_error)?;
    if a.json {
        output::print(format_args!("{}\n", serde_json::to_string(&report)?))?;
    } else {
        output::print(&report)?;
    }
    Ok(())
}

/// Arguments of `solve subtraction`.
#[derive(clap::Args, Debug)]
pub struct SubtractionArgs {
    /// The subtraction set: distinct numbers in 1..=64, comma-separated (`2,4,7`).
    #[arg(long, value_name = "S")]
    pub set: String,
    /// List heaps 0..=N.
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub upto: u64,
    /// Print JSON (set, upto, losing, grundy, and the periodicity of both sequences).
    #[arg(long)]
    pub json: bool,
}

/// The largest `--upto` of `solve subtraction`.
pub const MAX_UPTO: u64 = 1_000_000;

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

/// Arguments of `solve col` / `solve myopic`.
#[derive(clap::Args, Debug)]
pub struct ColArgs {
    /// The board (its help is set per game: [`board_help`]).
    pub board: String,
    /// One character per vertex: `.` uncoloured, `L` or `B` blue (Left), `R` red (Right). Default: all uncoloured.
    #[arg(long, alias = "coloring")]
    pub colouring: Option<String>,
    /// Print JSON (fields include `value` in CGSuite notation and `outcome`: L, R, N or P);
    /// with `-`, one JSON object a line (or the summary as one object).
    #[arg(long)]
    pub json: bool,
    /// With `-`: print only a summary of all lines read (positions, how many
    /// of each outcome, how many of each value) instead of a line each.
    #[arg(long)]
    pub summary: bool,
    /// With `-`: threads solving the lines (default: all cores; output stays in input order).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Stop with an error after this much solver work (components expanded
    /// plus game values held; memory grows with it, about 250 bytes a unit,
    /// time about 10 µs a unit); 0: unlimited. With `-`, for each line.
    #[arg(long, value_name = "WORK", default_value_t = DEFAULT_COL_BUDGET)]
    pub budget: u64,
    /// Drawings of the board with its colouring (Left blue, Right red).
    #[command(flatten)]
    pub draw: DrawArgs,
}

/// Default `--budget` of `solve col` / `solve myopic`: about ten seconds and
/// 250 MB at most.
pub const DEFAULT_COL_BUDGET: u64 = 1_000_000;

/// Default `--budget` of `solve uvg`: search nodes of all starts together
/// (about ten seconds and 200 MB at most).
pub const DEFAULT_UVG_BUDGET: u64 = 5_000_000;

/// `--budget` as the solvers take it: 0 is unlimited.
fn budget(b: u64) -> Option<u64> {
    (b > 0).then_some(b)
}

/// The one-line error when a budget ran out: what ran out, after how long,
/// and the option to raise it.
pub fn over_budget(
    what: impl std::fmt::Display,
    budget: u64,
    since: std::time::Instant,
) -> UsageError {
    UsageError(format!(
        "{what} after {:.1} s; pass --budget {} to allow more, --budget 0 for unlimited",
        since.elapsed().as_secs_f64(),
        budget.saturating_mul(10)
    ))
}

/// Arguments of `solve gamegraph`.
#[derive(clap::Args, Debug)]
pub struct GamegraphArgs {
    /// The game file (text format or JSON; `-` reads standard input).
    pub file: std::path::PathBuf,
    /// Print JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Input format (default: JSON if the file starts with `{`, else text).
    #[arg(long, value_enum, default_value_t = GameFormat::Auto)]
    pub format: GameFormat,
    /// Branching decisions allowed to the exact kernel search of each cyclic
    /// game (default: 50,000,000 / positions, between 1,000 and 1,000,000);
    /// 0: unlimited. A search that runs out reports the kernel as unknown
    /// and says so on standard error. Everything else `solve gamegraph`
    /// computes is bounded by the input (at most 64 MiB) and the size limits
    /// of a sum (4,000,000 positions, 50,000,000 moves).
    #[arg(long, value_name = "BRANCHES")]
    pub budget: Option<u64>,
    /// Check the file's `# expect GAME POSITION grundy N` and `# expect GAME
    /// POSITION outcome I|II|draw` lines against the solver instead of
    /// printing the tables: one line per expectation (`--json`: a list),
    /// exit status 1 if any fails, 2 if the file has none or one is malformed.
    #[arg(long)]
    pub check: bool,
}

/// Input format of a game file.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum GameFormat {
    /// Decide from the first character.
    Auto,
    /// The line-based text format.
    Text,
    /// JSON.
    Json,
}

/// Arguments of `solve uvg`.
#[derive(clap::Args, Debug)]
pub struct UvgArgs {
    /// The graph in graph6 or sparse6 (as printed by `gamesweep graphs` or
    /// nauty's geng, with or without `-s`); `-`: read graph6 or sparse6
    /// lines from standard input and print `CODE V0 V1 ...` (the Grundy
    /// value of each start vertex) for each.
    pub graph6: String,
    /// Only this start vertex (0-based); default: every vertex.
    #[arg(long)]
    pub start: Option<usize>,
    /// Print JSON: {"n": .., "starts": [{"start", "grundy", "first_player_wins", "winning_move",
    /// "moves": [{"vertex", "grundy"}], "nu_without", "degree3": {"grundy", "tests"} or null}],
    /// "graph6", "edges", "max_degree", "nu", "matching", "unmatched"};
    /// with `-`, {"graph6": .., "grundy": [..]} a line (or the summary as one object).
    #[arg(long)]
    pub json: bool,
    /// With `-`: print only the histogram of Grundy values over all (graph,
    /// start) pairs read, by number of vertices and in total, as a sweep's
    /// report counts them (graphs, positions, first-player wins, grundy);
    /// lines that could not be solved are not counted.
    #[arg(long)]
    pub summary: bool,
    /// With `-`: threads solving the lines (default: all cores; output stays in input order).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Stop with an error after this many search nodes (positions evaluated)
    /// of the exact search, all starts together (memory grows with them,
    /// about 40 bytes a node on graphs of up to 64 vertices, time about 2 µs
    /// a node); 0: unlimited. Graphs of at most 16 vertices are always
    /// solved exactly by a fixed-size subset DP (milliseconds; the budget
    /// does not apply to them), here, with `-` and in `explore`. With `-`,
    /// for each line.
    #[arg(long, value_name = "NODES", default_value_t = DEFAULT_UVG_BUDGET)]
    pub budget: u64,
    /// Drawings of the graph: the start (with --start) filled, a maximum
    /// matching's edges gold, the vertices it leaves unmatched ringed red.
    #[command(flatten)]
    pub draw: DrawArgs,
}

/// Run `solve`.
pub fn exec(cmd: SolveCommand) -> anyhow::Result<()> {
    match cmd {
        SolveCommand::Uvg(a) if a.graph6 == "-" => {
            a.draw.single()?;
            stream_uvg(a)
        }
        SolveCommand::Col(a) if a.board == "-" => {
            a.draw.single()?;
            stream_col(gamesweep::col::Rules::Col, a)
        }
        SolveCommand::Myopic(a) if a.board == "-" => {
            a.draw.single()?;
            stream_col(gamesweep::col::Rules::Myopic, a)
        }
        SolveCommand::Subtraction(a) => solve_subtraction(a),
        SolveCommand::Sum(a) => solve_sum(a),
        SolveCommand::Tree(a) => solve_tree(a),
        SolveCommand::Game(args) => solve_game(&args),
        SolveCommand::Uvg(a) => {
            if a.summary || a.threads.is_some() {
                return Err(UsageError(
                    "--summary and --threads go with `-` (graphs from standard input)".into(),
                )
                .into());
            }
            use gamesweep::board::{picture, uvg::analyse};
            use gamesweep::uvg::position::PositionError;
            let since = std::time::Instant::now();
            let report = analyse(&a.graph6, a.start, budget(a.budget)).map_err(|e| match e {
                PositionError::StartOutOfRange { .. } => UsageError(format!("--{e}")),
                PositionError::BudgetExceeded { budget, .. } => over_budget(e, budget, since),
                e => UsageError(e.to_string()),
            })?;
            if a.json {
                output::print(format_args!(
                    "{}\n",
                    serde_json::to_string(&report).context("json")?
                ))?;
            } else if a.draw.dot {
                output::print(picture::uvg_dot(&report, a.start))?;
            } else if a.draw.svg {
                let svg = picture::uvg_svg(&report, a.start, SVG_SIZE)
                    .map_err(|e| UsageError(format!("cannot draw: {e}")))?;
                output::print(svg)?;
            } else {
                output::print(&report)?;
            }
            Ok(())
        }
        SolveCommand::Gamegraph(a) => solve_gamegraph(a),
        SolveCommand::Col(a) => solve_col(gamesweep::col::Rules::Col, a),
        SolveCommand::Myopic(a) => solve_col(gamesweep::col::Rules::Myopic, a),
    }
}

fn solve_col(rules: gamesweep::col::Rules, a: ColArgs) -> anyhow::Result<()> {
    if a.summary || a.threads.is_some() {
        return Err(UsageError(
            "--summary and --threads go with `-` (boards from standard input)".into(),
        )
        .into());
    }
    let colouring = match a.colouring {
        Some(c) => c,
        None => {
            let n = if a.board.starts_with('&') {
                graph6::decode_digraph(&a.board).map(|(n, _)| n)
            } else {
                graph6::decode(&a.board).map(|(n, _)| n)
            }
            .map_err(|e| UsageError(format!("bad board `{}`: {e}", a.board)))?;
            ".".repeat(n)
        }
    };
    let since = std::time::Instant::now();
    if a.draw.any() {
        use gamesweep::board::{col::analyse, picture};
        let board =
            analyse(rules, &a.board, &colouring, budget(a.budget)).map_err(|e| match e {
                gamesweep::col::ColError::BudgetExceeded { budget } => {
                    over_budget(e, budget, since)
                }
                e => UsageError(format!("{e}")),
            })?;
        if a.draw.dot {
            output::print(picture::col_dot(&board))?;
        } else {
            let svg = picture::col_svg(&board, SVG_SIZE)
                .map_err(|e| UsageError(format!("cannot draw: {e}")))?;
            output::print(svg)?;
        }
        return Ok(());
    }
    let report =
        gamesweep::col::solve_position_within(rules, &a.board, &colouring, budget(a.budget))
            .map_err(|e| match e {
                gamesweep::col::ColError::BudgetExceeded { budget } => {
                    over_budget(e, budget, since)
                }
                e => UsageError(format!("{e}")),
            })?;
    if a.json {
        output::print(format_args!("{}\n", serde_json::to_string(&report)?))?;
    } else {
        output::print(&report)?;
    }
    Ok(())
}

/// `solve subtraction`'s answer.
#[derive(Debug, serde::Serialize)]
struct SubtractionReport {
    /// The set, ascending.
    set: Vec<u32>,
    /// Heaps listed: 0..=upto.
    upto: u64,
    /// The losing heaps (second-player wins) among them.
    losing: Vec<usize>,
    /// The Grundy value of each heap 0..=upto.
    grundy: Vec<u8>,
    /// The Grundy sequence's proven preperiod and period.
    grundy_periodicity: gamesweep::gamegraph::subtraction::Periodicity,
    /// The outcome (P/N) sequence's.
    outcome_periodicity: gamesweep::gamegraph::subtraction::Periodicity,
}

fn solve_subtraction(a: SubtractionArgs) -> anyhow::Result<()> {
    use gamesweep::gamegraph::subtraction::{analyse, grundy_sequence, SubtractionSet};
    use std::fmt::Write as _;
    if a.upto > MAX_UPTO {
        return Err(UsageError(format!("--upto {} is more than {MAX_UPTO}", a.upto)).into());
    }
    let mut elements = Vec::new();
    for w in a.set.split(',') {
        let w = w.trim();
        let x: u32 = w.parse().map_err(|_| {
            UsageError(format!(
                "--set {}: `{w:.20}` is not a number in 1..=64 (give e.g. --set 2,4,7)",
                a.set.escape_debug()
            ))
        })?;
        elements.push(x);
    }
    let set = SubtractionSet::new(&elements).map_err(|e| UsageError(format!("--set: {e}")))?;
    let an = analyse(&set);
    let len = a.upto as usize + 1;
    let grundy = grundy_sequence(&set, len);
    let losing: Vec<usize> = (0..len).filter(|&n| grundy[n] == 0).collect();
    let report = SubtractionReport {
        set: set.elements().to_vec(),
        upto: a.upto,
        losing,
        grundy,
        grundy_periodicity: an.grundy,
        outcome_periodicity: an.outcome,
    };
    if a.json {
        output::print(format_args!("{}\n", serde_json::to_string(&report)?))?;
        return Ok(());
    }
    let mut t = String::new();
    let join = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(" ");
    let _ = writeln!(
        t,
        "subtraction game S = {}, heaps 0..={}",
        set.to_string_braced(),
        a.upto
    );
    let _ = writeln!(
        t,
        "losing heaps (second player wins): {}",
        join(&mut report.losing.iter().map(|n| n.to_string()))
    );
    let _ = writeln!(
        t,
        "grundy: {}",
        join(&mut report.grundy.iter().map(|g| g.to_string()))
    );
    let m = set.max_element();
    for (name, p) in [
        ("grundy sequence", &report.grundy_periodicity),
        ("losing heaps", &report.outcome_periodicity),
    ] {
        let _ = writeln!(
            t,
            "{name}: preperiod {}, period {} (proven: the {m} values from heap {} repeat from heap {}, \
             and each value depends only on the {m} before it)",
            p.preperiod, p.period, p.repeat.0, p.repeat.1
        );
    }
    output::print(t)?;
    Ok(())
}

/// The largest game file `solve gamegraph` reads, in bytes.
pub const MAX_GAME_FILE_BYTES: u64 = 64 << 20;

/// The text of `file` (`-`: standard input), at most
/// [`MAX_GAME_FILE_BYTES`] of it: a larger file (or `/dev/zero`) is an error
/// rather than memory growing without end.
fn read_game_file(file: &std::path::Path) -> anyhow::Result<String> {
    use std::io::Read as _;
    let name = file.display();
    let source: Box<dyn std::io::Read> = if file.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(
            std::fs::File::open(file)
                .map_err(|e| UsageError(format!("cannot read {name}: {e}")))?,
        )
    };
    let mut bytes = Vec::new();
    source
        .take(MAX_GAME_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| UsageError(format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > MAX_GAME_FILE_BYTES {
        return Err(UsageError(format!(
            "{name}: game file larger than {MAX_GAME_FILE_BYTES} bytes (64 MiB)"
        ))
        .into());
    }
    String::from_utf8(bytes).map_err(|e| {
        UsageError(format!(
            "{name}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
        .into()
    })
}

fn solve_gamegraph(a: GamegraphArgs) -> anyhow::Result<()> {
    use gamesweep::gamegraph::{solve_text_with, Format, KernelReport};
    let text = read_game_file(&a.file)?;
    let format = match a.format {
        GameFormat::Auto => Format::Auto,
        GameFormat::Text => Format::Text,
        GameFormat::Json => Format::Json,
    };
    let branches = a.budget.map(|b| if b == 0 { u64::MAX } else { b });
    let report = solve_text_with(&text, format, branches)
        .map_err(|e| UsageError(format!("{}: {e}", a.file.display())))?;
    if a.check {
        return check_expectations(&a, &text, &report);
    }
    for g in &report.games {
        if let KernelReport::GaveUp { branches } = g.kernel {
            eprintln!(
                "gamesweep: game {}: the kernel search gave up after {branches} branching decisions; \
                 pass --budget {} to allow more, --budget 0 for unlimited",
                g.name,
                branches.saturating_mul(10)
            );
        }
    }
    if a.json {
        output::print(format_args!("{}\n", serde_json::to_string_pretty(&report)?))?;
    } else {
        output::print(&report)?;
    }
    Ok(())
}

/// `solve gamegraph FILE --check`: the file's `# expect` lines against `report`.
fn check_expectations(
    a: &GamegraphArgs,
    text: &str,
    report: &gamesweep::gamegraph::SolveReport,
) -> anyhow::Result<()> {
    use gamesweep::gamegraph::expect;
    let file = a.file.display();
    let exp = expect::expectations(text).map_err(|e| UsageError(format!("{file}: {e}")))?;
    if exp.is_empty() {
        return Err(UsageError(format!(
            "{file} has no `# expect GAME POSITION grundy N|outcome I|II|draw` lines to check"
        ))
        .into());
    }
    let checked = expect::check(report, &exp);
    if a.json {
        output::print(format_args!(
            "{}\n",
            serde_json::to_string_pretty(&checked)?
        ))?;
    } else {
        let mut out = String::new();
        for c in &checked {
            let e = &c.expectation;
            let head = format!("line {}: {} {} {}", e.line, e.game, e.position, e.expected);
            if c.holds {
                out.push_str(&format!("ok      {head}\n"));
            } else {
                out.push_str(&format!("FAILED  {head}: computed {}\n", c.got));
            }
        }
        output::print(format_args!("{out}"))?;
    }
    let failed = checked.iter().filter(|c| !c.holds).count();
    anyhow::ensure!(
        failed == 0,
        "{file}: {failed} of {} failed",
        output::plural(checked.len() as u64, "expectation")
    );
    eprintln!(
        "gamesweep: {file}: all {} hold",
        output::plural(checked.len() as u64, "expectation")
    );
    Ok(())
}

/// Lines a pipeline reads, solves and writes at a time.
pub const CHUNK: usize = 4096;

/// The longest input line a pipeline accepts, in bytes.
pub const MAX_LINE: usize = 1 << 20;

/// Read `BufRead` lines in chunks, solve each chunk's lines with `solve` on
/// `threads` threads, and hand the results to `emit` in input order; report
/// each failed line on standard error. Ends with an error naming how many
/// lines failed, if any did.
fn stream<T: Send>(
    threads: usize,
    solve: impl Fn(&str) -> Result<T, String> + Sync,
    mut emit: impl FnMut(&str, T) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    use rayon::prelude::*;
    use std::io::BufRead as _;
    use std::io::Read as _;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let stdin = std::io::stdin();
    let mut input = std::io::BufReader::with_capacity(1 << 16, stdin.lock());
    let mut lineno = 0usize;
    let (mut read, mut bad, mut first_bad) = (0usize, 0usize, 0usize);
    let mut buf = Vec::new();
    // Lines solved so far, on a terminal only (else a long pipeline is
    // silent for minutes).
    let counter =
        crate::progress::Counter::new("lines solved", None, crate::progress::on_terminal());
    loop {
        // One chunk: (line number, text) of its non-blank lines.
        let mut chunk: Vec<(usize, Result<String, String>)> = Vec::with_capacity(CHUNK);
        let mut eof = false;
        while chunk.len() < CHUNK {
            buf.clear();
            let got = (&mut input)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut buf)
                .map_err(|e| UsageError(format!("cannot read standard input: {e}")))?;
            if got == 0 {
                eof = true;
                break;
            }
            lineno += 1;
            if buf.len() > MAX_LINE {
                return Err(
                    UsageError(format!("line {lineno}: longer than {MAX_LINE} bytes")).into(),
                );
            }
            let text = match std::str::from_utf8(&buf) {
                Ok(t) => Ok(t.trim().to_string()),
                Err(e) => Err(format!("not UTF-8 text (byte {})", e.valid_up_to() + 1)),
            };
            if text.as_ref().is_ok_and(|t| t.is_empty()) {
                continue;
            }
            chunk.push((lineno, text));
        }
        let solve_one = |(_, t): &(usize, Result<String, String>)| match t {
            Ok(t) => solve(t),
            Err(e) => Err(e.clone()),
        };
        let results: Vec<Result<T, String>> = if threads == 1 {
            chunk.iter().map(solve_one).collect()
        } else {
            pool.install(|| chunk.par_iter().map(solve_one).collect())
        };
        for ((k, text), r) in chunk.iter().zip(results) {
            read += 1;
            match r {
                Ok(v) => {
                    let text = text.as_deref().unwrap_or_default();
                    match emit(text, v) {
                        Ok(()) => {}
                        // `... | head` is fine.
                        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                        Err(e) => {
                            return Err(anyhow::Error::new(e).context("writing to standard output"))
                        }
                    }
                }
                Err(e) => {
                    bad += 1;
                    if first_bad == 0 {
                        first_bad = *k;
                    }
                    counter.eprintln(&format!("gamesweep: line {k}: {e}"));
                }
            }
        }
        counter.inc(chunk.len() as u64);
        if eof {
            break;
        }
    }
    counter.finish_with_line();
    if bad > 0 {
        return Err(UsageError(format!(
            "{bad} of {read} lines could not be solved (the first: line {first_bad})"
        ))
        .into());
    }
    Ok(())
}

/// A buffered standard output for a pipeline.
fn stdout_writer() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock())
}

/// Flush a pipeline's output (a closed pipe is fine).
fn finish(out: &mut impl std::io::Write) -> anyhow::Result<()> {
    match out.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("writing to standard output"))
        }
        _ => Ok(()),
    }
}

thread_local! {
    /// Each pipeline thread's incremental subset table: consecutive lines
    /// from geng or `gamesweep graphs` mostly share all but their last
    /// vertex (in the same labelling), and the table then computes only the
    /// rows with that vertex.
    static TABLE: std::cell::RefCell<gamesweep::uvg::incremental::Incremental> =
        std::cell::RefCell::new(gamesweep::uvg::incremental::Incremental::new());
}

/// The Grundy value of every start of the graph6 `line`: the incremental
/// subset table up to [`gamesweep::uvg::SUBSET_DP_MAX_N`] vertices (fixed
/// work per graph; exact for any order of lines, fastest when consecutive
/// graphs share their first vertices), the general solver within `budget`
/// search nodes above.
pub fn uvg_line(line: &str, budget: Option<u64>) -> Result<Vec<u32>, String> {
    use gamesweep::uvg::position::solve_position_within;
    use gamesweep::uvg::SUBSET_DP_MAX_N;
    let (n, edges) = graph6::decode(line).map_err(|e| {
        let format = if line.starts_with([':', ';']) {
            "sparse6"
        } else {
            "graph6"
        };
        format!("bad {format} `{line:.40}`: {e}")
    })?;
    if n == 0 {
        return Err("the graph has no vertices: there is no start vertex".into());
    }
    if n <= SUBSET_DP_MAX_N {
        let g = gamesweep::graph::BitGraph::from_edges(n, &edges);
        return Ok(TABLE.with(|t| {
            t.borrow_mut()
                .push_leaf(&g)
                .iter()
                .map(|&v| u32::from(v))
                .collect()
        }));
    }
    let report = solve_position_within(line, None, budget).map_err(|e| match e {
        gamesweep::uvg::position::PositionError::BudgetExceeded { budget, .. } => format!(
            "{e}; pass --budget {} to allow more, --budget 0 for unlimited",
            budget.saturating_mul(10)
        ),
        e => e.to_string(),
    })?;
    report
        .starts
        .iter()
        .map(|s| s.grundy.ok_or_else(|| "no exact value".to_string()))
        .collect()
}

/// One number of vertices in a pipeline's UVG summary, named as in a uvg
/// sweep's `results.json` (`by_n`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct UvgSummaryRow {
    /// Number of vertices (absent in the total).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<usize>,
    /// Graphs read.
    pub graphs: u64,
    /// (graph, start) pairs.
    pub positions: u64,
    /// Positions of non-zero Grundy value (the player to move wins).
    pub first_player_wins: u64,
    /// Positions by Grundy value.
    pub grundy: std::collections::BTreeMap<u32, u64>,
}

impl UvgSummaryRow {
    fn add(&mut self, values: &[u32]) {
        self.graphs += 1;
        self.positions += values.len() as u64;
        for &v in values {
            self.first_player_wins += u64::from(v != 0);
            *self.grundy.entry(v).or_default() += 1;
        }
    }
}

impl std::fmt::Display for UvgSummaryRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.n {
            Some(n) => write!(f, "n {n}:")?,
            None => write!(f, "total:")?,
        }
        write!(
            f,
            " {} graphs, {} positions, {} first-player wins; grundy",
            self.graphs, self.positions, self.first_player_wins
        )?;
        for (i, (v, c)) in self.grundy.iter().enumerate() {
            write!(f, "{} {v}: {c}", if i == 0 { "" } else { "," })?;
        }
        Ok(())
    }
}

/// A pipeline's UVG summary: by number of vertices, and the total.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct UvgSummary {
    /// Rows by number of vertices, increasing.
    pub by_n: Vec<UvgSummaryRow>,
    /// All graphs read.
    pub total: UvgSummaryRow,
}

fn stream_uvg(a: UvgArgs) -> anyhow::Result<()> {
    use std::io::Write as _;
    if a.start.is_some() {
        return Err(
            UsageError("--start does not go with `-`: every start is solved".into()).into(),
        );
    }
    let threads = a
        .threads
        .map_or_else(crate::args::default_threads, |t| t as usize);
    let b = budget(a.budget);
    let mut out = stdout_writer();
    let mut rows: std::collections::BTreeMap<usize, UvgSummaryRow> = Default::default();
    let mut line = String::new();
    let run = stream(
        threads,
        |t| uvg_line(t, b),
        |text, values| {
            if a.summary {
                rows.entry(values.len()).or_default().add(&values);
                return Ok(());
            }
            line.clear();
            // Echo the code without nauty's `>>graph6<<` header (`geng -h`):
            // the output is then valid graph6 for the next tool.
            let text = graph6::strip_header(text);
            if a.json {
                let j = serde_json::json!({ "graph6": text, "grundy": values });
                line.push_str(&j.to_string());
            } else {
                line.push_str(text);
                for v in &values {
                    use std::fmt::Write as _;
                    let _ = write!(line, " {v}");
                }
            }
            line.push('\n');
            out.write_all(line.as_bytes())
        },
    );
    finish(&mut out)?;
    if a.summary {
        let mut s = UvgSummary::default();
        for (n, mut row) in rows {
            row.n = Some(n);
            s.total.graphs += row.graphs;
            s.total.positions += row.positions;
            s.total.first_player_wins += row.first_player_wins;
            for (v, c) in &row.grundy {
                *s.total.grundy.entry(*v).or_default() += c;
            }
            s.by_n.push(row);
        }
        if a.json {
            output::print(format_args!("{}\n", serde_json::to_string(&s)?))?;
        } else {
            let mut text = String::new();
            for r in s.by_n.iter().chain([&s.total]) {
                text.push_str(&format!("{r}\n"));
            }
            output::print(text)?;
        }
    }
    run
}

/// One Col / Myopic Col line, solved.
#[derive(Debug, serde::Serialize)]
struct ColLine {
    board: String,
    colouring: String,
    value: String,
    outcome: String,
}

/// Solve the `BOARD [COLOURING]` `line`.
fn col_line(rules: gamesweep::col::Rules, line: &str, b: Option<u64>) -> Result<ColLine, String> {
    let mut words = line.split_whitespace();
    let board = words.next().unwrap_or_default();
    let given = words.next();
    if words.next().is_some() {
        return Err(format!(
            "expected `BOARD [COLOURING]`, got more than two words: `{line:.60}`"
        ));
    }
    let colouring = match given {
        Some(c) => c.to_string(),
        None => {
            let n = if board.starts_with('&') {
                graph6::decode_digraph(board).map(|(n, _)| n)
            } else {
                graph6::decode(board).map(|(n, _)| n)
            }
            .map_err(|e| format!("bad board `{board:.40}`: {e}"))?;
            ".".repeat(n)
        }
    };
    let r = gamesweep::col::solve_position_within(rules, board, &colouring, b).map_err(
        |e| match e {
            gamesweep::col::ColError::BudgetExceeded { budget } => format!(
                "{e}; pass --budget {} to allow more, --budget 0 for unlimited",
                budget.saturating_mul(10)
            ),
            e => e.to_string(),
        },
    )?;
    Ok(ColLine {
        // Without a `>>graph6<<` / `>>digraph6<<` header, as for `solve uvg -`.
        board: graph6::strip_header(board).to_string(),
        colouring,
        value: r.value,
        outcome: r.outcome.to_string(),
    })
}

/// A pipeline's Col / Myopic Col summary.
#[derive(Debug, Default, serde::Serialize)]
pub struct ColSummary {
    /// Positions read.
    pub positions: u64,
    /// Positions by outcome class (`L`, `N`, `P`, `R`).
    pub outcomes: std::collections::BTreeMap<String, u64>,
    /// Positions by value (CGSuite notation); written in the order of game
    /// values (numbers by size, `x` before `x*`), as the reports list them.
    #[serde(serialize_with = "in_value_order")]
    pub values: std::collections::BTreeMap<String, u64>,
}

/// `values` in the order of game values (numbers by size, `x` before `x*`),
/// not the text order of the map (`-1, -1/2, -2`).
fn value_order(values: &std::collections::BTreeMap<String, u64>) -> Vec<(&String, &u64)> {
    let mut v: Vec<_> = values.iter().collect();
    v.sort_by(|a, b| gamesweep::sweep::present::cmp_game_values(a.0, b.0));
    v
}

/// Serialize a value histogram as a JSON object whose keys are in
/// `value_order` (an object, as before, so readers keep working).
fn in_value_order<S: serde::Serializer>(
    values: &std::collections::BTreeMap<String, u64>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_map(value_order(values))
}

fn stream_col(rules: gamesweep::col::Rules, a: ColArgs) -> anyhow::Result<()> {
    use std::io::Write as _;
    if a.colouring.is_some() {
        return Err(UsageError(
            "--colouring does not go with `-`: give each line's colouring after its board".into(),
        )
        .into());
    }
    let threads = a
        .threads
        .map_or_else(crate::args::default_threads, |t| t as usize);
    let b = budget(a.budget);
    let mut out = stdout_writer();
    let mut sum = ColSummary::default();
    let run = stream(
        threads,
        |t| col_line(rules, t, b),
        |_, r| {
            if a.summary {
                sum.positions += 1;
                *sum.outcomes.entry(r.outcome).or_default() += 1;
                *sum.values.entry(r.value).or_default() += 1;
                return Ok(());
            }
            if a.json {
                let j = serde_json::to_string(&r).map_err(std::io::Error::other)?;
                writeln!(out, "{j}")
            } else {
                writeln!(out, "{} {} {} {}", r.board, r.colouring, r.value, r.outcome)
            }
        },
    );
    finish(&mut out)?;
    if a.summary {
        if a.json {
            output::print(format_args!("{}\n", serde_json::to_string(&sum)?))?;
        } else {
            let mut text = format!("positions: {}\noutcomes:", sum.positions);
            for (i, (o, c)) in sum.outcomes.iter().enumerate() {
                text.push_str(&format!("{} {o}: {c}", if i == 0 { "" } else { "," }));
            }
            text.push_str("\nvalues:\n");
            for (v, c) in value_order(&sum.values) {
                text.push_str(&format!("  {v}: {c}\n"));
            }
            output::print(text)?;
        }
    }
    run
}

/// `solve GAME CODE [--json]` for a game on the graph-game layer.
fn solve_game(args: &[String]) -> anyhow::Result<()> {
    let games = gamesweep::kinds::games();
    let names = || {
        games
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (name, rest) = args
        .split_first()
        .expect("clap gives the subcommand's name");
    let Some(game) = games.iter().find(|g| g.name() == name) else {
        return Err(UsageError(format!(
            "`solve {name}`: no such game (games on the graph-game layer: {}; `gamesweep solve --help` lists the others)",
            names()
        ))
        .into());
    };
    let json = rest.iter().any(|a| a == "--json");
    let codes: Vec<&String> = rest.iter().filter(|a| *a != "--json").collect();
    let format = if game.directed() {
        "DIGRAPH6"
    } else {
        "GRAPH6"
    };
    let [code] = codes[..] else {
        return Err(UsageError(format!(
            "usage: gamesweep solve {name} {format} [--json] (one graph; got {} arguments)",
            codes.len()
        ))
        .into());
    };
    if let Some(flag) = codes.iter().find(|c| c.starts_with("--")) {
        return Err(UsageError(format!(
            "`solve {name}` has no option `{flag}` (only --json)"
        ))
        .into());
    }
    let solved = game
        .solve(code)
        .map_err(|e| UsageError(format!("`{code}`: {e}")))?;
    if json {
        output::print(format_args!(
            "{}\n",
            serde_json::to_string(&solved).context("json")?
        ))?;
        return Ok(());
    }
    let mut text = format!("{name} on {code}: {}\n", game.about());
    for s in &solved {
        text.push_str(&format!(
            "position {} ({}): {}, outcome {}{}\n",
            s.position,
            s.describe,
            s.value,
            s.outcome,
            if s.property {
                ""
            } else {
                " (fails the game's property)"
            }
        ));
    }
    output::print(text)?;
    Ok(())
}
