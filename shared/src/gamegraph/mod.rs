//! Explicit game graphs (the course notes' textbook layer): outcome labelling
//! with draws, Grundy numbers, sums, kernels, minimax, subtraction games.
//!
//! A game graph is a finite digraph: positions are vertices, moves are arcs,
//! and each sink carries a label saying what happens to the player who moves
//! into it ([`SinkLabel`]: win, lose, draw, or a numeric payoff). Normal play
//! means every sink is a `win` sink.
//!
//! * [`parse`] reads the text format and JSON (`docs/gamegraph-format.md`).
//! * [`outcomes`] (retrograde analysis, any graph) and [`outcomes_acyclic`]
//!   (the course's rule in reverse topological order) label positions I / II / *.
//! * [`grundy`] gives Grundy numbers (mex) of normal-play acyclic graphs, or a
//!   typed error naming a cycle.
//! * [`sum_graph`], [`sum_grundy`], [`sum_outcome`]: sums of games and the
//!   Sprague–Grundy check.
//! * [`kernel_acyclic`] and [`find_kernel`]: kernels of digraphs.
//! * [`minimax`]: negamax labels of payoff trees and DAGs.
//! * [`octal`]: octal games' Grundy values and proven periodicity; the
//!   `octal` sweep kind (`crate::kinds::octal`).
//! * [`subtraction`]: subtraction games and their proven periodicity; the
//!   `subtraction` sweep kind (`crate::kinds::subtraction`).
//! * [`solve_text`]: everything above for one file, as a [`SolveReport`]
//!   (`gamesweep solve gamegraph FILE`).
//!
//! ```
//! use gamesweep::gamegraph::{solve_text, Format, Outcome};
//! let report = solve_text("start a\na -> b c\nb -> c\n", Format::Auto).unwrap();
//! let game = &report.games[0];
//! assert_eq!(game.start_outcome, Some(Outcome::First)); // a → c wins
//! assert_eq!(game.kernel.members(), Some(&["c".to_string()][..]));
//! ```

pub mod expect;
mod graph;
pub mod kernel;
pub mod label;
pub mod minimax;
pub mod octal;
pub mod parse;
pub mod solve;
pub mod subtraction;
pub mod sum;

pub use graph::{GameGraph, Outcome, SinkLabel};
pub use kernel::{find_kernel, is_kernel, kernel_acyclic, KernelSearch};
pub use label::{grundy, mex, outcomes, outcomes_acyclic, reverse_topological_order};
pub use minimax::minimax;
pub use parse::{parse, Format, GameFile, ParseErrorKind};
pub use solve::{
    solve, solve_text, solve_text_with, solve_with, GameReport, KernelReport, PairCells, PairTable,
    SolveReport, SumReport,
};
pub use sum::{sum_graph, sum_grundy, sum_outcome};

/// Everything that can go wrong reading or solving a game graph.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameGraphError {
    /// The text format was rejected at `line` (1-based; 0 = the file as a whole).
    #[error("line {line}: {kind}")]
    Parse {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        kind: ParseErrorKind,
    },
    /// Malformed JSON (syntax or schema), as reported by serde_json.
    #[error("JSON: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// serde_json's message (includes the position).
        message: String,
    },
    /// Well-formed JSON describing an invalid game file.
    #[error("JSON at {path}: {kind}")]
    JsonInvalid {
        /// Where, e.g. `games[0].sinks.d`.
        path: String,
        /// What was wrong.
        kind: ParseErrorKind,
    },
    /// A computation that needs an acyclic graph met a cycle.
    #[error("game `{game}` is cyclic ({} -> {}); Grundy numbers, minimax and greedy kernels need an acyclic game graph", cycle.join(" -> "), cycle.first().map_or("", String::as_str))]
    Cyclic {
        /// The game.
        game: String,
        /// One directed cycle, as position names in order.
        cycle: Vec<String>,
    },
    /// Grundy numbers and sums need normal play (every sink a `win` sink).
    #[error("game `{game}` is not normal play: sink `{position}` is labelled `{label}` (Grundy numbers and sums need every sink to be `win`)")]
    NotNormalPlay {
        /// The game.
        game: String,
        /// The first offending sink.
        position: String,
        /// Its label.
        label: String,
    },
    /// A construction would exceed a size limit.
    #[error("{what} would have {size} positions; the limit is {limit}")]
    TooLarge {
        /// What was being built.
        what: String,
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The exact kernel search ran out of its branching budget.
    #[error("kernel search in game `{game}` gave up after {branches} branching decisions")]
    SearchLimit {
        /// The game.
        game: String,
        /// The budget that was exhausted.
        branches: u64,
    },
    /// The kernel search's [`Meter`](crate::meter::Meter) was stopped.
    #[error("kernel search in game `{game}` was stopped after {branches} branching decisions")]
    Stopped {
        /// The game.
        game: String,
        /// Branching decisions made.
        branches: u64,
    },
    /// An invalid subtraction set.
    #[error("bad subtraction set: {0}")]
    BadSubtractionSet(String),
}

#[cfg(test)]
mod tests {
    // Cross-module tests: the course notes' worked examples that are given in
    // text, parser errors, the solve report, and property tests.

    use super::kernel::is_kernel;
    use super::parse::{parse_json, parse_text};
    use super::sum::pair_index;
    use super::*;
    use proptest::prelude::*;

    // ---------------------------------------------------------------- course examples

    /// Course notes (heap pairs): a move discards one heap and splits the other
    /// into two non-empty heaps; the player entering (1,1) wins. The notes prove
    /// that the player to move wins exactly when at least one heap is even.
    #[test]
    fn heap_splitting_game_first_player_wins_iff_an_even_heap() {
        const N: usize = 24;
        let mut g = GameGraph::new("split");
        let name = |a: usize, b: usize| format!("({},{})", a.min(b), a.max(b));
        for a in 1..=N {
            for b in a..=N {
                let from = g.add_position(&name(a, b));
                for keep in [a, b] {
                    for x in 1..keep {
                        let to = g.add_position(&name(x, keep - x));
                        g.add_move(from, to);
                    }
                }
            }
        }
        let out = outcomes(&g);
        let out_topo = outcomes_acyclic(&g).unwrap();
        assert_eq!(out, out_topo);
        for a in 1..=N {
            for b in a..=N {
                let v = g.position(&name(a, b)).unwrap();
                let expect = if a % 2 == 0 || b % 2 == 0 {
                    Outcome::First
                } else {
                    Outcome::Second
                };
                assert_eq!(out[v], expect, "({a},{b})");
            }
        }
        // the notes' strategy: split an even heap into two odd ones
        let v = g.position("(4,7)").unwrap();
        let good: Vec<&str> = label::good_moves(&g, &out, v)
            .into_iter()
            .map(|w| g.name_of(w))
            .collect();
        assert_eq!(good, vec!["(1,3)"]);
    }

    /// Chomp positions inside an n×n board as row lengths (non-increasing); a
    /// bite at (r, c) shortens rows r.. to at most c. The poisoned square is
    /// (0,0): it is never bitten, and the player who leaves only it wins.
    fn chomp(n: usize) -> GameGraph {
        fn diagrams(rows: usize, max: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if cur.len() == rows {
                out.push(cur.clone());
                return;
            }
            for len in 0..=max {
                cur.push(len);
                diagrams(rows, len, cur, out);
                cur.pop();
            }
        }
        let mut all = Vec::new();
        diagrams(n, n, &mut Vec::new(), &mut all);
        let mut g = GameGraph::new(format!("chomp{n}"));
        let key = |d: &[usize]| d.iter().map(usize::to_string).collect::<Vec<_>>().join(".");
        for d in all.iter().filter(|d| d[0] >= 1) {
            let from = g.add_position(&key(d));
            for r in 0..n {
                for c in 0..d[r] {
                    if (r, c) == (0, 0) {
                        continue;
                    }
                    let mut e = d.clone();
                    for len in e.iter_mut().skip(r) {
                        *len = (*len).min(c);
                    }
                    let to = g.add_position(&key(&e));
                    g.add_move(from, to);
                }
            }
        }
        g
    }

    /// Course notes (poisoned chocolate, square board): the first player bites
    /// the square diagonally next to the poison, leaving an L with equal arms,
    /// then mirrors the opponent. So equal-armed Ls are II, unequal ones are I,
    /// and the square is I with that bite a winning move.
    #[test]
    fn square_chomp_l_shape_strategy() {
        for n in 2..=5 {
            let g = chomp(n);
            let out = outcomes_acyclic(&g).unwrap();
            let key = |d: &[usize]| d.iter().map(usize::to_string).collect::<Vec<_>>().join(".");
            let l_shape = |row: usize, col: usize| {
                // first row `row` long, first column `col` high
                let mut d = vec![0; n];
                d[0] = row;
                for x in d.iter_mut().take(col).skip(1) {
                    *x = 1;
                }
                key(&d)
            };
            let square = g.position(&key(&vec![n; n])).unwrap();
            let l = g.position(&l_shape(n, n)).unwrap();
            assert_eq!(out[square], Outcome::First, "n = {n}");
            assert!(g.moves(square).contains(&l));
            assert_eq!(out[l], Outcome::Second);
            for a in 1..=n {
                for b in 1..=n {
                    let v = g.position(&l_shape(a, b)).unwrap();
                    assert_eq!(out[v] == Outcome::Second, a == b, "L({a},{b})");
                }
            }
        }
    }

    /// The notes' Grundy rule for sums: a sum is II exactly at the pairs with
    /// equal Grundy numbers (solution 2), and the product graph agrees.
    #[test]
    fn sum_is_second_player_win_iff_equal_grundy_numbers() {
        let text = "\
game left
v0 -> a b
a -> c
b -> c d
c -> d
end
game right
x -> y z
y -> z
end
sum left right
";
        let file = parse_text(text).unwrap();
        let (l, r) = (&file.games[0], &file.games[1]);
        let gl = grundy(l).unwrap();
        let gr = grundy(r).unwrap();
        // d sink 0, c = mex{0} = 1, a = mex{1} = 0, b = mex{1,0} = 2, v0 = mex{0,2} = 1
        assert_eq!(gl, vec![1, 0, 2, 1, 0]);
        assert_eq!(gr, vec![2, 1, 0]);
        let s = sum_graph(l, r).unwrap();
        let out = outcomes(&s);
        for u in 0..l.len() {
            for v in 0..r.len() {
                assert_eq!(
                    out[pair_index(r.len(), u, v)] == Outcome::Second,
                    gl[u] == gr[v]
                );
                assert_eq!(out[pair_index(r.len(), u, v)], sum_outcome(&[gl[u], gr[v]]));
            }
        }
        let report = solve(&file);
        let sum = report.sum.as_ref().unwrap();
        assert_eq!(sum.xor_mismatches.as_deref(), Some(&[][..]));
        assert_eq!(sum.positions, 15);
        let p: Vec<String> = sum
            .second_player_wins
            .iter()
            .map(|[a, b]| format!("{a}{b}"))
            .collect();
        assert_eq!(p, vec!["v0y", "az", "bx", "cy", "dz"]);
        let text = report.to_string();
        assert!(text.contains("all 15 pairs"), "{text}");
    }

    // ---------------------------------------------------------------- parsing

    fn parse_err(text: &str) -> (usize, ParseErrorKind) {
        match parse_text(text) {
            Err(GameGraphError::Parse { line, kind }) => (line, kind),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn text_format_basics() {
        let f = parse_text(
            "# a game\nstart a\na -> b, c  # two moves\nb -> c\nc = lose\nd ->\ne f = 7\n",
        )
        .unwrap();
        assert_eq!(f.games.len(), 1);
        let g = &f.games[0];
        assert_eq!(g.name(), "G");
        assert_eq!(g.names(), &["a", "b", "c", "d", "e", "f"]);
        assert_eq!(g.moves(0), &[1, 2]);
        assert_eq!(g.sink_label(2), Some(SinkLabel::Lose));
        assert_eq!(g.sink_label(3), Some(SinkLabel::Win));
        assert_eq!(g.sink_label(5), Some(SinkLabel::Payoff(7)));
        assert_eq!(g.start(), Some(0));
        assert!(f.sum.is_none());
    }

    #[test]
    fn text_format_errors_have_line_numbers() {
        use ParseErrorKind::*;
        assert_eq!(
            parse_err("a -> b\nwhat is this\n"),
            (2, UnknownStatement("what is this".into()))
        );
        assert_eq!(
            parse_err("a -> b\nb = maybe\n"),
            (2, UnknownLabel("maybe".into()))
        );
        assert_eq!(
            parse_err("a -> b\nb = -9223372036854775808\n"),
            (2, PayoffOutOfRange("-9223372036854775808".into()))
        );
        assert_eq!(parse_err("a b -> c\n"), (1, BadMoveSource("a b".into())));
        assert_eq!(
            parse_err("a -> b\n\na = lose\n"),
            (3, LabelOnInnerPosition("a".into()))
        );
        assert_eq!(
            parse_err("a -> b\nb = lose\nb = draw\n"),
            (
                3,
                DuplicateLabel {
                    position: "b".into(),
                    first_line: 2
                }
            )
        );
        assert_eq!(
            parse_err("game x\na -> b\ngame y\n"),
            (3, NestedGame("x".into()))
        );
        assert_eq!(parse_err("a -> b\nend\n"), (2, EndWithoutGame));
        assert_eq!(
            parse_err("\ngame x\na -> b\n"),
            (2, UnterminatedGame("x".into()))
        );
        assert_eq!(
            parse_err("game x\na ->\nend\ngame x\n"),
            (4, DuplicateGame("x".into()))
        );
        assert_eq!(
            parse_err("game x\na ->\nend\nsum x y\n"),
            (4, UnknownGame("y".into()))
        );
        assert_eq!(parse_err("game x\na ->\nend\nb -> c\n"), (4, OutsideGame));
        assert_eq!(parse_err("b -> c\ngame x\na ->\nend\n"), (1, OutsideGame));
        assert_eq!(parse_err("a -> b\nsum a b\n"), (2, SumWithoutGames));
        assert_eq!(
            parse_err("start z\na -> b\n"),
            (1, UnknownStart("z".into()))
        );
        assert_eq!(
            parse_err("start a\nstart b\na -> b\n"),
            (
                2,
                DuplicateStart {
                    game: "G".into(),
                    first_line: 1
                }
            )
        );
        assert_eq!(parse_err("game x\nend\n"), (1, EmptyGame("x".into())));
        assert_eq!(parse_err("a -> b->c\n"), (1, BadName("b->c".into())));
        assert_eq!(
            parse_err("game\n"),
            (
                1,
                BadArity {
                    keyword: "game",
                    expected: "one name",
                    got: 0
                }
            )
        );
        assert_eq!(parse_err("= win\n"), (1, MissingLabelTarget));
        assert_eq!(parse_err("# nothing\n"), (0, NoGame));
        // the Display form names the line
        let e = parse_text("a -> b\nb = maybe\n").unwrap_err().to_string();
        assert!(e.starts_with("line 2:"), "{e}");
    }

    #[test]
    fn json_format_and_errors() {
        let j = r#"{"games": [{"name": "g", "moves": [["a","b"],["b","c"]], "sinks": {"c": "draw", "d": -3}, "start": "a"}]}"#;
        let f = parse(j, Format::Auto).unwrap();
        let g = &f.games[0];
        assert_eq!(g.names(), &["a", "b", "c", "d"]);
        assert_eq!(g.sink_label(2), Some(SinkLabel::Draw));
        assert_eq!(g.sink_label(3), Some(SinkLabel::Payoff(-3)));
        // syntax error: line and column from serde_json
        match parse_json("{\"games\": [\n  {\"moves\": [[\"a\" \"b\"]]}]}") {
            Err(GameGraphError::Json { line, column, .. }) => assert_eq!((line, column), (2, 19)),
            other => panic!("{other:?}"),
        }
        // unknown field
        assert!(matches!(
            parse_json(r#"{"games": [], "extra": 1}"#),
            Err(GameGraphError::Json { .. })
        ));
        // semantic errors carry a JSON path
        match parse_json(r#"{"games": [{"moves": [["a","b"]], "sinks": {"a": "win"}}]}"#) {
            Err(GameGraphError::JsonInvalid { path, kind }) => {
                assert_eq!(path, "games[0].sinks.a");
                assert_eq!(kind, ParseErrorKind::LabelOnInnerPosition("a".into()));
            }
            other => panic!("{other:?}"),
        }
        match parse_json(r#"{"games": [{"moves": [["a","b c"]]}]}"#) {
            Err(GameGraphError::JsonInvalid { path, .. }) => assert_eq!(path, "games[0].moves[0]"),
            other => panic!("{other:?}"),
        }
        match parse_json(r#"{"games": [{"moves": [["a","b"]]}], "sum": ["G", "H"]}"#) {
            Err(GameGraphError::JsonInvalid { path, kind }) => {
                assert_eq!(path, "sum[1]");
                assert_eq!(kind, ParseErrorKind::UnknownGame("H".into()));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_json(r#"{"games": []}"#),
            Err(GameGraphError::JsonInvalid { .. })
        ));
        assert!(matches!(
            parse_json(r#"{"games": [{"sinks": {"x": "maybe"}}]}"#),
            Err(GameGraphError::JsonInvalid { .. })
        ));
    }

    // ---------------------------------------------------------------- solve

    #[test]
    fn solve_report_for_a_cyclic_game_without_kernel() {
        let text = "game c3\na -> b\nb -> c\nc -> a\nend\n";
        let r = solve_text(text, Format::Text).unwrap();
        let g = &r.games[0];
        assert!(!g.acyclic);
        assert_eq!(g.counts.draw, 3);
        assert!(matches!(g.kernel, KernelReport::None { .. }));
        assert!(g.grundy_unavailable.as_deref().unwrap().contains("cyclic"));
        let shown = r.to_string();
        assert!(shown.contains("no kernel"), "{shown}");
        assert!(shown.contains("a cycle: "), "{shown}");
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["games"][0]["kernel"]["status"], "none");
        assert_eq!(json["games"][0]["table"][0]["outcome"], "draw");
    }

    #[test]
    fn solve_report_with_payoffs() {
        let text =
            "root -> a b\na -> a1 a2\nb -> b1 b2\na1 = 3\na2 = -2\nb1 = 5\nb2 = 1\nstart root\n";
        let r = solve_text(text, Format::Auto).unwrap();
        let g = &r.games[0];
        assert!(g.minimax_computed);
        let mm: Vec<i64> = g.table.iter().map(|row| row.minimax.unwrap()).collect();
        assert_eq!(mm, vec![3, -3, -5, 3, -2, 5, 1]);
        assert!(!g.normal_play);
        assert!(g.grundy_unavailable.is_some());
        // payoff signs give the outcome classes: a1, b1, b2 are II (entering wins)
        assert_eq!(g.start_outcome, Some(Outcome::Second));
        assert!(r.to_string().contains("minimax"));
    }

    // ---------------------------------------------------------------- property tests

    /// A random digraph on `n` vertices: arc density about 1/4, loops allowed
    /// when `loops`; `acyclic` keeps only arcs from higher to lower vertices.
    fn arb_graph(max_n: usize, acyclic: bool) -> impl Strategy<Value = GameGraph> {
        (1..=max_n).prop_flat_map(move |n| {
            proptest::collection::vec(0u8..4, n * n).prop_map(move |bits| {
                let arcs: Vec<(usize, usize)> = (0..n * n)
                    .filter(|&i| bits[i] == 0)
                    .map(|i| (i / n, i % n))
                    .filter(|&(u, v)| !acyclic || u > v)
                    .collect();
                GameGraph::from_arcs("r", n, &arcs)
            })
        })
    }

    fn with_labels(g: GameGraph, labels: Vec<u8>) -> GameGraph {
        let mut g = g;
        let sinks: Vec<usize> = (0..g.len()).filter(|&v| g.is_sink(v)).collect();
        for v in sinks {
            let l = match labels[v % labels.len()] % 4 {
                0 | 1 => SinkLabel::Win,
                2 => SinkLabel::Lose,
                _ => SinkLabel::Draw,
            };
            g.set_label(v, l);
        }
        g
    }

    /// An independent outcome computation: Jacobi-style rounds of "a position
    /// is won if some move reaches a lost one, lost if every move reaches a won
    /// one" until nothing changes; the rest are draws.
    fn naive_outcomes(g: &GameGraph) -> Vec<Outcome> {
        let n = g.len();
        let mut o: Vec<Option<Outcome>> = (0..n)
            .map(|v| {
                g.sink_label(v)
                    .map(|l| l.outcome())
                    .filter(|&x| x != Outcome::Draw)
            })
            .collect();
        loop {
            let next: Vec<Option<Outcome>> = (0..n)
                .map(|v| {
                    if o[v].is_some() || g.is_sink(v) {
                        return o[v];
                    }
                    let m = g.moves(v);
                    if m.iter().any(|&w| o[w] == Some(Outcome::Second)) {
                        Some(Outcome::First)
                    } else if m.iter().all(|&w| o[w] == Some(Outcome::First)) {
                        Some(Outcome::Second)
                    } else {
                        None
                    }
                })
                .collect();
            if next == o {
                return o.into_iter().map(|x| x.unwrap_or(Outcome::Draw)).collect();
            }
            o = next;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Sprague–Grundy on random DAGs: the product graph's Grundy numbers are
        /// the XOR of the parts', and the sum's outcomes follow from them.
        #[test]
        fn grundy_of_random_dag_sum_is_xor(a in arb_graph(8, true), b in arb_graph(8, true)) {
            let sg = sum_grundy(&a, &b).unwrap();
            prop_assert!(sg.mismatches.is_empty());
            let s = sum_graph(&a, &b).unwrap();
            let out = outcomes(&s);
            for u in 0..a.len() {
                for v in 0..b.len() {
                    prop_assert_eq!(out[pair_index(b.len(), u, v)], sum_outcome(&[sg.left[u], sg.right[v]]));
                }
            }
        }

        /// Labels of random cyclic graphs satisfy the local rules, and equal an
        /// independent fixpoint computation.
        #[test]
        fn cyclic_labels_satisfy_local_rules(
            g in arb_graph(12, false),
            labels in proptest::collection::vec(any::<u8>(), 1..12),
        ) {
            let g = with_labels(g, labels);
            let out = outcomes(&g);
            for v in 0..g.len() {
                let succ: Vec<Outcome> = g.moves(v).iter().map(|&w| out[w]).collect();
                match g.sink_label(v) {
                    Some(l) => prop_assert_eq!(out[v], l.outcome()),
                    None => match out[v] {
                        // a win sees a loss
                        Outcome::First => prop_assert!(succ.contains(&Outcome::Second)),
                        // a loss sees only wins
                        Outcome::Second => prop_assert!(succ.iter().all(|&o| o == Outcome::First)),
                        // a draw sees no loss and at least one draw
                        Outcome::Draw => prop_assert!(
                            !succ.contains(&Outcome::Second) && succ.contains(&Outcome::Draw)
                        ),
                    },
                }
            }
            prop_assert_eq!(out, naive_outcomes(&g));
        }

        /// On DAGs the topological rule and retrograde analysis agree; under
        /// normal play the kernel is the set of II positions, which are the
        /// positions of Grundy number 0.
        #[test]
        fn dag_labellings_agree(
            g in arb_graph(12, true),
            labels in proptest::collection::vec(any::<u8>(), 1..12),
        ) {
            prop_assert_eq!(outcomes_acyclic(&g).unwrap(), outcomes(&g));
            let k = kernel_acyclic(&g).unwrap();
            prop_assert!(is_kernel(&g, &k));
            let gr = grundy(&g).unwrap();
            let out = outcomes(&g);
            for v in 0..g.len() {
                prop_assert_eq!(k[v], out[v] == Outcome::Second);
                prop_assert_eq!(gr[v] == 0, k[v]);
            }
            // with win/lose/draw sinks, minimax = +1 / −1 / 0 ⇔ II / I / draw
            let g = with_labels(g, labels);
            let out = outcomes_acyclic(&g).unwrap();
            let mm = minimax(&g).unwrap();
            for v in 0..g.len() {
                let expect = match out[v] { Outcome::Second => 1, Outcome::First => -1, Outcome::Draw => 0 };
                prop_assert_eq!(mm[v], expect);
            }
        }

        /// The exact kernel search agrees with brute force on random digraphs.
        #[test]
        fn kernel_search_matches_brute_force(g in arb_graph(10, false)) {
            let n = g.len();
            let exists = (0u32..1 << n).any(|m| {
                let s: Vec<bool> = (0..n).map(|v| m >> v & 1 == 1).collect();
                is_kernel(&g, &s)
            });
            match find_kernel(&g, 1 << 20).unwrap() {
                KernelSearch::Found { kernel, .. } => prop_assert!(is_kernel(&g, &kernel)),
                KernelSearch::NoKernel { .. } => prop_assert!(!exists),
            }
        }

        /// Text and JSON round trips.
        #[test]
        fn formats_round_trip(
            a in arb_graph(7, false),
            b in arb_graph(5, true),
            labels in proptest::collection::vec(any::<u8>(), 1..8),
            payoff in -1000i64..1000,
            with_sum in any::<bool>(),
        ) {
            let mut a = with_labels(a, labels);
            a.set_name("alpha");
            if let Some(v) = (0..a.len()).find(|&v| a.is_sink(v)) {
                a.set_label(v, SinkLabel::Payoff(payoff));
            }
            a.set_start(Some(a.len() - 1));
            let mut b = b;
            b.set_name("beta");
            let file = GameFile { games: vec![a, b], sum: with_sum.then_some((0, 1)) };
            prop_assert_eq!(&parse_text(&file.to_text()).unwrap(), &file);
            let json = serde_json::to_string(&file.to_json()).unwrap();
            prop_assert_eq!(&parse(&json, Format::Auto).unwrap(), &file);
        }
    }

    #[test]
    fn sums_of_cyclic_or_non_normal_games_are_reported_not_failed() {
        // a cyclic summand: outcomes of the pairs only
        let text = "game c\na -> b\nb -> a\nb -> s\nend\ngame n\nx -> y\nend\nsum c n\n";
        let r = solve_text(text, Format::Text).unwrap();
        let sum = r.sum.as_ref().unwrap();
        assert!(sum.grundy_table.is_none());
        assert!(sum.unavailable.as_deref().unwrap().contains("cyclic"));
        assert_eq!(sum.outcome_table.len(), 3);
        // (s, y) is the only pair without moves: II; the rest follow by retrograde analysis
        let s = sum_graph(
            &parse_text(text).unwrap().games[0],
            &parse_text(text).unwrap().games[1],
        )
        .unwrap();
        let out = outcomes(&s);
        assert_eq!(sum.outcome_table[2][1], Outcome::Second);
        assert_eq!(out[pair_index(2, 2, 1)], Outcome::Second);
        assert!(r.to_string().contains("outcomes of the pairs"));
        // a summand that is not normal play: no product graph at all
        let text = "game d\na -> b\nb = draw\nend\ngame n\nx -> y\nend\nsum d n\n";
        let r = solve_text(text, Format::Text).unwrap();
        let sum = r.sum.as_ref().unwrap();
        assert!(sum.outcome_table.is_empty());
        assert!(sum
            .unavailable
            .as_deref()
            .unwrap()
            .contains("not normal play"));
        assert!(r.to_string().contains("not fully computed"));
    }
}
