//! The boards (`gamesweep explore`, and mounted read-only in the
//! coordinator's dashboard): a web page where a person sees a UVG, Col or
//! Myopic Col position, the values of its moves, the matching, and plays
//! against the solver; its analysis panel (`analysis.js`) shows the
//! position's game tree, opened option by option, and sums of positions
//! ([`analysis`]'s routes). Past the page's budget a UVG board still shows
//! the matching theorem's winners and one start or move is searched with a
//! budget of its own ([`search`], `search.js`). Everything is compiled into
//! the binary (`page.html`, `explore.css` and the page's ES modules,
//! [`MODULES`], served as they are: no build step); the page asks the JSON
//! routes below and draws the board as SVG itself. What the server tells
//! the scripts (the search's budgets) is JSON in the page
//! (`<script type="application/json" id="explore-data">`), never written
//! into a script.
//!
//! Routes (`GET` unless said):
//! - `/explore`: the page (`?g=GRAPH6&s=START` opens a UVG position,
//!   `?game=col|myopic&g=CODE&c=COLOURING` a Col one); `/explore/NAME.js`
//!   for each of [`MODULES`] (the page loads `explore.js`, which imports the
//!   rest); `/explore/style.css`.
//! - `/explore/api/presets`: the presets ([`presets`]) and the witnesses of
//!   the `results.json` given to `explore --results`.
//! - `/explore/api/uvg?g=GRAPH6&path=S,V1,V2`: the UVG board with the token
//!   moved along the path ([`values::UvgView`]).
//! - `/explore/api/col?rules=col|myopic&g=CODE&c=COLOURING&sid=VISIT&side=L|R`:
//!   the Col board valued with the visit's component table
//!   ([`values::ColView`]); with `side`, the solver's move for that side to
//!   move ([`values::ColPlay`], within [`values::COL_REMOTENESS_BUDGET`]).
//! - `POST /explore/api/gamegraph` with a game file's text as the body
//!   (docs/gamegraph-format.md, at most [`values::GAME_TEXT_MAX`] bytes):
//!   `solve gamegraph --json`'s report, a drawing of each small game (by
//!   level when acyclic, [`gamedraw`]) and a declared sum's pair table
//!   ([`values::GameGraphView`]); like the other `POST`s, it changes nothing.
//! - `/explore/api/tree`, `/explore/api/sum` (and `POST`): a position's game
//!   tree and sums of positions, as `solve tree --json` and `solve sum
//!   --json` print them ([`analysis`]); the analysis panel asks a node's
//!   tree at depth 1 and its sum alone (its simplest winning moves) as it
//!   is opened.
//! - `/explore/api/layered?game=NAME&g=CODE&s=START&m=M1,M2&first=L|R`: a
//!   board of a game on the graph-game layer (every game of
//!   `gamesweep::kinds::games()`, [`layered`]): the position after the
//!   moves (each an option's index) with the value of every option and the
//!   solver's move; the presets list those games and their presets.
//! - `/explore/api/uvg/search?g=GRAPH6&line=S,V1,...&budget=B`: one start or
//!   move searched exactly past the page's budget, its progress streamed as
//!   JSON lines ([`search`]).
//!
//! Values are computed on blocking threads, at most [`workers`] at a time
//! (the rest wait), each request within a budget ([`values`]): a game file
//! is solved game by game and stops at [`values::GAME_TIME_BUDGET`] or as
//! soon as its client goes away; the visits' Col tables together hold at
//! most [`COL_TABLES_MAX_BYTES`] (the least recently used go first). Errors are
//! `{"error": "..."}` with a 4xx status, shown by the page.

pub mod analysis;
pub mod gamedraw;
pub mod layered;
pub mod presets;
pub mod search;
pub mod values;

use crate::web::{error, json, text, unauthorized};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Who may read the boards (the dashboard's session check); `None`: anyone.
pub type Guard = Arc<dyn Fn(&HeaderMap) -> bool + Send + Sync>;

/// Visits whose Col tables are kept at most (the oldest goes first).
pub const MAX_VISITS: usize = 32;

/// A visit's Col table is dropped after this long unused.
pub const VISIT_IDLE: Duration = Duration::from_secs(30 * 60);

/// Bytes a Col table holds per work unit of its solver (components
/// expanded plus games held), measured: 32 visits at the 1,000,000-unit
/// budget held 2.9 GB.
pub const COL_UNIT_BYTES: u64 = 96;

/// The bytes all visits' Col tables may hold together (estimated by
/// [`COL_UNIT_BYTES`]); past it the least recently used visits lose their
/// tables (they are rebuilt on their next request).
pub const COL_TABLES_MAX_BYTES: u64 = 384 << 20;

/// The longest board code or path accepted in a request, in bytes.
const MAX_ARG: usize = 4096;

/// Blocking threads computing values at once.
pub fn workers() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 4)
}

/// A graph of a finished sweep's `results.json`, offered in the menu.
#[derive(Clone, Debug, Serialize)]
pub struct Listed {
    /// What it is, in the kind's words ("smallest *5: 10 vertices, start 3").
    pub caption: String,
    /// graph6 (digraph6 for Myopic Col).
    pub code: String,
    /// The start the document gives.
    pub start: Option<u64>,
    /// The colouring the document gives (Col, Myopic Col).
    pub colouring: Option<String>,
    /// A counterexample (the kind's role for it).
    pub counterexample: bool,
    /// The game whose board opens it (`uvg`, `col`, `myopic`, or a game
    /// of the graph-game layer): the kind's, not guessed from the code.
    pub board: &'static str,
}

/// A visit: last used, its Col table, the table's work units after its
/// last request.
type Visit = (Instant, Arc<Mutex<values::ColTable>>, Arc<AtomicU64>);

/// The boards' state: the visits' Col tables, the worker slots, the
/// listed witnesses.
pub struct Explorer {
    visits: Mutex<HashMap<String, Visit>>,
    slots: Arc<tokio::sync::Semaphore>,
    listed: Vec<Listed>,
    source: Option<String>,
    guard: Option<Guard>,
    game_file: Option<GameFile>,
    /// What searches past the budget may use ([`search`]).
    searches: SearchLimits,
}

/// What searches past the page's budget (`/explore/api/uvg/search`) may
/// use: they run one at a time (the next waits), each stopped once its
/// tables hold more than `memory` bytes; and only for callers on loopback
/// or logged in (`login`: the boards sit behind a login, the dashboard's
/// off loopback), never for anyone who merely reaches an open address.
#[derive(Clone, Debug)]
pub struct SearchLimits {
    /// Bytes one search's tables may hold ([`values::SEARCH_MEMORY_DEFAULT`]).
    pub memory: u64,
    /// The boards ask for a login, so a caller let in is authenticated.
    pub login: bool,
    /// One search at a time.
    one: Arc<tokio::sync::Semaphore>,
}

impl SearchLimits {
    /// `memory` bytes per search; `login`: see [`SearchLimits::login`].
    pub fn new(memory: u64, login: bool) -> Self {
        SearchLimits {
            memory,
            login,
            one: Arc::new(tokio::sync::Semaphore::new(1)),
        }
    }
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits::new(values::SEARCH_MEMORY_DEFAULT, false)
    }
}

/// The course-notes examples of `docs/examples/`, compiled in: the
/// game-graph panel's menu.
pub const GAME_EXAMPLES: &[(&str, &str)] = &[
    (
        "nim.game",
        include_str!("../../../../docs/examples/nim.game"),
    ),
    (
        "chomp.game",
        include_str!("../../../../docs/examples/chomp.game"),
    ),
    (
        "grundys-game.game",
        include_str!("../../../../docs/examples/grundys-game.game"),
    ),
    (
        "subtraction.game",
        include_str!("../../../../docs/examples/subtraction.game"),
    ),
    (
        "draws.game",
        include_str!("../../../../docs/examples/draws.game"),
    ),
    (
        "minimax.game",
        include_str!("../../../../docs/examples/minimax.game"),
    ),
    (
        "odd-cycle.game",
        include_str!("../../../../docs/examples/odd-cycle.game"),
    ),
    (
        "sum.game",
        include_str!("../../../../docs/examples/sum.game"),
    ),
];

/// A game file given to `explore --file`, offered in the page.
#[derive(Clone, Debug, Serialize)]
pub struct GameFile {
    /// The file's name as given.
    pub name: String,
    /// Its text.
    pub text: String,
}

impl Explorer {
    /// Boards listing `listed` (from the results file named `source`),
    /// readable by whoever `guard` lets in.
    pub fn new(listed: Vec<Listed>, source: Option<String>, guard: Option<Guard>) -> Arc<Self> {
        Arc::new(Explorer {
            visits: Mutex::new(HashMap::new()),
            slots: Arc::new(tokio::sync::Semaphore::new(workers())),
            listed,
            source,
            guard,
            game_file: None,
            searches: SearchLimits::default(),
        })
    }

    /// These boards with `limits` for their searches past the budget.
    pub fn with_search_limits(self: Arc<Self>, limits: SearchLimits) -> Arc<Self> {
        let mut ex = Arc::into_inner(self).expect("configured before it is shared");
        ex.searches = limits;
        Arc::new(ex)
    }

    /// Boards as [`Explorer::new`] makes them, with `file` offered in the
    /// game-graph panel.
    pub fn with_game_file(
        listed: Vec<Listed>,
        source: Option<String>,
        guard: Option<Guard>,
        file: Option<GameFile>,
    ) -> Arc<Self> {
        let mut ex =
            Arc::into_inner(Explorer::new(listed, source, guard)).expect("a new Arc has one owner");
        ex.game_file = file;
        Arc::new(ex)
    }

    fn allowed(&self, h: &HeaderMap) -> bool {
        self.guard.as_ref().is_none_or(|g| g(h))
    }

    /// The Col table of visit `sid` (a new one for a new visit) and the
    /// cell its size is noted in.
    fn table(&self, sid: &str) -> (Arc<Mutex<values::ColTable>>, Arc<AtomicU64>) {
        let mut v = self.visits.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        v.retain(|_, (at, _, _)| now.duration_since(*at) < VISIT_IDLE);
        if let Some((at, t, w)) = v.get_mut(sid) {
            *at = now;
            return (t.clone(), w.clone());
        }
        if v.len() >= MAX_VISITS {
            if let Some(old) = v
                .iter()
                .min_by_key(|(_, (at, _, _))| *at)
                .map(|(k, _)| k.clone())
            {
                v.remove(&old);
            }
        }
        let t = Arc::new(Mutex::new(values::ColTable::new()));
        let w = Arc::new(AtomicU64::new(0));
        v.insert(sid.to_string(), (now, t.clone(), w.clone()));
        (t, w)
    }

    /// Drop the least recently used visits' tables (never `keep`'s) until
    /// all tables together are within [`COL_TABLES_MAX_BYTES`].
    fn trim_tables(&self, keep: &str) {
        let mut v = self.visits.lock().unwrap_or_else(|e| e.into_inner());
        let bytes = |v: &HashMap<String, Visit>| -> u64 {
            v.values()
                .map(|(_, _, w)| w.load(Ordering::Relaxed).saturating_mul(COL_UNIT_BYTES))
                .sum()
        };
        while bytes(&v) > COL_TABLES_MAX_BYTES {
            let Some(old) = v
                .iter()
                .filter(|(k, _)| k.as_str() != keep)
                .min_by_key(|(_, (at, _, _))| *at)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            v.remove(&old);
        }
    }

    /// The bytes all visits' Col tables hold, as estimated.
    pub fn table_bytes(&self) -> u64 {
        let v = self.visits.lock().unwrap_or_else(|e| e.into_inner());
        v.values()
            .map(|(_, _, w)| w.load(Ordering::Relaxed).saturating_mul(COL_UNIT_BYTES))
            .sum()
    }

    /// Visits with a table now.
    pub fn visits(&self) -> usize {
        self.visits.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// The page's scripts, ES modules that import one another by relative
/// paths: each is served as it is at `/explore/NAME`. `explore.js` is the
/// page's one `<script type="module">`; `html.js` (the one escape function
/// and the `html` template tag) is imported by the dashboard's `app.js` too.
pub const MODULES: &[(&str, &str)] = &[
    ("explore.js", include_str!("explore.js")),
    ("games.js", include_str!("games.js")),
    ("html.js", include_str!("html.js")),
    ("api.js", include_str!("api.js")),
    ("draw.js", include_str!("draw.js")),
    ("search.js", include_str!("search.js")),
    ("analysis.js", include_str!("analysis.js")),
    ("gamegraph.js", include_str!("gamegraph.js")),
];

/// The routes, under `/explore`.
pub fn router(ex: Arc<Explorer>) -> Router {
    let mut r = Router::new()
        .route("/explore", get(page))
        .route("/explore/", get(page));
    for &(name, body) in MODULES {
        r = r.route(
            &format!("/explore/{name}"),
            get(move || async move { text("text/javascript; charset=utf-8", body) }),
        );
    }
    r.route("/explore/style.css", get(style))
        // Here, not in the dashboard's routes: the boards are served alone
        // too (`gamesweep explore`), and the dashboard merges these.
        .route("/favicon.ico", get(crate::web::icon))
        .route("/favicon.svg", get(crate::web::icon))
        .route("/explore/api/presets", get(presets_json))
        .route("/explore/api/uvg", get(uvg_json))
        .route("/explore/api/col", get(col_json))
        .route("/explore/api/layered", get(layered_json))
        .route("/explore/api/gamegraph", post(gamegraph_json))
        .merge(analysis::routes())
        .merge(search::routes())
        .with_state(ex)
}

async fn page(State(ex): State<Arc<Explorer>>, headers: HeaderMap) -> Response {
    if !ex.allowed(&headers) {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, "/login")]).into_response();
    }
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("page.html").replace("<!--explore-data-->", &page_data()),
    )
        .into_response()
}

/// What the page's scripts are told by the server, as the JSON of the
/// page's `#explore-data` element: the budgets of a UVG search past the
/// page's budget ([`search`]). No `<` in it, so no `</script>` ends the
/// element early.
pub fn page_data() -> String {
    serde_json::json!({
        "search_budget": {
            "initial": values::SEARCH_BUDGET_DEFAULT,
            "max": values::SEARCH_BUDGET_MAX,
        },
    })
    .to_string()
    .replace('<', "\\u003c")
}

async fn style() -> Response {
    text("text/css; charset=utf-8", include_str!("explore.css"))
}

#[derive(Serialize)]
struct PresetList<'a> {
    presets: Vec<&'a presets::Preset>,
    layered: Vec<layered::GameInfo>,
    results: &'a [Listed],
    results_source: Option<&'a str>,
    game_file: Option<&'a GameFile>,
    game_examples: Vec<GameFile>,
    limits: serde_json::Value,
}

async fn presets_json(State(ex): State<Arc<Explorer>>, headers: HeaderMap) -> Response {
    if !ex.allowed(&headers) {
        return unauthorized();
    }
    json(&PresetList {
        presets: presets::all().iter().chain(layered::presets()).collect(),
        layered: layered::games(),
        results: &ex.listed,
        results_source: ex.source.as_deref(),
        game_file: ex.game_file.as_ref(),
        game_examples: GAME_EXAMPLES
            .iter()
            .map(|(name, text)| GameFile {
                name: name.to_string(),
                text: text.to_string(),
            })
            .collect(),
        limits: serde_json::json!({
            "uvg_exact_dp": values::UVG_DP_LIMIT,
            "uvg_max_n": values::UVG_MAX_N,
            "uvg_budget": values::UVG_BUDGET,
            "col_max_n": values::COL_MAX_N,
            "col_budget": values::COL_BUDGET,
            "col_remoteness_budget": values::COL_REMOTENESS_BUDGET,
            "game_text_max": values::GAME_TEXT_MAX,
            "game_draw_max": values::GAME_DRAW_MAX,
            "layered_budget": gamesweep::families::graph_game::board::BOARD_BUDGET,
        }),
    })
}

/// Run `f` on a blocking thread once a worker slot is free.
async fn compute<T: Serialize + Send + 'static>(
    ex: &Explorer,
    f: impl FnOnce() -> Result<T, values::BoardError> + Send + 'static,
) -> Response {
    let Ok(_slot) = ex.slots.clone().acquire_owned().await else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "shutting down");
    };
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(v)) => json(&v),
        Ok(Err(e @ values::BoardError::Budget(_))) => {
            error(StatusCode::UNPROCESSABLE_ENTITY, &e.to_string())
        }
        Ok(Err(e)) => error(StatusCode::BAD_REQUEST, &e.to_string()),
        Err(e) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("the computation failed: {e}"),
        ),
    }
}

/// `?g=GRAPH6&path=0,1,2`.
#[derive(Deserialize)]
struct UvgQuery {
    g: Option<String>,
    path: Option<String>,
}

/// The query of a request the boards may answer, or the response that
/// refuses it: 401 without access, 400 naming the `expected` query when it
/// does not parse.
fn admit<T>(
    ex: &Explorer,
    headers: &HeaderMap,
    q: Result<Query<T>, QueryRejection>,
    expected: &str,
) -> Result<T, Box<Response>> {
    if !ex.allowed(headers) {
        return Err(Box::new(unauthorized()));
    }
    q.map(|Query(q)| q).map_err(|_| {
        Box::new(error(
            StatusCode::BAD_REQUEST,
            &format!("bad query: expected {expected}"),
        ))
    })
}

/// A UVG request's graph and line (`what`: the line's name), or the 400
/// that refuses them: no graph, or either longer than [`MAX_ARG`].
fn graph_and_line(
    g: Option<String>,
    line: Option<String>,
    what: &str,
) -> Result<(String, String), Box<Response>> {
    let (g, line) = (g.unwrap_or_default(), line.unwrap_or_default());
    if g.trim().is_empty() {
        return Err(Box::new(error(
            StatusCode::BAD_REQUEST,
            "no graph: give a graph6 string",
        )));
    }
    if g.len() > MAX_ARG || line.len() > MAX_ARG {
        return Err(Box::new(error(
            StatusCode::BAD_REQUEST,
            &format!("graph or {what} too long"),
        )));
    }
    Ok((g, line))
}

async fn uvg_json(
    State(ex): State<Arc<Explorer>>,
    headers: HeaderMap,
    q: Result<Query<UvgQuery>, QueryRejection>,
) -> Response {
    let q = match admit(&ex, &headers, q, "?g=GRAPH6&path=S,V,...") {
        Ok(q) => q,
        Err(refusal) => return *refusal,
    };
    let (g, path) = match graph_and_line(q.g, q.path, "path") {
        Ok(x) => x,
        Err(refusal) => return *refusal,
    };
    compute(&ex, move || {
        let p = values::parse_path(&path)?;
        values::uvg_view(&g, &p)
    })
    .await
}

/// `?game=NAME&g=CODE&s=START&m=M1,M2&first=L|R`.
#[derive(Deserialize)]
struct LayeredQuery {
    game: Option<String>,
    g: Option<String>,
    s: Option<String>,
    m: Option<String>,
    first: Option<String>,
}

async fn layered_json(
    State(ex): State<Arc<Explorer>>,
    headers: HeaderMap,
    q: Result<Query<LayeredQuery>, QueryRejection>,
) -> Response {
    let q = match admit(
        &ex,
        &headers,
        q,
        "?game=NAME&g=CODE&s=START&m=M1,M2&first=L|R",
    ) {
        Ok(q) => q,
        Err(refusal) => return *refusal,
    };
    let game = q.game.unwrap_or_default();
    let (s, first) = (q.s.unwrap_or_default(), q.first.unwrap_or_default());
    if game.len() > 64 || s.len() > 64 || first.len() > 64 {
        return error(StatusCode::BAD_REQUEST, "game, start or side too long");
    }
    if game.trim().is_empty() {
        return error(StatusCode::BAD_REQUEST, "no game: give game=NAME");
    }
    if q.g.as_deref().unwrap_or("").trim().is_empty() {
        return error(
            StatusCode::BAD_REQUEST,
            "no graph: give a graph6 (digraph6 for a game on digraphs) string",
        );
    }
    let (g, m) = match graph_and_line(q.g, q.m, "moves") {
        Ok(x) => x,
        Err(refusal) => return *refusal,
    };
    compute(&ex, move || layered::view(&game, &g, &s, &m, &first)).await
}

/// `?rules=col|myopic&g=CODE&c=COLOURING&sid=VISIT`.
#[derive(Deserialize)]
struct ColQuery {
    rules: Option<String>,
    g: Option<String>,
    c: Option<String>,
    sid: Option<String>,
    side: Option<String>,
}

async fn col_json(
    State(ex): State<Arc<Explorer>>,
    headers: HeaderMap,
    q: Result<Query<ColQuery>, QueryRejection>,
) -> Response {
    let q = match admit(&ex, &headers, q, "?rules=col&g=CODE&c=COLOURING") {
        Ok(q) => q,
        Err(refusal) => return *refusal,
    };
    let rules = match q.rules.as_deref().unwrap_or("col") {
        "col" => gamesweep::col::Rules::Col,
        "myopic" => gamesweep::col::Rules::Myopic,
        r => {
            return error(
                StatusCode::BAD_REQUEST,
                &format!("unknown rules `{r}` (col or myopic)"),
            )
        }
    };
    let g = q.g.unwrap_or_default();
    let c = q.c.unwrap_or_default();
    if g.trim().is_empty() {
        return error(
            StatusCode::BAD_REQUEST,
            "no board: give a graph6 (Col) or digraph6 (Myopic) string",
        );
    }
    if g.len() > MAX_ARG || c.len() > MAX_ARG {
        return error(StatusCode::BAD_REQUEST, "board or colouring too long");
    }
    let side = match q.side.as_deref().map(str::trim).unwrap_or("") {
        "" => None,
        s => match gamesweep::board::colplay::Side::parse(s) {
            Some(side) => Some(side),
            None => {
                return error(
                    StatusCode::BAD_REQUEST,
                    &format!(
                        "unknown side `{}` to move (L: Blue, Left; R: Red, Right)",
                        s.chars().take(16).collect::<String>()
                    ),
                )
            }
        },
    };
    let sid = q.sid.unwrap_or_default();
    if sid.len() > 64
        || !sid
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '-')
    {
        return error(StatusCode::BAD_REQUEST, "bad visit id");
    }
    let (table, units) = ex.table(&sid);
    let r = compute(&ex, move || {
        // A table whose holder panicked may be half-built: start afresh.
        let mut t = match table.lock() {
            Ok(t) => t,
            Err(e) => {
                let mut t = e.into_inner();
                *t = values::ColTable::new();
                t
            }
        };
        let v = t.view_to_move(rules, &g, &c, side);
        units.store(t.work(), Ordering::Relaxed);
        v
    })
    .await;
    ex.trim_tables(&sid);
    r
}

async fn gamegraph_json(
    State(ex): State<Arc<Explorer>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if !ex.allowed(&headers) {
        return unauthorized();
    }
    if body.len() > values::GAME_TEXT_MAX {
        return error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!(
                "the game file has {} bytes; the boards take at most {}",
                body.len(),
                values::GAME_TEXT_MAX
            ),
        );
    }
    let text = match String::from_utf8(body.to_vec()) {
        Ok(t) => t,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                &format!(
                    "the game file is not UTF-8 text (byte {})",
                    e.utf8_error().valid_up_to() + 1
                ),
            )
        }
    };
    // The computation stops between games once the time budget has run
    // out or the client has gone (hyper drops this future, and with it
    // `_gone`, which raises the flag).
    let cancelled = Arc::new(AtomicBool::new(false));
    let _gone = RaiseOnDrop(cancelled.clone());
    compute(&ex, move || {
        let deadline = Instant::now() + values::GAME_TIME_BUDGET;
        values::gamegraph_view_until(&text, &|| {
            if cancelled.load(Ordering::Relaxed) {
                Some("the request was cancelled".into())
            } else if Instant::now() > deadline {
                Some(format!(
                    "the game file needs more than this page's budget of {} s (`gamesweep solve gamegraph FILE` has none)",
                    values::GAME_TIME_BUDGET.as_secs()
                ))
            } else {
                None
            }
        })
    })
    .await
}

/// Raises its flag when dropped.
struct RaiseOnDrop(Arc<AtomicBool>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visits_are_bounded_and_a_visit_keeps_its_table() {
        let ex = Explorer::new(Vec::new(), None, None);
        let first = ex.table("v0").0;
        assert!(Arc::ptr_eq(&first, &ex.table("v0").0));
        for i in 1..MAX_VISITS + 8 {
            ex.table(&format!("v{i}"));
        }
        assert_eq!(ex.visits(), MAX_VISITS);
        // The oldest went first: v0 gets a new table.
        assert!(!Arc::ptr_eq(&first, &ex.table("v0").0));
    }

    /// Issue 24: 32 Col visits raised the process to 2.9 GB for 30 min.
    #[test]
    fn col_tables_are_capped_in_bytes() {
        let ex = Explorer::new(Vec::new(), None, None);
        let full = values::COL_BUDGET;
        for i in 0..MAX_VISITS {
            let sid = format!("v{i}");
            let (_, w) = ex.table(&sid);
            w.store(full, Ordering::Relaxed);
            ex.trim_tables(&sid);
            assert!(ex.table_bytes() <= COL_TABLES_MAX_BYTES, "{i}");
        }
        let kept = (COL_TABLES_MAX_BYTES / (full * COL_UNIT_BYTES)) as usize;
        assert_eq!(ex.visits(), kept);
        assert!(kept >= 2, "{kept}");
    }

    /// Issue 24: a 1 MiB game-graph POST cost about 5 min of CPU and went on
    /// after the client left.
    #[test]
    fn a_game_file_stops_at_its_budget_or_when_cancelled() {
        // Many small cyclic games: each cheap, together far too much.
        let mut text = String::new();
        let mut i = 0;
        while text.len() < values::GAME_TEXT_MAX - 200 {
            text.push_str(&format!(
                "game g{i}\na -> b\nb -> c\nc -> a d\nd -> e\ne -> d\nend\n"
            ));
            i += 1;
        }
        // Parsing (linear) comes first; from the first question on, the
        // work stops within one game of the answer.
        let asked = std::cell::Cell::new(0u32);
        let stopped_at = std::cell::Cell::new(None::<Instant>);
        let e = values::gamegraph_view_until(&text, &|| {
            asked.set(asked.get() + 1);
            if asked.get() < 100 {
                return None;
            }
            stopped_at.set(stopped_at.get().or(Some(Instant::now())));
            Some("out of time".to_string())
        })
        .unwrap_err();
        assert_eq!(e, values::BoardError::Budget("out of time".into()));
        let late = stopped_at.get().unwrap().elapsed();
        assert!(late < Duration::from_millis(500), "{late:?}");
        assert_eq!(asked.get(), 100, "asked again after the stop");
        // A sum larger than the boards compute is reported, not computed.
        let mut big = String::from("game a\n");
        for k in 0..600 {
            big.push_str(&format!("p{k} -> p{}\n", k + 1));
        }
        big.push_str("end\ngame b\n");
        for k in 0..600 {
            big.push_str(&format!("q{k} -> q{}\n", k + 1));
        }
        big.push_str("end\nsum a b\n");
        let v = values::gamegraph_view(&big).unwrap();
        let sum = v.report.sum.unwrap();
        assert!(
            sum.unavailable
                .as_deref()
                .is_some_and(|u| u.contains("at most 250000")),
            "{:?}",
            sum.unavailable
        );
    }

    #[test]
    fn a_game_file_is_solved_as_solve_gamegraph_does_and_drawn() {
        let text = include_str!("../../../../docs/examples/nim.game");
        let v = values::gamegraph_view(text).unwrap();
        let want =
            gamesweep::gamegraph::solve_text_with(text, gamesweep::gamegraph::Format::Auto, None)
                .unwrap();
        assert_eq!(
            serde_json::to_value(&v.report).unwrap(),
            serde_json::to_value(&want).unwrap()
        );
        assert_eq!(v.drawings.len(), want.games.len());
        for (d, g) in v.drawings.iter().zip(&want.games) {
            let moves: usize = g.table.iter().map(|r| r.moves.len()).sum();
            match &d.drawing {
                Some(dr) => {
                    assert_eq!(dr.drawing.n, g.table.len());
                    assert_eq!(dr.drawing.edges.len(), moves, "{}", g.name);
                }
                None => assert!(g.table.len() > values::GAME_DRAW_MAX),
            }
        }
        for bad in ["", "   \n", "game x\nposition", "{\"games\": 3}"] {
            let e = values::gamegraph_view(bad).unwrap_err().to_string();
            assert!(!e.is_empty() && !e.contains('\n'), "{bad:?}: {e}");
        }
    }

    #[test]
    fn every_embedded_example_solves_on_the_board() {
        for (name, text) in GAME_EXAMPLES {
            let v = values::gamegraph_view(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!v.report.games.is_empty(), "{name}");
        }
    }

    #[test]
    fn a_visit_table_values_col_as_solve_does() {
        let mut t = values::ColTable::new();
        let v = t.view(gamesweep::col::Rules::Col, "Bg", "...").unwrap();
        let s = gamesweep::col::solve_position(gamesweep::col::Rules::Col, "Bg", "...").unwrap();
        assert_eq!(v.value, s.value);
        let held = t.games();
        // Asked again, nothing new is built.
        t.view(gamesweep::col::Rules::Col, "Bg", "...").unwrap();
        assert_eq!(t.games(), held);
        assert!(t.view(gamesweep::col::Rules::Col, "Bg", "LL.").is_err());
    }
}
