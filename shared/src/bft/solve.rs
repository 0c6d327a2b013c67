//! The one place where this module calls the UVG solvers of [`crate::uvg`],
//! so the checks above never depend on how those solvers are built.

use super::reduction::Position;
use crate::graph::general::{GeneralGraph, GraphError};
use crate::uvg::general::grundy_general;

/// Exact value of a position and the search nodes it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The Grundy value.
    pub value: u32,
    /// Search nodes the exact solver used.
    pub nodes: u64,
}

/// Why a [`Position`] cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// An edge is out of range or a loop.
    #[error("bad edge list: {0}")]
    Graph(#[from] GraphError),
    /// The token is not a vertex, or sits on a deleted one.
    #[error("token {token} is not a remaining vertex of the {n}-vertex graph")]
    BadToken {
        /// The token.
        token: usize,
        /// Vertex count.
        n: usize,
    },
}

/// The position as a [`GeneralGraph`] (deleted vertices kept as isolated
/// vertices, so numbers stay stable; they never touch the token's component).
pub fn general_graph(pos: &Position) -> Result<GeneralGraph, PositionError> {
    if pos.token >= pos.n || pos.deleted.contains(&pos.token) {
        return Err(PositionError::BadToken {
            token: pos.token,
            n: pos.n,
        });
    }
    Ok(GeneralGraph::from_edges(pos.n, &pos.remaining_edges())?)
}

/// Exact UVG value of `pos` (memoised search on token + component, no budget).
pub fn try_value(pos: &Position) -> Result<Solved, PositionError> {
    let g = general_graph(pos)?;
    match grundy_general(&g, pos.token, None) {
        Ok(o) => Ok(Solved {
            value: o.value,
            nodes: o.nodes,
        }),
        // Without a budget the search cannot run out of it.
        Err(e) => unreachable!("unbudgeted search stopped after {} nodes", e.nodes),
    }
}

/// [`try_value`] for positions built by this module's constructors, which
/// are valid by construction (a failure is a bug here, not bad input).
pub fn value(pos: &Position) -> Solved {
    try_value(pos).expect("constructed positions are valid")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bft::digraph::Digraph;
    use crate::bft::reduction::{tests::brute_value, Reduced};

    #[test]
    fn bad_positions_are_errors() {
        let mut p = Position {
            n: 3,
            edges: vec![(0, 1), (1, 2)],
            deleted: vec![],
            token: 3,
        };
        assert!(matches!(try_value(&p), Err(PositionError::BadToken { .. })));
        p.token = 0;
        assert_eq!(try_value(&p).unwrap().value, 0);
        p.deleted = vec![0];
        assert!(matches!(try_value(&p), Err(PositionError::BadToken { .. })));
        p.deleted = vec![];
        p.edges.push((2, 5));
        assert!(matches!(try_value(&p), Err(PositionError::Graph(_))));
    }

    /// The library solver agrees with the test-only brute force on every
    /// position the reduction builds for a few small digraphs.
    #[test]
    fn agrees_with_brute_force_on_gadget_positions() {
        for arcs in [
            vec![(0, 1)],
            vec![(0, 1), (1, 0)],
            vec![(0, 1), (1, 2), (2, 0)],
            vec![(0, 1), (0, 2), (2, 1)],
        ] {
            let d = Digraph::from_arcs(3, &arcs).unwrap();
            let u = Reduced::new(&d);
            let mut positions: Vec<Position> = (0..3).map(|s| u.start(s)).collect();
            positions.extend((0..3).map(|s| u.prefixed(s).position));
            for g in u.gadgets() {
                positions.push(u.wrong_way(g));
                positions.push(u.correct_way_entry(g));
                positions.push(u.correct_way_exit_via_c(g));
                positions.push(u.correct_way_exit_via_f(g));
            }
            for p in &positions {
                assert_eq!(value(p).value, brute_value(p), "{arcs:?} token {}", p.token);
            }
        }
    }
}
