//! Node Kayles, as a game on gamesweep's graph-game layer: a move picks a
//! remaining vertex and removes it together with its remaining neighbours;
//! whoever cannot move loses (normal play). This file is the whole game;
//! the layer derives the sweep kind (graph classes, canonical-prefix
//! shards, values by n with labelled counts, the smallest graph of each
//! value, validation, the report) from it.

use gamesweep::families::graph_game::{Graph, GraphGame, Layered, Play, Side};
use gamesweep::graph::{members, VSet};

/// Node Kayles; a state is the set of remaining vertices.
pub struct NodeKayles;

impl GraphGame for NodeKayles {
    type State = VSet;
    const NAME: &'static str = "custom-node-kayles";
    const ABOUT: &'static str = "Node Kayles (a kind from outside gamesweep): pick a vertex, it and its neighbours leave; the last to move wins";
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
    fn source_file(&self) -> &'static str {
        file!()
    }
    // This crate's code and locked dependencies (`build.rs`).
    fn outside_version(&self) -> Option<&'static str> {
        Some(env!("GAMESWEEP_KIND_VERSION"))
    }
}

/// The `custom-node-kayles` sweep kind.
pub const KIND: Layered<NodeKayles> = Layered(NodeKayles);
