//! `uvg-strategy`: the matching strategy (move to the mate in a maximum
//! matching, `uvg::winning_move`) against a random mover, from winning starts
//! on seeded random graphs of 8–17 vertices. The strategy must win every game.
//!
//! Game i uses stream i: a vertex count `8 + below(10)`, a graph from
//! [`random_connected_graph`] (edge probability 25 %), redrawn (same stream)
//! until it has a winning start (first player wins by the matching test), a
//! uniform winning start, then the game: the strategy moves first; the random
//! mover picks a uniform remaining neighbour. After every strategy move the
//! exact value of the opponent's position is also computed (it must be 0).

use super::{parse_range, plan_ranges, record_json, thousands, EXCEPTION_CAP, SECTION5_NOTE};
use crate::bft::random::{below, instance_rng, random_connected_graph};
use crate::graph::{graph6, members, BitGraph, VSet};
use crate::sweep::{
    param, ParamDef, Params, Record, LegacyRendered, ShardCtx, ShardSpec, SweepError, UntypedKind,
    SweepResult,
};
use crate::uvg;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// The `uvg-strategy` sweep kind.
pub struct StrategySweep;

/// Smallest graph size.
pub const MIN_N: usize = 8;
/// Largest graph size.
pub const MAX_N: usize = 17;
/// Edge probability (percent) of the non-tree pairs.
pub const EDGE_PERCENT: u64 = 25;

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "games",
        help: "number of games",
        default: Some(1000),
        min: 0,
        max: 100_000_000,
    },
    ParamDef {
        name: "seed",
        help: "seed of the graphs and the random mover (ChaCha8, one stream per game)",
        default: Some(1),
        min: 0,
        max: u64::MAX,
    },
];

/// The random model, stated in results.json and the report.
pub const RANDOM_MODEL: &str = "game i is drawn from ChaCha8Rng::seed_from_u64(seed) with set_stream(i): \
n = 8 + below(10) vertices; a random recursive tree (vertex v joins a uniform earlier vertex) plus every \
other pair, in lexicographic order, with probability 25 %; redrawn until some start wins for the first \
player (matching test); a uniform winning start; the random mover picks a uniform remaining neighbour";

/// How one game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The board.
    pub graph: BitGraph,
    /// Graphs drawn without a winning start before this one.
    pub redraws: u64,
    /// The start vertex.
    pub start: usize,
    /// The token's path, start first.
    pub path: Vec<usize>,
    /// Did the strategy win (the random mover was left without a move)?
    pub strategy_won: bool,
    /// Strategy moves after which the opponent's position had a non-zero exact value.
    pub bad_moves: u64,
}

/// Play game `i` under `seed`.
pub fn play(seed: u64, i: u64) -> Game {
    let mut rng = instance_rng(seed, i);
    let n = MIN_N + below(&mut rng, (MAX_N - MIN_N + 1) as u64) as usize;
    let mut redraws = 0;
    let (graph, winners) = loop {
        let g = random_connected_graph(&mut rng, n, EDGE_PERCENT);
        let w: Vec<usize> = members(uvg::first_player_wins_all(&g)).collect();
        if !w.is_empty() {
            break (g, w);
        }
        redraws += 1;
    };
    let start = winners[below(&mut rng, winners.len() as u64) as usize];
    let mut alive: VSet = graph.all();
    let mut v = start;
    let mut path = vec![start];
    let mut bad_moves = 0;
    let strategy_won = loop {
        // Strategy to move.
        let Some(to) = uvg::winning_move(&graph, v, alive) else {
            break false;
        };
        alive &= !(1 << v);
        v = to;
        path.push(v);
        // Independent of the matching: the exact search must call it a loss.
        if uvg::grundy(&graph, v, alive) != 0 {
            bad_moves += 1;
        }
        // Random mover to move.
        let opts: Vec<usize> = members(graph.nbrs(v) & alive & !(1 << v)).collect();
        if opts.is_empty() {
            break true;
        }
        alive &= !(1 << v);
        v = opts[below(&mut rng, opts.len() as u64) as usize];
        path.push(v);
    };
    Game {
        graph,
        redraws,
        start,
        path,
        strategy_won,
        bad_moves,
    }
}

impl UntypedKind for StrategySweep {
    fn name(&self) -> &'static str {
        "uvg-strategy"
    }

    fn about(&self) -> &'static str {
        "matching strategy vs a random mover from winning starts on seeded random graphs of 8-17 vertices"
    }

    fn params(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        Ok(plan_ranges(
            param(params, "games"),
            target_shards,
            8,
            |a, b| b - a,
        ))
    }

    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError> {
        let (a, b) = parse_range(self.name(), &shard.payload, param(params, "games"))?;
        let seed = param(params, "seed");
        let mut out = SweepResult::default();
        for i in a..b {
            ctx.check()?;
            let g = play(seed, i);
            let moves = g.path.len() as u64 - 1;
            let n = g.graph.n();
            out.work += 1;
            out.count("games", 1);
            out.count(format!("n={n:02}/games"), 1);
            out.count("redraws", g.redraws);
            out.count("moves", moves);
            out.count("strategy_moves", moves.div_ceil(2));
            out.count("random_moves", moves / 2);
            out.maximum("moves_max", moves);
            out.count("strategy_wins", g.strategy_won as u64);
            out.count("bad_moves", g.bad_moves);
            if !g.strategy_won || g.bad_moves > 0 {
                out.record(
                    "exceptions",
                    EXCEPTION_CAP,
                    Record {
                        vertices: n as u32,
                        edges: g.graph.edge_count() as u32,
                        code: graph6::encode_bitgraph(&g.graph),
                        index: g.start as u64,
                        detail: format!("game #{i}, start {}, path {:?}", g.start, g.path),
                        note: format!(
                            "strategy_won={} moves_to_nonzero={}",
                            g.strategy_won, g.bad_moves
                        ),
                    },
                );
            }
            ctx.add_progress(1);
        }
        Ok(out)
    }

    fn render(&self, params: &Params, merged: &SweepResult) -> LegacyRendered {
        let by_n: Vec<Value> = (MIN_N..=MAX_N)
            .map(|n| json!({"n": n, "games": merged.counter(&format!("n={n:02}/games"))}))
            .collect();
        let exc = merged.records.get("exceptions");
        let results_json = json!({
            "kind": "uvg-strategy",
            "params": params,
            "random_model": RANDOM_MODEL,
            "games": merged.counter("games"),
            "strategy_wins": merged.counter("strategy_wins"),
            "moves": merged.counter("moves"),
            "strategy_moves": merged.counter("strategy_moves"),
            "random_moves": merged.counter("random_moves"),
            "moves_max": merged.maxima.get("moves_max").copied().unwrap_or(0),
            "strategy_moves_to_nonzero_value": merged.counter("bad_moves"),
            "graphs_redrawn_without_winning_start": merged.counter("redraws"),
            "games_by_n": by_n,
            "exceptions": exc.map(|s| s.total).unwrap_or(0),
            "exception_records": exc.map(|s| s.kept.iter().map(record_json).collect::<Vec<_>>()).unwrap_or_default(),
            "not_covered": SECTION5_NOTE,
        });
        let report_md = report_md(&results_json);
        LegacyRendered {
            results_json,
            report_md,
        }
    }
}

/// Render report.md from the results.json document only.
fn report_md(doc: &Value) -> String {
    let u = |v: &Value| v.as_u64().unwrap_or(0);
    let games = u(&doc["games"]);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Matching strategy vs a random mover (Fraenkel–Scheinerman–Ullman)\n"
    );
    let _ = writeln!(
        s,
        "Reproduce with `gamesweep run uvg-strategy --games {} --seed {}`. LegacyRendered from `results.json`; every number below is computed.\n",
        u(&doc["params"]["games"]),
        u(&doc["params"]["seed"])
    );
    let _ = writeln!(
        s,
        "- Games: {} on random connected graphs of {MIN_N}–{MAX_N} vertices, from winning starts. Model: {}.",
        thousands(games),
        doc["random_model"].as_str().unwrap_or("")
    );
    let _ = writeln!(
        s,
        "- The strategy (move to the token's mate in a maximum matching) won **{} of {} games**; exceptions: **{}**.",
        thousands(u(&doc["strategy_wins"])),
        thousands(games),
        u(&doc["exceptions"])
    );
    let _ = writeln!(
        s,
        "- Moves: {} in all ({} by the strategy, {} by the random mover), longest game {} moves. After every strategy move the exact Grundy value of the opponent's position was computed: {} moves led to a non-zero value.",
        thousands(u(&doc["moves"])),
        thousands(u(&doc["strategy_moves"])),
        thousands(u(&doc["random_moves"])),
        u(&doc["moves_max"]),
        u(&doc["strategy_moves_to_nonzero_value"])
    );
    let _ = writeln!(
        s,
        "- Graphs redrawn because no start was winning: {}.\n",
        thousands(u(&doc["graphs_redrawn_without_winning_start"]))
    );
    let _ = writeln!(s, "| n | games |\n|---|---|");
    for row in doc["games_by_n"].as_array().into_iter().flatten() {
        let _ = writeln!(s, "| {} | {} |", row["n"], thousands(u(&row["games"])));
    }
    super::write_exceptions_and_not_covered(&mut s, doc);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::legacy::{resolve_params, run_all_sequential};

    fn params(games: u64, seed: u64) -> Params {
        resolve_params(
            &StrategySweep,
            &[("games".to_string(), games), ("seed".to_string(), seed)].into(),
        )
        .unwrap()
    }

    #[test]
    fn strategy_wins_every_game_and_plan_does_not_matter() {
        let p = params(120, 3);
        let run = |shards| {
            let plan = StrategySweep.plan(&p, shards).unwrap();
            let merged = run_all_sequential(&StrategySweep, &p, &plan).unwrap();
            StrategySweep.render(&p, &merged).results_json
        };
        let a = run(1);
        assert_eq!(a["games"], 120);
        assert_eq!(a["strategy_wins"], 120);
        assert_eq!(a["exceptions"], 0);
        assert_eq!(a["strategy_moves_to_nonzero_value"], 0);
        assert_eq!(a, run(7));
    }

    #[test]
    fn games_are_legal_and_reproducible() {
        for i in 0..40 {
            let g = play(11, i);
            assert_eq!(g, play(11, i));
            assert!((MIN_N..=MAX_N).contains(&g.graph.n()));
            assert!(g.graph.is_connected());
            assert!(uvg::first_player_wins(&g.graph, g.start, g.graph.all()));
            // A simple path along edges.
            let mut seen = 0u32;
            for w in g.path.windows(2) {
                assert!(g.graph.has_edge(w[0], w[1]));
            }
            for &v in &g.path {
                assert_eq!(seen >> v & 1, 0, "vertex revisited");
                seen |= 1 << v;
            }
            // The strategy made the last move: an odd number of moves.
            assert_eq!(g.path.len() % 2, 0);
            assert!(g.strategy_won);
        }
    }
}
