//! The patient liar under the default policy (`--replicate sampled`, 1 %):
//! three issued identities on a real coordinator, two honest
//! `gamesweep-worker` processes and a raw gRPC client that gives twelve
//! honest results and then, in every shard it gets, moves one start from
//! Grundy value 1 to 2 (every total kept, so validation and the recount
//! pass). Past its probation its results are spot-checked; a lie caught
//! has every result of it run again. Whichever way the draw falls, the
//! finished result is exact, or every cell it gets wrong lies in a row the
//! report's Verification section names as resting on the liar alone: never
//! a bare "partly verified".

use crate::support::harness::{honest_run, lease_req, runtime, submit_req, try_lie, Trusted};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Rows of a uvg `results.json`, by vertex count.
fn rows(results: &str) -> BTreeMap<u64, serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(results).unwrap();
    v["by_n"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["n"].as_u64().unwrap(), r.clone()))
        .collect()
}

/// The rows the report's per-identity table gives `who`: `(lo, hi)`.
fn rows_named(report: &str, who: &str) -> Option<(u64, u64)> {
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("| `{who}` |")))?;
    let rows = line.split('|').nth(3)?.trim();
    let span = rows.strip_prefix("n = ")?.split(',').next()?;
    let mut ends = span.split(" to ").map(|x| x.trim().parse::<u64>().unwrap());
    let lo = ends.next()?;
    Some((lo, ends.next().unwrap_or(lo)))
}

#[test]
fn a_patient_liar_is_outvoted_or_named_with_the_rows_it_could_change() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let t = Trusted::start(d, &["liar", "honest-1", "honest-2"], &[]);
    t.admin()
        .cmd(&["launch", "uvg", "--max-n", "9", "--name", "patient"])
        .ok_both();
    let _honest = t.honest_workers(&["honest-1", "honest-2"]);
    let rt = runtime();
    let mut liar = t.raw(&rt, "liar");
    let (mut honest_given, mut lies) = (0, 0);
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let (_, s) = t.admin().status_report("patient");
        if s["state"] == "done" {
            break;
        }
        assert!(Instant::now() < deadline, "the sweep did not finish: {s}");
        let leases = rt
            .block_on(liar.lease(lease_req("liar", 1)))
            .map(|r| r.into_inner().leases)
            .unwrap_or_default();
        if leases.is_empty() {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        for lease in &leases {
            let honest = honest_run(lease);
            let result = match try_lie(&honest) {
                Some(lie) if honest_given >= 12 => {
                    lies += 1;
                    lie
                }
                _ => {
                    honest_given += 1;
                    honest
                }
            };
            let _ = rt.block_on(liar.submit(submit_req("liar", lease, result)));
        }
    }
    let out = d.join("out");
    t.report("patient", &out);
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    let truth = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg/results.json"),
    )
    .unwrap();
    let got = read(&out, "results.json");
    let report = read(&out, "report.md");
    let verification = &report[report.find("\n## Verification\n").unwrap()..];
    let prov: serde_json::Value = serde_json::from_str(&read(&out, "provenance.json")).unwrap();
    let alone = prov["confirmation"]["resting_alone"]["@liar"]
        .as_u64()
        .unwrap_or(0);
    eprintln!(
        "{honest_given} honest results and {lies} lies given; {alone} shards rest on @liar alone; exact: {}",
        got == truth
    );
    // Whatever rests on the liar alone is named with its rows.
    if alone > 0 {
        let named = rows_named(verification, "@liar");
        assert!(named.is_some(), "{verification}");
    }
    // Every wrong cell is in a row named as the liar's alone.
    let (want, have) = (rows(&truth), rows(&got));
    for (n, row) in &want {
        if have.get(n) != Some(row) {
            let (lo, hi) = rows_named(verification, "@liar").unwrap_or_else(|| {
                panic!(
                    "row n = {n} is wrong and the report names no rows of @liar:\n{verification}"
                )
            });
            assert!(
                (lo..=hi).contains(n),
                "row n = {n} wrong, @liar named for {lo}..={hi}"
            );
        }
    }
    assert!(
        !verification.contains("Partly verified")
            || verification.contains("| `@liar` |")
            || alone == 0
    );
}
