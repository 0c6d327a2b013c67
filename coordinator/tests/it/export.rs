//! Moving a sweep: `gamesweep export`, `import` (over gRPC and into a
//! stopped store), `verify`, `--export-every`, with real processes on
//! 127.0.0.1 (port 0), and the refusals of an untrusted export file: any
//! flipped byte, a truncated file, an unknown format version, another solver
//! version, a caller without the admin role, and a forged
//! result under a valid checksum. A refused import writes nothing.
//!
//! Signed exports (docs/trust.md): a file changed and re-checksummed after
//! signing is refused as tampered; one without a trusted signature (format
//! 1, or another key's) imports as untrusted, and its results count only
//! once workers re-ran them (an undercounting file never reaches a report),
//! or is refused with `--require-signature`; the verification share is the
//! importer's, never the file's; `verify` re-derives the plan.

use gamesweep_engine::core::transfer::ImportPolicy;
use gamesweep_engine::core::{Core, CoreError};
use gamesweep_engine::export_file::{self, Decoded, Export, Signer, FORMAT_VERSION};
use gamesweep_engine::store::{SledStore, Store};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::support::cli;
use cli::{gs, ok, refused, serve, work_until_idle};

fn write_token(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("{text}\n")).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `gamesweep args` succeeds; its standard error (where `import` reports).
fn ok_err(args: &[&str]) -> String {
    let o = gs(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "gamesweep {args:?} failed: {err}");
    err
}

/// `v` as `&str`s (for [`gs`] and friends).
fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The key file of the store at `store` (`gamesweep key export`), at `out`.
fn key_file(store: &Path, out: &Path) -> PathBuf {
    let err = ok_err(&["key", "export", "--store", s(store), "--out", s(out)]);
    assert!(err.contains("sha256:"), "{err}");
    out.to_path_buf()
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

/// The key that signed `d`.
fn signer_of(d: &Decoded) -> export_file::PublicKey {
    match d.signature {
        export_file::Signature::Signed(k) => k,
        export_file::Signature::Unsigned => panic!("an unsigned export"),
    }
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
      // B trusts A's exports: A's key, from A's (stopped) store.
    let a_key = key_file(&d.join("a"), &d.join("a.key"));
    let export = export_file::read(&file).unwrap().export;
    let done = export.results.len();
    assert!(
        done > 0 && done < export.plan.len(),
        "{done} of {} done",
        export.plan.len()
    );

    // Coordinator B, on a fresh store: only the admin token may import.
    let mut b_opts = roles.to_vec();
    b_opts.extend(["--trust-key", s(&a_key)]);
    let (_b, url) = serve(&d.join("b"), &b_opts, &d.join("b.log"));
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
    let said = ok_err(&[
        "import",
        s(&file),
        "--verify-fraction",
        "0",
        "--coordinator",
        &url,
        "--token-file",
        s(&adm),
    ]);
    assert!(
        said.contains("signed by trusted key sha256:") && said.contains("results trusted"),
        "{said}"
    );
    // Again: it merges into the sweep it created, and changes nothing.
    let again = ok_err(&[
        "import",
        s(&file),
        "--coordinator",
        &url,
        "--token-file",
        s(&adm),
    ]);
    assert!(
        again.contains("merged") && again.contains(" 0 shards added"),
        "{again}"
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

/// Bounds (trust III): an import whose sweep id is 300 MiB long (the file
/// itself is small: the id compresses to kilobytes) is refused while it is
/// parsed, before any copy of the id is made; the coordinator's peak memory
/// grows by about the content once, not the four copies it made before
/// (a 600 MiB id took it to 2.5 GB).
#[test]
fn an_import_with_a_huge_id_is_refused_while_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = finished_export(d);
    let mut export = export_file::read(&file).unwrap().export;
    const ID: u64 = 300 << 20;
    export.sweep_id = "a".repeat(ID as usize);
    let huge = d.join("huge.gsx");
    let bytes = export_file::encode_unsigned(&export);
    drop(export);
    assert!(bytes.len() < 1 << 20, "{} bytes", bytes.len());
    std::fs::write(&huge, bytes).unwrap();
    let adm = write_token(d, "admin", "adm-secret");
    let (c, url) = serve(&d.join("c"), &["--token-file", s(&adm)], &d.join("c.log"));
    let pid = c.0.id();
    let before = crate::support::cli::peak_rss_kib(pid);
    refused(
        &[
            "import",
            s(&huge),
            "--coordinator",
            &url,
            "--token-file",
            s(&adm),
        ],
        "at most 1024 are allowed",
    );
    let grown = crate::support::cli::peak_rss_kib(pid).saturating_sub(before) << 10;
    assert!(
        grown < ID + ID / 2,
        "the coordinator grew by {grown} bytes for a {ID}-byte id"
    );
    // The same file offline: refused alike, nothing written.
    refused(
        &["import", s(&huge), "--store", s(&d.join("offline"))],
        "at most 1024 are allowed",
    );
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
    let export = export_file::read(&file).unwrap().export;
    assert!(export.results.len() < export.plan.len());

    // Into a stopped coordinator's store, then served and finished there
    // (the run's key trusted: its results count as they are).
    let part_key = key_file(&part.join("store"), &d.join("part.key"));
    let store = d.join("store");
    let said = ok_err(&[
        "import",
        s(&file),
        "--store",
        s(&store),
        "--name",
        "moved",
        "--verify-fraction",
        "0",
        "--trust-key",
        s(&part_key),
    ]);
    assert!(said.contains("results trusted"), "{said}");
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
        "--verify-fraction",
        "0",
        "--trust-key",
        s(&part_key),
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

    // And `run --import` does both in one step; it trusts only its own
    // store's key, so the local worker re-runs the imported results too.
    let out2 = d.join("out2");
    let said = ok_err(&[
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
    assert!(said.contains("not signed by a trusted key"), "{said}");
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
    let mut e = export_file::decode(&good).unwrap().export;
    e.solver_version = "0.0.0+another-build".into();
    try_import(
        "solver.gsx",
        &export_file::encode_unsigned(&e),
        "solver version mismatch",
    );
    // A forged result under a valid checksum: refused by re-validation.
    let mut e = export_file::decode(&good).unwrap().export;
    let shard = forge(&mut e);
    try_import(
        "forged.gsx",
        &export_file::encode_unsigned(&e),
        &format!("shard {shard}"),
    );
    // The intact file imports; a second time it merges, adding nothing.
    let f = d.join("good.gsx");
    std::fs::write(&f, &good).unwrap();
    ok(&["import", s(&f), "--store", s(&store)]);
    let again = ok_err(&["import", s(&f), "--store", s(&store)]);
    assert!(again.contains(" 0 shards added"), "{again}");
    assert_eq!(stored_ids(&store), ["run"]);
}

#[test]
fn a_refused_import_leaves_the_core_and_store_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = export_file::read(&finished_export(d)).unwrap();
    let trust = ImportPolicy {
        trusted: vec![signer_of(&good)],
        ..ImportPolicy::default()
    };
    let store: Arc<dyn Store> = Arc::new(SledStore::open(&d.join("store")).unwrap());
    let core = Core::open(store.clone(), Duration::from_secs(10)).unwrap();
    let mut forged = good.clone();
    forge(&mut forged.export);
    let e = core.import(&forged, None, &trust).unwrap_err();
    assert!(matches!(e, CoreError::BadRequest(_)), "{e}");
    assert!(core.sweep_ids().is_empty());
    assert!(store.load_all().unwrap().is_empty());
    assert!(store.results_of("run").unwrap().is_empty());
    // A plan other than the one this build makes is refused too.
    let mut replanned = good.clone();
    replanned.export.plan[0].estimate += 1;
    let e = core
        .import(&replanned, None, &trust)
        .unwrap_err()
        .to_string();
    assert!(e.contains("plan"), "{e}");
    // The intact export imports, and exports back to the same content
    // (but for the verification share: the importer's, 1 % by default).
    let i = core.import(&good, Some("again"), &trust).unwrap();
    assert_eq!(
        (i.done, i.shards, i.trusted),
        (
            good.export.results.len() as u32,
            good.export.plan.len() as u32,
            true
        )
    );
    let mut back = core.export("again").unwrap();
    back.sweep_id = good.export.sweep_id.clone();
    assert_eq!(back.verify_ppm, 10_000);
    back.verify_ppm = good.export.verify_ppm;
    assert_eq!(back, good.export);
    // Again: merged, every shard confirmed, nothing added.
    let i = core.import(&good, Some("again"), &trust).unwrap();
    assert_eq!(
        (i.merged, i.added, i.confirmed),
        (true, 0, good.export.results.len() as u32)
    );
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
    let mut e = export_file::read(&file).unwrap().export;
    let shard = forge(&mut e);
    let bad = d.join("tampered.gsx");
    std::fs::write(&bad, export_file::encode_unsigned(&e)).unwrap();
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
        if let Ok(e) = export_file::read(&file).map(|d| d.export) {
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
    let policy = ImportPolicy {
        trusted: vec![signer_of(&good)],
        verify_ppm: Some(1_000_000),
        ..ImportPolicy::default()
    };
    let core = Core::open(
        Arc::new(gamesweep_engine::store::MemStore::new()),
        Duration::from_secs(10),
    )
    .unwrap();
    let version = gamesweep_engine::core::solver_version();
    // Two shards unfinished, and every shard selected for verification.
    let mut partial = good.clone();
    partial.export.results.retain(|r| r.index >= 2);
    let i = core.import(&partial, Some("p"), &policy).unwrap();
    assert_eq!(i.done as usize, partial.export.results.len());
    let (st, _) = core.status(Some("p")).unwrap();
    assert_eq!(st[0].shards_done, i.done);
    // A worker of another identity than the results' origin (an issued
    // credential: only those confirm) gets the unfinished shards (attempt 1,
    // with fresh tokens) and verification copies of the rest.
    let out = core.lease("@fresh-worker", &version, 64).unwrap();
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

// ------------------------------------------------------------ signed exports

/// A finished `run` of uvg n ≤ `max_n` in `dir/name`, checkpointed by
/// `--export-every`: its export file, signed by `dir/name/store`'s key.
fn run_export(dir: &Path, name: &str, max_n: u32) -> PathBuf {
    let out = dir.join(name);
    ok(&[
        "run",
        "uvg",
        "--max-n",
        &max_n.to_string(),
        "-q",
        "--export-every",
        "1h",
        "--out",
        s(&out),
    ]);
    out.join("run.gsx")
}

/// Connected graphs on 8 vertices counted by the uvg results `results`.
fn graphs_at_8<'a>(results: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let mut merged = kind.empty();
    for r in results {
        merged.merge(kind.decode(r).unwrap()).unwrap();
    }
    // The encoded result read as JSON: the test names no kind's types.
    let out: serde_json::Value = serde_json::from_slice(&merged.encode()).unwrap();
    out["by_n"]["8"]["graphs"].as_u64().unwrap_or(0)
}

/// `export` (uvg) with one graph fewer in every shard that allows it, and
/// its positions, values, cover, first-player wins and degree-3 counts
/// adjusted so that the result still passes validation (checked here):
/// the undercount once found in an edited export. The number of shards
/// changed.
fn undercount(e: &mut Export) -> u64 {
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let params = kind.resolve_params(&e.params).unwrap();
    let mut forged = 0;
    for r in &mut e.results {
        // The result as JSON (the test names no kind's types): its largest n.
        let mut out: serde_json::Value = serde_json::from_str(&r.result).unwrap();
        let Some(c) = out["by_n"].as_object_mut().and_then(|m| {
            let last = m
                .keys()
                .max_by_key(|k| k.parse::<u64>().unwrap_or(0))?
                .clone();
            m.get_mut(&last).map(|c| (last.parse::<u64>().unwrap(), c))
        }) else {
            continue;
        };
        let (nn, c) = c;
        let num = |v: &serde_json::Value| v.as_u64().unwrap_or(0);
        // The most frequent value loses the graph's n starts (and stays).
        let (v, x) = c["grundy"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, x)| (k.clone(), num(x)))
            .max_by_key(|(_, x)| *x)
            .unwrap();
        let cover = c["cover"]
            .as_object()
            .unwrap()
            .iter()
            .find(|(_, k)| num(k) >= 2)
            .map(|(t, _)| t.clone());
        let graphs = num(&c["graphs"]);
        let d3_graphs = num(&c["degree3"]["graphs"]);
        let d3 = d3_graphs >= graphs;
        let fpw_ok = v == "0" || num(&c["first_player_wins"]) >= nn;
        let (Some(t), true, true, true) = (cover, graphs >= 2, x > nn, fpw_ok) else {
            continue;
        };
        if d3 && d3_graphs < 2 {
            continue;
        }
        let sub = |f: &mut serde_json::Value, by: u64| *f = (num(f) - by).into();
        sub(&mut c["graphs"], 1);
        sub(&mut c["positions"], nn);
        sub(&mut c["grundy"][&v], nn);
        if v != "0" {
            sub(&mut c["first_player_wins"], nn);
        }
        sub(&mut c["cover"][&t], 1);
        if d3 {
            sub(&mut c["degree3"]["graphs"], 1);
            sub(&mut c["degree3"]["positions"], nn);
        }
        let text = serde_json::to_string(&out).unwrap();
        let decoded = kind.decode(text.as_bytes()).unwrap();
        if kind
            .validate(&params, &e.plan[r.index as usize], &decoded)
            .is_ok()
        {
            r.result = text;
            forged += 1;
        }
    }
    forged
}

/// `export` framed as format 2 under the key and signature of the signed
/// file `signed`, with the checksum recomputed: what an attacker who edits
/// a signed file can make.
fn under_old_signature(signed: &[u8], export: &Export) -> Vec<u8> {
    let body = zstd::bulk::compress(&serde_json::to_vec(export).unwrap(), 3).unwrap();
    let n = signed.len();
    let mut out = signed[..12].to_vec();
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    out.extend_from_slice(&signed[n - 32 - 64 - 32..n - 32]);
    out.extend_from_slice(&[0; 32]);
    rechecksum(out)
}

/// Lease everything `worker` may get from `core` and submit honest results;
/// how many were submitted.
fn work_all(core: &Core, worker: &str) -> usize {
    use gamesweep_engine::core::Submission;
    let version = gamesweep_engine::core::solver_version();
    let got = core.lease(worker, &version, 1000).unwrap().leases;
    for g in &got {
        let kind = g.kind;
        let result = kind
            .run_shard(&g.params, &g.shard, &gamesweep::sweep::ShardCtx::detached())
            .unwrap();
        core.submit(Submission {
            worker: worker.into(),
            version: version.clone(),
            sweep_id: g.sweep_id.clone(),
            index: g.shard.index,
            token: g.token.clone(),
            result,
            timing: None,
            positions: None,
        })
        .unwrap();
    }
    got.len()
}

/// Regression: an export edited to undercount every shard and re-checksummed.
/// Under its signature it is refused as tampered; unsigned or re-signed by
/// another key it imports as untrusted: not finished, no merged result, the
/// verification share the importer's (the file says 0), never skipped as
/// unverifiable (not even with a worker posing as the import), and once an
/// honest worker re-ran every shard the lies are replaced: 11,117 graphs on
/// 8 vertices, not 11,101. With `require_signature` it is refused.
#[test]
fn an_undercounting_export_is_tampered_or_counts_only_once_workers_reran_it() {
    use gamesweep_engine::core::ManualClock;
    use gamesweep_engine::store::MemStore;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bytes = std::fs::read(run_export(d, "n8", 8)).unwrap();
    let honest = export_file::decode(&bytes).unwrap();
    let results = |e: &Export| -> Vec<Vec<u8>> {
        e.results
            .iter()
            .map(|r| r.result.as_bytes().to_vec())
            .collect()
    };
    assert_eq!(
        graphs_at_8(results(&honest.export).iter().map(Vec::as_slice)),
        11_117
    );
    let mut lie = honest.export.clone();
    let forged = undercount(&mut lie);
    lie.verify_ppm = 0;
    assert!(forged >= 10, "only {forged} shards could be undercounted");
    let lie_count = graphs_at_8(results(&lie).iter().map(Vec::as_slice));
    assert!(lie_count < 11_117, "{lie_count}"); // 11,101 with today's plan

    let e = export_file::decode(&under_old_signature(&bytes, &lie))
        .unwrap_err()
        .to_string();
    assert!(e.contains("tampered"), "{e}");

    let attacker = Signer::from_seed(&[7; 32]);
    let cases = [
        (
            export_file::encode_unsigned(&lie),
            "import:untrusted".to_string(),
        ),
        (
            export_file::encode(&lie, &attacker),
            format!("import:untrusted:{}", attacker.public().fingerprint()),
        ),
    ];
    for (file, who) in cases {
        let file = export_file::decode(&file).unwrap();
        let lease = Duration::from_millis(100);
        let clock = Arc::new(ManualClock::new());
        let core = Core::open_with_clock(Arc::new(MemStore::new()), lease, clock.clone()).unwrap();
        let strict = ImportPolicy {
            require_signature: true,
            ..ImportPolicy::default()
        };
        let e = core.import(&file, None, &strict).unwrap_err().to_string();
        assert!(e.contains("--require-signature"), "{e}");
        assert!(core.sweep_ids().is_empty());
        let i = core.import(&file, None, &ImportPolicy::default()).unwrap();
        assert!(!i.trusted, "{who}");
        assert_eq!(i.done as usize, lie.results.len());
        let pending = |core: &Core| {
            let (st, _) = core.status(Some("run")).unwrap();
            let v = st[0].verification.clone().expect("verification status");
            assert_eq!(v.ppm, 10_000, "the importer's share, not the file's 0");
            v
        };
        assert_eq!(pending(&core).pending as usize, lie.results.len());
        assert!(core.merged("run").is_err(), "counted before a re-run");
        assert!(core.rendered("run").is_err(), "reported before a re-run");
        // A worker posing as the import gets no copy, and however long no
        // other worker comes, the records stay open.
        for _ in 0..5 {
            assert_eq!(work_all(&core, &who), 0);
            clock.advance(lease * 10);
        }
        assert_eq!(pending(&core).pending as usize, lie.results.len());
        assert_eq!(pending(&core).unverifiable, 0);
        assert!(core.merged("run").is_err(), "an unconfirmed import counted");
        // An honest worker re-runs every imported result (bounded rounds).
        let mut rounds = 0;
        while core.merged("run").is_err() {
            rounds += 1;
            assert!(rounds <= 5, "not finished after {rounds} rounds");
            work_all(&core, "honest");
        }
        let merged = core.merged("run").unwrap().output.encode();
        assert_eq!(graphs_at_8([merged.as_slice()]), 11_117, "{who}");
        let v = pending(&core);
        assert_eq!(
            (v.replaced as u64, v.verified as u64, v.pending),
            (forged, lie.results.len() as u64 - forged, 0),
            "{who}"
        );
        assert_eq!(v.disagreeing_workers, std::slice::from_ref(&who));
    }
}

/// The verification share of an import is the importer's: a trusted file
/// that says 0 gets the default 1 % (or what the import asks for); the
/// store's own key is trusted without being named.
#[test]
fn a_file_declaring_verify_share_0_does_not_lower_the_importers_share() {
    use gamesweep_engine::store::MemStore;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = run_export(d, "n7", 7);
    let honest = export_file::read(&file).unwrap();
    assert_eq!(honest.export.verify_ppm, 0, "a run's export says 0");
    // The run's own store trusts its key.
    {
        let store = SledStore::open(&d.join("n7").join("store")).unwrap();
        let core = Core::open(Arc::new(store), Duration::from_secs(10)).unwrap();
        assert_eq!(core.signing_key(), signer_of(&honest));
        let i = core
            .import(&honest, Some("again"), &ImportPolicy::default())
            .unwrap();
        assert!(i.trusted && i.signer == core.signing_key().fingerprint());
        let (st, _) = core.status(Some("again")).unwrap();
        assert_eq!(st[0].verification.as_ref().map(|v| v.ppm), Some(10_000));
    }
    let core = Core::open(Arc::new(MemStore::new()), Duration::from_secs(10)).unwrap();
    let policy = ImportPolicy {
        trusted: vec![signer_of(&honest)],
        verify_ppm: Some(1_000_000),
        ..ImportPolicy::default()
    };
    let i = core.import(&honest, None, &policy).unwrap();
    assert!(i.trusted);
    let (st, _) = core.status(Some("run")).unwrap();
    let v = st[0].verification.as_ref().unwrap();
    assert_eq!(
        (v.ppm, v.selected as usize),
        (1_000_000, honest.export.plan.len())
    );
    assert!(
        core.merged("run").is_err(),
        "its selected shards await a copy"
    );
}

/// The CLI and gRPC faces of the same: `import --store` and `import` to a
/// coordinator refuse the tampered file and, with `--require-signature`,
/// the unsigned and unknown-key ones; without it they say plainly that the
/// results will be re-run; the report of the sweep, once workers re-ran
/// them, is the reference (11,117, never 11,101).
#[test]
fn tampered_and_untrusted_exports_offline_and_over_grpc() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let want = reference(d, 8);
    let file = run_export(d, "n8", 8);
    let bytes = std::fs::read(&file).unwrap();
    let mut lie = export_file::decode(&bytes).unwrap().export;
    let forged = undercount(&mut lie);
    assert!(forged >= 10);
    let n = lie.results.len();
    let tampered = d.join("tampered.gsx");
    std::fs::write(&tampered, under_old_signature(&bytes, &lie)).unwrap();
    let unsigned = d.join("unsigned.gsx");
    std::fs::write(&unsigned, export_file::encode_unsigned(&lie)).unwrap();
    let other = d.join("other.gsx");
    let attacker = Signer::from_seed(&[9; 32]);
    std::fs::write(&other, export_file::encode(&lie, &attacker)).unwrap();

    // Offline.
    let store = d.join("store");
    refused(&["import", s(&tampered), "--store", s(&store)], "tampered");
    refused(
        &[
            "import",
            s(&unsigned),
            "--store",
            s(&store),
            "--require-signature",
        ],
        "--require-signature",
    );
    assert!(stored_ids(&store).is_empty());
    let said = ok_err(&["import", s(&unsigned), "--store", s(&store)]);
    assert!(
        said.contains("not signed (an export of format 1)")
            && said.contains(&format!(
                "{n} results will be re-run by workers before the sweep can finish"
            )),
        "{said}"
    );
    assert_eq!(stored_ids(&store), ["run"]);

    // Over gRPC.
    let tok = write_token(d, "token", "one-token");
    let (_c, url) = serve(
        &d.join("served"),
        &["--token-file", s(&tok)],
        &d.join("c.log"),
    );
    let to = ["--coordinator", url.as_str(), "--token-file", s(&tok)];
    let with = |args: &[&str]| -> Vec<String> {
        args.iter()
            .chain(to.iter())
            .map(|a| a.to_string())
            .collect()
    };
    refused(&strs(&with(&["import", s(&tampered)])), "tampered");
    refused(
        &strs(&with(&["import", s(&other), "--require-signature"])),
        "which is not trusted here",
    );
    let said = ok_err(&strs(&with(&["import", s(&other)])));
    assert!(
        said.contains(&format!(
            "signed by key {}",
            attacker.public().fingerprint()
        )) && said.contains("not signed by a trusted key"),
        "{said}"
    );
    // Not finished, so no report, until a worker re-ran every result.
    let got = d.join("got");
    let early = gs(&strs(&with(&["report", "run", "--out", s(&got)])));
    assert!(!early.status.success());
    assert!(!got.join("results.json").exists());
    work_until_idle(&url, Some(&tok), &d.join("w.log"));
    ok(&strs(&with(&["report", "run", "--out", s(&got)])));
    assert!(std::fs::read(got.join("results.json")).unwrap() == want);
    let report = std::fs::read_to_string(got.join("report.md")).unwrap();
    assert!(
        report.contains("11,117") && !report.contains("11,101"),
        "{report}"
    );
    let status = ok(&strs(&with(&["status", "run", "--json"])));
    let v: serde_json::Value = serde_json::from_str(&status).unwrap();
    let ver = &v["sweeps"][0]["verification"];
    assert_eq!(ver["replaced"].as_u64(), Some(forged), "{status}");
}

/// `verify --trust-key` names who signed the file, and re-derives the plan:
/// a file whose plan entry and result for shard 5 were replaced by shard
/// 6's (which today reports "17 of 17 match") is refused naming shard 5.
#[test]
fn verify_checks_the_signature_and_re_derives_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = run_export(d, "n8", 8);
    let key = key_file(&d.join("n8").join("store"), &d.join("n8.key"));
    let shown = ok(&["key", "show", "--store", s(&d.join("n8").join("store"))]);
    let key_text = std::fs::read_to_string(&key).unwrap();
    let line = key_text.lines().last().unwrap();
    assert!(shown.contains(line), "{shown} vs {key_text}");
    let out = ok(&[
        "verify",
        s(&file),
        "--sample",
        "25%",
        "--trust-key",
        s(&key),
        "--require-signature",
    ]);
    assert!(out.contains("signed by trusted key sha256:"), "{out}");
    let out = ok(&["verify", s(&file), "--sample", "25%"]);
    assert!(out.contains("which is not trusted"), "{out}");
    refused(
        &["verify", s(&file), "--sample", "25%", "--require-signature"],
        "not signed by a trusted key",
    );
    // Shard 5's plan entry and result replaced by shard 6's.
    let mut e = export_file::read(&file).unwrap().export;
    assert!(e.results.len() > 6 && e.results[5].index == 5 && e.results[6].index == 6);
    e.plan[5] = e.plan[6].clone();
    e.plan[5].index = 5;
    e.results[5].result = e.results[6].result.clone();
    let swapped = d.join("swapped.gsx");
    std::fs::write(&swapped, export_file::encode_unsigned(&e)).unwrap();
    refused(
        &["verify", s(&swapped), "--sample", "1"],
        "differs from the plan this build makes for its parameters at shard 5",
    );
}
