//! What a person looks at: the analysis of one board, shared by `gamesweep
//! solve` and the `explore` web app, so that both show the same numbers.
//!
//! * [`uvg`]: undirected vertex geography on a graph (graph6) from one or
//!   every start: the Grundy value of each start and of every legal move, the
//!   winner and a winning move, a maximum matching, ν(G) and ν(G − s), the
//!   unmatched vertices, and (max degree ≤ 3) the degree-3 algorithm's value
//!   with its number of win/lose tests.
//! * [`play`]: the solver's reply in a UVG game under way (a winning move when
//!   there is one, else the move that keeps the game longest), with the
//!   remoteness of every move.
//! * [`col`]: Col / Myopic Col on a board with a partial colouring: value,
//!   outcome, every option with the value it leads to.
//! * [`colplay`]: the solver's reply in a Col / Myopic Col game under way
//!   (the side to move chosen), with the remoteness of every move.
//! * [`sum`]: sums of positions of any of these games (and of loop-free
//!   game graphs) valued in one CGT arena: the sum's canonical value,
//!   outcome and simplest winning moves.
//! * [`tree`]: a position's options with their values, recursively to a depth.
//! * [`picture`]: Graphviz and SVG drawings of these (layout by
//!   [`crate::draw::layout`]).
//!
//! Nothing here is a sweep kind's dependency (`DISPLAY_ONLY` in
//! `shared/build/versions.rs`): no kind imports it.

pub mod col;
pub mod colplay;
pub mod picture;
pub mod play;
pub mod sum;
pub mod tree;
pub mod uvg;

#[cfg(test)]
mod tests {
    use super::col as bcol;
    use super::picture;
    use super::play::{reply, PlayError};
    use super::uvg::{analyse, position_values};
    use crate::graph::graph6::{self, encode_bitgraph};
    use crate::graph::BitGraph;
    use crate::uvg::position::PositionError;

    /// Every graph (connected or not) on 1..=`max` vertices, graph6.
    fn graphs_upto(max: usize) -> Vec<String> {
        let mut out = Vec::new();
        for n in 1..=max {
            crate::gen::walk_filtered(
                &BitGraph::new(0),
                n,
                crate::gen::WalkOptions {
                    connected_only: false,
                    min_n: n,
                },
                &mut |g| out.push(encode_bitgraph(g)),
            );
        }
        out
    }

    /// Brute force: the largest matching among `edges[i..]` avoiding `used`.
    fn brute_nu(edges: &[(usize, usize)], used: u64) -> usize {
        match edges.split_first() {
            None => 0,
            Some((&(u, v), rest)) => {
                let skip = brute_nu(rest, used);
                if used >> u & 1 == 0 && used >> v & 1 == 0 {
                    skip.max(1 + brute_nu(rest, used | 1 << u | 1 << v))
                } else {
                    skip
                }
            }
        }
    }

    /// Brute force: Grundy value of (token `t`, unvisited `free`), by the definition.
    fn brute_grundy(adj: &[u64], t: usize, free: u64) -> u32 {
        let mut seen = Vec::new();
        for u in 0..adj.len() {
            if adj[t] >> u & 1 == 1 && free >> u & 1 == 1 {
                seen.push(brute_grundy(adj, u, free & !(1 << u)));
            }
        }
        (0..).find(|x| !seen.contains(x)).unwrap()
    }

    /// Brute force: remoteness by the definition.
    fn brute_remoteness(adj: &[u64], t: usize, free: u64) -> u32 {
        let rs: Vec<u32> = (0..adj.len())
            .filter(|&u| adj[t] >> u & 1 == 1 && free >> u & 1 == 1)
            .map(|u| brute_remoteness(adj, u, free & !(1 << u)))
            .collect();
        if rs.is_empty() {
            0
        } else if let Some(e) = rs.iter().filter(|r| r.is_multiple_of(2)).min() {
            e + 1
        } else {
            rs.iter().max().unwrap() + 1
        }
    }

    fn adjacency(n: usize, edges: &[(usize, usize)]) -> Vec<u64> {
        let mut adj = vec![0u64; n];
        for &(a, b) in edges {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        adj
    }

    fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
        let v: Vec<u32> = values.into_iter().collect();
        (0..).find(|x| !v.contains(x)).unwrap()
    }

    #[test]
    fn uvg_analysis_agrees_with_brute_force_on_every_small_graph() {
        let texts = graphs_upto(6);
        assert_eq!(texts.len(), 1 + 2 + 4 + 11 + 34 + 156);
        for t in &texts {
            let a = analyse(t, None, None).unwrap();
            let (n, edges) = graph6::decode(t).unwrap();
            let adj = adjacency(n, &edges);
            let full = if n == 64 { u64::MAX } else { (1 << n) - 1 };
            assert_eq!(a.nu, brute_nu(&edges, 0), "{t}");
            // The matching is a matching of the graph, of size ν, and the
            // unmatched vertices are the others.
            let mut covered = 0u64;
            for &(u, v) in &a.matching {
                assert!(u < v && edges.contains(&(u, v)), "{t}");
                assert_eq!(covered & (1 << u | 1 << v), 0, "{t}");
                covered |= 1 << u | 1 << v;
            }
            assert_eq!(a.matching.len(), a.nu, "{t}");
            let un: Vec<usize> = (0..n).filter(|&v| covered >> v & 1 == 0).collect();
            assert_eq!(a.unmatched, un, "{t}");
            assert_eq!(a.starts.len(), n);
            for s in &a.starts {
                let v = s.start;
                assert_eq!(s.grundy, brute_grundy(&adj, v, full & !(1 << v)), "{t} {v}");
                // ν(G − s) by brute force (edges at s dropped), and the matching theorem.
                let without: Vec<(usize, usize)> = edges
                    .iter()
                    .copied()
                    .filter(|&(a, b)| a != v && b != v)
                    .collect();
                assert_eq!(s.nu_without, brute_nu(&without, 0), "{t} {v}");
                assert_eq!(s.first_player_wins, s.nu_without < a.nu, "{t} {v}");
                assert_eq!(s.first_player_wins, s.grundy != 0, "{t} {v}");
                // Every neighbour is a move, valued by brute force; the value is their mex.
                let nbrs: Vec<usize> = (0..n).filter(|&u| adj[v] >> u & 1 == 1).collect();
                assert_eq!(
                    s.moves.iter().map(|m| m.vertex).collect::<Vec<_>>(),
                    nbrs,
                    "{t} {v}"
                );
                for m in &s.moves {
                    let free = full & !(1 << v) & !(1 << m.vertex);
                    assert_eq!(m.grundy, brute_grundy(&adj, m.vertex, free), "{t} {v}");
                }
                assert_eq!(s.grundy, mex(s.moves.iter().map(|m| m.grundy)), "{t} {v}");
                match s.winning_move {
                    Some(w) => assert!(s.moves.iter().any(|m| m.vertex == w && m.grundy == 0)),
                    None => assert!(!s.first_player_wins),
                }
                // Max degree ≤ 3: the degree-3 algorithm gives the exact value.
                if a.max_degree <= 3 {
                    let d = s.degree3.expect("degree ≤ 3");
                    assert_eq!(d.grundy, s.grundy, "{t} {v}");
                    assert!(d.tests as usize <= 4 * n, "{t} {v}");
                } else if adj[v].count_ones() > 3 {
                    assert_eq!(s.degree3, None, "{t} {v}");
                }
            }
        }
    }

    #[test]
    fn uvg_analysis_of_large_graphs_uses_the_budgeted_search() {
        // The cycle on 18 vertices (general solver): every start has value *,
        // its moves 0 (the rest is a path of 17 from an end: value 0). Brute
        // force agrees on the moves.
        let c18 = graph6::encode_with(18, |i, j| j == i + 1 || (i == 0 && j == 17));
        let a = analyse(&c18, Some(3), None).unwrap();
        assert_eq!(a.starts.len(), 1);
        let s = &a.starts[0];
        let (n, edges) = graph6::decode(&c18).unwrap();
        let adj = adjacency(n, &edges);
        let full = (1u64 << n) - 1;
        assert_eq!(s.grundy, brute_grundy(&adj, 3, full & !(1 << 3)));
        for m in &s.moves {
            assert_eq!(
                m.grundy,
                brute_grundy(&adj, m.vertex, full & !(1 << 3) & !(1 << m.vertex))
            );
        }
        assert_eq!(a.nu, 9);
        assert!(a.unmatched.is_empty());
        assert_eq!(s.degree3.map(|d| d.grundy), Some(s.grundy));
        assert!(s.nodes.is_some());
        // K20: the budget runs out, as for `solve uvg`.
        let k20 = graph6::encode_with(20, |_, _| true);
        assert!(matches!(
            analyse(&k20, Some(0), Some(1000)),
            Err(PositionError::BudgetExceeded { budget: 1000, .. })
        ));
        // The path on 18 vertices (its moves leave 17, past the exact dense
        // path's 16): enough budget for the starts alone is not enough for
        // their moves too.
        let p18 = graph6::encode_with(18, |i, j| j == i + 1);
        let full = analyse(&p18, None, None).unwrap();
        let starts: u64 = full.starts.iter().map(|s| s.nodes.unwrap()).sum();
        assert!(matches!(
            analyse(&p18, None, Some(starts)),
            Err(PositionError::BudgetExceeded { .. })
        ));
    }

    #[test]
    fn uvg_analysis_errors() {
        assert!(matches!(
            analyse("xx", None, None),
            Err(PositionError::Graph6 { .. })
        ));
        assert!(matches!(
            analyse("Bg", Some(3), None),
            Err(PositionError::StartOutOfRange { start: 3, last: 2 })
        ));
        assert_eq!(analyse("?", None, None), Err(PositionError::NoVertices));
    }

    #[test]
    fn position_values_mid_game_match_brute_force() {
        for t in graphs_upto(5) {
            let (n, edges) = graph6::decode(&t).unwrap();
            let adj = adjacency(n, &edges);
            // Every (token, visited set) pair.
            for token in 0..n {
                for visited in 0u64..1 << n {
                    if visited >> token & 1 == 1 {
                        continue;
                    }
                    let list: Vec<usize> = (0..n).filter(|&v| visited >> v & 1 == 1).collect();
                    let p = position_values(&t, &list, token, None).unwrap();
                    let free = ((1u64 << n) - 1) & !visited & !(1 << token);
                    assert_eq!(p.grundy, brute_grundy(&adj, token, free), "{t}");
                    assert_eq!(p.grundy, mex(p.moves.iter().map(|m| m.grundy)), "{t}");
                    for m in &p.moves {
                        assert_eq!(free >> m.vertex & 1, 1);
                        assert_eq!(
                            m.grundy,
                            brute_grundy(&adj, m.vertex, free & !(1 << m.vertex))
                        );
                    }
                    let r = reply(&t, &list, token, None).unwrap();
                    let want = brute_remoteness(&adj, token, free);
                    assert_eq!(r.remoteness, want, "{t} {token} {list:?}");
                    assert_eq!(r.mover_wins, p.grundy != 0, "{t} {token} {list:?}");
                    assert_eq!(r.moves.len(), p.moves.len());
                    for m in &r.moves {
                        let rm = brute_remoteness(&adj, m.vertex, free & !(1 << m.vertex));
                        assert_eq!(m.remoteness, rm);
                        assert_eq!(m.wins, rm.is_multiple_of(2));
                    }
                    match r.reply {
                        None => assert!(r.moves.is_empty()),
                        Some(u) => {
                            let m = r.moves.iter().find(|m| m.vertex == u).unwrap();
                            assert_eq!(m.remoteness + 1, r.remoteness);
                            assert_eq!(m.wins, r.mover_wins);
                            // Ties go to the lowest vertex.
                            for o in &r.moves {
                                if o.wins == m.wins && o.remoteness == m.remoteness {
                                    assert!(o.vertex >= u);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn play_prefers_the_longest_game_when_losing() {
        // A star with one long arm: 0 is the centre, leaves 1, 2, and the arm
        // 0 - 3 - 4 - 5. Token on 0, nothing visited: the path matching
        // 0-3, 4-5 and ... the mover loses only if 0 is missable. Check against
        // brute force, whatever the answer.
        let edges = [(0, 1), (0, 2), (0, 3), (3, 4), (4, 5)];
        let t = graph6::encode_with(6, |i, j| edges.contains(&(i, j)));
        let r = reply(&t, &[], 0, None).unwrap();
        let adj = adjacency(6, &edges);
        assert_eq!(r.remoteness, brute_remoteness(&adj, 0, 0b111110));
        // Token on 1 after 0 was visited? No move: remoteness 0, no reply.
        let end = reply(&t, &[0], 1, None).unwrap();
        assert_eq!(
            (end.reply, end.remoteness, end.mover_wins),
            (None, 0, false)
        );
    }

    #[test]
    fn play_errors() {
        assert!(matches!(
            reply("xx", &[], 0, None),
            Err(PlayError::Graph6 { .. })
        ));
        assert_eq!(
            reply("Bg", &[], 5, None),
            Err(PlayError::NoVertex { v: 5, last: 2 })
        );
        assert_eq!(
            reply("Bg", &[7], 0, None),
            Err(PlayError::NoVertex { v: 7, last: 2 })
        );
        let k65 = graph6::encode_with(65, |_, _| true);
        assert_eq!(reply(&k65, &[], 0, None), Err(PlayError::TooBig { n: 65 }));
        // At most 16 vertices the reply is exact whatever the budget; past
        // that the budget applies.
        let k14 = graph6::encode_with(14, |_, _| true);
        assert!(reply(&k14, &[], 0, Some(100)).unwrap().mover_wins);
        let k18 = graph6::encode_with(18, |_, _| true);
        assert_eq!(
            reply(&k18, &[], 0, Some(100)),
            Err(PlayError::BudgetExceeded { budget: 100 })
        );
        assert_eq!(
            PlayError::BudgetExceeded { budget: 100 }.to_string(),
            "search budget of 100 positions exceeded"
        );
    }

    #[test]
    fn col_analysis_is_solve_col_plus_the_board() {
        use crate::col::{solve_position, Rules};
        let p4 = graph6::encode_with(4, |i, j| j == i + 1);
        let a = bcol::analyse(Rules::Col, &p4, "B..B", None).unwrap();
        assert_eq!(a.report, solve_position(Rules::Col, &p4, "B..B").unwrap());
        assert_eq!(a.report.value, "-1");
        assert_eq!(a.colours, "L..L");
        assert_eq!(a.edges, vec![(0, 1), (1, 2), (2, 3)]);
        assert!(!a.directed);
        let opts: Vec<(char, usize)> = a.options.iter().map(|o| (o.player, o.vertex)).collect();
        let want: Vec<(char, usize)> = a
            .report
            .left_options
            .iter()
            .map(|m| ('L', m.vertex))
            .chain(a.report.right_options.iter().map(|m| ('R', m.vertex)))
            .collect();
        assert_eq!(opts, want);
        let d3 = graph6::encode_digraph_with(3, |i, j| i == 0 && j > 0);
        let m = bcol::analyse(Rules::Myopic, &d3, "", None).unwrap();
        assert!(m.directed);
        assert_eq!(m.colours, "...");
        assert_eq!(m.edges, vec![(0, 1), (0, 2)]);
        assert!(bcol::analyse(Rules::Col, "Bg", "LL.", None).is_err());
        assert!(bcol::analyse(Rules::Col, "Bg", "..", None).is_err());
        assert!(bcol::analyse(Rules::Col, "xx", "", None).is_err());
    }

    #[test]
    fn pictures_show_matching_start_and_colours() {
        // The path on 5 vertices: a matching of 2 edges, one vertex unmatched.
        let p5 = graph6::encode_with(5, |i, j| j == i + 1);
        let a = analyse(&p5, None, None).unwrap();
        let svg = picture::uvg_svg(&a, Some(2), 200).unwrap();
        assert_eq!(svg.matches("class=\"matching\"").count(), 2);
        assert_eq!(svg.matches("unmatched\"").count(), 1);
        assert_eq!(svg.matches("class=\"start").count(), 1);
        assert_eq!(svg.matches("<circle").count(), 5);
        assert_eq!(svg.matches("<line").count(), 4);
        assert_eq!(picture::uvg_svg(&a, Some(2), 200).unwrap(), svg);
        assert!(picture::uvg_svg(&a, Some(5), 200).is_err());
        let dot = picture::uvg_dot(&a, Some(2));
        assert!(dot.starts_with("graph uvg {\n"));
        assert_eq!(dot.matches(" -- ").count(), 4);
        assert_eq!(dot.matches("#d4a017").count(), 2);
        let p4 = graph6::encode_with(4, |i, j| j == i + 1);
        let c = bcol::analyse(crate::col::Rules::Col, &p4, "B..R", None).unwrap();
        let svg = picture::col_svg(&c, 200).unwrap();
        assert_eq!(svg.matches("class=\"blue\"").count(), 1);
        assert_eq!(svg.matches("class=\"red\"").count(), 1);
        let d3 = graph6::encode_digraph_with(3, |i, j| i == 0 && j > 0);
        let m = bcol::analyse(crate::col::Rules::Myopic, &d3, ".L.", None).unwrap();
        assert!(picture::col_svg(&m, 200).unwrap().contains("marker-end"));
        let dot = picture::col_dot(&m);
        assert!(dot.starts_with("digraph col {\n"));
        assert_eq!(dot.matches(" -> ").count(), 2);
    }
}
