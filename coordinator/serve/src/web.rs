//! Pieces every web face of the coordinator answers with (the dashboard,
//! the boards, `gamesweep explore`): fixed bodies, JSON bodies and errors,
//! the security headers, 404; and how they are served ([`serve`]):
//! connection caps in all and per peer, header and body read timeouts,
//! `Origin` checked on `POST`, `Host` checked on loopback, HSTS under TLS
//! ([`guard`]). A leaf: it knows only axum, hyper and rustls.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// A compiled-in body of content type `kind`.
pub fn text(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// The pages' icon (a small SVG: a graph of three vertices, one marked as
/// a start), linked from every page's head and served at `/favicon.ico`
/// too, where browsers ask for one unprompted: without it every page left
/// a 404 in the console.
pub const ICON_SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 32 32\"><g stroke=\"#1565c0\" stroke-width=\"3\"><line x1=\"8\" y1=\"24\" x2=\"16\" y2=\"8\"/><line x1=\"16\" y1=\"8\" x2=\"24\" y2=\"24\"/><line x1=\"8\" y1=\"24\" x2=\"24\" y2=\"24\"/></g><circle cx=\"16\" cy=\"8\" r=\"5\" fill=\"#e65100\"/><circle cx=\"8\" cy=\"24\" r=\"5\" fill=\"#1565c0\"/><circle cx=\"24\" cy=\"24\" r=\"5\" fill=\"#1565c0\"/></svg>\n";

/// `GET /favicon.ico` (and `/favicon.svg`): [`ICON_SVG`], cached for a day.
pub async fn icon() -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "max-age=86400"),
        ],
        ICON_SVG,
    )
        .into_response()
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

// ---- serving: connection bounds and the request guards ----

use axum::body::Body;
use axum::extract::Request;
use axum::middleware::Next;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_rustls::rustls;

/// Connections a web face serves at once; more wait to be accepted.
pub const MAX_CONNECTIONS: usize = 128;

/// Connections one peer (an IPv4 address, an IPv6 /64) may hold open: its
/// next one closes its oldest, so one peer's slow or idle connections never
/// hold the slots everyone else needs (140 slow logins did).
pub const MAX_PER_PEER: usize = 16;

/// The longest a client may take to send a request's headers (or to finish
/// the TLS handshake).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest a client may take to send a request's body, whole (the
/// largest, [`BODY_MAX`], at 512 KiB/s).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(5);

/// Requests that may be sending their bodies at once; one more is answered
/// 503 at once, unread, and its connection closed. So slow bodies hold at
/// most a quarter of the [`MAX_CONNECTIONS`] slots, however many peers
/// send them, and the rest stay free for reading the pages (150 slow
/// bodies from 10 addresses kept every slot: the dashboard answered in
/// 7.5-10 s).
pub const BODY_READERS: usize = MAX_CONNECTIONS / 4;

/// The largest request body any web face reads (a game file of
/// `explore::values::GAME_TEXT_MAX` and some slack).
pub const BODY_MAX: usize = 2 << 20;

/// The address a request came from (an extension of every request
/// [`serve`] answers): what decides "on loopback" for a request, not the
/// listening address.
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub std::net::SocketAddr);

/// How a web face is served.
#[derive(Clone)]
pub struct WebServe {
    /// TLS, when the face has a certificate.
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// [`BODY_TIMEOUT`] unless a test shortens it.
    pub body_timeout: Duration,
    /// [`MAX_PER_PEER`] unless a test changes it.
    pub per_peer: usize,
}

impl Default for WebServe {
    fn default() -> Self {
        WebServe {
            tls: None,
            body_timeout: BODY_TIMEOUT,
            per_peer: MAX_PER_PEER,
        }
    }
}

/// The peer a connection counts against: its IPv4 address, or the /64 of
/// its IPv6 address (one host gets a whole /64).
fn peer_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        v4 => v4,
    }
}

/// Open connections per peer, oldest first, each with the handle that
/// closes it.
#[derive(Default)]
struct Peers {
    open: HashMap<IpAddr, VecDeque<(u64, tokio::task::AbortHandle)>>,
}

impl Peers {
    /// Note connection `id` of `peer`; close that peer's oldest past `cap`.
    fn add(&mut self, peer: IpAddr, id: u64, h: tokio::task::AbortHandle, cap: usize) {
        let q = self.open.entry(peer).or_default();
        q.push_back((id, h));
        while q.len() > cap.max(1) {
            if let Some((_, old)) = q.pop_front() {
                old.abort();
            }
        }
    }

    fn remove(&mut self, peer: IpAddr, id: u64) {
        if let Some(q) = self.open.get_mut(&peer) {
            q.retain(|(i, _)| *i != id);
            if q.is_empty() {
                self.open.remove(&peer);
            }
        }
    }
}

/// Serve `app` on `listener` until `shutdown`: HTTP/1.1 (over TLS when
/// `opts.tls`), at most [`MAX_CONNECTIONS`] connections and
/// `opts.per_peer` per peer, headers within [`HEADER_TIMEOUT`], bodies
/// within `opts.body_timeout`, and [`guard`]'s checks on every request.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    opts: WebServe,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let loopback = listener.local_addr()?.ip().is_loopback();
    let app = guard(app, loopback, opts.tls.is_some(), opts.body_timeout);
    let tls = opts.tls.clone().map(tokio_rustls::TlsAcceptor::from);
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let peers = Arc::new(Mutex::new(Peers::default()));
    let mut conns = tokio::task::JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    let mut next_id = 0u64;
    loop {
        let permit = tokio::select! {
            _ = &mut shutdown => break,
            p = slots.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
        };
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => break,
            a = listener.accept() => match a {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors and the like: wait, do not spin.
                    tracing::warn!(error = %e, "web: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        while conns.try_join_next().is_some() {}
        let app = app.clone().layer(axum::Extension(Peer(peer)));
        let tls = tls.clone();
        let key = peer_key(peer.ip());
        let id = next_id;
        next_id += 1;
        let gone = peers.clone();
        // Registered under the lock before the task can end and remove
        // itself.
        let mut p = peers.lock().unwrap_or_else(|e| e.into_inner());
        let handle = conns.spawn(async move {
            let _permit = permit;
            let _forget = Forget(gone, key, id);
            let svc = TowerToHyperService::new(app);
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT);
            let served = match tls {
                None => http.serve_connection(TokioIo::new(stream), svc).await,
                Some(acceptor) => {
                    match tokio::time::timeout(HEADER_TIMEOUT, acceptor.accept(stream)).await {
                        Ok(Ok(s)) => http.serve_connection(TokioIo::new(s), svc).await,
                        Ok(Err(e)) => {
                            tracing::debug!(%peer, error = %e, "web: TLS handshake failed");
                            return;
                        }
                        Err(_) => return,
                    }
                }
            };
            if let Err(e) = served {
                tracing::debug!(%peer, error = %e, "web connection ended");
            }
        });
        p.add(key, id, handle, opts.per_peer);
    }
    conns.abort_all();
    Ok(())
}

/// Forgets its connection in the peer table when the connection's task
/// ends or is aborted.
struct Forget(Arc<Mutex<Peers>>, IpAddr, u64);

impl Drop for Forget {
    fn drop(&mut self) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(self.1, self.2);
    }
}

/// `app` behind the checks every web face makes: a request body read whole
/// within `body_timeout` (408 otherwise) and at most [`BODY_MAX`] bytes;
/// a `POST` from another origin refused; on a `loopback` listener, a `Host`
/// other than a loopback name refused (DNS rebinding); the security
/// headers, and HSTS under `tls`.
pub fn guard(app: Router, loopback: bool, tls: bool, body_timeout: Duration) -> Router {
    let bodies = Bodies {
        timeout: body_timeout,
        readers: Arc::new(tokio::sync::Semaphore::new(BODY_READERS)),
    };
    let app = app
        .layer(axum::middleware::from_fn_with_state(
            bodies,
            read_body_within,
        ))
        .layer(axum::middleware::from_fn(same_origin_post));
    let app = if loopback {
        app.layer(axum::middleware::from_fn(loopback_host))
    } else {
        app
    };
    let app = app.layer(axum::middleware::map_response(secure_headers));
    if tls {
        app.layer(axum::middleware::map_response(hsts))
    } else {
        app
    }
}

/// HSTS: a browser that saw the face over TLS never asks it in plain text.
async fn hsts(mut r: Response) -> Response {
    r.headers_mut().insert(
        "strict-transport-security",
        HeaderValue::from_static("max-age=31536000"),
    );
    r
}

/// How request bodies are read: within `timeout`, at most
/// [`BODY_READERS`] at once.
#[derive(Clone)]
struct Bodies {
    timeout: Duration,
    readers: Arc<tokio::sync::Semaphore>,
}

/// Read the whole body within its timeout before the handler runs: a
/// client sending a byte every few seconds holds a connection no longer
/// than that; and while [`BODY_READERS`] bodies are arriving, a request
/// with one more is answered 503 at once.
async fn read_body_within(
    axum::extract::State(bodies): axum::extract::State<Bodies>,
    req: Request,
    next: Next,
) -> Response {
    let has_body = req.headers().contains_key(header::TRANSFER_ENCODING)
        || req
            .headers()
            .get(header::CONTENT_LENGTH)
            .is_some_and(|v| v.as_bytes() != b"0");
    let reader = if has_body {
        match bodies.readers.clone().try_acquire_owned() {
            Ok(p) => Some(p),
            Err(_) => {
                let mut r = closing(error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    &format!(
                        "{BODY_READERS} requests are sending their bodies right now; try again in a moment"
                    ),
                ));
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
                return r;
            }
        }
    } else {
        None
    };
    let timeout = bodies.timeout;
    let (parts, body) = req.into_parts();
    let read = tokio::time::timeout(timeout, axum::body::to_bytes(body, BODY_MAX)).await;
    drop(reader);
    match read {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(_)) => closing(error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("request body larger than {BODY_MAX} bytes"),
        )),
        Err(_) => closing(error(
            StatusCode::REQUEST_TIMEOUT,
            &format!(
                "the request body did not arrive within {} s",
                timeout.as_secs_f64()
            ),
        )),
    }
}

/// `r` with `Connection: close` (the rest of the request is not read).
fn closing(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}

/// The `Host` header's host name, without the port.
fn host_name(headers: &HeaderMap) -> Option<&str> {
    let h = headers.get(header::HOST)?.to_str().ok()?;
    Some(match h.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => h.rsplit_once(':').map_or(h, |(name, _)| name),
    })
}

/// Refuse a `POST` that a page of another origin sent: its `Origin` (or
/// `Sec-Fetch-Site: cross-site`) names another site than the `Host` asked.
/// A client that sends neither (curl, a script) is not a browser and is let
/// through; what it may do is what its token allows.
async fn same_origin_post(req: Request, next: Next) -> Response {
    if req.method() == axum::http::Method::POST {
        let h = req.headers();
        let cross_site = h
            .get("sec-fetch-site")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v == "cross-site");
        let origin_ok = match h.get(header::ORIGIN) {
            None => true,
            Some(o) => {
                let host = h.get(header::HOST).and_then(|v| v.to_str().ok());
                let origin = o.to_str().unwrap_or("");
                let bare = origin
                    .strip_prefix("https://")
                    .or_else(|| origin.strip_prefix("http://"));
                matches!((bare, host), (Some(b), Some(h)) if b.eq_ignore_ascii_case(h))
            }
        };
        if cross_site || !origin_ok {
            return error(
                StatusCode::FORBIDDEN,
                "cross-origin POST refused: send it from this site's own page",
            );
        }
    }
    next.run(req).await
}

/// On a loopback listener, answer only requests for a loopback name: a page
/// of another site whose name an attacker points at 127.0.0.1 (DNS
/// rebinding) asks with its own name in `Host`.
async fn loopback_host(req: Request, next: Next) -> Response {
    let ok = host_name(req.headers()).is_some_and(|h| {
        h.eq_ignore_ascii_case("localhost") || h.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
    });
    if !ok {
        return error(
            StatusCode::MISDIRECTED_REQUEST,
            "this page listens on a loopback address and answers only Host: localhost, 127.0.0.1 or [::1]",
        );
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peers_are_keyed_by_address_or_ipv6_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(peer_key(a), peer_key(b));
        let m: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(peer_key(m), "10.0.0.1".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn host_names_lose_their_port() {
        let h = |v: &str| {
            let mut m = HeaderMap::new();
            m.insert(header::HOST, HeaderValue::from_str(v).unwrap());
            host_name(&m).map(str::to_string)
        };
        assert_eq!(h("127.0.0.1:80").as_deref(), Some("127.0.0.1"));
        assert_eq!(h("[::1]:8080").as_deref(), Some("::1"));
        assert_eq!(h("localhost").as_deref(), Some("localhost"));
        assert_eq!(h("evil.example:7462").as_deref(), Some("evil.example"));
    }
}
