//! The protocol's edge cases with a raw gRPC client: duplicate, late and
//! foreign submits, and a lease and submit round trip without a delayed-ACK
//! stall.

use super::*;

#[test]
fn duplicate_late_and_foreign_submits_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, "s3cret-token\n").unwrap();
    let tf = token_file.to_str().unwrap();
    let (_c, u) = Serve::new(&dir.path().join("store"))
        .port(0)
        .args(&["--token-file", tf, "--lease-secs", "60"])
        .log(&dir.path().join("serve.log"))
        .start()
        .into_parts();
    let rt = rt();
    let v = gamesweep_api::solver_version();

    // Wrong or missing token: refused, and nothing is created.
    for t in [None, Some("wrong")] {
        let mut bad = {
            let _g = rt.enter();
            gamesweep_proto::connect_lazy(&u, &gamesweep_proto::ClientOptions::token(t)).unwrap()
        };
        let e = rt
            .block_on(bad.launch(pb::LaunchRequest {
                replicate_all: false,
                part: None,
                kind: "uvg".into(),
                params: vec![pb::Param {
                    name: "max_n".into(),
                    value: 5,
                }],
                name: "intruder".into(),
                target_shards: 0,
                resume_existing: false,
                sample: None,
                verify_ppm: 0,
                verify_seed: None,
                priority: 0,
            }))
            .unwrap_err();
        assert_eq!(e.code(), tonic::Code::Unauthenticated);
    }
    let o = gs(&["status", "--coordinator", &u]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("token"));

    ok(&[
        "launch",
        "uvg",
        "--replicate-fraction",
        "0",
        "--max-n",
        "6",
        "--shards",
        "4",
        "--name",
        "d",
        "--coordinator",
        &u,
        "--token-file",
        tf,
    ]);
    let mut c = {
        let _g = rt.enter();
        gamesweep_proto::connect_lazy(
            &u,
            &gamesweep_proto::ClientOptions::token(Some("s3cret-token")),
        )
        .unwrap()
    };

    // The refused launches left nothing behind.
    let all = rt
        .block_on(c.status(pb::StatusRequest::default()))
        .unwrap()
        .into_inner();
    let ids: Vec<&str> = all.sweeps.iter().map(|s| s.sweep_id.as_str()).collect();
    assert_eq!(ids, ["d"]);

    // A worker of another solver build is refused at lease and at submit.
    let e = lease(&rt, &mut c, "old", &v.all_at("0.0.0+0000"), 1).unwrap_err();
    assert_eq!(e.code(), tonic::Code::FailedPrecondition);
    assert!(
        e.message().contains("solver version mismatch"),
        "{}",
        e.message()
    );

    let leases = lease(&rt, &mut c, "w1", &v, 2).unwrap();
    assert_eq!(leases.len(), 2);
    let (a, b) = (&leases[0], &leases[1]);
    let ra = run_lease(a);
    let e = submit(&rt, &mut c, "old", &v.all_at("0.0.0+0000"), a, &ra).unwrap_err();
    assert_eq!(e.code(), tonic::Code::FailedPrecondition);

    // First result accepted; a duplicate of it ignored.
    assert!(submit(&rt, &mut c, "w1", &v, a, &ra).unwrap());
    assert!(!submit(&rt, &mut c, "w1", &v, a, &ra).unwrap());
    // The holder's token under another worker id: refused (a lease token
    // is bound to the identity it was granted to); the holder's result is
    // taken, and a second one is then ignored.
    let rb = run_lease(b);
    let e = submit(&rt, &mut c, "late", &v, b, &rb).unwrap_err();
    assert_eq!(e.code(), tonic::Code::PermissionDenied, "{}", e.message());
    assert!(submit(&rt, &mut c, "w1", &v, b, &rb).unwrap());
    // A tampered duplicate must not be merged either: its graph counts are
    // doubled, which the coordinator's recount refuses outright.
    let mut tampered = rb.clone();
    tampered.merge(rb.clone()).unwrap();
    let e = submit(&rt, &mut c, "w1", &v, b, &tampered).unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument, "{}", e.message());
    assert!(e.message().contains("recounted: by_n["), "{}", e.message());
    // Bytes that are not the kind's result are refused before anything is stored.
    for garbage in [&b"not json"[..], br#"{"by_n": 3}"#, b""] {
        let e = rt
            .block_on(c.submit(pb::SubmitRequest {
                worker_id: "w1".into(),
                solver_versions: gamesweep_proto::convert::solver_versions_to_proto(&v),
                sweep_id: "d".into(),
                index: b.shard.as_ref().unwrap().index,
                attempt: b.attempt,
                lease_token: b.lease_token.clone(),
                result: garbage.to_vec(),
                timing: None,
                positions: None,
            }))
            .unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument, "{}", e.message());
        assert!(e.message().contains("bad result"), "{}", e.message());
    }

    // Finish the sweep with this client.
    loop {
        let ls = lease(&rt, &mut c, "w1", &v, 4).unwrap();
        if ls.is_empty() {
            break;
        }
        for l in &ls {
            assert!(submit(&rt, &mut c, "w1", &v, l, &run_lease(l)).unwrap());
        }
    }
    let st = rt
        .block_on(c.status(pb::StatusRequest {
            sweep_id: "d".into(),
        }))
        .unwrap()
        .into_inner();
    let s = &st.sweeps[0];
    assert_eq!(s.state(), pb::SweepState::Done);
    // One true duplicate ignored; the tampered one refused by the recount
    // (with the three garbage submits, four invalid results).
    assert_eq!(s.duplicates_ignored, 1);
    assert_eq!((s.recounts_refused, s.results_invalid), (1, 4));
    assert_eq!(s.results_stored, s.shards_total);
    let r = rt
        .block_on(c.get_result(pb::GetResultRequest {
            sweep_id: "d".into(),
        }))
        .unwrap()
        .into_inner();
    assert_eq!(r.results_json, reference(6));

    // A worker process of another build exits with a clear error once there
    // is unfinished work it would otherwise take.
    ok(&[
        "launch",
        "uvg",
        "--replicate-fraction",
        "0",
        "--max-n",
        "5",
        "--name",
        "d2",
        "--coordinator",
        &u,
        "--token-file",
        tf,
    ]);
    let o = Command::new(BIN)
        .args([
            "worker",
            "--coordinator",
            &u,
            "--token-file",
            tf,
            "--fake-solver-version",
            "0.0.0+0000",
        ])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("solver version mismatch"));
}

/// Each lease and submit is one round trip without a delayed-ACK stall.
/// With Nagle's algorithm on the coordinator's sockets, a reply's trailing
/// HEADERS frame waited for the worker's delayed ACK: about 40 ms per call,
/// which made `run uvg --max-n 9 --shards 300` take 14 s instead of 1 s.
/// 100 lease + submit pairs over one connection: the median pair must take
/// well under one such stall (a stall per call would make it ≥ 80 ms).
#[test]
fn a_lease_and_submit_round_trip_has_no_delayed_ack_stall() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, u) = Serve::new(&dir.path().join("store"))
        .port(0)
        .log(&dir.path().join("serve.log"))
        .start()
        .into_parts();
    ok(&[
        "launch",
        "uvg",
        "--replicate-fraction",
        "0",
        "--max-n",
        "8",
        "--shards",
        "100",
        "--name",
        "rtt",
        "--coordinator",
        &u,
    ]);
    let rt = rt();
    let v = gamesweep_api::solver_version();
    let mut c = {
        let _g = rt.enter();
        gamesweep_proto::connect_lazy(&u, &gamesweep_proto::ClientOptions::token(None)).unwrap()
    };
    let mut pairs = Vec::new();
    for _ in 0..200 {
        let t0 = Instant::now();
        let Some(l) = lease(&rt, &mut c, "w", &v, 1).unwrap().pop() else {
            break;
        };
        let leased = t0.elapsed();
        let r = run_lease(&l);
        let t1 = Instant::now();
        assert!(submit(&rt, &mut c, "w", &v, &l, &r).unwrap());
        pairs.push(leased + t1.elapsed());
    }
    assert!(pairs.len() >= 50, "only {} shards leased", pairs.len());
    pairs.sort();
    let median = pairs[pairs.len() / 2];
    eprintln!(
        "lease + submit round trips: {} pairs, median {:.2} ms, max {:.2} ms",
        pairs.len(),
        median.as_secs_f64() * 1e3,
        pairs.last().unwrap().as_secs_f64() * 1e3
    );
    assert!(
        median < Duration::from_millis(30),
        "median lease + submit pair {median:?}: a delayed-ACK stall (~40 ms per call)?"
    );
    let s = Client::new(&u).wait_done("rtt", Duration::from_secs(30));
    assert_eq!(s["results_stored"], s["shards_total"]);
}
