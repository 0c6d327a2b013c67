//! The `subtraction` sweep: every non-empty S ⊆ {1..M}, its outcome and
//! Grundy sequences' smallest preperiod and period (proved by the window
//! argument, see [`crate::gamegraph::subtraction`]).
//!
//! Sets are numbered by bitmask (bit k−1 ↔ element k), 1..2^M; shards are
//! ranges of masks ([`MaskRange`]). Per shard ([`SubtractionOutput`]): the
//! number of sets, one histogram per quantity, per quantity the largest value
//! with the smallest sets attaining it, the per-set rows (the smallest
//! [`PER_SET_CAP`]) and two consistency counters; all merge field by field.

mod report;
mod validate;

use crate::gamegraph::subtraction::{analyse, SubtractionAnalysis, SubtractionSet};
use crate::sweep::merge::{add, add_counts, MergeError};
use crate::sweep::ValidateError;
use crate::sweep::{Kind, Merge, ParamDef, ShardCtx, SweepError};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The `subtraction` sweep kind.
pub struct SubtractionSweep;

/// The instance registered in [`crate::kinds::registry`].
pub const SUBTRACTION: SubtractionSweep = SubtractionSweep;

const NAME: &str = "subtraction";

const PARAMS: &[ParamDef] = &[ParamDef {
    name: "max_element",
    help: "sweep every non-empty subtraction set S of {1..M}",
    default: Some(12),
    min: 1,
    max: 20,
}];

/// Per-set rows kept in results.json: complete for M ≤ 16.
pub const PER_SET_CAP: usize = (1 << 16) - 1;

/// Sets kept per extreme (the smallest ones).
pub const EXTREME_CAP: usize = 10;

/// Shards when the runtime gives no hint.
const DEFAULT_SHARDS: u64 = 64;

/// Layout of the compact per-set rows (one line each in results.json).
const PER_SET_FORMAT: &str =
    "{S}: outcome PREPERIOD+PERIOD, grundy PREPERIOD+PERIOD, max LARGEST_GRUNDY_VALUE";

/// Typed parameters.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubtractionParams {
    /// M: every non-empty S ⊆ {1..M}.
    pub max_element: u64,
}

impl SubtractionParams {
    /// 2^M − 1, the number of sets (and the largest mask).
    fn sets(&self) -> u64 {
        (1u64 << self.max_element) - 1
    }
}

/// One shard: the sets with masks `lo..hi` (1 ≤ lo < hi ≤ 2^M).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaskRange {
    /// First mask.
    pub lo: u64,
    /// One past the last mask.
    pub hi: u64,
}

/// Preperiod and period of a sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seq {
    /// Smallest preperiod.
    pub preperiod: u64,
    /// Smallest period.
    pub period: u64,
}

/// One analysed set.
///
/// Ordered in witness order, as the sweep always listed sets: larger max(S)
/// last, then larger |S|, then the text `{a,b,..}`, then the mask.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetStats {
    /// The set as a bitmask (bit k−1 ↔ element k).
    pub mask: u64,
    /// The outcome (P/N) sequence.
    pub outcome: Seq,
    /// The Grundy sequence.
    pub grundy: Seq,
    /// The largest Grundy value.
    pub max_grundy: u64,
}

impl SetStats {
    fn new(mask: u64, a: &SubtractionAnalysis) -> Self {
        SetStats {
            mask,
            outcome: Seq {
                preperiod: a.outcome.preperiod as u64,
                period: a.outcome.period as u64,
            },
            grundy: Seq {
                preperiod: a.grundy.preperiod as u64,
                period: a.grundy.period as u64,
            },
            max_grundy: a.max_grundy as u64,
        }
    }

    /// The elements, ascending.
    pub fn elements(&self) -> Vec<u64> {
        elements_of(self.mask)
    }

    /// The histogrammed quantities, in [`QUANTITIES`] order.
    fn values(&self) -> PerQuantity<u64> {
        PerQuantity {
            outcome_period: self.outcome.period,
            outcome_preperiod: self.outcome.preperiod,
            grundy_period: self.grundy.period,
            grundy_preperiod: self.grundy.preperiod,
            max_grundy: self.max_grundy,
        }
    }

    /// The compact row, see [`PER_SET_FORMAT`].
    fn row(&self) -> String {
        let (o, g) = (self.outcome, self.grundy);
        format!(
            "{}: outcome {}+{}, grundy {}+{}, max {}",
            fmt_set(&self.elements()),
            o.preperiod,
            o.period,
            g.preperiod,
            g.period,
            self.max_grundy
        )
    }
}

fn elements_of(mask: u64) -> Vec<u64> {
    (0..64)
        .filter(|b| mask >> b & 1 == 1)
        .map(|b| b + 1)
        .collect()
}

/// Compare the decimal texts of `a` and `b` (as strings: "10" < "9").
fn decimal_cmp(a: u64, b: u64) -> Ordering {
    fn digits(mut x: u64, buf: &mut [u8; 20]) -> &[u8] {
        let mut i = buf.len();
        loop {
            i -= 1;
            buf[i] = b'0' + (x % 10) as u8;
            x /= 10;
            if x == 0 {
                return &buf[i..];
            }
        }
    }
    let (mut x, mut y) = ([0u8; 20], [0u8; 20]);
    digits(a, &mut x).cmp(digits(b, &mut y))
}

impl Ord for SetStats {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.mask, other.mask);
        let top = |m: u64| 64 - m.leading_zeros();
        top(a)
            .cmp(&top(b))
            .then(a.count_ones().cmp(&b.count_ones()))
            // The text `{a,b,..}`: with equal max and size the first differing
            // element is followed by `,` in both, so comparing the elements'
            // decimal texts in turn is comparing the texts.
            .then_with(|| {
                let (ea, eb) = (elements_of(a), elements_of(b));
                ea.iter()
                    .zip(&eb)
                    .map(|(&x, &y)| decimal_cmp(x, y))
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal)
            })
            .then(a.cmp(&b))
            .then_with(|| {
                (self.outcome, self.grundy, self.max_grundy).cmp(&(
                    other.outcome,
                    other.grundy,
                    other.max_grundy,
                ))
            })
    }
}

impl PartialOrd for SetStats {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The `CAP` smallest items offered, and how many were offered in all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capped<T: Ord, const CAP: usize> {
    /// Items offered in all (kept or not).
    pub total: u64,
    /// The kept items, smallest first.
    pub kept: BTreeSet<T>,
}

impl<T: Ord, const CAP: usize> Default for Capped<T, CAP> {
    fn default() -> Self {
        Capped {
            total: 0,
            kept: BTreeSet::new(),
        }
    }
}

impl<T: Ord, const CAP: usize> Capped<T, CAP> {
    /// Offer one item.
    pub fn offer(&mut self, x: T) {
        self.total += 1;
        if self.kept.len() < CAP || self.kept.last().is_some_and(|l| x < *l) {
            self.kept.insert(x);
            self.trim();
        }
    }
    fn trim(&mut self) {
        while self.kept.len() > CAP {
            self.kept.pop_last();
        }
    }
    /// Merge another set of (disjoint) items.
    pub fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        add(&mut self.total, other.total, "total")?;
        self.kept.extend(other.kept);
        self.trim();
        Ok(())
    }
    /// Were all offered items kept?
    pub fn complete(&self) -> bool {
        self.total == self.kept.len() as u64
    }
}

/// The largest value of a quantity and the smallest sets attaining it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Largest {
    /// The largest value seen (meaningless while `sets.total` is 0).
    pub value: u64,
    /// The sets attaining it.
    pub sets: Capped<SetStats, EXTREME_CAP>,
}

impl Largest {
    fn offer(&mut self, value: u64, set: &SetStats) {
        if self.sets.total == 0 || value > self.value {
            *self = Largest {
                value,
                sets: Capped::default(),
            };
        }
        if value == self.value {
            self.sets.offer(set.clone());
        }
    }
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        if other.sets.total == 0 {
            return Ok(());
        }
        if self.sets.total == 0 || other.value > self.value {
            *self = other;
        } else if other.value == self.value {
            self.sets.merge(other.sets).map_err(|e| e.within("sets"))?;
        }
        Ok(())
    }
}

/// One value per histogrammed quantity.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerQuantity<T> {
    /// Period of the outcome sequence.
    pub outcome_period: T,
    /// Preperiod of the outcome sequence.
    pub outcome_preperiod: T,
    /// Period of the Grundy sequence.
    pub grundy_period: T,
    /// Preperiod of the Grundy sequence.
    pub grundy_preperiod: T,
    /// Largest Grundy value.
    pub max_grundy: T,
}

/// The quantities' field names, in [`PerQuantity::all`] order.
const FIELDS: [&str; 5] = [
    "outcome_period",
    "outcome_preperiod",
    "grundy_period",
    "grundy_preperiod",
    "max_grundy",
];

/// The quantities' headings, in [`PerQuantity::all`] order.
const QUANTITIES: [&str; 5] = [
    "outcome period",
    "outcome preperiod",
    "Grundy period",
    "Grundy preperiod",
    "largest Grundy value",
];

impl<T> PerQuantity<T> {
    /// The five values, in [`QUANTITIES`] order.
    pub fn all(&self) -> [&T; 5] {
        [
            &self.outcome_period,
            &self.outcome_preperiod,
            &self.grundy_period,
            &self.grundy_preperiod,
            &self.max_grundy,
        ]
    }
    fn all_mut(&mut self) -> [&mut T; 5] {
        [
            &mut self.outcome_period,
            &mut self.outcome_preperiod,
            &mut self.grundy_period,
            &mut self.grundy_preperiod,
            &mut self.max_grundy,
        ]
    }
    fn into_all(self) -> [T; 5] {
        [
            self.outcome_period,
            self.outcome_preperiod,
            self.grundy_period,
            self.grundy_preperiod,
            self.max_grundy,
        ]
    }
}

/// The result of a shard, or of the merge of many.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubtractionOutput {
    /// Sets analysed.
    pub sets: u64,
    /// Per quantity: value → number of sets.
    pub histograms: PerQuantity<BTreeMap<u64, u64>>,
    /// Per quantity: the largest value and the smallest sets attaining it.
    pub largest: PerQuantity<Largest>,
    /// Every set (the smallest [`PER_SET_CAP`] in witness order).
    pub per_set: Capped<SetStats, PER_SET_CAP>,
    /// Sets whose outcome period does not divide their Grundy period (expected 0).
    pub outcome_period_not_dividing_grundy_period: u64,
    /// Sets whose outcome preperiod exceeds their Grundy preperiod (expected 0).
    pub outcome_preperiod_above_grundy_preperiod: u64,
}

impl Merge for SubtractionOutput {
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        add(&mut self.sets, other.sets, "sets")?;
        for ((h, o), name) in self
            .histograms
            .all_mut()
            .into_iter()
            .zip(other.histograms.into_all())
            .zip(FIELDS)
        {
            add_counts(h, o, &format!("histograms.{name}"))?;
        }
        for ((l, o), name) in self
            .largest
            .all_mut()
            .into_iter()
            .zip(other.largest.into_all())
            .zip(FIELDS)
        {
            l.merge(o)
                .map_err(|e| e.within(format_args!("largest.{name}")))?;
        }
        self.per_set
            .merge(other.per_set)
            .map_err(|e| e.within("per_set"))?;
        add(
            &mut self.outcome_period_not_dividing_grundy_period,
            other.outcome_period_not_dividing_grundy_period,
            "outcome_period_not_dividing_grundy_period",
        )?;
        add(
            &mut self.outcome_preperiod_above_grundy_preperiod,
            other.outcome_preperiod_above_grundy_preperiod,
            "outcome_preperiod_above_grundy_preperiod",
        )
    }
    fn work(&self) -> u64 {
        self.sets
    }
}

/// `params` of results.json.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocParams {
    /// M.
    pub max_element: u64,
}

/// `checks` of results.json (both expected 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checks {
    /// Sets whose outcome period does not divide their Grundy period.
    pub outcome_period_not_dividing_grundy_period: u64,
    /// Sets whose outcome preperiod exceeds their Grundy preperiod.
    pub outcome_preperiod_above_grundy_preperiod: u64,
}

/// One set with its numbers (the smallest set of an extreme).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetEntry {
    /// The elements.
    pub set: Vec<u64>,
    /// The outcome sequence.
    pub outcome: Seq,
    /// The Grundy sequence.
    pub grundy: Seq,
    /// The largest Grundy value.
    pub max_grundy: u64,
}

/// The largest value of one quantity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extreme {
    /// The largest value.
    pub value: u64,
    /// Sets attaining it.
    pub sets: u64,
    /// The smallest of them, in witness order.
    pub smallest_set: Option<SetEntry>,
    /// The smallest [`EXTREME_CAP`] of them (by max element, size, elements).
    pub listed_sets: Vec<Vec<u64>>,
}

/// `extremes` of results.json: one entry per quantity (absent if no set).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extremes {
    /// Outcome period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub largest_outcome_period: Option<Extreme>,
    /// Outcome preperiod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub largest_outcome_preperiod: Option<Extreme>,
    /// Grundy period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub largest_grundy_period: Option<Extreme>,
    /// Grundy preperiod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub largest_grundy_preperiod: Option<Extreme>,
    /// Largest Grundy value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub largest_max_grundy: Option<Extreme>,
}

impl Extremes {
    /// The five entries, in [`QUANTITIES`] order.
    pub fn all(&self) -> [&Option<Extreme>; 5] {
        [
            &self.largest_outcome_period,
            &self.largest_outcome_preperiod,
            &self.largest_grundy_period,
            &self.largest_grundy_preperiod,
            &self.largest_max_grundy,
        ]
    }
}

/// The `results.json` document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubtractionDoc {
    /// `subtraction`.
    pub kind: String,
    /// The parameters.
    pub params: DocParams,
    /// Sets analysed.
    pub sets: u64,
    /// 2^M − 1.
    pub expected_sets: u64,
    /// Consistency counters.
    pub checks: Checks,
    /// Per quantity: `[value, sets]` ascending.
    pub histograms: PerQuantity<Vec<(u64, u64)>>,
    /// Per quantity: the largest value.
    pub extremes: Extremes,
    /// Does `per_set` list every set?
    pub per_set_complete: bool,
    /// The layout of the `per_set` rows.
    pub per_set_format: String,
    /// One row per set, by mask.
    pub per_set: Vec<String>,
}

fn bad_shard(reason: impl Into<String>) -> SweepError {
    SweepError::BadShard {
        kind: NAME.into(),
        reason: reason.into(),
    }
}

fn extreme(largest: &Largest, histogram: &BTreeMap<u64, u64>) -> Option<Extreme> {
    let (&value, &sets) = histogram.last_key_value()?;
    // `largest` holds the sets of the histogram's last value (both see every set).
    let kept: Vec<&SetStats> = if largest.value == value {
        largest.sets.kept.iter().collect()
    } else {
        Vec::new()
    };
    Some(Extreme {
        value,
        sets,
        smallest_set: kept.first().map(|s| SetEntry {
            set: s.elements(),
            outcome: s.outcome,
            grundy: s.grundy,
            max_grundy: s.max_grundy,
        }),
        listed_sets: kept.iter().map(|s| s.elements()).collect(),
    })
}

impl Kind for SubtractionSweep {
    type Params = SubtractionParams;
    type Shard = MaskRange;
    type Output = SubtractionOutput;
    type Doc = SubtractionDoc;

    fn name(&self) -> &'static str {
        NAME
    }

    fn about(&self) -> &'static str {
        "subtraction games S ⊆ {1..M}: proven preperiod and period of the outcome and Grundy sequences"
    }

    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn source_file(&self) -> &'static str {
        file!()
    }

    fn plan(
        &self,
        params: &SubtractionParams,
        target_shards: u32,
    ) -> Result<Vec<(MaskRange, u64)>, SweepError> {
        let sets = params.sets();
        let k = if target_shards == 0 {
            DEFAULT_SHARDS
        } else {
            target_shards as u64
        }
        .min(sets);
        Ok((0..k)
            .map(|i| {
                let lo = 1 + i * sets / k;
                let hi = 1 + (i + 1) * sets / k;
                (MaskRange { lo, hi }, hi - lo)
            })
            .collect())
    }

    fn run(
        &self,
        params: &SubtractionParams,
        shard: &MaskRange,
        ctx: &ShardCtx<'_>,
    ) -> Result<SubtractionOutput, SweepError> {
        let MaskRange { lo, hi } = *shard;
        let limit = params.sets() + 1;
        if lo == 0 || lo >= hi || hi > limit {
            return Err(bad_shard(format!(
                "mask range {lo}..{hi} is not inside 1..{limit}"
            )));
        }
        let mut r = SubtractionOutput::default();
        for mask in lo..hi {
            if mask % 256 == 0 {
                ctx.check()?;
            }
            let set = SubtractionSet::from_mask(mask).map_err(|e| bad_shard(e.to_string()))?;
            let s = SetStats::new(mask, &analyse(&set));
            r.sets += 1;
            for ((h, l), v) in r
                .histograms
                .all_mut()
                .into_iter()
                .zip(r.largest.all_mut())
                .zip(s.values().into_all())
            {
                *h.entry(v).or_insert(0) += 1;
                l.offer(v, &s);
            }
            // `is_multiple_of` would need Rust 1.87; the workspace supports 1.80
            #[allow(clippy::manual_is_multiple_of)]
            if s.grundy.period % s.outcome.period != 0 {
                r.outcome_period_not_dividing_grundy_period += 1;
            }
            if s.outcome.preperiod > s.grundy.preperiod {
                r.outcome_preperiod_above_grundy_preperiod += 1;
            }
            r.per_set.offer(s);
            ctx.add_progress(1);
        }
        Ok(r)
    }

    fn validate(
        &self,
        params: &SubtractionParams,
        shard: &MaskRange,
        out: &SubtractionOutput,
    ) -> Result<(), ValidateError> {
        validate::validate(params, shard, out)
    }

    fn doc(&self, params: &SubtractionParams, merged: &SubtractionOutput) -> SubtractionDoc {
        let h = &merged.histograms;
        let l = &merged.largest;
        let mut per_set: Vec<&SetStats> = merged.per_set.kept.iter().collect();
        per_set.sort_by_key(|s| s.mask);
        SubtractionDoc {
            kind: NAME.into(),
            params: DocParams {
                max_element: params.max_element,
            },
            sets: merged.sets,
            expected_sets: params.sets(),
            checks: Checks {
                outcome_period_not_dividing_grundy_period: merged
                    .outcome_period_not_dividing_grundy_period,
                outcome_preperiod_above_grundy_preperiod: merged
                    .outcome_preperiod_above_grundy_preperiod,
            },
            histograms: PerQuantity {
                outcome_period: h.outcome_period.iter().map(|(&v, &c)| (v, c)).collect(),
                outcome_preperiod: h.outcome_preperiod.iter().map(|(&v, &c)| (v, c)).collect(),
                grundy_period: h.grundy_period.iter().map(|(&v, &c)| (v, c)).collect(),
                grundy_preperiod: h.grundy_preperiod.iter().map(|(&v, &c)| (v, c)).collect(),
                max_grundy: h.max_grundy.iter().map(|(&v, &c)| (v, c)).collect(),
            },
            extremes: Extremes {
                largest_outcome_period: extreme(&l.outcome_period, &h.outcome_period),
                largest_outcome_preperiod: extreme(&l.outcome_preperiod, &h.outcome_preperiod),
                largest_grundy_period: extreme(&l.grundy_period, &h.grundy_period),
                largest_grundy_preperiod: extreme(&l.grundy_preperiod, &h.grundy_preperiod),
                largest_max_grundy: extreme(&l.max_grundy, &h.max_grundy),
            },
            per_set_complete: merged.per_set.complete(),
            per_set_format: PER_SET_FORMAT.into(),
            per_set: per_set.into_iter().map(SetStats::row).collect(),
        }
    }

    fn present(&self, doc: &SubtractionDoc) -> crate::sweep::Presentation {
        report::present::present(doc)
    }
    fn report(&self, _params: &SubtractionParams, doc: &SubtractionDoc) -> String {
        report::report_md(doc)
    }
}

/// `{2,4,7}`.
fn fmt_set(elements: &[u64]) -> String {
    let e: Vec<String> = elements.iter().map(u64::to_string).collect();
    format!("{{{}}}", e.join(","))
}
#[cfg(test)]
mod tests;
