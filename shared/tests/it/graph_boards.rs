//! A layered game's board (`families::graph_game::board`, what `gamesweep
//! explore` shows): the values of a position and of every move against
//! independent values (Dawson's Kayles, Snort on stars, `solve_code`), the
//! solver's move against the values, and clear errors for a bad line.

use gamesweep::families::graph_game::board::{BoardView, Line, Place, Refused, BOARD_BUDGET};
use gamesweep::families::graph_game::{GameKind, Side};
use gamesweep::gen::{self, WalkOptions};
use gamesweep::graph::{graph6, BitGraph};
use gamesweep::kinds;

fn game(name: &str) -> &'static dyn GameKind {
    *kinds::games().iter().find(|g| g.name() == name).unwrap()
}

fn at(name: &str, code: &str, start: Option<usize>, moves: &[usize]) -> Result<BoardView, Refused> {
    let line = Line {
        start,
        moves: moves.to_vec(),
        first: None,
    };
    game(name).board(code, &line, BOARD_BUDGET)
}

fn path(n: usize) -> String {
    graph6::encode_with(n, |i, j| i.abs_diff(j) == 1)
}

/// Node Kayles on the path P_n is Dawson's Kayles (octal 0.137) on a heap
/// of n: the position's value, and each move's (taking vertex v leaves
/// paths of v − 1 and n − v − 2 vertices, whose values add as nimbers).
#[test]
fn node_kayles_on_paths_shows_dawsons_kayles_for_the_position_and_every_move() {
    let octal = gamesweep::gamegraph::octal::grundy_values(&[1, 3, 7], 12);
    for n in 1..=12 {
        let b = at("node-kayles", &path(n), None, &[]).unwrap();
        assert_eq!(b.start, Some(0), "one start: chosen");
        let p = b.position.unwrap();
        assert_eq!(p.valued.grundy, Some(octal[n]), "P_{n}");
        assert_eq!(p.moves.len(), n);
        for m in &p.moves {
            let Some(Place::Vertex(v)) = m.place else {
                panic!("P_{n}: move {} has no vertex", m.index)
            };
            let left = v.saturating_sub(1);
            let right = n.saturating_sub(v + 2);
            let want = octal[left] ^ octal[right];
            assert_eq!(m.valued.grundy, Some(want), "P_{n}, take {v}");
            assert_eq!(m.wins, want == 0, "P_{n}, take {v}");
        }
        let reply = p.reply.unwrap();
        assert_eq!(p.moves[reply].wins, octal[n] != 0, "P_{n}");
        assert_eq!(p.mover_wins, octal[n] != 0);
        assert_eq!(p.remoteness % 2 == 1, p.mover_wins);
    }
}

/// Snort on the star K1,n is ±n: colouring the centre leaves the other
/// player no move and its mover n leaves; a leaf first is dominated.
#[test]
fn snort_on_stars_is_plus_or_minus_n() {
    for n in 1..=9 {
        let code = graph6::encode_with(n + 1, |i, j| (i == 0) != (j == 0));
        let b = at("snort", &code, None, &[]).unwrap();
        assert!(!b.impartial);
        let p = b.position.unwrap();
        assert_eq!(p.valued.value, format!("±{n}"), "K1,{n}");
        assert_eq!(p.valued.outcome, "N");
        assert_eq!(p.to_move, Some("L"));
        let centre = |side: &str| {
            p.moves
                .iter()
                .find(|m| m.side == Some(side) && m.place == Some(Place::Vertex(0)))
                .unwrap()
        };
        assert_eq!(centre("L").valued.value, n.to_string());
        assert_eq!(centre("R").valued.value, format!("-{n}"));
        assert!(centre("L").wins && centre("R").wins);
        // Left to move wins by the centre at once: Right, to move next,
        // has no move (the sides alternate), so one move ends the game.
        let reply = &p.moves[p.reply.unwrap()];
        assert_eq!(reply.place, Some(Place::Vertex(0)), "K1,{n}");
        assert_eq!(p.remoteness, 1, "K1,{n}");
        // Right first: the same, mirrored.
        let line = Line {
            start: None,
            moves: vec![],
            first: Some(Side::Right),
        };
        let b = game("snort").board(&code, &line, BOARD_BUDGET).unwrap();
        let p = b.position.unwrap();
        assert_eq!(p.to_move, Some("R"));
        assert_eq!(p.moves[0].side, Some("R"));
        let reply = p
            .moves
            .iter()
            .find(|m| m.side == Some("R") && m.index == p.reply.unwrap());
        assert_eq!(reply.unwrap().place, Some(Place::Vertex(0)));
        // After Left takes the centre, Right, to move, cannot move.
        let i = centre("L").index;
        let b = at("snort", &code, None, &[i]).unwrap();
        let q = b.position.unwrap();
        assert_eq!(q.valued.value, n.to_string());
        assert_eq!(q.to_move, Some("R"));
        assert!(!q.mover_wins);
        assert_eq!(q.reply, None, "Right has no move");
    }
}

/// Every graph (digraph) of up to 5 (4) vertices, every game of the
/// registry: the starts' values are `solve_code`'s; every move's value is
/// the board's value after it; the solver's move wins exactly when the
/// side to move wins, and playing it out the predicted winner makes the
/// last move.
#[test]
fn every_games_boards_agree_with_solve_and_the_solver_plays_to_win() {
    let mut boards = 0;
    for g in kinds::games() {
        let mut codes = Vec::new();
        if g.directed() {
            for n in 1..=4usize {
                let arcs: Vec<(usize, usize)> = (0..n)
                    .flat_map(|u| (0..n).map(move |v| (u, v)))
                    .filter(|(u, v)| u != v)
                    .collect();
                for mask in 0u32..1 << arcs.len() {
                    if mask % 7 != 0 {
                        continue;
                    }
                    codes.push(graph6::encode_digraph_with(n, |i, j| {
                        arcs.iter()
                            .position(|&a| a == (i, j))
                            .is_some_and(|k| mask >> k & 1 == 1)
                    }));
                }
            }
        } else {
            for n in 1..=5 {
                let opts = WalkOptions {
                    connected_only: false,
                    min_n: n,
                };
                gen::walk_filtered(&BitGraph::new(0), n, opts, &mut |bg: &BitGraph| {
                    codes.push(graph6::encode_with(bg.n(), |i, j| bg.has_edge(i, j)));
                });
            }
        }
        for code in &codes {
            let solved = g.solve(code).unwrap();
            let none = Line::default();
            let b = g.board(code, &none, BOARD_BUDGET).unwrap();
            if solved.len() > 1 {
                assert_eq!(b.start, None);
                let values: Vec<_> = b.starts.iter().map(|s| s.valued.value.clone()).collect();
                let want: Vec<_> = solved.iter().map(|s| s.value.clone()).collect();
                assert_eq!(values, want, "{} {code}", g.name());
            }
            for (s, want) in solved.iter().enumerate() {
                for first in [Side::Left, Side::Right] {
                    if g.impartial() && first == Side::Right {
                        continue;
                    }
                    let mut line = Line {
                        start: Some(s),
                        moves: vec![],
                        first: Some(first),
                    };
                    let b = g.board(code, &line, BOARD_BUDGET).unwrap();
                    boards += 1;
                    let p = b.position.clone().unwrap();
                    assert_eq!(p.valued.value, want.value, "{} {code} {s}", g.name());
                    assert_eq!(p.remoteness % 2 == 1, p.mover_wins, "{} {code}", g.name());
                    // Each move's value is the value after it.
                    for m in p.moves.iter().filter(|m| m.side == p.to_move) {
                        let mut l = line.clone();
                        l.moves.push(m.index);
                        let after = g.board(code, &l, BOARD_BUDGET).unwrap().position.unwrap();
                        assert_eq!(after.valued, m.valued, "{} {code} {s}", g.name());
                        assert_eq!(after.mover_wins, !m.wins, "{} {code} {s}", g.name());
                        assert_eq!(after.remoteness, m.remoteness);
                    }
                    // Play the solver's moves out: the side predicted to win
                    // moves last, after `remoteness` moves.
                    let winner_moves_first = p.mover_wins;
                    let mut made = 0;
                    loop {
                        let q = g
                            .board(code, &line, BOARD_BUDGET)
                            .unwrap()
                            .position
                            .unwrap();
                        let Some(r) = q.reply else { break };
                        let m = q
                            .moves
                            .iter()
                            .find(|m| m.side == q.to_move && m.index == r)
                            .unwrap();
                        assert_eq!(m.wins, q.mover_wins, "{} {code}", g.name());
                        line.moves.push(r);
                        made += 1;
                    }
                    assert_eq!(made, p.remoteness, "{} {code} {s}", g.name());
                    assert_eq!(made % 2 == 1, winner_moves_first);
                }
            }
        }
    }
    assert!(boards > 400, "{boards}");
}

/// A bad graph, start or move, a graph too big or a position past the
/// budget: a one-line error saying which.
#[test]
fn a_bad_line_is_one_clear_error() {
    let e = |name: &str, code: &str, start: Option<usize>, moves: &[usize]| {
        let e = at(name, code, start, moves).unwrap_err();
        assert!(matches!(e, Refused::Input(_)), "{e:?}");
        let e = e.to_string();
        assert!(!e.contains('\n'), "{e}");
        e
    };
    let p4 = path(4);
    assert!(
        e("node-kayles", "a!", None, &[]).contains("graph6"),
        "{}",
        e("node-kayles", "a!", None, &[])
    );
    assert_eq!(
        e("node-kayles", &p4, None, &[4]),
        "move 1: the player to move has 4 options here, not 4 (0..3)"
    );
    assert_eq!(
        e("node-kayles", &p4, Some(1), &[]),
        "start 1: `node-kayles` has 1 start position on this graph (0..0)"
    );
    assert_eq!(
        e("geography-edge", &p4, None, &[0]),
        "moves without a start: choose a start first"
    );
    // Taking vertex 1 of P4 leaves vertex 3; after it nothing is left.
    assert!(e("node-kayles", &p4, None, &[1, 0, 0])
        .starts_with("move 3: the player to move has 0 options"));
    assert!(e("snort", &p4, None, &[9]).starts_with("move 1: Left (Blue) has 4 options"));
    let big = path(13);
    assert_eq!(
        e("node-kayles", &big, None, &[]),
        "13 vertices: `node-kayles` values graphs of at most 12 vertices"
    );
    // Digraph games take digraph6.
    assert!(
        e("geography-vertex", &p4, None, &[]).contains("digraph6"),
        "{}",
        e("geography-vertex", &p4, None, &[])
    );
    // Past a budget: refused, naming it.
    let k6 = graph6::encode_with(6, |i, j| i != j);
    let line = Line {
        start: Some(0),
        ..Line::default()
    };
    let e = game("geography-edge").board(&k6, &line, 1000).unwrap_err();
    assert!(
        matches!(&e, Refused::Budget(m) if m.contains("more than 1000 positions")),
        "{e:?}"
    );
    assert_eq!(
        at("node-kayles", "?", None, &[]).unwrap_err(),
        Refused::Input("the graph has no vertices".into())
    );
}
