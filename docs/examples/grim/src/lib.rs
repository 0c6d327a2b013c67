//! Grim on graphs: a move deletes a vertex that still has a neighbour,
//! with its edges; every vertex left without a neighbour goes too. Whoever
//! cannot move loses.

use gamesweep::families::graph_game::board::{Picture, Place};
use gamesweep::families::graph_game::{GameKind, Graph, GraphGame, Layered, Play, Side, Value};
use gamesweep::graph::{members, VSet};

/// Grim; a position is the set of vertices still on the board.
pub struct Grim;

impl GraphGame for Grim {
    type State = VSet;
    const NAME: &'static str = "grim";
    const ABOUT: &'static str =
        "Grim: delete a vertex that has a neighbour; vertices left alone go too";
    const PLAY: Play = Play::Impartial;
    const MAX_N: usize = 10;
    const PROPERTY: Option<&'static str> = Some("the Grundy value is at most the largest degree");

    fn positions(&self, g: &Graph) -> Vec<VSet> {
        vec![without_isolated(g, g.all())]
    }
    fn options(&self, g: &Graph, board: &VSet, _: Side) -> Vec<VSet> {
        members(*board)
            .map(|v| without_isolated(g, board & !(1 << v)))
            .collect()
    }
    fn check(&self, g: &Graph, _: &VSet, v: &Value) -> bool {
        let degree = (0..g.n()).map(|v| g.nbrs(v).count_ones()).max();
        v.grundy.unwrap_or(0) <= degree.unwrap_or(0)
    }
    fn describe(&self, _: &Graph, _: &VSet) -> String {
        "the whole board".into()
    }
    // How the board draws a position (`x`: deleted), and where each move
    // is made on the drawing: the vertex deleted.
    fn picture(&self, g: &Graph, board: &VSet) -> Picture {
        let mark = |v: usize| if board >> v & 1 == 1 { '.' } else { 'x' };
        Picture {
            vertices: (0..g.n()).map(mark).collect(),
            used: Vec::new(),
        }
    }
    fn places(&self, _: &Graph, board: &VSet, _: Side) -> Vec<Option<Place>> {
        members(*board).map(|v| Some(Place::Vertex(v))).collect()
    }
    fn source_file(&self) -> &'static str {
        file!()
    }
    fn outside_version(&self) -> Option<&'static str> {
        Some(env!("GAMESWEEP_KIND_VERSION"))
    }
}

/// The vertices of `board` that have a neighbour in `board`.
fn without_isolated(g: &Graph, board: VSet) -> VSet {
    members(board)
        .filter(|&v| g.nbrs(v) & board != 0)
        .fold(0, |kept, v| kept | 1 << v)
}

/// The `grim` sweep kind.
pub const KIND: Layered<Grim> = Layered(Grim);

/// The games this crate adds, for its binaries.
pub static GAMES: &[&dyn GameKind] = &[&KIND];
