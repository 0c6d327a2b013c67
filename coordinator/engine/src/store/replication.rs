//! What the store keeps for replicated validation (see
//! [`crate::core::verify`]): per shard under verification its
//! [`ReplicationRecord`] (every run's worker and result digest, the copy's lease,
//! the verdict), per accepted shard the worker it came from, and the
//! quarantined workers. Stores written before replicated validation have
//! none of these and load with none.

use super::LeaseRecord;
use serde::{Deserialize, Serialize};

/// Why a shard is run more than once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReplicationPurpose {
    /// Selected by the sweep's seeded verification sample.
    Sampled,
    /// Its result came from a worker quarantined afterwards, or from an
    /// identity whose trust was withdrawn after it disagreed with others.
    Recheck,
    /// Its result came from an identity that has not yet agreed with
    /// others often enough to be sampled (adaptive replication).
    Untrusted,
    /// Its result came from a trusted identity (past its probation) and the
    /// shard was drawn for a spot check (`core::replication_state::SPOT_PPM`).
    Spot,
    /// Its result came from an export file without a trusted signature
    /// (`core::transfer`): that first run is no vote; the sweep finishes
    /// only once a worker's run confirmed or replaced it.
    Import,
    /// An imported export file's result of a shard the store held
    /// disagreed with the stored one (`core::transfer`): the stored run
    /// comes first, the file's second (with its result); a third run
    /// decides, as a replication mismatch is decided (`core::verify`).
    Conflict,
}

/// One run of a shard under verification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicationRun {
    /// The worker that ran it.
    pub worker: String,
    /// The lease attempt it ran under.
    pub attempt: u32,
    /// SHA-256 (hex) of the encoded result.
    pub digest: String,
    /// The encoded result, kept for runs other than the accepted one (it
    /// replaces the stored result if a majority agrees with it); `None` for
    /// the run whose result is in the results table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// Where a shard's verification stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "verdict")]
pub enum Verdict {
    /// Waiting for a run by another worker.
    Open,
    /// Two or more runs, all with the same digest.
    Verified,
    /// The runs disagreed; the digest of at least two runs and more than any
    /// other won. `disagreeing`: the workers of the other runs; `replaced`:
    /// the accepted result lost and was replaced by the winner.
    Majority {
        /// Workers whose runs lost.
        disagreeing: Vec<String>,
        /// The stored result was replaced.
        replaced: bool,
    },
    /// No other worker was seen for several lease periods; skipped.
    Unverifiable,
}

/// Replication state of one shard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicationRecord {
    /// Why it is verified.
    pub purpose: ReplicationPurpose,
    /// The runs so far, the accepted one first.
    pub runs: Vec<ReplicationRun>,
    /// The current verification copy's lease, if one is out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease: Option<LeaseRecord>,
    /// Where it stands.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// When (Unix milliseconds) it was opened, or last got a run that left
    /// it open: the wait for a second identity counts from here (or from
    /// the end of its last copy lease, if later), in the store, so that it
    /// survives restarts (`core::verify`). Absent in stores written before
    /// it: the first tick after such a store opens sets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since_ms: Option<u64>,
}

impl ReplicationRecord {
    /// Still waiting for a run.
    pub fn open(&self) -> bool {
        self.verdict == Verdict::Open
    }

    /// `worker` ran this shard already.
    pub fn ran(&self, worker: &str) -> bool {
        self.runs.iter().any(|r| r.worker == worker)
    }

    /// A worker of the identity `voter` (see `core::model::voter`) ran this
    /// shard already.
    pub fn ran_as(&self, voter: &str) -> bool {
        self.runs.iter().any(|r| super::voter(&r.worker) == voter)
    }

    /// The runs disagree (two or more digests).
    pub fn mismatched(&self) -> bool {
        self.runs.iter().any(|r| r.digest != self.runs[0].digest)
    }
}

/// What replication knows of one identity (adaptive replication, see
/// `core::verify`): how often its results agreed with another identity's
/// since it last disagreed. Kept per identity key (`@NAME`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrustRecord {
    /// Verifications its runs agreed with another identity's, since its
    /// last disagreement.
    pub agreements: u32,
    /// Verifications it was out-voted on, ever.
    pub disagreements: u32,
}

/// A quarantined worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuarantineRecord {
    /// The worker.
    pub worker: String,
    /// The sweep and shard where it was out-voted.
    pub sweep: String,
    /// The shard.
    pub shard: u32,
}
