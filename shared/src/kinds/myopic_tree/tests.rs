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

/// Every shard of real plans of both tree kinds validates (the committed
/// `myopic-tree` and `myopic-rooted` sizes where fast, several plan sizes).
#[test]
fn real_tree_shard_results_validate() {
    for (kind, max_nodes, shards) in [
        (&MyopicTreeSweep, 9, 0),
        (&MyopicTreeSweep, 7, 1),
        (&MyopicRootedSweep, 7, 0),
        (&MyopicRootedSweep, 5, 3),
    ] {
        let p = TreeParams { max_nodes };
        for (s, _) in Kind::plan(kind, &p, shards).unwrap() {
            let out = kind.run(&p, &s, &ShardCtx::detached()).unwrap();
            assert_eq!(
                Kind::validate(kind, &p, &s, &out),
                Ok(()),
                "{} {max_nodes} {s:?}",
                Kind::name(kind)
            );
        }
    }
}

/// `f` applied to the result of `myopic-rooted --max-nodes 5` in one shard is
/// refused with a message containing `want`.
fn refused(f: impl FnOnce(&mut TreeOutput), want: &str) {
    let k = &MyopicRootedSweep;
    let p = TreeParams { max_nodes: 5 };
    let (s, _) = Kind::plan(k, &p, 1).unwrap().pop().unwrap();
    let mut out = k.run(&p, &s, &ShardCtx::detached()).unwrap();
    assert_eq!(Kind::validate(k, &p, &s, &out), Ok(()));
    f(&mut out);
    let e = Kind::validate(k, &p, &s, &out).expect_err(want);
    assert!(
        e.to_string().contains(want),
        "`{e}` does not contain `{want}`"
    );
}

/// Each forged field is refused, naming it.
#[test]
fn forged_tree_results_are_refused_naming_the_field() {
    // 9 rooted trees on 5 nodes (A000081).
    refused(
        |o| o.by_nodes.get_mut(&5).unwrap().trees += 1,
        "by_nodes[5].trees is 10, but the shard has 9 trees on 5 nodes",
    );
    refused(
        |o| {
            let c = o.by_nodes.get_mut(&5).unwrap();
            c.positions += 1;
            *o.values
                .counts
                .get_mut(&5)
                .unwrap()
                .values_mut()
                .next()
                .unwrap() += 1;
            o.work += 1;
        },
        "by_nodes[5].positions is 730, not 9 trees × 3^4",
    );
    refused(
        |o| {
            *o.values
                .counts
                .get_mut(&4)
                .unwrap()
                .values_mut()
                .next()
                .unwrap() += 1
        },
        "values.counts[4] sums to",
    );
    refused(
        |o| {
            let c = o.by_nodes.remove(&5).unwrap();
            o.by_nodes.insert(6, c);
        },
        "by_nodes has node counts",
    );
    refused(
        |o| {
            let g = o.by_nodes.get_mut(&5).unwrap();
            g.groups.get_mut(&SubjectGroup::Children2).unwrap().subjects += 1;
        },
        "by_nodes[5].groups[children=2]",
    );
    refused(
        |o| {
            let g = o.by_nodes.get_mut(&5).unwrap();
            g.groups
                .get_mut(&SubjectGroup::Children1)
                .unwrap()
                .exceptions = 1;
        },
        "exceptions[children=1]",
    );
    refused(|o| o.work += 1, "work is");
    refused(
        |o| o.by_nodes.get_mut(&3).unwrap().non_cold = 1,
        "non_cold: total 0 with 0 kept (cap 200), but 1 are counted",
    );
    refused(
        |o| {
            o.values.smallest.pop_last();
        },
        "values.smallest has",
    );
    // A record of a tree the shard does not have (a 5-node path as a
    // 6-node tree's code is not in the catalogue run).
    refused(
        |o| {
            let r = o.values.smallest.values_mut().next().unwrap();
            r.code = "E?????".into();
        },
        "is not one of the shard's trees",
    );
}

#[test]
fn a_one_node_sweep_says_node_in_the_singular() {
    for (max_nodes, words) in [(1, "Trees up to 1 node,"), (3, "Trees up to 3 nodes,")] {
        let p = TreeParams { max_nodes };
        let md = MyopicTreeSweep.report(&p, &doc(&MyopicTreeSweep, max_nodes));
        assert!(md.contains(words), "{md}");
    }
}
