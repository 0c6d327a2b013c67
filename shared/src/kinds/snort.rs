//! `snort`: Snort on graphs, the partizan colouring game. Left colours an
//! uncoloured vertex blue, Right red; no vertex may get a colour next to
//! the other colour. One position per graph: the empty board. Swapping the
//! colours negates a position, so the empty board is its own negative: its
//! outcome is P or N (the property checked).

use crate::cgt::Outcome;
use crate::families::graph_game::{Graph, GraphGame, Layered, Play, Side, Value};
use crate::graph::{members, VSet};
use crate::sweep::Marks;

/// Snort; a state is (blue vertices, red vertices).
pub struct Snort;

impl GraphGame for Snort {
    type State = (VSet, VSet);
    const NAME: &'static str = "snort";
    const ABOUT: &'static str =
        "Snort: colour a vertex your colour, never next to the other colour; the last to move wins";
    const PLAY: Play = Play::Partizan;
    const MAX_N: usize = 8;
    const DEFAULT_N: usize = 6;
    const PROPERTY: Option<&'static str> = Some("the empty board is P or N");

    fn positions(&self, _: &Graph) -> Vec<(VSet, VSet)> {
        vec![(0, 0)]
    }
    fn options(&self, g: &Graph, &(blue, red): &(VSet, VSet), side: Side) -> Vec<(VSet, VSet)> {
        let free = g.all() & !(blue | red);
        let (other, mine) = if side == Side::Left {
            (red, blue)
        } else {
            (blue, red)
        };
        members(free)
            .filter(|&v| g.nbrs(v) & other == 0)
            .map(|v| {
                if side == Side::Left {
                    (mine | 1 << v, red)
                } else {
                    (blue, mine | 1 << v)
                }
            })
            .collect()
    }
    fn check(&self, _: &Graph, _: &(VSet, VSet), v: &Value) -> bool {
        matches!(v.outcome, Outcome::P | Outcome::N)
    }
    fn describe(&self, _: &Graph, _: &(VSet, VSet)) -> String {
        "the empty board".into()
    }
    fn marks(&self, g: &Graph, &(blue, red): &(VSet, VSet)) -> Marks {
        let c = |v: usize| {
            if blue >> v & 1 == 1 {
                'L'
            } else if red >> v & 1 == 1 {
                'R'
            } else {
                '.'
            }
        };
        Marks::Colouring((0..g.n()).map(c).collect())
    }
    fn source_file(&self) -> &'static str {
        file!()
    }
}

/// The `snort` sweep kind.
pub const KIND: Layered<Snort> = Layered(Snort);
