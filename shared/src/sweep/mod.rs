//! The sweep framework: the typed [`Kind`] trait a sweep kind implements,
//! the erased [`SweepKind`] the runtime drives, parameters, merging, the
//! executor and report helpers. It names no kind: the kinds and their
//! registry live in [`crate::kinds`].
//!
//! A kind turns its parameters into a *plan* of shards; running one shard is
//! a pure function of (params, shard) and returns the kind's typed result;
//! results merge associatively and commutatively ([`Merge`]), so the merged
//! result never depends on shard size, shard order, or how many processes ran
//! them; the kind renders the merged result as `results.json` and, from that
//! text alone, `report.md`.
//!
//! ```
//! use gamesweep::{kinds, sweep};
//! let kind = kinds::find("uvg").unwrap();
//! let params = kind.resolve_params(&[("max_n".to_string(), 5)].into()).unwrap();
//! let plan = kind.plan(&params, 4).unwrap();
//! let merged = sweep::run_all_sequential(kind, &params, &plan).unwrap();
//! let rendered = kind.render(&params, &merged).unwrap();
//! let doc: serde_json::Value = serde_json::from_str(&rendered.results_json).unwrap();
//! assert_eq!(doc["by_n"][4]["positions"], 105);
//! ```

mod erased;
pub mod graphplan;
mod invalid;
mod kind;
pub mod merge;
pub mod params;
pub mod positions;
pub mod present;
pub mod report;
mod result;
pub mod truth;

pub use erased::{json_text, with_command, Output, Rendered, SweepKind};
pub use invalid::{run_checks, ValidateError};
pub use kind::{Kind, ShardCtx, ShardSpec};
pub use merge::{Max, Merge, MergeError, Smallest};
pub use params::{parse_typed, resolve, ParamDef, Params};
pub use present::{Chart, Marks, Plot, Presentation, Role, Series, Witness};
pub use report::{plural, thousands};
pub use result::{Record, RecordSet};
pub use truth::TruthCheck;

/// Errors of planning or running a sweep.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SweepError {
    /// No kind of that name is registered.
    #[error("unknown sweep kind `{0}` (known kinds: {1})")]
    UnknownKind(String, String),
    /// A parameter the kind does not declare.
    #[error("sweep `{kind}` has no parameter `--{param}`")]
    UnknownParam {
        /// The kind.
        kind: String,
        /// The offending name.
        param: String,
    },
    /// A required parameter was not given.
    #[error("sweep `{kind}` needs `--{param}`")]
    MissingParam {
        /// The kind.
        kind: String,
        /// The missing parameter.
        param: String,
    },
    /// A parameter out of its declared range.
    #[error("`--{param} {value}` is out of range for sweep `{kind}`: allowed {min}..={max}")]
    OutOfRange {
        /// The kind.
        kind: String,
        /// The parameter.
        param: String,
        /// The value given.
        value: u64,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A shard payload that this kind cannot parse (corrupt store or foreign client).
    #[error("bad shard payload for sweep `{kind}`: {reason}")]
    BadShard {
        /// The kind.
        kind: String,
        /// What was wrong.
        reason: String,
    },
    /// Parameters that do not parse into the kind's typed parameters.
    #[error("bad parameters for sweep `{kind}`: {reason}")]
    BadParams {
        /// The kind.
        kind: String,
        /// What was wrong.
        reason: String,
    },
    /// A stored or received result that is not this kind's result.
    #[error("bad result for sweep `{kind}`: {reason}")]
    BadResult {
        /// The kind.
        kind: String,
        /// What was wrong.
        reason: String,
    },
    /// Two results of different kinds were merged.
    #[error("a result of sweep `{got}` cannot be merged into one of sweep `{want}`")]
    KindMismatch {
        /// The kind of the result merged into.
        want: String,
        /// The kind of the other result.
        got: String,
    },
    /// Merging two results would overflow a counter.
    #[error("cannot merge {} of sweep `{kind}`: {error}", shard.map_or("a result".to_string(), |s| format!("the result of shard {s}")))]
    Overflow {
        /// The kind.
        kind: String,
        /// The shard whose result was merged in, when known.
        shard: Option<u32>,
        /// The counter that overflowed.
        error: MergeError,
    },
    /// A shard's result that is not what the shard can have produced.
    #[error("invalid result for shard {shard} of sweep `{kind}`: {reason}")]
    InvalidResult {
        /// The kind.
        kind: String,
        /// The shard's index in the plan.
        shard: u32,
        /// What was wrong, naming the field.
        reason: ValidateError,
    },
    /// The shard was cancelled through its [`ShardCtx`].
    #[error("shard cancelled")]
    Cancelled,
}

/// Run a whole plan in this thread and merge: the tests' independent oracle
/// (and the examples' executor). `gamesweep run` never uses it: it runs
/// every shard through its coordinator core (`run`, `run --in-process`), so
/// a test comparing the two checks the whole runtime against this loop.
pub fn run_all_sequential(
    kind: &dyn SweepKind,
    params: &Params,
    plan: &[ShardSpec],
) -> Result<Output, SweepError> {
    let mut merged = kind.empty();
    for shard in plan {
        let out = kind.run_shard(params, shard, &ShardCtx::detached())?;
        merged.merge(out).map_err(|e| in_shard(e, shard.index))?;
    }
    Ok(merged)
}

/// Plan and run a typed kind in this thread (tests): the merged typed result.
pub fn run_typed<K: Kind>(
    kind: &K,
    params: &K::Params,
    target_shards: u32,
) -> Result<K::Output, SweepError> {
    let mut merged = K::Output::default();
    for (i, (shard, _)) in kind.plan(params, target_shards)?.into_iter().enumerate() {
        let out = kind.run(params, &shard, &ShardCtx::detached())?;
        merged.merge(out).map_err(|error| SweepError::Overflow {
            kind: kind.name().into(),
            shard: Some(i as u32),
            error,
        })?;
    }
    Ok(merged)
}

/// `e`, naming `shard` if it is a merge error: the shard whose result could
/// not be merged in.
pub fn in_shard(e: SweepError, shard: u32) -> SweepError {
    match e {
        SweepError::Overflow { kind, error, .. } => SweepError::Overflow {
            kind,
            shard: Some(shard),
            error,
        },
        e => e,
    }
}
