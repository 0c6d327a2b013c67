//! Golden files: every committed `runs/*/results.json` is read back through
//! its kind's typed document and must re-render to the same bytes, and its
//! `report.md` (and exports) must be re-rendered byte for byte from it alone:
//! the kind's text is everything before the "Figures" section that the
//! report step appends (`coordinator/tests/figures.rs` re-renders that
//! section, the SVG files and `report.html` byte for byte).
//! Sweeps that recompute quickly are recomputed from scratch and compared
//! byte for byte; the long ones are recomputed by `bench/golden-long.sh`.

use gamesweep::kinds;
use gamesweep::sweep::{Output, Params, ShardCtx, SweepKind};
use std::path::{Path, PathBuf};

/// Committed runs too long to recompute in the test suite (minutes each).
const LONG: &[&str] = &[
    "uvg-n10",
    "col-9",
    "myopic-tree-12",
    "myopic-tree-14",
    "uvg-local-search-8",
];

/// Committed runs of an hour or more of CPU: re-rendered here, recomputed
/// only by rerunning the sweep (the command is in the run's `NOTES.md`).
const HOURS: &[&str] = &["uvg-n11", "col-10"];

fn runs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs")
}

struct Golden {
    dir: PathBuf,
    kind: &'static dyn SweepKind,
    params: Params,
    json: String,
}

fn goldens() -> Vec<Golden> {
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

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The heading that starts the first section the report step appends to
/// the kind's `report.md`
/// (`gamesweep_coordinator::report::VERIFICATION_HEADING`; the figures
/// follow it).
const VERIFICATION: &str = "\n## Verification\n";

/// The kind's part of a committed `report.md`: everything before the
/// appended Verification section, which every committed report has.
fn kind_report(dir: &Path) -> String {
    let md = read(&dir.join("report.md"));
    let Some(i) = md.rfind(VERIFICATION) else {
        panic!("{}: report.md has no Verification section", dir.display())
    };
    md[..i].to_string()
}

fn check_exports(g: &Golden, exports: &[(String, String)]) {
    for (name, text) in exports {
        let p = g.dir.join(name);
        if p.exists() {
            assert!(read(&p) == *text, "{}: export differs", p.display());
        }
    }
}

#[test]
fn reports_rerender_from_results_json() {
    for g in goldens() {
        let r = g
            .kind
            .render_from_json(&g.params, &g.json)
            .unwrap_or_else(|e| panic!("{}: {e}", g.dir.display()));
        assert!(
            r.results_json == g.json,
            "{}: results.json does not round-trip through the typed document",
            g.dir.display()
        );
        assert!(
            r.report_md == kind_report(&g.dir),
            "{}: report.md differs from the one rendered from results.json",
            g.dir.display()
        );
        check_exports(&g, &r.exports);
    }
}

/// Run a plan on all cores (shards taken in turn from a shared counter) and merge.
fn run_parallel(kind: &dyn SweepKind, params: &Params) -> Output {
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
fn recompute(g: &Golden) {
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

#[test]
fn quick_runs_recompute_byte_identical() {
    for g in goldens() {
        let name = g.dir.file_name().unwrap().to_string_lossy().to_string();
        if LONG.contains(&name.as_str()) || HOURS.contains(&name.as_str()) {
            eprintln!(
                "golden: {name} is recomputed by bench/golden-long.sh or its NOTES.md, not here"
            );
            continue;
        }
        recompute(&g);
    }
}

/// The long runs (minutes each): `cargo test --release -p gamesweep --test golden -- --ignored`.
#[test]
#[ignore]
fn long_runs_recompute_byte_identical() {
    for g in goldens() {
        let name = g.dir.file_name().unwrap().to_string_lossy().to_string();
        if LONG.contains(&name.as_str()) {
            recompute(&g);
        }
    }
}
