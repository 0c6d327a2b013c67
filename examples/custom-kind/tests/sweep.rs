//! The outside kind through the distributed runtime, with this crate's own
//! binaries: `serve` (with the dashboard), `launch`, a `worker`, `report`.
//! The merged numbers are checked against an independent computation
//! (every labelled graph, isomorphism by trying every permutation, values
//! by a recursion of its own), the report against its figures, and the
//! dashboard's witnesses against the kind's captions. Loopback only;
//! every process it starts is killed by its PID when the test ends.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_custom-gamesweep");
const WORKER: &str = env!("CARGO_BIN_EXE_custom-gamesweep-worker");
const MAX_N: usize = 6;

/// Kills the child (by its PID) on drop, so a failing test leaves no process
/// behind (as `coordinator/tests/support/proc.rs`).
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `cmd` cut off from the user's coordinator settings.
fn isolated(bin: &str) -> Command {
    let mut cmd = Command::new(bin);
    for v in [
        "GAMESWEEP_COORDINATOR",
        "GAMESWEEP_TOKEN_FILE",
        "GAMESWEEP_WORKER_TOKEN_FILE",
        "GAMESWEEP_READ_TOKEN_FILE",
        "GAMESWEEP_COORDINATOR_FILE",
        "GAMESWEEP_TLS_CA",
        "GAMESWEEP_TLS_CERT",
        "GAMESWEEP_TLS_KEY",
    ] {
        cmd.env_remove(v);
    }
    cmd.env("HOME", "/nonexistent/gamesweep-test-home");
    cmd
}

/// Run `bin args` to completion within 120 s; it must succeed.
fn ok(bin: &str, args: &[&str]) -> String {
    let mut child = Proc(
        isolated(bin)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let t0 = Instant::now();
    let status = loop {
        if let Some(st) = child.0.try_wait().unwrap() {
            break st;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "{bin} {args:?} still running after 120 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut out, mut err) = (String::new(), String::new());
    child
        .0
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let o = Output {
        status,
        stdout: out.into_bytes(),
        stderr: err.into_bytes(),
    };
    assert!(
        o.status.success(),
        "{bin} {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The first line of `file` once it is complete, waiting up to 20 s.
fn address(file: &Path, serve: &mut Proc, log: &Path) -> String {
    let t0 = Instant::now();
    loop {
        if let Ok(u) = std::fs::read_to_string(file) {
            if u.ends_with('\n') {
                return u.trim().to_string();
            }
        }
        if let Some(st) = serve.0.try_wait().unwrap() {
            panic!(
                "serve exited with {st}: {}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "no address in {file:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `GET path` from the dashboard at `base` (`http://HOST:PORT/`): the body
/// of a 200 response.
fn get(base: &str, path: &str) -> String {
    let host = base
        .strip_prefix("http://")
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let mut s = TcpStream::connect(&host).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}\n{body}");
    assert!(
        !head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked"),
        "{head}"
    );
    body.to_string()
}

/// Node Kayles by its rule on a labelled graph (adjacency lists), memoised
/// on the set of remaining vertices.
fn value(adj: &[Vec<usize>], alive: u32, memo: &mut HashMap<u32, u32>) -> u32 {
    if let Some(v) = memo.get(&alive) {
        return *v;
    }
    let mut options = HashSet::new();
    for v in 0..adj.len() {
        if alive & (1 << v) != 0 {
            let mut after = alive & !(1 << v);
            for &u in &adj[v] {
                after &= !(1 << u);
            }
            options.insert(value(adj, after, memo));
        }
    }
    let mex = (0..).find(|x| !options.contains(x)).unwrap();
    memo.insert(alive, mex);
    mex
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..n {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// Graphs by vertices and Node Kayles value, from every labelled graph:
/// (one per isomorphism class (the smallest edge mask over all
/// relabellings), every labelled graph).
fn independent(max_n: usize) -> BTreeMap<u32, BTreeMap<u32, (u64, u64)>> {
    let mut out = BTreeMap::new();
    for n in 1..=max_n {
        let pairs: Vec<(usize, usize)> = (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).collect();
        let index: HashMap<(usize, usize), usize> =
            pairs.iter().enumerate().map(|(k, &e)| (e, k)).collect();
        let perms = permutations(n);
        let mut seen = HashSet::new();
        let mut counts: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
        for mask in 0u32..(1 << pairs.len()) {
            let canonical = perms
                .iter()
                .map(|p| {
                    let mut m = 0u32;
                    for (k, &(i, j)) in pairs.iter().enumerate() {
                        if mask & (1 << k) != 0 {
                            let (a, b) = (p[i].min(p[j]), p[i].max(p[j]));
                            m |= 1 << index[&(a, b)];
                        }
                    }
                    m
                })
                .min()
                .unwrap();
            let first = seen.insert(canonical);
            let mut adj = vec![Vec::new(); n];
            for (k, &(i, j)) in pairs.iter().enumerate() {
                if mask & (1 << k) != 0 {
                    adj[i].push(j);
                    adj[j].push(i);
                }
            }
            let v = value(&adj, (1 << n) - 1, &mut HashMap::new());
            let c = counts.entry(v).or_default();
            c.0 += u64::from(first);
            c.1 += 1;
        }
        out.insert(n as u32, counts);
    }
    out
}

#[test]
fn an_outside_kind_runs_through_serve_launch_worker_report_and_the_dashboard() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kinds = ok(BIN, &["kinds"]);
    assert!(kinds.contains("custom-node-kayles"), "{kinds}");

    let (url_file, http_file, log) = (d.join("url"), d.join("http"), d.join("serve.log"));
    let mut serve = Proc(
        isolated(BIN)
            .args(["serve", "--listen", "127.0.0.1:0", "--store"])
            .arg(d.join("store"))
            .arg("--address-file")
            .arg(&url_file)
            .args(["--http", "127.0.0.1:0", "--http-address-file"])
            .arg(&http_file)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap(),
    );
    let url = address(&url_file, &mut serve, &log);
    let base = address(&http_file, &mut serve, &log);
    let n = MAX_N.to_string();
    ok(
        BIN,
        &[
            "launch",
            "custom-node-kayles",
            "--max-n",
            &n,
            "--connected",
            "0",
            "--name",
            "nk",
            "--replicate-fraction",
            "0",
            "--coordinator",
            &url,
        ],
    );
    // The worker binary runs every shard and exits once nothing is left.
    ok(
        WORKER,
        &[
            "--coordinator",
            &url,
            "--threads",
            "2",
            "--id",
            "w-nk",
            "--exit-when-idle",
            "--idle-grace",
            "5",
        ],
    );
    let status: serde_json::Value =
        serde_json::from_str(&ok(BIN, &["status", "nk", "--json", "--coordinator", &url])).unwrap();
    let st = if status["sweeps"].is_array() {
        status["sweeps"][0].clone()
    } else {
        status
    };
    assert_eq!(st["state"], "done", "{st}");

    let out = d.join("report");
    ok(
        BIN,
        &[
            "report",
            "nk",
            "--out",
            out.to_str().unwrap(),
            "--coordinator",
            &url,
        ],
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(doc["kind"], "custom-node-kayles");
    // Positions (one per graph) by vertices and value, unlabelled and
    // labelled (each graph weighted n!/|Aut|).
    let nim = |v: &str| -> u32 {
        match v {
            "0" => 0,
            "*" => 1,
            _ => v.trim_start_matches('*').parse().unwrap(),
        }
    };
    let got: BTreeMap<u32, BTreeMap<u32, (u64, u64)>> = doc["by_n"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let values = r["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| {
                    (
                        nim(v["value"].as_str().unwrap()),
                        (
                            v["positions"].as_u64().unwrap(),
                            v["labelled_positions"].as_u64().unwrap(),
                        ),
                    )
                })
                .collect();
            (r["n"].as_u64().unwrap() as u32, values)
        })
        .collect();
    assert_eq!(got, independent(MAX_N));

    // The report links its figures, which exist as SVG files.
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("# custom-node-kayles"), "{md}");
    let svgs: Vec<String> = std::fs::read_dir(out.join("figures"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".svg"))
        .collect();
    assert!(
        svgs.iter().any(|f| f == "positions.svg"),
        "positions.svg not in {svgs:?}"
    );
    for f in &svgs {
        assert!(
            md.contains(&format!("figures/{f}")),
            "{f} not linked:\n{md}"
        );
        let svg = std::fs::read_to_string(out.join("figures").join(f)).unwrap();
        assert!(svg.contains("<svg"), "{f}");
    }
    assert!(svgs.len() > 1, "no witness drawings: {svgs:?}");

    // The dashboard draws the smallest graph of each value, captioned by
    // the kind.
    let pics: serde_json::Value =
        serde_json::from_str(&get(&base, "/api/sweep/nk/witnesses")).unwrap();
    let pictures = pics["pictures"].as_array().unwrap();
    let smallest = doc["smallest"].as_array().unwrap();
    assert_eq!(pictures.len(), smallest.len(), "{pics}");
    for (p, w) in pictures.iter().zip(smallest) {
        assert_eq!(p["graph6"], w["code"], "{p}");
        let caption = p["caption"].as_str().unwrap();
        assert!(caption.starts_with("smallest "), "{caption}");
        assert!(p["svg"].as_str().unwrap().contains("<svg"), "{p}");
    }
    drop(serve);
}
