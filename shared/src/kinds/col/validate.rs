//! [`Kind::validate`] of `col`: checks a shard's result without re-running it.

use super::*;
use crate::gen::count;

/// Largest recorded position `col` validation re-values.
const RESOLVE_MAX_N: usize = 8;

/// [`Kind::validate`] for `col`: per vertex count, graphs within the
/// connected graphs on n vertices, positions within 1..=3^n per graph, one
/// empty board per graph, the value tally summing to the positions; every
/// record (smallest position per value, non-cold positions) a proper
/// colouring of a connected graph in the shard; up to [`RESOLVE_BUDGET`] of
/// them re-valued, non-cold records first.
pub(super) fn validate_col(
    p: &ColParams,
    shard: &GraphShard,
    out: &ColOutput,
) -> Result<(), ValidateError> {
    let max_n = p.max_n;
    if !(1..=10).contains(&max_n) {
        return Err(ValidateError::from(format!(
            "params: max_n {max_n} out of 1..=10"
        )));
    }
    let walk = shard.decode("col").map_err(|e| e.to_string())?;
    let (lo, hi, prefixes) = match (&walk, shard) {
        (graphplan::Walk::Top { depth }, _) => (1, (*depth - 1).min(max_n), &[][..]),
        (graphplan::Walk::Prefixes(ps), GraphShard::Prefixes { prefixes, .. }) => {
            (ps[0].n().max(1), max_n, &prefixes[..])
        }
        (graphplan::Walk::Split(_), _) => (1, max_n, &[][..]),
        _ => return Err("shard: its walk does not match its variant".into()),
    };
    let mut positions = 0u64;
    let mut non_cold = 0u64;
    for (&n32, c) in &out.by_n {
        let n = n32 as usize;
        let at = |f: &str| format!("by_n[{n}].{f}");
        if n < lo || n > hi {
            return Err(ValidateError::from(format!(
                "by_n[{n}]: this shard only has graphs on {lo}..={hi} vertices"
            )));
        }
        if c.graphs == 0 || c.graphs > count::connected_bound(n) {
            return Err(ValidateError::from(format!(
                "{} is {}: there are 1..={} connected graphs on {n} vertices",
                at("graphs"),
                c.graphs,
                count::connected_bound(n)
            )));
        }
        let most = c.graphs * 3u64.pow(n as u32);
        if c.positions < c.graphs || c.positions > most {
            return Err(ValidateError::from(format!(
                "{} is {}, not within {}..={most} for {} graphs on {n} vertices",
                at("positions"),
                c.positions,
                c.graphs,
                c.graphs
            )));
        }
        let empty = c.empty_zero + c.empty_star + c.empty_other;
        if empty != c.graphs {
            return Err(ValidateError::from(format!(
                "{}: {empty} empty boards (0, *, other) for {} graphs",
                at("empty_zero"),
                c.graphs
            )));
        }
        if c.non_cold > c.positions {
            return Err(ValidateError::from(format!(
                "{} is {}, above positions = {}",
                at("non_cold"),
                c.non_cold,
                c.positions
            )));
        }
        let tally = out.values.counts.get(&n32);
        let sum = tally.map_or(Some(0), |m| {
            m.values().try_fold(0u64, |a, &b| a.checked_add(b))
        });
        if sum != Some(c.positions) {
            return Err(ValidateError::from(format!(
                "values.counts[{n}] sums to {sum:?}, not by_n[{n}].positions = {}",
                c.positions
            )));
        }
        positions += c.positions;
        non_cold += c.non_cold;
    }
    if out.work != positions {
        return Err(ValidateError::from(format!(
            "work is {}, not the {positions} positions counted",
            out.work
        )));
    }
    if let Some(n) = out.values.counts.keys().find(|n| !out.by_n.contains_key(n)) {
        return Err(ValidateError::from(format!(
            "values.counts[{n}]: no graphs on {n} vertices are counted"
        )));
    }
    for (n, m) in &out.values.max_denominator {
        if !out.by_n.contains_key(n) || m.0 == 0 || !m.0.is_power_of_two() {
            return Err(ValidateError::from(format!(
                "values.max_denominator[{n}] is {}: not a power of two of a counted vertex count",
                m.0
            )));
        }
    }
    let totals = out.values.totals();
    if out.values.smallest.len() != totals.len() {
        return Err(ValidateError::from(format!(
            "values.smallest has {} positions for {} values",
            out.values.smallest.len(),
            totals.len()
        )));
    }
    let mut solver: Option<Solver> = None;
    let mut budget = RESOLVE_BUDGET;
    let mut resolve = |what: &str, g: &BitGraph, blue: u32, red: u32, value: &str| {
        if budget == 0 || g.n() > RESOLVE_MAX_N {
            return Ok(None);
        }
        budget -= 1;
        let solver = solver.get_or_insert_with(|| Solver::new(SolverOptions::default()));
        let b = col_board(g);
        let v = solver.value(&b, b.position_masks(blue, red));
        let shown = solver.arena.display(v);
        if shown != value {
            return Err(ValidateError::from(format!(
                "{what}: the position has value {shown}, not {value}"
            )));
        }
        Ok(Some(solver.arena.is_cold(v)))
    };
    // The non-cold records first: they are the findings.
    let rs = &out.non_cold.0;
    if rs.cap != super::RECORD_CAP {
        return Err(ValidateError::from(format!(
            "non_cold.cap is {}, not {}",
            rs.cap,
            super::RECORD_CAP
        )));
    }
    if rs.total != non_cold || rs.kept.len() as u64 != non_cold.min(rs.cap) {
        return Err(ValidateError::from(format!(
            "non_cold: total {} with {} kept, but {non_cold} non-cold positions are counted (cap {})",
            rs.total,
            rs.kept.len(),
            rs.cap
        )));
    }
    for r in &rs.kept {
        let what = format!("non_cold[`{}` {}]", r.code, r.detail);
        let (g, blue, red) = col_record(&what, r, (lo, hi), &walk, prefixes)?;
        let value = r
            .note
            .strip_prefix("value ")
            .ok_or_else(|| format!("{what}: note `{:.40}` is not `value …`", r.note))?;
        if resolve(&what, &g, blue, red, value)? == Some(true) {
            return Err(ValidateError::from(format!(
                "{what}: value {value} is cold"
            )));
        }
    }
    for (value, r) in &out.values.smallest {
        let what = format!("values.smallest[{value}]");
        if !totals.contains_key(value.as_str()) {
            return Err(ValidateError::from(format!(
                "{what}: no position of value {value} is counted"
            )));
        }
        let n = r.vertices;
        if out
            .values
            .counts
            .get(&n)
            .and_then(|m| m.get(value))
            .is_none()
        {
            return Err(ValidateError::from(format!(
                "{what}: no position of value {value} on {n} vertices is counted"
            )));
        }
        if r.note != format!("value {value}") {
            return Err(ValidateError::from(format!(
                "{what}: note `{:.40}` is not `value {value}`",
                r.note
            )));
        }
        let (g, blue, red) = col_record(&what, r, (lo, hi), &walk, prefixes)?;
        resolve(&what, &g, blue, red, value)?;
    }
    Ok(())
}
