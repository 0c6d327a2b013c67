//! Sums of positions and game trees (`gamesweep::board::{sum, tree}`):
//! textbook values computed by hand, nim sums through UVG positions, the
//! outcome of random sums against a brute-force search of the disjunctive
//! sum's moves (written here, independently of the library's move
//! generation), single terms against the `solve` value, loopy and bad terms
//! refused.

use gamesweep::board::tree::{tree, TreeNode};
use gamesweep::graph::graph6::{decode, decode_digraph, encode_digraph_with, encode_with};
use gamesweep::sums::{sum, Limits, SumError, SumReport};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap};

fn no_files(name: &str) -> Result<String, String> {
    Err(format!("no file {name}"))
}

fn sum_of(terms: &[&str]) -> SumReport {
    sum(terms, &Limits::default(), &no_files).unwrap_or_else(|e| panic!("{terms:?}: {e}"))
}

fn value(terms: &[&str]) -> String {
    sum_of(terms).value
}

/// Col values computed by hand from the rules (Winning Ways ch. 2; Lessons
/// in Play ch. 2 and 5): a lone uncoloured vertex is {0|0} = *; a vertex only
/// Left may colour is {0|} = 1; an uncoloured edge is {-1|1} = 0; the path
/// 0 - 1 - 2 with 0 blue is {-1 | 0, 1} = -1/2 (Left's only move, 2, leaves
/// 1 red-only; Right's move at 2 kills 1, at 1 leaves 2 blue-only).
#[test]
fn textbook_col_values_and_their_sums() {
    assert_eq!(value(&["col:@"]), "*");
    assert_eq!(value(&["col:@", "col:@"]), "0", "* + * = 0");
    assert_eq!(value(&["col:A_"]), "0");
    assert_eq!(value(&["col:A_:R."]), "1");
    assert_eq!(value(&["col:A_:L."]), "-1");
    let r = sum_of(&["col:A_:R.", "col:A_:L."]);
    assert_eq!(
        (r.value.as_str(), r.outcome.to_string()),
        ("0", "P".into()),
        "1 + -1 = 0"
    );
    assert_eq!(value(&["col:Bg:L.."]), "-1/2");
    assert_eq!(value(&["col:Bg:R.."]), "1/2");
    // 1/2 + 1/2 = 1: {0|1} + {0|1} - 1 is a second-player win.
    let r = sum_of(&["col:Bg:R..", "col:Bg:R..", "col:A_:L."]);
    assert_eq!((r.value.as_str(), r.outcome.to_string()), ("0", "P".into()));
    assert!(r.left_wins_by.is_none() && r.right_wins_by.is_none());
    // 1/2 + * = 1/2*: Left wins whoever starts; Right has no winning move.
    let r = sum_of(&["col:Bg:R..", "col:@"]);
    assert_eq!(
        (r.value.as_str(), r.outcome.to_string()),
        ("1/2*", "L".into())
    );
    assert!(r.cold);
    assert!(r.right_wins_by.is_none());
    let m = r.left_wins_by.unwrap();
    // Left's winning moves go to a sum >= 0; the simplest is to 1/2 (colour the lone vertex).
    assert_eq!(
        (m.summand, m.term.as_str(), m.value.as_str()),
        (1, "col:@:L", "1/2")
    );
    // A board of three components decomposes into their values: the edge
    // 0 - 1 with 0 blue leaves 1 red-only (-1); 2 and 3 are lone vertices (*).
    let g = encode_with(4, |i, j| i.min(j) == 0 && i.max(j) == 1);
    let r = sum_of(&[&format!("col:{g}:L...")]);
    let parts: Vec<_> = r.summands[0]
        .components
        .iter()
        .map(|c| (c.vertices.clone(), c.value.as_str()))
        .collect();
    assert_eq!(parts, [(vec![1], "-1"), (vec![2], "*"), (vec![3], "*")]);
    assert_eq!(r.value, "-1");
}

/// UVG positions are nimbers: from vertex 1 of the path 0-1-2-3 the token
/// moves to 0 (value 0) or to 2 (then only 3 is left: *), so it is *2; from
/// an end of an edge it is *. *a + *b = *(a xor b).
#[test]
fn nim_sums_through_uvg_positions() {
    assert_eq!(value(&["uvg:Ch@1"]), "*2");
    assert_eq!(value(&["uvg:A_@0"]), "*");
    assert_eq!(value(&["uvg:Ch@1", "uvg:A_@0"]), "*3");
    assert_eq!(value(&["uvg:Ch@1", "uvg:Ch@1"]), "0");
    assert_eq!(value(&["uvg:Ch@1", "uvg:A_@0", "uvg:Bg@1"]), "*2");
    // A path moved along: from 1 to 2, 3 is left: *.
    assert_eq!(value(&["uvg:Ch@1,2"]), "*");
    // Impartial and partizan summands mix: *2 + 1/2 = 1/2*2.
    assert_eq!(value(&["uvg:Ch@1", "col:Bg:R.."]), "1/2*2");
}

/// Game graphs: docs/examples/sum.game's pair (v0, x) has Grundy numbers 1
/// and 2 (the doc's table), so the sum is *3.
#[test]
fn game_graph_positions_are_nimbers_and_loops_are_refused() {
    let file = include_str!("../../../docs/examples/sum.game");
    let load = |name: &str| match name {
        "sum.game" => Ok(file.to_string()),
        "loop.game" => Ok("game g\nstart a\na -> b c\nb -> a\nc -> d\nend\n".into()),
        "draw.game" => Ok("start a\na -> b\nb = draw\n".into()),
        n => Err(format!("no file {n}")),
    };
    let r = sum(
        &["gamegraph:sum.game#left#v0", "gamegraph:sum.game#right#x"],
        &Limits::default(),
        &load,
    )
    .unwrap();
    assert_eq!(r.value, "*3");
    assert_eq!(r.summands[0].value, "*");
    assert_eq!(r.summands[1].value, "*2");
    // Several games and no name: refused, naming the games.
    let e = sum(&["gamegraph:sum.game"], &Limits::default(), &load).unwrap_err();
    assert!(e.to_string().contains("left, right"), "{e}");
    // A cycle reachable from the position: refused, naming the summand and the cycle.
    let e = sum(&["col:@", "gamegraph:loop.game"], &Limits::default(), &load).unwrap_err();
    assert!(matches!(e, SumError::Loopy { .. }), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("gamegraph:loop.game#g#a") && msg.contains("a -> b -> a"),
        "{msg}"
    );
    // From c no cycle is reachable: c -> d is *.
    assert_eq!(
        sum(&["gamegraph:loop.game#c"], &Limits::default(), &load)
            .unwrap()
            .value,
        "*"
    );
    // Not normal play: refused.
    let e = sum(&["gamegraph:draw.game"], &Limits::default(), &load).unwrap_err();
    assert!(e.to_string().contains("draw"), "{e}");
}

#[test]
fn bad_terms_are_refused_with_one_line() {
    for t in [
        "",
        "x",
        "nim:3",
        "uvg:Bg",
        "uvg:Bg@",
        "uvg:Bg@3",
        "uvg:Bg@0,2",
        "uvg:Bg@1,0,1",
        "uvg:Bg@a",
        "uvg:&B??@0",
        "uvg:?@0",
        "col:",
        "col:!!",
        "col:Bg:LL.",
        "col:Bg:..",
        "col:Bg:X..",
        "col:&B??",
        "myopic:Bg",
        "myopic:&B??:L",
        "gamegraph:",
        "gamegraph:f#a#b#c",
        "gamegraph:nofile",
        "uvg:~~~~@0",
        "col:~~~~",
    ] {
        let e = sum(&[t], &Limits::default(), &no_files)
            .unwrap_err()
            .to_string();
        assert!(!e.is_empty() && !e.contains('\n'), "{t:?}: {e}");
    }
    assert_eq!(
        sum(&[], &Limits::default(), &no_files).unwrap_err(),
        SumError::NoTerms
    );
    // A budget that runs out is an error, not a wrong value.
    let p20 = encode_with(20, |i, j| j == i + 1);
    let tight = Limits {
        col_work: Some(50),
        ..Limits::default()
    };
    let e = sum(&[&format!("col:{p20}")], &tight, &no_files).unwrap_err();
    assert!(e.is_budget(), "{e}");
}

/// Every node's value in a tree is the value of its term summed alone, and
/// the options are the moves of the game.
#[test]
fn a_tree_lists_every_option_with_its_value() {
    let t = tree("col:Bg", 2, 1000, &Limits::default(), &no_files).unwrap();
    assert_eq!(t.root.term, "col:Bg:...");
    assert_eq!(t.root.left.as_ref().unwrap().len(), 3);
    assert_eq!(t.root.right.as_ref().unwrap().len(), 3);
    fn walk(n: &TreeNode, count: &mut usize) {
        *count += 1;
        assert_eq!(n.value, value(&[&n.term]), "{}", n.term);
        for c in [&n.moves, &n.left, &n.right]
            .into_iter()
            .flatten()
            .flatten()
        {
            walk(c, count);
        }
    }
    let mut count = 0;
    walk(&t.root, &mut count);
    assert_eq!(count, t.positions);
    assert_eq!(count, 1 + 6 + 16);
    let u = tree("uvg:Ch@1", 5, 1000, &Limits::default(), &no_files).unwrap();
    assert!(u.impartial);
    let moves: Vec<_> = u
        .root
        .moves
        .as_ref()
        .unwrap()
        .iter()
        .map(|m| (m.term.clone(), m.value.clone()))
        .collect();
    assert_eq!(
        moves,
        [
            ("uvg:Ch@1,0".to_string(), "0".to_string()),
            ("uvg:Ch@1,2".into(), "*".into())
        ]
    );
    let e = tree("col:Bg", 5, 20, &Limits::default(), &no_files).unwrap_err();
    assert!(
        matches!(
            e,
            SumError::TreeTooBig {
                depth: 5,
                limit: 20,
                ..
            }
        ),
        "{e}"
    );
    let leaf = tree("col:@", 0, 1, &Limits::default(), &no_files).unwrap();
    assert!(!leaf.root.expanded && leaf.root.option_count == 2);
}

/// A single term's sum is its `solve` value.
#[test]
fn a_single_term_is_its_solve_value() {
    use gamesweep::col::{solve_position, Rules};
    for n in 1..=5usize {
        for bits in 0..(1u32 << (n * (n - 1) / 2)).min(64) {
            let g6 = random_graph(n, bits as u64);
            let want = solve_position(Rules::Col, &g6, &".".repeat(n))
                .unwrap()
                .value;
            assert_eq!(value(&[&format!("col:{g6}")]), want, "{g6}");
            let a = gamesweep::board::uvg::analyse(&g6, None, None).unwrap();
            for s in &a.starts {
                assert_eq!(
                    value(&[&format!("uvg:{g6}@{}", s.start)]),
                    gamesweep::uvg::position::nimber(s.grundy),
                    "{g6}@{}",
                    s.start
                );
            }
        }
    }
    let d6 = encode_digraph_with(3, |i, j| i == 0 && j > 0);
    let want = solve_position(Rules::Myopic, &d6, ".L.").unwrap().value;
    assert_eq!(value(&[&format!("myopic:{d6}:.L.")]), want);
    assert_eq!(want, "-1/2");
}

/// A graph on `n` vertices whose edges are the bits of `bits`.
fn random_graph(n: usize, bits: u64) -> String {
    // Pair (i, j), i < j, is bit number j(j-1)/2 + i (mod 64), as graph6 orders them.
    encode_with(n, |i, j| {
        let (i, j) = (i.min(j), i.max(j));
        bits >> ((j * (j - 1) / 2 + i) % 64) & 1 == 1
    })
}

/// One summand for the brute force: its term, its file (game graphs) and
/// its moves, from the rules written out here.
#[derive(Clone, Debug)]
struct Summand {
    term: String,
    file: Option<String>,
    /// `look[u]`: the vertices u looks at (Col: neighbours; Myopic: out-neighbours;
    /// UVG: neighbours; game graph: successors).
    look: Vec<Vec<usize>>,
    kind: u8, // 0 col/myopic, 1 uvg, 2 game graph
    start: Vec<u8>,
}

impl Summand {
    /// The states after a move of Left (`left`) or Right from `s`.
    fn moves(&self, s: &[u8], left: bool) -> Vec<Vec<u8>> {
        match self.kind {
            0 => {
                let c = if left { 1 } else { 2 };
                (0..s.len())
                    .filter(|&u| s[u] == 0 && self.look[u].iter().all(|&w| s[w] != c))
                    .map(|u| {
                        let mut t = s.to_vec();
                        t[u] = c;
                        t
                    })
                    .collect()
            }
            1 => {
                let tok = *s.last().unwrap() as usize;
                self.look[tok]
                    .iter()
                    .filter(|&&w| !s.contains(&(w as u8)))
                    .map(|&w| {
                        let mut t = s.to_vec();
                        t.push(w as u8);
                        t
                    })
                    .collect()
            }
            _ => self.look[s[0] as usize]
                .iter()
                .map(|&w| vec![w as u8])
                .collect(),
        }
    }
}

/// Does the player to move (Left if `left`) win the sum in `state`?
fn wins(
    parts: &[Summand],
    state: &[Vec<u8>],
    left: bool,
    memo: &mut HashMap<(Vec<Vec<u8>>, bool), bool>,
) -> bool {
    if let Some(&w) = memo.get(&(state.to_vec(), left)) {
        return w;
    }
    let mut w = false;
    'all: for (i, p) in parts.iter().enumerate() {
        for t in p.moves(&state[i], left) {
            let mut next = state.to_vec();
            next[i] = t;
            if !wins(parts, &next, !left, memo) {
                w = true;
                break 'all;
            }
        }
    }
    memo.insert((state.to_vec(), left), w);
    w
}

/// A summand from random numbers: Col, Myopic Col, UVG or a game graph.
fn summand(kind: u8, n: usize, bits: u64, seed: u64, index: usize) -> Summand {
    match kind % 4 {
        0 => {
            let n = n.min(4);
            let g6 = random_graph(n, bits);
            let (_, edges) = decode(&g6).unwrap();
            let mut look = vec![Vec::new(); n];
            for (a, b) in edges {
                look[a].push(b);
                look[b].push(a);
            }
            colour(format!("col:{g6}"), look, seed)
        }
        1 => {
            let n = n.min(4);
            let d6 = encode_digraph_with(n, |i, j| i != j && bits >> ((i * n + j) % 64) & 1 == 1);
            let (_, arcs) = decode_digraph(&d6).unwrap();
            let mut look = vec![Vec::new(); n];
            for (a, b) in arcs {
                look[a].push(b);
            }
            // Myopic Col allows any colouring: colour without looking.
            let mut s = Summand {
                term: format!("myopic:{d6}"),
                file: None,
                look,
                kind: 0,
                start: Vec::new(),
            };
            let cs: String = (0..n)
                .map(|v| ['.', 'L', 'R'][(seed >> (2 * v)) as usize % 3])
                .collect();
            s.start = cs
                .chars()
                .map(|c| match c {
                    'L' => 1,
                    'R' => 2,
                    _ => 0,
                })
                .collect();
            s.term = format!("{}:{cs}", s.term);
            s
        }
        2 => {
            let g6 = random_graph(n, bits);
            let (_, edges) = decode(&g6).unwrap();
            let mut look = vec![Vec::new(); n];
            for (a, b) in edges {
                look[a].push(b);
                look[b].push(a);
            }
            let s = (seed % n as u64) as usize;
            Summand {
                term: format!("uvg:{g6}@{s}"),
                file: None,
                look,
                kind: 1,
                start: vec![s as u8],
            }
        }
        _ => {
            // A random DAG on n + 1 positions: i -> j for some j > i.
            let m = n + 1;
            let mut look = vec![Vec::new(); m];
            let mut text = String::from("game g\nstart p0\n");
            let mut k = 0;
            for (i, out) in look.iter_mut().enumerate() {
                text.push_str(&format!("p{i} ->"));
                for j in i + 1..m {
                    if bits >> (k % 64) & 1 == 1 {
                        out.push(j);
                        text.push_str(&format!(" p{j}"));
                    }
                    k += 1;
                }
                text.push('\n');
            }
            text.push_str("end\n");
            Summand {
                term: format!("gamegraph:f{index}"),
                file: Some(text),
                look,
                kind: 2,
                start: vec![0],
            }
        }
    }
}

/// A Col colouring from `seed` that never puts one colour on both ends of an edge.
fn colour(term: String, look: Vec<Vec<usize>>, seed: u64) -> Summand {
    let n = look.len();
    let mut c = vec![0u8; n];
    for v in 0..n {
        let want = ((seed >> (2 * v)) % 3) as u8;
        if want != 0 && look[v].iter().all(|&w| c[w] != want) {
            c[v] = want;
        }
    }
    let text: String = c.iter().map(|&x| ['.', 'L', 'R'][x as usize]).collect();
    Summand {
        term: format!("{term}:{text}"),
        file: None,
        look,
        kind: 0,
        start: c,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The outcome class of random sums of two or three summands agrees
    /// with who wins the disjunctive sum by brute force, and the reported
    /// winning moves win.
    #[test]
    fn outcomes_agree_with_a_brute_force_search(
        parts in proptest::collection::vec((0u8..4, 1usize..=5, any::<u64>(), any::<u64>()), 2..=3)
    ) {
        let parts: Vec<Summand> = parts
            .iter()
            .enumerate()
            .map(|(i, &(k, n, b, s))| summand(k, n, b, s, i))
            .collect();
        let files: BTreeMap<String, String> = parts
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.file.clone().map(|f| (format!("f{i}"), f)))
            .collect();
        let load = |name: &str| files.get(name).cloned().ok_or_else(|| name.to_string());
        let terms: Vec<&str> = parts.iter().map(|p| p.term.as_str()).collect();
        let r = sum(&terms, &Limits::default(), &load).unwrap();
        let start: Vec<Vec<u8>> = parts.iter().map(|p| p.start.clone()).collect();
        let mut memo = HashMap::new();
        let lf = wins(&parts, &start, true, &mut memo);
        let rf = wins(&parts, &start, false, &mut memo);
        let want = match (lf, rf) {
            (true, true) => "N",
            (true, false) => "L",
            (false, true) => "R",
            (false, false) => "P",
        };
        prop_assert_eq!(r.outcome.to_string(), want, "{:?}", terms);
        prop_assert_eq!(r.left_wins_by.is_some(), lf);
        prop_assert_eq!(r.right_wins_by.is_some(), rf);
        // The reported move wins: the sum after it is a loss for the opponent moving first.
        for (m, left) in [(&r.left_wins_by, true), (&r.right_wins_by, false)] {
            if let Some(m) = m {
                let mut after = terms.clone();
                after[m.summand] = &m.term;
                let a = sum(&after, &Limits::default(), &load).unwrap();
                prop_assert_eq!(&a.value, &m.value);
                let ok = if left { a.outcome.to_string() != "R" && a.outcome.to_string() != "N" }
                         else { a.outcome.to_string() != "L" && a.outcome.to_string() != "N" };
                prop_assert!(ok, "{:?} then {}: {}", terms, m.term, a.outcome);
            }
        }
    }

    /// *a + *b = *(a xor b) through UVG positions whose Grundy values the
    /// UVG solver gives.
    #[test]
    fn uvg_sums_are_nim_sums(
        parts in proptest::collection::vec((1usize..=7, any::<u64>(), any::<u64>()), 1..=4)
    ) {
        let mut terms = Vec::new();
        let mut x = 0u32;
        for &(n, bits, s) in &parts {
            let g6 = random_graph(n, bits);
            let s = (s % n as u64) as usize;
            let a = gamesweep::board::uvg::analyse(&g6, Some(s), None).unwrap();
            x ^= a.starts[0].grundy;
            terms.push(format!("uvg:{g6}@{s}"));
        }
        let t: Vec<&str> = terms.iter().map(String::as_str).collect();
        prop_assert_eq!(value(&t), gamesweep::uvg::position::nimber(x));
    }
}
