//! [`Kind::validate`] of `noop`: a shard's result checked without re-running it.

use super::*;

/// [`Kind::validate`] of `noop`.
pub(super) fn validate(
    params: &NoopParams,
    shard: &NoopShard,
    out: &NoopOutput,
) -> Result<(), ValidateError> {
    if out.shards != 1 {
        return Err(ValidateError::from(format!(
            "shards is {}, not 1",
            out.shards
        )));
    }
    if out.index_sum != shard.index {
        return Err(ValidateError::from(format!(
            "index_sum is {}, not the shard's index {}",
            out.index_sum, shard.index
        )));
    }
    if out.padding.len() as u64 != params.result_bytes || out.padding.chars().any(|c| c != PAD) {
        return Err(ValidateError::from(format!(
            "padding is not {} '{PAD}' bytes",
            params.result_bytes
        )));
    }
    Ok(())
}
