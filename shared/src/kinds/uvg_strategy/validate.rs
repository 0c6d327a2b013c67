//! [`Kind::validate`] of `uvg-strategy`: a shard's result checked without re-running it.

use super::*;

/// Exception games replayed by [`validate`] (each is one game of the shard).
pub(super) const REPLAY_BUDGET: usize = 4;

/// [`Kind::validate`] for `uvg-strategy`: one game per instance of the
/// shard, by size summing to the games; every game has between 1 and
/// `MAX_N − 1` moves, the strategy's (first, third, ...) and the random
/// mover's adding up to them; wins, bad moves and exceptions within their
/// bounds (a lost game or a bad move is an exception); exception records
/// are games of the shard, the first [`REPLAY_BUDGET`] played again.
pub(super) fn validate(
    params: &StrategyParams,
    shard: &RangeShard,
    out: &StrategyOutput,
) -> Result<(), ValidateError> {
    let range = shard
        .instances("uvg-strategy", params.games)
        .map_err(|e| e.to_string())?;
    let games = range.end - range.start;
    if out.games != games {
        return Err(ValidateError::from(format!(
            "games is {}, but the shard has {games}",
            out.games
        )));
    }
    let by_n: u64 = out
        .games_by_n
        .iter()
        .try_fold(0u64, |a, &b| a.checked_add(b))
        .ok_or("games_by_n overflows")?;
    if by_n != games {
        return Err(ValidateError::from(format!(
            "games_by_n sums to {by_n}, not the {games} games"
        )));
    }
    let longest = (MAX_N - 1) as u64;
    if out.strategy_moves.checked_add(out.random_moves) != Some(out.moves) {
        return Err(ValidateError::from(format!(
            "moves is {}, not strategy_moves {} + random_moves {}",
            out.moves, out.strategy_moves, out.random_moves
        )));
    }
    if out.strategy_moves < out.random_moves || out.strategy_moves - out.random_moves > games {
        return Err(ValidateError::from(format!(
            "strategy_moves is {} and random_moves {}: the strategy moves first in each of {games} games",
            out.strategy_moves, out.random_moves
        )));
    }
    if out.moves < games || out.moves > games.saturating_mul(longest) {
        return Err(ValidateError::from(format!(
            "moves is {}, outside {games}..={} (1 to {longest} per game)",
            out.moves,
            games.saturating_mul(longest)
        )));
    }
    let max = out.moves_max.0;
    if games > 0 && (max == 0 || max > longest || max > out.moves) || games == 0 && max != 0 {
        return Err(ValidateError::from(format!(
            "moves_max is {max} for {games} games of {} moves",
            out.moves
        )));
    }
    if out.strategy_wins > games {
        return Err(ValidateError::from(format!(
            "strategy_wins is {}, more than the {games} games",
            out.strategy_wins
        )));
    }
    if out.bad_moves > out.strategy_moves {
        return Err(ValidateError::from(format!(
            "bad_moves is {}, more than the {} strategy moves",
            out.bad_moves, out.strategy_moves
        )));
    }
    let exceptions = &out.exceptions.0;
    let lost = games - out.strategy_wins;
    if exceptions.total < lost.max(u64::from(out.bad_moves > 0)) || exceptions.total > games {
        return Err(ValidateError::from(format!(
            "exceptions is {}, but {lost} game(s) were lost and {} bad move(s) made in {games} games",
            exceptions.total, out.bad_moves
        )));
    }
    if exceptions.cap != crate::families::bft::EXCEPTION_CAP
        || exceptions.kept.len() as u64 != exceptions.total.min(exceptions.cap)
    {
        return Err(ValidateError::from(format!(
            "exceptions keeps {} record(s) of {} (cap {})",
            exceptions.kept.len(),
            exceptions.total,
            exceptions.cap
        )));
    }
    for (k, r) in exceptions.kept.iter().enumerate() {
        let i = r
            .detail
            .strip_prefix("game #")
            .and_then(|d| d.split(',').next())
            .and_then(|d| d.parse::<u64>().ok())
            .filter(|i| range.contains(i))
            .ok_or_else(|| format!("exception record `{}` is not a game of the shard", r.detail))?;
        if k >= REPLAY_BUDGET {
            continue;
        }
        let g = play(params.seed, i);
        let real = Record {
            vertices: g.graph.n() as u32,
            edges: g.graph.edge_count() as u32,
            code: graph6::encode_bitgraph(&g.graph),
            index: g.start as u64,
            detail: format!("game #{i}, start {}, path {:?}", g.start, g.path),
            note: format!(
                "strategy_won={} moves_to_nonzero={}",
                g.strategy_won, g.bad_moves
            ),
        };
        if *r != real || (g.strategy_won && g.bad_moves == 0) {
            return Err(ValidateError::from(format!(
                "exception record of game #{i} is not what the game gives"
            )));
        }
    }
    Ok(())
}
