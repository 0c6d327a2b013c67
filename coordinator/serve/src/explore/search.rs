//! One UVG start or move searched past the boards' budget, with progress
//! and a stop: `GET /explore/api/uvg/search?g=GRAPH6&line=S,V1,...&budget=B`.
//!
//! The answer streams as JSON lines (`application/x-ndjson`): first
//! `{"waiting": true}` if every worker slot is busy, then
//! `{"nodes": N, "budget": B, "seconds": T}` about four times a second
//! while the search runs, and last either `{"answer": {...}}`
//! ([`engine::SearchAnswer`]) or `{"error": "..."}`. The search holds one of
//! the boards' worker slots ([`super::compute`]'s), uses at most
//! `budget` ≤ [`engine::SEARCH_BUDGET_MAX`] nodes and
//! [`engine::SEARCH_TIME_MAX`], and stops at its next position when the
//! client goes away (the page's cancel button aborts the request).

use super::engine;
use super::{admit, graph_and_line, Explorer};
use crate::web::error;
use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use gamesweep::meter::Meter;
use serde::Deserialize;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;

/// How often a running search reports its progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// The route and the page's script for it.
pub fn routes() -> Router<Arc<Explorer>> {
    Router::new()
        .route("/explore/api/uvg/search", get(search))
        .route("/explore/search.js", get(script))
}

/// `search.js` with the server's budgets filled in.
async fn script() -> Response {
    let js = include_str!("search.js")
        .replace(
            "__SEARCH_BUDGET_DEFAULT__",
            &engine::SEARCH_BUDGET_DEFAULT.to_string(),
        )
        .replace(
            "__SEARCH_BUDGET_MAX__",
            &engine::SEARCH_BUDGET_MAX.to_string(),
        );
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        js,
    )
        .into_response()
}

/// `?g=GRAPH6&line=S,V1,...&budget=B`.
#[derive(Deserialize)]
struct SearchQuery {
    g: Option<String>,
    line: Option<String>,
    budget: Option<u64>,
}

async fn search(
    State(ex): State<Arc<Explorer>>,
    headers: HeaderMap,
    q: Result<Query<SearchQuery>, QueryRejection>,
) -> Response {
    let q = match admit(&ex, &headers, q, "?g=GRAPH6&line=S,V,...&budget=NODES") {
        Ok(q) => q,
        Err(refusal) => return *refusal,
    };
    let (code, line) = match graph_and_line(q.g, q.line, "line") {
        Ok(x) => x,
        Err(refusal) => return *refusal,
    };
    let budget = q.budget.unwrap_or(engine::SEARCH_BUDGET_DEFAULT);
    if !(1..=engine::SEARCH_BUDGET_MAX).contains(&budget) {
        return error(
            StatusCode::BAD_REQUEST,
            &format!(
                "budget {budget}: a search here takes 1 to {} nodes (`gamesweep solve uvg` has no limit)",
                engine::SEARCH_BUDGET_MAX
            ),
        );
    }
    // Refuse a bad graph or line at once, with a plain error.
    let line =
        match engine::parse_path(&line).and_then(|l| engine::search_line(&code, &l).map(|()| l)) {
            Ok(l) => l,
            Err(e) => return error(StatusCode::BAD_REQUEST, &e.to_string()),
        };
    let (tx, rx) = mpsc::channel::<String>(4);
    tokio::spawn(run(ex, code, line, budget, tx));
    let body = Body::from_stream(ReceiverStream::new(rx).map(|l| Ok::<_, Infallible>(l + "\n")));
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// Run the search on a blocking thread, reporting to `tx` until it ends;
/// stop it when `tx`'s receiver is gone (the client went away) or the time
/// runs out.
async fn run(
    ex: Arc<Explorer>,
    code: String,
    line: Vec<usize>,
    budget: u64,
    tx: mpsc::Sender<String>,
) {
    let slot = match ex.slots.clone().try_acquire_owned() {
        Ok(s) => s,
        Err(_) => {
            if tx.send(r#"{"waiting":true}"#.into()).await.is_err() {
                return;
            }
            tokio::select! {
                s = ex.slots.clone().acquire_owned() => match s {
                    Ok(s) => s,
                    Err(_) => return,
                },
                _ = tx.closed() => return,
            }
        }
    };
    let meter = Meter::new();
    let watched = meter.clone();
    let t0 = Instant::now();
    let mut job = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        watched.run(|| engine::uvg_search(&code, &line, budget))
    });
    let mut tick = tokio::time::interval(PROGRESS_EVERY);
    let mut out_of_time = false;
    let last = loop {
        tokio::select! {
            r = &mut job => break r,
            _ = tick.tick() => {
                if t0.elapsed() > engine::SEARCH_TIME_MAX {
                    out_of_time = true;
                    meter.stop();
                }
                let p = serde_json::json!({
                    "nodes": meter.nodes(),
                    "budget": budget,
                    "seconds": t0.elapsed().as_secs_f64(),
                });
                if tx.send(p.to_string()).await.is_err() {
                    meter.stop();
                }
            }
            _ = tx.closed(), if !meter.stopped() => meter.stop(),
        }
    };
    let msg = match last {
        Ok(Ok(answer)) => serde_json::json!({ "answer": answer }),
        Ok(Err(_)) if out_of_time => serde_json::json!({ "error": format!(
            "the search ran past this page's time limit of {} s after {} nodes (`gamesweep solve uvg` has none)",
            engine::SEARCH_TIME_MAX.as_secs(), meter.nodes()) }),
        Ok(Err(e)) => serde_json::json!({ "error": e.to_string() }),
        Err(e) => serde_json::json!({ "error": format!("the search failed: {e}") }),
    };
    let _ = tx.send(msg.to_string()).await;
}
