//! `gamesweep extend`, with the real binary: lifted from every connected
//! graph on 6–8 (4–6) vertices, it finds exactly the `*4` (`*3`) starts on
//! 9 (7) vertices that the committed n ≤ 9 sweep counts, and with `--cover`
//! exactly the graphs its extension step counts; the output does not depend
//! on threads, parts, the lists' order or labelling; bad input is one line.

use gamesweep::graph::{graph6, BitGraph};
use gamesweep::uvg::grundy_all;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::support::harness::{ok, refused, Gs};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `gamesweep graphs N -c -q` for each `N` in `sizes`, one file each.
fn connected_lists(dir: &Path, sizes: &[usize]) -> Vec<PathBuf> {
    sizes
        .iter()
        .map(|n| {
            let path = dir.join(format!("connected-{n}.txt"));
            std::fs::write(&path, ok(&["graphs", &n.to_string(), "-c", "-q"])).unwrap();
            path
        })
        .collect()
}

/// `gamesweep extend ARGS LISTS`: its stdout and stderr.
fn extend(args: &[&str], lists: &[PathBuf]) -> (String, String) {
    let mut a = vec!["extend"];
    a.extend(args);
    a.extend(lists.iter().map(|p| s(p)));
    Gs::new(&a).ok_both()
}

/// The committed n ≤ 9 sweep's record of `n` vertices.
fn sweep_at(n: usize) -> serde_json::Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../runs/uvg/results.json"
    ))
    .unwrap();
    let r: serde_json::Value = serde_json::from_str(&text).unwrap();
    r["by_n"][n - 1].clone()
}

/// Starts of value `v` over the output's records, each graph re-solved.
fn starts_of_value(out: &str, v: u8) -> u64 {
    out.lines()
        .map(|l| {
            let (g6, vals) = l.split_once(' ').unwrap();
            let g = graph6::parse_bitgraph(g6).unwrap();
            let want: Vec<String> = grundy_all(&g).iter().map(u8::to_string).collect();
            assert_eq!(vals, want.join(","), "{l}");
            grundy_all(&g).iter().filter(|&&x| x == v).count() as u64
        })
        .sum()
}

#[test]
fn lifting_finds_every_start_of_the_value_the_sweep_counts() {
    let dir = tempfile::tempdir().unwrap();
    for (v, m) in [(3u8, 7usize), (4, 9)] {
        let lists = connected_lists(dir.path(), &[m - 3, m - 2, m - 1]);
        let at = sweep_at(m);
        let (out, err) = extend(
            &["--value", &v.to_string(), "--vertices", &m.to_string()],
            &lists,
        );
        assert_eq!(
            starts_of_value(&out, v),
            at["grundy"][v.to_string()].as_u64().unwrap(),
            "*{v} on {m}: {err}"
        );
        assert!(
            err.contains(&format!("starts of value *{v} in those")),
            "{err}"
        );
        // Kept only with starts of every value 0..=v: the sweep's extension
        // step counts the same graphs, and a *(v+1) on m + 1 follows.
        let cover = format!("0-{v}");
        let (out, err) = extend(
            &[
                "--value",
                &v.to_string(),
                "--vertices",
                &m.to_string(),
                "--cover",
                &cover,
            ],
            &lists,
        );
        let want = at["extensions"][(v + 1).to_string()]["graphs"]
            .as_u64()
            .unwrap();
        assert_eq!(out.lines().count() as u64, want, "{err}");
        let w = err
            .lines()
            .find(|l| {
                l.contains(&format!(
                    "a start of value *{} on {} vertices: ",
                    v + 1,
                    m + 1
                ))
            })
            .unwrap_or_else(|| panic!("no witness line: {err}"));
        let mut f = w.rsplit(": ").next().unwrap().split_whitespace();
        let g = graph6::parse_bitgraph(f.next().unwrap()).unwrap();
        assert_eq!(f.next(), Some("start"));
        let start: usize = f.next().unwrap().parse().unwrap();
        assert_eq!(grundy_all(&g)[start], v + 1, "{w}");
    }
}

#[test]
fn the_output_is_the_same_for_any_threads_parts_order_and_labelling() {
    let dir = tempfile::tempdir().unwrap();
    let lists = connected_lists(dir.path(), &[6, 7, 8]);
    let args = ["--value", "4", "--vertices", "9", "--cover", "1-4"];
    let (whole, _) = extend(&[&args[..], &["--threads", "1"]].concat(), &lists);
    assert!(whole.lines().count() > 100);
    let (two, _) = extend(&[&args[..], &["--threads", "2"]].concat(), &lists);
    assert_eq!(two, whole);
    // Three parts, merged as the help says (sort -u).
    let mut merged = BTreeSet::new();
    for k in 0..3 {
        let part = format!("{k}/3");
        let (out, err) = extend(&[&args[..], &["--part", &part]].concat(), &lists);
        assert!(err.contains(&format!("part {k}/3")), "{err}");
        merged.extend(out.lines().map(str::to_string));
    }
    let merged: Vec<String> = merged.into_iter().collect();
    assert_eq!(merged.join("\n") + "\n", whole);
    // The lists reversed, relabelled, with repeats and values given.
    let mut lines = Vec::new();
    for path in lists.iter().rev() {
        for (i, l) in std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .rev()
            .enumerate()
        {
            let g = graph6::parse_bitgraph(l).unwrap();
            let n = g.n();
            let perm: Vec<usize> = (0..n).map(|v| (v + i) % n).collect();
            let h: BitGraph = g.permuted(&perm);
            let vals: Vec<String> = grundy_all(&h).iter().map(u8::to_string).collect();
            lines.push(format!(
                "{} {}",
                graph6::encode_bitgraph(&h),
                vals.join(",")
            ));
            if i % 5 == 0 {
                lines.push(format!("{} {}", graph6::encode_bitgraph(&h), i % n));
            }
        }
    }
    let shuffled = dir.path().join("shuffled.txt");
    std::fs::write(&shuffled, format!("# relabelled\n{}\n\n", lines.join("\n"))).unwrap();
    let out_file = dir.path().join("kept.txt");
    let (stdout, err) = extend(&[&args[..], &["--out", s(&out_file)]].concat(), &[shuffled]);
    assert_eq!(stdout, "");
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), whole);
    assert!(err.contains("12,082 graphs up to isomorphism"), "{err}");
    // Compressed when its name says so, and read back the same way.
    let zst = dir.path().join("kept.txt.zst");
    extend(&[&args[..], &["--out", s(&zst)]].concat(), &lists);
    let bytes = zstd::stream::decode_all(&std::fs::read(&zst).unwrap()[..]).unwrap();
    assert_eq!(String::from_utf8(bytes).unwrap(), whole);
    // An output is valid input of the next step.
    let (_, err) = extend(
        &["--value", "5", "--vertices", "10", "--cover", "0-5"],
        &[zst],
    );
    assert!(
        err.contains("none, so no start of value *6 on 11 vertices"),
        "{err}"
    );
}

#[test]
fn bad_input_is_one_line_naming_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let list = |name: &str, text: &str| {
        let p = d.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let base = ["extend", "--value", "2", "--vertices", "6"];
    let run = |file: &str, want: &str| {
        refused(&[&base[..], &[file]].concat(), want);
    };
    // P4 = "Ch": start values 1,2,2,1; "C?": 4 vertices, no edge.
    run(&list("bad6.txt", "Ch\nC~~~\n"), "bad6.txt:2");
    run(&list("vals.txt", "Ch 1,2,2,1\nCh 1,1,1,1\n"), "vals.txt:2");
    run(&list("small.txt", "A_\n"), "a graph on 2 vertices");
    run(&list("big.txt", "E???\n"), "a graph on 6 vertices");
    run(&list("split.txt", "C?\n"), "not connected");
    run(&list("start.txt", "Ch 4\n"), "start 4 is not a vertex");
    run(&list("fields.txt", "Ch 0,1,1,0 x\n"), "expected");
    run(&d.join("missing.txt").to_string_lossy(), "missing.txt");
    let ok_list = list("ok.txt", "Ch\n");
    let with = |extra: &[&str], want: &str| {
        refused(&[&base[..], extra, &[ok_list.as_str()]].concat(), want);
    };
    with(&["--cover", "3-1"], "--cover 3-1");
    with(&["--cover", "0-6"], "--cover 0-6");
    // What clap refuses: its line, then where to read more.
    let parse = |args: &[&str], want: &str| {
        let err = Gs::new(&[&["extend"][..], args].concat()).fails();
        assert!(
            err.starts_with("gamesweep: ") && err.contains(want),
            "{want:?} not in: {err}"
        );
        assert!(err.contains("--help") && !err.contains("panicked"), "{err}");
    };
    let l = ok_list.as_str();
    parse(
        &["--value", "2", "--vertices", "6", "--cover", "x", l],
        "give LO-HI",
    );
    parse(
        &["--value", "2", "--vertices", "6", "--part", "3/3", l],
        "K = 3 is not below M = 3",
    );
    parse(&["--value", "0", "--vertices", "6", l], "'0' for '--value");
    parse(
        &["--value", "2", "--vertices", "17", l],
        "'17' for '--vertices",
    );
    parse(&["--value", "2", "--vertices", "6"], "<LIST>");
}
