//! The boards ([`gamesweep_serve::explore`]) as a local web app
//! (`gamesweep explore`): [`open`] reads a finished sweep's witnesses
//! (`--results`), [`Explore::serve`] checks the game file (`--file`),
//! serves the page (its URL said and written to `--address-file`, the
//! desktop's browser opened with `--open`) until the shutdown future
//! completes, and answers [`Explored`].

use crate::error::UsageError;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use gamesweep_serve::explore;
use gamesweep_serve::http;
use gamesweep_serve::web::not_found;
use std::net::SocketAddr;
use std::path::PathBuf;

/// What to serve: `explore`'s options, typed.
#[derive(Clone, Debug)]
pub struct ExploreRequest {
    /// Address to serve on (`--listen`; port 0 picks a free port).
    pub listen: SocketAddr,
    /// Where to write the page's URL (`--address-file`).
    pub address_file: Option<PathBuf>,
    /// A finished sweep's results.json, whose witnesses the menu lists
    /// (`--results`).
    pub results: Option<PathBuf>,
    /// A game-graph file shown solved (`--file`).
    pub file: Option<PathBuf>,
    /// Open the page in the desktop's browser (`--open`).
    pub open: bool,
    /// Memory one search past the budget may hold, MiB (`--search-memory`).
    pub search_memory_mib: u64,
}

/// The boards' app, its witnesses read, ready to serve.
pub struct Explore {
    request: ExploreRequest,
    listed: Vec<explore::Listed>,
}

/// What the page was served on, once it stopped.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Explored {
    /// The page's URL.
    pub url: String,
}

/// Read `r`'s `--results` witnesses (none without it): a bad file is a
/// usage error naming it.
pub fn open(r: ExploreRequest) -> anyhow::Result<Explore> {
    let listed = match &r.results {
        Some(f) => listed(f)?,
        None => Vec::new(),
    };
    Ok(Explore { request: r, listed })
}

impl Explore {
    /// The witnesses and counterexamples listed in the menu.
    pub fn listed(&self) -> &[explore::Listed] {
        &self.listed
    }

    /// What `explore` prints of them: one `CODE START CAPTION` a line (`-`
    /// for no start, ` (counterexample)` after a counterexample's).
    pub fn listing(&self) -> String {
        let mut out = String::new();
        for l in &self.listed {
            let start = l.start.map_or_else(|| "-".to_string(), |s| s.to_string());
            let tag = if l.counterexample {
                " (counterexample)"
            } else {
                ""
            };
            out.push_str(&format!("{} {start} {}{tag}\n", l.code, l.caption));
        }
        out
    }

    /// Serve the page until `shutdown` completes (the CLI's: SIGINT or
    /// SIGTERM): the game file checked first, then the address bound; `say`
    /// gets the lines the CLI prints to standard error (the URL; a browser
    /// that cannot start). The address file is removed at the end.
    pub fn serve(
        self,
        shutdown: impl std::future::Future<Output = ()>,
        say: &dyn Fn(&str),
    ) -> anyhow::Result<Explored> {
        let a = self.request;
        let source = a.results.as_ref().map(|f| f.display().to_string());
        let game_file = match &a.file {
            Some(f) => Some(game_file(f)?),
            None => None,
        };
        let ex = explore::Explorer::with_game_file(self.listed, source, None, game_file)
            .with_search_limits(explore::SearchLimits::new(a.search_memory_mib << 20, false));
        let app = explore::router(ex)
            .route("/", axum::routing::get(to_page))
            .fallback(not_found);
        let rt = crate::connect::runtime()?;
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind(a.listen)
                .await
                .map_err(|e| UsageError(format!("cannot listen on {}: {e}", a.listen)))?;
            let url = format!("http://{}/explore", listener.local_addr()?);
            // The address file first: whoever reads the printed URL can
            // read the file too.
            if let Some(file) = &a.address_file {
                publish(file, &url)?;
            }
            say(&format!("gamesweep: explore: {url}"));
            if a.open {
                let opener = if cfg!(target_os = "macos") {
                    "open"
                } else {
                    "xdg-open"
                };
                if let Err(e) = std::process::Command::new(opener).arg(&url).spawn() {
                    say(&format!(
                        "gamesweep: cannot start {opener}: {e}; open {url} yourself"
                    ));
                }
            }
            gamesweep_serve::web::serve(
                listener,
                app,
                gamesweep_serve::web::WebServe::default(),
                shutdown,
            )
            .await?;
            if let Some(file) = &a.address_file {
                let _ = std::fs::remove_file(file);
            }
            Ok(Explored { url })
        })
    }
}

/// Write `url` to `file` (`--address-file`) atomically.
fn publish(file: &std::path::Path, url: &str) -> anyhow::Result<()> {
    let tmp = file.with_extension(format!("{}.tmp", std::process::id()));
    std::fs::write(&tmp, format!("{url}\n"))
        .and_then(|()| std::fs::rename(&tmp, file))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            UsageError(format!(
                "cannot write --address-file {}: {e}",
                file.display()
            ))
            .into()
        })
}

/// The witnesses of `file` (a results.json), as the dashboard finds them.
fn listed(file: &std::path::Path) -> anyhow::Result<Vec<explore::Listed>> {
    let doc = std::fs::read_to_string(file)
        .map_err(|e| UsageError(format!("cannot read --results {}: {e}", file.display())))?;
    let (pics, _) = http::witnesses::pictures_of_results(&doc)
        .map_err(|e| UsageError(format!("--results {}: {e}", file.display())))?;
    Ok(pics
        .into_iter()
        .map(|p| explore::Listed {
            caption: p.caption,
            code: p.graph6,
            start: p.start,
            colouring: p.colouring,
            counterexample: p.counterexample,
            board: p.board,
        })
        .collect())
}

async fn to_page() -> Response {
    (StatusCode::SEE_OTHER, [(header::LOCATION, "/explore")]).into_response()
}

/// The `--file` game file, checked to be text the boards take and that
/// solves (so a bad file is a clear error now, not later in the page).
fn game_file(f: &std::path::Path) -> anyhow::Result<explore::GameFile> {
    let name = f.display().to_string();
    let bytes = std::fs::read(f).map_err(|e| UsageError(format!("cannot read {name}: {e}")))?;
    if bytes.len() > explore::values::GAME_TEXT_MAX {
        return Err(UsageError(format!(
            "{name}: {} bytes; the boards take game files of at most {} (`gamesweep solve gamegraph` takes larger ones)",
            bytes.len(),
            explore::values::GAME_TEXT_MAX
        ))
        .into());
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        UsageError(format!(
            "{name}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to() + 1
        ))
    })?;
    explore::values::gamegraph_view(&text).map_err(|e| UsageError(format!("{name}: {e}")))?;
    Ok(explore::GameFile { name, text })
}
