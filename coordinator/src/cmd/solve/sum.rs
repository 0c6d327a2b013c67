//! `solve sum` and `solve tree`: positions of several games named by terms.

use crate::error::UsageError;
use crate::ops::solve::{budget, read_game_file, DEFAULT_COL_BUDGET, DEFAULT_UVG_BUDGET};
use crate::output;

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
fn sum_limits(col: u64, uvg: u64) -> gamesweep::sums::Limits {
    gamesweep::sums::Limits {
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
    read_game_file(std::path::Path::new(name)).map_err(|e| e.to_string())
}

/// A sum or tree error as the CLI reports it (exit code 2).
fn sum_error(e: gamesweep::sums::SumError) -> UsageError {
    use gamesweep::sums::SumError;
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

pub(super) fn solve_sum(a: SumArgs) -> anyhow::Result<()> {
    let terms: Vec<&str> = a.terms.iter().map(String::as_str).collect();
    let report = gamesweep::sums::sum(&terms, &sum_limits(a.budget, a.uvg_budget), &load_game_file)
        .map_err(sum_error)?;
    if a.json {
        output::print(format_args!("{}\n", serde_json::to_string(&report)?))?;
    } else {
        output::print(&report)?;
    }
    Ok(())
}

pub(super) fn solve_tree(a: TreeArgs) -> anyhow::Result<()> {
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
