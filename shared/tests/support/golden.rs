//! The committed runs and how to check them, shared by the golden test
//! (`tests/golden.rs`: every report re-rendered, the quick runs recomputed)
//! and the long runs' example (`examples/golden_long.rs`,
//! `bench/golden-long.sh`).
#![allow(dead_code)] // each user uses what it needs

use gamesweep::kinds;
use gamesweep::sweep::{Output, Params, ShardCtx, SweepKind};
use std::path::{Path, PathBuf};

/// Committed runs too long to recompute in the test suite (minutes each).
pub const LONG: &[&str] = &[
    "uvg-n10",
    "col-9",
    "myopic-tree-12",
    "myopic-tree-14",
    "uvg-local-search-8",
];

/// Committed runs of an hour or more of CPU: re-rendered here, recomputed
/// only by rerunning the sweep (the command is in the run's `NOTES.md`).
pub const HOURS: &[&str] = &["uvg-n11", "uvg-n12", "col-10"];

pub fn runs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs")
}

pub struct Golden {
    /// The run's directory, `runs/NAME`.
    pub dir: PathBuf,
    /// Its kind.
    pub kind: &'static dyn SweepKind,
    /// Its parameters, resolved.
    pub params: Params,
    /// Its committed `results.json`.
    pub json: String,
}

pub fn goldens() -> Vec<Golden> {
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(runs_dir())
        .expect("runs/ exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("results.json").is_file())
        .collect();
    dirs.sort();
    for dir in dirs {
        let json = std::fs::read_to_string(dir.join("results.json")).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        let name = doc["kind"].as_str().expect("results.json names its kind");
        let kind = kinds::find(name).unwrap();
        let given: Params = serde_json::from_value(doc["params"].clone()).unwrap();
        let params = kind.resolve_params(&given).unwrap();
        out.push(Golden {
            dir,
            kind,
            params,
            json,
        });
    }
    assert!(
        out.len() >= 16,
        "expected the committed runs, found {}",
        out.len()
    );
    out
}

pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The heading that starts the first section the report step appends to
/// the kind's `report.md`
/// (`gamesweep_coordinator::report::VERIFICATION_HEADING`; the figures
/// follow it).
pub const VERIFICATION: &str = "\n## Verification\n";

/// The kind's part of a committed `report.md`: everything before the
/// appended Verification section, which every committed report has.
pub fn kind_report(dir: &Path) -> String {
    let md = read(&dir.join("report.md"));
    let Some(i) = md.rfind(VERIFICATION) else {
        panic!("{}: report.md has no Verification section", dir.display())
    };
    md[..i].to_string()
}

pub fn check_exports(g: &Golden, exports: &[(String, String)]) {
    for (name, text) in exports {
        let p = g.dir.join(name);
        if p.exists() {
            assert!(read(&p) == *text, "{}: export differs", p.display());
        }
    }
}

/// Run a plan on all cores (shards taken in turn from a shared counter) and merge.
pub fn run_parallel(kind: &dyn SweepKind, params: &Params) -> Output {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let plan = kind.plan(params, 0).unwrap();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let parts: Vec<Output> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut acc = kind.empty();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(shard) = plan.get(i) else { break acc };
                        let r = kind
                            .run_shard(params, shard, &ShardCtx::detached())
                            .unwrap();
                        acc.merge(r).unwrap();
                    }
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut merged = kind.empty();
    for p in parts {
        merged.merge(p).unwrap();
    }
    merged
}

/// Recompute a committed run and compare every written file byte for byte.
pub fn recompute(g: &Golden) {
    let merged = run_parallel(g.kind, &g.params);
    let r = g.kind.render(&g.params, &merged).unwrap();
    assert!(
        r.results_json == g.json,
        "{}: recomputed results.json differs",
        g.dir.display()
    );
    assert!(
        r.report_md == kind_report(&g.dir),
        "{}: recomputed report.md differs",
        g.dir.display()
    );
    check_exports(g, &r.exports);
}
