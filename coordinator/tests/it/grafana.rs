//! The shipped Grafana dashboard (`deploy/grafana/gamesweep.json`), checked
//! without Grafana: it is a dashboard Grafana imports (title, uid, the
//! datasource and sweep variables, panels with Prometheus targets), and
//! every metric its queries name is one a coordinator's `/metrics` exports.
//! (`tests/slow/prometheus.rs` runs each query on a real Prometheus.)

use crate::support::cli::{ok, serve};
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

/// The body of `GET /metrics` at `addr` (HTTP/1.0: not chunked).
fn metrics(addr: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(s, "GET /metrics HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    assert!(
        head.starts_with("HTTP/1.0 200") || head.starts_with("HTTP/1.1 200"),
        "{head}"
    );
    body.to_string()
}

#[test]
fn the_grafana_dashboard_names_only_exported_metrics() {
    let dashboard: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/grafana/gamesweep.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(dashboard["uid"], "gamesweep");
    assert!(dashboard["title"].is_string() && dashboard["schemaVersion"].is_u64());
    let vars: Vec<&str> = dashboard["templating"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(vars, ["datasource", "sweep"]);
    let mut names = BTreeSet::new();
    let panels = dashboard["panels"].as_array().unwrap();
    assert!(panels.len() >= 6, "{} panels", panels.len());
    for p in panels {
        let title = p["title"].as_str().unwrap();
        assert_eq!(p["datasource"]["uid"], "${datasource}", "panel {title:?}");
        let targets = p["targets"].as_array().unwrap();
        assert!(!targets.is_empty(), "panel {title:?} has no query");
        for t in targets {
            let expr = t["expr"].as_str().unwrap();
            let mut rest = expr;
            let mut found = false;
            while let Some(i) = rest.find("gamesweep_") {
                let name: String = rest[i..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                rest = &rest[i + name.len()..];
                names.insert(name);
                found = true;
            }
            assert!(found, "panel {title:?}: {expr} names no gamesweep metric");
        }
    }

    // What a coordinator with one sweep exports.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = d.join("dashboard.url");
    let (_c, url) = serve(
        &d.join("store"),
        &[
            "--http",
            "127.0.0.1:0",
            "--http-address-file",
            file.to_str().unwrap(),
        ],
        &d.join("serve.log"),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    let http = loop {
        let u = std::fs::read_to_string(&file).unwrap_or_default();
        if u.ends_with('\n') {
            break u
                .trim()
                .trim_start_matches("http://")
                .trim_end_matches('/')
                .to_string();
        }
        assert!(Instant::now() < deadline, "no dashboard address");
        std::thread::sleep(Duration::from_millis(20));
    };
    ok(&[
        "launch",
        "uvg",
        "--max-n",
        "6",
        "--name",
        "g",
        "--coordinator",
        &url,
    ]);
    let text = metrics(&http);
    let lines = text.lines().map(|l| Ok(l.to_string()));
    let scrape = prometheus_parse::Scrape::parse(lines).unwrap();
    let exported: BTreeSet<&str> = scrape.samples.iter().map(|s| s.metric.as_str()).collect();
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| !exported.contains(n.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "the dashboard names metrics /metrics does not export: {missing:?} (exported: {exported:?})"
    );
}
