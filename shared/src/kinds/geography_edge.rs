//! `geography-edge`: undirected edge geography. A token starts on a
//! vertex; a move slides it along an edge not used before; whoever cannot
//! move loses. Positions: every start vertex.

use crate::families::graph_game::board::Picture;
use crate::families::graph_game::{Graph, GraphGame, Layered, Play, Side};
use crate::sweep::Marks;

/// Undirected edge geography; a state is (token, used edges by index in `Graph::edges`).
pub struct EdgeGeography;

impl GraphGame for EdgeGeography {
    type State = (u8, u64);
    const NAME: &'static str = "geography-edge";
    const ABOUT: &'static str =
        "Undirected edge geography: move the token along an unused edge; the last to move wins";
    const PLAY: Play = Play::Impartial;
    const MAX_N: usize = 8;
    const DEFAULT_N: usize = 6;

    fn positions(&self, g: &Graph) -> Vec<(u8, u64)> {
        (0..g.n()).map(|v| (v as u8, 0)).collect()
    }
    fn options(&self, g: &Graph, &(at, used): &(u8, u64), _: Side) -> Vec<(u8, u64)> {
        let at = at as usize;
        g.edges()
            .into_iter()
            .enumerate()
            .filter(|&(i, (u, v))| used >> i & 1 == 0 && (u == at || v == at))
            .map(|(i, (u, v))| ((u + v - at) as u8, used | 1 << i))
            .collect()
    }
    fn describe(&self, _: &Graph, &(at, _): &(u8, u64)) -> String {
        format!("start {at}")
    }
    fn marks(&self, _: &Graph, &(at, _): &(u8, u64)) -> Marks {
        Marks::Start(vec![at as usize])
    }
    fn picture(&self, g: &Graph, &(at, used): &(u8, u64)) -> Picture {
        Picture {
            vertices: (0..g.n())
                .map(|v| if v == at as usize { 'T' } else { '.' })
                .collect(),
            used: g
                .edges()
                .into_iter()
                .enumerate()
                .filter(|&(i, _)| used >> i & 1 == 1)
                .map(|(_, e)| e)
                .collect(),
        }
    }
    fn source_file(&self) -> &'static str {
        file!()
    }
}

/// The `geography-edge` sweep kind.
pub const KIND: Layered<EdgeGeography> = Layered(EdgeGeography);
