//! The `uvg-local-search` sweep: seeded hill climbing for UVG positions of a
//! high nimber on a fixed number of vertices, sharded by random seed.
//!
//! It only ever finds upper bounds for "smallest graph with a start of value
//! *k" (the exact answers come from exhaustive sweeps). Every seed index `i`
//! runs an independent climb driven by `ChaCha8Rng::seed_from_u64(seed)` with
//! stream `i` (rand_chacha's portable ChaCha8: the same seed gives the same
//! graphs on every machine and version). A climb starts from a random
//! connected graph (random recursive tree: vertex v joins a uniform earlier
//! vertex; then every other pair is an edge with probability 1/4) and repeats:
//! toggle a uniformly random vertex pair; reject if the graph disconnects;
//! accept if the score Σ_v 8^grundy(v) does not drop; after `stall` rejected
//! steps in a row, kick the graph with three random toggles. It stops at the
//! first graph with a start of value ≥ `--value`, or after `--steps` steps.

mod present;

use crate::graph::{graph6, BitGraph};
use crate::sweep::merge::{add, merge_maps, MergeError};
use crate::sweep::{Kind, Merge, ParamDef, ShardCtx, Smallest, SweepError};
use crate::uvg;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The `uvg-local-search` sweep kind.
pub struct UvgLocalSearch;

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "value",
        help: "target nimber k: stop a climb at the first start of value >= *k",
        default: Some(6),
        min: 1,
        max: 20,
    },
    ParamDef {
        name: "vertices",
        help: "number of vertices of the graphs searched",
        default: Some(12),
        min: 2,
        max: 16,
    },
    ParamDef {
        name: "seeds",
        help: "independent climbs (seed indices 0..seeds)",
        default: Some(64),
        min: 1,
        max: 1 << 24,
    },
    ParamDef {
        name: "steps",
        help: "edge toggles per climb at most",
        default: Some(20_000),
        min: 1,
        max: 1 << 32,
    },
    ParamDef {
        name: "seed",
        help: "base random seed (ChaCha8)",
        default: Some(1),
        min: 0,
        max: u64::MAX,
    },
];

/// Parameters of the `uvg-local-search` sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    /// Target nimber k: a climb stops at the first start of value ≥ *k.
    pub value: u8,
    /// Vertices of the graphs searched.
    pub vertices: usize,
    /// Independent climbs (seed indices `0..seeds`).
    pub seeds: u64,
    /// Edge toggles per climb at most.
    pub steps: u64,
    /// Base random seed (ChaCha8).
    pub seed: u64,
}

impl SearchParams {
    fn check(&self) -> Result<(), SweepError> {
        if !(2..=16).contains(&self.vertices) || self.value == 0 || self.seeds == 0 {
            return Err(SweepError::BadParams {
                kind: "uvg-local-search".into(),
                reason: format!("{self:?} out of range (vertices 2..=16, value >= 1, seeds >= 1)"),
            });
        }
        Ok(())
    }
}

/// One shard: the climbs of seed indices `start..end`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedRange {
    /// First seed index.
    pub start: u64,
    /// One past the last seed index.
    pub end: u64,
}

/// The best position of a climb, ordered as witnesses are (vertices are
/// fixed by the parameters: edges, graph6, start, then the seed index).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ClimbWitness {
    /// Edges of the graph.
    pub edges: u32,
    /// The graph (graph6).
    pub graph6: String,
    /// A start of the climb's best value.
    pub start: u32,
    /// The seed index of the climb that found it.
    pub seed_index: u64,
}

/// The climbs whose best value was one value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BestValue {
    /// How many climbs.
    pub climbs: u64,
    /// The smallest of their best positions.
    pub witness: Smallest<ClimbWitness>,
}

/// The result of some climbs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchOutput {
    /// Climbs run.
    pub climbs: u64,
    /// Edge toggles tried, in all.
    pub steps: u64,
    /// Grundy evaluations (one per connected graph visited).
    pub evaluations: u64,
    /// By the best value a climb reached.
    pub best: BTreeMap<u8, BestValue>,
}

impl Merge for SearchOutput {
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        add(&mut self.climbs, other.climbs, "climbs")?;
        add(&mut self.steps, other.steps, "steps")?;
        add(&mut self.evaluations, other.evaluations, "evaluations")?;
        merge_maps(&mut self.best, other.best, "best", |a, b| {
            add(&mut a.climbs, b.climbs, "climbs")?;
            a.witness.merge(b.witness);
            Ok(())
        })
    }
    fn work(&self) -> u64 {
        self.steps
    }
}

/// `results.json` of the `uvg-local-search` sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchDoc {
    /// Always `uvg-local-search`.
    pub kind: String,
    /// The parameters.
    pub params: SearchParams,
    /// Climbs run.
    pub climbs: u64,
    /// Edge toggles tried.
    pub steps: u64,
    /// Grundy evaluations.
    pub evaluations: u64,
    /// By the best value a climb reached.
    pub best_values: BTreeMap<u8, BestRow>,
}

/// The climbs that reached one best value, and the smallest position found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BestRow {
    /// How many climbs.
    pub climbs: u64,
    /// The graph (graph6).
    pub graph6: String,
    /// A start of that value.
    pub start: u32,
    /// Edges.
    pub edges: u32,
    /// `seed index I`: the climb that found it.
    pub found_by: String,
}

/// Rejected steps in a row before a climb is kicked.
const STALL: u32 = 400;

fn score(values: &[u8]) -> u128 {
    values
        .iter()
        .map(|&v| 1u128 << (3 * v.min(40) as u32))
        .sum()
}

fn random_connected(rng: &mut ChaCha8Rng, n: usize) -> BitGraph {
    let mut g = BitGraph::new(n);
    for v in 1..n {
        let u = rng.random_range(0..v);
        g.add_edge(u, v);
    }
    for v in 1..n {
        for u in 0..v {
            if !g.has_edge(u, v) && rng.random_bool(0.25) {
                g.add_edge(u, v);
            }
        }
    }
    g
}

fn toggle(g: &mut BitGraph, u: usize, v: usize) {
    if g.has_edge(u, v) {
        g.remove_edge(u, v)
    } else {
        g.add_edge(u, v)
    }
}

fn random_pair(rng: &mut ChaCha8Rng, n: usize) -> (usize, usize) {
    let u = rng.random_range(0..n);
    let mut v = rng.random_range(0..n - 1);
    if v >= u {
        v += 1;
    }
    (u, v)
}

/// Outcome of one climb.
struct Climb {
    best: BitGraph,
    best_values: Vec<u8>,
    steps: u64,
    evaluations: u64,
}

fn climb(n: usize, target: u8, steps: u64, seed: u64, index: u64) -> Climb {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let mut g = random_connected(&mut rng, n);
    let mut values = uvg::grundy_all(&g);
    let mut cur = score(&values);
    let (mut best, mut best_values) = (g, values.clone());
    let mut evaluations = 1u64;
    let mut stall = 0u32;
    let mut step = 0u64;
    while step < steps && *best_values.iter().max().unwrap_or(&0) < target {
        step += 1;
        let (u, v) = random_pair(&mut rng, n);
        toggle(&mut g, u, v);
        if !g.is_connected() {
            toggle(&mut g, u, v);
            stall += 1;
        } else {
            let vals = uvg::grundy_all(&g);
            evaluations += 1;
            let s = score(&vals);
            if s >= cur {
                cur = s;
                values = vals;
                stall = 0;
                if values.iter().max() > best_values.iter().max() {
                    best = g;
                    best_values = values.clone();
                }
            } else {
                toggle(&mut g, u, v);
                stall += 1;
            }
        }
        if stall >= STALL {
            stall = 0;
            for _ in 0..3 {
                let (u, v) = random_pair(&mut rng, n);
                toggle(&mut g, u, v);
                if !g.is_connected() {
                    toggle(&mut g, u, v);
                }
            }
            values = uvg::grundy_all(&g);
            evaluations += 1;
            cur = score(&values);
        }
    }
    Climb {
        best,
        best_values,
        steps: step,
        evaluations,
    }
}

impl Kind for UvgLocalSearch {
    type Params = SearchParams;
    type Shard = SeedRange;
    type Output = SearchOutput;
    type Doc = SearchDoc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "uvg-local-search"
    }
    fn about(&self) -> &'static str {
        "seeded hill climbing for UVG starts of value >= *k on n vertices (upper bounds), sharded by seed"
    }
    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }
    fn plan(
        &self,
        params: &SearchParams,
        target_shards: u32,
    ) -> Result<Vec<(SeedRange, u64)>, SweepError> {
        params.check()?;
        let seeds = params.seeds;
        let shards = if target_shards == 0 {
            seeds.min(256)
        } else {
            (target_shards as u64).min(seeds)
        };
        let per = seeds.div_ceil(shards);
        Ok((0..shards)
            .map(|i| (i * per, ((i + 1) * per).min(seeds)))
            .filter(|(a, b)| a < b)
            .map(|(start, end)| {
                let estimate = (end - start).saturating_mul(params.steps);
                (SeedRange { start, end }, estimate)
            })
            .collect())
    }
    fn run(
        &self,
        params: &SearchParams,
        shard: &SeedRange,
        ctx: &ShardCtx<'_>,
    ) -> Result<SearchOutput, SweepError> {
        params.check()?;
        if shard.start >= shard.end {
            return Err(SweepError::BadShard {
                kind: Kind::name(self).into(),
                reason: format!("empty seed range {}..{}", shard.start, shard.end),
            });
        }
        let n = params.vertices;
        let mut out = SearchOutput::default();
        for i in shard.start..shard.end {
            ctx.check()?;
            let c = climb(n, params.value, params.steps, params.seed, i);
            let max = *c.best_values.iter().max().unwrap_or(&0);
            ctx.add_progress(c.steps);
            out.climbs += 1;
            out.steps += c.steps;
            out.evaluations += c.evaluations;
            let start = c.best_values.iter().position(|&v| v == max).unwrap_or(0);
            let best = out.best.entry(max).or_default();
            best.climbs += 1;
            best.witness.offer(ClimbWitness {
                edges: c.best.edge_count() as u32,
                graph6: graph6::encode_bitgraph(&c.best),
                start: start as u32,
                seed_index: i,
            });
        }
        Ok(out)
    }
    fn validate(
        &self,
        params: &SearchParams,
        shard: &SeedRange,
        out: &SearchOutput,
    ) -> Result<(), String> {
        validate(params, shard, out)
    }
    fn doc(&self, params: &SearchParams, r: &SearchOutput) -> SearchDoc {
        let best_values = r
            .best
            .iter()
            .filter_map(|(&v, b)| {
                let w = b.witness.0.as_ref()?;
                Some((
                    v,
                    BestRow {
                        climbs: b.climbs,
                        graph6: w.graph6.clone(),
                        start: w.start,
                        edges: w.edges,
                        found_by: format!("seed index {}", w.seed_index),
                    },
                ))
            })
            .collect();
        SearchDoc {
            kind: Kind::name(self).into(),
            params: params.clone(),
            climbs: r.climbs,
            steps: r.steps,
            evaluations: r.evaluations,
            best_values,
        }
    }
    fn present(&self, doc: &SearchDoc) -> crate::sweep::Presentation {
        present::present(doc)
    }
    fn report(&self, _params: &SearchParams, doc: &SearchDoc) -> String {
        let p = &doc.params;
        let mut s = String::new();
        let (k, n) = (p.value, p.vertices);
        let _ = writeln!(
            s,
            "# UVG local search: a start of value ≥ *{k} on {n} vertices\n"
        );
        let _ = writeln!(
            s,
            "Generated by `gamesweep run uvg-local-search --value {k} --vertices {n} --seeds {} --steps {} --seed {}`. Upper bounds only: a found position proves \"smallest ≤ {n} vertices\", a miss proves nothing.\n",
            p.seeds, p.steps, p.seed
        );
        let _ = writeln!(
            s,
            "{} climbs, {} steps, {} Grundy evaluations.\n",
            doc.climbs, doc.steps, doc.evaluations
        );
        let _ = writeln!(s, "| best value of a climb | climbs | smallest witness (graph6) | start | edges |\n|---|---|---|---|---|");
        for (v, x) in doc.best_values.iter().rev() {
            let _ = writeln!(
                s,
                "| *{v} | {} | `` {} `` | {} | {} |",
                x.climbs, x.graph6, x.start, x.edges
            );
        }
        s
    }
}

/// The checks of [`Kind::validate`]: one climb per seed index of the shard,
/// steps and evaluations within what those climbs can take, a climb below
/// the target ran every step, and each witness decodes to a connected graph
/// on `vertices` vertices from a seed index of the shard whose start has the
/// value claimed (re-solved: one Grundy evaluation per value, a climb does
/// thousands).
fn validate(params: &SearchParams, shard: &SeedRange, out: &SearchOutput) -> Result<(), String> {
    params.check().map_err(|e| e.to_string())?;
    let SeedRange { start, end } = *shard;
    if start >= end || end > params.seeds {
        return Err(format!(
            "shard: seed range {start}..{end} is not a non-empty part of 0..{}",
            params.seeds
        ));
    }
    let climbs = end - start;
    if out.climbs != climbs {
        return Err(format!(
            "climbs is {}, but the shard has the {climbs} seed indices {start}..{end}",
            out.climbs
        ));
    }
    let max_steps = climbs.saturating_mul(params.steps);
    if out.steps > max_steps {
        return Err(format!(
            "steps is {}, above {climbs} climbs × {} steps",
            out.steps, params.steps
        ));
    }
    // One evaluation at the start of a climb, at most one per step and one
    // per kick (a kick follows STALL rejected steps).
    let max_evaluations = climbs + out.steps + out.steps / STALL as u64;
    if out.evaluations < climbs || out.evaluations > max_evaluations {
        return Err(format!(
            "evaluations is {}, not within {climbs}..={max_evaluations} for {climbs} climbs of {} steps",
            out.evaluations, out.steps
        ));
    }
    let sum = out
        .best
        .values()
        .try_fold(0u64, |a, b| a.checked_add(b.climbs));
    if sum != Some(climbs) {
        return Err(format!(
            "best: climbs sum to {sum:?}, not climbs = {climbs}"
        ));
    }
    // A climb that ended below the target ran all its steps.
    let short: u64 = out.best.range(..params.value).map(|(_, b)| b.climbs).sum();
    if out.steps < short.saturating_mul(params.steps) {
        return Err(format!(
            "steps is {}, but {short} climbs ended below *{} after {} steps each",
            out.steps, params.value, params.steps
        ));
    }
    let n = params.vertices;
    for (&v, b) in &out.best {
        let at = format!("best[{v}]");
        if v as usize >= n {
            return Err(format!(
                "{at}: a start's value on {n} vertices is below {n}"
            ));
        }
        if b.climbs == 0 {
            return Err(format!("{at}.climbs is 0"));
        }
        let Some(w) = &b.witness.0 else {
            return Err(format!("{at}.witness is empty"));
        };
        if !(start..end).contains(&w.seed_index) {
            return Err(format!(
                "{at}.witness.seed_index is {}, outside the shard's {start}..{end}",
                w.seed_index
            ));
        }
        let g = graph6::parse_bitgraph(&w.graph6)
            .map_err(|e| format!("{at}.witness.graph6 `{}`: {e}", w.graph6))?;
        if g.n() != n || !g.is_connected() || g.edge_count() != w.edges as usize {
            return Err(format!(
                "{at}.witness.graph6 `{}` is not a connected graph on {n} vertices with {} edges",
                w.graph6, w.edges
            ));
        }
        let values = uvg::grundy_all(&g);
        let max = values.iter().copied().max().unwrap_or(0);
        let first = values.iter().position(|&x| x == max).unwrap_or(0);
        if max != v || first != w.start as usize {
            return Err(format!(
                "{at}.witness: `{}` has largest value {max} first at start {first}, not {v} at {}",
                w.graph6, w.start
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::{run_typed, ShardSpec, SweepKind};

    fn params() -> SearchParams {
        SearchParams {
            value: 3,
            vertices: 6,
            seeds: 8,
            steps: 3000,
            seed: 7,
        }
    }

    #[test]
    fn finds_star3_on_six_vertices_reproducibly() {
        let p = params();
        let a = run_typed(&UvgLocalSearch, &p, 3).unwrap();
        let b = run_typed(&UvgLocalSearch, &p, 8).unwrap();
        assert_eq!(a, b, "plan-independent");
        assert_eq!(a.climbs, 8);
        let best = &a.best[&3];
        assert!(best.climbs > 0);
        let w = best.witness.0.as_ref().unwrap();
        let g = graph6::parse_bitgraph(&w.graph6).unwrap();
        assert_eq!(g.n(), 6);
        assert_eq!(
            uvg::grundy_all(&g)[w.start as usize],
            3,
            "witness re-verified"
        );
        let spec = crate::sweep::ShardSpec {
            index: 0,
            payload: r#"{"start":0,"end":2}"#.into(),
            estimate: 0,
        };
        let given = [
            ("value", 3),
            ("vertices", 6),
            ("seeds", 8),
            ("steps", 3000),
            ("seed", 7),
        ]
        .map(|(k, v)| (k.to_string(), v))
        .into();
        let resolved = UvgLocalSearch.resolve_params(&given).unwrap();
        let out =
            SweepKind::run_shard(&UvgLocalSearch, &resolved, &spec, &ShardCtx::detached()).unwrap();
        assert_eq!(
            UvgLocalSearch.decode(&out.encode()).unwrap(),
            out,
            "encoding round trip"
        );
        let doc = UvgLocalSearch.doc(&p, &a);
        assert_eq!(doc.best_values[&3].climbs, best.climbs);
        assert_eq!(doc.climbs, 8);
    }

    #[test]
    fn plan_covers_every_seed_once() {
        let p = SearchParams {
            seeds: 10,
            ..params()
        };
        for target in [0, 1, 3, 4, 10, 50] {
            let plan = Kind::plan(&UvgLocalSearch, &p, target).unwrap();
            let mut next = 0;
            for (r, est) in &plan {
                assert_eq!(r.start, next, "target {target}");
                assert!(r.end > r.start);
                assert_eq!(*est, (r.end - r.start) * p.steps);
                next = r.end;
            }
            assert_eq!(next, 10, "target {target}");
        }
    }

    #[test]
    fn bad_shards_and_params_are_errors() {
        let p = UvgLocalSearch
            .resolve_params(&[("vertices".to_string(), 6)].into())
            .unwrap();
        for payload in [
            "",
            "seeds 0..4",
            r#"{"start":4,"end":4}"#,
            r#"{"start":5,"end":2}"#,
            r#"{"start":0}"#,
            r#"{"start":0,"end":2,"extra":1}"#,
        ] {
            let shard = ShardSpec {
                index: 0,
                payload: payload.into(),
                estimate: 0,
            };
            assert!(
                matches!(
                    SweepKind::run_shard(&UvgLocalSearch, &p, &shard, &ShardCtx::detached()),
                    Err(SweepError::BadShard { .. })
                ),
                "{payload:?}"
            );
        }
        assert!(UvgLocalSearch
            .resolve_params(&[("vertices".to_string(), 17)].into())
            .is_err());
        let bad = SearchParams {
            vertices: 1,
            ..params()
        };
        assert!(matches!(
            UvgLocalSearch.run(&bad, &SeedRange { start: 0, end: 1 }, &ShardCtx::detached()),
            Err(SweepError::BadParams { .. })
        ));
    }

    /// Every shard of real plans validates: the first 4 climbs of the
    /// committed `runs/uvg-local-search-6` (the same climbs: each seed index
    /// is its own stream) and the test parameters, each in the default plan
    /// and in 3 shards. (`-7`, 14 vertices, takes minutes: left out.)
    #[test]
    fn real_shard_results_validate() {
        let runs = [
            SearchParams {
                value: 6,
                vertices: 12,
                seeds: 4,
                steps: 20000,
                seed: 1,
            },
            SearchParams {
                seeds: 10,
                ..params()
            },
        ];
        for p in runs {
            for shards in [0, 3] {
                for (s, _) in Kind::plan(&UvgLocalSearch, &p, shards).unwrap() {
                    let out = UvgLocalSearch.run(&p, &s, &ShardCtx::detached()).unwrap();
                    assert_eq!(validate(&p, &s, &out), Ok(()), "{p:?} shard {s:?}");
                }
            }
        }
    }

    /// `f` applied to the result of seeds 2..6 under [`params`] is refused
    /// with a message containing `want`.
    fn refused(f: impl FnOnce(&mut SearchOutput), want: &str) {
        let p = params();
        let s = SeedRange { start: 2, end: 6 };
        let mut out = UvgLocalSearch.run(&p, &s, &ShardCtx::detached()).unwrap();
        assert_eq!(validate(&p, &s, &out), Ok(()));
        f(&mut out);
        let e = validate(&p, &s, &out).expect_err(want);
        assert!(e.contains(want), "`{e}` does not contain `{want}`");
    }

    /// Each forged field is refused, naming it.
    #[test]
    fn forged_search_results_are_refused_naming_the_field() {
        refused(
            |o| o.climbs += 1,
            "climbs is 5, but the shard has the 4 seed indices 2..6",
        );
        refused(
            |o| o.steps = 4 * 3000 + 1,
            "steps is 12001, above 4 climbs × 3000 steps",
        );
        refused(|o| o.evaluations = 3, "evaluations is 3");
        refused(
            |o| o.best.values_mut().next().unwrap().climbs += 1,
            "best: climbs sum to Some(5)",
        );
        // Three climbs ending below *3 each ran 3,000 steps.
        refused(
            |o| {
                let b = o.best.remove(&3).unwrap();
                o.best.insert(2, b);
            },
            "climbs ended below *3",
        );
        refused(
            |o| {
                let b = o.best.remove(&3).unwrap();
                o.best.insert(6, b);
            },
            "best[6]: a start's value on 6 vertices is below 6",
        );
        refused(
            |o| {
                let w = o.best.get_mut(&3).unwrap().witness.0.as_mut().unwrap();
                w.seed_index = 7;
            },
            "best[3].witness.seed_index is 7",
        );
        refused(
            |o| {
                let w = o.best.get_mut(&3).unwrap().witness.0.as_mut().unwrap();
                w.graph6 = "E?~w".into(); // a 6-vertex graph, disconnected
            },
            "best[3].witness.graph6",
        );
        // A witness of another size.
        refused(
            |o| {
                let w = o.best.get_mut(&3).unwrap().witness.0.as_mut().unwrap();
                w.graph6 = "Dr{".into();
            },
            "not a connected graph on 6 vertices",
        );
        // The path on 6 vertices: connected, but no start of value 3.
        refused(
            |o| {
                let w = o.best.get_mut(&3).unwrap().witness.0.as_mut().unwrap();
                w.graph6 = graph6::encode_bitgraph(&{
                    let mut g = BitGraph::new(6);
                    for v in 1..6 {
                        g.add_edge(v - 1, v);
                    }
                    g
                });
                w.edges = 5;
            },
            "best[3].witness: `",
        );
    }
}
