//! The typed [`Kind`] trait every sweep kind implements, and what a shard
//! sees while it runs ([`ShardCtx`]).

use super::{Merge, ParamDef, Presentation, SweepError, TruthCheck, ValidateError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A sweep kind, with typed parameters, shards, results and document.
///
/// Implementations must be pure and deterministic: `plan` depends only on
/// (params, target shards) and `run` only on (params, shard): no clock, no
/// I/O, no global state. The runtime sees a kind only through the erased
/// [`super::SweepKind`], which every `Kind` implements.
///
/// The flow: [`Kind::plan`] → shards → [`Kind::run`] each → `Output`s
/// merged with [`Merge::merge`] → [`Kind::doc`] (the `results.json`
/// document) → written as JSON, read back, and rendered by [`Kind::report`]
/// into `report.md`, so the report is computed from `results.json` alone.
pub trait Kind: Sync + Send + 'static {
    /// Typed parameters, parsed once from the resolved [`super::Params`]
    /// (field names = declared parameter names).
    type Params: DeserializeOwned + Debug + Clone + Send + Sync;
    /// One shard's description; stored with the plan as JSON.
    type Shard: Serialize + DeserializeOwned + Debug + Clone + Send + Sync;
    /// The result of one shard, or the merge of many.
    type Output: Merge
        + Serialize
        + DeserializeOwned
        + Default
        + Debug
        + Clone
        + PartialEq
        + Send
        + Sync
        + 'static;
    /// The `results.json` document.
    type Doc: Serialize + DeserializeOwned;

    /// The kind's name on the command line, e.g. `uvg`.
    fn name(&self) -> &'static str;
    /// One line describing the sweep.
    fn about(&self) -> &'static str;
    /// The parameters the kind takes.
    fn param_defs(&self) -> &'static [ParamDef];
    /// The source file that implements the kind: always `file!()`, i.e.
    /// `fn source_file(&self) -> &'static str { file!() }` in the file holding
    /// the `impl Kind`. It selects the kind's solver version
    /// ([`super::SweepKind::version`]): the hash of that file (or of its
    /// folder, for a kind in `kinds/<name>/`) and of everything it uses,
    /// computed by `build.rs` (see `shared/build/versions.rs`).
    fn source_file(&self) -> &'static str;
    /// For a kind defined outside this crate only: the version id its
    /// crate's build script computed with `gamesweep_build::emit_kind_version`
    /// (`Some(env!("GAMESWEEP_KIND_VERSION"))`), a hash of that crate's code
    /// and locked dependencies. The kind's solver version then also hashes
    /// all of this crate's sources ([`crate::version::outside_kind_version`]).
    /// `None` (the default) for the kinds in `kinds/`, whose version comes
    /// from [`Kind::source_file`]. Not overriding it outside this crate
    /// would give the kind the version of some file of this crate (`file!()`
    /// is `src/lib.rs` there too), which misses the kind's own code.
    fn outside_version(&self) -> Option<&'static str> {
        None
    }
    /// Does [`Kind::run`] return a position digest when its context carries
    /// a salt ([`ShardCtx::salt`], [`ShardCtx::add_positions`]): the sum,
    /// over every position of the shard, of
    /// [`super::positions`]' keyed mix of (position, value)? The
    /// coordinator then asks every run it may compare for one, and two
    /// runs agree only if their results and digests agree: agreement shows
    /// that both computed. `false` (the default): agreement of two runs
    /// shows only that their results are equal (a replayed result agrees
    /// too), and the report says so.
    fn position_digest(&self) -> bool {
        false
    }
    /// Split the sweep into shards with their estimated work (positions; 0 if
    /// unknown). `target_shards` is a hint (0 = the kind's default).
    fn plan(
        &self,
        params: &Self::Params,
        target_shards: u32,
    ) -> Result<Vec<(Self::Shard, u64)>, SweepError>;
    /// Run one shard.
    fn run(
        &self,
        params: &Self::Params,
        shard: &Self::Shard,
        ctx: &ShardCtx<'_>,
    ) -> Result<Self::Output, SweepError>;
    /// Check a result submitted for `shard` before it is stored and merged:
    /// is it something running `shard` under `params` can have produced?
    /// Internal consistency (totals agree, counters within what the shard
    /// can hold, only keys the params allow) and witnesses (they decode, lie
    /// in the shard, and really have the value claimed, re-solved within a
    /// budget: a witness beyond it is an error, never a long search). The
    /// error is one line naming the field. Never called on the merged result.
    /// Required: the coordinator stores no result a kind has not checked.
    fn validate(
        &self,
        params: &Self::Params,
        shard: &Self::Shard,
        out: &Self::Output,
    ) -> Result<(), ValidateError>;
    /// Cheap truths about `shard`, recomputed without solving it (for a
    /// graph sweep: how many graphs of each size the shard holds, by
    /// enumerating them, a few per cent of the cost of running it), and
    /// whether `out` agrees with them: `None` if the kind has none (the
    /// default). The error is one line naming the field. The coordinator
    /// calls it after [`Kind::validate`], on as many results as its CPU
    /// budget allows (`serve --recount-budget`).
    fn recount(
        &self,
        _params: &Self::Params,
        _shard: &Self::Shard,
        _out: &Self::Output,
    ) -> Option<Result<(), ValidateError>> {
        None
    }
    /// The rows of the kind's tables a result of `shard` can change: the
    /// vertex counts `lo..=hi` (for a graph sweep, the sizes of the graphs
    /// the shard holds; validation refuses a result outside them). `None`
    /// (the default): any row. The Verification section names, per
    /// identity, the rows resting on it alone.
    fn rows(
        &self,
        _params: &Self::Params,
        _shard: &Self::Shard,
    ) -> Option<std::ops::RangeInclusive<usize>> {
        None
    }
    /// Cheap truths about the finished sweep's document, recomputed
    /// independently of the sweep and much cheaper (for uvg: the connected
    /// graphs per n, A001349, by Burnside's lemma): each check says what it
    /// compared and whether it held. None by default. The coordinator
    /// records them in `provenance.json`.
    fn truths(&self, _doc: &Self::Doc) -> Vec<TruthCheck> {
        Vec::new()
    }
    /// The `results.json` document of the merged result of the whole plan.
    fn doc(&self, params: &Self::Params, merged: &Self::Output) -> Self::Doc;
    /// `report.md`, from the document as read back from `results.json`.
    fn report(&self, params: &Self::Params, doc: &Self::Doc) -> String;
    /// What the kind shows besides its report text, from the document as
    /// read back from `results.json` (also a partial one, while a sweep
    /// runs): charts, and the positions worth drawing, each with its role,
    /// its value and a caption a person reads ("smallest *5: 10 vertices,
    /// start 3"). The report's figures and the dashboard draw only this.
    /// Nothing by default; a kind with a committed run must show something
    /// (a contract test checks).
    fn present(&self, _doc: &Self::Doc) -> Presentation {
        Presentation::default()
    }
    /// Extra plain-text files written next to `results.json` (name, contents),
    /// e.g. collected positions as `GRAPH6 START` lines. None by default.
    fn exports(&self, _params: &Self::Params, _doc: &Self::Doc) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// One unit of work in a plan. Opaque to the runtime except for `index` and `estimate`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardSpec {
    /// Position in the plan, `0..plan.len()`.
    pub index: u32,
    /// The kind's typed shard as JSON. Stored verbatim by the coordinator.
    pub payload: String,
    /// Estimated work (positions) of the shard, for progress and ETA; 0 if unknown.
    pub estimate: u64,
}

/// Run-time context of one shard: a cancellation flag the kind may poll and a
/// progress counter (positions done so far) it may bump. Both are optional to
/// honour; a kind that ignores them is still correct. With a salt
/// ([`ShardCtx::with_salt`]) a kind that computes position digests
/// ([`Kind::position_digest`]) must add every position's part
/// ([`ShardCtx::add_positions`]).
pub struct ShardCtx<'a> {
    cancel: Option<&'a AtomicBool>,
    progress: Option<&'a AtomicU64>,
    positions: Option<(u64, &'a AtomicU64)>,
}

impl<'a> ShardCtx<'a> {
    /// A context wired to the runtime's flag and counter.
    pub fn new(cancel: &'a AtomicBool, progress: &'a AtomicU64) -> Self {
        ShardCtx {
            cancel: Some(cancel),
            progress: Some(progress),
            positions: None,
        }
    }
    /// This context, asking for the position digest under `salt`, summed
    /// (wrapping) into `digest`, which should start at 0.
    pub fn with_salt(self, salt: u64, digest: &'a AtomicU64) -> Self {
        ShardCtx {
            positions: Some((salt, digest)),
            ..self
        }
    }
    /// The salt of the position digest asked for, if one is.
    #[inline]
    pub fn salt(&self) -> Option<u64> {
        self.positions.map(|(salt, _)| salt)
    }
    /// Add `part` (wrapping) to the position digest; nothing if none was
    /// asked for. Parts may be added from several threads in any order.
    #[inline]
    pub fn add_positions(&self, part: u64) {
        if let Some((_, d)) = self.positions {
            d.fetch_add(part, Ordering::Relaxed);
        }
    }
    /// A context nobody watches (tests, one-off runs).
    pub fn detached() -> ShardCtx<'static> {
        ShardCtx {
            cancel: None,
            progress: None,
            positions: None,
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
