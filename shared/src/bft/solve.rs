//! The one place where this module calls the UVG solvers of [`crate::uvg`],
//! so the checks above never depend on how those solvers are built.

use super::reduction::Position;
use crate::graph::general::GeneralGraph;
use crate::uvg::general::grundy_general;

/// Exact value of a position and the search nodes it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The Grundy value.
    pub value: u32,
    /// Search nodes the exact solver used.
    pub nodes: u64,
}

/// The position as a [`GeneralGraph`] (deleted vertices kept as isolated
/// vertices, so numbers stay stable; they never touch the token's component).
pub fn general_graph(pos: &Position) -> GeneralGraph {
    GeneralGraph::from_edges(pos.n, &pos.remaining_edges())
}

/// Exact UVG value of `pos` (memoised search on token + component, no budget).
pub fn value(pos: &Position) -> Solved {
    let g = general_graph(pos);
    match grundy_general(&g, pos.token, None) {
        Ok(o) => Solved {
            value: o.value,
            nodes: o.nodes,
        },
        // Without a budget the search cannot run out of it.
        Err(e) => unreachable!("unbudgeted search stopped after {} nodes", e.nodes),
    }
}
