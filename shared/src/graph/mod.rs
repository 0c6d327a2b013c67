//! Graph types.
//!
//! * [`BitGraph`]: a dense adjacency-bitset graph on at most [`BitGraph::MAX_N`]
//!   vertices, `Copy`, used on every hot path of the sweeps. We write our own
//!   rather than use a general graph crate because the solvers want
//!   whole-neighbourhood set operations (`adj[v] & alive`) in one instruction.
//! * `general`: adjacency lists for large instances (hundreds of vertices).
//! * `graph6`: nauty's graph6 / digraph6 text formats.

mod codec;
pub mod general;
pub mod graph6;
pub mod sparse6;

/// Vertex set as a bitmask (bit `v` set ⇔ vertex `v` present).
pub type VSet = u32;

/// Dense undirected graph on at most 32 vertices; `adj[v]` is the neighbour set of `v`.
///
/// Invariants: no loops (`adj[v] & (1 << v) == 0`), symmetric, rows `>= n` are 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitGraph {
    n: u8,
    adj: [VSet; 32],
}

impl std::fmt::Debug for BitGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "BitGraph(n={}, edges={:?})",
            self.n,
            self.edges().collect::<Vec<_>>()
        )
    }
}

impl BitGraph {
    /// Largest supported vertex count.
    pub const MAX_N: usize = 32;

    /// The empty graph on `n` vertices. Panics if `n > 32` (a programming error, not input).
    pub fn new(n: usize) -> Self {
        assert!(n <= Self::MAX_N, "BitGraph supports at most 32 vertices");
        BitGraph {
            n: n as u8,
            adj: [0; 32],
        }
    }

    /// Build from an edge list; vertices must be `< n` and distinct.
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Self {
        let mut g = Self::new(n);
        for &(u, v) in edges {
            g.add_edge(u, v);
        }
        g
    }

    /// Number of vertices.
    #[inline]
    pub fn n(&self) -> usize {
        self.n as usize
    }

    /// Set of all vertices.
    #[inline]
    pub fn all(&self) -> VSet {
        if self.n == 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        }
    }

    /// Neighbour set of `v`.
    #[inline]
    pub fn nbrs(&self, v: usize) -> VSet {
        self.adj[v]
    }

    /// Adjacency rows (only the first `n` are meaningful).
    #[inline]
    pub fn rows(&self) -> &[VSet] {
        &self.adj[..self.n as usize]
    }

    /// Is `u`–`v` an edge?
    #[inline]
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        self.adj[u] >> v & 1 == 1
    }

    /// Add the edge `u`–`v` (`u != v`).
    #[inline]
    pub fn add_edge(&mut self, u: usize, v: usize) {
        debug_assert!(u != v && u < self.n() && v < self.n());
        self.adj[u] |= 1 << v;
        self.adj[v] |= 1 << u;
    }

    /// Remove the edge `u`–`v`.
    #[inline]
    pub fn remove_edge(&mut self, u: usize, v: usize) {
        self.adj[u] &= !(1 << v);
        self.adj[v] &= !(1 << u);
    }

    /// Append a vertex adjacent to `nbrs` (a subset of the existing vertices); returns its index.
    pub fn push_vertex(&mut self, nbrs: VSet) -> usize {
        let v = self.n();
        assert!(v < Self::MAX_N);
        debug_assert!(nbrs & !self.all() == 0);
        self.n += 1;
        self.adj[v] = nbrs;
        let mut s = nbrs;
        while s != 0 {
            let u = s.trailing_zeros() as usize;
            s &= s - 1;
            self.adj[u] |= 1 << v;
        }
        v
    }

    /// Whether the first `rows.len()` vertices induce the graph `rows`
    /// describes (row `v`: the neighbours of `v` among them), e.g. whether
    /// `rows` is this graph's parent. Every row is compared, with no early
    /// exit, so that the loop vectorises: the callers' rows almost always
    /// match.
    #[inline]
    pub fn prefix_is(&self, rows: &[VSet]) -> bool {
        let k = rows.len();
        let mask = ((1u64 << k) - 1) as VSet;
        self.adj[..k]
            .iter()
            .zip(rows)
            .fold(0, |d, (&row, &p)| d | ((row & mask) ^ p))
            == 0
    }

    /// Degree of `v`.
    #[inline]
    pub fn degree(&self, v: usize) -> u32 {
        self.adj[v].count_ones()
    }

    /// Maximum degree (0 for the empty graph).
    pub fn max_degree(&self) -> u32 {
        self.rows()
            .iter()
            .map(|r| r.count_ones())
            .max()
            .unwrap_or(0)
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.rows()
            .iter()
            .map(|r| r.count_ones() as usize)
            .sum::<usize>()
            / 2
    }

    /// Edges `(u, v)` with `u < v`, in lexicographic order.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.n()).flat_map(move |u| {
            let mut s = self.adj[u] & !((2u64 << u) - 1) as u32;
            std::iter::from_fn(move || {
                if s == 0 {
                    return None;
                }
                let v = s.trailing_zeros() as usize;
                s &= s - 1;
                Some((u, v))
            })
        })
    }

    /// The connected component of `v` inside the vertex set `alive` (which must contain `v`).
    #[inline]
    pub fn component(&self, v: usize, alive: VSet) -> VSet {
        let mut comp = 1u32 << v;
        let mut frontier = comp;
        while frontier != 0 {
            let u = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let new = self.adj[u] & alive & !comp;
            comp |= new;
            frontier |= new;
        }
        comp
    }

    /// Is the graph connected? (The graph on 0 vertices counts as connected.)
    pub fn is_connected(&self) -> bool {
        self.n == 0 || self.component(0, self.all()) == self.all()
    }

    /// The subgraph induced by `keep`, vertices renumbered in increasing order.
    pub fn induced(&self, keep: VSet) -> BitGraph {
        let mut map = [0u8; 32];
        let mut k = 0usize;
        let mut s = keep;
        while s != 0 {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            map[v] = k as u8;
            k += 1;
        }
        let mut g = BitGraph::new(k);
        let mut s = keep;
        while s != 0 {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            let mut t = self.adj[v] & keep;
            let mut row = 0u32;
            while t != 0 {
                let u = t.trailing_zeros() as usize;
                t &= t - 1;
                row |= 1 << map[u];
            }
            g.adj[map[v] as usize] = row;
        }
        g
    }

    /// Relabel: vertex `v` becomes `perm[v]`. `perm` must be a permutation of `0..n`.
    pub fn permuted(&self, perm: &[usize]) -> BitGraph {
        let mut g = BitGraph::new(self.n());
        for (u, v) in self.edges() {
            g.add_edge(perm[u], perm[v]);
        }
        g
    }
}

/// Iterate over the members of a vertex set in increasing order.
#[inline]
pub fn members(mut s: VSet) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if s == 0 {
            return None;
        }
        let v = s.trailing_zeros() as usize;
        s &= s - 1;
        Some(v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_basics() {
        let g = BitGraph::from_edges(4, &[(0, 1), (1, 2), (2, 3)]);
        assert_eq!(g.edge_count(), 3);
        assert_eq!(g.max_degree(), 2);
        assert!(g.is_connected());
        assert_eq!(g.component(0, g.all() & !(1 << 2)), 0b0011);
        let h = g.induced(0b1101);
        assert_eq!(h.n(), 3);
        assert_eq!(h.edges().collect::<Vec<_>>(), vec![(1, 2)]);
        assert_eq!(members(0b1010).collect::<Vec<_>>(), vec![1, 3]);
    }

    #[test]
    fn push_vertex_is_symmetric() {
        let mut g = BitGraph::new(2);
        g.add_edge(0, 1);
        let v = g.push_vertex(0b01);
        assert_eq!(v, 2);
        assert!(g.has_edge(0, 2) && g.has_edge(2, 0) && !g.has_edge(1, 2));
    }
}
