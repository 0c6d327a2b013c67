//! Distributed runtime checks with real processes on 127.0.0.1: a coordinator
//! (`gamesweep serve`), worker processes (`gamesweep worker`), the user
//! commands, and raw gRPC clients for the protocol edge cases. Every test
//! works in a fresh temporary directory, takes ports by binding :0, and
//! bounds every wait.

use gamesweep::sweep::{self, Params};
use gamesweep_api::domain::{Overview, SweepState};
use gamesweep_proto::{convert, pb};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Built by the same package (the workspace's default member), so the
/// documented `cargo build --release` makes it too.
const WORKER_BIN: &str = env!("CARGO_BIN_EXE_gamesweep-worker");

use crate::support::cli;
use crate::support::proc;
use cli::{gs, isolated, ok, BIN};
use proc::{free_port, Proc};

/// Start `gamesweep serve` on 127.0.0.1:`port` (0: any free port, chosen by
/// the coordinator itself, so no other process can take it in between);
/// returns the process and its URL, read from its `--address-file`.
fn serve(store: &Path, port: u16, extra: &[&str], log: &Path) -> (Proc, String) {
    serve_publishing(store, port, extra, log, &log.with_extension("url"))
}

/// [`serve`], publishing the URL in `address_file`.
fn serve_publishing(
    store: &Path,
    port: u16,
    extra: &[&str],
    log: &Path,
    address_file: &Path,
) -> (Proc, String) {
    let listen = format!("127.0.0.1:{port}");
    let _ = std::fs::remove_file(address_file);
    let mut child = Proc(
        isolated(Command::new(BIN))
            .args(["serve", "--listen", &listen, "--store"])
            .arg(store)
            .arg("--address-file")
            .arg(address_file)
            .args(extra)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(url) = std::fs::read_to_string(address_file) {
            return (child, url.trim().to_string());
        }
        if let Some(status) = child.0.try_wait().unwrap() {
            panic!(
                "coordinator exited with {status}: {}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
        }
        assert!(Instant::now() < deadline, "coordinator did not come up");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The port of a `http://127.0.0.1:PORT` URL.
fn port_of(url: &str) -> u16 {
    url.rsplit(':').next().unwrap().parse().unwrap()
}

fn worker(url: &str, id: &str, threads: u32, extra: &[&str], log: &Path) -> Proc {
    Proc(
        isolated(Command::new(BIN))
            .args([
                "worker",
                "--coordinator",
                url,
                "--id",
                id,
                "--threads",
                &threads.to_string(),
            ])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap(),
    )
}

/// `status ID --json`'s one sweep, as JSON; the output also parses as the
/// documented domain type, whose state is one of the five.
fn status_json(url: &str, id: &str) -> serde_json::Value {
    let out = ok(&["status", id, "--json", "--coordinator", url]);
    let typed: Overview = serde_json::from_str(&out).unwrap();
    assert_eq!(typed.sweeps.len(), 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["sweeps"][0]["state"], typed.sweeps[0].state.as_str());
    v["sweeps"][0].clone()
}

fn wait_done(url: &str, id: &str, limit: Duration) -> serde_json::Value {
    let deadline = Instant::now() + limit;
    loop {
        let s = status_json(url, id);
        if s["state"] == "done" {
            return s;
        }
        assert!(Instant::now() < deadline, "sweep did not finish: {s}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// results.json of uvg with `max_n`, computed in-process by the core alone.
fn reference(max_n: u64) -> String {
    reference_rendered(&[("max_n", max_n)]).results_json
}

/// Everything uvg renders with these parameters, computed in-process by the
/// core alone.
fn reference_rendered(params: &[(&str, u64)]) -> sweep::Rendered {
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let given = params.iter().map(|&(k, v)| (k.to_string(), v)).collect();
    let params = kind.resolve_params(&given).unwrap();
    let plan = kind.plan(&params, 0).unwrap();
    let merged = sweep::run_all_sequential(kind, &params, &plan).unwrap();
    kind.render(&params, &merged).unwrap()
}

fn report(url: &str, id: &str, out: &Path) -> String {
    ok(&[
        "report",
        id,
        "--coordinator",
        url,
        "--out",
        out.to_str().unwrap(),
    ]);
    std::fs::read_to_string(out.join("results.json")).unwrap()
}

fn url(port: u16) -> String {
    format!("http://127.0.0.1:{port}")
}

#[test]
fn two_workers_give_the_in_process_result() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, u) = serve(
        &dir.path().join("store"),
        0,
        &["--log-format", "json"],
        &dir.path().join("serve.log"),
    );
    let id = ok(&[
        "launch",
        "uvg",
        "--verify-fraction",
        "0",
        "--max-n",
        "8",
        "--collect-min-value",
        "4",
        "--shards",
        "24",
        "--name",
        "t1",
        "--coordinator",
        &u,
    ]);
    assert_eq!(id.trim(), "t1");
    let _w1 = worker(&u, "w1", 1, &[], &dir.path().join("w1.log"));
    let _w2 = worker(&u, "w2", 1, &[], &dir.path().join("w2.log"));
    let s = wait_done(&u, "t1", Duration::from_secs(180));
    assert_eq!(s["results_stored"], s["shards_total"]);
    let want = reference_rendered(&[("max_n", 8), ("collect_min_value", 4)]);
    let out = dir.path().join("out");
    assert_eq!(report(&u, "t1", &out), want.results_json);
    // `report` also writes the kind's other files, as `run` does (it used
    // to write only results.json and report.md).
    assert!(!want.exports.is_empty());
    for (name, text) in &want.exports {
        let got = std::fs::read_to_string(out.join(name))
            .unwrap_or_else(|e| panic!("report did not write {name}: {e}"));
        assert_eq!(&got, text, "{name}");
    }
    // Both workers were seen; status text shows them.
    let text = ok(&["status", "--coordinator", &u]);
    assert!(text.contains("w1") && text.contains("w2"), "{text}");
    // --log-format json: structured lines carrying the span fields.
    let log = std::fs::read_to_string(dir.path().join("serve.log")).unwrap();
    let first: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert!(first.get("fields").is_some(), "{first}");
    assert!(log.contains("\"sweep\":\"t1\""), "sweep ids in spans");
}

/// A coordinator (`serve_extra` options) with sweep `id` = uvg n ≤ 9 in 2
/// shards (about a second each, so a held lease is seen while it is held),
/// and a one-thread worker `worker_id` that holds one of them.
fn a_worker_holding_a_shard(
    dir: &Path,
    id: &str,
    worker_id: &str,
    serve_extra: &[&str],
) -> (Proc, String, Proc) {
    let (c, u) = serve(&dir.join("store"), 0, serve_extra, &dir.join("serve.log"));
    ok(&[
        "launch",
        "uvg",
        "--verify-fraction",
        "0",
        "--max-n",
        "9",
        "--shards",
        "2",
        "--name",
        id,
        "--coordinator",
        &u,
    ]);
    let w = worker(&u, worker_id, 1, &[], &dir.join(format!("{worker_id}.log")));
    let deadline = Instant::now() + Duration::from_secs(30);
    while status_json(&u, id)["shards_leased"] == 0 {
        assert!(Instant::now() < deadline, "worker never leased");
        std::thread::sleep(Duration::from_millis(20));
    }
    (c, u, w)
}

#[test]
fn a_killed_worker_does_not_change_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, u, mut w1) =
        a_worker_holding_a_shard(dir.path(), "k", "victim", &["--lease-secs", "1"]);
    w1.kill9();
    let before = status_json(&u, "k");
    let _w2 = worker(&u, "rescuer", 2, &[], &dir.path().join("w2.log"));
    let s = wait_done(&u, "k", Duration::from_secs(180));
    assert_eq!(s["results_stored"], s["shards_total"]);
    assert_eq!(report(&u, "k", &dir.path().join("out")), reference(9));
    eprintln!("killed with {} shard(s) done", before["shards_done"]);
}

#[test]
fn a_killed_coordinator_resumes_on_the_same_store() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let (mut c, u) = serve(
        &store,
        0,
        &["--lease-secs", "2"],
        &dir.path().join("serve1.log"),
    );
    let port = port_of(&u);
    ok(&[
        "launch",
        "uvg",
        "--verify-fraction",
        "0",
        "--max-n",
        "8",
        "--shards",
        "64",
        "--name",
        "r",
        "--coordinator",
        &u,
    ]);
    let _w = worker(&u, "w", 1, &[], &dir.path().join("w.log"));
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut done_before = 0;
    while done_before < 3 {
        assert!(Instant::now() < deadline, "no progress");
        std::thread::sleep(Duration::from_millis(20));
        done_before = status_json(&u, "r")["shards_done"].as_u64().unwrap();
    }
    c.kill9();
    // The worker keeps computing and retries its submits until the coordinator is back.
    std::thread::sleep(Duration::from_millis(500));
    let (_c2, _) = serve(
        &store,
        port,
        &["--lease-secs", "2"],
        &dir.path().join("serve2.log"),
    );
    let s = wait_done(&u, "r", Duration::from_secs(180));
    assert!(s["shards_done"].as_u64().unwrap() >= done_before);
    assert_eq!(
        s["results_stored"], s["shards_total"],
        "nothing counted twice"
    );
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let params = kind
        .resolve_params(&[("max_n".to_string(), 8)].into())
        .unwrap();
    assert_eq!(s["shards_total"], kind.plan(&params, 64).unwrap().len());
    assert_eq!(report(&u, "r", &dir.path().join("out")), reference(8));
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn lease(
    rt: &tokio::runtime::Runtime,
    c: &mut gamesweep_proto::Client,
    worker: &str,
    version: &gamesweep_api::SolverVersions,
    max: u32,
) -> Result<Vec<pb::Lease>, tonic::Status> {
    rt.block_on(c.lease(pb::LeaseRequest {
        protocol: gamesweep_proto::LEASE_PROTOCOL,
        worker_id: worker.into(),
        solver_versions: gamesweep_proto::convert::solver_versions_to_proto(version),
        max_shards: max,
    }))
    .map(|r| r.into_inner().leases)
}

fn run_lease(l: &pb::Lease) -> sweep::Output {
    let kind = gamesweep::kinds::find(&l.kind).unwrap();
    let params: Params = convert::params_from_proto(&l.params).unwrap();
    let shard = convert::opt_shard_from_proto(l.shard.clone()).unwrap();
    kind.run_shard(&params, &shard, &sweep::ShardCtx::detached())
        .unwrap()
}

fn submit(
    rt: &tokio::runtime::Runtime,
    c: &mut gamesweep_proto::Client,
    worker: &str,
    version: &gamesweep_api::SolverVersions,
    l: &pb::Lease,
    r: &sweep::Output,
) -> Result<bool, tonic::Status> {
    rt.block_on(c.submit(pb::SubmitRequest {
        worker_id: worker.into(),
        solver_versions: gamesweep_proto::convert::solver_versions_to_proto(version),
        sweep_id: l.sweep_id.clone(),
        index: l.shard.as_ref().unwrap().index,
        attempt: l.attempt,
        lease_token: l.lease_token.clone(),
        result: r.encode(),
        timing: None,
        positions: None,
    }))
    .map(|r| r.into_inner().accepted)
}

#[test]
fn duplicate_late_and_foreign_submits_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, "s3cret-token\n").unwrap();
    let tf = token_file.to_str().unwrap();
    let (_c, u) = serve(
        &dir.path().join("store"),
        0,
        &["--token-file", tf, "--lease-secs", "60"],
        &dir.path().join("serve.log"),
    );
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
        "--verify-fraction",
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
        "--verify-fraction",
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

/// Exit non-zero with a single line on stderr that contains `hint`.
fn one_line_error(args: &[&str], hint: &str) {
    let o = gs(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{args:?} succeeded");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {err}"
    );
    assert!(err.contains(hint), "{args:?}: `{hint}` not in: {err}");
}

#[test]
fn bad_inputs_give_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = |p: &str| dir.path().join(p).to_str().unwrap().to_string();
    let dead = url(free_port());
    one_line_error(
        &["launch", "nosuchkind", "--coordinator", &dead],
        "unknown sweep kind",
    );
    one_line_error(
        &["launch", "uvg", "--max-n", "99", "--coordinator", &dead],
        "out of range",
    );
    one_line_error(&["run", "uvg", "--max-n", "99"], "out of range");
    one_line_error(
        &["status", "--coordinator", &dead],
        "cannot reach the coordinator",
    );
    one_line_error(
        &["report", "x", "--coordinator", "not a url"],
        "bad coordinator URL",
    );
    // A foreign directory and a corrupt store.
    std::fs::create_dir_all(d("foreign")).unwrap();
    std::fs::write(dir.path().join("foreign/notes.txt"), "mine").unwrap();
    one_line_error(
        &["serve", "--listen", "127.0.0.1:0", "--store", &d("foreign")],
        "not a gamesweep store",
    );
    std::fs::create_dir_all(d("corrupt")).unwrap();
    std::fs::write(dir.path().join("corrupt/conf"), "garbage\x00\x01").unwrap();
    std::fs::write(dir.path().join("corrupt/db"), vec![0xAB; 4096]).unwrap();
    one_line_error(
        &["serve", "--listen", "127.0.0.1:0", "--store", &d("corrupt")],
        "store",
    );
    // Non-loopback without a token.
    one_line_error(
        &["serve", "--listen", "0.0.0.0:0", "--store", &d("s")],
        "--token-file",
    );
    // A "coordinator" that accepts and drops every connection: the error
    // says what happened to it, not just "transport error".
    let dropper = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dropping = url(dropper.local_addr().unwrap().port());
    std::thread::spawn(move || {
        for c in dropper.incoming() {
            drop(c);
        }
    });
    let o = gs(&["status", "--coordinator", &dropping]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // Was the bare "gamesweep: transport error".
    assert!(
        err.contains("transport error: connection"),
        "no cause in: {err}"
    );
    // A lease too long for a Duration (panicked), too short, or not a number.
    for lease in ["1e30", "86401", "0.1", "NaN", "inf"] {
        one_line_error(
            &[
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--store",
                &d("s"),
                "--lease-secs",
                lease,
            ],
            "--lease-secs must be between 0.2 and 86400",
        );
    }
}

fn run_out(out: &Path, extra: &[&str]) -> Output {
    Command::new(BIN)
        .args([
            "run",
            "uvg",
            "--max-n",
            "8",
            "-q",
            "--threads",
            "1",
            "--out",
        ])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// Write the store of a `run uvg --max-n 8 --out OUT` planned by solver
/// `version` with `shards` target shards, its plan edited by `edit`.
fn store_uvg8_run(
    out: &Path,
    version: &str,
    shards: u32,
    edit: impl FnOnce(&mut Vec<sweep::ShardSpec>),
) {
    use gamesweep_engine::store::{SledStore, Store, SweepRecord, SweepState};
    let store = SledStore::open(&out.join("store")).unwrap();
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let params = kind
        .resolve_params(&[("max_n".to_string(), 8)].into())
        .unwrap();
    let mut plan = kind.plan(&params, shards).unwrap();
    edit(&mut plan);
    let rec = SweepRecord {
        replicate_all: false,
        id: "run".into(),
        kind: "uvg".into(),
        params,
        solver_version: version.into(),
        target_shards: shards,
        seq: 1,
        state: SweepState::Running,
        sample: None,
        verify_ppm: 0,
        verify_seed: 0,
        paused: false,
        priority: 1,
        part: None,
        earlier_solvers: Vec::new(),
    };
    store.create_sweep(&rec, &plan).unwrap();
}

#[test]
fn run_resumes_after_kill9_with_identical_results() {
    resumes_after_kill9(&[]);
}

/// `run --in-process` is the same run without gRPC: it resumes too.
#[test]
fn an_in_process_run_resumes_after_kill9_with_identical_results() {
    resumes_after_kill9(&["--in-process"]);
}

/// Kill -9 a `run uvg --max-n 8` with the options `extra` a little after
/// it planned, rerun it with the same options: the stored plan is reused
/// and the result is the sequential executor's.
fn resumes_after_kill9(extra: &[&str]) {
    use std::io::BufRead as _;
    let dir = tempfile::tempdir().unwrap();
    let out: PathBuf = dir.path().join("r");
    let mut child = Proc(
        Command::new(BIN)
            .args([
                "run",
                "uvg",
                "--max-n",
                "8",
                "-q",
                "--threads",
                "1",
                "--shards",
                "64",
                "--out",
            ])
            .arg(&out)
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    // Wait until the sweep is planned and stored, let it work a little, kill -9.
    let mut lines = std::io::BufReader::new(child.0.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.contains("shards planned"), "{first}");
    std::thread::sleep(Duration::from_millis(300));
    let finished_early = child.0.try_wait().unwrap().is_some();
    child.kill9();
    // Rerun without --shards: the stored 64-shard plan must be reused.
    let o = run_out(&out, extra);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let params = kind
        .resolve_params(&[("max_n".to_string(), 8)].into())
        .unwrap();
    let planned = kind.plan(&params, 64).unwrap().len();
    if !finished_early {
        assert!(err.contains("resuming"), "{err}");
        assert!(err.contains(&format!("done: {planned} shards")), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        reference(8)
    );
}

#[test]
fn run_refuses_to_mix_solver_builds_and_fresh_starts_over() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    // A store left by an older build of the solver.
    store_uvg8_run(&out, "0.0.0+0000", 0, |_| {});
    let o = run_out(&out, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("solver changed") && err.contains("--fresh"),
        "{err}"
    );
    let o = run_out(&out, &["--fresh"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        reference(8)
    );
}

#[test]
fn serve_stops_cleanly_on_sigterm_and_keeps_its_sweeps() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let (mut c, u) = serve(&store, 0, &[], &dir.path().join("serve1.log"));
    let port = port_of(&u);
    ok(&[
        "launch",
        "uvg",
        "--verify-fraction",
        "0",
        "--max-n",
        "5",
        "--name",
        "keep",
        "--coordinator",
        &u,
    ]);
    let pid = c.0.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(s) = c.0.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "coordinator ignored SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "exit status {status}");
    let (_c2, _) = serve(&store, port, &[], &dir.path().join("serve2.log"));
    let s = status_json(&u, "keep");
    assert_eq!(s["state"], "running");
    assert_eq!(s["shards_done"], 0);
}

#[test]
fn sigterm_makes_a_worker_finish_its_shard_and_exit() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, u, mut w) = a_worker_holding_a_shard(dir.path(), "dr", "drainer", &[]);
    let pid = w.0.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(s) = w.0.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "worker did not drain");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "exit status {status}");
    // It finished and submitted the shard it held (nothing abandoned, no lease left behind).
    let s = status_json(&u, "dr");
    assert!(s["shards_done"].as_u64().unwrap() >= 1, "{s}");
    assert_eq!(s["shards_leased"], 0, "{s}");
    let log = std::fs::read_to_string(dir.path().join("drainer.log")).unwrap();
    assert!(log.contains("abandoned=0"), "{log}");
}

/// `launch --sample`: a worker runs only the sample and then finds nothing
/// to do; `project` prices the sweep from the sampled shards' timings;
/// `launch --resume` without a sample widens it, and the finished sweep
/// equals the in-process result (the sampled results are kept, not redone).
#[test]
fn a_sampled_sweep_projects_then_widens_to_the_exact_result() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, u) = serve(
        &dir.path().join("store"),
        0,
        &[],
        &dir.path().join("serve.log"),
    );
    let launch = |extra: &[&str]| {
        let mut a = vec![
            "launch",
            "uvg",
            "--verify-fraction",
            "0",
            "--max-n",
            "8",
            "--shards",
            "24",
            "--name",
            "smp",
        ];
        a.extend_from_slice(extra);
        a.extend_from_slice(&["--coordinator", &u]);
        ok(&a)
    };
    launch(&["--sample", "20%", "--sample-seed", "5"]);
    one_line_error(&["project", "smp", "--coordinator", &u], "none of the");
    let mut w = worker(
        &u,
        "ws",
        2,
        &["--exit-when-idle"],
        &dir.path().join("w.log"),
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    while w.0.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "worker did not go idle after the sample"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let text = ok(&["status", "--json", "--coordinator", &u]);
    let typed: Overview = serde_json::from_str(&text).unwrap();
    assert_eq!(typed.sweeps[0].state, SweepState::Sampled, "{text}");
    let full: serde_json::Value = serde_json::from_str(&text).unwrap();
    let s = &full["sweeps"][0];
    assert_eq!(s["state"], "sampled", "{s}");
    let shards = s["sample"]["shards"].as_u64().unwrap();
    assert_eq!(s["sample"]["done"].as_u64().unwrap(), shards);
    assert_eq!(
        s["shards_done"].as_u64().unwrap(),
        shards,
        "only the sample ran"
    );
    assert!(shards < 24);
    assert!(full["store_bytes"].as_u64().unwrap() > 0, "{full}");
    if cfg!(target_os = "linux") {
        assert!(
            full["coordinator_rss_bytes"].as_u64().unwrap() > 0,
            "{full}"
        );
    }
    let out = dir.path().join("proj");
    let p: serde_json::Value = serde_json::from_str(&ok(&[
        "project",
        "smp",
        "--cores",
        "1,64",
        "--json",
        "--out",
        out.to_str().unwrap(),
        "--coordinator",
        &u,
    ]))
    .unwrap();
    assert_eq!(p["sample"]["seed"], 5);
    assert_eq!(p["measured"]["shards"].as_u64().unwrap(), shards);
    assert_eq!(p["measured"]["positions"], s["positions_done"]);
    assert!(p["measured"]["positions_per_core_second"].as_f64().unwrap() > 0.0);
    assert_eq!(p["projected"]["wall"][1]["cores"], 64);
    assert!(std::fs::read_to_string(out.join("projection.md"))
        .unwrap()
        .contains("positions / s / core"));
    // Widen: the rest of the plan runs; the result is the exact one.
    launch(&["--resume"]);
    let _w2 = worker(&u, "ws2", 2, &[], &dir.path().join("w2.log"));
    let s = wait_done(&u, "smp", Duration::from_secs(180));
    assert_eq!(s["duplicates_ignored"], 0, "sampled shards are not rerun");
    assert_eq!(report(&u, "smp", &dir.path().join("out")), reference(8));
    // A different sample of the same sweep, and bad sizes, are refused.
    one_line_error(
        &[
            "launch",
            "uvg",
            "--verify-fraction",
            "0",
            "--max-n",
            "8",
            "--name",
            "smp",
            "--resume",
            "--sample",
            "1%",
            "--coordinator",
            &u,
        ],
        "another sample",
    );
    one_line_error(
        &["launch", "uvg", "--sample", "0%", "--coordinator", &u],
        "out of range",
    );
    one_line_error(
        &["run", "uvg", "--verify-fraction", "0.1", "--in-process"],
        "--verify-fraction needs a second worker identity",
    );
}

/// `run --sample` writes a projection and no results; the same command
/// without `--sample` finishes the sweep with the exact result (the sample
/// run in-process, the rest over gRPC: one store, one core).
#[test]
fn run_with_a_sample_projects_then_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = run_out(
        &out,
        &[
            "--sample",
            "10%",
            "--sample-seed",
            "2",
            "--project-cores",
            "2,64",
            // The same core either way: sampled in-process, finished over gRPC.
            "--in-process",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("projection.json")).unwrap())
            .unwrap();
    assert_eq!(p["sample"]["seed"], 2);
    assert!(p["sample"]["estimate_share"].as_f64().unwrap() >= 0.1);
    assert!(!out.join("results.json").exists());
    let o = run_out(&out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        reference(8)
    );
}

/// `run --in-process` and the embedded run write the same files byte for
/// byte (results.json, report.md, the figures), equal to the sequential
/// executor's results, for uvg and a kind of another family.
#[test]
fn an_in_process_run_writes_what_the_embedded_run_writes() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[(&str, u64)]); 2] = [
        ("uvg", &[("max_n", 7)]),
        ("myopic-tree", &[("max_nodes", 9)]),
    ];
    for (kind, params) in cases {
        let mut args: Vec<String> = vec!["run".into(), kind.into(), "-q".into()];
        for (k, v) in params {
            args.push(format!("--{}", gamesweep_api::text::flag_name(k)));
            args.push(v.to_string());
        }
        let run = |name: &str, extra: &[&str]| {
            let out = dir.path().join(format!("{kind}-{name}"));
            let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
            a.extend(["--no-http", "--out", out.to_str().unwrap()]);
            a.extend(extra);
            ok(&a);
            out
        };
        let (embedded, in_process) = (run("embedded", &[]), run("in-process", &["--in-process"]));
        for file in ["results.json", "report.md"] {
            let a = std::fs::read(embedded.join(file)).unwrap();
            let b = std::fs::read(in_process.join(file)).unwrap();
            assert!(a == b, "{kind}: {file} differs between the executors");
        }
        let figures = |d: &Path| -> Vec<(String, Vec<u8>)> {
            let Ok(rd) = std::fs::read_dir(d.join("figures")) else {
                return Vec::new();
            };
            let mut v: Vec<_> = rd
                .map(|e| e.unwrap().path())
                .map(|p| {
                    (
                        p.file_name().unwrap().to_string_lossy().into_owned(),
                        std::fs::read(&p).unwrap(),
                    )
                })
                .collect();
            v.sort();
            v
        };
        assert!(
            figures(&embedded) == figures(&in_process),
            "{kind}: figures differ"
        );
        // The independent oracle: the sequential executor, no core.
        let k = gamesweep::kinds::find(kind).unwrap();
        let given = params.iter().map(|&(k, v)| (k.to_string(), v)).collect();
        let p = k.resolve_params(&given).unwrap();
        let merged = sweep::run_all_sequential(k, &p, &k.plan(&p, 0).unwrap()).unwrap();
        assert_eq!(
            std::fs::read_to_string(in_process.join("results.json")).unwrap(),
            k.render(&p, &merged).unwrap().results_json,
            "{kind}"
        );
    }
}

/// A shard the solver cannot run (here: a corrupted payload in the store)
/// is reported by the worker, retried, then set aside: `run` stops with one
/// line naming the shard and the cause instead of re-leasing it forever,
/// and the other shards' results stay stored.
#[test]
fn a_shard_that_cannot_run_fails_the_run_with_a_clear_error() {
    a_shard_that_cannot_run_fails_the_run(&[]);
}

#[test]
fn a_shard_that_cannot_run_fails_an_in_process_run_with_a_clear_error() {
    a_shard_that_cannot_run_fails_the_run(&["--in-process"]);
}

/// The run with the options `extra` of a store whose shard 2 cannot run.
fn a_shard_that_cannot_run_fails_the_run(extra: &[&str]) {
    use gamesweep_engine::store::{SledStore, Store};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    store_uvg8_run(
        &out,
        &gamesweep::kinds::find("uvg").unwrap().version(),
        8,
        |plan| {
            plan[2].payload = "prefixes 5 not-graph6!".into();
        },
    );
    let started = Instant::now();
    let o = run_out(&out, extra);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "no endless retries"
    );
    let last = err.trim_end().lines().last().unwrap_or("");
    assert!(
        last.contains("shard 2")
            && last.contains("bad shard payload")
            && last.contains("failed 3 times"),
        "{err}"
    );
    assert!(!out.join("results.json").exists());
    // The good shards are stored: status of the store shows them done.
    let store = SledStore::open(&out.join("store")).unwrap();
    let swept = store.load_all().unwrap();
    assert_eq!(swept[0].results.len(), swept[0].plan.len() - 1);
    assert_eq!(swept[0].failures[&2].count, 3);
}

/// `run --help` / `launch --help` without a kind print the shared options and
/// every kind (they used to fail with "unknown sweep kind `--help`").
#[test]
fn help_without_a_kind_lists_the_options_and_kinds() {
    for (verb, flag) in [
        ("run", "--help"),
        ("run", "-h"),
        ("launch", "--help"),
        ("launch", "-h"),
    ] {
        let out = ok(&[verb, flag]);
        assert!(out.contains("--shards"), "{verb}: {out}");
        for k in gamesweep::kinds::registry() {
            assert!(out.contains(k.name()), "{verb}: {} missing", k.name());
        }
    }
    let o = gs(&["run", "nope"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown sweep kind `nope`"));
}

#[test]
fn the_documented_build_makes_both_binaries() {
    // `cargo build --release` builds the default members; the package that
    // holds both binaries must be one of them.
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml")).unwrap();
    let line = manifest
        .lines()
        .find(|l| l.starts_with("default-members"))
        .expect("default-members in the workspace manifest");
    assert!(line.contains("\"coordinator\""), "{line}");
    for (bin, name) in [(BIN, "gamesweep"), (WORKER_BIN, "gamesweep-worker")] {
        let o = isolated(Command::new(bin))
            .arg("--version")
            .output()
            .unwrap();
        assert!(o.status.success());
        let version = String::from_utf8(o.stdout).unwrap();
        assert!(version.starts_with(&format!("{name} ")), "{version}");
    }
}

#[test]
fn the_token_and_coordinator_come_from_the_environment_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let token = dir.path().join("token");
    std::fs::write(&token, "env-token\n").unwrap();
    let (_c, u) = serve(
        &dir.path().join("store"),
        0,
        &["--token-file", token.to_str().unwrap()],
        &dir.path().join("serve.log"),
    );
    // Only environment variables: launch, a worker (the worker binary), status, report.
    let with_env = |bin: &str| {
        let mut c = isolated(Command::new(bin));
        c.env("GAMESWEEP_COORDINATOR", &u)
            .env("GAMESWEEP_TOKEN_FILE", &token);
        c
    };
    let o = with_env(BIN)
        .args([
            "launch",
            "uvg",
            "--verify-fraction",
            "0",
            "--max-n",
            "6",
            "--name",
            "e",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let w = with_env(WORKER_BIN)
        .args(["--threads", "1", "--exit-when-idle", "--id", "env-worker"])
        .stderr(std::fs::File::create(dir.path().join("w.log")).unwrap())
        .status()
        .unwrap();
    assert!(w.success(), "the worker failed: see w.log");
    let o = with_env(BIN)
        .args(["status", "e", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let st: Overview = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(st.sweeps[0].state, SweepState::Done);
    let out = dir.path().join("out");
    let o = with_env(BIN)
        .args(["report", "e", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        reference(6)
    );
    // Without the token the same command is refused...
    let o = isolated(Command::new(BIN))
        .args(["status", "e", "--coordinator", &u])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("token"));
    // ...and with the token at the one default path, ~/.gamesweep/token, it is not.
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".gamesweep")).unwrap();
    std::fs::copy(&token, home.join(".gamesweep/token")).unwrap();
    let o = isolated(Command::new(BIN))
        .env("HOME", &home)
        .args(["status", "e", "--coordinator", &u])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_worker_follows_its_coordinator_to_a_new_address() {
    // A coordinator under a batch system is requeued onto another node: it
    // comes back from the same store at a new address, published in the
    // same file, and the workers find it there.
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let address = dir.path().join("coordinator.url");
    let (mut c1, u1) = serve_publishing(
        &store,
        0,
        &["--lease-secs", "2"],
        &dir.path().join("serve1.log"),
        &address,
    );
    ok(&[
        "launch",
        "uvg",
        "--verify-fraction",
        "0",
        "--max-n",
        "8",
        "--shards",
        "64",
        "--name",
        "m",
        "--coordinator",
        &u1,
    ]);
    let _w = Proc(
        isolated(Command::new(WORKER_BIN))
            .arg("--coordinator-file")
            .arg(&address)
            .args(["--threads", "1", "--exit-when-idle", "--id", "mover"])
            .stderr(std::fs::File::create(dir.path().join("w.log")).unwrap())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    while status_json(&u1, "m")["shards_done"].as_u64().unwrap() < 3 {
        assert!(Instant::now() < deadline, "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    // A clean stop removes the published address.
    let pid = c1.0.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let stopped = c1.0.wait().unwrap();
    assert!(stopped.success(), "{stopped}");
    assert!(
        !address.exists(),
        "the stopped coordinator's address is withdrawn"
    );
    std::thread::sleep(Duration::from_millis(300));
    let (_c2, u2) = serve_publishing(
        &store,
        0,
        &["--lease-secs", "2"],
        &dir.path().join("serve2.log"),
        &address,
    );
    assert_ne!(u1, u2, "a new address");
    let s = wait_done(&u2, "m", Duration::from_secs(180));
    assert_eq!(s["shards_done"], s["shards_total"]);
    assert_eq!(report(&u2, "m", &dir.path().join("out")), reference(8));
    let log = std::fs::read_to_string(dir.path().join("w.log")).unwrap();
    assert!(
        log.contains(&format!("coordinator address read url={u2}"))
            || log.contains(&format!("new={u2}")),
        "the worker did not say where it found the coordinator: {log}"
    );
}

#[test]
fn a_worker_gives_up_on_a_coordinator_that_never_answers() {
    let dir = tempfile::tempdir().unwrap();
    // An address file nobody writes: the coordinator never appears.
    let missing = dir.path().join("coordinator.url");
    let t0 = Instant::now();
    let o = isolated(Command::new(WORKER_BIN))
        .arg("--coordinator-file")
        .arg(&missing)
        .args(["--give-up-after", "1", "--log-format", "json"])
        .output()
        .unwrap();
    assert!(t0.elapsed() < Duration::from_secs(30));
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    let last = err.trim_end().lines().last().unwrap_or("");
    assert!(
        last.starts_with("gamesweep-worker: the coordinator at the address in ")
            && last.ends_with("has not answered for 1 s; giving up (--give-up-after)"),
        "{err}"
    );
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
    let (_c, u) = serve(
        &dir.path().join("store"),
        0,
        &[],
        &dir.path().join("serve.log"),
    );
    ok(&[
        "launch",
        "uvg",
        "--verify-fraction",
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
    let s = wait_done(&u, "rtt", Duration::from_secs(30));
    assert_eq!(s["results_stored"], s["shards_total"]);
}
