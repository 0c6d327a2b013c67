use super::validate::*;
use super::*;
use crate::sweep::{run_typed, SweepKind};
use crate::uvg;

fn params(random: u64, min_n: u64, max_n: u64, seed: u64) -> Degree3Params {
    Degree3Params {
        random,
        min_n,
        max_n,
        seed,
    }
}

fn run(p: &Degree3Params, shards: u32) -> Degree3Output {
    run_typed(&Degree3Sweep, p, shards).unwrap()
}

#[test]
fn no_exceptions_and_plan_independent() {
    let p = params(40, 10, 22, 5);
    let a = run(&p, 1);
    assert_eq!(a.exceptions.count(), 0);
    let starts: u64 = a.by_n.values().map(|t| t.starts).sum();
    let want: u64 = (0..40).map(|i| instance(5, 10, 22, i).n() as u64).sum();
    assert_eq!(starts, want);
    assert_eq!(a.work, want);
    for shards in [3, 40, 500] {
        assert_eq!(a, run(&p, shards));
    }
}

/// The sweep's exact values (general solver) agree with the BitGraph
/// solver `uvg::grundy_all` on the same graphs.
#[test]
fn exact_values_agree_with_bitgraph_solver() {
    let mut hist = [0u64; 8];
    for i in 0..30 {
        let g = instance(2, 8, 18, i);
        for (v, x) in uvg::grundy_all(&g).into_iter().enumerate() {
            let pos = Position {
                n: g.n(),
                edges: g.edges().collect(),
                deleted: vec![],
                token: v,
            };
            assert_eq!(solve::value(&pos).value, x as u32);
            hist[x as usize] += 1;
        }
    }
    let p = params(30, 8, 18, 2);
    let d = Degree3Sweep.doc(&p, &run(&p, 0));
    for (v, &c) in hist.iter().enumerate() {
        assert_eq!(d.values.get(&(v as u64)).copied().unwrap_or(0), c);
    }
}

#[test]
fn reachable_positions_by_hand() {
    // Path 0-1-2 from 0: (0,{012}), (1,{12}), (2,{2}) = 3; from 1: (1,{012}),
    // (0,{0}), (2,{2}) = 3, of which (2,{2}) is shared with start 0.
    let p = BitGraph::from_edges(3, &[(0, 1), (1, 2)]);
    assert_eq!(reachable_positions(&p, 0, &mut HashSet::new()), 3);
    assert_eq!(reachable_positions(&p, 1, &mut HashSet::new()), 3);
    let mut shared = HashSet::new();
    let total: u64 = (0..3)
        .map(|v| reachable_positions(&p, v, &mut shared))
        .sum();
    // Start 2 adds (2,{012}) and (1,{01}); (0,{0}) is known from start 1.
    assert_eq!(total, 3 + 2 + 2);
    assert_eq!(shared.len() as u64, total);
}

#[test]
fn min_above_max_is_an_error() {
    let p = params(5, 20, 12, 1);
    assert!(matches!(
        Kind::plan(&Degree3Sweep, &p, 0),
        Err(SweepError::OutOfRange { .. })
    ));
    assert!(matches!(
        Degree3Sweep.run(&p, &RangeShard { start: 0, end: 1 }, &ShardCtx::detached()),
        Err(SweepError::OutOfRange { .. })
    ));
}

#[test]
fn bad_shards_and_params_are_errors() {
    let p = Degree3Sweep
        .resolve_params(&[("random".to_string(), 5)].into())
        .unwrap();
    for payload in [
        "range 0 5",
        r#"{"start":0,"end":6}"#,
        r#"{"start":0,"end":1,"x":2}"#,
    ] {
        let shard = crate::sweep::ShardSpec {
            index: 0,
            payload: payload.into(),
            estimate: 0,
        };
        assert!(
            matches!(
                SweepKind::run_shard(&Degree3Sweep, &p, &shard, &ShardCtx::detached()),
                Err(SweepError::BadShard { .. })
            ),
            "{payload:?}"
        );
    }
    let mut bad = p.clone();
    bad.remove("seed");
    assert!(matches!(
        SweepKind::plan(&Degree3Sweep, &bad, 0),
        Err(SweepError::BadParams { .. })
    ));
}

/// Every shard of real plans validates: the committed run's parameters
/// (`runs/uvg-degree3`: 200 graphs on 12..=28 vertices, seed 1) cut to
/// its first 34 graphs (two of each size), and smaller ones in several
/// plan sizes.
#[test]
fn real_shard_results_validate() {
    for (p, shards) in [
        (params(40, 10, 22, 5), 1),
        (params(40, 10, 22, 5), 7),
        (params(34, 12, 28, 1), 0),
        (params(30, 8, 12, 1), 0),
        (params(5, 6, 6, 2), 2),
    ] {
        for (s, _) in Kind::plan(&Degree3Sweep, &p, shards).unwrap() {
            let out = Degree3Sweep.run(&p, &s, &ShardCtx::detached()).unwrap();
            assert_eq!(validate(&p, &s, &out), Ok(()), "{p:?} {s:?}");
        }
    }
}

/// Forged results are refused, naming the field.
#[test]
fn forged_degree3_results_are_refused_naming_the_field() {
    let p = params(12, 8, 10, 3);
    let s = RangeShard { start: 2, end: 9 };
    let honest = Degree3Sweep.run(&p, &s, &ShardCtx::detached()).unwrap();
    assert_eq!(validate(&p, &s, &honest), Ok(()));
    let refused = |f: &dyn Fn(&mut Degree3Output), want: &str| {
        let mut out = honest.clone();
        f(&mut out);
        let e = validate(&p, &s, &out).expect_err(want);
        assert!(
            e.to_string().contains(want),
            "`{e}` does not contain `{want}`"
        );
    };
    // instances 2..9 have 10, 8, 9, 10, 8, 9, 10 vertices
    refused(
        &|o| o.by_n.get_mut(&10).unwrap().graphs += 1,
        "by_n[10].graphs is 4, but the shard has 3 graphs on 10 vertices",
    );
    refused(
        &|o| {
            let t = o.by_n.remove(&8).unwrap();
            o.by_n.insert(11, t);
        },
        "by_n has sizes",
    );
    refused(
        &|o| o.by_n.get_mut(&9).unwrap().starts += 1,
        "by_n[9].starts is 19",
    );
    refused(&|o| o.work += 1, "work is");
    refused(&|o| o.values.0.push(1), "values count");
    refused(
        &|o| o.by_n.get_mut(&9).unwrap().nodes_max.0 = u64::MAX,
        "by_n[9].nodes_max",
    );
    refused(&|o| o.tests_per_start.0[1] += 1, "tests_per_start counts");
    refused(
        &|o| o.exceptions.0.total = 1,
        "exceptions: total 1 with 0 kept",
    );
    let fake = |detail: &str, code: &str| {
        let detail = detail.to_string();
        let code = code.to_string();
        move |o: &mut Degree3Output| {
            let g = instance(3, 8, 10, 3);
            o.exceptions.add(Record {
                vertices: 8,
                edges: g.edge_count() as u32,
                code: code.clone(),
                index: 0,
                detail: detail.clone(),
                note: "forged".into(),
            });
        }
    };
    let real = graph6::encode_bitgraph(&instance(3, 8, 10, 3));
    refused(
        &fake("random graph #11, start 0", &real),
        "not a start of a graph 2..9",
    );
    refused(
        &fake("random graph #2, start 0", &real),
        "graph #2 has 10 vertices",
    );
    refused(&fake("random graph #6, start 0", &real), "graph #6 is not");
}

/// Shard results survive the store and the wire (encode, decode) as is.
#[test]
fn outputs_decode_to_themselves() {
    let kind: &dyn SweepKind = &Degree3Sweep;
    let given: Vec<(&str, u64)> = vec![("random", 3), ("min_n", 8), ("max_n", 10)];
    let given = given.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    let params = kind.resolve_params(&given).unwrap();
    for shard in kind.plan(&params, 2).unwrap() {
        let out = kind
            .run_shard(&params, &shard, &ShardCtx::detached())
            .unwrap();
        assert!(out.work() > 0);
        assert_eq!(kind.decode(&out.encode()).unwrap(), out);
    }
    assert!(kind.decode(b"{}").is_err());
}
