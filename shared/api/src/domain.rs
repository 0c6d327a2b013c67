//! The plain data the coordinator's users exchange with it: what to launch,
//! what a launch answered, where sweeps stand (`status`), a finished sweep's
//! rendered result and a projection. Serde structs without logic, in a crate
//! of their own so that both sides of the wire (the engine's core and the
//! typed client `gamesweep_proto::Remote`) speak them;
//! `gamesweep_proto::convert` maps them to and from protobuf messages.
//!
//! [`Overview`] serialized with serde is the documented `gamesweep status
//! --json` format (`deploy/README.md`).

use gamesweep::sweep::Params;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The window (seconds) over which a status's `rate` is measured.
pub const RATE_WINDOW_SECS: u64 = 300;

/// Where a sweep stands. These six are every state a status reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SweepState {
    /// Shards are being handed out (or will be, once leases expire).
    Running,
    /// Every shard has its result.
    Done,
    /// Cancelled: no more shards are handed out.
    Cancelled,
    /// Nothing left to hand out, but some shards were set aside after
    /// repeated failures (resuming the sweep retries them).
    Failed,
    /// Launched with a sample and every sampled shard is done; nothing more
    /// is handed out until the sweep is widened to its whole plan.
    Sampled,
    /// Paused by an admin (`gamesweep pause`): nothing is handed out until
    /// `gamesweep resume`; leases held may finish.
    Paused,
}

impl SweepState {
    /// Every state, in declaration order.
    pub const ALL: [SweepState; 6] = [
        SweepState::Running,
        SweepState::Done,
        SweepState::Cancelled,
        SweepState::Failed,
        SweepState::Sampled,
        SweepState::Paused,
    ];

    /// The state's name, as in `status --json` and the status text.
    pub fn as_str(self) -> &'static str {
        match self {
            SweepState::Running => "running",
            SweepState::Done => "done",
            SweepState::Cancelled => "cancelled",
            SweepState::Failed => "failed",
            SweepState::Sampled => "sampled",
            SweepState::Paused => "paused",
        }
    }
}

impl std::fmt::Display for SweepState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A seeded random sample of a plan: millionths of the plan's estimate, and
/// the shuffle seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleRequest {
    /// Target share, 1..=1,000,000 millionths.
    pub ppm: u32,
    /// Shuffle seed.
    pub seed: u64,
}

/// A part of a sweep (`--part K/M`): the shards whose index is ≡ `index`
/// (mod `of`). The plan stays the whole sweep's, so the parts of one sweep
/// run anywhere and their exports merge into one store (`import`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Part {
    /// K: the residue, `0..of`.
    pub index: u32,
    /// M: how many parts the sweep is split into, at least 1.
    pub of: u32,
}

/// The most parts a sweep may be split into.
pub const MAX_PARTS: u32 = 1 << 20;

impl Part {
    /// Whether shard `shard` is in this part.
    pub fn contains(&self, shard: u32) -> bool {
        self.of > 0 && shard % self.of == self.index
    }

    /// The shards of this part in a plan of `shards` shards.
    pub fn shards(&self, shards: u32) -> impl Iterator<Item = u32> {
        (self.index..shards).step_by(self.of.max(1) as usize)
    }

    /// `K/M` read from text, or why not (one line naming the value).
    pub fn parse(text: &str) -> Result<Part, String> {
        let bad = |why: &str| format!("bad part `{}`: {why}", crate::text::quote_prefix(text));
        let (k, m) = text.split_once('/').ok_or_else(|| {
            bad("write it as K/M, e.g. 0/3 (shards whose index is K mod M; K is 0..M-1)")
        })?;
        let k: u32 = k
            .trim()
            .parse()
            .map_err(|_| bad("K is not a whole number (K/M, K in 0..M-1)"))?;
        let m: u32 = m
            .trim()
            .parse()
            .map_err(|_| bad("M is not a whole number (K/M, M at least 1)"))?;
        let p = Part { index: k, of: m };
        p.check().map_err(|e| bad(&e))?;
        Ok(p)
    }

    /// The part is well formed: `1 <= of <= MAX_PARTS`, `index < of`.
    pub fn check(&self) -> Result<(), String> {
        if self.of == 0 || self.of > MAX_PARTS {
            return Err(format!(
                "M = {} parts is out of range (1..={MAX_PARTS})",
                self.of
            ));
        }
        if self.index >= self.of {
            return Err(format!(
                "K = {} is not below M = {} (parts are numbered 0..M-1: 0/{m} .. {}/{m})",
                self.index,
                self.of,
                self.of - 1,
                m = self.of
            ));
        }
        Ok(())
    }
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

/// What to launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchSpec {
    /// Kind name.
    pub kind: String,
    /// The kind's parameters.
    pub params: Params,
    /// Sweep id (`None`: the coordinator picks one).
    pub name: Option<String>,
    /// Target shard count (0: the kind's default).
    pub target_shards: u32,
    /// Return an existing sweep of this name, kind and parameters instead of
    /// refusing (without a sample: widen a sampled sweep to its whole plan).
    pub resume_existing: bool,
    /// Run only this sample of the plan first.
    pub sample: Option<SampleRequest>,
    /// Share of the shards run again by another worker, millionths (0: none).
    pub verify_ppm: u32,
    /// Key of the hash selecting them (`None`: the coordinator picks one).
    pub verify_seed: Option<u64>,
    /// Share of the workers relative to other running sweeps (0: the default, 1).
    pub priority: u32,
    /// `--replicate all`: every shard confirmed by two identities.
    pub replicate_all: bool,
    /// Hand out only this part's shards (`--part K/M`; with
    /// `resume_existing`, `None` widens a part to the whole plan).
    pub part: Option<Part>,
}

/// What a launch answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launched {
    /// The sweep's id.
    pub sweep_id: String,
    /// Shards in its plan.
    pub shards: u32,
    /// An existing sweep was returned (`resume_existing`).
    pub existing: bool,
    /// Solver version recorded with the sweep.
    pub solver_version: String,
}

/// What an import answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Imported {
    /// The sweep's id on the coordinator.
    pub sweep_id: String,
    /// Shards in its plan.
    pub shards: u32,
    /// Finished shards imported.
    pub done: u32,
    /// Fingerprint of the key that signed the file; empty: unsigned.
    pub signer: String,
    /// The signer is trusted; otherwise every imported result is re-run by
    /// a worker before the sweep can finish.
    pub trusted: bool,
    /// The file was merged into a sweep the store already held (the same
    /// kind, parameters and plan) instead of creating it.
    pub merged: bool,
    /// Shards whose result this import added.
    pub added: u32,
    /// Shards the store already had, with the same result (nothing changed).
    pub confirmed: u32,
    /// Shards the store already had with another result: each is recorded
    /// as a mismatch (both runs) and runs again to decide; the sweep is
    /// not finished until every one is decided.
    pub conflicts: u32,
}

/// How to import an export file (besides its bytes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Import under this id instead of the file's.
    pub rename: Option<String>,
    /// Refuse a file no trusted key signed.
    pub require_signature: bool,
    /// Verification share of the imported sweep, millionths (`None`: the
    /// importing coordinator's default). Never taken from the file.
    pub verify_ppm: Option<u32>,
}

/// Status of one sweep (an element of `status --json`'s `sweeps`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepStatus {
    /// Sweep id.
    pub sweep_id: String,
    /// Kind name.
    pub kind: String,
    /// Resolved params.
    pub params: Params,
    /// Solver version recorded at launch.
    pub solver_version: String,
    /// Where the sweep stands.
    pub state: SweepState,
    /// Plan size.
    pub shards_total: u32,
    /// Shards waiting for a worker (including expired leases).
    pub shards_pending: u32,
    /// Shards held by a worker under an unexpired lease.
    pub shards_leased: u32,
    /// Shards with a result.
    pub shards_done: u32,
    /// Stored per-shard results (equals `shards_done`; a result is never counted twice).
    pub results_stored: u32,
    /// Positions in done shards plus progress of leased ones.
    pub positions_done: u64,
    /// Sum of the plan's estimates (0 if the kind gives none).
    pub positions_estimate: u64,
    /// Positions per second over the last few minutes (0 without progress in them).
    pub rate: f64,
    /// Seconds left at `rate` to `positions_projected`; `None` if unknown
    /// or the sweep is not running (done, cancelled, paused, ...).
    pub eta_seconds: Option<f64>,
    /// Counterexample / record-set totals so far, by key.
    pub counterexamples: BTreeMap<String, u64>,
    /// Submits ignored because the shard was already done.
    pub duplicates_ignored: u64,
    /// Leases that expired and whose shard was handed out again (each is a
    /// shard that waited for its lease to run out).
    pub leases_expired: u64,
    /// Leases their workers gave back early (aborting workers).
    pub leases_released: u64,
    /// Submits refused for want of a valid lease token.
    #[serde(default)]
    pub refused_submits: u64,
    /// Renewals and releases refused for want of a valid lease token.
    #[serde(default)]
    pub refused_renewals: u64,
    /// Failure reports refused for want of a valid lease token.
    #[serde(default)]
    pub refused_fails: u64,
    /// Submits whose bytes were not a valid result of the sweep's kind.
    #[serde(default)]
    pub results_invalid: u64,
    /// Submitted results the coordinator recounted (the kind's cheap truths).
    #[serde(default)]
    pub recounted: u64,
    /// Of those, refused because the recount disagreed.
    #[serde(default)]
    pub recounts_refused: u64,
    /// The sample, for a sampled sweep.
    pub sample: Option<SampleStatus>,
    /// Shards set aside after repeated failures.
    pub shards_failed: u32,
    /// Failure records of shards not done (the lowest indices, at most 20).
    pub failures: Vec<ShardFailureStatus>,
    /// Replicated validation, for a sweep launched with a verification share
    /// (or with results being verified again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verification: Option<ReplicationStatus>,
    /// Share of the workers relative to other running sweeps (1 = default).
    #[serde(default = "one")]
    pub priority: u32,
    /// The plan's estimate corrected by the done shards' actual positions
    /// against their estimates (`positions_estimate` until a shard is done).
    #[serde(default)]
    pub positions_projected: u64,
    /// How rough one shard's estimate is: the relative spread (one standard
    /// deviation) of the done shards' actual/estimate ratios; `None` with
    /// fewer than two done shards with estimates.
    #[serde(default)]
    pub estimate_spread: Option<f64>,
    /// The positions `eta_seconds` and `fraction_done` run toward:
    /// `positions_projected`, or while only a sample is served the sample's
    /// projected positions.
    #[serde(default)]
    pub positions_target: u64,
    /// Share of `positions_target` done, 0 to 1 (1 only when done; below 1
    /// while running even past an underestimated target). Every face shows
    /// this as "% done" (`gamesweep_engine::core::pace`).
    #[serde(default)]
    pub fraction_done: f64,
}

fn one() -> u32 {
    1
}

/// Replicated validation of a sweep (see `coordinator/engine/src/core/replication.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicationStatus {
    /// Share of the shards selected, millionths.
    pub ppm: u32,
    /// Selection key.
    pub seed: u64,
    /// Shards selected by the share.
    pub selected: u32,
    /// Shards verified again because their worker was quarantined.
    pub rechecks: u32,
    /// Verifications waiting for a run.
    pub pending: u32,
    /// Verifications whose runs agreed.
    pub verified: u32,
    /// Verifications whose runs disagreed.
    pub mismatched: u32,
    /// Of those, settled against the accepted result (the stored result was replaced).
    pub replaced: u32,
    /// Verifications skipped: no other worker was seen for several lease periods.
    pub unverifiable: u32,
    /// Workers out-voted on some shard.
    pub disagreeing_workers: Vec<String>,
    /// For a running sweep whose shards are all done: what it waits for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<ReplicationWaiting>,
}

/// Why a running sweep whose shards are all done is not finished: its open
/// verifications wait for a run by a second identity (see
/// `coordinator/engine/src/core/replication.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicationWaiting {
    /// The shards waiting, lowest first (at most 8; `pending` counts them all).
    pub shards: Vec<u32>,
    /// Some of them need a worker with an issued credential (`gamesweep
    /// token issue`) other than the one that ran each; if false, any
    /// worker's run will do (untrusted imports only).
    pub needs_issued: bool,
    /// Workers around (heard from within three lease periods, or holding a
    /// lease) that may run one of them, at most 8; empty: none.
    pub eligible: Vec<String>,
    /// Of the waiting shards, those never skipped for want of a second
    /// identity (`--replicate all`, or imported without a trusted
    /// signature): they wait for its run however long.
    pub unskippable: u32,
    /// When the others are skipped as unverifiable unless an eligible
    /// worker is around then (Unix milliseconds); `None` if all are
    /// unskippable.
    #[serde(default)]
    pub skip_at_ms: Option<u64>,
    /// The same, in milliseconds after this status (0: due at the next
    /// tick, within a second).
    #[serde(default)]
    pub skip_in_ms: Option<u64>,
    /// Of the waiting shards, those verified again because the identity
    /// that gave their results was caught giving a wrong result (in this
    /// sweep or another, later or earlier), per identity: why a finished
    /// sweep runs again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rechecking: Vec<Rechecking>,
}

/// Results of one identity caught giving a wrong result, waiting to be
/// verified again by other identities.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rechecking {
    /// The identity (`@NAME`).
    pub identity: String,
    /// Its shards in this sweep waiting for another identity's run.
    pub shards: u32,
}

/// An identity the fair share held back (core/fair.rs): limited to its
/// share while another identity waited, or leases of it taken back (for
/// another identity's share, or renewed without progress or past the
/// patience derived from the sweep's own pace).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdentityLimit {
    /// The identity: an issued credential (`@NAME`), or every holder under
    /// a shared token together.
    pub identity: String,
    /// A lease request of it was cut to its share within the last three
    /// lease periods, because another identity waited.
    pub limited: bool,
    /// Leases of it taken back since this coordinator started.
    pub leases_reclaimed: u64,
}

/// A shard's reported failures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardFailureStatus {
    /// Shard index.
    pub index: u32,
    /// Failures so far.
    pub count: u32,
    /// The last error.
    pub error: String,
    /// The worker that reported it.
    pub worker_id: String,
}

/// Progress of a sampled sweep's sample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleStatus {
    /// Target share, millionths of the plan's estimate.
    pub ppm: u32,
    /// Shuffle seed.
    pub seed: u64,
    /// Sampled shards.
    pub shards: u32,
    /// Of which done.
    pub done: u32,
    /// Only the sample is handed out.
    pub limited: bool,
    /// Sum of the sampled shards' estimates.
    pub estimate: u64,
}

/// A worker as the coordinator sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerStatus {
    /// Worker id.
    pub worker_id: String,
    /// Milliseconds since the coordinator last heard from it.
    pub last_seen_ms_ago: u64,
    /// Unexpired leases it holds.
    pub shards_held: u32,
    /// Heard from within three lease periods.
    pub alive: bool,
}

/// A coordinator's whole status: `gamesweep status --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Overview {
    /// The coordinator's solver version.
    pub coordinator_version: String,
    /// The sweeps asked for (one, or all).
    pub sweeps: Vec<SweepStatus>,
    /// The workers seen.
    pub workers: Vec<WorkerStatus>,
    /// Bytes the store occupies on disk (0 where unknown).
    pub store_bytes: u64,
    /// The coordinator's resident memory (0 where the platform does not say).
    pub coordinator_rss_bytes: u64,
    /// Its peak resident memory so far.
    pub coordinator_peak_rss_bytes: u64,
    /// Workers the coordinator forgot (unheard of for long, or too many).
    #[serde(default)]
    pub workers_pruned: u64,
    /// Workers quarantined after being out-voted (replicated validation).
    #[serde(default)]
    pub quarantined_workers: Vec<String>,
    /// Why the store's writes are failing right now (`None` while they
    /// work): no submit is acknowledged until they work again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store_writes_failing: Option<String>,
    /// Identities the fair share holds back or took leases from (no
    /// credential can stall a sweep).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub identities_limited: Vec<IdentityLimit>,
}

/// A finished sweep's rendered result, as the coordinator sends it.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderedSweep {
    /// Kind name.
    pub kind: String,
    /// Its parameters.
    pub params: Params,
    /// The exact text of `results.json`.
    pub results_json: String,
    /// The text of `report.md`.
    pub report_md: String,
    /// `provenance.json` (`None` from a coordinator that sends none).
    pub provenance: Option<crate::provenance::Provenance>,
}

/// A sampled sweep's projection, as the coordinator sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectionText {
    /// `projection.json` (stable JSON).
    pub json: String,
    /// `projection.md`.
    pub md: String,
}

/// One admin action from the coordinator's audit log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRecord {
    /// When, in Unix milliseconds.
    pub unix_ms: u64,
    /// The caller's role (`admin`; `open` on a coordinator without tokens).
    pub role: String,
    /// A short hash of the caller's token (never the token); empty without one.
    pub token_fingerprint: String,
    /// The caller's address, if known.
    pub peer: String,
    /// `launch` or `cancel`.
    pub action: String,
    /// The sweep acted on.
    pub sweep_id: String,
    /// For a launch: kind and parameters.
    pub detail: String,
}
