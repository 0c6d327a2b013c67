//! `myopic-list`: the list lemma and its corollary (Bovee–Burke–Tennenhouse 2016).
//!
//! A list of `n` nodes has arcs head → tail (`i → i+1`).
//! * **Lemma** (n = 1..=`--max-len`): `n` uncoloured nodes with nothing after
//!   the tail: `n·*`; followed by a blue node: `(n−1)·* − 1`; by a red node:
//!   `(n−1)·* + 1`. Lists of hundreds of nodes exceed the bitset boards, so the
//!   values come from [`list_values`], the same CGT engine on the list's own
//!   position space: an uncoloured stretch is a *segment* (length, colours left
//!   at its tail) and colouring one node splits it into two segments. A unit
//!   test checks those values against the general solver for short lists.
//! * **Corollary**: a collection of lists has value `a·* + b − c`, where `a`
//!   counts uncoloured nodes whose target is uncoloured or absent, `b` those
//!   whose target is red, `c` those whose target is blue. Checked with the
//!   general solver on all `3^n` colourings of single lists with
//!   n = 1..=`--max-single`, and all colourings of ordered tuples of 2–4
//!   lists with at most `--max-forest` nodes in total.
//!
//! Shards: `lemma`, `list n`, `forest k first` (k lists, the first of length `first`).

use super::*;
use crate::cgt::{Dyadic, Engine, GameId};
use crate::col::{Board, Solver, SolverOptions};
use crate::graph::members;
use crate::sweep::{param, ParamDef, Params, LegacyRendered, ShardCtx, ShardSpec, SweepError, UntypedKind};
use std::fmt::Write as _;

/// The `myopic-list` sweep kind.
pub struct MyopicListSweep;

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "max_len",
        help: "longest list for the lemma",
        default: Some(400),
        min: 1,
        max: 5000,
    },
    ParamDef {
        name: "max_single",
        help: "longest single list for the corollary",
        default: Some(13),
        min: 1,
        max: 16,
    },
    ParamDef {
        name: "max_forest",
        help: "most nodes in a tuple of 2–4 lists for the corollary",
        default: Some(9),
        min: 2,
        max: 12,
    },
];

/// Colours left at a segment's tail: index 0 both, 1 blue only, 2 red only.
const BOTH: usize = 0;
const BLUE_ONLY: usize = 1;
const RED_ONLY: usize = 2;

/// `v[m][t]`: value of an uncoloured segment of `m` nodes (arcs `i → i+1`)
/// whose inner nodes have both colours and whose tail has colour set `t`.
pub fn list_values(e: &mut Engine, max: usize) -> Vec<[GameId; 3]> {
    let z = e.zero();
    let mut v = vec![[z; 3]];
    for m in 1..=max {
        let mut row = [z; 3];
        for (t, slot) in row.iter_mut().enumerate() {
            let mut lo = Vec::new();
            let mut ro = Vec::new();
            for j in 0..m {
                let tail = j == m - 1;
                // Node j takes colour c: the prefix 0..j loses c at its tail (node j−1),
                // the suffix j+1..m keeps tail set t.
                for (c, opts) in [(BLUE_ONLY, &mut lo), (RED_ONLY, &mut ro)] {
                    let allowed = !tail || t == BOTH || t == c;
                    if !allowed {
                        continue;
                    }
                    let prefix_tail = if c == BLUE_ONLY { RED_ONLY } else { BLUE_ONLY };
                    let a = v[j][prefix_tail];
                    let b = if tail { z } else { v[m - 1 - j][t] };
                    opts.push(e.add(a, b));
                }
            }
            *slot = e.game(&lo, &ro);
        }
        v.push(row);
    }
    v
}

/// The corollary's value `a·* + b − c` for lists given as a board and colouring.
fn corollary(e: &mut Engine, b: &Board, blue: u32, red: u32) -> GameId {
    let n = b.n();
    let all = (1u32 << n) - 1;
    let unc = all & !(blue | red);
    let (mut a, mut x) = (0u32, 0i64);
    for u in members(unc) {
        let t = b.look(u);
        if t & blue != 0 {
            x -= 1;
        } else if t & red != 0 {
            x += 1;
        } else {
            a += 1;
        }
    }
    e.num_nim(Dyadic::int(x), a % 2)
}

fn lists_board(lens: &[usize]) -> Board {
    let n: usize = lens.iter().sum();
    let mut arcs = Vec::new();
    let mut start = 0;
    for &l in lens {
        for i in start..start + l - 1 {
            arcs.push((i, i + 1));
        }
        start += l;
    }
    Board::myopic(n, &arcs)
}

fn lists_code(lens: &[usize]) -> String {
    lens.iter()
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join("+")
}

/// Every composition of up to `total` into `k` positive parts, starting with `first`.
fn compositions(k: usize, total: usize, first: usize) -> Vec<Vec<usize>> {
    fn rec(k: usize, left: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if k == 0 {
            out.push(cur.clone());
            return;
        }
        for l in 1..=left.saturating_sub(k - 1) {
            cur.push(l);
            rec(k - 1, left - l, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    if first + (k - 1) <= total {
        let mut cur = vec![first];
        rec(k - 1, total - first, &mut cur, &mut out);
    }
    out
}

fn check_lists(solver: &mut Solver, out: &mut SweepResult, part: &str, lens: &[usize]) {
    let b = lists_board(lens);
    let n = b.n();
    let code = lists_code(lens);
    for c in 0..3u64.pow(n as u32) {
        let (blue, red) = super::graphs::colouring_from_index(n, c);
        let g = solver.value(&b, b.position_masks(blue, red));
        let f = corollary(&mut solver.engine, &b, blue, red);
        out.count(format!("{part}/positions"), 1);
        out.work += 1;
        if !solver.engine.is_cold(g) {
            let s = solver.engine.display(g);
            out.record(
                "non_cold",
                RECORD_CAP,
                position_record(n, b.arc_count(), &code, blue, red, format!("value {s}")),
            );
        }
        if f != g {
            let (a, fs) = (solver.engine.display(g), solver.engine.display(f));
            out.record(
                format!("{part}/exceptions"),
                RECORD_CAP,
                position_record(
                    n,
                    b.arc_count(),
                    &code,
                    blue,
                    red,
                    format!("value {a}, formula {fs}"),
                ),
            );
        }
    }
}

impl UntypedKind for MyopicListSweep {
    fn name(&self) -> &'static str {
        "myopic-list"
    }
    fn about(&self) -> &'static str {
        "Myopic Col on lists: the 2016 list lemma and its corollary a·* + b − c"
    }
    fn params(&self) -> &'static [ParamDef] {
        PARAMS
    }
    fn plan(&self, params: &Params, _target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        let mut p = vec!["lemma".to_string()];
        for n in 1..=param(params, "max_single") {
            p.push(format!("list {n}"));
        }
        let mf = param(params, "max_forest") as usize;
        for k in 2..=4usize {
            for first in 1..=mf.saturating_sub(k - 1) {
                p.push(format!("forest {k} {first}"));
            }
        }
        Ok(crate::sweep::numbered(p.into_iter().map(|p| (p, 0))))
    }
    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError> {
        let bad = || SweepError::BadShard {
            kind: self.name().into(),
            reason: format!("bad payload `{:.60}`", shard.payload),
        };
        let w: Vec<&str> = shard.payload.split_ascii_whitespace().collect();
        let mut out = SweepResult::default();
        let mut solver = Solver::new(SolverOptions::default());
        match w.as_slice() {
            ["lemma"] => {
                let max = param(params, "max_len") as usize;
                let e = &mut solver.engine;
                let v = list_values(e, max);
                for (n, row) in v.iter().enumerate().skip(1) {
                    let nn = n as u32;
                    // The lemma's three claims: nothing after the tail, a blue node, a red node.
                    let claims = [
                        ("none", row[BOTH], e.num_nim(Dyadic::ZERO, nn % 2)),
                        (
                            "blue",
                            row[RED_ONLY],
                            e.num_nim(Dyadic::int(-1), (nn - 1) % 2),
                        ),
                        (
                            "red",
                            row[BLUE_ONLY],
                            e.num_nim(Dyadic::int(1), (nn - 1) % 2),
                        ),
                    ];
                    for (tail, got, want) in claims {
                        out.count("lemma/checked", 1);
                        out.work += 1;
                        if got != want {
                            let (a, f) = (e.display(got), e.display(want));
                            out.record(
                                "lemma/exceptions",
                                RECORD_CAP,
                                Record {
                                    vertices: n as u32,
                                    edges: n as u32 - 1,
                                    code: format!("list {n}"),
                                    index: 0,
                                    detail: format!("followed by {tail}"),
                                    note: format!("value {a}, lemma {f}"),
                                },
                            );
                        }
                    }
                }
                out.maximum("lemma/max_len", max as u64);
            }
            ["list", n] => {
                let n: usize = n.parse().map_err(|_| bad())?;
                if n == 0 || n as u64 > param(params, "max_single") {
                    return Err(bad());
                }
                check_lists(&mut solver, &mut out, "single", &[n]);
            }
            ["forest", k, first] => {
                let k: usize = k.parse().map_err(|_| bad())?;
                let first: usize = first.parse().map_err(|_| bad())?;
                let mf = param(params, "max_forest") as usize;
                if !(2..=4).contains(&k) || first == 0 || first > mf {
                    return Err(bad());
                }
                for total in k..=mf {
                    for lens in compositions(k, total, first) {
                        if lens.iter().sum::<usize>() != total {
                            continue;
                        }
                        ctx.check()?;
                        check_lists(&mut solver, &mut out, "forest", &lens);
                    }
                }
            }
            _ => return Err(bad()),
        }
        Ok(out)
    }
    fn render(&self, params: &Params, r: &SweepResult) -> LegacyRendered {
        let max_len = param(params, "max_len");
        let mut md = String::from("# Myopic Col on lists: lemma and corollary\n\n");
        let lemma_exc = records_total(r, "lemma/exceptions");
        let _ = writeln!(md, "| check | positions | exceptions |\n|---|---|---|");
        let _ = writeln!(md, "| lemma, n = 1..{max_len}, three tails (n·*, (n−1)·* − 1, (n−1)·* + 1) | {} | {lemma_exc} |", thousands(r.counter("lemma/checked")));
        let ms = param(params, "max_single");
        let mf = param(params, "max_forest");
        let se = records_total(r, "single/exceptions");
        let fe = records_total(r, "forest/exceptions");
        let _ = writeln!(
            md,
            "| corollary a·* + b − c, single lists of 1..{ms} nodes, all colourings | {} | {se} |",
            thousands(r.counter("single/positions"))
        );
        let _ = writeln!(
            md,
            "| corollary, ordered tuples of 2–4 lists, ≤ {mf} nodes, all colourings | {} | {fe} |",
            thousands(r.counter("forest/positions"))
        );
        let nc = records_total(r, "non_cold");
        let _ = writeln!(md, "\nNon-cold positions: {nc}.\n");
        for key in [
            "lemma/exceptions",
            "single/exceptions",
            "forest/exceptions",
            "non_cold",
        ] {
            if let Some(set) = r.records.get(key) {
                let _ = writeln!(md, "## {key}: {}\n", set.total);
                for x in &set.kept {
                    let _ = writeln!(md, "- {}", record_md(x));
                }
                md.push('\n');
            }
        }
        LegacyRendered {
            results_json: json!({
                "kind": "myopic-list",
                "params": {"max_len": max_len, "max_single": ms, "max_forest": mf},
                "lemma": {"max_len": max_len, "checked": r.counter("lemma/checked"), "exceptions": lemma_exc, "records": records_json(r, "lemma/exceptions")},
                "corollary": {
                    "single": {"positions": r.counter("single/positions"), "exceptions": se, "records": records_json(r, "single/exceptions")},
                    "forests": {"positions": r.counter("forest/positions"), "exceptions": fe, "records": records_json(r, "forest/exceptions")},
                },
                "non_cold": nc,
            }),
            report_md: md,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::legacy::{resolve_params, run_all_sequential};

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn segment_values_match_general_solver() {
        let mut s = Solver::new(SolverOptions::default());
        let v = list_values(&mut s.engine, 20);
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
        let kind = &MyopicListSweep;
        let params = resolve_params(
            kind,
            &[
                ("max_len".to_string(), 60),
                ("max_single".to_string(), 8),
                ("max_forest".to_string(), 6),
            ]
            .into(),
        )
        .unwrap();
        let r = run_all_sequential(kind, &params, &kind.plan(&params, 0).unwrap()).unwrap();
        assert_eq!(r.counter("lemma/checked"), 180);
        assert_eq!(records_total(&r, "lemma/exceptions"), 0);
        assert_eq!(
            r.counter("single/positions"),
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
        assert_eq!(r.counter("forest/positions"), want);
        assert_eq!(
            records_total(&r, "single/exceptions") + records_total(&r, "forest/exceptions"),
            0
        );
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
}
