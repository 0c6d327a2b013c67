//! Cross-checks of every UVG solver against independent naive definitions.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::general::*;
use super::*;
use crate::graph::general::{GeneralGraph, VertexSet};

/// Grundy value straight from the definition: no memo, no components.
fn naive_grundy(g: &BitGraph, v: usize, alive: VSet) -> u8 {
    let rest = alive & !(1 << v);
    let mut seen = 0u64;
    for u in members(g.nbrs(v) & rest) {
        seen |= 1 << naive_grundy(g, u, rest);
    }
    seen.trailing_ones() as u8
}

/// Matching number by exhaustive recursion.
fn naive_nu(g: &BitGraph, s: VSet) -> u32 {
    if s == 0 {
        return 0;
    }
    let v = s.trailing_zeros() as usize;
    let rest = s & !(1 << v);
    let mut best = naive_nu(g, rest);
    for u in members(g.nbrs(v) & rest) {
        best = best.max(1 + naive_nu(g, rest & !(1 << u)));
    }
    best
}

/// Every labelled graph on `n` vertices (all 2^(n choose 2) edge subsets).
fn all_labelled(n: usize) -> impl Iterator<Item = BitGraph> {
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).collect();
    (0u64..1 << pairs.len()).map(move |mask| {
        let mut g = BitGraph::new(n);
        for (k, &(i, j)) in pairs.iter().enumerate() {
            if mask >> k & 1 == 1 {
                g.add_edge(i, j);
            }
        }
        g
    })
}

fn random_graph(rng: &mut ChaCha8Rng, n: usize, p: f64) -> BitGraph {
    let mut g = BitGraph::new(n);
    for j in 1..n {
        for i in 0..j {
            if rng.random::<f64>() < p {
                g.add_edge(i, j);
            }
        }
    }
    g
}

/// Random graph with max degree ≤ 3: random edges, kept only while both ends have room.
fn random_deg3(rng: &mut ChaCha8Rng, n: usize, tries: usize) -> BitGraph {
    let mut g = BitGraph::new(n);
    for _ in 0..tries {
        let a = rng.random_range(0..n);
        let b = rng.random_range(0..n);
        if a != b && g.degree(a) < 3 && g.degree(b) < 3 {
            g.add_edge(a, b);
        }
    }
    g
}

#[test]
fn grundy_all_matches_naive_on_all_labelled_graphs_up_to_6() {
    for n in 1..=6 {
        for g in all_labelled(n) {
            let all = grundy_all(&g);
            for v in 0..n {
                assert_eq!(all[v], naive_grundy(&g, v, g.all()), "{g:?} from {v}");
            }
        }
    }
}

#[test]
fn grundy_of_positions_matches_naive() {
    // Every position (v, alive) of every labelled graph on 5 vertices, and
    // random positions of random graphs up to 11 vertices (naive is exponential).
    for g in all_labelled(5) {
        for alive in 1..32u32 {
            for v in members(alive) {
                assert_eq!(grundy(&g, v, alive), naive_grundy(&g, v, alive));
            }
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..300 {
        let n = rng.random_range(6..=11);
        let p = rng.random_range(0.2..0.6);
        let g = random_graph(&mut rng, n, p);
        let alive = rng.random::<u32>() & g.all();
        let v = rng.random_range(0..n);
        assert_eq!(
            grundy(&g, v, alive | 1 << v),
            naive_grundy(&g, v, alive | 1 << v)
        );
    }
}

#[test]
fn large_n_search_matches_subset_dp() {
    // grundy_all switches from the subset DP to the memoised search above
    // SUBSET_DP_MAX_N; both must agree on the same graphs.
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..40 {
        let n = rng.random_range(8..=14);
        let p = rng.random_range(0.15..0.5);
        let g = random_graph(&mut rng, n, p);
        let dp = grundy_all(&g);
        let mut memo = Memo::default();
        for v in 0..n {
            let comp = g.component(v, g.all());
            assert_eq!(dp[v], memo_grundy(&g, v, comp, &mut memo));
        }
    }
    // And a graph above the switch: the tree t(4) plus a pendant path, 20 vertices.
    let t4 = tree_t(4).to_bitgraph().unwrap();
    let mut g = t4;
    let mut last = 15;
    for _ in 0..4 {
        last = g.push_vertex(1 << last);
    }
    assert!(g.n() > SUBSET_DP_MAX_N);
    let vals = grundy_all(&g);
    for v in 0..g.n() {
        assert_eq!(vals[v], grundy(&g, v, g.all()));
    }
    assert_eq!(vals[0], 4);
}

#[test]
fn max_matching_matches_brute_force() {
    for n in 1..=6 {
        for g in all_labelled(n) {
            for alive in [g.all(), g.all() & 0b101101, g.all() & 0b11110] {
                let nu = matching::max_matching(&g, alive);
                assert_eq!(nu, naive_nu(&g, alive), "{g:?} alive {alive:b}");
                let mates = matching::max_matching_mates(&g, alive);
                let mut count = 0;
                for (v, m) in mates.iter().enumerate() {
                    if let Some(u) = *m {
                        assert!(g.has_edge(u, v) && alive >> u & 1 == 1 && alive >> v & 1 == 1);
                        assert_eq!(mates[u], Some(v));
                        count += 1;
                    }
                }
                assert_eq!(count, 2 * nu);
            }
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..300 {
        let n = rng.random_range(7..=16);
        let p = rng.random_range(0.1..0.5);
        let g = random_graph(&mut rng, n, p);
        let nu = naive_nu(&g, g.all());
        assert_eq!(matching::max_matching(&g, g.all()), nu);
        assert_eq!(variants::generic_max_matching(&g, g.all()), nu);
    }
    // Larger graphs (no brute force): the stack-array and the generic
    // blossom implementations agree on ν and on D(G) (and ν(G − v) = ν(G)
    // exactly for v ∈ D(G)).
    for _ in 0..300 {
        let n = rng.random_range(17..=32);
        let p = rng.random_range(0.03..0.3);
        let g = random_graph(&mut rng, n, p);
        let alive = g.all() & !(rng.random::<u32>() & rng.random::<u32>());
        let nu = matching::max_matching(&g, alive);
        assert_eq!(variants::generic_max_matching(&g, alive), nu);
        let am = matching::always_matched(&g, alive);
        assert_eq!(variants::generic_always_matched(&g, alive), am);
        for v in members(alive) {
            let nu_v = matching::max_matching(&g, alive & !(1 << v));
            assert_eq!(am >> v & 1 == 1, nu_v < nu);
        }
    }
}

#[test]
fn matching_theorem_on_every_position() {
    // first_player_wins ⇔ grundy ≠ 0, ⇔ ν(G) > ν(G − v) by brute force;
    // winning_move is a legal move to a 0-position.
    let check = |g: &BitGraph, v: usize, alive: VSet, x: u8| {
        let comp = g.component(v, alive);
        let wins = first_player_wins(g, v, alive);
        assert_eq!(wins, x != 0, "{g:?} v={v} alive={alive:b}");
        assert_eq!(wins, naive_nu(g, comp) > naive_nu(g, comp & !(1 << v)));
        match winning_move(g, v, alive) {
            Some(u) => {
                assert!(wins && g.has_edge(v, u) && alive >> u & 1 == 1);
                assert_eq!(grundy(g, u, alive & !(1 << v)), 0);
            }
            None => assert!(!wins),
        }
    };
    for n in 1..=5 {
        for g in all_labelled(n) {
            for alive in 1..=g.all() {
                for v in members(alive) {
                    check(&g, v, alive, naive_grundy(&g, v, alive));
                }
            }
        }
    }
    for g in all_labelled(6) {
        let vals = grundy_all(&g);
        let wins_all = first_player_wins_all(&g);
        for v in 0..6 {
            check(&g, v, g.all(), vals[v]);
            assert_eq!(wins_all >> v & 1 == 1, vals[v] != 0);
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..400 {
        let n = rng.random_range(7..=13);
        let p = rng.random_range(0.1..0.6);
        let g = random_graph(&mut rng, n, p);
        let alive = (rng.random::<u32>() | rng.random::<u32>()) & g.all();
        let v = rng.random_range(0..n);
        let alive = alive | 1 << v;
        check(&g, v, alive, grundy(&g, v, alive));
    }
}

#[test]
fn degree3_matches_exact() {
    let mut positions = 0;
    let mut tests_used = 0u64;
    for n in 1..=7 {
        for g in all_labelled(n) {
            if g.max_degree() > 3 {
                assert_eq!(degree3::grundy_degree3(&g, 0, g.all()).is_none(), {
                    let c = g.component(0, g.all());
                    members(c).any(|u| (g.nbrs(u) & c).count_ones() > 3)
                });
                continue;
            }
            let vals = grundy_all(&g);
            for v in 0..n {
                let (x, t) = degree3::grundy_degree3(&g, v, g.all()).unwrap();
                assert_eq!(x, vals[v], "{g:?} from {v}");
                positions += 1;
                tests_used += t as u64;
            }
        }
    }
    assert!(positions > 100_000);
    assert!(tests_used > 0);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..200 {
        let n = rng.random_range(12..=28);
        let g = random_deg3(&mut rng, n, 2 * n);
        let v = rng.random_range(0..n);
        let (x, _) = degree3::grundy_degree3(&g, v, g.all()).unwrap();
        assert_eq!(x, grundy(&g, v, g.all()), "{g:?} from {v}");
        let gg = GeneralGraph::from_bitgraph(&g);
        let (y, _) = degree3_general(&gg, v, &gg.all()).unwrap();
        assert_eq!(y, x as u32);
    }
}

#[test]
fn one_option_pitfall_two_vertices() {
    // K2: the single option leaves the opponent stuck, so the value is *,
    // not 0 (the seed's first degree-3 implementation got this backwards).
    let k2 = BitGraph::from_edges(2, &[(0, 1)]);
    assert_eq!(grundy_all(&k2), vec![1, 1]);
    assert_eq!(degree3::grundy_degree3(&k2, 0, k2.all()), Some((1, 1)));
    assert!(first_player_wins(&k2, 0, k2.all()));
    assert_eq!(winning_move(&k2, 0, k2.all()), Some(1));
    let g = GeneralGraph::from_bitgraph(&k2);
    assert_eq!(degree3_general(&g, 1, &g.all()), Some((1, 1)));
    // A vertex of degree 4 is refused.
    let star = BitGraph::from_edges(5, &[(0, 1), (0, 2), (0, 3), (0, 4)]);
    assert_eq!(degree3::grundy_degree3(&star, 1, star.all()), None);
}

#[test]
fn general_solver_matches_bitgraph_solver() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for _ in 0..150 {
        let n = rng.random_range(2..=14);
        let p = rng.random_range(0.1..0.5);
        let b = random_graph(&mut rng, n, p);
        let g = GeneralGraph::from_bitgraph(&b);
        let vals = grundy_all(&b);
        let all = g.all();
        for v in 0..n {
            // small_limit 0: the pure adjacency-list search, no BitGraph hand-off.
            let r = grundy_general_with(&g, v, None, 0).unwrap();
            assert_eq!(r.value, vals[v] as u32, "{b:?} from {v}");
            assert_eq!(grundy_general(&g, v, None).unwrap().value, vals[v] as u32);
            assert_eq!(first_player_wins_general(&g, v, &all), vals[v] != 0);
            match winning_move_general(&g, v, &all) {
                Some(u) => {
                    let mut rest = all.clone();
                    rest.remove(v);
                    assert!(g.has_edge(u, v));
                    assert_eq!(grundy(&b, u, b.all() & !(1 << v)), 0);
                    let _ = rest;
                }
                None => assert_eq!(vals[v], 0),
            }
        }
        let mates = max_matching_general(&g, &all);
        let nu = mates.iter().filter(|m| m.is_some()).count() / 2;
        assert_eq!(nu as u32, naive_nu(&b, b.all()));
        assert_eq!(max_matching_size_general(&g, &all), nu);
    }
}

#[test]
fn trees_have_value_k() {
    for k in 0..=8u32 {
        let t = tree_t(k);
        assert_eq!(t.n(), 1 << k);
        assert_eq!(t.edge_count(), (1 << k) - 1);
        let r = grundy_general(&t, 0, None).unwrap();
        assert_eq!(r.value, k);
        let r0 = grundy_general_with(&t, 0, None, 0).unwrap();
        assert_eq!(r0.value, k);
        if k <= 5 {
            let b = t.to_bitgraph().unwrap();
            assert_eq!(grundy_all(&b)[0] as u32, k);
        }
        // k ≥ 1: the root is in every maximum matching (value ≠ 0).
        assert_eq!(first_player_wins_general(&t, 0, &t.all()), k != 0);
    }
}

#[test]
fn budget_is_enforced() {
    let t = tree_t(8);
    let full = grundy_general_with(&t, 0, None, 0).unwrap();
    assert!(full.nodes > 10);
    let err = grundy_general_with(&t, 0, Some(10), 0).unwrap_err();
    assert_eq!(err, BudgetExceeded { nodes: 11 });
    assert_eq!(
        grundy_general_with(&t, 0, Some(full.nodes), 0).unwrap(),
        full
    );
}

/// The directed → undirected reduction of focs-constructions.md applied to
/// a digraph on `n` vertices: original vertices keep their numbers, leaf
/// `v0` for each, and the 8-vertex gadget per arc.
fn reduce_digraph(n: usize, arcs: &[(usize, usize)]) -> GeneralGraph {
    let mut edges = Vec::new();
    let mut next = n;
    let mut fresh = || {
        next += 1;
        next - 1
    };
    for v in 0..n {
        let leaf = fresh();
        edges.push((v, leaf));
    }
    for &(x, y) in arcs {
        let [a, b, c, d, f, a0, c0, d0] = std::array::from_fn(|_| fresh());
        edges.extend([
            (x, a),
            (a, b),
            (b, c),
            (c, d),
            (d, y),
            (a, a0),
            (c, c0),
            (d, d0),
            (b, f),
            (f, d),
        ]);
    }
    GeneralGraph::from_edges(next, &edges).unwrap()
}

/// Directed vertex geography by plain recursion: does the mover from `v` win?
fn dvg_wins(n: usize, arcs: &[(usize, usize)], v: usize, alive: u32) -> bool {
    let rest = alive & !(1 << v);
    arcs.iter()
        .any(|&(x, y)| x == v && rest >> y & 1 == 1 && !dvg_wins(n, arcs, y, rest))
}

#[test]
fn reduced_complete_digraph_k4() {
    let arcs: Vec<(usize, usize)> = (0..4)
        .flat_map(|x| (0..4).filter(move |&y| y != x).map(move |y| (x, y)))
        .collect();
    assert_eq!(arcs.len(), 12);
    let g = reduce_digraph(4, &arcs);
    assert_eq!(g.n(), 104);
    for s in 0..4 {
        let r = grundy_general(&g, s, Some(50_000_000)).unwrap();
        // The paper's claim: P-position → exactly *, N-position → not 0, not *.
        if dvg_wins(4, &arcs, s, 0b1111) {
            assert!(r.value >= 2, "start {s}: value {}", r.value);
        } else {
            assert_eq!(r.value, 1);
        }
        assert_eq!(first_player_wins_general(&g, s, &g.all()), r.value != 0);
    }
}

#[test]
fn reduction_claim_on_small_digraphs() {
    // All digraphs on 3 vertices, every start: the reduction's value is * iff
    // the start is a P-position of directed geography (paper's claim).
    let pairs: Vec<(usize, usize)> = (0..3)
        .flat_map(|x| (0..3).filter(move |&y| y != x).map(move |y| (x, y)))
        .collect();
    for mask in 0u32..1 << pairs.len() {
        let arcs: Vec<_> = (0..pairs.len())
            .filter(|k| mask >> k & 1 == 1)
            .map(|k| pairs[k])
            .collect();
        let g = reduce_digraph(3, &arcs);
        for s in 0..3 {
            let x = grundy_general(&g, s, None).unwrap().value;
            assert_eq!(x == 1, !dvg_wins(3, &arcs, s, 0b111), "arcs {arcs:?} s {s}");
            assert_ne!(x, 0);
        }
    }
    let _ = VertexSet::empty(0);
}
