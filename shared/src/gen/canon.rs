//! Canonical labelling and automorphism groups of [`BitGraph`]s (n ≤ 32) by
//! partition refinement and individualisation search, in the style of nauty.
//!
//! Everything here works on `u32` vertex sets: a cell of an ordered partition
//! is a [`VSet`], splitting a cell by a splitter `W` counts `|N(x) ∩ W|` with
//! one `popcount` per vertex. The search tree is pruned with the automorphisms
//! it finds (orbit pruning at every node, and the jump back to the common
//! ancestor when a leaf is equivalent to the first or the best leaf), which
//! keeps highly symmetric graphs (empty, complete, …) polynomial.
//!
//! ```
//! use gamesweep::graph::BitGraph;
//! use gamesweep::gen::canon::canonical_form;
//! let a = BitGraph::from_edges(4, &[(0, 1), (1, 2), (2, 3)]);
//! let b = BitGraph::from_edges(4, &[(2, 0), (0, 3), (3, 1)]);
//! assert_eq!(canonical_form(&a), canonical_form(&b));
//! ```

// Index loops over `0..n` read best in permutation code.
#![allow(clippy::needless_range_loop)]

use crate::graph::{BitGraph, VSet};

/// A permutation of the vertices `0..n`, stored in a fixed array: `p[v]` is the
/// image of `v`; entries at `n..32` are unused.
pub type Perm = [u8; 32];

/// An ordered partition of the vertex set: `cells[..len]`, disjoint, non-empty.
#[derive(Clone, Copy)]
pub(crate) struct Part {
    pub(crate) cells: [VSet; 32],
    pub(crate) len: usize,
}

impl Part {
    /// From a list of cells in order; empty cells are dropped.
    pub(crate) fn new(cells: &[VSet]) -> Self {
        let mut p = Part {
            cells: [0; 32],
            len: 0,
        };
        for &c in cells {
            if c != 0 {
                p.cells[p.len] = c;
                p.len += 1;
            }
        }
        p
    }

    /// Set of the lowest vertices of all cells (used to queue every cell).
    pub(crate) fn all_lowbits(&self) -> u32 {
        self.cells[..self.len].iter().fold(0, |a, &c| a | lowbit(c))
    }
}

#[inline(always)]
fn lowbit(x: u32) -> u32 {
    x & x.wrapping_neg()
}

/// Refine `p` to the coarsest equitable ordered partition finer than it.
///
/// `inq` is the splitter queue, represented by the lowest vertex of each queued
/// cell (cells are disjoint, so that identifies them). The next splitter is the
/// first queued cell in partition order and fragments replace their cell in
/// place, ordered by ascending count, so the result is an isomorphism-invariant
/// function of (graph, p): relabelling the input relabels the output.
#[inline]
pub(crate) fn refine(adj: &[VSet; 32], n: usize, p: &mut Part, inq: u32) {
    refine_watch(adj, n, p, inq, 0);
}

/// [`refine`], but with `watch != 0` it stops as soon as the first cell is
/// decided: it no longer meets `watch`, or equals it (cells only ever split,
/// so that answer is final). Returns `true` if it stopped early.
pub(crate) fn refine_watch(
    adj: &[VSet; 32],
    n: usize,
    p: &mut Part,
    mut inq: u32,
    watch: u32,
) -> bool {
    while inq != 0 && p.len < n {
        let mut wi = 0;
        while p.cells[wi] & inq == 0 {
            wi += 1;
        }
        let w = p.cells[wi];
        inq &= !lowbit(w);
        let mut i = 0;
        if w & (w - 1) == 0 {
            // Singleton splitter: counts are 0/1, one AND per cell.
            let nb = adj[w.trailing_zeros() as usize];
            while i < p.len {
                let x = p.cells[i];
                let a = x & !nb;
                let b = x & nb;
                if a == 0 || b == 0 {
                    i += 1;
                    continue;
                }
                p.cells.copy_within(i + 1..p.len, i + 2);
                p.cells[i] = a;
                p.cells[i + 1] = b;
                p.len += 1;
                i += 2;
                if inq & lowbit(x) != 0 {
                    inq |= lowbit(a) | lowbit(b);
                } else if a.count_ones() >= b.count_ones() {
                    inq |= lowbit(b);
                } else {
                    inq |= lowbit(a);
                }
            }
        } else {
            while i < p.len {
                let x = p.cells[i];
                if x & (x - 1) == 0 {
                    i += 1;
                    continue;
                }
                // Fast path: all counts equal (the usual case).
                let v0 = x.trailing_zeros() as usize;
                let c0 = (adj[v0] & w).count_ones();
                let mut rest = x & (x - 1);
                let mut uniform = true;
                while rest != 0 {
                    let v = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if (adj[v] & w).count_ones() != c0 {
                        uniform = false;
                        break;
                    }
                }
                if uniform {
                    i += 1;
                    continue;
                }
                let mut bk = [0u32; 33];
                let mut seen: u64 = 0;
                let mut s = x;
                while s != 0 {
                    let v = s.trailing_zeros() as usize;
                    s &= s - 1;
                    let c = (adj[v] & w).count_ones() as usize;
                    bk[c] |= 1 << v;
                    seen |= 1 << c;
                }
                let k = seen.count_ones() as usize;
                p.cells.copy_within(i + 1..p.len, i + k);
                p.len += k - 1;
                let queued = inq & lowbit(x) != 0;
                let mut big = 0usize;
                let mut bigsize = 0u32;
                let mut j = i;
                let mut s = seen;
                while s != 0 {
                    let c = s.trailing_zeros() as usize;
                    s &= s - 1;
                    let f = bk[c];
                    let sz = f.count_ones();
                    if sz > bigsize {
                        bigsize = sz;
                        big = j;
                    }
                    p.cells[j] = f;
                    j += 1;
                }
                for jj in i..i + k {
                    if queued || jj != big {
                        inq |= lowbit(p.cells[jj]);
                    }
                }
                i += k;
            }
        }
        if watch != 0 {
            let c0 = p.cells[0];
            if c0 & watch == 0 || c0 == watch {
                return true;
            }
        }
    }
    false
}

/// Result of a canonical-labelling search.
pub(crate) struct CanonOut {
    /// Canonical labelling: position `i` of the canonical form is vertex `lab[i]`.
    pub(crate) lab: Perm,
    /// Generators of the automorphism group of (graph, initial partition).
    pub(crate) gens: Vec<Perm>,
}

struct Search<'a> {
    adj: &'a [VSet; 32],
    n: usize,
    have_first: bool,
    first_lab: Perm,
    first_rows: [u32; 32],
    first_path: [u8; 32],
    best_lab: Perm,
    best_rows: [u32; 32],
    best_path: [u8; 32],
    gens: Vec<Perm>,
    /// Fixed-point sets of `gens` (bit `v` set ⇔ `g[v] == v`).
    fixed: Vec<u32>,
}

#[inline]
fn leaf_rows(adj: &[VSet; 32], n: usize, lab: &Perm) -> [u32; 32] {
    let mut inv = [0u8; 32];
    for i in 0..n {
        inv[lab[i] as usize] = i as u8;
    }
    let mut rows = [0u32; 32];
    for i in 0..n {
        let mut s = adj[lab[i] as usize];
        let mut r = 0u32;
        while s != 0 {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            r |= 1 << inv[v];
        }
        rows[i] = r;
    }
    rows
}

/// `leaf_rows(adj, n, lab) == rows` on the first `n` rows, stopping at the
/// first difference.
#[inline]
fn leaf_rows_equal(adj: &[VSet; 32], n: usize, lab: &Perm, rows: &[u32; 32]) -> bool {
    let mut inv = [0u8; 32];
    for i in 0..n {
        inv[lab[i] as usize] = i as u8;
    }
    for i in 0..n {
        let mut s = adj[lab[i] as usize];
        let mut r = 0u32;
        while s != 0 {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            r |= 1 << inv[v];
        }
        if r != rows[i] {
            return false;
        }
    }
    true
}

#[inline]
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

impl Search<'_> {
    fn push_gen(&mut self, from: &Perm, to: &Perm) {
        let mut g: Perm = std::array::from_fn(|i| i as u8);
        let mut fix = 0u32;
        for i in 0..self.n {
            g[from[i] as usize] = to[i];
        }
        for (v, &img) in g[..self.n].iter().enumerate() {
            if img as usize == v {
                fix |= 1 << v;
            }
        }
        self.gens.push(g);
        self.fixed.push(fix);
    }

    /// Orbit of `v`, as a set, under the generators that fix `pathset` pointwise.
    fn stab_orbits(&self, pathset: u32, orb: &mut [u32; 32]) {
        let n = self.n;
        let mut parent: [u8; 32] = std::array::from_fn(|i| i as u8);
        fn find(p: &mut [u8; 32], mut x: usize) -> usize {
            while p[x] as usize != x {
                p[x] = p[p[x] as usize];
                x = p[x] as usize;
            }
            x
        }
        for (g, &fix) in self.gens.iter().zip(&self.fixed) {
            if pathset & !fix != 0 {
                continue;
            }
            for v in 0..n {
                let a = find(&mut parent, v);
                let b = find(&mut parent, g[v] as usize);
                if a != b {
                    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                    parent[hi] = lo as u8;
                }
            }
        }
        let mut root_set = [0u32; 32];
        let mut roots = [0u8; 32];
        for v in 0..n {
            let r = find(&mut parent, v);
            roots[v] = r as u8;
            root_set[r] |= 1 << v;
        }
        for v in 0..n {
            orb[v] = root_set[roots[v] as usize];
        }
    }

    /// Explore the node with partition `p`, reached by individualising
    /// `path[..depth]`. Returns `Some(level)` to jump back to the ancestor at
    /// `level` (everything below it up to here is known equivalent).
    fn node(&mut self, p: &Part, path: &mut [u8; 32], depth: usize) -> Option<usize> {
        let n = self.n;
        if p.len == n {
            let mut lab = [0u8; 32];
            for i in 0..n {
                lab[i] = p.cells[i].trailing_zeros() as u8;
            }
            let rows = leaf_rows(self.adj, n, &lab);
            if !self.have_first {
                self.have_first = true;
                self.first_lab = lab;
                self.first_rows = rows;
                self.first_path = *path;
                self.best_lab = lab;
                self.best_rows = rows;
                self.best_path = *path;
                return None;
            }
            if rows[..n] == self.first_rows[..n] {
                let fl = self.first_lab;
                self.push_gen(&fl, &lab);
                return Some(common_prefix(&path[..depth], &self.first_path[..depth]));
            }
            match rows[..n].cmp(&self.best_rows[..n]) {
                std::cmp::Ordering::Equal => {
                    let bl = self.best_lab;
                    self.push_gen(&bl, &lab);
                    Some(common_prefix(&path[..depth], &self.best_path[..depth]))
                }
                std::cmp::Ordering::Greater => {
                    self.best_lab = lab;
                    self.best_rows = rows;
                    self.best_path = *path;
                    None
                }
                std::cmp::Ordering::Less => None,
            }
        } else {
            // Target cell: the first non-singleton cell.
            let mut ti = 0;
            while p.cells[ti] & (p.cells[ti] - 1) == 0 {
                ti += 1;
            }
            let t = p.cells[ti];
            let mut pathset = 0u32;
            for &v in &path[..depth] {
                pathset |= 1 << v;
            }
            let mut tried = 0u32;
            let mut orb = [0u32; 32];
            let mut orb_gens = 0usize;
            let mut s = t;
            while s != 0 {
                let v = s.trailing_zeros() as usize;
                s &= s - 1;
                if tried != 0 && !self.gens.is_empty() {
                    if orb_gens != self.gens.len() {
                        self.stab_orbits(pathset, &mut orb);
                        orb_gens = self.gens.len();
                    }
                    if orb[v] & tried != 0 {
                        continue;
                    }
                }
                tried |= 1 << v;
                let mut child = Part {
                    cells: [0; 32],
                    len: p.len + 1,
                };
                child.cells[..ti].copy_from_slice(&p.cells[..ti]);
                child.cells[ti] = 1 << v;
                child.cells[ti + 1] = t & !(1 << v);
                child.cells[ti + 2..p.len + 1].copy_from_slice(&p.cells[ti + 1..p.len]);
                refine(self.adj, n, &mut child, 1 << v);
                path[depth] = v as u8;
                if let Some(level) = self.node(&child, path, depth + 1) {
                    if level < depth {
                        return Some(level);
                    }
                }
            }
            None
        }
    }
}

/// Canonical labelling of `g` with the ordered partition `p`, which must
/// already be equitable (run [`refine`] first).
pub(crate) fn search(adj: &[VSet; 32], n: usize, p: &Part) -> CanonOut {
    let mut s = Search {
        adj,
        n,
        have_first: false,
        first_lab: [0; 32],
        first_rows: [0; 32],
        first_path: [0; 32],
        best_lab: [0; 32],
        best_rows: [0; 32],
        best_path: [0; 32],
        gens: Vec::new(),
        fixed: Vec::new(),
    };
    let mut path = [0u8; 32];
    s.node(p, &mut path, 0);
    CanonOut {
        lab: s.best_lab,
        gens: s.gens,
    }
}

/// Cheap sufficient test that the first cell of the equitable partition `p`
/// is a single orbit of Aut(graph, p): for each vertex `v` of the cell,
/// individualise it and follow the leftmost path of the search tree to a
/// leaf; if all those leaves give the same relabelled graph, the leaf of the
/// first vertex maps to each other one by an automorphism. `false` means
/// "not shown", not "no".
pub(crate) fn first_cell_is_orbit(adj: &[VSet; 32], n: usize, p: &Part) -> bool {
    let c = p.cells[0];
    let mut first: Option<[u32; 32]> = None;
    let mut s = c;
    while s != 0 {
        let v = s.trailing_zeros() as usize;
        s &= s - 1;
        let mut q = Part {
            cells: [0; 32],
            len: p.len + 1,
        };
        q.cells[0] = 1 << v;
        q.cells[1] = c & !(1 << v);
        q.cells[2..p.len + 1].copy_from_slice(&p.cells[1..p.len]);
        refine(adj, n, &mut q, 1 << v);
        while q.len < n {
            let mut ti = 0;
            while q.cells[ti] & (q.cells[ti] - 1) == 0 {
                ti += 1;
            }
            let t = q.cells[ti];
            let w = t & t.wrapping_neg();
            q.cells.copy_within(ti + 1..q.len, ti + 2);
            q.cells[ti] = w;
            q.cells[ti + 1] = t & !w;
            q.len += 1;
            refine(adj, n, &mut q, w);
        }
        let mut lab = [0u8; 32];
        for i in 0..n {
            lab[i] = q.cells[i].trailing_zeros() as u8;
        }
        match &first {
            None => first = Some(leaf_rows(adj, n, &lab)),
            Some(f) => {
                if !leaf_rows_equal(adj, n, &lab, f) {
                    return false;
                }
            }
        }
    }
    true
}

/// Adjacency rows of `g` in a fixed array (rows `>= n` zero).
#[inline]
pub(crate) fn adj_array(g: &BitGraph) -> [VSet; 32] {
    let n = g.n();
    std::array::from_fn(|i| if i < n { g.nbrs(i) } else { 0 })
}

/// Canonical labelling and automorphism generators of `g` with the unit
/// partition (refined by degree first; same group, same canonical form for
/// isomorphic inputs).
pub(crate) fn canon_unit(g: &BitGraph) -> CanonOut {
    let n = g.n();
    let adj = adj_array(g);
    let mut p = degree_partition(g, &adj);
    let q = p.all_lowbits();
    refine(&adj, n, &mut p, q);
    if p.len == n {
        let mut lab = [0u8; 32];
        for i in 0..n {
            lab[i] = p.cells[i].trailing_zeros() as u8;
        }
        return CanonOut {
            lab,
            gens: Vec::new(),
        };
    }
    search(&adj, n, &p)
}

/// The vertices grouped by degree, ascending.
pub(crate) fn degree_partition(g: &BitGraph, adj: &[VSet; 32]) -> Part {
    let mut by_deg = [0u32; 33];
    for (v, &row) in adj[..g.n()].iter().enumerate() {
        by_deg[row.count_ones() as usize] |= 1 << v;
    }
    Part::new(&by_deg)
}

/// The canonical form of `g`: `g` relabelled so that isomorphic graphs give
/// identical results (and non-isomorphic graphs different ones).
pub fn canonical_form(g: &BitGraph) -> BitGraph {
    let out = canon_unit(g);
    relabel(g, &out.lab)
}

/// `g` relabelled so that vertex `lab[i]` becomes `i`.
pub(crate) fn relabel(g: &BitGraph, lab: &Perm) -> BitGraph {
    let n = g.n();
    let mut perm = vec![0usize; n];
    for (i, &v) in lab[..n].iter().enumerate() {
        perm[v as usize] = i;
    }
    g.permuted(&perm)
}

/// Generators of the automorphism group of `g`, each as a vector `p` with
/// `p[v]` the image of vertex `v` (empty when the group is trivial).
pub fn automorphism_generators(g: &BitGraph) -> Vec<Vec<usize>> {
    let n = g.n();
    canon_unit(g)
        .gens
        .iter()
        .map(|p| p[..n].iter().map(|&x| x as usize).collect())
        .collect()
}

/// Orbits of the group generated by `gens` on `0..n`: `orb[v]` is the set of
/// vertices in the orbit of `v`.
pub(crate) fn orbits(n: usize, gens: &[Perm]) -> [u32; 32] {
    let mut parent: [u8; 32] = std::array::from_fn(|i| i as u8);
    fn find(p: &mut [u8; 32], mut x: usize) -> usize {
        while p[x] as usize != x {
            p[x] = p[p[x] as usize];
            x = p[x] as usize;
        }
        x
    }
    for g in gens {
        for v in 0..n {
            let a = find(&mut parent, v);
            let b = find(&mut parent, g[v] as usize);
            if a != b {
                parent[a.max(b)] = a.min(b) as u8;
            }
        }
    }
    let mut root_set = [0u32; 32];
    let mut roots = [0u8; 32];
    for v in 0..n {
        let r = find(&mut parent, v);
        roots[v] = r as u8;
        root_set[r] |= 1 << v;
    }
    let mut orb = [0u32; 32];
    for v in 0..n {
        orb[v] = root_set[roots[v] as usize];
    }
    orb
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn next_perm(p: &mut [usize]) -> bool {
        let n = p.len();
        if n < 2 {
            return false;
        }
        let mut i = n - 1;
        while i > 0 && p[i - 1] >= p[i] {
            i -= 1;
        }
        if i == 0 {
            return false;
        }
        let mut j = n - 1;
        while p[j] <= p[i - 1] {
            j -= 1;
        }
        p.swap(i - 1, j);
        p[i..].reverse();
        true
    }

    /// All automorphisms by brute force.
    fn brute_auts(g: &BitGraph) -> Vec<Vec<usize>> {
        let n = g.n();
        let mut p: Vec<usize> = (0..n).collect();
        let mut out = Vec::new();
        loop {
            if g.permuted(&p) == *g {
                out.push(p.clone());
            }
            if !next_perm(&mut p) {
                break;
            }
        }
        out
    }

    /// Closure of the group generated by `gens`.
    fn closure(n: usize, gens: &[Vec<usize>]) -> HashSet<Vec<usize>> {
        let id: Vec<usize> = (0..n).collect();
        let mut seen = HashSet::from([id.clone()]);
        let mut stack = vec![id];
        while let Some(p) = stack.pop() {
            for g in gens {
                let q: Vec<usize> = (0..n).map(|v| g[p[v]]).collect();
                if seen.insert(q.clone()) {
                    stack.push(q);
                }
            }
        }
        seen
    }

    fn random_graph(n: usize, seed: u64, density: u64) -> BitGraph {
        let mut x = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
        let mut g = BitGraph::new(n);
        for u in 0..n {
            for v in u + 1..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x % 100 < density {
                    g.add_edge(u, v);
                }
            }
        }
        g
    }

    #[test]
    fn group_and_form_match_brute_force() {
        for seed in 0..300u64 {
            let n = 1 + (seed % 7) as usize;
            let g = random_graph(n, seed, [15, 30, 50, 70, 85][(seed % 5) as usize]);
            let gens = automorphism_generators(&g);
            for p in &gens {
                assert_eq!(g.permuted(p), g, "not an automorphism");
            }
            let brute: HashSet<Vec<usize>> = brute_auts(&g).into_iter().collect();
            assert_eq!(closure(n, &gens), brute, "group of {g:?}");
            // Relabelled copies have the same canonical form.
            let cf = canonical_form(&g);
            let mut perm: Vec<usize> = (0..n).rev().collect();
            perm.rotate_left((seed % n as u64) as usize);
            assert_eq!(canonical_form(&g.permuted(&perm)), cf);
        }
    }

    #[test]
    fn symmetric_graphs_are_fast_and_right() {
        // Empty and complete graphs on 20 vertices have 20! automorphisms; the
        // search must stay small and still generate the full symmetric group
        // (checked through the orbit of vertex 0).
        for g in [
            BitGraph::new(20),
            BitGraph::from_edges(
                20,
                &(0..20)
                    .flat_map(|u| (u + 1..20).map(move |v| (u, v)))
                    .collect::<Vec<_>>(),
            ),
        ] {
            let out = canon_unit(&g);
            assert_eq!(orbits(20, &out.gens)[0], (1 << 20) - 1);
            assert!(out.gens.len() < 400);
        }
    }
}
