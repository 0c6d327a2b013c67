//! `gamesweep solve sum` and `solve tree`: textbook sums, a single term
//! against its `solve` command, every node of a tree against `solve col` /
//! `solve uvg`, one-line refusals (exit code 2) for bad, loopy and too large
//! input; and the boards' `/explore/api/sum` and `/explore/api/tree`
//! answering exactly what the CLI's `--json` prints.

use crate::explore::explore;
use crate::support::harness;
use harness::{gs, ok, refused};

use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap()
}

#[test]
fn sums_of_textbook_positions() {
    // * + * = 0 (two lone Col vertices), 1 + -1 = 0, and a nim sum *2 + * = *3.
    let v = json(&["solve", "sum", "col:@", "col:@", "--json"]);
    assert_eq!(
        (v["value"].as_str(), v["outcome"].as_str()),
        (Some("0"), Some("P"))
    );
    let v = json(&["solve", "sum", "col:A_:R.", "col:A_:L.", "--json"]);
    assert_eq!(v["value"], "0");
    assert_eq!(v["summands"][0]["value"], "1");
    assert_eq!(v["summands"][1]["value"], "-1");
    assert!(v["left_wins_by"].is_null() && v["right_wins_by"].is_null());
    let v = json(&["solve", "sum", "uvg:Ch@1", "uvg:A_@0", "--json"]);
    assert_eq!(
        (v["value"].as_str(), v["outcome"].as_str()),
        (Some("*3"), Some("N"))
    );
    assert_eq!(v["left_wins_by"]["summand"], 0);
    assert_eq!(v["left_wins_by"]["value"], "0");
    // Text: the value, the outcome in words, the winning move.
    let t = ok(&["solve", "sum", "col:Bg:R..", "col:@"]);
    assert!(t.contains("sum:     1/2*"), "{t}");
    assert!(t.contains("outcome: L (Left (Blue) wins)"), "{t}");
    assert!(
        t.contains("Right (Red) moving first: no winning move"),
        "{t}"
    );
    // A game file's positions are nimbers: (v0, x) of docs/examples/sum.game is *1 + *2.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/examples/sum.game");
    let v = json(&[
        "solve",
        "sum",
        &format!("gamegraph:{file}#left#v0"),
        &format!("gamegraph:{file}#right#x"),
        "--json",
    ]);
    assert_eq!(v["value"], "*3");
}

#[test]
fn a_single_term_is_what_solve_says() {
    for (board, colouring) in [
        ("Bg", "..."),
        ("Bg", "L.."),
        ("Ch", ".R.."),
        ("DQo", "....."),
    ] {
        let s = json(&["solve", "col", board, "--colouring", colouring, "--json"]);
        let v = json(&[
            "solve",
            "sum",
            &format!("col:{board}:{colouring}"),
            "--json",
        ]);
        assert_eq!(v["value"], s["value"], "{board} {colouring}");
        assert_eq!(v["outcome"], s["outcome"], "{board} {colouring}");
    }
    let s = json(&["solve", "uvg", "Ch", "--json"]);
    for st in s["starts"].as_array().unwrap() {
        let g = st["grundy"].as_u64().unwrap() as u32;
        let want = gamesweep::uvg::position::nimber(g);
        let v = json(&["solve", "sum", &format!("uvg:Ch@{}", st["start"]), "--json"]);
        assert_eq!(v["value"], want.as_str());
    }
}

/// Every node of a tree three levels deep has the value `solve col` gives
/// its colouring (and `solve uvg` its start, for UVG's first level).
#[test]
fn every_tree_node_is_what_solve_says() {
    let t = json(&["solve", "tree", "col:Ch", "--depth", "3", "--json"]);
    let mut nodes = vec![&t["root"]];
    let mut seen = 0;
    while let Some(n) = nodes.pop() {
        seen += 1;
        let term = n["term"].as_str().unwrap();
        let colouring = term.rsplit(':').next().unwrap();
        let s = json(&["solve", "col", "Ch", "--colouring", colouring, "--json"]);
        assert_eq!(n["value"], s["value"], "{term}");
        for side in ["left", "right"] {
            if let Some(list) = n[side].as_array() {
                nodes.extend(list);
            }
        }
    }
    assert_eq!(seen, t["positions"].as_u64().unwrap() as usize);
    let u = json(&["solve", "tree", "uvg:Ch@1", "--depth", "1", "--json"]);
    assert_eq!(u["impartial"], true);
    let moves = u["root"]["moves"].as_array().unwrap();
    let s = json(&["solve", "uvg", "Ch", "--start", "1", "--json"]);
    for (m, want) in moves
        .iter()
        .zip(s["starts"][0]["moves"].as_array().unwrap())
    {
        assert_eq!(m["move"].as_str().unwrap(), want["vertex"].to_string());
        let g = want["grundy"].as_u64().unwrap() as u32;
        assert_eq!(m["value"], gamesweep::uvg::position::nimber(g).as_str());
    }
}

#[test]
fn bad_input_is_refused_in_one_line() {
    refused(&["solve", "sum", "nim:3"], "unknown game `nim`");
    refused(&["solve", "sum", "col:Bg:LL."], "same colour");
    refused(&["solve", "sum", "uvg:Bg@0,2"], "not adjacent");
    refused(
        &["solve", "sum", "gamegraph:/nonexistent/x.game"],
        "cannot read",
    );
    refused(&["solve", "sum", "gamegraph:-"], "standard input");
    let dir = tempfile::tempdir().unwrap();
    let loopy = dir.path().join("loop.game");
    std::fs::write(&loopy, "start a\na -> b\nb -> a c\n").unwrap();
    let term = format!("gamegraph:{}", loopy.display());
    let err = refused(&["solve", "sum", "col:@", &term], "is loopy");
    assert!(err.contains(&term) && err.contains("a -> b -> a"), "{err}");
    refused(
        &[
            "solve",
            "tree",
            "col:Ch",
            "--depth",
            "4",
            "--max-positions",
            "10",
        ],
        "--max-positions 100",
    );
    let p20 = gamesweep::graph::graph6::encode_with(20, |i, j| j == i + 1);
    refused(
        &["solve", "sum", &format!("col:{p20}"), "--budget", "50"],
        "--budget",
    );
    for args in [
        &["solve", "sum", "nim:3"][..],
        &["solve", "tree", "uvg:Bg@9"],
    ] {
        assert_eq!(gs(args).status.code(), Some(2), "{args:?}");
    }
}

/// `METHOD path` (with `body` for a POST) on the server of `url`: status and body.
fn http(url: &str, method: &str, path: &str, body: &str) -> (u16, String) {
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
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (
        head.split(' ').nth(1).unwrap().parse().unwrap(),
        body.to_string(),
    )
}

/// A query value, percent-encoded (space as `+`).
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b' ' => "+".to_string(),
            b if b.is_ascii_alphanumeric() => (b as char).to_string(),
            b => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn the_boards_answer_as_the_cli_does() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, url) = explore(dir.path(), &[]);
    let sums: [&[&str]; 4] = [
        &["col:@", "col:@", "uvg:Bg@1"],
        &["col:Bg:R..", "uvg:Ch@1", "myopic:&BG?:.L."],
        &["col:A_:R.", "col:A_:L."],
        &["uvg:Ch@1,2"],
    ];
    for terms in sums {
        let mut args = vec!["solve", "sum"];
        args.extend(terms);
        args.push("--json");
        let want = json(&args);
        let (st, body) = http(
            &url,
            "GET",
            &format!("/explore/api/sum?t={}", enc(&terms.join(" "))),
            "",
        );
        assert_eq!(st, 200, "{body}");
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            want,
            "{terms:?}"
        );
        let post = serde_json::json!({ "terms": terms }).to_string();
        let (st, body) = http(&url, "POST", "/explore/api/sum", &post);
        assert_eq!(st, 200, "{body}");
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            want,
            "{terms:?}"
        );
    }
    // A game file travels in the request, under the name the term gives.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/examples/sum.game");
    let terms = [format!("gamegraph:{file}#left#v0"), "uvg:Ch@1".to_string()];
    let want = json(&["solve", "sum", &terms[0], &terms[1], "--json"]);
    let post = serde_json::json!({
        "terms": terms,
        "files": { file: std::fs::read_to_string(file).unwrap() },
    })
    .to_string();
    let (st, body) = http(&url, "POST", "/explore/api/sum", &post);
    assert_eq!(st, 200, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap(), want);
    // Trees: one level (the page's lazy expansion) and three.
    for (term, depth) in [
        ("col:Ch", 1),
        ("col:Ch:L...", 3),
        ("uvg:Ch@1", 2),
        ("myopic:&BG?", 1),
    ] {
        let want = json(&[
            "solve",
            "tree",
            term,
            "--depth",
            &depth.to_string(),
            "--json",
        ]);
        let (st, body) = http(
            &url,
            "GET",
            &format!("/explore/api/tree?t={}&depth={depth}", enc(term)),
            "",
        );
        assert_eq!(st, 200, "{body}");
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            want,
            "{term}"
        );
        let post = serde_json::json!({ "term": term, "depth": depth }).to_string();
        let (st, body) = http(&url, "POST", "/explore/api/tree", &post);
        assert_eq!(st, 200, "{body}");
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            want,
            "{term}"
        );
    }
    // Errors: one message, a 4xx status.
    for (method, path, body, status, want) in [
        ("GET", "/explore/api/sum?t=nim%3A3", "", 400, "unknown game"),
        ("GET", "/explore/api/sum", "", 400, "no terms"),
        (
            "GET",
            "/explore/api/tree?t=col%3ACh&depth=4",
            "",
            400,
            "at most 3",
        ),
        (
            "POST",
            "/explore/api/sum",
            "{\"terms\": [\"gamegraph:x\"]}",
            400,
            "no game file",
        ),
        (
            "POST",
            "/explore/api/sum",
            "{\"terms\": 3}",
            400,
            "bad JSON",
        ),
        (
            "GET",
            "/explore/api/sum?t=uvg%3A~~~~%40",
            "",
            400,
            "bad term",
        ),
    ] {
        let (st, b) = http(&url, method, path, body);
        assert_eq!(st, status, "{path}: {b}");
        let v: Value = serde_json::from_str(&b).unwrap();
        assert!(v["error"].as_str().unwrap().contains(want), "{path}: {b}");
    }
    // A Col board above the boards' size is refused there (the CLI takes it).
    let big = gamesweep::graph::graph6::encode_with(26, |i, j| j == i + 1);
    let (st, b) = http(
        &url,
        "GET",
        &format!("/explore/api/tree?t=col%3A{}", enc(&big)),
        "",
    );
    assert_eq!(st, 400, "{b}");
    assert!(b.contains("at most 24"), "{b}");
}
