//! Maximum matching (Edmonds' blossom algorithm) on [`BitGraph`] restricted to
//! a vertex set, and the Gallai–Edmonds set `D(G)` (vertices missed by some
//! maximum matching) that decides UVG.
//!
//! [`Blossom`] is generic over a small [`MatchGraph`] trait (neighbours of a
//! vertex among the alive ones) and serves `GeneralGraph`; the [`BitGraph`]
//! functions here use a copy specialised to stack arrays and bitmasks
//! (`smallblossom.rs`), which the tests cross-check against the generic one.
//! We wrote our own rather than use petgraph's `maximum_matching` because the
//! hot path needs (a) the alive-set restriction without building a subgraph
//! and (b) the `D(G)` forest search, which petgraph does not expose
//! (`runs/bench-uvg.md` has the timings).

use super::smallblossom::SmallBlossom;
use crate::graph::{BitGraph, VSet};

const NONE: u32 = u32::MAX;

/// A graph as the blossom algorithm sees it: vertices `0..size()`, of which
/// only the alive ones (those `vertices()` lists) take part.
pub(crate) trait MatchGraph {
    /// Iterator over alive neighbours.
    type Nbrs<'a>: Iterator<Item = usize>
    where
        Self: 'a;
    /// Upper bound on vertex indices.
    fn size(&self) -> usize;
    /// Alive vertices.
    fn vertices(&self) -> Vec<usize>;
    /// Alive neighbours of alive vertex `v`.
    fn nbrs(&self, v: usize) -> Self::Nbrs<'_>;
}

/// [`BitGraph`] restricted to `alive` (the generic matcher's view, used by the
/// baseline variants).
#[cfg(any(test, feature = "bench-variants"))]
pub(crate) struct BitView<'g> {
    pub g: &'g BitGraph,
    pub alive: VSet,
}

/// Iterator over a [`VSet`].
#[cfg(any(test, feature = "bench-variants"))]
pub(crate) struct SetIter(VSet);
#[cfg(any(test, feature = "bench-variants"))]
impl Iterator for SetIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let v = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(v)
    }
}

#[cfg(any(test, feature = "bench-variants"))]
impl MatchGraph for BitView<'_> {
    type Nbrs<'a>
        = SetIter
    where
        Self: 'a;
    fn size(&self) -> usize {
        self.g.n()
    }
    fn vertices(&self) -> Vec<usize> {
        crate::graph::members(self.alive).collect()
    }
    #[inline]
    fn nbrs(&self, v: usize) -> SetIter {
        SetIter(self.g.nbrs(v) & self.alive)
    }
}

/// Edmonds' blossom algorithm state (the classic O(V³) formulation with
/// explicit base / parent arrays). `mate` holds the current matching.
pub(crate) struct Blossom<'a, G: MatchGraph> {
    g: &'a G,
    verts: Vec<usize>,
    /// `mate[v]`, or `NONE`.
    pub mate: Vec<u32>,
    parent: Vec<u32>,
    base: Vec<u32>,
    even: Vec<bool>,
    in_blossom: Vec<bool>,
    lca_mark: Vec<bool>,
    queue: Vec<u32>,
}

impl<'a, G: MatchGraph> Blossom<'a, G> {
    pub fn new(g: &'a G) -> Self {
        let n = g.size();
        Blossom {
            g,
            verts: g.vertices(),
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n as u32).collect(),
            even: vec![false; n],
            in_blossom: vec![false; n],
            lca_mark: vec![false; n],
            queue: Vec::with_capacity(n),
        }
    }

    /// Greedy initial matching, then one augmenting search per exposed vertex
    /// (a vertex whose search fails can never become augmentable later).
    pub fn maximize(&mut self) -> u32 {
        let mut size = 0;
        for i in 0..self.verts.len() {
            let v = self.verts[i];
            if self.mate[v] != NONE {
                continue;
            }
            if let Some(u) = self.g.nbrs(v).find(|&u| self.mate[u] == NONE) {
                self.mate[v] = u as u32;
                self.mate[u] = v as u32;
                size += 1;
            }
        }
        for i in 0..self.verts.len() {
            let v = self.verts[i];
            if self.mate[v] == NONE {
                self.reset();
                self.even[v] = true;
                self.queue.push(v as u32);
                if let Some(end) = self.search() {
                    self.augment(end);
                    size += 1;
                }
            }
        }
        size
    }

    fn reset(&mut self) {
        for &v in &self.verts {
            self.parent[v] = NONE;
            self.base[v] = v as u32;
            self.even[v] = false;
        }
        self.queue.clear();
    }

    /// Alternating-forest search from the vertices already in the queue
    /// (marked even). Returns the exposed end of an augmenting path, if any.
    /// With several roots it must only be called when the matching is maximum
    /// (then no edge joins two trees, so every blossom lies inside one tree).
    fn search(&mut self) -> Option<usize> {
        let mut qi = 0;
        while qi < self.queue.len() {
            let v = self.queue[qi] as usize;
            qi += 1;
            let g = self.g;
            for to in g.nbrs(v) {
                if self.base[v] == self.base[to] || self.mate[v] == to as u32 {
                    continue;
                }
                let to_even = self.even[to]
                    || (self.mate[to] != NONE && self.parent[self.mate[to] as usize] != NONE);
                if to_even {
                    let cur = self.lca(v, to)?;
                    for &x in &self.verts {
                        self.in_blossom[x] = false;
                    }
                    self.mark_path(v, cur, to);
                    self.mark_path(to, cur, v);
                    for i in 0..self.verts.len() {
                        let x = self.verts[i];
                        if self.in_blossom[self.base[x] as usize] {
                            self.base[x] = cur as u32;
                            if !self.even[x] {
                                self.even[x] = true;
                                self.queue.push(x as u32);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v as u32;
                    if self.mate[to] == NONE {
                        return Some(to);
                    }
                    let m = self.mate[to] as usize;
                    self.even[m] = true;
                    self.queue.push(m as u32);
                }
            }
        }
        None
    }

    /// Lowest common ancestor (as blossom bases) of `a` and `b` in the forest;
    /// `None` if they lie in different trees (only possible if the matching is
    /// not maximum, which the callers exclude).
    fn lca(&mut self, a: usize, b: usize) -> Option<usize> {
        for &x in &self.verts {
            self.lca_mark[x] = false;
        }
        let mut a = a;
        loop {
            a = self.base[a] as usize;
            self.lca_mark[a] = true;
            if self.mate[a] == NONE || self.parent[self.mate[a] as usize] == NONE {
                break;
            }
            a = self.parent[self.mate[a] as usize] as usize;
        }
        let mut b = b;
        loop {
            b = self.base[b] as usize;
            if self.lca_mark[b] {
                return Some(b);
            }
            if self.mate[b] == NONE || self.parent[self.mate[b] as usize] == NONE {
                return None;
            }
            b = self.parent[self.mate[b] as usize] as usize;
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] as usize != b {
            let m = self.mate[v] as usize;
            self.in_blossom[self.base[v] as usize] = true;
            self.in_blossom[self.base[m] as usize] = true;
            self.parent[v] = child as u32;
            child = m;
            v = self.parent[m] as usize;
        }
    }

    fn augment(&mut self, mut v: usize) {
        while v != NONE as usize {
            let pv = self.parent[v] as usize;
            let ppv = self.mate[pv];
            self.mate[v] = pv as u32;
            self.mate[pv] = v as u32;
            v = ppv as usize;
        }
    }

    /// After [`maximize`](Self::maximize): the Gallai–Edmonds set D(G), i.e.
    /// the vertices some maximum matching misses — exactly those reachable
    /// from an exposed vertex by an even alternating path (the even vertices
    /// of the Edmonds forest rooted at all exposed vertices).
    pub fn missable(&mut self) -> Vec<bool> {
        self.reset();
        for i in 0..self.verts.len() {
            let v = self.verts[i];
            if self.mate[v] == NONE {
                self.even[v] = true;
                self.queue.push(v as u32);
            }
        }
        let found = self.search();
        debug_assert!(found.is_none(), "matching was not maximum");
        self.even.clone()
    }
}

/// Mate array as `Option<usize>`.
pub(crate) fn mate_options(mate: &[u32]) -> Vec<Option<usize>> {
    mate.iter()
        .map(|&m| (m != NONE).then_some(m as usize))
        .collect()
}

/// Size of a maximum matching of `g` restricted to `alive`.
pub fn max_matching(g: &BitGraph, alive: VSet) -> u32 {
    SmallBlossom::new(g, alive).maximize()
}

/// A maximum matching of `g` restricted to `alive`, as a mate array over all
/// `g.n()` vertices (`mate[v] = Some(u)`; `None` for unmatched or dead vertices).
pub fn max_matching_mates(g: &BitGraph, alive: VSet) -> Vec<Option<usize>> {
    let mut b = SmallBlossom::new(g, alive);
    b.maximize();
    b.mate[..g.n()]
        .iter()
        .map(|&m| (m != u8::MAX).then_some(m as usize))
        .collect()
}

/// The set of alive vertices covered by every maximum matching of `g[alive]`
/// (the complement of the Gallai–Edmonds set D). By the matching theorem
/// these are exactly the starts from which the player to move wins.
pub fn always_matched(g: &BitGraph, alive: VSet) -> VSet {
    let alive = alive & g.all();
    let mut b = SmallBlossom::new(g, alive);
    b.maximize();
    alive & !b.missable()
}

/// A maximum matching of `g[alive]` (mates, `u8::MAX` = exposed), its size
/// and the Gallai–Edmonds set `D` of `g[alive]` (vertices some maximum
/// matching misses), to seed [`always_matched_extending`] for the graphs
/// that extend `g[alive]` by one vertex.
pub fn matching_and_missable(g: &BitGraph, alive: VSet) -> ([u8; 32], u32, VSet) {
    let mut b = SmallBlossom::new(g, alive & g.all());
    let nu = b.maximize();
    let d = b.missable();
    (b.mate, nu, d)
}

/// [`always_matched`]`(g, g.all())` given `mate`, a maximum matching of
/// `P` = `g` minus its last vertex `w` (from [`matching_and_missable`],
/// with `nu` its size and `d` = `D(P)`): the same set, since the
/// Gallai–Edmonds set does not depend on the maximum matching it is
/// found from.
///
/// `ν(g) = ν(P) + 1` exactly when `w` has a neighbour in `D(P)`: a maximum
/// matching of `P` missing that neighbour `u` plus `wu` has `ν(P) + 1`
/// edges; conversely a maximum matching of `g` of `ν(P) + 1` edges covers
/// `w`, say by `wu`, and without `wu` it is a maximum matching of `P`
/// missing `u`. So a perfect matching (`2ν(g) = n`) is decided by one
/// `AND`, with every vertex always matched; when `ν` does not grow `mate`
/// is already maximum in `g`; only otherwise one augmenting search from
/// `w` (every augmenting path of `mate` in `g` ends at `w`).
pub fn always_matched_extending(g: &BitGraph, mate: &[u8; 32], nu: u32, d: VSet) -> VSet {
    let all = g.all();
    let n = g.n();
    let w = n - 1;
    let grows = g.nbrs(w) & d != 0;
    if grows && 2 * (nu as usize + 1) == n {
        return all;
    }
    let mut b = SmallBlossom::new(g, all);
    b.extend(mate, w, grows);
    all & !b.missable()
}
