//! The boards of the games on the graph-game layer (`/explore/api/layered`
//! and the page's one generic game object): every game of
//! `gamesweep::kinds::games()` is offered; values of the position and of
//! every move against independent values (Dawson's Kayles 0.137 for Node
//! Kayles on paths, ±n for Snort on the star K1,n) and against `gamesweep
//! solve GAME CODE --json`; a bad graph, game, start or move is one clear
//! message. In headless Chromium (`#[ignore = "needs chromium"]`): every
//! game opened from its preset, the values on the drawing read from the DOM
//! against the route, and a game against the solver played to its end on
//! each (a start picked by a click, moves by vertices, edge handles and
//! the table's rows). `GAMESWEEP_EXPLORE_SCREENSHOT=1` also writes its
//! picture of an Arc Kayles board to `docs/explore-layered.png`.

use crate::explore::{enc, explore, get};
use crate::support::browser;
use crate::support::harness::ok;

use gamesweep::graph::graph6;
use serde_json::Value;
use std::time::{Duration, Instant};

/// The layered route's answer: status and JSON.
fn board(url: &str, game: &str, code: &str, s: &str, m: &str, first: &str) -> (u16, Value) {
    let (st, body) = get(
        url,
        &format!(
            "/explore/api/layered?game={game}&g={}&s={s}&m={m}&first={first}",
            enc(code)
        ),
    );
    (
        st,
        serde_json::from_str(&body).unwrap_or_else(|_| panic!("{body}")),
    )
}

fn ok_board(url: &str, game: &str, code: &str, s: &str, m: &str) -> Value {
    let (st, v) = board(url, game, code, s, m, "");
    assert_eq!(st, 200, "{game} {code} s={s} m={m}: {v}");
    v
}

fn path(n: usize) -> String {
    graph6::encode_with(n, |i, j| i.abs_diff(j) == 1)
}

/// A 6-vertex graph: the path 0–5 with chords 0–3 and 1–4.
fn six() -> String {
    graph6::encode_with(6, |i, j| {
        matches!((i.min(j), i.max(j)), (a, b) if b == a + 1)
            || matches!((i.min(j), i.max(j)), (0, 3) | (1, 4))
    })
}

/// The moves of the side to move.
fn mine(v: &Value) -> Vec<Value> {
    let p = &v["position"];
    p["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["side"] == p["to_move"])
        .cloned()
        .collect()
}

#[test]
fn every_layered_game_has_a_board_with_the_values_solve_gives() {
    let dir = tempfile::tempdir().unwrap();
    let (_p, url) = explore(dir.path(), &[]);
    // The games offered are the layer's, and each has presets.
    let (st, body) = get(&url, "/explore/api/presets");
    assert_eq!(st, 200);
    let p: Value = serde_json::from_str(&body).unwrap();
    let names: Vec<&str> = p["layered"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    let want: Vec<&str> = gamesweep::kinds::games().iter().map(|g| g.name()).collect();
    assert_eq!(names, want);
    assert!(names.len() >= 5);
    for g in &names {
        assert!(
            p["presets"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["game"] == *g),
            "no preset for {g}"
        );
    }

    // Node Kayles on P_n is Dawson's Kayles (0.137) on a heap of n; taking
    // vertex v leaves heaps v − 1 and n − v − 2.
    let octal = gamesweep::gamegraph::octal::grundy_values(&[1, 3, 7], 12);
    for n in 1..=12 {
        let v = ok_board(&url, "node-kayles", &path(n), "", "");
        assert_eq!(v["position"]["grundy"], octal[n], "P_{n}: {v}");
        let moves = mine(&v);
        assert_eq!(moves.len(), n);
        for m in &moves {
            let w = m["place"]["vertex"].as_u64().unwrap() as usize;
            let want = octal[w.saturating_sub(1)] ^ octal[n.saturating_sub(w + 2)];
            assert_eq!(m["grundy"], want, "P_{n} take {w}");
            assert_eq!(m["wins"], want == 0);
        }
        let r = &moves[v["position"]["reply"].as_u64().unwrap() as usize];
        assert_eq!(r["wins"], octal[n] != 0, "P_{n}: {v}");
    }
    // Snort on the star K1,n is ±n; the centre is n for Blue, −n for Red.
    for n in 1..=9 {
        let star = graph6::encode_with(n + 1, |i, j| (i == 0) != (j == 0));
        let v = ok_board(&url, "snort", &star, "", "");
        assert_eq!(v["position"]["value"], format!("±{n}"), "K1,{n}");
        assert_eq!(v["position"]["outcome"], "N");
        let centre = |side: &str| {
            v["position"]["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["side"] == side && m["place"]["vertex"] == 0)
                .unwrap()
                .clone()
        };
        assert_eq!(centre("L")["value"], n.to_string());
        assert_eq!(centre("R")["value"], format!("-{n}"));
        // Red first: Red's options are the playable ones.
        let (_, r) = board(&url, "snort", &star, "", "", "R");
        assert_eq!(r["position"]["to_move"], "R");
        assert_eq!(mine(&r)[0]["side"], "R");
    }

    // Every game on a few graphs: the starts' values are `solve`'s, each
    // move's value is the value after it.
    let und = [
        path(5),
        "Dhc".to_string(),
        six(),
        graph6::encode_with(4, |i, j| i != j),
    ];
    let di = [
        graph6::encode_digraph_with(4, |i, j| j == (i + 1) % 4 || (i == 0 && j == 2)),
        graph6::encode_digraph_with(5, |i, j| matches!((j + 5 - i) % 5, 1 | 2)),
    ];
    for g in gamesweep::kinds::games() {
        let codes: Vec<&String> = if g.directed() {
            di.iter().collect()
        } else {
            und.iter().collect()
        };
        for code in codes {
            let solved: Value =
                serde_json::from_str(ok(&["solve", g.name(), code, "--json"]).trim()).unwrap();
            let solved = solved.as_array().unwrap();
            let v = ok_board(&url, g.name(), code, "", "");
            let starts: Vec<Value> = if solved.len() > 1 {
                assert_eq!(v["start"], Value::Null, "{}", g.name());
                v["starts"].as_array().unwrap().clone()
            } else {
                vec![v["position"].clone()]
            };
            for (s, want) in solved.iter().enumerate() {
                assert_eq!(
                    starts[s]["value"],
                    want["value"],
                    "{} {code} start {s}",
                    g.name()
                );
                assert_eq!(starts[s]["outcome"], want["outcome"]);
                let at = ok_board(&url, g.name(), code, &s.to_string(), "");
                assert_eq!(at["position"]["value"], want["value"]);
                for m in mine(&at) {
                    let i = m["index"].as_u64().unwrap().to_string();
                    let after = ok_board(&url, g.name(), code, &s.to_string(), &i);
                    assert_eq!(
                        after["position"]["value"],
                        m["value"],
                        "{} {code} {s} {i}",
                        g.name()
                    );
                    assert_eq!(
                        after["position"]["mover_wins"],
                        !m["wins"].as_bool().unwrap()
                    );
                }
            }
        }
    }

    // Errors: one line, naming what was wrong.
    let err = |game: &str, code: &str, s: &str, m: &str, first: &str| {
        let (st, v) = board(&url, game, code, s, m, first);
        let e = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{v}"))
            .to_string();
        assert!(!e.contains('\n'), "{e}");
        (st, e)
    };
    let (st, e) = err("nim", "Dhc", "", "", "");
    assert_eq!(st, 400);
    assert!(
        e.starts_with(
            "no game `nim` on the graph-game layer (games: node-kayles, arc-kayles, snort,"
        ),
        "{e}"
    );
    let (st, e) = err("node-kayles", "D!!", "", "", "");
    assert_eq!(st, 400);
    assert!(e.contains("graph6"), "{e}");
    let (st, e) = err("node-kayles", &path(4), "", "4", "");
    assert_eq!(
        (st, e.as_str()),
        (
            400,
            "move 1: the player to move has 4 options here, not 4 (0..3)"
        )
    );
    let (_, e) = err("node-kayles", &path(4), "", "1,0,0", "");
    assert!(
        e.starts_with("move 3: the player to move has 0 options here"),
        "{e}"
    );
    let (_, e) = err("snort", &path(4), "", "", "X");
    assert_eq!(
        e,
        "unknown side `X` to move first (L: Blue, Left; R: Red, Right)"
    );
    let (_, e) = err("node-kayles", &path(13), "", "", "");
    assert_eq!(
        e,
        "13 vertices: `node-kayles` values graphs of at most 12 vertices"
    );
    let (_, e) = err("geography-vertex", &path(4), "", "", "");
    assert!(e.contains("digraph6"), "{e}");
    let (_, e) = err("geography-edge", &path(4), "9", "", "");
    assert_eq!(
        e,
        "start 9: `geography-edge` has 4 start positions on this graph (0..3)"
    );
    let (_, e) = err("node-kayles", &path(4), "", "0,x", "");
    assert_eq!(e, "bad moves `0,x`: `x` is not a number");
    let (st, e) = err("", &path(4), "", "", "");
    assert_eq!((st, e.as_str()), (400, "no game: give game=NAME"));
    // Past the budget (edge geography on K11: far too many trails): 422.
    let k11 = graph6::encode_with(11, |i, j| i != j);
    let (st, e) = err("geography-edge", &k11, "0", "", "");
    assert_eq!(st, 422, "{e}");
    assert!(e.contains("the board's budget"), "{e}");
}

/// What the page shows of a layered board.
const READ: &str = r#"
const fact = id => { const e = document.getElementById(id); return e.dataset.value === undefined ? null : e.dataset.value; };
return {
  seq: Number(document.body.dataset.seq || 0), state: document.body.dataset.state || "",
  turn: document.body.dataset.turn || "", body: document.body.className,
  value: fact('lg-value'), reply: fact('lg-reply'),
  labels: Array.from(document.querySelectorAll('#board g.v text.val')).map(t => [Number(t.parentNode.dataset.v), t.dataset.value]),
  handles: Array.from(document.querySelectorAll('#board g.emove')).map(g => [Number(g.dataset.option), g.querySelector('text').dataset.value]),
  rows: Array.from(document.querySelectorAll('#lg-moves tbody tr[data-option]')).map(r => [Number(r.dataset.option), r.dataset.value]),
  starts: Array.from(document.querySelectorAll('#lg-moves tbody tr[data-start]')).map(r => [Number(r.dataset.start), r.dataset.value]),
  line: Array.from(document.querySelectorAll('#movelist li[data-i]')).map(l => [Number(l.dataset.v), l.dataset.who]),
  error: document.getElementById('error').hidden ? null : document.getElementById('error').textContent,
  message: document.getElementById('message').hidden ? null : document.getElementById('message').dataset.outcome,
  link: document.getElementById('link').value,
};"#;

struct Page {
    c: fantoccini::Client,
}

impl Page {
    async fn read(&self) -> Value {
        self.c.execute(READ, vec![]).await.unwrap()
    }
    /// Run `js`, then wait until the page has shown a new position and it
    /// is not the solver's turn (or the game is over).
    async fn settle(&self, js: &str, args: Vec<Value>) -> Value {
        let before = self.read().await["seq"].as_u64().unwrap();
        self.c.execute(js, args).await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.read().await;
            if v["seq"].as_u64().unwrap() > before
                && v["state"] != "busy"
                && (v["turn"] != "solver" || v["message"].is_string())
            {
                return v;
            }
            assert!(Instant::now() < deadline, "the page did not settle: {v}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    async fn open(&self, url: &str) -> Value {
        self.c.goto(url).await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.read().await;
            if v["seq"].as_u64().unwrap() >= 1 && v["state"] != "busy" {
                return v;
            }
            assert!(Instant::now() < deadline, "the page did not load: {v}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The (index, value) pairs of a route's moves of the side to move.
fn pairs(v: &Value) -> Vec<(u64, String)> {
    let mut out: Vec<(u64, String)> = mine(v)
        .iter()
        .map(|m| {
            (
                m["index"].as_u64().unwrap(),
                m["value"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

fn dom_pairs(v: &Value) -> Vec<(u64, String)> {
    let mut out: Vec<(u64, String)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r[0].as_u64().unwrap(), r[1].as_str().unwrap().to_string()))
        .collect();
    out.sort();
    out
}

#[test]
#[ignore = "needs chromium"]
fn every_layered_game_is_played_against_the_solver_in_a_browser() {
    let (chromium, driver) = browser::browser_or_fail("the layered boards' browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_p, url) = explore(d, &[]);
    let b = browser::Browser::start(&chromium, &driver, d);
    let shot = b.rt.block_on(async {
        let c = b.client(d, 1200, 900).await;
        let page = Page { c };
        for g in gamesweep::kinds::games() {
            let code = if g.directed() {
                graph6::encode_digraph_with(5, |i, j| matches!((j + 5 - i) % 5, 1 | 2))
            } else {
                six()
            };
            let name = g.name();
            for order in ["first", "second"] {
                let link = format!("{url}?game={name}&g={}&play={}", enc(&code), if g.impartial() { order } else { "L" })
                    + if !g.impartial() && order == "second" { "&first=R" } else { "" };
                let mut v = page.open(&link).await;
                assert_eq!(v["error"], Value::Null, "{name}: {v}");
                assert!(v["body"].as_str().unwrap().contains("game-layered"), "{v}");
                // A game with several starts: the starts' values are drawn
                // and listed; a click on vertex 0 picks start 0.
                let api = ok_board(&url, name, &code, "", "");
                if api["start"].is_null() {
                    let want: Vec<(u64, String)> = api["starts"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|s| (s["index"].as_u64().unwrap(), s["value"].as_str().unwrap().to_string()))
                        .collect();
                    assert_eq!(dom_pairs(&v["starts"]), want, "{name}");
                    assert_eq!(dom_pairs(&v["labels"]), want, "{name}: start labels");
                    v = page
                        .settle(
                            "document.querySelector('#board g.v[data-v=\"0\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}));",
                            vec![],
                        )
                        .await;
                }
                // Opened at the solver's turn, the solver plays when asked.
                if v["turn"] == "solver" && v["message"].is_null() {
                    v = page
                        .settle("document.getElementById('solver-move').click();", vec![])
                        .await;
                }
                let start = if api["start"].is_null() { "0" } else { "" };
                let first = if !g.impartial() && order == "second" { "R" } else { "L" };
                for round in 0.. {
                    assert!(round < 40, "{name}: the game did not end: {v}");
                    // The page shows the route's values of the position and moves.
                    let m: Vec<String> = v["line"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|l| l[0].as_u64().unwrap().to_string())
                        .collect();
                    let (_, here) = board(&url, name, &code, start, &m.join(","), first);
                    assert_eq!(v["value"], here["position"]["value"], "{name} {m:?}");
                    assert_eq!(dom_pairs(&v["rows"]), pairs(&here), "{name} {m:?}: the table");
                    let drawn: Vec<(u64, String)> = {
                        let mut x = dom_pairs(&v["handles"]);
                        for (w, val) in dom_pairs(&v["labels"]) {
                            let m = mine(&here).into_iter().find(|m| m["place"]["vertex"] == w).unwrap();
                            x.push((m["index"].as_u64().unwrap(), val));
                        }
                        x.sort();
                        x
                    };
                    let placed: Vec<(u64, String)> = pairs(&here)
                        .into_iter()
                        .filter(|(i, _)| !mine(&here)[*i as usize]["place"].is_null())
                        .collect();
                    assert_eq!(drawn, placed, "{name} {m:?}: the drawing");
                    // Every solver move so far is the route's reply.
                    for (k, l) in v["line"].as_array().unwrap().iter().enumerate() {
                        if l[1] == "solver" {
                            let (_, before) = board(&url, name, &code, start, &m[..k].join(","), first);
                            assert_eq!(l[0], before["position"]["reply"], "{name} {m:?} move {k}");
                        }
                    }
                    if v["message"].is_string() {
                        // Whoever won at the start won: the solver, when it could.
                        let (_, s) = board(&url, name, &code, start, "", first);
                        let mover = s["position"]["mover_wins"].as_bool().unwrap();
                        let solver_first = order == "second";
                        if mover == solver_first {
                            assert_eq!(v["message"], "loss", "{name} {order}: {v}");
                        }
                        break;
                    }
                    assert_eq!(v["turn"], "you", "{name}: {v}");
                    // The person plays its lowest move: by the drawing when it
                    // has a place (vertex or edge handle), else by the table.
                    let mv = &mine(&here)[0];
                    let p = &mv["place"];
                    let js = if p["vertex"].is_u64() {
                        format!("document.querySelector('#board g.v[data-v=\"{}\"]').dispatchEvent(new MouseEvent('click', {{bubbles: true}}));", p["vertex"])
                    } else if p["edge"].is_array() {
                        format!("document.querySelector('#board g.emove[data-option=\"{}\"]').dispatchEvent(new MouseEvent('click', {{bubbles: true}}));", mv["index"])
                    } else {
                        format!("document.querySelector('#lg-moves tr[data-option=\"{}\"]').dispatchEvent(new MouseEvent('click', {{bubbles: true}}));", mv["index"])
                    };
                    v = page.settle(&js, vec![]).await;
                }
            }
        }
        // A picture for the guide: Arc Kayles on the cube after a move,
        // the edges' handles with their values, the move list.
        let cube = gamesweep::draw::named::by_id("cube").unwrap().code.clone();
        let v = page
            .open(&format!("{url}?game=arc-kayles&g={}&m=0&play=first", enc(&cube)))
            .await;
        assert_eq!(v["error"], Value::Null, "{v}");
        assert!(!v["handles"].as_array().unwrap().is_empty(), "{v}");
        let shot = page.c.screenshot().await.unwrap();
        let severe: Vec<_> = b
            .console(&page.c)
            .await
            .into_iter()
            .filter(|e| e["level"] == "SEVERE")
            .collect();
        assert!(severe.is_empty(), "console errors: {severe:?}");
        page.c.close().await.unwrap();
        shot
    });
    let png = shot;
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    if std::env::var("GAMESWEEP_EXPLORE_SCREENSHOT").as_deref() == Ok("1") {
        let docs =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/explore-layered.png");
        std::fs::write(&docs, &png).unwrap();
        eprintln!("wrote {} ({} bytes)", docs.display(), png.len());
    }
}
