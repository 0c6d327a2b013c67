//! The container image of `deploy/container/`, built and run with podman.
//!
//! `build-image.sh` makes the image (FROM scratch: the two binaries this
//! test binary was built with, the libraries they link, a passwd entry for
//! the user gamesweep, /tmp and /data) and saves it as a docker-archive; the
//! image is removed and loaded back from that file, as a user who ships it
//! to another machine would. A coordinator container and two worker
//! containers then run on a podman bridge network, the workers finding the
//! coordinator by its container name (podman's DNS, through the image's
//! glibc and nsswitch.conf), the token bind-mounted read-only:
//!
//! 1. a uvg n ≤ 9 sweep launched once both workers are connected, whose
//!    `results.json` (fetched with this build's `gamesweep report` from
//!    outside the containers) must equal the committed
//!    `runs/uvg/results.json` of the in-process run; both workers then leave
//!    by themselves (`--exit-when-idle`) with status 0;
//! 2. a uvg n ≤ 10 sweep (`--collect-min-value 5`, golden
//!    `runs/uvg-n10/results.json`; long enough to kill a worker in the
//!    middle of it): worker 1 is killed with `podman kill` (SIGKILL) while
//!    the coordinator sees it hold a lease, worker 2 starts, and the sweep
//!    must still finish, with the dead worker's lease expired and handed
//!    out again, and give the golden result.
//!
//! The coordinator runs with the Kubernetes manifest's arguments (plus a
//! 3 s lease), and the manifest must name the image, the worker's path and
//! the user this image has.
//!
//! Nothing of podman's touches the host's state. Every podman command runs
//! inside one network namespace and one mount namespace that the test makes
//! (`unshare --net --mount`, held by a `sleep` child, entered with
//! `nsenter`): the bridge, its firewall rules and podman's DNS server live
//! in that network namespace only, and fresh tmpfs mounts on /run and
//! /dev/shm there hold what rootful podman keeps in fixed system places
//! (`/run/containers/networks`, runc's state, the containers' network
//! namespaces, the `/dev/shm/libpod_lock` segment). The image store, the
//! network definitions and podman's temporary files are under the test's
//! temporary directory (`--root`, `--runroot`, `--tmpdir`,
//! `--network-config-dir`), with the settings that work on this VM and on
//! CI, spelled out rather than taken from a system `containers.conf`:
//! `vfs` storage (no overlay mounts), `cgroupfs` (no systemd), the `file`
//! events backend, netavark, and the runc runtime, because crun (podman's
//! first choice) refuses hybrid cgroup hierarchies ("cgroups in hybrid mode
//! not supported"), which this VM has. The containers' open-file and
//! process limits are set at most to this process's own hard limits:
//! podman's defaults (1,048,576 files) are above them here and raising a
//! limit needs CAP_SYS_RESOURCE, which this VM's root lacks.
//!
//! On every exit, panics included, the containers, the network and every
//! process left in the namespace are removed (by PID, only processes inside
//! this test's namespace), the holder is killed and the directory deleted.
//!
//! `#[ignore = "needs podman"]` (and runc, netavark, aardvark-dns, which
//! `.ci/run` installs with it); without them, or without root, the test
//! fails, saying why. Every wait is bounded.

use crate::support::harness::{Client, BIN, WORKER_BIN};
use crate::support::proc::{self, Proc};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The network, its subnet and the coordinator's fixed address on it. The
/// subnet exists only in the test's own network namespace.
const NETWORK: &str = "gamesweep-test";
const SUBNET: &str = "10.253.0.0/24";
const COORDINATOR_IP: &str = "10.253.0.2";
const COORDINATOR_URL: &str = "http://10.253.0.2:7461";
/// The workers reach the coordinator by container name.
const COORDINATOR_BY_NAME: &str = "http://coordinator:7461";
const TAG: &str = "localhost/gamesweep:test";
const LEASE_SECS: &str = "3";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Not able to run here: the test fails, saying why.
fn no_podman(why: &str) -> ! {
    proc::missing(
        "the container test",
        "podman (with runc, netavark and aardvark-dns) and root",
        why,
    )
}

fn text(o: &Output) -> String {
    format!(
        "{}; stdout: {}; stderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stdout).trim(),
        String::from_utf8_lossy(&o.stderr).trim()
    )
}

/// Run `cmd`: its stdout, or the whole story on failure.
fn output(cmd: &mut Command) -> Result<String, String> {
    let o = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{cmd:?} cannot run: {e}"))?;
    if o.status.success() {
        Ok(String::from_utf8_lossy(&o.stdout).into_owned())
    } else {
        Err(format!("{cmd:?} failed: {}", text(&o)))
    }
}

/// This process's hard limit `name` ("Max open files", "Max processes").
fn hard_limit(name: &str) -> u64 {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("no `{name}` in /proc/self/limits"));
    let hard = line[name.len()..].split_whitespace().nth(1).unwrap();
    hard.parse().unwrap_or(u64::MAX) // "unlimited"
}

/// The network namespace of `pid` (`net:[INODE]`), if it still runs.
fn net_ns(pid: &str) -> Option<PathBuf> {
    std::fs::read_link(format!("/proc/{pid}/ns/net")).ok()
}

/// A network and mount namespace of the test's own with a private podman
/// in it; everything is removed on drop.
struct Sandbox {
    holder: Proc,
    holder_pid: String,
    dir: tempfile::TempDir,
    /// Containers started, for their logs if the test fails.
    containers: Vec<String>,
}

impl Sandbox {
    fn new() -> Sandbox {
        let uid = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("Uid:"))
                    .and_then(|l| l.split_whitespace().nth(2).map(str::to_string))
            });
        if uid.as_deref() != Some("0") {
            no_podman("not root (the test makes network and mount namespaces)");
        }
        for (program, arg) in [
            ("podman", "--version"),
            ("runc", "--version"),
            ("nsenter", "--version"),
            ("unshare", "--version"),
        ] {
            if let Err(e) = output(Command::new(program).arg(arg)) {
                no_podman(&format!("`{program}` does not run: {e}"));
            }
        }
        for helper in ["/usr/lib/podman/netavark", "/usr/lib/podman/aardvark-dns"] {
            if !Path::new(helper).exists() {
                no_podman(&format!(
                    "{helper} is missing (Debian's netavark, aardvark-dns)"
                ));
            }
        }
        let dir = tempfile::tempdir().unwrap();
        // /run and /dev/shm are covered in the namespace: the directory must
        // live elsewhere.
        let d = dir.path().to_str().unwrap().to_string();
        assert!(
            !d.starts_with("/run/") && !d.starts_with("/dev/shm/"),
            "TMPDIR must not be under /run or /dev/shm: {d}"
        );
        let child = Command::new("unshare")
            .args(["--net", "--mount", "--propagation", "private"])
            .args(["sleep", "3600"])
            .stdin(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| no_podman(&format!("unshare cannot run: {e}")));
        let holder_pid = child.id().to_string();
        let mut sb = Sandbox {
            holder: Proc(child),
            holder_pid,
            dir,
            containers: Vec::new(),
        };
        // unshare has made the namespaces once its network namespace is no
        // longer ours.
        let ours = net_ns("self");
        let deadline = Instant::now() + Duration::from_secs(10);
        while net_ns(&sb.holder_pid) == ours {
            if let Some(st) = sb.holder.0.try_wait().unwrap() {
                no_podman(&format!("`unshare --net --mount` exited ({st})"));
            }
            assert!(Instant::now() < deadline, "unshare made no namespace");
            std::thread::sleep(Duration::from_millis(20));
        }
        for args in [
            &[
                "mount",
                "-t",
                "tmpfs",
                "-o",
                "mode=0755",
                "gamesweep-run",
                "/run",
            ][..],
            &["mkdir", "-p", "/run/netns", "/run/lock"],
            &[
                "mount",
                "-t",
                "tmpfs",
                "-o",
                "mode=1777",
                "gamesweep-shm",
                "/dev/shm",
            ],
            &["ip", "link", "set", "lo", "up"],
        ] {
            if let Err(e) = output(sb.inside(args[0]).args(&args[1..])) {
                no_podman(&format!("cannot set up the namespaces: {e}"));
            }
        }
        std::fs::write(sb.token(), "container-test-token\n").unwrap();
        // Read by the containers' user (10001) through a bind mount.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(sb.token(), std::fs::Permissions::from_mode(0o644)).unwrap();
        sb
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn token(&self) -> PathBuf {
        self.path("token")
    }

    /// `program` run inside the test's network and mount namespaces.
    fn inside(&self, program: &str) -> Command {
        let mut c = Command::new("nsenter");
        c.args(["--target", &self.holder_pid, "--net", "--mount", program])
            .env_remove("GAMESWEEP_COORDINATOR")
            .env_remove("GAMESWEEP_TOKEN_FILE")
            .stdin(Stdio::null());
        c
    }

    /// podman's global options: a private store and the settings that work
    /// here (see the module's comment).
    fn podman_options(&self) -> Vec<String> {
        let p = |n: &str| self.path("podman").join(n).to_str().unwrap().to_string();
        [
            "--root",
            &p("root"),
            "--runroot",
            &p("run"),
            "--tmpdir",
            &p("tmp"),
            "--network-config-dir",
            &p("net"),
            "--storage-driver",
            "vfs",
            "--cgroup-manager",
            "cgroupfs",
            "--events-backend",
            "file",
            "--network-backend",
            "netavark",
            "--runtime",
            "runc",
        ]
        .map(str::to_string)
        .to_vec()
    }

    fn podman(&self, args: &[&str]) -> Command {
        let mut c = self.inside("podman");
        c.args(self.podman_options()).args(args);
        c
    }

    fn podman_ok(&self, args: &[&str]) -> String {
        output(&mut self.podman(args)).unwrap_or_else(|e| panic!("{e}"))
    }

    /// `podman run -d` of the image on the network, the token mounted at
    /// /etc/gamesweep/token, with `extra` options before the image and
    /// `args` after it.
    fn run(&mut self, name: &str, extra: &[&str], args: &[&str]) {
        let token = format!("{}:/etc/gamesweep/token:ro", self.token().display());
        let nofile = hard_limit("Max open files").min(4096);
        let nproc = hard_limit("Max processes").min(4096);
        let (nofile, nproc) = (
            format!("nofile={nofile}:{nofile}"),
            format!("nproc={nproc}:{nproc}"),
        );
        let mut all = vec![
            "run",
            "-d",
            "--name",
            name,
            "--network",
            NETWORK,
            "--ulimit",
            &nofile,
            "--ulimit",
            &nproc,
            "-v",
            &token,
            "-e",
        ];
        all.push("GAMESWEEP_TOKEN_FILE=/etc/gamesweep/token");
        all.extend_from_slice(extra);
        all.push(TAG);
        all.extend_from_slice(args);
        self.podman_ok(&all);
        self.containers.push(name.to_string());
    }

    /// A worker container: one thread, id `id`, leaving when idle.
    fn worker(&mut self, name: &str, id: &str) {
        let url = format!("GAMESWEEP_COORDINATOR={COORDINATOR_BY_NAME}");
        self.run(
            name,
            &["--entrypoint", WORKER_PATH, "-e", &url],
            &[
                "--threads",
                "1",
                "--id",
                id,
                "--exit-when-idle",
                "--idle-grace",
                "60",
            ],
        );
    }

    /// (status, exit code) of a container.
    fn state(&self, name: &str) -> (String, i64) {
        let out = self.podman_ok(&[
            "inspect",
            "--format",
            "{{.State.Status}} {{.State.ExitCode}}",
            name,
        ]);
        let (status, code) = out.trim().split_once(' ').unwrap();
        (status.to_string(), code.parse().unwrap())
    }

    /// Wait (bounded) for a container to exit; its exit code.
    fn wait_exit(&self, name: &str, limit: Duration) -> i64 {
        let deadline = Instant::now() + limit;
        loop {
            let (status, code) = self.state(name);
            if status == "exited" {
                return code;
            }
            assert!(
                Instant::now() < deadline,
                "container {name} still {status} after {limit:?}: {}",
                self.logs(name)
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn logs(&self, name: &str) -> String {
        let o = self.podman(&["logs", name]).output();
        o.map(|o| {
            let all = format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            let lines: Vec<&str> = all.lines().collect();
            lines[lines.len().saturating_sub(30)..].join("\n")
        })
        .unwrap_or_else(|e| e.to_string())
    }

    /// This build's `gamesweep` CLI against the coordinator container, from
    /// the namespace (outside the containers).
    fn client(&self) -> Client {
        Client::new(COORDINATOR_URL).token(&self.token()).wrap(&[
            "nsenter",
            "--target",
            &self.holder_pid,
            "--net",
            "--mount",
        ])
    }

    /// `status ID --json`: the sweep and the workers.
    fn sweep_and_workers(&self, id: &str) -> (Value, Vec<Value>) {
        let v = self.client().status_whole(id);
        let workers = v["workers"].as_array().cloned().unwrap_or_default();
        (v["sweeps"][0].clone(), workers)
    }

    /// Shards the coordinator sees worker `id` hold.
    fn held_by(&self, sweep: &str, id: &str) -> u64 {
        let (_, workers) = self.sweep_and_workers(sweep);
        workers
            .iter()
            .find(|w| w["worker_id"] == id)
            .and_then(|w| w["shards_held"].as_u64())
            .unwrap_or(0)
    }

    fn wait_done(&self, id: &str, limit: Duration) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            let (s, _) = self.sweep_and_workers(id);
            if s["state"] == "done" {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "sweep {id} not done after {limit:?}: {s}\ncoordinator:\n{}",
                self.logs("coordinator")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// `report ID --out DIR`'s results.json.
    fn results(&self, id: &str) -> String {
        let out = self.path(&format!("report-{id}"));
        self.client()
            .ok(&["report", id, "--out", out.to_str().unwrap()]);
        std::fs::read_to_string(out.join("results.json")).unwrap()
    }

    /// Processes in the test's network namespace other than the holder.
    fn strays(&self) -> Vec<String> {
        let Some(ns) = net_ns(&self.holder_pid) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let pid = e.file_name().to_string_lossy().into_owned();
            if pid.bytes().all(|b| b.is_ascii_digit())
                && pid != self.holder_pid
                && net_ns(&pid).as_ref() == Some(&ns)
            {
                out.push(pid);
            }
        }
        out
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let keep = std::env::temp_dir()
                .join(format!("gamesweep-container-test-{}", std::process::id()));
            let _ = std::fs::create_dir_all(&keep);
            for c in &self.containers {
                let _ = std::fs::write(keep.join(format!("{c}.log")), self.logs(c));
            }
            eprintln!("container test failed; logs kept in {}", keep.display());
        }
        for args in [
            &["rm", "--force", "--all", "--time", "0"][..],
            &["network", "rm", "--force", NETWORK],
            &["rmi", "--all", "--force"],
        ] {
            if let Err(e) = output(&mut self.podman(args)) {
                eprintln!("cleanup: {e}");
            }
        }
        // Whatever podman left in the namespace (conmon, aardvark-dns) is
        // this test's: kill it by PID.
        for _ in 0..50 {
            let strays = self.strays();
            if strays.is_empty() {
                break;
            }
            eprintln!("cleanup: killing processes left in the namespace: {strays:?}");
            for pid in &strays {
                let _ = Command::new("kill").args(["-KILL", pid]).status();
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        // The holder goes with `self.holder`, the directory with `self.dir`.
    }
}

/// Where the image has the worker (and the manifest says so).
const WORKER_PATH: &str = "/usr/local/bin/gamesweep-worker";

/// The Kubernetes manifest runs this image: its tag (the build script's
/// default), the worker's path and the image's user.
fn check_manifest(user: &str) -> Vec<String> {
    let yaml = std::fs::read_to_string(repo().join("deploy/kubernetes/gamesweep.yaml")).unwrap();
    let images: Vec<&str> = yaml
        .lines()
        .filter_map(|l| l.trim().strip_prefix("image: "))
        .collect();
    assert_eq!(
        images,
        ["gamesweep:latest", "gamesweep:latest"],
        "manifest images"
    );
    let script = std::fs::read_to_string(repo().join("deploy/container/build-image.sh")).unwrap();
    assert!(
        script.contains("\ntag=gamesweep:latest\n"),
        "build-image.sh's default tag is the manifest's image"
    );
    assert!(
        yaml.contains(&format!("command: [\"{WORKER_PATH}\"]")),
        "the manifest's worker command is {WORKER_PATH}"
    );
    let uid = user.split(':').next().unwrap();
    assert_eq!(
        yaml.matches(&format!("runAsUser: {uid}")).count(),
        2,
        "both pods run as the image's user {user}"
    );
    // The coordinator's args, as the test runs them.
    let line = yaml
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("args: [\"serve\""))
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    let inner = line
        .split_once('[')
        .and_then(|(_, r)| r.split_once(']'))
        .map(|(a, _)| a)
        .unwrap_or_else(|| panic!("no coordinator args in the manifest: {line}"));
    inner
        .split(',')
        .map(|a| a.trim().trim_matches('"').to_string())
        .collect()
}

#[test]
#[ignore = "needs podman"]
fn container_image_runs_a_sweep_on_a_podman_network_and_outlives_a_killed_worker() {
    let _serial = crate::serial();
    let mut sb = Sandbox::new();
    let started = Instant::now();
    let bin_dir = Path::new(BIN).parent().unwrap();
    assert_eq!(Path::new(WORKER_BIN).parent().unwrap(), bin_dir);

    // Build, save, remove, load back.
    let engine = std::iter::once(format!(
        "nsenter --target {} --net --mount podman",
        sb.holder_pid
    ))
    .chain(sb.podman_options())
    .collect::<Vec<_>>()
    .join(" ");
    let archive = sb.path("gamesweep-image.tar");
    let t = Instant::now();
    let built = output(
        Command::new(repo().join("deploy/container/build-image.sh"))
            .args(["--bin-dir", bin_dir.to_str().unwrap(), "--tag", TAG])
            .arg("--save")
            .arg(&archive)
            .env("ENGINE", &engine),
    );
    let build_secs = t.elapsed().as_secs_f64();
    let built = built.unwrap_or_else(|e| panic!("build-image.sh: {e}"));
    assert!(built.contains(&format!("built {TAG}")), "{built}");
    sb.podman_ok(&["rmi", TAG]);
    let t = Instant::now();
    sb.podman_ok(&["load", "--input", archive.to_str().unwrap()]);
    let load_secs = t.elapsed().as_secs_f64();
    let inspect = sb.podman_ok(&[
        "image",
        "inspect",
        "--format",
        "{{.Size}} {{.Config.User}} {{len .RootFS.Layers}}",
        TAG,
    ]);
    let mut it = inspect.split_whitespace();
    let size: u64 = it.next().unwrap().parse().unwrap();
    let user = it.next().unwrap().to_string();
    let layers = it.next().unwrap().to_string();
    let archive_bytes = std::fs::metadata(&archive).unwrap().len();
    let binaries =
        std::fs::metadata(BIN).unwrap().len() + std::fs::metadata(WORKER_BIN).unwrap().len();
    eprintln!(
        "container: image built in {build_secs:.1} s (build-image.sh, saved to a docker-archive), loaded back in {load_secs:.1} s; \
         {size} bytes ({:.1} MiB, {layers} layers; the binaries {:.1} MiB), archive {:.1} MiB, user {user}",
        size as f64 / 1048576.0,
        binaries as f64 / 1048576.0,
        archive_bytes as f64 / 1048576.0,
    );
    assert_eq!(user, "10001:10001");
    // The binaries, their libraries and a few small files: nothing else.
    assert!(
        size < binaries + 8 * 1048576,
        "the image ({size} bytes) holds more than the binaries ({binaries}) and their libraries"
    );
    let version = sb.podman_ok(&[
        "run",
        "--rm",
        "--network",
        "none",
        "--ulimit",
        "nofile=1024:1024",
        "--ulimit",
        "nproc=1024:1024",
        TAG,
        "--version",
    ]);
    let host_version = output(Command::new(BIN).arg("--version")).unwrap();
    assert_eq!(
        version, host_version,
        "the image's gamesweep is this build's"
    );

    let serve_args = check_manifest(&user);
    let mut serve: Vec<&str> = serve_args.iter().map(String::as_str).collect();
    assert_eq!(
        serve[..3],
        ["serve", "--listen", "0.0.0.0:7461"],
        "{serve:?}"
    );
    serve.extend(["--lease-secs", LEASE_SECS]);
    sb.podman_ok(&["network", "create", "--subnet", SUBNET, NETWORK]);
    sb.run("coordinator", &["--ip", COORDINATOR_IP], &serve);
    // The bridge exists in the test's network namespace, not the host's.
    let bridge = sb.podman_ok(&[
        "network",
        "inspect",
        "--format",
        "{{.NetworkInterface}}",
        NETWORK,
    ]);
    let bridge = bridge.trim();
    assert!(!bridge.is_empty(), "network {NETWORK} has no bridge");
    output(sb.inside("ip").args(["link", "show", bridge]))
        .unwrap_or_else(|e| panic!("no bridge {bridge} in the namespace: {e}"));
    assert!(
        !Path::new("/sys/class/net").join(bridge).exists(),
        "podman's bridge {bridge} appeared in the host's network namespace"
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    while !sb.client().gs(&["status", "--json"]).status.success() {
        let (status, _) = sb.state("coordinator");
        assert!(
            status == "running" && Instant::now() < deadline,
            "the coordinator container ({status}) does not answer: {}",
            sb.logs("coordinator")
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    // 1. uvg n ≤ 9 on two worker containers, both connected before the
    // launch (the sweep is too short for a second worker started after it
    // to find any work left).
    sb.worker("worker1", "w1");
    sb.worker("worker2", "w2");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let out = sb.client().ok(&["status", "--json"]);
        let v: Value = serde_json::from_str(&out).unwrap();
        let seen = |id: &str| {
            v["workers"]
                .as_array()
                .is_some_and(|ws| ws.iter().any(|w| w["worker_id"] == id))
        };
        if seen("w1") && seen("w2") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the worker containers did not reach the coordinator: {out}\nworker1:\n{}\nworker2:\n{}",
            sb.logs("worker1"),
            sb.logs("worker2")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let t = Instant::now();
    let id = sb.client().ok(&[
        "launch",
        "uvg",
        "--max-n",
        "9",
        "--replicate-fraction",
        "0",
        "--name",
        "c9",
    ]);
    assert_eq!(id.trim(), "c9");
    let s = sb.wait_done("c9", Duration::from_secs(300));
    let sweep9 = t.elapsed().as_secs_f64();
    assert_eq!(s["results_stored"], s["shards_total"], "{s}");
    let golden9 = std::fs::read_to_string(repo().join("runs/uvg/results.json")).unwrap();
    assert!(
        sb.results("c9") == golden9,
        "uvg n <= 9 in containers: results.json differs from runs/uvg/results.json"
    );
    for name in ["worker1", "worker2"] {
        let code = sb.wait_exit(name, Duration::from_secs(120));
        assert_eq!(code, 0, "{name} exit code: {}", sb.logs(name));
    }
    eprintln!(
        "container: uvg n<=9, {} shards, 2 worker containers x 1 thread: done {sweep9:.1} s after the launch; results.json = runs/uvg",
        s["shards_total"]
    );

    // 2. uvg n ≤ 10 with worker 1 killed (SIGKILL) while it holds a lease.
    let id = sb.client().ok(&[
        "launch",
        "uvg",
        "--max-n",
        "10",
        "--collect-min-value",
        "5",
        "--shards",
        "64",
        "--replicate-fraction",
        "0",
        "--name",
        "k10",
    ]);
    assert_eq!(id.trim(), "k10");
    let t = Instant::now();
    let mut killed = None;
    for attempt in 1..=5 {
        let (name, wid) = (format!("worker1-{attempt}"), format!("w1-{attempt}"));
        sb.worker(&name, &wid);
        let deadline = Instant::now() + Duration::from_secs(120);
        while sb.held_by("k10", &wid) == 0 {
            assert!(
                Instant::now() < deadline,
                "{wid} never held a shard: {}",
                sb.logs(&name)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        sb.podman_ok(&["kill", &name]);
        let at = Instant::now();
        assert_eq!(sb.wait_exit(&name, Duration::from_secs(30)), 137, "SIGKILL");
        // Between our look and the kill it may have submitted its shard and
        // not yet leased the next: then it held nothing, so try again.
        let held = sb.held_by("k10", &wid);
        let (s, _) = sb.sweep_and_workers("k10");
        if held > 0 && s["state"] != "done" {
            killed = Some((at, held, s));
            break;
        }
    }
    let (killed_at, held, at_kill) = killed.expect("no worker 1 was killed holding a lease");
    eprintln!(
        "container: worker 1 killed {:.1} s into the n<=10 sweep holding {held} lease(s); {} of {} shards done",
        t.elapsed().as_secs_f64() - killed_at.elapsed().as_secs_f64(),
        at_kill["shards_done"],
        at_kill["shards_total"],
    );
    sb.worker("worker2-k", "w2-k");
    let s = sb.wait_done("k10", Duration::from_secs(600));
    let after_kill = killed_at.elapsed().as_secs_f64();
    let sweep10 = t.elapsed().as_secs_f64();
    assert_eq!(s["results_stored"], s["shards_total"], "{s}");
    assert!(
        s["leases_expired"].as_u64().unwrap() >= 1,
        "the dead worker's lease was not expired and handed out again: {s}"
    );
    let golden10 = std::fs::read_to_string(repo().join("runs/uvg-n10/results.json")).unwrap();
    assert!(
        sb.results("k10") == golden10,
        "uvg n <= 10 with a killed worker: results.json differs from runs/uvg-n10/results.json"
    );
    assert_eq!(sb.wait_exit("worker2-k", Duration::from_secs(120)), 0);
    eprintln!(
        "container: uvg n<=10 (--collect-min-value 5), {} shards: done {after_kill:.1} s after the kill ({sweep10:.1} s in all), leases_expired {}; results.json = runs/uvg-n10",
        s["shards_total"], s["leases_expired"]
    );
    eprintln!(
        "container: test took {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
