//! Node Kayles on a graph: a move picks a remaining vertex and removes it
//! together with its remaining neighbours; whoever cannot move loses
//! (normal play). The solver: the Grundy value of every vertex subset, in
//! increasing order as bitmasks (removing vertices only lowers the mask).

use gamesweep::graph::{BitGraph, VSet};

/// The largest graph [`grundy`] accepts (2^n bytes of table).
pub const MAX_VERTICES: usize = 16;

/// The Grundy value of Node Kayles on `g` with every vertex present, or
/// `None` above [`MAX_VERTICES`] vertices.
pub fn grundy(g: &BitGraph) -> Option<u32> {
    let n = g.n();
    if n > MAX_VERTICES {
        return None;
    }
    // The closed neighbourhood of each vertex: what picking it removes.
    let closed: Vec<usize> = (0..n)
        .map(|v| (g.nbrs(v) | (1 as VSet) << v) as usize)
        .collect();
    let full = (1usize << n) - 1;
    let mut table = vec![0u8; full + 1];
    for mask in 1..=full {
        // A value is at most the number of options (≤ 16): a u32 of seen
        // values suffices.
        let mut seen = 0u32;
        let mut rest = mask;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            seen |= 1 << table[mask & !closed[v]];
        }
        table[mask] = (!seen).trailing_zeros() as u8;
    }
    Some(u32::from(table[full]))
}
