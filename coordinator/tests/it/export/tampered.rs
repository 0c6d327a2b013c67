//! Tampered, undercounting and untrusted exports, offline and over gRPC,
//! and `verify` checking the signature and the plan.

use super::*;

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
