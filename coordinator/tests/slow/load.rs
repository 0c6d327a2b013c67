//! The load harness at CI size: 20,000 `noop` shards, 200 simulated
//! workers over 4 HTTP/2 connections against a real `gamesweep serve` on
//! loopback. The sweep must finish within the time limit with every shard
//! merged exactly once: 20,000 accepted submits, and a report whose shard
//! count is 20,000 and index sum 20,000·19,999/2.

use crate::support::harness;

use crate::support::load;

use std::time::Duration;

const SHARDS: u64 = 20_000;
const WORKERS: usize = 200;

#[test]
fn twenty_thousand_shards_two_hundred_workers_each_merged_once() {
    let _serial = crate::serial();
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let (_coordinator, url) = harness::serve(&store, &[], &dir.path().join("serve.log"));
    let shards = SHARDS.to_string();
    harness::ok(&[
        "launch",
        "noop",
        "--shards",
        &shards,
        "--result-bytes",
        "64",
        "--replicate-fraction",
        "0",
        "--name",
        "load",
        "--coordinator",
        &url,
    ]);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let report = rt
        .block_on(load::run_load(load::LoadConfig {
            url: url.clone(),
            workers: WORKERS,
            connections: 4,
            shard_ms: 0,
            max_per_lease: 1,
            time_limit: Duration::from_secs(110),
        }))
        .unwrap_or_else(|e| panic!("load run failed: {e}"));
    eprint!("{}", report.text());
    assert_eq!(report.accepted, SHARDS, "{}", report.json());
    assert_eq!(report.leased, report.accepted + report.duplicates);
    assert_eq!(report.submit_us.len() as u64, report.leased);

    let out = dir.path().join("out");
    harness::ok(&[
        "report",
        "load",
        "--out",
        out.to_str().unwrap(),
        "--coordinator",
        &url,
    ]);
    // The document read as JSON, so the harness names no kind's types.
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(doc["kind"], "noop");
    assert_eq!(doc["params"]["result_bytes"], 64);
    assert_eq!(doc["shards"], SHARDS);
    // Every shard 0..SHARDS merged exactly once: their indices sum to K(K-1)/2.
    assert_eq!(doc["index_sum"], SHARDS * (SHARDS - 1) / 2);
    assert_eq!(doc["sum_matches"], true);
}

#[test]
fn quantiles_are_nearest_rank() {
    let v: Vec<u64> = (1..=1000).collect();
    assert_eq!(load::quantile(&v, 0.5), 500);
    assert_eq!(load::quantile(&v, 0.99), 990);
    assert_eq!(load::quantile(&v, 0.999), 999);
    assert_eq!(load::quantile(&[], 0.5), 0);
    assert_eq!(load::quantile(&[7], 0.999), 7);
}
