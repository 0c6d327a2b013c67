//! `gamesweep._native`: the Rust half of the `gamesweep` Python module.
//!
//! Every function here calls the same code as the `gamesweep` command line
//! (the `gamesweep` library crate, and `gamesweep_coordinator`'s command
//! modules where the CLI adds something of its own) and answers with what
//! the CLI prints with `--json`, as JSON text that the Python half parses,
//! so the two cannot drift apart. Errors are `GamesweepError` carrying the
//! CLI's message. Solves run with the GIL released, on a thread of their
//! own while this one checks for Ctrl-C (`KeyboardInterrupt`); the small
//! graphs of `uvg_values` are solved in place (microseconds).
//!
//! The Python half (`python/gamesweep/`) converts graphs (networkx, Sage,
//! edge lists) to graph6, documents every name and holds the type stubs.

use gamesweep::graph::graph6;
use gamesweep::meter::Meter;
use gamesweep_coordinator::ops::{graphs as ops_graphs, solve as ops_solve};
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use std::sync::{mpsc, Arc};
use std::time::Duration;

create_exception!(
    _native,
    GamesweepError,
    PyValueError,
    "An input gamesweep cannot solve, or a budget run out; the message is the CLI's."
);

/// The name of the thread of a call that may open a store: the threads
/// sled starts inherit it, and may outlive the call a little (they are
/// not a solve's).
const STORE_THREAD: &str = "gamesweep-store";

/// How often a thread waiting for a solve checks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Size of `_repr_svg_` pictures, in pixels (the CLI's `--svg`).
const SVG_SIZE: u32 = 360;

fn err(msg: impl std::fmt::Display) -> PyErr {
    GamesweepError::new_err(msg.to_string())
}

/// Run `job` on a thread of its own with the GIL released, checking for
/// signals (Ctrl-C in Jupyter) every [`SIGNAL_POLL`]. On a signal the job's
/// searches are stopped through their [`Meter`] (they end at their next
/// position, and the answer is dropped) and the signal's exception
/// (`KeyboardInterrupt`) is raised.
fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    job: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    interruptible_on(py, "gamesweep-solve", job)
}

/// [`interruptible`] on a thread named `name` (threads it starts inherit
/// the name on Linux: a local run's pools are told from a solve's).
fn interruptible_on<T: Send + 'static>(
    py: Python<'_>,
    name: &str,
    job: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let meter = Meter::new();
    let watched = meter.clone();
    let (tx, rx) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let _ = tx.send(watched.run(job));
        })
        .map_err(|e| err(format!("cannot start a solver thread: {e}")))?;
    // Stops the searches however this function is left (a signal, or a
    // panic in the wait).
    struct StopOnDrop(Arc<Meter>);
    impl Drop for StopOnDrop {
        fn drop(&mut self) {
            self.0.stop();
        }
    }
    let _stop = StopOnDrop(meter);
    let mut rx = rx;
    loop {
        // The receiver moves into the GIL-free closure and back (it is
        // `Send`, not `Sync`).
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(SIGNAL_POLL);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(v) => return Ok(v),
            Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyKeyboardInterrupt::new_err("the solver thread stopped"))
            }
        }
    }
}

/// The number of vertices a graph6 or sparse6 text announces (its first
/// bytes), or `None` if it is neither of at most 62 vertices.
fn small_order(text: &str) -> Option<usize> {
    let t = graph6::strip_header(text.trim());
    let b = *t.strip_prefix(':').unwrap_or(t).as_bytes().first()?;
    (63..=125).contains(&b).then(|| usize::from(b - 63))
}

/// `solve uvg - --json`'s `grundy` of one line: the Grundy value of every
/// start vertex of the graph6 `g6`.
#[pyfunction]
#[pyo3(signature = (g6, budget = ops_solve::DEFAULT_UVG_BUDGET))]
fn uvg_values(py: Python<'_>, g6: &str, budget: u64) -> PyResult<Vec<u32>> {
    use gamesweep::uvg::position::{method, Method};
    let b = ops_solve::budget(budget);
    if small_order(g6).is_some_and(|n| method(n, b) == Method::SubsetDp) {
        // Fixed work of microseconds: solved in place, on this thread's
        // incremental table (consecutive graphs of `graphs()` share rows).
        let line = graph6::strip_header(g6.trim());
        return py.detach(|| ops_solve::uvg_line(line, b)).map_err(err);
    }
    let line = g6.trim().to_string();
    interruptible(py, move || ops_solve::uvg_line(&line, b))?.map_err(err)
}

/// The analysis `solve uvg` prints (as the Rust value), or the CLI's error
/// (which says `start`, the keyword, where the CLI says `--start`).
fn uvg_analysis(
    g6: &str,
    start: Option<usize>,
    budget: u64,
) -> Result<gamesweep::board::uvg::UvgAnalysis, String> {
    ops_solve::uvg_analysis(g6, start, ops_solve::budget(budget)).map_err(|e| e.to_string())
}

/// `solve uvg G6 [--start S] --json`, as JSON text, and the picture of
/// `--svg` drawn from the same solve (None when the graph is too big to
/// draw): showing a solution never solves it again.
#[pyfunction]
#[pyo3(signature = (g6, start = None, budget = ops_solve::DEFAULT_UVG_BUDGET))]
fn uvg_solve(
    py: Python<'_>,
    g6: &str,
    start: Option<usize>,
    budget: u64,
) -> PyResult<(String, Option<String>)> {
    let g6 = g6.to_string();
    let a = interruptible(py, move || uvg_analysis(&g6, start, budget))?.map_err(err)?;
    let svg = gamesweep::board::picture::uvg_svg(&a, start, SVG_SIZE).ok();
    Ok((serde_json::to_string(&a).map_err(err)?, svg))
}

/// `solve uvg G6 [--start S] --svg`: the picture of the reports.
#[pyfunction]
#[pyo3(signature = (g6, start = None, budget = ops_solve::DEFAULT_UVG_BUDGET))]
fn uvg_svg(py: Python<'_>, g6: &str, start: Option<usize>, budget: u64) -> PyResult<String> {
    let g6 = g6.to_string();
    let a = interruptible(py, move || uvg_analysis(&g6, start, budget))?.map_err(err)?;
    gamesweep::board::picture::uvg_svg(&a, start, SVG_SIZE)
        .map_err(|e| err(format!("cannot draw: {e}")))
}

fn rules(myopic: bool) -> gamesweep::col::Rules {
    if myopic {
        gamesweep::col::Rules::Myopic
    } else {
        gamesweep::col::Rules::Col
    }
}

/// `solve col|myopic BOARD --svg`'s analysis, with the colouring given or
/// all uncoloured (the CLI's default), or the CLI's error.
fn col_analysis(
    board: &str,
    colouring: Option<String>,
    myopic: bool,
    budget: u64,
) -> Result<gamesweep::board::col::ColAnalysis, String> {
    let colouring =
        ops_solve::col::colouring_or_blank(board, colouring).map_err(|e| e.to_string())?;
    ops_solve::col::col_analysis(rules(myopic), board, &colouring, ops_solve::budget(budget))
        .map_err(|e| e.to_string())
}

/// `solve col|myopic BOARD [--colouring C] --json`, as JSON text, and the
/// picture of `--svg` drawn from the same solve (None when too big to
/// draw).
#[pyfunction]
#[pyo3(signature = (board, colouring = None, myopic = false, budget = ops_solve::DEFAULT_COL_BUDGET))]
fn col_solve(
    py: Python<'_>,
    board: &str,
    colouring: Option<String>,
    myopic: bool,
    budget: u64,
) -> PyResult<(String, Option<String>)> {
    let board = board.trim().to_string();
    let r = interruptible(py, move || -> Result<(String, Option<String>), String> {
        // The analysis is `solve_position_within`'s report and the options
        // the picture shows.
        let a = col_analysis(&board, colouring, myopic, budget)?;
        let svg = gamesweep::board::picture::col_svg(&a, SVG_SIZE).ok();
        Ok((
            serde_json::to_string(&a.report).map_err(|e| e.to_string())?,
            svg,
        ))
    })?;
    r.map_err(err)
}

/// `solve col|myopic BOARD [--colouring C] --svg`.
#[pyfunction]
#[pyo3(signature = (board, colouring = None, myopic = false, budget = ops_solve::DEFAULT_COL_BUDGET))]
fn col_svg(
    py: Python<'_>,
    board: &str,
    colouring: Option<String>,
    myopic: bool,
    budget: u64,
) -> PyResult<String> {
    let board = board.trim().to_string();
    let r = interruptible(py, move || -> Result<String, String> {
        let a = col_analysis(&board, colouring, myopic, budget)?;
        gamesweep::board::picture::col_svg(&a, SVG_SIZE).map_err(|e| format!("cannot draw: {e}"))
    })?;
    r.map_err(err)
}

/// `solve gamegraph FILE --json` on the text of a game file (the CLI
/// checks the same size limit when reading the file).
#[pyfunction]
#[pyo3(signature = (text, format = "auto", budget = None))]
fn gamegraph_solve(
    py: Python<'_>,
    text: String,
    format: &str,
    budget: Option<u64>,
) -> PyResult<String> {
    use gamesweep::gamegraph::{solve_text_with, Format};
    if text.len() as u64 > ops_solve::MAX_GAME_FILE_BYTES {
        return Err(err(format!(
            "game file larger than {} bytes (64 MiB)",
            ops_solve::MAX_GAME_FILE_BYTES
        )));
    }
    let format = match format {
        "auto" => Format::Auto,
        "text" => Format::Text,
        "json" => Format::Json,
        f => {
            return Err(err(format!(
                "format `{f}`: expected `auto`, `text` or `json`"
            )))
        }
    };
    let branches = ops_solve::gamegraph::kernel_branches(budget);
    let r = interruptible(py, move || {
        solve_text_with(&text, format, branches)
            .map_err(|e| e.to_string())
            .and_then(|r| serde_json::to_string(&r).map_err(|e| e.to_string()))
    })?;
    r.map_err(err)
}

/// `solve subtraction --set S --upto N --json`, as JSON text.
#[pyfunction]
#[pyo3(signature = (set, upto = 40))]
fn subtraction(py: Python<'_>, set: Vec<u32>, upto: u64) -> PyResult<String> {
    let r = interruptible(py, move || {
        ops_solve::subtraction(&set, upto)
            .map_err(|e| e.to_string())
            .and_then(|r| serde_json::to_string(&r).map_err(|e| e.to_string()))
    })?;
    r.map_err(err)
}

/// graph6 of the graph on `n` vertices with `edges`.
#[pyfunction]
fn graph6_encode(n: usize, edges: Vec<(usize, usize)>) -> PyResult<String> {
    if n > 1 << 20 {
        return Err(err(format!("{n} vertices: too many for graph6 here")));
    }
    let mut adj = std::collections::HashSet::with_capacity(edges.len());
    for (u, v) in edges {
        if u >= n || v >= n {
            return Err(err(format!("edge ({u}, {v}): a vertex is not below {n}")));
        }
        if u == v {
            return Err(err(format!("edge ({u}, {v}): a loop (graph6 has none)")));
        }
        adj.insert((u.min(v), u.max(v)));
    }
    Ok(graph6::encode_with(n, |u, v| {
        adj.contains(&(u.min(v), u.max(v)))
    }))
}

/// digraph6 of the digraph on `n` vertices with `arcs`.
#[pyfunction]
fn digraph6_encode(n: usize, arcs: Vec<(usize, usize)>) -> PyResult<String> {
    if n > 1 << 20 {
        return Err(err(format!("{n} vertices: too many for digraph6 here")));
    }
    let mut set = std::collections::HashSet::with_capacity(arcs.len());
    for (u, v) in arcs {
        if u >= n || v >= n {
            return Err(err(format!("arc ({u}, {v}): a vertex is not below {n}")));
        }
        set.insert((u, v));
    }
    Ok(graph6::encode_digraph_with(n, |u, v| set.contains(&(u, v))))
}

/// sparse6 of the graph on `n` vertices with `edges` (as nauty's `ntos6`).
#[pyfunction]
fn sparse6_encode(n: usize, edges: Vec<(usize, usize)>) -> PyResult<String> {
    if n > 1 << 20 {
        return Err(err(format!("{n} vertices: too many for sparse6 here")));
    }
    for &(u, v) in &edges {
        if u >= n || v >= n {
            return Err(err(format!("edge ({u}, {v}): a vertex is not below {n}")));
        }
        if u == v {
            return Err(err(format!(
                "edge ({u}, {v}): a loop (the games need simple graphs)"
            )));
        }
    }
    Ok(gamesweep::graph::sparse6::encode(n, &edges))
}

/// `(n, edges)` of a graph6 (or sparse6) text.
#[pyfunction]
fn graph6_decode(g6: &str) -> PyResult<(usize, Vec<(usize, usize)>)> {
    let t = graph6::strip_header(g6.trim());
    let format = if t.starts_with([':', ';']) {
        "sparse6"
    } else {
        "graph6"
    };
    graph6::decode(t).map_err(|e| err(format!("bad {format} `{t:.40}`: {e}")))
}

/// What the kind of a `results.json` shows (`Kind::present`, the report's
/// figures and drawn positions), as JSON: `{"kind", "witnesses": [{"role",
/// "code", "start", "colouring", "value", "caption", "vertices", "edges"}],
/// "charts": [{"stem", "title", "x_label", "y_label", "series": [{"name",
/// "points"}]}]}` (a bar chart is one series named after its title).
#[pyfunction]
fn present(results_json: &str) -> PyResult<String> {
    use gamesweep::sweep::present::{Marks, Plot, Role};
    #[derive(serde::Deserialize)]
    struct Head {
        kind: String,
    }
    let head: Head = serde_json::from_str(results_json)
        .map_err(|e| err(format!("results.json: no `kind` field: {e}")))?;
    let kind = gamesweep::kinds::find(&head.kind).map_err(err)?;
    let p = kind.present(results_json).map_err(err)?.sorted();
    let witnesses: Vec<serde_json::Value> = p
        .witnesses
        .iter()
        .map(|w| {
            let (start, colouring) = match &w.marks {
                Marks::Start(s) => (Some(s.clone()), None),
                Marks::Colouring(c) => (None, Some(c.clone())),
                Marks::None => (None, None),
            };
            let role = match w.role {
                Role::Counterexample => "counterexample",
                Role::Smallest => "smallest",
                Role::Collected => "collected",
            };
            serde_json::json!({
                "role": role,
                "code": w.code,
                "start": start,
                "colouring": colouring,
                "value": w.value,
                "caption": w.caption,
                "vertices": w.size.0,
                "edges": w.size.1,
            })
        })
        .collect();
    let charts: Vec<serde_json::Value> = p
        .charts
        .iter()
        .map(|c| {
            let series = match &c.plot {
                Plot::Lines(s) => s
                    .iter()
                    .map(|s| serde_json::json!({"name": s.name, "points": s.points}))
                    .collect(),
                Plot::Bars(b) => vec![serde_json::json!({"name": c.title, "points": b})],
            };
            serde_json::json!({
                "stem": c.stem,
                "title": c.title,
                "x_label": c.x_label,
                "y_label": c.y_label,
                "series": series,
            })
        })
        .collect();
    Ok(
        serde_json::json!({"kind": head.kind, "witnesses": witnesses, "charts": charts})
            .to_string(),
    )
}

/// graph6 lines arriving from the generator thread, in batches.
const BATCH: usize = 4096;

/// The lazy iterator of `graphs()`: a thread walks the generation tree
/// piece by piece exactly as `gamesweep graphs` does and sends batches of
/// graph6 lines through a bounded channel; dropping the iterator stops it
/// at the end of its piece.
#[pyclass(module = "gamesweep._native")]
struct GraphIter {
    rx: std::sync::Mutex<mpsc::Receiver<Vec<String>>>,
    batch: std::vec::IntoIter<String>,
}

#[pymethods]
impl GraphIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<String>> {
        loop {
            if let Some(s) = self.batch.next() {
                return Ok(Some(s));
            }
            let rx = &self.rx;
            let got = py.detach(|| match rx.lock() {
                Ok(rx) => rx.recv_timeout(SIGNAL_POLL),
                Err(_) => Err(mpsc::RecvTimeoutError::Disconnected),
            });
            match got {
                Ok(b) => self.batch = b.into_iter(),
                Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }
}

/// `edges` of `graphs()`: a number of edges, a `(min, max)` pair (`max`
/// `None`: no upper bound) or geng's `MINE:MAXE` text.
#[derive(FromPyObject)]
enum Edges {
    Exactly(u32),
    Range((u32, Option<u32>)),
    Text(String),
}

impl Edges {
    fn range(self) -> Result<ops_graphs::EdgeRange, String> {
        use ops_graphs::EdgeRange;
        match self {
            Edges::Exactly(e) => Ok(EdgeRange { min: e, max: e }),
            Edges::Range((min, max)) => {
                let max = max.unwrap_or(u32::MAX);
                if max < min {
                    return Err(format!(
                        "edges ({min}, {max}): the most edges is less than the fewest"
                    ));
                }
                Ok(EdgeRange { min, max })
            }
            Edges::Text(t) => ops_graphs::parse_edges(&t).map_err(|e| e.to_string()),
        }
    }
}

/// `gamesweep graphs N [MINE:MAXE] [RES/MOD] [-c] [-d D] [-D D] [-s]` as a
/// lazy iterator of graph6 (or sparse6) lines.
#[pyfunction]
#[pyo3(signature = (n, connected = true, part = None, min_degree = None, max_degree = None, edges = None, sparse6 = false))]
fn graphs(
    n: u32,
    connected: bool,
    part: Option<&str>,
    min_degree: Option<u32>,
    max_degree: Option<u32>,
    edges: Option<Edges>,
    sparse6: bool,
) -> PyResult<GraphIter> {
    use gamesweep::gen::WalkOptions;
    use ops_graphs::{encode, walk, Degrees, Filter};
    if !(1..=16).contains(&n) {
        return Err(err(format!("n {n}: the number of vertices is 1..=16")));
    }
    let n = n as usize;
    let part = part.map(ops_graphs::parse_shard).transpose().map_err(err)?;
    let deg = Degrees {
        min: min_degree.unwrap_or(0),
        max: max_degree.unwrap_or(u32::MAX),
    };
    let range = edges
        .map(Edges::range)
        .transpose()
        .map_err(err)?
        .unwrap_or(ops_graphs::EdgeRange::ALL);
    let opts = WalkOptions {
        connected_only: connected,
        min_n: n,
    };
    let (tx, rx) = mpsc::sync_channel::<Vec<String>>(4);
    std::thread::Builder::new()
        .name("gamesweep-graphs".into())
        .spawn(move || {
            let mut batch = Vec::with_capacity(BATCH);
            let mut closed = false;
            let filter = Filter {
                deg,
                edges: range,
                class: None,
            };
            for piece in ops_graphs::pieces(n, part) {
                walk(n, &piece, opts, filter, &mut |g| {
                    if closed {
                        return;
                    }
                    batch.push(encode(g, sparse6));
                    if batch.len() == BATCH {
                        let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                        closed = tx.send(full).is_err();
                    }
                });
                if closed {
                    return;
                }
            }
            if !batch.is_empty() {
                let _ = tx.send(batch);
            }
        })
        .map_err(|e| err(format!("cannot start the generator thread: {e}")))?;
    Ok(GraphIter {
        rx: std::sync::Mutex::new(rx),
        batch: Vec::new().into_iter(),
    })
}

/// The connection options of the CLI (`--coordinator`, `--token-file`,
/// `--tls-ca`, `--tls-cert`, `--tls-key`), parsed by the CLI's own
/// definition so that the same environment variables fill what is not given.
fn conn_words(
    url: Option<String>,
    token_file: Option<String>,
    tls: (Option<String>, Option<String>, Option<String>),
) -> Vec<String> {
    let mut w = Vec::new();
    for (flag, v) in [
        ("--coordinator", url),
        ("--token-file", token_file),
        ("--tls-ca", tls.0),
        ("--tls-cert", tls.1),
        ("--tls-key", tls.2),
    ] {
        if let Some(v) = v {
            w.push(flag.to_string());
            w.push(v);
        }
    }
    w
}

fn conn(words: Vec<String>) -> PyResult<gamesweep_coordinator::connect::Conn> {
    use gamesweep_coordinator::connect::Conn;
    let m = Conn::args(clap::Command::new("gamesweep"))
        .try_get_matches_from(std::iter::once("gamesweep".to_string()).chain(words))
        .map_err(|e| err(e.to_string().trim().trim_start_matches("error: ")))?;
    Ok(Conn::from_matches(&m))
}

/// An error of a client call, as the CLI prints it.
fn cli_err(e: anyhow::Error) -> PyErr {
    err(format!("{e:#}"))
}

/// The connection options (`--coordinator`, `--token-file`, `--tls-*`) as the CLI reads them.
fn connection(
    url: Option<String>,
    token_file: Option<String>,
    tls: (Option<String>, Option<String>, Option<String>),
) -> PyResult<gamesweep_coordinator::connect::Conn> {
    conn(conn_words(url, token_file, tls))
}

/// `gamesweep status [ID] --json`.
#[pyfunction]
#[pyo3(signature = (id = None, url = None, token_file = None, tls_ca = None, tls_cert = None, tls_key = None))]
fn coordinator_status(
    py: Python<'_>,
    id: Option<String>,
    url: Option<String>,
    token_file: Option<String>,
    tls_ca: Option<String>,
    tls_cert: Option<String>,
    tls_key: Option<String>,
) -> PyResult<String> {
    use gamesweep_coordinator::ops::remote::{status, Session};
    let c = connection(url, token_file, (tls_ca, tls_cert, tls_key))?;
    let r = interruptible(py, move || -> anyhow::Result<String> {
        let mut s = Session::connect(&c)?;
        status::json(&status::status(&mut s, &status::StatusRequest { id })?)
    })?;
    r.map_err(cli_err)
}

/// `gamesweep launch KIND [params] [--name ID] [--shards K] ...`: the words
/// after `launch` (a kind's parameters are its own); answers `{"sweep_id",
/// "shards", "existing"}`.
#[pyfunction]
#[pyo3(signature = (words, url = None, token_file = None, tls_ca = None, tls_cert = None, tls_key = None))]
fn coordinator_launch(
    py: Python<'_>,
    words: Vec<String>,
    url: Option<String>,
    token_file: Option<String>,
    tls_ca: Option<String>,
    tls_cert: Option<String>,
    tls_key: Option<String>,
) -> PyResult<String> {
    use gamesweep_coordinator::ops::remote::{launch, Session};
    let mut words = words;
    words.extend(conn_words(url, token_file, (tls_ca, tls_cert, tls_key)));
    let r = interruptible(py, move || -> anyhow::Result<String> {
        let (spec, c) = launch::spec_from_words(&words)?;
        let mut s = Session::connect(&c)?;
        Ok(serde_json::to_value(launch::launch(&mut s, spec)?)?.to_string())
    })?;
    r.map_err(cli_err)
}

/// `gamesweep report ID --out DIR`: fetch a finished sweep's results and
/// write them (results.json, report.md, figures, report.html,
/// provenance.json) into `out`; with `partial`, `report ID --partial --out
/// DIR`: a sweep not finished, its done shards rendered and marked partial
/// (results.partial.json, report.md, report.html, figures). What the CLI
/// says of it goes to stderr, as the CLI's.
#[pyfunction]
#[pyo3(signature = (id, out, partial = false, url = None, token_file = None, tls_ca = None, tls_cert = None, tls_key = None))]
#[allow(clippy::too_many_arguments)]
fn coordinator_report(
    py: Python<'_>,
    id: String,
    out: String,
    partial: bool,
    url: Option<String>,
    token_file: Option<String>,
    tls_ca: Option<String>,
    tls_cert: Option<String>,
    tls_key: Option<String>,
) -> PyResult<()> {
    use gamesweep_coordinator::ops::report::{self, ReportRequest};
    let c = connection(url, token_file, (tls_ca, tls_cert, tls_key))?;
    let r = interruptible(py, move || -> anyhow::Result<()> {
        let req = ReportRequest {
            id,
            out: out.into(),
        };
        let done = if partial {
            report::partial(&c, &req)?
        } else {
            report::fetch(&c, &req)?
        };
        for line in &done.lines {
            eprintln!("{line}");
        }
        Ok(())
    })?;
    r.map_err(cli_err)
}

/// `gamesweep cancel ID`, `pause ID` or `resume ID` (`action`).
#[pyfunction]
#[pyo3(signature = (action, id, url = None, token_file = None, tls_ca = None, tls_cert = None, tls_key = None))]
#[allow(clippy::too_many_arguments)]
fn coordinator_act(
    py: Python<'_>,
    action: &str,
    id: String,
    url: Option<String>,
    token_file: Option<String>,
    tls_ca: Option<String>,
    tls_cert: Option<String>,
    tls_key: Option<String>,
) -> PyResult<()> {
    use gamesweep_coordinator::ops::remote::act::{act, ActRequest, Action};
    use gamesweep_coordinator::ops::remote::Session;
    let action: Action = action.parse().map_err(err)?;
    let c = connection(url, token_file, (tls_ca, tls_cert, tls_key))?;
    let r = interruptible(py, move || -> anyhow::Result<()> {
        let mut s = Session::connect(&c)?;
        act(&mut s, &ActRequest { action, id })?;
        Ok(())
    })?;
    r.map_err(cli_err)
}

/// `gamesweep project ID [--cores C,...] [--out DIR] --json`: the
/// projection's JSON text (and, with `out`, projection.json and
/// projection.md written there).
#[pyfunction]
#[pyo3(signature = (id, cores, out = None, url = None, token_file = None, tls_ca = None, tls_cert = None, tls_key = None))]
#[allow(clippy::too_many_arguments)]
fn coordinator_project(
    py: Python<'_>,
    id: String,
    cores: Vec<u32>,
    out: Option<String>,
    url: Option<String>,
    token_file: Option<String>,
    tls_ca: Option<String>,
    tls_cert: Option<String>,
    tls_key: Option<String>,
) -> PyResult<String> {
    use gamesweep_coordinator::ops::remote::project::{project, ProjectRequest};
    use gamesweep_coordinator::ops::remote::Session;
    let c = connection(url, token_file, (tls_ca, tls_cert, tls_key))?;
    let r = interruptible(py, move || -> anyhow::Result<String> {
        let mut s = Session::connect(&c)?;
        let req = ProjectRequest {
            id,
            cores,
            out: out.map(Into::into),
        };
        Ok(project(&mut s, &req)?.projection.json)
    })?;
    r.map_err(cli_err)
}

/// `gamesweep audit --last N --json`.
#[pyfunction]
#[pyo3(signature = (last, url = None, token_file = None, tls_ca = None, tls_cert = None, tls_key = None))]
fn coordinator_audit(
    py: Python<'_>,
    last: u32,
    url: Option<String>,
    token_file: Option<String>,
    tls_ca: Option<String>,
    tls_cert: Option<String>,
    tls_key: Option<String>,
) -> PyResult<String> {
    use gamesweep_coordinator::ops::remote::audit::{audit, AuditRequest};
    use gamesweep_coordinator::ops::remote::Session;
    let c = connection(url, token_file, (tls_ca, tls_cert, tls_key))?;
    let r = interruptible(py, move || -> anyhow::Result<String> {
        let mut s = Session::connect(&c)?;
        Ok(serde_json::to_string(&audit(
            &mut s,
            AuditRequest { last },
        )?)?)
    })?;
    r.map_err(cli_err)
}

/// `gamesweep token issue|list|revoke` (`action`): `issue` the credential
/// `name` with `role` (`worker`, the default, or `read`), its secret
/// written to the new file `out` if given, answering `{"fingerprint",
/// "name", "role", "secret"}` (`secret` null when written to `out`);
/// `list` what `token list --json` prints; `revoke` the credential `name`,
/// answering null.
#[pyfunction]
#[pyo3(signature = (action, name = None, role = None, out = None, url = None, token_file = None, tls_ca = None, tls_cert = None, tls_key = None))]
#[allow(clippy::too_many_arguments)]
fn coordinator_token(
    py: Python<'_>,
    action: &str,
    name: Option<String>,
    role: Option<String>,
    out: Option<String>,
    url: Option<String>,
    token_file: Option<String>,
    tls_ca: Option<String>,
    tls_cert: Option<String>,
    tls_key: Option<String>,
) -> PyResult<String> {
    use gamesweep_coordinator::ops::remote::token::{self, IssueRequest, Role};
    use gamesweep_coordinator::ops::remote::Session;
    enum Act {
        Issue(IssueRequest),
        List,
        Revoke(String),
    }
    let named = |name: Option<String>| name.ok_or_else(|| err(format!("token {action}: no name")));
    let act = match action {
        "issue" => Act::Issue(IssueRequest {
            name: named(name)?,
            role: role
                .as_deref()
                .unwrap_or("worker")
                .parse::<Role>()
                .map_err(err)?,
            out: out.map(Into::into),
        }),
        "list" => Act::List,
        "revoke" => Act::Revoke(named(name)?),
        other => return Err(err(format!("no token action `{other}`"))),
    };
    let c = connection(url, token_file, (tls_ca, tls_cert, tls_key))?;
    let r = interruptible(py, move || -> anyhow::Result<String> {
        let mut s = Session::connect(&c)?;
        Ok(match act {
            // Through `serde_json::Value`, whose maps sort their keys.
            Act::Issue(req) => serde_json::to_value(token::issue(&mut s, &req)?)?.to_string(),
            Act::List => token::list_json(&token::list(&mut s)?, false)?,
            Act::Revoke(name) => {
                token::revoke(&mut s, &name)?;
                "null".into()
            }
        })
    })?;
    r.map_err(cli_err)
}

/// `gamesweep export ID FILE [--store DIR] [--since PATH ...]` by the
/// CLI's own job (`ops::export`): sweep `id` from the coordinator, or from
/// the stopped store `store` (then only the shards the export files or
/// folders `since` do not hold), written to `file`; answers what the file
/// written holds: `{"sweep_id", "kind", "file", "bytes", "shards", "done",
/// "signer"}` (`signer`: the fingerprint of the key that signed it, `""`
/// unsigned).
#[pyfunction]
#[pyo3(signature = (id, file, *, store = None, since = Vec::new(), url = None, token_file = None, tls_ca = None, tls_cert = None, tls_key = None))]
#[allow(clippy::too_many_arguments)]
fn coordinator_export(
    py: Python<'_>,
    id: String,
    file: std::path::PathBuf,
    store: Option<std::path::PathBuf>,
    since: Vec<std::path::PathBuf>,
    url: Option<String>,
    token_file: Option<String>,
    tls_ca: Option<String>,
    tls_cert: Option<String>,
    tls_key: Option<String>,
) -> PyResult<String> {
    use gamesweep_coordinator::ops::export::{export, ExportRequest, Source};
    let from = match store {
        Some(dir) => Source::Store { dir, since },
        None if !since.is_empty() => {
            return Err(err("since= needs store= (a stopped coordinator's store)"))
        }
        None => Source::Coordinator(connection(url, token_file, (tls_ca, tls_cert, tls_key))?),
    };
    let r = ExportRequest { id, file, from };
    let out = interruptible_on(py, STORE_THREAD, move || -> anyhow::Result<String> {
        Ok(serde_json::to_string(&export(&r, &|_| {})?)?)
    })?;
    out.map_err(cli_err)
}

/// A share keyword (`0.01`, `"1%"`) as millionths, by `parse`; the error
/// names the keyword `name` as the CLI's names its option.
fn share_keyword(
    name: &str,
    text: &str,
    parse: impl FnOnce(&str) -> Result<u32, String>,
) -> PyResult<u32> {
    parse(text).map_err(|e| err(format!("invalid value '{text}' for {name}=: {e}")))
}

/// `gamesweep import FILE [--store DIR] [--name ID] ...` by the CLI's own
/// job (`ops::import`): into the coordinator, or into the stopped store
/// `store` (then trusting the key files `trust_key` too, and taking in
/// another solver build's results with `accept_solver_change`); answers
/// what the import did: `{"sweep_id", "shards", "done", "signer",
/// "trusted", "merged", "added", "confirmed", "conflicts"}`.
#[pyfunction]
#[pyo3(signature = (file, *, store = None, name = None, trust_key = Vec::new(), require_signature = false, accept_solver_change = false, replicate_fraction = None, url = None, token_file = None, tls_ca = None, tls_cert = None, tls_key = None))]
#[allow(clippy::too_many_arguments)]
fn coordinator_import(
    py: Python<'_>,
    file: std::path::PathBuf,
    store: Option<std::path::PathBuf>,
    name: Option<String>,
    trust_key: Vec<std::path::PathBuf>,
    require_signature: bool,
    accept_solver_change: bool,
    replicate_fraction: Option<String>,
    url: Option<String>,
    token_file: Option<String>,
    tls_ca: Option<String>,
    tls_cert: Option<String>,
    tls_key: Option<String>,
) -> PyResult<String> {
    use gamesweep_coordinator::args::parse_replicate_fraction;
    use gamesweep_coordinator::ops::import::{import, ImportRequest, Target};
    let verify_ppm = replicate_fraction
        .map(|t| share_keyword("replicate_fraction", &t, parse_replicate_fraction))
        .transpose()?;
    let into = match store {
        Some(dir) => Target::Store {
            dir,
            trust_key,
            accept_solver_change,
        },
        None => {
            for (what, given) in [
                ("trust_key=", !trust_key.is_empty()),
                ("accept_solver_change=True", accept_solver_change),
            ] {
                if given {
                    return Err(err(format!("{what} needs store= (a running coordinator trusts its own key and those of `serve --trust-key` only, and refuses another solver build)")));
                }
            }
            Target::Coordinator(connection(url, token_file, (tls_ca, tls_cert, tls_key))?)
        }
    };
    let r = ImportRequest {
        file,
        into,
        name,
        require_signature,
        verify_ppm,
    };
    let out = interruptible_on(py, STORE_THREAD, move || -> anyhow::Result<String> {
        Ok(serde_json::to_string(&import(&r, &|_| {})?)?)
    })?;
    out.map_err(cli_err)
}

/// `gamesweep key show --store DIR` (and, with `out`, `key export --store
/// DIR --out FILE`) by the CLI's own job (`ops::key`): `{"store",
/// "fingerprint", "key"}`, `key` the key line of a key file.
#[pyfunction]
#[pyo3(signature = (store, out = None))]
fn key(
    py: Python<'_>,
    store: std::path::PathBuf,
    out: Option<std::path::PathBuf>,
) -> PyResult<String> {
    use gamesweep_coordinator::ops::key::{key, KeyRequest};
    let r = KeyRequest { store, out };
    let got = interruptible_on(py, STORE_THREAD, move || -> anyhow::Result<String> {
        Ok(serde_json::to_string(&key(&r)?)?)
    })?;
    got.map_err(cli_err)
}

/// `gamesweep verify FILE --sample F [--seed S] [--threads T] [--trust-key
/// KEY ...] [--require-signature] [--record DIR]` by the CLI's own job (`ops::verify`):
/// who signed the export file, its plan re-derived, a seeded sample
/// (`sample`: `"0.05"`, `"5%"` or `"1"`) of its finished shards re-run
/// here; answers what was found: `{"file", "sweep_id", "kind",
/// "signature", "signer", "trusted", "finished", "sample", "seed",
/// "threads", "rerun", "mismatches": [{"shard", "why"}], "ok", "seconds",
/// "summary"}` (a mismatch is a finding, not an error). On Ctrl-C the
/// re-runs stop at their next check.
#[pyfunction]
#[pyo3(signature = (file, *, sample, seed = 0, threads = None, trust_key = Vec::new(), require_signature = false, record = None))]
#[allow(clippy::too_many_arguments)] // the CLI's options, one keyword each
fn verify(
    py: Python<'_>,
    file: std::path::PathBuf,
    sample: &str,
    seed: u64,
    threads: Option<u32>,
    trust_key: Vec<std::path::PathBuf>,
    require_signature: bool,
    record: Option<std::path::PathBuf>,
) -> PyResult<String> {
    use gamesweep_coordinator::ops::verify::{verify, VerifyRequest};
    use std::sync::atomic::{AtomicBool, Ordering};
    let sample_ppm = share_keyword("sample", sample, |t| {
        gamesweep_engine::sample::parse_fraction(t).map_err(|e| e.to_string())
    })?;
    if threads.is_some_and(|t| !(1..=1024).contains(&t)) {
        return Err(err(format!(
            "threads={}: expected a thread count in 1..=1024",
            threads.unwrap_or_default()
        )));
    }
    let r = VerifyRequest {
        file,
        sample_ppm,
        seed,
        threads,
        trust_key,
        require_signature,
        record,
    };
    let cancel = Arc::new(AtomicBool::new(false));
    // Stops the re-runs however the call is left (Ctrl-C included).
    struct CancelOnDrop(Arc<AtomicBool>);
    impl Drop for CancelOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let _cancel = CancelOnDrop(cancel.clone());
    let out = interruptible_on(py, "gamesweep-verify", move || -> anyhow::Result<String> {
        let v = verify(&r, &cancel, |_| {})?;
        let mut j = serde_json::to_value(&v)?;
        j["ok"] = v.ok().into();
        j["summary"] = v.summary().into();
        Ok(j.to_string())
    })?;
    out.map_err(cli_err)
}

/// `gamesweep store check DIR` by the CLI's own check: a stopped
/// coordinator's store (or a `run` folder's `store/`), every value's
/// checksum, every result decoded, the journal of acknowledged work against
/// the store; answers what `store check` prints, as `{"store",
/// "damaged_values", "journal_records", "journal_sweeps", "acknowledged",
/// "torn_bytes", "sweeps": [{"sweep_id", "kind", "launch", "shards",
/// "stored", "acknowledged", "missing", "differing", "unjournaled",
/// "undecodable"}], "problems", "ok", "text"}` (damage is a finding, not an
/// error).
#[pyfunction]
fn store_check(py: Python<'_>, dir: String) -> PyResult<String> {
    use gamesweep_coordinator::ops::store::check_store;
    let r = interruptible_on(py, STORE_THREAD, move || -> anyhow::Result<String> {
        let c = check_store(std::path::Path::new(&dir))?;
        let mut v = serde_json::to_value(&c)?;
        v["ok"] = c.ok().into();
        v["text"] = c.text().into();
        Ok(v.to_string())
    })?;
    r.map_err(cli_err)
}

/// The games of the graph-game layer (`gamesweep::kinds::games()`), as
/// JSON: `[{"name", "title", "about", "impartial", "directed",
/// "max_vertices"}]`.
#[pyfunction]
fn games() -> String {
    let v: Vec<serde_json::Value> = gamesweep::kinds::games()
        .iter()
        .map(|g| {
            serde_json::json!({
                "name": g.name(),
                "title": g.title(),
                "about": g.about(),
                "impartial": g.impartial(),
                "directed": g.directed(),
                "max_vertices": g.max_vertices(),
            })
        })
        .collect();
    serde_json::Value::Array(v).to_string()
}

/// The board of game `name` on `code` (graph6, or digraph6 for a game on
/// digraphs) as `gamesweep explore` shows it: the start `start` (None:
/// every start valued, or the only one), the moves `moves` (option
/// indices) from it, `first` (`"L"` or `"R"`) moving first in a partizan
/// game, within `budget` positions (0: unlimited), as JSON
/// (`gamesweep::families::graph_game::board::BoardView`).
#[pyfunction]
#[pyo3(signature = (name, code, start = None, moves = Vec::new(), first = "L", budget = gamesweep::families::graph_game::board::BOARD_BUDGET as u64))]
fn game_board(
    py: Python<'_>,
    name: &str,
    code: String,
    start: Option<usize>,
    moves: Vec<usize>,
    first: &str,
    budget: u64,
) -> PyResult<String> {
    use gamesweep::families::graph_game::board::{Line, Refused};
    use gamesweep::families::graph_game::Side;
    let all = gamesweep::kinds::games();
    let Some(game) = all.iter().copied().find(|g| g.name() == name) else {
        return Err(err(format!(
            "no game `{name}` on the graph-game layer (games: {})",
            all.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ")
        )));
    };
    let first = match first {
        "L" => Side::Left,
        "R" => Side::Right,
        f => {
            return Err(err(format!(
                "first={f:?}: expected \"L\" (Left, Blue) or \"R\" (Right, Red)"
            )))
        }
    };
    let line = Line {
        start,
        moves,
        first: Some(first),
    };
    let limit = if budget == 0 {
        usize::MAX
    } else {
        usize::try_from(budget).unwrap_or(usize::MAX)
    };
    let r = interruptible(py, move || {
        game.board(&code, &line, limit)
            .map_err(|e| match e {
                Refused::Budget(m) => format!(
                    "{m}; pass --budget {} to allow more, --budget 0 for unlimited",
                    budget.saturating_mul(10)
                ),
                Refused::Input(m) => m,
            })
            .and_then(|b| serde_json::to_string(&b).map_err(|e| e.to_string()))
    })?;
    r.map_err(err)
}

/// `gamesweep kinds` as JSON: `[{"name", "about", "params": [{"name",
/// "help", "min", "max", "default"}]}]` (`default` null: required).
#[pyfunction]
fn kinds() -> String {
    let v: Vec<serde_json::Value> = gamesweep::kinds::registry()
        .iter()
        .map(|k| {
            let params: Vec<serde_json::Value> = k
                .params()
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "name": p.name,
                        "help": p.help,
                        "min": p.min,
                        "max": p.max,
                        "default": p.default,
                    })
                })
                .collect();
            serde_json::json!({"name": k.name(), "about": k.about(), "params": params})
        })
        .collect();
    serde_json::Value::Array(v).to_string()
}

/// `gamesweep run KIND [params] [options]`: the words after `run` (a
/// kind's parameters are its own, so they stay words), parsed into an
/// `ops::run` request; runs the sweep on this machine, prints what the CLI
/// prints at the end to standard error and answers the folder written
/// (`--out`, or the CLI's default).
#[pyfunction]
fn run(py: Python<'_>, words: Vec<String>) -> PyResult<String> {
    use gamesweep_coordinator::ops::run::{run, RunRequest};
    // `run --help` (or a word clap reads as `--help`) would print and exit
    // the process: refused before clap sees it.
    if let Some(w) = words
        .iter()
        .find(|w| matches!(w.as_str(), "-h" | "--help" | "help"))
    {
        return Err(err(format!("`{w}` is not a run option")));
    }
    let r = interruptible_on(py, "gamesweep-run", move || -> anyhow::Result<String> {
        let o = run(&RunRequest::from_words(&words)?)?;
        for line in o.messages() {
            eprintln!("{line}");
        }
        o.checks_passed()?;
        Ok(o.out.to_string_lossy().into_owned())
    })?;
    r.map_err(cli_err)
}

/// The canonical form of a graph (graph6 or sparse6, at most 32 vertices)
/// by the generator's own canonical labelling: the graph6 of the graph
/// relabelled so that isomorphic graphs, and only they, give the same text.
#[pyfunction]
fn canonical(g6: &str) -> PyResult<String> {
    let g = small_graph(g6)?;
    Ok(graph6::encode_bitgraph(
        &gamesweep::gen::canon::canonical_form(&g),
    ))
}

/// [`canonical`]'s graph6 and a labelling that gives it: the canonical
/// index of every vertex (vertex `v` is `labelling[v]` in the canonical
/// form; for a graph with automorphisms, one of several such labellings).
#[pyfunction]
fn canonical_labelling(py: Python<'_>, g6: &str) -> PyResult<(String, Vec<usize>)> {
    let g = small_graph(g6)?;
    let r = interruptible(py, move || {
        let c = gamesweep::gen::canon::canonical_form(&g);
        isomorphism(&g, &c).map(|perm| (graph6::encode_bitgraph(&c), perm))
    })?;
    // `c` is `g` relabelled, so an isomorphism exists and the search finds it.
    r.ok_or_else(|| err("internal error: no map from the graph to its canonical form"))
}

/// An isomorphism `perm` from `g` onto `h` (`g.permuted(&perm) == h`), or
/// `None` if there is none: individualisation and colour refinement on
/// both graphs at once (colours named alike in both, so a vertex of `g` can
/// only go to a vertex of `h` of its colour), each complete map checked.
fn isomorphism(
    g: &gamesweep::graph::BitGraph,
    h: &gamesweep::graph::BitGraph,
) -> Option<Vec<usize>> {
    let n = g.n();
    if h.n() != n || g.edges().count() != h.edges().count() {
        return None;
    }
    let start = (vec![0; n], vec![0; n]);
    search_iso(g, h, refine(g, h, start)?)
}

type Colours = (Vec<usize>, Vec<usize>);

/// Refine the colourings of `g` and `h` (`c.0`, `c.1`) until stable: a
/// vertex's new colour is its colour and the multiset of its neighbours',
/// numbered alike in both graphs; `None` when the two colourings' class
/// sizes differ (no isomorphism respects them).
fn refine(
    g: &gamesweep::graph::BitGraph,
    h: &gamesweep::graph::BitGraph,
    mut c: Colours,
) -> Option<Colours> {
    let n = g.n();
    let classes = |c: &[usize]| c.iter().collect::<std::collections::BTreeSet<_>>().len();
    loop {
        let before = classes(&c.0);
        let mut names = std::collections::BTreeMap::new();
        let sig = |gr: &gamesweep::graph::BitGraph, col: &[usize], v: usize| {
            let mut ns: Vec<usize> = (0..n)
                .filter(|&u| gr.has_edge(v, u))
                .map(|u| col[u])
                .collect();
            ns.sort_unstable();
            (col[v], ns)
        };
        let sg: Vec<_> = (0..n).map(|v| sig(g, &c.0, v)).collect();
        let sh: Vec<_> = (0..n).map(|v| sig(h, &c.1, v)).collect();
        for s in sg.iter().chain(&sh) {
            let next = names.len();
            names.entry(s.clone()).or_insert(next);
        }
        let new = (
            sg.iter().map(|s| names[s]).collect::<Vec<_>>(),
            sh.iter().map(|s| names[s]).collect::<Vec<_>>(),
        );
        let mut count = vec![(0usize, 0usize); names.len()];
        for v in 0..n {
            count[new.0[v]].0 += 1;
            count[new.1[v]].1 += 1;
        }
        if count.iter().any(|&(a, b)| a != b) {
            return None;
        }
        let done = classes(&new.0) == before;
        c = new;
        if done {
            return Some(c);
        }
    }
}

fn search_iso(
    g: &gamesweep::graph::BitGraph,
    h: &gamesweep::graph::BitGraph,
    c: Colours,
) -> Option<Vec<usize>> {
    let n = g.n();
    let size = |col: usize| c.0.iter().filter(|&&x| x == col).count();
    // The first vertex of `g` in a smallest class of more than one.
    let Some(v) = (0..n)
        .filter(|&v| size(c.0[v]) > 1)
        .min_by_key(|&v| (size(c.0[v]), v))
    else {
        // Discrete: the map is by colour.
        let mut at = vec![0; n];
        for (w, &col) in c.1.iter().enumerate() {
            at[col] = w;
        }
        let perm: Vec<usize> = c.0.iter().map(|&col| at[col]).collect();
        return (g.permuted(&perm) == *h).then_some(perm);
    };
    // A colour neither colouring uses: `v` and `w` individualised.
    let fresh = c.0.iter().chain(&c.1).copied().max().unwrap_or(0) + 1;
    for w in (0..n).filter(|&w| c.1[w] == c.0[v]) {
        let mut d = c.clone();
        d.0[v] = fresh;
        d.1[w] = fresh;
        if let Some(found) = refine(g, h, d).and_then(|d| search_iso(g, h, d)) {
            return Some(found);
        }
    }
    None
}

/// A graph (graph6 or sparse6) of at most [`gamesweep::graph::BitGraph::MAX_N`]
/// vertices, or a one-line error.
fn small_graph(g6: &str) -> PyResult<gamesweep::graph::BitGraph> {
    let text = graph6::strip_header(g6.trim());
    let (n, edges) = if text.starts_with(':') {
        gamesweep::graph::sparse6::decode(text)
    } else {
        graph6::decode(text)
    }
    .map_err(|e| err(format!("bad graph `{}`: {e}", short(text))))?;
    if n > gamesweep::graph::BitGraph::MAX_N {
        return Err(err(format!(
            "a graph on {n} vertices: the canonical labelling takes at most {}",
            gamesweep::graph::BitGraph::MAX_N
        )));
    }
    Ok(gamesweep::graph::BitGraph::from_edges(n, &edges))
}

/// At most 40 characters of `s`, for an error message.
fn short(s: &str) -> String {
    let mut t: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        t.push('…');
    }
    t
}

/// The Rust half of the `gamesweep` Python module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GamesweepError", m.py().get_type::<GamesweepError>())?;
    m.add("DEFAULT_UVG_BUDGET", ops_solve::DEFAULT_UVG_BUDGET)?;
    m.add(
        "DEFAULT_GAME_BUDGET",
        gamesweep::families::graph_game::board::BOARD_BUDGET as u64,
    )?;
    m.add("DEFAULT_COL_BUDGET", ops_solve::DEFAULT_COL_BUDGET)?;
    m.add_class::<GraphIter>()?;
    m.add_function(wrap_pyfunction!(uvg_values, m)?)?;
    m.add_function(wrap_pyfunction!(uvg_solve, m)?)?;
    m.add_function(wrap_pyfunction!(uvg_svg, m)?)?;
    m.add_function(wrap_pyfunction!(col_solve, m)?)?;
    m.add_function(wrap_pyfunction!(col_svg, m)?)?;
    m.add_function(wrap_pyfunction!(gamegraph_solve, m)?)?;
    m.add_function(wrap_pyfunction!(subtraction, m)?)?;
    m.add_function(wrap_pyfunction!(graph6_encode, m)?)?;
    m.add_function(wrap_pyfunction!(digraph6_encode, m)?)?;
    m.add_function(wrap_pyfunction!(sparse6_encode, m)?)?;
    m.add_function(wrap_pyfunction!(graph6_decode, m)?)?;
    m.add_function(wrap_pyfunction!(graphs, m)?)?;
    m.add_function(wrap_pyfunction!(present, m)?)?;
    m.add_function(wrap_pyfunction!(coordinator_status, m)?)?;
    m.add_function(wrap_pyfunction!(coordinator_launch, m)?)?;
    m.add_function(wrap_pyfunction!(coordinator_report, m)?)?;
    m.add_function(wrap_pyfunction!(coordinator_act, m)?)?;
    m.add_function(wrap_pyfunction!(coordinator_project, m)?)?;
    m.add_function(wrap_pyfunction!(coordinator_audit, m)?)?;
    m.add_function(wrap_pyfunction!(coordinator_token, m)?)?;
    m.add_function(wrap_pyfunction!(coordinator_export, m)?)?;
    m.add_function(wrap_pyfunction!(coordinator_import, m)?)?;
    m.add_function(wrap_pyfunction!(key, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(store_check, m)?)?;
    m.add_function(wrap_pyfunction!(kinds, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(game_board, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(canonical, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_labelling, m)?)?;
    Ok(())
}
