//! Release-mode reproductions of the spec's headline tables (each a few CPU
//! seconds in release; ignored in debug builds, where they would take minutes).

use super::*;
use crate::sweep::legacy::{resolve_params, run_all_sequential};
use crate::sweep::{Params, UntypedKind};

fn run(kind: &dyn UntypedKind, given: &[(&str, u64)]) -> (Params, SweepResult) {
    let given: Params = given.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let params = resolve_params(kind, &given).unwrap();
    let plan = kind.plan(&params, 0).unwrap();
    let r = run_all_sequential(kind, &params, &plan).unwrap();
    (params, r)
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn binary_tree_conjecture_to_11_nodes() {
    let (params, r) = run(&MyopicTreeSweep, &[("max_nodes", 11)]);
    let j = MyopicTreeSweep.render(&params, &r).results_json;
    let t = &j["totals"];
    assert_eq!(t["positions"], 31_469_089);
    assert_eq!(t["subjects"]["subjects"], 1_883_902);
    assert_eq!(t["subjects"]["exceptions"], 0);
    assert_eq!(t["distinct_values"], 66);
    assert_eq!(t["largest_denominator"], 4);
    assert_eq!(t["non_cold"], 0);
    let rows = &j["by_nodes"];
    let want = [
        (9, 98, 642_978, 37_908),
        (10, 207, 4_074_381, 238_383),
        (11, 451, 26_631_099, 1_600_884),
    ];
    for (n, trees, positions, subjects) in want {
        let row = &rows[n - 1];
        assert_eq!(
            (row["trees"].as_u64(), row["positions"].as_u64()),
            (Some(trees), Some(positions))
        );
        assert_eq!(row["subjects"]["subjects"], subjects);
    }
    let counts: Vec<u64> = (0..11)
        .map(|i| rows[i]["trees"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, vec![1, 1, 2, 3, 6, 11, 23, 46, 98, 207, 451]);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn rooted_tree_child_counts_to_10_nodes() {
    let (params, r) = run(&MyopicRootedSweep, &[("max_nodes", 10)]);
    let j = MyopicRootedSweep.render(&params, &r).results_json;
    let t = &j["totals"];
    assert_eq!(t["positions"], 16_320_739);
    assert_eq!(t["children=1"]["subjects"], 2_168_662);
    assert_eq!(t["children=2"]["subjects"], 603_157);
    assert_eq!(t["children>=3"]["subjects"], 112_615);
    for g in ["children=1", "children=2", "children>=3"] {
        assert_eq!(t[g]["exceptions"], 0);
    }
    assert_eq!(t["non_cold"], 0);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn col_is_cold_to_8_vertices() {
    let (params, r) = run(&ColSweep, &[("max_n", 8)]);
    let j = ColSweep.render(&params, &r).results_json;
    assert_eq!(j["totals"]["positions"], 6_172_661);
    assert_eq!(j["totals"]["non_cold"], 0);
    assert_eq!(j["totals"]["largest_denominator"], 16);
    let row8 = &j["by_n"][7];
    assert_eq!(row8["graphs"], 11_117);
    assert_eq!(
        (row8["empty_zero"].as_u64(), row8["empty_star"].as_u64()),
        (Some(7_360), Some(3_757))
    );
    let values: Vec<&str> = j["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["value"].as_str().unwrap())
        .collect();
    assert!(values.contains(&"3/16") && values.contains(&"-3/16"));
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn random_digraphs_unwatched_source() {
    let (params, r) = run(
        &MyopicDigraphSweep,
        &[("random", 200_000), ("vertices", 8), ("seed", 1)],
    );
    let j = MyopicDigraphSweep.render(&params, &r).results_json;
    let s = &j["sets"]["random"];
    assert_eq!(s["positions"], 200_000);
    let subjects = s["subjects"].as_u64().unwrap();
    assert!(subjects.abs_diff(67_568) <= 600, "subjects {subjects}");
    assert_eq!(s["exceptions"], 0);
    let e = &j["sets"]["exhaustive"];
    assert_eq!(
        (
            e["subjects"].as_u64(),
            e["watched"].as_u64(),
            e["watched_broken"].as_u64()
        ),
        (Some(23_430), Some(52_686), Some(34_960))
    );
    // the smallest broken watched case: 3 vertices, 3 arcs, all uncoloured, value 0 vs formula *
    let w = &e["smallest_watched_broken"];
    assert_eq!(
        (w["vertices"].as_u64(), w["edges"].as_u64()),
        (Some(3), Some(3))
    );
    assert!(w["detail"].as_str().unwrap().ends_with("..."));
    assert!(w["note"].as_str().unwrap().ends_with("value 0, formula *"));
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn list_lemma_and_corollary() {
    let (params, r) = run(&MyopicListSweep, &[]);
    let j = MyopicListSweep.render(&params, &r).results_json;
    assert_eq!(j["lemma"]["max_len"], 400);
    assert_eq!(j["lemma"]["checked"], 1_200);
    assert_eq!(j["lemma"]["exceptions"], 0);
    assert_eq!(j["corollary"]["single"]["positions"], 2_391_483);
    assert_eq!(j["corollary"]["forests"]["positions"], 2_336_130);
    assert_eq!(j["corollary"]["single"]["exceptions"], 0);
    assert_eq!(j["corollary"]["forests"]["exceptions"], 0);
}
