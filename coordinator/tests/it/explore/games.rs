//! Game files and the Col route against the CLI, and a declared sum's pair
//! table.

use super::*;

#[test]
fn game_files_are_solved_as_solve_gamegraph_does() {
    let examples = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/examples"));
    let nim = examples.join("nim.game");
    let dir = tempfile::tempdir().unwrap();
    let (_p, url) = explore(dir.path(), &["--file", nim.to_str().unwrap()]);
    // The page offers the --file and every example.
    let (st, body) = get(&url, "/explore/api/presets");
    assert_eq!(st, 200, "{body}");
    let p: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        p["game_file"]["text"].as_str().unwrap(),
        std::fs::read_to_string(&nim).unwrap()
    );
    let mut files: Vec<_> = std::fs::read_dir(examples)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|f| f.extension().is_some_and(|x| x == "game" || x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    let offered = p["game_examples"].as_array().unwrap();
    let mut positions = 0;
    for f in &files {
        let text = std::fs::read(f).unwrap();
        let (st, body) = post(&url, "/explore/api/gamegraph", &text);
        assert_eq!(st, 200, "{}: {body}", f.display());
        let v: Value = serde_json::from_str(&body).unwrap();
        let want: Value =
            serde_json::from_str(&ok(&["solve", "gamegraph", f.to_str().unwrap(), "--json"]))
                .unwrap();
        assert_eq!(v["report"], want, "{}", f.display());
        let games = want["games"].as_array().unwrap();
        let drawings = v["drawings"].as_array().unwrap();
        assert_eq!(drawings.len(), games.len());
        for (d, g) in drawings.iter().zip(games) {
            let table = g["table"].as_array().unwrap();
            positions += table.len();
            let moves: usize = table
                .iter()
                .map(|r| r["moves"].as_array().unwrap().len())
                .sum();
            assert_eq!(d["drawing"]["n"].as_u64().unwrap() as usize, table.len());
            assert_eq!(d["drawing"]["edges"].as_array().unwrap().len(), moves);
        }
        let name = f.file_name().unwrap().to_str().unwrap();
        if name.ends_with(".game") {
            assert!(
                offered
                    .iter()
                    .any(|o| o["name"] == name
                        && o["text"].as_str() == std::str::from_utf8(&text).ok()),
                "{name} not offered as an example"
            );
        }
    }
    eprintln!(
        "explore: {} game files, {positions} positions, equal to solve gamegraph --json",
        files.len()
    );
    // Bad files: one clear line each, with a 4xx status.
    for (bad, code, want) in [
        (&b""[..], 400, "no game"),
        (&b"game g\nmove a\n"[..], 400, "game file"),
        (&b"\xff\xfe"[..], 400, "not UTF-8"),
    ] {
        let (st, body) = post(&url, "/explore/api/gamegraph", bad);
        assert_eq!(st, code, "{bad:?}: {body}");
        let e: Value = serde_json::from_str(&body).unwrap();
        let e = e["error"].as_str().unwrap();
        assert!(e.contains(want) && !e.contains('\n'), "{bad:?}: {e}");
    }
    let big = vec![b'#'; (1 << 20) + 1];
    let (st, _) = post(&url, "/explore/api/gamegraph", &big);
    assert!(st == 413, "an oversized file: {st}");
    // `explore --file` on a bad file refuses to start, naming it.
    let badf = dir.path().join("bad.game");
    std::fs::write(&badf, "game g\nmove a\n").unwrap();
    refused(&["explore", "--file", badf.to_str().unwrap()], "bad.game");
}

/// `/explore/api/col` with a side to move: the solver's move is
/// `board::colplay`'s (the quickest win, else the longest resistance),
/// who wins is `solve col --json`'s outcome; a bad side is one clear
/// error.
#[test]
fn the_col_route_gives_the_solvers_move_for_the_side_to_move() {
    use gamesweep::board::colplay::{reply, Side};
    use gamesweep::col::Rules;
    let dir = tempfile::tempdir().unwrap();
    let (_p, url) = explore(dir.path(), &[]);
    let p7 = graph6::encode_with(7, |i, j| j == i + 1);
    let tree = graph6::encode_digraph_with(7, |i, j| j == 2 * i + 1 || j == 2 * i + 2);
    let mut checked = 0;
    for (rules, name, code, cols) in [
        (
            Rules::Col,
            "col",
            &p7,
            ["", "L......", "..R.L..", "L.R.L.R"],
        ),
        (
            Rules::Myopic,
            "myopic",
            &tree,
            ["", ".L.....", "R..L...", "LRRLLRR"],
        ),
    ] {
        for c in cols {
            for side in [Side::Left, Side::Right] {
                let (st, body) = get(
                    &url,
                    &format!(
                        "/explore/api/col?rules={name}&g={}&c={c}&sid=t&side={side}",
                        enc(code)
                    ),
                );
                assert_eq!(st, 200, "{body}");
                let v: Value = serde_json::from_str(&body).unwrap();
                let want = reply(rules, code, c, side, None).unwrap();
                let play = &v["play"];
                assert_eq!(play["side"], side.to_string(), "{v}");
                assert_eq!(
                    play["remoteness"], want.remoteness,
                    "{code} {c} {side}: {v}"
                );
                assert_eq!(
                    play["reply"]["vertex"].as_u64().map(|x| x as usize),
                    want.reply,
                    "{code} {c} {side}: {v}"
                );
                let colouring = if c.is_empty() {
                    ".".repeat(7)
                } else {
                    c.to_string()
                };
                let s: Value = serde_json::from_str(
                    ok(&["solve", name, code, "--colouring", &colouring, "--json"]).trim(),
                )
                .unwrap();
                let wins = match side {
                    Side::Left => s["outcome"] == "L" || s["outcome"] == "N",
                    Side::Right => s["outcome"] == "R" || s["outcome"] == "N",
                };
                assert_eq!(play["mover_wins"], wins, "{code} {c} {side}: {v} / {s}");
                assert_eq!(want.mover_wins, wins);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 16);
    // Without a side, no move; a side that is not one is refused.
    let (st, body) = get(
        &url,
        &format!("/explore/api/col?rules=col&g={}&sid=t", enc(&p7)),
    );
    assert_eq!(st, 200);
    assert!(serde_json::from_str::<Value>(&body).unwrap()["play"].is_null());
    let (st, body) = get(
        &url,
        &format!("/explore/api/col?rules=col&g={}&sid=t&side=up", enc(&p7)),
    );
    assert_eq!(st, 400, "{body}");
    assert!(body.contains("unknown side `up`"), "{body}");
    // The UVG board without a token says where the solver would put it:
    // on C7 every start loses, so the one that lasts longest.
    let c7 = graph6::encode_with(7, |i, j| j == i + 1 || (i == 0 && j == 6));
    let v = uvg(&url, &c7, &[]);
    let r = &v["start_reply"];
    let rs: Vec<u32> = (0..7)
        .map(|s| {
            gamesweep::board::play::reply(&c7, &[], s, None)
                .unwrap()
                .remoteness
        })
        .collect();
    let best = (0..7)
        .max_by_key(|&s| (rs[s], std::cmp::Reverse(s)))
        .unwrap();
    assert_eq!(
        (r["vertex"].as_u64(), r["why"].as_str()),
        (Some(best as u64), Some("remoteness")),
        "{v}"
    );
}

/// A declared sum's pair table as `gamesweep solve gamegraph FILE` prints
/// it, read back from its text: (caption, column headings, row headings,
/// cells, the "first k of n columns" note if any). Cells are separated by
/// two spaces or more; headings hold single spaces only.
pub(super) fn cli_pair_table(
    file: &Path,
) -> (String, Vec<String>, Vec<String>, Vec<Vec<String>>, bool) {
    let out = ok(&["solve", "gamegraph", file.to_str().unwrap()]);
    let mut lines = out.lines().skip_while(|l| {
        !l.starts_with("  Grundy numbers of the pairs") && !l.starts_with("  outcomes of the pairs")
    });
    let caption = lines
        .next()
        .expect("a pair table")
        .trim()
        .trim_end_matches(':')
        .to_string();
    let split = |l: &str| -> Vec<String> {
        l.trim()
            .split("  ")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    };
    let columns = split(lines.next().unwrap());
    let (mut rows, mut cells, mut cut) = (Vec::new(), Vec::new(), false);
    for l in lines {
        if l.starts_with("  Sprague") || l.starts_with("  type II") {
            break;
        }
        if l.starts_with("  (first ") {
            cut = true;
            continue;
        }
        let mut c = split(l);
        rows.push(c.remove(0));
        cells.push(c);
    }
    (caption, columns, rows, cells, cut)
}

/// The page shows a declared sum's pair table; the route's is
/// the CLI's, cell for cell (Grundy numbers, outcome symbols when a part
/// is cyclic, cut at the CLI's 40 columns), and Sprague–Grundy holds in
/// it (each cell the XOR of its row's and column's numbers).
#[test]
fn a_declared_sums_pair_table_is_the_clis() {
    let dir = tempfile::tempdir().unwrap();
    let (_p, url) = explore(dir.path(), &[]);
    let (st, js) = get(&url, "/explore/gamegraph.js");
    assert!(st == 200 && js.contains("initGameGraph"), "{st}");
    let examples = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/examples"));
    let cyclic = dir.path().join("cyclic.game");
    std::fs::write(&cyclic, "game loop\np -> q\nq -> p r\ns -> t\nt -> s\nend\ngame right\nx -> y\nend\nsum loop right\n").unwrap();
    let wide = dir.path().join("wide.game");
    let mut text = String::from("game left\nu -> v\nend\ngame path\n");
    for k in 0..44 {
        text.push_str(&format!("r{k} -> r{}\n", k + 1));
    }
    text.push_str("end\nsum left path\n");
    std::fs::write(&wide, text).unwrap();
    let mut cells_checked = 0;
    for (f, kind) in [
        (examples.join("sum.game"), "grundy"),
        (examples.join("sum.json"), "grundy"),
        (cyclic, "outcome"),
        (wide, "grundy"),
    ] {
        let (st, body) = post(&url, "/explore/api/gamegraph", &std::fs::read(&f).unwrap());
        assert_eq!(st, 200, "{}: {body}", f.display());
        let v: Value = serde_json::from_str(&body).unwrap();
        let t = &v["pair_table"];
        let strings = |x: &Value| -> Vec<String> {
            x.as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect()
        };
        let (caption, columns, rows, cells, cut) = cli_pair_table(&f);
        assert_eq!(t["cells_are"], kind, "{}", f.display());
        assert_eq!(t["caption"], caption.as_str());
        assert_eq!(strings(&t["columns"]), columns, "{}", f.display());
        assert_eq!(strings(&t["rows"]), rows);
        let got: Vec<Vec<String>> = t["cells"].as_array().unwrap().iter().map(strings).collect();
        assert_eq!(got, cells, "{}", f.display());
        assert_eq!(
            cut,
            t["all_columns"].as_u64().unwrap() as usize > columns.len()
        );
        let sum = &v["report"]["sum"];
        if kind == "grundy" {
            let (lg, rg) = (&sum["left_grundy"], &sum["right_grundy"]);
            for (u, row) in got.iter().enumerate() {
                for (c, cell) in row.iter().enumerate() {
                    let want = lg[u].as_u64().unwrap() ^ rg[c].as_u64().unwrap();
                    assert_eq!(cell, &want.to_string(), "{}: ({u},{c})", f.display());
                    cells_checked += 1;
                }
            }
        } else {
            for (u, row) in got.iter().enumerate() {
                for (c, cell) in row.iter().enumerate() {
                    let o = sum["outcome_table"][u][c].as_str().unwrap();
                    assert_eq!(cell, if o == "draw" { "*" } else { o });
                    cells_checked += 1;
                }
            }
        }
    }
    // The file's own claim: II exactly at (v0,y) (a,z) (b,x) (c,y) (d,z).
    let (_, _, rows, cells, _) = cli_pair_table(&examples.join("sum.game"));
    let zeros: Vec<(String, usize)> = rows
        .iter()
        .zip(&cells)
        .flat_map(|(r, c)| {
            c.iter()
                .enumerate()
                .filter(|(_, x)| *x == "0")
                .map(move |(j, _)| (r.clone(), j))
        })
        .collect();
    assert_eq!(zeros.len(), 5, "{zeros:?}");
    eprintln!("explore: {cells_checked} pair-table cells equal the CLI's");
}
