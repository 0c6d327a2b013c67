//! STUB
#![allow(missing_docs, unused)]
use crate::graph::{BitGraph, VSet};
pub fn grundy_all(g: &BitGraph) -> Vec<u8> {
    todo!()
}
pub fn first_player_wins(g: &BitGraph, v: usize, alive: VSet) -> bool {
    todo!()
}
pub fn winning_move(g: &BitGraph, v: usize, alive: VSet) -> Option<usize> {
    todo!()
}
pub mod degree3 {
    use crate::graph::{BitGraph, VSet};
    pub fn grundy_degree3(g: &BitGraph, v: usize, alive: VSet) -> Option<(u8, u32)> {
        todo!()
    }
}
pub mod general {
    use crate::graph::general::GeneralGraph;
    pub struct GeneralOutcome {
        pub value: u32,
        pub nodes: u64,
    }
    pub struct BudgetExceeded {
        pub nodes: u64,
    }
    pub fn grundy_general(
        g: &GeneralGraph,
        start: usize,
        budget: Option<u64>,
    ) -> Result<GeneralOutcome, BudgetExceeded> {
        todo!()
    }
    pub fn first_player_wins_general(g: &GeneralGraph, start: usize) -> bool {
        todo!()
    }
    pub fn winning_move_general(g: &GeneralGraph, start: usize) -> Option<usize> {
        todo!()
    }
}
pub fn grundy(g: &BitGraph, v: usize, alive: VSet) -> u8 {
    todo!()
}
