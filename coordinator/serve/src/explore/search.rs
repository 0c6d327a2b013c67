//! One UVG start or move searched past the boards' budget, with progress
//! and a stop: `GET /explore/api/uvg/search?g=GRAPH6&line=S,V1,...&budget=B`.
//!
//! The answer streams as JSON lines (`application/x-ndjson`): first
//! `{"waiting": true}` if every worker slot is busy, then
//! `{"nodes": N, "budget": B, "seconds": T}` about four times a second
//! while the search runs, and last either `{"answer": {...}}`
//! ([`values::SearchAnswer`]) or `{"error": "..."}`. The search holds one of
//! the boards' worker slots ([`super::compute`]'s), uses at most
//! `budget` ≤ [`values::SEARCH_BUDGET_MAX`] nodes,
//! [`values::SEARCH_TIME_MAX`] and the memory of its
//! [`super::SearchLimits`] (one search at a time; the next one says it is
//! waiting), and stops at its next position when the client goes away (the
//! page's cancel button aborts the request). It is answered only to a
//! caller on loopback or logged in (403 otherwise): it holds far more of the
//! process than any other request.

use super::values;
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

/// The route (the page's `search.js` is one of [`super::MODULES`]; its
/// budgets come in the page's data, [`super::page_data`]).
pub fn routes() -> Router<Arc<Explorer>> {
    Router::new().route("/explore/api/uvg/search", get(search))
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
    peer: Option<axum::Extension<crate::web::Peer>>,
    headers: HeaderMap,
    q: Result<Query<SearchQuery>, QueryRejection>,
) -> Response {
    let q = match admit(&ex, &headers, q, "?g=GRAPH6&line=S,V,...&budget=NODES") {
        Ok(q) => q,
        Err(refusal) => return *refusal,
    };
    let local = peer.is_some_and(|axum::Extension(p)| p.0.ip().to_canonical().is_loopback());
    if !local && !ex.searches.login {
        return error(
            StatusCode::FORBIDDEN,
            "searches past the page's budget are answered only on this machine (loopback) or after a login: \
             run `gamesweep solve uvg GRAPH6 --start S --budget 0` yourself, or serve the boards with --token-file",
        );
    }
    let (code, line) = match graph_and_line(q.g, q.line, "line") {
        Ok(x) => x,
        Err(refusal) => return *refusal,
    };
    let budget = q.budget.unwrap_or(values::SEARCH_BUDGET_DEFAULT);
    if !(1..=values::SEARCH_BUDGET_MAX).contains(&budget) {
        return error(
            StatusCode::BAD_REQUEST,
            &format!(
                "budget {budget}: a search here takes 1 to {} nodes (`gamesweep solve uvg` has no limit)",
                values::SEARCH_BUDGET_MAX
            ),
        );
    }
    // Refuse a bad graph or line at once, with a plain error.
    let line =
        match values::parse_path(&line).and_then(|l| values::search_line(&code, &l).map(|()| l)) {
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
    // One search at a time, then a worker slot; either may wait.
    let one = match ex.searches.one.clone().try_acquire_owned() {
        Ok(s) => s,
        Err(_) => {
            if tx.send(r#"{"waiting":true}"#.into()).await.is_err() {
                return;
            }
            tokio::select! {
                s = ex.searches.one.clone().acquire_owned() => match s {
                    Ok(s) => s,
                    Err(_) => return,
                },
                _ = tx.closed() => return,
            }
        }
    };
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
    let meter = Meter::with_memory_limit(ex.searches.memory);
    let watched = meter.clone();
    let t0 = Instant::now();
    let mut job = tokio::task::spawn_blocking(move || {
        let _slots = (one, slot);
        watched.run(|| values::uvg_search(&code, &line, budget))
    });
    let mut tick = tokio::time::interval(PROGRESS_EVERY);
    let mut out_of_time = false;
    let last = loop {
        tokio::select! {
            r = &mut job => break r,
            _ = tick.tick() => {
                if t0.elapsed() > values::SEARCH_TIME_MAX {
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
            values::SEARCH_TIME_MAX.as_secs(), meter.nodes()) }),
        Ok(Err(_)) if meter.over_memory() => serde_json::json!({ "error": format!(
            "the search needs more memory than this page's limit of {} MiB (its tables' next growth would take them \
             to {} MiB, after {} nodes): `gamesweep solve uvg --budget 0` has no limit",
            ex.searches.memory >> 20, meter.held() >> 20, meter.nodes()) }),
        Ok(Err(e)) => serde_json::json!({ "error": e.to_string() }),
        Err(e) => serde_json::json!({ "error": format!("the search failed: {e}") }),
    };
    let _ = tx.send(msg.to_string()).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::SearchLimits;
    use tower::ServiceExt;

    /// The search of start 0 of the 5-cycle, asked by `peer` (none: no
    /// peer known): the status and the body.
    async fn ask(ex: Arc<Explorer>, peer: Option<&str>) -> (StatusCode, String) {
        let mut app = super::super::router(ex);
        if let Some(p) = peer {
            app = app.layer(axum::Extension(crate::web::Peer(p.parse().unwrap())));
        }
        let req = axum::http::Request::get("/explore/api/uvg/search?g=Dhc&line=0&budget=1000")
            .body(Body::empty())
            .unwrap();
        let r = app.oneshot(req).await.unwrap();
        let status = r.status();
        let body = axum::body::to_bytes(r.into_body(), 1 << 20).await.unwrap();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    /// A search holds far more of the process than any other request, so
    /// one who merely reaches an open address (`explore --listen
    /// 0.0.0.0:…`, a dashboard served `--insecure`) gets none.
    #[tokio::test]
    async fn a_search_is_answered_on_loopback_or_after_a_login_only() {
        let open = || Explorer::new(Vec::new(), None, None);
        for peer in ["127.0.0.1:5000", "[::1]:5000", "[::ffff:127.0.0.1]:5000"] {
            let (status, body) = ask(open(), Some(peer)).await;
            assert_eq!(status, StatusCode::OK, "{peer}: {body}");
            assert!(
                body.lines().last().unwrap().contains("\"answer\""),
                "{peer}: {body}"
            );
        }
        for peer in [Some("192.0.2.7:5000"), Some("[2001:db8::1]:5000"), None] {
            let (status, body) = ask(open(), peer).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{peer:?}: {body}");
            assert!(
                body.contains("loopback") && body.contains("--token-file"),
                "{body}"
            );
        }
        // Behind a login (the dashboard off loopback), whoever it lets in.
        let guard: super::super::Guard = Arc::new(|_: &HeaderMap| true);
        let ex = Explorer::new(Vec::new(), None, Some(guard))
            .with_search_limits(SearchLimits::new(1 << 20, true));
        let (status, body) = ask(ex, Some("192.0.2.7:5000")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(body.contains("\"answer\""), "{body}");
    }
}
