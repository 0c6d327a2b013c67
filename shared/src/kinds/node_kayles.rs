//! `node-kayles`: Node Kayles on graphs. A move picks a remaining vertex
//! and removes it with its remaining neighbours; whoever cannot move loses
//! (normal play). One position per graph: the whole board.

use crate::families::graph_game::board::{Picture, Place};
use crate::families::graph_game::{Graph, GraphGame, Layered, Play, Side};
use crate::graph::{members, VSet};

/// Node Kayles; a position is the set of remaining vertices.
pub struct NodeKayles;

impl GraphGame for NodeKayles {
    type State = VSet;
    const NAME: &'static str = "node-kayles";
    const ABOUT: &'static str =
        "Node Kayles: pick a vertex, it and its neighbours leave; the last to move wins";
    const PLAY: Play = Play::Impartial;

    fn positions(&self, g: &Graph) -> Vec<VSet> {
        vec![g.all()]
    }
    fn options(&self, g: &Graph, left: &VSet, _: Side) -> Vec<VSet> {
        members(*left)
            .map(|v| left & !(g.nbrs(v) | 1 << v))
            .collect()
    }
    fn describe(&self, _: &Graph, _: &VSet) -> String {
        "the whole board".into()
    }
    fn picture(&self, g: &Graph, left: &VSet) -> Picture {
        Picture {
            vertices: (0..g.n())
                .map(|v| if left >> v & 1 == 1 { '.' } else { 'x' })
                .collect(),
            used: Vec::new(),
        }
    }
    fn places(&self, _: &Graph, left: &VSet, _: Side) -> Vec<Option<Place>> {
        members(*left).map(|v| Some(Place::Vertex(v))).collect()
    }
    fn source_file(&self) -> &'static str {
        file!()
    }
}

/// The `node-kayles` sweep kind.
pub const KIND: Layered<NodeKayles> = Layered(NodeKayles);
