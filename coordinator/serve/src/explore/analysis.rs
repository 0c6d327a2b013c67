//! The boards' analysis routes: sums of positions and the expandable game
//! tree, answering with exactly what `gamesweep solve sum --json` and
//! `gamesweep solve tree --json` print ([`gamesweep::board::sum`],
//! [`gamesweep::board::tree`]).
//!
//! - `GET /explore/api/sum?t=TERM+TERM+...` (terms separated by spaces,
//!   `+` in a query) or `POST /explore/api/sum` with
//!   `{"terms": [TERM, ...], "files": {"NAME": "TEXT"}}`: the sum.
//! - `GET /explore/api/tree?t=TERM&depth=D` or `POST /explore/api/tree`
//!   with `{"term": TERM, "depth": D, "files": {...}}`: the tree of one
//!   position to depth D (default 1: one level of options, each with its
//!   term, so the page expands a node by asking for its term).
//!
//! Terms are those of `solve sum` (`uvg:G6@S,V1`, `col:CODE:COLOURING`,
//! `myopic:...`, `gamegraph:NAME#GAME#POS`); a `gamegraph:` term names a
//! game file given in `files` (the server reads no file of its own).
//! Within the boards' caps: the worker slots of [`super::compute`], the
//! boards' Col and UVG budgets and sizes ([`super::values`]), at most
//! [`MAX_TERMS`] summands, [`MAX_DEPTH`] levels and [`MAX_POSITIONS`]
//! positions a tree, game files of [`super::values::GAME_TEXT_MAX`] bytes
//! together.

use super::values::{self, BoardError};
use super::{admit, compute, Explorer, MAX_ARG};
use crate::web::{error, unauthorized};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use gamesweep::board::sum::{Limits, SumError};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Most summands of a sum asked for here.
pub const MAX_TERMS: usize = 16;

/// Deepest tree asked for here.
pub const MAX_DEPTH: u32 = 3;

/// Most positions of a tree asked for here.
pub const MAX_POSITIONS: usize = 2_000;

/// The routes, under `/explore/api`.
pub fn routes() -> Router<Arc<Explorer>> {
    Router::new()
        .route("/explore/api/sum", get(sum_get).post(sum_post))
        .route("/explore/api/tree", get(tree_get).post(tree_post))
}

/// The boards' limits: their Col and UVG budgets and sizes.
fn limits() -> Limits {
    Limits {
        col_work: Some(values::COL_BUDGET),
        uvg_nodes: Some(values::UVG_BUDGET),
        uvg_max_n: values::UVG_MAX_N,
        col_max_n: values::COL_MAX_N,
    }
}

fn board_error(e: SumError) -> BoardError {
    if e.is_budget() {
        BoardError::Budget(e.to_string())
    } else {
        BoardError::Illegal(e.to_string())
    }
}

/// `?t=TERM+TERM` (sum) or `?t=TERM&depth=D` (tree).
#[derive(Deserialize)]
struct TermQuery {
    t: Option<String>,
    depth: Option<u32>,
}

/// A sum's `POST` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SumBody {
    terms: Vec<String>,
    #[serde(default)]
    files: BTreeMap<String, String>,
}

/// A tree's `POST` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TreeBody {
    term: String,
    depth: Option<u32>,
    #[serde(default)]
    files: BTreeMap<String, String>,
}

/// Check the size of the terms and files; the error's message otherwise.
fn check(terms: &[String], files: &BTreeMap<String, String>) -> Result<(), String> {
    if terms.is_empty() {
        return Err("no terms: give one or more, e.g. col:Bg or uvg:Bg@1".into());
    }
    if terms.len() > MAX_TERMS {
        return Err(format!(
            "{} terms; the boards sum at most {MAX_TERMS}",
            terms.len()
        ));
    }
    if terms.iter().any(|t| t.len() > MAX_ARG) {
        return Err(format!("a term is longer than {MAX_ARG} bytes"));
    }
    let bytes: usize = files.iter().map(|(k, v)| k.len() + v.len()).sum();
    if bytes > values::GAME_TEXT_MAX {
        return Err(format!(
            "the game files have {bytes} bytes; the boards take at most {}",
            values::GAME_TEXT_MAX
        ));
    }
    Ok(())
}

/// A loader of `files` for `gamegraph:` terms.
fn loader(files: BTreeMap<String, String>) -> impl Fn(&str) -> Result<String, String> {
    move |name: &str| {
        files.get(name).cloned().ok_or_else(|| {
            format!("no game file `{name}` given (send its text in the request's `files`)")
        })
    }
}

async fn sum(ex: Arc<Explorer>, terms: Vec<String>, files: BTreeMap<String, String>) -> Response {
    if let Err(e) = check(&terms, &files) {
        return error(StatusCode::BAD_REQUEST, &e);
    }
    compute(&ex, move || {
        let t: Vec<&str> = terms.iter().map(String::as_str).collect();
        gamesweep::board::sum::sum(&t, &limits(), &loader(files)).map_err(board_error)
    })
    .await
}

async fn tree(
    ex: Arc<Explorer>,
    term: String,
    depth: Option<u32>,
    files: BTreeMap<String, String>,
) -> Response {
    let terms = [term];
    if let Err(e) = check(&terms, &files) {
        return error(StatusCode::BAD_REQUEST, &e);
    }
    let depth = depth.unwrap_or(1);
    if depth > MAX_DEPTH {
        return error(
            StatusCode::BAD_REQUEST,
            &format!("depth {depth}: the boards expand at most {MAX_DEPTH} levels at a time"),
        );
    }
    let [term] = terms;
    compute(&ex, move || {
        gamesweep::board::tree::tree(&term, depth, MAX_POSITIONS, &limits(), &loader(files))
            .map_err(board_error)
    })
    .await
}

async fn sum_get(
    State(ex): State<Arc<Explorer>>,
    headers: HeaderMap,
    q: Result<Query<TermQuery>, QueryRejection>,
) -> Response {
    let q = match admit(&ex, &headers, q, "?t=TERM+TERM+...") {
        Ok(q) => q,
        Err(refusal) => return *refusal,
    };
    let terms =
        q.t.unwrap_or_default()
            .split_whitespace()
            .map(str::to_string)
            .collect();
    sum(ex, terms, BTreeMap::new()).await
}

async fn sum_post(
    State(ex): State<Arc<Explorer>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if !ex.allowed(&headers) {
        return unauthorized();
    }
    match body_json::<SumBody>(&body) {
        Ok(b) => sum(ex, b.terms, b.files).await,
        Err((status, e)) => error(status, &e),
    }
}

async fn tree_get(
    State(ex): State<Arc<Explorer>>,
    headers: HeaderMap,
    q: Result<Query<TermQuery>, QueryRejection>,
) -> Response {
    let q = match admit(&ex, &headers, q, "?t=TERM&depth=D") {
        Ok(q) => q,
        Err(refusal) => return *refusal,
    };
    tree(ex, q.t.unwrap_or_default(), q.depth, BTreeMap::new()).await
}

async fn tree_post(
    State(ex): State<Arc<Explorer>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if !ex.allowed(&headers) {
        return unauthorized();
    }
    match body_json::<TreeBody>(&body) {
        Ok(b) => tree(ex, b.term, b.depth, b.files).await,
        Err((status, e)) => error(status, &e),
    }
}

/// A `POST` body as JSON, at most the game files' cap and a margin; the
/// refusal's status and message otherwise.
fn body_json<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, (StatusCode, String)> {
    let max = values::GAME_TEXT_MAX + (64 << 10);
    if body.len() > max {
        return Err((
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request has {} bytes; the boards take at most {max}",
                body.len()
            ),
        ));
    }
    serde_json::from_slice(body)
        .map_err(|e| (StatusCode::BAD_REQUEST, format!("bad JSON body: {e}")))
}
