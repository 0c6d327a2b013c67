//! The guide's "Your own game in one file" (`docs/your-own-game.md`): its
//! code blocks are this crate's files, and what it says of Grim is what a
//! sweep of Grim computes, checked here against a brute force of its own
//! (every labelled graph, values by a plain recursion, no canonical forms,
//! no layer).

use gamesweep::families::graph_game::{Class, Solver};
use gamesweep::sweep::run_typed;
use grim::{Grim, KIND};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

const GUIDE: &str = include_str!("../../../your-own-game.md");

/// The fenced blocks of the guide tagged `tag` (`rust,ignore`, `toml`).
fn blocks(tag: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in GUIDE.lines() {
        match (&mut cur, line.strip_prefix("```")) {
            (None, Some(t)) if t == tag => cur = Some(String::new()),
            (Some(b), Some("")) => {
                out.push(std::mem::take(b));
                cur = None;
            }
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            _ => {}
        }
    }
    out
}

fn file(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

/// The guide shows this crate: `Cargo.toml` (with the checkout beside the
/// crate instead of the repository around it), `build.rs`, `src/lib.rs`;
/// its binaries are the ones `examples/custom-kind` builds and runs.
#[test]
fn the_guide_shows_this_crate() {
    let toml = file("Cargo.toml")
        .replace("../../../", "../gamesweep/")
        .replace("publish = false\n", "");
    assert_eq!(blocks("toml"), vec![toml]);
    let rust = blocks("rust,ignore");
    assert_eq!(rust[0], file("build.rs"));
    assert_eq!(rust[1], file("src/lib.rs"));
    let custom = |bin: &str| {
        file(&format!("../../../examples/custom-kind/src/bin/{bin}.rs"))
            .lines()
            .filter(|l| !l.starts_with("//!"))
            .collect::<Vec<_>>()
            .join("\n")
            .replace("custom_kind", "grim")
            + "\n"
    };
    assert_eq!(rust[2], custom("custom-gamesweep"));
    assert_eq!(rust[3], custom("custom-gamesweep-worker"));
}

fn all_graphs(max_n: usize) -> Class {
    Class::up_to(max_n, false)
}

/// The Grundy value of Grim on `board` of the graph `adj`.
fn grundy(adj: &[u32], board: u32, memo: &mut HashMap<u32, u32>) -> u32 {
    if let Some(&k) = memo.get(&board) {
        return k;
    }
    let mut seen = Vec::new();
    for (v, &nv) in adj.iter().enumerate() {
        if board >> v & 1 == 1 && nv & board != 0 {
            let mut rest = board & !(1 << v);
            for (u, &nu) in adj.iter().enumerate() {
                if rest >> u & 1 == 1 && nu & rest == 0 {
                    rest &= !(1 << u);
                }
            }
            seen.push(grundy(adj, rest, memo));
        }
    }
    let k = (0..).find(|k| !seen.contains(k)).unwrap();
    memo.insert(board, k);
    k
}

/// Per n, over every labelled graph: how many there are of each Grundy
/// value, and how many break the guide's conjecture (value above the
/// largest degree).
fn brute_force(n: usize) -> (BTreeMap<String, u64>, u64) {
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|v| (0..v).map(move |u| (u, v))).collect();
    let (mut values, mut against) = (BTreeMap::new(), 0);
    for mask in 0u64..1 << pairs.len() {
        let mut adj = vec![0u32; n];
        for (i, &(u, v)) in pairs.iter().enumerate() {
            if mask >> i & 1 == 1 {
                adj[u] |= 1 << v;
                adj[v] |= 1 << u;
            }
        }
        let k = grundy(&adj, (1 << n) - 1, &mut HashMap::new());
        *values
            .entry(gamesweep::sweep::report::nim(u64::from(k)))
            .or_default() += 1;
        let degree = adj.iter().map(|a| a.count_ones()).max().unwrap();
        against += u64::from(k > degree);
    }
    (values, against)
}

/// Labelled counts of a sweep over all graphs on at most 6 vertices, by n
/// and value, against the brute force (32,768 labelled graphs at n = 6),
/// and its counterexamples; the same figures for 1 and 9 shards.
#[test]
fn the_sweep_agrees_with_a_brute_force() {
    let one = run_typed(&KIND, &all_graphs(6), 1).unwrap();
    let nine = run_typed(&KIND, &all_graphs(6), 9).unwrap();
    assert_eq!(one, nine);
    for n in 1..=6u32 {
        let (values, against) = brute_force(n as usize);
        let c = &one.by_n[&n];
        let got: BTreeMap<String, u64> = c
            .values
            .iter()
            .map(|(v, t)| (v.clone(), t.labelled_positions))
            .collect();
        assert_eq!(got, values, "n = {n}");
        assert_eq!(c.labelled_graphs, 1 << (n * (n - 1) / 2), "n = {n}");
        // The sweep counts classes; a class breaks the conjecture when
        // each of its labelled graphs does.
        assert_eq!(c.counterexamples > 0, against > 0, "n = {n}");
    }
}

/// What the guide says of the conjecture: up to which n it holds, and the
/// graph it fails on first (connected graphs, as `run grim` sweeps them).
#[test]
fn the_guide_states_the_sweeps_figures() {
    let mut c = all_graphs(7);
    c.connected = 1;
    let out = run_typed(&KIND, &c, 4).unwrap();
    let first = out
        .by_n
        .iter()
        .find(|(_, c)| c.counterexamples > 0)
        .map(|(n, _)| *n)
        .expect("the conjecture fails on 7 vertices or fewer");
    let x = out
        .counterexamples
        .iter()
        .filter(|x| x.spot.n == first)
        .min_by_key(|x| (x.spot.edges, x.spot.code.clone()))
        .unwrap();
    let said = format!(
        "survives up to {} vertices and fails first on {} vertices, `{}` ({} edges, value {})",
        first - 1,
        first,
        x.spot.code,
        x.spot.edges,
        x.value
    );
    assert!(GUIDE.contains(&said), "the guide should say: {said}");
    let mut s = Solver::<Grim>::default();
    let g = gamesweep::families::graph_game::Graph::parse(&x.spot.code, false).unwrap();
    let v = s.value(&Grim, &g, &g.all());
    assert_eq!(v.text, x.value);
}
