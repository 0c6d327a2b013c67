//! The shipped Grafana dashboard (`deploy/grafana/gamesweep.json`), checked
//! without Grafana: it is a dashboard Grafana imports (title, uid, the
//! datasource and sweep variables, panels with Prometheus targets), and
//! every metric its queries name is one a coordinator's `/metrics` exports.
//! (`tests/slow/prometheus.rs` runs each query on a real Prometheus.)

use crate::support::grafana::{self, get, metric_names};
use crate::support::harness::{ok, serve};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

#[test]
fn the_grafana_dashboard_names_only_exported_metrics() {
    let dashboard = grafana::dashboard();
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
    }
    for (title, expr) in grafana::queries(&dashboard) {
        let found = metric_names(&expr);
        assert!(
            !found.is_empty(),
            "panel {title:?}: {expr} names no gamesweep metric"
        );
        names.extend(found);
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
    let (status, text) = get(&http, "/metrics").unwrap();
    assert_eq!(status, 200, "{text}");
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
