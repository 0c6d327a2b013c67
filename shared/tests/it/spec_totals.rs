//! The spec's headline totals (MISSION.md), recomputed here from nothing:
//! each kind planned, every shard run, merged and rendered through the
//! registry (`SweepKind`), and its `results.json` compared with the spec's
//! numbers. Release-mode tests (seconds in release, far longer in debug).

use gamesweep::sweep::{self, Params};
use serde_json::Value;

/// The `results.json` of kind `name` with `params`, computed whole.
fn results(name: &str, params: &[(&str, u64)]) -> Value {
    let kind = gamesweep::kinds::find(name).unwrap();
    let given: Params = params.iter().map(|&(k, v)| (k.to_string(), v)).collect();
    let params = kind.resolve_params(&given).unwrap();
    let plan = kind.plan(&params, 0).unwrap();
    let merged = sweep::run_all_sequential(kind, &params, &plan).unwrap();
    let rendered = kind.render(&params, &merged).unwrap();
    serde_json::from_str(&rendered.results_json).unwrap()
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// The n = 9 row, the matching theorem over all 2,445,437 pairs and the
/// degree-3 subset.
#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn uvg_reproduces_the_spec_at_n9() {
    let doc = results("uvg", &[("max_n", 9)]);
    let rows = doc["by_n"].as_array().unwrap();
    let row = &rows[8];
    assert_eq!(u(&row["n"]), 9);
    assert_eq!(u(&row["graphs"]), 261_080);
    assert_eq!(u(&row["positions"]), 2_349_720);
    for (v, c) in [2_155_288u64, 98_997, 67_971, 26_483, 981]
        .into_iter()
        .enumerate()
    {
        assert_eq!(u(&row["grundy"][v.to_string()]), c, "value {v}");
    }
    assert!(row["grundy"].get("5").is_none(), "no *5 on 9 vertices");
    let sum = |f: &dyn Fn(&Value) -> &Value| rows.iter().map(|r| u(f(r))).sum::<u64>();
    assert_eq!(sum(&|r| &r["positions"]), 2_445_437);
    assert_eq!(sum(&|r| &r["matching_exceptions"]), 0);
    assert_eq!(sum(&|r| &r["maxdeg3"]["graphs"]), 838);
    assert_eq!(sum(&|r| &r["maxdeg3"]["positions"]), 7_036);
    assert_eq!(sum(&|r| &r["maxdeg3"]["exceptions"]), 0);
    assert_eq!(u(&rows[7]["witnesses"]["4"]["edges"]), 10);
    assert!(
        rows[7]["extensions"].get("5").is_none(),
        "no 8-vertex graph has all of 0..*4"
    );
}

/// The binary-tree conjecture to 11 nodes: every position, every subject
/// and the per-size rows of the spec.
#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn myopic_tree_reproduces_the_spec_to_11_nodes() {
    let d = results("myopic-tree", &[("max_nodes", 11)]);
    let t = &d["totals"];
    assert_eq!(u(&t["positions"]), 31_469_089);
    assert_eq!(
        (
            u(&t["subjects"]["subjects"]),
            u(&t["subjects"]["exceptions"])
        ),
        (1_883_902, 0)
    );
    assert_eq!(u(&t["distinct_values"]), 66);
    assert_eq!(u(&t["largest_denominator"]), 4);
    assert_eq!(u(&t["non_cold"]), 0);
    let rows = d["by_nodes"].as_array().unwrap();
    let want = [
        (9, 98, 642_978, 37_908),
        (10, 207, 4_074_381, 238_383),
        (11, 451, 26_631_099, 1_600_884),
    ];
    for (n, trees, positions, subjects) in want {
        let row = &rows[n - 1];
        assert_eq!(u(&row["nodes"]), n as u64);
        assert_eq!((u(&row["trees"]), u(&row["positions"])), (trees, positions));
        assert_eq!(u(&row["subjects"]["subjects"]), subjects);
    }
    let counts: Vec<u64> = rows.iter().map(|r| u(&r["trees"])).collect();
    assert_eq!(counts, vec![1, 1, 2, 3, 6, 11, 23, 46, 98, 207, 451]);
}
