//! `solve gamegraph`: an explicit game graph from a file.

use crate::error::UsageError;
use crate::ops::solve::gamegraph::{kernel_branches, read_game_file};
use crate::output;

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

pub(super) fn solve_gamegraph(a: GamegraphArgs) -> anyhow::Result<()> {
    use gamesweep::gamegraph::{solve_text_with, Format, KernelReport};
    let text = read_game_file(&a.file)?;
    let format = match a.format {
        GameFormat::Auto => Format::Auto,
        GameFormat::Text => Format::Text,
        GameFormat::Json => Format::Json,
    };
    let branches = kernel_branches(a.budget);
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
