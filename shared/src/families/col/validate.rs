//! Validation helpers shared by the Col kinds: recorded positions re-read and checked.

use crate::col::Board;
use crate::graph::{graph6, BitGraph};
use crate::sweep::{graphplan, ValidateError};

/// The Col board of a graph (every vertex uncoloured).
pub fn col_board(g: &BitGraph) -> Board {
    Board::col(g.n(), &g.edges().collect::<Vec<_>>())
}

/// Recorded positions re-valued by [`Kind::validate`] of `col`, at most: a
/// fixed budget (each a fresh Col solve on ≤ [`RESOLVE_MAX_N`] vertices,
/// microseconds to a millisecond; a shard values thousands of positions).
pub const RESOLVE_BUDGET: usize = 12;

/// The blue and red vertex masks of a record's `colouring L.R.` detail on `n`
/// vertices, checked against its colouring index.
pub fn record_colouring(
    what: &str,
    r: &crate::sweep::Record,
    n: usize,
) -> Result<(u32, u32), ValidateError> {
    let text = r
        .detail
        .strip_prefix("colouring ")
        .filter(|t| t.chars().count() == n)
        .ok_or_else(|| {
            format!(
                "{what}: detail `{:.40}` is not a colouring of {n} vertices",
                r.detail
            )
        })?;
    let (mut blue, mut red) = (0u32, 0u32);
    for (v, ch) in text.chars().enumerate() {
        match ch {
            'L' => blue |= 1 << v,
            'R' => red |= 1 << v,
            '.' => {}
            _ => {
                return Err(ValidateError::from(format!(
                    "{what}: colouring `{text}` has `{ch}`"
                )))
            }
        }
    }
    if super::colouring_index(n, blue, red) != r.index {
        return Err(ValidateError::from(format!(
            "{what}: colouring index {} is not that of `{text}`",
            r.index
        )));
    }
    Ok((blue, red))
}

/// A recorded Col position of `col`: a connected graph on `vertices`
/// (within the shard's `lo..=hi`, and for a prefix shard one of its prefixes
/// on the first vertices) with `edges` edges and a proper colouring.
pub fn col_record(
    what: &str,
    r: &crate::sweep::Record,
    (lo, hi): (usize, usize),
    walk: &graphplan::Walk,
    prefixes: &[String],
) -> Result<(BitGraph, u32, u32), ValidateError> {
    let n = r.vertices as usize;
    if n < lo || n > hi {
        return Err(ValidateError::from(format!(
            "{what}: `{}` on {n} vertices, but this shard only has graphs on {lo}..={hi}",
            r.code
        )));
    }
    let g =
        graph6::parse_bitgraph(&r.code).map_err(|e| format!("{what}: `{:.40}`: {e}", r.code))?;
    if g.n() != n || g.edge_count() != r.edges as usize || !g.is_connected() {
        return Err(ValidateError::from(format!(
            "{what}: `{}` is not a connected graph on {n} vertices with {} edges",
            r.code, r.edges
        )));
    }
    if let graphplan::Walk::Prefixes(ps) = walk {
        let depth = ps[0].n();
        let head = graph6::encode_bitgraph(&g.induced((1u32 << depth) - 1));
        if !prefixes.contains(&head) {
            return Err(ValidateError::from(format!(
                "{what}: `{}` is not in this shard (its first {depth} vertices are `{head}`)",
                r.code
            )));
        }
    }
    let (blue, red) = record_colouring(what, r, n)?;
    if g.edges().any(|(u, v)| {
        let same = |m: u32| m >> u & 1 == 1 && m >> v & 1 == 1;
        same(blue) || same(red)
    }) {
        return Err(ValidateError::from(format!(
            "{what}: `{}` {} has a same-colour edge",
            r.code, r.detail
        )));
    }
    Ok((g, blue, red))
}
