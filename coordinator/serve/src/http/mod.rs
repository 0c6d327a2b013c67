//! The dashboard: a read-only web page over the coordinator's [`Core`],
//! served over HTTP/1.1 (TLS with the gRPC server's certificate when it has
//! one). Everything it needs is compiled into the binary (`page.html`,
//! `app.js`, `style.css`); the page polls the JSON routes every two seconds.
//!
//! Routes (all `GET` but the login form's `POST`):
//! - `/`: the page; `/app.js`, `/style.css`: its script (an ES module that
//!   imports the boards' `/explore/html.js` and `/explore/games.js`) and
//!   style; `/favicon.ico`: its icon (from the boards' routes).
//! - `/api/status`: the [`Overview`] of every sweep, the same data as
//!   `gamesweep status --json`.
//! - `/api/history`: positions done per sweep, sampled every
//!   [`history::EVERY`] over the last hour, and each worker's recent rate.
//! - `/api/sweep/{id}/witnesses`: the witnesses and counterexamples found
//!   so far, each with an SVG picture drawn here ([`witnesses`]).
//! - `/login`: the login form (only when a token is required); `POST
//!   /logout` ends the session.
//! - `/explore...`: the boards ([`crate::explore`]), behind the same login;
//!   each witness picture links to its position there.
//!
//! On a loopback address nothing is asked (like gRPC without tokens). On
//! any other address the read (or admin) token is asked for once, through
//! the login form, which sets an `HttpOnly; SameSite=Strict` session cookie
//! (a random session id that expires, never the token); no token ever
//! travels in a URL ([`auth`]). Served by [`crate::web::serve`]: connection
//! caps, body timeout, `Origin` on `POST`, `Host` on loopback, HSTS.
//!
//! Every handler that reads the core runs on a blocking thread, as the gRPC
//! handlers do.

pub mod auth;
pub mod history;
pub mod witnesses;

use crate::web::{error, json, not_found, text, unauthorized};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use gamesweep_engine::core::{Core, CoreError};
use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio_rustls::rustls;

/// Connections served at once; more wait to be accepted.
pub const MAX_CONNECTIONS: usize = crate::web::MAX_CONNECTIONS;

/// When a page last read `/api/status` (shared with whoever serves the
/// dashboard: `run` keeps its dashboard answering after the end while a
/// page is reading it, so the page shows the final state).
#[derive(Clone, Debug, Default)]
pub struct LastPoll(Arc<std::sync::Mutex<Option<std::time::Instant>>>);

impl LastPoll {
    /// When a page last read the status (`None`: never).
    pub fn get(&self) -> Option<std::time::Instant> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn mark(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(std::time::Instant::now());
    }
}

/// How the dashboard is served.
#[derive(Clone, Default)]
pub struct HttpOptions {
    /// The coordinator's tokens (the read or admin token logs in).
    pub tokens: crate::access::Tokens,
    /// Ask for the token (a non-loopback address, or a test forcing it).
    pub login: bool,
    /// TLS (the gRPC server's certificate and key, and its client CA).
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// Marked each time a page reads the status.
    pub last_poll: LastPoll,
    /// Bytes one board search past the budget may hold (`None`:
    /// [`crate::explore::values::SEARCH_MEMORY_DEFAULT`]).
    pub search_memory: Option<u64>,
}

/// Whether the dashboard on `addr` asks for a token: on any address but a
/// loopback one, when the coordinator has tokens.
pub fn needs_login(addr: std::net::SocketAddr, tokens: &crate::access::Tokens) -> bool {
    !addr.ip().is_loopback() && tokens.any()
}

/// The dashboard's state: the core, the rate history, the pictures drawn,
/// the sessions.
pub struct Dashboard {
    core: Arc<Core>,
    history: history::History,
    pictures: witnesses::Cache,
    auth: auth::Auth,
    last_poll: LastPoll,
    search_memory: Option<u64>,
}

impl Dashboard {
    /// A dashboard over `core`.
    pub fn new(core: Arc<Core>, opts: &HttpOptions) -> Arc<Self> {
        Arc::new(Dashboard {
            core,
            history: history::History::default(),
            pictures: witnesses::Cache::default(),
            auth: auth::Auth::new(&opts.tokens, opts.login, opts.tls.is_some()),
            last_poll: opts.last_poll.clone(),
            search_memory: opts.search_memory,
        })
    }
}

/// Bind `addr` for the dashboard (port 0 picks a free port).
pub async fn bind(addr: std::net::SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await.map_err(|e| {
        std::io::Error::new(e.kind(), format!("cannot listen for HTTP on {addr}: {e}"))
    })
}

/// The dashboard's URL for a listener bound at `addr`.
pub fn url(addr: std::net::SocketAddr, tls: bool) -> String {
    let scheme = if tls { "https" } else { "http" };
    format!("{scheme}://{addr}/")
}

/// Serve the dashboard of `core` on `listener` until `shutdown` completes.
pub async fn serve(
    core: Arc<Core>,
    listener: TcpListener,
    opts: HttpOptions,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let dash = Dashboard::new(core, &opts);
    let sampler = tokio::spawn(history::sample_loop(dash.clone()));
    let app = router(dash);
    let served = crate::web::serve(
        listener,
        app,
        crate::web::WebServe {
            tls: opts.tls,
            ..Default::default()
        },
        shutdown,
    )
    .await;
    sampler.abort();
    served
}

/// The routes over `dash`.
pub fn router(dash: Arc<Dashboard>) -> Router {
    // The boards, read-only under the dashboard's login, so its witness
    // links work wherever the coordinator runs.
    let d = dash.clone();
    let guard: crate::explore::Guard = Arc::new(move |h: &HeaderMap| d.auth.allowed(h));
    let limits = crate::explore::SearchLimits::new(
        dash.search_memory
            .unwrap_or(crate::explore::values::SEARCH_MEMORY_DEFAULT),
        dash.auth.asks(),
    );
    let boards = crate::explore::router(
        crate::explore::Explorer::new(Vec::new(), None, Some(guard)).with_search_limits(limits),
    );
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
        .route("/login", get(auth::form).post(auth::login))
        .route("/logout", axum::routing::post(auth::logout))
        .route("/api/status", get(status))
        .route("/api/history", get(history_json))
        .route("/api/sweep/{id}/witnesses", get(witnesses_json))
        .route("/metrics", get(metrics))
        .fallback(not_found)
        .with_state(dash)
        .merge(boards)
}

async fn page(State(d): State<Arc<Dashboard>>, headers: HeaderMap) -> Response {
    if !d.auth.allowed(&headers) {
        return auth::to_login();
    }
    // "Log out" only where there was a login: on loopback nothing is asked,
    // and a button to end a session that never began puzzles.
    let logout = if d.auth.asks() {
        r#"<form method="post" action="/logout" class="logout"><button type="submit">Log out</button></form>"#
    } else {
        ""
    };
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("page.html").replace("<!--logout-->", logout),
    )
        .into_response()
}

async fn script() -> Response {
    text("text/javascript; charset=utf-8", include_str!("app.js"))
}

async fn style() -> Response {
    text("text/css; charset=utf-8", include_str!("style.css"))
}

/// Run `f` on a blocking thread (the core's lock is a std mutex).
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, CoreError> + Send + 'static,
) -> Result<T, Response> {
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e @ CoreError::NoSuchSweep(_))) => Err(error(StatusCode::NOT_FOUND, &e.to_string())),
        Ok(Err(e)) => Err(error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string())),
        Err(e) => Err(error(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("dashboard task failed: {e}"),
        )),
    }
}

async fn status(State(d): State<Arc<Dashboard>>, headers: HeaderMap) -> Response {
    if !d.auth.allowed(&headers) {
        return unauthorized();
    }
    let core = d.core.clone();
    let last_poll = d.last_poll.clone();
    match blocking(move || core.overview(None)).await {
        Ok(r) => {
            last_poll.mark();
            json(&r)
        }
        Err(r) => r,
    }
}

/// `GET /metrics`: Prometheus text (see [`crate::metrics`]); the session
/// cookie or the read token as a bearer token.
async fn metrics(State(d): State<Arc<Dashboard>>, headers: HeaderMap) -> Response {
    if !d.auth.allowed_or_bearer(&headers) {
        return error(
            StatusCode::UNAUTHORIZED,
            "give the read token as `Authorization: Bearer TOKEN`",
        );
    }
    let core = d.core.clone();
    match blocking(move || crate::metrics::render(&core)).await {
        Ok(text) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)],
            text,
        )
            .into_response(),
        Err(r) => r,
    }
}

async fn history_json(State(d): State<Arc<Dashboard>>, headers: HeaderMap) -> Response {
    if !d.auth.allowed(&headers) {
        return unauthorized();
    }
    json(&d.history.samples())
}

async fn witnesses_json(
    State(d): State<Arc<Dashboard>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    if !d.auth.allowed(&headers) {
        return unauthorized();
    }
    let dd = d.clone();
    match blocking(move || dd.pictures.get(&dd.core, &id)).await {
        Ok(p) => json(&*p),
        Err(r) => r,
    }
}

/// The dashboard's TLS settings from the gRPC server's PEM files: its
/// certificate chain and key, and, for mutual TLS, the CA client
/// certificates must be signed by. HTTP/1.1 only (browsers' plain choice).
pub fn tls_config(
    cert: &[u8],
    key: &[u8],
    client_ca: Option<&[u8]>,
) -> Result<Arc<rustls::ServerConfig>, String> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(cert)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--tls-cert: {e}"))?;
    if chain.is_empty() {
        return Err("--tls-cert holds no certificate".into());
    }
    let key = PrivateKeyDer::from_pem_slice(key).map_err(|e| format!("--tls-key: {e}"))?;
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?;
    let builder = match client_ca {
        None => builder.with_no_client_auth(),
        Some(ca) => {
            let mut roots = rustls::RootCertStore::empty();
            for c in CertificateDer::pem_slice_iter(ca) {
                let c = c.map_err(|e| format!("--tls-client-ca: {e}"))?;
                roots.add(c).map_err(|e| format!("--tls-client-ca: {e}"))?;
            }
            let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
                Arc::new(roots),
                provider,
            )
            .build()
            .map_err(|e| format!("--tls-client-ca: {e}"))?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let mut cfg = builder
        .with_single_cert(chain, key)
        .map_err(|e| format!("--tls-cert/--tls-key: {e}"))?;
    cfg.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(cfg))
}
