//! The position digest: what a shard run returns, besides its result,
//! when the coordinator asks for it (a lease with a salt): a wrapping sum
//! over every position of the shard of a keyed 64-bit mix of (the
//! position, its value) under that salt. The sum is order-independent, so
//! threads may split a shard and add their parts. Two runs that computed
//! every position's value alike return the same digest; a run that did not
//! compute them (a result copied from an export, whose totals say nothing
//! of single positions) cannot produce it. It is no cryptographic MAC: it
//! only has to be infeasible to get right without the values.

/// The salt-keyed mix of one 64-bit word into the running state `h`
/// (MurmurHash3's 64-bit finalizer of `h ^ w`, multiplied by an odd
/// constant so that zero words still move the state).
#[inline]
pub fn fold(h: u64, w: u64) -> u64 {
    let mut x = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The digest part of one graph's positions: `rows` (its adjacency rows,
/// bit `u` of row `v` = edge `vu`) and `values` (the value of each start,
/// in vertex order), mixed under `salt`. The graph and every start value
/// enter, so two labelled graphs, or two value vectors, differ here.
#[inline]
pub fn graph_part(salt: u64, rows: &[u32], values: &[u8]) -> u64 {
    let mut h = fold(salt, rows.len() as u64);
    for pair in rows.chunks(2) {
        let w = u64::from(pair[0]) | pair.get(1).map_or(0, |&r| u64::from(r) << 32);
        h = fold(h, w);
    }
    for chunk in values.chunks(8) {
        let mut w = 0u64;
        for (i, &v) in chunk.iter().enumerate() {
            w |= u64::from(v) << (8 * i);
        }
        h = fold(h, w ^ 0x5a5a_5a5a_5a5a_5a5a);
    }
    fold(h, salt.rotate_left(17))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_and_edge_and_the_salt_enter() {
        let rows = [0b110u32, 0b101, 0b011];
        let base = graph_part(7, &rows, &[1, 0, 2]);
        assert_ne!(base, graph_part(8, &rows, &[1, 0, 2]), "salt");
        assert_ne!(base, graph_part(7, &rows, &[1, 0, 1]), "a value");
        assert_ne!(base, graph_part(7, &rows, &[0, 1, 2]), "which start");
        assert_ne!(
            base,
            graph_part(7, &[0b010, 0b101, 0b010], &[1, 0, 2]),
            "an edge"
        );
        assert_eq!(base, graph_part(7, &rows, &[1, 0, 2]), "deterministic");
    }
}
