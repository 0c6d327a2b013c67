use super::validate::*;
use super::*;
use crate::sweep::{run_typed, ShardSpec, SweepKind};

fn params() -> SearchParams {
    SearchParams {
        value: 3,
        vertices: 6,
        seeds: 8,
        steps: 3000,
        seed: 7,
    }
}

#[test]
fn finds_star3_on_six_vertices_reproducibly() {
    let p = params();
    let a = run_typed(&UvgLocalSearch, &p, 3).unwrap();
    let b = run_typed(&UvgLocalSearch, &p, 8).unwrap();
    assert_eq!(a, b, "plan-independent");
    assert_eq!(a.climbs, 8);
    let best = &a.best[&3];
    assert!(best.climbs > 0);
    let w = best.witness.0.as_ref().unwrap();
    let g = graph6::parse_bitgraph(&w.graph6).unwrap();
    assert_eq!(g.n(), 6);
    assert_eq!(
        uvg::grundy_all(&g)[w.start as usize],
        3,
        "witness re-verified"
    );
    let spec = crate::sweep::ShardSpec {
        index: 0,
        payload: r#"{"start":0,"end":2}"#.into(),
        estimate: 0,
    };
    let given = [
        ("value", 3),
        ("vertices", 6),
        ("seeds", 8),
        ("steps", 3000),
        ("seed", 7),
    ]
    .map(|(k, v)| (k.to_string(), v))
    .into();
    let resolved = UvgLocalSearch.resolve_params(&given).unwrap();
    let out =
        SweepKind::run_shard(&UvgLocalSearch, &resolved, &spec, &ShardCtx::detached()).unwrap();
    assert_eq!(
        UvgLocalSearch.decode(&out.encode()).unwrap(),
        out,
        "encoding round trip"
    );
    let doc = UvgLocalSearch.doc(&p, &a);
    assert_eq!(doc.best_values[&3].climbs, best.climbs);
    assert_eq!(doc.climbs, 8);
}

#[test]
fn plan_covers_every_seed_once() {
    let p = SearchParams {
        seeds: 10,
        ..params()
    };
    for target in [0, 1, 3, 4, 10, 50] {
        let plan = Kind::plan(&UvgLocalSearch, &p, target).unwrap();
        let mut next = 0;
        for (r, est) in &plan {
            assert_eq!(r.start, next, "target {target}");
            assert!(r.end > r.start);
            assert_eq!(*est, (r.end - r.start) * p.steps);
            next = r.end;
        }
        assert_eq!(next, 10, "target {target}");
    }
}

#[test]
fn bad_shards_and_params_are_errors() {
    let p = UvgLocalSearch
        .resolve_params(&[("vertices".to_string(), 6)].into())
        .unwrap();
    for payload in [
        "",
        "seeds 0..4",
        r#"{"start":4,"end":4}"#,
        r#"{"start":5,"end":2}"#,
        r#"{"start":0}"#,
        r#"{"start":0,"end":2,"extra":1}"#,
    ] {
        let shard = ShardSpec {
            index: 0,
            payload: payload.into(),
            estimate: 0,
        };
        assert!(
            matches!(
                SweepKind::run_shard(&UvgLocalSearch, &p, &shard, &ShardCtx::detached()),
                Err(SweepError::BadShard { .. })
            ),
            "{payload:?}"
        );
    }
    assert!(UvgLocalSearch
        .resolve_params(&[("vertices".to_string(), 17)].into())
        .is_err());
    let bad = SearchParams {
        vertices: 1,
        ..params()
    };
    assert!(matches!(
        UvgLocalSearch.run(&bad, &SeedRange { start: 0, end: 1 }, &ShardCtx::detached()),
        Err(SweepError::BadParams { .. })
    ));
}

/// Every shard of real plans validates: the first 4 climbs of the
/// committed `runs/uvg-local-search-6` (the same climbs: each seed index
/// is its own stream) and the test parameters, each in the default plan
/// and in 3 shards. (`-7`, 14 vertices, takes minutes: left out.)
#[test]
fn real_shard_results_validate() {
    let runs = [
        SearchParams {
            value: 6,
            vertices: 12,
            seeds: 4,
            steps: 20000,
            seed: 1,
        },
        SearchParams {
            seeds: 10,
            ..params()
        },
    ];
    for p in runs {
        for shards in [0, 3] {
            for (s, _) in Kind::plan(&UvgLocalSearch, &p, shards).unwrap() {
                let out = UvgLocalSearch.run(&p, &s, &ShardCtx::detached()).unwrap();
                assert_eq!(validate(&p, &s, &out), Ok(()), "{p:?} shard {s:?}");
            }
        }
    }
}

/// `f` applied to the result of seeds 2..6 under [`params`] is refused
/// with a message containing `want`.
fn refused(f: impl FnOnce(&mut SearchOutput), want: &str) {
    let p = params();
    let s = SeedRange { start: 2, end: 6 };
    let mut out = UvgLocalSearch.run(&p, &s, &ShardCtx::detached()).unwrap();
    assert_eq!(validate(&p, &s, &out), Ok(()));
    f(&mut out);
    let e = validate(&p, &s, &out).expect_err(want);
    assert!(
        e.to_string().contains(want),
        "`{e}` does not contain `{want}`"
    );
}

/// Each forged field is refused, naming it.
#[test]
fn forged_search_results_are_refused_naming_the_field() {
    refused(
        |o| o.climbs += 1,
        "climbs is 5, but the shard has the 4 seed indices 2..6",
    );
    refused(
        |o| o.steps = 4 * 3000 + 1,
        "steps is 12001, above 4 climbs × 3000 steps",
    );
    refused(|o| o.evaluations = 3, "evaluations is 3");
    refused(
        |o| o.best.values_mut().next().unwrap().climbs += 1,
        "best: climbs sum to Some(5)",
    );
    // Three climbs ending below *3 each ran 3,000 steps.
    refused(
        |o| {
            let b = o.best.remove(&3).unwrap();
            o.best.insert(2, b);
        },
        "climbs ended below *3",
    );
    refused(
        |o| {
            let b = o.best.remove(&3).unwrap();
            o.best.insert(6, b);
        },
        "best[6]: a start's value on 6 vertices is below 6",
    );
    refused(
        |o| {
            let w = o.best.get_mut(&3).unwrap().witness.0.as_mut().unwrap();
            w.seed_index = 7;
        },
        "best[3].witness.seed_index is 7",
    );
    refused(
        |o| {
            let w = o.best.get_mut(&3).unwrap().witness.0.as_mut().unwrap();
            w.graph6 = "E?~w".into(); // a 6-vertex graph, disconnected
        },
        "best[3].witness.graph6",
    );
    // A witness of another size.
    refused(
        |o| {
            let w = o.best.get_mut(&3).unwrap().witness.0.as_mut().unwrap();
            w.graph6 = "Dr{".into();
        },
        "not a connected graph on 6 vertices",
    );
    // The path on 6 vertices: connected, but no start of value 3.
    refused(
        |o| {
            let w = o.best.get_mut(&3).unwrap().witness.0.as_mut().unwrap();
            w.graph6 = graph6::encode_bitgraph(&{
                let mut g = BitGraph::new(6);
                for v in 1..6 {
                    g.add_edge(v - 1, v);
                }
                g
            });
            w.edges = 5;
        },
        "best[3].witness: `",
    );
}
