use super::*;
use crate::sweep::{run_typed, SweepKind};

#[test]
fn every_shard_is_counted_once() {
    let p = NoopParams { result_bytes: 5 };
    for k in [1u32, 2, 7, 100] {
        let merged = run_typed(&NOOP, &p, k).unwrap();
        assert_eq!(merged.shards, u64::from(k));
        assert_eq!(merged.index_sum, expected_sum(u64::from(k)).unwrap());
        assert_eq!(merged.padding, ".....");
        let doc = Kind::doc(&NOOP, &p, &merged);
        assert!(doc.sum_matches);
    }
}

#[test]
fn expected_sum_is_k_choose_2() {
    for k in 0..50u64 {
        assert_eq!(expected_sum(k), Some(k * k.saturating_sub(1) / 2));
    }
    assert_eq!(expected_sum(u64::MAX), None);
}

#[test]
fn validate_refuses_a_wrong_result() {
    let p = NoopParams { result_bytes: 3 };
    let shard = NoopShard { index: 4 };
    let good = Kind::run(&NOOP, &p, &shard, &ShardCtx::detached()).unwrap();
    assert!(Kind::validate(&NOOP, &p, &shard, &good).is_ok());
    let mut two = good.clone();
    two.shards = 2;
    assert!(Kind::validate(&NOOP, &p, &shard, &two).is_err());
    let mut other = good.clone();
    other.index_sum = 5;
    assert!(Kind::validate(&NOOP, &p, &shard, &other).is_err());
    let mut pad = good.clone();
    pad.padding = "..x".into();
    assert!(Kind::validate(&NOOP, &p, &shard, &pad).is_err());
    pad.padding = "....".into();
    assert!(Kind::validate(&NOOP, &p, &shard, &pad).is_err());
}

#[test]
fn merging_is_order_independent() {
    let p = NoopParams { result_bytes: 2 };
    let outs: Vec<NoopOutput> = (0..9)
        .map(|i| Kind::run(&NOOP, &p, &NoopShard { index: i }, &ShardCtx::detached()).unwrap())
        .collect();
    let mut a = NoopOutput::default();
    for o in outs.iter().cloned() {
        a.merge(o).unwrap();
    }
    let mut b = NoopOutput::default();
    for o in outs.into_iter().rev() {
        b.merge(o).unwrap();
    }
    assert_eq!(a, b);
    assert_eq!(a.index_sum, 36);
}

#[test]
fn bad_parameters_are_errors() {
    let kind: &dyn SweepKind = &NOOP;
    assert!(kind
        .resolve_params(&[("result_bytes".to_string(), MAX_RESULT_BYTES + 1)].into())
        .is_err());
    assert!(kind
        .resolve_params(&[("shards".to_string(), 3)].into())
        .is_err());
}
