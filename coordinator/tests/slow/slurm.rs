//! The Slurm path end to end, on a real Slurm cluster brought up by
//! `deploy/slurm/local-cluster.sh` (as root; it installs Debian's slurm-wlm
//! and munge with apt-get if they are missing). Its daemons, and so every
//! job, run in network namespaces of their own: from this test's namespace
//! the cluster is reached through its bridge, by address (node names resolve
//! only through `DIR/hosts`, which [`coordinator_at`] reads, or inside
//! `local-cluster.sh login`).
//!
//! In the first test a coordinator runs on the cluster's "login node"
//! (`local-cluster.sh login`, not under Slurm); the workers run as Slurm
//! jobs through `deploy/slurm/gamesweep-workers.sbatch`. During the uvg
//! n ≤ 10 sweep one array task is pre-empted with `scancel --signal=TERM`,
//! one job reaches its time limit (`--time=1 --signal=TERM@20`), and a later
//! array finishes the sweep. The result must equal the committed
//! `runs/uvg-n10/results.json`, no shard may have waited for a lease to
//! expire, and both signalled jobs must have drained and ended COMPLETED 0:0.
//!
//! The tests need Slurm and munge (and root): they are
//! `#[ignore = "needs slurm"]`, and fail when they run (`-- --include-ignored`,
//! as `.ci/run` does) without root, apt-get or a working cluster. Every wait
//! is bounded; the cluster's daemons and the coordinator are stopped by PID
//! on every exit path.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const GS: &str = env!("CARGO_BIN_EXE_gamesweep");
const WORKER: &str = env!("CARGO_BIN_EXE_gamesweep-worker");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn script(name: &str) -> PathBuf {
    repo().join("deploy/slurm").join(name)
}

/// No cluster: the test fails, saying why.
fn no_cluster(why: &str) -> ! {
    proc::missing("the slurm test", "Slurm, munge and root", why)
}

fn text(o: &Output) -> String {
    format!(
        "status {}\nstdout: {}\nstderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The local cluster; `down` (kills exactly the recorded PIDs) on drop.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
}

impl Cluster {
    fn up(dir: &Path, cred_expire: u32) -> Result<Cluster, String> {
        // Four CPUs on a two-core machine: three workers of one CPU run at
        // once (the coordinator and Slurm itself need little).
        Cluster::start(dir, cred_expire, &["up"], 4, &[])
    }

    /// `nodes` nodes of `cpus` CPUs, each in its own network namespace;
    /// `env`: more of local-cluster.sh's settings (`LOCAL_SLURM_NODE_CPUS`,
    /// `LOCAL_SLURM_PARTITIONS`).
    fn up_nodes(
        dir: &Path,
        cred_expire: u32,
        nodes: u32,
        cpus: u32,
        env: &[(&str, &str)],
    ) -> Result<Cluster, String> {
        Cluster::start(
            dir,
            cred_expire,
            &["up", "--nodes", &nodes.to_string()],
            cpus,
            env,
        )
    }

    fn start(
        dir: &Path,
        cred_expire: u32,
        up: &[&str],
        cpus: u32,
        env: &[(&str, &str)],
    ) -> Result<Cluster, String> {
        let o = Command::new("bash")
            .arg(script("local-cluster.sh"))
            .args(up)
            .arg(dir)
            .env("LOCAL_SLURM_CPUS", cpus.to_string())
            .env("LOCAL_SLURM_CRED_EXPIRE", cred_expire.to_string())
            .env_remove("SLURM_CONF")
            .env_remove("LOCAL_SLURM_NODE_CPUS")
            .env_remove("LOCAL_SLURM_PARTITIONS")
            .envs(env.iter().copied())
            .output()
            .map_err(|e| format!("cannot run local-cluster.sh: {e}"))?;
        // Tear down whatever `up` started, even if it failed half-way.
        let cluster = Cluster {
            dir: dir.to_path_buf(),
            conf: dir.join("slurm.conf"),
        };
        if !o.status.success() {
            let err = String::from_utf8_lossy(&o.stderr);
            let last = err.lines().last().unwrap_or("no output").to_string();
            return Err(format!("local cluster did not start: {last}"));
        }
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            stdout.contains(&format!("export SLURM_CONF={}", cluster.conf.display())),
            "{stdout}"
        );
        Ok(cluster)
    }

    /// `local-cluster.sh ACTION DIR NODE` (kill-node, revive-node).
    fn node(&self, action: &str, node: &str) {
        let o = Command::new("bash")
            .arg(script("local-cluster.sh"))
            .args([action, self.dir.to_str().unwrap(), node])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "local-cluster.sh {action} {node}: {}",
            text(&o)
        );
    }

    /// A node's state in `sinfo` (`idle`, `alloc`, `down*`, ...).
    fn node_state(&self, node: &str) -> String {
        self.run("sinfo", &["-h", "-N", "-n", node, "-o", "%t"])
            .trim()
            .to_string()
    }

    /// A Slurm command against this cluster.
    fn cmd(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf);
        c
    }

    fn run(&self, program: &str, args: &[&str]) -> String {
        let o = self.cmd(program).args(args).output().unwrap();
        assert!(o.status.success(), "{program} {args:?}: {}", text(&o));
        String::from_utf8(o.stdout).unwrap()
    }

    /// Fields of `scontrol show job` (finished jobs are kept for MinJobAge,
    /// 300 s by default), or None once Slurm forgot the job.
    fn job_fields(&self, job: &str, names: &[&str]) -> Option<Vec<String>> {
        let o = self
            .cmd("scontrol")
            .args(["show", "job", job])
            .output()
            .unwrap();
        if !o.status.success() {
            return None;
        }
        let out = String::from_utf8_lossy(&o.stdout);
        let field = |name: &str| {
            out.split_whitespace()
                .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
                .unwrap_or("?")
                .to_string()
        };
        Some(names.iter().map(|n| field(n)).collect())
    }

    /// `JobState` and `ExitCode` of a job.
    fn job_state(&self, job: &str) -> Option<(String, String)> {
        self.job_fields(job, &["JobState", "ExitCode"])
            .map(|f| (f[0].clone(), f[1].clone()))
    }

    /// Job ids (`JOB` or `JOB_TASK`) still queued or running.
    fn queued(&self) -> Vec<String> {
        self.run("squeue", &["-h", "-o", "%i"])
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let o = Command::new("bash")
            .arg(script("local-cluster.sh"))
            .args(["down", self.dir.to_str().unwrap()])
            .output();
        match o {
            Ok(o) if o.status.success() => {}
            Ok(o) => eprintln!("local-cluster.sh down: {}", text(&o)),
            Err(e) => eprintln!("local-cluster.sh down: {e}"),
        }
    }
}

use crate::support::proc;
use proc::Proc;

/// A coordinator on the cluster's login node (`local-cluster.sh login`: the
/// controller's network namespace), on every address there (port 0), that
/// publishes its URL in `addr_file`; returns it and that URL as reachable
/// from here (its host name resolved through the cluster's hosts file).
fn serve(cluster: &Cluster, dir: &Path, token: &Path, addr_file: &Path) -> (Proc, String) {
    // `login` execs the program: the child's PID is the coordinator's.
    let child = Command::new("bash")
        .arg(script("local-cluster.sh"))
        .arg("login")
        .arg(&cluster.dir)
        .arg(GS)
        .args(["serve", "--listen", "0.0.0.0:0", "--store"])
        .arg(dir.join("store"))
        .arg("--token-file")
        .arg(token)
        .args(["--lease-secs", "10", "--log-format", "json"])
        .arg("--address-file")
        .arg(addr_file)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("serve.log")).unwrap())
        .spawn()
        .unwrap();
    let proc = Proc(child);
    let mut at = None;
    wait_or(
        "the coordinator's address file",
        Duration::from_secs(20),
        || {
            at = coordinator_at(&cluster.dir, addr_file);
            at.is_some()
        },
        || {
            format!(
                "address file: {:?}\nlog: {}",
                std::fs::read_to_string(addr_file),
                std::fs::read_to_string(dir.join("serve.log")).unwrap_or_default()
            )
        },
    );
    let (host, url) = at.unwrap();
    // The login node is this machine's host name, the controller's address.
    let ctl = node_addrs(&cluster.dir)
        .get(&host)
        .cloned()
        .unwrap_or_default();
    assert!(
        ctl.starts_with("10.253.") && ctl.ends_with(".1"),
        "{host} is at {ctl:?}"
    );
    (proc, url)
}

/// A user command against the coordinator.
fn gs(url: &str, token: &Path, args: &[&str]) -> String {
    let o = Command::new(GS)
        .args(args)
        .arg("--coordinator")
        .arg(url)
        .arg("--token-file")
        .arg(token)
        .output()
        .unwrap();
    assert!(o.status.success(), "gamesweep {args:?}: {}", text(&o));
    String::from_utf8(o.stdout).unwrap()
}

fn status(url: &str, token: &Path, id: &str) -> serde_json::Value {
    let out = gs(url, token, &["status", id, "--json"]);
    serde_json::from_str(&out).unwrap()
}

/// Worker ids that the coordinator has seen.
fn workers(st: &serde_json::Value) -> Vec<String> {
    st["workers"]
        .as_array()
        .map(|ws| {
            ws.iter()
                .filter_map(|w| w["worker_id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Poll until `done` says so, at most `limit`.
fn wait_for(what: &str, limit: Duration, done: impl FnMut() -> bool) {
    wait_or(what, limit, done, String::new)
}

/// `wait_for`, with `context()` in the failure message.
fn wait_or(
    what: &str,
    limit: Duration,
    mut done: impl FnMut() -> bool,
    context: impl Fn() -> String,
) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}\n{}",
            context()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// The worker log of a job shows a drain: "signal received", then
/// "worker stopped". Returns the stopped line's `accepted` count.
fn assert_drained(log: &Path) -> u64 {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let msg = |v: &serde_json::Value| v["fields"]["message"].as_str().unwrap_or("").to_string();
    let signal = lines.iter().position(|v| msg(v) == "signal received");
    let stopped = lines.iter().position(|v| msg(v) == "worker stopped");
    match (signal, stopped) {
        (Some(s), Some(e)) if s < e => lines[e]["fields"]["accepted"].as_u64().unwrap_or(0),
        _ => panic!("{} shows no drain:\n{text}", log.display()),
    }
}

/// Did the job's worker get a signal at all (a "signal received" line)?
fn log_shows_signal(log: &Path) -> bool {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .contains("\"signal received\"")
}

/// A temporary directory with a running local cluster in it, or the reason
/// there is none (the test fails). `cred_expire`: see local-cluster.sh.
fn cluster(cred_expire: u32) -> Result<(tempfile::TempDir, Cluster), String> {
    cluster_in_tmp(|slurm| Cluster::up(slurm, cred_expire))
}

/// [`cluster`] of `nodes` nodes of `cpus` CPUs, each in its own network
/// namespace; the test fails (never skips) without one.
fn nodes_cluster(cred_expire: u32, nodes: u32, cpus: u32) -> (tempfile::TempDir, Cluster) {
    nodes_cluster_with(cred_expire, nodes, cpus, &[])
}

/// [`nodes_cluster`] with more of local-cluster.sh's settings in `env`.
fn nodes_cluster_with(
    cred_expire: u32,
    nodes: u32,
    cpus: u32,
    env: &[(&str, &str)],
) -> (tempfile::TempDir, Cluster) {
    cluster_in_tmp(|slurm| Cluster::up_nodes(slurm, cred_expire, nodes, cpus, env))
        .unwrap_or_else(|why| no_cluster(&why))
}

/// A temporary directory (root only) with the cluster `up` starts in its
/// `slurm/`.
fn cluster_in_tmp(
    up: impl FnOnce(&Path) -> Result<Cluster, String>,
) -> Result<(tempfile::TempDir, Cluster), String> {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root {
        return Err("not root (local-cluster.sh must start slurmd and munged, and create network namespaces)".into());
    }
    let tmp = tempfile::tempdir().unwrap();
    // munged (user munge) must reach the cluster directory inside.
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
    }
    let cluster = up(&tmp.path().join("slurm"))?;
    Ok((tmp, cluster))
}

const LAUNCH_N10: [&str; 12] = [
    "launch",
    "uvg",
    "--verify-fraction",
    "0",
    "--max-n",
    "10",
    "--collect-min-value",
    "5",
    "--shards",
    "256",
    "--name",
    "n10",
];

/// Submit the workers script with `opts`, the address in `addr_file`, one
/// CPU and one thread per worker; returns the job id.
fn submit_workers(
    cluster: &Cluster,
    opts: &[&str],
    log: &Path,
    addr_file: &Path,
    token: &Path,
) -> String {
    submit_workers_env(cluster, opts, log, addr_file, token, &[])
}

/// [`submit_workers`] with more of the script's settings in `env`.
fn submit_workers_env(
    cluster: &Cluster,
    opts: &[&str],
    log: &Path,
    addr_file: &Path,
    token: &Path,
    env: &[(&str, &Path)],
) -> String {
    let o = cluster
        .cmd("sbatch")
        .args(["--parsable", "--cpus-per-task=1"])
        .args(opts)
        .arg(format!("--output={}", log.display()))
        .arg(script("gamesweep-workers.sbatch"))
        // A worker that starts after the sweep is done waits 3 s, not 60.
        .args(["--idle-grace", "3"])
        .env_remove("GAMESWEEP_COORDINATOR")
        .env("GAMESWEEP_COORDINATOR_FILE", addr_file)
        .env("GAMESWEEP_TOKEN_FILE", token)
        .env("GAMESWEEP_WORKER_BIN", WORKER)
        .env("GAMESWEEP_THREADS", "1")
        .env_remove("GAMESWEEP_CREDENTIALS_DIR")
        // The shared token unless `env` says otherwise (these tests'
        // coordinators, by hand or as a job, issue no credentials to them).
        .env("GAMESWEEP_CREDENTIALS", "shared")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(o.status.success(), "sbatch {opts:?}: {}", text(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    out.trim().split(';').next().unwrap().to_string()
}

fn assert_committed_result(url: &str, token: &Path, dir: &Path) {
    assert_committed_result_of(url, token, dir, "n10")
}

/// The `results.json` of sweep `id` (a `LAUNCH_N10` under another name, too)
/// is the committed `runs/uvg-n10/results.json`.
fn assert_committed_result_of(url: &str, token: &Path, dir: &Path, id: &str) {
    // n10's report in DIR/report (a test reads its provenance.json there).
    let out = match id {
        "n10" => dir.join("report"),
        _ => dir.join(format!("report-{id}")),
    };
    gs(url, token, &["report", id, "--out", out.to_str().unwrap()]);
    let got = std::fs::read(out.join("results.json")).unwrap();
    let want = std::fs::read(repo().join("runs/uvg-n10/results.json")).unwrap();
    assert!(
        got == want,
        "results.json of {id} differs from runs/uvg-n10/results.json"
    );
}

#[test]
#[ignore = "needs slurm"]
fn workers_under_slurm_survive_preemption_and_time_limits() {
    let _serial = crate::serial();
    let started = Instant::now();
    let (tmp, cluster) = match cluster(120) {
        Ok(c) => c,
        Err(why) => no_cluster(&why),
    };
    let dir = tmp.path();
    eprintln!("slurm test: cluster up after {:.1?}", started.elapsed());

    // The bad input case first: no coordinator address, nothing runs.
    let o = Command::new("bash")
        .arg(script("gamesweep-workers.sbatch"))
        .env_clear()
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{}", text(&o));
    assert_eq!(err.lines().count(), 1, "{}", text(&o));
    assert!(err.contains("no coordinator address"), "{err}");
    // The shared token's mode without a token.
    let o = Command::new("bash")
        .arg(script("gamesweep-workers.sbatch"))
        .env_clear()
        .env("GAMESWEEP_COORDINATOR", "http://127.0.0.1:1")
        .env("GAMESWEEP_CREDENTIALS", "shared")
        .env("GAMESWEEP_TOKEN_FILE", dir.join("no-such-token"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{}", text(&o));
    assert_eq!(err.lines().count(), 1, "{}", text(&o));
    assert!(err.contains("no readable token file"), "{err}");
    // Per-task credentials (the default) with a URL only: no directory to
    // ask a credential in; never the shared token instead.
    let o = Command::new("bash")
        .arg(script("gamesweep-workers.sbatch"))
        .env_clear()
        .env("GAMESWEEP_COORDINATOR", "http://127.0.0.1:1")
        .env("GAMESWEEP_TOKEN_FILE", dir.join("no-such-token"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{}", text(&o));
    assert_eq!(err.lines().count(), 1, "{}", text(&o));
    assert!(
        err.contains(
            "GAMESWEEP_CREDENTIALS=task needs the coordinator job's credentials directory"
        ),
        "{err}"
    );
    // An unknown mode.
    let o = Command::new("bash")
        .arg(script("gamesweep-workers.sbatch"))
        .env_clear()
        .env("GAMESWEEP_COORDINATOR", "http://127.0.0.1:1")
        .env("GAMESWEEP_CREDENTIALS", "per-task")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{}", text(&o));
    assert_eq!(err.lines().count(), 1, "{}", text(&o));
    assert!(
        err.contains("GAMESWEEP_CREDENTIALS must be task, node or shared"),
        "{err}"
    );

    let token = dir.join("token");
    std::fs::write(&token, "slurm-test-token\n").unwrap();
    let addr_file = dir.join("coordinator.url");
    let (_coordinator, url) = serve(&cluster, dir, &token, &addr_file);
    let id = gs(&url, &token, &LAUNCH_N10);
    assert_eq!(id.trim(), "n10");

    // Workers: one CPU, one thread each, the address from the file.
    let sbatch = |opts: &[&str], log: &str| {
        submit_workers(&cluster, opts, &dir.join(log), &addr_file, &token)
    };
    let sweep_start = Instant::now();
    let a = sbatch(&["--array=0-1"], "a-%A_%a.log");
    // The time-limited job: SIGTERM 20 s before its one-minute limit (Slurm
    // checks time limits about every 30 s, so 10–40 s after its start).
    let t = sbatch(&["--time=1", "--signal=TERM@20"], "t-%j.log");
    let a0 = format!("{a}_0");

    // Pre-empt a0 once it has been working. The whole n ≤ 10 sweep takes
    // only a few seconds with the current solver, so it is paused first (a
    // paused sweep is unfinished: the workers stay and poll, and finish the
    // shards they hold), a0 is signalled, and the sweep resumed.
    let mut a0_seen = false;
    wait_for("worker a0 to run shards", Duration::from_secs(90), || {
        let st = status(&url, &token, "n10");
        a0_seen |= workers(&st).iter().any(|w| w.starts_with(&a0));
        a0_seen && st["sweeps"][0]["shards_done"].as_u64().unwrap_or(0) >= 10
    });
    gs(&url, &token, &["pause", "n10"]);
    let st = status(&url, &token, "n10");
    assert_ne!(st["sweeps"][0]["state"], "done", "paused in time: {st}");
    std::thread::sleep(Duration::from_secs(3));
    cluster.run("scancel", &["--signal=TERM", &a0]);
    eprintln!(
        "slurm test: {a0} pre-empted {:.1?} after sbatch (sweep paused)",
        sweep_start.elapsed()
    );
    gs(&url, &token, &["resume", "n10"]);
    // A later array finishes the sweep with a1.
    let b = sbatch(&["--array=0-1"], "b-%A_%a.log");

    let deadline = Duration::from_secs(240);
    let mut last = serde_json::Value::Null;
    wait_for("the sweep to finish", deadline, || {
        last = status(&url, &token, "n10");
        last["sweeps"][0]["state"] == "done"
    });
    let sweep_wall = sweep_start.elapsed();
    eprintln!("slurm test: sweep done {sweep_wall:.1?} after the first sbatch");
    // Workers leave by themselves once idle.
    wait_for("the workers to exit", Duration::from_secs(90), || {
        cluster.queued().is_empty()
    });

    // The result is the committed one.
    assert_committed_result(&url, &token, dir);

    // No shard waited for a lease to expire, nothing was computed twice.
    let s = &last["sweeps"][0];
    assert_eq!(s["duplicates_ignored"], 0, "{last}");
    assert_eq!(s["leases_expired"], 0, "{last}");
    eprintln!(
        "slurm test: leases_expired 0, duplicates_ignored 0, leases_released {}",
        s["leases_released"]
    );

    // Both signalled jobs drained and ended cleanly; so did every other task.
    let tasks = [
        (a0.clone(), dir.join(format!("a-{a}_0.log"))),
        (t.clone(), dir.join(format!("t-{t}.log"))),
    ];
    for (job, log) in &tasks {
        let state = cluster.job_state(job);
        assert_eq!(
            state,
            Some(("COMPLETED".to_string(), "0:0".to_string())),
            "{job}: {}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        if *job == t && !log_shows_signal(log) {
            // With the faster solver the whole n ≤ 10 sweep can end before
            // Slurm's periodic time-limit check signals this job (10–40 s
            // after its start); it then left idle, cleanly (checked above).
            // Signalling at a time limit is exercised by the requeue test.
            eprintln!(
                "slurm test: {job} was not signalled: the sweep ended {sweep_wall:.1?} after the first sbatch, before its time limit's signal; it exited idle"
            );
            continue;
        }
        let accepted = assert_drained(log);
        let f = cluster.job_fields(job, &["RunTime", "TimeLimit"]).unwrap();
        eprintln!(
            "slurm test: {job} drained after submitting {accepted} shards (ran {} of limit {})",
            f[0], f[1]
        );
    }
    assert!(
        assert_drained(&tasks[0].1) >= 1,
        "the pre-empted worker had submitted shards"
    );
    for job in [format!("{a}_1"), format!("{b}_0"), format!("{b}_1")] {
        assert_eq!(
            cluster.job_state(&job),
            Some(("COMPLETED".to_string(), "0:0".to_string())),
            "{job}"
        );
    }
    eprintln!("slurm test: passed in {:.1?}", started.elapsed());
}

/// The coordinator itself as a Slurm job (gamesweep-coordinator.sbatch):
/// signalled mid-sweep (`scancel --signal=TERM`, what its `--signal=TERM@60`
/// delivers before a time limit, and what pre-emption delivers), it exits
/// cleanly, requeues itself, comes back on the same store and republishes its
/// address; the workers (job array) ride out the outage through the address
/// file and finish the sweep, which gives the committed result.
///
/// The signal is sent once the first results are stored and before the last:
/// with a time limit instead (`--time=2`), the solver is fast enough that the
/// sweep was over before the limit came, and nothing resumed.
#[test]
#[ignore = "needs slurm"]
fn a_requeued_coordinator_job_resumes_and_its_workers_follow() {
    let _serial = crate::serial();
    let started = Instant::now();
    // A requeued job may start again after cred_expire + 1 s (default 121 s).
    let (tmp, cluster) = match cluster(20) {
        Ok(c) => c,
        Err(why) => no_cluster(&why),
    };
    let dir = tmp.path();
    let sdir = dir.join("slurm");
    let token = dir.join("token");
    std::fs::write(&token, "slurm-test-token\n").unwrap();
    let addr_file = dir.join("coordinator.url");
    let try_status = |addr_file: &Path, token: &Path| status_at(&sdir, addr_file, token);
    // Any port: the coordinator job listens in its node's namespace.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let o = cluster
        .cmd("sbatch")
        .args(["--parsable", "--cpus-per-task=1", "--time=5"])
        .arg(format!(
            "--output={}",
            dir.join("coordinator.log").display()
        ))
        .arg(script("gamesweep-coordinator.sbatch"))
        .env("GAMESWEEP_STORE", dir.join("store"))
        .env("GAMESWEEP_COORDINATOR_FILE", &addr_file)
        .env("GAMESWEEP_TOKEN_FILE", &token)
        .env("GAMESWEEP_BIN", GS)
        .env("GAMESWEEP_PORT", port.to_string())
        .output()
        .unwrap();
    assert!(o.status.success(), "sbatch coordinator: {}", text(&o));
    let coordinator = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let log = || {
        let mut s = std::fs::read_to_string(dir.join("coordinator.log")).unwrap_or_default();
        for args in [
            vec!["squeue"],
            vec!["scontrol", "show", "job", &coordinator],
        ] {
            if let Ok(o) = cluster.cmd(args[0]).args(&args[1..]).output() {
                s.push_str(&String::from_utf8_lossy(&o.stdout));
            }
        }
        s
    };
    let mut url = String::new();
    wait_or(
        "the coordinator job's address",
        Duration::from_secs(60),
        || {
            url = std::fs::read_to_string(&addr_file).unwrap_or_default();
            url = url.trim().to_string();
            !url.is_empty() && try_status(&addr_file, &token).is_some()
        },
        log,
    );
    assert!(url.ends_with(&format!(":{port}")), "{url}");
    let (_, url) = coordinator_at(&sdir, &addr_file).unwrap();
    gs(&url, &token, &LAUNCH_N10);
    let workers = submit_workers(
        &cluster,
        &["--array=0-1"],
        &dir.join("w-%A_%a.log"),
        &addr_file,
        &token,
    );
    let restarts = || {
        cluster.job_fields(&coordinator, &["Restarts"]).unwrap()[0]
            .parse::<u32>()
            .unwrap_or(0)
    };
    // Mid-sweep: some results stored, not all.
    let mut at_signal = None;
    wait_or(
        "the first stored results",
        Duration::from_secs(120),
        || {
            at_signal = try_status(&addr_file, &token);
            at_signal
                .as_ref()
                .is_some_and(|s| s["sweeps"][0]["results_stored"].as_u64() > Some(0))
        },
        log,
    );
    let o = cluster
        .cmd("scancel")
        .args(["--signal=TERM", &coordinator])
        .output()
        .unwrap();
    assert!(o.status.success(), "scancel --signal=TERM: {}", text(&o));
    let at_signal = &at_signal.unwrap()["sweeps"][0];
    let (stored, total) = (
        at_signal["results_stored"].as_u64().unwrap(),
        at_signal["shards_total"].as_u64().unwrap(),
    );
    assert!(
        stored < total,
        "the sweep ended before the signal: {at_signal}"
    );
    eprintln!(
        "slurm test: coordinator signalled {:.1?} after start, {stored} of {total} results stored",
        started.elapsed()
    );
    wait_or(
        "the coordinator job to be requeued",
        Duration::from_secs(120),
        || restarts() >= 1,
        log,
    );
    eprintln!(
        "slurm test: coordinator requeued {:.1?} after start",
        started.elapsed()
    );
    let mut last = None;
    wait_or(
        "the sweep to finish",
        Duration::from_secs(300),
        || {
            last = try_status(&addr_file, &token);
            last.as_ref()
                .is_some_and(|s| s["sweeps"][0]["state"] == "done")
        },
        log,
    );
    let last = last.unwrap();
    eprintln!(
        "slurm test: sweep done across {} coordinator restart(s) after {:.1?}: {}",
        restarts(),
        started.elapsed(),
        last["sweeps"][0]
    );
    wait_for("the workers to exit", Duration::from_secs(90), || {
        !cluster.queued().iter().any(|j| j.starts_with(&workers))
    });
    for task in ["0", "1"] {
        let job = format!("{workers}_{task}");
        assert_eq!(
            cluster.job_state(&job),
            Some(("COMPLETED".to_string(), "0:0".to_string())),
            "{job}"
        );
    }
    let (_, url) = coordinator_at(&sdir, &addr_file).unwrap();
    assert_committed_result(&url, &token, dir);
    let log = std::fs::read_to_string(dir.join("coordinator.log")).unwrap();
    assert!(log.contains("requeueing job"), "{log}");
    eprintln!("slurm test: passed in {:.1?}", started.elapsed());
}

/// Allocations that end and come back: a worker array whose tasks hit a
/// one-minute time limit. The script's `--signal=B:USR1@N` reaches the batch
/// shell before the limit; the worker gives its leases back (two SIGTERMs:
/// drain, then abort) and the task requeues itself (`scontrol requeue`),
/// several times over the sweep. The sweep finishes with the committed
/// `runs/uvg-n10/results.json` (what `gamesweep run uvg --max-n 10
/// --collect-min-value 5 --in-process` writes), no lease ever expired (each
/// was given back), and a requeued task's log (`--open-mode=append`) holds
/// the lines of each of its runs.
#[test]
#[ignore = "needs slurm"]
fn time_limited_worker_tasks_give_their_leases_back_and_are_requeued_until_the_sweep_is_done() {
    let _serial = crate::serial();
    let started = Instant::now();
    // A requeued job may start again cred_expire + 1 s after its requeue.
    let (tmp, cluster) = match cluster(REQUEUE_CRED_EXPIRE) {
        Ok(c) => c,
        Err(why) => no_cluster(&why),
    };
    let dir = tmp.path();
    let token = dir.join("token");
    std::fs::write(&token, "slurm-test-token\n").unwrap();
    let addr_file = dir.join("coordinator.url");
    let (_coordinator, url) = serve(&cluster, dir, &token, &addr_file);
    // n ≤ 10 sweeps of 8 shards (about 1 CPU-second a shard on the build
    // of 2026-12-05: a signalled worker may hold a shard it cannot finish
    // in the second between its two SIGTERMs, and gives it back). Slurm
    // checks time limits every 30 s (and starts a requeued job at such a
    // check); a check sends the signal once at most N + 30 s are left: with
    // `--time=1 --signal=B:USR1@15` an allocation is signalled 15–45 s
    // after its start (30 s after a requeued start). The work is not sized
    // in advance (a faster solver once finished six sweeps before the first
    // signal): sweeps are added while a task has not been requeued yet, so
    // there is always work left when the signal comes, whatever the speed.
    let mut sweeps: Vec<String> = Vec::new();
    let launch_next = |sweeps: &mut Vec<String>| {
        let id = format!("n10-{}", sweeps.len());
        let mut launch = LAUNCH_N10;
        launch[9] = "8";
        launch[11] = id.as_str();
        assert_eq!(gs(&url, &token, &launch).trim(), id);
        sweeps.push(id);
    };
    for _ in 0..REQUEUE_SWEEPS_AT_START {
        launch_next(&mut sweeps);
    }
    let sweep_start = Instant::now();
    let a = submit_workers(
        &cluster,
        &[
            "--array=0-1",
            "--time=1",
            &format!("--signal=B:USR1@{REQUEUE_SIGNAL_AT}"),
        ],
        &dir.join("w-%A_%a.log"),
        &addr_file,
        &token,
    );
    let tasks = [format!("{a}_0"), format!("{a}_1")];
    let restarts = |job: &str| {
        cluster
            .job_fields(job, &["Restarts"])
            .and_then(|f| f[0].parse::<u32>().ok())
            .unwrap_or(0)
    };
    let logs = || {
        let mut s = String::new();
        for t in 0..2 {
            let p = dir.join(format!("w-{a}_{t}.log"));
            s += &format!(
                "--- {}\n{}",
                p.display(),
                std::fs::read_to_string(&p).unwrap_or_default()
            );
        }
        s + &cluster.run("squeue", &[])
    };
    // Requeues as they happen: (seconds after sbatch, task, restart count).
    let mut seen = [0u32; 2];
    let mut last = serde_json::Value::Null;
    wait_or(
        "the sweep to finish",
        Duration::from_secs(240),
        || {
            for (i, t) in tasks.iter().enumerate() {
                let r = restarts(t);
                if r > seen[i] {
                    seen[i] = r;
                    eprintln!(
                        "slurm test: {t} requeued (restart {r}) {:.1?} after sbatch",
                        sweep_start.elapsed()
                    );
                }
            }
            last = serde_json::from_str(&gs(&url, &token, &["status", "--json"])).unwrap();
            // Shards not done yet, across the sweeps: a worker exits once
            // every sweep is done, so the next sweep is launched well
            // before that (the sweeps' shards are interleaved: they finish
            // together).
            let left: u64 = last["sweeps"].as_array().map_or(0, |a| {
                a.iter()
                    .map(|s| {
                        let n = |k: &str| s[k].as_u64().unwrap_or(0);
                        n("shards_total").saturating_sub(n("shards_done"))
                    })
                    .sum()
            });
            if seen.contains(&0) && left < REQUEUE_SHARDS_AHEAD {
                assert!(
                    sweeps.len() < REQUEUE_SWEEPS_MAX,
                    "{} sweeps done and a task never requeued: {seen:?}\n{}",
                    sweeps.len(),
                    logs()
                );
                launch_next(&mut sweeps);
                return false;
            }
            last["sweeps"]
                .as_array()
                .is_some_and(|a| a.len() == sweeps.len() && a.iter().all(|s| s["state"] == "done"))
        },
        logs,
    );
    let sweep_wall = sweep_start.elapsed();
    eprintln!("slurm test: sweeps done {sweep_wall:.1?} after sbatch");
    wait_or(
        "the workers to exit",
        Duration::from_secs(90),
        || cluster.queued().is_empty(),
        logs,
    );
    eprintln!("slurm test: {} sweeps", sweeps.len());
    for id in &sweeps {
        assert_committed_result_of(&url, &token, dir, id);
    }

    // Every signalled worker gave its shards back: none waited for a lease.
    let mut released = 0;
    for s in last["sweeps"].as_array().unwrap() {
        assert_eq!(s["leases_expired"], 0, "{last}");
        assert_eq!(s["duplicates_ignored"], 0, "{last}");
        released += s["leases_released"].as_u64().unwrap_or(0);
    }
    let counts: Vec<u32> = tasks.iter().map(|t| restarts(t)).collect();
    let total: u32 = counts.iter().sum();
    assert!(
        counts.iter().all(|&n| n >= 1) && total >= 2,
        "several requeues expected, got {counts:?}\n{}",
        logs()
    );
    let mut given_back = 0;
    for (t, n) in tasks.iter().zip(&counts) {
        let log_path = dir.join(format!("w-{}.log", t));
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        assert_eq!(
            cluster.job_state(t),
            Some(("COMPLETED".to_string(), "0:0".to_string())),
            "{t}: {log}"
        );
        // One log across the runs: each run's first line, and each
        // requeue's, are in it.
        for r in 0..=*n {
            assert!(
                log.contains(&format!("(restart {r}) on ")),
                "{t}: run {r} missing from its log:\n{log}"
            );
        }
        assert_eq!(
            log.matches("\"worker starting\"").count(),
            *n as usize + 1,
            "{t}: {log}"
        );
        assert_eq!(
            log.matches("; requeueing ").count(),
            *n as usize,
            "{t}: {log}"
        );
        given_back += log.matches("\"leases given back\"").count();
        // The script's own lines (timed): signal, requeue, each start.
        let mut signalled = None;
        for line in log
            .lines()
            .filter(|l| l.contains("gamesweep-workers.sbatch:"))
        {
            eprintln!("slurm test: {t}: {line}");
            // The worker is gone within a few seconds of the signal.
            let at = utc_seconds(line);
            if line.contains("SIGUSR1") {
                signalled = at;
            } else if line.contains("; requeueing ") {
                let (s, e) = (signalled.take().unwrap(), at.unwrap());
                assert!(e - s <= 5, "{t}: {s} → {e}: {log}");
            }
        }
    }
    eprintln!(
        "slurm test: requeues per task {counts:?}, {given_back} runs gave leases back, leases_released {released}, leases_expired 0; passed in {:.1?}",
        started.elapsed()
    );
}

/// Seconds since midnight UTC of a line starting `YYYY-MM-DDTHH:MM:SSZ`.
fn utc_seconds(line: &str) -> Option<i64> {
    let t = line.get(11..19)?;
    let mut f = t.split(':').map(|x| x.parse::<i64>().ok());
    Some(f.next()?? * 3600 + f.next()?? * 60 + f.next()??)
}

/// AuthInfo cred_expire of the requeue test's cluster (a requeued job is
/// held back cred_expire + 1 s).
const REQUEUE_CRED_EXPIRE: u32 = 10;
/// The requeue test's `--signal=B:USR1@N`, with `--time=1`.
const REQUEUE_SIGNAL_AT: u32 = 15;
/// The requeue test starts with this many sweeps (each a [`LAUNCH_N10`] of
/// 8 shards)…
const REQUEUE_SWEEPS_AT_START: usize = 3;
/// …and launches another whenever fewer shards than this are not done,
/// until both tasks have been requeued (about 12 s of work for the two
/// one-thread workers at 1 CPU-second a shard)…
const REQUEUE_SHARDS_AHEAD: u64 = 24;
/// …launching at most this many in all (a bound, far above the 6–12 a
/// run needs at 1 CPU-second a shard).
const REQUEUE_SWEEPS_MAX: usize = 40;

/// `deploy/slurm/local-cluster.sh up --nodes 3`: three slurmd, each in its
/// own network namespace with its own address, run a job array's tasks on
/// three distinct nodes; when a node dies (`kill-node`: link down, every
/// process in its namespace killed) Slurm marks it DOWN within a bound and
/// runs its requeued task on another node; a revived node is idle again;
/// `down` leaves no namespace behind.
#[test]
#[ignore = "needs slurm"]
fn three_nodes_in_namespaces_place_tasks_apart_and_requeue_a_dead_nodes_task() {
    let _serial = crate::serial();
    // One CPU a node: a one-CPU task per node at a time, so three tasks
    // need three nodes. A requeued job waits cred_expire + 1 s.
    let (tmp, cluster) = nodes_cluster(10, 3, 1);
    let dir = tmp.path();
    let namespaces = || {
        let o = Command::new("ip").args(["netns", "list"]).output().unwrap();
        let conf = std::fs::read_to_string(dir.join("slurm/net")).unwrap_or_default();
        let ours: Vec<String> = conf
            .lines()
            .filter_map(|l| l.strip_prefix("ns ").map(str::to_string))
            .collect();
        let listed = String::from_utf8_lossy(&o.stdout).to_string();
        (ours, listed)
    };
    let (ours, listed) = namespaces();
    assert_eq!(ours.len(), 3, "{ours:?}");
    assert!(
        ours.iter().all(|ns| listed.contains(ns.as_str())),
        "{listed}"
    );
    let job = dir.join("job.sh");
    std::fs::write(
        &job,
        "#!/bin/bash\n\
         echo \"node=$SLURMD_NODENAME host=$(hostname) addr=$(ip -4 -o addr show eth0 | awk '{print $4}') restart=${SLURM_RESTART_COUNT:-0} node3=$(getent hosts node3 | awk '{print $1}')\"\n\
         if [ \"$SLURM_ARRAY_TASK_ID\" = 1 ] && [ \"${SLURM_RESTART_COUNT:-0}\" = 0 ]; then sleep 300; else sleep 20; fi\n",
    )
    .unwrap();
    let o = cluster
        .cmd("sbatch")
        .args([
            "--parsable",
            "--requeue",
            "--array=0-2",
            "--cpus-per-task=1",
        ])
        .arg(format!("--output={}", dir.join("t-%a.out").display()))
        .arg(&job)
        .output()
        .unwrap();
    assert!(o.status.success(), "sbatch: {}", text(&o));
    let array = String::from_utf8(o.stdout).unwrap().trim().to_string();
    // Where each task runs.
    let placed = || -> Vec<(String, String)> {
        cluster
            .run("squeue", &["-h", "-t", "R", "-o", "%i %N"])
            .lines()
            .filter_map(|l| {
                let (id, node) = l.split_once(' ')?;
                Some((id.to_string(), node.trim().to_string()))
            })
            .collect()
    };
    let mut running = Vec::new();
    wait_for("three tasks running", Duration::from_secs(30), || {
        running = placed();
        running.len() == 3
    });
    let nodes: std::collections::BTreeSet<&str> = running.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(
        nodes.len(),
        3,
        "Slurm did not place the tasks apart: {running:?}"
    );
    let task1 = format!("{array}_1");
    let dead = running
        .iter()
        .find(|(id, _)| *id == task1)
        .unwrap()
        .1
        .clone();
    // Each task's own output names the node and the address it ran with.
    // Each node has its own host name and resolves the others' names.
    wait_for("task 1's output", Duration::from_secs(10), || {
        std::fs::read_to_string(dir.join("t-1.out")).is_ok_and(|t| {
            t.contains(&format!("node={dead} host={dead} addr=10.253."))
                && t.contains(" node3=10.253.")
        })
    });
    let killed = Instant::now();
    cluster.node("kill-node", &dead);
    wait_for("the dead node to be DOWN", Duration::from_secs(60), || {
        cluster.node_state(&dead).starts_with("down")
    });
    let down_after = killed.elapsed();
    let mut elsewhere = String::new();
    wait_for(
        "the dead node's task to run on another node",
        Duration::from_secs(120),
        || {
            elsewhere = placed()
                .into_iter()
                .find(|(id, _)| *id == task1)
                .map(|(_, n)| n)
                .unwrap_or_default();
            !elsewhere.is_empty()
        },
    );
    let moved_after = killed.elapsed();
    assert_ne!(elsewhere, dead);
    wait_for(
        "the requeued task's output",
        Duration::from_secs(20),
        || {
            std::fs::read_to_string(dir.join("t-1.out"))
                .is_ok_and(|t| t.contains(&format!("node={elsewhere} ")) && t.contains("restart=1"))
        },
    );
    eprintln!(
        "slurm nodes: tasks on {nodes:?}; {dead} killed, DOWN after {down_after:.1?}, its task running on {elsewhere} after {moved_after:.1?}"
    );
    cluster.node("revive-node", &dead);
    wait_for(
        "the revived node to be idle",
        Duration::from_secs(30),
        || matches!(cluster.node_state(&dead).as_str(), "idle" | "mix" | "alloc"),
    );
    drop(cluster);
    let (_, listed) = namespaces();
    assert!(
        ours.iter().all(|ns| !listed.contains(ns.as_str())),
        "namespaces left after down: {listed}"
    );
}

/// The addresses of a local cluster's nodes and of its controller (this
/// machine's host name), from `DIR/hosts`.
fn node_addrs(slurm_dir: &Path) -> std::collections::BTreeMap<String, String> {
    std::fs::read_to_string(slurm_dir.join("hosts"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let (addr, name) = l.split_once(' ')?;
            Some((name.trim().to_string(), addr.to_string()))
        })
        .collect()
}

/// Where the coordinator job runs, from its address file: its node's name
/// (the URL's host) and the URL with that name resolved through the
/// cluster's hosts file (this test runs outside the nodes' namespaces).
fn coordinator_at(slurm_dir: &Path, addr_file: &Path) -> Option<(String, String)> {
    let url = std::fs::read_to_string(addr_file).ok()?;
    let url = url.lines().next()?.trim();
    let rest = url.strip_prefix("http://")?;
    let (host, port) = rest.split_once(':')?;
    let addr = node_addrs(slurm_dir).get(host)?.clone();
    Some((host.to_string(), format!("http://{addr}:{port}")))
}

/// `status --json` of the coordinator job wherever it runs now, or None
/// while it is away.
fn status_at(slurm_dir: &Path, addr_file: &Path, token: &Path) -> Option<serde_json::Value> {
    let (_, url) = coordinator_at(slurm_dir, addr_file)?;
    let o = Command::new(GS)
        .args(["status", "--json", "--coordinator", &url])
        .arg("--token-file")
        .arg(token)
        .output()
        .ok()?;
    if !o.status.success() {
        return None;
    }
    serde_json::from_slice(&o.stdout).ok()
}

/// PIDs of the processes of program `exe` in NODE's namespace of the local
/// cluster in `slurm_dir`.
fn pids_on(slurm_dir: &Path, node: &str, exe: &str) -> Vec<String> {
    let net = std::fs::read_to_string(slurm_dir.join("net")).unwrap_or_default();
    let ns = net
        .lines()
        .filter_map(|l| l.strip_prefix("ns "))
        .find(|ns| ns.ends_with(&format!("-{node}")))
        .unwrap_or_else(|| panic!("no namespace of {node} in {net}"))
        .to_string();
    let o = Command::new("ip")
        .args(["netns", "pids", &ns])
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout)
        .split_whitespace()
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.split(|&b| b == 0).next() == Some(exe.as_bytes()))
        })
        .map(str::to_string)
        .collect()
}

/// Send SIG (`STOP`, `CONT`) to the worker processes in NODE's namespace;
/// returns how many there were.
fn signal_workers_on(slurm_dir: &Path, node: &str, sig: &str) -> usize {
    let pids = pids_on(slurm_dir, node, WORKER);
    for pid in &pids {
        let o = Command::new("kill")
            .args([&format!("-{sig}"), pid.as_str()])
            .output()
            .unwrap();
        assert!(o.status.success(), "kill -{sig} {pid}: {}", text(&o));
    }
    pids.len()
}

/// Shards held by the worker whose id starts with `prefix`.
fn held_by(st: &serde_json::Value, prefix: &str) -> u64 {
    st["workers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|w| {
            w["worker_id"]
                .as_str()
                .is_some_and(|id| id.starts_with(prefix))
        })
        .map(|w| w["shards_held"].as_u64().unwrap_or(0))
        .sum()
}

/// The whole sweep on a three-node cluster (plus a spare node and
/// one that joins), under one real scheduler, with a worker node and then the
/// coordinator's node dying mid-sweep.
///
/// Five nodes of two CPUs, each in its own network namespace; every job asks
/// for two CPUs, so a node runs one job (workers run one thread, the machine
/// has two cores). node4 starts drained. The coordinator is a Slurm job
/// (`gamesweep-coordinator.sbatch`, `--lease-secs 10`), its store and address
/// file in the shared directory; a worker array of two tasks lands on two
/// other nodes (asserted from `squeue`).
///
/// 1. Task 1's node dies while its worker holds a lease (the worker is
///    frozen with SIGSTOP once it holds one, so that it cannot hand the shard
///    in between the look and the kill; then link down, every process killed). Slurm marks it DOWN and runs the requeued task on the
///    spare node. The lease (10 s) must have run out before that (Slurm
///    needs `SlurmdTimeout` 10 s plus the requeue hold-back `cred_expire` + 1
///    = 11 s, about 57 s in practice): once the sweep goes on, the shard is
///    re-issued within 5 s. With a lease longer than Slurm's requeue
///    (`--lease-secs 120`) this check fails (tried: it times out).
/// 2. node4 is resumed (`scontrol update state=resume`), a new array task
///    runs there and works.
/// 3. The coordinator's node dies: its job is requeued onto the revived first
///    node, resumes from the store, republishes its address, and the workers
///    follow through the address file.
///
/// `results.json` equals the committed one; no result was merged twice.
/// The whole n ≤ 10 sweep takes about 20 CPU-seconds, far less than one
/// node failure, so the sweep is paused while Slurm notices each death (a
/// paused sweep is unfinished: workers stay and finish what they hold).
#[test]
#[ignore = "needs slurm"]
fn a_sweep_across_nodes_survives_a_dead_worker_node_a_dead_coordinator_node_and_a_joining_node() {
    let _serial = crate::serial();
    let started = Instant::now();
    let (tmp, cluster) = nodes_cluster(10, 5, 2);
    let dir = tmp.path();
    let sdir = dir.join("slurm");
    let joining = "node4";
    cluster.run(
        "scontrol",
        &[
            "update",
            &format!("nodename={joining}"),
            "state=drain",
            "reason=joins mid-sweep",
        ],
    );
    eprintln!(
        "slurm e2e: 5 nodes up after {:.1?}, {joining} drained",
        started.elapsed()
    );

    let token = dir.join("token");
    std::fs::write(&token, "slurm-test-token\n").unwrap();
    let addr_file = dir.join("coordinator.url");
    let o = cluster
        .cmd("sbatch")
        .args(["--parsable", "--cpus-per-task=2", "--time=10"])
        .arg(format!(
            "--output={}",
            dir.join("coordinator.log").display()
        ))
        .arg(script("gamesweep-coordinator.sbatch"))
        .args(["--lease-secs", "10"])
        .env("GAMESWEEP_STORE", dir.join("store"))
        .env("GAMESWEEP_COORDINATOR_FILE", &addr_file)
        .env("GAMESWEEP_TOKEN_FILE", &token)
        .env("GAMESWEEP_BIN", GS)
        .output()
        .unwrap();
    assert!(o.status.success(), "sbatch coordinator: {}", text(&o));
    let coordinator = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let diag = || {
        let mut s = std::fs::read_to_string(dir.join("coordinator.log")).unwrap_or_default();
        for args in [vec!["squeue"], vec!["sinfo", "-N"]] {
            if let Ok(o) = cluster.cmd(args[0]).args(&args[1..]).output() {
                s.push_str(&String::from_utf8_lossy(&o.stdout));
            }
        }
        s
    };
    let st = || status_at(&sdir, &addr_file, &token);
    wait_or(
        "the coordinator job's address",
        Duration::from_secs(60),
        || st().is_some(),
        diag,
    );
    let (coord_node, url) = coordinator_at(&sdir, &addr_file).unwrap();
    gs(&url, &token, &LAUNCH_N10);
    gs(&url, &token, &["pause", "n10"]);

    // Where each job runs.
    let placed = || -> std::collections::BTreeMap<String, String> {
        cluster
            .run("squeue", &["-h", "-t", "R", "-o", "%i %N"])
            .lines()
            .filter_map(|l| {
                let (id, node) = l.split_once(' ')?;
                Some((id.to_string(), node.trim().to_string()))
            })
            .collect()
    };
    let array = submit_workers(
        &cluster,
        &["--array=0-1", "--cpus-per-task=2", "--requeue"],
        &dir.join("w-%A_%a.log"),
        &addr_file,
        &token,
    );
    let (t0, t1) = (format!("{array}_0"), format!("{array}_1"));
    let mut running = Default::default();
    wait_or(
        "both worker tasks running",
        Duration::from_secs(30),
        || {
            running = placed();
            running.contains_key(&t0) && running.contains_key(&t1)
        },
        diag,
    );
    let (n0, n1) = (running[&t0].clone(), running[&t1].clone());
    assert_ne!(
        n0, n1,
        "Slurm placed both worker tasks on one node: {running:?}"
    );
    assert!(n0 != coord_node && n1 != coord_node, "{running:?}");
    eprintln!("slurm e2e: coordinator on {coord_node}, workers {t0} on {n0}, {t1} on {n1}");
    wait_or(
        "both workers to reach the coordinator",
        Duration::from_secs(30),
        || {
            st().is_some_and(|s| {
                let w = workers(&s);
                [&t0, &t1]
                    .iter()
                    .all(|t| w.iter().any(|id| id.starts_with(t.as_str())))
            })
        },
        diag,
    );

    // 1. Task 1's node dies while its worker holds a lease.
    let sweep_start = Instant::now();
    gs(&url, &token, &["resume", "n10"]);
    // Its worker is frozen (SIGSTOP) while it holds a lease, so that it
    // cannot hand the shard in between the look and the kill.
    let frozen_at = |sig: &str| signal_workers_on(&sdir, &n1, sig);
    let mut frozen = false;
    for _ in 0..20 {
        wait_or(
            "task 1's worker to hold a lease after some results",
            Duration::from_secs(60),
            || {
                st().is_some_and(|s| {
                    held_by(&s, &t1) >= 1 && s["sweeps"][0]["results_stored"].as_u64() >= Some(5)
                })
            },
            diag,
        );
        assert!(frozen_at("STOP") >= 1, "no worker process on {n1}");
        // A submit the worker sent just before the signal may still be on
        // its way (seen once under load average 9: the lease was gone,
        // neither expired nor released): let it land before looking. The
        // frozen worker renews nothing, and its lease (10 s) outlasts this.
        std::thread::sleep(Duration::from_secs(1));
        if st().is_some_and(|s| held_by(&s, &t1) >= 1) {
            frozen = true;
            break;
        }
        frozen_at("CONT");
    }
    assert!(frozen, "task 1's worker never held a lease when frozen");
    let killed = Instant::now();
    cluster.node("kill-node", &n1);
    gs(&url, &token, &["pause", "n10"]);
    let at_kill = st().unwrap();
    let held = held_by(&at_kill, &t1);
    let s = &at_kill["sweeps"][0];
    assert!(held >= 1, "the dead worker held no lease: {at_kill}");
    assert!(
        s["results_stored"].as_u64() < s["shards_total"].as_u64(),
        "{s}"
    );
    let expired_before = s["leases_expired"].as_u64().unwrap();
    eprintln!(
        "slurm e2e: {n1} killed holding {held} lease(s), {} of {} results stored",
        s["results_stored"], s["shards_total"]
    );
    wait_or(
        "the dead node to be DOWN",
        Duration::from_secs(60),
        || cluster.node_state(&n1).starts_with("down"),
        diag,
    );
    let down_after = killed.elapsed();
    let mut spare = String::new();
    wait_or(
        "task 1 to run on another node",
        Duration::from_secs(120),
        || {
            spare = placed().get(&t1).cloned().unwrap_or_default();
            !spare.is_empty()
        },
        diag,
    );
    let moved_after = killed.elapsed();
    assert!(
        spare != n1 && spare != joining && spare != coord_node,
        "{spare}"
    );
    // The sweep goes on: the dead worker's shards must be handed out again
    // at once, their leases having run out while Slurm requeued the task.
    gs(&url, &token, &["resume", "n10"]);
    let resumed = Instant::now();
    wait_or(
        "the dead worker's leases to be re-issued (5 s)",
        Duration::from_secs(5),
        || {
            st().is_some_and(|s| {
                s["sweeps"][0]["leases_expired"].as_u64().unwrap() >= expired_before + held
            })
        },
        || {
            format!("a shard waited for its lease to expire although Slurm had requeued its task {moved_after:.1?} after the death\n{}", diag())
        },
    );
    let reissued_after = resumed.elapsed();
    gs(&url, &token, &["pause", "n10"]);
    eprintln!(
        "slurm e2e: {n1} DOWN after {down_after:.1?}, {t1} running on {spare} after {moved_after:.1?}; leases re-issued {reissued_after:.1?} after the sweep went on"
    );

    // 2. A node joins; a new array task runs there.
    cluster.run(
        "scontrol",
        &["update", &format!("nodename={joining}"), "state=resume"],
    );
    let joined = submit_workers(
        &cluster,
        &["--array=2", "--cpus-per-task=2", "--requeue"],
        &dir.join("w-%A_%a.log"),
        &addr_file,
        &token,
    );
    let t2 = format!("{joined}_2");
    let mut at = String::new();
    wait_or(
        "the new task to run",
        Duration::from_secs(60),
        || {
            at = placed().get(&t2).cloned().unwrap_or_default();
            !at.is_empty()
        },
        diag,
    );
    assert_eq!(at, joining, "{:?}", placed());
    gs(&url, &token, &["resume", "n10"]);
    wait_or(
        "the joined node's worker to hold a lease",
        Duration::from_secs(60),
        || st().is_some_and(|s| held_by(&s, &t2) >= 1),
        diag,
    );
    gs(&url, &token, &["pause", "n10"]);
    eprintln!("slurm e2e: {joining} joined, {t2} working there");
    // The first dead node boots again: room for the coordinator to move to.
    cluster.node("revive-node", &n1);
    wait_or(
        "the revived node to be idle",
        Duration::from_secs(60),
        || cluster.node_state(&n1) == "idle",
        diag,
    );

    // 3. The coordinator's node dies.
    let before = st().unwrap();
    let stored_before = before["sweeps"][0]["results_stored"].as_u64().unwrap();
    assert!(
        stored_before < before["sweeps"][0]["shards_total"].as_u64().unwrap(),
        "{before}"
    );
    let killed = Instant::now();
    cluster.node("kill-node", &coord_node);
    let mut moved = (String::new(), String::new());
    wait_or(
        "the coordinator job to run again on another node",
        Duration::from_secs(150),
        || match coordinator_at(&sdir, &addr_file) {
            Some(at) if at.0 != coord_node && st().is_some() => {
                moved = at;
                true
            }
            _ => false,
        },
        diag,
    );
    let coord_moved_after = killed.elapsed();
    let (coord_node2, url) = moved;
    assert_eq!(placed().get(&coordinator), Some(&coord_node2));
    let restarts = cluster.job_fields(&coordinator, &["Restarts"]).unwrap()[0].clone();
    assert_eq!(restarts, "1", "{}", diag());
    let after = st().unwrap();
    assert_eq!(after["sweeps"][0]["state"], "paused", "{after}");
    assert!(
        after["sweeps"][0]["results_stored"].as_u64().unwrap() >= stored_before,
        "{after}"
    );
    eprintln!(
        "slurm e2e: {coord_node} killed; coordinator serving from {coord_node2} after {coord_moved_after:.1?} with {stored_before} results"
    );
    gs(&url, &token, &["resume", "n10"]);
    let mut last = serde_json::Value::Null;
    wait_or(
        "the sweep to finish",
        Duration::from_secs(120),
        || {
            last = st().unwrap_or(serde_json::Value::Null);
            last["sweeps"][0]["state"] == "done"
        },
        diag,
    );
    let sweep_wall = sweep_start.elapsed();
    let workers_of = |job: &str| cluster.queued().iter().any(|j| j.starts_with(job));
    wait_or(
        "the workers to exit",
        Duration::from_secs(60),
        || !workers_of(&array) && !workers_of(&joined),
        diag,
    );
    for job in [&t0, &t1, &t2] {
        assert_eq!(
            cluster.job_state(job),
            Some(("COMPLETED".to_string(), "0:0".to_string())),
            "{job}"
        );
    }
    assert_committed_result(&url, &token, dir);
    let s = &last["sweeps"][0];
    assert_eq!(s["results_stored"], s["shards_total"], "{s}");
    assert_eq!(s["shards_done"], s["shards_total"], "{s}");
    assert!(s["leases_expired"].as_u64().unwrap() >= held, "{s}");
    eprintln!(
        "slurm e2e: sweep done {sweep_wall:.1?} after it started; leases_expired {}, duplicates_ignored {}, leases_released {}, refused_submits {}; passed in {:.1?}",
        s["leases_expired"],
        s["duplicates_ignored"],
        s["leases_released"],
        s["refused_submits"],
        started.elapsed()
    );
}

/// No split brain: the coordinator's node is cut off (link down, its
/// processes keep running). Slurm marks the node DOWN and requeues the
/// coordinator job onto another node, but the store on the shared
/// filesystem is still locked by the first coordinator, alive behind the cut:
/// the second refuses to open it ("in use by another process") while the
/// first still runs.
#[test]
#[ignore = "needs slurm"]
fn a_requeued_coordinator_never_opens_the_store_of_a_cut_off_one() {
    let _serial = crate::serial();
    let started = Instant::now();
    let (tmp, cluster) = nodes_cluster(10, 3, 2);
    let dir = tmp.path();
    let sdir = dir.join("slurm");
    let token = dir.join("token");
    std::fs::write(&token, "slurm-test-token\n").unwrap();
    let addr_file = dir.join("coordinator.url");
    let log_file = dir.join("coordinator.log");
    let o = cluster
        .cmd("sbatch")
        .args(["--parsable", "--cpus-per-task=2", "--time=10"])
        .arg(format!("--output={}", log_file.display()))
        .arg(script("gamesweep-coordinator.sbatch"))
        .env("GAMESWEEP_STORE", dir.join("store"))
        .env("GAMESWEEP_COORDINATOR_FILE", &addr_file)
        .env("GAMESWEEP_TOKEN_FILE", &token)
        .env("GAMESWEEP_BIN", GS)
        .output()
        .unwrap();
    assert!(o.status.success(), "sbatch coordinator: {}", text(&o));
    let job = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let diag = || {
        let mut s = std::fs::read_to_string(&log_file).unwrap_or_default();
        for args in [vec!["squeue"], vec!["sinfo", "-N"]] {
            if let Ok(o) = cluster.cmd(args[0]).args(&args[1..]).output() {
                s.push_str(&String::from_utf8_lossy(&o.stdout));
            }
        }
        s
    };
    wait_or(
        "the coordinator job's address",
        Duration::from_secs(60),
        || status_at(&sdir, &addr_file, &token).is_some(),
        diag,
    );
    let (first_node, url) = coordinator_at(&sdir, &addr_file).unwrap();
    gs(&url, &token, &LAUNCH_N10);
    let first = pids_on(&sdir, &first_node, GS);
    assert_eq!(first.len(), 1, "{first:?}");
    let cut = Instant::now();
    cluster.node("cut-node", &first_node);
    wait_or(
        "the cut-off node to be DOWN",
        Duration::from_secs(60),
        || cluster.node_state(&first_node).starts_with("down"),
        diag,
    );
    // The requeued job starts on another node and, refused the store, ends
    // within a second: found in its log, not in `squeue`.
    let mut second_node = String::new();
    wait_or(
        "the requeued coordinator job to refuse the store",
        Duration::from_secs(150),
        || {
            let log = std::fs::read_to_string(&log_file).unwrap_or_default();
            second_node = log
                .lines()
                .find_map(|l| {
                    let rest = l.split_once("(restart 1) on ")?.1;
                    Some(rest.split([',', ' ']).next()?.to_string())
                })
                .unwrap_or_default();
            !second_node.is_empty() && log.contains("in use by another process")
        },
        diag,
    );
    let moved_after = cut.elapsed();
    assert_ne!(second_node, first_node, "{}", diag());
    let restarts = cluster.job_fields(&job, &["Restarts"]).unwrap()[0].clone();
    assert_eq!(restarts, "1", "{}", diag());
    // The first one still runs behind the cut, and nothing else serves.
    assert!(
        Path::new(&format!("/proc/{}", first[0])).exists(),
        "the first coordinator died: {}",
        diag()
    );
    assert!(pids_on(&sdir, &second_node, GS).is_empty(), "{}", diag());
    eprintln!(
        "slurm split brain: {first_node} cut off; job requeued onto {second_node}, which refused the store {moved_after:.1?} after the cut while the first coordinator (PID {}) still ran; passed in {:.1?}",
        first[0],
        started.elapsed()
    );
    cluster.node("heal-node", &first_node);
}

/// `launch` of the n ≤ 10 sweep with every shard run by two identities.
const LAUNCH_N10_REPLICATED: [&str; 12] = [
    "launch",
    "uvg",
    "--replicate",
    "all",
    "--max-n",
    "10",
    "--collect-min-value",
    "5",
    "--shards",
    "256",
    "--name",
    "n10",
];

/// Mode bits of a file (`0o600`).
fn mode_of(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .permissions()
        .mode()
        & 0o777
}

/// The worker script run outside Slurm as if in a job on `node`, with the
/// credentials directory `creds` and a shared token that must not be used:
/// it must refuse with one line naming `why`.
fn workers_script_refuses(creds: &Path, node: &str, shared: &Path, why: &str) {
    let o = Command::new("bash")
        .arg(script("gamesweep-workers.sbatch"))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("GAMESWEEP_COORDINATOR", "http://127.0.0.1:1")
        .env("GAMESWEEP_TOKEN_FILE", shared)
        .env("GAMESWEEP_WORKER_BIN", WORKER)
        .env("GAMESWEEP_CREDENTIALS", "node")
        .env("GAMESWEEP_CREDENTIALS_DIR", creds)
        .env("GAMESWEEP_CREDENTIALS_WAIT", "1")
        .env("SLURM_JOB_ID", "1")
        .env("SLURMD_NODENAME", node)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(err.contains(why), "{}", text(&o));
    assert_eq!(
        err.lines().filter(|l| !l.contains("waiting up to")).count(),
        1,
        "{}",
        text(&o)
    );
}

/// One worker credential per node, and item 4's
/// partitions and nodes of different sizes.
///
/// Five nodes: node1 (2 CPUs) alone in partition `service`, node2 and node3
/// (2 CPUs) and node4 (3 CPUs) in `compute`, node5 (1 CPU) in no partition
/// until it joins `compute` mid-test. The coordinator job goes to
/// `-p service` with `GAMESWEEP_CREDENTIALS_DIR` and
/// `GAMESWEEP_CREDENTIALS_PARTITION=compute`: once it listens it issues
/// node2..node4 one credential each (files 0600 in a 0700 directory, none
/// for node1). The sweep (uvg n ≤ 10 in 257 shards) is launched with
/// `--replicate all`, and seven one-CPU worker tasks go to `-p compute`:
/// Slurm fills the nodes by their CPUs (2, 2, 3 tasks), and the coordinator
/// sees exactly three identities, `@node2`, `@node3`, `@node4`, however many
/// tasks run on each. node5 joins the partition: the job's next rescan
/// (every 2 s here) issues its credential, and a task there is `@node5`.
/// Mid-sweep node4's credential is revoked: its three tasks exit non-zero
/// (FAILED), the others go on, and node4's leases run out and go to the
/// other nodes. The result equals `runs/uvg-n10`, every shard was confirmed
/// by two identities (`provenance.json`). The coordinator job, signalled
/// and requeued, comes back on the same store and issues nothing again.
/// The store's verification records (read once the coordinator job has
/// stopped) show each shard's runs on two different nodes, never two runs
/// of one node. Besides: the worker script refuses (one line, non-zero) when
/// its node has no credential file, or when the directory is readable by
/// others, and never falls back to the shared token.
#[test]
#[ignore = "needs slurm"]
fn one_credential_per_node_confirms_each_shard_on_two_nodes_and_a_revoked_node_stops_alone() {
    let _serial = crate::serial();
    let started = Instant::now();
    // node5 is in no partition yet: it joins `compute` mid-test.
    let (tmp, cluster) = nodes_cluster_with(
        10,
        5,
        2,
        &[
            ("LOCAL_SLURM_NODE_CPUS", "2,2,2,3,1"),
            ("LOCAL_SLURM_PARTITIONS", "service=node1 compute=node[2-4]"),
        ],
    );
    let dir = tmp.path();
    let sdir = dir.join("slurm");
    // Partitions and CPUs as configured.
    let nodes = cluster.run("sinfo", &["-h", "-N", "-o", "%N %P %c"]);
    let mut nodes: Vec<&str> = nodes.lines().map(str::trim).collect();
    nodes.sort();
    assert_eq!(
        nodes,
        [
            "node1 service* 2",
            "node2 compute 2",
            "node3 compute 2",
            "node4 compute 3"
        ]
    );
    eprintln!(
        "slurm credentials: 5 nodes up after {:.1?}",
        started.elapsed()
    );

    // The admin token: also the shared token the workers must not use.
    let token = dir.join("token");
    std::fs::write(&token, "slurm-test-admin-token\n").unwrap();
    let creds = dir.join("credentials");
    let addr_file = dir.join("coordinator.url");
    let log_file = dir.join("coordinator.log");
    let o = cluster
        .cmd("sbatch")
        .args([
            "--parsable",
            "-p",
            "service",
            "--cpus-per-task=2",
            "--time=10",
        ])
        .arg(format!("--output={}", log_file.display()))
        .arg(script("gamesweep-coordinator.sbatch"))
        .args(["--lease-secs", "10"])
        .env("GAMESWEEP_STORE", dir.join("store"))
        .env("GAMESWEEP_COORDINATOR_FILE", &addr_file)
        .env("GAMESWEEP_TOKEN_FILE", &token)
        .env("GAMESWEEP_BIN", GS)
        .env("GAMESWEEP_CREDENTIALS", "node")
        .env("GAMESWEEP_CREDENTIALS_DIR", &creds)
        .env("GAMESWEEP_CREDENTIALS_PARTITION", "compute")
        .env("GAMESWEEP_CREDENTIALS_RESCAN", "2")
        .output()
        .unwrap();
    assert!(o.status.success(), "sbatch coordinator: {}", text(&o));
    let coordinator = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let diag = || {
        let mut s = std::fs::read_to_string(&log_file).unwrap_or_default();
        for args in [vec!["squeue", "-o", "%i %P %N %T"], vec!["sinfo", "-N"]] {
            if let Ok(o) = cluster.cmd(args[0]).args(&args[1..]).output() {
                s.push_str(&String::from_utf8_lossy(&o.stdout));
            }
        }
        s
    };
    let st = || status_at(&sdir, &addr_file, &token);
    wait_or(
        "the coordinator job's address",
        Duration::from_secs(60),
        || st().is_some(),
        diag,
    );
    let (coord_node, url) = coordinator_at(&sdir, &addr_file).unwrap();
    assert_eq!(coord_node, "node1", "-p service: {}", diag());

    // One credential per compute node, written by the coordinator job.
    let compute = ["node2", "node3", "node4"];
    let cred_file = |n: &str| creds.join(format!("node-{n}.token"));
    wait_or(
        "the credential files",
        Duration::from_secs(30),
        || compute.iter().all(|n| cred_file(n).exists()),
        diag,
    );
    assert_eq!(mode_of(&creds), 0o700);
    let mut files: Vec<String> = std::fs::read_dir(&creds)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        ["node-node2.token", "node-node3.token", "node-node4.token"],
        "one per compute node, none for the service node, nothing half-written"
    );
    for n in compute {
        assert_eq!(mode_of(&cred_file(n)), 0o600, "{n}");
    }
    let list: serde_json::Value =
        serde_json::from_str(&gs(&url, &token, &["token", "list", "--json"])).unwrap();
    let mut issued: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    issued.sort();
    assert_eq!(issued, compute, "{list}");

    // No credential for this node, or a directory others may read: the
    // worker script refuses, never using the shared token instead.
    workers_script_refuses(&creds, "node1", &token, "no credential for node node1");
    let open_dir = dir.join("open-credentials");
    std::fs::create_dir(&open_dir).unwrap();
    std::fs::copy(cred_file("node2"), open_dir.join("node-node2.token")).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&open_dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    workers_script_refuses(&open_dir, "node2", &token, "has mode 755");

    gs(&url, &token, &LAUNCH_N10_REPLICATED);
    gs(&url, &token, &["pause", "n10"]);

    // Seven one-CPU tasks in `compute`: two on each 2-CPU node, three on node4.
    let creds_env = [
        ("GAMESWEEP_CREDENTIALS", Path::new("node")),
        ("GAMESWEEP_CREDENTIALS_DIR", creds.as_path()),
    ];
    let array = submit_workers_env(
        &cluster,
        &["-p", "compute", "--array=0-6", "--requeue"],
        &dir.join("w-%A_%a.log"),
        &addr_file,
        &token,
        &creds_env,
    );
    let tasks: Vec<String> = (0..7).map(|i| format!("{array}_{i}")).collect();
    let placed = || -> std::collections::BTreeMap<String, String> {
        cluster
            .run("squeue", &["-h", "-t", "R", "-o", "%i %N"])
            .lines()
            .filter_map(|l| {
                let (id, node) = l.split_once(' ')?;
                Some((id.to_string(), node.trim().to_string()))
            })
            .collect()
    };
    let mut running = Default::default();
    wait_or(
        "all seven worker tasks running",
        Duration::from_secs(60),
        || {
            running = placed();
            tasks.iter().all(|t| running.contains_key(t))
        },
        diag,
    );
    let on = |node: &str| -> Vec<String> {
        tasks
            .iter()
            .filter(|t| running[t.as_str()] == node)
            .cloned()
            .collect()
    };
    let per_node: Vec<usize> = ["node1", "node2", "node3", "node4"]
        .iter()
        .map(|n| on(n).len())
        .collect();
    assert_eq!(per_node, [0, 2, 2, 3], "{running:?}");
    let identities = |s: &serde_json::Value| {
        let mut w = workers(s);
        w.sort();
        w
    };
    wait_or(
        "the workers to reach the coordinator as their nodes",
        Duration::from_secs(30),
        || st().is_some_and(|s| identities(&s) == ["@node2", "@node3", "@node4"]),
        || format!("{:?}\n{}", st().map(|s| identities(&s)), diag()),
    );
    eprintln!(
        "slurm credentials: coordinator on {coord_node}, 7 tasks placed {running:?}, identities @node2 @node3 @node4 after {:.1?}",
        started.elapsed()
    );

    // node5 joins the partition: the coordinator job's next look issues it
    // a credential, and a task there is @node5.
    cluster.run(
        "scontrol",
        &["update", "partitionname=compute", "nodes=node[2-5]"],
    );
    let joined = Instant::now();
    wait_or(
        "node5's credential",
        Duration::from_secs(30),
        || cred_file("node5").exists(),
        diag,
    );
    let issued_after = joined.elapsed();
    assert_eq!(mode_of(&cred_file("node5")), 0o600);
    let t5 = submit_workers_env(
        &cluster,
        &["-p", "compute", "--array=7", "--requeue"],
        &dir.join("w-%A_%a.log"),
        &addr_file,
        &token,
        &creds_env,
    );
    let t5 = format!("{t5}_7");
    wait_or(
        "node5's worker to reach the coordinator",
        Duration::from_secs(60),
        || st().is_some_and(|s| identities(&s) == ["@node2", "@node3", "@node4", "@node5"]),
        || format!("{:?}\n{}", st().map(|s| identities(&s)), diag()),
    );
    assert_eq!(placed().get(&t5).map(String::as_str), Some("node5"));
    eprintln!("slurm credentials: node5 joined compute, its credential issued {issued_after:.1?} later, {t5} working there as @node5");
    let names = ["@node2", "@node3", "@node4", "@node5"];

    // Mid-sweep, while node4 holds leases, its credential is revoked.
    let sweep_start = Instant::now();
    gs(&url, &token, &["resume", "n10"]);
    wait_or(
        "node4 to hold a lease after some results",
        Duration::from_secs(120),
        || {
            st().is_some_and(|s| {
                held_by(&s, "@node4") >= 1 && s["sweeps"][0]["results_stored"].as_u64() >= Some(20)
            })
        },
        diag,
    );
    gs(&url, &token, &["token", "revoke", "node4"]);
    let revoked = Instant::now();
    let at_revoke = st().unwrap();
    let s = &at_revoke["sweeps"][0];
    assert_ne!(s["state"], "done", "revoked after the sweep: {s}");
    eprintln!(
        "slurm credentials: @node4 revoked holding {} lease(s), {} of {} results stored",
        held_by(&at_revoke, "@node4"),
        s["results_stored"],
        s["shards_total"]
    );
    let node4 = on("node4");
    let node4_gone = || {
        let q = cluster.queued();
        node4.iter().all(|t| !q.contains(t))
    };
    wait_or(
        "node4's tasks to end",
        Duration::from_secs(60),
        node4_gone,
        diag,
    );
    let stopped_after = revoked.elapsed();
    let others: Vec<String> = tasks
        .iter()
        .filter(|t| !node4.contains(t))
        .cloned()
        .chain([t5.clone()])
        .collect();
    let mut last = serde_json::Value::Null;
    wait_or(
        "the sweep to finish",
        Duration::from_secs(240),
        || {
            last = st().unwrap_or(serde_json::Value::Null);
            last["sweeps"][0]["state"] == "done"
        },
        diag,
    );
    let sweep_wall = sweep_start.elapsed();
    wait_or(
        "the other workers to exit",
        Duration::from_secs(60),
        || {
            let q = cluster.queued();
            !q.iter().any(|j| j.starts_with(&array)) && !q.contains(&t5)
        },
        diag,
    );
    for t in &node4 {
        let (state, code) = cluster.job_state(t).unwrap();
        assert_eq!(state, "FAILED", "{t}: {}", diag());
        assert_ne!(code, "0:0", "{t}");
        let log = std::fs::read_to_string(dir.join(format!("w-{}.log", t))).unwrap_or_default();
        assert!(
            log.contains("coordinator refused this worker"),
            "{t}: {log}"
        );
    }
    for t in &others {
        assert_eq!(
            cluster.job_state(t),
            Some(("COMPLETED".to_string(), "0:0".to_string())),
            "{t}"
        );
    }

    // The result, and how it was confirmed.
    assert_committed_result(&url, &token, dir);
    let s = &last["sweeps"][0];
    let total = s["shards_total"].as_u64().unwrap();
    assert_eq!(s["shards_done"], total, "{s}");
    let prov: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report/provenance.json")).unwrap())
            .unwrap();
    assert_eq!(
        prov["confirmation"]["confirmed_by_two_identities"], total,
        "{prov}"
    );
    let contributors: Vec<&String> = prov["contributors"].as_object().unwrap().keys().collect();
    assert!(
        contributors.iter().all(|c| names.contains(&c.as_str())),
        "{contributors:?}"
    );
    let audit: serde_json::Value =
        serde_json::from_str(&gs(&url, &token, &["audit", "--json"])).unwrap();
    let mut actions: Vec<String> = audit
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"].as_str().unwrap_or("").ends_with("-credential"))
        .map(|e| {
            let name = e["detail"]
                .as_str()
                .unwrap_or("")
                .split_whitespace()
                .find_map(|w| w.strip_prefix("name="))
                .unwrap_or("?")
                .to_string();
            format!("{} {name}", e["action"].as_str().unwrap())
        })
        .collect();
    actions.sort();
    assert_eq!(
        actions,
        [
            "issue-credential node2",
            "issue-credential node3",
            "issue-credential node4",
            "issue-credential node5",
            "revoke-credential node4"
        ],
        "{audit}"
    );

    // A requeued coordinator job (same store) issues nothing again: the
    // files, the list of credentials and the audit log stay as they were.
    let secrets = || -> Vec<Vec<u8>> {
        ["node2", "node3", "node4", "node5"]
            .iter()
            .map(|n| std::fs::read(cred_file(n)).unwrap())
            .collect()
    };
    let (before, list_before) = (secrets(), gs(&url, &token, &["token", "list", "--json"]));
    let requeued = Instant::now();
    cluster.run("scancel", &["--signal=TERM", &coordinator]);
    wait_or(
        "the coordinator job to come back after its requeue",
        Duration::from_secs(120),
        || {
            std::fs::read_to_string(&log_file)
                .unwrap_or_default()
                .contains("(restart 1) on ")
                && st().is_some()
        },
        diag,
    );
    let back_after = requeued.elapsed();
    let (_, url) = coordinator_at(&sdir, &addr_file).unwrap();
    // Past two rescans of the new job.
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(secrets(), before, "a credential file changed on requeue");
    assert_eq!(gs(&url, &token, &["token", "list", "--json"]), list_before);
    let audit_again = gs(&url, &token, &["audit", "--json"]);
    assert_eq!(
        audit_again.matches("\"issue-credential\"").count(),
        4,
        "{audit_again}"
    );
    assert_eq!(
        std::fs::read_dir(&creds).unwrap().count(),
        4,
        "nothing half-written left"
    );
    eprintln!("slurm credentials: coordinator requeued and serving again after {back_after:.1?}; nothing issued again");

    // Stop the coordinator for good (`scancel` without a signal: the batch
    // script is killed too and does not requeue) and read its
    // verification records: every shard ran on two different nodes.
    cluster.run("scancel", &[&coordinator]);
    wait_or(
        "the coordinator job to end",
        Duration::from_secs(60),
        || !cluster.queued().contains(&coordinator),
        diag,
    );
    use gamesweep_engine::store::{SledStore, Store as _, Verdict};
    let store = SledStore::open(&dir.join("store")).unwrap();
    let sweeps = store.load_all().unwrap();
    let sweep = sweeps.iter().find(|s| s.record.id == "n10").unwrap();
    assert_eq!(sweep.replication.len() as u64, total, "a record per shard");
    let mut by_node4 = 0;
    for (shard, v) in &sweep.replication {
        let mut who: Vec<&str> = v.runs.iter().map(|r| r.worker.as_str()).collect();
        assert_eq!(v.verdict, Verdict::Verified, "shard {shard}: {v:?}");
        assert!(
            who.iter().all(|w| names.contains(w)),
            "shard {shard}: {who:?}"
        );
        let runs = who.len();
        who.sort();
        who.dedup();
        assert!(
            who.len() >= 2 && who.len() == runs,
            "shard {shard}: runs {:?} are not on two different nodes",
            v.runs
        );
        by_node4 += usize::from(who.contains(&"@node4"));
    }
    assert!(
        by_node4 >= 1,
        "node4 confirmed nothing before its revocation"
    );
    eprintln!(
        "slurm credentials: node4's tasks ended {stopped_after:.1?} after the revocation; sweep done {sweep_wall:.1?} after it started; {total} shards each confirmed on two nodes ({by_node4} with node4); leases_expired {}; passed in {:.1?}",
        s["leases_expired"],
        started.elapsed()
    );
}

/// The processes in NODE's namespace whose command line or environment
/// holds `secret` (`/proc/PID/cmdline`, `/proc/PID/environ`).
fn secret_shown_on(slurm_dir: &Path, node: &str, secret: &str) -> Vec<String> {
    let net = std::fs::read_to_string(slurm_dir.join("net")).unwrap_or_default();
    let ns = net
        .lines()
        .filter_map(|l| l.strip_prefix("ns "))
        .find(|ns| ns.ends_with(&format!("-{node}")))
        .unwrap_or_else(|| panic!("no namespace of {node} in {net}"))
        .to_string();
    let o = Command::new("ip")
        .args(["netns", "pids", &ns])
        .output()
        .unwrap();
    let mut shown = Vec::new();
    for pid in String::from_utf8_lossy(&o.stdout).split_whitespace() {
        for what in ["cmdline", "environ"] {
            let bytes = std::fs::read(format!("/proc/{pid}/{what}")).unwrap_or_default();
            if String::from_utf8_lossy(&bytes).contains(secret) {
                shown.push(format!("{pid} {what}"));
            }
        }
    }
    shown
}

/// Per-task credentials, the Slurm recipe's default.
///
/// Three nodes of two CPUs: the coordinator job (no credential settings at
/// all) on one, a two-task worker array of two-CPU tasks on the other two.
/// Neither job is given a shared token (the workers' HOME has none). Each
/// task asks the coordinator job for a credential (`task-ID.request` in the
/// directory beside the address file) and gets its own file, mode 0600 in
/// a 0700 directory; the secrets are in no process's command line or
/// environment on the nodes, nor in `scontrol show job`. The coordinator
/// sees two identities, `@task-A_0` and `@task-A_1`. The sweep is launched
/// with `--replicate all`; mid-sweep task 1 is sent what a time limit sends
/// (`scancel --batch --signal=USR1`): it gives its leases back, requeues
/// itself and comes back with the same credential (same file, no new
/// issue): still two identities. The sweep finishes with every shard
/// confirmed by two identities on two different nodes, `results.json`
/// equals `runs/uvg-n10`'s, and once the tasks end their files are removed
/// and the coordinator job revokes both credentials.
#[test]
#[ignore = "needs slurm"]
fn per_task_credentials_by_default_confirm_every_shard_across_nodes_and_survive_a_requeue() {
    let _serial = crate::serial();
    let started = Instant::now();
    let (tmp, cluster) = nodes_cluster(10, 3, 2);
    let dir = tmp.path();
    let sdir = dir.join("slurm");
    let token = dir.join("token");
    std::fs::write(&token, "slurm-test-admin-token\n").unwrap();
    let addr_file = dir.join("coordinator.url");
    // The default place: beside the address file.
    let creds = dir.join("coordinator.credentials");
    let log_file = dir.join("coordinator.log");
    let o = cluster
        .cmd("sbatch")
        .args(["--parsable", "--cpus-per-task=2", "--time=10"])
        .arg(format!("--output={}", log_file.display()))
        .arg(script("gamesweep-coordinator.sbatch"))
        .args(["--lease-secs", "10"])
        .env("GAMESWEEP_STORE", dir.join("store"))
        .env("GAMESWEEP_COORDINATOR_FILE", &addr_file)
        .env("GAMESWEEP_TOKEN_FILE", &token)
        .env("GAMESWEEP_BIN", GS)
        .env_remove("GAMESWEEP_CREDENTIALS")
        .env_remove("GAMESWEEP_CREDENTIALS_DIR")
        // Revocations are looked for every 2 s here (60 by default).
        .env("GAMESWEEP_CREDENTIALS_RESCAN", "2")
        .output()
        .unwrap();
    assert!(o.status.success(), "sbatch coordinator: {}", text(&o));
    let coordinator = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let diag = || {
        let mut s = std::fs::read_to_string(&log_file).unwrap_or_default();
        if let Ok(rd) = std::fs::read_dir(dir) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if name.starts_with("w-") {
                    s.push_str(&format!(
                        "--- {name}:\n{}\n",
                        std::fs::read_to_string(e.path()).unwrap_or_default()
                    ));
                }
            }
        }
        for args in [vec!["squeue", "-o", "%i %N %T"], vec!["sinfo", "-N"]] {
            if let Ok(o) = cluster.cmd(args[0]).args(&args[1..]).output() {
                s.push_str(&String::from_utf8_lossy(&o.stdout));
            }
        }
        s
    };
    let st = || status_at(&sdir, &addr_file, &token);
    wait_or(
        "the coordinator job's address",
        Duration::from_secs(60),
        || st().is_some(),
        diag,
    );
    let (coord_node, url) = coordinator_at(&sdir, &addr_file).unwrap();
    assert_eq!(mode_of(&creds), 0o700);
    gs(&url, &token, &LAUNCH_N10_REPLICATED);
    gs(&url, &token, &["pause", "n10"]);

    // Two tasks of two CPUs: one on each of the other nodes. No shared
    // token anywhere in their environment.
    let home = dir.join("home");
    std::fs::create_dir(&home).unwrap();
    let o = cluster
        .cmd("sbatch")
        .args(["--parsable", "--cpus-per-task=2", "--array=0-1"])
        .arg(format!("--output={}", dir.join("w-%A_%a.log").display()))
        .arg(script("gamesweep-workers.sbatch"))
        .args(["--idle-grace", "3"])
        .env("HOME", &home)
        .env_remove("GAMESWEEP_COORDINATOR")
        .env_remove("GAMESWEEP_TOKEN_FILE")
        .env_remove("GAMESWEEP_CREDENTIALS")
        .env_remove("GAMESWEEP_CREDENTIALS_DIR")
        .env("GAMESWEEP_COORDINATOR_FILE", &addr_file)
        .env("GAMESWEEP_WORKER_BIN", WORKER)
        .env("GAMESWEEP_THREADS", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "sbatch workers: {}", text(&o));
    let array = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let tasks = [format!("{array}_0"), format!("{array}_1")];
    let names: Vec<String> = tasks.iter().map(|t| format!("@task-{t}")).collect();
    let identities = |s: &serde_json::Value| {
        let mut w = workers(s);
        w.sort();
        w
    };
    wait_or(
        "the two tasks to reach the coordinator as themselves",
        Duration::from_secs(60),
        || st().is_some_and(|s| identities(&s) == names),
        || format!("{:?}\n{}", st().map(|s| identities(&s)), diag()),
    );
    let asked_after = started.elapsed();
    let placed: std::collections::BTreeMap<String, String> = cluster
        .run("squeue", &["-h", "-t", "R", "-o", "%i %N"])
        .lines()
        .filter_map(|l| {
            let (id, node) = l.split_once(' ')?;
            Some((id.to_string(), node.trim().to_string()))
        })
        .collect();
    let nodes: std::collections::BTreeSet<&String> =
        tasks.iter().filter_map(|t| placed.get(t)).collect();
    assert!(
        nodes.len() == 2 && !nodes.contains(&coord_node),
        "the tasks should run on the two other nodes: {placed:?}"
    );

    // The files: one per task, 0600, nothing else left (no request, no
    // half-written file); the list of credentials is those two.
    let cred_file = |t: &str| creds.join(format!("task-{t}.token"));
    let mut files: Vec<String> = std::fs::read_dir(&creds)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let want: Vec<String> = tasks.iter().map(|t| format!("task-{t}.token")).collect();
    assert_eq!(files, want);
    for t in &tasks {
        assert_eq!(mode_of(&cred_file(t)), 0o600, "{t}");
    }
    let issued = || -> Vec<(String, bool)> {
        let list: serde_json::Value =
            serde_json::from_str(&gs(&url, &token, &["token", "list", "--json"])).unwrap();
        let mut v: Vec<(String, bool)> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    format!("@{}", c["name"].as_str().unwrap()),
                    !c["revoked_unix_ms"].is_null(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let live: Vec<(String, bool)> = names.iter().map(|n| (n.clone(), false)).collect();
    assert_eq!(issued(), live);
    // The secrets are handed over in the files only.
    let secrets: Vec<String> = tasks
        .iter()
        .map(|t| {
            std::fs::read_to_string(cred_file(t))
                .unwrap()
                .trim()
                .to_string()
        })
        .collect();
    for secret in &secrets {
        assert!(secret.len() >= 32, "{secret:?}");
        for node in ["node1", "node2", "node3"] {
            let shown = secret_shown_on(&sdir, node, secret);
            assert!(shown.is_empty(), "a secret is shown on {node}: {shown:?}");
        }
        for t in &tasks {
            let job = cluster.run("scontrol", &["show", "job", "-dd", t]);
            assert!(!job.contains(secret.as_str()), "scontrol show job {t}");
        }
    }
    eprintln!(
        "slurm per-task credentials: coordinator on {coord_node}, tasks on {placed:?}, both working as {names:?} {asked_after:.1?} after the start"
    );

    // Mid-sweep, task 1's allocation ends as at its time limit: it gives its
    // leases back, requeues itself, and comes back with the same credential.
    let sweep_start = Instant::now();
    gs(&url, &token, &["resume", "n10"]);
    wait_or(
        "some results",
        Duration::from_secs(120),
        || st().is_some_and(|s| s["sweeps"][0]["results_stored"].as_u64() >= Some(40)),
        diag,
    );
    let t1_log = dir.join(format!("w-{}.log", tasks[1]));
    let signalled = Instant::now();
    cluster.run("scancel", &["--batch", "--signal=USR1", &tasks[1]]);
    wait_or(
        "task 1 to requeue itself",
        Duration::from_secs(60),
        || {
            std::fs::read_to_string(&t1_log)
                .unwrap_or_default()
                .contains(&format!("requeueing {}", tasks[1]))
        },
        diag,
    );
    let requeued_after = signalled.elapsed();
    let at_requeue = st().unwrap();
    assert_ne!(
        at_requeue["sweeps"][0]["state"], "done",
        "requeued after the sweep: {at_requeue}"
    );
    wait_or(
        "task 1 to run again",
        Duration::from_secs(120),
        || {
            std::fs::read_to_string(&t1_log)
                .unwrap_or_default()
                .contains("(restart 1) on ")
        },
        diag,
    );
    let back_after = signalled.elapsed();
    let mut last = serde_json::Value::Null;
    wait_or(
        "the sweep to finish",
        Duration::from_secs(300),
        || {
            last = st().unwrap_or(serde_json::Value::Null);
            last["sweeps"][0]["state"] == "done"
        },
        diag,
    );
    let sweep_wall = sweep_start.elapsed();
    // Still the same two identities, and nothing issued again.
    let log1 = std::fs::read_to_string(&t1_log).unwrap_or_default();
    // Only its first run waited for a credential.
    assert_eq!(
        log1.matches("waiting up to").count(),
        1,
        "the requeued task waited for a new credential:\n{log1}"
    );
    assert_eq!(identities(&last), names, "{last}");
    let audit = gs(&url, &token, &["audit", "--json"]);
    assert_eq!(audit.matches("\"issue-credential\"").count(), 2, "{audit}");

    // The result, and how it was confirmed.
    assert_committed_result(&url, &token, dir);
    let s = &last["sweeps"][0];
    let total = s["shards_total"].as_u64().unwrap();
    let prov: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report/provenance.json")).unwrap())
            .unwrap();
    assert_eq!(
        prov["confirmation"]["confirmed_by_two_identities"], total,
        "{prov}"
    );
    let mut contributors: Vec<&String> = prov["contributors"].as_object().unwrap().keys().collect();
    contributors.sort();
    assert_eq!(contributors, names.iter().collect::<Vec<_>>(), "{prov}");

    // The tasks end by themselves (COMPLETED), remove their files, and the
    // coordinator job revokes both credentials.
    wait_or(
        "the workers to exit",
        Duration::from_secs(60),
        || !cluster.queued().iter().any(|j| j.starts_with(&array)),
        diag,
    );
    for t in &tasks {
        assert_eq!(
            cluster.job_state(t),
            Some(("COMPLETED".to_string(), "0:0".to_string())),
            "{t}: {}",
            diag()
        );
        assert!(!cred_file(t).exists(), "{t}'s credential file is left");
    }
    let revoked: Vec<(String, bool)> = names.iter().map(|n| (n.clone(), true)).collect();
    wait_or(
        "the coordinator job to revoke the ended tasks' credentials",
        Duration::from_secs(30),
        || issued() == revoked,
        || format!("{:?}\n{}", issued(), diag()),
    );
    cluster.run("scancel", &[&coordinator]);
    eprintln!(
        "slurm per-task credentials: task 1 requeued {requeued_after:.1?} after its USR1, running again after {back_after:.1?}; sweep ({total} shards, --replicate all) done {sweep_wall:.1?} after it started, every shard confirmed by two identities; leases_expired {}; passed in {:.1?}",
        s["leases_expired"],
        started.elapsed()
    );
}

/// The TCP listeners of this test's network namespace (`ss -ltnH`): their
/// local addresses (`ADDR:PORT`), and the whole `ss -ltnp` table for a
/// failure message.
fn listeners() -> (std::collections::BTreeSet<String>, String) {
    let o = Command::new("ss").arg("-ltnH").output();
    let o = match o {
        Ok(o) if o.status.success() => o,
        Ok(o) => panic!("ss -ltnH: {}", text(&o)),
        Err(e) => no_cluster(&format!("cannot run ss (iproute2): {e}")),
    };
    let set = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(3).map(str::to_string))
        .collect();
    let table = Command::new("ss")
        .arg("-ltnp")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).to_string())
        .unwrap_or_default();
    (set, table)
}

/// Is `local` (`ss`'s `ADDR:PORT`, `[V6]:PORT`, `*:PORT`) on a loopback
/// address (127.0.0.0/8, ::1)? A wildcard is not.
fn on_loopback(local: &str) -> bool {
    let Some((host, _port)) = local.rsplit_once(':') else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    // `127.0.0.53%lo`: an address bound to one interface.
    let host = host.split('%').next().unwrap_or(host);
    match host.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(ip)) => ip.is_loopback(),
        Ok(std::net::IpAddr::V6(ip)) => {
            ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
        Err(_) => false,
    }
}

#[test]
fn loopback_addresses_are_told_from_the_rest() {
    for local in [
        "127.0.0.1:6817",
        "127.0.0.53%lo:53",
        "[::1]:631",
        "[::ffff:127.0.0.1]:9",
    ] {
        assert!(on_loopback(local), "{local}");
    }
    for local in [
        "0.0.0.0:6817",
        "*:6818",
        "[::]:22",
        "10.253.7.254:1",
        "192.168.1.5:80",
        "garbage",
    ] {
        assert!(!on_loopback(local), "{local}");
    }
}

/// Regression: nothing of the local cluster listens in the namespace
/// that started it. `ss -ltn` before `up` and after `up` and a job: no new
/// listener there except on loopback, for one node and for `--nodes 2`;
/// slurmctld listens in the controller's namespace (seen through
/// `local-cluster.sh login`), and the job ran on a node, in that node's
/// namespace (its own address; slurmd's port listens there). Against the
/// script before per-node namespaces (slurmctld and slurmd on 0.0.0.0
/// here) this fails.
#[test]
#[ignore = "needs slurm"]
fn the_local_cluster_listens_only_inside_its_namespaces() {
    let _serial = crate::serial();
    for nodes in [None, Some(2)] {
        let mode = nodes.map_or("one node".to_string(), |n| format!("--nodes {n}"));
        let (before, _) = listeners();
        let started = Instant::now();
        let (tmp, cluster) = match nodes {
            None => cluster(120).unwrap_or_else(|why| no_cluster(&why)),
            Some(n) => nodes_cluster(120, n, 2),
        };
        let up_took = started.elapsed();
        let dir = tmp.path();
        // A job still runs, on a node, with that node's own address.
        let out = dir.join("job.out");
        let o = cluster
            .cmd("sbatch")
            .args(["--parsable", "--wait"])
            .arg(format!("--output={}", out.display()))
            .args([
                "--wrap",
                "echo \"node=$SLURMD_NODENAME addr=$(ip -4 -o addr show eth0 | awk '{print $4}')\"; ss -ltnH",
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{mode}: sbatch --wait: {}", text(&o));
        let (after, table) = listeners();
        let new: Vec<&String> = after
            .difference(&before)
            .filter(|l| !on_loopback(l))
            .collect();
        eprintln!(
            "slurm listeners ({mode}): up took {up_took:.1?}; {} listeners here before, {} after, new off loopback: {new:?}",
            before.len(),
            after.len()
        );
        assert!(
            new.is_empty(),
            "{mode}: the local cluster listens in the caller's network namespace on {new:?}:\n{table}"
        );
        let job = String::from_utf8_lossy(&o.stdout).trim().to_string();
        assert_eq!(
            cluster.job_state(&job),
            Some(("COMPLETED".to_string(), "0:0".to_string())),
            "{mode}: job {job}"
        );
        let job_out = std::fs::read_to_string(&out).unwrap_or_default();
        assert!(
            job_out.starts_with("node=node") && job_out.contains(" addr=10.253."),
            "{mode}: {job_out}"
        );
        // Where the Slurm ports are: the node's slurmd in the job's
        // namespace, slurmctld in the controller's.
        assert!(
            job_out.contains(":6818 "),
            "{mode}: no slurmd in the job's namespace: {job_out}"
        );
        let o = Command::new("bash")
            .arg(script("local-cluster.sh"))
            .arg("login")
            .arg(&cluster.dir)
            .args(["ss", "-ltnH"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{mode}: login ss: {}", text(&o));
        let ctl = String::from_utf8_lossy(&o.stdout).to_string();
        assert!(
            ctl.contains(":6817 "),
            "{mode}: no slurmctld in the controller's namespace: {ctl}"
        );

        let down = Instant::now();
        drop(cluster);
        eprintln!("slurm listeners ({mode}): down took {:.1?}", down.elapsed());
    }
}

/// The commands of the Slurm recipe in deploy/README.md ("Slurm: from
/// nothing to a finished sweep"), in order: the code lines (fenced blocks)
/// of each numbered step, and the inline commands of steps 2 and 6.
fn readme_slurm_steps(readme: &str) -> Vec<(u32, String)> {
    let start = readme
        .find("## Slurm: from nothing to a finished sweep")
        .expect("deploy/README.md has no section \"Slurm: from nothing to a finished sweep\"");
    let section = &readme[start..];
    let end = section
        .find("**Adding workers:**")
        .expect("the Slurm section ends at \"**Adding workers:**\"");
    let section = &section[..end];
    let mut steps = Vec::new();
    let mut step = 0;
    let mut prose = String::new();
    let mut fenced = false;
    let inline = |step: u32, prose: &str, steps: &mut Vec<(u32, String)>| {
        // Steps 2 and 6 give their commands inline, in backticks.
        let prose = prose.split_whitespace().collect::<Vec<_>>().join(" ");
        let spans: Vec<&str> = prose.split('`').skip(1).step_by(2).collect();
        match step {
            2 => steps.push((2, spans.first().expect("step 2 has a command").to_string())),
            6 => {
                for s in spans.iter().filter(|s| s.starts_with("gamesweep ")) {
                    steps.push((6, s.to_string()));
                }
            }
            _ => {}
        }
    };
    for line in section.lines() {
        if let Some((n, _)) = line
            .split_once(". **")
            .filter(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        {
            inline(step, &prose, &mut steps);
            prose.clear();
            step = n.parse().unwrap();
        }
        if step == 0 {
            continue;
        }
        let t = line.trim();
        if t.starts_with("```") {
            fenced = !fenced;
        } else if fenced {
            steps.push((step, t.to_string()));
        } else if !t.starts_with("<!--") {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    inline(step, &prose, &mut steps);
    steps
}

/// The recipe's commands are found: each step's code blocks (the fenced
/// lines, not the fences or the comments before them) and steps 2's and
/// 6's inline commands.
#[test]
fn the_readme_slurm_steps_are_read_from_its_code_blocks() {
    let readme = std::fs::read_to_string(repo().join("deploy/README.md")).unwrap();
    let steps = readme_slurm_steps(&readme);
    let of = |n: u32| -> Vec<&str> {
        steps
            .iter()
            .filter(|(s, _)| *s == n)
            .map(|(_, c)| c.as_str())
            .collect()
    };
    assert_eq!(of(1)[1], "cargo build --release", "{steps:#?}");
    assert_eq!(of(1).len(), 4, "{steps:#?}");
    assert!(of(2)[0].starts_with("mkdir -p ~/.gamesweep"), "{steps:#?}");
    assert_eq!(
        of(3).last(),
        Some(&"sbatch deploy/slurm/gamesweep-coordinator.sbatch"),
        "{steps:#?}"
    );
    assert_eq!(of(4).len(), 2, "{steps:#?}");
    assert_eq!(of(5).len(), 3, "{steps:#?}");
    assert!(
        steps
            .iter()
            .all(|(_, c)| !c.starts_with("```") && !c.starts_with("<!--")),
        "{steps:#?}"
    );
}

/// The README's Slurm recipe runs as written on the local
/// cluster, from its "login node" (`local-cluster.sh login DIR`, which the
/// README's "Trying it on one machine" says to use): the commands are taken
/// from deploy/README.md's text, so a changed command there changes what
/// runs here. Not run: `git clone` and `cargo build` (this test runs the
/// binaries cargo built). Changed, each where the README says so for the
/// local cluster: the service node's name, the store's local disk, the
/// sweep's size (`--max-n 11` takes about 12 min on two cores) and the
/// array's. The coordinator's address file names its node (`http://node1:7461`):
/// step 4's `cat` of it must work there. The sweep must finish, and the
/// report's results.json must equal a `gamesweep run` of the same sweep in
/// one process.
#[test]
#[ignore = "needs slurm"]
fn the_readme_slurm_steps_run_as_written_on_the_local_cluster() {
    let _serial = crate::serial();
    let started = Instant::now();
    let readme = std::fs::read_to_string(repo().join("deploy/README.md")).unwrap();
    let steps = readme_slurm_steps(&readme);
    let numbers: std::collections::BTreeSet<u32> = steps.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        numbers,
        (1..=6).collect(),
        "commands found per step: {steps:#?}"
    );
    // The README tells how to run these steps on the local cluster.
    let trying = readme
        .find("**Trying it on one machine:**")
        .map(|i| &readme[i..])
        .expect("deploy/README.md has no \"Trying it on one machine\"");
    let trying = &trying[..trying.find("**What is tested:**").unwrap_or(trying.len())];
    let trying_flat = trying.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        trying_flat.contains("local-cluster.sh login"),
        "\"Trying it on one machine\" does not say to use `local-cluster.sh login`:\n{trying}"
    );
    // (README text, what runs here): each must occur once, and the README's
    // "Trying it on one machine" must name the replacement.
    let local = [
        ("--max-n 11 --shards 4000", "--max-n 10 --shards 256"),
        (
            "--array=0-15 --cpus-per-task=8",
            "--array=0-1 --cpus-per-task=1",
        ),
    ];
    let skipped = ["git clone ", "cargo build --release"];
    let mut steps_sh = String::from("set -euo pipefail\n");
    let mut used = vec![0; local.len()];
    for (step, cmd) in &steps {
        if skipped.iter().any(|s| cmd.starts_with(s)) {
            steps_sh.push_str(&format!("# step {step}, not run here: {cmd}\n"));
            continue;
        }
        let mut cmd = cmd.clone();
        for (i, (from, to)) in local.iter().enumerate() {
            if cmd.contains(from) {
                used[i] += cmd.matches(from).count();
                cmd = cmd.replace(from, to);
            }
        }
        if *step == 4 && cmd.contains("GAMESWEEP_COORDINATOR=$(cat") {
            // Step 3 submitted the coordinator job: the operator waits for
            // its address file ("once it listens") before step 4.
            steps_sh.push_str(
                "for _ in $(seq 240); do [ -s \"$GAMESWEEP_COORDINATOR_FILE\" ] && break; sleep 0.5; done\n",
            );
        }
        steps_sh.push_str(&format!("# step {step}\n{cmd}\n"));
    }
    for ((from, to), n) in local.iter().zip(&used) {
        assert_eq!(
            *n, 1,
            "the README's Slurm steps should contain `{from}` once (replaced by `{to}` on the local cluster):\n{steps_sh}"
        );
        assert!(
            trying_flat.contains(&format!("`{to}`")),
            "\"Trying it on one machine\" should say to use `{to}` (for `{from}`):\n{trying}"
        );
    }
    for s in skipped {
        assert!(
            steps_sh.contains(&format!("not run here: {s}")),
            "{steps_sh}"
        );
    }
    eprintln!("slurm readme: running\n{steps_sh}");

    // Four CPUs: the coordinator job's two and the two one-CPU workers.
    let (tmp, cluster) = cluster(120).unwrap_or_else(|why| no_cluster(&why));
    let dir = tmp.path();
    // The operator's checkout (`deploy/`, and `target/release` with the
    // binaries cargo built) and home directory.
    let checkout = dir.join("gamesweep");
    std::fs::create_dir_all(checkout.join("target")).unwrap();
    std::os::unix::fs::symlink(repo().join("deploy"), checkout.join("deploy")).unwrap();
    std::os::unix::fs::symlink(
        Path::new(GS).parent().unwrap(),
        checkout.join("target/release"),
    )
    .unwrap();
    let home = dir.join("home");
    std::fs::create_dir(&home).unwrap();
    let mut child = Command::new("bash")
        .arg(script("local-cluster.sh"))
        .arg("login")
        .arg(&cluster.dir)
        .args(["bash", "-c", &steps_sh])
        .current_dir(&checkout)
        .env("HOME", &home)
        .env_remove("SLURM_CONF")
        .env_remove("GAMESWEEP_COORDINATOR")
        .env_remove("GAMESWEEP_COORDINATOR_FILE")
        .env_remove("GAMESWEEP_TOKEN_FILE")
        .env_remove("GAMESWEEP_CREDENTIALS_DIR")
        .env_remove("GAMESWEEP_CREDENTIALS")
        .env_remove("GAMESWEEP_STORE")
        .env_remove("GAMESWEEP_BIN")
        .env_remove("GAMESWEEP_WORKER_BIN")
        .stdout(std::fs::File::create(dir.join("steps.out")).unwrap())
        .stderr(std::fs::File::create(dir.join("steps.err")).unwrap())
        .spawn()
        .unwrap();
    let logs = || {
        let mut s = String::new();
        for f in ["steps.out", "steps.err"] {
            s.push_str(&format!(
                "--- {f}:\n{}\n",
                std::fs::read_to_string(dir.join(f)).unwrap_or_default()
            ));
        }
        if let Ok(rd) = std::fs::read_dir(&checkout) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if name.ends_with(".log") || name.ends_with(".out") {
                    s.push_str(&format!(
                        "--- {name}:\n{}\n",
                        std::fs::read_to_string(e.path()).unwrap_or_default()
                    ));
                }
            }
        }
        if let Ok(o) = cluster.cmd("squeue").output() {
            s.push_str(&String::from_utf8_lossy(&o.stdout));
        }
        s
    };
    let mut status = None;
    wait_or(
        "the README's steps to finish",
        Duration::from_secs(400),
        || {
            status = child.try_wait().unwrap();
            status.is_some()
        },
        // On a timeout `down` kills the steps' processes (they run in the
        // controller's namespace).
        logs,
    );
    let status = status.unwrap();
    assert!(
        status.success(),
        "the README's steps failed ({status}):\n{}",
        logs()
    );
    let steps_took = started.elapsed();

    // The address file names the coordinator's node, as on a cluster.
    let addr_file = home.join("gamesweep/coordinator.url");
    let (node, url) = coordinator_at(&cluster.dir, &addr_file).unwrap_or_else(|| {
        panic!(
            "no coordinator address in {}:\n{}",
            addr_file.display(),
            logs()
        )
    });
    assert_eq!(node, "node1", "{url}");
    let token = home.join(".gamesweep/token");
    let st = status_at(&cluster.dir, &addr_file, &token).expect("the coordinator answers");
    assert_eq!(st["sweeps"][0]["sweep_id"], "uvg11", "{st}");
    assert_eq!(st["sweeps"][0]["state"], "done", "{st}");
    // Per-task credentials, the recipe's default: the two array tasks are
    // two identities, so `launch`'s sampled verification confirms shards
    // (each new identity's results are checked by the other) and nothing
    // waits for a second identity that never comes.
    let v = &st["sweeps"][0]["verification"];
    assert_eq!(v["unverifiable"], 0, "{v}");
    assert_eq!(v["mismatched"], 0, "{v}");
    assert!(v["verified"].as_u64() >= Some(1), "{v}");
    let watched = std::fs::read_to_string(dir.join("steps.out")).unwrap();
    // `status --watch` returned once the sweep was settled: done.
    let last = watched.lines().rfind(|l| l.contains(" uvg11 "));
    assert!(
        last.is_some_and(|l| l.trim_end().ends_with("[done]")),
        "status --watch did not end with the sweep done: {last:?}\n{watched}"
    );

    // The report (step 6, into the checkout's runs/uvg11) against the same
    // sweep run in one process.
    let got = std::fs::read(checkout.join("runs/uvg11/results.json")).unwrap();
    let reference = dir.join("reference");
    let o = Command::new(GS)
        .args(["run", "uvg", "--max-n", "10", "--in-process", "--out"])
        .arg(&reference)
        .output()
        .unwrap();
    assert!(o.status.success(), "gamesweep run: {}", text(&o));
    let want = std::fs::read(reference.join("results.json")).unwrap();
    assert!(
        got == want,
        "the README's sweep gave another results.json than `gamesweep run uvg --max-n 10`"
    );
    let prov: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(checkout.join("runs/uvg11/provenance.json")).unwrap(),
    )
    .unwrap();
    let ids: Vec<&String> = prov["contributors"]
        .as_object()
        .map(|c| c.keys().collect())
        .unwrap_or_default();
    assert!(
        ids.len() == 2 && ids.iter().all(|w| w.starts_with("@task-")),
        "the array's two tasks should be two issued identities: {ids:?}"
    );
    let confirmed = prov["confirmation"]["confirmed_by_two_identities"]
        .as_u64()
        .unwrap_or(0);
    assert!(
        confirmed >= v["verified"].as_u64().unwrap_or(0) && confirmed >= 1,
        "provenance.json: {}",
        prov["confirmation"]
    );
    // Workers leave by themselves once idle; the coordinator job runs on.
    wait_or(
        "the workers to exit",
        Duration::from_secs(120),
        || cluster.queued().len() == 1,
        logs,
    );
    eprintln!(
        "slurm readme: the README's steps ran to a finished sweep in {steps_took:.1?} (cluster up included); verification {v}; {confirmed} shards confirmed by {ids:?}; passed in {:.1?}",
        started.elapsed()
    );
}
