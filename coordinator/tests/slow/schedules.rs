//! Seeded random kill/restart schedules: one sweep (uvg n ≤ 9, the
//! committed `runs/uvg/results.json`) through a real coordinator and real
//! `gamesweep-worker` processes on 127.0.0.1, while a schedule drawn from a
//! seed `kill -9`s workers, the coordinator, or both, at random moments:
//! while it writes a `--export-every` checkpoint, while it starts up
//! (recovering its store), while an export is imported (over gRPC, or
//! into a stopped store), and once every shard is done while the sweep
//! waits on its verifications, with restart loops faster than the lease
//! and the verification wait. Some schedules recover from a checkpoint:
//! the coordinator is killed and its last checkpoint imported into a fresh
//! store (signed by a key the new one trusts, or not), credentials issued
//! again there. Each schedule draws one, two or three identities (an open
//! coordinator, or issued credentials), a replication policy (the default
//! sampled one, `--replicate all`, `--replicate-fraction 1`), a lease of
//! 0.5 to 2 s and a shard count. Every schedule ends by restarting
//! whatever is down and letting the sweep finish (bounded); its
//! `results.json` must be byte-identical to the committed one.
//!
//! `GAMESWEEP_SCHEDULES=N` runs N schedules (default 5), the seeds
//! `SEED0 + i`; `GAMESWEEP_SCHEDULE_SEED=S` replays schedule S alone (with
//! `GAMESWEEP_SCHEDULES=N`: the N seeds from S).
//! Every schedule prints one line (seed, what it drew, what landed where,
//! its time); a failing one keeps its folder (logs of every process) and
//! the test fails naming the seeds. The figures of a long run are in
//! runs/BENCHMARKS.md ("Kill/restart schedules").

use crate::support::{harness, proc};
use harness::{isolated, Client, Serve, BIN, WORKER_BIN};
use proc::Proc;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const SEED0: u64 = 20_261_204_000;
const SWEEP: &str = "sched";
const ADMIN: &str = "schedules-admin-secret";
/// The bound on one schedule's end (everything up, sweep finishing): a
/// normal end takes seconds (the longest wait is 3 leases of 2 s).
const FINISH_WITHIN: Duration = Duration::from_secs(90);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Policy {
    Sampled,
    ReplicateAll,
    VerifyAll,
}

/// What one schedule drew.
#[derive(Debug)]
struct Plan {
    /// Distinct identities (issued credentials, or one open coordinator).
    identities: usize,
    open: bool,
    workers: usize,
    policy: Policy,
    lease: f64,
    shards: u32,
    events: Vec<Event>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Event {
    KillWorker,
    KillCoordinator,
    KillBoth,
    /// The coordinator killed again and again, each time after less than
    /// half a lease (some before it is even up).
    RestartLoop,
    /// The coordinator killed while it writes a checkpoint.
    KillAtExport,
    /// The coordinator killed, its last checkpoint imported into a fresh
    /// store (with kills during the import), the sweep continued there.
    Recover,
}

impl Plan {
    fn draw(rng: &mut ChaCha8Rng) -> Plan {
        let identities = rng.random_range(1..=3);
        let open = identities == 1 && rng.random_bool(0.5);
        // A single identity can never confirm under `--replicate all` (by
        // design it waits for a second one), so it draws the other two.
        let policy = match (identities, rng.random_range(0..3)) {
            (1, 0) | (_, 2) => Policy::VerifyAll,
            (_, 1) => Policy::Sampled,
            _ => Policy::ReplicateAll,
        };
        let workers = (identities + rng.random_range(0..2)).min(3);
        let lease = [0.5, 1.0, 1.5, 2.0][rng.random_range(0..4)];
        let shards = [128, 256, 384, 512][rng.random_range(0..4)];
        let n = rng.random_range(4..=9);
        let events = (0..n)
            .map(|_| match rng.random_range(0..20) {
                0..=5 => Event::KillWorker,
                6..=9 => Event::KillCoordinator,
                10..=12 => Event::KillBoth,
                13..=14 => Event::RestartLoop,
                15..=17 => Event::KillAtExport,
                _ => Event::Recover,
            })
            .collect();
        Plan {
            identities,
            open,
            workers,
            policy,
            lease,
            shards,
            events,
        }
    }
}

/// What a schedule did: kills of each kind and where they landed.
#[derive(Default, Debug, Clone)]
struct Tally {
    worker_kills: u32,
    coordinator_kills: u32,
    both_kills: u32,
    restart_loops: u32,
    recoveries: u32,
    untrusted_recoveries: u32,
    /// Coordinator kills while a checkpoint's temporary file was being
    /// written (left behind by the kill: it certainly landed mid-export).
    at_export: u32,
    /// Kills of an import: of `import --store`, or of the coordinator
    /// while a gRPC import was under way.
    at_import: u32,
    /// Coordinator kills before it was serving (while it opened and
    /// recovered its store).
    at_recovery: u32,
    /// Kills (of any kind) once every shard was done and the sweep waited
    /// on its verifications.
    at_verification: u32,
    events_skipped: u32,
    worker_exits: u32,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.worker_kills += o.worker_kills;
        self.coordinator_kills += o.coordinator_kills;
        self.both_kills += o.both_kills;
        self.restart_loops += o.restart_loops;
        self.recoveries += o.recoveries;
        self.untrusted_recoveries += o.untrusted_recoveries;
        self.at_export += o.at_export;
        self.at_import += o.at_import;
        self.at_recovery += o.at_recovery;
        self.at_verification += o.at_verification;
        self.events_skipped += o.events_skipped;
        self.worker_exits += o.worker_exits;
    }
}

struct Worker {
    id: String,
    /// The credential file, if the coordinator issues them.
    token: Option<PathBuf>,
    proc: Option<Proc>,
    starts: u32,
}

struct Cluster {
    dir: PathBuf,
    store: PathBuf,
    stores: u32,
    address: PathBuf,
    exports: PathBuf,
    admin: Option<PathBuf>,
    trust: Vec<PathBuf>,
    lease: f64,
    coordinator: Option<Proc>,
    url: String,
    starts: u32,
    workers: Vec<Worker>,
    /// The credential names, one per identity (none when open).
    names: Vec<String>,
}

impl Cluster {
    /// The next start of the coordinator, on the current store.
    fn next_start(&mut self) -> Serve {
        self.starts += 1;
        let log = self.dir.join(format!("serve{}.log", self.starts));
        let mut serve = Serve::new(&self.store)
            .arg("--lease-secs")
            .arg(self.lease.to_string())
            .args(&["--export-every", "1s", "--export-dir"])
            .arg(&self.exports)
            .address_file(&self.address)
            .log(&log)
            .limit(Duration::from_secs(60));
        if let Some(a) = &self.admin {
            serve = serve.token_file(a);
        }
        for k in &self.trust {
            serve = serve.arg("--trust-key").arg(k);
        }
        serve
    }

    /// Start the coordinator and wait until it serves (bounded).
    fn start_coordinator(&mut self) {
        let starts = self.starts + 1;
        let c = self
            .next_start()
            .try_start()
            .unwrap_or_else(|log| panic!("coordinator (start {starts}) exited: {log}"));
        let (p, url) = c.into_parts();
        self.url = url;
        self.coordinator = Some(p);
    }

    fn kill_coordinator(&mut self) {
        if let Some(mut c) = self.coordinator.take() {
            c.kill9();
        }
    }

    fn start_worker(&mut self, i: usize) {
        let w = &mut self.workers[i];
        w.starts += 1;
        let log = self.dir.join(format!("{}-{}.log", w.id, w.starts));
        let mut worker = harness::Worker::from_file(&self.address)
            .separate_binary()
            .threads(1)
            .id(&w.id)
            .log(&log);
        if let Some(t) = &w.token {
            worker = worker.token(t);
        }
        w.proc = Some(worker.spawn());
    }

    fn kill_worker(&mut self, i: usize) {
        if let Some(mut p) = self.workers[i].proc.take() {
            p.kill9();
        }
    }

    /// Restart every worker that is not running (killed, or exited by
    /// itself: counted).
    fn revive_workers(&mut self, t: &mut Tally) {
        for i in 0..self.workers.len() {
            let exited = match &mut self.workers[i].proc {
                Some(p) => p.0.try_wait().unwrap().is_some(),
                None => false,
            };
            if exited {
                t.worker_exits += 1;
                self.workers[i].proc = None;
            }
            if self.workers[i].proc.is_none() {
                self.start_worker(i);
            }
        }
    }

    fn admin_args(&self) -> Vec<String> {
        let mut v = vec!["--coordinator".to_string(), self.url.clone()];
        if let Some(a) = &self.admin {
            v.push("--token-file".into());
            v.push(a.to_str().unwrap().into());
        }
        v
    }

    /// Client commands to the coordinator (as the admin, if there is one).
    fn client(&self) -> Client {
        let c = Client::new(&self.url);
        match &self.admin {
            Some(a) => c.token(a),
            None => c,
        }
    }

    /// The sweep's status, or None if the coordinator does not answer.
    fn sweep(&self) -> Option<serde_json::Value> {
        self.coordinator.as_ref()?;
        self.client().try_status(SWEEP)
    }

    /// Issue the credentials (again, on a fresh store), one file each.
    fn issue(&mut self) {
        for name in self.names.clone() {
            let out = self.dir.join(format!("cred-{name}"));
            let _ = std::fs::remove_file(&out);
            self.client().ok(&[
                "token",
                "issue",
                "--name",
                &name,
                "--out",
                out.to_str().unwrap(),
            ]);
        }
    }

    /// A temporary checkpoint file being written in the export folder.
    fn export_tmp(&self) -> Option<PathBuf> {
        std::fs::read_dir(&self.exports)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with('.') && n.contains(".tmp"))
            })
    }
}

/// Where the sweep is: (finished, every shard done but verifications
/// open). Not known (both false) if the coordinator did not answer.
fn phase(s: &Option<serde_json::Value>) -> (bool, bool) {
    match s {
        Some(s) if s["state"] == "done" => (true, false),
        Some(s) => (false, s["shards_done"] == s["shards_total"]),
        None => (false, false),
    }
}

fn sleep_ms(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

/// Run one schedule to the end; what it did, or the reason it failed.
fn schedule(seed: u64, dir: &Path, reference: &str) -> (Plan, Tally, Duration) {
    let t0 = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let plan = Plan::draw(&mut rng);
    let mut t = Tally::default();
    let admin = (!plan.open).then(|| {
        let p = dir.join("admin");
        std::fs::write(&p, format!("{ADMIN}\n")).unwrap();
        p
    });
    let names: Vec<String> = if plan.open {
        Vec::new()
    } else {
        (1..=plan.identities).map(|i| format!("id{i}")).collect()
    };
    let workers = (0..plan.workers)
        .map(|i| Worker {
            id: format!("w{i}"),
            token: names
                .get(i % plan.identities.max(1))
                .map(|n| dir.join(format!("cred-{n}"))),
            proc: None,
            starts: 0,
        })
        .collect();
    let mut cl = Cluster {
        dir: dir.to_path_buf(),
        store: dir.join("store1"),
        stores: 1,
        address: dir.join("coordinator.url"),
        exports: dir.join("exports"),
        admin,
        trust: Vec::new(),
        lease: plan.lease,
        coordinator: None,
        url: String::new(),
        starts: 0,
        workers,
        names,
    };
    cl.start_coordinator();
    cl.issue();
    let shards = plan.shards.to_string();
    let mut launch = vec![
        "launch", "uvg", "--max-n", "9", "--shards", &shards, "--name", SWEEP,
    ];
    match plan.policy {
        Policy::Sampled => {}
        Policy::ReplicateAll => launch.extend(["--replicate", "all"]),
        Policy::VerifyAll => launch.extend(["--replicate-fraction", "1"]),
    }
    cl.client().ok(&launch);
    cl.revive_workers(&mut t);
    let lease_ms = (plan.lease * 1000.0) as u64;
    for (k, &ev) in plan.events.iter().enumerate() {
        sleep_ms(rng.random_range(20..400));
        cl.revive_workers(&mut t);
        let (done, verifying) = phase(&cl.sweep());
        if done {
            t.events_skipped += (plan.events.len() - k) as u32;
            break;
        }
        let v = verifying as u32;
        match ev {
            Event::KillWorker => {
                let i = rng.random_range(0..cl.workers.len());
                cl.kill_worker(i);
                t.worker_kills += 1;
                t.at_verification += v;
                sleep_ms(rng.random_range(0..lease_ms));
                cl.start_worker(i);
            }
            Event::KillCoordinator => {
                cl.kill_coordinator();
                t.coordinator_kills += 1;
                t.at_verification += v;
                sleep_ms(rng.random_range(0..1000));
                cl.start_coordinator();
            }
            Event::KillBoth => {
                cl.kill_coordinator();
                for i in 0..cl.workers.len() {
                    cl.kill_worker(i);
                }
                t.both_kills += 1;
                t.at_verification += v;
                sleep_ms(rng.random_range(0..1000));
                cl.start_coordinator();
                cl.revive_workers(&mut t);
            }
            Event::RestartLoop => {
                t.restart_loops += 1;
                t.at_verification += v;
                for _ in 0..rng.random_range(3..=6) {
                    cl.kill_coordinator();
                    t.coordinator_kills += 1;
                    let c = cl.next_start().spawn();
                    cl.coordinator = Some(c);
                    // Less than half a lease after the spawn: sometimes
                    // before it serves (still recovering its store).
                    sleep_ms(rng.random_range(0..lease_ms / 2));
                    if !cl.address.exists() {
                        t.at_recovery += 1;
                    }
                }
                cl.kill_coordinator();
                t.coordinator_kills += 1;
                cl.start_coordinator();
            }
            Event::KillAtExport => {
                // Watch for a checkpoint being written (one a second while
                // finished shards change), then kill at once.
                let until = Instant::now() + Duration::from_secs(3);
                while cl.export_tmp().is_none() && Instant::now() < until {
                    std::thread::sleep(Duration::from_micros(500));
                }
                cl.kill_coordinator();
                t.coordinator_kills += 1;
                t.at_verification += v;
                // The temporary file outlives the kill: it landed mid-export
                // (and stays as litter, as after a real crash).
                if cl.export_tmp().is_some() {
                    t.at_export += 1;
                }
                sleep_ms(rng.random_range(0..500));
                cl.start_coordinator();
            }
            Event::Recover => {
                t.at_verification += v;
                recover(&mut cl, &mut rng, &plan, &mut t);
            }
        }
    }
    // The end: everything up, the sweep finishes within the bound.
    if cl.coordinator.is_none() {
        cl.start_coordinator();
    }
    cl.revive_workers(&mut t);
    let deadline = Instant::now() + FINISH_WITHIN;
    let s = loop {
        cl.revive_workers(&mut t);
        if let Some(s) = cl.sweep() {
            if s["state"] == "done" {
                break s;
            }
            assert!(
                Instant::now() < deadline,
                "the sweep did not finish within {FINISH_WITHIN:?}: {s}"
            );
        }
        assert!(
            Instant::now() < deadline,
            "the coordinator stopped answering"
        );
        sleep_ms(200);
    };
    let out = dir.join("out");
    cl.client()
        .ok(&["report", SWEEP, "--out", out.to_str().unwrap()]);
    let got = std::fs::read_to_string(out.join("results.json")).unwrap();
    assert!(
        got == reference,
        "results.json differs from runs/uvg/results.json (kept in {})",
        out.display()
    );
    assert_eq!(
        s["verification"]["mismatched"].as_u64().unwrap_or(0),
        0,
        "honest workers never disagree: {s}"
    );
    assert_eq!(s["results_stored"], s["shards_total"], "{s}");
    (plan, t, t0.elapsed())
}

/// Kill the coordinator (sometimes as it writes a checkpoint), import its
/// last checkpoint into a fresh store, kill during the import, and go on
/// there with credentials issued again.
fn recover(cl: &mut Cluster, rng: &mut ChaCha8Rng, plan: &Plan, t: &mut Tally) {
    let ckpt = cl.exports.join(format!("{SWEEP}.gsx"));
    // The first checkpoint comes within a second of the first finished
    // shards: wait for it (bounded).
    let until = Instant::now() + Duration::from_secs(3);
    while !ckpt.exists() && Instant::now() < until {
        sleep_ms(20);
    }
    if rng.random_bool(0.5) {
        let until = Instant::now() + Duration::from_secs(3);
        while cl.export_tmp().is_none() && Instant::now() < until {
            std::thread::sleep(Duration::from_micros(500));
        }
    }
    cl.kill_coordinator();
    t.coordinator_kills += 1;
    if cl.export_tmp().is_some() {
        t.at_export += 1;
    }
    if !ckpt.exists() {
        // No checkpoint yet: go on with the store as it is.
        cl.start_coordinator();
        return;
    }
    t.recoveries += 1;
    let n = cl.stores + 1;
    let file = cl.dir.join(format!("checkpoint{n}.gsx"));
    std::fs::copy(&ckpt, &file).unwrap();
    // Open coordinators have no identity to confirm an untrusted import.
    let trusted = plan.open || rng.random_bool(0.5);
    let key = cl.dir.join(format!("key{}", cl.stores));
    if trusted {
        harness::ok(&[
            "key",
            "export",
            "--store",
            cl.store.to_str().unwrap(),
            "--out",
            key.to_str().unwrap(),
        ]);
        // The checkpoint may be an older store's (this one wrote none yet):
        // every key so far is trusted.
        cl.trust.push(key);
    } else {
        t.untrusted_recoveries += 1;
    }
    cl.stores = n;
    cl.store = cl.dir.join(format!("store{n}"));
    let fraction = match plan.policy {
        Policy::Sampled => "0.01",
        Policy::ReplicateAll | Policy::VerifyAll => "1",
    };
    let file_s = file.to_str().unwrap().to_string();
    if rng.random_bool(0.5) {
        // Into the stopped store, killed at a random moment, then again.
        let store_s = cl.store.to_str().unwrap().to_string();
        let mut args = vec![
            "import",
            &file_s,
            "--store",
            &store_s,
            "--replicate-fraction",
            fraction,
        ];
        let keys: Vec<String> = cl
            .trust
            .iter()
            .map(|k| k.to_str().unwrap().to_string())
            .collect();
        for k in &keys {
            args.extend(["--trust-key", k]);
        }
        if rng.random_bool(0.7) {
            let mut p = Proc(
                isolated(Command::new(BIN))
                    .args(&args)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap(),
            );
            sleep_ms(rng.random_range(0..150));
            if still_running(&mut p.0) {
                t.at_import += 1;
            }
            p.kill9();
        }
        harness::ok(&args);
        cl.start_coordinator();
        cl.issue();
    } else {
        // Over gRPC into a fresh coordinator, killed during the import.
        cl.start_coordinator();
        cl.issue();
        let mut args: Vec<String> = ["import", &file_s, "--replicate-fraction", fraction]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.extend(cl.admin_args());
        if rng.random_bool(0.7) {
            let mut p = Proc(
                isolated(Command::new(BIN))
                    .args(&args)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap(),
            );
            sleep_ms(rng.random_range(0..150));
            let during = still_running(&mut p.0);
            cl.kill_coordinator();
            t.coordinator_kills += 1;
            t.at_import += during as u32;
            let _ = p.0.wait();
            sleep_ms(rng.random_range(0..300));
            cl.start_coordinator();
        }
        // Again (it merges if the first one got through), until it takes.
        let mut args: Vec<String> = ["import", &file_s, "--replicate-fraction", fraction]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.extend(cl.admin_args());
        let refs: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        harness::ok(&refs);
    }
    // The workers' old credentials mean nothing here.
    for i in 0..cl.workers.len() {
        cl.kill_worker(i);
    }
    cl.revive_workers(t);
}

fn still_running(c: &mut Child) -> bool {
    c.try_wait().unwrap().is_none()
}

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

#[test]
fn random_kill_restart_schedules_end_with_identical_results() {
    let _serial = crate::serial();
    let var = |name: &str| {
        std::env::var(name).ok().map(|s| {
            s.trim()
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("{name}: a number"))
        })
    };
    let seeds: Vec<u64> = match (var("GAMESWEEP_SCHEDULE_SEED"), var("GAMESWEEP_SCHEDULES")) {
        (Some(first), None) => vec![first],
        (first, n) => (0..n.unwrap_or(5))
            .map(|i| first.unwrap_or(SEED0) + i)
            .collect(),
    };
    let reference = std::fs::read_to_string(repo().join("runs/uvg/results.json")).unwrap();
    let t0 = Instant::now();
    let mut total = Tally::default();
    let mut identities = [0u32; 3];
    let mut policies = [0u32; 3];
    let mut failed = Vec::new();
    for &seed in &seeds {
        let dir = tempfile::Builder::new()
            .prefix(&format!("gamesweep-schedule-{seed}-"))
            .tempdir()
            .unwrap();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            schedule(seed, dir.path(), &reference)
        }));
        match r {
            Ok((plan, t, took)) => {
                identities[plan.identities - 1] += 1;
                policies[plan.policy as usize] += 1;
                eprintln!(
                    "schedule {seed}: ok in {:.1} s: {} identit{} ({}), {} workers, {:?}, \
                     lease {} s, {} shards; events {:?}; {t:?}",
                    took.as_secs_f64(),
                    plan.identities,
                    if plan.identities == 1 { "y" } else { "ies" },
                    if plan.open { "open" } else { "issued" },
                    plan.workers,
                    plan.policy,
                    plan.lease,
                    plan.shards,
                    plan.events,
                );
                total.add(&t);
            }
            Err(e) => {
                let why = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                let kept = dir.keep();
                eprintln!(
                    "schedule {seed}: FAILED (GAMESWEEP_SCHEDULE_SEED={seed} replays it; \
                     logs in {}): {why}",
                    kept.display()
                );
                failed.push(seed);
            }
        }
    }
    eprintln!(
        "schedules: {} run, {} failed, in {:.1} s; identities 1/2/3: {:?}; \
         policies sampled/replicate-all/verify-all: {:?}; {total:?}",
        seeds.len(),
        failed.len(),
        t0.elapsed().as_secs_f64(),
        identities,
        policies,
    );
    assert!(failed.is_empty(), "failing schedules: {failed:?}");
}

/// The end of schedule 20261204002 (`--replicate all`, two identities),
/// made deterministic: the only identity that may run a shard's
/// verification copy lost its lease on it (its worker was killed holding
/// it), while the other identity's worker, which may not run it, keeps
/// asking for work. The copy must go back to the eligible identity: the
/// sweep finishes.
#[test]
fn an_expired_verification_copy_goes_back_to_the_only_eligible_identity() {
    let _serial = crate::serial();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let admin = d.join("admin");
    std::fs::write(&admin, format!("{ADMIN}\n")).unwrap();
    let admin_s = admin.to_str().unwrap();
    let (_coord, u) = harness::serve(
        &d.join("store"),
        &["--token-file", admin_s, "--lease-secs", "1"],
        &d.join("serve.log"),
    );
    let with_admin = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--coordinator", &u, "--token-file", admin_s]);
        harness::ok(&all)
    };
    for name in ["id1", "id2"] {
        let out = d.join(name);
        with_admin(&[
            "token",
            "issue",
            "--name",
            name,
            "--out",
            out.to_str().unwrap(),
        ]);
    }
    with_admin(&[
        "launch",
        "uvg",
        "--max-n",
        "8",
        "--shards",
        "17",
        "--replicate",
        "all",
        "--name",
        "copy",
    ]);
    let worker = |cred: &str| {
        Proc(
            isolated(Command::new(WORKER_BIN))
                .args(["--coordinator", &u, "--threads", "1", "--token-file"])
                .arg(d.join(cred))
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(d.join(format!("{cred}.log"))).unwrap())
                .spawn()
                .unwrap(),
        )
    };
    let status = || {
        let v: serde_json::Value =
            serde_json::from_str(&with_admin(&["status", "copy", "--json"])).unwrap();
        v["sweeps"][0].clone()
    };
    let wait = |what: &str, until: &dyn Fn(&serde_json::Value) -> bool| {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let s = status();
            if until(&s) {
                return s;
            }
            assert!(Instant::now() < deadline, "{what}: {s}");
            sleep_ms(100);
        }
    };
    // @id1 runs every shard first; every copy then waits for @id2.
    let _w1 = worker("id1");
    wait("@id1 did not run every shard", &|s| {
        s["shards_done"] == s["shards_total"]
    });
    // A worker of @id2 takes one copy and dies holding it.
    let secret = std::fs::read_to_string(d.join("id2")).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let leased = {
        let _g = rt.enter();
        let mut c = gamesweep_proto::connect_lazy(
            &u,
            &gamesweep_proto::ClientOptions::token(Some(secret.trim())),
        )
        .unwrap();
        rt.block_on(c.lease(gamesweep_proto::pb::LeaseRequest {
            protocol: gamesweep_proto::LEASE_PROTOCOL,
            worker_id: "dies".into(),
            solver_versions: gamesweep_proto::convert::solver_versions_to_proto(
                &gamesweep_api::solver_version(),
            ),
            max_shards: 1,
        }))
        .unwrap()
        .into_inner()
        .leases
    };
    assert_eq!(leased.len(), 1, "a verification copy for @id2");
    let shard = leased[0].shard.as_ref().unwrap().index;
    // Its lease ends (1 s) while @id1's worker keeps asking; then another
    // worker of @id2 comes.
    sleep_ms(2500);
    let _w2 = worker("id2");
    let s = wait(
        &format!("the copy of shard {shard} never went back to @id2"),
        &|s| s["state"] == "done",
    );
    assert_eq!(s["verification"]["mismatched"], 0, "{s}");
}

/// The end of schedule 20261204130, made deterministic: `kill -9` of a
/// process creating a store (here `import --store` into a fresh folder)
/// just after sled made its `blobs/` folder, before its `conf` and `db`,
/// leaves that empty folder and nothing else. The store never held
/// anything: starting again must create it, not refuse it as someone
/// else's database.
#[test]
fn a_store_whose_creation_was_killed_is_created_again() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    // What the kill left (observed: the folder of schedule 20261204130).
    std::fs::create_dir_all(store.join("blobs")).unwrap();
    let (_coord, u) = harness::serve(&store, &[], &dir.path().join("serve.log"));
    let v: serde_json::Value =
        serde_json::from_str(&harness::ok(&["status", "--json", "--coordinator", &u])).unwrap();
    assert_eq!(v["sweeps"], serde_json::json!([]), "{v}");
}
