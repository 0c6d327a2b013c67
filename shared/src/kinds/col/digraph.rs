//! `myopic-digraph`: the unwatched-source rule on general digraphs.
//!
//! A vertex `r` of a position is an **unwatched-source subject** when `r` is
//! uncoloured, has at least one out-neighbour, every out-neighbour is
//! uncoloured, and no uncoloured vertex has an arc to `r` (an uncoloured vertex
//! counts as a watcher even when it has no colour left). Claim:
//! `G = * + G(board − r)`. A **watched case** is the same with at least one
//! uncoloured in-neighbour; we count how often the formula breaks there.
//! Subjects are counted per (position, r).
//!
//! Sets: every labelled digraph on 2..4 vertices (each pair none, →, ←, both)
//! with every colouring (shards `exh n lo hi`, digraph index ranges), and with
//! `--random K`, K random digraphs on `--vertices V` vertices (shards
//! `rand lo hi`, sample index ranges).
//!
//! **Random stream** (portable, independent of the shard plan): sample `i`
//! uses `ChaCha8Rng::seed_from_u64(S)` with `set_stream(i)`; it draws, for
//! each pair `(a, b)`, `a < b` in graph6 column order, a uniform integer `x`
//! in `0..20` (none if `x < 11`, `a → b` if `x < 15`, `b → a` if `x < 19`,
//! else both: probabilities .55/.2/.2/.05), then per vertex `y` in `0..4`
//! (0–1 uncoloured, 2 blue, 3 red). A uniform integer below `m` is the first
//! `next_u32()` value below `m·⌊2^32/m⌋`, taken mod `m`.

use super::graphs::{
    board_digraph6, colouring_from_index, digraph_from_index, digraph_shards, parse_exh,
};
use super::*;
use crate::col::{Board, Pos, Solver, SolverOptions};
use crate::graph::members;
use crate::sweep::{param, ParamDef, Params, LegacyRendered, ShardCtx, ShardSpec, SweepError, UntypedKind};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// The `myopic-digraph` sweep kind.
pub struct MyopicDigraphSweep;

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "random",
        help: "number of random digraphs (0 = exhaustive set only)",
        default: Some(0),
        min: 0,
        max: 100_000_000,
    },
    ParamDef {
        name: "vertices",
        help: "vertices of each random digraph",
        default: Some(8),
        min: 2,
        max: 20,
    },
    ParamDef {
        name: "seed",
        help: "seed of the random stream",
        default: Some(1),
        min: 0,
        max: u64::MAX,
    },
];

fn uniform(rng: &mut ChaCha8Rng, m: u32) -> u32 {
    let zone = (1u64 << 32) / m as u64 * m as u64;
    loop {
        let x = rng.next_u32();
        if (x as u64) < zone {
            return x % m;
        }
    }
}

/// Random sample `i` of the documented stream: (board, blue, red).
pub fn random_position(seed: u64, i: u64, n: usize) -> (Board, u32, u32) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(i);
    let mut arcs = Vec::new();
    for b in 1..n {
        for a in 0..b {
            match uniform(&mut rng, 20) {
                0..=10 => {}
                11..=14 => arcs.push((a, b)),
                15..=18 => arcs.push((b, a)),
                _ => {
                    arcs.push((a, b));
                    arcs.push((b, a));
                }
            }
        }
    }
    let (mut blue, mut red) = (0, 0);
    for v in 0..n {
        match uniform(&mut rng, 4) {
            2 => blue |= 1 << v,
            3 => red |= 1 << v,
            _ => {}
        }
    }
    (Board::myopic(n, &arcs), blue, red)
}

/// Check every subject / watched case of one position; returns nothing, counts into `out` under `part`.
#[allow(clippy::too_many_arguments)]
fn check_position(
    solver: &mut Solver,
    out: &mut SweepResult,
    part: &str,
    b: &Board,
    code: &str,
    blue: u32,
    red: u32,
) {
    let n = b.n();
    let all = (1u32 << n) - 1;
    let unc = all & !(blue | red);
    let pos = b.position_masks(blue, red);
    let g = solver.value(b, pos);
    out.count(format!("{part}/positions"), 1);
    out.work += 1;
    if !solver.engine.is_cold(g) {
        let s = solver.engine.display(g);
        out.record(
            format!("{part}/non_cold"),
            RECORD_CAP,
            position_record(n, b.arc_count(), code, blue, red, format!("value {s}")),
        );
    }
    for r in members(unc) {
        let look = b.look(r);
        if look == 0 || look & !unc != 0 {
            continue;
        }
        let watched = b.watchers(r) & unc != 0;
        let rest = Pos {
            l: pos.l & !(1 << r),
            r: pos.r & !(1 << r),
        };
        let gr = solver.value(b, rest);
        let star = solver.engine.star();
        let f = solver.engine.add(star, gr);
        let broken = f != g;
        let what = if watched { "watched" } else { "subjects" };
        out.count(format!("{part}/{what}"), 1);
        if broken {
            let (a, fs) = (solver.engine.display(g), solver.engine.display(f));
            let rec = position_record(
                n,
                b.arc_count(),
                code,
                blue,
                red,
                format!("r = {r}: value {a}, formula {fs}"),
            );
            if watched {
                out.count(format!("{part}/watched_broken"), 1);
                out.witness(format!("{part}/smallest_watched_broken"), rec);
            } else {
                out.record(format!("{part}/exceptions"), RECORD_CAP, rec);
            }
        }
    }
}

impl UntypedKind for MyopicDigraphSweep {
    fn name(&self) -> &'static str {
        "myopic-digraph"
    }
    fn about(&self) -> &'static str {
        "Myopic Col on digraphs: the unwatched-source rule G = * + G(board − r), exhaustive ≤ 4 vertices plus random"
    }
    fn params(&self) -> &'static [ParamDef] {
        PARAMS
    }
    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        let k = param(params, "random");
        let target = if target_shards == 0 {
            16
        } else {
            target_shards as u64
        };
        let mut payloads = digraph_shards(target.min(16));
        if k > 0 {
            let parts = target.min(k);
            for p in 0..parts {
                payloads.push(format!("rand {} {}", k * p / parts, k * (p + 1) / parts));
            }
        }
        Ok(crate::sweep::numbered(payloads.into_iter().map(|p| (p, 0))))
    }
    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError> {
        let mut solver = Solver::new(SolverOptions::default());
        let mut out = SweepResult::default();
        if let Some(rest) = shard.payload.strip_prefix("rand ") {
            let bad = || SweepError::BadShard {
                kind: self.name().into(),
                reason: format!("bad payload `{:.60}`", shard.payload),
            };
            let (lo, hi) = rest.split_once(' ').ok_or_else(bad)?;
            let lo: u64 = lo.parse().map_err(|_| bad())?;
            let hi: u64 = hi.parse().map_err(|_| bad())?;
            if lo > hi || hi > param(params, "random") {
                return Err(bad());
            }
            let (seed, v) = (param(params, "seed"), param(params, "vertices") as usize);
            for i in lo..hi {
                if i % 1024 == 0 {
                    ctx.check()?;
                }
                let (b, blue, red) = random_position(seed, i, v);
                let code = board_digraph6(&b);
                check_position(&mut solver, &mut out, "random", &b, &code, blue, red);
            }
            ctx.add_progress(hi - lo);
        } else {
            let (n, lo, hi) = parse_exh(self.name(), &shard.payload)?;
            for idx in lo..hi {
                ctx.check()?;
                let b = Board::myopic(n, &digraph_from_index(n, idx));
                let code = board_digraph6(&b);
                for c in 0..3u64.pow(n as u32) {
                    let (blue, red) = colouring_from_index(n, c);
                    check_position(&mut solver, &mut out, "exhaustive", &b, &code, blue, red);
                }
            }
        }
        Ok(out)
    }
    fn render(&self, params: &Params, r: &SweepResult) -> LegacyRendered {
        let mut md =
            String::from("# Myopic Col: the unwatched-source rule G = * + G(board − r)\n\n");
        let _ = writeln!(md, "Subject: r uncoloured, ≥ 1 out-neighbour, all out-neighbours uncoloured, no uncoloured in-neighbour (counted per position and r). Watched case: the same with an uncoloured in-neighbour.\n");
        let _ = writeln!(md, "| set | positions | subjects | exceptions | watched cases | watched broken | non-cold |\n|---|---|---|---|---|---|---|");
        let mut sets = serde_json::Map::new();
        let k = param(params, "random");
        for (part, label) in [
            (
                "exhaustive",
                "labelled digraphs on 2..4 vertices, all colourings".to_string(),
            ),
            (
                "random",
                format!(
                    "{k} random digraphs on {} vertices, seed {}",
                    param(params, "vertices"),
                    param(params, "seed")
                ),
            ),
        ] {
            if part == "random" && k == 0 {
                continue;
            }
            let c = |x: &str| r.counter(&format!("{part}/{x}"));
            let exc = records_total(r, &format!("{part}/exceptions"));
            let nc = records_total(r, &format!("{part}/non_cold"));
            let _ = writeln!(
                md,
                "| {label} | {} | {} | {exc} | {} | {} | {nc} |",
                thousands(c("positions")),
                thousands(c("subjects")),
                thousands(c("watched")),
                thousands(c("watched_broken"))
            );
            let smallest = r.witnesses.get(&format!("{part}/smallest_watched_broken"));
            sets.insert(part.into(), json!({
                "positions": c("positions"), "subjects": c("subjects"), "exceptions": exc,
                "exception_records": records_json(r, &format!("{part}/exceptions")),
                "watched": c("watched"), "watched_broken": c("watched_broken"),
                "smallest_watched_broken": smallest.map(record_json),
                "non_cold": nc, "non_cold_records": records_json(r, &format!("{part}/non_cold")),
            }));
        }
        md.push('\n');
        for part in ["exhaustive", "random"] {
            if let Some(w) = r.witnesses.get(&format!("{part}/smallest_watched_broken")) {
                let arcs: Vec<String> = crate::graph::graph6::decode_digraph(&w.code)
                    .map(|(_, a)| a.iter().map(|(u, v)| format!("{u}→{v}")).collect())
                    .unwrap_or_default();
                let _ = writeln!(
                    md,
                    "Smallest broken watched case ({part}): {} vertices, arcs {}, `{}`, {}: {}\n",
                    w.vertices,
                    arcs.join(", "),
                    w.code,
                    w.detail,
                    w.note
                );
            }
            for key in [format!("{part}/exceptions"), format!("{part}/non_cold")] {
                if let Some(set) = r.records.get(&key) {
                    let _ = writeln!(md, "## {key}: {}\n", set.total);
                    for x in &set.kept {
                        let _ = writeln!(md, "- {}", record_md(x));
                    }
                    md.push('\n');
                }
            }
        }
        LegacyRendered {
            results_json: json!({
                "kind": "myopic-digraph",
                "params": {"random": k, "vertices": param(params, "vertices"), "seed": param(params, "seed")},
                "sets": sets,
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
    fn exhaustive_set_matches_spec() {
        let kind = &MyopicDigraphSweep;
        let params = resolve_params(kind, &[("random".to_string(), 300)].into()).unwrap();
        let r = run_all_sequential(kind, &params, &kind.plan(&params, 4).unwrap()).unwrap();
        assert_eq!(r.counter("exhaustive/positions"), 333_540);
        assert_eq!(r.counter("exhaustive/subjects"), 23_430);
        assert_eq!(records_total(&r, "exhaustive/exceptions"), 0);
        assert_eq!(r.counter("exhaustive/watched"), 52_686);
        assert_eq!(r.counter("exhaustive/watched_broken"), 34_960);
        assert_eq!(records_total(&r, "exhaustive/non_cold"), 0);
        let w = &r.witnesses["exhaustive/smallest_watched_broken"];
        assert_eq!((w.vertices, w.edges), (3, 3));
        assert_eq!(r.counter("random/positions"), 300);
        // plan independence of the random part
        let r2 = run_all_sequential(kind, &params, &kind.plan(&params, 7).unwrap()).unwrap();
        assert_eq!(r, r2);
    }

    #[test]
    fn random_stream_is_stable() {
        let (b1, bl1, rd1) = random_position(7, 12345, 8);
        let (b2, bl2, rd2) = random_position(7, 12345, 8);
        assert_eq!((b1, bl1, rd1), (b2, bl2, rd2));
        assert_ne!(random_position(7, 12346, 8).0, b1);
    }
}
