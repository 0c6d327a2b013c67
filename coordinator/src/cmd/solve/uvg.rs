//! `solve uvg`: undirected vertex geography on one graph, or a pipeline of graphs.

use super::{DrawArgs, SVG_SIZE};
use crate::error::UsageError;
use crate::ops::solve::budget;
use crate::ops::solve::pipeline::{finish, stdout_writer, stream};
use crate::ops::solve::uvg::{uvg_analysis, uvg_line, AnalysisError, UvgTally, DEFAULT_UVG_BUDGET};
use crate::output;
use anyhow::Context as _;
use gamesweep::graph::graph6;

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

/// `solve uvg GRAPH6`: one graph, as text, JSON or a drawing.
pub(super) fn solve_one(a: UvgArgs) -> anyhow::Result<()> {
    if a.summary || a.threads.is_some() {
        return Err(UsageError(
            "--summary and --threads go with `-` (graphs from standard input)".into(),
        )
        .into());
    }
    use gamesweep::board::picture;
    let report = uvg_analysis(&a.graph6, a.start, budget(a.budget)).map_err(|e| match e {
        AnalysisError::Start(e) => UsageError(format!("--{e}")),
        AnalysisError::Other(e) => e,
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

/// `solve uvg -`: a line `CODE V0 V1 ...` (or JSON) per graph read, or the summary.
pub(super) fn stream_uvg(a: UvgArgs) -> anyhow::Result<()> {
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
    let mut tally = UvgTally::default();
    let mut line = String::new();
    let run = stream(
        threads,
        |t| uvg_line(t, b),
        |text, values| {
            if a.summary {
                tally.add(&values);
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
        let s = tally.summary();
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
