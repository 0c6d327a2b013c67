//! [`Kind::validate`] of `uvg-local-search`: a shard's result checked without re-running it.

use super::*;

/// The checks of [`Kind::validate`]: one climb per seed index of the shard,
/// steps and evaluations within what those climbs can take, a climb below
/// the target ran every step, and each witness decodes to a connected graph
/// on `vertices` vertices from a seed index of the shard whose start has the
/// value claimed (re-solved: one Grundy evaluation per value, a climb does
/// thousands).
pub(super) fn validate(
    params: &SearchParams,
    shard: &SeedRange,
    out: &SearchOutput,
) -> Result<(), ValidateError> {
    params.check().map_err(|e| e.to_string())?;
    let SeedRange { start, end } = *shard;
    if start >= end || end > params.seeds {
        return Err(ValidateError::from(format!(
            "shard: seed range {start}..{end} is not a non-empty part of 0..{}",
            params.seeds
        )));
    }
    let climbs = end - start;
    if out.climbs != climbs {
        return Err(ValidateError::from(format!(
            "climbs is {}, but the shard has the {climbs} seed indices {start}..{end}",
            out.climbs
        )));
    }
    let max_steps = climbs.saturating_mul(params.steps);
    if out.steps > max_steps {
        return Err(ValidateError::from(format!(
            "steps is {}, above {climbs} climbs × {} steps",
            out.steps, params.steps
        )));
    }
    // One evaluation at the start of a climb, at most one per step and one
    // per kick (a kick follows STALL rejected steps).
    let max_evaluations = climbs + out.steps + out.steps / STALL as u64;
    if out.evaluations < climbs || out.evaluations > max_evaluations {
        return Err(ValidateError::from(format!(
            "evaluations is {}, not within {climbs}..={max_evaluations} for {climbs} climbs of {} steps",
            out.evaluations, out.steps
        )));
    }
    let sum = out
        .best
        .values()
        .try_fold(0u64, |a, b| a.checked_add(b.climbs));
    if sum != Some(climbs) {
        return Err(ValidateError::from(format!(
            "best: climbs sum to {sum:?}, not climbs = {climbs}"
        )));
    }
    // A climb that ended below the target ran all its steps.
    let short: u64 = out.best.range(..params.value).map(|(_, b)| b.climbs).sum();
    if out.steps < short.saturating_mul(params.steps) {
        return Err(ValidateError::from(format!(
            "steps is {}, but {short} climbs ended below *{} after {} steps each",
            out.steps, params.value, params.steps
        )));
    }
    let n = params.vertices;
    for (&v, b) in &out.best {
        let at = format!("best[{v}]");
        if v as usize >= n {
            return Err(ValidateError::from(format!(
                "{at}: a start's value on {n} vertices is below {n}"
            )));
        }
        if b.climbs == 0 {
            return Err(ValidateError::from(format!("{at}.climbs is 0")));
        }
        let Some(w) = &b.witness.0 else {
            return Err(ValidateError::from(format!("{at}.witness is empty")));
        };
        if !(start..end).contains(&w.seed_index) {
            return Err(ValidateError::from(format!(
                "{at}.witness.seed_index is {}, outside the shard's {start}..{end}",
                w.seed_index
            )));
        }
        let g = graph6::parse_bitgraph(&w.graph6)
            .map_err(|e| format!("{at}.witness.graph6 `{}`: {e}", w.graph6))?;
        if g.n() != n || !g.is_connected() || g.edge_count() != w.edges as usize {
            return Err(ValidateError::from(format!(
                "{at}.witness.graph6 `{}` is not a connected graph on {n} vertices with {} edges",
                w.graph6, w.edges
            )));
        }
        let values = uvg::grundy_all(&g);
        let max = values.iter().copied().max().unwrap_or(0);
        let first = values.iter().position(|&x| x == max).unwrap_or(0);
        if max != v || first != w.start as usize {
            return Err(ValidateError::from(format!(
                "{at}.witness: `{}` has largest value {max} first at start {first}, not {v} at {}",
                w.graph6, w.start
            )));
        }
    }
    Ok(())
}
