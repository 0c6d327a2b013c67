//! `ops::run` called directly, as Python's `run` calls it: a typed request
//! (from `run`'s words, or built field by field) runs the sweep and writes
//! the committed reference result byte for byte.

use gamesweep_coordinator::args::run::{default_out_dir, RunOptions};
use gamesweep_coordinator::ops::run::{run, Ended, RunRequest};
use std::path::Path;

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_typed_run_writes_the_reference_results_and_says_what_the_cli_says() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sub");
    let kind = gamesweep::kinds::find("subtraction").unwrap();
    let params = kind.resolve_params(&Default::default()).unwrap();
    let r = RunRequest {
        kind,
        params,
        options: RunOptions {
            threads: 1,
            quiet: true,
            in_process: true,
            out: Some(out.clone()),
            ..RunOptions::default()
        },
    };
    let o = run(&r).unwrap();
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/subtraction/results.json");
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        std::fs::read_to_string(golden).unwrap()
    );
    assert_eq!((o.shards, o.done, o.resumed_done), (64, 64, 0));
    assert_eq!(o.positions, 4_095);
    let Ended::Results {
        written,
        failed_checks,
    } = &o.ended
    else {
        panic!("{:?}", o.ended)
    };
    assert!(failed_checks.is_empty(), "{failed_checks:?}");
    assert!(
        written.files.iter().any(|f| f == "provenance.json"),
        "{written:?}"
    );
    o.checks_passed().unwrap();
    let said = o.messages();
    assert_eq!(said.len(), 1, "{said:?}");
    let line = &said[0];
    assert!(
        line.starts_with("gamesweep: subtraction done: 64 shards (0 resumed), 4,095 positions in ")
            && line.ends_with(&format!(
                " s on 1 thread; wrote {}/: results.json, report.md, report.html, figures/ (5 SVG files) and provenance.json",
                out.display()
            )),
        "{line}"
    );
    // Again: everything resumed from the folder's store, the same result.
    let again = run(&r).unwrap();
    assert_eq!((again.done, again.resumed_done), (64, 64));
}

#[test]
fn run_words_become_a_typed_request() {
    let r = RunRequest::from_words(&words(&[
        "uvg",
        "--max-n",
        "7",
        "--threads",
        "3",
        "--in-process",
        "--import",
        "a.gsx",
        "--import",
        "b.gsx",
    ]))
    .unwrap();
    assert_eq!(r.kind.name(), "uvg");
    assert_eq!(r.params["max_n"], 7);
    assert_eq!(r.options.threads, 3);
    assert!(r.options.in_process && !r.options.http);
    assert_eq!(r.options.import, [Path::new("a.gsx"), Path::new("b.gsx")]);
    // The default folder names the parameters that differ from defaults.
    assert_eq!(r.out(), default_out_dir(r.kind, &r.params));
    assert_eq!(r.out(), Path::new("sweeps/uvg-max-n-7"));
    let e = RunRequest::from_words(&words(&["uvg", "--max-n", "7", "--threads", "0"]))
        .err()
        .unwrap();
    assert!(e.to_string().contains("--threads"), "{e}");
}

#[test]
fn an_in_process_run_refuses_verification_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let mut r = RunRequest::from_words(&words(&[
        "subtraction",
        "--in-process",
        "--replicate-fraction",
        "1%",
    ]))
    .unwrap();
    r.options.out = Some(out.clone());
    let e = run(&r).err().unwrap();
    assert_eq!(
        e.to_string(),
        "--replicate-fraction needs a second worker identity to run the copies, and --in-process has one: drop one of them"
    );
    assert!(e
        .downcast_ref::<gamesweep_coordinator::error::UsageError>()
        .is_some());
    assert!(!out.exists(), "nothing written");
}
