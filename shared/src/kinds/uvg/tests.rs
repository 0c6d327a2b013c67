//! Tests of the `uvg` sweep against the spec's reference numbers.
use super::validate::*;

use super::*;
use crate::sweep::{run_typed, ShardSpec, SweepKind};

fn params(max_n: usize) -> UvgParams {
    UvgParams {
        max_n,
        collect_min_value: 0,
        extension_value: 0,
    }
}

fn table(max_n: usize, shards: u32) -> UvgDoc {
    let p = params(max_n);
    UvgSweep.doc(&p, &run_typed(&UvgSweep, &p, shards).unwrap())
}

/// The spec's UVG table for n ≤ 8 (MISSION.md), row by row: graphs, pairs, Grundy histogram.
#[test]
fn reproduces_spec_table_up_to_8() {
    let want: &[(u64, u64, &[u64])] = &[
        (1, 1, &[1]),
        (1, 2, &[0, 2]),
        (2, 6, &[5, 1]),
        (6, 24, &[3, 14, 7]),
        (21, 105, &[83, 11, 11]),
        (112, 672, &[70, 424, 156, 22]),
        (853, 5_971, &[4_898, 667, 372, 34]),
        (11_117, 88_936, &[4_357, 59_405, 18_880, 5_854, 440]),
    ];
    let doc = table(8, 0);
    for (i, (graphs, pairs, hist)) in want.iter().enumerate() {
        let row = &doc.by_n[i];
        assert_eq!(row.n, i + 1);
        assert_eq!(row.graphs, *graphs, "n = {}", i + 1);
        assert_eq!(row.positions, *pairs, "n = {}", i + 1);
        for (v, &c) in hist.iter().enumerate() {
            let got = row.grundy.get(&(v as u8)).copied().unwrap_or(0);
            assert_eq!(got, c, "n = {} value {v}", i + 1);
        }
        assert_eq!(row.matching_exceptions, 0);
        assert_eq!(row.maxdeg3.exceptions, 0);
    }
    // Smallest vertex counts for *0..*4: 1, 2, 4, 6, 8.
    for (v, n) in [(0u8, 1), (1, 2), (2, 4), (3, 6), (4, 8)] {
        let first = doc.by_n.iter().find(|r| r.witnesses.contains_key(&v));
        assert_eq!(first.unwrap().n, n, "smallest *{v}");
    }
    // The smallest *3 has 6 vertices and 6 edges.
    assert_eq!(doc.by_n[5].witnesses[&3].edges, 6);
}

#[test]
fn merged_result_is_independent_of_the_plan() {
    let p = params(7);
    let a = run_typed(&UvgSweep, &p, 1).unwrap();
    for shards in [2, 5, 17, 300] {
        assert_eq!(
            a,
            run_typed(&UvgSweep, &p, shards).unwrap(),
            "shards = {shards}"
        );
    }
    // Merging in another order and grouping gives the same result.
    let parts: Vec<UvgOutput> = Kind::plan(&UvgSweep, &p, 17)
        .unwrap()
        .iter()
        .map(|(s, _)| UvgSweep.run(&p, s, &ShardCtx::detached()).unwrap())
        .collect();
    let mut rev = UvgOutput::default();
    for x in parts.iter().rev().cloned() {
        rev.merge(x).unwrap();
    }
    assert_eq!(a, rev);
}

/// The extension step and the collected positions: the smallest *3 (6
/// vertices) is built from the 5-vertex graph with starts 0, *, *2.
#[test]
fn extensions_and_collected_positions() {
    let p = UvgParams {
        max_n: 6,
        collect_min_value: 3,
        extension_value: 0,
    };
    let doc = UvgSweep.doc(&p, &run_typed(&UvgSweep, &p, 3).unwrap());
    let ext = &doc.by_n[4].extensions[&3];
    assert_eq!(ext.graphs, 1);
    assert_eq!(ext.extended_value, Some(3));
    assert_eq!(ext.extended_start, Some(5));
    let c = doc.by_n[5].collected.as_ref().unwrap();
    assert_eq!(c.count, doc.by_n[5].grundy[&3]);
    assert_eq!(c.positions.len() as u64, c.count);
    for line in &c.positions {
        let (code, start) = line.split_once(' ').unwrap();
        let g = graph6::parse_bitgraph(code).unwrap();
        assert_eq!(uvg::grundy_all(&g)[start.parse::<usize>().unwrap()], 3);
    }
    assert_eq!(doc.by_n[0].collected.as_ref().unwrap().count, 0);
    let exports = UvgSweep.exports(&p, &doc);
    assert_eq!(exports.len(), 1);
    assert_eq!(exports[0].0, "collected-min-value-3.txt");
    assert_eq!(exports[0].1.lines().count() as u64, c.count);
    // Without collecting there is no `collected` field and no export.
    let off = table(6, 3);
    assert!(off.by_n.iter().all(|r| r.collected.is_none()));
    assert!(UvgSweep.exports(&params(6), &off).is_empty());
}

#[test]
fn bad_shards_and_params_are_errors() {
    let p = UvgSweep
        .resolve_params(&[("max_n".to_string(), 5)].into())
        .unwrap();
    for payload in [
        "",
        "top",
        "prefixes 3 Bw?",
        r#"{"top":{"depth":1}}"#,
        r#"{"prefixes":{"depth":3,"prefixes":[]}}"#,
        r#"{"prefixes":{"depth":3,"prefixes":["Bw?"]}}"#,
        r#"{"prefixes":{"depth":2,"prefixes":["Bw"]}}"#,
        r#"{"frobnicate":{"depth":2}}"#,
    ] {
        let shard = ShardSpec {
            index: 0,
            payload: payload.into(),
            estimate: 0,
        };
        assert!(
            matches!(
                SweepKind::run_shard(&UvgSweep, &p, &shard, &ShardCtx::detached()),
                Err(SweepError::BadShard { .. })
            ),
            "{payload:?}"
        );
    }
    for (name, value) in [("max_n", 13), ("max_n", 0), ("collect_min_value", 32)] {
        assert!(
            UvgSweep
                .resolve_params(&[(name.to_string(), value)].into())
                .is_err(),
            "{name} = {value}"
        );
    }
    let big = UvgParams {
        max_n: 40,
        collect_min_value: 0,
        extension_value: 0,
    };
    assert!(matches!(
        Kind::plan(&UvgSweep, &big, 1),
        Err(SweepError::BadParams { .. })
    ));
    let top = GraphShard::Top { depth: 3 };
    assert!(matches!(
        UvgSweep.run(&big, &top, &ShardCtx::detached()),
        Err(SweepError::BadParams { .. })
    ));
}

/// Shard estimates are positions: their sum is close to the exact total the
/// sweep counts (2,445,437 at n ≤ 9), each shard's is close to its own count,
/// and the plan (estimates included) is the same on every call.
#[test]
fn shard_estimates_track_the_positions_counted() {
    let p = params(9);
    let plan = Kind::plan(&UvgSweep, &p, 16).unwrap();
    assert_eq!(
        plan,
        Kind::plan(&UvgSweep, &p, 16).unwrap(),
        "deterministic plan"
    );
    let mut total = (0u64, 0u64);
    for (i, (s, estimate)) in plan.iter().enumerate() {
        let got = UvgSweep.run(&p, s, &ShardCtx::detached()).unwrap().work();
        let (e, g) = (*estimate as f64, got as f64);
        assert!(
            (e - g).abs() <= 0.35 * g,
            "shard {i}: estimate {e} vs {g} positions"
        );
        total.0 += estimate;
        total.1 += got;
    }
    assert_eq!(total.1, 2_445_437);
    let err = (total.0 as f64 - total.1 as f64).abs() / total.1 as f64;
    assert!(err < 0.05, "total estimate {} vs {}", total.0, total.1);
}

/// A shard's result survives the store's encoding (JSON with integer map keys).
#[test]
fn results_round_trip_through_their_encoding() {
    let p = UvgSweep
        .resolve_params(
            &[
                ("max_n".to_string(), 6),
                ("collect_min_value".to_string(), 2),
            ]
            .into(),
        )
        .unwrap();
    let plan = SweepKind::plan(&UvgSweep, &p, 2).unwrap();
    let out = SweepKind::run_shard(&UvgSweep, &p, &plan[0], &ShardCtx::detached()).unwrap();
    assert!(out.work() > 0);
    assert_eq!(UvgSweep.decode(&out.encode()).unwrap(), out);
    assert!(matches!(
        UvgSweep.decode(b"{\"counters\":{}}"),
        Err(SweepError::BadResult { .. })
    ));
}

/// Every shard of real plans (with collected positions, so every record set
/// is exercised) validates.
#[test]
fn real_shard_results_validate() {
    for (max_n, collect, shards) in [(5, 0, 1), (7, 2, 17), (8, 4, 40)] {
        let p = UvgParams {
            max_n,
            collect_min_value: collect,
            extension_value: 0,
        };
        for (s, _) in Kind::plan(&UvgSweep, &p, shards).unwrap() {
            let out = UvgSweep.run(&p, &s, &ShardCtx::detached()).unwrap();
            assert_eq!(validate(&p, &s, &out), Ok(()), "max_n {max_n} shard {s:?}");
            assert_eq!(recount(&p, &s, &out), Ok(()), "max_n {max_n} shard {s:?}");
        }
    }
}

/// Issue 24: "claiming one graph fewer with positions, cover and
/// first-player wins adjusted, is accepted" by validation; the recount
/// (enumerating the shard's graphs, no solving) refuses it, naming the
/// field. So does a degree-3 count off by one.
#[test]
fn a_consistent_undercount_passes_validation_but_not_the_recount() {
    let (p, s, mut out) = n5();
    let c = out
        .by_n
        .get_mut(&5)
        .expect("the n = 5 shard has graphs on 5 vertices");
    c.graphs -= 1;
    c.positions -= 5;
    *c.grundy.get_mut(&0).expect("value-0 starts") -= 5;
    let (&t, _) = c.cover.iter().next_back().expect("a cover row");
    *c.cover.get_mut(&t).unwrap() -= 1;
    if c.degree3.graphs > c.graphs {
        c.degree3.graphs -= 1;
        c.degree3.positions -= 5;
    }
    assert_eq!(validate(&p, &s, &out), Ok(()), "the lie is consistent");
    let e = recount(&p, &s, &out).unwrap_err();
    assert!(
        e.to_string()
            .contains("by_n[5].graphs is 20, but the shard holds 21"),
        "{e}"
    );
    // the error names the field it refuses
    assert_eq!(e.field, "by_n[5].graphs");
    // A degree-3 count off by one.
    let (_, s2, mut out2) = n5();
    out2.by_n.get_mut(&4).unwrap().degree3.graphs += 1;
    let e = recount(&p, &s2, &out2).unwrap_err();
    assert!(e.to_string().contains("by_n[4].degree3.graphs"), "{e}");
}

/// The prefix shard of `--max-n 5` in one shard (graphs on 3..=5 vertices;
/// the top shard has the rest) and its result, for tampering.
fn n5() -> (UvgParams, GraphShard, UvgOutput) {
    let p = params(5);
    let (s, _) = Kind::plan(&UvgSweep, &p, 1).unwrap().pop().unwrap();
    assert!(matches!(s, GraphShard::Prefixes { .. }));
    let out = UvgSweep.run(&p, &s, &ShardCtx::detached()).unwrap();
    (p, s, out)
}

/// `f` applied to a real n ≤ 5 result is refused with a message containing `want`.
fn refused(f: impl FnOnce(&mut UvgOutput), want: &str) {
    let (p, s, mut out) = n5();
    f(&mut out);
    let e = validate(&p, &s, &out).expect_err(want);
    assert!(
        e.to_string().contains(want),
        "`{e}` does not contain `{want}`"
    );
}

/// Defect 1: QA submitted 1,000 extra graphs at n = 5 (1,021; truly 21),
/// with a *7 column, and they were merged. Each lie is refused on its own.
#[test]
fn forged_uvg_results_are_refused_naming_the_field() {
    // 1,000 extra graphs, positions and histogram kept consistent.
    refused(
        |o| {
            let c = o.by_n.get_mut(&5).unwrap();
            c.graphs += 1000;
            c.positions += 5000;
            *c.grundy.get_mut(&0).unwrap() += 5000;
            *c.cover.get_mut(&1).unwrap() += 1000;
        },
        "by_n[5].graphs is 1021",
    );
    refused(
        |o| o.by_n.get_mut(&5).unwrap().graphs -= 1,
        "by_n[5].positions is 105, not 5 × 20",
    );
    refused(
        |o| o.by_n.get_mut(&5).unwrap().positions += 5,
        "by_n[5].positions",
    );
    refused(
        |o| {
            o.by_n.get_mut(&5).unwrap().grundy.insert(7, 1);
        },
        "by_n[5].grundy: value 7",
    );
    refused(
        |o| *o.by_n.get_mut(&5).unwrap().grundy.get_mut(&1).unwrap() += 1,
        "by_n[5].grundy sums",
    );
    refused(
        |o| {
            *o.by_n
                .get_mut(&4)
                .unwrap()
                .cover
                .values_mut()
                .next()
                .unwrap() += 1
        },
        "by_n[4].cover sums",
    );
    refused(
        |o| o.by_n.get_mut(&5).unwrap().first_player_wins += 1,
        "by_n[5].first_player_wins",
    );
    refused(
        |o| o.by_n.get_mut(&5).unwrap().first_player_wins = 1_000,
        "by_n[5].first_player_wins is 1000, above",
    );
    refused(
        |o| o.by_n.get_mut(&5).unwrap().degree3.graphs += 1,
        "by_n[5].degree3",
    );
    refused(
        |o| o.by_n.get_mut(&3).unwrap().matching_exceptions.total = 1_000,
        "by_n[3].matching_exceptions.total is 1000",
    );
    refused(
        |o| {
            o.by_n.insert(6, o.by_n[&5].clone());
        },
        "by_n[6]: this shard only has graphs on 3..=5 vertices",
    );
    // A witness of the wrong value, one not connected, one of 31 vertices.
    refused(
        |o| {
            let c = o.by_n.get_mut(&5).unwrap();
            let zero = c.witnesses[&0].clone();
            c.witnesses.insert(2, zero);
        },
        "by_n[5].witnesses[2]: `",
    );
    refused(
        |o| {
            let w = o.by_n.get_mut(&4).unwrap().witnesses.get_mut(&0).unwrap();
            *w = Smallest(Some(StartWitness {
                edges: 0,
                graph6: "C?".into(),
                start: 0,
            }));
        },
        "by_n[4].witnesses[0]: `C?` is not connected",
    );
    let big = graph6::encode_bitgraph(&BitGraph::from_edges(
        31,
        &(0..30).map(|i| (i, i + 1)).collect::<Vec<_>>(),
    ));
    refused(
        |o| {
            let w = o
                .by_n
                .get_mut(&5)
                .unwrap()
                .cover_witnesses
                .get_mut(&3)
                .unwrap();
            w.0.as_mut().unwrap().graph6 = big;
        },
        "by_n[5].cover_witnesses[3]: witness on 31 vertices exceeds the validation budget",
    );
}

/// A witness from another shard's subtree is refused: it is not below any
/// of this shard's prefixes.
#[test]
fn witnesses_must_lie_in_their_shard() {
    let p = params(7);
    let plan = Kind::plan(&UvgSweep, &p, 17).unwrap();
    let outs: Vec<UvgOutput> = plan
        .iter()
        .map(|(s, _)| UvgSweep.run(&p, s, &ShardCtx::detached()).unwrap())
        .collect();
    // Two prefix shards with a witness of value 0 on 7 vertices each.
    let with = |i: usize| {
        outs[i]
            .by_n
            .get(&7)
            .and_then(|c| c.witnesses.get(&0))
            .cloned()
    };
    let idx: Vec<usize> = (1..plan.len()).filter(|&i| with(i).is_some()).collect();
    assert!(idx.len() >= 2);
    let (a, b) = (idx[0], idx[1]);
    let mut forged = outs[a].clone();
    let theirs = with(b).unwrap();
    assert_ne!(forged.by_n[&7].witnesses[&0], theirs);
    forged.by_n.get_mut(&7).unwrap().witnesses.insert(0, theirs);
    let e = validate(&p, &plan[a].0, &forged).unwrap_err();
    assert!(e.to_string().contains("is not in this shard"), "{e}");
}

/// Defect 2: two counters of 2^64 − 1 merged to 2^64 − 2. Now an error
/// naming the counter.
#[test]
fn merging_past_u64_is_an_error_not_a_wrap() {
    let (_, _, mut a) = n5();
    a.by_n.get_mut(&5).unwrap().graphs = u64::MAX;
    let b = a.clone();
    let e = a.merge(b).unwrap_err();
    assert_eq!(e.field, "by_n[5].graphs");
    // Through the erased view, as the coordinator merges.
    let kind: &dyn SweepKind = &UvgSweep;
    let mut x = kind.decode(&serde_json::to_vec(&a).unwrap()).unwrap();
    let y = x.clone();
    let e = x.merge(y).unwrap_err().to_string();
    assert!(e.contains("counter `by_n[5].graphs` overflows u64"), "{e}");
}

/// Defect 3: rendering re-solved a stored cover witness with no bound (a
/// 31-vertex witness spun forever). It now renders as unknown, at once.
#[test]
fn rendering_a_huge_cover_witness_is_bounded() {
    let (p, _, mut out) = n5();
    let big = graph6::encode_bitgraph(&BitGraph::from_edges(
        31,
        &(0..30).map(|i| (i, i + 1)).collect::<Vec<_>>(),
    ));
    let c = out.by_n.get_mut(&5).unwrap();
    c.cover_witnesses
        .get_mut(&3)
        .unwrap()
        .0
        .as_mut()
        .unwrap()
        .graph6 = big.clone();
    let t = std::time::Instant::now();
    let doc = UvgSweep.doc(&p, &out);
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
    let ext = &doc.by_n[4].extensions[&3];
    assert_eq!(ext.smallest_base.as_deref(), Some(big.as_str()));
    assert_eq!(ext.extended_value, None);
    let _ = UvgSweep.report(&p, &doc);
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
}

/// Split shards (`res/mod` cuts) give the same merged result as one shard,
/// for several cut layouts, and each shard's result validates.
#[test]
fn split_shards_merge_to_the_same_result() {
    use crate::sweep::graphplan::Cut;
    let p = UvgParams {
        max_n: 7,
        collect_min_value: 2,
        extension_value: 0,
    };
    let whole = run_typed(&UvgSweep, &p, 1).unwrap();
    for layout in [
        vec![(5, 3)],
        vec![(4, 2), (6, 5)],
        vec![(3, 2), (5, 3), (6, 4)],
    ] {
        let mut merged = UvgOutput::default();
        let mut residues = vec![vec![]];
        for &(level, modulus) in &layout {
            residues = residues
                .into_iter()
                .flat_map(|c: Vec<Cut>| {
                    (0..modulus).map(move |res| {
                        let mut c = c.clone();
                        c.push(Cut {
                            level,
                            res,
                            modulus,
                        });
                        c
                    })
                })
                .collect();
        }
        for cuts in residues {
            let s = GraphShard::Split { cuts };
            let out = UvgSweep.run(&p, &s, &ShardCtx::detached()).unwrap();
            assert_eq!(validate(&p, &s, &out), Ok(()), "{s:?}");
            assert_eq!(recount(&p, &s, &out), Ok(()), "{s:?}");
            merged.merge(out).unwrap();
        }
        assert_eq!(merged, whole, "layout {layout:?}");
    }
}

/// The smallest-*k search inside the sweep: k = 5 one vertex past n ≤ 7
/// (C on 8 vertices, the question "*5 on 9?", answer no), the same figures
/// for every plan, every shard's result valid, and the report's verdict.
#[test]
fn extension_search_rides_on_the_sweep() {
    let p = UvgParams {
        max_n: 7,
        collect_min_value: 0,
        extension_value: 5,
    };
    let kind = UvgSweep;
    let mut docs = Vec::new();
    for shards in [1u32, 7, 40] {
        let plan = Kind::plan(&kind, &p, shards).unwrap();
        let mut merged = UvgOutput::default();
        for (shard, _) in &plan {
            let out = Kind::run(&kind, &p, shard, &ShardCtx::detached()).unwrap();
            validate(&p, shard, &out).unwrap();
            merged.merge(out).unwrap();
        }
        docs.push(Kind::doc(&kind, &p, &merged));
    }
    assert!(docs.windows(2).all(|w| w[0] == w[1]));
    let e = docs[0].extension_search.as_ref().unwrap();
    // The k = 5 figures of the module's own exhaustive check: 15 + 12 graphs
    // D, 597 sets T, all exact, no hit.
    assert_eq!((e.d_case_a, e.d_case_b, e.t_sets), (15, 12, 597));
    assert_eq!((e.c_exact, e.hits, e.witness.is_none()), (597, 0, true));
    assert!(e.premise_1 && e.premise_2);
    assert_eq!(e.graphs.len(), 27);
    let md = Kind::report(&kind, &p, &docs[0]);
    assert!(md.contains("**no *5 exists on 9 vertices**"), "{md}");
    // Without the search the document and the result carry nothing new.
    let off = UvgParams {
        extension_value: 0,
        ..p.clone()
    };
    let plan = Kind::plan(&kind, &off, 1).unwrap();
    let out = Kind::run(&kind, &off, &plan[0].0, &ShardCtx::detached()).unwrap();
    assert!(out.extension.is_empty());
    assert!(Kind::doc(&kind, &off, &out).extension_search.is_none());
}

/// With a premise false (k = 5 asked one vertex past n ≤ 8, where *4 has 8
/// vertices) the report says the search decides nothing, and a forged
/// count or record is refused by validation.
#[test]
fn extension_search_checks_premises_and_forgeries() {
    let p = UvgParams {
        max_n: 8,
        collect_min_value: 0,
        extension_value: 5,
    };
    let kind = UvgSweep;
    let plan = Kind::plan(&kind, &p, 1).unwrap();
    let mut merged = UvgOutput::default();
    let mut outs = Vec::new();
    for (shard, _) in &plan {
        let out = Kind::run(&kind, &p, shard, &ShardCtx::detached()).unwrap();
        outs.push((shard.clone(), out.clone()));
        merged.merge(out).unwrap();
    }
    let doc = Kind::doc(&kind, &p, &merged);
    let e = doc.extension_search.as_ref().unwrap();
    assert!(!e.premise_1);
    assert!(Kind::report(&kind, &p, &doc).contains("The premises do not hold"));
    let (shard, out) = outs
        .iter()
        .find(|(_, o)| !o.extension.graphs.is_empty())
        .expect("some shard has a graph D");
    let mut forged = out.clone();
    forged.extension.t_sets += 1;
    assert!(validate(&p, shard, &forged)
        .unwrap_err()
        .to_string()
        .contains("sets T"));
    let mut forged = out.clone();
    let first = forged.extension.graphs.pop_first().unwrap();
    let (g6, _) = first.split_once(' ').unwrap();
    forged
        .extension
        .graphs
        .insert(format!("{g6} 0,0,0,0,0,0,0,0"));
    assert!(validate(&p, shard, &forged).is_err());
}

/// The cheap truths of a finished document: the committed n ≤ 9 run holds
/// them all; one graph fewer at n = 8 is named, with the right count.
#[test]
fn truths_recompute_the_graph_counts_and_name_a_wrong_one() {
    let json = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg/results.json"),
    )
    .unwrap();
    let mut doc: UvgDoc = serde_json::from_str(&json).unwrap();
    let good = Kind::truths(&UvgSweep, &doc);
    assert_eq!(good.len(), 9);
    assert!(good.iter().all(|c| c.ok), "{good:?}");
    assert_eq!(good[0].detail, "1 graph, 1 position");
    assert_eq!(good[8].detail, "261,080 graphs, 2,349,720 positions");
    let row = doc.by_n.iter_mut().find(|r| r.n == 8).unwrap();
    row.graphs -= 1;
    row.positions -= 8;
    let bad = Kind::truths(&UvgSweep, &doc);
    let failed: Vec<_> = bad.iter().filter(|c| !c.ok).collect();
    assert_eq!(failed.len(), 1, "{bad:?}");
    assert!(
        failed[0]
            .detail
            .contains("11,116 graphs and 88,928 positions"),
        "{}",
        failed[0].detail
    );
    assert!(failed[0].detail.contains("11,117 connected graphs"));
}
