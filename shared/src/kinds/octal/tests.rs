//! Tests of the `octal` sweep against the well-known values (Berlekamp,
//! Conway, Guy, *Winning Ways*, ch. 4; Guy & Smith 1956): Kayles 0.77 has
//! period 12 from n0 = 71 (last exceptional value at 70); Dawson's Chess
//! 0.137 has period 34 with exceptions at 0, 14, 16, 17, 31, 34, 51 only
//! (OEIS A002187), so n0 = 52; Dawson's Kayles 0.07 is the same sequence
//! shifted by one heap (G_0.07(n + 1) = G_0.137(n)), so its last exception is
//! at 52 and n0 = 53 (the "last exception at 51" often quoted for Dawson's
//! Kayles is in Dawson's Chess numbering). Everything is
//! checked from first principles: Grundy values against a brute-force solver
//! of multi-heap positions, periods against the raw sequences.

use super::*;
use crate::sweep::{run_typed, ShardSpec, SweepKind};
use std::collections::HashMap;

fn code(text: &str) -> (u64, Vec<u8>) {
    let d: Vec<u8> = text
        .strip_prefix("0.")
        .unwrap()
        .bytes()
        .map(|b| b - b'0')
        .collect();
    (d.iter().fold(0, |c, &x| c * 8 + x as u64), d)
}

fn g(text: &str, n: usize) -> Vec<u32> {
    grundy_values(&code(text).1, n)
}

/// Grundy value of a position (sorted heaps) by the rules alone: every
/// move, the mex of the options' values, no Sprague–Grundy addition.
fn brute(d: &[u8], pos: Vec<usize>, memo: &mut HashMap<Vec<usize>, u32>) -> u32 {
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let mut opts = Vec::new();
    for (h, &n) in pos.iter().enumerate() {
        for (i, &digit) in d.iter().enumerate() {
            let i = i + 1;
            if i > n {
                break;
            }
            let r = n - i;
            let mut rest: Vec<usize> = pos.clone();
            rest.remove(h);
            let mut leave = |extra: &[usize]| {
                let mut q = rest.clone();
                q.extend_from_slice(extra);
                q.sort_unstable();
                opts.push(q);
            };
            if digit & 1 != 0 && r == 0 {
                leave(&[]);
            }
            if digit & 2 != 0 && r > 0 {
                leave(&[r]);
            }
            if digit & 4 != 0 {
                for a in 1..=r / 2 {
                    leave(&[a, r - a]);
                }
            }
        }
    }
    let vals: Vec<u32> = opts.into_iter().map(|q| brute(d, q, memo)).collect();
    let v = (0..).find(|x| !vals.contains(x)).unwrap();
    memo.insert(pos, v);
    v
}

#[test]
fn grundy_values_match_brute_force() {
    for text in [
        "0.77", "0.07", "0.137", "0.6", "0.4", "0.156", "0.72", "0.453",
    ] {
        let (_, d) = code(text);
        let fast = grundy_values(&d, 14);
        let mut memo = HashMap::new();
        for (n, &v) in fast.iter().enumerate() {
            assert_eq!(brute(&d, vec![n], &mut memo), v, "{text} G({n})");
        }
    }
}

/// The first values, as tabulated in Winning Ways (Kayles) and OEIS A002187
/// (Dawson's Chess).
#[test]
fn first_values() {
    assert_eq!(g("0.77", 11), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    assert_eq!(
        g("0.137", 19),
        [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3]
    );
    // 0.3: remove one token: 0101...
    assert_eq!(g("0.3", 5), [0, 1, 0, 1, 0, 1]);
}

/// The raw sequence is periodic from `n0` with period `p` up to N, and `n0`
/// is the smallest such (G(n0 − 1 + p) ≠ G(n0 − 1)).
fn raw_periodic_from(g: &[u32], n0: usize, p: usize) -> bool {
    (n0..g.len() - p).all(|n| g[n + p] == g[n]) && (n0 == 0 || g[n0 - 1 + p] != g[n0 - 1])
}

#[test]
fn kayles_period_12_from_71() {
    let seq = g("0.77", 2000);
    assert!(raw_periodic_from(&seq, 71, 12));
    let want = Periodicity {
        preperiod: 71,
        period: 12,
    };
    assert_eq!(proven_periodicity(&seq[..=400], 2), Some(want));
    // The theorem needs 2·71 + 12 + 2 − 1 + 12 = 167 values past G(0).
    assert_eq!(proven_periodicity(&seq[..=167], 2), Some(want));
    assert_eq!(proven_periodicity(&seq[..=166], 2), None);
}

#[test]
fn dawsons_kayles_period_34_from_53() {
    let seq = g("0.07", 2000);
    assert!(raw_periodic_from(&seq, 53, 34));
    assert_eq!(
        proven_periodicity(&seq[..=400], 2),
        Some(Periodicity {
            preperiod: 53,
            period: 34
        })
    );
}

#[test]
fn dawsons_chess_is_dawsons_kayles_shifted() {
    let chess = g("0.137", 2000);
    let kayles = g("0.07", 2001);
    assert_eq!(chess[..], kayles[1..]);
    let exceptions: Vec<usize> = (0..300)
        .filter(|&n| chess[n] != chess[n + 34 * 40])
        .collect();
    assert_eq!(exceptions, [0, 14, 16, 17, 31, 34, 51]);
    assert!(raw_periodic_from(&chess, 52, 34));
    assert_eq!(
        proven_periodicity(&chess[..=400], 3),
        Some(Periodicity {
            preperiod: 52,
            period: 34
        })
    );
}

#[test]
fn small_codes_by_hand() {
    // 0.1: only a heap of exactly 1 can be taken: 0,1,0,0,0,...
    assert_eq!(
        proven_periodicity(&g("0.1", 10), 1),
        Some(Periodicity {
            preperiod: 2,
            period: 1
        })
    );
    assert_eq!(
        proven_periodicity(&g("0.3", 10), 1),
        Some(Periodicity {
            preperiod: 0,
            period: 2
        })
    );
    assert_eq!(proven_periodicity(&g("0.3", 1), 1), None);
    assert_eq!(code_text(code_of_rank(0), 3), "0.001");
    assert_eq!(code_text(code_of_rank(447), 3), "0.777");
    assert_eq!(code_text(95, 3), "0.137");
}

fn run(k: u64, n: u64, shards: u32) -> (OctalOutput, OctalDoc, String) {
    let params = OctalParams {
        digits: k,
        max_heap: n,
    };
    let merged = run_typed(&OctalSweep, &params, shards).unwrap();
    let doc = OctalSweep.doc(&params, &merged);
    let md = OctalSweep.report(&params, &doc);
    (merged, doc, md)
}

#[test]
fn the_sweep_finds_the_known_games() {
    let (merged, d, md) = run(2, 400, 0);
    assert_eq!(merged.codes, 56);
    assert_eq!(d.expected_codes, 56);
    assert_eq!(d.proven + d.not_proven, 56);
    let row = |c: &str| d.per_code.iter().find(|r| r.code == c).unwrap().clone();
    assert_eq!(
        (row("0.77").preperiod, row("0.77").period),
        (Some(71), Some(12))
    );
    assert_eq!(
        (row("0.07").preperiod, row("0.07").period),
        (Some(53), Some(34))
    );
    let (_, d3, _) = run(3, 400, 5);
    let r = d3.per_code.iter().find(|r| r.code == "0.137").unwrap();
    assert_eq!((r.preperiod, r.period), (Some(52), Some(34)));
    assert_eq!(d3.codes, 448);
    for h in [&d3.histograms.period, &d3.histograms.preperiod] {
        assert_eq!(h.iter().map(|p| p.1).sum::<u64>(), d3.proven);
    }
    // another plan, same bytes
    let (merged7, d7, md7) = run(2, 400, 7);
    assert_eq!(merged7, merged);
    assert_eq!(crate::sweep::json_text(&d7), crate::sweep::json_text(&d));
    assert_eq!(md7, md);
    assert!(md.contains("| 0.77 | 71 | 12 |"));
}

#[test]
fn bad_shards_and_params_are_errors() {
    let kind: &dyn SweepKind = &OctalSweep;
    let params = kind
        .resolve_params(&[("digits".to_string(), 2)].into())
        .unwrap();
    for payload in [
        "",
        "codes 1..3",
        r#"{"lo":3,"hi":3}"#,
        r#"{"lo":0,"hi":57}"#,
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
        payload: r#"{"lo":0,"hi":56}"#.into(),
        estimate: 0,
    };
    assert_eq!(
        kind.run_shard(&params, &ok, &ShardCtx::detached())
            .unwrap()
            .work(),
        56
    );
    for (name, v) in [
        ("digits", 0),
        ("digits", 5),
        ("max_heap", 0),
        ("max_heap", 5001),
    ] {
        assert!(kind
            .resolve_params(&[(name.to_string(), v)].into())
            .is_err());
    }
    assert!(kind
        .resolve_params(&[("max_n".to_string(), 3)].into())
        .is_err());
    // parameters that skipped resolve are an error too, not a panic
    let raw: crate::sweep::Params = [("digit".to_string(), 3)].into();
    assert!(matches!(
        kind.plan(&raw, 0),
        Err(SweepError::BadParams { .. })
    ));
    let raw: crate::sweep::Params =
        [("digits".to_string(), 0), ("max_heap".to_string(), 10)].into();
    assert!(kind.plan(&raw, 0).is_err());
    let typed = OctalParams {
        digits: 9,
        max_heap: 10,
    };
    assert!(OctalSweep
        .run(&typed, &CodeRange { lo: 0, hi: 1 }, &ShardCtx::detached())
        .is_err());
}

#[test]
fn merge_is_order_independent() {
    let params = OctalParams {
        digits: 2,
        max_heap: 120,
    };
    let shards = Kind::plan(&OctalSweep, &params, 9).unwrap();
    let outs: Vec<OctalOutput> = shards
        .iter()
        .map(|(s, _)| OctalSweep.run(&params, s, &ShardCtx::detached()).unwrap())
        .collect();
    let mut fwd = OctalOutput::default();
    for o in outs.iter().cloned() {
        fwd.merge(o).unwrap();
    }
    let mut rev = OctalOutput::default();
    for o in outs.iter().rev().cloned() {
        rev.merge(o).unwrap();
    }
    assert_eq!(fwd, rev);
    // grouped differently: (a ∪ b) ∪ (c ∪ …)
    let mut left = OctalOutput::default();
    let mut right = OctalOutput::default();
    for (i, o) in outs.iter().cloned().enumerate() {
        if i % 2 == 0 { &mut left } else { &mut right }
            .merge(o)
            .unwrap();
    }
    right.merge(left).unwrap();
    assert_eq!(right, fwd);
    let text = serde_json::to_string(&fwd).unwrap();
    let back: OctalOutput = serde_json::from_str(&text).unwrap();
    assert_eq!(back, fwd);
}

/// Real shards validate; each tampered field is refused, named.
#[test]
fn results_are_validated_against_their_shard() {
    let params = OctalParams {
        digits: 2,
        max_heap: 120,
    };
    let shards = Kind::plan(&OctalSweep, &params, 9).unwrap();
    for (s, _) in &shards {
        let o = OctalSweep.run(&params, s, &ShardCtx::detached()).unwrap();
        assert_eq!(Kind::validate(&OctalSweep, &params, s, &o), Ok(()));
    }
    let (s, _) = &shards[1];
    let real = OctalSweep.run(&params, s, &ShardCtx::detached()).unwrap();
    let refused = |f: &dyn Fn(&mut OctalOutput), want: &str| {
        let mut o = real.clone();
        f(&mut o);
        let e = Kind::validate(&OctalSweep, &params, s, &o).expect_err(want);
        assert!(
            e.to_string().contains(want),
            "`{e}` does not contain `{want}`"
        );
    };
    refused(&|o| o.codes += 1000, "codes does not agree");
    refused(&|o| o.not_proven += 1, "not_proven does not agree");
    refused(
        &|o| {
            o.max_grundy_histogram.insert(99, 1);
        },
        "max_grundy_histogram does not agree",
    );
    refused(
        &|o| {
            let (&c, _) = o.per_code.iter().next().unwrap();
            o.per_code.remove(&c);
        },
        "per_code has",
    );
    // A row changed consistently everywhere is caught by solving it again.
    let mut o = real.clone();
    let code = o.largest_max_grundy.smallest;
    let v = o.largest_max_grundy.value;
    o.per_code.get_mut(&code).unwrap().max_grundy = v + 1;
    let h = o.max_grundy_histogram.get_mut(&v).unwrap();
    *h -= 1;
    if *h == 0 {
        o.max_grundy_histogram.remove(&v);
    }
    o.max_grundy_histogram.insert(v + 1, 1);
    o.largest_max_grundy = Largest {
        value: v + 1,
        codes: 1,
        smallest: code,
    };
    let e = Kind::validate(&OctalSweep, &params, s, &o).unwrap_err();
    assert!(
        e.to_string().starts_with(&format!("per_code[{code}] is")),
        "{e}"
    );
}
