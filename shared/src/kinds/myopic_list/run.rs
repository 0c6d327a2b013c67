//! The shard work of `myopic-list`.

use super::*;

/// Colours left at a segment's tail: index 0 both, 1 blue only, 2 red only.
pub(super) const BOTH: usize = 0;
pub(super) const BLUE_ONLY: usize = 1;
pub(super) const RED_ONLY: usize = 2;

/// `v[m][t]`: value of an uncoloured segment of `m` nodes (arcs `i → i+1`)
/// whose inner nodes have both colours and whose tail has colour set `t`.
pub(super) fn list_values(e: &mut Arena, max: usize) -> Vec<[GameId; 3]> {
    let z = e.zero();
    let mut v = vec![[z; 3]];
    for m in 1..=max {
        let mut row = [z; 3];
        for (t, slot) in row.iter_mut().enumerate() {
            let mut lo = Vec::new();
            let mut ro = Vec::new();
            for j in 0..m {
                let tail = j == m - 1;
                // Node j takes colour c: the prefix 0..j loses c at its tail (node j−1),
                // the suffix j+1..m keeps tail set t.
                for (c, opts) in [(BLUE_ONLY, &mut lo), (RED_ONLY, &mut ro)] {
                    let allowed = !tail || t == BOTH || t == c;
                    if !allowed {
                        continue;
                    }
                    let prefix_tail = if c == BLUE_ONLY { RED_ONLY } else { BLUE_ONLY };
                    let a = v[j][prefix_tail];
                    let b = if tail { z } else { v[m - 1 - j][t] };
                    opts.push(e.add(a, b));
                }
            }
            *slot = e.game(&lo, &ro);
        }
        v.push(row);
    }
    v
}

/// The corollary's value `a·* + b − c` for lists given as a board and colouring.
pub(super) fn corollary(e: &mut Arena, b: &Board, blue: u32, red: u32) -> GameId {
    let n = b.n();
    let all = (1u32 << n) - 1;
    let unc = all & !(blue | red);
    let (mut a, mut x) = (0u32, 0i64);
    for u in members(unc) {
        let t = b.look(u);
        if t & blue != 0 {
            x -= 1;
        } else if t & red != 0 {
            x += 1;
        } else {
            a += 1;
        }
    }
    e.num_nim(Dyadic::int(x), a % 2)
}

pub(super) fn lists_board(lens: &[usize]) -> Board {
    let n: usize = lens.iter().sum();
    let mut arcs = Vec::new();
    let mut start = 0;
    for &l in lens {
        for i in start..start + l - 1 {
            arcs.push((i, i + 1));
        }
        start += l;
    }
    Board::myopic(n, &arcs)
}

pub(super) fn lists_code(lens: &[usize]) -> String {
    lens.iter()
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join("+")
}

/// Every composition of up to `total` into `k` positive parts, starting with `first`.
pub(super) fn compositions(k: usize, total: usize, first: usize) -> Vec<Vec<usize>> {
    fn rec(k: usize, left: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if k == 0 {
            out.push(cur.clone());
            return;
        }
        for l in 1..=left.saturating_sub(k - 1) {
            cur.push(l);
            rec(k - 1, left - l, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    if first + (k - 1) <= total {
        let mut cur = vec![first];
        rec(k - 1, total - first, &mut cur, &mut out);
    }
    out
}

/// Check the corollary on every colouring of the lists `lens`: counts into
/// `check`, non-cold positions into `non_cold`; returns the positions checked.
pub(super) fn check_lists(
    solver: &mut Solver,
    check: &mut Check,
    non_cold: &mut Records,
    lens: &[usize],
) -> u64 {
    let b = lists_board(lens);
    let n = b.n();
    let code = lists_code(lens);
    let total = 3u64.pow(n as u32);
    for c in 0..total {
        let (blue, red) = colouring_from_index(n, c);
        let g = solver.value(&b, b.position_masks(blue, red));
        let f = corollary(&mut solver.arena, &b, blue, red);
        if !solver.arena.is_cold(g) {
            let s = solver.arena.display(g);
            non_cold.add(position_record(
                n,
                b.arc_count(),
                &code,
                blue,
                red,
                format!("value {s}"),
            ));
        }
        if f != g {
            let (a, fs) = (solver.arena.display(g), solver.arena.display(f));
            check.exceptions.add(position_record(
                n,
                b.arc_count(),
                &code,
                blue,
                red,
                format!("value {a}, formula {fs}"),
            ));
        }
    }
    check.positions += total;
    total
}
