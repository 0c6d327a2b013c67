//! Trees and the value *k: t(k) (root with children t(k−1), …, t(0)) has
//! value *k on 2^k vertices, and no tree does it with fewer.
//!
//! On a tree, the token on s sees the tree rooted at s; moving to a child c
//! deletes s, and c's component is exactly c's subtree. So the value of
//! (tree, s) is the value of the rooted tree, `mex` of its children's values.
//! [`root_values_by_size`] runs that recursion over *every* rooted tree at
//! once: it tracks, per size, the set of values a rooted tree of that size can
//! have, and, per size, the set of child-value sets a forest of that size can
//! have. Every forest is one tree plus a smaller forest, so nothing is missed.

/// `out[m]`, for `m` in `0..=max_size`, is the set (bit k ⇔ value *k) of
/// values of (tree, start) positions on trees with exactly `m` vertices
/// (`out[0]` is empty). Values of trees on ≤ 2^62 vertices stay below 63, so
/// a `u64` bitmask holds them; `max_size` must be at most 4096 (the forest
/// table is `max_size × 2^(⌊log₂ max_size⌋ + 1)` booleans).
pub fn root_values_by_size(max_size: usize) -> Vec<u64> {
    assert!(max_size <= 4096, "max_size {max_size} too large");
    // Values on m vertices are ≤ log₂ m (by the claim this checks, but the
    // table below does not rely on it: a larger value would overflow the
    // width and is caught by the assertion in `mex_mask`).
    let width = usize::BITS as usize - max_size.max(1).leading_zeros() as usize + 1;
    let masks = 1usize << width;
    let mut values = vec![0u64; max_size + 1];
    // forests[r][M]: a forest on r vertices has child-value set M.
    let mut forests: Vec<Vec<bool>> = Vec::with_capacity(max_size + 1);
    let mut empty = vec![false; masks];
    empty[0] = true;
    forests.push(empty);
    for m in 1..=max_size {
        // A rooted tree on m vertices: root + forest on m − 1 vertices.
        let mut vals = 0u64;
        for (mask, &ok) in forests[m - 1].iter().enumerate() {
            if ok {
                let mex = (!mask).trailing_zeros() as usize;
                assert!(mex < width, "value {mex} exceeds the table width");
                vals |= 1 << mex;
            }
        }
        values[m] = vals;
        // Forests on m vertices: a tree on t vertices plus a forest on m − t.
        let mut f = vec![false; masks];
        for t in 1..=m {
            let tv = values[t];
            for (mask, &ok) in forests[m - t].iter().enumerate() {
                if !ok {
                    continue;
                }
                let mut vs = tv;
                while vs != 0 {
                    let v = vs.trailing_zeros() as usize;
                    vs &= vs - 1;
                    f[mask | 1 << v] = true;
                }
            }
        }
        forests.push(f);
    }
    values
}

/// The smallest tree size with a position of value *k, for k = 0, 1, …, as
/// far as sizes ≤ `max_size` reach (`None` if no tree that small has it).
pub fn smallest_tree_for_value(max_size: usize, max_k: usize) -> Vec<Option<usize>> {
    let vals = root_values_by_size(max_size);
    (0..=max_k)
        .map(|k| (1..=max_size).find(|&m| vals[m] >> k & 1 == 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smallest_trees_need_two_to_the_k_vertices() {
        // Exhaustive over all trees on ≤ 256 vertices: *k first appears at 2^k, k ≤ 8.
        let got = smallest_tree_for_value(256, 8);
        let want: Vec<Option<usize>> = (0..=8).map(|k| Some(1usize << k)).collect();
        assert_eq!(got, want);
    }

    /// t(k) from `uvg::general::tree_t`: 2^k vertices, a tree, and the exact
    /// search gives the root the value *k, for k ≤ 8.
    #[test]
    fn tree_t_has_value_k_on_2_to_the_k_vertices() {
        use crate::uvg::general::{grundy_general, tree_t};
        for k in 0..=8u32 {
            let t = tree_t(k);
            assert_eq!(t.n(), 1 << k, "size of t({k})");
            assert_eq!(t.edge_count() + 1, t.n(), "t({k}) is a tree");
            assert!(t.is_connected());
            let got = grundy_general(&t, 0, None).unwrap();
            assert_eq!(got.value, k, "value of t({k})");
        }
    }

    #[test]
    fn small_sizes_by_hand() {
        let v = root_values_by_size(5);
        // 1 vertex: 0. 2: edge, *. 3: path end (0), path middle (*).
        assert_eq!(v[1], 0b1);
        assert_eq!(v[2], 0b10);
        assert_eq!(v[3], 0b11);
        // 4: the rooted trees are the path from an end (child = P3 from its end, value 0 → *),
        // path from an inner vertex (children: one vertex (0) and P2 from its end (*) → *2),
        // star from the centre (three leaves → *), star from a leaf (child = star on 3 from its
        // centre, value * → 0).
        assert_eq!(v[4], 0b111);
    }
}
