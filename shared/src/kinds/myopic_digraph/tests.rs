use super::validate::*;
use super::*;
use crate::sweep::{run_typed, ShardSpec, SweepKind};

fn params(random: u64) -> DigraphParams {
    DigraphParams {
        random,
        vertices: 8,
        seed: 1,
    }
}

#[test]
fn exhaustive_set_matches_spec() {
    let p = params(300);
    let r = run_typed(&MyopicDigraphSweep, &p, 4).unwrap();
    let e = &r.exhaustive;
    assert_eq!(e.positions, 333_540);
    assert_eq!(e.subjects, 23_430);
    assert_eq!(e.exceptions.total(), 0);
    assert_eq!(e.watched, 52_686);
    assert_eq!(e.watched_broken, 34_960);
    assert_eq!(e.non_cold.total(), 0);
    let w = e.smallest_watched_broken.0.as_ref().unwrap();
    assert_eq!((w.vertices, w.edges), (3, 3));
    assert_eq!(r.random.positions, 300);
    // plan independence of the random part
    let r2 = run_typed(&MyopicDigraphSweep, &p, 7).unwrap();
    assert_eq!(r, r2);
}

#[test]
fn random_stream_is_stable() {
    let (b1, bl1, rd1) = random_position(7, 12345, 8);
    let (b2, bl2, rd2) = random_position(7, 12345, 8);
    assert_eq!((b1, bl1, rd1), (b2, bl2, rd2));
    assert_ne!(random_position(7, 12346, 8).0, b1);
}

#[test]
fn bad_shards_are_errors() {
    let kind = &MyopicDigraphSweep;
    let given = [("random".to_string(), 10)].into();
    let params = SweepKind::resolve_params(kind, &given).unwrap();
    let ctx = ShardCtx::detached();
    for payload in [
        "\"rand 0 5\"",
        "{\"random\":{\"lo\":0,\"hi\":11}}",
        "{\"random\":{\"lo\":5,\"hi\":4}}",
        "{\"exhaustive\":{\"n\":1,\"lo\":0,\"hi\":1}}",
        "{\"exhaustive\":{\"n\":2,\"lo\":0,\"hi\":5}}",
        "{\"exhaustive\":{\"n\":2,\"lo\":0}}",
    ] {
        let shard = ShardSpec {
            index: 0,
            payload: payload.into(),
            estimate: 0,
        };
        assert!(
            matches!(
                kind.run_shard(&params, &shard, &ctx),
                Err(SweepError::BadShard { .. })
            ),
            "{payload}"
        );
    }
    assert!(SweepKind::resolve_params(kind, &[("vertices".into(), 1)].into()).is_err());
    assert!(SweepKind::resolve_params(kind, &[("max_n".into(), 1)].into()).is_err());
}

/// Every shard of real plans validates (small random sets, both shard
/// kinds).
#[test]
fn real_digraph_shard_results_validate() {
    for p in [
        DigraphParams {
            random: 300,
            vertices: 6,
            seed: 1,
        },
        DigraphParams {
            random: 0,
            vertices: 8,
            seed: 2,
        },
    ] {
        for shards in [0, 3] {
            for (s, _) in Kind::plan(&MyopicDigraphSweep, &p, shards).unwrap() {
                let out = MyopicDigraphSweep
                    .run(&p, &s, &ShardCtx::detached())
                    .unwrap();
                assert_eq!(validate(&p, &s, &out), Ok(()), "{p:?} {s:?}");
            }
        }
    }
}

/// Forged results are refused, naming the field.
#[test]
fn forged_digraph_results_are_refused_naming_the_field() {
    let p = DigraphParams {
        random: 100,
        vertices: 6,
        seed: 1,
    };
    let s = DigraphShard::Random { lo: 10, hi: 60 };
    let honest = MyopicDigraphSweep
        .run(&p, &s, &ShardCtx::detached())
        .unwrap();
    assert_eq!(validate(&p, &s, &honest), Ok(()));
    let refused = |f: &dyn Fn(&mut DigraphOutput), want: &str| {
        let mut out = honest.clone();
        f(&mut out);
        let e = validate(&p, &s, &out).expect_err(want);
        assert!(
            e.to_string().contains(want),
            "`{e}` does not contain `{want}`"
        );
    };
    refused(
        &|o| o.random.positions += 1,
        "random.positions is 51, but the shard has 50",
    );
    refused(
        &|o| o.exhaustive.positions = 1,
        "exhaustive: 1 positions, but this is a random shard",
    );
    refused(
        &|o| o.random.subjects = 301,
        "random.subjects is 301, above 300",
    );
    refused(
        &|o| o.random.watched_broken = o.random.watched + 1,
        "random.watched_broken",
    );
    refused(
        &|o| o.random.exceptions.0.total = 1,
        "random.exceptions: total 1 with 0 kept",
    );
    refused(
        &|o| {
            o.random.non_cold.add(crate::sweep::Record {
                vertices: 4,
                edges: 0,
                code: "x".into(),
                index: 0,
                detail: String::new(),
                note: String::new(),
            })
        },
        "record `x` has 4 vertices, but the shard's digraphs have 6",
    );
}

// Release-mode reproduction of the spec's headline numbers (a few CPU seconds
// in release; ignored in debug builds, where it would take minutes).
#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode headline reproduction")]
fn random_digraphs_unwatched_source() {
    let p = DigraphParams {
        random: 200_000,
        vertices: 8,
        seed: 1,
    };
    let r = run_typed(&MyopicDigraphSweep, &p, 0).unwrap();
    let d = MyopicDigraphSweep.doc(&p, &r);
    let s = d.sets.random.as_ref().unwrap();
    assert_eq!(s.positions, 200_000);
    assert!(
        s.subjects.abs_diff(67_568) <= 600,
        "subjects {}",
        s.subjects
    );
    assert_eq!(s.exceptions, 0);
    let e = &d.sets.exhaustive;
    assert_eq!(
        (e.subjects, e.watched, e.watched_broken),
        (23_430, 52_686, 34_960)
    );
    // the smallest broken watched case: 3 vertices, 3 arcs, all uncoloured, value 0 vs formula *
    let w = e.smallest_watched_broken.as_ref().unwrap();
    assert_eq!((w.vertices, w.edges), (3, 3));
    assert!(w.detail.ends_with("..."));
    assert!(w.note.ends_with("value 0, formula *"));
}
