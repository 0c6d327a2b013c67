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
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::support::harness::{BIN as GS, WORKER_BIN as WORKER};

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

use crate::support::harness::{Client, Serve};
use crate::support::proc;
use proc::Proc;

mod credentials;
mod listening;
mod nodes;
mod single_node;

/// A coordinator on the cluster's login node (`local-cluster.sh login`: the
/// controller's network namespace), on every address there (port 0), that
/// publishes its URL in `addr_file`; returns it and that URL as reachable
/// from here (its host name resolved through the cluster's hosts file).
fn coordinator_on_login(
    cluster: &Cluster,
    dir: &Path,
    token: &Path,
    addr_file: &Path,
) -> (Proc, String) {
    // `login` execs the program: the child's PID is the coordinator's.
    let sh = script("local-cluster.sh");
    let login: [&std::ffi::OsStr; 4] = [
        "bash".as_ref(),
        sh.as_os_str(),
        "login".as_ref(),
        cluster.dir.as_os_str(),
    ];
    let (proc, _) = Serve::new(&dir.join("store"))
        .wrap(&login)
        .bin(GS)
        .listen_on("0.0.0.0")
        .token_file(token)
        .args(&["--lease-secs", "10", "--log-format", "json"])
        .address_file(addr_file)
        .log(&dir.join("serve.log"))
        .start()
        .into_parts();
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
    "--replicate-fraction",
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
    Client::new(url)
        .token(token)
        .ok(&["report", id, "--out", out.to_str().unwrap()]);
    let got = std::fs::read(out.join("results.json")).unwrap();
    let want = std::fs::read(repo().join("runs/uvg-n10/results.json")).unwrap();
    assert!(
        got == want,
        "results.json of {id} differs from runs/uvg-n10/results.json"
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
