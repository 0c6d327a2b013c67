//! A run whose solver build changed since it started (the n = 12
//! campaign's first interruption: `run` refused to resume it, so a faster
//! solver could not join a campaign mid-way). With the real binary: a part
//! of `uvg --max-n 9` is stored as if an earlier build had computed it;
//! `run` refuses to go on without `--accept-solver-change`, says what to
//! do, then goes on with it; `results.json` is the committed one byte for
//! byte, and `provenance.json` and the report say which build computed
//! which shards.

use gamesweep_engine::store::{ResilientStore, Store};
use std::collections::BTreeSet;
use std::path::Path;

use crate::support::harness;
use harness::{gs, refused};

/// The solver version the test pretends an earlier build had.
const EARLIER: &str = "0.0.9+earlier-build";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn run9(out: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "run",
        "uvg",
        "--max-n",
        "9",
        "--in-process",
        "-q",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    args.into_iter().map(String::from).collect()
}

fn ok_err(args: &[String]) -> String {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = gs(&a);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "gamesweep {args:?} failed: {err}");
    err
}

/// Rewrite the stored run's solver version to `version` (as a store an
/// earlier build wrote would hold); the shards it holds.
fn pretend_earlier_build(store: &Path, version: &str) -> BTreeSet<u32> {
    let st = ResilientStore::open_sled(store).unwrap();
    let mut all = st.load_all().unwrap();
    assert_eq!(all.len(), 1);
    let sweep = all.remove(0);
    let mut record = sweep.record.clone();
    record.solver_version = version.into();
    st.update_sweep(&record).unwrap();
    st.flush().unwrap();
    sweep.results.keys().copied().collect()
}

#[test]
fn a_run_goes_on_under_a_new_solver_only_when_told_and_says_which_build_computed_what() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    ok_err(&run9(&out, &["--part", "0/3"]));
    let earlier = pretend_earlier_build(&out.join("store"), EARLIER);
    assert!(!earlier.is_empty());

    let a = run9(&out, &[]);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let err = refused(&a, "--accept-solver-change");
    assert!(err.contains(EARLIER) && err.contains("--fresh"), "{err}");
    assert!(!out.join("results.json").exists());

    let said = ok_err(&run9(&out, &["--accept-solver-change"]));
    assert!(
        said.contains("going on under this build")
            && said.contains(&format!("{} done so far stay", plural(earlier.len()))),
        "{said}"
    );
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg/results.json");
    assert!(
        std::fs::read(out.join("results.json")).unwrap() == std::fs::read(committed).unwrap(),
        "results.json is the committed one, byte for byte"
    );
    let p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("provenance.json")).unwrap())
            .unwrap();
    let solvers = p["solvers"]
        .as_array()
        .expect("provenance lists the builds");
    assert_eq!(solvers.len(), 2, "{solvers:?}");
    assert_eq!(solvers[0]["version"], EARLIER);
    let listed: BTreeSet<u32> = solvers[0]["ranges"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r[0].as_u64().unwrap() as u32..=r[1].as_u64().unwrap() as u32)
        .collect();
    assert_eq!(listed, earlier, "the earlier build's shards, exactly");
    assert_eq!(solvers[1]["version"], p["solver_version"]);
    let total = p["shards_total"].as_u64().unwrap();
    assert_eq!(
        solvers[0]["shards"].as_u64().unwrap() + solvers[1]["shards"].as_u64().unwrap(),
        total
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("Solver builds:") && report.contains(EARLIER),
        "the report says which build computed what"
    );

    // Resumed again by the same build: nothing to accept, nothing said.
    let again = ok_err(&run9(&out, &[]));
    assert!(!again.contains("solver changed"), "{again}");
}

fn plural(n: usize) -> String {
    if n == 1 {
        "1 shard".into()
    } else {
        format!("{n} shards")
    }
}
