//! The graph-game layer (`families::graph_game`) and the games on it
//! (`kinds/node_kayles.rs`, …): values against independent solvers and
//! published tables, results independent of the shard plan, validation,
//! and that a game's file defines only its game.

use gamesweep::col::{proper_colourings, Board, Solver as ColSolver, SolverOptions};
use gamesweep::families::graph_game::{
    solve_code, Class, GameOutput, GameShard, Graph, GraphGame, Layered, Play, Side, Solver,
};
use gamesweep::gen::{self, WalkOptions};
use gamesweep::graph::{graph6, members, BitGraph, VSet};
use gamesweep::kinds;
use gamesweep::kinds::node_kayles::NodeKayles;
use gamesweep::kinds::snort::Snort;
use gamesweep::sweep::{run_typed, Kind, Merge, ShardCtx, Smallest};
use std::path::Path;

/// Every graph on exactly `n` vertices (one per isomorphism class).
fn graphs_on(n: usize, visit: &mut dyn FnMut(&BitGraph)) {
    let opts = WalkOptions {
        connected_only: false,
        min_n: n,
    };
    gen::walk_filtered(&BitGraph::new(0), n, opts, visit);
}

/// The class: all (or connected) graphs on 1..=max_n vertices.
fn class(max_n: usize, connected: bool) -> Class {
    Class::up_to(max_n, connected)
}

/// Undirected vertex geography written on the layer (`uvg` keeps its tuned
/// solver): the token leaves its vertex, which is deleted.
struct GenericUvg;

impl GraphGame for GenericUvg {
    type State = (u8, VSet);
    const NAME: &'static str = "uvg-generic";
    const ABOUT: &'static str = "UVG on the layer";
    const PLAY: Play = Play::Impartial;
    fn positions(&self, g: &Graph) -> Vec<(u8, VSet)> {
        (0..g.n()).map(|v| (v as u8, g.all())).collect()
    }
    fn options(&self, g: &Graph, &(at, alive): &(u8, VSet), _: Side) -> Vec<(u8, VSet)> {
        let rest = alive & !(1 << at);
        members(g.nbrs(at as usize) & rest)
            .map(|w| (w as u8, rest))
            .collect()
    }
    fn source_file(&self) -> &'static str {
        file!()
    }
}

/// Col written on the layer (`col` keeps its tuned solver): every proper
/// colouring, in `col::proper_colourings` order.
pub(crate) struct GenericCol;

impl GraphGame for GenericCol {
    type State = (VSet, VSet);
    const NAME: &'static str = "col-generic";
    const ABOUT: &'static str = "Col on the layer";
    const PLAY: Play = Play::Partizan;
    fn positions(&self, g: &Graph) -> Vec<(VSet, VSet)> {
        let mut out = Vec::new();
        proper_colourings(&g.underlying(), &mut |b, r| out.push((b, r)));
        out
    }
    fn options(&self, g: &Graph, &(b, r): &(VSet, VSet), side: Side) -> Vec<(VSet, VSet)> {
        let free = g.all() & !(b | r);
        let mine = if side == Side::Left { b } else { r };
        members(free)
            .filter(|&v| g.nbrs(v) & mine == 0)
            .map(|v| {
                if side == Side::Left {
                    (b | 1 << v, r)
                } else {
                    (b, r | 1 << v)
                }
            })
            .collect()
    }
    fn source_file(&self) -> &'static str {
        file!()
    }
}

/// The layer's UVG agrees with the tuned solver (`uvg::grundy_all`) on
/// every start vertex of every graph with at most 8 vertices.
#[test]
fn generic_uvg_agrees_with_the_tuned_solver() {
    let mut s = Solver::<GenericUvg>::default();
    let mut checked = 0u64;
    for n in 1..=8 {
        graphs_on(n, &mut |bg| {
            let g = Graph::undirected(bg);
            let tuned = gamesweep::uvg::grundy_all(bg);
            s.reset();
            for (v, p) in GenericUvg.positions(&g).iter().enumerate() {
                assert_eq!(
                    s.grundy(&GenericUvg, &g, p),
                    u32::from(tuned[v]),
                    "{bg:?} start {v}"
                );
                checked += 1;
            }
        });
    }
    // Σ n · A000088(n), n = 1..=8.
    assert_eq!(
        checked,
        1 + 2 * 2 + 3 * 4 + 4 * 11 + 5 * 34 + 6 * 156 + 7 * 1044 + 8 * 12346
    );
}

/// Col's value of `(blue, red)` on `bg` by the tuned solver, in CGSuite text.
fn tuned_col(t: &mut ColSolver, bg: &BitGraph, blue: VSet, red: VSet) -> String {
    let b = Board::col(bg.n(), &bg.edges().collect::<Vec<_>>());
    let v = t.value(&b, b.position_masks(blue, red));
    t.arena.display(v)
}

/// The layer's Col agrees with the tuned solver: the empty board of every
/// graph with at most `max_n` vertices (its value is built from every
/// proper colouring it reaches), and every colouring up to 5 vertices.
fn col_agrees(max_n: usize) -> u64 {
    let mut s = Solver::<GenericCol>::default();
    let mut t = ColSolver::new(SolverOptions::default());
    let mut checked = 0u64;
    for n in 1..=max_n {
        graphs_on(n, &mut |bg| {
            let g = Graph::undirected(bg);
            s.reset();
            let starts = if n <= 5 {
                GenericCol.positions(&g)
            } else {
                vec![(0, 0)]
            };
            for p in &starts {
                let mine = s.value(&GenericCol, &g, p).text;
                assert_eq!(mine, tuned_col(&mut t, bg, p.0, p.1), "{bg:?} {p:?}");
                checked += 1;
            }
        });
    }
    checked
}

#[test]
fn generic_col_agrees_with_the_tuned_solver() {
    assert!(col_agrees(7) > 1044);
}

#[test]
#[ignore = "needs about a minute: every graph on 8 vertices"]
fn generic_col_agrees_with_the_tuned_solver_on_8_vertices() {
    assert!(col_agrees(8) > 12346);
}

/// Node Kayles on the path P_n is the octal game 0.137 (Dawson's Kayles)
/// on a heap of n: the layer's values against the `octal` kind's solver.
#[test]
fn node_kayles_on_paths_is_octal_0137() {
    let octal = gamesweep::gamegraph::octal::grundy_values(&[1, 3, 7], 20);
    let mut s = Solver::<NodeKayles>::default();
    for (n, &want) in octal.iter().enumerate().skip(1) {
        let path = BitGraph::from_edges(n, &(1..n).map(|i| (i - 1, i)).collect::<Vec<_>>());
        let g = Graph::undirected(&path);
        s.reset();
        assert_eq!(s.grundy(&NodeKayles, &g, &g.all()), want, "P_{n}");
    }
    // Dawson's Kayles 0.137 starts 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3.
    assert_eq!(octal[..11], [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]);
}

/// Node Kayles against an independent subset DP (the example crate's
/// original solver): every graph up to 7 vertices.
#[test]
fn node_kayles_is_the_subset_dp() {
    fn dp(g: &BitGraph) -> u32 {
        let n = g.n();
        let mut t = vec![0u32; 1 << n];
        for mask in 1usize..1 << n {
            let mut seen = 0u64;
            for v in members(mask as VSet) {
                seen |= 1 << t[mask & !((g.nbrs(v) | 1 << v) as usize)];
            }
            t[mask] = (!seen).trailing_zeros();
        }
        t[(1 << n) - 1]
    }
    let mut s = Solver::<NodeKayles>::default();
    for n in 1..=7 {
        graphs_on(n, &mut |bg| {
            let g = Graph::undirected(bg);
            s.reset();
            assert_eq!(s.grundy(&NodeKayles, &g, &g.all()), dp(bg), "{bg:?}");
        });
    }
}

/// The document does not depend on the plan: three shard counts (and the
/// shards merged in reverse order) give byte-identical `results.json`,
/// a partizan game's temperatures and records included.
#[test]
fn documents_do_not_depend_on_the_shard_plan() {
    for name in [
        "node-kayles",
        "snort",
        "geography-vertex",
        "geography-edge",
        "arc-kayles",
    ] {
        let kind = kinds::find(name).unwrap();
        let max_n = if name == "geography-vertex" { 4 } else { 6 };
        let p = kind
            .resolve_params(&[("max_n".to_string(), max_n), ("connected".to_string(), 0)].into())
            .unwrap();
        let mut texts = Vec::new();
        for (shards, reverse) in [(1, false), (7, false), (40, true)] {
            let mut plan = kind.plan(&p, shards).unwrap();
            if reverse {
                plan.reverse();
            }
            let merged = gamesweep::sweep::run_all_sequential(kind, &p, &plan).unwrap();
            texts.push(kind.render(&p, &merged).unwrap().results_json);
        }
        assert!(texts[0] == texts[1] && texts[1] == texts[2], "{name}");
        // Snort's include its temperatures and per-n records.
        let hot =
            texts[0].contains("\"temperatures\"") && texts[0].contains("\"hottest_per_degree\"");
        assert_eq!(hot, name == "snort", "{name}");
        // Every truth holds (graph counts, labelled counts from |Aut|).
        for t in kind.truths(&texts[0]).unwrap() {
            assert!(t.ok, "{name}: {} {}", t.check, t.detail);
        }
    }
}

/// A partizan game's temperatures and per-n records merge in any order and
/// grouping: the 40 shards of a Snort sweep over all graphs on at most 6
/// vertices folded forwards, backwards and pairwise give the document of
/// one shard. The records read as they should: on every n the largest
/// temperature is n − 1, first reached by the star K₁,ₙ₋₁ (the tree of
/// maximum degree n − 1), and temperature ÷ maximum degree is at least 1.
#[test]
fn snort_temperatures_merge_in_any_order() {
    let k = Layered(Snort);
    let p = class(6, false);
    let json = |o: &GameOutput| serde_json::to_string(&k.doc(&p, o)).unwrap();
    let whole = run_typed(&k, &p, 1).unwrap();
    let plan = k.plan(&p, 40).unwrap();
    assert!(plan.len() > 20, "{} shards", plan.len());
    let outs: Vec<GameOutput> = plan
        .iter()
        .map(|(s, _)| k.run(&p, s, &ShardCtx::detached()).unwrap())
        .collect();
    let fold = |outs: Vec<GameOutput>| {
        let mut acc = GameOutput::default();
        for o in outs {
            acc.merge(o).unwrap();
        }
        acc
    };
    let mut pairs = outs.clone();
    while pairs.len() > 1 {
        pairs = pairs
            .chunks(2)
            .map(|c| fold(c.to_vec()))
            .collect::<Vec<_>>();
    }
    let backwards: Vec<GameOutput> = outs.iter().rev().cloned().collect();
    for merged in [fold(outs.clone()), fold(backwards), pairs.remove(0)] {
        assert_eq!(json(&merged), json(&whole));
    }
    let doc = k.doc(&p, &whole);
    for row in &doc.by_n {
        let by_t: u64 = row.temperatures.iter().map(|t| t.positions).sum();
        assert_eq!(by_t, row.positions, "n = {}", row.n);
        assert!(row.values.iter().all(|v| v.temperature.is_some()));
        let hot = row.hottest.as_ref().unwrap();
        let n = row.n as u32;
        assert_eq!(
            (hot.temperature.as_str(), hot.max_degree),
            ((n - 1).to_string().as_str(), n - 1),
            "n = {n}"
        );
        if n >= 2 {
            assert_eq!(hot.witness.edges, n - 1, "n = {n}: the star");
            let per = row.hottest_per_degree.as_ref().unwrap();
            let q = per.ratio.as_deref().unwrap();
            assert!(
                q == "1" || q.split_once('/').is_some_and(|(a, b)| a > b),
                "{q}"
            );
        }
    }
    let text = k.report(&p, &doc);
    assert!(text.contains("## Temperatures") && text.contains("## Hottest positions"));
    // An impartial game's document and report have none of it.
    let nk = Layered(NodeKayles);
    let d = nk.doc(&p, &run_typed(&nk, &p, 3).unwrap());
    let j = serde_json::to_string(&d).unwrap();
    assert!(!j.contains("temperature") && !j.contains("hottest"), "{j}");
    assert!(!nk.report(&p, &d).contains("emperature"));
}

/// A Snort shard's temperatures are validated: a value's temperature or a
/// record changed is refused, naming the field.
#[test]
fn validation_refuses_tampered_temperatures() {
    let k = Layered(Snort);
    let p = class(6, true);
    let plan = k.plan(&p, 3).unwrap();
    let (shard, _) = plan.last().unwrap().clone();
    let out = k.run(&p, &shard, &ShardCtx::detached()).unwrap();
    k.validate(&p, &shard, &out).unwrap();
    k.recount(&p, &shard, &out).unwrap().unwrap();
    let refused = |bad: GameOutput, field: &str| {
        let e = k
            .validate(&p, &shard, &bad)
            .err()
            .unwrap_or_else(|| panic!("tampered result accepted ({field})"));
        let named = field.split(' ').any(|f| e.field.starts_with(f));
        assert!(named && !e.to_string().contains('\n'), "{e}");
    };
    // The smallest value's temperature (its witness, or a record of that
    // value, re-solved).
    let mut bad = out.clone();
    let first = bad.smallest.keys().next().unwrap().clone();
    bad.temperatures.insert(first, "7".into());
    refused(bad, "smallest by_n");
    // A temperature that is no dyadic rational.
    let mut bad = out.clone();
    let last = bad.temperatures.keys().last().unwrap().clone();
    bad.temperatures.insert(last, "1/3".into());
    refused(bad, "temperatures");
    // A value without its temperature.
    let mut bad = out.clone();
    bad.temperatures.pop_first();
    refused(bad, "temperatures");
    // A record with a temperature its position does not have.
    let mut bad = out.clone();
    let (&n, c) = bad.by_n.iter_mut().last().unwrap();
    let h = c.hottest_per_degree.as_mut().unwrap();
    h.temperature = "9".into();
    refused(bad, &format!("by_n[{n}].hottest_per_degree"));
    // A record on a graph of another shard (a lone edge, 2 vertices).
    let mut bad = out.clone();
    let (&n, c) = bad.by_n.iter_mut().last().unwrap();
    let h = c.hottest.as_mut().unwrap();
    h.spot.code = "A_".into();
    let e = k
        .validate(&p, &shard, &bad)
        .err()
        .or_else(|| k.recount(&p, &shard, &bad).and_then(Result::err));
    assert!(e.is_some(), "n = {n}: a record elsewhere accepted");
}

/// Labelled counts: every graph weighted n!/|Aut| adds up to the labelled
/// graphs (2^C(n,2)), and digraphs to 4^C(n,2).
#[test]
fn labelled_counts_add_up() {
    let k = Layered(NodeKayles);
    let out: GameOutput = run_typed(&k, &class(7, false), 5).unwrap();
    for n in 1..=7u32 {
        assert_eq!(
            out.by_n[&n].labelled_graphs,
            1 << (n * (n - 1) / 2),
            "n = {n}"
        );
    }
    let kind = kinds::find("geography-vertex").unwrap();
    let p = kind
        .resolve_params(&[("max_n".to_string(), 4), ("connected".to_string(), 0)].into())
        .unwrap();
    let plan = kind.plan(&p, 3).unwrap();
    let merged = gamesweep::sweep::run_all_sequential(kind, &p, &plan).unwrap();
    let doc: serde_json::Value =
        serde_json::from_str(&kind.render(&p, &merged).unwrap().results_json).unwrap();
    let rows = doc["by_n"].as_array().unwrap();
    let got: Vec<(u64, u64)> = rows
        .iter()
        .map(|r| {
            (
                r["graphs"].as_u64().unwrap(),
                r["labelled_graphs"].as_u64().unwrap(),
            )
        })
        .collect();
    // A000273 (digraphs) and 4^C(n,2) labelled ones.
    assert_eq!(got, vec![(1, 1), (3, 4), (16, 64), (218, 4096)]);
}

/// A shard's honest result validates and recounts; tampered ones are
/// refused with a line naming the field.
#[test]
fn validation_refuses_tampered_results() {
    let k = Layered(NodeKayles);
    let p = class(6, true);
    let plan = k.plan(&p, 3).unwrap();
    let (shard, _) = plan.last().unwrap().clone();
    let out = k
        .run(&p, &shard, &gamesweep::sweep::ShardCtx::detached())
        .unwrap();
    assert!(out.work > 0);
    k.validate(&p, &shard, &out).unwrap();
    k.recount(&p, &shard, &out).unwrap().unwrap();
    let refused = |bad: GameOutput, field: &str| {
        let e = k
            .validate(&p, &shard, &bad)
            .err()
            .or_else(|| k.recount(&p, &shard, &bad).and_then(Result::err))
            .unwrap_or_else(|| panic!("tampered result accepted ({field})"));
        assert!(
            e.field.starts_with(field) && !e.to_string().contains('\n'),
            "{e}"
        );
    };
    // A witness with a value it does not have: move the smallest `0` to `*`.
    let mut bad = out.clone();
    let zero = bad.smallest["0"].clone();
    let star = bad.smallest["*"].clone();
    bad.smallest.insert("0".into(), star);
    bad.smallest.insert("*".into(), zero);
    refused(bad, "smallest");
    // Counts that do not add up.
    let mut bad = out.clone();
    bad.by_n.values_mut().last().unwrap().all.positions += 1;
    refused(bad, "by_n");
    // A graph too many, consistently counted: only the recount sees it.
    let mut bad = out.clone();
    let c = bad.by_n.values_mut().last().unwrap();
    c.graphs += 1;
    refused(bad, "by_n");
    // A witness that is no graph of the shard (a path on 6 vertices is in
    // another shard, or differently labelled).
    let mut bad = out.clone();
    let mut w = bad.smallest["0"].0.clone().unwrap();
    w.code = graph6::encode_bitgraph(&BitGraph::from_edges(2, &[(0, 1)]));
    w.n = 2;
    w.edges = 1;
    bad.smallest.insert("0".into(), Smallest(Some(w)));
    refused(bad, "smallest");
    // A shard of another game's board.
    let dig = GameShard::Digraphs {
        n: 3,
        lo: 0,
        hi: 64,
    };
    assert!(k
        .run(&p, &dig, &gamesweep::sweep::ShardCtx::detached())
        .is_err());
}

/// Bad parameters are one-line errors naming the parameter.
#[test]
fn bad_parameters_are_clear_errors() {
    let k = Layered(NodeKayles);
    for (mut c, want) in [
        (class(6, true), "--min-n 7"),
        (class(6, true), "--min-degree 3"),
        (class(6, true), "--min-edges 9"),
    ] {
        match want {
            "--min-n 7" => c.min_n = 7,
            "--min-degree 3" => {
                c.min_degree = 3;
                c.max_degree = 2
            }
            _ => {
                c.min_edges = 9;
                c.max_edges = 3
            }
        }
        let e = k.plan(&c, 1).unwrap_err().to_string();
        assert!(e.contains(want) && !e.contains('\n'), "{e}");
    }
    let kind = kinds::find("geography-vertex").unwrap();
    let e = kind
        .resolve_params(&[("max_n".to_string(), 4), ("bipartite".to_string(), 1)].into())
        .and_then(|p| kind.plan(&p, 1))
        .unwrap_err()
        .to_string();
    assert!(e.contains("--bipartite") && e.contains("digraphs"), "{e}");
}

/// Classes as `gamesweep graphs` spells them: trees on n vertices are
/// A000055, bipartite connected graphs A005142.
#[test]
fn classes_count_as_published() {
    let k = Layered(NodeKayles);
    let mut trees = class(8, true);
    trees.trees = 1;
    let out = run_typed(&k, &trees, 4).unwrap();
    let got: Vec<u64> = (1..=8)
        .map(|n| out.by_n.get(&n).map_or(0, |c| c.graphs))
        .collect();
    assert_eq!(got, [1, 1, 1, 2, 3, 6, 11, 23]);
    let mut bip = class(7, true);
    bip.bipartite = 1;
    let out = run_typed(&k, &bip, 4).unwrap();
    let got: Vec<u64> = (1..=7)
        .map(|n| out.by_n.get(&n).map_or(0, |c| c.graphs))
        .collect();
    assert_eq!(got, [1, 1, 1, 3, 5, 17, 44]);
}

/// `solve`: every position of one graph, valued.
#[test]
fn solve_values_one_graph() {
    // Node Kayles on P_3: *2 (Dawson's Kayles G(3) = 2).
    let r = solve_code(&NodeKayles, "Bg").unwrap();
    assert_eq!(
        (r.len(), r[0].value.as_str(), r[0].outcome.as_str()),
        (1, "*2", "N")
    );
    assert!(solve_code(&NodeKayles, "not graph6").is_err());
}

/// A game's file defines its game and nothing else: one game type, its
/// `GraphGame` impl and its `KIND` constant; no other items, no other impls.
#[test]
fn a_games_file_defines_only_its_game() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/kinds");
    let mut games = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir()
            || p.file_name().unwrap() == "mod.rs"
            || p.extension().is_none_or(|x| x != "rs")
        {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        let items: Vec<&str> = code
            .lines()
            .filter(|l| !l.starts_with(' ') && !l.starts_with("//") && !l.starts_with('}'))
            .filter(|l| !l.trim().is_empty() && !l.starts_with("use ") && !l.starts_with("#["))
            .collect();
        let head = |prefix: &str| items.iter().filter(|l| l.starts_with(prefix)).count();
        assert_eq!(head("pub struct "), 1, "{}: {items:?}", p.display());
        assert_eq!(head("impl GraphGame for "), 1, "{}", p.display());
        assert_eq!(head("pub const KIND: Layered<"), 1, "{}", p.display());
        assert_eq!(
            items.len(),
            3,
            "{}: defines more than its game: {items:?}",
            p.display()
        );
        let lines = text.lines().count();
        assert!(lines <= 70, "{}: {lines} lines", p.display());
        games += 1;
    }
    assert_eq!(games, 5);
}

/// A game with a property that fails: Node Kayles "has value 0 or *".
/// Its counterexamples are counted, the smallest kept, and the merged
/// document is the same for any plan.
struct SmallValues;

impl GraphGame for SmallValues {
    type State = VSet;
    const NAME: &'static str = "small-values";
    const ABOUT: &'static str = "Node Kayles, claimed to take only the values 0 and *";
    const PLAY: Play = Play::Impartial;
    const PROPERTY: Option<&'static str> = Some("the value is 0 or *");
    fn positions(&self, g: &Graph) -> Vec<VSet> {
        NodeKayles.positions(g)
    }
    fn options(&self, g: &Graph, p: &VSet, s: Side) -> Vec<VSet> {
        NodeKayles.options(g, p, s)
    }
    fn check(&self, _: &Graph, _: &VSet, v: &gamesweep::families::graph_game::Value) -> bool {
        v.grundy.is_some_and(|k| k < 2)
    }
    fn source_file(&self) -> &'static str {
        file!()
    }
}

#[test]
fn counterexamples_are_collected_whatever_the_plan() {
    let k = Layered(SmallValues);
    let p = class(7, false);
    let docs: Vec<String> = [1, 6, 30]
        .iter()
        .map(|&s| serde_json::to_string(&k.doc(&p, &run_typed(&k, &p, s).unwrap())).unwrap())
        .collect();
    assert!(docs[0] == docs[1] && docs[1] == docs[2]);
    let out = run_typed(&k, &p, 6).unwrap();
    let total: u64 = out.by_n.values().map(|c| c.counterexamples).sum();
    // The counterexamples are the graphs of value *2 or more, counted by an
    // independent pass over the values.
    let big: u64 = out
        .by_n
        .values()
        .flat_map(|c| c.values.iter())
        .filter(|(v, _)| !matches!(v.as_str(), "0" | "*"))
        .map(|(_, t)| t.positions)
        .sum();
    assert_eq!(total, big);
    assert!(total > 20);
    assert_eq!(out.counterexamples.len(), 20);
    // The smallest counterexample: P_3 (*2, 3 vertices, 2 edges).
    let first = &out.counterexamples[0];
    assert_eq!(
        (first.spot.n, first.spot.edges, first.value.as_str()),
        (3, 2, "*2")
    );
    assert!(out.counterexamples.windows(2).all(|w| w[0] < w[1]));
    for c in &out.counterexamples {
        assert_ne!(c.value, "0");
        assert_ne!(c.value, "*");
    }
    // Validation re-solves them: a counterexample that has the property is refused.
    let plan = k.plan(&p, 1).unwrap();
    let shard = &plan.last().unwrap().0;
    let mine = k
        .run(&p, shard, &gamesweep::sweep::ShardCtx::detached())
        .unwrap();
    k.validate(&p, shard, &mine).unwrap();
    if let Some(first) = mine.counterexamples.first() {
        let mut bad = mine.clone();
        bad.counterexamples[0].value = "*".into();
        let e = k.validate(&p, shard, &bad).unwrap_err();
        assert!(e.field.starts_with("counterexamples[0]"), "{e} {first:?}");
    }
}

/// The layer and its games change no other kind's solver version: no unit
/// below them depends on them, and `graph` still depends on nothing. (A
/// game's `type Pos = VSet;` once did: the version analysis follows type
/// aliases, `col` implements a `Pos` of its own, so `graph`, and with it
/// every kind, came to depend on `col`. The associated type is `State`,
/// a name no other unit defines.)
#[test]
fn the_games_change_no_other_kinds_version() {
    use crate::versions::{analyse, dependency_names, read_inputs, read_tree, toml_section};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let inputs = read_inputs(root, "gamesweep");
    let crates = dependency_names(&toml_section(&inputs.manifest, "dependencies"));
    let a = analyse(read_tree(&root.join("src")).unwrap(), &crates);
    assert_eq!(a.closure("graph"), ["graph".to_string()].into());
    let games: Vec<String> = kinds::games()
        .iter()
        .map(|g| format!("kinds/{}", g.name().replace('-', "_")))
        .collect();
    for unit in a.units() {
        if unit.starts_with("families/graph_game") || games.contains(&unit) || unit == "kinds" {
            continue;
        }
        let c = a.closure(&unit);
        assert!(
            !c.contains("families/graph_game") && !games.iter().any(|g| c.contains(g)),
            "{unit} depends on the layer or a game: {c:?}"
        );
    }
}

/// The committed reports read as English: "an impartial game", "1 vertex".
#[test]
fn reports_say_an_impartial_game_and_one_vertex() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs");
    for run in [
        "node-kayles",
        "arc-kayles",
        "snort",
        "geography-vertex",
        "geography-edge",
    ] {
        let md = std::fs::read_to_string(root.join(run).join("report.md")).unwrap();
        assert!(!md.contains("A impartial"), "{run}");
        assert!(!md.contains(" 1 vertices"), "{run}");
        assert!(
            md.contains("An impartial game") || md.contains("A partizan game"),
            "{run}"
        );
    }
}
