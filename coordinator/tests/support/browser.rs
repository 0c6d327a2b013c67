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
