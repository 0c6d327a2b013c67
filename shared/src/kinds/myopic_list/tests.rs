//! Tests of `myopic-list`, with the spec's reference numbers.

use super::*;
use crate::sweep::{run_typed, ShardSpec, SweepKind};

#[test]
#[allow(clippy::needless_range_loop)]
fn segment_values_match_general_solver() {
    let mut s = Solver::new(SolverOptions::default());
    let v = list_values(&mut s.arena, 20);
    for m in 1..=20usize {
        // the tail's colour set comes from a coloured node after it
        for (t, follower) in [
            (BOTH, None),
            (RED_ONLY, Some(true)),
            (BLUE_ONLY, Some(false)),
        ] {
            let lens = [m + usize::from(follower.is_some())];
            let b = lists_board(&lens);
            let (blue, red) = match follower {
                Some(true) => (1u32 << m, 0),
                Some(false) => (0, 1u32 << m),
                None => (0, 0),
            };
            let g = s.value(&b, b.position_masks(blue, red));
            assert_eq!(g, v[m][t], "segment {m} tail {t}");
        }
    }
}

#[test]
fn small_sweep_and_counts() {
    let p = ListParams {
        max_len: 60,
        max_single: 8,
        max_forest: 6,
    };
    let r = run_typed(&MyopicListSweep, &p, 0).unwrap();
    assert_eq!(r.lemma.positions, 180);
    assert_eq!(r.lemma.exceptions.total(), 0);
    assert_eq!(
        r.single.positions,
        (1..=8).map(|n| 3u64.pow(n)).sum::<u64>()
    );
    // ordered tuples: Σ_k Σ_s C(s−1, k−1) 3^s
    let binom = |n: u64, k: u64| (0..k).fold(1u64, |a, i| a * (n - i) / (i + 1));
    let want: u64 = (2..=4u64)
        .map(|k| {
            (k..=6u64)
                .map(|s| binom(s - 1, k - 1) * 3u64.pow(s as u32))
                .sum::<u64>()
        })
        .sum();
    assert_eq!(r.forest.positions, want);
    assert_eq!(r.single.exceptions.total() + r.forest.exceptions.total(), 0);
    assert_eq!(r.work, 180 + r.single.positions + r.forest.positions);
    let d = MyopicListSweep.doc(&p, &r);
    assert_eq!(d.lemma.checked, 180);
    assert!(d.non_cold_records.is_empty());
}

#[test]
fn default_counts_match_spec() {
    // Σ 3^n for n ≤ 13 and the ordered-tuple count for ≤ 9 nodes (counting only).
    assert_eq!((1..=13).map(|n| 3u64.pow(n)).sum::<u64>(), 2_391_483);
    let tuples: u64 = (2..=4)
        .flat_map(|k| {
            (1..=9).flat_map(move |f| {
                (k..=9).flat_map(move |t| {
                    compositions(k, t, f)
                        .into_iter()
                        .filter(move |c| c.iter().sum::<usize>() == t)
                })
            })
        })
        .map(|c| 3u64.pow(c.iter().sum::<usize>() as u32))
        .sum();
    assert_eq!(tuples, 2_336_130);
}

#[test]
fn report_reads_the_document() {
    let kind = &MyopicListSweep;
    let given = [
        ("max_len".to_string(), 10),
        ("max_single".to_string(), 3),
        ("max_forest".to_string(), 4),
    ]
    .into();
    let params = SweepKind::resolve_params(kind, &given).unwrap();
    let plan = SweepKind::plan(kind, &params, 0).unwrap();
    let merged = crate::sweep::run_all_sequential(kind, &params, &plan).unwrap();
    let r = SweepKind::render(kind, &params, &merged).unwrap();
    assert_eq!(
        SweepKind::render_from_json(kind, &params, &r.results_json).unwrap(),
        r
    );
    assert!(!r.results_json.contains("non_cold_records"));
    // a document with exceptions and non-cold positions lists them
    let p: ListParams = crate::sweep::parse_typed("myopic-list", &params).unwrap();
    let mut out = ListOutput::default();
    let rec = |code: &str| Record {
        vertices: 2,
        edges: 1,
        code: code.into(),
        index: 5,
        detail: "colouring RL".into(),
        note: "value x".into(),
    };
    out.forest.exceptions.add(rec("1+1"));
    out.non_cold.add(rec("2"));
    let d = kind.doc(&p, &out);
    let md = kind.report(&p, &d);
    assert!(md.contains(
        "## forest/exceptions: 1\n\n- `1+1` (2 vertices, 1 arcs/edges), colouring RL: value x\n"
    ));
    assert!(md.contains("## non_cold: 1\n\n- `2` "));
    assert!(!md.contains("## lemma/exceptions"));
}

#[test]
fn bad_shards_and_params_are_errors() {
    let kind = &MyopicListSweep;
    let params = SweepKind::resolve_params(kind, &Default::default()).unwrap();
    let ctx = ShardCtx::detached();
    for payload in [
        "lemma",
        "\"lemmas\"",
        "{\"list\":{\"nodes\":0}}",
        "{\"list\":{\"nodes\":14}}",
        "{\"list\":{\"nodes\":3,\"x\":1}}",
        "{\"forest\":{\"lists\":5,\"first\":1}}",
        "{\"forest\":{\"lists\":2,\"first\":0}}",
        "{\"forest\":{\"lists\":2,\"first\":10}}",
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
    let p = ListParams {
        max_len: 10,
        max_single: 30,
        max_forest: 4,
    };
    assert!(matches!(
        Kind::run(kind, &p, &ListShard::Lemma, &ctx),
        Err(SweepError::BadParams { .. })
    ));
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn list_lemma_and_corollary() {
    let kind = &MyopicListSweep;
    let params = SweepKind::resolve_params(kind, &Default::default()).unwrap();
    let p: ListParams = crate::sweep::parse_typed("myopic-list", &params).unwrap();
    let d = kind.doc(&p, &run_typed(kind, &p, 0).unwrap());
    assert_eq!(d.lemma.max_len, 400);
    assert_eq!(d.lemma.checked, 1_200);
    assert_eq!(d.lemma.exceptions, 0);
    assert_eq!(d.corollary.single.positions, 2_391_483);
    assert_eq!(d.corollary.forests.positions, 2_336_130);
    assert_eq!(d.corollary.single.exceptions, 0);
    assert_eq!(d.corollary.forests.exceptions, 0);
}

/// Every shard of real plans validates (small parameters, and the plan's
/// every shard kind).
#[test]
fn real_list_shard_results_validate() {
    for p in [
        ListParams {
            max_len: 8,
            max_single: 6,
            max_forest: 6,
        },
        ListParams {
            max_len: 3,
            max_single: 3,
            max_forest: 4,
        },
    ] {
        for (s, _) in Kind::plan(&MyopicListSweep, &p, 0).unwrap() {
            let out = MyopicListSweep.run(&p, &s, &ShardCtx::detached()).unwrap();
            assert_eq!(
                Kind::validate(&MyopicListSweep, &p, &s, &out),
                Ok(()),
                "{p:?} {s:?}"
            );
        }
    }
}

/// Forged results are refused, naming the field.
#[test]
fn forged_list_results_are_refused_naming_the_field() {
    let p = ListParams {
        max_len: 5,
        max_single: 4,
        max_forest: 5,
    };
    let refused = |s: ListShard, f: &dyn Fn(&mut ListOutput), want: &str| {
        let mut out = MyopicListSweep.run(&p, &s, &ShardCtx::detached()).unwrap();
        assert_eq!(Kind::validate(&MyopicListSweep, &p, &s, &out), Ok(()));
        f(&mut out);
        let e = Kind::validate(&MyopicListSweep, &p, &s, &out).expect_err(want);
        assert!(
            e.to_string().contains(want),
            "`{e}` does not contain `{want}`"
        );
    };
    refused(
        ListShard::Lemma,
        &|o| o.lemma.positions += 1,
        "lemma.positions is 16, but the shard has 15",
    );
    refused(ListShard::List { nodes: 3 }, &|o| o.work += 1, "work is");
    refused(
        ListShard::List { nodes: 3 },
        &|o| o.forest.positions = 1,
        "forest: 1 positions, but this is a single shard",
    );
    refused(
        ListShard::Forest { lists: 2, first: 1 },
        &|o| o.forest.exceptions.0.total = 1,
        "forest.exceptions: total 1 with 0 kept",
    );
    refused(
        ListShard::List { nodes: 2 },
        &|o| {
            o.non_cold.add(crate::sweep::Record {
                vertices: 7,
                edges: 6,
                code: "7".into(),
                index: 0,
                detail: "colouring .......".into(),
                note: "value ↑".into(),
            })
        },
        "non_cold: `7` on 7 nodes is not one of the shard's lists",
    );
}
