//! What every registered kind promises the runtime: bad input (a wrong
//! parameter name, a shard that is not the kind's, result bytes or a
//! `results.json` that are not the kind's) is an error naming the problem,
//! never a panic; results survive their encoding; and kinds are typed all the
//! way (no string-keyed JSON in their code).

use gamesweep::kinds;
use gamesweep::sweep::{Params, ShardCtx, ShardSpec, SweepError};
use std::path::Path;

/// Resolved default parameters, with required ones set to their minimum.
fn defaults(kind: &dyn gamesweep::sweep::SweepKind) -> Params {
    let given: Params = kind
        .params()
        .iter()
        .filter(|d| d.default.is_none())
        .map(|d| (d.name.to_string(), d.min))
        .collect();
    kind.resolve_params(&given).unwrap()
}

#[test]
fn wrong_parameters_are_errors() {
    for kind in kinds::registry().iter().chain(kinds::hidden()) {
        let mut p = defaults(*kind);
        p.insert("no_such_param".into(), 1);
        assert!(
            matches!(
                kind.resolve_params(&p),
                Err(SweepError::UnknownParam { .. })
            ),
            "{}",
            kind.name()
        );
        // Parameters that skip the declared checks (a corrupt store, a
        // foreign client) are refused by the typed parse, not by a panic.
        assert!(
            kind.plan(&p, 1).is_err(),
            "{}: plan accepted an unknown parameter",
            kind.name()
        );
        if let Some(first) = kind.params().first() {
            let mut missing = defaults(*kind);
            missing.remove(first.name);
            assert!(kind.plan(&missing, 1).is_err(), "{}", kind.name());
        }
    }
}

#[test]
fn bad_shards_results_and_documents_are_errors() {
    for kind in kinds::registry().iter().chain(kinds::hidden()) {
        let p = defaults(*kind);
        for payload in ["", "not json", "{}", "[1,2,3]", r#"{"start":5,"end":1}"#] {
            let shard = ShardSpec {
                index: 0,
                payload: payload.into(),
                estimate: 0,
            };
            let r = kind.run_shard(&p, &shard, &ShardCtx::detached());
            assert!(
                matches!(r, Err(SweepError::BadShard { .. })),
                "{}: payload {payload:?} gave {r:?}",
                kind.name()
            );
        }
        for bytes in [&b""[..], b"not json", b"[]", b"{\"work\": \"x\"}"] {
            assert!(
                matches!(kind.decode(bytes), Err(SweepError::BadResult { .. })),
                "{}: result bytes {:?}",
                kind.name(),
                String::from_utf8_lossy(bytes)
            );
        }
        assert!(
            kind.render_from_json(&p, "{\"kind\": 3}").is_err(),
            "{}",
            kind.name()
        );
        // The empty result and its encoding agree.
        let empty = kind.empty();
        assert_eq!(kind.decode(&empty.encode()).unwrap(), empty);
        // Results of other kinds do not merge.
        let other = kinds::registry()
            .iter()
            .find(|k| k.name() != kind.name())
            .unwrap();
        let mut mine = kind.empty();
        assert!(matches!(
            mine.merge(other.empty()),
            Err(SweepError::KindMismatch { .. })
        ));
    }
}

#[test]
fn a_shard_result_survives_its_encoding() {
    // One real shard of each cheap kind: encode, decode, compare.
    for name in ["uvg", "col", "subtraction", "cgt-check"] {
        let kind = kinds::find(name).unwrap();
        let p = defaults(kind);
        let p = match name {
            "uvg" => kind
                .resolve_params(&[("max_n".to_string(), 6)].into())
                .unwrap(),
            "col" => kind
                .resolve_params(&[("max_n".to_string(), 5)].into())
                .unwrap(),
            "subtraction" => kind
                .resolve_params(&[("max_element".to_string(), 6)].into())
                .unwrap(),
            _ => p,
        };
        let plan = kind.plan(&p, 2).unwrap();
        let r = kind
            .run_shard(&p, plan.last().unwrap(), &ShardCtx::detached())
            .unwrap();
        assert!(r.work() > 0, "{name}");
        assert_eq!(kind.decode(&r.encode()).unwrap(), r, "{name}");
    }
}

/// Kinds keep their data in typed structs: no JSON values or `json!`
/// documents, no string-keyed counters parsed back, in non-test code.
#[test]
fn kinds_are_typed_all_the_way() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/kinds");
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    assert!(files.len() >= 10);
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with("_test.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        for banned in ["serde_json::Value", "json!(", ".as_u64()", "split_once(\"/"] {
            assert!(
                !code.contains(banned),
                "{}: `{banned}` in non-test kind code",
                f.display()
            );
        }
    }
}
