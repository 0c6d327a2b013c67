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

mod report;
mod validate;

use crate::bft::random::{below, instance_rng, random_connected_graph};
use crate::families::bft::{
    plan_ranges, write_graph_exceptions, Exceptions, RangeShard, SECTION5_NOTE,
};
use crate::graph::{graph6, members, BitGraph, VSet};
use crate::sweep::merge::{add, MergeError};
use crate::sweep::report::thousands;
use crate::sweep::ValidateError;
use crate::sweep::{Kind, Max, Merge, ParamDef, Record, ShardCtx, SweepError};
use crate::uvg;
use serde::{Deserialize, Serialize};
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

/// Number of graph sizes, `MIN_N..=MAX_N`.
const SIZES: usize = MAX_N - MIN_N + 1;

/// The parameters of `uvg-strategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyParams {
    /// Number of games.
    pub games: u64,
    /// Seed of the graphs and the random mover.
    pub seed: u64,
}

/// The merged result of games.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StrategyOutput {
    /// Games played.
    pub games: u64,
    /// Games by vertex count (index `n − MIN_N`).
    pub games_by_n: [u64; SIZES],
    /// Graphs redrawn because no start was winning.
    pub redraws: u64,
    /// Moves in all.
    pub moves: u64,
    /// Moves by the strategy.
    pub strategy_moves: u64,
    /// Moves by the random mover.
    pub random_moves: u64,
    /// The longest game (moves).
    pub moves_max: Max,
    /// Games the strategy won.
    pub strategy_wins: u64,
    /// Strategy moves after which the opponent's position had a non-zero value.
    pub bad_moves: u64,
    /// Games lost or with a bad move.
    pub exceptions: Exceptions,
}

impl Merge for StrategyOutput {
    fn merge(&mut self, o: Self) -> Result<(), MergeError> {
        add(&mut self.games, o.games, "games")?;
        for (n, (a, b)) in self.games_by_n.iter_mut().zip(o.games_by_n).enumerate() {
            add(a, b, "").map_err(|e| MergeError {
                field: format!("games_by_n[{n}]"),
                ..e
            })?;
        }
        add(&mut self.redraws, o.redraws, "redraws")?;
        add(&mut self.moves, o.moves, "moves")?;
        add(&mut self.strategy_moves, o.strategy_moves, "strategy_moves")?;
        add(&mut self.random_moves, o.random_moves, "random_moves")?;
        self.moves_max.merge(o.moves_max);
        add(&mut self.strategy_wins, o.strategy_wins, "strategy_wins")?;
        add(&mut self.bad_moves, o.bad_moves, "bad_moves")?;
        self.exceptions
            .merge(o.exceptions)
            .map_err(|e| e.within("exceptions"))?;
        Ok(())
    }
    fn work(&self) -> u64 {
        self.games
    }
}

/// Games on graphs of one size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamesAtN {
    /// Vertex count.
    pub n: u64,
    /// Games.
    pub games: u64,
}

/// `results.json` of `uvg-strategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyDoc {
    /// `uvg-strategy`.
    pub kind: String,
    /// The parameters.
    pub params: StrategyParams,
    /// [`RANDOM_MODEL`].
    pub random_model: String,
    /// Games played.
    pub games: u64,
    /// Games the strategy won.
    pub strategy_wins: u64,
    /// Moves in all.
    pub moves: u64,
    /// Moves by the strategy.
    pub strategy_moves: u64,
    /// Moves by the random mover.
    pub random_moves: u64,
    /// The longest game (moves).
    pub moves_max: u64,
    /// Strategy moves after which the opponent's position had a non-zero value.
    pub strategy_moves_to_nonzero_value: u64,
    /// Graphs redrawn because no start was winning.
    pub graphs_redrawn_without_winning_start: u64,
    /// Games by vertex count, every size.
    pub games_by_n: Vec<GamesAtN>,
    /// Exceptions in all.
    pub exceptions: u64,
    /// The kept exceptions, smallest first.
    pub exception_records: Vec<Record>,
    /// [`SECTION5_NOTE`].
    pub not_covered: String,
}

impl Kind for StrategySweep {
    type Params = StrategyParams;
    type Shard = RangeShard;
    type Output = StrategyOutput;
    type Doc = StrategyDoc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "uvg-strategy"
    }

    fn about(&self) -> &'static str {
        "matching strategy vs a random mover from winning starts on seeded random graphs of 8-17 vertices"
    }

    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn plan(
        &self,
        params: &StrategyParams,
        target_shards: u32,
    ) -> Result<Vec<(RangeShard, u64)>, SweepError> {
        Ok(plan_ranges(params.games, target_shards, 8, |a, b| b - a))
    }

    fn run(
        &self,
        params: &StrategyParams,
        shard: &RangeShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<StrategyOutput, SweepError> {
        let mut out = StrategyOutput::default();
        for i in shard.instances(Kind::name(self), params.games)? {
            ctx.check()?;
            let g = play(params.seed, i);
            let moves = g.path.len() as u64 - 1;
            let n = g.graph.n();
            out.games += 1;
            out.games_by_n[n - MIN_N] += 1;
            out.redraws += g.redraws;
            out.moves += moves;
            out.strategy_moves += moves.div_ceil(2);
            out.random_moves += moves / 2;
            out.moves_max.offer(moves);
            out.strategy_wins += g.strategy_won as u64;
            out.bad_moves += g.bad_moves;
            if !g.strategy_won || g.bad_moves > 0 {
                out.exceptions.add(Record {
                    vertices: n as u32,
                    edges: g.graph.edge_count() as u32,
                    code: graph6::encode_bitgraph(&g.graph),
                    index: g.start as u64,
                    detail: format!("game #{i}, start {}, path {:?}", g.start, g.path),
                    note: format!(
                        "strategy_won={} moves_to_nonzero={}",
                        g.strategy_won, g.bad_moves
                    ),
                });
            }
            ctx.add_progress(1);
        }
        Ok(out)
    }

    fn validate(
        &self,
        params: &StrategyParams,
        shard: &RangeShard,
        out: &StrategyOutput,
    ) -> Result<(), ValidateError> {
        validate::validate(params, shard, out)
    }

    fn doc(&self, params: &StrategyParams, r: &StrategyOutput) -> StrategyDoc {
        StrategyDoc {
            kind: Kind::name(self).into(),
            params: params.clone(),
            random_model: RANDOM_MODEL.into(),
            games: r.games,
            strategy_wins: r.strategy_wins,
            moves: r.moves,
            strategy_moves: r.strategy_moves,
            random_moves: r.random_moves,
            moves_max: r.moves_max.0,
            strategy_moves_to_nonzero_value: r.bad_moves,
            graphs_redrawn_without_winning_start: r.redraws,
            games_by_n: (MIN_N..=MAX_N)
                .zip(r.games_by_n)
                .map(|(n, games)| GamesAtN { n: n as u64, games })
                .collect(),
            exceptions: r.exceptions.count(),
            exception_records: r.exceptions.records(),
            not_covered: SECTION5_NOTE.into(),
        }
    }

    fn present(&self, doc: &StrategyDoc) -> crate::sweep::Presentation {
        report::present::present(doc)
    }
    fn report(&self, _params: &StrategyParams, doc: &StrategyDoc) -> String {
        report::report_md(doc)
    }
}
#[cfg(test)]
mod tests;
