//! Workers and coordinators as processes: killed, stopped with SIGTERM,
//! moved to a new address, or never answering.

use super::*;

#[test]
fn two_workers_give_the_in_process_result() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, u) = Serve::new(&dir.path().join("store"))
        .port(0)
        .args(&["--log-format", "json"])
        .log(&dir.path().join("serve.log"))
        .start()
        .into_parts();
    let id = ok(&[
        "launch",
        "uvg",
        "--replicate-fraction",
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
    let _w1 = Worker::new(&u)
        .id("w1")
        .threads(1)
        .log(&dir.path().join("w1.log"))
        .spawn();
    let _w2 = Worker::new(&u)
        .id("w2")
        .threads(1)
        .log(&dir.path().join("w2.log"))
        .spawn();
    let s = Client::new(&u).wait_done("t1", Duration::from_secs(180));
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
    let (c, u) = Serve::new(&dir.join("store"))
        .port(0)
        .args(serve_extra)
        .log(&dir.join("serve.log"))
        .start()
        .into_parts();
    ok(&[
        "launch",
        "uvg",
        "--replicate-fraction",
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
    let w = Worker::new(&u)
        .id(worker_id)
        .threads(1)
        .log(&dir.join(format!("{worker_id}.log")))
        .spawn();
    let deadline = Instant::now() + Duration::from_secs(30);
    while Client::new(&u).status(id)["shards_leased"] == 0 {
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
    let before = Client::new(&u).status("k");
    let _w2 = Worker::new(&u)
        .id("rescuer")
        .threads(2)
        .log(&dir.path().join("w2.log"))
        .spawn();
    let s = Client::new(&u).wait_done("k", Duration::from_secs(180));
    assert_eq!(s["results_stored"], s["shards_total"]);
    assert_eq!(report(&u, "k", &dir.path().join("out")), reference(9));
    eprintln!("killed with {} shard(s) done", before["shards_done"]);
}

#[test]
fn a_killed_coordinator_resumes_on_the_same_store() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let (mut c, u) = Serve::new(&store)
        .port(0)
        .args(&["--lease-secs", "2"])
        .log(&dir.path().join("serve1.log"))
        .start()
        .into_parts();
    let port = port_of(&u);
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
        "r",
        "--coordinator",
        &u,
    ]);
    let _w = Worker::new(&u)
        .id("w")
        .threads(1)
        .log(&dir.path().join("w.log"))
        .spawn();
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut done_before = 0;
    while done_before < 3 {
        assert!(Instant::now() < deadline, "no progress");
        std::thread::sleep(Duration::from_millis(20));
        done_before = Client::new(&u).status("r")["shards_done"].as_u64().unwrap();
    }
    c.kill9();
    // The worker keeps computing and retries its submits until the coordinator is back.
    std::thread::sleep(Duration::from_millis(500));
    let (_c2, _) = Serve::new(&store)
        .port(port)
        .args(&["--lease-secs", "2"])
        .log(&dir.path().join("serve2.log"))
        .start()
        .into_parts();
    let s = Client::new(&u).wait_done("r", Duration::from_secs(180));
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

#[test]
fn serve_stops_cleanly_on_sigterm_and_keeps_its_sweeps() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let (mut c, u) = Serve::new(&store)
        .port(0)
        .log(&dir.path().join("serve1.log"))
        .start()
        .into_parts();
    let port = port_of(&u);
    ok(&[
        "launch",
        "uvg",
        "--replicate-fraction",
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
    let (_c2, _) = Serve::new(&store)
        .port(port)
        .log(&dir.path().join("serve2.log"))
        .start()
        .into_parts();
    let s = Client::new(&u).status("keep");
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
    let s = Client::new(&u).status("dr");
    assert!(s["shards_done"].as_u64().unwrap() >= 1, "{s}");
    assert_eq!(s["shards_leased"], 0, "{s}");
    let log = std::fs::read_to_string(dir.path().join("drainer.log")).unwrap();
    assert!(log.contains("abandoned=0"), "{log}");
}

#[test]
fn a_worker_follows_its_coordinator_to_a_new_address() {
    // A coordinator under a batch system is requeued onto another node: it
    // comes back from the same store at a new address, published in the
    // same file, and the workers find it there.
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let address = dir.path().join("coordinator.url");
    let (mut c1, u1) = Serve::new(&store)
        .port(0)
        .args(&["--lease-secs", "2"])
        .log(&dir.path().join("serve1.log"))
        .address_file(&address)
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
    while Client::new(&u1).status("m")["shards_done"]
        .as_u64()
        .unwrap()
        < 3
    {
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
    let (_c2, u2) = Serve::new(&store)
        .port(0)
        .args(&["--lease-secs", "2"])
        .log(&dir.path().join("serve2.log"))
        .address_file(&address)
        .start()
        .into_parts();
    assert_ne!(u1, u2, "a new address");
    let s = Client::new(&u2).wait_done("m", Duration::from_secs(180));
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
