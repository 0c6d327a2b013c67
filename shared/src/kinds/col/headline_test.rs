//! Release-mode reproductions of the spec's headline tables (each a few CPU
//! seconds in release; ignored in debug builds, where they would take minutes).
//! The tree, rooted and list kinds keep theirs next to their own code.

use super::digraph::DigraphParams;
use super::graphs::ColParams;
use super::*;
use crate::sweep::{run_typed, Kind};

#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn col_is_cold_to_8_vertices() {
    let p = ColParams { max_n: 8 };
    let r = run_typed(&ColSweep, &p, 0).unwrap();
    let d = ColSweep.doc(&p, &r);
    assert_eq!(d.totals.positions, 6_172_661);
    assert_eq!(d.totals.non_cold, 0);
    assert_eq!(d.totals.largest_denominator, 16);
    let row8 = &d.by_n[7];
    assert_eq!(row8.n, 8);
    assert_eq!(row8.graphs, 11_117);
    assert_eq!((row8.empty_zero, row8.empty_star), (7_360, 3_757));
    let values: Vec<&str> = d.values.iter().map(|v| v.value.as_str()).collect();
    assert!(values.contains(&"3/16") && values.contains(&"-3/16"));
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn random_digraphs_unwatched_source() {
    let p = DigraphParams {
        random: 200_000,
        vertices: 8,
        seed: 1,
    };
    let r = run_typed(&MyopicDigraphSweep, &p, 0).unwrap();
    let d = MyopicDigraphSweep.doc(&p, &r);
    let s = d.sets.random.as_ref().unwrap();
    assert_eq!(s.positions, 200_000);
    assert!(
        s.subjects.abs_diff(67_568) <= 600,
        "subjects {}",
        s.subjects
    );
    assert_eq!(s.exceptions, 0);
    let e = &d.sets.exhaustive;
    assert_eq!(
        (e.subjects, e.watched, e.watched_broken),
        (23_430, 52_686, 34_960)
    );
    // the smallest broken watched case: 3 vertices, 3 arcs, all uncoloured, value 0 vs formula *
    let w = e.smallest_watched_broken.as_ref().unwrap();
    assert_eq!((w.vertices, w.edges), (3, 3));
    assert!(w.detail.ends_with("..."));
    assert!(w.note.ends_with("value 0, formula *"));
}
