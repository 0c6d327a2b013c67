//! `gamesweep explore`, the boards: every value its JSON routes give equals
//! what `gamesweep solve ... --json` says (the presets, every start and every
//! move, and 50 seeded random UVG positions plus Col / Myopic Col
//! positions); errors come back as one clear message; the coordinator's
//! dashboard serves the same routes. Then the page itself in headless
//! Chromium: the smallest *3 preset and the Petersen graph read from the
//! DOM, a full game against the solver from a losing start, a bad graph6,
//! a coloured Col board; full Col and Myopic Col games against the solver
//! from both sides, the move list, links to games, UVG with the solver
//! moving first and the values hidden. The browser tests need `chromium`
//! and `chromedriver`: they are `#[ignore = "needs chromium"]`, and fail
//! without them when they run (`-- --include-ignored`, as `.ci/run` does).
//!
//! `GAMESWEEP_EXPLORE_SCREENSHOT=1` also writes the browser's screenshots to
//! `docs/explore-uvg.png`, `docs/explore-col.png` and
//! `docs/explore-play.png` (shown in the README).

use crate::support::browser;
use crate::support::harness;
use crate::support::proc;
use harness::{isolated, ok, refused, BIN};
use proc::Proc;

use gamesweep::graph::graph6;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod games;
mod in_browser;
mod play;
mod routes;

/// `gamesweep explore` on 127.0.0.1:0: its process and the page's URL
/// (`http://HOST:PORT/explore`).
pub(crate) fn explore(dir: &Path, extra: &[&str]) -> (Proc, String) {
    let file = dir.join("explore.url");
    let child = Proc(
        isolated(Command::new(BIN))
            .args(["explore", "--listen", "127.0.0.1:0", "--address-file"])
            .arg(&file)
            .args(extra)
            .stdout(std::fs::File::create(dir.join("explore.out")).unwrap())
            .stderr(std::fs::File::create(dir.join("explore.log")).unwrap())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(u) = std::fs::read_to_string(&file) {
            if u.ends_with('\n') {
                return (child, u.trim().to_string());
            }
        }
        assert!(Instant::now() < deadline, "explore did not come up");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `GET path` on the server of `url`: status and body.
pub(crate) fn get(url: &str, path: &str) -> (u16, String) {
    let host = url
        .strip_prefix("http://")
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    let mut s = TcpStream::connect(host).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

/// `POST path` with `body` on the server of `url`: status and body.
fn post(url: &str, path: &str, body: &[u8]) -> (u16, String) {
    let host = url
        .strip_prefix("http://")
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    let mut s = TcpStream::connect(host).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    // A refused body may be answered before it is all sent.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

pub(crate) fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The UVG board of `g` with the token along `path` (must succeed).
fn uvg(url: &str, g: &str, path: &[usize]) -> Value {
    let p: Vec<String> = path.iter().map(|v| v.to_string()).collect();
    let (st, body) = get(
        url,
        &format!("/explore/api/uvg?g={}&path={}", enc(g), p.join(",")),
    );
    assert_eq!(st, 200, "{g} {path:?}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// `g` without the vertices in `gone`, renumbered; and each kept vertex's
/// new number.
fn minus(g: &str, gone: &[usize]) -> (String, Vec<Option<usize>>) {
    let (n, edges) = graph6::decode(g).unwrap();
    let mut map = vec![None; n];
    let mut k = 0;
    for (v, m) in map.iter_mut().enumerate() {
        if !gone.contains(&v) {
            *m = Some(k);
            k += 1;
        }
    }
    let kept: Vec<(usize, usize)> = edges
        .iter()
        .filter_map(|&(a, b)| Some((map[a]?, map[b]?)))
        .collect();
    let code = graph6::encode_with(k, |i, j| {
        kept.iter()
            .any(|&(a, b)| (a, b) == (i, j) || (b, a) == (i, j))
    });
    (code, map)
}

/// `gamesweep solve ARGS -` with `lines` on standard input: its output lines as JSON.
fn solve_lines(args: &[&str], lines: &[String]) -> Vec<Value> {
    let mut child = isolated(Command::new(BIN))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let text = lines.join("\n") + "\n";
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), lines.len());
    v
}

/// Grundy values of every start of each graph, by `solve uvg - --json`.
fn solve_uvg(graphs: &[String]) -> Vec<Vec<u64>> {
    solve_lines(&["solve", "uvg", "-", "--json"], graphs)
        .into_iter()
        .map(|v| {
            v["grundy"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect()
        })
        .collect()
}

fn as_u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// The board's values of `g` (every start, and every move from every
/// start) against `solve uvg --json` on `g` and on each `g − s`.
fn check_every_start_and_move(url: &str, g: &str) -> usize {
    let n = graph6::decode(g).unwrap().0;
    let board = uvg(url, g, &[]);
    let want = solve_uvg(&[g.to_string()]).remove(0);
    // Also `solve uvg G --json` (the one-graph form) for the starts.
    let single: Value = serde_json::from_str(ok(&["solve", "uvg", g, "--json"]).trim()).unwrap();
    let solved_starts = single["starts"].as_array().unwrap().clone();
    let single: Vec<u64> = solved_starts
        .iter()
        .map(|s| s["grundy"].as_u64().unwrap())
        .collect();
    assert_eq!(single, want, "{g}");
    assert_eq!(board["nu"], single_nu(&solved_starts, g), "{g}: ν(G)");
    assert_eq!(as_u64s(&board["start_values"]), want, "{g}: start values");
    let minus_s: Vec<(String, Vec<Option<usize>>)> = (0..n).map(|s| minus(g, &[s])).collect();
    let sub = solve_uvg(&minus_s.iter().map(|m| m.0.clone()).collect::<Vec<_>>());
    let mut checked = n;
    for s in 0..n {
        let b = uvg(url, g, &[s]);
        assert_eq!(b["value"].as_u64(), Some(want[s]), "{g} start {s}");
        for m in b["moves"].as_array().unwrap() {
            let v = m["vertex"].as_u64().unwrap() as usize;
            let w = minus_s[s].1[v].unwrap();
            assert_eq!(m["value"].as_u64(), Some(sub[s][w]), "{g}: {s} → {v}");
            checked += 1;
        }
        // The same moves, ν(G − s) and degree-3 answer as `solve uvg G --json`.
        let sv = &solved_starts[s];
        let sm: Vec<(u64, u64)> = sv["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["vertex"].as_u64().unwrap(), m["grundy"].as_u64().unwrap()))
            .collect();
        let bm: Vec<(u64, u64)> = b["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["vertex"].as_u64().unwrap(), m["value"].as_u64().unwrap()))
            .collect();
        assert_eq!(bm, sm, "{g} start {s}: moves");
        assert_eq!(b["nu_without_token"], sv["nu_without"], "{g} start {s}");
        match sv["degree3"].as_object() {
            Some(d) => {
                assert_eq!(b["degree3"][0], d["grundy"], "{g} start {s}");
                assert_eq!(b["degree3"][1], d["tests"], "{g} start {s}");
            }
            None => assert!(b["degree3"].is_null(), "{g} start {s}"),
        }
        // ν(G) > ν(G − s) exactly when the mover wins, and a value ≠ 0.
        assert_eq!(
            b["mover_wins"].as_bool(),
            Some(want[s] != 0),
            "{g} start {s}"
        );
        assert_eq!(
            b["nu"].as_u64() > b["nu_without_token"].as_u64(),
            want[s] != 0
        );
    }
    checked
}

/// ν(G) of `solve uvg G --json` (its top-level `nu`); checked against
/// each start's `nu_without` plus whether the start wins.
fn single_nu(starts: &[Value], g: &str) -> Value {
    let out: Value = serde_json::from_str(ok(&["solve", "uvg", g, "--json"]).trim()).unwrap();
    for s in starts {
        let w = u64::from(s["first_player_wins"].as_bool().unwrap());
        assert_eq!(
            out["nu"].as_u64(),
            Some(s["nu_without"].as_u64().unwrap() + w),
            "{g}"
        );
    }
    out["nu"].clone()
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, k: u64) -> u64 {
        self.next() % k
    }
    /// Each pair (each ordered pair when `directed`) joined with chance `pct` %.
    fn graph(&mut self, n: usize, pct: u64, directed: bool) -> String {
        let m: Vec<bool> = (0..n * n)
            .map(|k| self.below(100) < pct && k / n != k % n)
            .collect();
        if directed {
            graph6::encode_digraph_with(n, |i, j| m[i * n + j])
        } else {
            graph6::encode_with(n, |i, j| m[i * n + j])
        }
    }
}

pub(crate) fn preset_code(url: &str, id: &str) -> Value {
    let (st, body) = get(url, "/explore/api/presets");
    assert_eq!(st, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    v["presets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("no preset {id}"))
        .clone()
}

/// What the board shows (read from the DOM).
const READ: &str = r#"
const rows = sel => Array.from(document.querySelectorAll(sel)).map(r => [Number(r.dataset.v), Number(r.dataset.value)]);
const num = id => { const e = document.getElementById(id); return e && e.dataset.value !== undefined ? e.dataset.value : null; };
return {
  seq: Number(document.body.dataset.seq || 0), state: document.body.dataset.state || "",
  starts: rows('#moves tr.start'), moves: rows('#moves tr.move'),
  labels: Array.from(document.querySelectorAll('#board text.val')).map(t => [Number(t.parentNode.dataset.v), Number(t.dataset.value)]),
  value: num('value'), nu: num('nu'), nus: num('nu-s'),
  gold: document.querySelectorAll('#board line.match').length,
  unmatched: document.querySelectorAll('#board g.v.unmatched').length,
  error: document.getElementById('error').hidden ? null : document.getElementById('error').textContent,
  message: document.getElementById('message').hidden ? null : document.getElementById('message').textContent,
  col_value: num('col-value'), col_outcome: num('col-outcome'),
  colouring: document.getElementById('col-colouring').textContent,
  path: document.getElementById('path').textContent,
};"#;

struct Page {
    c: fantoccini::Client,
}

impl Page {
    async fn read(&self) -> Value {
        self.c.execute(READ, vec![]).await.unwrap()
    }
    /// Run `js`, then wait (bounded) until the page finished `settle` more loads.
    async fn act(&self, js: &str, args: Vec<Value>, settle: u64) -> Value {
        let before = self.read().await["seq"].as_u64().unwrap();
        self.c.execute(js, args).await.unwrap();
        self.wait(before + settle).await
    }
    async fn wait(&self, seq: u64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.read().await;
            if v["seq"].as_u64().unwrap() >= seq && v["state"] != "busy" {
                return v;
            }
            assert!(Instant::now() < deadline, "the page did not answer: {v}");
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
    async fn preset(&self, id: &str) -> Value {
        self.act(
            "const s = document.getElementById('preset');
             const o = Array.from(s.options).find(o => o.dataset.id === arguments[0]);
             s.value = o.value; s.dispatchEvent(new Event('change'));",
            vec![Value::from(id)],
            1,
        )
        .await
    }
    async fn click(&self, v: usize, settle: u64) -> Value {
        self.act(
            "document.querySelector('#board g.v[data-v=\"' + arguments[0] + '\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}));",
            vec![Value::from(v)],
            settle,
        )
        .await
    }
    async fn button(&self, id: &str) -> Value {
        self.act(
            "document.getElementById(arguments[0]).click();",
            vec![Value::from(id)],
            1,
        )
        .await
    }
}

fn pairs(v: &Value) -> Vec<(usize, u64)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap() as usize, p[1].as_u64().unwrap()))
        .collect()
}

/// The board of `g` in the page: every start's value (table and vertex
/// labels) and every move's from every start, against `solve uvg --json`.
async fn dom_every_start_and_move(page: &Page, g: &str) -> usize {
    let n = graph6::decode(g).unwrap().0;
    let want = solve_uvg(&[g.to_string()]).remove(0);
    let minus_s: Vec<(String, Vec<Option<usize>>)> = (0..n).map(|s| minus(g, &[s])).collect();
    let sub = solve_uvg(&minus_s.iter().map(|m| m.0.clone()).collect::<Vec<_>>());
    let v = page.button("reset").await;
    let starts = pairs(&v["starts"]);
    assert_eq!(
        starts,
        want.iter().copied().enumerate().collect::<Vec<_>>(),
        "{g}"
    );
    assert_eq!(pairs(&v["labels"]), starts, "{g}: vertex labels");
    let mut checked = n;
    for s in 0..n {
        let v = page.click(s, 1).await;
        assert_eq!(
            v["value"].as_str(),
            Some(want[s].to_string().as_str()),
            "{g} start {s}: {v}"
        );
        let moves = pairs(&v["moves"]);
        assert!(!moves.is_empty() || want[s] == 0);
        for (w, x) in &moves {
            assert_eq!(*x, sub[s][minus_s[s].1[*w].unwrap()], "{g}: {s} → {w}");
        }
        assert_eq!(pairs(&v["labels"]), moves, "{g} start {s}: labels");
        checked += moves.len();
        page.button("undo").await;
    }
    checked
}
