//! The exact search for the smallest UVG position of value `*k` one vertex
//! beyond a sweep: the case analysis and the finite search it reduces to.
//!
//! Notation: `g(G, s)` is the UVG value of token on `s` in `G` (see the
//! module [`crate::uvg`]). Let the sweep visit every connected graph on at
//! most `max_n` vertices and put `a = max_n + 1`. Premises, both read off the
//! same sweep:
//!
//! * (P1) no start of value `*(k−1)` on at most `a − 1 = max_n` vertices;
//! * (P2) no start of value `*(k−2)` on fewer than `a − 2 = max_n − 1`
//!   vertices.
//!
//! **Step 1.** A start `s` of value `*k` on `a + 1` vertices has an option of
//! value `*(k−1)`: a neighbour `u` whose component in `G − s` has value
//! `k − 1` from `u`. By (P1) that component has all `a` remaining vertices, so
//! `C = G − s` is connected and every option of `s` lives in `C`. Hence a `*k`
//! on `a + 1` vertices exists iff some connected `a`-vertex graph `C` has
//! starts of every value `0..=k−1` (join a new `s` to one start of each value:
//! its options are exactly those values, so its value is `k`; conversely the
//! options of `s` must cover `0..=k−1`).
//!
//! **Step 2.** Such a `C` has a start `u` with `g(C, u) = k − 1`, which has an
//! option of value `k − 2`: a neighbour `t` whose component `D` in `C − u`
//! gives `g(D, t) = k − 2`. By (P2) `|D| ≥ a − 2`; `C − u` has `a − 1`
//! vertices.
//!
//! * Case A, `|D| = a − 1 = max_n`: `C − u = D` is connected, all options of
//!   `u` are starts of `D`, so `D` (a connected `max_n`-vertex graph) has
//!   starts of every value `0..=k−2` and `u` is joined to a set `T ⊆ V(D)`
//!   whose `D`-values cover `0..=k−2`. Conversely such `(D, T)` gives
//!   `g(C, u) = k − 1` exactly: by (P1) no start of `D` has value `k − 1`.
//! * Case B, `|D| = a − 2 = max_n − 1`: `C − u = D + x` with `x` isolated, so
//!   `x` is a leaf of `C` on `u` (the option of value 0). `D` (a connected
//!   `(max_n − 1)`-vertex graph) has starts of every value `1..=k−2`, and `u`
//!   is joined to `x` and to a set `T ⊆ V(D)` whose `D`-values cover
//!   `1..=k−2`. Conversely, again `g(C, u) = k − 1` by (P1).
//!
//! **Step 3.** So every connected `a`-vertex `C` with a `*(k−1)` start is
//! built by case A or B from a graph `D` the sweep visits. [`search`] builds
//! every such `C` from one `D` and every admissible `T` (all of them: no
//! symmetry reduction), solves all its starts, and reports the `C`s whose
//! starts cover `0..=k−1` (hits). No hit over all `D`s, with (P1) and (P2),
//! proves the smallest `*k` has at least `a + 2` vertices.
//!
//! Checked by the tests below: for k = 4, 5, 6 (`max_n` = 5, 7, 9) the `C`s
//! built are, up to isomorphism, exactly the connected 6-, 8-, 10-vertex
//! graphs with a `*(k−1)` start (17, 331 and 22,515 graphs, from 1 + 3,
//! 15 + 12 and 387 + 263 graphs `D` in cases A + B and 34, 597 and 37,912
//! sets `T`), with no hit, as the known smallest `*4`, `*5`, `*6` (8, 10, 12
//! vertices) require.
//!
//! Pure: no I/O; meant to be called per graph from the `uvg` sweep kind.

use serde::{Deserialize, Serialize};

use crate::graph::{graph6, members, BitGraph, VSet};

use super::grundy_all;

/// Which case of the analysis a graph `D` feeds (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// `D` on `max_n` vertices, starts covering `0..=k−2`; `C = D + u`.
    A,
    /// `D` on `max_n − 1` vertices, starts covering `1..=k−2`; `C = D + u + x`.
    B,
}

/// Smallest `*k` candidate found: the `(a+1)`-vertex graph and its start.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hit {
    /// Number of edges (first key of the witness order).
    pub edges: usize,
    /// graph6 of the graph (second key).
    pub graph6: String,
    /// The start of value `*k` (third key).
    pub start: usize,
}

/// Figures of the search over some graphs `D`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// `D`s examined in case A.
    pub d_case_a: u64,
    /// `D`s examined in case B.
    pub d_case_b: u64,
    /// Sets `T` tried (= graphs `C` built and solved).
    pub t_sets: u64,
    /// `C`s built whose start `u` has value exactly `k − 1` (all of them when
    /// the premises hold).
    pub c_exact: u64,
    /// `C`s whose starts cover `0..=k−1`: each gives a `*k` on `a + 1`.
    pub hits: u64,
    /// The least hit in the witness order (edges, graph6, start).
    pub witness: Option<Hit>,
}

impl Stats {
    /// Adds another set of figures (the witness is the least of both).
    pub fn merge(&mut self, o: Stats) {
        self.d_case_a += o.d_case_a;
        self.d_case_b += o.d_case_b;
        self.t_sets += o.t_sets;
        self.c_exact += o.c_exact;
        self.hits += o.hits;
        self.witness = match (self.witness.take(), o.witness) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

/// Bit mask of the values `lo..=hi` (empty when `lo > hi`).
pub fn range_mask(lo: u8, hi: u8) -> u64 {
    (lo..=hi).fold(0, |m, v| m | 1u64 << v)
}

/// Bit mask of the values taken by `values` (values ≥ 64 ignored; they never
/// matter for `k ≤ 63`).
pub fn value_mask(values: &[u8]) -> u64 {
    values
        .iter()
        .filter(|&&v| v < 64)
        .fold(0, |m, &v| m | 1u64 << v)
}

/// The case a graph `d` with start values `values` feeds for target `k`
/// (`3 ≤ k ≤ 32`) and sweep bound `max_n` (≥ 3), or `None` if it feeds none.
pub fn case_of(k: u8, max_n: usize, d: &BitGraph, values: &[u8]) -> Option<Case> {
    CaseTest::new(k, max_n).case(d, value_mask(values))
}

/// [`case_of`] for one target `k` and bound `max_n`, with the value masks
/// each case needs worked out once (a sweep asks it of every graph on
/// `max_n − 1` and `max_n` vertices).
#[derive(Clone, Copy, Debug)]
pub struct CaseTest {
    max_n: usize,
    /// The values a graph D of case A must have (`0..=k−2`), and of case B
    /// (`1..=k−2`); `None` when no graph feeds a case (`k < 3` or
    /// `max_n < 3`).
    needs: Option<(u64, u64)>,
}

impl CaseTest {
    /// The test for target `k` and sweep bound `max_n`.
    pub fn new(k: u8, max_n: usize) -> Self {
        let needs = (k >= 3 && max_n >= 3).then(|| (range_mask(0, k - 2), range_mask(1, k - 2)));
        CaseTest { max_n, needs }
    }

    /// The case `d` feeds, given `have`, the mask of its start values
    /// (bit `v` for a start of value `v`).
    #[inline]
    pub fn case(&self, d: &BitGraph, have: u64) -> Option<Case> {
        let (a, b) = self.needs?;
        let n = d.n();
        let case = if n == self.max_n && have & a == a {
            Case::A
        } else if n + 1 == self.max_n && have & b == b {
            Case::B
        } else {
            return None;
        };
        d.is_connected().then_some(case)
    }
}

/// Do the premises hold? `has_value(n, v)` answers whether some connected
/// `n`-vertex graph has a start of value `v` (from the sweep's per-`n`
/// counts). Returns `(P1, P2)`: no `*(k−1)` on `1..=max_n` vertices, no
/// `*(k−2)` on `1..max_n − 1` vertices.
pub fn premises(k: u8, max_n: usize, has_value: &dyn Fn(usize, u8) -> bool) -> (bool, bool) {
    let p1 = (1..=max_n).all(|n| !has_value(n, k - 1));
    let p2 = (1..max_n.saturating_sub(1)).all(|n| !has_value(n, k - 2));
    (p1, p2)
}

/// The record of one graph `D` a reader needs to rerun the search:
/// `"GRAPH6 v0,v1,…"` (its graph6 and the value of each start).
pub fn record(d: &BitGraph, values: &[u8]) -> String {
    let vals: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("{} {}", graph6::encode_bitgraph(d), vals.join(","))
}

/// A record [`check_record`] refuses: the record and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("extension record {record:?}: {problem}")]
pub struct BadRecord {
    /// The record as given.
    pub record: String,
    /// What is wrong with it.
    pub problem: String,
}

/// Checks a record from [`record`]: parses it, re-solves `D` and checks the
/// values and that `D` feeds a case for `k`, `max_n`. One-line error.
pub fn check_record(k: u8, max_n: usize, rec: &str) -> Result<(BitGraph, Case), BadRecord> {
    let bad = |problem: String| BadRecord {
        record: rec.to_string(),
        problem,
    };
    let (g6, vals) = rec
        .split_once(' ')
        .ok_or_else(|| bad("expected \"GRAPH6 VALUES\"".into()))?;
    let d = graph6::parse_bitgraph(g6).map_err(|e| bad(e.to_string()))?;
    let claimed: Vec<u8> = vals
        .split(',')
        .map(|v| v.parse::<u8>())
        .collect::<Result<_, _>>()
        .map_err(|e| bad(e.to_string()))?;
    let actual = grundy_all(&d);
    if claimed != actual {
        return Err(bad(format!("start values are {actual:?}")));
    }
    let case = case_of(k, max_n, &d, &actual)
        .ok_or_else(|| bad(format!("feeds no case for k={k}, max_n={max_n}")))?;
    Ok((d, case))
}

/// The number of sets `T` [`search`] tries for `d` (start values `values`)
/// in `case`: the non-empty subsets whose values cover the case's range.
pub fn admissible_sets(k: u8, case: Case, values: &[u8]) -> u64 {
    let need = match case {
        Case::A => range_mask(0, k - 2),
        Case::B => range_mask(1, k - 2),
    };
    let n = values.len();
    (1..1u64 << n)
        .filter(|&t| {
            members(t as VSet).fold(0u64, |m, v| m | 1u64 << values[v].min(63)) & need == need
        })
        .count() as u64
}

/// Runs the search from one graph `d` (its start values `values`, as from
/// [`grundy_all`]) in case `case` for target `k`: every admissible `T`, every
/// `C` built and solved. `on_c(c, c_values)` sees each `C` (tests compare the
/// set of `C`s with an exhaustive enumeration). `d` must have at most 29
/// vertices (so `C` and `C + s` fit a [`BitGraph`]).
pub fn search(
    k: u8,
    case: Case,
    d: &BitGraph,
    values: &[u8],
    on_c: &mut dyn FnMut(&BitGraph, &[u8]),
) -> Stats {
    let n = d.n();
    let mut st = Stats::default();
    match case {
        Case::A => st.d_case_a = 1,
        Case::B => st.d_case_b = 1,
    }
    let need = match case {
        Case::A => range_mask(0, k - 2),
        Case::B => range_mask(1, k - 2),
    };
    let goal = range_mask(0, k - 1);
    let full: u64 = (1u64 << n) - 1;
    for t in 1..=full {
        let t = t as VSet;
        let have = members(t).fold(0u64, |m, v| m | 1u64 << values[v].min(63));
        if have & need != need {
            continue;
        }
        let mut c = *d;
        let u = c.push_vertex(t);
        if case == Case::B {
            c.push_vertex(1 << u);
        }
        let cv = grundy_all(&c);
        st.t_sets += 1;
        if cv[u] == k - 1 {
            st.c_exact += 1;
        }
        if value_mask(&cv) & goal == goal {
            st.hits += 1;
            let hit = join_one_of_each(&c, &cv, k);
            if st.witness.as_ref().is_none_or(|w| hit < *w) {
                st.witness = Some(hit);
            }
        }
        on_c(&c, &cv);
    }
    st
}

/// `C + s` with `s` joined to the least start of each value `0..=k−1`
/// (`cv`: the start values of `C`, which must take each of them), so
/// that `s` has value `k`.
pub fn join_one_of_each(c: &BitGraph, cv: &[u8], k: u8) -> Hit {
    let mut nb: VSet = 0;
    for want in 0..k {
        if let Some(v) = cv.iter().position(|&x| x == want) {
            nb |= 1 << v;
        }
    }
    let mut g = *c;
    let s = g.push_vertex(nb);
    Hit {
        edges: g.edge_count(),
        graph6: graph6::encode_bitgraph(&g),
        start: s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{self, canon::canonical_form, WalkOptions};
    use std::collections::BTreeSet;

    fn key(g: &BitGraph) -> String {
        graph6::encode_bitgraph(&canonical_form(g))
    }

    /// Runs the search for `k` with `max_n` over every connected graph the
    /// generator gives; returns the figures and the canonical `C`s built.
    fn run(k: u8, max_n: usize) -> (Stats, BTreeSet<String>) {
        let mut st = Stats::default();
        let mut cs = BTreeSet::new();
        let opts = WalkOptions {
            connected_only: true,
            min_n: max_n - 1,
        };
        gen::walk_filtered(&BitGraph::new(0), max_n, opts, &mut |d| {
            let vals = grundy_all(d);
            if let Some(case) = case_of(k, max_n, d, &vals) {
                st.merge(search(k, case, d, &vals, &mut |c, _| {
                    cs.insert(key(c));
                }));
            }
        });
        (st, cs)
    }

    /// Every connected `a`-vertex graph with a start of value `k − 1`.
    fn exhaustive(k: u8, a: usize) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let opts = WalkOptions {
            connected_only: true,
            min_n: a,
        };
        gen::walk_filtered(&BitGraph::new(0), a, opts, &mut |c| {
            if grundy_all(c).contains(&(k - 1)) {
                out.insert(key(c));
            }
        });
        out
    }

    #[test]
    fn premises_and_records() {
        // Smallest *v by vertex count (runs/uvg, runs/uvg-n10).
        let smallest = |v: u8| match v {
            0 => 1,
            1 => 2,
            2 => 4,
            3 => 6,
            4 => 8,
            5 => 10,
            _ => 12,
        };
        let has = |n: usize, v: u8| n >= smallest(v);
        assert_eq!(premises(5, 7, &has), (true, true));
        assert_eq!(premises(5, 8, &has), (false, false));
        assert_eq!(premises(7, 11, &has), (true, true));
        assert_eq!(premises(7, 12, &has), (false, false));
        assert_eq!(premises(5, 6, &has), (true, true));
        assert_eq!(premises(6, 10, &has), (false, false));
        assert_eq!(premises(6, 9, &has), (true, true));
        let d = BitGraph::from_edges(3, &[(0, 1), (1, 2)]);
        let vals = grundy_all(&d);
        let rec = record(&d, &vals);
        assert_eq!(rec, format!("{} 0,1,0", graph6::encode_bitgraph(&d)));
        assert_eq!(check_record(3, 3, &rec), Ok((d, Case::A)));
        assert_eq!(check_record(3, 4, &rec), Ok((d, Case::B)));
        let bad = rec.replace("0,1,0", "1,1,0");
        assert!(check_record(3, 3, &bad).is_err());
        assert!(check_record(3, 3, "garbage").is_err());
        assert!(check_record(3, 3, "B? x").is_err());
        assert!(check_record(3, 5, &rec).is_err());
    }

    #[test]
    fn k4_builds_exactly_the_star3_graphs_on_6_and_no_hit() {
        let (st, cs) = run(4, 5);
        eprintln!("k=4: {st:?}, distinct C {}", cs.len());
        assert_eq!(cs, exhaustive(4, 6));
        assert!(!cs.is_empty());
        assert_eq!(st.hits, 0);
        assert_eq!(st.c_exact, st.t_sets);
        assert!(st.d_case_a > 0 && st.d_case_b > 0);
    }

    #[test]
    fn k5_builds_exactly_the_star4_graphs_on_8_and_no_hit() {
        let (st, cs) = run(5, 7);
        eprintln!("k=5: {st:?}, distinct C {}", cs.len());
        assert_eq!(cs, exhaustive(5, 8));
        assert_eq!(st.hits, 0);
        assert_eq!(st.c_exact, st.t_sets);
    }

    /// A known `*4` on 8 vertices: k = 4 one step too late (max_n = 6, where
    /// (P1) fails since *3 exists on 6) must find hits, and every witness
    /// must really have value 4.
    #[test]
    fn wrong_premise_finds_hits_that_check() {
        let (st, _) = run(4, 6);
        assert!(st.hits > 0);
        let w = st.witness.expect("witness");
        let g = graph6::parse_bitgraph(&w.graph6).expect("graph6");
        assert_eq!(g.n(), 8);
        assert_eq!(grundy_all(&g)[w.start], 4);
        assert_eq!(g.edge_count(), w.edges);
    }

    /// k = 6 (a = 10): the `C`s built are exactly the distinct graphs of the
    /// committed list of *5 positions on 10 vertices (about 2 s in release).
    #[test]
    fn k6_builds_exactly_the_star5_graphs_on_10_and_no_hit() {
        let (st, cs) = run(6, 9);
        let list = include_str!("../../../runs/uvg-n10/collected-min-value-5.txt");
        let mut want = BTreeSet::new();
        for line in list.lines().filter(|l| !l.trim().is_empty()) {
            let g6 = line.split_whitespace().next().expect("graph6");
            want.insert(key(&graph6::parse_bitgraph(g6).expect("graph6")));
        }
        assert_eq!(cs, want);
        assert_eq!(st.hits, 0);
        eprintln!("k=6: {st:?}, distinct C {}", cs.len());
    }
}
