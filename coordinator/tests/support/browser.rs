//! Headless Chromium over WebDriver (chromedriver + fantoccini), for the
//! browser tests (`dashboard`, `explore`, `#[ignore = "needs chromium"]`):
//! where the two programs are (the test fails when they are not), and a
//! session on a driver started (and killed on drop) here.
#![allow(dead_code)] // each test file uses what it needs

use super::proc::{free_port, Proc};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where Chromium and its WebDriver are, or why a browser test cannot run.
pub fn browser() -> Result<(PathBuf, PathBuf), String> {
    let find = |names: &[&str]| names.iter().map(PathBuf::from).find(|p| p.is_file());
    let chromium = find(&[
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ])
    .ok_or("no chromium (Debian package `chromium`)")?;
    let driver = find(&["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"])
        .ok_or("no chromedriver (Debian package `chromium-driver`)")?;
    Ok((chromium, driver))
}

/// Chromium and its WebDriver, or the failure of `test` naming what is
/// missing.
pub fn browser_or_fail(test: &str) -> (PathBuf, PathBuf) {
    browser().unwrap_or_else(|why| super::proc::missing(test, "chromium and chromedriver", &why))
}

/// A browser test's WebDriver and runtime: chromedriver on a free loopback
/// port (killed on drop, its log in `dir`) and a two-thread tokio runtime
/// to drive sessions with.
pub struct Browser {
    chromium: PathBuf,
    port: u16,
    /// The runtime the test's sessions run on.
    pub rt: tokio::runtime::Runtime,
    _driver: Proc,
}

impl Browser {
    /// Start `driver` for `chromium` ([`browser_or_fail`]'s pair).
    pub fn start(chromium: &Path, driver_bin: &Path, dir: &Path) -> Browser {
        let (d, port) = driver(driver_bin, dir);
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        Browser {
            chromium: chromium.to_path_buf(),
            port,
            rt,
            _driver: d,
        }
    }

    /// A headless session ([`session`]) with its profile in `dir`.
    pub async fn client(&self, dir: &Path, width: u32, height: u32) -> fantoccini::Client {
        session(&self.chromium, self.port, dir, width, height).await
    }

    /// The browser console's entries (console calls, uncaught exceptions,
    /// failed loads) of session `c` since the last call: chromedriver's log
    /// of type `browser` (`POST /session/ID/se/log`, which fantoccini does
    /// not wrap), each `{level, message, source}`.
    pub async fn console(&self, c: &fantoccini::Client) -> Vec<serde_json::Value> {
        let id = c.session_id().await.unwrap().expect("a session");
        let port = self.port;
        tokio::task::spawn_blocking(move || browser_log(port, &id))
            .await
            .unwrap()
    }
}

/// The `browser` log of session `id` on the driver at `port`.
fn browser_log(port: u16, id: &str) -> Vec<serde_json::Value> {
    use std::io::{Read, Write};
    let body = r#"{"type":"browser"}"#;
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "POST /session/{id}/se/log HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // chromedriver keeps the connection open: read the head, then
    // Content-Length bytes.
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let (head, json) = loop {
        let n = s.read(&mut chunk).unwrap();
        assert!(n > 0, "the browser log: the driver closed after {buf:?}");
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_string();
            let len: usize = head
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse().ok())?
                })
                .unwrap_or_else(|| panic!("the browser log: no Content-Length: {head}"));
            let body = &buf[end + 4..];
            if body.len() >= len {
                break (head, String::from_utf8_lossy(&body[..len]).to_string());
            }
        }
    };
    let json = json.as_str();
    assert!(
        head.starts_with("HTTP/1.1 200"),
        "the browser log: {head}\n{json}"
    );
    let v: serde_json::Value =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("the browser log: {e}: {json}"));
    v["value"]
        .as_array()
        .unwrap_or_else(|| panic!("the browser log: {v}"))
        .clone()
}

/// chromedriver on a free loopback port (killed on drop), its log in `dir`.
pub fn driver(driver: &Path, dir: &Path) -> (Proc, u16) {
    let port = free_port();
    let p = Proc(
        Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("chromedriver.log")).unwrap())
            .spawn()
            .unwrap(),
    );
    (p, port)
}

/// A headless Chromium session on the driver at `port` (retried while the
/// driver starts, at most 30 s), with its profile in `dir` and a window of
/// `width` × `height` (below 500 px wide, an emulated screen of that size). `--no-sandbox`: tests may run as root.
pub async fn session(
    chromium: &Path,
    port: u16,
    dir: &Path,
    width: u32,
    height: u32,
) -> fantoccini::Client {
    let profile = dir.join("profile");
    let mut caps = serde_json::Map::new();
    // Every console entry is kept for [`Browser::console`].
    caps.insert(
        "goog:loggingPrefs".into(),
        serde_json::json!({"browser": "ALL"}),
    );
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", format!("--window-size={width},{height}"),
                     format!("--user-data-dir={}", profile.display())],
        }),
    );
    if width < 500 {
        // Chromium's window is at least 500 px wide; a narrower page (a
        // phone's 420 px) is an emulated screen of that width.
        caps["goog:chromeOptions"]["mobileEmulation"] = serde_json::json!({
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 1.0,
                              "mobile": false, "touch": false},
        });
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut b = fantoccini::ClientBuilder::new(
            hyper_util::client::legacy::connect::HttpConnector::new(),
        );
        b.capabilities(caps.clone());
        match b.connect(&format!("http://127.0.0.1:{port}")).await {
            Ok(c) => return c,
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("no WebDriver session: {e}"),
        }
    }
}
