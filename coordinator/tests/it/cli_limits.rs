//! `gamesweep solve` and friends on hostile input: a clear one-line error
//! (exit 2) instead of a panic or memory growing without end, and a reader
//! closing the pipe early is a clean exit.

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};

use crate::support::harness::{gs, BIN};

/// `args` fail with exit code 2 and one line on stderr containing `hint`.
fn usage_error(args: &[&str], hint: &str) {
    let o = gs(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(hint), "{args:?}: `{hint}` not in: {err}");
}

#[test]
fn gamegraph_rejects_a_huge_name_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("long.txt");
    std::fs::write(&f, format!("a -> b\nb -> {}\n", "c".repeat(70_000))).unwrap();
    usage_error(
        &["solve", "gamegraph", f.to_str().unwrap()],
        "line 2: name `cccccccccccccccccccc...` is 70000 bytes long; names are at most 4096 bytes",
    );
    // A long name within the limit is fine.
    std::fs::write(&f, format!("a -> {}\n", "c".repeat(4096))).unwrap();
    let o = gs(&["solve", "gamegraph", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn gamegraph_input_is_bounded() {
    usage_error(
        &["solve", "gamegraph", "/dev/zero"],
        "/dev/zero: game file larger than 67108864 bytes (64 MiB)",
    );
}

/// Run `args`, read one line of its output, close the pipe; it must exit 0
/// without a panic.
fn reader_leaves_early(args: &[&str]) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty(), "{args:?}: no output");
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{args:?}: {:?} {err}", o.status);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn a_closed_pipe_is_a_clean_exit() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("path.txt");
    let text: String = (0..20_000)
        .map(|i| format!("p{i} -> p{}\n", i + 1))
        .collect();
    std::fs::write(&f, text).unwrap();
    let f = f.to_str().unwrap();
    reader_leaves_early(&["solve", "gamegraph", f]);
    reader_leaves_early(&["solve", "gamegraph", "--json", f]);
    reader_leaves_early(&["graphs", "8"]);
}

/// graph6 of the complete graph K_n.
fn complete(n: usize) -> String {
    gamesweep::graph::graph6::encode_with(n, |_, _| true)
}

/// `args` stop with the one-line budget message (exit 2) within `secs`.
fn stops_at_budget(args: &[&str], budget: u64, secs: u64) {
    let t = std::time::Instant::now();
    let o = gs(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    let (head, tail) = err
        .split_once(" s; ")
        .unwrap_or_else(|| panic!("{args:?}: {err}"));
    let took = head
        .strip_prefix(&format!(
            "gamesweep: search budget of {budget} positions exceeded after "
        ))
        .unwrap_or_else(|| panic!("{args:?}: {err}"));
    assert!(took.parse::<f64>().is_ok(), "{args:?}: {err}");
    assert_eq!(
        tail.trim_end(),
        format!(
            "pass --budget {} to allow more, --budget 0 for unlimited",
            budget * 10
        )
    );
    assert!(
        t.elapsed().as_secs() < 2 * secs,
        "{args:?}: {:?}",
        t.elapsed()
    );
}

#[test]
fn uvg_on_k40_stops_at_the_default_budget() {
    // Before: no budget ran until memory ran out; `--budget 3000000` (then
    // per start) ran for more than ten minutes.
    let k40 = complete(40);
    stops_at_budget(&["solve", "uvg", &k40], 5_000_000, 60);
    stops_at_budget(&["solve", "uvg", "--budget", "300000", &k40], 300_000, 30);
    stops_at_budget(
        &[
            "solve", "uvg", "--start", "5", "--json", "--budget", "1000", &k40,
        ],
        1000,
        10,
    );
}

#[test]
fn col_and_myopic_on_30_vertices_stop_at_the_default_budget() {
    // Before: no budget option; both ran until memory ran out.
    let c30 =
        gamesweep::graph::graph6::encode_with(30, |i, j| [1, 5, 11, 19, 25, 29].contains(&(j - i)));
    stops_at_budget(&["solve", "col", &c30], 1_000_000, 60);
    let d30 = gamesweep::graph::graph6::encode_digraph_with(30, |i, j| {
        j == (i + 1) % 30 || j == (i + 7) % 30
    });
    stops_at_budget(&["solve", "myopic", &d30], 1_000_000, 60);
    stops_at_budget(&["solve", "col", "--budget", "500", &c30], 500, 10);
}

fn stdout_of(args: &[&str]) -> String {
    let o = gs(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn small_positions_give_the_same_answer_with_any_budget() {
    // K5 (dense solver), a path on 20 vertices (general solver), Col P4 and
    // the Myopic example: the default budget, a tight one and none agree.
    let k5 = complete(5);
    let want = stdout_of(&["solve", "uvg", "--budget", "0", &k5]);
    assert!(
        want.contains("     0        0    second             -"),
        "{want}"
    );
    assert_eq!(stdout_of(&["solve", "uvg", &k5]), want);
    // A budget of one node: K5 still goes to the (budget-free) dense solver.
    assert_eq!(stdout_of(&["solve", "uvg", "--budget", "1", &k5]), want);
    let p20 = gamesweep::graph::graph6::encode_with(20, |i, j| j == i + 1);
    let want = stdout_of(&["solve", "uvg", "--json", "--budget", "0", &p20]);
    assert!(
        want.starts_with(r#"{"n":20,"starts":[{"start":0,"grundy":1,"#),
        "{want}"
    );
    assert_eq!(stdout_of(&["solve", "uvg", "--json", &p20]), want);
    let p4 = gamesweep::graph::graph6::encode_with(4, |i, j| j == i + 1);
    let want = stdout_of(&["solve", "col", "--colouring", "B..B", "--budget", "0", &p4]);
    assert!(want.contains("value:   -1\n"), "{want}");
    assert_eq!(
        stdout_of(&["solve", "col", "--colouring", "B..B", &p4]),
        want
    );
    assert_eq!(
        stdout_of(&[
            "solve",
            "col",
            "--colouring",
            "B..B",
            "--budget",
            "100",
            &p4
        ]),
        want
    );
    let d3 = gamesweep::graph::graph6::encode_digraph_with(3, |i, j| i == 0 && j > 0);
    let want = stdout_of(&[
        "solve",
        "myopic",
        "--colouring",
        ".L.",
        "--budget",
        "0",
        &d3,
    ]);
    assert!(want.contains("value:   -1/2\n"), "{want}");
    assert_eq!(
        stdout_of(&["solve", "myopic", "--colouring", ".L.", &d3]),
        want
    );
}

/// Run `args` with standard output a pipe whose reading end is already
/// closed: every write fails with a broken pipe. It must exit 0, no panic.
fn closed_stdout(args: &[&str]) {
    use std::os::fd::{FromRawFd as _, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: pipe(2) returned two fresh descriptors that nothing else owns.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    let o = Command::new(BIN)
        .args(args)
        .stdout(Stdio::from(write))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{args:?}: {:?} {err}", o.status);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn every_solve_and_listing_survives_a_closed_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("path.txt");
    let text: String = (0..2_000)
        .map(|i| format!("p{i} -> p{}\n", i + 1))
        .collect();
    std::fs::write(&f, text).unwrap();
    let f = f.to_str().unwrap();
    let p20 = gamesweep::graph::graph6::encode_with(20, |i, j| j == i + 1);
    let d3 = gamesweep::graph::graph6::encode_digraph_with(3, |i, j| i == 0 && j > 0);
    for json in [false, true] {
        let j: &[&str] = if json { &["--json"] } else { &[] };
        for args in [
            vec!["solve", "uvg", "Bg"],
            vec!["solve", "uvg", &p20],
            vec!["solve", "col", "Bg"],
            vec!["solve", "myopic", &d3],
            vec!["solve", "gamegraph", f],
        ] {
            let mut args = args.clone();
            args.extend_from_slice(j);
            closed_stdout(&args);
        }
    }
    closed_stdout(&["graphs", "7"]);
    closed_stdout(&["kinds"]);
}

#[test]
fn gamegraph_kernel_search_takes_a_budget() {
    // Three disjoint 10-cycles of moves: a kernel exists (every other vertex
    // of each cycle) but the exact search has to branch in each cycle.
    // Unlimited and default agree; one decision fewer than it needs gives
    // up, says so on stderr and names --budget.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("cycles.game");
    let mut text = String::new();
    for c in 0..3 {
        for i in 0..10 {
            text.push_str(&format!("c{c}_{i} -> c{c}_{}\n", (i + 1) % 10));
        }
    }
    std::fs::write(&f, text).unwrap();
    let f = f.to_str().unwrap();
    let full = stdout_of(&["solve", "gamegraph", "--budget", "0", f]);
    assert_eq!(stdout_of(&["solve", "gamegraph", f]), full);
    let line = full
        .lines()
        .find(|l| l.contains("branching decisions"))
        .unwrap_or_else(|| panic!("{full}"));
    let n: u64 = line
        .split(['(', ' '])
        .filter_map(|w| w.parse().ok())
        .next()
        .unwrap_or_else(|| panic!("{line}"));
    assert!(n >= 2, "{line}");
    let o = gs(&["solve", "gamegraph", "--budget", &n.to_string(), f]);
    assert_eq!(String::from_utf8(o.stdout).unwrap(), full);
    assert!(o.stderr.is_empty());
    let o = gs(&["solve", "gamegraph", "--budget", &(n - 1).to_string(), f]);
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    let gave_up = format!(
        "kernel: unknown (search gave up after {} branching decisions)",
        n - 1
    );
    assert!(out.contains(&gave_up), "{out}");
    assert_eq!(
        err.trim_end(),
        format!(
            "gamesweep: game G: the kernel search gave up after {} branching decisions; \
             pass --budget {} to allow more, --budget 0 for unlimited",
            n - 1,
            (n - 1) * 10
        )
    );
}
