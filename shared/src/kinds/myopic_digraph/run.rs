//! The shard work of `myopic-digraph`.

use super::*;

pub(super) fn uniform(rng: &mut ChaCha8Rng, m: u32) -> u32 {
    let zone = (1u64 << 32) / m as u64 * m as u64;
    loop {
        let x = rng.next_u32();
        if (x as u64) < zone {
            return x % m;
        }
    }
}

/// Random sample `i` of the documented stream: (board, blue, red).
pub(super) fn random_position(seed: u64, i: u64, n: usize) -> (Board, u32, u32) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(i);
    let mut arcs = Vec::new();
    for b in 1..n {
        for a in 0..b {
            match uniform(&mut rng, 20) {
                0..=10 => {}
                11..=14 => arcs.push((a, b)),
                15..=18 => arcs.push((b, a)),
                _ => {
                    arcs.push((a, b));
                    arcs.push((b, a));
                }
            }
        }
    }
    let (mut blue, mut red) = (0, 0);
    for v in 0..n {
        match uniform(&mut rng, 4) {
            2 => blue |= 1 << v,
            3 => red |= 1 << v,
            _ => {}
        }
    }
    (Board::myopic(n, &arcs), blue, red)
}
/// Check every subject / watched case of one position, counting into `out`.
pub(super) fn check_position(
    solver: &mut Solver,
    out: &mut RuleCounts,
    b: &Board,
    code: &str,
    blue: u32,
    red: u32,
) {
    let n = b.n();
    let all = (1u32 << n) - 1;
    let unc = all & !(blue | red);
    let pos = b.position_masks(blue, red);
    let g = solver.value(b, pos);
    out.positions += 1;
    if !solver.arena.is_cold(g) {
        let s = solver.arena.display(g);
        out.non_cold.add(position_record(
            n,
            b.arc_count(),
            code,
            blue,
            red,
            format!("value {s}"),
        ));
    }
    for r in members(unc) {
        let look = b.look(r);
        if look == 0 || look & !unc != 0 {
            continue;
        }
        let watched = b.watchers(r) & unc != 0;
        let rest = Pos {
            l: pos.l & !(1 << r),
            r: pos.r & !(1 << r),
        };
        let gr = solver.value(b, rest);
        let star = solver.arena.star();
        let f = solver.arena.add(star, gr);
        if watched {
            out.watched += 1;
        } else {
            out.subjects += 1;
        }
        if f != g {
            let (a, fs) = (solver.arena.display(g), solver.arena.display(f));
            let rec = position_record(
                n,
                b.arc_count(),
                code,
                blue,
                red,
                format!("r = {r}: value {a}, formula {fs}"),
            );
            if watched {
                out.watched_broken += 1;
                out.smallest_watched_broken.offer(rec);
            } else {
                out.exceptions.add(rec);
            }
        }
    }
}
