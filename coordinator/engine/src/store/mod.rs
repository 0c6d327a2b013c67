//! Durable state of the coordinator, behind a small trait ([`Store`]) with a
//! sled implementation ([`SledStore`], on disk) and an in-memory one
//! ([`MemStore`], for tests and throw-away coordinators).
//!
//! What is stored: per sweep its [`SweepRecord`] (kind, params, solver
//! version, state) and its plan (written once at launch, never re-planned),
//! one result per shard (written at most once: compare-and-swap on an empty
//! slot), the current lease of each leased shard, and a few counters. The
//! merged result is derived from the per-shard results; a [`snapshot`] of
//! it (with the done shards it covers and their digest) is stored now and
//! then so that a start merges only the results stored after it, and is
//! used only when the journal bears it out, so it cannot disagree with
//! them unnoticed. Beside the sweeps, an append-only audit log of admin
//! actions (launch, cancel: who, what, when).
//!
//! Durability: [`Store::put_result`] does not flush; the caller flushes
//! ([`Store::flush`]) before acknowledging a submit, so every acknowledged
//! result is on disk, and one flush covers all results written before it
//! (group commit). Leases and counters are written without a flush: losing
//! them in a crash only makes a shard run again, never counts it twice.
//!
//! Write failures (a full disk): [`ResilientStore`] wraps the sled store,
//! keeps every write since the last good flush, and when a write or flush
//! fails reopens the database in the background and writes them again, so
//! writes resume without a restart once space returns; meanwhile flushes
//! fail (nothing is acknowledged) and [`Store::writes_failing`] says why.
//! Damage: every sled value is checksummed, and [`journal`] records what
//! was acknowledged (appended by the same flush, after sled's), so that a
//! start can prove nothing acknowledged vanished (`core/recovery.rs`).

use gamesweep::sweep::{Params, ShardSpec};
pub use gamesweep_api::domain::{AuditRecord, Part};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

mod credentials;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod journal;
mod mem;
mod replication;
mod resilient;
mod salvage;
mod sled;
pub mod snapshot;

pub use self::sled::{decode_any, locate, seal, unseal, SledStore, SEALED_TREES};
pub use credentials::{
    is_issued, voter, CredentialRecord, IMPORT_PREFIX, ISSUED_PREFIX, SHARED_VOTER,
};
pub use mem::MemStore;
pub use replication::{
    QuarantineRecord, ReplicationPurpose, ReplicationRecord, ReplicationRun, TrustRecord, Verdict,
};
#[cfg(test)]
pub(crate) use resilient::testing;
pub use resilient::{Backoff, ResilientStore};
pub use salvage::{compact, open_for_start, refusal, salvage, Compacted, Salvaged};

/// Errors of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The directory is not a sled database (corrupt, or some other data).
    #[error("cannot open store {path}: {reason}; point --store at an empty directory or a gamesweep store (or move the directory away)")]
    Open {
        /// The directory.
        path: PathBuf,
        /// What sled said.
        reason: String,
    },
    /// Another process holds the store open (sled locks it): another
    /// coordinator, or a `run` of the same folder.
    #[error("store {} is in use by another process (a coordinator serving it, or a `gamesweep run` of the same folder): stop that one first, or point --store at another directory", .0.display())]
    InUse(PathBuf),
    /// A sled database that gamesweep did not create.
    #[error("{0} is a database but not a gamesweep store; point --store at an empty directory or a gamesweep store")]
    Foreign(PathBuf),
    /// A gamesweep store written by an older, incompatible build.
    #[error("{dir} is a gamesweep store in format `{found}`, which this build cannot read (it reads `{want}`); finish or report its sweeps with the gamesweep version that wrote it, or point --store at a new directory")]
    OldFormat {
        /// The directory.
        dir: PathBuf,
        /// The format found.
        found: String,
        /// The format this build writes.
        want: String,
    },
    /// An I/O or database error after opening.
    #[error("store I/O error: {}", sled_message(.0))]
    Db(#[from] ::sled::Error),
    /// A stored value that does not decode (corruption).
    #[error("store is corrupt: {0}")]
    Corrupt(String),
    /// A sweep id that is already taken.
    #[error("a sweep named `{0}` already exists")]
    Exists(String),
    /// The store cannot be written at the moment (disk full, I/O errors):
    /// nothing is acknowledged until writes succeed again, which
    /// [`ResilientStore`] retries in the background.
    #[error("store writes failing: {0}; nothing is acknowledged until they succeed again (retried automatically)")]
    WritesFailing(String),
    /// Acknowledged work is missing or damaged: the coordinator refuses to
    /// start (the message names the damage and the ways out).
    #[error("{0}")]
    Damaged(String),
}

/// One damaged stored value found by [`Store::scan`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The tree it is in.
    pub tree: String,
    /// The sweep it belongs to, if its key says.
    pub sweep: Option<String>,
    /// The shard it belongs to, if its key says.
    pub shard: Option<u32>,
    /// What is wrong, naming tree, sweep and shard.
    pub what: String,
    /// sled cannot read this part of the tree at all (a damaged page):
    /// nothing can be removed there, only copied around it
    /// ([`salvage`]).
    pub unreadable: bool,
}

/// What sled said, without the `backtrace ()` its corruption error appends.
pub fn sled_message(e: &::sled::Error) -> String {
    match e {
        ::sled::Error::Corruption { at: Some(at), .. } => {
            format!("corrupted data at file offset {at:?}")
        }
        ::sled::Error::Corruption { at: None, .. } => "corrupted data".into(),
        e => e.to_string(),
    }
}

/// Lifecycle of a sweep as stored (done-ness is derived: all shards have results).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SweepState {
    /// Shards are handed out.
    Running,
    /// Cancelled by the user: no more shards are handed out.
    Cancelled,
    /// Being imported: stored but not yet visible. The import stores the
    /// sweep in this state, then its results, and makes it `running` last;
    /// a sweep found in this state at startup is what a crash left of an
    /// import, and is deleted (so an import is all or nothing).
    Importing,
}

/// A sweep as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepRecord {
    /// The sweep id.
    pub id: String,
    /// The kind's name.
    pub kind: String,
    /// Resolved parameters.
    pub params: Params,
    /// `CRATE_VERSION+BUILD_ID` of the solver that planned it; only workers of
    /// the same version may run its shards.
    pub solver_version: String,
    /// The target shard count asked for at launch (0 = the kind's default).
    pub target_shards: u32,
    /// Launch order (the store's sequence number): breaks ties in the fair
    /// share between sweeps (the earlier launched first), and keys lease tokens.
    pub seq: u64,
    /// Running or cancelled.
    pub state: SweepState,
    /// The random sample of shards run first, if the sweep was launched with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<SampleRecord>,
    /// Share of the shards run a second time by another worker, in
    /// millionths (0: none; records written before verification read as 0).
    #[serde(default)]
    pub verify_ppm: u32,
    /// Key of the hash that selects those shards (see [`crate::core::verify`]).
    #[serde(default)]
    pub verify_seed: u64,
    /// `--replicate all`: every shard confirmed by two identities before
    /// the sweep finishes; a shard is never skipped as unverifiable
    /// (absent in older records: false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replicate_all: bool,
    /// Paused by an admin: no shard is handed out until it is resumed
    /// (absent in records written before pausing existed: not paused).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
    /// Share of the workers relative to other running sweeps (weighted
    /// round robin; absent in older records and when 1: the default).
    #[serde(
        default = "default_priority",
        skip_serializing_if = "is_default_priority"
    )]
    pub priority: u32,
    /// Only this part's shards are handed out (`--part K/M`; absent in
    /// older records and for the whole plan). The plan is the whole
    /// sweep's either way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<Part>,
    /// The shards solver builds other than `solver_version` computed, one
    /// entry per build (the sweep's solver changed while it ran: `run
    /// --accept-solver-change`); every other done shard is
    /// `solver_version`'s. Absent in older records and in sweeps one build
    /// ran: empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_solvers: Vec<SolverShards>,
}

pub use gamesweep_api::shard_set::SolverShards;

/// The priority of a sweep launched without one.
pub const DEFAULT_PRIORITY: u32 = 1;

/// The highest priority a sweep may have.
pub const MAX_PRIORITY: u32 = 1000;

fn default_priority() -> u32 {
    DEFAULT_PRIORITY
}

fn is_default_priority(p: &u32) -> bool {
    *p == DEFAULT_PRIORITY
}

/// A seeded random sample of a plan (see [`crate::sample`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleRecord {
    /// Target share of the plan's estimated work, in millionths.
    pub ppm: u32,
    /// Seed of the shuffle that picked the shards.
    pub seed: u64,
    /// The sampled shard indices, in the order they were picked.
    pub shards: Vec<u32>,
    /// While true only the sample is handed out; false once widened to the whole plan.
    pub limited: bool,
}

/// Failures reported for one shard (see [`crate::core::MAX_FAILURES`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRecord {
    /// Failures so far.
    pub count: u32,
    /// The last error, one line.
    pub error: String,
    /// The worker that reported it.
    pub worker: String,
    /// The distinct workers that reported failures of this shard (at most
    /// [`FAILING_WORKERS_KEPT`]; absent in stores written before it was kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workers: Vec<String>,
    /// Whether the shard is set aside. Absent in stores written before
    /// failures were counted per worker: then set aside after
    /// [`crate::core::MAX_FAILURES`] failures, as those builds did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_aside: Option<bool>,
}

/// Distinct failing workers kept per shard (enough to tell one from several).
pub const FAILING_WORKERS_KEPT: usize = 8;

/// How long one accepted shard took on its worker.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardTiming {
    /// Wall-clock microseconds.
    pub wall_us: u64,
    /// CPU microseconds of the thread that ran it (0 if the worker could not tell).
    pub cpu_us: u64,
    /// The worker whose result was accepted.
    pub worker: String,
}

/// A lease as stored: shard `index` is held by `worker` until `until_ms` (unix ms).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaseRecord {
    /// The worker's id.
    pub worker: String,
    /// Expiry, milliseconds since the Unix epoch.
    pub until_ms: u64,
    /// 1 for the first lease of the shard, 2 for the second, ...
    pub attempt: u32,
    /// When the lease was granted, milliseconds since the Unix epoch (a
    /// lease is not renewed past `--max-lease-total` after it). 0 in stores
    /// written before it was kept: the coordinator then counts from its start.
    #[serde(default)]
    pub granted_ms: u64,
    /// The lease's nonce, part of its token (`core::tokens`): a token names
    /// exactly one lease. 0 in stores written before tokens had one (such
    /// leases' old tokens are refused; their shards are handed out again
    /// when the leases expire).
    #[serde(default)]
    pub nonce: u64,
}

/// Counters kept per sweep.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepStats {
    /// Submits ignored because the shard already had a result.
    pub duplicates_ignored: u64,
    /// Leases that ran out and whose shard was handed to a worker again
    /// (a shard that waited for its lease to expire). Absent in stores
    /// written before it was counted.
    #[serde(default)]
    pub leases_expired: u64,
    /// Leases a worker gave back before they ran out (an aborting worker).
    #[serde(default)]
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
    /// Submits whose bytes did not decode as the sweep's result.
    #[serde(default)]
    pub results_invalid: u64,
    /// Of those, by the identity that sent them (a faulty core or a liar
    /// caught by validation, named; at most `core::model::MAX_INVALID_BY`
    /// identities, the rest under `(others)`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub results_invalid_by: BTreeMap<String, u64>,
    /// Submitted results the coordinator recounted (core/recount.rs).
    #[serde(default)]
    pub recounted: u64,
    /// Of those, refused because the recount disagreed (also counted in
    /// `results_invalid`).
    #[serde(default)]
    pub recounts_refused: u64,
}

/// Everything stored about one sweep.
#[derive(Clone, Debug)]
pub struct StoredSweep {
    /// The record.
    pub record: SweepRecord,
    /// The plan, indexed by shard index.
    pub plan: Vec<ShardSpec>,
    /// Results by shard index.
    /// Accepted results, by shard index: the kind's encoded typed result
    /// (decoded by the core with the sweep's kind).
    pub results: BTreeMap<u32, Vec<u8>>,
    /// Current leases by shard index.
    pub leases: BTreeMap<u32, LeaseRecord>,
    /// Counters.
    pub stats: SweepStats,
    /// Timings of the accepted results, by shard index (absent for results
    /// from workers that sent none; with a snapshot, only of `results`).
    pub timings: BTreeMap<u32, ShardTiming>,
    /// Reported failures, by shard index.
    pub failures: BTreeMap<u32, FailureRecord>,
    /// Replication records, by shard index.
    pub replication: BTreeMap<u32, ReplicationRecord>,
    /// The worker each accepted result came from, by shard index (absent
    /// for results accepted before this was recorded; with a snapshot,
    /// only of `results`).
    pub origins: BTreeMap<u32, String>,
    /// The sweep's snapshot, when loaded by [`Store::load_for_start`]:
    /// then `results` holds only the shards it does not cover (see
    /// [`snapshot`]). `None` from [`Store::load_all`], which reads every result.
    pub snapshot: Option<snapshot::Snapshot>,
}

/// The coordinator's durable state.
pub trait Store: Send + Sync {
    /// Store a new sweep and its plan, durably. Fails if the id exists.
    fn create_sweep(&self, record: &SweepRecord, plan: &[ShardSpec]) -> Result<(), StoreError>;
    /// Overwrite a sweep's record (state changes), durably.
    fn update_sweep(&self, record: &SweepRecord) -> Result<(), StoreError>;
    /// Delete a sweep and all it owns, durably.
    fn delete_sweep(&self, id: &str) -> Result<(), StoreError>;
    /// The next launch sequence number.
    fn next_seq(&self) -> Result<u64, StoreError>;
    /// Every stored sweep, in launch order.
    fn load_all(&self) -> Result<Vec<StoredSweep>, StoreError>;
    /// Every stored sweep, in launch order, for a start: a sweep with a
    /// readable snapshot of its launch comes with it and with only the
    /// results it does not cover (results accepted after it); any other
    /// with every result, as [`Store::load_all`]. A store that keeps no
    /// snapshots loads everything.
    fn load_for_start(&self) -> Result<Vec<StoredSweep>, StoreError> {
        self.load_all()
    }
    /// Store sweep `id`'s snapshot, durably; `Ok(false)` from a store that
    /// keeps none. The caller guarantees every result it covers is flushed.
    fn put_snapshot(&self, _id: &str, _snapshot: &snapshot::Snapshot) -> Result<bool, StoreError> {
        Ok(false)
    }
    /// Store shard `index`'s result (and its timing) unless it has one;
    /// `Ok(false)` if it had one already (nothing written). Not flushed: call
    /// [`Store::flush`].
    fn put_result(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        timing: Option<&ShardTiming>,
    ) -> Result<bool, StoreError>;
    /// [`Store::put_result`] and [`Store::put_origin`] (the identity that
    /// computed it) as one write: whatever a crash keeps, a stored result
    /// has its origin (`provenance.json` never says `(unrecorded)` for it).
    /// The default writes them one after the other (for stores where a
    /// crash keeps nothing unflushed, like [`MemStore`]); stores on disk
    /// override it.
    fn put_result_from(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        timing: Option<&ShardTiming>,
        origin: &str,
    ) -> Result<bool, StoreError> {
        let stored = self.put_result(id, index, result, timing)?;
        if stored {
            self.put_origin(id, index, origin)?;
        }
        Ok(stored)
    }
    /// Set or clear shard `index`'s lease (not flushed).
    fn put_lease(
        &self,
        id: &str,
        index: u32,
        lease: Option<&LeaseRecord>,
    ) -> Result<(), StoreError>;
    /// Set or clear shard `index`'s failure record (not flushed).
    fn put_failure(
        &self,
        id: &str,
        index: u32,
        failure: Option<&FailureRecord>,
    ) -> Result<(), StoreError>;
    /// Store a sweep's counters (not flushed).
    fn put_stats(&self, id: &str, stats: &SweepStats) -> Result<(), StoreError>;
    /// Set or clear shard `index`'s verification record (not flushed).
    fn put_replication(
        &self,
        id: &str,
        index: u32,
        record: Option<&ReplicationRecord>,
    ) -> Result<(), StoreError>;
    /// Record the worker shard `index`'s accepted result came from (not flushed).
    fn put_origin(&self, id: &str, index: u32, worker: &str) -> Result<(), StoreError>;
    /// Overwrite shard `index`'s stored result (and its timing and origin):
    /// only a verification majority does this (not flushed).
    fn replace_result(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        worker: &str,
    ) -> Result<(), StoreError>;
    /// The stored results of sweep `id`, by shard index.
    fn results_of(&self, id: &str) -> Result<BTreeMap<u32, Vec<u8>>, StoreError>;
    /// The stored timings of sweep `id`'s accepted results, by shard index
    /// (what [`Store::load_for_start`] leaves out for a snapshot's shards).
    fn timings_of(&self, id: &str) -> Result<BTreeMap<u32, ShardTiming>, StoreError> {
        Ok(self
            .load_all()?
            .into_iter()
            .find(|s| s.record.id == id)
            .map(|s| s.timings)
            .unwrap_or_default())
    }
    /// The stored origins of sweep `id`'s accepted results, by shard index
    /// (what [`Store::load_for_start`] leaves out for a snapshot's shards).
    fn origins_of(&self, id: &str) -> Result<BTreeMap<u32, String>, StoreError> {
        Ok(self
            .load_all()?
            .into_iter()
            .find(|s| s.record.id == id)
            .map(|s| s.origins)
            .unwrap_or_default())
    }
    /// Quarantine a worker, durably.
    fn put_quarantine(&self, record: &QuarantineRecord) -> Result<(), StoreError>;
    /// The quarantined workers.
    fn load_quarantine(&self) -> Result<Vec<QuarantineRecord>, StoreError>;
    /// Make everything written so far durable.
    fn flush(&self) -> Result<(), StoreError>;
    /// Bytes on disk (0 if unknown).
    fn size_on_disk(&self) -> u64;
    /// The key lease tokens are signed with: 32 random bytes made once, when
    /// the store is created (or first opened by a build that signs leases),
    /// and kept, so tokens stay valid across coordinator restarts.
    fn lease_key(&self) -> [u8; 32];
    /// The Ed25519 seed export files are signed with (`export_file::Signer`):
    /// 32 random bytes made once, when the store is created (or first
    /// opened by a build that signs exports), and kept, so one store signs
    /// with one key (see `docs/trust.md` for rotating it).
    fn signing_key(&self) -> [u8; 32];
    /// Append an entry to the audit log of admin actions, durably.
    fn append_audit(&self, entry: &AuditRecord) -> Result<(), StoreError>;
    /// The last `n` audit entries, oldest first.
    fn audit_tail(&self, n: usize) -> Result<Vec<AuditRecord>, StoreError>;
    /// Store what replication knows of identity `key` (adaptive replication).
    fn put_trust(&self, key: &str, record: &TrustRecord) -> Result<(), StoreError>;
    /// Every identity's [`TrustRecord`], by key.
    fn load_trust(&self) -> Result<BTreeMap<String, TrustRecord>, StoreError>;
    /// Store an issued credential (new, or revoked), durably.
    fn put_credential(&self, record: &CredentialRecord) -> Result<(), StoreError>;
    /// Every issued credential, by name.
    fn load_credentials(&self) -> Result<Vec<CredentialRecord>, StoreError>;
    /// Why writes are failing right now (`None`: they are not, or this
    /// store cannot tell). [`ResilientStore`] reports its episodes here.
    fn writes_failing(&self) -> Option<String> {
        None
    }
    /// Close the database and open it again, everything written so far
    /// flushed first, so that the next start recovers less: sled (0.34)
    /// writes its page-table snapshot only when it opens a database, and
    /// replays its whole log since then at the next open, so a coordinator
    /// that ran for a million shards leaves a restart hundreds of MB to
    /// replay. Store calls wait meanwhile. `Ok(false)`: this store does not
    /// reopen (in memory), or did not because its writes are failing.
    fn refresh(&self) -> Result<bool, StoreError> {
        Ok(false)
    }
    /// The journal of acknowledged work as read at open (the first call; later
    /// calls read it again), or `None` for a store that keeps none (in memory).
    fn journal(&self) -> Result<Option<journal::Read>, StoreError>;
    /// Append `records` to the journal, durably (after everything written so far).
    fn append_journal(&self, records: &[journal::Record]) -> Result<(), StoreError>;
    /// Replace the journal with `records`, durably (a damaged journal given
    /// up with `--accept-loss`, or a compaction).
    fn rewrite_journal(&self, records: &[journal::Record]) -> Result<(), StoreError>;
    /// Remove shard `index`'s result, timing and origin (a result whose
    /// bytes differ from the journal's digest, given up with `--accept-loss`;
    /// not flushed).
    fn remove_result(&self, id: &str, index: u32) -> Result<(), StoreError>;
    /// Check every stored value's checksum and decoding (results: their
    /// checksum and key only); with `purge`, remove the damaged ones, durably.
    fn scan(&self, purge: bool) -> Result<Vec<Damage>, StoreError>;
    /// The check every start makes before it trusts the store: every value
    /// read and its checksum checked, every result a snapshot covers
    /// present (not decoded, nor hashed: [`Store::scan`] does that), so
    /// that a start never goes on a store `gamesweep store check` calls
    /// damaged.
    fn scan_start(&self) -> Result<Vec<Damage>, StoreError> {
        self.scan(false)
    }
}

/// 32 bytes from the operating system's random source.
pub(crate) fn random_key() -> Result<[u8; 32], String> {
    use rand::TryRngCore as _;
    let mut key = [0u8; 32];
    rand::rngs::OsRng
        .try_fill_bytes(&mut key)
        .map_err(|e| format!("cannot read the system's random source: {e}"))?;
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::fixtures::record_at as record;
    use super::*;

    fn plan(n: u32) -> Vec<ShardSpec> {
        (0..n)
            .map(|i| ShardSpec {
                index: i,
                payload: format!("p{i}"),
                estimate: i as u64,
            })
            .collect()
    }

    /// A small script of everything the core does to a store; returns what
    /// the store loads afterwards (sequence numbers blanked: each backend
    /// counts from its own start).
    fn scenario(s: &dyn Store) -> Vec<StoredSweep> {
        let (first, second) = (s.next_seq().unwrap(), s.next_seq().unwrap());
        assert!(second > first, "sequence numbers increase");
        // Launched in the other order than their ids sort.
        s.create_sweep(&record("b", first), &plan(2)).unwrap();
        s.create_sweep(&record("a", second), &plan(3)).unwrap();
        assert!(matches!(
            s.create_sweep(&record("a", 9), &plan(1)),
            Err(StoreError::Exists(_))
        ));
        let t = ShardTiming {
            wall_us: 7,
            cpu_us: 6,
            worker: "w".into(),
        };
        assert!(s.put_result("a", 0, b"{\"work\":1}", Some(&t)).unwrap());
        let t2 = ShardTiming {
            wall_us: 99,
            ..t.clone()
        };
        assert!(
            !s.put_result("a", 0, b"{\"work\":2}", Some(&t2)).unwrap(),
            "written once"
        );
        assert!(s.put_result("a", 2, b"{\"work\":3}", None).unwrap());
        let lease = |attempt| LeaseRecord {
            nonce: 0,
            worker: "w".into(),
            until_ms: 1000,
            attempt,
            granted_ms: 900,
        };
        s.put_lease("a", 1, Some(&lease(2))).unwrap();
        s.put_lease("a", 0, Some(&lease(1))).unwrap();
        s.put_lease("a", 0, None).unwrap();
        let failure = FailureRecord {
            count: 1,
            error: "boom".into(),
            worker: "w".into(),
            workers: vec!["w".into()],
            set_aside: Some(false),
        };
        s.put_failure("a", 1, Some(&failure)).unwrap();
        s.put_failure("b", 0, Some(&failure)).unwrap();
        s.put_failure("b", 0, None).unwrap();
        s.put_stats(
            "a",
            &SweepStats {
                duplicates_ignored: 1,
                leases_expired: 2,
                leases_released: 3,
                refused_submits: 4,
                ..SweepStats::default()
            },
        )
        .unwrap();
        // Writes for a sweep that does not exist are never loaded.
        assert!(s.put_result("ghost", 0, b"{}", None).unwrap());
        let mut cancelled = record("a", second);
        cancelled.state = SweepState::Cancelled;
        s.update_sweep(&cancelled).unwrap();
        // A deleted sweep leaves nothing behind, even under its id reused.
        s.create_sweep(&record("c", s.next_seq().unwrap()), &plan(1))
            .unwrap();
        s.put_result("c", 0, b"{}", None).unwrap();
        s.put_lease("c", 0, Some(&lease(1))).unwrap();
        s.delete_sweep("c").unwrap();
        s.create_sweep(&record("c", s.next_seq().unwrap()), &plan(1))
            .unwrap();
        s.flush().unwrap();
        let mut all = s.load_all().unwrap();
        for x in &mut all {
            x.record.seq = 0;
        }
        all
    }

    #[test]
    fn sled_errors_read_without_a_backtrace() {
        let e = StoreError::from(::sled::Error::Corruption { at: None, bt: () });
        assert_eq!(e.to_string(), "store I/O error: corrupted data");
        let io = std::io::Error::other("disk on fire");
        let e = StoreError::from(::sled::Error::Io(io));
        assert_eq!(e.to_string(), "store I/O error: IO error: disk on fire");
    }

    #[test]
    fn the_audit_log_keeps_its_order_and_survives_a_reopen() {
        let entry = |i: u64| AuditRecord {
            unix_ms: 1000 + i,
            role: "admin".into(),
            token_fingerprint: "sha256:0123456789ab".into(),
            peer: "127.0.0.1:5".into(),
            action: if i.is_multiple_of(2) {
                "launch"
            } else {
                "cancel"
            }
            .into(),
            sweep_id: format!("s{i}"),
            detail: String::new(),
        };
        let dir = tempfile::tempdir().unwrap();
        let mem = MemStore::new();
        {
            let sled = SledStore::open(dir.path()).unwrap();
            for i in 0..5 {
                sled.append_audit(&entry(i)).unwrap();
                mem.append_audit(&entry(i)).unwrap();
            }
        }
        let sled = SledStore::open(dir.path()).unwrap();
        let want: Vec<AuditRecord> = (2..5).map(entry).collect();
        assert_eq!(sled.audit_tail(3).unwrap(), want);
        assert_eq!(mem.audit_tail(3).unwrap(), want);
        assert_eq!(sled.audit_tail(100).unwrap().len(), 5);
        assert_eq!(mem.audit_tail(0).unwrap(), vec![]);
    }

    #[test]
    fn mem_and_sled_stores_behave_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let sled = scenario(&SledStore::open(dir.path()).unwrap());
        let mem = scenario(&MemStore::new());
        assert_eq!(format!("{sled:#?}"), format!("{mem:#?}"));
        let ids: Vec<&str> = mem.iter().map(|s| s.record.id.as_str()).collect();
        assert_eq!(ids, ["b", "a", "c"], "launch order");
        let a = &mem[1];
        assert_eq!(a.record.state, SweepState::Cancelled);
        assert_eq!(a.results.keys().copied().collect::<Vec<_>>(), [0, 2]);
        assert_eq!(a.results[&0], b"{\"work\":1}".to_vec(), "the first result");
        assert_eq!(a.timings[&0].wall_us, 7, "the accepted result's timing");
        assert_eq!(a.leases.keys().copied().collect::<Vec<_>>(), [1]);
        assert_eq!(a.failures[&1].error, "boom");
        assert_eq!(
            (
                a.stats.duplicates_ignored,
                a.stats.leases_expired,
                a.stats.leases_released
            ),
            (1, 2, 3)
        );
        assert!(
            mem[0].failures.is_empty() && mem[2].results.is_empty() && mem[2].leases.is_empty()
        );
    }
}
