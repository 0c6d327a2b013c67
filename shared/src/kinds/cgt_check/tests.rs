use super::validate::validate_cgt_check;
use super::*;
use crate::families::col::DigraphRange;
use crate::sweep::{run_typed, ShardSpec, SweepKind};

#[test]
fn cgt_check_full() {
    let r = run_typed(&CgtCheckSweep, &NoParams {}, 3).unwrap();
    assert_eq!(r.col.positions, 18_037);
    assert_eq!(r.myopic.positions, 333_540);
    assert_eq!(r.col.disagreements.total(), 0);
    assert_eq!(r.myopic.disagreements.total(), 0);
}

#[test]
fn bad_shards_and_params_are_errors() {
    let params = SweepKind::resolve_params(&CgtCheckSweep, &Default::default()).unwrap();
    let ctx = ShardCtx::detached();
    for payload in [
        "\"exh 4 0 5000\"",
        "{\"myopic\":{\"n\":4,\"lo\":0,\"hi\":5000}}",
        "{\"myopic\":{\"n\":5,\"lo\":0,\"hi\":1}}",
        "{\"myopic\":{\"n\":3,\"lo\":9,\"hi\":1}}",
        "\"rand\"",
    ] {
        let shard = ShardSpec {
            index: 0,
            payload: payload.into(),
            estimate: 0,
        };
        assert!(
            matches!(
                CgtCheckSweep.run_shard(&params, &shard, &ctx),
                Err(SweepError::BadShard { .. })
            ),
            "{payload}"
        );
    }
    // an unknown parameter
    assert!(SweepKind::resolve_params(&CgtCheckSweep, &[("max_n".into(), 3)].into()).is_err());
}

/// Every shard of `cgt-check` (the committed run: default plan, and a
/// 3-part plan) validates.
#[test]
fn real_cgt_check_shard_results_validate() {
    for shards in [0, 3] {
        for (s, _) in Kind::plan(&CgtCheckSweep, &NoParams {}, shards).unwrap() {
            let out = CgtCheckSweep
                .run(&NoParams {}, &s, &ShardCtx::detached())
                .unwrap();
            assert_eq!(validate_cgt_check(&s, &out), Ok(()), "{s:?}");
        }
    }
}

/// Forged `cgt-check` results are refused, naming the field.
#[test]
fn forged_cgt_check_results_are_refused_naming_the_field() {
    let refused = |shard: &CgtCheckShard, f: &dyn Fn(&mut CgtCheckOutput), want: &str| {
        let mut out = CgtCheckSweep
            .run(&NoParams {}, shard, &ShardCtx::detached())
            .unwrap();
        assert_eq!(validate_cgt_check(shard, &out), Ok(()));
        f(&mut out);
        let e = validate_cgt_check(shard, &out).expect_err(want);
        assert!(
            e.to_string().contains(want),
            "`{e}` does not contain `{want}`"
        );
    };
    let small = CgtCheckShard::Myopic(DigraphRange {
        n: 3,
        lo: 10,
        hi: 20,
    });
    refused(
        &small,
        &|o| o.myopic.positions += 1,
        "myopic.positions is 271, but the shard has 270",
    );
    refused(
        &small,
        &|o| o.col.positions = 1,
        "col: 1 positions, but this is a myopic shard",
    );
    refused(
        &small,
        &|o| {
            o.myopic.disagreements.add(crate::sweep::Record {
                vertices: 4,
                edges: 0,
                code: "x".into(),
                index: 0,
                detail: "colouring ....".into(),
                note: String::new(),
            })
        },
        "4 vertices, but the shard's digraphs have 3",
    );
    refused(
        &small,
        &|o| o.myopic.disagreements.0.total = 3,
        "myopic.disagreements: total 3 with 0 kept",
    );
    // A Col "disagreement" where solver and naive search agree.
    refused(
        &CgtCheckShard::Col,
        &|o| {
            o.col.disagreements.add(crate::sweep::Record {
                vertices: 2,
                edges: 1,
                code: "A_".into(),
                index: 1,
                detail: "colouring L.".into(),
                note: "forged".into(),
            })
        },
        "not a disagreement",
    );
    refused(
        &CgtCheckShard::Col,
        &|o| o.col.positions -= 1,
        "col.positions is 18036",
    );
}
