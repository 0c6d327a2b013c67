//! Replicated validation and identities end to end, with real processes on
//! 127.0.0.1: a coordinator (`gamesweep serve` with an admin token and
//! `--quarantine-on-mismatch`), credentials issued with `gamesweep token
//! issue`, a sweep launched with `--replicate-fraction 1`, two honest
//! `gamesweep-worker` processes with their own credentials, and a lying raw
//! gRPC client whose result is internally consistent but wrong. The liar
//! cannot confirm its own lie under another worker id, nor reuse a lease it
//! gave back; it is out-voted, quarantined and named, and the final
//! `results.json` is byte-identical to `gamesweep run`'s. A second test:
//! one credential is one identity for the lease cap and for failures, a
//! shared token cannot pose as an issued identity, a revoked credential and
//! an old worker are refused with one clear error.

use gamesweep_proto::pb;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::harness::{
    honest_run, lease_req, runtime, submit_req, try_lie, Gs, Trusted, ADMIN_SECRET,
};

/// An internally consistent but wrong `uvg` result: the honest one with
/// one position moved from Grundy value 1 to Grundy value 2 (both nonzero,
/// so the per-value counts still sum to the positions and the first-player
/// wins are unchanged).
fn lie(honest: &[u8]) -> Vec<u8> {
    try_lie(honest).expect("a size of 3 or more with a Grundy-1 position")
}

#[test]
fn a_lying_identity_cannot_confirm_itself_and_is_outvoted_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let t = Trusted::start(
        d,
        &["liar", "honest-1", "honest-2"],
        &["--quarantine-on-mismatch"],
    );
    t.admin()
        .cmd(&[
            "launch",
            "uvg",
            "--max-n",
            "6",
            "--replicate-fraction",
            "1",
            "--name",
            "rep",
        ])
        .ok_both();
    let rt = runtime();
    let mut liar = t.raw(&rt, "liar");
    let leases = rt
        .block_on(liar.lease(lease_req("liar", 2)))
        .unwrap()
        .into_inner()
        .leases;
    assert_eq!(leases.len(), 2);
    // A lease says nothing of its attempt: a copy looks like a first run.
    assert!(leases.iter().all(|l| l.attempt == 0), "{leases:?}");
    // The liar, new, is on probation: it gets the smallest shards, and
    // lies on one that has a start it can move.
    let k = leases
        .iter()
        .position(|l| try_lie(&honest_run(l)).is_some())
        .expect("a leased shard with graphs on 3 or more vertices");
    let (lease, given_back) = (&leases[k], &leases[1 - k]);
    let honest = honest_run(lease);
    let wrong = lie(&honest);
    assert_ne!(wrong, honest);
    gamesweep::kinds::find("uvg")
        .unwrap()
        .decode(&wrong)
        .unwrap();
    let accepted = rt
        .block_on(liar.submit(submit_req("liar", lease, wrong.clone())))
        .unwrap()
        .into_inner()
        .accepted;
    assert!(accepted, "the lie looks like any result");
    // The self-verify: the identical request under another worker id is
    // the same identity: a duplicate, never a confirmation.
    let again = rt
        .block_on(liar.submit(submit_req("liar-2", lease, wrong.clone())))
        .unwrap()
        .into_inner()
        .accepted;
    assert!(!again, "a second id is the same identity");
    let (_, s) = t.admin().status_report("rep");
    assert_eq!(s["verification"]["verified"], 0, "{s}");
    // A lease given back: its token is dead, under any id.
    let rel = rt
        .block_on(liar.release(pb::ReleaseRequest {
            worker_id: "liar".into(),
            held: vec![pb::HeldShard {
                sweep_id: given_back.sweep_id.clone(),
                index: given_back.shard.as_ref().unwrap().index,
                attempt: 0,
                progress: 0,
                lease_token: given_back.lease_token.clone(),
            }],
        }))
        .unwrap()
        .into_inner()
        .released;
    assert_eq!(rel, [true]);
    for id in ["liar", "liar-3"] {
        let e = rt
            .block_on(liar.submit(submit_req(id, given_back, wrong.clone())))
            .unwrap_err();
        assert_eq!(e.code(), tonic::Code::PermissionDenied, "{e:?}");
    }
    // A shared-token style id that poses as an issued identity is refused.
    let mut admin_client = crate::support::harness::raw_client(&rt, &t.url, ADMIN_SECRET);
    let e = rt
        .block_on(admin_client.lease(lease_req("@honest-1", 1)))
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument, "{e:?}");

    let _honest = t.honest_workers(&["honest-1", "honest-2"]);
    let deadline = Instant::now() + Duration::from_secs(180);
    let (report, s) = loop {
        let (r, s) = t.admin().status_report("rep");
        if s["state"] == "done" {
            break (r, s);
        }
        assert!(Instant::now() < deadline, "sweep did not finish: {s}");
        std::thread::sleep(Duration::from_millis(100));
    };
    let total = s["shards_total"].as_u64().unwrap();
    let v = &s["verification"];
    assert_eq!(v["selected"], total, "{s}");
    assert_eq!(v["verified"], total - 1, "{s}");
    assert_eq!(
        (&v["mismatched"], &v["replaced"]),
        (&1.into(), &1.into()),
        "{s}"
    );
    assert_eq!(
        (&v["pending"], &v["unverifiable"]),
        (&0.into(), &0.into()),
        "{s}"
    );
    assert_eq!(v["disagreeing_workers"], serde_json::json!(["@liar"]));
    assert_eq!(report.quarantined_workers, ["@liar"], "never an honest one");
    let more = rt
        .block_on(liar.lease(lease_req("liar-9", 5)))
        .unwrap()
        .into_inner();
    assert!(more.leases.is_empty(), "quarantined under any id");

    let out = d.join("out");
    let (_, said) = t
        .admin()
        .cmd(&["report", "rep", "--out", out.to_str().unwrap()])
        .ok_both();
    assert!(
        said.contains("disagreeing workers (out-voted): @liar")
            && said.contains("1 mismatched (1 replaced by the majority)"),
        "{said}"
    );
    let prov: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("provenance.json")).unwrap())
            .unwrap();
    assert_eq!(prov["disagreeing_workers"], serde_json::json!(["@liar"]));
    assert_eq!(prov["quarantined_workers"], serde_json::json!(["@liar"]));
    assert_eq!(prov["shards_mismatched"], 1);
    assert_eq!(prov["mismatches"][0]["workers"][0], "@liar");
    let contributors = prov["contributors"].as_object().unwrap();
    assert!(!contributors.contains_key("@liar"), "{prov}");
    assert_eq!(
        prov["confirmation"]["confirmed_by_two_identities"], total,
        "{prov}"
    );
    assert_eq!(prov["plan_digest"].as_str().unwrap().len(), 64);

    // The same as `gamesweep run` computes, byte for byte.
    let local = d.join("local");
    Gs::new(&[
        "run",
        "uvg",
        "--max-n",
        "6",
        "--quiet",
        "--out",
        local.to_str().unwrap(),
    ])
    .ok_both();
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    assert_eq!(read(&out, "results.json"), read(&local, "results.json"));
    // The same report but for its Verification section: how it was
    // confirmed differs.
    let kind_part = |d: &Path| {
        let md = read(d, "report.md");
        md[..md
            .find("\n## Verification\n")
            .expect("a Verification section")]
            .to_string()
    };
    assert_eq!(kind_part(&out), kind_part(&local));
    assert!(read(&local, "report.md").contains(
        "\n## Verification\n\nNot independently verified: every shard rests on one identity.\n"
    ));
    let local_prov: serde_json::Value =
        serde_json::from_str(&read(&local, "provenance.json")).unwrap();
    assert_eq!(local_prov["verify_ppm"], 0);
    assert_eq!(local_prov["plan_digest"], prov["plan_digest"]);
    assert_eq!(
        local_prov["confirmation"]["statement"],
        "not independently verified: every shard rests on one identity"
    );
}

/// One credential is one identity: ten self-chosen worker ids share one
/// lease cap (the hoarding defect: 10 ids leased every shard); one lease's
/// failure sent again under other ids is refused (three ids set a shard
/// aside); a revoked credential and a worker of the old protocol each get
/// one clear error.
#[test]
fn one_credential_is_one_identity_for_caps_and_failures() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let t = Trusted::start(d, &["hoarder", "other"], &["--max-shards-per-worker", "8"]);
    t.admin()
        .cmd(&[
            "launch", "uvg", "--max-n", "8", "--shards", "64", "--name", "big",
        ])
        .ok_both();
    let rt = runtime();
    let mut h = t.raw(&rt, "hoarder");
    let mut got = Vec::new();
    for k in 0..10 {
        let r = rt
            .block_on(h.lease(lease_req(&format!("id-{k}"), 1000)))
            .unwrap()
            .into_inner();
        got.extend(r.leases);
    }
    assert_eq!(got.len(), 8, "one cap for the credential, not per id");
    let (report, _) = t.admin().status_report("big");
    let held: u32 = report
        .workers
        .iter()
        .filter(|w| w.worker_id == "@hoarder")
        .map(|w| w.shards_held)
        .sum();
    assert_eq!(held, 8, "{:?}", report.workers);
    // One failure report, sent under three ids: counted once.
    let fail = |id: &str, l: &pb::Lease| pb::FailRequest {
        worker_id: id.into(),
        solver_versions: gamesweep_proto::convert::solver_versions_to_proto(
            &gamesweep_api::solver_version(),
        ),
        sweep_id: l.sweep_id.clone(),
        index: l.shard.as_ref().unwrap().index,
        attempt: 0,
        error: "boom".into(),
        lease_token: l.lease_token.clone(),
    };
    let first = rt
        .block_on(h.fail(fail("a", &got[0])))
        .unwrap()
        .into_inner();
    assert_eq!((first.failures, first.set_aside), (1, false));
    for id in ["b", "c"] {
        let e = rt.block_on(h.fail(fail(id, &got[0]))).unwrap_err();
        assert_eq!(e.code(), tonic::Code::PermissionDenied, "{e:?}");
    }
    let (_, s) = t.admin().status_report("big");
    assert_eq!(s["shards_failed"], 0, "{s}");
    // Another credential cannot use the hoarder's tokens.
    let mut o = t.raw(&rt, "other");
    let e = rt
        .block_on(o.submit(submit_req("hoarder", &got[1], honest_run(&got[1]))))
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::PermissionDenied, "{e:?}");
    // Revoked: refused from the next request on, with a plain message.
    t.admin().cmd(&["token", "revoke", "hoarder"]).ok_both();
    let e = rt.block_on(h.lease(lease_req("id-0", 1))).unwrap_err();
    assert_eq!(e.code(), tonic::Code::Unauthenticated, "{e:?}");
    // Named as revoked, not as a mistyped token.
    assert!(
        e.message().contains("credential `hoarder` was revoked"),
        "{}",
        e.message()
    );
    let (list, _) = t.admin().cmd(&["token", "list", "--json"]).ok_both();
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert!(list[0]["revoked_unix_ms"].is_u64(), "{list}");
    assert!(
        !list.to_string().contains(&t.secret("hoarder")),
        "secrets are never shown again"
    );
    // A worker of an old protocol (0: before lease tokens; 2: before
    // position digests, so its results could not be told from replayed
    // ones): one clear error.
    for old in [0, 2] {
        let e = rt
            .block_on(o.lease(pb::LeaseRequest {
                protocol: old,
                ..lease_req("old", 1)
            }))
            .unwrap_err();
        assert_eq!(e.code(), tonic::Code::FailedPrecondition);
        assert!(
            e.message().contains("upgrade the worker") && e.message().contains("position digest"),
            "{}",
            e.message()
        );
    }
    // Issuing and revoking are in the audit log.
    let (audit, _) = t.admin().cmd(&["audit", "--json"]).ok_both();
    assert!(
        audit.contains("issue-credential") && audit.contains("revoke-credential"),
        "{audit}"
    );
}
