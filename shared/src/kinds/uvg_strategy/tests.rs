use super::validate::*;
use super::*;
use crate::sweep::{run_typed, SweepKind};

#[test]
fn real_shard_results_validate_and_forged_ones_are_refused() {
    // The committed run's parameters (runs/uvg-strategy) in its default
    // plan, and another seed and plan.
    let mut last = None;
    for (p, shards) in [(params(1000, 1), 0), (params(60, 5), 4)] {
        for (shard, _) in &Kind::plan(&StrategySweep, &p, shards).unwrap() {
            let out = Kind::run(&StrategySweep, &p, shard, &ShardCtx::detached()).unwrap();
            assert_eq!(validate(&p, shard, &out), Ok(()), "{shard:?}");
            last = Some((*shard, out));
        }
    }
    let p = params(60, 5);
    let (shard, out) = last.unwrap();
    let refused = |f: &dyn Fn(&mut StrategyOutput), field: &str| {
        let mut o = out.clone();
        f(&mut o);
        let e = validate(&p, &shard, &o).unwrap_err();
        assert!(e.to_string().contains(field), "{field}: {e}");
    };
    refused(&|o| o.games += 1, "games is");
    refused(&|o| o.games_by_n[0] += 1, "games_by_n");
    refused(&|o| o.moves += 1, "moves is");
    refused(
        &|o| {
            o.strategy_moves += 100;
            o.moves += 100;
        },
        "strategy_moves",
    );
    refused(&|o| o.moves_max = Max(MAX_N as u64), "moves_max");
    refused(&|o| o.strategy_wins -= 1, "exceptions");
    refused(&|o| o.bad_moves = o.strategy_moves + 1, "bad_moves");
    refused(
        &|o| {
            o.strategy_wins -= 1;
            o.exceptions.add(Record {
                vertices: 9,
                edges: 8,
                code: "H??????".into(),
                index: 0,
                detail: format!("game #{}, start 0, path [0]", shard.start),
                note: String::new(),
            });
        },
        "is not what the game gives",
    );
}

fn params(games: u64, seed: u64) -> StrategyParams {
    StrategyParams { games, seed }
}

#[test]
fn strategy_wins_every_game_and_plan_does_not_matter() {
    let p = params(120, 3);
    let run = |shards| run_typed(&StrategySweep, &p, shards).unwrap();
    let a = run(1);
    assert_eq!(a.games, 120);
    assert_eq!(a.strategy_wins, 120);
    assert_eq!(a.exceptions.count(), 0);
    assert_eq!(a.bad_moves, 0);
    assert_eq!(a.games_by_n.iter().sum::<u64>(), 120);
    assert_eq!(a, run(7));
}

#[test]
fn bad_shards_and_params_are_errors() {
    let p = crate::sweep::Params::from([("games".to_string(), 10), ("seed".to_string(), 1)]);
    for payload in [
        "",
        "range 0 5",
        r#"{"start":5,"end":4}"#,
        r#"{"start":0,"end":11}"#,
        r#"{"start":0}"#,
    ] {
        let shard = crate::sweep::ShardSpec {
            index: 0,
            payload: payload.into(),
            estimate: 0,
        };
        assert!(
            matches!(
                SweepKind::run_shard(&StrategySweep, &p, &shard, &ShardCtx::detached()),
                Err(SweepError::BadShard { .. })
            ),
            "{payload:?}"
        );
    }
    let bad = crate::sweep::Params::from([("games".to_string(), 10), ("seeds".to_string(), 1)]);
    assert!(StrategySweep.resolve_params(&bad).is_err());
    assert!(matches!(
        SweepKind::plan(&StrategySweep, &bad, 0),
        Err(SweepError::BadParams { .. })
    ));
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

/// Shard results survive the store and the wire (encode, decode) as is.
#[test]
fn outputs_decode_to_themselves() {
    let kind: &dyn SweepKind = &StrategySweep;
    let given: Vec<(&str, u64)> = vec![("games", 3)];
    let given = given.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    let params = kind.resolve_params(&given).unwrap();
    for shard in kind.plan(&params, 2).unwrap() {
        let out = kind
            .run_shard(&params, &shard, &ShardCtx::detached())
            .unwrap();
        assert!(out.work() > 0);
        assert_eq!(kind.decode(&out.encode()).unwrap(), out);
    }
    assert!(kind.decode(b"{}").is_err());
}
