//! The dashboard's login: the read (or admin) token, typed into a form and
//! sent in a `POST` body, buys a session cookie. The cookie's value is a
//! random session id (so it is worth nothing to another process, or after a
//! restart, and never shows the token) that the dashboard keeps for
//! [`SESSION_TTL`] after the login, at most [`MAX_SESSIONS`] at once;
//! `POST /logout` ends it. The cookie is `HttpOnly` (no script reads it),
//! `SameSite=Strict` (no other site's page sends it), `Path=/`,
//! `Max-Age` of the session, and `Secure` under TLS. Session ids and tokens
//! are compared in constant time (ids are looked up by their HMAC under a
//! key drawn at start). No token is ever put in a URL: the form posts to
//! `/login`, and redirects go to `/` or `/login` only.

use super::Dashboard;
use crate::access::Tokens;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Form;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The session cookie's name.
pub const COOKIE: &str = "gamesweep_session";

/// How long a refused login waits before it answers (slows guessing).
const REFUSED_DELAY: Duration = Duration::from_millis(300);

/// How long a session lasts after its login.
pub const SESSION_TTL: Duration = Duration::from_secs(12 * 3600);

/// Sessions kept at once; a login past this ends the oldest.
pub const MAX_SESSIONS: usize = 1024;

/// Who may look.
pub struct Auth {
    /// Ask at all.
    login: bool,
    /// Add `Secure` to the cookie.
    secure: bool,
    /// The tokens (the read or the admin token logs in).
    tokens: Tokens,
    /// The key session ids are looked up under.
    key: ring::hmac::Key,
    /// Live sessions: the HMAC of the id (hex) and when it expires.
    sessions: Mutex<HashMap<String, Instant>>,
    /// [`SESSION_TTL`] unless a test shortens it.
    ttl: Duration,
}

impl Auth {
    /// Login against `tokens` when `login`; cookies `Secure` when `tls`.
    pub fn new(tokens: &Tokens, login: bool, tls: bool) -> Self {
        let rng = ring::rand::SystemRandom::new();
        let key = ring::hmac::Key::generate(ring::hmac::HMAC_SHA256, &rng)
            .expect("the system random generator works");
        Auth {
            login,
            secure: tls,
            tokens: tokens.clone(),
            key,
            sessions: Mutex::new(HashMap::new()),
            ttl: SESSION_TTL,
        }
    }

    /// A new session: its id (the cookie's value). The oldest session goes
    /// when [`MAX_SESSIONS`] are live.
    fn open(&self, now: Instant) -> String {
        let mut id = [0u8; 32];
        ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut id)
            .expect("the system random generator works");
        let id = hex(&id);
        let mut s = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        s.retain(|_, until| *until > now);
        while s.len() >= MAX_SESSIONS {
            let Some(oldest) = s.iter().min_by_key(|(_, u)| **u).map(|(k, _)| k.clone()) else {
                break;
            };
            s.remove(&oldest);
        }
        s.insert(session(&self.key, id.as_bytes()), now + self.ttl);
        id
    }

    /// End the session `id` (logout); unknown ids are ignored.
    fn close(&self, id: &str) {
        let k = session(&self.key, id.as_bytes());
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&k);
    }

    /// Whether `id` is a live session at `now`.
    fn live(&self, id: &str, now: Instant) -> bool {
        // Looked up by its HMAC: the map's comparisons learn nothing an
        // attacker could use to guess an id byte by byte.
        let k = session(&self.key, id.as_bytes());
        let s = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        s.get(&k).is_some_and(|until| *until > now)
    }

    /// Whether the dashboard asks for a token at all (else it has no
    /// sessions, and nothing to log out of).
    pub fn asks(&self) -> bool {
        self.login
    }

    /// Whether a request with `headers` may read.
    pub fn allowed(&self, headers: &HeaderMap) -> bool {
        if !self.login {
            return true;
        }
        let Some(given) = cookie(headers, COOKIE) else {
            return false;
        };
        self.live(given, Instant::now())
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

/// The key a session id is kept under: hex HMAC-SHA256 under `key`.
fn session(key: &ring::hmac::Key, id: &[u8]) -> String {
    hex(ring::hmac::sign(key, id).as_ref())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
        "{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/; Max-Age={}",
        a.open(Instant::now()),
        a.ttl.as_secs()
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

/// `POST /logout`: end this session, clear the cookie, go to the form.
pub async fn logout(State(d): State<Arc<Dashboard>>, headers: HeaderMap) -> Response {
    if let Some(id) = cookie(&headers, COOKIE) {
        d.auth.close(id);
    }
    let target = if d.auth.login { "/login" } else { "/" };
    let mut r = (StatusCode::SEE_OTHER, [(header::LOCATION, target)]).into_response();
    let mut c = format!("{COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
    if d.auth.secure {
        c.push_str("; Secure");
    }
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
    fn sessions_expire_and_end_at_logout() {
        let tokens = Tokens::new(Some("admin-t".into()), None, Some("read-t".into())).unwrap();
        let mut a = Auth::new(&tokens, true, false);
        a.ttl = Duration::from_secs(60);
        assert!(!a.allowed(&HeaderMap::new()));
        let now = Instant::now();
        let id = a.open(now);
        assert_eq!(id.len(), 64);
        assert!(a.allowed(&with_cookie(&format!("x=1; {COOKIE}={id}"))));
        assert!(a.live(&id, now + Duration::from_secs(59)));
        // Expired: an early dashboard let such a cookie in forever.
        assert!(!a.live(&id, now + Duration::from_secs(61)));
        let other = a.open(now);
        a.close(&other);
        assert!(!a.allowed(&with_cookie(&format!("{COOKIE}={other}"))));
        assert!(a.allowed(&with_cookie(&format!("{COOKIE}={id}"))));
        for forged in ["", "read-t", &id[..63]] {
            assert!(!a.allowed(&with_cookie(&format!("{COOKIE}={forged}"))));
        }
        // Another process knows none of these sessions.
        let b = Auth::new(&tokens, true, false);
        assert!(!b.allowed(&with_cookie(&format!("{COOKIE}={id}"))));
        // No login asked: everyone reads.
        assert!(Auth::new(&tokens, false, false).allowed(&HeaderMap::new()));
    }

    #[test]
    fn sessions_are_bounded() {
        let tokens = Tokens::new(Some("admin-t".into()), None, Some("read-t".into())).unwrap();
        let a = Auth::new(&tokens, true, false);
        let now = Instant::now();
        let first = a.open(now);
        for i in 0..MAX_SESSIONS + 10 {
            a.open(now + Duration::from_millis(i as u64 + 1));
        }
        assert_eq!(a.sessions.lock().unwrap().len(), MAX_SESSIONS);
        assert!(!a.live(&first, now));
    }
}
