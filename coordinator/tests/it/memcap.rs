//! `gamesweep-worker --max-memory` with real processes on 127.0.0.1: a
//! worker whose cap is below its own resident memory runs no shard; each
//! one it leases is reported to the coordinator as a failure naming the
//! memory reached and the cap, and after repeated failures the coordinator
//! sets the shards aside (its existing policy) while the worker lives on.
//! Every wait is bounded; every process is killed by its PID on drop.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::harness::{isolated, ok, Client, Serve, WORKER_BIN};
use crate::support::proc::Proc;

#[test]
fn a_worker_over_its_memory_cap_reports_failures_and_lives_on() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, u) = Serve::new(&dir.path().join("store"))
        .log(&dir.path().join("serve.log"))
        .address_file(&dir.path().join("serve.url"))
        .start()
        .into_parts();
    ok(&[
        "launch",
        "uvg",
        "--replicate-fraction",
        "0",
        "--max-n",
        "6",
        "--shards",
        "3",
        "--name",
        "m1",
        "--coordinator",
        &u,
    ]);
    let log = dir.path().join("worker.log");
    // The cap through the environment, as a batch script would set it.
    let mut worker = Proc(
        isolated(Command::new(WORKER_BIN))
            .args(["--coordinator", &u, "--id", "wm", "--threads", "1"])
            // Below the baseline on purpose (refused at start otherwise).
            .arg("--allow-low-memory-cap")
            .env("GAMESWEEP_MAX_MEMORY", "1M")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(90);
    let s = loop {
        let s = Client::new(&u).status("m1");
        if s["state"] == "failed" {
            break s;
        }
        assert!(
            worker.0.try_wait().unwrap().is_none(),
            "the worker died: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        assert!(Instant::now() < deadline, "shards not set aside: {s}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(s["results_stored"], 0, "{s}");
    // The plan has a few shards (uvg rounds the requested 3); all are set aside.
    let total = s["shards_total"].as_u64().unwrap();
    assert!(total >= 3, "{s}");
    assert_eq!(s["shards_failed"], total, "{s}");
    let failures = s["failures"].as_array().unwrap();
    assert_eq!(failures.len() as u64, total, "{s}");
    for (i, f) in failures.iter().enumerate() {
        assert_eq!(f["index"], i as u64, "{s}");
        assert_eq!(f["count"], 3, "failed 3 times, then set aside: {s}");
        assert_eq!(f["worker_id"], "wm", "{s}");
        let error = f["error"].as_str().unwrap();
        let prefix =
            format!("shard {i} of sweep m1 stopped: the worker's resident memory reached ");
        let rest = error
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{error}"));
        let (reached, cap) = rest.split_once(", above --max-memory ").unwrap();
        assert_eq!(cap, "1 MiB", "{error}");
        // A worker process holds some MiB: reached is e.g. `9.4 MiB`.
        let (value, unit) = reached.split_once(' ').unwrap();
        let value: f64 = value.parse().unwrap();
        assert!(unit == "MiB" && value > 1.0 && value < 1024.0, "{error}");
    }
    assert!(
        worker.0.try_wait().unwrap().is_none(),
        "the worker lives on"
    );
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(
        log_text.contains("max_memory") && log_text.contains("1 MiB"),
        "{log_text}"
    );
}

#[test]
fn a_nonsense_memory_cap_is_a_one_line_error() {
    for (how, value) in [("flag", "4 gigs"), ("env", "0")] {
        let mut cmd = isolated(Command::new(WORKER_BIN));
        cmd.args(["--coordinator", "http://127.0.0.1:9"]);
        if how == "flag" {
            cmd.args(["--max-memory", value]);
        } else {
            cmd.env("GAMESWEEP_MAX_MEMORY", value);
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{how}");
        let err = String::from_utf8_lossy(&o.stderr);
        let why = if how == "flag" {
            "unknown unit"
        } else {
            "must be at least 1 byte"
        };
        assert_eq!(
            err.trim_end(),
            format!("gamesweep-worker: --max-memory: bad memory size `{value}`: {why} (e.g. 4G, 512M, 2GiB or a number of bytes)"),
            "{how}"
        );
    }
}

/// `--max-memory 512` (meant as MB) is below the worker's own
/// baseline; it used to start and set every shard aside in under a second.
#[test]
fn a_cap_below_the_baseline_is_refused_at_start() {
    let t0 = Instant::now();
    let o = isolated(Command::new(WORKER_BIN))
        .args(["--coordinator", "http://127.0.0.1:9", "--max-memory", "512"])
        .output()
        .unwrap();
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    let line = err.trim_end();
    assert!(!line.contains('\n'), "{err}");
    assert!(
        line.starts_with(
            "gamesweep-worker: --max-memory: 512 B is below this worker's baseline: it holds "
        ) && line.ends_with("(a number alone is bytes: for megabytes write `512M`)"),
        "{err}"
    );
    // A cap with room starts (and waits for the absent coordinator).
    let mut w = Proc(
        isolated(Command::new(WORKER_BIN))
            .args([
                "--coordinator",
                "http://127.0.0.1:9",
                "--max-memory",
                "512M",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    std::thread::sleep(Duration::from_millis(500));
    assert!(w.0.try_wait().unwrap().is_none(), "a 512M cap was refused");
}

#[test]
fn the_memory_cap_is_in_the_help() {
    let o = Command::new(WORKER_BIN).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(
        help.contains("--max-memory <SIZE>") && help.contains("GAMESWEEP_MAX_MEMORY"),
        "{help}"
    );
}
