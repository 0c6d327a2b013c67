use super::canon::{canonical_code, compact, labelled_code};
use super::*;
use crate::graph::graph6;

fn all_options() -> Vec<SolverOptions> {
    let mut v = Vec::new();
    for components in [true, false] {
        for drop_arcs in [true, false] {
            for memo in [
                MemoMode::None,
                MemoMode::Labelled,
                MemoMode::Canonical,
                MemoMode::TreeCanonical,
            ] {
                v.push(SolverOptions {
                    components,
                    drop_arcs,
                    memo,
                });
            }
        }
    }
    v
}

/// Every labelled digraph on `n` vertices (each pair: none, →, ←, both).
fn all_digraphs(n: usize) -> Vec<Board> {
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).collect();
    let mut out = Vec::new();
    for code in 0..4u32.pow(pairs.len() as u32) {
        let mut arcs = Vec::new();
        let mut c = code;
        for &(i, j) in &pairs {
            match c % 4 {
                1 => arcs.push((i, j)),
                2 => arcs.push((j, i)),
                3 => {
                    arcs.push((i, j));
                    arcs.push((j, i))
                }
                _ => {}
            }
            c /= 4;
        }
        out.push(Board::myopic(n, &arcs));
    }
    out
}

fn colourings(n: usize) -> impl Iterator<Item = (u32, u32)> {
    (0..3u32.pow(n as u32)).map(move |mut c| {
        let (mut blue, mut red) = (0, 0);
        for v in 0..n {
            match c % 3 {
                1 => blue |= 1 << v,
                2 => red |= 1 << v,
                _ => {}
            }
            c /= 3;
        }
        (blue, red)
    })
}

#[test]
fn same_single_colour_neighbours_keep_their_arc() {
    // Col path 0-1-2-3 with both ends blue: 1 and 2 are red-only and adjacent: −1, not −2.
    let g = graph6::encode_bitgraph(&crate::graph::BitGraph::from_edges(
        4,
        &[(0, 1), (1, 2), (2, 3)],
    ));
    let rep = solve_position(Rules::Col, &g, "B..B").unwrap();
    assert_eq!(rep.value, "-1");
    assert_eq!(rep.outcome, crate::cgt::Outcome::R);
    assert_eq!(rep.right_options.len(), 2);
    assert!(rep.left_options.is_empty());
    // Empty Col boards are 0 or * (symmetric); K2, P3 and K3 are 0, K1 is *; checked by play too.
    let k2 = solve_position(Rules::Col, "A_", "..").unwrap();
    assert_eq!(k2.value, "0");
    let p3 = solve_position(Rules::Col, "Bg", "...").unwrap();
    assert_eq!(p3.value, "0");
    let p3b = Board::col(3, &[(0, 1), (1, 2)]);
    assert_eq!(naive::outcome(&p3b, 0, 0), crate::cgt::Outcome::P);
    let k3 = solve_position(Rules::Col, "Bw", "...").unwrap();
    assert_eq!(k3.value, "0");
    let k3b = Board::col(3, &[(0, 1), (1, 2), (0, 2)]);
    assert_eq!(naive::outcome(&k3b, 0, 0), crate::cgt::Outcome::P);
    let k3 = solve_position(Rules::Col, "@", ".").unwrap();
    let json = serde_json::to_value(&k3).unwrap();
    assert_eq!(json["value"], "*");
    assert_eq!(json["outcome"], "N");
    assert!(k3.to_string().contains("value:   *"));
}

#[test]
fn smallest_watched_example() {
    // 0→1, 0→2, 1→0 all uncoloured: value 0 (the unwatched-source formula would say *).
    let d = graph6::encode_digraph_with(3, |i, j| matches!((i, j), (0, 1) | (0, 2) | (1, 0)));
    let rep = solve_position(Rules::Myopic, &d, "...").unwrap();
    assert_eq!(rep.value, "0");
}

#[test]
fn bad_input_is_a_typed_error() {
    assert!(matches!(
        solve_position(Rules::Col, "Bg", ".."),
        Err(ColError::ColouringLength {
            expected: 3,
            got: 2
        })
    ));
    assert!(matches!(
        solve_position(Rules::Col, "Bg", ".x."),
        Err(ColError::BadColourChar { pos: 1, ch: 'x' })
    ));
    assert!(matches!(
        solve_position(Rules::Col, "Bg", "LL."),
        Err(ColError::SameColourEdge { u: 0, v: 1 })
    ));
    assert!(matches!(
        solve_position(Rules::Col, "B", "..."),
        Err(ColError::Graph(_))
    ));
    assert!(matches!(
        solve_position(Rules::Myopic, "Bg", "..."),
        Err(ColError::Graph(_))
    ));
    // Myopic allows same colours on an arc.
    let d = graph6::encode_digraph_with(2, |i, j| i == 0 && j == 1);
    assert!(solve_position(Rules::Myopic, &d, "LL").is_ok());
}

#[test]
fn engine_matches_naive_on_small_digraphs_with_every_reduction_setting() {
    let mut solvers: Vec<Solver> = all_options().into_iter().map(Solver::new).collect();
    let mut positions = 0;
    for n in 1..=3 {
        for b in all_digraphs(n) {
            for (blue, red) in colourings(n) {
                let p = b.position_masks(blue, red);
                let expect = naive::outcome(&b, blue, red);
                let mut shown = None;
                for s in solvers.iter_mut() {
                    let g = s.value(&b, p);
                    assert_eq!(s.arena.outcome(g), expect);
                    let d = s.arena.display(g);
                    assert!(shown.get_or_insert(d.clone()) == &d);
                }
                positions += 1;
            }
        }
    }
    assert_eq!(positions, 3 + 4 * 9 + 64 * 27);
}

#[test]
fn col_engine_matches_naive_on_all_graphs_up_to_5() {
    let mut s = Solver::new(SolverOptions::default());
    let mut full = Solver::new(SolverOptions {
        memo: MemoMode::Canonical,
        ..SolverOptions::default()
    });
    for n in 1..=5usize {
        let pairs: Vec<(usize, usize)> = (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).collect();
        for mask in 0..1u32 << pairs.len() {
            let edges: Vec<_> = (0..pairs.len())
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| pairs[i])
                .collect();
            let b = Board::col(n, &edges);
            for (blue, red) in colourings(n) {
                if edges.iter().any(|&(u, v)| {
                    (blue >> u & blue >> v & 1) == 1 || (red >> u & red >> v & 1) == 1
                }) {
                    continue;
                }
                let g = s.value(&b, b.position_masks(blue, red));
                assert_eq!(s.arena.outcome(g), naive::outcome(&b, blue, red));
                assert!(s.arena.is_cold(g), "Col is cold");
                let h = full.value(&b, b.position_masks(blue, red));
                assert_eq!(s.arena.display(g), full.arena.display(h));
            }
        }
    }
}

#[test]
fn list_lemma_small() {
    // head 0 → 1 → … → n-1 (→ n coloured)
    let mut s = Solver::new(SolverOptions::default());
    for n in 1..=30usize {
        for tail in [None, Some(Colour::Blue), Some(Colour::Red)] {
            let m = n + usize::from(tail.is_some());
            let arcs: Vec<_> = (0..m - 1).map(|i| (i, i + 1)).collect();
            let b = Board::myopic(m, &arcs);
            let mut cols = vec![Colour::None; n];
            if let Some(c) = tail {
                cols.push(c);
            }
            let g = s.value(&b, b.position(&cols));
            let stars = if tail.is_some() { n - 1 } else { n };
            let x: i64 = match tail {
                None => 0,
                Some(Colour::Blue) => -1,
                _ => 1,
            };
            let e = &mut s.arena;
            let want = e.num_nim(crate::cgt::Dyadic::int(x), (stars % 2) as u32);
            assert_eq!(g, want, "list n={n} tail={tail:?}");
        }
    }
}

#[test]
fn canonical_codes_are_relabelling_invariant() {
    // Deterministic pseudo-random labelled digraphs, relabelled by rotations and reversal.
    let mut seed = 0x1234_5678u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..300 {
        let k = 2 + (next() % 8) as usize;
        let mut arcs = Vec::new();
        for u in 0..k {
            for w in 0..k {
                if u != w && next() % 3 == 0 {
                    arcs.push((u, w));
                }
            }
        }
        let labels: Vec<u8> = (0..k).map(|_| 1 + (next() % 3) as u8).collect();
        let code_of = |perm: &[usize]| {
            let a: Vec<_> = arcs.iter().map(|&(u, w)| (perm[u], perm[w])).collect();
            let b = Board::myopic(k, &a);
            let (mut l, mut r) = (0u32, 0u32);
            for v in 0..k {
                if labels[v] & 1 == 1 {
                    l |= 1 << perm[v];
                }
                if labels[v] & 2 == 2 {
                    r |= 1 << perm[v];
                }
            }
            let all = (1u32 << k) - 1;
            let c = compact(&b, Pos { l, r }, all, false);
            (canonical_code(&c), labelled_code(&c))
        };
        let id: Vec<usize> = (0..k).collect();
        let (base, _) = code_of(&id);
        for shift in 1..k {
            let perm: Vec<usize> = (0..k).map(|v| (v + shift) % k).collect();
            assert_eq!(code_of(&perm).0, base);
            let rev: Vec<usize> = (0..k).map(|v| (k - 1 - v + shift) % k).collect();
            assert_eq!(code_of(&rev).0, base);
        }
    }
}

#[test]
fn a_budget_gives_the_same_answer_or_stops() {
    // Small known positions: a budget that suffices changes nothing.
    let g = graph6::encode_with(4, |i, j| j == i + 1);
    let free = solve_position(Rules::Col, &g, "B..B").unwrap();
    assert_eq!(free.value, "-1");
    assert_eq!(
        solve_position_within(Rules::Col, &g, "B..B", Some(1000)).unwrap(),
        free
    );
    let d = graph6::encode_digraph_with(3, |i, j| i == 0 && j > 0);
    let free = solve_position(Rules::Myopic, &d, ".L.").unwrap();
    assert_eq!(free.value, "-1/2");
    assert_eq!(
        solve_position_within(Rules::Myopic, &d, ".L.", Some(1000)).unwrap(),
        free
    );
    // 30-vertex circulant boards stop at the budget instead of growing
    // without end (the budget counts positions, so it bounds the work; how
    // fast is the benchmarks' business, not a test's).
    let c30 = graph6::encode_with(30, |i, j| [1, 5, 11, 19, 25, 29].contains(&(j - i)));
    assert_eq!(
        solve_position_within(Rules::Col, &c30, &".".repeat(30), Some(100_000)),
        Err(ColError::BudgetExceeded { budget: 100_000 })
    );
    let d30 = graph6::encode_digraph_with(30, |i, j| j == (i + 1) % 30 || j == (i + 7) % 30);
    assert_eq!(
        solve_position_within(Rules::Myopic, &d30, &".".repeat(30), Some(100_000)),
        Err(ColError::BudgetExceeded { budget: 100_000 })
    );
    assert_eq!(
        ColError::BudgetExceeded { budget: 5 }.to_string(),
        "search budget of 5 positions exceeded"
    );
}
