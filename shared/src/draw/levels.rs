//! A drawing of an acyclic digraph by levels, as the boards draw an acyclic
//! game graph: every arc points down.
//!
//! The level of a vertex is the length of the longest path from it to a
//! vertex without arcs out (for a game: the most moves that can still be
//! made from the position, its height). The end positions are at level 0,
//! at the bottom, and every arc goes from a higher level to a strictly
//! lower one, so a game reads from the top down. (Depth from the start
//! would leave positions the start cannot reach without a level and lets
//! arcs run along a level.)
//!
//! Within a level, vertices start in index order and are reordered by a
//! fixed number of barycentre sweeps (down, then up) to shorten arcs; each
//! level is then centred, its boxes side by side with [`BOX_GAP`] between
//! them, so no two boxes overlap. Integer arithmetic only: the same graph
//! gives the same picture on every platform.

/// Vertical distance between two levels, in pixels.
pub const LEVEL_GAP: u32 = 56;

/// Horizontal space between two boxes of a level, in pixels.
pub const BOX_GAP: u32 = 10;

/// Space around the picture, in pixels.
pub const MARGIN: u32 = 20;

/// Barycentre sweeps (each one down and one up).
const SWEEPS: usize = 4;

/// A drawing by levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelLayout {
    /// The level of each vertex (see the module's notes).
    pub levels: Vec<usize>,
    /// The centre of each vertex's box, inside `width × height`.
    pub coords: Vec<(i32, i32)>,
    /// Width of the picture.
    pub width: u32,
    /// Height of the picture.
    pub height: u32,
}

/// The level of each of the `n` vertices (the longest path to a vertex
/// without arcs out), or `None` when the arcs make a directed cycle (a loop
/// included). Arcs naming a vertex `>= n` are ignored.
pub fn levels(n: usize, arcs: &[(usize, usize)]) -> Option<Vec<usize>> {
    let mut out_degree = vec![0usize; n];
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(u, v) in arcs.iter().filter(|&&(u, v)| u < n && v < n) {
        out_degree[u] += 1;
        into[v].push(u);
    }
    let mut level = vec![0usize; n];
    // Vertices whose arcs out all lead to placed vertices, sinks first.
    let mut ready: Vec<usize> = (0..n).filter(|&v| out_degree[v] == 0).collect();
    let mut placed = 0;
    while let Some(v) = ready.pop() {
        placed += 1;
        for &u in &into[v] {
            level[u] = level[u].max(level[v] + 1);
            out_degree[u] -= 1;
            if out_degree[u] == 0 {
                ready.push(u);
            }
        }
    }
    (placed == n).then_some(level)
}

/// Lay out `n` vertices by level (see the module's notes), vertex `v` a box
/// `widths[v]` pixels wide (`box_height` high); the picture is at least
/// `min_width` wide. `None` when the arcs make a directed cycle.
pub fn level_layout(
    n: usize,
    arcs: &[(usize, usize)],
    widths: &[u32],
    box_height: u32,
    min_width: u32,
) -> Option<LevelLayout> {
    let level = levels(n, arcs)?;
    let width_of = |v: usize| widths.get(v).copied().unwrap_or(0);
    let top = level.iter().copied().max().unwrap_or(0);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); top + 1];
    for v in 0..n {
        rows[level[v]].push(v);
    }
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(u, v) in arcs.iter().filter(|&&(u, v)| u < n && v < n) {
        adjacent[u].push(v);
        adjacent[v].push(u);
    }
    order_rows(&mut rows, &level, &adjacent);
    let row_width = |r: &[usize]| -> u64 {
        r.iter().map(|&v| u64::from(width_of(v))).sum::<u64>()
            + u64::from(BOX_GAP) * r.len().saturating_sub(1) as u64
    };
    let widest = rows.iter().map(|r| row_width(r)).max().unwrap_or(0);
    let width = (widest + 2 * u64::from(MARGIN)).max(u64::from(min_width));
    let width = u32::try_from(width).unwrap_or(u32::MAX);
    let height = 2 * MARGIN + box_height + LEVEL_GAP * top as u32;
    let mut coords = vec![(0, 0); n];
    for (k, r) in rows.iter().enumerate() {
        let y = MARGIN + box_height / 2 + LEVEL_GAP * (top - k) as u32;
        let mut left = (u64::from(width) - row_width(r)) / 2;
        for &v in r {
            let w = u64::from(width_of(v));
            coords[v] = ((left + w / 2) as i32, y as i32);
            left += w + u64::from(BOX_GAP);
        }
    }
    Some(LevelLayout {
        levels: level,
        coords,
        width,
        height,
    })
}

/// Reorder each level by the barycentre of its neighbours' places on the
/// levels already swept (stable: ties and vertices without such neighbours
/// keep their order).
fn order_rows(rows: &mut [Vec<usize>], level: &[usize], adjacent: &[Vec<usize>]) {
    // A vertex's relative place in its row, in integers: the middle of its
    // slot, (2·rank + 1) / (2·length), times 2^20.
    const SCALE: u64 = 1 << 20;
    let mut place = vec![0u64; level.len()];
    let set_places = |row: &[usize], place: &mut Vec<u64>| {
        let len = row.len() as u64;
        for (i, &v) in row.iter().enumerate() {
            place[v] = (2 * i as u64 + 1) * SCALE / (2 * len);
        }
    };
    for r in rows.iter() {
        set_places(r, &mut place);
    }
    let top = rows.len();
    for _ in 0..SWEEPS {
        for down in [true, false] {
            let ks: Vec<usize> = if down {
                (0..top.saturating_sub(1)).rev().collect()
            } else {
                (1..top).collect()
            };
            for k in ks {
                let swept = |w: usize| if down { level[w] > k } else { level[w] < k };
                // The mean as (sum, count), compared by cross-multiplying;
                // without swept neighbours, the vertex's own place.
                let key = |v: usize| -> (u64, u64) {
                    let near = adjacent[v].iter().filter(|&&w| swept(w));
                    let (sum, count) = near.fold((0, 0), |(s, c), &w| (s + place[w], c + 1));
                    if count == 0 {
                        (place[v], 1)
                    } else {
                        (sum, count)
                    }
                };
                let mut keyed: Vec<(usize, (u64, u64))> =
                    rows[k].iter().map(|&v| (v, key(v))).collect();
                keyed.sort_by(|(_, (s1, c1)), (_, (s2, c2))| {
                    (u128::from(*s1) * u128::from(*c2)).cmp(&(u128::from(*s2) * u128::from(*c1)))
                });
                rows[k] = keyed.into_iter().map(|(v, _)| v).collect();
                set_places(&rows[k], &mut place);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seeded pseudo-random acyclic digraph on `n` vertices: arcs only
    /// from a higher to a lower index, in a shuffled numbering.
    fn random_dag(n: usize, seed: u64) -> Vec<(usize, usize)> {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut name: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            name.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        let mut arcs = Vec::new();
        for u in 0..n {
            for v in 0..u {
                if next() % 5 == 0 {
                    arcs.push((name[u], name[v]));
                }
            }
        }
        arcs
    }

    /// The defining property, checked directly: a vertex without arcs out
    /// is at level 0, any other one level above its highest successor.
    fn is_height(n: usize, arcs: &[(usize, usize)], level: &[usize]) -> bool {
        (0..n).all(|u| {
            let succ = arcs.iter().filter(|a| a.0 == u).map(|a| level[a.1]);
            level[u] == succ.map(|l| l + 1).max().unwrap_or(0)
        })
    }

    #[test]
    fn arcs_go_down_and_no_two_boxes_overlap() {
        let mut checked = 0;
        for n in [0, 1, 2, 5, 12, 40, 150] {
            for seed in 0..6 {
                let arcs = random_dag(n, seed);
                let widths: Vec<u32> = (0..n).map(|v| 24 + 6 * (v as u32 % 9)).collect();
                let l = level_layout(n, &arcs, &widths, 22, 400).unwrap();
                assert!(is_height(n, &arcs, &l.levels), "n {n} seed {seed}");
                for &(u, v) in &arcs {
                    assert!(l.levels[u] > l.levels[v]);
                    // Drawn downwards, at least a level apart.
                    assert!(l.coords[v].1 - l.coords[u].1 >= LEVEL_GAP as i32);
                }
                for u in 0..n {
                    let (x, y) = l.coords[u];
                    let hw = widths[u] as i32 / 2;
                    assert!(x - hw >= 0 && x + hw <= l.width as i32, "n {n}: {x}");
                    assert!(y - 11 >= 0 && y + 11 <= l.height as i32, "n {n}: {y}");
                    // Same level: same height; boxes apart by at least the gap.
                    for v in (u + 1)..n {
                        let (x2, y2) = l.coords[v];
                        assert_eq!(y == y2, l.levels[u] == l.levels[v]);
                        if y == y2 {
                            let need = (widths[u] + widths[v]) as i32 / 2 + BOX_GAP as i32 - 1;
                            assert!((x - x2).abs() >= need, "n {n}: {u} {v} overlap");
                        } else {
                            assert!((y - y2).abs() >= LEVEL_GAP as i32);
                        }
                    }
                }
                checked += arcs.len();
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn a_cycle_has_no_levels_and_the_layout_is_deterministic() {
        assert_eq!(levels(3, &[(0, 1), (1, 2), (2, 0)]), None);
        assert_eq!(levels(1, &[(0, 0)]), None);
        assert!(level_layout(2, &[(0, 1), (1, 0)], &[30, 30], 22, 400).is_none());
        // A path 0 → 1 → 2 and a shortcut 0 → 2: levels 2, 1, 0, one a row.
        let l = level_layout(3, &[(0, 1), (1, 2), (0, 2)], &[30, 30, 30], 22, 400).unwrap();
        assert_eq!(l.levels, vec![2, 1, 0]);
        assert_eq!(l.coords, vec![(200, 31), (200, 87), (200, 143)]);
        assert_eq!((l.width, l.height), (400, 2 * MARGIN + 22 + 2 * LEVEL_GAP));
        let arcs = random_dag(60, 7);
        let w = vec![30; 60];
        assert_eq!(
            level_layout(60, &arcs, &w, 22, 400),
            level_layout(60, &arcs, &w, 22, 400)
        );
    }

    #[test]
    fn barycentre_sweeps_untangle_a_crossing() {
        // Level 1: a, b; level 0: c, d with a → d, b → c (crossed in index
        // order); the sweeps put c under b and d under a, or the reverse.
        let l = level_layout(4, &[(0, 3), (1, 2)], &[30; 4], 22, 400).unwrap();
        let x = |v: usize| l.coords[v].0;
        assert_eq!(x(0) < x(1), x(3) < x(2), "{:?}", l.coords);
    }
}
