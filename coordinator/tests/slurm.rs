//! The Slurm path end to end, on a real single-node Slurm cluster brought up
//! by `deploy/slurm/local-cluster.sh` (as root; it installs Debian's
//! slurm-wlm and munge with apt-get if they are missing).
//!
//! A coordinator runs directly (not under Slurm); the workers run as Slurm
//! jobs through `deploy/slurm/gamesweep-workers.sbatch`. During the uvg
//! n ≤ 10 sweep one array task is pre-empted with `scancel --signal=TERM`,
//! one job reaches its time limit (`--time=1 --signal=TERM@20`), and a later
//! array finishes the sweep. The result must equal the committed
//! `runs/uvg-n10/results.json`, no shard may have waited for a lease to
//! expire, and both signalled jobs must have drained and ended COMPLETED 0:0.
//!
//! Without root, apt-get or a working cluster the test prints
//! `SKIP: slurm test: ...` and passes, unless GAMESWEEP_REQUIRE_CLUSTER=1
//! (CI), where it fails. Every wait is bounded; the cluster's daemons and
//! the coordinator are stopped by PID on every exit path.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
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

/// No cluster: skip visibly, or fail under GAMESWEEP_REQUIRE_CLUSTER=1.
fn skip(why: &str) {
    if std::env::var("GAMESWEEP_REQUIRE_CLUSTER").as_deref() == Ok("1") {
        panic!("slurm test: {why} (GAMESWEEP_REQUIRE_CLUSTER=1)");
    }
    eprintln!("SKIP: slurm test: {why}");
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
    fn up(dir: &Path) -> Result<Cluster, String> {
        let o = Command::new("bash")
            .arg(script("local-cluster.sh"))
            .args(["up", dir.to_str().unwrap()])
            // Four CPUs on a two-core machine: three workers of one CPU run
            // at once (the coordinator and Slurm itself need little).
            .env("LOCAL_SLURM_CPUS", "4")
            .env_remove("SLURM_CONF")
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

/// Kills the child on drop, so a failing test leaves no process behind.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A coordinator on 127.0.0.1 (port 0) that publishes its URL in `addr_file`.
fn serve(dir: &Path, token: &Path, addr_file: &Path) -> (Proc, String) {
    let child = Command::new(GS)
        .args(["serve", "--listen", "127.0.0.1:0", "--store"])
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
    let mut url = String::new();
    wait_for(
        "the coordinator's address file",
        Duration::from_secs(20),
        || {
            let s = std::fs::read_to_string(addr_file).unwrap_or_default();
            url = s.lines().next().unwrap_or("").to_string();
            !url.is_empty()
        },
    );
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
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
fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
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

#[test]
fn workers_under_slurm_survive_preemption_and_time_limits() {
    let started = Instant::now();
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root {
        return skip("not root (local-cluster.sh must start slurmd and munged)");
    }
    let tmp = tempfile::tempdir().unwrap();
    // munged (user munge) must reach the cluster directory inside.
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
    }
    let dir = tmp.path();
    let cluster = match Cluster::up(&dir.join("slurm")) {
        Ok(c) => c,
        Err(why) => return skip(&why),
    };
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
    assert!(err.contains("token"), "{err}");

    let token = dir.join("token");
    std::fs::write(&token, "slurm-test-token\n").unwrap();
    let addr_file = dir.join("coordinator.url");
    let (_coordinator, url) = serve(dir, &token, &addr_file);
    let id = gs(
        &url,
        &token,
        &[
            "launch",
            "uvg",
            "--max-n",
            "10",
            "--collect-min-value",
            "5",
            "--shards",
            "256",
            "--name",
            "n10",
        ],
    );
    assert_eq!(id.trim(), "n10");

    // Workers: one CPU, one thread each, the address from the file.
    // A worker that starts after the sweep is done waits 3 s, not 60.
    let worker_args = ["--idle-grace", "3"];
    let sbatch = |opts: &[&str], log: &str| -> String {
        let o = cluster
            .cmd("sbatch")
            .args(["--parsable", "--cpus-per-task=1"])
            .args(opts)
            .arg(format!("--output={}", dir.join(log).display()))
            .arg(script("gamesweep-workers.sbatch"))
            .args(&worker_args)
            .env_remove("GAMESWEEP_COORDINATOR")
            .env("GAMESWEEP_COORDINATOR_FILE", &addr_file)
            .env("GAMESWEEP_TOKEN_FILE", &token)
            .env("GAMESWEEP_WORKER_BIN", WORKER)
            .env("GAMESWEEP_THREADS", "1")
            .output()
            .unwrap();
        assert!(o.status.success(), "sbatch {opts:?}: {}", text(&o));
        let out = String::from_utf8(o.stdout).unwrap();
        out.trim().split(';').next().unwrap().to_string()
    };
    let sweep_start = Instant::now();
    let a = sbatch(&["--array=0-1"], "a-%A_%a.log");
    // The time-limited job: SIGTERM 20 s before its one-minute limit (Slurm
    // checks time limits about every 30 s, so 10–40 s after its start).
    let t = sbatch(&["--time=1", "--signal=TERM@20"], "t-%j.log");
    let a0 = format!("{a}_0");

    // Pre-empt a0 once it has been working for a while.
    let mut a0_seen = None;
    wait_for("worker a0 to run shards", Duration::from_secs(90), || {
        let st = status(&url, &token, "n10");
        if a0_seen.is_none() && workers(&st).iter().any(|w| w.starts_with(&a0)) {
            a0_seen = Some(Instant::now());
        }
        a0_seen.is_some_and(|t| t.elapsed() > Duration::from_secs(15))
            && st["sweeps"][0]["shards_done"].as_u64().unwrap_or(0) >= 5
    });
    cluster.run("scancel", &["--signal=TERM", &a0]);
    eprintln!(
        "slurm test: {a0} pre-empted {:.1?} after sbatch",
        sweep_start.elapsed()
    );
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
    let out = dir.join("report");
    gs(
        &url,
        &token,
        &["report", "n10", "--out", out.to_str().unwrap()],
    );
    let got = std::fs::read(out.join("results.json")).unwrap();
    let want = std::fs::read(repo().join("runs/uvg-n10/results.json")).unwrap();
    assert!(
        got == want,
        "results.json differs from runs/uvg-n10/results.json"
    );

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
