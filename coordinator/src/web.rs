//! Pieces every web face of the coordinator answers with (the dashboard,
//! the boards, `gamesweep explore`): fixed bodies, JSON bodies and errors,
//! the security headers, 404. A leaf: it knows only axum.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// A compiled-in body of content type `kind`.
pub fn text(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// A JSON body.
pub fn json<T: serde::Serialize>(v: &T) -> Response {
    match serde_json::to_string(v) {
        Ok(s) => ([(header::CONTENT_TYPE, "application/json")], s).into_response(),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// An error as JSON: `{"error": "..."}`.
pub fn error(code: StatusCode, msg: &str) -> Response {
    (
        code,
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::json!({ "error": msg }).to_string(),
    )
        .into_response()
}

/// 401 for an API route asked without a session.
pub fn unauthorized() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        "log in first (the read token, at /login)",
    )
}

/// Headers on every response: nothing cached, nothing framed, no referrer,
/// scripts and styles only from here.
pub async fn secure_headers(mut r: Response) -> Response {
    let h = r.headers_mut();
    let set = |h: &mut HeaderMap, k: &'static str, v: &'static str| {
        h.insert(k, HeaderValue::from_static(v));
    };
    set(h, "cache-control", "no-store");
    set(h, "x-content-type-options", "nosniff");
    set(h, "x-frame-options", "DENY");
    set(h, "referrer-policy", "no-referrer");
    set(
        h,
        "content-security-policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; form-action 'self'",
    );
    r
}

/// 404.
pub async fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found\n").into_response()
}
