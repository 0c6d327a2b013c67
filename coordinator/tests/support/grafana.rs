//! The shipped Grafana dashboard (`deploy/grafana/gamesweep.json`) as the
//! tests read it, and a plain HTTP GET for `/metrics` and Prometheus's API.
#![allow(dead_code)] // each binary uses what it needs

use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

/// The dashboard JSON.
pub fn dashboard() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/grafana/gamesweep.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every query of the dashboard: (panel title, PromQL expression).
pub fn queries(dashboard: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in dashboard["panels"].as_array().unwrap() {
        let title = p["title"].as_str().unwrap();
        for t in p["targets"].as_array().unwrap() {
            out.push((title.to_string(), t["expr"].as_str().unwrap().to_string()));
        }
    }
    out
}

/// Every `gamesweep_…` metric name in `expr`.
pub fn metric_names(expr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = expr;
    while let Some(i) = rest.find("gamesweep_") {
        let name: String = rest[i..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        rest = &rest[i + name.len()..];
        out.push(name);
    }
    out
}

/// `GET path` on `addr` (`host:port`; HTTP/1.0, so the body is not
/// chunked): the status and the body.
pub fn get(addr: &str, path: &str) -> Result<(u16, String), String> {
    let mut s = TcpStream::connect(addr).map_err(|e| format!("{addr}: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").map_err(|e| e.to_string())?;
    let mut raw = String::new();
    s.read_to_string(&mut raw).map_err(|e| e.to_string())?;
    let (head, body) = raw.split_once("\r\n\r\n").ok_or("no header end")?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("no status in {head}"))?;
    Ok((status, body.to_string()))
}
