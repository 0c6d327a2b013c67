//! A sweep moved between coordinators, imports into a stopped store, the
//! serve's checkpoints, and an imported sweep's unfinished shards.

use super::*;

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
            "--replicate-fraction",
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
        "--replicate-fraction",
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
    let before = crate::support::harness::peak_rss_kib(pid);
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
    let grown = crate::support::harness::peak_rss_kib(pid).saturating_sub(before) << 10;
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
        "--replicate-fraction",
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
        "--replicate-fraction",
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
        "--replicate-fraction",
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
