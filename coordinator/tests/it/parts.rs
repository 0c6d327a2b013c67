//! Parts that merge, with the real binary: `run --part K/M` in
//! separate stores, their exports merged into one (`run --import`, and
//! `import --store`) give `results.json` byte-identical to the sweep run
//! whole and to the committed `runs/uvg/results.json`; an incremental
//! checkpoint chain (`run --checkpoint-dir`) restores the sweep in a fresh
//! store; `export --since` leaves out what earlier files hold; bad parts
//! are one line of error.

use gamesweep_engine::export_file;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::support::harness;
use harness::{gs, ok, refused};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `gamesweep args` succeeds; its standard error (where `run` reports).
fn ok_err(args: &[&str]) -> String {
    let o = gs(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "gamesweep {args:?} failed: {err}");
    err
}

/// `run uvg --max-n 9 --in-process -q --out OUT` with `extra`; its stderr.
fn run9(out: &Path, extra: &[&str]) -> String {
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
    ok_err(&args)
}

/// The shard indices an export file holds.
fn shards_of(file: &Path) -> BTreeSet<u32> {
    let e = export_file::read(file).unwrap().export;
    e.results.iter().map(|r| r.index).collect()
}

fn committed() -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg/results.json");
    std::fs::read(root).unwrap()
}

#[test]
fn parts_run_apart_and_merged_give_the_whole_runs_results_json() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let whole = d.join("whole");
    run9(&whole, &[]);
    let want = std::fs::read(whole.join("results.json")).unwrap();
    assert!(want == committed(), "the whole run is the committed one");

    // Three parts, each in a store of its own (as on three machines).
    let keys = d.join("keys");
    std::fs::create_dir(&keys).unwrap();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut seen = BTreeSet::new();
    for k in 0..3 {
        let out = d.join(format!("part{k}"));
        let said = run9(&out, &["--part", &format!("{k}/3")]);
        assert!(
            said.contains(&format!("part {k}/3 done"))
                && said.contains("results.json is not written"),
            "{said}"
        );
        assert!(
            !out.join("results.json").exists(),
            "a part writes no results.json"
        );
        let file = out.join("run.gsx");
        let got = shards_of(&file);
        assert!(got.iter().all(|i| i % 3 == k), "part {k}: {got:?}");
        assert!(got.is_disjoint(&seen));
        seen.extend(got);
        ok_err(&[
            "key",
            "export",
            "--store",
            s(&out.join("store")),
            "--out",
            s(&keys.join(format!("part{k}.key"))),
        ]);
        files.push(file);
    }
    let plan = export_file::read(&files[0]).unwrap().export.plan.len();
    assert_eq!(seen.len(), plan, "the parts cover the plan");

    // Merged by `run --import` (keys trusted), in another order.
    let merged = d.join("merged");
    let said = run9(
        &merged,
        &[
            "--import",
            s(&files[2]),
            "--import",
            s(&files[0]),
            "--import",
            s(&files[1]),
            "--trust-key",
            s(&keys),
        ],
    );
    assert!(
        said.contains(&format!("{plan}/{plan} shards done")),
        "{said}"
    );
    assert!(std::fs::read(merged.join("results.json")).unwrap() == want);

    // Merged into part 1's stopped store by `import --store`: the second
    // import of a file changes nothing; then `run` there finishes it.
    let store = d.join("part1").join("store");
    for f in [&files[0], &files[2], &files[2]] {
        ok_err(&[
            "import",
            s(f),
            "--store",
            s(&store),
            "--trust-key",
            s(&keys.join("part0.key")),
            "--trust-key",
            s(&keys.join("part2.key")),
        ]);
    }
    let again = ok_err(&["import", s(&files[0]), "--store", s(&store)]);
    assert!(again.contains(" 0 shards added"), "{again}");
    let said = run9(&d.join("part1"), &["--part", "1/3"]);
    assert!(said.contains("uvg done"), "the whole sweep is in: {said}");
    assert!(std::fs::read(d.join("part1").join("results.json")).unwrap() == want);
}

#[test]
fn an_incremental_checkpoint_chain_restores_the_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("out");
    let chain = d.join("chain");
    // Three sessions of one run: a part, another part, then the rest;
    // each ends by writing the shards no file of the chain holds.
    run9(&out, &["--part", "0/3", "--checkpoint-dir", s(&chain)]);
    run9(&out, &["--part", "2/3", "--checkpoint-dir", s(&chain)]);
    let said = run9(
        &out,
        &["--checkpoint-dir", s(&chain), "--export-every", "1h"],
    );
    // The line says when (a long run's log tells its last checkpoint).
    let line = said
        .lines()
        .find(|l| l.contains("wrote checkpoint"))
        .unwrap_or_else(|| panic!("no checkpoint line: {said}"));
    let when = line.split(' ').nth(1).unwrap();
    assert!(
        when.len() == 20 && when.starts_with("20") && when.ends_with('Z'),
        "{line}"
    );
    let want = std::fs::read(out.join("results.json")).unwrap();
    assert!(want == committed());
    let mut files = export_file::files_at(&chain).unwrap();
    assert_eq!(files.len(), 3, "{files:?}");
    let mut all = BTreeSet::new();
    for (f, k) in files.iter().zip([Some(0), Some(2), None]) {
        let name = f.file_name().unwrap().to_str().unwrap().to_string();
        let got = shards_of(f);
        assert!(!got.is_empty() && got.is_disjoint(&all), "{name}");
        if let Some(k) = k {
            assert!(got.iter().all(|i| i % 3 == k), "{name}: {got:?}");
        }
        all.extend(got);
        // The first file carries the plan; the later ones only name it.
        let e = export_file::read(f).unwrap().export;
        assert_eq!(e.carries_plan(), k == Some(0), "{name}");
        assert_eq!(
            e.shards(),
            export_file::read(&files[0]).unwrap().export.plan.len()
        );
    }
    // An increment alone cannot start a store: it names a plan it lacks.
    let alone = d.join("alone");
    let e = refused(
        &["import", s(&files[1]), "--store", s(&alone)],
        "the file is an increment",
    );
    assert!(
        e.contains("import a file that carries the plan first"),
        "{e}"
    );
    let full = out.join("full.gsx");
    ok_err(&["export", "run", s(&full), "--store", s(&out.join("store"))]);
    assert_eq!(all, shards_of(&full), "the chain holds every shard");
    let sizes: Vec<u64> = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .collect();
    eprintln!(
        "uvg n <= 9: full export {} bytes; chain {sizes:?} (sum {})",
        std::fs::metadata(&full).unwrap().len(),
        sizes.iter().sum::<u64>()
    );
    // Nothing new: no file is written.
    run9(&out, &["--checkpoint-dir", s(&chain)]);
    assert_eq!(export_file::files_at(&chain).unwrap().len(), 3);
    // `export --since` the chain holds nothing more.
    let none = d.join("none.gsx");
    let said = ok_err(&[
        "export",
        "run",
        s(&none),
        "--store",
        s(&out.join("store")),
        "--since",
        s(&chain),
    ]);
    assert!(said.contains(": 0/"), "{said}");
    assert!(shards_of(&none).is_empty());

    // A fresh store restored from the chain, in reverse order: the same
    // results and the same stored results. The run's own key is another
    // store's here: trusted by its key file.
    let key = d.join("run.key");
    ok_err(&[
        "key",
        "export",
        "--store",
        s(&out.join("store")),
        "--out",
        s(&key),
    ]);
    files.reverse();
    let restored = d.join("restored");
    let mut args: Vec<&str> = Vec::new();
    for f in &files {
        args.extend(["--import", s(f)]);
    }
    args.extend(["--trust-key", s(&key)]);
    let said = run9(&restored, &args);
    let plan = shards_of(&full).len();
    assert!(said.contains(&format!("({plan} resumed)")), "{said}");
    assert!(std::fs::read(restored.join("results.json")).unwrap() == want);
    let back = d.join("back.gsx");
    ok_err(&[
        "export",
        "run",
        s(&back),
        "--store",
        s(&restored.join("store")),
    ]);
    let (a, b) = (
        export_file::read(&full).unwrap().export,
        export_file::read(&back).unwrap().export,
    );
    let results = |e: &export_file::Export| -> Vec<(u32, String)> {
        e.results
            .iter()
            .map(|r| (r.index, r.result.clone()))
            .collect()
    };
    assert_eq!(results(&a), results(&b), "the same stored results");
}

#[test]
fn bad_parts_and_foreign_files_are_one_line_of_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = s(&d.join("o")).to_string();
    // Read by the option's parser: clap's usage error, exit code 2.
    for (part, want) in [
        ("3/3", "K = 3 is not below M = 3"),
        ("x/3", "K is not a whole number"),
        ("1", "write it as K/M"),
        ("0/0", "out of range"),
    ] {
        let o = gs(&[
            "run",
            "uvg",
            "--max-n",
            "7",
            "--in-process",
            "-q",
            "--out",
            &out,
            "--part",
            part,
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(want) && !err.contains("panicked"), "{err}");
    }
    // Known only once planned: the run's one line.
    refused(
        &[
            "run",
            "uvg",
            "--max-n",
            "7",
            "--in-process",
            "-q",
            "--out",
            &out,
            "--part",
            "999/1000",
        ],
        "has no shards",
    );
    let o = gs(&[
        "run",
        "uvg",
        "--max-n",
        "7",
        "--in-process",
        "-q",
        "--out",
        &out,
        "--part",
        "0/2",
        "--sample",
        "10%",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot be used with"));
    // A chain folder holding another sweep's file is refused, naming it.
    let other = d.join("n7");
    let chain = d.join("chain");
    ok(&[
        "run",
        "uvg",
        "--max-n",
        "7",
        "--in-process",
        "-q",
        "--out",
        s(&other),
        "--checkpoint-dir",
        s(&chain),
    ]);
    let n8 = d.join("n8");
    ok(&[
        "run",
        "uvg",
        "--max-n",
        "8",
        "--in-process",
        "-q",
        "--out",
        s(&n8),
    ]);
    let err = refused(
        &[
            "run",
            "uvg",
            "--max-n",
            "8",
            "--in-process",
            "-q",
            "--out",
            s(&n8),
            "--checkpoint-dir",
            s(&chain),
        ],
        "another sweep",
    );
    assert!(err.contains("chain/0001-"), "{err}");
    // A part's export of another sweep does not merge into this run.
    refused(
        &[
            "run",
            "uvg",
            "--max-n",
            "8",
            "--in-process",
            "-q",
            "--out",
            s(&n8),
            "--import",
            s(&chain),
        ],
        "other parameters",
    );
}
