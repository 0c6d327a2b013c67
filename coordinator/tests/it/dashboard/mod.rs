//! The dashboard (`serve --http`): its login and cookies over plain HTTP,
//! and the page itself in headless Chromium driven over WebDriver during a
//! real sweep (numbers equal to `status --json`, the state turning to done,
//! witness pictures drawn). The browser test needs `chromium` and
//! `chromedriver`: it is `#[ignore = "needs chromium"]`, and fails without
//! them when it runs (`-- --include-ignored`, as `.ci/run` does).
//!
//! `GAMESWEEP_DASHBOARD_SCREENSHOT=1` also copies the browser's screenshot
//! to `docs/dashboard.png` (the one the README shows).

use crate::support::browser;
use crate::support::harness;
use crate::support::proc;
use harness::{gs, isolated, ok, refused, work_until_idle, Client, Serve, BIN};
use proc::Proc;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod access;
mod hostile;
mod in_browser;

/// `serve --http 127.0.0.1:0` with `extra` options: the coordinator, its
/// gRPC URL and the dashboard's URL.
pub(crate) fn serve_http(dir: &Path, extra: &[&str]) -> (Proc, String, String) {
    let c = Serve::new(&dir.join("store"))
        .http_face()
        .args(extra)
        .log(&dir.join("serve.log"))
        .start();
    let http = c.http.clone().unwrap();
    let (p, url) = c.into_parts();
    (p, url, http)
}

/// A response: status, headers (lower-case names), body.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Reply {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request to the dashboard at `base` (`http://HOST:PORT/`).
pub(crate) fn request(
    base: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    let host = base.strip_prefix("http://").unwrap().trim_end_matches('/');
    let s = TcpStream::connect(host).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    exchange(s, host, method, path, headers, body)
}

/// The same over TLS, trusting only the certificate in `ca_pem`.
fn tls_request(
    base: &str,
    ca_pem: &Path,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    use rustls::pki_types::pem::PemObject;
    use std::sync::Arc;
    use tokio_rustls::rustls;
    let host = base.strip_prefix("https://").unwrap().trim_end_matches('/');
    let mut roots = rustls::RootCertStore::empty();
    for c in rustls::pki_types::CertificateDer::pem_file_iter(ca_pem).unwrap() {
        roots.add(c.unwrap()).unwrap();
    }
    let cfg = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let conn = rustls::ClientConnection::new(Arc::new(cfg), name).unwrap();
    let tcp = TcpStream::connect(host).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    exchange(
        rustls::StreamOwned::new(conn, tcp),
        host,
        method,
        path,
        headers,
        body,
    )
}

fn exchange(
    mut s: impl Read + Write,
    host: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    s.flush().unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            // A TLS peer closing without close_notify: the reply is whole
            // (Connection: close).
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => panic!("reading the reply: {e}"),
        }
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_string(),
    }
}

pub(crate) fn write_token(dir: &Path, name: &str, token: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("{token}\n")).unwrap();
    p
}

/// What the page shows of sweep `id` (read from the DOM), or `null`.
pub(crate) const READ_SWEEP: &str = r#"
const s = document.querySelector('section.sweep[data-sweep="' + arguments[0] + '"]');
if (!s) return null;
const v = c => Number(s.querySelector(c).dataset.value);
return {
  state: s.dataset.state,
  shards_done: v('.shards-done'), shards_total: v('.shards-total'),
  shards_pending: v('.shards-pending'), shards_leased: v('.shards-leased'),
  shards_failed: v('.shards-failed'),
  positions_done: v('.positions-done'),
  positions_target: s.querySelector('.positions-target') ? v('.positions-target') : null,
  pictures: s.querySelectorAll('figure.witness svg.graph').length,
  starts: s.querySelectorAll('figure.witness svg.graph circle.start').length,
  board_links: s.querySelectorAll('figure.witness a.explore[href^="/explore?g="] svg.graph').length,
  charts: s.querySelectorAll('svg.chart').length,
  workers: document.querySelectorAll('#workers tr.worker').length,
};"#;
