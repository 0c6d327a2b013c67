//! Results bound to leases, end to end with real processes on 127.0.0.1: a
//! raw gRPC client (written from the .proto) that never leased a shard
//! cannot submit a result for it, renew it, or report it failed; what it
//! tried is refused and counted, and the report stays true. Leases are
//! capped per identity, lease tokens survive a coordinator restart, and a
//! projection asked for 20,000 core counts is refused at once while the
//! coordinator keeps serving.

use gamesweep::sweep::{self, Params};
use gamesweep_proto::pb;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::harness;
use crate::support::proc;
use harness::{isolated, ok, serve, BIN};
use proc::Proc;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A raw client of the coordinator at `url` (no bearer token).
fn client(rt: &tokio::runtime::Runtime, url: &str) -> gamesweep_proto::Client {
    let _g = rt.enter();
    gamesweep_proto::connect_lazy(url, &gamesweep_proto::ClientOptions::default()).unwrap()
}

/// Lease up to `max` shards as `worker`.
fn lease(
    rt: &tokio::runtime::Runtime,
    c: &mut gamesweep_proto::Client,
    worker: &str,
    max: u32,
) -> Vec<pb::Lease> {
    rt.block_on(c.lease(pb::LeaseRequest {
        protocol: gamesweep_proto::LEASE_PROTOCOL,
        worker_id: worker.into(),
        solver_versions: gamesweep_proto::convert::solver_versions_to_proto(
            &gamesweep_api::solver_version(),
        ),
        max_shards: max,
    }))
    .unwrap()
    .into_inner()
    .leases
}

/// The result of shard `index` of uvg with `max_n` (`target` shards).
fn shard_result(max_n: u64, target: u32, index: u32) -> sweep::Output {
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let params: Params = kind
        .resolve_params(&[("max_n".to_string(), max_n)].into())
        .unwrap();
    let plan = kind.plan(&params, target).unwrap();
    kind.run_shard(&params, &plan[index as usize], &sweep::ShardCtx::detached())
        .unwrap()
}

/// A submit of `result` for shard `index` of `sweep` as `worker`.
fn submit_req(
    worker: &str,
    sweep: &str,
    index: u32,
    attempt: u32,
    token: &str,
    result: &sweep::Output,
) -> pb::SubmitRequest {
    pb::SubmitRequest {
        worker_id: worker.into(),
        solver_versions: gamesweep_proto::convert::solver_versions_to_proto(
            &gamesweep_api::solver_version(),
        ),
        sweep_id: sweep.into(),
        index,
        attempt,
        lease_token: token.into(),
        result: result.encode(),
        positions: None,
        timing: Some(pb::ShardTiming {
            wall_us: 1_000,
            cpu_us: 900,
        }),
    }
}

/// The status of sweep `id`, asked over the raw gRPC client.
fn grpc_status(
    rt: &tokio::runtime::Runtime,
    c: &mut gamesweep_proto::Client,
    id: &str,
) -> pb::SweepStatus {
    rt.block_on(c.status(pb::StatusRequest {
        sweep_id: id.into(),
    }))
    .unwrap()
    .into_inner()
    .sweeps
    .remove(0)
}

/// results.json of uvg with `max_n`, computed in-process.
fn reference(max_n: u64) -> String {
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let params = kind
        .resolve_params(&[("max_n".to_string(), max_n)].into())
        .unwrap();
    let plan = kind.plan(&params, 0).unwrap();
    let merged = sweep::run_all_sequential(kind, &params, &plan).unwrap();
    kind.render(&params, &merged).unwrap().results_json
}

/// The QA repro: shard 0 of `uvg --max-n 5` submitted by a client that
/// never leased it, with a result inflated to say n = 5 has far more than
/// 21 graphs. Refused (PERMISSION_DENIED, one line), counted; so are a
/// renewal of another's shard, a release, and three failure reports; then
/// a real worker finishes the sweep and the report says n = 5 has 21 graphs.
#[test]
fn a_forged_result_is_refused_and_the_report_stays_true() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, url) = serve(
        &dir.path().join("store"),
        &[],
        &dir.path().join("serve.log"),
    );
    ok(&[
        "launch",
        "uvg",
        "--replicate-fraction",
        "0",
        "--max-n",
        "5",
        "--shards",
        "4",
        "--name",
        "f",
        "--coordinator",
        &url,
    ]);
    let rt = rt();
    let mut c = client(&rt, &url);
    let mut forged = shard_result(5, 4, 0);
    for _ in 0..48 {
        let again = forged.clone();
        forged.merge(again).unwrap();
    }
    let e = rt
        .block_on(c.submit(submit_req("mallory", "f", 0, 1, "", &forged)))
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::PermissionDenied, "{}", e.message());
    assert_eq!(
        e.message(),
        "a result for shard 0 of sweep `f` refused: no valid lease token (only the identity the shard was leased to may send it, with that lease's token)"
    );
    // With a lease of another shard, its token does not fit shard 0.
    let other = lease(&rt, &mut c, "mallory", 1);
    let o = &other[0];
    let oi = o.shard.as_ref().unwrap().index;
    let target = if oi == 0 { 1 } else { 0 };
    let e = rt
        .block_on(c.submit(submit_req(
            "mallory",
            "f",
            target,
            o.attempt,
            &o.lease_token,
            &forged,
        )))
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::PermissionDenied);
    // Renewing, releasing, failing a shard without its token.
    let h = pb::HeldShard {
        sweep_id: "f".into(),
        index: target,
        attempt: 1,
        progress: 0,
        lease_token: String::new(),
    };
    let renewed = rt
        .block_on(c.renew(pb::RenewRequest {
            worker_id: "mallory".into(),
            held: vec![h.clone()],
        }))
        .unwrap()
        .into_inner();
    assert_eq!(renewed.still_held, [false]);
    let released = rt
        .block_on(c.release(pb::ReleaseRequest {
            worker_id: "mallory".into(),
            held: vec![h],
        }))
        .unwrap()
        .into_inner();
    assert_eq!(released.released, [false]);
    for _ in 0..3 {
        let e = rt
            .block_on(c.fail(pb::FailRequest {
                worker_id: "mallory".into(),
                solver_versions: gamesweep_proto::convert::solver_versions_to_proto(
                    &gamesweep_api::solver_version(),
                ),
                sweep_id: "f".into(),
                index: target,
                attempt: 1,
                error: "boom".into(),
                lease_token: String::new(),
            }))
            .unwrap_err();
        assert_eq!(e.code(), tonic::Code::PermissionDenied);
    }
    // Mallory gives its one real lease back so the worker need not wait.
    let back = pb::HeldShard {
        sweep_id: "f".into(),
        index: oi,
        attempt: o.attempt,
        progress: 0,
        lease_token: o.lease_token.clone(),
    };
    let released = rt
        .block_on(c.release(pb::ReleaseRequest {
            worker_id: "mallory".into(),
            held: vec![back],
        }))
        .unwrap()
        .into_inner();
    assert_eq!(released.released, [true]);
    let s = grpc_status(&rt, &mut c, "f");
    assert_eq!(
        (
            s.refused_submits,
            s.refused_renewals,
            s.refused_fails,
            s.shards_failed,
            s.shards_done
        ),
        (2, 2, 3, 0, 0)
    );
    // A real worker finishes it.
    let _w = Proc(
        isolated(Command::new(BIN))
            .args([
                "worker",
                "--coordinator",
                &url,
                "--id",
                "honest",
                "--threads",
                "2",
                "--exit-when-idle",
            ])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.path().join("worker.log")).unwrap())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    while grpc_status(&rt, &mut c, "f").state() != pb::SweepState::Done {
        assert!(Instant::now() < deadline, "sweep did not finish");
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = dir.path().join("out");
    ok(&[
        "report",
        "f",
        "--coordinator",
        &url,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        reference(5)
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("\n| 5 | 21 | 105 |"), "{md}");
    let text = ok(&["status", "f", "--coordinator", &url]);
    assert!(
        text.contains("refused without a valid lease token: 2 result(s), 2 renewal(s)/release(s), 3 failure report(s)"),
        "{text}"
    );
}

/// `Lease(max_shards = 2^32 − 1)` gets at most `--max-shards-per-worker`,
/// and on a coordinator without tokens every worker id is one identity
/// under that one cap.
#[test]
fn a_huge_lease_request_is_capped() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, url) = serve(
        &dir.path().join("store"),
        &["--max-shards-per-worker", "7"],
        &dir.path().join("serve.log"),
    );
    ok(&[
        "launch",
        "uvg",
        "--replicate-fraction",
        "0",
        "--max-n",
        "8",
        "--shards",
        "64",
        "--name",
        "big",
        "--coordinator",
        &url,
    ]);
    let rt = rt();
    let mut c = client(&rt, &url);
    assert_eq!(lease(&rt, &mut c, "greedy", u32::MAX).len(), 7);
    assert_eq!(lease(&rt, &mut c, "greedy", u32::MAX).len(), 0);
    assert_eq!(lease(&rt, &mut c, "other", 3).len(), 0);
    let s = grpc_status(&rt, &mut c, "big");
    assert_eq!(s.shards_leased, 7);
}

/// Tokens are signed with a key kept in the sled store: a result leased
/// before the coordinator was killed is accepted by the restarted one.
#[test]
fn lease_tokens_survive_a_coordinator_restart() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let (mut coord, url) = serve(&store, &[], &dir.path().join("serve.log"));
    ok(&[
        "launch",
        "uvg",
        "--replicate-fraction",
        "0",
        "--max-n",
        "5",
        "--shards",
        "4",
        "--name",
        "k",
        "--coordinator",
        &url,
    ]);
    let rt = rt();
    let mut c = client(&rt, &url);
    let leases = lease(&rt, &mut c, "w", 100);
    assert!(leases.len() >= 2);
    coord.kill9();
    let (_coord, url) = serve(&store, &[], &dir.path().join("serve2.log"));
    let mut c = client(&rt, &url);
    for l in &leases {
        let i = l.shard.as_ref().unwrap().index;
        let r = shard_result(5, 4, i);
        let req = submit_req("w", "k", i, l.attempt, &l.lease_token, &r);
        assert!(rt.block_on(c.submit(req)).unwrap().into_inner().accepted);
    }
    let s = grpc_status(&rt, &mut c, "k");
    assert_eq!((s.state(), s.refused_submits), (pb::SweepState::Done, 0));
}

/// 20,000 core counts (a 100 KB request) are refused at once, and the
/// coordinator answers other requests meanwhile; 64 are served.
#[test]
fn a_projection_takes_a_bounded_list_of_core_counts() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, url) = serve(
        &dir.path().join("store"),
        &[],
        &dir.path().join("serve.log"),
    );
    ok(&[
        "launch",
        "uvg",
        "--replicate-fraction",
        "0",
        "--max-n",
        "8",
        "--shards",
        "64",
        "--name",
        "p",
        "--sample",
        "5%",
        "--sample-seed",
        "1",
        "--coordinator",
        &url,
    ]);
    let rt = rt();
    let mut c = client(&rt, &url);
    let l = lease(&rt, &mut c, "w", 1).remove(0);
    let i = l.shard.as_ref().unwrap().index;
    let r = shard_result(8, 64, i);
    let req = submit_req("w", "p", i, l.attempt, &l.lease_token, &r);
    assert!(rt.block_on(c.submit(req)).unwrap().into_inner().accepted);
    let many: Vec<u32> = (1..=20_000).collect();
    let mut other = client(&rt, &url);
    let t0 = Instant::now();
    let (refused, served) = rt.block_on(async {
        let mut c2 = c.clone();
        tokio::join!(
            c2.get_projection(pb::GetProjectionRequest {
                sweep_id: "p".into(),
                cores: many,
            }),
            other.status(pb::StatusRequest::default()),
        )
    });
    let e = refused.unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    assert_eq!(
        e.message(),
        "20000 distinct core counts asked for; a projection takes at most 64"
    );
    assert!(served.is_ok());
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
    let p = rt
        .block_on(c.get_projection(pb::GetProjectionRequest {
            sweep_id: "p".into(),
            cores: (1..=64).collect(),
        }))
        .unwrap()
        .into_inner();
    let v: serde_json::Value = serde_json::from_str(&p.projection_json).unwrap();
    assert_eq!(v["projected"]["wall"].as_array().unwrap().len(), 64);
}
