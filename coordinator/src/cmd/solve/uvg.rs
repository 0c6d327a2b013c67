//! `solve uvg`: undirected vertex geography on one graph, or a pipeline of graphs.

use super::stream::{finish, stdout_writer, stream};
use super::{budget, over_budget, DrawArgs, SVG_SIZE};
use crate::error::UsageError;
use crate::output;
use anyhow::Context as _;
use gamesweep::graph::graph6;

/// Default `--budget` of `solve uvg`: search nodes of all starts together
/// (about ten seconds and 200 MB at most).
pub const DEFAULT_UVG_BUDGET: u64 = 5_000_000;

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
