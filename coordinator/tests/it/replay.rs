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

use crate::replicate::{lease_req, raw_client, serve_with_credentials};
use crate::support::harness::{Client, Gs, Worker};
use gamesweep_engine::export_file;
use gamesweep_proto::pb;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Wait until sweep `id` is done; its status as JSON.
fn until_done(u: &str, admin: &Path, id: &str) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let (_, s) = Client::new(u).token(admin).status_report(id);
        if s["state"] == "done" {
            return s;
        }
        assert!(Instant::now() < deadline, "sweep {id} did not finish: {s}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

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
    let (_c, u, secrets) =
        serve_with_credentials(d, &["replayer", "replayer-2", "honest-1", "honest-2"], &[]);
    let admin = d.join("admin");
    let admin_s = admin.to_str().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let truth = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg/results.json"),
    )
    .unwrap();
    for (k, (sweep, name)) in [("rep-1", "replayer"), ("rep-2", "replayer-2")]
        .into_iter()
        .enumerate()
    {
        Gs::new(&[
            "launch",
            "uvg",
            "--max-n",
            "9",
            "--replicate",
            "all",
            "--name",
            sweep,
            "--coordinator",
            &u,
            "--token-file",
            admin_s,
        ])
        .ok_both();
        // The replayer takes every shard first, as fast as it can.
        let mut replayer = raw_client(&rt, &u, &secrets[k]);
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
        let _w1 = Worker::new(&u)
            .separate_binary()
            .id("h1")
            .threads(1)
            .token(&d.join("honest-1"))
            .log(&d.join("w1.log"))
            .spawn();
        let _w2 = Worker::new(&u)
            .separate_binary()
            .id("h2")
            .threads(1)
            .token(&d.join("honest-2"))
            .log(&d.join("w2.log"))
            .spawn();
        let s = until_done(&u, &admin, sweep);
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
        Gs::new(&[
            "report",
            sweep,
            "--coordinator",
            &u,
            "--token-file",
            admin_s,
            "--out",
            out.to_str().unwrap(),
        ])
        .ok_both();
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
