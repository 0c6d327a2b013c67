//! Moving a sweep: `gamesweep export`, `import` (over gRPC and into a
//! stopped store), `verify`, `--export-every`, with real processes on
//! 127.0.0.1 (port 0), and the refusals of an untrusted export file: any
//! flipped byte, a truncated file, an unknown format version, another solver
//! version, an id clash, a caller without the admin role, and a forged
//! result under a valid checksum. A refused import writes nothing.

use gamesweep_coordinator::core::{Core, CoreError};
use gamesweep_coordinator::export_file::{self, Export, FORMAT_VERSION};
use gamesweep_coordinator::store::{SledStore, Store};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "support/cli.rs"]
mod cli;
#[path = "support/proc.rs"]
mod proc;
use cli::{gs, ok, refused, serve, work_until_idle};

fn write_token(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("{text}\n")).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The results.json of an uninterrupted in-process run of uvg n ≤ `n`.
fn reference(dir: &Path, n: u32) -> Vec<u8> {
    let out = dir.join(format!("ref{n}"));
    ok(&[
        "run",
        "uvg",
        "--max-n",
        &n.to_string(),
        "--shards",
        "64",
        "--in-process",
        "-q",
        "--out",
        s(&out),
    ]);
    std::fs::read(out.join("results.json")).unwrap()
}

/// A finished run of uvg n ≤ 7 with `--export-every`: its checkpoint file
/// (written when the run stops) is a real export of a finished sweep.
fn finished_export(dir: &Path) -> PathBuf {
    let out = dir.join("small");
    ok(&[
        "run",
        "uvg",
        "--max-n",
        "7",
        "--shards",
        "16",
        "-q",
        "--export-every",
        "1h",
        "--out",
        s(&out),
    ]);
    let file = out.join("run.gsx");
    assert!(file.exists(), "run --export-every wrote no checkpoint");
    file
}

/// `bytes` with its trailing checksum recomputed (what an attacker can do).
fn rechecksum(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 32;
    let sum = Sha256::digest(&bytes[..n]);
    bytes[n..].copy_from_slice(&sum);
    bytes
}

/// `export` with its first result's `first_player_wins` counter raised by
/// one: still a well-formed result of the kind, but not the shard's.
fn forge(export: &mut Export) -> u32 {
    let key = "\"first_player_wins\":";
    for r in &mut export.results {
        if let Some(at) = r.result.find(key) {
            let start = at + key.len();
            let end = start
                + r.result[start..]
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap();
            let n: u64 = r.result[start..end].parse().unwrap();
            r.result.replace_range(start..end, &(n + 1).to_string());
            return r.index;
        }
    }
    panic!("no result with {key}");
}

/// The sweep ids in the sled store at `dir` (the store closed again).
fn stored_ids(dir: &Path) -> Vec<String> {
    let store = SledStore::open(dir).unwrap();
    store
        .load_all()
        .unwrap()
        .into_iter()
        .map(|s| s.record.id)
        .collect()
}

/// Resume the uvg sweep `name` (max n 9, 64 shards, no verification copies)
/// at `url` with the `[admin, worker, read]` tokens, work it to the end, and
/// return its `results.json` as reported into `dir/got`.
fn resume_and_report(
    url: &str,
    name: &str,
    [admin, worker, read]: [&Path; 3],
    worker_log: &Path,
    dir: &Path,
) -> Vec<u8> {
    ok(&[
        "launch",
        "uvg",
        "--max-n",
        "9",
        "--shards",
        "64",
        "--name",
        name,
        "--resume",
        "--verify-fraction",
        "0",
        "--coordinator",
        url,
        "--token-file",
        s(admin),
    ]);
    work_until_idle(url, Some(worker), worker_log);
    let got = dir.join("got");
    ok(&[
        "report",
        name,
        "--out",
        s(&got),
        "--coordinator",
        url,
        "--token-file",
        s(read),
    ]);
    std::fs::read(got.join("results.json")).unwrap()
}

#[test]
fn a_sweep_moves_between_coordinators_and_finishes_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let want = reference(d, 9);
    let adm = write_token(d, "admin", "adm-secret");
    let wrk = write_token(d, "worker", "wrk-secret");
    let rd = write_token(d, "read", "rd-secret");
    let roles = [
        "--token-file",
        s(&adm),
        "--worker-token-file",
        s(&wrk),
        "--read-token-file",
        s(&rd),
    ];
    let file = d.join("moved.gsx");
    {
        // Coordinator A: a 20 % sample of the sweep runs, then it is exported.
        let (_a, url) = serve(&d.join("a"), &roles, &d.join("a.log"));
        ok(&[
            "launch",
            "uvg",
            "--max-n",
            "9",
            "--shards",
            "64",
            "--name",
            "mv",
            "--sample",
            "20%",
            "--verify-fraction",
            "0",
            "--coordinator",
            &url,
            "--token-file",
            s(&adm),
        ]);
        work_until_idle(&url, Some(&wrk), &d.join("wa.log"));
        // Export is a read: the read token may do it.
        ok(&[
            "export",
            "mv",
            s(&file),
            "--coordinator",
            &url,
            "--token-file",
            s(&rd),
        ]);
    } // coordinator A is killed here
    let export = export_file::read(&file).unwrap();
    let done = export.results.len();
    assert!(
        done > 0 && done < export.plan.len(),
        "{done} of {} done",
        export.plan.len()
    );

    // Coordinator B, on a fresh store: only the admin token may import.
    let (_b, url) = serve(&d.join("b"), &roles, &d.join("b.log"));
    for (tok, why) in [
        (&rd, "may not import sweeps"),
        (&wrk, "may not import sweeps"),
    ] {
        refused(
            &[
                "import",
                s(&file),
                "--coordinator",
                &url,
                "--token-file",
                s(tok),
            ],
            why,
        );
    }
    // A damaged or cut file is refused over gRPC too, and nothing is stored.
    let bytes = std::fs::read(&file).unwrap();
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x08;
    let bad = d.join("flipped.gsx");
    std::fs::write(&bad, &flipped).unwrap();
    refused(
        &[
            "import",
            s(&bad),
            "--coordinator",
            &url,
            "--token-file",
            s(&adm),
        ],
        "checksum does not match",
    );
    std::fs::write(&bad, &bytes[..bytes.len() - 100]).unwrap();
    refused(
        &[
            "import",
            s(&bad),
            "--coordinator",
            &url,
            "--token-file",
            s(&adm),
        ],
        "truncated",
    );
    let none = ok(&[
        "status",
        "--json",
        "--coordinator",
        &url,
        "--token-file",
        s(&rd),
    ]);
    let v: serde_json::Value = serde_json::from_str(&none).unwrap();
    assert_eq!(v["sweeps"].as_array().map(Vec::len), Some(0), "{none}");
    ok(&[
        "import",
        s(&file),
        "--coordinator",
        &url,
        "--token-file",
        s(&adm),
    ]);
    refused(
        &[
            "import",
            s(&file),
            "--coordinator",
            &url,
            "--token-file",
            s(&adm),
        ],
        "already exists",
    );
    let status = ok(&[
        "status",
        "mv",
        "--json",
        "--coordinator",
        &url,
        "--token-file",
        s(&rd),
    ]);
    let v: serde_json::Value = serde_json::from_str(&status).unwrap();
    let sw = &v["sweeps"][0];
    assert_eq!(sw["shards_done"].as_u64(), Some(done as u64), "{status}");
    // The imported sample is done; widen it to the whole plan and finish.
    let got = resume_and_report(&url, "mv", [&adm, &wrk, &rd], &d.join("wb.log"), d);
    assert!(
        got == want,
        "results.json after the move differs from the uninterrupted run"
    );
    let audit = ok(&["audit", "--coordinator", &url, "--token-file", s(&adm)]);
    assert!(audit.contains("import"), "{audit}");
}

#[test]
fn offline_import_into_a_stopped_store_then_serve_or_run_finishes_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let want = reference(d, 9);
    // A partial run: only a sample of it, checkpointed by --export-every.
    let part = d.join("part");
    ok(&[
        "run",
        "uvg",
        "--max-n",
        "9",
        "--shards",
        "64",
        "--sample",
        "20%",
        "-q",
        "--export-every",
        "1h",
        "--out",
        s(&part),
    ]);
    let file = part.join("run.gsx");
    let export = export_file::read(&file).unwrap();
    assert!(export.results.len() < export.plan.len());

    // Into a stopped coordinator's store, then served and finished there.
    let store = d.join("store");
    ok(&["import", s(&file), "--store", s(&store), "--name", "moved"]);
    assert_eq!(stored_ids(&store), ["moved"]);
    let tok = write_token(d, "token", "one-token");
    {
        let (_c, url) = serve(&store, &["--token-file", s(&tok)], &d.join("c.log"));
        let got = resume_and_report(&url, "moved", [tok.as_path(); 3], &d.join("wc.log"), d);
        assert!(got == want);
    }

    // Into a `run` folder's store (as the run's sweep), then `run` resumes it.
    let out = d.join("out");
    ok(&[
        "import",
        s(&file),
        "--store",
        s(&out.join("store")),
        "--name",
        "run",
    ]);
    let err = String::from_utf8(
        gs(&[
            "run",
            "uvg",
            "--max-n",
            "9",
            "--shards",
            "64",
            "-q",
            "--out",
            s(&out),
        ])
        .stderr,
    )
    .unwrap();
    assert!(err.contains("resuming the run"), "{err}");
    assert!(std::fs::read(out.join("results.json")).unwrap() == want);

    // And `run --import` does both in one step.
    let out2 = d.join("out2");
    ok(&[
        "run",
        "uvg",
        "--max-n",
        "9",
        "--shards",
        "64",
        "-q",
        "--import",
        s(&file),
        "--out",
        s(&out2),
    ]);
    assert!(std::fs::read(out2.join("results.json")).unwrap() == want);
}

#[test]
fn damaged_files_are_refused_with_one_line_and_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = std::fs::read(finished_export(d)).unwrap();
    let store = d.join("store");
    let try_import = |name: &str, bytes: &[u8], want: &str| {
        let f = d.join(name);
        std::fs::write(&f, bytes).unwrap();
        refused(&["import", s(&f), "--store", s(&store)], want);
        assert!(stored_ids(&store).is_empty(), "{name} wrote to the store");
        refused(&["verify", s(&f), "--sample", "1"], "");
    };
    // A flipped byte: in the magic, the version, the length, the body
    // (start, middle, end), and the checksum.
    let n = good.len();
    for pos in [0, 9, 14, 21, n / 2, n - 40, n - 32, n - 1] {
        let mut b = good.clone();
        b[pos] ^= 0x01;
        let e = export_file::decode(&b).unwrap_err().to_string();
        assert!(!e.is_empty());
        try_import(&format!("flip{pos}.gsx"), &b, "");
    }
    let mut b = good.clone();
    b[n / 2] ^= 0x40;
    try_import("flip-mid.gsx", &b, "checksum does not match");
    for cut in [0, 5, 19, 40, n / 2, n - 1] {
        try_import(&format!("cut{cut}.gsx"), &good[..cut], "truncated");
    }
    // An unknown format version (with a valid checksum).
    let mut b = good.clone();
    b[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    try_import(
        "v2.gsx",
        &rechecksum(b),
        &format!("format version {} is unknown", FORMAT_VERSION + 1),
    );
    // Another solver version (a well-formed file).
    let mut e = export_file::decode(&good).unwrap();
    e.solver_version = "0.0.0+another-build".into();
    try_import(
        "solver.gsx",
        &export_file::encode(&e),
        "solver version mismatch",
    );
    // A forged result under a valid checksum: refused by re-validation.
    let mut e = export_file::decode(&good).unwrap();
    let shard = forge(&mut e);
    try_import(
        "forged.gsx",
        &export_file::encode(&e),
        &format!("shard {shard}"),
    );
    // The intact file imports; a second time it clashes.
    let f = d.join("good.gsx");
    std::fs::write(&f, &good).unwrap();
    ok(&["import", s(&f), "--store", s(&store)]);
    refused(&["import", s(&f), "--store", s(&store)], "already exists");
    assert_eq!(stored_ids(&store), ["run"]);
}

#[test]
fn a_refused_import_leaves_the_core_and_store_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = export_file::read(&finished_export(d)).unwrap();
    let store: Arc<dyn Store> = Arc::new(SledStore::open(&d.join("store")).unwrap());
    let core = Core::open(store.clone(), Duration::from_secs(10)).unwrap();
    let mut forged = good.clone();
    forge(&mut forged);
    let e = core.import(&forged, None).unwrap_err();
    assert!(matches!(e, CoreError::BadRequest(_)), "{e}");
    assert!(core.sweep_ids().is_empty());
    assert!(store.load_all().unwrap().is_empty());
    assert!(store.results_of("run").unwrap().is_empty());
    // A plan other than the one this build makes is refused too.
    let mut replanned = good.clone();
    replanned.plan[0].estimate += 1;
    let e = core.import(&replanned, None).unwrap_err().to_string();
    assert!(e.contains("plan"), "{e}");
    // The intact export imports, and exports back to the same content.
    let i = core.import(&good, Some("again")).unwrap();
    assert_eq!(
        (i.done, i.shards),
        (good.results.len() as u32, good.plan.len() as u32)
    );
    let mut back = core.export("again").unwrap();
    back.sweep_id = good.sweep_id.clone();
    back.verify_seed = good.verify_seed;
    assert_eq!(back, good);
    assert!(matches!(
        core.import(&good, Some("again")),
        Err(CoreError::Exists(_))
    ));
}

#[test]
fn verify_reruns_a_seeded_sample_and_finds_a_tampered_result() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = finished_export(d);
    let out = ok(&["verify", s(&file), "--sample", "1", "--threads", "2"]);
    assert!(out.contains(" 0 mismatch"), "{out}");
    let out = ok(&["verify", s(&file), "--sample", "25%", "--seed", "5"]);
    assert!(out.contains(" 0 mismatch"), "{out}");
    let mut e = export_file::read(&file).unwrap();
    let shard = forge(&mut e);
    let bad = d.join("tampered.gsx");
    std::fs::write(&bad, export_file::encode(&e)).unwrap();
    let o = gs(&["verify", s(&bad), "--sample", "1"]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("shard {shard}: MISMATCH")),
        "{stdout}"
    );
    assert!(stdout.contains(" 1 mismatch"), "{stdout}");
}

#[test]
fn serve_writes_checkpoints_to_its_export_dir() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tok = write_token(d, "token", "one-token");
    let exports = d.join("exports");
    let (_c, url) = serve(
        &d.join("store"),
        &[
            "--token-file",
            s(&tok),
            "--export-every",
            "1s",
            "--export-dir",
            s(&exports),
        ],
        &d.join("c.log"),
    );
    ok(&[
        "launch",
        "uvg",
        "--max-n",
        "7",
        "--name",
        "ck",
        "--verify-fraction",
        "0",
        "--coordinator",
        &url,
        "--token-file",
        s(&tok),
    ]);
    work_until_idle(&url, Some(&tok), &d.join("w.log"));
    let file = exports.join("ck.gsx");
    let t0 = Instant::now();
    loop {
        if let Ok(e) = export_file::read(&file) {
            if e.results.len() == e.plan.len() {
                break;
            }
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "no complete checkpoint of ck in {}",
            exports.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // No temporary file is left beside it.
    let names: Vec<String> = std::fs::read_dir(&exports)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["ck.gsx"]);
}

#[test]
fn an_imported_sweep_leases_its_unfinished_shards_and_verification_copies() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = export_file::read(&finished_export(d)).unwrap();
    let core = Core::open(
        Arc::new(gamesweep_coordinator::store::MemStore::new()),
        Duration::from_secs(10),
    )
    .unwrap();
    let version = gamesweep_coordinator::core::solver_version();
    // Two shards unfinished, and every shard selected for verification.
    let mut partial = good.clone();
    partial.results.retain(|r| r.index >= 2);
    partial.verify_ppm = 1_000_000;
    let i = core.import(&partial, Some("p")).unwrap();
    assert_eq!(i.done as usize, partial.results.len());
    let (st, _) = core.status(Some("p")).unwrap();
    assert_eq!(st[0].shards_done, i.done);
    // A worker other than the results' origin gets the unfinished shards
    // (attempt 1, with fresh tokens) and verification copies of the rest.
    let out = core.lease("fresh-worker", &version, 64).unwrap();
    let mut fresh: Vec<u32> = out
        .leases
        .iter()
        .filter(|g| g.sweep_id == "p" && g.shard.index < 2)
        .map(|g| {
            assert_eq!(g.attempt, 1);
            g.shard.index
        })
        .collect();
    fresh.sort_unstable();
    assert_eq!(fresh, [0, 1]);
    assert!(
        out.leases.iter().any(|g| g.shard.index >= 2),
        "no verification copy of an imported result was handed out"
    );
}
