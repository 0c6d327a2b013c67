//! A caught lie reaches back into finished sweeps, end to end: three
//! issued identities on a real coordinator. The liar (a raw gRPC client)
//! computes every shard of `first` honestly (launched without
//! verification: nobody checks it) and `first` finishes; in `second`
//! (every shard verified) it lies once and two honest `gamesweep-worker`
//! processes out-vote it. `first` then runs again — status says it
//! re-verifies the liar's shards after a caught lie — and finishes again
//! with the honest workers' runs: its `results.json` is still the golden
//! one, byte for byte, and its report names the liar.

use crate::support::harness::{honest_run, lease_req, runtime, submit_req, try_lie, Trusted};
use std::path::Path;
use std::time::{Duration, Instant};

#[test]
fn a_lie_caught_later_has_a_finished_sweep_rerun_by_others() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let t = Trusted::start(d, &["liar", "honest-1", "honest-2"], &[]);
    let launch = |name: &str, max_n: &str, fraction: &str| {
        t.admin()
            .cmd(&[
                "launch",
                "uvg",
                "--max-n",
                max_n,
                "--name",
                name,
                "--replicate-fraction",
                fraction,
            ])
            .ok_both();
    };
    let report = |name: &str, out: &Path| t.report(name, out);
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    let golden = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg/results.json"),
    )
    .unwrap();
    let rt = runtime();
    let mut liar = t.raw(&rt, "liar");
    // `first`: every shard the liar's, honest; finished and reported.
    launch("first", "9", "0");
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut lie_in_second = false;
    let mut second = false;
    loop {
        let (_, s) = t.admin().status_report("first");
        if s["state"] == "done" && !second {
            report("first", &d.join("before"));
            assert_eq!(read(&d.join("before"), "results.json"), golden);
            // `second`, every shard verified: the liar lies once.
            launch("second", "7", "1");
            second = true;
        }
        let leases = rt
            .block_on(liar.lease(lease_req("liar", 256)))
            .map(|r| r.into_inner().leases)
            .unwrap_or_default();
        if leases.is_empty() && second {
            break;
        }
        assert!(Instant::now() < deadline, "the liar's leases ran out: {s}");
        for lease in &leases {
            let honest = honest_run(lease);
            let result = match try_lie(&honest) {
                Some(lie) if lease.sweep_id == "second" && !lie_in_second => {
                    lie_in_second = true;
                    lie
                }
                _ => honest,
            };
            let _ = rt.block_on(liar.submit(submit_req("liar", lease, result)));
        }
    }
    assert!(lie_in_second);
    let total = t.admin().status_report("first").1["shards_total"]
        .as_u64()
        .unwrap();
    // The honest workers verify `second`, catch the lie, and run every
    // result of the liar in `first` again.
    let _honest = t.honest_workers(&["honest-1", "honest-2"]);
    let mut reopened = None;
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let (_, s) = t.admin().status_report("first");
        let why = &s["verification"]["waiting"]["rechecking"];
        if s["state"] == "running" && reopened.is_none() && why.is_array() {
            reopened = Some(why.clone());
            let (text, _) = t.admin().cmd(&["status", "first"]).ok_both();
            assert!(
                text.contains(" of @liar after a caught lie"),
                "status says why: {text}"
            );
        }
        let (_, s2) = t.admin().status_report("second");
        if reopened.is_some() && s["state"] == "done" && s2["state"] == "done" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "first never ran again, or did not finish: {s} (reopened: {reopened:?})"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let why = reopened.unwrap();
    assert_eq!(why[0]["identity"], "@liar", "{why}");
    // Finished again with the others' runs: the same golden numbers, and
    // the report names the liar and what became of its results.
    let after = d.join("after");
    report("first", &after);
    assert_eq!(read(&after, "results.json"), golden);
    let prov: serde_json::Value = serde_json::from_str(&read(&after, "provenance.json")).unwrap();
    let r = &prov["rechecked_after_a_lie"]["@liar"];
    assert_eq!(r["shards"].as_u64(), Some(total), "{prov}");
    assert_eq!(r["verified"].as_u64(), Some(total), "{prov}");
    assert_eq!(
        prov["confirmation"]["confirmed_by_two_identities"].as_u64(),
        Some(total)
    );
    let md = read(&after, "report.md");
    assert!(
        md.contains(&format!(
            "Re-verified after a caught lie: `@liar` gave a wrong result (in this sweep or another), so every result it gave was run again by other identities: {total} shards here, {total} confirmed, 0 replaced"
        )),
        "{md}"
    );
}
