//! [`Kind::validate`] of `subtraction`: a shard's result checked without re-running it.

use super::*;
use crate::sweep::run_checks;

/// The checks of [`Kind::validate`]: every count is what the shard's
/// `hi − lo` sets can give, the per-set rows and the extremes' sets lie in the
/// shard and agree with the histograms, and each extreme's smallest set is
/// re-analysed (at most five sets: a fixed budget).
pub(super) fn validate(
    params: &SubtractionParams,
    shard: &MaskRange,
    out: &SubtractionOutput,
) -> Result<(), ValidateError> {
    let MaskRange { lo, hi } = *shard;
    let ctx = Ctx {
        lo,
        hi,
        limit: params.sets() + 1,
        sets: hi.saturating_sub(lo),
        out,
    };
    run_checks(CHECKS, &ctx)
}

/// A shard's mask range and its result, what the checks read.
struct Ctx<'a> {
    lo: u64,
    hi: u64,
    /// One past the largest mask of the sweep.
    limit: u64,
    /// The number of sets (masks) in the shard.
    sets: u64,
    out: &'a SubtractionOutput,
}

impl Ctx<'_> {
    /// `s`'s mask is in the shard (`field` names where it is listed).
    fn in_shard(&self, field: &str, s: &SetStats) -> Result<(), ValidateError> {
        let (lo, hi) = (self.lo, self.hi);
        if (lo..hi).contains(&s.mask) {
            Ok(())
        } else {
            Err(ValidateError::from(format!(
                "{field}: mask {} is outside the shard's {lo}..{hi}",
                s.mask
            )))
        }
    }
}

/// A named check of a result (see [`run_checks`]).
type Check = (&'static str, fn(&Ctx<'_>) -> Result<(), ValidateError>);

/// The checks, in order; the first to fail refuses the result.
const CHECKS: &[Check] = &[
    ("mask range", mask_range),
    ("sets", set_count),
    ("per-set rows", per_set_rows),
    ("histograms", histograms),
    ("consistency counters", consistency_counters),
    ("extremes", extremes),
];

fn mask_range(x: &Ctx) -> Result<(), ValidateError> {
    let (lo, hi, limit) = (x.lo, x.hi, x.limit);
    if lo == 0 || lo >= hi || hi > limit {
        return Err(ValidateError::from(format!(
            "shard: mask range {lo}..{hi} is not inside 1..{limit}"
        )));
    }
    Ok(())
}

fn set_count(x: &Ctx) -> Result<(), ValidateError> {
    let (lo, hi, sets) = (x.lo, x.hi, x.sets);
    if x.out.sets != sets {
        return Err(ValidateError::from(format!(
            "sets is {}, but the shard has the {sets} masks {lo}..{hi}",
            x.out.sets
        )));
    }
    Ok(())
}

/// The smallest min(sets, cap) sets' rows, distinct masks in the shard.
fn per_set_rows(x: &Ctx) -> Result<(), ValidateError> {
    let (out, sets) = (x.out, x.sets);
    let per_set = &out.per_set;
    if per_set.total != sets {
        return Err(ValidateError::from(format!(
            "per_set.total is {}, not sets = {sets}",
            per_set.total
        )));
    }
    let want = sets.min(PER_SET_CAP as u64);
    if per_set.kept.len() as u64 != want {
        return Err(ValidateError::from(format!(
            "per_set keeps {} rows, not min({sets} sets, {PER_SET_CAP})",
            per_set.kept.len()
        )));
    }
    let mut masks = BTreeSet::new();
    for s in &per_set.kept {
        x.in_shard("per_set", s)?;
        if !masks.insert(s.mask) {
            return Err(ValidateError::from(format!(
                "per_set: mask {} is listed twice",
                s.mask
            )));
        }
        if s.outcome.period == 0 || s.grundy.period == 0 {
            return Err(ValidateError::from(format!(
                "per_set: mask {} has a period of 0",
                s.mask
            )));
        }
    }
    Ok(())
}

/// Each histogram counts every set once; with every row kept they are
/// exactly the rows' values.
fn histograms(x: &Ctx) -> Result<(), ValidateError> {
    let (out, sets, per_set) = (x.out, x.sets, &x.out.per_set);
    let complete = per_set.complete();
    for (k, (h, name)) in out.histograms.all().into_iter().zip(FIELDS).enumerate() {
        let sum = h.values().try_fold(0u64, |a, &b| a.checked_add(b));
        if sum != Some(sets) {
            return Err(ValidateError::from(format!(
                "histograms.{name} sums to {sum:?}, not sets = {sets}"
            )));
        }
        if let Some((v, _)) = h.iter().find(|(_, &c)| c == 0) {
            return Err(ValidateError::from(format!("histograms.{name}[{v}] is 0")));
        }
        let mut from_rows = BTreeMap::new();
        for s in &per_set.kept {
            *from_rows.entry(*s.values().all()[k]).or_insert(0u64) += 1;
        }
        for (v, &c) in &from_rows {
            let have = h.get(v).copied().unwrap_or(0);
            if have < c || (complete && have != c) {
                return Err(ValidateError::from(format!(
                    "histograms.{name}[{v}] is {have}, but {c} per-set rows have that value"
                )));
            }
        }
        if complete && from_rows.len() != h.len() {
            return Err(ValidateError::from(format!(
                "histograms.{name} has {} values, the per-set rows {}",
                h.len(),
                from_rows.len()
            )));
        }
    }
    Ok(())
}

/// The consistency counters: at most the sets; exact with every row kept.
fn consistency_counters(x: &Ctx) -> Result<(), ValidateError> {
    let (out, sets, per_set) = (x.out, x.sets, &x.out.per_set);
    let complete = per_set.complete();
    let rows = |f: fn(&SetStats) -> bool| per_set.kept.iter().filter(|s| f(s)).count() as u64;
    #[allow(clippy::manual_is_multiple_of)]
    let counters = [
        (
            "outcome_period_not_dividing_grundy_period",
            out.outcome_period_not_dividing_grundy_period,
            rows(|s| s.grundy.period % s.outcome.period != 0),
        ),
        (
            "outcome_preperiod_above_grundy_preperiod",
            out.outcome_preperiod_above_grundy_preperiod,
            rows(|s| s.outcome.preperiod > s.grundy.preperiod),
        ),
    ];
    for (name, have, from_rows) in counters {
        if have > sets || have < from_rows || (complete && have != from_rows) {
            return Err(ValidateError::from(format!(
                "{name} is {have}, but {from_rows} of the {} per-set rows (of {sets} sets) break it",
                per_set.kept.len()
            )));
        }
    }
    Ok(())
}

/// Each histogram's largest value, as many sets as it counts, the smallest
/// of them kept, each really attaining it; the smallest re-solved.
fn extremes(x: &Ctx) -> Result<(), ValidateError> {
    let (out, per_set) = (x.out, &x.out.per_set);
    for (k, ((l, h), name)) in out
        .largest
        .all()
        .into_iter()
        .zip(out.histograms.all())
        .zip(FIELDS)
        .enumerate()
    {
        let at = format!("largest.{name}");
        let Some((&max, &count)) = h.last_key_value() else {
            continue; // no sets: unreachable, sets ≥ 1 above
        };
        if l.value != max {
            return Err(ValidateError::from(format!(
                "{at}.value is {}, but histograms.{name} goes up to {max}",
                l.value
            )));
        }
        if l.sets.total != count {
            return Err(ValidateError::from(format!(
                "{at}.sets.total is {}, but histograms.{name}[{max}] is {count}",
                l.sets.total
            )));
        }
        if l.sets.kept.len() as u64 != count.min(EXTREME_CAP as u64) {
            return Err(ValidateError::from(format!(
                "{at} keeps {} sets, not min({count}, {EXTREME_CAP})",
                l.sets.kept.len()
            )));
        }
        for s in &l.sets.kept {
            x.in_shard(&at, s)?;
            if *s.values().all()[k] != max {
                return Err(ValidateError::from(format!(
                    "{at}: mask {} has {name} {}, not {max}",
                    s.mask,
                    s.values().all()[k]
                )));
            }
            if let Some(row) = per_set.kept.iter().find(|r| r.mask == s.mask) {
                if row != s {
                    return Err(ValidateError::from(format!(
                        "{at}: mask {} disagrees with its per-set row",
                        s.mask
                    )));
                }
            }
        }
        // Re-solve the smallest set attaining the extreme.
        if let Some(s) = l.sets.kept.first() {
            let set = SubtractionSet::from_mask(s.mask).map_err(|e| format!("{at}: {e}"))?;
            let truth = SetStats::new(s.mask, &analyse(&set));
            if truth != *s {
                return Err(ValidateError::from(format!(
                    "{at}: mask {} is claimed as `{}` but is `{}`",
                    s.mask,
                    s.row(),
                    truth.row()
                )));
            }
        }
    }
    Ok(())
}
