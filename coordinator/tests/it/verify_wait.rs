//! End to end: a sweep whose shards are all done
//! with one identity (an open coordinator: every worker is the same
//! shared voice, which never confirms) and a sampled verification share
//! waits for verification copies nobody can run. They must be skipped as
//! unverifiable within the documented bound (three lease periods from when
//! the last was opened, plus a one-second tick; `core/replication.rs`) however
//! often the coordinator is killed and restarted, with no worker calling
//! Lease; meanwhile `status` says 100 % and what the sweep waits for, and
//! `report` then works.

use crate::support::harness::{ok, serve, Client, Worker};
use std::time::{Duration, Instant};

/// The lease length (s): the skip waits three of them.
const LEASE_SECS: u64 = 2;

#[test]
fn a_finished_sweep_of_one_identity_ends_however_often_the_coordinator_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let lease = LEASE_SECS.to_string();
    let extra = ["--lease-secs", lease.as_str()];
    let log = |name: &str| dir.path().join(name);
    let (mut c, u) = serve(&store, &extra, &log("serve0.log"));
    ok(&[
        "launch",
        "uvg",
        "--max-n",
        "7",
        "--shards",
        "16",
        "--replicate-fraction",
        "0.5",
        "--replicate-seed",
        "3",
        "--name",
        "w",
        "--coordinator",
        &u,
    ]);
    // One identity runs every shard; it is stopped as soon as they are all
    // done (before the wait is over), so no Lease ends the wait.
    let mut w = Worker::new(&u).threads(1).log(&log("worker.log")).spawn();
    let t0 = Instant::now();
    let done_at = loop {
        let s = Client::new(&u).status("w");
        if s["shards_done"] == s["shards_total"] {
            break Instant::now();
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "shards not done: {s}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    w.kill9();
    let s = Client::new(&u).status("w");
    let selected = s["verification"]["selected"].as_u64().unwrap();
    assert!(selected > 0, "the share selects some shards: {s}");
    let pending = s["verification"]["pending"].as_u64().unwrap();
    // What status says while it waits (three lease periods: 6 s, and this
    // is a few milliseconds after the last shard).
    assert_eq!(s["state"], "running", "{s}");
    {
        assert_eq!(s["fraction_done"], 1.0, "{s}");
        let waiting = &s["verification"]["waiting"];
        assert_eq!(waiting["needs_issued"], true, "{s}");
        assert_eq!(waiting["eligible"], serde_json::json!([]), "{s}");
        assert!(waiting["skip_at_ms"].as_u64().is_some(), "{s}");
        let text = ok(&["status", "w", "--coordinator", &u]);
        assert!(text.contains("(every shard done; not finished"), "{text}");
        assert!(!text.contains("99.9 %"), "{text}");
        let line = text
            .lines()
            .find(|l| l.starts_with("  waiting for: "))
            .unwrap_or_else(|| panic!("no waiting line: {text}"));
        eprintln!("{line}");
        let out = dir.path().join("early");
        let o = crate::support::harness::gs(&[
            "report",
            "w",
            "--coordinator",
            &u,
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{err}");
        assert!(
            err.contains(
                "verifications waiting for a second identity (status says which, and until when)"
            ),
            "{err}"
        );
        let count = format!("waiting for: {pending} verification");
        for want in [
            count.as_str(),
            "to be run by a worker with an issued credential other than the one that ran it",
            "none is connected",
            "skipped as unverifiable at ",
            "`gamesweep token issue --name NAME --out FILE`",
            "`gamesweep worker --token-file FILE`",
        ] {
            assert!(line.contains(want), "{want:?} not in {line}");
        }
    }
    // The coordinator is killed and restarted more often than the wait
    // (three lease periods), and nobody leases: it must end all the same,
    // within three lease periods of the last shard's result, plus the
    // tick (1 s) and the restarts' own time.
    let bound = Duration::from_secs(3 * LEASE_SECS + 1);
    let mut restarts = 0;
    let mut u = u;
    let finished = loop {
        let s = Client::new(&u).status("w");
        if s["state"] == "done" {
            break Some((s, done_at.elapsed()));
        }
        assert_eq!(s["state"], "running", "{s}");
        if restarts == 8 {
            break None;
        }
        // Killed at any point of a lease period, up to 1.5 of them.
        std::thread::sleep(Duration::from_millis(300 + 700 * (restarts % 4)));
        c.kill9();
        restarts += 1;
        let (c2, u2) = serve(&store, &extra, &log(&format!("serve{restarts}.log")));
        c = c2;
        u = u2;
    };
    let (s, took) = finished.unwrap_or_else(|| {
        panic!(
            "still waiting after {restarts} restarts and {:.1} s since every shard was done: {}",
            done_at.elapsed().as_secs_f64(),
            Client::new(&u).status("w")
        )
    });
    eprintln!(
        "done {:.1} s after the last shard ({restarts} restarts; bound {} s + the restarts)",
        took.as_secs_f64(),
        bound.as_secs()
    );
    assert_eq!(s["verification"]["pending"], 0, "{s}");
    assert_eq!(s["verification"]["unverifiable"], selected, "{s}");
    // The restarts took their own time (up to a few seconds each here, on
    // a loaded machine): the bound is counted on the wall clock.
    assert!(
        took < bound + Duration::from_secs(10),
        "took {:.1} s",
        took.as_secs_f64()
    );
    let out = dir.path().join("out");
    ok(&[
        "report",
        "w",
        "--coordinator",
        &u,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(out.join("results.json").exists());
}
