//! `arc-kayles`: Arc Kayles on graphs. A move picks an edge whose two ends
//! remain and removes both ends (with every edge at them); whoever cannot
//! move loses. One position per graph: the whole board.

use crate::families::graph_game::board::{Picture, Place};
use crate::families::graph_game::{Graph, GraphGame, Layered, Play, Side};
use crate::graph::VSet;

/// Arc Kayles; a state is the set of remaining vertices.
pub struct ArcKayles;

impl GraphGame for ArcKayles {
    type State = VSet;
    const NAME: &'static str = "arc-kayles";
    const ABOUT: &'static str =
        "Arc Kayles: pick an edge, both its ends leave the graph; the last to move wins";
    const PLAY: Play = Play::Impartial;

    fn positions(&self, g: &Graph) -> Vec<VSet> {
        vec![g.all()]
    }
    fn options(&self, g: &Graph, left: &VSet, _: Side) -> Vec<VSet> {
        let gone = |u: usize, v: usize| left & !(1 << u | 1 << v);
        g.edges()
            .into_iter()
            .filter(|&(u, v)| left >> u & left >> v & 1 == 1)
            .map(|(u, v)| gone(u, v))
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
    fn places(&self, g: &Graph, left: &VSet, _: Side) -> Vec<Option<Place>> {
        g.edges()
            .into_iter()
            .filter(|&(u, v)| left >> u & left >> v & 1 == 1)
            .map(|(u, v)| Some(Place::Edge(u, v)))
            .collect()
    }
    fn source_file(&self) -> &'static str {
        file!()
    }
}

/// The `arc-kayles` sweep kind.
pub const KIND: Layered<ArcKayles> = Layered(ArcKayles);
