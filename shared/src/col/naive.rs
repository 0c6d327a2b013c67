//! A plain win/lose search on colourings, with none of the solver's
//! reductions (no available-colour sets, no dropped arcs, no components, no
//! memo, no CGT): the independent check of [`super::Solver`].

use super::Board;
use crate::cgt::Outcome;
use crate::graph::members;

/// Does the player to move win, Blue (Left) if `blue_to_move`? `blue`/`red`: coloured vertices.
pub fn to_move_wins(b: &Board, blue: u32, red: u32, blue_to_move: bool) -> bool {
    let all = if b.n() == 32 {
        u32::MAX
    } else {
        (1u32 << b.n()) - 1
    };
    let uncoloured = all & !(blue | red);
    for u in members(uncoloured) {
        if blue_to_move {
            if b.look(u) & blue == 0 && !to_move_wins(b, blue | 1 << u, red, false) {
                return true;
            }
        } else if b.look(u) & red == 0 && !to_move_wins(b, blue, red | 1 << u, true) {
            return true;
        }
    }
    false
}

/// Outcome class by play: who wins moving first / second.
pub fn outcome(b: &Board, blue: u32, red: u32) -> Outcome {
    match (
        to_move_wins(b, blue, red, true),
        to_move_wins(b, blue, red, false),
    ) {
        (true, true) => Outcome::N,
        (true, false) => Outcome::L,
        (false, true) => Outcome::R,
        (false, false) => Outcome::P,
    }
}
