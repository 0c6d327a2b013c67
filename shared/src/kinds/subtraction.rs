//! The `subtraction` sweep: every non-empty S ⊆ {1..M}, its outcome and
//! Grundy sequences' smallest preperiod and period (proved by the window
//! argument, see [`crate::gamegraph::subtraction`]).
//!
//! Sets are numbered by bitmask (bit k−1 ↔ element k), 1..2^M; shards are
//! ranges of masks ([`MaskRange`]). Per shard ([`SubtractionOutput`]): the
//! number of sets, one histogram per quantity, per quantity the largest value
//! with the smallest sets attaining it, the per-set rows (the smallest
//! [`PER_SET_CAP`]) and two consistency counters; all merge field by field.

mod present;

use crate::gamegraph::subtraction::{analyse, SubtractionAnalysis, SubtractionSet};
use crate::sweep::merge::{add, add_counts, MergeError};
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
    ) -> Result<(), String> {
        validate(params, shard, out)
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
        present::present(doc)
    }
    fn report(&self, _params: &SubtractionParams, doc: &SubtractionDoc) -> String {
        report_md(doc)
    }
}

/// The checks of [`Kind::validate`]: every count is what the shard's
/// `hi − lo` sets can give, the per-set rows and the extremes' sets lie in the
/// shard and agree with the histograms, and each extreme's smallest set is
/// re-analysed (at most five sets: a fixed budget).
fn validate(
    params: &SubtractionParams,
    shard: &MaskRange,
    out: &SubtractionOutput,
) -> Result<(), String> {
    let MaskRange { lo, hi } = *shard;
    let limit = params.sets() + 1;
    if lo == 0 || lo >= hi || hi > limit {
        return Err(format!(
            "shard: mask range {lo}..{hi} is not inside 1..{limit}"
        ));
    }
    let sets = hi - lo;
    if out.sets != sets {
        return Err(format!(
            "sets is {}, but the shard has the {sets} masks {lo}..{hi}",
            out.sets
        ));
    }
    let in_shard = |field: &str, s: &SetStats| {
        if (lo..hi).contains(&s.mask) {
            Ok(())
        } else {
            Err(format!(
                "{field}: mask {} is outside the shard's {lo}..{hi}",
                s.mask
            ))
        }
    };
    // Per-set rows: the smallest min(sets, cap), distinct masks in the shard.
    let per_set = &out.per_set;
    if per_set.total != sets {
        return Err(format!(
            "per_set.total is {}, not sets = {sets}",
            per_set.total
        ));
    }
    let want = sets.min(PER_SET_CAP as u64);
    if per_set.kept.len() as u64 != want {
        return Err(format!(
            "per_set keeps {} rows, not min({sets} sets, {PER_SET_CAP})",
            per_set.kept.len()
        ));
    }
    let mut masks = BTreeSet::new();
    for s in &per_set.kept {
        in_shard("per_set", s)?;
        if !masks.insert(s.mask) {
            return Err(format!("per_set: mask {} is listed twice", s.mask));
        }
        if s.outcome.period == 0 || s.grundy.period == 0 {
            return Err(format!("per_set: mask {} has a period of 0", s.mask));
        }
    }
    // Histograms: each counts every set once; with every row kept they are
    // exactly the rows' values.
    let complete = per_set.complete();
    for (k, (h, name)) in out.histograms.all().into_iter().zip(FIELDS).enumerate() {
        let sum = h.values().try_fold(0u64, |a, &b| a.checked_add(b));
        if sum != Some(sets) {
            return Err(format!(
                "histograms.{name} sums to {sum:?}, not sets = {sets}"
            ));
        }
        if let Some((v, _)) = h.iter().find(|(_, &c)| c == 0) {
            return Err(format!("histograms.{name}[{v}] is 0"));
        }
        let mut from_rows = BTreeMap::new();
        for s in &per_set.kept {
            *from_rows.entry(*s.values().all()[k]).or_insert(0u64) += 1;
        }
        for (v, &c) in &from_rows {
            let have = h.get(v).copied().unwrap_or(0);
            if have < c || (complete && have != c) {
                return Err(format!(
                    "histograms.{name}[{v}] is {have}, but {c} per-set rows have that value"
                ));
            }
        }
        if complete && from_rows.len() != h.len() {
            return Err(format!(
                "histograms.{name} has {} values, the per-set rows {}",
                h.len(),
                from_rows.len()
            ));
        }
    }
    // Consistency counters: at most the sets; exact with every row kept.
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
            return Err(format!(
                "{name} is {have}, but {from_rows} of the {} per-set rows (of {sets} sets) break it",
                per_set.kept.len()
            ));
        }
    }
    // Extremes: the histogram's largest value, as many sets as it counts,
    // the smallest of them kept, each really attaining it.
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
            return Err(format!(
                "{at}.value is {}, but histograms.{name} goes up to {max}",
                l.value
            ));
        }
        if l.sets.total != count {
            return Err(format!(
                "{at}.sets.total is {}, but histograms.{name}[{max}] is {count}",
                l.sets.total
            ));
        }
        if l.sets.kept.len() as u64 != count.min(EXTREME_CAP as u64) {
            return Err(format!(
                "{at} keeps {} sets, not min({count}, {EXTREME_CAP})",
                l.sets.kept.len()
            ));
        }
        for s in &l.sets.kept {
            in_shard(&at, s)?;
            if *s.values().all()[k] != max {
                return Err(format!(
                    "{at}: mask {} has {name} {}, not {max}",
                    s.mask,
                    s.values().all()[k]
                ));
            }
            if let Some(row) = per_set.kept.iter().find(|r| r.mask == s.mask) {
                if row != s {
                    return Err(format!(
                        "{at}: mask {} disagrees with its per-set row",
                        s.mask
                    ));
                }
            }
        }
        // Re-solve the smallest set attaining the extreme.
        if let Some(s) = l.sets.kept.first() {
            let set = SubtractionSet::from_mask(s.mask).map_err(|e| format!("{at}: {e}"))?;
            let truth = SetStats::new(s.mask, &analyse(&set));
            if truth != *s {
                return Err(format!(
                    "{at}: mask {} is claimed as `{}` but is `{}`",
                    s.mask,
                    s.row(),
                    truth.row()
                ));
            }
        }
    }
    Ok(())
}

/// `{2,4,7}`.
fn fmt_set(elements: &[u64]) -> String {
    let e: Vec<String> = elements.iter().map(u64::to_string).collect();
    format!("{{{}}}", e.join(","))
}

fn report_md(d: &SubtractionDoc) -> String {
    let mut s = String::new();
    let m = d.params.max_element;
    let _ = writeln!(s, "# Subtraction games: every non-empty S ⊆ {{1..{m}}}\n");
    let _ = writeln!(
        s,
        "A heap of n counters; a move removes s ∈ S counters (s ≤ n); normal play. For each S the \
         outcome (P/N) and Grundy sequences are computed until a window of max(S) consecutive \
         values repeats; from then on the sequence is periodic (every value is a function of the \
         previous max(S) values), which proves the period. Reported: the smallest preperiod and \
         the smallest period.\n"
    );
    let _ = writeln!(
        s,
        "- sets analysed: {} (expected 2^{m} − 1 = {})",
        d.sets, d.expected_sets
    );
    let _ = writeln!(
        s,
        "- consistency (outcome = [Grundy = 0], so its period divides the Grundy period and its \
         preperiod is not longer): {} sets where the outcome period does not divide the Grundy \
         period, {} where the outcome preperiod is longer",
        d.checks.outcome_period_not_dividing_grundy_period,
        d.checks.outcome_preperiod_above_grundy_preperiod
    );
    let _ = writeln!(
        s,
        "- per-set table in results.json: {}\n",
        if d.per_set_complete {
            "complete"
        } else {
            "partial (the smallest sets by (max, size, elements))"
        }
    );
    if let Some(row) = d.per_set.iter().find(|r| r.starts_with("{2,4,7}:")) {
        let _ = writeln!(s, "Course example: `{row}` (preperiod+period).\n");
    }
    let _ = writeln!(s, "## Extremes\n");
    let _ = writeln!(s, "| quantity | largest value | sets attaining it | smallest such set (outcome pre/per, Grundy pre/per) |");
    let _ = writeln!(s, "|---|---:|---:|---|");
    for (heading, e) in QUANTITIES.iter().zip(d.extremes.all()) {
        let Some(e) = e else { continue };
        let smallest = match &e.smallest_set {
            Some(w) => format!(
                "{} ({}/{}, {}/{})",
                fmt_set(&w.set),
                w.outcome.preperiod,
                w.outcome.period,
                w.grundy.preperiod,
                w.grundy.period
            ),
            None => "{} (null/null, null/null)".into(),
        };
        let _ = writeln!(s, "| {heading} | {} | {} | {smallest} |", e.value, e.sets);
    }
    let _ = writeln!(s);
    for (heading, e) in QUANTITIES.iter().zip(d.extremes.all()).take(4) {
        let Some(e) = e else { continue };
        let sets: Vec<String> = e.listed_sets.iter().map(|x| fmt_set(x)).collect();
        let more = e.sets.saturating_sub(e.listed_sets.len() as u64);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "Sets with the largest {heading}: {}{more}",
            sets.join(", ")
        );
    }
    let _ = writeln!(s);
    let h = &d.histograms;
    for (title, a, b) in [
        ("Periods", &h.outcome_period, &h.grundy_period),
        ("Preperiods", &h.outcome_preperiod, &h.grundy_preperiod),
    ] {
        let _ = writeln!(s, "## {title}: number of sets\n");
        let _ = writeln!(s, "| value | outcome sequence | Grundy sequence |");
        let _ = writeln!(s, "|---:|---:|---:|");
        let mut values: Vec<u64> = a.iter().chain(b.iter()).map(|p| p.0).collect();
        values.sort_unstable();
        values.dedup();
        for v in values {
            let find = |h: &[(u64, u64)]| h.iter().find(|p| p.0 == v).map_or(0, |p| p.1);
            let _ = writeln!(s, "| {v} | {} | {} |", find(a), find(b));
        }
        let _ = writeln!(s);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::{run_typed, ShardSpec, SweepKind};

    fn run(m: u64, shards: u32) -> (SubtractionOutput, SubtractionDoc, String) {
        let params = SubtractionParams { max_element: m };
        let merged = run_typed(&SUBTRACTION, &params, shards).unwrap();
        let doc = SUBTRACTION.doc(&params, &merged);
        let md = SUBTRACTION.report(&params, &doc);
        (merged, doc, md)
    }

    /// The headline: M = 12, all 4,095 sets, deterministic across plans.
    #[test]
    fn m12_all_sets_deterministic() {
        let (merged, d, md) = run(12, 0);
        assert_eq!(merged.sets, 4095);
        assert_eq!(merged.work(), 4095);
        assert!(d.per_set_complete);
        assert_eq!(d.per_set.len(), 4095);
        assert_eq!(d.checks.outcome_period_not_dividing_grundy_period, 0);
        assert_eq!(d.checks.outcome_preperiod_above_grundy_preperiod, 0);
        let sets: Vec<&SetStats> = merged.per_set.kept.iter().collect();
        let s247 = sets.iter().find(|s| s.elements() == [2, 4, 7]).unwrap();
        assert_eq!(
            s247.outcome,
            Seq {
                preperiod: 4,
                period: 3
            }
        );
        // histograms count every set once
        for h in d.histograms.all() {
            assert_eq!(h.iter().map(|p| p.1).sum::<u64>(), 4095);
        }
        // the sets agree with a direct analysis (independent of the merge)
        for s in sets.iter().step_by(37) {
            let e: Vec<u32> = s.elements().iter().map(|&x| x as u32).collect();
            let a = analyse(&SubtractionSet::new(&e).unwrap());
            assert_eq!(**s, SetStats::new(s.mask, &a));
        }
        // the extremes agree with the sets
        for (k, e) in d.extremes.all().into_iter().enumerate() {
            let e = e.as_ref().unwrap();
            let value = |s: &SetStats| *s.values().all()[k];
            let max = sets.iter().map(|s| value(s)).max().unwrap();
            assert_eq!(e.value, max, "{k}");
            let n = sets.iter().filter(|s| value(s) == max).count();
            assert_eq!(e.sets, n as u64, "{k}");
            assert_eq!(e.listed_sets.len(), n.min(EXTREME_CAP), "{k}");
        }
        // another shard plan gives the same result and byte-identical output
        let (merged7, d7, md7) = run(12, 7);
        assert_eq!(merged7, merged);
        assert_eq!(crate::sweep::json_text(&d7), crate::sweep::json_text(&d));
        assert_eq!(md7, md);
        assert!(md.contains("{2,4,7}: outcome 4+3"));
    }

    /// M = 3 by hand: the 7 sets and their outcome periods.
    /// {1}: PNPN… period 2; {2}: PPNN period 4; {1,2}: PNN period 3;
    /// {3}: PPPNNN period 6; {1,3}: PN period 2; {2,3}: PPNNN period 5;
    /// {1,2,3}: PNNN period 4.
    #[test]
    fn m3_by_hand() {
        let (merged, d, _) = run(3, 3);
        let mut sets: Vec<&SetStats> = merged.per_set.kept.iter().collect();
        sets.sort_by_key(|s| s.mask);
        let periods: Vec<(Vec<u64>, u64)> = sets
            .iter()
            .map(|s| (s.elements(), s.outcome.period))
            .collect();
        assert_eq!(
            periods,
            vec![
                (vec![1], 2),
                (vec![2], 4),
                (vec![1, 2], 3),
                (vec![3], 6),
                (vec![1, 3], 2),
                (vec![2, 3], 5),
                (vec![1, 2, 3], 4)
            ]
        );
        let e = d.extremes.largest_outcome_period.as_ref().unwrap();
        assert_eq!(e.value, 6);
        assert_eq!(e.smallest_set.as_ref().unwrap().set, vec![3]);
    }

    /// Witness order is the order of the old records: (max, size, text, mask).
    #[test]
    fn witness_order_is_text_order() {
        let set = |e: &[u32]| {
            let s = SubtractionSet::new(e).unwrap();
            let mask = e.iter().fold(0u64, |m, &x| m | 1 << (x - 1));
            (SetStats::new(mask, &analyse(&s)), s.to_string_braced())
        };
        let mut all: Vec<(SetStats, String)> = (1u64..1 << 12)
            .step_by(5)
            .map(|m| set(&elements_of(m).iter().map(|&x| x as u32).collect::<Vec<_>>()))
            .collect();
        let mut by_text = all.clone();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        by_text.sort_by(|a, b| {
            let key = |x: &(SetStats, String)| {
                (
                    64 - x.0.mask.leading_zeros(),
                    x.0.mask.count_ones(),
                    x.1.clone(),
                )
            };
            key(a).cmp(&key(b))
        });
        assert_eq!(all, by_text);
        assert_eq!(decimal_cmp(10, 9), Ordering::Less);
        assert_eq!(decimal_cmp(1, 12), Ordering::Less);
        assert_eq!(decimal_cmp(0, 0), Ordering::Equal);
    }

    #[test]
    fn bad_shards_and_params_are_errors() {
        let kind: &dyn SweepKind = &SUBTRACTION;
        let params = kind
            .resolve_params(&[("max_element".to_string(), 4)].into())
            .unwrap();
        for payload in [
            "",
            "masks 1..3",
            r#"{"lo":0,"hi":3}"#,
            r#"{"lo":3,"hi":3}"#,
            r#"{"lo":1,"hi":17}"#,
            r#"{"lo":1}"#,
            r#"{"lo":1,"hi":3,"extra":1}"#,
            r#"{"lo":-1,"hi":3}"#,
        ] {
            let shard = ShardSpec {
                index: 0,
                payload: payload.into(),
                estimate: 0,
            };
            assert!(
                matches!(
                    kind.run_shard(&params, &shard, &ShardCtx::detached()),
                    Err(SweepError::BadShard { .. })
                ),
                "{payload}"
            );
        }
        let ok = ShardSpec {
            index: 0,
            payload: r#"{"lo":1,"hi":16}"#.into(),
            estimate: 0,
        };
        assert_eq!(
            kind.run_shard(&params, &ok, &ShardCtx::detached())
                .unwrap()
                .work(),
            15
        );
        assert!(kind
            .resolve_params(&[("max_element".to_string(), 21)].into())
            .is_err());
        assert!(kind
            .resolve_params(&[("max_n".to_string(), 3)].into())
            .is_err());
        // parameters that skipped resolve are an error too, not a panic
        let raw: crate::sweep::Params = [("max_elements".to_string(), 3)].into();
        assert!(matches!(
            kind.plan(&raw, 0),
            Err(SweepError::BadParams { .. })
        ));
    }

    /// Merging is order independent, including the capped sets.
    #[test]
    fn merge_is_order_independent() {
        let params = SubtractionParams { max_element: 8 };
        let shards = Kind::plan(&SUBTRACTION, &params, 9).unwrap();
        let outs: Vec<SubtractionOutput> = shards
            .iter()
            .map(|(s, _)| SUBTRACTION.run(&params, s, &ShardCtx::detached()).unwrap())
            .collect();
        let mut fwd = SubtractionOutput::default();
        for o in outs.iter().cloned() {
            fwd.merge(o).unwrap();
        }
        let mut rev = SubtractionOutput::default();
        for o in outs.iter().rev().cloned() {
            rev.merge(o).unwrap();
        }
        assert_eq!(fwd, rev);
        // and through the stored encoding
        let text = serde_json::to_string(&fwd).unwrap();
        let back: SubtractionOutput = serde_json::from_str(&text).unwrap();
        assert_eq!(back, fwd);
    }

    /// Every shard of real plans validates: the committed run's M = 12 in 64
    /// shards, M = 8 in 9, and M = 17 in one shard (more sets than
    /// [`PER_SET_CAP`], so the per-set rows are incomplete).
    #[test]
    fn real_shard_results_validate() {
        for (m, shards) in [(12, 0), (8, 9), (17, 1)] {
            let p = SubtractionParams { max_element: m };
            for (s, _) in Kind::plan(&SUBTRACTION, &p, shards).unwrap() {
                let out = SUBTRACTION.run(&p, &s, &ShardCtx::detached()).unwrap();
                assert_eq!(validate(&p, &s, &out), Ok(()), "M {m} shard {s:?}");
            }
        }
    }

    /// `f` applied to the result of masks 1..256 of M = 8 is refused with a
    /// message containing `want`.
    fn refused(f: impl FnOnce(&mut SubtractionOutput), want: &str) {
        let p = SubtractionParams { max_element: 8 };
        let s = MaskRange { lo: 1, hi: 256 };
        let mut out = SUBTRACTION.run(&p, &s, &ShardCtx::detached()).unwrap();
        assert_eq!(validate(&p, &s, &out), Ok(()));
        f(&mut out);
        let e = validate(&p, &s, &out).expect_err(want);
        assert!(e.contains(want), "`{e}` does not contain `{want}`");
    }

    /// Each forged field is refused, naming it.
    #[test]
    fn forged_subtraction_results_are_refused_naming_the_field() {
        refused(
            |o| o.sets += 1,
            "sets is 256, but the shard has the 255 masks 1..256",
        );
        refused(
            |o| {
                let h = &mut o.histograms.max_grundy;
                let (&v, _) = h.iter().next().unwrap();
                *h.get_mut(&v).unwrap() -= 1;
                *h.entry(99).or_insert(0) += 1;
            },
            "histograms.max_grundy",
        );
        refused(
            |o| *o.histograms.grundy_period.values_mut().next().unwrap() += 1,
            "histograms.grundy_period sums to Some(256), not sets = 255",
        );
        refused(|o| o.per_set.total += 1, "per_set.total is 256");
        refused(
            |o| {
                let mut x = o.per_set.kept.pop_last().unwrap();
                x.mask = 300;
                o.per_set.kept.insert(x);
            },
            "per_set: mask 300 is outside the shard's 1..256",
        );
        refused(
            |o| {
                o.per_set.kept.pop_first();
            },
            "per_set keeps 254 rows",
        );
        refused(
            |o| o.outcome_preperiod_above_grundy_preperiod = 1,
            "outcome_preperiod_above_grundy_preperiod is 1",
        );
        refused(
            |o| o.largest.grundy_period.value += 1,
            "largest.grundy_period.value",
        );
        refused(
            |o| o.largest.max_grundy.sets.total += 1,
            "largest.max_grundy.sets.total",
        );
        // A consistent lie: the extreme's smallest set claims a larger
        // preperiod everywhere (histogram, per-set row, extreme); re-solving
        // it refuses it.
        refused(
            |o| {
                let l = &mut o.largest.outcome_preperiod;
                let old = l.sets.kept.pop_first().unwrap();
                let mut forged = old.clone();
                forged.outcome.preperiod += 100;
                let h = &mut o.histograms.outcome_preperiod;
                *h.get_mut(&l.value).unwrap() -= 1;
                if h[&l.value] == 0 {
                    h.remove(&l.value);
                }
                h.insert(forged.outcome.preperiod, 1);
                *l = Largest {
                    value: forged.outcome.preperiod,
                    sets: Capped::default(),
                };
                l.sets.offer(forged.clone());
                o.per_set.kept.remove(&old);
                o.per_set.kept.insert(forged);
                let above = o.per_set.kept.iter();
                o.outcome_preperiod_above_grundy_preperiod = above
                    .filter(|s| s.outcome.preperiod > s.grundy.preperiod)
                    .count() as u64;
            },
            "is claimed as",
        );
    }
}
