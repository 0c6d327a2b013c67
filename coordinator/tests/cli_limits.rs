//! `gamesweep solve` and friends on hostile input: a clear one-line error
//! (exit 2) instead of a panic or memory growing without end, and a reader
//! closing the pipe early is a clean exit.

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_gamesweep");

fn gs(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

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
