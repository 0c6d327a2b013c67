use super::run::check_digraph;
use super::validate::validate;
use super::*;
use crate::sweep::{run_typed, ShardSpec, SweepKind};

#[test]
fn real_shard_results_validate_and_forged_ones_are_refused() {
    // The committed run's parameters (runs/uvg-reduction) in its default
    // plan, and another seed and plan.
    let mut outs = Vec::new();
    for (p, shards) in [
        (
            ReductionParams {
                random: 400,
                seed: 1,
            },
            0,
        ),
        (
            ReductionParams {
                random: 40,
                seed: 3,
            },
            6,
        ),
    ] {
        for (shard, _) in &Kind::plan(&ReductionSweep, &p, shards).unwrap() {
            let out = Kind::run(&ReductionSweep, &p, shard, &ShardCtx::detached()).unwrap();
            assert_eq!(validate(&p, shard, &out), Ok(()), "{shard:?}");
            outs.push((*shard, out));
        }
    }
    let p = ReductionParams {
        random: 40,
        seed: 3,
    };
    let (shard, out) = outs.last().unwrap().clone();
    let refused = |f: &dyn Fn(&mut ReductionOutput), field: &str| {
        let mut o = out.clone();
        f(&mut o);
        let e = validate(&p, &shard, &o).unwrap_err();
        assert!(e.to_string().contains(field), "{field}: {e}");
    };
    refused(&|o| o.random.digraphs += 1, "random.digraphs");
    refused(&|o| o.random.positions += 1, "random.positions");
    refused(&|o| o.random.gadgets -= 1, "random.gadgets");
    refused(&|o| o.random.main_p.add(1), "main_p");
    refused(
        &|o| {
            // A position moved from P = * to P = 2: the claim now fails there.
            o.random.main_p.0[1] -= 1;
            o.random.main_p.add(2);
        },
        "exceptions.main",
    );
    refused(&|o| o.random.prefix.add(2), "random.prefix");
    refused(
        &|o| o.exceptions.wrong_way.0.total += 1,
        "exceptions.wrong_way",
    );
}

#[test]
fn instance_numbering() {
    assert_eq!(exhaustive_digraphs(), 1 + 4 + 64);
    let (p, _, d) = instance(1, 0);
    assert_eq!((p, d.n()), (Part::Exhaustive, 1));
    let (_, _, d) = instance(1, 4);
    assert_eq!((d.n(), d.arc_count()), (2, 2));
    let (_, _, d) = instance(1, 68);
    assert_eq!((d.n(), d.arc_count()), (3, 6));
    let (p, i, d) = instance(9, 69 + 5);
    assert_eq!((p, i), (Part::Random, 5));
    assert_eq!(d, random_digraph4(9, 5));
    // 201 exhaustive positions: 1·1 + 2·4 + 3·64.
    assert_eq!(positions_in(0, 69), 201);
    assert_eq!(positions_in(0, 69 + 400), 1801);
    assert_eq!(positions_in(3, 70), positions_in(3, 69) + 4);
}

fn params(random: u64, seed: u64) -> ReductionParams {
    ReductionParams { random, seed }
}

fn run(p: &ReductionParams, shards: u32) -> ReductionOutput {
    run_typed(&ReductionSweep, p, shards).unwrap()
}

fn doc(p: &ReductionParams, shards: u32) -> ReductionDoc {
    ReductionSweep.doc(p, &run(p, shards))
}

/// The headline run: `--random 400` gives exactly 1,801 positions (201
/// exhaustive + 1,600), every claim holds, both Wrong Way values occur,
/// and the gadget count equals the arcs of the instances, recounted here.
#[test]
fn headline_run_has_1801_positions_and_no_exceptions() {
    let p = params(400, 1);
    let d = doc(&p, 0);
    assert_eq!(d.exhaustive.positions, 201);
    assert_eq!(d.random.positions, 1600);
    assert_eq!(d.total.positions, 1801);
    let arcs: u64 = (0..exhaustive_digraphs() + 400)
        .map(|i| instance(1, i).2.arc_count() as u64)
        .sum();
    assert_eq!(d.total.gadgets, arcs);
    assert_eq!(d.exhaustive.gadgets, 2 * 2 + 6 * 32);
    for (k, e) in d.exceptions.in_report_order() {
        assert_eq!(e.count, 0, "{k}");
    }
    // The play contexts include every start, so they cover the
    // context-free checks: at least one Wrong Way / Correct Way per gadget.
    assert!(crate::families::bft::total(&d.total.context_wrong_way_values) >= arcs);
    assert!(d.total.context_correct_way_with_exit >= arcs);
    assert_eq!(d.total.context_skipped_digraphs, 0);
    let ww = &d.total.wrong_way_values;
    assert!(ww[&2] > 0 && ww[&3] > 0);
    assert_eq!(ww[&2] + ww[&3], arcs, "every Wrong Way value is *2 or *3");
    // P/N split agrees with directed geography, recomputed here.
    let p_count: u64 = (0..exhaustive_digraphs() + 400)
        .map(|i| {
            let g = instance(1, i).2;
            g.first_player_wins_all().iter().filter(|w| !**w).count() as u64
        })
        .sum();
    assert_eq!(d.total.main_p_values[&1], p_count);
    let report = ReductionSweep.report(&p, &doc(&p, 3));
    assert!(report.contains("**1,801 positions**"));
    assert!(report.contains("Section 5"));
}

#[test]
fn result_does_not_depend_on_the_plan() {
    let p = params(30, 7);
    let a = run(&p, 1);
    assert_eq!(a.work(), a.exhaustive.positions + a.random.positions);
    for shards in [2, 5, 99, 1000] {
        assert_eq!(a, run(&p, shards), "shards = {shards}");
    }
    assert_ne!(a, run(&params(30, 8), 1), "the seed matters");
}

/// The complete digraph on 4 vertices: the largest reduced graph
/// (4 + 4 + 12·8 = 104 vertices), every start, every gadget.
#[test]
fn complete_digraph_on_four_vertices() {
    let d = digraph_from_mask(4, 0xfff);
    let mut out = ReductionOutput::default();
    check_digraph(&mut out, Part::Random, 0, &d);
    assert_eq!(out.random.reduced_vertices_max, Max(104));
    for (k, e) in out.exceptions.in_report_order() {
        assert_eq!(e.count(), 0, "{k}: {e:?}");
    }
    // Complete digraph on 4 vertices: the token walks a Hamiltonian path,
    // 3 moves, so the first player wins from every start.
    assert_eq!(d.first_player_wins_all(), vec![true; 4]);
    assert_eq!(out.random.positions, 4);
    assert_eq!(out.random.gadgets, 12);
    assert_eq!(out.exhaustive, PartStats::default());
}

#[test]
fn bad_payloads_are_errors() {
    let p = ReductionSweep
        .resolve_params(&[("random".to_string(), 10)].into())
        .unwrap();
    for payload in [
        "",
        "range 0 5",
        r#"{"start":5,"end":4}"#,
        r#"{"start":0,"end":80}"#,
        r#"{"start":0}"#,
        r#"{"top":{"depth":1}}"#,
    ] {
        let shard = ShardSpec {
            index: 0,
            payload: payload.into(),
            estimate: 0,
        };
        assert!(
            matches!(
                SweepKind::run_shard(&ReductionSweep, &p, &shard, &ShardCtx::detached()),
                Err(SweepError::BadShard { .. })
            ),
            "{payload:?}"
        );
    }
    let good = ShardSpec {
        index: 0,
        payload: r#"{"start":0,"end":79}"#.into(),
        estimate: 0,
    };
    assert!(SweepKind::run_shard(&ReductionSweep, &p, &good, &ShardCtx::detached()).is_ok());
}

#[test]
fn bad_params_are_errors() {
    let bad = crate::sweep::Params::from([("random".to_string(), 10)]);
    assert!(matches!(
        SweepKind::plan(&ReductionSweep, &bad, 0),
        Err(SweepError::BadParams { .. })
    ));
    let unknown = crate::sweep::Params::from([("randoms".to_string(), 10)]);
    assert!(ReductionSweep.resolve_params(&unknown).is_err());
}

/// A document with exceptions and examples goes through results.json
/// unchanged, and the report lists every kept exception under its check.
#[test]
fn exceptions_round_trip_and_are_reported() {
    let p = params(0, 1);
    let mut out = run(&p, 1);
    let rec = |i: u64| Record {
        vertices: 2,
        edges: 1,
        code: "&AG".into(),
        index: i,
        detail: format!("exhaustive digraph #{i}: made up"),
        note: "made up".into(),
    };
    out.exceptions.main.add(rec(1));
    out.exceptions.context_correct_way.add(rec(2));
    out.exceptions.context_correct_way.add(rec(3));
    let doc = ReductionSweep.doc(&p, &out);
    let text = crate::sweep::json_text(&doc);
    let back: ReductionDoc = serde_json::from_str(&text).unwrap();
    assert_eq!(back, doc);
    assert_eq!(crate::sweep::json_text(&back), text);
    let md = ReductionSweep.report(&p, &back);
    assert!(md.contains("## Exceptions (3; this is news)"));
    assert!(md.contains(
        "- main: digraph `&AG` (2 vertices, 1 arcs), exhaustive digraph #1: made up: made up\n"
    ));
    assert!(md.contains(
        "- context_correct_way: digraph `&AG` (2 vertices, 1 arcs), exhaustive digraph #3"
    ));
    let rendered = SweepKind::render_from_json(
        &ReductionSweep,
        &[("random".to_string(), 0), ("seed".to_string(), 1)].into(),
        &text,
    )
    .unwrap();
    assert_eq!(rendered.results_json, text);
    // The framework adds the reproducing command after the title.
    assert_eq!(
        rendered.report_md,
        crate::sweep::with_command(&md, "gamesweep run uvg-reduction --random 0")
    );
}

/// Shard results survive the store and the wire (encode, decode) as is.
#[test]
fn outputs_decode_to_themselves() {
    let kind: &dyn SweepKind = &ReductionSweep;
    let given: Vec<(&str, u64)> = vec![("random", 3)];
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
