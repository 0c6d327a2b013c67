//! geng-style pipelines: `gamesweep solve uvg|col|myopic -` reading lines
//! from standard input (one result line each, `--summary`, bad lines
//! reported and the rest still solved), and `gamesweep graphs N RES/MOD`
//! (geng's positional part, balanced parts that partition the output,
//! `-d`/`-D` degree bounds), cross-checked with nauty's geng by the tests
//! `#[ignore = "needs nauty"]` (they fail without `nauty-geng`).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::harness;
use crate::support::proc;
use harness::{isolated, ok, refused, Gs, BIN};

/// The number `gamesweep graphs ARGS -u` finds: as geng, it writes nothing
/// on standard output and the count in its `>Z` line on standard error.
fn counted(args: &[&str]) -> u64 {
    let mut a = args.to_vec();
    a.push("-u");
    let o = Gs::new(&a).input(b"").output();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "gamesweep {a:?} failed: {err}");
    assert!(o.stdout.is_empty(), "gamesweep {a:?} wrote graphs");
    err.lines()
        .find_map(|l| l.strip_prefix(">Z "))
        .and_then(|l| l.split(' ').next())
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("gamesweep {a:?}: no >Z line in {err}"))
}

/// Connected graphs on 1..=max_n vertices, graph6 lines as `gamesweep graphs` prints them.
fn connected_upto(max_n: u32) -> String {
    (1..=max_n)
        .map(|n| ok(&["graphs", &n.to_string(), "-c"]))
        .collect()
}

#[test]
fn uvg_summary_equals_the_committed_sweep() {
    let json = Gs::new(&["solve", "uvg", "-", "--summary", "--json", "--threads", "2"])
        .input(connected_upto(7).as_bytes())
        .ok();
    let got: serde_json::Value = serde_json::from_str(&json).unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../runs/uvg/results.json");
    let want: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let by_n = |v: &serde_json::Value| -> BTreeMap<u64, serde_json::Value> {
        v["by_n"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["n"].as_u64().unwrap() <= 7)
            .map(|r| {
                let keep = ["graphs", "positions", "first_player_wins", "grundy"];
                let row: serde_json::Map<_, _> = keep
                    .iter()
                    .map(|k| (k.to_string(), r[*k].clone()))
                    .collect();
                (r["n"].as_u64().unwrap(), serde_json::Value::Object(row))
            })
            .collect()
    };
    let (got_rows, want_rows) = (by_n(&got), by_n(&want));
    assert_eq!(got_rows.len(), 7);
    assert_eq!(got_rows, want_rows);
    // The total adds them up.
    let positions: u64 = want_rows
        .values()
        .map(|r| r["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(got["total"]["positions"].as_u64(), Some(positions));
    assert_eq!(got["total"]["graphs"].as_u64(), Some(996));
    // The text summary says the same.
    let text = Gs::new(&["solve", "uvg", "-", "--summary"])
        .input(connected_upto(7).as_bytes())
        .ok();
    assert!(
        text.contains("n 7: 853 graphs, 5971 positions, 1073 first-player wins; grundy 0: 4898"),
        "{text}"
    );
}

#[test]
fn uvg_lines_give_every_start_in_input_order() {
    let input = connected_upto(7);
    let one = Gs::new(&["solve", "uvg", "-", "--threads", "1"])
        .input(input.as_bytes())
        .ok();
    let two = Gs::new(&["solve", "uvg", "-", "--threads", "2"])
        .input(input.as_bytes())
        .ok();
    assert_eq!(one, two, "threads change nothing");
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(lines.len(), input.lines().count());
    for (l, g) in lines.iter().zip(input.lines()) {
        assert_eq!(l.split(' ').next(), Some(g));
    }
    // Against the single-position command, on a sample of lines (every
    // 97th: each of n = 1..=7 and many shapes).
    for l in lines.iter().step_by(97) {
        let mut words = l.split(' ');
        let g = words.next().unwrap();
        let values: Vec<u64> = words.map(|w| w.parse().unwrap()).collect();
        let single: serde_json::Value =
            serde_json::from_str(&ok(&["solve", "uvg", g, "--json"])).unwrap();
        let want: Vec<u64> = single["starts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["grundy"].as_u64().unwrap())
            .collect();
        assert_eq!(values, want, "{g}");
    }
    // JSON lines, and graphs out of generation order (no shared prefix).
    let json = Gs::new(&["solve", "uvg", "-", "--json"])
        .input("Bw\nC~\nBg\n".as_bytes())
        .ok();
    assert_eq!(
        json,
        "{\"graph6\":\"Bw\",\"grundy\":[0,0,0]}\n{\"graph6\":\"C~\",\"grundy\":[1,1,1,1]}\n{\"graph6\":\"Bg\",\"grundy\":[0,1,0]}\n"
    );
}

#[test]
fn uvg_bad_lines_are_reported_and_the_rest_solved() {
    let k20 = gamesweep::graph::graph6::encode_with(20, |_, _| true);
    let input = format!("Bw\n\nxx\nC~\r\n&A\n{k20}\n@\n");
    let o = Gs::new(&["solve", "uvg", "-", "--budget", "1000"])
        .input(input.as_bytes())
        .output();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "Bw 0 0 0\nC~ 1 1 1 1\n@ 0\n"
    );
    let err = String::from_utf8(o.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    assert!(
        lines[0].starts_with("gamesweep: line 3: bad graph6 `xx`"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("gamesweep: line 5: bad graph6 `&A`"),
        "{err}"
    );
    assert!(
        lines[2].starts_with("gamesweep: line 6: search budget of 1000 positions exceeded")
            && lines[2].contains("--budget 10000"),
        "{err}"
    );
    assert_eq!(
        lines[3],
        "gamesweep: 3 of 6 lines could not be solved (the first: line 3)"
    );
    assert!(!err.contains("panicked"));
    // Not UTF-8.
    let o = Gs::new(&["solve", "uvg", "-"])
        .input(b"Bw\n\xff\xfe\n")
        .output();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "Bw 0 0 0\n");
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 2: not UTF-8 text (byte 1)"));
    // An empty input is no graphs.
    assert_eq!(
        Gs::new(&["solve", "uvg", "-"]).input("".as_bytes()).ok(),
        ""
    );
    let sum = Gs::new(&["solve", "uvg", "-", "--summary"])
        .input("".as_bytes())
        .ok();
    assert_eq!(
        sum,
        "total: 0 graphs, 0 positions, 0 first-player wins; grundy\n"
    );
    // Options that do not fit.
    refused(
        &["solve", "uvg", "-", "--start", "0"],
        "--start does not go with `-`",
    );
    refused(&["solve", "uvg", "Bw", "--summary"], "go with `-`");
    refused(&["solve", "col", "Bw", "--threads", "2"], "go with `-`");
}

#[test]
fn col_and_myopic_lines_match_the_single_position_command() {
    let input = "Bw L..\nBw\nCs .R..\nC~ ..L.\nBw LL.\n";
    let o = Gs::new(&["solve", "col", "-", "--threads", "2"])
        .input(input.as_bytes())
        .output();
    assert_eq!(o.status.code(), Some(2));
    let out = String::from_utf8(o.stdout).unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.starts_with("gamesweep: line 5: "), "{err}");
    assert!(err.contains("1 of 5 lines could not be solved"), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4);
    for (l, want_in) in lines.iter().zip(["Bw L..", "Bw ...", "Cs .R..", "C~ ..L."]) {
        let w: Vec<&str> = l.split(' ').collect();
        assert_eq!(w.len(), 4, "{l}");
        assert_eq!(format!("{} {}", w[0], w[1]), want_in);
        let single: serde_json::Value =
            serde_json::from_str(&ok(&["solve", "col", w[0], "--colouring", w[1], "--json"]))
                .unwrap();
        assert_eq!(w[2], single["value"].as_str().unwrap(), "{l}");
        assert_eq!(w[3], single["outcome"].as_str().unwrap(), "{l}");
    }
    // Myopic Col on digraph6 boards: root 0 -> 1, 0 -> 2 with 1 blue is -1/2.
    let d6 = gamesweep::graph::graph6::encode_digraph_with(3, |i, j| i == 0 && j > 0);
    let out = Gs::new(&["solve", "myopic", "-", "--json"])
        .input(format!("{d6} .L.\n").as_bytes())
        .ok();
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["value"], "-1/2");
    assert_eq!(j["outcome"], "R");
    // The summary counts outcomes and values over every line.
    let graphs5 = ok(&["graphs", "5", "-c"]);
    let sum: serde_json::Value = serde_json::from_str(
        &Gs::new(&["solve", "col", "-", "--summary", "--json"])
            .input(graphs5.as_bytes())
            .ok(),
    )
    .unwrap();
    assert_eq!(sum["positions"], 21);
    let by_line = Gs::new(&["solve", "col", "-"])
        .input(graphs5.as_bytes())
        .ok();
    let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
    for l in by_line.lines() {
        *outcomes
            .entry(l.split(' ').nth(3).unwrap().into())
            .or_default() += 1;
    }
    assert_eq!(sum["outcomes"], serde_json::to_value(&outcomes).unwrap());
    refused(
        &["solve", "col", "-", "--colouring", "..."],
        "--colouring does not go with `-`",
    );
}

/// Regression: a code read with nauty's header (`geng -h`: `>>graph6<<CF`) is
/// echoed without it, so every output line is valid graph6 for the next
/// tool: `solve uvg -` (text and JSON), `solve col -`, `solve myopic -`, and
/// the single `solve uvg CODE --json`.
#[test]
fn echoed_codes_drop_the_graph6_header() {
    let out = Gs::new(&["solve", "uvg", "-"])
        .input(">>graph6<<CF\n".as_bytes())
        .ok();
    assert_eq!(out, "CF 0 0 0 1\n");
    let out = Gs::new(&["solve", "uvg", "-", "--json"])
        .input(">>graph6<<CF\n".as_bytes())
        .ok();
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["graph6"], "CF");
    let out = Gs::new(&["solve", "col", "-"])
        .input(">>graph6<<Bw L..\n".as_bytes())
        .ok();
    assert!(out.starts_with("Bw L.. "), "{out}");
    let d6 = gamesweep::graph::graph6::encode_digraph_with(3, |i, j| i == 0 && j > 0);
    let out = Gs::new(&["solve", "myopic", "-"])
        .input(format!(">>digraph6<<{d6} .L.\n").as_bytes())
        .ok();
    assert!(out.starts_with(&format!("{d6} .L. ")), "{out}");
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["solve", "uvg", ">>graph6<<CF", "--json"])).unwrap();
    assert_eq!(j["graph6"], "CF");
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["solve", "col", ">>graph6<<Bw", "--json"])).unwrap();
    assert_eq!(j["board"], "Bw");
}

/// `solve col|myopic - --summary` lists values in the order of
/// game values (numbers by size, `x` before `x*`), as the reports do, not as
/// text (`-1, -1/2, -2`); the JSON summary too.
#[test]
fn col_summary_values_are_in_value_order() {
    let graphs6 = ok(&["graphs", "6", "-c"]);
    // Every graph with its first vertex blue: values down to -5 and stars.
    let input: String = graphs6
        .lines()
        .map(|g| {
            let n = gamesweep::graph::graph6::decode(g).unwrap().0;
            format!("{g} L{}\n", ".".repeat(n - 1))
        })
        .collect();
    let text = Gs::new(&["solve", "col", "-", "--summary"])
        .input(input.as_bytes())
        .ok();
    let values: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "values:")
        .skip(1)
        .map(|l| l.trim().split(": ").next().unwrap())
        .collect();
    assert!(values.len() > 5, "{text}");
    let mut sorted = values.clone();
    sorted.sort_by(|a, b| gamesweep::sweep::present::cmp_game_values(a, b));
    assert_eq!(values, sorted, "{text}");
    assert!(values.contains(&"-1") && values.contains(&"-2"), "{text}");
    // The JSON object `values` lists its keys in the same order (parsed
    // here by hand: serde_json's map would sort them as text again).
    let json = Gs::new(&["solve", "col", "-", "--summary", "--json"])
        .input(input.as_bytes())
        .ok();
    let (_, body) = json.split_once("\"values\":{").unwrap();
    let body = &body[..body.find('}').unwrap()];
    let keys: Vec<&str> = body
        .split(',')
        .map(|kv| kv.split(':').next().unwrap().trim_matches('"'))
        .collect();
    assert_eq!(keys, sorted, "{json}");
}

/// The size of each part `0..m` of `graphs n -c`.
fn part_sizes(n: u32, m: u32) -> Vec<u64> {
    (0..m)
        .map(|i| counted(&["graphs", &n.to_string(), "-c", &format!("{i}/{m}")]))
        .collect()
}

#[test]
fn parts_are_balanced() {
    // Before: parts of whole prefix subtrees, 50/392/410/1 graphs at n = 7.
    let sizes = part_sizes(7, 4);
    assert_eq!(sizes.iter().sum::<u64>(), 853);
    assert!(sizes.iter().all(|&s| (213..=214).contains(&s)), "{sizes:?}");
    for (n, m, total) in [
        (9, 2, 261_080),
        (9, 8, 261_080),
        (9, 64, 261_080),
        (10, 64, 11_716_571),
    ] {
        let sizes = part_sizes(n, m);
        assert_eq!(sizes.iter().sum::<u64>(), total, "n {n} mod {m}");
        let max = *sizes.iter().max().unwrap();
        assert!(
            max * u64::from(m) <= 2 * total,
            "n {n} mod {m}: largest part {max}, mean {}",
            total / u64::from(m)
        );
    }
}

#[test]
fn parts_partition_the_output() {
    for (n, connected, m) in [(7, false, 4), (8, true, 3), (6, false, 200)] {
        let mut args = vec![n.to_string()];
        if connected {
            args.push("-c".into());
        }
        let run = |extra: &[String]| {
            let mut a: Vec<&str> = vec!["graphs"];
            a.extend(args.iter().map(String::as_str));
            a.extend(extra.iter().map(String::as_str));
            ok(&a)
        };
        let all = run(&[]);
        let mut whole: Vec<&str> = all.lines().collect();
        let mut parts = Vec::new();
        for i in 0..m {
            let part = run(&[format!("{i}/{m}")]);
            // `--shard I/M` is the same part.
            assert_eq!(part, run(&["--shard".into(), format!("{i}/{m}")]));
            parts.push(part);
        }
        let mut union: Vec<&str> = parts.iter().flat_map(|p| p.lines()).collect();
        assert_eq!(union.len(), whole.len(), "n {n} mod {m}");
        union.sort_unstable();
        whole.sort_unstable();
        assert_eq!(union, whole, "n {n} mod {m}");
    }
    refused(&["graphs", "7", "4/4"], "RES/MOD with 0 <= RES < MOD");
    refused(&["graphs", "7", "x"], "RES/MOD");
    refused(
        &["graphs", "7", "0/2", "--shard", "1/2"],
        "give the part once",
    );
}

/// Minimum and maximum degree of a graph6 line.
fn degrees(g6: &str) -> (u32, u32) {
    let g = gamesweep::graph::graph6::parse_bitgraph(g6).unwrap();
    let d: Vec<u32> = (0..g.n()).map(|v| g.degree(v)).collect();
    (*d.iter().min().unwrap(), *d.iter().max().unwrap())
}

#[test]
fn degree_bounds_filter_like_geng() {
    let all8 = ok(&["graphs", "8", "-c"]);
    for (lo, hi) in [(2, 3), (1, 4), (3, 7), (0, 2)] {
        let args = ["graphs", "-c", &format!("-d{lo}"), &format!("-D{hi}"), "8"];
        let listed = ok(&args);
        let want: Vec<&str> = all8
            .lines()
            .filter(|g| {
                let (a, b) = degrees(g);
                a >= lo && b <= hi
            })
            .collect();
        assert_eq!(listed.lines().collect::<Vec<_>>(), want, "-d{lo} -D{hi}");
        assert_eq!(counted(&args), want.len() as u64);
    }
    // Parts of a filtered listing partition it.
    let whole = counted(&["graphs", "9", "-d3"]);
    let parts: u64 = (0..5)
        .map(|i| counted(&["graphs", "9", "-d3", &format!("{i}/5")]))
        .sum();
    assert_eq!(parts, whole);
}

/// `nauty-geng` itself (Debian package `nauty`), or the test fails.
fn geng_or_fail(test: &str, args: &[&str]) -> std::process::Output {
    Command::new("nauty-geng")
        .args(args)
        .output()
        .unwrap_or_else(|e| proc::missing(test, "nauty (nauty-geng)", &e.to_string()))
}

/// `gamesweep graphs ARGS -u` prints the count `nauty-geng ARGS -u` gives.
fn assert_counts_like_geng(test: &str, args: &[&str]) {
    let mut with_u = args.to_vec();
    with_u.push("-u");
    let g = geng_or_fail(test, &with_u);
    // geng -u: ">Z 60 graphs generated in 0.00 sec" on stderr.
    let text = String::from_utf8_lossy(&g.stderr);
    let theirs = text
        .lines()
        .find_map(|l| l.strip_prefix(">Z "))
        .and_then(|l| l.split(' ').next())
        .unwrap_or_else(|| panic!("geng said: {text}"));
    let mut mine = vec!["graphs"];
    mine.extend(args);
    assert_eq!(counted(&mine).to_string(), theirs, "geng {args:?}");
}

#[test]
#[ignore = "needs nauty"]
fn degree_bounds_count_like_geng_itself() {
    for args in [
        vec!["-c", "-d2", "-D3", "8"],
        vec!["-d1", "-D4", "8"],
        vec!["-c", "-D2", "9"],
        vec!["-d3", "9"],
        vec!["-c", "-d4", "-D6", "9"],
    ] {
        assert_counts_like_geng("degree_bounds_count_like_geng_itself", &args);
    }
}

#[test]
#[ignore = "needs nauty"]
fn geng_pipes_into_solve_uvg() {
    let geng = geng_or_fail("geng_pipes_into_solve_uvg", &["-c", "-q", "8"]);
    assert!(geng.status.success());
    // geng's labelling differs from ours; the values of the class do not.
    let got: serde_json::Value = serde_json::from_str(
        &Gs::new(&["solve", "uvg", "-", "--summary", "--json"])
            .input(std::str::from_utf8(&geng.stdout).unwrap().as_bytes())
            .ok(),
    )
    .unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../runs/uvg/results.json");
    let want: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let row8 = want["by_n"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["n"] == 8)
        .unwrap();
    let got8 = &got["by_n"][0];
    assert_eq!(got8["n"], 8);
    for k in ["graphs", "positions", "first_player_wins", "grundy"] {
        assert_eq!(got8[k], row8[k], "{k}");
    }
}

#[test]
fn a_reader_leaving_early_and_an_endless_line_end_cleanly() {
    use std::io::BufRead as _;
    let input = ok(&["graphs", "8"]);
    let mut child = isolated(Command::new(BIN))
        .args(["solve", "uvg", "-", "--threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "G????? 0 0 0 0 0 0 0 0\n");
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(t0.elapsed() < Duration::from_secs(60), "still running");
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{:?} {err}", o.status);
    assert!(!err.contains("panicked"), "{err}");
    // A line without end is refused after 1 MiB, not read into memory whole.
    let o = Gs::new(&["solve", "uvg", "-"])
        .input(&vec![b'~'; 3 << 20])
        .output();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "gamesweep: line 1: longer than 1048576 bytes\n"
    );
}

/// `gamesweep args` with standard input from `input` and standard output
/// to `out`, its standard error on a pseudo-terminal (util-linux `script`,
/// Debian's essential `bsdutils`): what the terminal received.
fn on_a_terminal(args: &[&str], input: &std::path::Path, out: &std::path::Path) -> String {
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let line = format!(
        "{} {} < {} > {}",
        quote(BIN),
        args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" "),
        quote(input.to_str().unwrap()),
        quote(out.to_str().unwrap())
    );
    let o = isolated(Command::new("script"))
        .args(["-qec", &line, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("util-linux `script` (package bsdutils)");
    assert!(
        o.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Regression: `gamesweep graphs 10 -c | gamesweep solve uvg - --summary` was
/// silent for 81 s. On a terminal it now counts the lines solved (on
/// stderr); into a pipe or a file its stderr stays empty, and the answer on
/// stdout is the same either way.
#[test]
fn a_pipeline_counts_lines_on_a_terminal_and_is_quiet_into_a_pipe() {
    let input = connected_upto(7);
    let lines = input.lines().count();
    let piped = Gs::new(&["solve", "uvg", "-", "--summary"])
        .input(input.as_bytes())
        .output();
    assert!(piped.status.success());
    assert!(
        piped.stderr.is_empty(),
        "progress into a pipe: {:?}",
        String::from_utf8_lossy(&piped.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    let (inp, out) = (dir.path().join("in.g6"), dir.path().join("out.json"));
    std::fs::write(&inp, &input).unwrap();
    let tty = on_a_terminal(&["solve", "uvg", "-", "--summary"], &inp, &out);
    assert!(
        tty.contains(&format!("gamesweep: {lines} lines solved in ")),
        "{lines} lines: {tty:?}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), piped.stdout);
}

/// The lines of `nauty-geng args`.
fn geng_lines(test: &str, args: &[&str]) -> Vec<String> {
    let g = geng_or_fail(test, args);
    assert!(g.status.success(), "geng {args:?}");
    String::from_utf8(g.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// sparse6 as geng writes it: our encoder gives geng's bytes for the same
/// graphs (geng -s and plain geng list the same graphs in the same order),
/// including the padding case n = 2^k, and our decoder reads them as the
/// graph6 lines decode.
#[test]
#[ignore = "needs nauty"]
fn sparse6_is_byte_for_byte_geng_s() {
    use gamesweep::graph::{graph6, sparse6};
    let test = "sparse6_is_byte_for_byte_geng_s";
    let mut checked = 0;
    for n in 1..=8 {
        let n = n.to_string();
        let g6 = geng_lines(test, &["-q", &n]);
        let s6 = geng_lines(test, &["-q", "-s", &n]);
        assert_eq!(g6.len(), s6.len(), "n {n}");
        for (a, b) in g6.iter().zip(&s6) {
            let (vn, edges) = graph6::decode(a).unwrap();
            assert_eq!(sparse6::encode(vn, &edges), *b, "geng graph6 {a}");
            assert_eq!(sparse6::decode(b).unwrap(), (vn, edges.clone()), "{b}");
            assert_eq!(graph6::decode(b).unwrap(), (vn, edges), "{b}");
            checked += 1;
        }
    }
    // A000088: 1 + 2 + 4 + 11 + 34 + 156 + 1044 + 12346 graphs on 1..8 vertices.
    assert_eq!(checked, 13_598);
}

/// `graphs -s` lists the graphs `graphs` lists, in sparse6; geng's
/// sparse6 goes into `solve uvg -` as its graph6 does.
#[test]
#[ignore = "needs nauty"]
fn sparse6_in_and_out() {
    use gamesweep::graph::{graph6, sparse6};
    let plain = ok(&["graphs", "7", "-c"]);
    let sparse = ok(&["graphs", "7", "-c", "-s"]);
    let (plain, sparse): (Vec<&str>, Vec<&str>) =
        (plain.lines().collect(), sparse.lines().collect());
    assert_eq!(plain.len(), 853);
    assert_eq!(sparse.len(), plain.len());
    for (a, b) in plain.iter().zip(&sparse) {
        assert!(b.starts_with(':'), "{b}");
        assert_eq!(sparse6::decode(b).unwrap(), graph6::decode(a).unwrap());
    }
    let s6 = geng_lines("sparse6_in_and_out", &["-c", "-q", "-s", "8"]).join("\n");
    let got: serde_json::Value = serde_json::from_str(
        &Gs::new(&["solve", "uvg", "-", "--summary", "--json"])
            .input(s6.as_bytes())
            .ok(),
    )
    .unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../runs/uvg/results.json");
    let want: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let row8 = want["by_n"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["n"] == 8)
        .unwrap();
    for k in ["graphs", "positions", "first_player_wins", "grundy"] {
        assert_eq!(got["by_n"][0][k], row8[k], "{k}");
    }
    // Each line's echo is the sparse6 line itself, valid for the next tool.
    let first = s6.lines().next().unwrap();
    let line = Gs::new(&["solve", "uvg", "-"]).input(first.as_bytes()).ok();
    assert!(line.starts_with(&format!("{first} ")), "{line}");
}

/// `graphs N mine:maxe` keeps what geng's does, alone and with RES/MOD,
/// `-d`/`-D` and `-c`; bad ranges are refused with geng's syntax named.
#[test]
#[ignore = "needs nauty"]
fn edge_ranges_count_like_geng() {
    for args in [
        vec!["8", "10"],
        vec!["-c", "8", "7:9"],
        vec!["-c", "8", "12:0"],
        vec!["8", "0:0"],
        vec!["-c", "-d2", "8", "9-11"],
        vec!["-c", "9", "12:14"],
    ] {
        assert_counts_like_geng("edge_ranges_count_like_geng", &args);
    }
    // Parts of an edge range partition it.
    let whole = counted(&["graphs", "-c", "9", "12:14"]);
    let parts: u64 = (0..3)
        .map(|i| counted(&["graphs", "-c", "9", "12:14", &format!("{i}/3")]))
        .sum();
    assert_eq!(parts, whole);
    refused(&["graphs", "7", "5:4"], "MAXE is less than MINE");
    refused(&["graphs", "7", "0/2", "4"], "comes before RES/MOD");
    refused(&["graphs", "7", "x:3"], "MINE:MAXE");
}

/// The path P_n in graph6.
fn path_code(n: usize) -> String {
    gamesweep::graph::graph6::encode_with(n, |u, v| u.abs_diff(v) == 1)
}

/// `solve node-kayles -` on paths is the octal game 0.137 (Dawson's
/// Kayles), as the `octal` solver computes it, one line per path in input
/// order; `solve snort -` on the star K₁,ₙ is ±n.
#[test]
fn game_lines_are_valued_in_input_order() {
    // `solve` values graphs of up to 12 vertices for Node Kayles.
    let octal = gamesweep::gamegraph::octal::grundy_values(&[1, 3, 7], 12);
    let paths: Vec<String> = (1..=12).rev().map(path_code).collect();
    let out = Gs::new(&["solve", "node-kayles", "-"])
        .input((paths.join("\n") + "\n").as_bytes())
        .ok();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 12, "{out}");
    for (line, n) in lines.iter().zip((1..=12).rev()) {
        let want = gamesweep::sweep::report::nim(u64::from(octal[n]));
        assert_eq!(*line, format!("{} {want}", path_code(n)), "P_{n}");
    }
    let stars: Vec<String> = (1..=6)
        .map(|n| gamesweep::graph::graph6::encode_with(n + 1, |u, v| (u == 0) != (v == 0)))
        .collect();
    let out = Gs::new(&["solve", "snort", "-", "--threads", "2"])
        .input(stars.join("\n").as_bytes())
        .ok();
    let values: Vec<&str> = out.lines().map(|l| l.split(' ').nth(1).unwrap()).collect();
    let want: Vec<String> = (1..=6).map(|n| format!("±{n}")).collect();
    assert_eq!(values, want);
}

/// Every connected graph on at most 5 vertices: each game's pipeline line
/// (`--json`) is what `solve GAME CODE --json` says of that graph alone.
#[test]
fn game_lines_match_the_single_graph_command() {
    let graphs = connected_upto(5);
    for game in ["node-kayles", "arc-kayles", "snort", "geography-edge"] {
        let out = Gs::new(&["solve", game, "-", "--json"])
            .input(graphs.as_bytes())
            .ok();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), graphs.lines().count(), "{game}");
        for (line, code) in lines.iter().zip(graphs.lines()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["code"], code, "{game}");
            let one: serde_json::Value =
                serde_json::from_str(&ok(&["solve", game, code, "--json"])).unwrap();
            assert_eq!(v["positions"], one, "{game} on {code}");
        }
    }
}

/// A bad line is reported with its number and the others are still valued;
/// the command then fails. Misuse is one line naming what was wrong.
#[test]
fn game_lines_bad_input_is_reported() {
    let o = Gs::new(&["solve", "arc-kayles", "-"])
        .input(b"Bw\nnot-a-graph\n\nCs\n")
        .output();
    assert_eq!(o.status.code(), Some(2));
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.starts_with("Bw ") && out.contains("\nCs "), "{out}");
    assert!(err.contains("line 2:"), "{err}");
    assert!(err.contains("1 of 3 lines could not be solved"), "{err}");
    harness::refused(&["solve", "no-such-game", "Bw"], "no game `no-such-game`");
    harness::refused(
        &["solve", "snort", "Bw", "--threads", "2"],
        "--threads goes with `-`",
    );
    harness::refused(
        &["solve", "snort", "-", "--threads", "0"],
        "not a number in 1..=1024",
    );
    harness::refused(&["solve", "snort", "Bw", "Cs"], "got 2 arguments");
    harness::refused(&["solve", "snort", "Bw", "--fast"], "no option `--fast`");
}
