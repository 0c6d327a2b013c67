//! A replay is not a confirmation, end to end with real processes on
//! 127.0.0.1: a coordinator with issued credentials, a uvg n ≤ 9 sweep
//! launched with `--replicate all`, and a raw gRPC client that runs no
//! solver: for each lease it submits that shard's result as a published
//! export of the same plan holds it (`run --export-every` of another
//! store). Without a position digest its submit is refused; with one it
//! made up, each result is accepted, disagrees with the honest
//! `gamesweep-worker` processes' runs, and is replaced by their majority:
//! no confirmation, named as out-voted. A second credential replaying the
//! same export into another sweep fares the same. Honest workers still
//! confirm every shard, and `results.json` is byte-identical to
//! `runs/uvg/results.json`.

use crate::support::harness::{lease_req, runtime, secs, Gs, Trusted};
use gamesweep_engine::export_file;
use gamesweep_proto::pb;
use std::collections::BTreeMap;
use std::path::Path;

/// For each of `leases`, submit as `name` the bytes the published export
/// holds for its shard: first without a position digest (refused, saying
/// so), then with one made up without the positions' values (accepted).
fn replay(
    rt: &tokio::runtime::Runtime,
    replayer: &mut gamesweep_proto::Client,
    name: &str,
    leases: &[pb::Lease],
    exported: &BTreeMap<u32, Vec<u8>>,
) {
    for lease in leases {
        let index = lease.shard.as_ref().unwrap().index;
        assert!(lease.salt.is_some(), "{lease:?}");
        // Built by hand: the harness's `submit_req` runs the shard for its
        // digest, and a replayer runs no solver.
        let req = pb::SubmitRequest {
            worker_id: name.into(),
            solver_versions: gamesweep_proto::convert::solver_versions_to_proto(
                &gamesweep_api::solver_version(),
            ),
            sweep_id: lease.sweep_id.clone(),
            index,
            attempt: lease.attempt,
            result: exported[&index].clone(),
            lease_token: lease.lease_token.clone(),
            timing: None,
            positions: None,
        };
        let e = rt.block_on(replayer.submit(req.clone())).unwrap_err();
        assert!(e.message().contains("position digest"), "{e:?}");
        // A digest made up without the positions' values.
        let forged = pb::SubmitRequest {
            positions: Some(lease.salt.unwrap() ^ u64::from(index)),
            ..req
        };
        let accepted = rt
            .block_on(replayer.submit(forged))
            .unwrap()
            .into_inner()
            .accepted;
        assert!(accepted, "a replayed result looks like any result");
    }
}

#[test]
fn a_replayed_export_confirms_nothing_under_replicate_all() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The published export of the same plan, from another store.
    let published = d.join("published");
    Gs::new(&[
        "run",
        "uvg",
        "--max-n",
        "9",
        "-q",
        "--export-every",
        "1h",
        "--out",
        published.to_str().unwrap(),
    ])
    .ok_both();
    let export = export_file::read(&published.join("run.gsx"))
        .unwrap()
        .export;
    let exported: BTreeMap<u32, Vec<u8>> = export
        .results
        .iter()
        .map(|r| (r.index, r.result.clone().into_bytes()))
        .collect();
    let t = Trusted::start(d, &["replayer", "replayer-2", "honest-1", "honest-2"], &[]);
    let rt = runtime();
    let truth = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg/results.json"),
    )
    .unwrap();
    for (sweep, name) in [("rep-1", "replayer"), ("rep-2", "replayer-2")] {
        t.admin()
            .cmd(&[
                "launch",
                "uvg",
                "--max-n",
                "9",
                "--replicate",
                "all",
                "--name",
                sweep,
            ])
            .ok_both();
        // The replayer takes every shard first, as fast as it can.
        let mut replayer = t.raw(&rt, name);
        let mut taken = 0;
        loop {
            let leases = rt
                .block_on(replayer.lease(lease_req(name, 256)))
                .unwrap()
                .into_inner()
                .leases;
            if leases.is_empty() {
                break;
            }
            taken += leases.len();
            replay(&rt, &mut replayer, name, &leases, &exported);
        }
        assert_eq!(taken, exported.len(), "the plan the export holds");
        // Two honest workers run the copies.
        let _honest = t.honest_workers(&["honest-1", "honest-2"]);
        let s = t.wait_done(sweep, secs(600));
        let total = s["shards_total"].as_u64().unwrap();
        assert_eq!(total as usize, exported.len());
        let v = &s["verification"];
        assert_eq!(
            (&v["verified"], &v["mismatched"], &v["replaced"]),
            (&0.into(), &total.into(), &total.into()),
            "no confirmation; every replayed result replaced: {s}"
        );
        assert_eq!(
            v["disagreeing_workers"],
            serde_json::json!([format!("@{name}")])
        );
        let out = d.join(format!("out-{sweep}"));
        t.report(sweep, &out);
        let read = |f: &str| std::fs::read_to_string(out.join(f)).unwrap();
        assert_eq!(read("results.json"), truth);
        let prov: serde_json::Value = serde_json::from_str(&read("provenance.json")).unwrap();
        let contributors = prov["contributors"].as_object().unwrap();
        assert!(!contributors.contains_key(&format!("@{name}")), "{prov}");
        // Confirmed by the two honest identities, not by the replayer.
        assert_eq!(
            prov["confirmation"]["confirmed_by_two_identities"], total,
            "{prov}"
        );
        let report = read("report.md");
        assert!(
            report.contains(&format!(
                ": 0 verified, {total} mismatched ({total} replaced by the majority)"
            )),
            "{report}"
        );
        // Stop the workers before the next sweep, so that its replayer
        // runs first again.
    }
}
