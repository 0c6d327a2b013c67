//! Tests of `myopic-tree` and `myopic-rooted`, with the spec's reference numbers.

use super::*;
use crate::sweep::{run_typed, ShardSpec, SweepKind};

fn sweep(kind: &MyopicTrees, max_nodes: usize, shards: u32) -> TreeOutput {
    run_typed(kind, &TreeParams { max_nodes }, shards).unwrap()
}

fn doc(kind: &MyopicTrees, max_nodes: usize) -> TreeDoc {
    let p = TreeParams { max_nodes };
    kind.doc(&p, &sweep(kind, max_nodes, 0))
}

#[test]
fn binary_small_table() {
    let r = sweep(&MyopicTreeSweep, 7, 3);
    let row = |n: u32| {
        let c = &r.by_nodes[&n];
        (
            c.trees,
            c.positions,
            c.groups[&SubjectGroup::Subjects].subjects,
        )
    };
    // spec: 3 nodes 2 trees 18 positions 1 subject; 5: 6 / 486 / 27; 7: 23 / 16,767 / 972
    assert_eq!(row(3), (2, 18, 1));
    assert_eq!(row(5), (6, 486, 27));
    assert_eq!(row(7), (23, 16_767, 972));
    assert!(r.exceptions.values().all(|e| e.total() == 0));
    assert_eq!(r.non_cold.total(), 0);
    // smallest −1/2: 3 nodes; −3/4: 5 nodes; 1/4: 7 nodes
    assert_eq!(r.values.smallest["-1/2"].vertices, 3);
    assert_eq!(r.values.smallest["-3/4"].vertices, 5);
    assert_eq!(r.values.smallest["1/4"].vertices, 7);
    // the plan does not change the result
    assert_eq!(sweep(&MyopicTreeSweep, 7, 1), r);
    let p = TreeParams { max_nodes: 7 };
    let d = MyopicTreeSweep.doc(&p, &r);
    assert_eq!(d.by_nodes[2].positions, 18);
    assert!(MyopicTreeSweep
        .report(&p, &d)
        .contains("| 7 | 23 | 16,767 | 972 | 0 |"));
}

#[test]
fn rooted_small_counts() {
    let r = sweep(&MyopicRootedSweep, 6, 2);
    let total: u64 = r.by_nodes.values().map(|c| c.positions).sum();
    // A000081 trees × 3^(k−1): 1 + 3 + 2·9 + 4·27 + 9·81 + 20·243
    assert_eq!(total, 1 + 3 + 18 + 108 + 729 + 4860);
    assert_eq!(r.work, total);
    let d = MyopicRootedSweep.doc(&TreeParams { max_nodes: 6 }, &r);
    assert_eq!(
        d.totals.groups.keys().copied().collect::<Vec<_>>(),
        Shape::Rooted.groups()
    );
    assert!(d.totals.groups.values().all(|g| g.exceptions == 0));
}

#[test]
fn document_round_trips_and_report_reads_it() {
    let kind = &MyopicRootedSweep;
    let params = SweepKind::resolve_params(kind, &[("max_nodes".to_string(), 5)].into()).unwrap();
    let plan = SweepKind::plan(kind, &params, 3).unwrap();
    let merged = crate::sweep::run_all_sequential(kind, &params, &plan).unwrap();
    let r = SweepKind::render(kind, &params, &merged).unwrap();
    let back = SweepKind::render_from_json(kind, &params, &r.results_json).unwrap();
    assert_eq!(back, r);
    assert!(r.results_json.contains("\"children>=3\": {"));
    assert!(r
        .report_md
        .contains("| children=1 | exceptions | children=2 |"));
}

#[test]
fn bad_shards_and_params_are_errors() {
    let kind = &MyopicTreeSweep;
    let params = SweepKind::resolve_params(kind, &[("max_nodes".to_string(), 4)].into()).unwrap();
    let ctx = ShardCtx::detached();
    for payload in [
        "3:0",
        "{\"trees\":[{\"nodes\":9,\"index\":0}]}",
        "{\"trees\":[{\"nodes\":3,\"index\":5}]}",
        "{\"trees\":[{\"nodes\":0,\"index\":0}]}",
        "{\"trees\":[],\"extra\":1}",
    ] {
        let shard = ShardSpec {
            index: 0,
            payload: payload.into(),
            estimate: 0,
        };
        assert!(
            matches!(
                SweepKind::run_shard(kind, &params, &shard, &ctx),
                Err(SweepError::BadShard { .. })
            ),
            "{payload}"
        );
    }
    // out of range when called directly, without resolution
    assert!(matches!(
        Kind::plan(kind, &TreeParams { max_nodes: 40 }, 0),
        Err(SweepError::BadParams { .. })
    ));
    let wrong = [("max_n".to_string(), 4)].into();
    assert!(SweepKind::plan(kind, &wrong, 0).is_err());
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn binary_tree_conjecture_to_11_nodes() {
    let d = doc(&MyopicTreeSweep, 11);
    let t = &d.totals;
    let s = t.groups[&SubjectGroup::Subjects];
    assert_eq!(t.positions, 31_469_089);
    assert_eq!((s.subjects, s.exceptions), (1_883_902, 0));
    assert_eq!(t.distinct_values, 66);
    assert_eq!(t.largest_denominator, 4);
    assert_eq!(t.non_cold, 0);
    let want = [
        (9, 98, 642_978, 37_908),
        (10, 207, 4_074_381, 238_383),
        (11, 451, 26_631_099, 1_600_884),
    ];
    for (n, trees, positions, subjects) in want {
        let row = &d.by_nodes[n - 1];
        assert_eq!((row.trees, row.positions), (trees, positions));
        assert_eq!(row.groups[&SubjectGroup::Subjects].subjects, subjects);
    }
    let counts: Vec<u64> = d.by_nodes.iter().map(|r| r.trees).collect();
    assert_eq!(counts, vec![1, 1, 2, 3, 6, 11, 23, 46, 98, 207, 451]);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn rooted_tree_child_counts_to_10_nodes() {
    let d = doc(&MyopicRootedSweep, 10);
    let t = &d.totals;
    assert_eq!(t.positions, 16_320_739);
    let g = |x: SubjectGroup| t.groups[&x];
    assert_eq!(g(SubjectGroup::Children1).subjects, 2_168_662);
    assert_eq!(g(SubjectGroup::Children2).subjects, 603_157);
    assert_eq!(g(SubjectGroup::Children3Plus).subjects, 112_615);
    assert!(t.groups.values().all(|c| c.exceptions == 0));
    assert_eq!(t.non_cold, 0);
}
