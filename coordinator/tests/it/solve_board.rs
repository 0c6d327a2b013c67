//! `gamesweep solve` as a board: `solve uvg GRAPH6` (per start the value of
//! every move, the matching, ν values, the degree-3 line; `--json`, `--dot`,
//! `--svg`), `solve col|myopic --dot|--svg`, `solve subtraction`, and the
//! course-notes game files in `docs/examples/` (each `# expect` comment
//! checked against `solve gamegraph` and against a recursion of its own).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::support::harness;
use harness::{gs, ok, refused};

use gamesweep::graph::graph6::{encode_digraph_with, encode_with};
use serde_json::Value;

fn petersen() -> String {
    encode_with(10, |i, j| {
        (j < 5 && (j == i + 1 || (i == 0 && j == 4)))
            || (i < 5 && j == i + 5)
            || (i >= 5 && (j - 5 == (i - 5 + 2) % 5 || i - 5 == (j - 5 + 2) % 5))
    })
}

fn path(n: usize) -> String {
    encode_with(n, |i, j| j == i + 1)
}

/// `solve uvg -` (the incremental table, another solver) on `graph`: the
/// value of every start.
fn batch_values(graph: &str) -> Vec<u64> {
    let o = std::process::Command::new(harness::BIN)
        .args(["solve", "uvg", "-", "--threads", "1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write as _;
            c.stdin
                .take()
                .unwrap()
                .write_all(format!("{graph}\n").as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(o.status.success());
    let line = String::from_utf8(o.stdout).unwrap();
    let mut words = line.split_whitespace();
    assert_eq!(words.next(), Some(graph));
    words.map(|w| w.parse().unwrap()).collect()
}

/// The graph6 of G − s and the new number of each other vertex.
fn without(n: usize, edges: &[(usize, usize)], s: usize) -> String {
    let at = |v: usize| if v < s { v } else { v + 1 };
    encode_with(n - 1, |i, j| {
        let (a, b) = (at(i), at(j));
        edges.contains(&(a.min(b), a.max(b)))
    })
}

#[test]
fn uvg_json_has_every_move_value_the_matching_and_nu() {
    for g in [petersen(), path(5), "C~".to_string(), "Bg".to_string()] {
        let j: Value = serde_json::from_str(&ok(&["solve", "uvg", &g, "--json"])).unwrap();
        let n = j["n"].as_u64().unwrap() as usize;
        let edges: Vec<(usize, usize)> = j["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e[0].as_u64().unwrap() as usize,
                    e[1].as_u64().unwrap() as usize,
                )
            })
            .collect();
        let starts = j["starts"].as_array().unwrap();
        assert_eq!(starts.len(), n);
        // Start values: as the batch solver gives them.
        let values = batch_values(&g);
        let nu = j["nu"].as_u64().unwrap();
        assert_eq!(j["matching"].as_array().unwrap().len() as u64, nu);
        for s in starts {
            let v = s["start"].as_u64().unwrap() as usize;
            assert_eq!(s["grundy"].as_u64().unwrap(), values[v], "{g} {v}");
            let wins = s["first_player_wins"].as_bool().unwrap();
            assert_eq!(wins, values[v] != 0);
            assert_eq!(wins, s["nu_without"].as_u64().unwrap() < nu, "{g} {v}");
            // Each move's value: the batch solver on G − s.
            let rest = batch_values(&without(n, &edges, v));
            let moves = s["moves"].as_array().unwrap();
            let nbrs: Vec<usize> = (0..n)
                .filter(|&u| edges.contains(&(u.min(v), u.max(v))))
                .collect();
            assert_eq!(moves.len(), nbrs.len());
            let mut seen = BTreeSet::new();
            for (m, &u) in moves.iter().zip(&nbrs) {
                assert_eq!(m["vertex"].as_u64().unwrap() as usize, u);
                let x = m["grundy"].as_u64().unwrap();
                assert_eq!(x, rest[if u < v { u } else { u - 1 }], "{g} {v} {u}");
                seen.insert(x);
            }
            let mex = (0..).find(|x| !seen.contains(x)).unwrap();
            assert_eq!(values[v], mex);
            if let Some(w) = s["winning_move"].as_u64() {
                let m = moves.iter().find(|m| m["vertex"] == w).unwrap();
                assert_eq!(m["grundy"], 0);
            }
            // Max degree 3: the degree-3 algorithm agrees.
            assert_eq!(s["degree3"]["grundy"].as_u64().unwrap(), values[v]);
            assert!(s["degree3"]["tests"].as_u64().unwrap() >= 1 || moves.is_empty());
        }
    }
    // The Petersen graph has a perfect matching: the first player wins everywhere.
    let j: Value = serde_json::from_str(&ok(&["solve", "uvg", &petersen(), "--json"])).unwrap();
    assert_eq!(j["nu"], 5);
    assert_eq!(j["unmatched"], serde_json::json!([]));
    assert!(j["starts"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["nu_without"] == 4 && s["first_player_wins"] == true));
}

/// Regression: a graph of 16 vertices is exact on the command line whatever
/// `--budget` (it failed with "search budget of 5000000 positions exceeded"
/// while `solve uvg -` answered in milliseconds), and the help says so.
#[test]
fn uvg_of_sixteen_vertices_is_exact_whatever_the_budget() {
    let hard = "OpU_E_pAwILxuFsesdJc]";
    let values = batch_values(hard);
    assert_eq!(values.len(), 16);
    for budget in [None, Some("1")] {
        let mut args = vec!["solve", "uvg", hard, "--json"];
        if let Some(b) = budget {
            args.extend(["--budget", b]);
        }
        let j: Value = serde_json::from_str(&ok(&args)).unwrap();
        for s in j["starts"].as_array().unwrap() {
            let v = s["start"].as_u64().unwrap() as usize;
            assert_eq!(s["grundy"].as_u64().unwrap(), values[v], "{budget:?} {v}");
            assert!(s.get("nodes").is_none(), "searched: {s}");
            let seen: BTreeSet<u64> = s["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["grundy"].as_u64().unwrap())
                .collect();
            assert_eq!((0..).find(|x| !seen.contains(x)).unwrap(), values[v]);
        }
    }
    let help = ok(&["solve", "uvg", "--help"]);
    assert!(
        help.contains("at most 16 vertices are always") && !help.contains("14 vertices"),
        "{help}"
    );
}

#[test]
fn uvg_text_shows_the_table_matching_nu_and_degree3() {
    let text = ok(&["solve", "uvg", &path(5)]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "UVG on 5 vertices, 4 edges, max degree 2");
    assert!(lines[1].starts_with(" start   grundy    winner  winning move   ν(G−s)"));
    // Start 0 of the path on 5: the one move leaves a forced line of 3 more
    // moves (value *), so start 0 is a loss and ν(G − 0) = 2 = ν(G).
    assert_eq!(
        lines[2],
        "     0        0    second             -        2  1 → *"
    );
    assert_eq!(lines.len(), 2 + 5 + 4);
    assert!(lines[7].starts_with("maximum matching: "), "{text}");
    assert!(lines[7].ends_with(" (ν(G) = 2)"), "{text}");
    assert_eq!(lines[8].matches(' ').count(), 2, "{text}"); // one unmatched vertex
    assert!(lines[8].starts_with("unmatched vertices: "), "{text}");
    assert!(lines[9].starts_with("ν(G) = 2: "), "{text}");
    assert!(
        lines[10].starts_with("degree-3 algorithm (value in win/lose tests): 0: 0 in "),
        "{text}"
    );
    // K5: max degree 4, no degree-3 line; the old table columns are unchanged.
    // On a complete graph only the number k of vertices left matters: f(0) = 0,
    // f(k) = mex{f(k − 1)}, so each move (3 left) is * and the start (4 left) 0.
    let k5 = encode_with(5, |_, _| true);
    let text = ok(&["solve", "uvg", &k5, "--start", "0"]);
    assert!(
        text.contains(
            "     0        0    second             -        2  1 → *, 2 → *, 3 → *, 4 → *\n"
        ),
        "{text}"
    );
    assert!(text.ends_with("degree-3 algorithm: not applicable (max degree 4 > 3)\n"));
}

#[test]
fn uvg_drawings() {
    let p5 = path(5);
    let svg = ok(&["solve", "uvg", &p5, "--svg", "--start", "2"]);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.ends_with("</svg>\n"));
    assert_eq!(svg.matches("class=\"matching\"").count(), 2);
    assert_eq!(svg.matches("unmatched\"").count(), 1);
    assert_eq!(svg.matches("class=\"start").count(), 1);
    assert_eq!(svg.matches("<circle").count(), 5);
    // Deterministic.
    assert_eq!(ok(&["solve", "uvg", &p5, "--svg", "--start", "2"]), svg);
    let dot = ok(&["solve", "uvg", &petersen(), "--dot"]);
    assert!(dot.starts_with("graph uvg {\n"));
    assert_eq!(dot.matches(" -- ").count(), 15);
    assert_eq!(dot.matches("color=\"#d4a017\"").count(), 5);
    // Too big to draw: a one-line error, after the analysis.
    refused(
        &["solve", "uvg", &path(70), "--start", "0", "--svg"],
        "cannot draw: 70 vertices is too many",
    );
}

#[test]
fn col_and_myopic_drawings() {
    let p4 = path(4);
    let svg = ok(&["solve", "col", &p4, "--colouring", "B..R", "--svg"]);
    assert_eq!(svg.matches("class=\"blue\"").count(), 1);
    assert_eq!(svg.matches("class=\"red\"").count(), 1);
    assert!(svg.contains("<title>col "), "{svg}");
    let dot = ok(&["solve", "col", &p4, "--dot"]);
    assert!(dot.starts_with("graph col {\n"));
    assert_eq!(dot.matches(" -- ").count(), 3);
    let d3 = encode_digraph_with(3, |i, j| i == 0 && j > 0);
    let dot = ok(&["solve", "myopic", &d3, "--colouring", ".L.", "--dot"]);
    assert!(dot.starts_with("digraph col {\n"));
    assert!(dot.contains("value -1/2"), "{dot}");
    assert_eq!(dot.matches(" -> ").count(), 2);
    let svg = ok(&["solve", "myopic", &d3, "--svg"]);
    assert_eq!(svg.matches("marker-end").count(), 2);
    // Without a drawing option, the text is what it was.
    assert!(ok(&["solve", "col", &p4, "--colouring", "B..B"]).contains("value:   -1\n"));
}

#[test]
fn drawing_errors_are_one_line() {
    refused(&["solve", "uvg", "-", "--svg"], "do not go with `-`");
    refused(&["solve", "col", "-", "--dot"], "do not go with `-`");
    refused(
        &["solve", "uvg", "Bg", "--start", "5", "--svg"],
        "start 5 is not a vertex",
    );
    refused(&["solve", "uvg", "xx", "--dot"], "bad graph6");
    refused(
        &["solve", "col", "Bg", "--colouring", "LL.", "--svg"],
        "same colour",
    );
    let o = gs(&["solve", "uvg", "Bg", "--dot", "--json"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot be used with"));
}

/// Direct recursion: the Grundy values of heaps 0..len for the set `s`.
fn subtraction_grundy(s: &[usize], len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    for n in 0..len {
        let opts: BTreeSet<u64> = s.iter().filter(|&&x| x <= n).map(|&x| g[n - x]).collect();
        g.push((0..).find(|x| !opts.contains(x)).unwrap());
    }
    g
}

#[test]
fn subtraction_losing_heaps_and_proven_period() {
    for (set, s) in [
        ("2,4,7", vec![2, 4, 7]),
        ("1,3,4", vec![1, 3, 4]),
        ("3,5,8,13", vec![3, 5, 8, 13]),
    ] {
        let j: Value = serde_json::from_str(&ok(&[
            "solve",
            "subtraction",
            "--set",
            set,
            "--upto",
            "60",
            "--json",
        ]))
        .unwrap();
        let want = subtraction_grundy(&s, 3000);
        let got: Vec<u64> = j["grundy"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(got, want[..61]);
        let losing: Vec<u64> = j["losing"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        let want_losing: Vec<u64> = (0..61).filter(|&n| want[n as usize] == 0).collect();
        assert_eq!(losing, want_losing);
        // The period and preperiod hold on 3000 terms and are the least that do.
        let e = j["grundy_periodicity"]["preperiod"].as_u64().unwrap() as usize;
        let p = j["grundy_periodicity"]["period"].as_u64().unwrap() as usize;
        let holds = |e: usize, p: usize| (e..3000 - p).all(|n| want[n] == want[n + p]);
        assert!(holds(e, p), "{set}");
        assert!((1..p).all(|q| !holds(e, q)), "{set}");
        assert!(e == 0 || !holds(e - 1, p), "{set}");
        let text = ok(&["solve", "subtraction", "--set", set, "--upto", "20"]);
        assert!(text.contains(&format!(
            "grundy sequence: preperiod {e}, period {p} (proven"
        )));
        let first = (0..21)
            .filter(|&n| want[n] == 0)
            .map(|n| n.to_string())
            .collect::<Vec<_>>();
        assert!(
            text.contains(&format!(
                "losing heaps (second player wins): {}\n",
                first.join(" ")
            )),
            "{text}"
        );
    }
    // S = {1, 3, 4}: losing heaps 0 and 2 mod 7 (the course notes).
    let j: Value = serde_json::from_str(&ok(&[
        "solve",
        "subtraction",
        "--set",
        "1,3,4",
        "--upto",
        "30",
        "--json",
    ]))
    .unwrap();
    assert_eq!(
        j["losing"],
        serde_json::json!([0, 2, 7, 9, 14, 16, 21, 23, 28, 30])
    );
    assert_eq!(j["grundy_periodicity"]["period"], 7);
}

#[test]
fn subtraction_bad_input_is_one_line() {
    refused(&["solve", "subtraction", "--set", ""], "not a number");
    refused(&["solve", "subtraction", "--set", "0,2"], "outside 1..=64");
    refused(&["solve", "subtraction", "--set", "2,,4"], "not a number");
    refused(
        &["solve", "subtraction", "--set", "99999999999"],
        "not a number",
    );
    refused(&["solve", "subtraction", "--set", "65"], "outside 1..=64");
    refused(&["solve", "subtraction", "--set", "2,2"], "appears twice");
    refused(
        &["solve", "subtraction", "--set", "2", "--upto", "5000000"],
        "more than 1000000",
    );
}

// ---- docs/examples: the course notes' games ----

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/examples")
}

/// `# expect GAME POSITION grundy N` / `... outcome I|II` lines.
fn expectations(text: &str) -> Vec<(String, String, String, String)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("# expect "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w.len(), 4, "{l}");
            (w[0].into(), w[1].into(), w[2].into(), w[3].into())
        })
        .collect()
}

/// The solver's rows of every game: game → position → (moves, grundy, outcome).
type Rows = BTreeMap<String, BTreeMap<String, (BTreeSet<String>, Option<u64>, String)>>;

fn solve_file(name: &str) -> (Rows, Value) {
    let file = examples().join(name);
    let j: Value = serde_json::from_str(&ok(&[
        "solve",
        "gamegraph",
        file.to_str().unwrap(),
        "--json",
    ]))
    .unwrap();
    let mut rows = Rows::new();
    for g in j["games"].as_array().unwrap() {
        let table = rows.entry(g["name"].as_str().unwrap().into()).or_default();
        for r in g["table"].as_array().unwrap() {
            let moves = r["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            table.insert(
                r["position"].as_str().unwrap().into(),
                (
                    moves,
                    r["grundy"].as_u64(),
                    r["outcome"].as_str().unwrap().into(),
                ),
            );
        }
    }
    (rows, j)
}

/// Check `file`'s expectations against the solver and against `truth`
/// (game, position → (moves, grundy if known, outcome)), and that every
/// position of the file is as `truth` says.
fn check_file(file: &str, truth: impl Fn(&str, &str) -> (BTreeSet<String>, Option<u64>, String)) {
    let text = std::fs::read_to_string(examples().join(file)).unwrap();
    let exp = expectations(&text);
    let (rows, _) = solve_file(file);
    for game in rows.keys() {
        assert!(
            exp.iter().any(|e| &e.0 == game),
            "{file}: no expectation for {game}"
        );
    }
    for (game, pos, what, value) in &exp {
        let (_, grundy, outcome) = &rows[game][pos];
        let (_, tg, to) = truth(game, pos);
        match what.as_str() {
            "grundy" => {
                assert_eq!(
                    grundy.map(|g| g.to_string()).as_deref(),
                    Some(value.as_str()),
                    "{file} {pos}"
                );
                assert_eq!(
                    tg.map(|g| g.to_string()).as_deref(),
                    Some(value.as_str()),
                    "{file} {pos}"
                );
            }
            "outcome" => {
                assert_eq!(outcome, value, "{file} {pos}");
                assert_eq!(&to, value, "{file} {pos}");
            }
            w => panic!("{file}: unknown expectation {w}"),
        }
    }
    for (game, table) in &rows {
        for (pos, row) in table {
            let (moves, g, o) = truth(game, pos);
            assert_eq!(row.0, moves, "{file} {game} {pos}: moves");
            if g.is_some() {
                assert_eq!(row.1, g, "{file} {game} {pos}: grundy");
            }
            assert_eq!(row.2, o, "{file} {game} {pos}: outcome");
        }
    }
}

fn outcome_of(g: u64) -> String {
    if g == 0 { "II" } else { "I" }.to_string()
}

#[test]
fn nim_example_is_bouton() {
    check_file("nim.game", |_, pos| {
        let h: Vec<usize> = pos.split('.').map(|x| x.parse().unwrap()).collect();
        let mut moves = BTreeSet::new();
        for i in 0..h.len() {
            for k in 0..h[i] {
                let mut q = h.clone();
                q[i] = k;
                moves.insert(
                    q.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join("."),
                );
            }
        }
        let g = h.iter().fold(0, |a, &x| a ^ x) as u64;
        (moves, Some(g), outcome_of(g))
    });
}

#[test]
fn grundys_game_example_matches_the_recursion() {
    // g(n) = mex { g(a) xor g(n − a) : 0 < a < n − a }.
    let mut g1 = [0u64; 9];
    for n in 1..=8 {
        let opts: BTreeSet<u64> = (1..n)
            .filter(|&a| a < n - a)
            .map(|a| g1[a] ^ g1[n - a])
            .collect();
        g1[n] = (0..).find(|x| !opts.contains(x)).unwrap();
    }
    assert_eq!(g1[1..], [0, 0, 1, 0, 2, 1, 0, 2]);
    check_file("grundys-game.game", |_, pos| {
        let h: Vec<usize> = pos.split('+').map(|x| x.parse().unwrap()).collect();
        let mut moves = BTreeSet::new();
        for i in 0..h.len() {
            for a in 1..h[i] {
                if a > h[i] - a {
                    let mut q: Vec<usize> = h.clone();
                    q.remove(i);
                    q.extend([a, h[i] - a]);
                    q.sort_unstable_by(|x, y| y.cmp(x));
                    moves.insert(
                        q.iter()
                            .map(|x| x.to_string())
                            .collect::<Vec<_>>()
                            .join("+"),
                    );
                }
            }
        }
        let g = h.iter().fold(0, |acc, &x| acc ^ g1[x]);
        (moves, Some(g), outcome_of(g))
    });
}

/// Chomp by direct recursion on row lengths (poison at row 0, column 0).
fn chomp_moves(rows: &[usize]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for i in 0..rows.len() {
        for j in 0..rows[i] {
            if i == 0 && j == 0 {
                continue;
            }
            let mut q: Vec<usize> = rows
                .iter()
                .enumerate()
                .map(|(k, &r)| if k >= i { r.min(j) } else { r })
                .collect();
            while q.last() == Some(&0) {
                q.pop();
            }
            out.push(q);
        }
    }
    out
}

fn chomp_wins(rows: &[usize]) -> bool {
    chomp_moves(rows).iter().any(|q| !chomp_wins(q))
}

#[test]
fn chomp_example_matches_the_recursion_and_strategy_stealing() {
    let name = |q: &[usize]| {
        q.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(".")
    };
    check_file("chomp.game", |_, pos| {
        let rows: Vec<usize> = pos.split('.').map(|x| x.parse().unwrap()).collect();
        let moves = chomp_moves(&rows).iter().map(|q| name(q)).collect();
        let o = if chomp_wins(&rows) { "I" } else { "II" };
        (moves, None, o.to_string())
    });
    // Strategy stealing: every rectangle > 1x1 is a first-player win, and the
    // file's starts are the full rectangles.
    let (_, j) = solve_file("chomp.game");
    for g in j["games"].as_array().unwrap() {
        let start = g["start"].as_str().unwrap();
        let rows: Vec<usize> = start.split('.').map(|x| x.parse().unwrap()).collect();
        assert!(rows.iter().all(|&r| r == rows[0]) && rows.len() * rows[0] > 1);
        assert_eq!(g["start_outcome"], "I");
    }
}

#[test]
fn subtraction_example_matches_the_recursion() {
    let s = [1usize, 3, 4];
    let g = subtraction_grundy(&s, 21);
    check_file("subtraction.game", |_, pos| {
        let n: usize = pos.parse().unwrap();
        let moves = s
            .iter()
            .filter(|&&x| x <= n)
            .map(|x| (n - x).to_string())
            .collect();
        (moves, Some(g[n]), outcome_of(g[n]))
    });
    // And `solve subtraction` agrees on the losing heaps.
    let j: Value = serde_json::from_str(&ok(&[
        "solve",
        "subtraction",
        "--set",
        "1,3,4",
        "--upto",
        "20",
        "--json",
    ]))
    .unwrap();
    let losing: Vec<u64> = (0..21).filter(|&n| g[n as usize] == 0).collect();
    assert_eq!(j["losing"], serde_json::json!(losing));
}

/// `solve gamegraph FILE --check` holds every example's `# expect` lines
/// (a user can run what this file's tests check), and a wrong expectation
/// exits 1 naming its line and what was computed.
#[test]
fn check_runs_the_examples_expectations() {
    let mut total = 0;
    for entry in std::fs::read_dir(examples()).unwrap() {
        let path = entry.unwrap().path();
        // The folder also holds other formats and a whole crate (`grim/`).
        if path.extension().is_none_or(|e| e != "game") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let n = expectations(&text).len();
        if n == 0 {
            continue;
        }
        let p = path.to_str().unwrap();
        let out = ok(&["solve", "gamegraph", p, "--check"]);
        assert_eq!(out.lines().count(), n, "{p}: {out}");
        assert!(out.lines().all(|l| l.starts_with("ok ")), "{p}: {out}");
        let j: Value =
            serde_json::from_str(&ok(&["solve", "gamegraph", p, "--check", "--json"])).unwrap();
        assert_eq!(j.as_array().unwrap().len(), n);
        total += n;
    }
    assert!(total >= 54, "{total} expectations");
    let dir = tempfile::tempdir().unwrap();
    let nim = std::fs::read_to_string(examples().join("nim.game")).unwrap();
    let wrong = dir.path().join("wrong.game");
    std::fs::write(
        &wrong,
        nim.replace("# expect nim 1.2.3 grundy 0", "# expect nim 1.2.3 grundy 1"),
    )
    .unwrap();
    let o = gs(&["solve", "gamegraph", wrong.to_str().unwrap(), "--check"]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("FAILED  line 6: nim 1.2.3 grundy 1: computed grundy 0"),
        "{out}"
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 of 12 expectations failed"));
    let none = dir.path().join("none.game");
    std::fs::write(&none, "a -> b\n").unwrap();
    refused(
        &["solve", "gamegraph", none.to_str().unwrap(), "--check"],
        "has no `# expect",
    );
}
