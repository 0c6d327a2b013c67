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
