//! The coordinator's state machine, independent of gRPC: sweeps, their
//! shards' states (pending / leased / done / failed), leases that expire,
//! exactly-once acceptance of results, and status. The gRPC service
//! (`gamesweep_serve::server`) converts messages and calls into this; so does the
//! embedded `run`.
//!
//! By concern: [`model`] (errors, shard and sweep state), `recovery`
//! (loading the store at startup), [`launch`] (planning, samples, resume,
//! cancel), [`leases`] (lease, renew, expiry), [`acceptance`] (submit, fail,
//! flush), [`commit`] (group commit), `snapshot` (the merged results
//! written so that a restart merges only what came after), [`status`], [`results`] (merged
//! result, cached render, projection), [`memory`] (`/proc`), [`clock`],
//! `tokens` (the lease tokens that bind submits, renewals, releases and
//! failure reports to the leases the core granted).
//!
//! Time comes from an injected [`Clock`]: every transition reads it once and
//! works with that `now`, so tests drive lease expiry with a [`ManualClock`]
//! instead of sleeping.

pub mod acceptance;
pub mod clock;
pub mod commit;
pub mod credentials;
pub mod fair;
pub mod launch;
pub mod leases;
pub mod memory;
pub mod model;
pub mod pace;
pub mod provenance;
pub mod recount;
mod recovery;
pub mod replication;
mod replication_state;
pub mod results;
mod snapshot;
pub mod solvers;
pub mod status;
pub(crate) mod tokens;
pub mod transfer;

pub use acceptance::{Delivery, FailOutcome, FailureReport, Submission, Timing};
pub use clock::{Clock, ManualClock, SystemClock};
pub use commit::GroupCommit;
pub use gamesweep_api::{solver_version, SolverVersions};
pub use launch::{LaunchSpec, Launched, Part, PartProgress, SampleRequest};
pub use leases::{Granted, Held, LeaseOutcome};
pub use memory::ProcessMemory;
pub use model::{CoreError, Events, KindRef, ShardState, MAX_FAILURES};
pub use provenance::Provenance;
pub use recovery::Recovery;
pub use replication::ReplicationStatus;
pub use results::{Merged, RenderedResult};
pub use snapshot::SNAPSHOT_EVERY;
pub use solvers::{SolverChanged, SolverShare};
pub use status::{
    Overview, Resources, SampleStatus, ShardFailureStatus, SweepStatus, WorkerStatus,
};

use crate::store::Store;
use clock::Epoch;
use model::State;
use results::RenderCache;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokens::LeaseKey;

/// Bounds on what one worker may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Unexpired leases one identity may hold at once
    /// (`--max-shards-per-worker`): an issued credential, or every holder
    /// under a shared token together (core/fair.rs).
    pub max_shards_per_worker: u32,
    /// A lease is not renewed past this long after its grant
    /// (`--max-lease-total`); its shard is then handed out again.
    pub max_lease_total: Duration,
    /// A lease whose reported progress has not grown for this long is
    /// taken back while another identity or worker waits
    /// (`--reclaim-stalled-after`; core/fair.rs).
    pub stall_after: Duration,
}

impl Default for Limits {
    /// 256 shards per identity; 2 hours per lease (the longest shard
    /// measured, at n = 12, took 747 s); 10 minutes without progress (a
    /// uvg shard reports progress every 65,536 positions, well under a
    /// second at n = 12).
    fn default() -> Self {
        Limits {
            max_shards_per_worker: 256,
            max_lease_total: Duration::from_secs(2 * 3600),
            stall_after: Duration::from_secs(600),
        }
    }
}

/// The coordinator.
pub struct Core {
    /// Where everything durable goes.
    store: Arc<dyn Store>,
    /// Shares store flushes between concurrent submits.
    commit: GroupCommit,
    /// Sweeps and workers. A std mutex, never held across an await: every
    /// method holding it runs on a blocking thread (see `gamesweep_serve::server`).
    state: Mutex<State>,
    /// Renders of finished sweeps.
    renders: RenderCache,
    /// The time.
    clock: Arc<dyn Clock>,
    /// Converts the clock's instants to the Unix milliseconds of lease records.
    epoch: Epoch,
    /// Lease length in milliseconds.
    lease_ms: u64,
    /// Bounds on what one worker may hold.
    limits: Limits,
    /// Signs and checks lease tokens.
    key: LeaseKey,
    /// The valid issued credentials (shared with the access layer).
    credentials: Arc<credentials::Credentials>,
    /// Signs export files (the store's signing key; core/transfer.rs).
    signer: crate::export_file::Signer,
    /// Export signers trusted besides the store's own (`serve --trust-key`).
    trusted_keys: Mutex<Vec<crate::export_file::PublicKey>>,
    /// This build's id (crate version + hash of all sources), for display;
    /// compatibility is decided per kind (`SweepKind::version`).
    version: String,
    /// Imports that failed and could not be deleted from the store then
    /// (its writes failing): deleted by the next import of the id (see
    /// `transfer`), or at the next start.
    failed_imports: Mutex<std::collections::BTreeSet<String>>,
    /// The CPU budget for recounting submitted results (core/recount.rs).
    recount: Mutex<recount::Budget>,
    /// When the last snapshot and the last reopen of the store were
    /// started and how long they took; held while one is written
    /// (core/snapshot.rs).
    snapshotting: Mutex<snapshot::Snapshotting>,
}

impl Core {
    /// Load every sweep from `store` and resume them, on the system clock.
    pub fn open(store: Arc<dyn Store>, lease: Duration) -> Result<Self, CoreError> {
        Self::open_with_clock(store, lease, Arc::new(SystemClock))
    }

    /// [`Core::open`] with time from `clock`. Leases stored at crash time
    /// stay valid until they expire, so live workers keep their shards.
    pub fn open_with_clock(
        store: Arc<dyn Store>,
        lease: Duration,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, CoreError> {
        Self::open_recovering(store, lease, clock, &Recovery::default())
    }

    /// [`Core::open_with_clock`], treating a store that lost acknowledged
    /// work as `recovery` says (refuse, or `--accept-loss`).
    pub fn open_recovering(
        store: Arc<dyn Store>,
        lease: Duration,
        clock: Arc<dyn Clock>,
        recovery: &Recovery,
    ) -> Result<Self, CoreError> {
        let now = clock.now();
        let epoch = Epoch::anchor(clock.as_ref());
        let sweeps = recovery::recover(store.as_ref(), epoch.unix_ms(now), recovery)?;
        // Replicated validation (core/replication.rs): quarantined workers.
        let trust_records = store.load_trust()?;
        let quarantined = store
            .load_quarantine()?
            .into_iter()
            .map(|q| (q.worker.clone(), q))
            .collect();
        let creds = Arc::new(credentials::load(store.as_ref())?);
        Ok(Core {
            key: LeaseKey::new(store.lease_key()),
            credentials: creds,
            signer: crate::export_file::Signer::from_seed(&store.signing_key()),
            trusted_keys: Mutex::default(),
            store,
            commit: GroupCommit::default(),
            state: Mutex::new(State {
                sweeps,
                workers: BTreeMap::new(),
                workers_pruned: 0,
                pruned_at: None,
                // Replicated validation (core/replication.rs): quarantined workers.
                quarantine: replication::Quarantine {
                    on_mismatch: false,
                    workers: quarantined,
                },
                trust: trust_records,
                vtime: 0,
                replication_ticked: None,
                held_back: BTreeMap::new(),
            }),
            renders: RenderCache::default(),
            epoch,
            clock,
            lease_ms: lease.as_millis().max(1) as u64,
            limits: Limits::default(),
            version: format!("{}+{}", gamesweep::CRATE_VERSION, gamesweep::BUILD_ID),
            failed_imports: Mutex::default(),
            recount: Mutex::new(recount::Budget::new(recount::DEFAULT_SHARE, now)),
            snapshotting: Mutex::new(snapshot::Snapshotting::new()),
        })
    }

    /// Spend `share` of one core recounting submitted results (0: never;
    /// default [`recount::DEFAULT_SHARE`]).
    pub fn set_recount_share(&self, share: f64) {
        *self.recount.lock().unwrap_or_else(|e| e.into_inner()) =
            recount::Budget::new(share, self.clock.now());
    }

    /// This core with other [`Limits`] (the defaults otherwise).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Lease length in milliseconds.
    pub fn lease_ms(&self) -> u64 {
        self.lease_ms
    }

    /// This coordinator's build id (display only).
    pub fn version(&self) -> &str {
        &self.version
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock would be a bug; keep serving the
        // state as it is rather than poisoning every later request.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests;
