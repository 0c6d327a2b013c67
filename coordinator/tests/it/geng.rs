//! `gamesweep graphs` follows nauty's geng: its `>A` and `>Z`
//! lines on standard error (`-u`: the count only there, `-q`: neither),
//! its switch clusters (`-ctfd1D7`), the classes `-b`, `-t`, `-f` with
//! geng's counts, and a clear refusal of each geng switch it lacks. The
//! tests `#[ignore = "needs nauty"]` compare with `nauty-geng` itself (and
//! fail without it): counts, `>A` lines and, up to 8 vertices, the graphs
//! themselves up to isomorphism.

use crate::support::harness::{gs, refused, BIN};
use crate::support::proc;
use gamesweep::gen::canon;
use gamesweep::graph::graph6;
use std::collections::BTreeSet;
use std::process::{Command, Output};

/// The lines of a stream, as text.
fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_string)
        .collect()
}

/// `gamesweep graphs ARGS`, which must succeed.
fn ours(args: &[&str]) -> Output {
    let mut a = vec!["graphs"];
    a.extend(args);
    let o = gs(&a);
    assert!(
        o.status.success(),
        "gamesweep {a:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// `nauty-geng ARGS` (which must be installed: the test fails otherwise).
fn geng_run(test: &str, args: &[&str]) -> Output {
    Command::new("nauty-geng")
        .args(args)
        .output()
        .unwrap_or_else(|e| proc::missing(test, "nauty (nauty-geng)", &e.to_string()))
}

/// `nauty-geng ARGS`, which must succeed.
fn geng(test: &str, args: &[&str]) -> Output {
    let o = geng_run(test, args);
    assert!(
        o.status.success(),
        "nauty-geng {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// The `>A` line of `stderr` without its program name (geng writes its
/// own, we ours).
fn a_line(stderr: &[u8]) -> String {
    let all = lines(stderr);
    let line = all
        .iter()
        .find_map(|l| l.strip_prefix(">A "))
        .unwrap_or_else(|| panic!("no >A line in {all:?}"));
    line.split_once(' ')
        .map_or("", |(_, rest)| rest)
        .to_string()
}

/// The count of the `>Z` line of `stderr`, which must be geng's `>Z COUNT
/// graphs generated in SECONDS sec`.
fn z_count(stderr: &[u8]) -> u64 {
    let all = lines(stderr);
    let line = all
        .iter()
        .find_map(|l| l.strip_prefix(">Z "))
        .unwrap_or_else(|| panic!("no >Z line in {all:?}"));
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 6, "{line}");
    assert_eq!(words[1..4], ["graphs", "generated", "in"], "{line}");
    assert_eq!(words[5], "sec", "{line}");
    let secs = words[4];
    assert!(
        secs.parse::<f64>().is_ok() && secs.split_once('.').is_some_and(|(_, f)| f.len() == 2),
        "{line}"
    );
    words[0].parse().unwrap()
}

/// The isomorphism classes of graph6 lines, as canonical forms.
fn classes(stdout: &[u8]) -> BTreeSet<String> {
    let all = lines(stdout);
    let set: BTreeSet<String> = all
        .iter()
        .map(|l| {
            let g = graph6::parse_bitgraph(l).unwrap_or_else(|e| panic!("{l}: {e}"));
            graph6::encode_bitgraph(&canon::canonical_form(&g))
        })
        .collect();
    assert_eq!(set.len(), all.len(), "one graph per isomorphism class");
    set
}

/// geng's lines: `>A` before the graphs, `>Z` with their number after;
/// `-u` writes only the `>Z` line, `-q` neither.
#[test]
fn graphs_writes_gengs_a_and_z_lines() {
    let o = ours(&["8", "-c"]);
    assert_eq!(lines(&o.stdout).len(), 11_117);
    let err = lines(&o.stderr);
    assert_eq!(err.len(), 2, "{err:?}");
    assert_eq!(err[0], format!(">A {BIN} -cd1D7 n=8 e=7-28"));
    assert_eq!(z_count(&o.stderr), 11_117);
    // -u: nothing on standard output, the count in the >Z line.
    let o = ours(&["8", "-c", "-u"]);
    assert!(o.stdout.is_empty(), "{:?}", lines(&o.stdout));
    assert_eq!(a_line(&o.stderr), "-cd1D7 n=8 e=7-28");
    assert_eq!(z_count(&o.stderr), 11_117);
    // A part, geng's way: its tuning values and the class.
    let o = ours(&["8", "-u", "2/3"]);
    assert_eq!(a_line(&o.stderr), "-X0x150d0D7 n=8 e=0-28 class=2/3");
    // -q: no lines; -uq: nothing at all, as geng.
    let o = ours(&["7", "-c", "-q"]);
    assert_eq!(lines(&o.stdout).len(), 853);
    assert!(o.stderr.is_empty(), "{:?}", lines(&o.stderr));
    let o = ours(&["7", "-cuq"]);
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
}

/// The classes and geng's clusters, with the counts nauty-geng 2.8.6 gives
/// (`nauty-geng -u ARGS`, written here so that this runs without nauty).
#[test]
fn classes_and_clusters_count_as_geng_counts() {
    for (args, want) in [
        (&["-b", "8"][..], 303),
        (&["-t", "8"], 410),
        (&["-f", "8"], 351),
        (&["-tf", "8"], 114),
        (&["-bf", "8"], 86),
        (&["-bt", "8"], 303),
        (&["-ctf", "9"], 137),
        (&["-cb", "8", "7:10"], 131),
        (&["-cbm", "8"], 182),
        (&["-cd1D7", "8"], 11_117),
        (&["-d2D3", "8"], 70),
        (&["-D3", "-d2", "8"], 70),
        (&["8", "-tu", "5:0"], 393),
        (&["-cgd2", "8"], 7_442),
        // A switch or bound given again, as geng allows (the last bound).
        (&["-c", "-c", "-d1d2", "8"], 7_442),
        (&["-d3", "-d2", "-c", "8"], 7_442),
    ] {
        let mut a = args.to_vec();
        a.push("-u");
        let o = ours(&a);
        assert_eq!(z_count(&o.stderr), want, "{args:?}");
    }
    // The listing is the count's graphs, each in its class.
    let o = ours(&["8", "-ct", "-q"]);
    let listed = lines(&o.stdout);
    assert_eq!(listed.len(), 267);
    for l in &listed {
        let g = graph6::parse_bitgraph(l).unwrap();
        assert!(g.is_connected(), "{l}");
        for u in 0..8 {
            for v in 0..8 {
                assert!(!g.has_edge(u, v) || g.nbrs(u) & g.nbrs(v) == 0, "{l}");
            }
        }
    }
}

/// Each geng switch `graphs` lacks is refused by name, with what to do
/// instead; so are bounds no graph meets, as geng refuses them.
#[test]
fn gengs_other_switches_are_refused_by_name() {
    for (args, want) in [
        (&["8", "-T"][..], "geng's -T is not supported (chordal graphs); run `nauty-geng`"),
        (&["8", "-cT"], "geng's -T is not supported"),
        (&["8", "-C"], "geng's -C is not supported (biconnected graphs)"),
        (&["8", "-k"], "geng's -k is not supported (K4-free graphs)"),
        (&["8", "-S"], "geng's -S is not supported (split graphs)"),
        (&["8", "-P"], "geng's -P is not supported (perfect graphs)"),
        (&["8", "-F"], "geng's -F is not supported (claw-free graphs)"),
        (&["8", "-l"], "geng's -l is not supported (nauty's canonical labelling); the graphs (one per isomorphism class, as geng's) come in gamesweep's own labelling; pipe them through `nauty-labelg`"),
        (&["8", "-v"], "geng's -v is not supported (counts by number of edges)"),
        (&["8", "-y"], "geng's -y is not supported"),
        (&["8", "-n"], "geng's -n is not supported"),
        (&["8", "-x500"], "geng's -x is not supported"),
        (&["8", "-X1"], "geng's -X is not supported"),
        // Inside a cluster, after a degree bound, as geng reads it.
        (&["8", "-cd1T"], "geng's -T is not supported"),
        (&["8", "-d1z"], "-z is not a switch of geng"),
        (&["8", "-D5", "-d1D7"], "give -D once"),
        (&["8", "-c", "0:0"], "no graph on 8 vertices has degrees 1..=7 and 0..=0 edges and is connected; geng refuses these bounds too"),
        (&["8", "-D1", "5"], "geng refuses these bounds too"),
    ] {
        let mut a = vec!["graphs"];
        a.extend(args);
        refused(&a, want);
    }
}

/// The argument lists compared with geng: every class combination,
/// connected or not, plain and with degree and edge bounds.
fn combinations() -> Vec<Vec<&'static str>> {
    let classes = ["", "b", "t", "f", "bt", "bf", "tf", "btf"];
    let mut out = Vec::new();
    for c in ["", "c"] {
        for k in classes {
            for extra in [&[][..], &["-d1", "-D3"], &["-d2"], &["-D2"]] {
                let flags: &'static str = Box::leak(format!("-{c}{k}g").into_boxed_str());
                let mut a = vec![flags];
                a.extend(extra);
                out.push(a);
            }
        }
    }
    out
}

/// Up to 8 vertices, every combination of `-c`, `-b`, `-t`, `-f` (and of
/// them with degree bounds and edge ranges): the same graphs as geng, up
/// to isomorphism, the same count in `>Z` and the same `>A` line.
#[test]
#[ignore = "needs nauty"]
fn classes_equal_gengs_up_to_8_vertices() {
    let test = "classes_equal_gengs_up_to_8_vertices";
    for n in 1..=8u32 {
        let n_s = n.to_string();
        for base in combinations() {
            let mut ranges: Vec<Option<String>> = vec![None];
            if n >= 4 {
                ranges.push(Some(format!("{}:{}", n - 1, n + 1)));
                ranges.push(Some(format!("{}:0", n)));
            }
            for range in ranges {
                let mut args = base.clone();
                args.push(&n_s);
                if let Some(r) = &range {
                    args.push(r);
                }
                let theirs = geng_run(test, &args);
                if !theirs.status.success() {
                    // geng: "impossible mine,maxe,mindeg,maxdeg values".
                    let mut a = vec!["graphs"];
                    a.extend(&args);
                    refused(&a, "geng refuses these bounds too");
                    continue;
                }
                let mine = ours(&args);
                assert_eq!(a_line(&mine.stderr), a_line(&theirs.stderr), "{args:?}");
                assert_eq!(z_count(&mine.stderr), z_count(&theirs.stderr), "{args:?}");
                assert_eq!(classes(&mine.stdout), classes(&theirs.stdout), "{args:?}");
            }
        }
    }
}

/// At 9 and 10 vertices, a selection: the counts of `-u` and the `>A`
/// lines equal geng's.
#[test]
#[ignore = "needs nauty"]
fn class_counts_equal_gengs_at_9_and_10_vertices() {
    let test = "class_counts_equal_gengs_at_9_and_10_vertices";
    for args in [
        &["-u", "9", "-b"][..],
        &["-u", "9", "-ct"],
        &["-u", "9", "-f"],
        &["-u", "9", "-ctf", "-D3"],
        &["-u", "9", "-bf", "8:10"],
        &["-u", "10", "-b"],
        &["-u", "10", "-ct"],
        &["-u", "10", "-cf"],
        &["-u", "10", "-tf", "-d1"],
        &["-u", "10", "-cbd2D4", "12:0"],
    ] {
        let theirs = geng(test, args);
        let mut a = args.to_vec();
        a.extend(["--threads", "2"]);
        let mine = ours(&a);
        assert!(mine.stdout.is_empty());
        assert_eq!(a_line(&mine.stderr), a_line(&theirs.stderr), "{args:?}");
        assert_eq!(z_count(&mine.stderr), z_count(&theirs.stderr), "{args:?}");
    }
}
