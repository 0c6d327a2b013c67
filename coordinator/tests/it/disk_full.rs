//! A full disk under a real `gamesweep serve`: its store on a 20 MB tmpfs
//! (mounted in a private mount namespace: `unshare --mount`, so nothing is
//! left mounted on the host), a filler file eating the space, two workers
//! running uvg n ≤ 9. While the disk is full gRPC health says NOT_SERVING,
//! `status` (text and `--json`) says "store writes failing: …", the error
//! is logged once, and no result is acknowledged; once the filler is
//! deleted writes resume without a restart and the sweep ends with the
//! `results.json` of the committed run (`runs/uvg`, uvg n ≤ 9).
//!
//! Needs root (a tmpfs mount in a private mount namespace): the test is
//! `#[ignore = "needs root"]`, and fails without root when it runs
//! (`-- --include-ignored`, as `.ci/run` does as root).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../runs/uvg/results.json");

use crate::support::harness::{Client, Coordinator, Serve, Worker};
use crate::support::proc::{self, Proc};

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Whether a private mount namespace with a tmpfs can be made here.
fn tmpfs_works(dir: &Path) -> Result<(), String> {
    let mnt = dir.join("probe");
    std::fs::create_dir_all(&mnt).map_err(|e| e.to_string())?;
    let o = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "--"])
        .args([
            "sh",
            "-c",
            "mount -t tmpfs -o size=1m gamesweep-probe \"$1\"",
        ])
        .arg("sh")
        .arg(&mnt)
        .output()
        .map_err(|e| format!("unshare: {e}"))?;
    match o.status.success() {
        true => Ok(()),
        false => Err(String::from_utf8_lossy(&o.stderr).trim().to_string()),
    }
}

struct Setup {
    dir: tempfile::TempDir,
    /// Where the tmpfs is mounted (inside the coordinator's namespace).
    mnt: PathBuf,
    address: PathBuf,
    coordinator: Coordinator,
}

impl Setup {
    /// `gamesweep serve` with its store on a 20 MB tmpfs of its own.
    fn start() -> Setup {
        let needs = "root (a private tmpfs mount)";
        if !is_root() {
            proc::missing(
                "disk_full",
                needs,
                "not root (a tmpfs mount needs CAP_SYS_ADMIN)",
            );
        }
        let dir = tempfile::tempdir().unwrap();
        if let Err(why) = tmpfs_works(dir.path()) {
            proc::missing(
                "disk_full",
                needs,
                &format!("cannot mount a private tmpfs: {why}"),
            );
        }
        let mnt = dir.path().join("mnt");
        std::fs::create_dir_all(&mnt).unwrap();
        let address = dir.path().join("address");
        // `unshare` and `sh` exec into each other: the child's PID is the
        // coordinator's, and /proc/PID/root shows its namespace's tmpfs.
        let mount = format!(
            "mount -t tmpfs -o size=20m gamesweep-disk-full '{}'",
            mnt.display()
        );
        let coordinator = Serve::new(&mnt.join("store"))
            .wrap(&["unshare", "--mount", "--propagation", "private", "--"])
            .sh_prefix(&mount)
            .args(&["--lease-secs", "2"])
            .address_file(&address)
            .log(&dir.path().join("serve.log"))
            .env_remove("RUST_LOG")
            .limit(Duration::from_secs(30))
            .start();
        Setup {
            dir,
            mnt,
            address,
            coordinator,
        }
    }

    /// The tmpfs as the test (outside the namespace) reaches it.
    fn disk(&self) -> PathBuf {
        let inside = self.mnt.strip_prefix("/").unwrap();
        PathBuf::from(format!("/proc/{}/root", self.coordinator.pid())).join(inside)
    }

    /// Client commands to the coordinator.
    fn client(&self) -> Client {
        self.coordinator.client()
    }

    fn worker(&self, id: &str) -> Proc {
        Worker::from_file(&self.address)
            .separate_binary()
            .threads(1)
            .id(id)
            .log(&self.dir.path().join(format!("{id}.log")))
            .spawn()
    }

    /// The coordinator's health ("" and the gamesweep service agree).
    fn health(&self) -> ServingStatus {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let channel = tonic::transport::Endpoint::from_shared(self.coordinator.url.clone())
                .unwrap()
                .timeout(Duration::from_secs(5))
                .connect()
                .await
                .unwrap();
            let mut h = HealthClient::new(channel);
            let mut out = Vec::new();
            for service in ["", "gamesweep.v1.Coordinator"] {
                let r = h
                    .check(HealthCheckRequest {
                        service: service.into(),
                    })
                    .await
                    .unwrap();
                out.push(r.into_inner().status());
            }
            assert_eq!(out[0], out[1], "the server and the service agree");
            out[0]
        })
    }
}

fn log(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("serve.log")).unwrap_or_default()
}

/// Fill the filesystem holding `file` (at most 64 MiB written).
fn fill(file: &Path) -> u64 {
    let mut f = std::fs::File::create(file).unwrap();
    let chunk = vec![0xa5u8; 1 << 20];
    let mut written = 0u64;
    for _ in 0..64 {
        match f.write(&chunk) {
            Ok(0) => break,
            Ok(n) => written += n as u64,
            Err(e) if e.raw_os_error() == Some(libc::ENOSPC) => break,
            Err(e) => panic!("filling {}: {e}", file.display()),
        }
    }
    // The last partial pages too.
    for _ in 0..4096 {
        match f.write(&chunk[..4096]) {
            Ok(n) if n > 0 => written += n as u64,
            _ => break,
        }
    }
    written
}

/// Poll `what` every 100 ms for at most `limit`.
fn wait_for(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[ignore = "needs root"]
fn a_full_disk_is_reported_and_writes_resume_once_there_is_room() {
    let mut s = Setup::start();
    assert_eq!(s.health(), ServingStatus::Serving);
    s.client().ok(&[
        "launch",
        "uvg",
        "--max-n",
        "9",
        "--collect-min-value",
        "0",
        "--replicate-fraction",
        "0",
        "--shards",
        "64",
        "--name",
        "full",
    ]);
    let filler = s.disk().join("filler");
    let eaten = fill(&filler);
    assert!(eaten > 10 << 20, "filler wrote only {eaten} bytes");
    let workers = [s.worker("w1"), s.worker("w2")];

    // Visible: health, status --json, status text.
    wait_for(Duration::from_secs(60), "health NOT_SERVING", || {
        s.health() == ServingStatus::NotServing
    });
    let st = s.client().status_all();
    let why = st["store_writes_failing"]
        .as_str()
        .unwrap_or_else(|| panic!("{st}"));
    assert!(why.contains("No space left on device"), "{why}");
    let text = s.client().ok(&["status"]);
    assert!(text.starts_with("store writes failing: "), "{text}");
    // It stays so while the disk is full, and the sweep does not finish.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(s.health(), ServingStatus::NotServing);
    let sweep = &s.client().status_all()["sweeps"][0];
    assert_ne!(sweep["state"], "done", "{sweep}");

    // Room again: no restart, the sweep completes.
    std::fs::remove_file(&filler).unwrap();
    wait_for(Duration::from_secs(120), "the sweep to finish", || {
        s.client().status_all()["sweeps"][0]["state"] == "done"
    });
    wait_for(Duration::from_secs(10), "health SERVING", || {
        s.health() == ServingStatus::Serving
    });
    assert!(s
        .client()
        .status_all()
        .get("store_writes_failing")
        .is_none());
    let out = s.dir.path().join("report");
    s.client()
        .ok(&["report", "full", "--out", out.to_str().unwrap()]);
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        std::fs::read_to_string(GOLDEN).unwrap(),
        "results.json differs from {GOLDEN}"
    );
    drop(workers);
    let log = log(s.dir.path());
    // Once per episode, at error level; and its end.
    let failing = log
        .lines()
        .filter(|l| l.contains("ERROR") && l.contains("store writes failing"))
        .count();
    assert_eq!(failing, 1, "{log}");
    assert!(log.contains("store writes resumed"), "{log}");
    assert!(
        s.coordinator.proc_mut().0.try_wait().unwrap().is_none(),
        "the same coordinator process throughout"
    );
}
