//! [`Kind::validate`] of `myopic-digraph`: a shard's result checked without re-running it.

use super::*;

/// [`Kind::validate`] for `myopic-digraph`: the shard's positions are known
/// exactly ((hi − lo) digraphs × 3^n colourings, or hi − lo samples), the
/// other set is empty, subjects and watched cases are at most n per
/// position, exceptions within the subjects, broken watched cases within the
/// watched ones (with a smallest one exactly when there is one), the record
/// lists complete up to their cap, and every record on the shard's n
/// vertices.
pub(super) fn validate(
    p: &DigraphParams,
    shard: &DigraphShard,
    out: &DigraphOutput,
) -> Result<(), ValidateError> {
    let (name, set, other, other_name, n, positions) = match *shard {
        DigraphShard::Exhaustive(r) => {
            r.check("myopic-digraph").map_err(|e| e.to_string())?;
            let colourings = 3u64.pow(r.n as u32);
            (
                "exhaustive",
                &out.exhaustive,
                &out.random,
                "random",
                r.n,
                (r.hi - r.lo) * colourings,
            )
        }
        DigraphShard::Random { lo, hi } => {
            if lo > hi || hi > p.random || !(2..=20).contains(&p.vertices) {
                return Err(ValidateError::from(format!(
                    "shard: random samples {lo}..{hi} outside 0..{} (or vertices {} out of 2..=20)",
                    p.random, p.vertices
                )));
            }
            (
                "random",
                &out.random,
                &out.exhaustive,
                "exhaustive",
                p.vertices,
                hi - lo,
            )
        }
    };
    if *other != RuleCounts::default() {
        return Err(ValidateError::from(format!(
            "{other_name}: {} positions, but this is a {name} shard",
            other.positions
        )));
    }
    if set.positions != positions {
        return Err(ValidateError::from(format!(
            "{name}.positions is {}, but the shard has {positions} positions",
            set.positions
        )));
    }
    let per_vertex = positions * n as u64;
    for (f, v, limit) in [
        ("subjects", set.subjects, per_vertex),
        ("watched", set.watched, per_vertex),
        ("watched_broken", set.watched_broken, set.watched),
    ] {
        if v > limit {
            return Err(ValidateError::from(format!(
                "{name}.{f} is {v}, above {limit}"
            )));
        }
    }
    if set.smallest_watched_broken.0.is_some() != (set.watched_broken > 0) {
        return Err(ValidateError::from(format!(
            "{name}.smallest_watched_broken is {}, but watched_broken is {}",
            if set.smallest_watched_broken.0.is_some() {
                "set"
            } else {
                "empty"
            },
            set.watched_broken
        )));
    }
    let cap = crate::families::col::RECORD_CAP;
    for (f, rs, limit) in [
        ("exceptions", &set.exceptions.0, set.subjects),
        ("non_cold", &set.non_cold.0, positions),
    ] {
        if rs.cap != cap || rs.total > limit || rs.kept.len() as u64 != rs.total.min(cap) {
            return Err(ValidateError::from(format!(
                "{name}.{f}: total {} with {} kept (cap {}), of {limit} (cap {cap})",
                rs.total,
                rs.kept.len(),
                rs.cap
            )));
        }
    }
    let records = set
        .exceptions
        .0
        .kept
        .iter()
        .chain(&set.non_cold.0.kept)
        .chain(&set.smallest_watched_broken.0);
    for r in records {
        if r.vertices as usize != n {
            return Err(ValidateError::from(format!(
                "{name}: record `{:.40}` has {} vertices, but the shard's digraphs have {n}",
                r.code, r.vertices
            )));
        }
    }
    Ok(())
}
