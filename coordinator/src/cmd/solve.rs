//! `gamesweep solve ...`: the exact value of a single position.

use crate::error::UsageError;
use anyhow::Context as _;
use gamesweep::graph::{general::GeneralGraph, graph6, BitGraph};
use gamesweep::uvg;
use serde::Serialize;

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
    /// Give up the exact Grundy search after this many search nodes per start
    /// (the winner and winning move, from the matching theorem, are still printed).
    #[arg(long, value_name = "NODES")]
    pub budget: Option<u64>,
}

/// One start vertex's answer.
#[derive(Debug, Serialize)]
pub struct StartAnswer {
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

/// `solve uvg` output.
#[derive(Debug, Serialize)]
pub struct UvgAnswer {
    /// Number of vertices.
    pub n: usize,
    /// Per start vertex.
    pub starts: Vec<StartAnswer>,
}

/// Largest graph solved with the dense bitset solver (its memo is indexed by vertex subsets).
const DENSE_LIMIT: usize = 14;

/// Solve UVG for the requested starts.
pub fn solve_uvg(
    text: &str,
    start: Option<usize>,
    budget: Option<u64>,
) -> anyhow::Result<UvgAnswer> {
    let (n, edges) =
        graph6::decode(text.trim()).map_err(|e| UsageError(format!("bad graph6 `{text}`: {e}")))?;
    if n == 0 {
        return Err(
            UsageError("the graph has no vertices: there is no start vertex".into()).into(),
        );
    }
    let starts: Vec<usize> = match start {
        Some(s) if s >= n => {
            return Err(UsageError(format!(
                "--start {s} is not a vertex (the graph has vertices 0..{})",
                n - 1
            ))
            .into())
        }
        Some(s) => vec![s],
        None => (0..n).collect(),
    };
    let mut out = Vec::with_capacity(starts.len());
    if n <= DENSE_LIMIT && budget.is_none() {
        let g = BitGraph::from_edges(n, &edges);
        let all = g.all();
        let values = uvg::grundy_all(&g);
        for s in starts {
            out.push(StartAnswer {
                start: s,
                grundy: Some(values[s] as u32),
                first_player_wins: uvg::first_player_wins(&g, s, all),
                winning_move: uvg::winning_move(&g, s, all),
                nodes: None,
            });
        }
    } else {
        let g = GeneralGraph::from_edges(n, &edges)
            .map_err(|e| UsageError(format!("bad graph: {e}")))?;
        let all = g.all();
        for s in starts {
            let (grundy, nodes) = match uvg::general::grundy_general(&g, s, budget) {
                Ok(o) => (Some(o.value), o.nodes),
                Err(e) => (None, e.nodes),
            };
            out.push(StartAnswer {
                start: s,
                grundy,
                first_player_wins: uvg::general::first_player_wins_general(&g, s, &all),
                winning_move: uvg::general::winning_move_general(&g, s, &all),
                nodes: Some(nodes),
            });
        }
    }
    Ok(UvgAnswer { n, starts: out })
}

/// Run `solve`.
pub fn exec(cmd: SolveCommand) -> anyhow::Result<()> {
    match cmd {
        SolveCommand::Uvg(a) => {
            let ans = solve_uvg(&a.graph6, a.start, a.budget)?;
            if a.json {
                println!("{}", serde_json::to_string(&ans).context("json")?);
            } else {
                println!("UVG on {} vertices", ans.n);
                println!(
                    "{:>6}  {:>7}  {:>8}  {:>12}",
                    "start", "grundy", "winner", "winning move"
                );
                for s in &ans.starts {
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
                    println!("{:>6}  {:>7}  {:>8}  {:>12}", s.start, g, w, m);
                }
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
    let report = gamesweep::col::solve_position(rules, &a.board, &colouring)
        .map_err(|e| UsageError(format!("{e}")))?;
    if a.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print!("{report}");
    }
    Ok(())
}

fn solve_gamegraph(a: GamegraphArgs) -> anyhow::Result<()> {
    use gamesweep::gamegraph::{solve_text, Format};
    let text = if a.file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("reading standard input")?
    } else {
        std::fs::read_to_string(&a.file)
            .map_err(|e| UsageError(format!("cannot read {}: {e}", a.file.display())))?
    };
    let format = match a.format {
        GameFormat::Auto => Format::Auto,
        GameFormat::Text => Format::Text,
        GameFormat::Json => Format::Json,
    };
    let report =
        solve_text(&text, format).map_err(|e| UsageError(format!("{}: {e}", a.file.display())))?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{report}");
    }
    Ok(())
}

/// CGSuite-style nimber: 0, *, *2, ...
pub fn nimber(v: u32) -> String {
    match v {
        0 => "0".into(),
        1 => "*".into(),
        k => format!("*{k}"),
    }
}
