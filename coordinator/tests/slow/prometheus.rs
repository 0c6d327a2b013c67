//! A real Prometheus (Debian's `prometheus`) scrapes a coordinator's
//! `/metrics` with the shipped configuration (`deploy/prometheus/prometheus.yml`,
//! its target, token file and interval pointed at this test's coordinator),
//! and what its HTTP API answers equals `gamesweep status --json` for a
//! finished sweep. Every query of the shipped Grafana dashboard
//! (`deploy/grafana/gamesweep.json`) then runs on that Prometheus: each must
//! succeed, return series, and name only metrics the coordinator exports.
//!
//! `#[ignore = "needs prometheus"]`: `.ci/run` installs it and runs this test;
//! without it the test fails, saying why.

use crate::support::grafana::{self, get, metric_names};
use crate::support::harness::{gs, serve, work_until_idle};
use crate::support::proc::{self, free_port, Proc};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// `s` percent-encoded for a query string.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// An instant query's result vector (`data.result`), or why not.
fn query(prom: &str, q: &str) -> Result<Vec<Value>, String> {
    let (status, body) = get(prom, &format!("/api/v1/query?query={}", encode(q)))?;
    let v: Value = serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))?;
    if status != 200 || v["status"] != "success" {
        return Err(format!("{q}: HTTP {status}: {body}"));
    }
    Ok(v["data"]["result"].as_array().cloned().unwrap_or_default())
}

/// The one value of `q` (a single series), as a number.
fn value(prom: &str, q: &str) -> f64 {
    let r = query(prom, q).unwrap();
    assert_eq!(r.len(), 1, "{q}: {r:?}");
    r[0]["value"][1].as_str().unwrap().parse().unwrap()
}

/// The shipped scrape configuration, pointed at `target` with `token` and
/// scraped every second. Fails if the file no longer has the lines the
/// README tells users to change.
fn config(target: &str, token: &Path) -> String {
    let shipped = std::fs::read_to_string(repo().join("deploy/prometheus/prometheus.yml")).unwrap();
    let mut c = shipped.clone();
    for (from, to) in [
        ("scrape_interval: 30s", "scrape_interval: 1s".to_string()),
        (
            "credentials_file: /etc/prometheus/gamesweep-read.token",
            format!("credentials_file: {}", token.display()),
        ),
        (
            "targets: [\"coordinator:7462\"]",
            format!("targets: [\"{target}\"]"),
        ),
    ] {
        assert!(
            c.contains(from),
            "deploy/prometheus/prometheus.yml has no `{from}`"
        );
        c = c.replace(from, &to);
    }
    c
}

/// Until `done()` or `limit`, every 250 ms; `what` names it on failure.
fn wait(what: &str, limit: Duration, mut done: impl FnMut() -> Result<bool, String>) {
    let deadline = Instant::now() + limit;
    let mut last = String::new();
    loop {
        match done() {
            Ok(true) => return,
            Ok(false) => {}
            Err(e) => last = e,
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what} ({last})"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
#[ignore = "needs prometheus"]
fn a_real_prometheus_scrapes_what_status_says_and_the_grafana_queries_run() {
    let _serial = crate::serial();
    let bin = match Command::new("prometheus").arg("--version").output() {
        Ok(o) if o.status.success() => "prometheus",
        Ok(o) => proc::missing(
            "the prometheus test",
            "Prometheus",
            &String::from_utf8_lossy(&o.stderr),
        ),
        Err(e) => proc::missing(
            "the prometheus test",
            "Prometheus (Debian package prometheus)",
            &format!("`prometheus --version`: {e}"),
        ),
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tokens: Vec<PathBuf> = [
        ("admin", "admin-p1"),
        ("worker", "worker-p2"),
        ("read", "read-p3"),
    ]
    .iter()
    .map(|(name, secret)| {
        let p = d.join(name);
        std::fs::write(&p, format!("{secret}\n")).unwrap();
        p
    })
    .collect();
    let (admin, worker, read) = (&tokens[0], &tokens[1], &tokens[2]);
    let http_file = d.join("dashboard.url");
    let (_coordinator, url) = serve(
        &d.join("store"),
        &[
            "--http",
            "127.0.0.1:0",
            "--http-address-file",
            http_file.to_str().unwrap(),
            "--token-file",
            admin.to_str().unwrap(),
            "--worker-token-file",
            worker.to_str().unwrap(),
            "--read-token-file",
            read.to_str().unwrap(),
        ],
        &d.join("serve.log"),
    );
    let mut http = String::new();
    wait("the dashboard's address", Duration::from_secs(20), || {
        http = std::fs::read_to_string(&http_file).unwrap_or_default();
        Ok(http.ends_with('\n'))
    });
    let http = http
        .trim()
        .trim_start_matches("http://")
        .trim_end_matches('/');
    let with = |args: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        v.extend([
            "--coordinator".into(),
            url.clone(),
            "--token-file".into(),
            admin.to_str().unwrap().into(),
        ]);
        v
    };
    let run = |args: &[&str]| -> String {
        let a = with(args);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = gs(&a);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    run(&[
        "launch",
        "uvg",
        "--replicate-fraction",
        "0",
        "--max-n",
        "8",
        "--shards",
        "16",
        "--name",
        "prom",
    ]);
    work_until_idle(&url, Some(worker), &d.join("worker.log"));
    let status: Value = serde_json::from_str(&run(&["status", "--json"])).unwrap();
    let s = &status["sweeps"][0];
    assert_eq!(s["state"], "done", "{s}");

    // Prometheus with the shipped configuration.
    let port = free_port();
    let prom = format!("127.0.0.1:{port}");
    let conf = d.join("prometheus.yml");
    std::fs::write(&conf, config(http, read)).unwrap();
    let log = std::fs::File::create(d.join("prometheus.log")).unwrap();
    let _prometheus = Proc(
        Command::new(bin)
            .arg(format!("--config.file={}", conf.display()))
            .arg(format!("--storage.tsdb.path={}", d.join("tsdb").display()))
            .arg(format!("--web.listen-address={prom}"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap(),
    );
    let prom_log = || std::fs::read_to_string(d.join("prometheus.log")).unwrap_or_default();
    wait("Prometheus to be ready", Duration::from_secs(60), || {
        Ok(get(&prom, "/-/ready").is_ok_and(|(st, _)| st == 200))
    });
    // The first scrape of the finished sweep.
    let done = "gamesweep_shards{sweep=\"prom\",state=\"done\"}";
    wait(
        "a scrape of the finished sweep",
        Duration::from_secs(60),
        || Ok(!query(&prom, done)?.is_empty()),
    );
    assert_eq!(
        value(&prom, "up{job=\"gamesweep\"}"),
        1.0,
        "the scrape failed: {}",
        prom_log()
    );

    // What Prometheus holds is what status says.
    let n = |k: &str| {
        s[k].as_u64()
            .unwrap_or_else(|| panic!("status has no {k}: {s}")) as f64
    };
    let compared = [
        (
            "gamesweep_shards{sweep=\"prom\",state=\"pending\"}",
            "shards_pending",
        ),
        (
            "gamesweep_shards{sweep=\"prom\",state=\"leased\"}",
            "shards_leased",
        ),
        (
            "gamesweep_shards{sweep=\"prom\",state=\"done\"}",
            "shards_done",
        ),
        (
            "gamesweep_shards{sweep=\"prom\",state=\"failed\"}",
            "shards_failed",
        ),
        ("gamesweep_positions_done{sweep=\"prom\"}", "positions_done"),
        (
            "gamesweep_positions_estimate{sweep=\"prom\"}",
            "positions_estimate",
        ),
        (
            "gamesweep_leases_expired_total{sweep=\"prom\"}",
            "leases_expired",
        ),
        (
            "gamesweep_leases_released_total{sweep=\"prom\"}",
            "leases_released",
        ),
        (
            "gamesweep_results_duplicate_total{sweep=\"prom\"}",
            "duplicates_ignored",
        ),
        (
            "gamesweep_results_refused_total{sweep=\"prom\"}",
            "refused_submits",
        ),
        (
            "gamesweep_results_invalid_total{sweep=\"prom\"}",
            "results_invalid",
        ),
        (
            "gamesweep_renewals_refused_total{sweep=\"prom\"}",
            "refused_renewals",
        ),
        (
            "gamesweep_failure_reports_refused_total{sweep=\"prom\"}",
            "refused_fails",
        ),
        (
            "gamesweep_results_accepted_total{sweep=\"prom\"}",
            "shards_total",
        ),
    ];
    for (metric, field) in compared {
        assert_eq!(
            value(&prom, metric),
            n(field),
            "{metric} vs status's {field}"
        );
    }
    assert!(n("positions_done") > 0.0, "{s}");
    let info = query(&prom, "gamesweep_sweep_info").unwrap();
    assert_eq!(info.len(), 1, "{info:?}");
    assert_eq!(info[0]["metric"]["kind"], "uvg");
    assert_eq!(info[0]["metric"]["state"], "done");
    assert_eq!(
        value(&prom, "gamesweep_workers_known"),
        status["workers"].as_array().unwrap().len() as f64
    );

    // The Grafana dashboard's queries, on this Prometheus.
    let (st, names) = get(&prom, "/api/v1/label/__name__/values").unwrap();
    assert_eq!(st, 200, "{names}");
    let names: Value = serde_json::from_str(&names).unwrap();
    let names: BTreeSet<&str> = names["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let exprs = grafana::queries(&grafana::dashboard());
    assert!(exprs.len() >= 8, "{exprs:?}");
    for (panel, expr) in &exprs {
        for m in metric_names(expr) {
            assert!(
                names.contains(m.as_str()),
                "panel {panel:?}: {m} is not a metric the coordinator exports ({names:?})"
            );
        }
    }
    // Grafana's variables, as Grafana would fill them: every sweep, a
    // rate window of a minute (several 1 s scrapes), a range of an hour.
    let filled = |e: &str| {
        e.replace("$sweep", ".*")
            .replace("$__rate_interval", "1m")
            .replace("$__range", "1h")
    };
    wait(
        "every dashboard query to return series",
        Duration::from_secs(60),
        || {
            for (panel, expr) in &exprs {
                if query(&prom, &filled(expr))
                    .map_err(|e| format!("panel {panel:?}: {e}"))?
                    .is_empty()
                {
                    return Err(format!("panel {panel:?}: no series for {expr}"));
                }
            }
            Ok(true)
        },
    );
    eprintln!(
        "prometheus: {} series compared with status, {} dashboard queries run",
        compared.len() + 2,
        exprs.len()
    );
}
