//! Tests of the `uvg` sweep against the spec's reference numbers.

use super::*;
use crate::sweep::legacy::{resolve_params, run_all_sequential};

fn params(max_n: u64) -> Params {
    resolve_params(&UvgSweep, &[("max_n".to_string(), max_n)].into()).unwrap()
}

fn table(max_n: u64, shards: u32) -> Value {
    let p = params(max_n);
    let plan = UvgSweep.plan(&p, shards).unwrap();
    let merged = run_all_sequential(&UvgSweep, &p, &plan).unwrap();
    UvgSweep.render(&p, &merged).results_json
}

/// The spec's UVG table for n ≤ 8 (MISSION.md), row by row: graphs, pairs, Grundy histogram.
#[test]
fn reproduces_spec_table_up_to_8() {
    let want: &[(u64, u64, &[u64])] = &[
        (1, 1, &[1]),
        (1, 2, &[0, 2]),
        (2, 6, &[5, 1]),
        (6, 24, &[3, 14, 7]),
        (21, 105, &[83, 11, 11]),
        (112, 672, &[70, 424, 156, 22]),
        (853, 5_971, &[4_898, 667, 372, 34]),
        (11_117, 88_936, &[4_357, 59_405, 18_880, 5_854, 440]),
    ];
    let doc = table(8, 0);
    for (i, (graphs, pairs, hist)) in want.iter().enumerate() {
        let row = &doc["by_n"][i];
        assert_eq!(row["graphs"], *graphs, "n = {}", i + 1);
        assert_eq!(row["positions"], *pairs, "n = {}", i + 1);
        for (v, &c) in hist.iter().enumerate() {
            assert_eq!(
                row["grundy"][v.to_string()].as_u64().unwrap_or(0),
                c,
                "n = {} value {v}",
                i + 1
            );
        }
        assert_eq!(row["matching_exceptions"], 0);
        assert_eq!(row["maxdeg3"]["exceptions"], 0);
    }
    // Smallest vertex counts for *0..*4: 1, 2, 4, 6, 8.
    for (v, n) in [(0, 1), (1, 2), (2, 4), (3, 6), (4, 8)] {
        let first = doc["by_n"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["witnesses"].get(v.to_string()).is_some());
        assert_eq!(first.unwrap()["n"], n, "smallest *{v}");
    }
    // The smallest *3 has 6 vertices and 6 edges.
    assert_eq!(doc["by_n"][5]["witnesses"]["3"]["edges"], 6);
}

/// The n = 9 row, the matching theorem over all 2,445,437 pairs and the degree-3 subset (release-mode test).
#[test]
fn reproduces_spec_n9() {
    let doc = table(9, 0);
    let row = &doc["by_n"][8];
    assert_eq!(row["graphs"], 261_080);
    assert_eq!(row["positions"], 2_349_720);
    for (v, c) in [2_155_288u64, 98_997, 67_971, 26_483, 981]
        .into_iter()
        .enumerate()
    {
        assert_eq!(row["grundy"][v.to_string()], c, "value {v}");
    }
    assert!(row["grundy"].get("5").is_none(), "no *5 on 9 vertices");
    let rows = doc["by_n"].as_array().unwrap();
    let sum = |f: &dyn Fn(&Value) -> u64| rows.iter().map(f).sum::<u64>();
    assert_eq!(sum(&|r| r["positions"].as_u64().unwrap()), 2_445_437);
    assert_eq!(sum(&|r| r["matching_exceptions"].as_u64().unwrap()), 0);
    assert_eq!(sum(&|r| r["maxdeg3"]["graphs"].as_u64().unwrap()), 838);
    assert_eq!(sum(&|r| r["maxdeg3"]["positions"].as_u64().unwrap()), 7_036);
    assert_eq!(sum(&|r| r["maxdeg3"]["exceptions"].as_u64().unwrap()), 0);
    assert_eq!(doc["by_n"][7]["witnesses"]["4"]["edges"], 10);
    assert!(
        doc["by_n"][7]["extensions"].get("5").is_none(),
        "no 8-vertex graph has all of 0..*4"
    );
}

#[test]
fn merged_result_is_independent_of_the_plan() {
    let a = table(7, 1);
    for shards in [2, 5, 17, 300] {
        assert_eq!(a, table(7, shards), "shards = {shards}");
    }
}

#[test]
fn bad_payloads_are_errors() {
    let p = params(5);
    for payload in [
        "",
        "top",
        "prefixes 3",
        "prefixes 3 Bw?",
        "prefixes 2 Bw",
        "frobnicate 2",
    ] {
        let shard = ShardSpec {
            index: 0,
            payload: payload.into(),
            estimate: 0,
        };
        assert!(
            matches!(
                UvgSweep.run_shard(&p, &shard, &ShardCtx::detached()),
                Err(SweepError::BadShard { .. })
            ),
            "{payload:?}"
        );
    }
}

/// Shard estimates are positions: their sum is close to the exact total the
/// sweep counts (2,445,437 at n ≤ 9), each shard's is close to its own count,
/// and the plan (estimates included) is the same on every call.
#[test]
fn shard_estimates_track_the_positions_counted() {
    let p = params(9);
    let plan = UvgSweep.plan(&p, 16).unwrap();
    assert_eq!(plan, UvgSweep.plan(&p, 16).unwrap(), "deterministic plan");
    let mut total = (0u64, 0u64);
    for s in &plan {
        let got = UvgSweep
            .run_shard(&p, s, &ShardCtx::detached())
            .unwrap()
            .work;
        let (e, g) = (s.estimate as f64, got as f64);
        assert!(
            (e - g).abs() <= 0.35 * g,
            "shard {}: estimate {e} vs {g} positions",
            s.index
        );
        total.0 += s.estimate;
        total.1 += got;
    }
    assert_eq!(total.1, 2_445_437);
    let err = (total.0 as f64 - total.1 as f64).abs() / total.1 as f64;
    assert!(err < 0.05, "total estimate {} vs {}", total.0, total.1);
}
