//! The `noop` sweep: shards that do no work, for load tests of the runtime.
//!
//! The plan has as many shards as asked (`--shards K`, 1000 by default);
//! shard i returns a result counting one shard and the index sum i, plus a
//! padding string of `--result-bytes` dots, so the size of a submitted result
//! is chosen by the caller. `validate` checks all three, and the report
//! prints the shards merged and their index sum: the sweep merged every shard
//! of 0..K exactly once only if the count is K and the sum K(K−1)/2 (shards
//! are refused unless they carry their own index, so a duplicate or a missed
//! shard moves the count).

mod report;
mod validate;
use crate::sweep::merge::{add, MergeError};
use crate::sweep::ValidateError;
use crate::sweep::{Kind, Merge, ParamDef, ShardCtx, SweepError};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The `noop` sweep kind.
pub struct NoopSweep;

/// The instance registered in [`crate::kinds::registry`].
pub const NOOP: NoopSweep = NoopSweep;

const NAME: &str = "noop";

/// Largest padding of one result (well under the submit size limit).
const MAX_RESULT_BYTES: u64 = 1 << 16;

const PARAMS: &[ParamDef] = &[ParamDef {
    name: "result_bytes",
    help: "padding bytes in each shard's result (the size of a submit)",
    default: Some(16),
    min: 0,
    max: MAX_RESULT_BYTES,
}];

/// Shards when the runtime gives no hint.
const DEFAULT_SHARDS: u32 = 1000;

/// The padding byte.
const PAD: char = '.';

/// Typed parameters.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoopParams {
    /// Padding bytes per shard result.
    pub result_bytes: u64,
}

/// One shard: its index in the plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoopShard {
    /// Index in the plan, 0..K.
    pub index: u64,
}

/// The result of one shard, or the merge of several.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoopOutput {
    /// Shards merged.
    pub shards: u64,
    /// Sum of their indices.
    pub index_sum: u64,
    /// `result_bytes` dots; a merge keeps the larger (by length, then text).
    pub padding: String,
}

impl Merge for NoopOutput {
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        add(&mut self.shards, other.shards, "shards")?;
        add(&mut self.index_sum, other.index_sum, "index_sum")?;
        if (other.padding.len(), &other.padding) > (self.padding.len(), &self.padding) {
            self.padding = other.padding;
        }
        Ok(())
    }

    fn work(&self) -> u64 {
        self.shards
    }
}

/// The parameters as written in `results.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocParams {
    /// Padding bytes per shard result.
    pub result_bytes: u64,
}

/// The `results.json` document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoopDoc {
    /// `noop`.
    pub kind: String,
    /// The parameters.
    pub params: DocParams,
    /// Shards merged.
    pub shards: u64,
    /// Sum of their indices.
    pub index_sum: u64,
    /// Is `index_sum` = shards·(shards − 1)/2, as when every shard of
    /// 0..shards was merged once?
    pub sum_matches: bool,
}

/// K(K−1)/2, or None on overflow.
pub fn expected_sum(k: u64) -> Option<u64> {
    if k & 1 == 0 {
        (k / 2).checked_mul(k.saturating_sub(1))
    } else {
        k.checked_mul((k - 1) / 2)
    }
}

fn bad_shard(reason: impl Into<String>) -> SweepError {
    SweepError::BadShard {
        kind: NAME.into(),
        reason: reason.into(),
    }
}

impl Kind for NoopSweep {
    type Params = NoopParams;
    type Shard = NoopShard;
    type Output = NoopOutput;
    type Doc = NoopDoc;

    fn name(&self) -> &'static str {
        NAME
    }

    fn about(&self) -> &'static str {
        "shards that do no work (index sums and padding), for load tests"
    }

    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn source_file(&self) -> &'static str {
        file!()
    }

    fn plan(
        &self,
        params: &NoopParams,
        target_shards: u32,
    ) -> Result<Vec<(NoopShard, u64)>, SweepError> {
        if params.result_bytes > MAX_RESULT_BYTES {
            return Err(bad_shard(format!(
                "result_bytes {} is above {MAX_RESULT_BYTES}",
                params.result_bytes
            )));
        }
        let k = if target_shards == 0 {
            DEFAULT_SHARDS
        } else {
            target_shards
        };
        Ok((0..u64::from(k))
            .map(|index| (NoopShard { index }, 1))
            .collect())
    }

    fn run(
        &self,
        params: &NoopParams,
        shard: &NoopShard,
        _ctx: &ShardCtx<'_>,
    ) -> Result<NoopOutput, SweepError> {
        if params.result_bytes > MAX_RESULT_BYTES {
            return Err(bad_shard(format!(
                "result_bytes {} is above {MAX_RESULT_BYTES}",
                params.result_bytes
            )));
        }
        if shard.index > u64::from(u32::MAX) {
            return Err(bad_shard(format!(
                "index {} is above {}",
                shard.index,
                u32::MAX
            )));
        }
        Ok(NoopOutput {
            shards: 1,
            index_sum: shard.index,
            padding: PAD.to_string().repeat(params.result_bytes as usize),
        })
    }

    fn validate(
        &self,
        params: &NoopParams,
        shard: &NoopShard,
        out: &NoopOutput,
    ) -> Result<(), ValidateError> {
        validate::validate(params, shard, out)
    }

    fn doc(&self, params: &NoopParams, merged: &NoopOutput) -> NoopDoc {
        NoopDoc {
            kind: NAME.into(),
            params: DocParams {
                result_bytes: params.result_bytes,
            },
            shards: merged.shards,
            index_sum: merged.index_sum,
            sum_matches: expected_sum(merged.shards) == Some(merged.index_sum),
        }
    }

    fn report(&self, params: &NoopParams, doc: &NoopDoc) -> String {
        report::report_md(params, doc)
    }
}

#[cfg(test)]
mod tests;
