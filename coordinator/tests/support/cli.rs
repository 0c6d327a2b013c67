//! Shared by the tests that drive the `gamesweep` binary (`export`, `trust`,
//! `runtime`): a command cut off from the user's settings, a time-bounded
//! run, its success or one-line refusal, and `gamesweep serve` on
//! 127.0.0.1:0. Needs `support/proc.rs` declared as `mod proc` beside it.
#![allow(dead_code)] // each test file uses what it needs

use super::proc::Proc;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_gamesweep");

/// `cmd` cut off from the user's coordinator settings: none of the
/// `GAMESWEEP_*` coordinator, token and TLS variables, and a home without a
/// default token file.
pub fn isolated(mut cmd: Command) -> Command {
    for v in [
        "GAMESWEEP_COORDINATOR",
        "GAMESWEEP_TOKEN_FILE",
        "GAMESWEEP_WORKER_TOKEN_FILE",
        "GAMESWEEP_READ_TOKEN_FILE",
        "GAMESWEEP_COORDINATOR_FILE",
        "GAMESWEEP_TLS_CA",
        "GAMESWEEP_TLS_CERT",
        "GAMESWEEP_TLS_KEY",
    ] {
        cmd.env_remove(v);
    }
    cmd.env("HOME", "/nonexistent/gamesweep-test-home");
    cmd
}

/// Run `gamesweep args`, killed after 120 s. Its output is drained while
/// it runs (a child writing more than a pipe holds would otherwise wait
/// for us forever).
pub fn gs(args: &[&str]) -> Output {
    let child = isolated(Command::new(BIN))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(Duration::from_secs(120)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // Only the child we started, by its PID.
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            let out = rx.recv().unwrap().unwrap();
            panic!(
                "gamesweep {args:?} still running after 120 s: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// Run `gamesweep args`; its stdout (it must succeed).
pub fn ok(args: &[&str]) -> String {
    let o = gs(args);
    assert!(
        o.status.success(),
        "gamesweep {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// `gamesweep args` fails with exactly one line on stderr, containing `want`.
pub fn refused(args: &[&str], want: &str) -> String {
    let o = gs(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success(), "gamesweep {args:?} succeeded: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(want), "{want:?} not in: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// `gamesweep serve` on 127.0.0.1:0 with `store` and `extra` options; its
/// process and URL (read from its `--address-file`, once complete).
pub fn serve(store: &Path, extra: &[&str], log: &Path) -> (Proc, String) {
    let address = log.with_extension("url");
    let _ = std::fs::remove_file(&address);
    let mut child = Proc(
        isolated(Command::new(BIN))
            .args(["serve", "--listen", "127.0.0.1:0", "--store"])
            .arg(store)
            .arg("--address-file")
            .arg(&address)
            .args(extra)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(url) = std::fs::read_to_string(&address) {
            if url.ends_with('\n') {
                return (child, url.trim().to_string());
            }
        }
        if let Some(st) = child.0.try_wait().unwrap() {
            panic!(
                "coordinator exited with {st}: {}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
        }
        assert!(Instant::now() < deadline, "coordinator did not come up");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A two-thread worker (with `token`, if given) that exits once the
/// coordinator at `url` has nothing left; it must exit cleanly within 120 s.
pub fn work_until_idle(url: &str, token: Option<&Path>, log: &Path) {
    let mut cmd = isolated(Command::new(BIN));
    cmd.args(["worker", "--coordinator", url, "--threads", "2"])
        .args(["--exit-when-idle", "--idle-grace", "5"]);
    if let Some(t) = token {
        cmd.arg("--token-file").arg(t);
    }
    let mut w = Proc(
        cmd.stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap(),
    );
    let t0 = Instant::now();
    loop {
        if let Some(st) = w.0.try_wait().unwrap() {
            assert!(
                st.success(),
                "worker: {}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
            return;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "worker did not finish: {}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A process's peak resident memory (VmHWM), in KiB.
pub fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}
