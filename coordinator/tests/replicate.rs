//! Replicated validation end to end, with real processes on 127.0.0.1: a
//! coordinator (`gamesweep serve --quarantine-on-mismatch`), a sweep
//! launched with `--verify-fraction 1`, two honest `gamesweep-worker`
//! processes, and a lying raw gRPC client whose result is internally
//! consistent but wrong. The liar is out-voted, quarantined and named, and
//! the final `results.json` is byte-identical to `gamesweep run`'s.

use gamesweep::sweep::{self, Params};
use gamesweep_proto::domain::StatusReport;
use gamesweep_proto::{convert, pb};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_gamesweep");
const WORKER_BIN: &str = env!("CARGO_BIN_EXE_gamesweep-worker");

#[path = "support/proc.rs"]
mod proc;
use proc::Proc;

/// `cmd` cut off from the user's coordinator settings.
fn isolated(mut cmd: Command) -> Command {
    cmd.env_remove("GAMESWEEP_COORDINATOR")
        .env_remove("GAMESWEEP_TOKEN_FILE")
        .env_remove("GAMESWEEP_COORDINATOR_FILE")
        .env("HOME", "/nonexistent/gamesweep-test-home");
    cmd
}

/// `gamesweep ARGS`: its stdout and stderr, asserting success.
fn ok(args: &[&str]) -> (String, String) {
    let o = isolated(Command::new(BIN)).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "gamesweep {args:?} failed: {err}");
    (String::from_utf8(o.stdout).unwrap(), err)
}

/// `gamesweep serve` on a port of its choosing; the process and its URL.
fn serve(dir: &Path, extra: &[&str]) -> (Proc, String) {
    let address_file = dir.join("url");
    let log = dir.join("serve.log");
    let mut child = Proc(
        isolated(Command::new(BIN))
            .args(["serve", "--listen", "127.0.0.1:0", "--store"])
            .arg(dir.join("store"))
            .arg("--address-file")
            .arg(&address_file)
            .args(extra)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(url) = std::fs::read_to_string(&address_file) {
            return (child, url.trim().to_string());
        }
        if let Some(status) = child.0.try_wait().unwrap() {
            panic!(
                "coordinator exited with {status}: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        assert!(Instant::now() < deadline, "coordinator did not come up");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A `gamesweep-worker` process with id `id`.
fn worker(url: &str, id: &str, log: &Path) -> Proc {
    Proc(
        isolated(Command::new(WORKER_BIN))
            .args(["--coordinator", url, "--id", id, "--threads", "1"])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap(),
    )
}

/// `status ID --json`: the whole report (parsed as the domain type) and
/// the sweep as JSON.
fn status(url: &str, id: &str) -> (StatusReport, serde_json::Value) {
    let (out, _) = ok(&["status", id, "--json", "--coordinator", url]);
    let typed: StatusReport = serde_json::from_str(&out).unwrap();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    (typed, v["sweeps"][0].clone())
}

/// An internally consistent but wrong `uvg` result: the honest one with
/// one position moved from Grundy value 1 to Grundy value 2 (both nonzero,
/// so the per-value counts still sum to the positions and the first-player
/// wins are unchanged).
fn lie(honest: &[u8]) -> Vec<u8> {
    let mut v: serde_json::Value = serde_json::from_slice(honest).unwrap();
    let by_n = v["by_n"].as_object_mut().unwrap();
    let counts = by_n
        .values_mut()
        .rev()
        .find(|c| c["grundy"]["1"].as_u64().unwrap_or(0) > 0)
        .expect("a size with a Grundy-1 position");
    let g = counts["grundy"].as_object_mut().unwrap();
    let one = g["1"].as_u64().unwrap();
    let two = g.get("2").and_then(|x| x.as_u64()).unwrap_or(0);
    g.insert("1".into(), (one - 1).into());
    g.insert("2".into(), (two + 1).into());
    serde_json::to_vec(&v).unwrap()
}

#[test]
fn a_lying_worker_is_outvoted_quarantined_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, u) = serve(dir.path(), &["--quarantine-on-mismatch"]);
    ok(&[
        "launch",
        "uvg",
        "--max-n",
        "6",
        "--verify-fraction",
        "1",
        "--name",
        "rep",
        "--coordinator",
        &u,
    ]);

    // The liar: a raw gRPC client that leases one shard and submits a wrong result.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut liar = {
        let _g = rt.enter();
        gamesweep_proto::connect_lazy(&u, &gamesweep_proto::ClientOptions::default()).unwrap()
    };
    let version = gamesweep_proto::solver_version();
    let lease = rt
        .block_on(liar.lease(pb::LeaseRequest {
            protocol: 2,
            worker_id: "liar".into(),
            solver_version: version.clone(),
            max_shards: 1,
        }))
        .unwrap()
        .into_inner()
        .leases
        .remove(0);
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let params: Params = convert::params_from_proto(&lease.params).unwrap();
    let shard = convert::opt_shard_from_proto(lease.shard.clone()).unwrap();
    let honest = kind
        .run_shard(&params, &shard, &sweep::ShardCtx::detached())
        .unwrap()
        .encode();
    let wrong = lie(&honest);
    assert_ne!(wrong, honest);
    // Decodes as a uvg result: only a second run can tell it is wrong.
    kind.decode(&wrong).unwrap();
    let accepted = rt
        .block_on(liar.submit(pb::SubmitRequest {
            worker_id: "liar".into(),
            solver_version: version.clone(),
            sweep_id: lease.sweep_id.clone(),
            index: shard.index,
            attempt: lease.attempt,
            result: wrong,
            lease_token: lease.lease_token.clone(),
            timing: None,
        }))
        .unwrap()
        .into_inner()
        .accepted;
    assert!(accepted, "the lie looks like any result");

    let _w1 = worker(&u, "honest-1", &dir.path().join("w1.log"));
    let _w2 = worker(&u, "honest-2", &dir.path().join("w2.log"));
    let deadline = Instant::now() + Duration::from_secs(180);
    let (report, s) = loop {
        let (r, s) = status(&u, "rep");
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
    assert_eq!(v["disagreeing_workers"], serde_json::json!(["liar"]));
    assert_eq!(report.quarantined_workers, ["liar"]);

    // The quarantined liar gets nothing more.
    let more = rt
        .block_on(liar.lease(pb::LeaseRequest {
            protocol: 2,
            worker_id: "liar".into(),
            solver_version: version,
            max_shards: 5,
        }))
        .unwrap()
        .into_inner();
    assert!(more.leases.is_empty());

    let (text, _) = ok(&["status", "rep", "--coordinator", &u]);
    assert!(
        text.contains("disagreeing workers (out-voted): liar")
            && text.contains("quarantined workers (out-voted; no more leases): liar"),
        "{text}"
    );

    let out = dir.path().join("out");
    let (_, said) = ok(&[
        "report",
        "rep",
        "--coordinator",
        &u,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        said.contains("disagreeing workers (out-voted): liar")
            && said.contains("1 mismatched (1 replaced by the majority)"),
        "{said}"
    );
    let prov: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("provenance.json")).unwrap())
            .unwrap();
    assert_eq!(prov["disagreeing_workers"], serde_json::json!(["liar"]));
    assert_eq!(prov["quarantined_workers"], serde_json::json!(["liar"]));
    assert_eq!(prov["shards_total"], total);
    assert_eq!(prov["verify_fraction"], 1.0);
    assert_eq!(prov["shards_mismatched"], 1);
    assert_eq!(prov["mismatches"][0]["workers"][0], "liar");
    let contributors = prov["contributors"].as_object().unwrap();
    assert!(!contributors.contains_key("liar"), "{prov}");
    assert_eq!(
        contributors
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum::<u64>(),
        total
    );
    assert_eq!(prov["plan_digest"].as_str().unwrap().len(), 64);

    // The same as `gamesweep run` computes, byte for byte.
    let local = dir.path().join("local");
    ok(&[
        "run",
        "uvg",
        "--max-n",
        "6",
        "--quiet",
        "--out",
        local.to_str().unwrap(),
    ]);
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    assert_eq!(read(&out, "results.json"), read(&local, "results.json"));
    assert_eq!(read(&out, "report.md"), read(&local, "report.md"));
    // `run` writes its provenance too (one worker, nothing verified).
    let local_prov: serde_json::Value =
        serde_json::from_str(&read(&local, "provenance.json")).unwrap();
    assert_eq!(local_prov["verify_ppm"], 0);
    assert_eq!(local_prov["plan_digest"], prov["plan_digest"]);
}
