//! The sweep abstraction.
//!
//! A *sweep kind* (e.g. `uvg`) turns its parameters into a *plan* of shards;
//! running one shard is a pure function of (params, shard) and returns a
//! [`SweepResult`]; results merge associatively and commutatively
//! ([`SweepResult::merge`]), so the merged result never depends on shard size,
//! shard order, or how many processes ran them; a kind renders the merged
//! result as `results.json` and `report.md`.
//!
//! The runtime (coordinator, workers, the in-process pool of `gamesweep run`)
//! only ever sees kinds through the [`SweepKind`] trait and the [`registry`].
//!
//! ```
//! use gamesweep::sweep::{self, ShardCtx};
//! let kind = sweep::find("uvg").unwrap();
//! let params = sweep::resolve_params(kind, &[("max_n".to_string(), 5)].into()).unwrap();
//! let plan = kind.plan(&params, 4).unwrap();
//! let mut merged = sweep::SweepResult::default();
//! for shard in &plan {
//!     merged.merge(kind.run_shard(&params, shard, &ShardCtx::detached()).unwrap());
//! }
//! let rendered = kind.render(&params, &merged);
//! assert_eq!(rendered.results_json["by_n"][4]["positions"], 105);
//! ```

pub mod graphplan;
mod registry;
mod result;
pub mod uvg;
pub mod uvg_search;

pub use registry::{find, registry};
pub use result::{Record, RecordSet, SweepResult};

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Resolved sweep parameters: every parameter the kind declares, by name.
pub type Params = BTreeMap<String, u64>;

/// One declared parameter of a sweep kind (all parameters are unsigned integers;
/// flags are 0/1). The CLI builds `--name-with-dashes` options from these.
#[derive(Clone, Copy, Debug)]
pub struct ParamDef {
    /// Name with underscores, e.g. `max_n` (the CLI spells it `--max-n`).
    pub name: &'static str,
    /// One line of help text.
    pub help: &'static str,
    /// Default value; `None` means the parameter is required.
    pub default: Option<u64>,
    /// Smallest accepted value.
    pub min: u64,
    /// Largest accepted value.
    pub max: u64,
}

/// One unit of work in a plan. Opaque to the runtime except for `index` and `estimate`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardSpec {
    /// Position in the plan, `0..plan.len()`.
    pub index: u32,
    /// Kind-specific description of the shard (e.g. canonical-prefix graph6 strings
    /// or an index range). Stored verbatim by the coordinator.
    pub payload: String,
    /// Estimated work (positions) of the shard, for progress and ETA; 0 if unknown.
    pub estimate: u64,
}

/// A plan from `(payload, estimate)` pairs, numbered `0..` in order.
pub fn numbered(shards: impl IntoIterator<Item = (String, u64)>) -> Vec<ShardSpec> {
    shards
        .into_iter()
        .enumerate()
        .map(|(i, (payload, estimate))| ShardSpec {
            index: i as u32,
            payload,
            estimate,
        })
        .collect()
}

/// What a kind renders from a merged result.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The `results.json` document (no timings: byte-identical across reruns).
    pub results_json: serde_json::Value,
    /// The `report.md` text, rendered from `results_json`'s data.
    pub report_md: String,
}

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
    /// The shard was cancelled through its [`ShardCtx`].
    #[error("shard cancelled")]
    Cancelled,
}

/// Run-time context of one shard: a cancellation flag the kind may poll and a
/// progress counter (positions done so far) it may bump. Both are optional to
/// honour; a kind that ignores them is still correct.
pub struct ShardCtx<'a> {
    cancel: Option<&'a AtomicBool>,
    progress: Option<&'a AtomicU64>,
}

impl<'a> ShardCtx<'a> {
    /// A context wired to the runtime's flag and counter.
    pub fn new(cancel: &'a AtomicBool, progress: &'a AtomicU64) -> Self {
        ShardCtx {
            cancel: Some(cancel),
            progress: Some(progress),
        }
    }
    /// A context nobody watches (tests, one-off runs).
    pub fn detached() -> ShardCtx<'static> {
        ShardCtx {
            cancel: None,
            progress: None,
        }
    }
    /// Has the runtime asked this shard to stop?
    #[inline]
    pub fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
    /// Report `work` more positions done.
    #[inline]
    pub fn add_progress(&self, work: u64) {
        if let Some(p) = self.progress {
            p.fetch_add(work, Ordering::Relaxed);
        }
    }
    /// `Err(Cancelled)` if cancelled, for `?` in loops.
    #[inline]
    pub fn check(&self) -> Result<(), SweepError> {
        if self.cancelled() {
            Err(SweepError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// A sweep kind. Implementations must be pure and deterministic: `run_shard`
/// depends only on its arguments (no clock, no I/O, no global state).
pub trait SweepKind: Sync {
    /// The kind's name on the command line, e.g. `uvg`.
    fn name(&self) -> &'static str;
    /// One line describing the sweep.
    fn about(&self) -> &'static str;
    /// The parameters the kind takes.
    fn params(&self) -> &'static [ParamDef];
    /// Split the sweep into shards; `target_shards` is a hint (0 = the kind's default).
    /// Must be deterministic in (params, target_shards).
    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError>;
    /// Run one shard.
    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError>;
    /// Render the merged result of the whole plan.
    fn render(&self, params: &Params, merged: &SweepResult) -> Rendered;
    /// Extra plain-text exports written next to `results.json` (file name, contents),
    /// e.g. collected positions as `GRAPH6 START` lines. None by default.
    fn exports(&self, _params: &Params, _rendered: &Rendered) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// Check `given` against the kind's declared parameters and fill in defaults.
pub fn resolve_params(kind: &dyn SweepKind, given: &Params) -> Result<Params, SweepError> {
    let defs = kind.params();
    for name in given.keys() {
        if !defs.iter().any(|d| d.name == name) {
            return Err(SweepError::UnknownParam {
                kind: kind.name().into(),
                param: name.replace('_', "-"),
            });
        }
    }
    let mut out = Params::new();
    for d in defs {
        let value = match (given.get(d.name), d.default) {
            (Some(&v), _) => v,
            (None, Some(v)) => v,
            (None, None) => {
                return Err(SweepError::MissingParam {
                    kind: kind.name().into(),
                    param: d.name.replace('_', "-"),
                })
            }
        };
        if value < d.min || value > d.max {
            return Err(SweepError::OutOfRange {
                kind: kind.name().into(),
                param: d.name.replace('_', "-"),
                value,
                min: d.min,
                max: d.max,
            });
        }
        out.insert(d.name.to_string(), value);
    }
    Ok(out)
}

/// Run a whole plan in this thread and merge (tests and small sweeps).
pub fn run_all_sequential(
    kind: &dyn SweepKind,
    params: &Params,
    plan: &[ShardSpec],
) -> Result<SweepResult, SweepError> {
    let mut merged = SweepResult::default();
    for shard in plan {
        merged.merge(kind.run_shard(params, shard, &ShardCtx::detached())?);
    }
    Ok(merged)
}

/// A parameter's value (callers pass resolved params, so it is present).
pub fn param(params: &Params, name: &str) -> u64 {
    params
        .get(name)
        .copied()
        .unwrap_or_else(|| panic!("parameter `{name}` not resolved"))
}

/// `1234567` → `"1,234,567"`, for reports.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
