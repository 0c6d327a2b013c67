use super::validate::validate;
use super::*;
use crate::sweep::{run_typed, ShardSpec, SweepKind};

fn run(m: u64, shards: u32) -> (SubtractionOutput, SubtractionDoc, String) {
    let params = SubtractionParams { max_element: m };
    let merged = run_typed(&SUBTRACTION, &params, shards).unwrap();
    let doc = SUBTRACTION.doc(&params, &merged);
    let md = SUBTRACTION.report(&params, &doc);
    (merged, doc, md)
}

/// The headline: M = 12, all 4,095 sets, deterministic across plans.
#[test]
fn m12_all_sets_deterministic() {
    let (merged, d, md) = run(12, 0);
    assert_eq!(merged.sets, 4095);
    assert_eq!(merged.work(), 4095);
    assert!(d.per_set_complete);
    assert_eq!(d.per_set.len(), 4095);
    assert_eq!(d.checks.outcome_period_not_dividing_grundy_period, 0);
    assert_eq!(d.checks.outcome_preperiod_above_grundy_preperiod, 0);
    let sets: Vec<&SetStats> = merged.per_set.kept.iter().collect();
    let s247 = sets.iter().find(|s| s.elements() == [2, 4, 7]).unwrap();
    assert_eq!(
        s247.outcome,
        Seq {
            preperiod: 4,
            period: 3
        }
    );
    // histograms count every set once
    for h in d.histograms.all() {
        assert_eq!(h.iter().map(|p| p.1).sum::<u64>(), 4095);
    }
    // the sets agree with a direct analysis (independent of the merge)
    for s in sets.iter().step_by(37) {
        let e: Vec<u32> = s.elements().iter().map(|&x| x as u32).collect();
        let a = analyse(&SubtractionSet::new(&e).unwrap());
        assert_eq!(**s, SetStats::new(s.mask, &a));
    }
    // the extremes agree with the sets
    for (k, e) in d.extremes.all().into_iter().enumerate() {
        let e = e.as_ref().unwrap();
        let value = |s: &SetStats| *s.values().all()[k];
        let max = sets.iter().map(|s| value(s)).max().unwrap();
        assert_eq!(e.value, max, "{k}");
        let n = sets.iter().filter(|s| value(s) == max).count();
        assert_eq!(e.sets, n as u64, "{k}");
        assert_eq!(e.listed_sets.len(), n.min(EXTREME_CAP), "{k}");
    }
    // another shard plan gives the same result and byte-identical output
    let (merged7, d7, md7) = run(12, 7);
    assert_eq!(merged7, merged);
    assert_eq!(crate::sweep::json_text(&d7), crate::sweep::json_text(&d));
    assert_eq!(md7, md);
    assert!(md.contains("{2,4,7}: outcome 4+3"));
}

/// M = 3 by hand: the 7 sets and their outcome periods.
/// {1}: PNPN… period 2; {2}: PPNN period 4; {1,2}: PNN period 3;
/// {3}: PPPNNN period 6; {1,3}: PN period 2; {2,3}: PPNNN period 5;
/// {1,2,3}: PNNN period 4.
#[test]
fn m3_by_hand() {
    let (merged, d, _) = run(3, 3);
    let mut sets: Vec<&SetStats> = merged.per_set.kept.iter().collect();
    sets.sort_by_key(|s| s.mask);
    let periods: Vec<(Vec<u64>, u64)> = sets
        .iter()
        .map(|s| (s.elements(), s.outcome.period))
        .collect();
    assert_eq!(
        periods,
        vec![
            (vec![1], 2),
            (vec![2], 4),
            (vec![1, 2], 3),
            (vec![3], 6),
            (vec![1, 3], 2),
            (vec![2, 3], 5),
            (vec![1, 2, 3], 4)
        ]
    );
    let e = d.extremes.largest_outcome_period.as_ref().unwrap();
    assert_eq!(e.value, 6);
    assert_eq!(e.smallest_set.as_ref().unwrap().set, vec![3]);
}

/// Witness order is the order of the old records: (max, size, text, mask).
#[test]
fn witness_order_is_text_order() {
    let set = |e: &[u32]| {
        let s = SubtractionSet::new(e).unwrap();
        let mask = e.iter().fold(0u64, |m, &x| m | 1 << (x - 1));
        (SetStats::new(mask, &analyse(&s)), s.to_string_braced())
    };
    let mut all: Vec<(SetStats, String)> = (1u64..1 << 12)
        .step_by(5)
        .map(|m| set(&elements_of(m).iter().map(|&x| x as u32).collect::<Vec<_>>()))
        .collect();
    let mut by_text = all.clone();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    by_text.sort_by(|a, b| {
        let key = |x: &(SetStats, String)| {
            (
                64 - x.0.mask.leading_zeros(),
                x.0.mask.count_ones(),
                x.1.clone(),
            )
        };
        key(a).cmp(&key(b))
    });
    assert_eq!(all, by_text);
    assert_eq!(decimal_cmp(10, 9), Ordering::Less);
    assert_eq!(decimal_cmp(1, 12), Ordering::Less);
    assert_eq!(decimal_cmp(0, 0), Ordering::Equal);
}

#[test]
fn bad_shards_and_params_are_errors() {
    let kind: &dyn SweepKind = &SUBTRACTION;
    let params = kind
        .resolve_params(&[("max_element".to_string(), 4)].into())
        .unwrap();
    for payload in [
        "",
        "masks 1..3",
        r#"{"lo":0,"hi":3}"#,
        r#"{"lo":3,"hi":3}"#,
        r#"{"lo":1,"hi":17}"#,
        r#"{"lo":1}"#,
        r#"{"lo":1,"hi":3,"extra":1}"#,
        r#"{"lo":-1,"hi":3}"#,
    ] {
        let shard = ShardSpec {
            index: 0,
            payload: payload.into(),
            estimate: 0,
        };
        assert!(
            matches!(
                kind.run_shard(&params, &shard, &ShardCtx::detached()),
                Err(SweepError::BadShard { .. })
            ),
            "{payload}"
        );
    }
    let ok = ShardSpec {
        index: 0,
        payload: r#"{"lo":1,"hi":16}"#.into(),
        estimate: 0,
    };
    assert_eq!(
        kind.run_shard(&params, &ok, &ShardCtx::detached())
            .unwrap()
            .work(),
        15
    );
    assert!(kind
        .resolve_params(&[("max_element".to_string(), 21)].into())
        .is_err());
    assert!(kind
        .resolve_params(&[("max_n".to_string(), 3)].into())
        .is_err());
    // parameters that skipped resolve are an error too, not a panic
    let raw: crate::sweep::Params = [("max_elements".to_string(), 3)].into();
    assert!(matches!(
        kind.plan(&raw, 0),
        Err(SweepError::BadParams { .. })
    ));
}

/// Merging is order independent, including the capped sets.
#[test]
fn merge_is_order_independent() {
    let params = SubtractionParams { max_element: 8 };
    let shards = Kind::plan(&SUBTRACTION, &params, 9).unwrap();
    let outs: Vec<SubtractionOutput> = shards
        .iter()
        .map(|(s, _)| SUBTRACTION.run(&params, s, &ShardCtx::detached()).unwrap())
        .collect();
    let mut fwd = SubtractionOutput::default();
    for o in outs.iter().cloned() {
        fwd.merge(o).unwrap();
    }
    let mut rev = SubtractionOutput::default();
    for o in outs.iter().rev().cloned() {
        rev.merge(o).unwrap();
    }
    assert_eq!(fwd, rev);
    // and through the stored encoding
    let text = serde_json::to_string(&fwd).unwrap();
    let back: SubtractionOutput = serde_json::from_str(&text).unwrap();
    assert_eq!(back, fwd);
}

/// Every shard of real plans validates: the committed run's M = 12 in 64
/// shards, M = 8 in 9, and M = 17 in one shard (more sets than
/// [`PER_SET_CAP`], so the per-set rows are incomplete).
#[test]
fn real_shard_results_validate() {
    for (m, shards) in [(12, 0), (8, 9), (17, 1)] {
        let p = SubtractionParams { max_element: m };
        for (s, _) in Kind::plan(&SUBTRACTION, &p, shards).unwrap() {
            let out = SUBTRACTION.run(&p, &s, &ShardCtx::detached()).unwrap();
            assert_eq!(validate(&p, &s, &out), Ok(()), "M {m} shard {s:?}");
        }
    }
}

/// `f` applied to the result of masks 1..256 of M = 8 is refused with a
/// message containing `want`.
fn refused(f: impl FnOnce(&mut SubtractionOutput), want: &str) {
    let p = SubtractionParams { max_element: 8 };
    let s = MaskRange { lo: 1, hi: 256 };
    let mut out = SUBTRACTION.run(&p, &s, &ShardCtx::detached()).unwrap();
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
fn forged_subtraction_results_are_refused_naming_the_field() {
    refused(
        |o| o.sets += 1,
        "sets is 256, but the shard has the 255 masks 1..256",
    );
    refused(
        |o| {
            let h = &mut o.histograms.max_grundy;
            let (&v, _) = h.iter().next().unwrap();
            *h.get_mut(&v).unwrap() -= 1;
            *h.entry(99).or_insert(0) += 1;
        },
        "histograms.max_grundy",
    );
    refused(
        |o| *o.histograms.grundy_period.values_mut().next().unwrap() += 1,
        "histograms.grundy_period sums to Some(256), not sets = 255",
    );
    refused(|o| o.per_set.total += 1, "per_set.total is 256");
    refused(
        |o| {
            let mut x = o.per_set.kept.pop_last().unwrap();
            x.mask = 300;
            o.per_set.kept.insert(x);
        },
        "per_set: mask 300 is outside the shard's 1..256",
    );
    refused(
        |o| {
            o.per_set.kept.pop_first();
        },
        "per_set keeps 254 rows",
    );
    refused(
        |o| o.outcome_preperiod_above_grundy_preperiod = 1,
        "outcome_preperiod_above_grundy_preperiod is 1",
    );
    refused(
        |o| o.largest.grundy_period.value += 1,
        "largest.grundy_period.value",
    );
    refused(
        |o| o.largest.max_grundy.sets.total += 1,
        "largest.max_grundy.sets.total",
    );
    // A consistent lie: the extreme's smallest set claims a larger
    // preperiod everywhere (histogram, per-set row, extreme); re-solving
    // it refuses it.
    refused(
        |o| {
            let l = &mut o.largest.outcome_preperiod;
            let old = l.sets.kept.pop_first().unwrap();
            let mut forged = old.clone();
            forged.outcome.preperiod += 100;
            let h = &mut o.histograms.outcome_preperiod;
            *h.get_mut(&l.value).unwrap() -= 1;
            if h[&l.value] == 0 {
                h.remove(&l.value);
            }
            h.insert(forged.outcome.preperiod, 1);
            *l = Largest {
                value: forged.outcome.preperiod,
                sets: Capped::default(),
            };
            l.sets.offer(forged.clone());
            o.per_set.kept.remove(&old);
            o.per_set.kept.insert(forged);
            let above = o.per_set.kept.iter();
            o.outcome_preperiod_above_grundy_preperiod = above
                .filter(|s| s.outcome.preperiod > s.grundy.preperiod)
                .count() as u64;
        },
        "is claimed as",
    );
}
