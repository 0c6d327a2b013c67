//! Adjacency-list graphs for large instances (hundreds of vertices).
//!
//! [`GeneralGraph`] is the counterpart of [`BitGraph`] for graphs that do not
//! fit in 32 vertices: sorted adjacency lists plus a growable [`VertexSet`]
//! bitset (used as "remaining vertices" by the solvers and as memo keys).
//!
//! ```
//! use gamesweep::graph::general::GeneralGraph;
//! let p3 = GeneralGraph::from_edges(3, &[(0, 1), (1, 2)]).unwrap();
//! assert_eq!(p3.to_graph6(), "Bg");
//! assert_eq!(GeneralGraph::from_graph6("Bg").unwrap(), p3);
//! assert!(GeneralGraph::from_edges(2, &[(0, 2)]).is_err());
//! ```

use super::graph6::{self, Graph6Error};
use super::BitGraph;

/// Why an edge list was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// An endpoint is not a vertex of the graph.
    #[error("edge endpoint {v} out of range (graph has {n} vertices)")]
    VertexOutOfRange {
        /// The offending endpoint.
        v: usize,
        /// Vertex count.
        n: usize,
    },
    /// An edge `v`–`v` (the graphs are simple).
    #[error("loop at vertex {0}; graphs must be simple")]
    SelfLoop(usize),
}

/// A set of vertices `0..n` as a bitset of 64-bit words.
///
/// Equality and hashing look at the words only, so two sets compare equal
/// exactly when they have the same members (all sets of one graph have the
/// same word count).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VertexSet {
    words: Vec<u64>,
}

impl std::fmt::Debug for VertexSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl VertexSet {
    /// The empty set over a universe of `n` vertices.
    pub fn empty(n: usize) -> Self {
        VertexSet {
            words: vec![0; n.div_ceil(64)],
        }
    }

    /// All of `0..n`.
    pub fn full(n: usize) -> Self {
        let mut s = Self::empty(n);
        for (i, w) in s.words.iter_mut().enumerate() {
            let lo = i * 64;
            *w = if n >= lo + 64 {
                u64::MAX
            } else {
                (1u64 << (n - lo)) - 1
            };
        }
        s
    }

    /// Is `v` a member? (`false` for `v` beyond the universe.)
    #[inline]
    pub fn contains(&self, v: usize) -> bool {
        self.words
            .get(v / 64)
            .is_some_and(|w| w >> (v % 64) & 1 == 1)
    }

    /// Add `v` (must be inside the universe).
    #[inline]
    pub fn insert(&mut self, v: usize) {
        self.words[v / 64] |= 1 << (v % 64);
    }

    /// Remove `v`.
    #[inline]
    pub fn remove(&mut self, v: usize) {
        if let Some(w) = self.words.get_mut(v / 64) {
            *w &= !(1 << (v % 64));
        }
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// No members?
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + b)
            })
        })
    }

    /// The raw words (bit `v % 64` of word `v / 64` ⇔ `v` present).
    pub fn words(&self) -> &[u64] {
        &self.words
    }
}

/// Simple undirected graph as sorted adjacency lists (any size).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct GeneralGraph {
    adj: Vec<Vec<usize>>,
}

impl GeneralGraph {
    /// The empty graph on `n` vertices.
    pub fn new(n: usize) -> Self {
        GeneralGraph {
            adj: vec![Vec::new(); n],
        }
    }

    /// Build from an edge list. Duplicate edges (in either orientation) are merged.
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Result<Self, GraphError> {
        let mut g = Self::new(n);
        for &(u, v) in edges {
            for x in [u, v] {
                if x >= n {
                    return Err(GraphError::VertexOutOfRange { v: x, n });
                }
            }
            if u == v {
                return Err(GraphError::SelfLoop(u));
            }
            g.adj[u].push(v);
            g.adj[v].push(u);
        }
        for row in &mut g.adj {
            row.sort_unstable();
            row.dedup();
        }
        Ok(g)
    }

    /// Decode graph6 (any size graph6 supports).
    pub fn from_graph6(s: &str) -> Result<Self, Graph6Error> {
        let (n, edges) = graph6::decode(s)?;
        // graph6 cannot encode loops or out-of-range endpoints.
        Ok(Self::from_edges(n, &edges).expect("graph6 edges are simple and in range"))
    }

    /// Encode as graph6.
    pub fn to_graph6(&self) -> String {
        graph6::encode_with(self.n(), |i, j| self.has_edge(i, j))
    }

    /// Copy of a [`BitGraph`].
    pub fn from_bitgraph(g: &BitGraph) -> Self {
        let edges: Vec<_> = g.edges().collect();
        Self::from_edges(g.n(), &edges).expect("BitGraph edges are simple")
    }

    /// The same graph as a [`BitGraph`], if it has at most 32 vertices.
    pub fn to_bitgraph(&self) -> Option<BitGraph> {
        if self.n() > BitGraph::MAX_N {
            return None;
        }
        let edges: Vec<_> = self.edges().collect();
        Some(BitGraph::from_edges(self.n(), &edges))
    }

    /// Add the edge `u`–`v` (no-op if present).
    pub fn add_edge(&mut self, u: usize, v: usize) -> Result<(), GraphError> {
        let n = self.n();
        for x in [u, v] {
            if x >= n {
                return Err(GraphError::VertexOutOfRange { v: x, n });
            }
        }
        if u == v {
            return Err(GraphError::SelfLoop(u));
        }
        if let Err(i) = self.adj[u].binary_search(&v) {
            self.adj[u].insert(i, v);
            let j = self.adj[v].binary_search(&u).unwrap_err();
            self.adj[v].insert(j, u);
        }
        Ok(())
    }

    /// Number of vertices.
    #[inline]
    pub fn n(&self) -> usize {
        self.adj.len()
    }

    /// Sorted neighbour list of `v`.
    #[inline]
    pub fn nbrs(&self, v: usize) -> &[usize] {
        &self.adj[v]
    }

    /// Is `u`–`v` an edge?
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        self.adj.get(u).is_some_and(|r| r.binary_search(&v).is_ok())
    }

    /// Degree of `v`.
    pub fn degree(&self, v: usize) -> usize {
        self.adj[v].len()
    }

    /// Maximum degree (0 for the empty graph).
    pub fn max_degree(&self) -> usize {
        self.adj.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.adj.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// Edges `(u, v)` with `u < v`, lexicographic.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.adj.iter().enumerate().flat_map(|(u, r)| {
            r.iter()
                .copied()
                .filter(move |&v| v > u)
                .map(move |v| (u, v))
        })
    }

    /// Set of all vertices.
    pub fn all(&self) -> VertexSet {
        VertexSet::full(self.n())
    }

    /// The connected component of `v` inside `alive` (which must contain `v`).
    pub fn component(&self, v: usize, alive: &VertexSet) -> VertexSet {
        let mut comp = VertexSet::empty(self.n());
        comp.insert(v);
        let mut stack = vec![v];
        while let Some(x) = stack.pop() {
            for &y in &self.adj[x] {
                if alive.contains(y) && !comp.contains(y) {
                    comp.insert(y);
                    stack.push(y);
                }
            }
        }
        comp
    }

    /// Is the graph connected? (The graph on 0 vertices counts as connected.)
    pub fn is_connected(&self) -> bool {
        self.n() == 0 || self.component(0, &self.all()).len() == self.n()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_and_errors() {
        let g = GeneralGraph::from_edges(4, &[(0, 1), (1, 0), (2, 1), (2, 3)]).unwrap();
        assert_eq!(g.edge_count(), 3);
        assert_eq!(g.nbrs(1), &[0, 2]);
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (1, 2), (2, 3)]);
        assert_eq!(
            GeneralGraph::from_edges(3, &[(1, 1)]),
            Err(GraphError::SelfLoop(1))
        );
        assert_eq!(
            GeneralGraph::from_edges(3, &[(0, 5)]),
            Err(GraphError::VertexOutOfRange { v: 5, n: 3 })
        );
        let mut h = GeneralGraph::new(2);
        assert!(h.add_edge(0, 2).is_err());
        h.add_edge(1, 0).unwrap();
        h.add_edge(0, 1).unwrap();
        assert_eq!(h.edge_count(), 1);
    }

    #[test]
    fn graph6_round_trip_large() {
        // A 200-vertex cycle with chords: exercises the 4-byte graph6 header.
        let n = 200;
        let mut edges: Vec<_> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        edges.extend(
            (0..n)
                .step_by(7)
                .map(|i| (i, (i * 3 + 11) % n))
                .filter(|&(a, b)| a != b),
        );
        let g = GeneralGraph::from_edges(n, &edges).unwrap();
        let s = g.to_graph6();
        let h = GeneralGraph::from_graph6(&s).unwrap();
        assert_eq!(g, h);
        assert!(GeneralGraph::from_graph6(&s[..s.len() - 1]).is_err());
    }

    #[test]
    fn bitgraph_round_trip_and_components() {
        let b = BitGraph::from_edges(5, &[(0, 1), (1, 2), (3, 4)]);
        let g = GeneralGraph::from_bitgraph(&b);
        assert_eq!(g.to_bitgraph(), Some(b));
        assert_eq!(g.to_graph6(), graph6::encode_bitgraph(&b));
        let mut alive = g.all();
        assert_eq!(
            g.component(0, &alive).iter().collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        alive.remove(1);
        assert_eq!(g.component(0, &alive).iter().collect::<Vec<_>>(), vec![0]);
        assert!(!g.is_connected());
        assert_eq!(VertexSet::full(130).len(), 130);
        assert!(!VertexSet::full(130).contains(130));
    }
}
