//! `gamesweep solve ...`: the exact value of a single position.

use crate::error::UsageError;
use crate::output;
use anyhow::Context as _;
use gamesweep::graph::graph6;

/// Which game to solve.
#[derive(clap::Subcommand, Debug)]
pub enum SolveCommand {
    /// Undirected vertex geography on a graph given in graph6: Grundy value, winner, winning move per start.
    Uvg(UvgArgs),
    /// An explicit game graph from a file (see docs/gamegraph-format.md): outcome labels, Grundy numbers,
    /// a kernel, minimax values, and for a declared sum the pair table.
    Gamegraph(GamegraphArgs),
    /// Col on a graph (graph6) with a partial colouring: canonical value, outcome class, options.
    Col(ColArgs),
    /// Myopic Col on a digraph (digraph6) with a partial colouring: canonical value, outcome class, options.
    Myopic(ColArgs),
}

/// Arguments of `solve col` / `solve myopic`.
#[derive(clap::Args, Debug)]
pub struct ColArgs {
    /// The board: graph6 for Col, digraph6 (starts with `&`) for Myopic Col.
    pub board: String,
    /// One character per vertex: `.` uncoloured, `L` or `B` blue (Left), `R` red (Right). Default: all uncoloured.
    #[arg(long, alias = "coloring")]
    pub colouring: Option<String>,
    /// Print JSON (fields include `value` in CGSuite notation and `outcome`: L, R, N or P).
    #[arg(long)]
    pub json: bool,
    /// Stop with an error after this much solver work (components expanded
    /// plus game values held; memory grows with it, about 250 bytes a unit,
    /// time about 10 µs a unit); 0: unlimited.
    #[arg(long, value_name = "WORK", default_value_t = DEFAULT_COL_BUDGET)]
    pub budget: u64,
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
fn over_budget(what: impl std::fmt::Display, budget: u64, since: std::time::Instant) -> UsageError {
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
    /// The graph in graph6 (as printed by `gamesweep graphs` or nauty's geng).
    pub graph6: String,
    /// Only this start vertex (0-based); default: every vertex.
    #[arg(long)]
    pub start: Option<usize>,
    /// Print JSON: {"n": .., "starts": [{"start", "grundy", "first_player_wins", "winning_move"}]}.
    #[arg(long)]
    pub json: bool,
    /// Stop with an error after this many search nodes (positions evaluated)
    /// of the exact search, all starts together (memory grows with them,
    /// about 40 bytes a node on graphs of up to 64 vertices, time about 2 µs
    /// a node); 0: unlimited. Graphs of at
    /// most 14 vertices are solved by a fixed-size subset DP and never run out.
    #[arg(long, value_name = "NODES", default_value_t = DEFAULT_UVG_BUDGET)]
    pub budget: u64,
}

/// Run `solve`.
pub fn exec(cmd: SolveCommand) -> anyhow::Result<()> {
    match cmd {
        SolveCommand::Uvg(a) => {
            use gamesweep::uvg::position::{solve_position_within, PositionError};
            let since = std::time::Instant::now();
            let report = solve_position_within(&a.graph6, a.start, budget(a.budget)).map_err(
                |e| match e {
                    PositionError::StartOutOfRange { .. } => UsageError(format!("--{e}")),
                    PositionError::BudgetExceeded { budget, .. } => over_budget(e, budget, since),
                    e => UsageError(e.to_string()),
                },
            )?;
            if a.json {
                output::print(format_args!(
                    "{}\n",
                    serde_json::to_string(&report).context("json")?
                ))?;
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
