//! `solve col` and `solve myopic`: Col and Myopic Col positions, one board or a pipeline of them.

use super::stream::{finish, stdout_writer, stream};
use super::{budget, over_budget, DrawArgs, SVG_SIZE};
use crate::error::UsageError;
use crate::output;
use gamesweep::graph::graph6;

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

pub(super) fn solve_col(rules: gamesweep::col::Rules, a: ColArgs) -> anyhow::Result<()> {
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

pub(super) fn stream_col(rules: gamesweep::col::Rules, a: ColArgs) -> anyhow::Result<()> {
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
