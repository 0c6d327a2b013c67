use super::validate::validate_col;
use super::*;
use crate::sweep::{run_typed, ShardSpec, SweepKind};

#[test]
fn col_small_and_plan_independent() {
    let p = ColParams { max_n: 6 };
    let a = run_typed(&ColSweep, &p, 1).unwrap();
    let b = run_typed(&ColSweep, &p, 5).unwrap();
    assert_eq!(a, b);
    let total: u64 = a.by_n.values().map(|c| c.positions).sum();
    // the cgt-check Col set is exactly these positions
    assert_eq!(total, 18_037);
    assert_eq!(a.work, 18_037);
    assert_eq!(a.non_cold.total(), 0);
    let graphs: Vec<u64> = (1..=6).map(|n| a.by_n[&n].graphs).collect();
    assert_eq!(graphs, vec![1, 1, 2, 6, 21, 112]);
    // empty boards are 0 or * (symmetric); each graph has one
    for c in a.by_n.values() {
        assert_eq!(c.empty_zero + c.empty_star, c.graphs);
        assert_eq!(c.empty_other, 0);
    }
    let d = ColSweep.doc(&p, &a);
    assert_eq!(d.totals.positions, 18_037);
    assert_eq!(d.by_n.len(), 6);
    assert_eq!(d.values.len(), d.totals.distinct_values);
}

#[test]
fn outputs_round_trip_through_their_encoding() {
    let params = SweepKind::resolve_params(&ColSweep, &[("max_n".into(), 5)].into()).unwrap();
    let plan = SweepKind::plan(&ColSweep, &params, 3).unwrap();
    let mut merged = ColSweep.empty();
    for shard in &plan {
        let out = ColSweep
            .run_shard(&params, shard, &ShardCtx::detached())
            .unwrap();
        let back = ColSweep.decode(&out.encode()).unwrap();
        assert_eq!(back, out);
        merged.merge(back).unwrap();
    }
    let r: &ColOutput = merged.get("col").unwrap();
    assert_eq!(r.work, 3 + 7 + 30 + 200 + 1481);
}

#[test]
fn bad_graph_shard_and_params_are_errors() {
    let ctx = ShardCtx::detached();
    let params = SweepKind::resolve_params(&ColSweep, &[("max_n".into(), 4)].into()).unwrap();
    let shard = ShardSpec {
        index: 0,
        payload: "{\"top\":{\"depth\":40}}".into(),
        estimate: 0,
    };
    assert!(matches!(
        ColSweep.run_shard(&params, &shard, &ctx),
        Err(SweepError::BadShard { .. })
    ));
}

/// Every shard of real plans validates (`col` up to 6 and 7 vertices in
/// several plan sizes).
#[test]
fn real_col_shard_results_validate() {
    for (max_n, shards) in [(1, 1), (6, 1), (6, 5), (7, 0), (7, 12)] {
        let p = ColParams { max_n };
        for (s, _) in Kind::plan(&ColSweep, &p, shards).unwrap() {
            let out = ColSweep.run(&p, &s, &ShardCtx::detached()).unwrap();
            assert_eq!(validate_col(&p, &s, &out), Ok(()), "max_n {max_n} {s:?}");
        }
    }
}

/// `f` applied to the result of the prefix shard of `col --max-n 5` in
/// one shard (3..=5 vertices) is refused with a message containing `want`.
fn refused(f: impl FnOnce(&mut ColOutput), want: &str) {
    let p = ColParams { max_n: 5 };
    let (s, _) = Kind::plan(&ColSweep, &p, 1).unwrap().pop().unwrap();
    assert!(matches!(s, GraphShard::Prefixes { .. }));
    let mut out = ColSweep.run(&p, &s, &ShardCtx::detached()).unwrap();
    assert_eq!(validate_col(&p, &s, &out), Ok(()));
    f(&mut out);
    let e = validate_col(&p, &s, &out).expect_err(want);
    assert!(
        e.to_string().contains(want),
        "`{e}` does not contain `{want}`"
    );
}

/// Each forged field is refused, naming it.
#[test]
fn forged_col_results_are_refused_naming_the_field() {
    refused(
        |o| {
            let c = o.by_n.get_mut(&5).unwrap();
            c.graphs += 1;
            c.empty_zero += 1;
        },
        "by_n[5].graphs is 22: there are 1..=21 connected graphs on 5 vertices",
    );
    refused(
        |o| {
            let c = *o.by_n.get(&5).unwrap();
            o.by_n.insert(2, c);
        },
        "by_n[2]: this shard only has graphs on 3..=5 vertices",
    );
    refused(
        |o| o.by_n.get_mut(&4).unwrap().positions += 1,
        "values.counts[4] sums to",
    );
    refused(
        |o| o.by_n.get_mut(&4).unwrap().empty_star += 1,
        "by_n[4].empty_zero: 7 empty boards",
    );
    refused(|o| o.work += 1, "work is");
    refused(
        |o| o.by_n.get_mut(&4).unwrap().non_cold = 1,
        "non_cold: total 0 with 0 kept, but 1 non-cold",
    );
    refused(
        |o| {
            o.values.smallest.pop_first();
        },
        "values.smallest has",
    );
    // A smallest position of another size (the 2-vertex path is not in
    // this shard).
    refused(
        |o| {
            let (v, r) = o.values.smallest.pop_first().unwrap();
            let x = crate::sweep::Record {
                vertices: 2,
                edges: 1,
                code: "A_".into(),
                index: 0,
                detail: "colouring ..".into(),
                note: r.note.clone(),
            };
            o.values.smallest.insert(v, x);
        },
        "values.smallest[*]: no position of value * on 2 vertices is counted",
    );
    // A smallest position whose value is not the one claimed: swap the
    // positions of two values.
    refused(
        |o| {
            let mut it = o.values.smallest.iter_mut();
            let (a, ra) = it.next().unwrap();
            let (b, rb) = it.next().unwrap();
            std::mem::swap(&mut ra.code, &mut rb.code);
            std::mem::swap(&mut ra.vertices, &mut rb.vertices);
            std::mem::swap(&mut ra.edges, &mut rb.edges);
            std::mem::swap(&mut ra.index, &mut rb.index);
            std::mem::swap(&mut ra.detail, &mut rb.detail);
            assert_ne!(a, b);
        },
        "values.smallest[",
    );
    // A forged non-cold record: a real position, counted, but cold.
    refused(
        |o| {
            let r = o.values.smallest.values().next().unwrap().clone();
            let n = r.vertices;
            o.by_n.get_mut(&n).unwrap().non_cold = 1;
            o.non_cold.add(crate::sweep::Record {
                note: "value ↑".into(),
                ..r
            });
        },
        "non_cold[`",
    );
}

// Release-mode reproduction of the spec's headline table (a few CPU seconds
// in release; ignored in debug builds, where it would take minutes).
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
