//! The dashboard's login: the read (or admin) token, typed into a form and
//! sent in a `POST` body, buys a session cookie. The cookie's value is an
//! HMAC-SHA256 of the token under a key drawn at start (so it is worth
//! nothing to another process, or after a restart, and never shows the
//! token); it is `HttpOnly` (no script reads it), `SameSite=Strict` (no other
//! site's page sends it), `Path=/`, and `Secure` under TLS. Tokens and
//! cookies are compared in constant time. No token is ever put in a URL:
//! the form posts to `/login`, and redirects go to `/` or `/login` only.

use super::Dashboard;
use crate::access::{ct_eq, Tokens};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Form;
use std::sync::Arc;
use std::time::Duration;

/// The session cookie's name.
pub const COOKIE: &str = "gamesweep_session";

/// How long a refused login waits before it answers (slows guessing).
const REFUSED_DELAY: Duration = Duration::from_millis(300);

/// Who may look.
pub struct Auth {
    /// Ask at all.
    login: bool,
    /// Add `Secure` to the cookie.
    secure: bool,
    /// The tokens (the read or the admin token logs in).
    tokens: Tokens,
    /// The key sessions are made under.
    key: ring::hmac::Key,
    /// The session values the tokens that may read give.
    sessions: Vec<String>,
}

impl Auth {
    /// Login against `tokens` when `login`; cookies `Secure` when `tls`.
    pub fn new(tokens: &Tokens, login: bool, tls: bool) -> Self {
        let rng = ring::rand::SystemRandom::new();
        let key = ring::hmac::Key::generate(ring::hmac::HMAC_SHA256, &rng)
            .expect("the system random generator works");
        let sessions = tokens.readers().map(|t| session(&key, t)).collect();
        Auth {
            login,
            secure: tls,
            tokens: tokens.clone(),
            key,
            sessions,
        }
    }

    /// Whether a request with `headers` may read.
    pub fn allowed(&self, headers: &HeaderMap) -> bool {
        if !self.login {
            return true;
        }
        let Some(given) = cookie(headers, COOKIE) else {
            return false;
        };
        let mut ok = false;
        for s in &self.sessions {
            ok |= ct_eq(given.as_bytes(), s.as_bytes());
        }
        ok
    }

    /// [`Self::allowed`], or a read (or admin) token as
    /// `Authorization: Bearer TOKEN`, for scrapers (`/metrics`): a program
    /// has no login form.
    pub fn allowed_or_bearer(&self, headers: &HeaderMap) -> bool {
        if self.allowed(headers) {
            return true;
        }
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim);
        matches!(given, Some(t) if !t.is_empty() && self.tokens.may_read(t.as_bytes()))
    }
}

/// The session value of `token`: hex HMAC-SHA256 under `key`.
fn session(key: &ring::hmac::Key, token: &[u8]) -> String {
    let tag = ring::hmac::sign(key, token);
    tag.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// The value of cookie `name` in the request's `Cookie` headers.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// See Other to the login form.
pub fn to_login() -> Response {
    (StatusCode::SEE_OTHER, [(header::LOCATION, "/login")]).into_response()
}

fn login_page(code: StatusCode, message: &str) -> Response {
    let page = include_str!("login.html").replace("<!--message-->", message);
    (
        code,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page,
    )
        .into_response()
}

/// `GET /login`: the form (or the page, when no login is needed).
pub async fn form(State(d): State<Arc<Dashboard>>) -> Response {
    if !d.auth.login {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, "/")]).into_response();
    }
    login_page(StatusCode::OK, "")
}

/// The login form's fields.
#[derive(serde::Deserialize)]
pub struct LoginForm {
    /// The read (or admin) token.
    token: String,
}

/// `POST /login`: a right token sets the session cookie and goes to the
/// page; a wrong one is refused (401) after a short delay.
pub async fn login(State(d): State<Arc<Dashboard>>, Form(f): Form<LoginForm>) -> Response {
    let a = &d.auth;
    if !a.login {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, "/")]).into_response();
    }
    let given = f.token.trim();
    if given.is_empty() || !a.tokens.may_read(given.as_bytes()) {
        tracing::warn!("dashboard login with a wrong token refused");
        tokio::time::sleep(REFUSED_DELAY).await;
        return login_page(
            StatusCode::UNAUTHORIZED,
            "<p class=\"refused\">Wrong token: give the coordinator's read (or admin) token.</p>",
        );
    }
    let mut c = format!(
        "{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/",
        session(&a.key, given.as_bytes())
    );
    if a.secure {
        c.push_str("; Secure");
    }
    let mut r = (StatusCode::SEE_OTHER, [(header::LOCATION, "/")]).into_response();
    if let Ok(v) = HeaderValue::from_str(&c) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_cookie(v: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, HeaderValue::from_str(v).unwrap());
        h
    }

    #[test]
    fn only_a_session_of_a_reading_token_is_let_in() {
        let tokens = Tokens::new(
            Some("admin-t".into()),
            Some("work-t".into()),
            Some("read-t".into()),
        )
        .unwrap();
        let a = Auth::new(&tokens, true, false);
        assert!(!a.allowed(&HeaderMap::new()));
        let read = session(&a.key, b"read-t");
        let admin = session(&a.key, b"admin-t");
        let worker = session(&a.key, b"work-t");
        assert!(a.allowed(&with_cookie(&format!("x=1; {COOKIE}={read}"))));
        assert!(a.allowed(&with_cookie(&format!("{COOKIE}={admin}"))));
        assert!(!a.allowed(&with_cookie(&format!("{COOKIE}={worker}"))));
        assert!(!a.allowed(&with_cookie(&format!("{COOKIE}=read-t"))));
        assert!(!a.allowed(&with_cookie(&format!("{COOKIE}="))));
        // Another process (another key) makes other sessions.
        let b = Auth::new(&tokens, true, false);
        assert!(!b.allowed(&with_cookie(&format!("{COOKIE}={read}"))));
        // No login asked: everyone reads.
        assert!(Auth::new(&tokens, false, false).allowed(&HeaderMap::new()));
        assert!(!read.contains("read-t") && read.len() == 64);
    }
}
