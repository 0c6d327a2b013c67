//! `geography-vertex`: directed vertex geography on digraphs. A token
//! starts on a vertex; a move slides it along an arc to a vertex it has
//! not visited; whoever cannot move loses. Positions: every start vertex.

use crate::families::graph_game::board::Picture;
use crate::families::graph_game::{Graph, GraphGame, Layered, Play, Side};
use crate::graph::{members, VSet};
use crate::sweep::Marks;

/// Directed vertex geography; a state is (token, visited vertices).
pub struct VertexGeography;

impl GraphGame for VertexGeography {
    type State = (u8, VSet);
    const NAME: &'static str = "geography-vertex";
    const ABOUT: &'static str = "Directed vertex geography: move the token along an arc to an unvisited vertex; the last to move wins";
    const PLAY: Play = Play::Impartial;
    const DIRECTED: bool = true;
    const MAX_N: usize = 5;
    const DEFAULT_N: usize = 4;

    fn positions(&self, g: &Graph) -> Vec<(u8, VSet)> {
        (0..g.n()).map(|v| (v as u8, 1 << v)).collect()
    }
    fn options(&self, g: &Graph, &(at, seen): &(u8, VSet), _: Side) -> Vec<(u8, VSet)> {
        members(g.nbrs(at as usize) & !seen)
            .map(|w| (w as u8, seen | 1 << w))
            .collect()
    }
    fn describe(&self, _: &Graph, &(at, _): &(u8, VSet)) -> String {
        format!("start {at}")
    }
    fn marks(&self, _: &Graph, &(at, _): &(u8, VSet)) -> Marks {
        Marks::Start(vec![at as usize])
    }
    fn picture(&self, g: &Graph, &(at, seen): &(u8, VSet)) -> Picture {
        let c = |v: usize| match v {
            _ if v == at as usize => 'T',
            _ if seen >> v & 1 == 1 => 'v',
            _ => '.',
        };
        Picture {
            vertices: (0..g.n()).map(c).collect(),
            used: Vec::new(),
        }
    }
    fn source_file(&self) -> &'static str {
        file!()
    }
}

/// The `geography-vertex` sweep kind.
pub const KIND: Layered<VertexGeography> = Layered(VertexGeography);
