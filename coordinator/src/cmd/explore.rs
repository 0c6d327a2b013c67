//! `gamesweep explore`: the boards ([`gamesweep_serve::explore`]) as a local web app.
//! Prints its URL (and writes it to `--address-file`), serves until
//! interrupted.

use crate::error::UsageError;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use gamesweep_serve::explore;
use gamesweep_serve::http;
use gamesweep_serve::web::not_found;
use std::path::PathBuf;

/// Arguments of `explore`.
#[derive(clap::Args, Debug)]
pub struct ExploreArgs {
    /// Address to serve on (port 0 picks a free port). The page has no login:
    /// keep it on loopback unless everyone who can reach it may use it.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub listen: std::net::SocketAddr,
    /// Once listening, write the page's URL to this file (replacing it
    /// atomically); removed again on a clean exit.
    #[arg(long, value_name = "FILE")]
    pub address_file: Option<PathBuf>,
    /// A finished sweep's results.json: its witnesses and counterexamples
    /// are listed in the page's menu (and printed, one `CODE START CAPTION` a line).
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// A game-graph file (docs/gamegraph-format.md, text or JSON; at most
    /// 1 MiB) shown solved in the page's game-graph panel, where others can
    /// be pasted or opened too.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Open the page in the desktop's browser (`xdg-open` / `open`).
    #[arg(long)]
    pub open: bool,
    /// Memory one search past the page's budget may hold, in MiB (searches
    /// run one at a time, and only for callers on loopback).
    #[arg(long, value_name = "MIB", default_value_t = explore::values::SEARCH_MEMORY_DEFAULT >> 20, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub search_memory: u64,
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

/// Run `explore`.
pub fn exec(a: ExploreArgs) -> anyhow::Result<()> {
    let listed = match &a.results {
        Some(f) => listed(f)?,
        None => Vec::new(),
    };
    for l in &listed {
        let start = l.start.map_or_else(|| "-".to_string(), |s| s.to_string());
        let tag = if l.counterexample {
            " (counterexample)"
        } else {
            ""
        };
        crate::output::print(format_args!("{} {start} {}{tag}\n", l.code, l.caption))?;
    }
    let source = a.results.as_ref().map(|f| f.display().to_string());
    let game_file = match &a.file {
        Some(f) => Some(game_file(f)?),
        None => None,
    };
    let ex = explore::Explorer::with_game_file(listed, source, None, game_file)
        .with_search_limits(explore::SearchLimits::new(a.search_memory << 20, false));
    let app = explore::router(ex)
        .route("/", axum::routing::get(to_page))
        .fallback(not_found);
    let rt = crate::connect::runtime()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(a.listen)
            .await
            .map_err(|e| UsageError(format!("cannot listen on {}: {e}", a.listen)))?;
        let url = format!("http://{}/explore", listener.local_addr()?);
        eprintln!("gamesweep: explore: {url}");
        if let Some(file) = &a.address_file {
            let tmp = file.with_extension(format!("{}.tmp", std::process::id()));
            std::fs::write(&tmp, format!("{url}\n"))
                .and_then(|()| std::fs::rename(&tmp, file))
                .map_err(|e| {
                    let _ = std::fs::remove_file(&tmp);
                    UsageError(format!(
                        "cannot write --address-file {}: {e}",
                        file.display()
                    ))
                })?;
        }
        if a.open {
            let opener = if cfg!(target_os = "macos") {
                "open"
            } else {
                "xdg-open"
            };
            if let Err(e) = std::process::Command::new(opener).arg(&url).spawn() {
                eprintln!("gamesweep: cannot start {opener}: {e}; open {url} yourself");
            }
        }
        gamesweep_serve::web::serve(
            listener,
            app,
            gamesweep_serve::web::WebServe::default(),
            gamesweep_serve::server::shutdown_signal(),
        )
        .await?;
        if let Some(file) = &a.address_file {
            let _ = std::fs::remove_file(file);
        }
        Ok(())
    })
}
