//! The graphs a layered game is played on: [`Graph`] (undirected, or a
//! digraph for directed games), the class a sweep covers ([`Class`], the
//! `gamesweep graphs` switches as sweep parameters), the walk over a shard
//! of that class, and the order of each graph's automorphism group
//! ([`aut_order`]), which weights it `n!/|Aut(G)|` in the labelled counts.

use crate::gen::canon::automorphism_generators;
use crate::gen::{self, WalkOptions};
use crate::graph::{graph6, members, BitGraph, VSet};
use crate::sweep::graphplan::{self, Walk};
use serde::{Deserialize, Serialize};

/// A graph or digraph on at most 32 vertices, as a game sees it: `nbrs(v)`
/// are the out-neighbours of `v` (all neighbours in an undirected graph).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    n: usize,
    out: [VSet; 32],
    directed: bool,
}

impl Graph {
    /// An undirected graph.
    pub fn undirected(g: &BitGraph) -> Graph {
        let mut out = [0; 32];
        out[..g.n()].copy_from_slice(g.rows());
        Graph {
            n: g.n(),
            out,
            directed: false,
        }
    }
    /// A digraph on `n` vertices with these arcs (no loops; `n <= 32`).
    pub fn digraph(n: usize, arcs: &[(usize, usize)]) -> Graph {
        let mut out = [0; 32];
        for &(u, v) in arcs {
            if u != v {
                out[u] |= 1 << v;
            }
        }
        Graph {
            n,
            out,
            directed: true,
        }
    }
    /// Number of vertices.
    pub fn n(&self) -> usize {
        self.n
    }
    /// Every vertex.
    pub fn all(&self) -> VSet {
        if self.n == 32 {
            VSet::MAX
        } else {
            (1 << self.n) - 1
        }
    }
    /// Is this a digraph?
    pub fn directed(&self) -> bool {
        self.directed
    }
    /// The (out-)neighbours of `v`.
    pub fn nbrs(&self, v: usize) -> VSet {
        self.out[v]
    }
    /// The in-neighbours of `v` (the neighbours, undirected).
    pub fn ins(&self, v: usize) -> VSet {
        (0..self.n)
            .filter(|&u| self.out[u] >> v & 1 == 1)
            .fold(0, |s, u| s | 1 << u)
    }
    /// Is there an edge (arc) from `u` to `v`?
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        self.out[u] >> v & 1 == 1
    }
    /// The edges `(u, v)`, `u < v` (undirected), or the arcs, in order.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for u in 0..self.n {
            for v in members(self.out[u]) {
                if self.directed || u < v {
                    out.push((u, v));
                }
            }
        }
        out
    }
    /// Number of edges (arcs).
    pub fn edge_count(&self) -> usize {
        self.edges().len()
    }
    /// graph6, or digraph6 for a digraph.
    pub fn code(&self) -> String {
        if self.directed {
            graph6::encode_digraph_with(self.n, |i, j| self.has_edge(i, j))
        } else {
            graph6::encode_with(self.n, |i, j| self.has_edge(i, j))
        }
    }
    /// Read graph6 (or sparse6), or digraph6 if `directed`.
    pub fn parse(code: &str, directed: bool) -> Result<Graph, String> {
        if directed {
            let (n, arcs) = graph6::decode_digraph(code).map_err(|e| e.to_string())?;
            if n > 32 {
                return Err(format!("{n} vertices, at most 32"));
            }
            if arcs.iter().any(|&(u, v)| u == v) {
                return Err("a loop; games are played on loop-free digraphs".into());
            }
            Ok(Graph::digraph(n, &arcs))
        } else {
            let g = graph6::parse_bitgraph(code).map_err(|e| e.to_string())?;
            Ok(Graph::undirected(&g))
        }
    }
    /// The undirected graph underneath (arcs read both ways).
    pub fn underlying(&self) -> BitGraph {
        let mut g = BitGraph::new(self.n);
        for (u, v) in self.edges() {
            if u != v && !g.has_edge(u, v) {
                g.add_edge(u, v);
            }
        }
        g
    }
}

/// The graph class of a sweep: the switches of `gamesweep graphs` (geng's
/// `-c -b -t -f -d# -D#` and `MINE:MAXE`), plus trees, as sweep parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Class {
    /// Largest number of vertices.
    pub max_n: usize,
    /// Smallest number of vertices.
    pub min_n: usize,
    /// 1: connected graphs only (weakly connected digraphs); 0: all graphs.
    pub connected: u64,
    /// 1: trees only.
    pub trees: u64,
    /// 1: bipartite graphs only.
    pub bipartite: u64,
    /// 1: triangle-free graphs only.
    pub triangle_free: u64,
    /// 1: graphs without a 4-cycle only.
    pub square_free: u64,
    /// Least minimum degree (undirected: degree; digraphs: in + out).
    pub min_degree: u64,
    /// Largest maximum degree.
    pub max_degree: u64,
    /// Fewest edges (arcs).
    pub min_edges: u64,
    /// Most edges (arcs).
    pub max_edges: u64,
}

/// The largest value of `max_degree` and `max_edges`: no bound.
pub const UNBOUNDED_DEGREE: u64 = 62;
/// No bound on the edges.
pub const UNBOUNDED_EDGES: u64 = 992;

impl Class {
    /// The graphs on 1..=`max_n` vertices (only the connected ones if
    /// `connected`), with no other bound: the parameters' defaults.
    pub fn up_to(max_n: usize, connected: bool) -> Class {
        Class {
            max_n,
            min_n: 1,
            connected: u64::from(connected),
            trees: 0,
            bipartite: 0,
            triangle_free: 0,
            square_free: 0,
            min_degree: 0,
            max_degree: UNBOUNDED_DEGREE,
            min_edges: 0,
            max_edges: UNBOUNDED_EDGES,
        }
    }

    /// One-line check of the class for a game on digraphs or graphs: the
    /// error names the parameter.
    pub fn check(&self, directed: bool, max_n: usize) -> Result<(), String> {
        if self.min_n > self.max_n {
            return Err(format!(
                "--min-n {} is above --max-n {}",
                self.min_n, self.max_n
            ));
        }
        if self.max_n > max_n {
            return Err(format!(
                "--max-n {} is above this game's largest, {max_n}",
                self.max_n
            ));
        }
        for (name, v) in [
            ("connected", self.connected),
            ("trees", self.trees),
            ("bipartite", self.bipartite),
            ("triangle-free", self.triangle_free),
            ("square-free", self.square_free),
        ] {
            if v > 1 {
                return Err(format!("--{name} is a flag (0 or 1), got {v}"));
            }
            if directed && v == 1 && name != "connected" {
                return Err(format!(
                    "--{name} is a class of undirected graphs; this game is played on digraphs"
                ));
            }
        }
        if self.min_degree > self.max_degree {
            return Err(format!(
                "--min-degree {} is above --max-degree {}",
                self.min_degree, self.max_degree
            ));
        }
        if self.min_edges > self.max_edges {
            return Err(format!(
                "--min-edges {} is above --max-edges {}",
                self.min_edges, self.max_edges
            ));
        }
        Ok(())
    }

    /// The class in words: "connected bipartite graphs on 1..=8 vertices".
    pub fn describe(&self, directed: bool) -> String {
        let mut words = Vec::new();
        if self.connected == 1 && self.trees == 0 {
            words.push(if directed {
                "weakly connected"
            } else {
                "connected"
            });
        }
        for (on, w) in [
            (self.bipartite, "bipartite"),
            (self.triangle_free, "triangle-free"),
            (self.square_free, "4-cycle-free"),
        ] {
            if on == 1 {
                words.push(w);
            }
        }
        let noun = match (self.trees == 1, directed) {
            (true, _) => "trees",
            (false, true) => "digraphs",
            (false, false) => "graphs",
        };
        let mut s = format!(
            "{}{noun} on {}..={} vertices",
            words.iter().map(|w| format!("{w} ")).collect::<String>(),
            self.min_n,
            self.max_n
        );
        if self.min_degree > 0 || self.max_degree < UNBOUNDED_DEGREE {
            s.push_str(&format!(
                ", degrees {}..={}",
                self.min_degree, self.max_degree
            ));
        }
        if self.min_edges > 0 || self.max_edges < UNBOUNDED_EDGES {
            s.push_str(&format!(", {}..={} edges", self.min_edges, self.max_edges));
        }
        s
    }

    /// Does `g` (already of the right size and connectivity) belong?
    pub fn admits(&self, g: &Graph) -> bool {
        let n = g.n();
        if n < self.min_n || n > self.max_n {
            return false;
        }
        let e = g.edge_count() as u64;
        if e < self.min_edges || e > self.max_edges {
            return false;
        }
        let u = g.underlying();
        let degree = |v: usize| {
            if g.directed() {
                u64::from(g.nbrs(v).count_ones() + g.ins(v).count_ones())
            } else {
                u64::from(u.degree(v))
            }
        };
        if (0..n).any(|v| !(self.min_degree..=self.max_degree).contains(&degree(v))) {
            return false;
        }
        if self.connected == 1 && n > 0 && !u.is_connected() {
            return false;
        }
        if self.trees == 1 && (!u.is_connected() || e + 1 != n as u64) {
            return false;
        }
        (self.bipartite == 0 || is_bipartite(&u))
            && (self.triangle_free == 0 || triangle_free(&u))
            && (self.square_free == 0 || square_free(&u))
    }

    /// Only connected graphs are walked (trees are connected too).
    pub fn connected_only(&self) -> bool {
        self.connected == 1 || self.trees == 1
    }
}

/// Two-colourable?
pub fn is_bipartite(g: &BitGraph) -> bool {
    let mut side: VSet = 0;
    let mut seen: VSet = 0;
    for s in 0..g.n() {
        if seen >> s & 1 == 1 {
            continue;
        }
        seen |= 1 << s;
        let mut stack = vec![s];
        while let Some(v) = stack.pop() {
            let mine = side >> v & 1;
            for w in members(g.nbrs(v)) {
                if seen >> w & 1 == 0 {
                    seen |= 1 << w;
                    side |= (mine ^ 1) << w;
                    stack.push(w);
                } else if side >> w & 1 == mine {
                    return false;
                }
            }
        }
    }
    true
}

/// No triangle?
pub fn triangle_free(g: &BitGraph) -> bool {
    g.edges().all(|(u, v)| g.nbrs(u) & g.nbrs(v) == 0)
}

/// No 4-cycle (induced or not)?
pub fn square_free(g: &BitGraph) -> bool {
    (0..g.n()).all(|u| (u + 1..g.n()).all(|v| (g.nbrs(u) & g.nbrs(v)).count_ones() < 2))
}

/// Visit every undirected graph of the shard with `1..=max_n` vertices,
/// connected ones only if `connected_only` (the walk of
/// [`graphplan::walk_connected`], which this is for connected graphs).
pub fn walk_graphs(
    shard: &Walk,
    max_n: usize,
    connected_only: bool,
    visit: &mut dyn FnMut(&BitGraph),
) {
    if connected_only {
        return graphplan::walk_connected(shard, max_n, visit);
    }
    // All graphs: the same plan's tree, nothing pruned to connected ones.
    let opts = WalkOptions {
        connected_only: false,
        min_n: 1,
    };
    let mut shown = |g: &BitGraph, shown: bool| {
        if shown {
            visit(g)
        }
    };
    match shard {
        Walk::Top { depth } => {
            gen::walk_nodes(&BitGraph::new(0), (*depth - 1).min(max_n), opts, &mut shown)
        }
        Walk::Prefixes(ps) => {
            for p in ps {
                gen::walk_nodes(p, max_n, opts, &mut shown);
            }
        }
        Walk::Split(cuts) => {
            gen::walk_nodes_split(&BitGraph::new(0), max_n, opts, cuts, &mut |g, s| {
                let mine = cuts.iter().all(|c| c.level <= g.n() || c.res == 0);
                shown(g, s && mine)
            })
        }
    }
}

/// `n!`.
pub fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

/// The order of the group generated by `gens` (permutations of `0..n`,
/// `p[v]` the image of `v`), by Schreier–Sims: a base `0, 1, …, n − 1`, at
/// each level the orbit of the base point under the stabiliser of the
/// points before it (a transversal), Schreier generators sifted down; the
/// order is the product of the orbit lengths (orbit–stabiliser).
pub fn group_order(n: usize, gens: &[Vec<usize>]) -> u64 {
    struct Chain {
        n: usize,
        gens: Vec<Vec<Vec<usize>>>,
        trans: Vec<Vec<Option<Vec<usize>>>>,
    }
    fn compose(a: &[usize], b: &[usize]) -> Vec<usize> {
        b.iter().map(|&x| a[x]).collect()
    }
    fn inverse(a: &[usize]) -> Vec<usize> {
        let mut out = vec![0; a.len()];
        for (i, &x) in a.iter().enumerate() {
            out[x] = i;
        }
        out
    }
    impl Chain {
        /// `g` reduced through the levels from `i` on: `None` if it sifts
        /// to the identity, else the level where it stopped and the residue.
        fn sift(&self, mut g: Vec<usize>, from: usize) -> Option<(usize, Vec<usize>)> {
            for i in from..self.n {
                match &self.trans[i][g[i]] {
                    Some(u) => g = compose(&inverse(u), &g),
                    None => return Some((i, g)),
                }
            }
            None
        }
        /// Add `g` (fixing `0..i`) as a strong generator at level `i`:
        /// it belongs to every stabiliser `G_l`, `l <= i`, so the levels
        /// `i, i − 1, …, 0` are closed again.
        fn extend(&mut self, i: usize, g: Vec<usize>) {
            self.gens[i].push(g);
            for l in (0..=i).rev() {
                self.close(l);
            }
        }
        /// Close level `l`: the orbit of `l` under every strong generator
        /// fixing `0..l` (those of levels `l..`), each Schreier generator
        /// sifted and, if it does not sift through, added below.
        fn close(&mut self, l: usize) {
            loop {
                let mut changed = false;
                let gens: Vec<Vec<usize>> = self.gens[l..].concat();
                let points: Vec<usize> = (0..self.n)
                    .filter(|&p| self.trans[l][p].is_some())
                    .collect();
                for p in points {
                    let t = self.trans[l][p].clone().expect("in the orbit");
                    for s in &gens {
                        let h = compose(s, &t);
                        let q = h[l];
                        match &self.trans[l][q] {
                            None => {
                                self.trans[l][q] = Some(h);
                                changed = true;
                            }
                            Some(u) => {
                                let schreier = compose(&inverse(u), &h);
                                if let Some((j, r)) = self.sift(schreier, l + 1) {
                                    self.extend(j, r);
                                    changed = true;
                                }
                            }
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
        }
    }
    let id: Vec<usize> = (0..n).collect();
    let mut c = Chain {
        n,
        gens: vec![Vec::new(); n],
        trans: (0..n)
            .map(|i| {
                let mut t = vec![None; n];
                t[i] = Some(id.clone());
                t
            })
            .collect(),
    };
    for g in gens {
        if let Some((j, r)) = c.sift(g.clone(), 0) {
            c.extend(j, r);
        }
    }
    c.trans
        .iter()
        .map(|t| t.iter().filter(|x| x.is_some()).count() as u64)
        .product()
}

/// |Aut(g)|: from the generators the canonical labelling finds
/// ([`automorphism_generators`]).
pub fn aut_order(g: &BitGraph) -> u64 {
    group_order(g.n(), &automorphism_generators(g))
}

// ------------------------------------------------------------ digraphs

/// Largest digraph the digraph walk takes: every labelled digraph of `n`
/// vertices is tested for canonicity (4^(n(n−1)/2) of them: a million at 5).
pub const MAX_DIGRAPH_N: usize = 5;

/// Labelled digraphs on `n` vertices: `4^(n(n−1)/2)`.
pub fn digraph_codes(n: usize) -> u64 {
    1u64 << (n * n.saturating_sub(1))
}

/// The arcs of labelled digraph number `code` (a base-4 digit per pair
/// `i < j` in graph6 column order: 0 none, 1 `i → j`, 2 `j → i`, 3 both).
pub fn digraph_of(n: usize, code: u64) -> Graph {
    let mut out = [0u32; 32];
    let mut c = code;
    for j in 1..n {
        for i in 0..j {
            let d = c & 3;
            c >>= 2;
            if d & 1 == 1 {
                out[i] |= 1 << j;
            }
            if d & 2 == 2 {
                out[j] |= 1 << i;
            }
        }
    }
    Graph {
        n,
        out,
        directed: true,
    }
}

/// The labelled code of a digraph ([`digraph_of`]'s inverse).
pub fn code_of(g: &Graph) -> u64 {
    let id: Vec<usize> = (0..g.n).collect();
    code_under(g, &id)
}

/// The code of a digraph ([`digraph_of`]'s inverse) with its vertices renamed by `perm`.
fn code_under(g: &Graph, perm: &[usize]) -> u64 {
    let n = g.n;
    let mut inv = [0usize; 32];
    for (v, &p) in perm.iter().enumerate() {
        inv[p] = v;
    }
    let mut code = 0u64;
    let mut shift = 0;
    for j in 1..n {
        for i in 0..j {
            let (a, b) = (inv[i], inv[j]);
            let d = u64::from(g.has_edge(a, b)) | u64::from(g.has_edge(b, a)) << 1;
            code |= d << shift;
            shift += 2;
        }
    }
    code
}

/// Every permutation of `0..n` (n ≤ [`MAX_DIGRAPH_N`]), identity first.
pub fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut out = vec![(0..n).collect::<Vec<usize>>()];
    let mut p: Vec<usize> = (0..n).collect();
    loop {
        let Some(i) = (1..n).rev().find(|&i| p[i - 1] < p[i]) else {
            return out;
        };
        let j = (i..n)
            .rev()
            .find(|&j| p[j] > p[i - 1])
            .expect("a larger one");
        p.swap(i - 1, j);
        p[i..].reverse();
        out.push(p.clone());
    }
}

/// If labelled digraph `code` is the canonical one of its class (the least
/// code among its relabellings): `Some(|Aut|)`, else `None`.
pub fn canonical_digraph(n: usize, code: u64, perms: &[Vec<usize>]) -> Option<u64> {
    let g = digraph_of(n, code);
    let mut aut = 0;
    for p in perms {
        let c = code_under(&g, p);
        if c < code {
            return None;
        }
        aut += u64::from(c == code);
    }
    Some(aut)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// |Aut| by orbit–stabiliser over the canonical labelling's generators
    /// agrees with brute force (every permutation) on every graph of up to
    /// 6 vertices, and the weights n!/|Aut| add up to the 2^(n(n−1)/2)
    /// labelled graphs.
    #[test]
    fn aut_order_is_brute_force() {
        for n in 1..=6 {
            let perms = permutations(n);
            let mut labelled = 0u64;
            gen::walk_filtered(
                &BitGraph::new(0),
                n,
                WalkOptions {
                    connected_only: false,
                    min_n: n,
                },
                &mut |g| {
                    let brute = perms.iter().filter(|p| g.permuted(p) == *g).count() as u64;
                    assert_eq!(aut_order(g), brute, "{g:?}");
                    labelled += factorial(n) / brute;
                },
            );
            assert_eq!(labelled, 1 << (n * (n - 1) / 2), "n = {n}");
        }
        // K7: 5040; a 7-cycle: 14; the Petersen graph: 120.
        let k7 = BitGraph::from_edges(
            7,
            &(0..7)
                .flat_map(|i| (i + 1..7).map(move |j| (i, j)))
                .collect::<Vec<_>>(),
        );
        assert_eq!(aut_order(&k7), 5040);
        let c7 = BitGraph::from_edges(7, &(0..7).map(|i| (i, (i + 1) % 7)).collect::<Vec<_>>());
        assert_eq!(aut_order(&c7), 14);
        let petersen = graph6::parse_bitgraph("IheA@GUAo").unwrap();
        assert_eq!(aut_order(&petersen), 120);
    }

    /// Canonical digraphs: 1, 3, 16, 218 classes on 1..=4 vertices (OEIS
    /// A000273), and their weights add up to the labelled digraphs.
    #[test]
    fn digraph_classes() {
        for (n, want) in [(1, 1), (2, 3), (3, 16), (4, 218)] {
            let perms = permutations(n);
            let (mut classes, mut labelled) = (0, 0);
            for code in 0..digraph_codes(n) {
                if let Some(aut) = canonical_digraph(n, code, &perms) {
                    classes += 1;
                    labelled += factorial(n) / aut;
                }
            }
            assert_eq!((classes, labelled), (want, digraph_codes(n)), "n = {n}");
        }
    }
}
