//! The `octal` sweep: every octal game 0.d1d2…dk (Guy–Smith) with exactly k
//! digits, dk ≠ 0; the Grundy values G(0..=N) of one heap and the smallest
//! (preperiod, period) proven by the Octal Game Theorem within N.
//!
//! Digit d_i says how i tokens may be removed from a heap: bit 1 leaving no
//! heap (the heap had exactly i), bit 2 leaving one nonzero heap, bit 4
//! leaving two nonzero heaps. The theorem: if G(n + p) = G(n) for every n with
//! n0 ≤ n < 2·n0 + p + t (t = k, the largest removal), then G(n + p) = G(n)
//! for every n ≥ n0. Only computed values are used, so (n0, p) is proven when
//! 2·n0 + 2p + t − 1 ≤ N; the search takes p ascending, then n0 ascending.
//!
//! The solver lives here rather than in a solver module: it is small, and a
//! new solver module would change the version of every kind that depends on
//! its layer (a new top-level module changes `lib.rs`, hence every kind).
//!
//! Codes are numbered by rank 0..7·8^(k−1) in increasing order of their digit
//! string; shards are ranges of ranks ([`CodeRange`]).

mod report;

mod validate;
use crate::gamegraph::octal::{
    code_of_rank, code_text, digits_of, grundy_values, proven_periodicity, Periodicity,
};
use crate::sweep::merge::{add, add_counts, MergeError};
use crate::sweep::params::flag_name;
use crate::sweep::ValidateError;
use crate::sweep::{Kind, Merge, ParamDef, ShardCtx, SweepError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The `octal` sweep kind.
pub struct OctalSweep;

const NAME: &str = "octal";

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "digits",
        help: "sweep every octal code 0.d1..dk with exactly k digits, dk nonzero",
        default: Some(3),
        min: 1,
        max: 4,
    },
    ParamDef {
        name: "max_heap",
        help: "compute G(0..=N) and prove periodicity within it",
        default: Some(400),
        min: 1,
        max: 5000,
    },
];

/// Shards when the runtime gives no hint.
const DEFAULT_SHARDS: u64 = 32;

/// Typed parameters.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OctalParams {
    /// k: the number of digits after the point.
    pub digits: u64,
    /// N: the largest heap computed.
    pub max_heap: u64,
}

impl OctalParams {
    /// 7·8^(k−1), the number of codes.
    fn codes(&self) -> u64 {
        7 * 8u64.pow(self.digits.saturating_sub(1) as u32)
    }

    /// The declared ranges, also for parameters that skipped `resolve`.
    fn check(&self) -> Result<(), SweepError> {
        for (d, v) in PARAMS.iter().zip([self.digits, self.max_heap]) {
            if v < d.min || v > d.max {
                return Err(SweepError::OutOfRange {
                    kind: NAME.into(),
                    param: flag_name(d.name),
                    value: v,
                    min: d.min,
                    max: d.max,
                });
            }
        }
        Ok(())
    }
}

/// One shard: the codes of ranks `lo..hi`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodeRange {
    /// First rank.
    pub lo: u64,
    /// One past the last rank.
    pub hi: u64,
}

/// One analysed code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodeStats {
    /// The proven periodicity, if any.
    pub proven: Option<Periodicity>,
    /// The largest Grundy value among G(0..=N).
    pub max_grundy: u64,
}

/// The largest value of a quantity, how many codes attain it, the smallest.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Largest {
    /// The largest value (meaningless while `codes` is 0).
    pub value: u64,
    /// Codes attaining it.
    pub codes: u64,
    /// The smallest code attaining it.
    pub smallest: u64,
}

impl Largest {
    fn offer(&mut self, value: u64, code: u64) {
        // One code more than the codes of a shard: never overflows.
        let _ = self.merge(Largest {
            value,
            codes: 1,
            smallest: code,
        });
    }
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        if other.codes == 0 {
            return Ok(());
        }
        if self.codes == 0 || other.value > self.value {
            *self = other;
        } else if other.value == self.value {
            add(&mut self.codes, other.codes, "codes")?;
            self.smallest = self.smallest.min(other.smallest);
        }
        Ok(())
    }
}

/// The result of a shard, or of the merge of many.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OctalOutput {
    /// Codes analysed.
    pub codes: u64,
    /// Codes with a proven periodicity.
    pub proven: u64,
    /// Codes without.
    pub not_proven: u64,
    /// Proven period → codes.
    pub period_histogram: BTreeMap<u64, u64>,
    /// Proven preperiod → codes.
    pub preperiod_histogram: BTreeMap<u64, u64>,
    /// Largest Grundy value → codes.
    pub max_grundy_histogram: BTreeMap<u64, u64>,
    /// The largest proven period.
    pub largest_period: Largest,
    /// The largest proven preperiod.
    pub largest_preperiod: Largest,
    /// The largest Grundy value.
    pub largest_max_grundy: Largest,
    /// Every code (by its base-8 value).
    pub per_code: BTreeMap<u64, CodeStats>,
}

impl Merge for OctalOutput {
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        add(&mut self.codes, other.codes, "codes")?;
        add(&mut self.proven, other.proven, "proven")?;
        add(&mut self.not_proven, other.not_proven, "not_proven")?;
        let o = other;
        add_counts(
            &mut self.period_histogram,
            o.period_histogram,
            "period_histogram",
        )?;
        add_counts(
            &mut self.preperiod_histogram,
            o.preperiod_histogram,
            "preperiod_histogram",
        )?;
        add_counts(
            &mut self.max_grundy_histogram,
            o.max_grundy_histogram,
            "max_grundy_histogram",
        )?;
        (self.largest_period.merge(o.largest_period)).map_err(|e| e.within("largest_period"))?;
        (self.largest_preperiod.merge(o.largest_preperiod))
            .map_err(|e| e.within("largest_preperiod"))?;
        (self.largest_max_grundy.merge(o.largest_max_grundy))
            .map_err(|e| e.within("largest_max_grundy"))?;
        // Shards cover disjoint codes, and a code's row depends on the code only.
        self.per_code.extend(o.per_code);
        Ok(())
    }
    fn work(&self) -> u64 {
        self.codes
    }
}

/// `params` of results.json.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocParams {
    /// k.
    pub digits: u64,
    /// N.
    pub max_heap: u64,
}

/// The largest value of a quantity in results.json.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extreme {
    /// The largest value.
    pub value: u64,
    /// Codes attaining it.
    pub codes: u64,
    /// The smallest of them, e.g. `0.137`.
    pub smallest_code: String,
}

/// `extremes` of results.json (null when no code has the quantity).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extremes {
    /// Largest proven period.
    pub largest_period: Option<Extreme>,
    /// Largest proven preperiod.
    pub largest_preperiod: Option<Extreme>,
    /// Largest Grundy value.
    pub largest_max_grundy: Option<Extreme>,
}

/// `histograms` of results.json: (value, codes) pairs, ascending.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Histograms {
    /// Proven periods.
    pub period: Vec<(u64, u64)>,
    /// Proven preperiods.
    pub preperiod: Vec<(u64, u64)>,
    /// Largest Grundy values.
    pub max_grundy: Vec<(u64, u64)>,
}

/// One code in results.json.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodeRow {
    /// The code, e.g. `0.137`.
    pub code: String,
    /// Proven preperiod (null: not proven within N).
    pub preperiod: Option<u64>,
    /// Proven period (null: not proven within N).
    pub period: Option<u64>,
    /// Largest Grundy value among G(0..=N).
    pub max_grundy: u64,
}

/// The `results.json` document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OctalDoc {
    /// `octal`.
    pub kind: String,
    /// The parameters.
    pub params: DocParams,
    /// Codes analysed.
    pub codes: u64,
    /// 7·8^(k−1).
    pub expected_codes: u64,
    /// Codes with a proven periodicity.
    pub proven: u64,
    /// Codes without.
    pub not_proven: u64,
    /// Histograms.
    pub histograms: Histograms,
    /// Extremes.
    pub extremes: Extremes,
    /// Every code, ascending.
    pub per_code: Vec<CodeRow>,
}

fn bad_shard(reason: impl Into<String>) -> SweepError {
    SweepError::BadShard {
        kind: NAME.into(),
        reason: reason.into(),
    }
}

fn extreme(l: &Largest, k: u64) -> Option<Extreme> {
    (l.codes > 0).then(|| Extreme {
        value: l.value,
        codes: l.codes,
        smallest_code: code_text(l.smallest, k),
    })
}

fn pairs(h: &BTreeMap<u64, u64>) -> Vec<(u64, u64)> {
    h.iter().map(|(&v, &c)| (v, c)).collect()
}

impl Kind for OctalSweep {
    type Params = OctalParams;
    type Shard = CodeRange;
    type Output = OctalOutput;
    type Doc = OctalDoc;

    fn name(&self) -> &'static str {
        NAME
    }

    fn about(&self) -> &'static str {
        "octal games 0.d1..dk: Grundy values and periodicity proven by the Octal Game Theorem"
    }

    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn source_file(&self) -> &'static str {
        file!()
    }

    fn plan(
        &self,
        params: &OctalParams,
        target_shards: u32,
    ) -> Result<Vec<(CodeRange, u64)>, SweepError> {
        params.check()?;
        let codes = params.codes();
        let k = if target_shards == 0 {
            DEFAULT_SHARDS
        } else {
            target_shards as u64
        }
        .min(codes);
        Ok((0..k)
            .map(|i| {
                let lo = i * codes / k;
                let hi = (i + 1) * codes / k;
                (CodeRange { lo, hi }, hi - lo)
            })
            .collect())
    }

    fn run(
        &self,
        params: &OctalParams,
        shard: &CodeRange,
        ctx: &ShardCtx<'_>,
    ) -> Result<OctalOutput, SweepError> {
        params.check()?;
        let CodeRange { lo, hi } = *shard;
        let codes = params.codes();
        if lo >= hi || hi > codes {
            return Err(bad_shard(format!(
                "code range {lo}..{hi} is not inside 0..{codes}"
            )));
        }
        let k = params.digits;
        let mut r = OctalOutput::default();
        for rank in lo..hi {
            ctx.check()?;
            let code = code_of_rank(rank);
            let g = grundy_values(&digits_of(code, k), params.max_heap as usize);
            let proven = proven_periodicity(&g, k as usize);
            let max_grundy = g.iter().copied().max().unwrap_or(0) as u64;
            r.codes += 1;
            match proven {
                Some(p) => {
                    r.proven += 1;
                    *r.period_histogram.entry(p.period).or_insert(0) += 1;
                    *r.preperiod_histogram.entry(p.preperiod).or_insert(0) += 1;
                    r.largest_period.offer(p.period, code);
                    r.largest_preperiod.offer(p.preperiod, code);
                }
                None => r.not_proven += 1,
            }
            *r.max_grundy_histogram.entry(max_grundy).or_insert(0) += 1;
            r.largest_max_grundy.offer(max_grundy, code);
            r.per_code.insert(code, CodeStats { proven, max_grundy });
            ctx.add_progress(1);
        }
        Ok(r)
    }

    /// Every code of the range has its row; the counts, histograms and
    /// largest values are recomputed from the rows and must agree; the
    /// codes named as attaining the largest values are solved again (three
    /// codes, each as cheap as one code of the shard).
    fn validate(
        &self,
        params: &OctalParams,
        shard: &CodeRange,
        out: &OctalOutput,
    ) -> Result<(), ValidateError> {
        validate::validate(params, shard, out)
    }

    fn doc(&self, params: &OctalParams, m: &OctalOutput) -> OctalDoc {
        let k = params.digits;
        OctalDoc {
            kind: NAME.into(),
            params: DocParams {
                digits: k,
                max_heap: params.max_heap,
            },
            codes: m.codes,
            expected_codes: params.codes(),
            proven: m.proven,
            not_proven: m.not_proven,
            histograms: Histograms {
                period: pairs(&m.period_histogram),
                preperiod: pairs(&m.preperiod_histogram),
                max_grundy: pairs(&m.max_grundy_histogram),
            },
            extremes: Extremes {
                largest_period: extreme(&m.largest_period, k),
                largest_preperiod: extreme(&m.largest_preperiod, k),
                largest_max_grundy: extreme(&m.largest_max_grundy, k),
            },
            per_code: m
                .per_code
                .iter()
                .map(|(&code, s)| CodeRow {
                    code: code_text(code, k),
                    preperiod: s.proven.map(|p| p.preperiod),
                    period: s.proven.map(|p| p.period),
                    max_grundy: s.max_grundy,
                })
                .collect(),
        }
    }

    fn present(&self, doc: &OctalDoc) -> crate::sweep::Presentation {
        report::present::present(doc)
    }
    fn report(&self, _params: &OctalParams, doc: &OctalDoc) -> String {
        report::report_md(doc)
    }
}

#[cfg(test)]
mod tests;
