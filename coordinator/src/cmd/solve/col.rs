//! `solve col` and `solve myopic`: Col and Myopic Col positions, one board or a pipeline of them.

use super::{DrawArgs, SVG_SIZE};
use crate::error::UsageError;
use crate::ops::solve::budget;
use crate::ops::solve::col::{
    col_analysis, col_line, col_position, colouring_or_blank, ColSummary, DEFAULT_COL_BUDGET,
};
use crate::ops::solve::pipeline::{finish, stdout_writer, stream};
use crate::output;

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

/// `solve col|myopic BOARD`: one position, as text, JSON or a drawing.
pub(super) fn solve_col(rules: gamesweep::col::Rules, a: ColArgs) -> anyhow::Result<()> {
    if a.summary || a.threads.is_some() {
        return Err(UsageError(
            "--summary and --threads go with `-` (boards from standard input)".into(),
        )
        .into());
    }
    let colouring = colouring_or_blank(&a.board, a.colouring)?;
    if a.draw.any() {
        use gamesweep::board::picture;
        let board = col_analysis(rules, &a.board, &colouring, budget(a.budget))?;
        if a.draw.dot {
            output::print(picture::col_dot(&board))?;
        } else {
            let svg = picture::col_svg(&board, SVG_SIZE)
                .map_err(|e| UsageError(format!("cannot draw: {e}")))?;
            output::print(svg)?;
        }
        return Ok(());
    }
    let report = col_position(rules, &a.board, &colouring, budget(a.budget))?;
    if a.json {
        output::print(format_args!("{}\n", serde_json::to_string(&report)?))?;
    } else {
        output::print(&report)?;
    }
    Ok(())
}

/// `solve col|myopic -`: a line `BOARD COLOURING VALUE OUTCOME` (or JSON)
/// per line read, or the summary.
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
                sum.add(r);
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
            for (v, c) in sum.values_in_order() {
                text.push_str(&format!("  {v}: {c}\n"));
            }
            output::print(text)?;
        }
    }
    run
}
