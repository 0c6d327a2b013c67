//! The core's in-memory model: errors, a shard's state, a sweep's state and
//! the few transitions on it that need no store (they take `now` explicitly).

use super::verify::{Quarantine, Verification};
use crate::store::{
    FailureRecord, LeaseRecord, ShardTiming, StoreError, SweepRecord, SweepState, SweepStats,
};
use gamesweep::sweep::{Output, ShardSpec};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;
use tracing::warn;

/// Errors the coordinator returns to its clients.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// No sweep with that id.
    #[error("no sweep named `{0}` on this coordinator (see `gamesweep status`)")]
    NoSuchSweep(String),
    /// Bad launch request (unknown kind, bad params, bad plan).
    #[error("{0}")]
    BadRequest(String),
    /// A sweep id that exists already.
    #[error("a sweep named `{0}` already exists; pick another --name")]
    Exists(String),
    /// A worker whose solver build differs from the sweep's.
    #[error("solver version mismatch: the worker's version of this kind is {worker}, sweep `{sweep}` was launched with {sweep_version}; rebuild the worker from the same gamesweep sources as the coordinator")]
    VersionMismatch {
        /// The worker's version.
        worker: String,
        /// The sweep.
        sweep: String,
        /// The sweep's version.
        sweep_version: String,
    },
    /// The result of an unfinished sweep was asked for.
    #[error("sweep `{id}` is not finished: {done}/{total} shards done (watch it with `gamesweep status {id} --watch`)")]
    NotFinished {
        /// The sweep.
        id: String,
        /// Done shards.
        done: u32,
        /// All shards.
        total: u32,
    },
    /// Shards of the sweep failed repeatedly and were set aside.
    #[error("sweep `{id}` cannot finish: {failed} shard(s) failed {max} times each (shard {first}: {error}); fix the cause, then resume it (`gamesweep launch KIND ... --name {id} --resume`, or rerun the same `gamesweep run`) to try them again")]
    Failed {
        /// The sweep.
        id: String,
        /// Shards set aside.
        failed: u32,
        /// Failures per shard before it is set aside.
        max: u32,
        /// The first failed shard.
        first: u32,
        /// Its last error.
        error: String,
    },
    /// A finished sweep's result could not be rendered.
    #[error("cannot render: {0}")]
    Render(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Failures after which a shard is set aside instead of handed out again
/// (a deterministic solver fails the same way every time). Resuming the
/// sweep (`launch --resume`, rerunning `run`) gives failed shards new tries.
pub const MAX_FAILURES: u32 = 3;

/// State of one shard in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardState {
    /// Waiting for a worker.
    Pending,
    /// Held by a worker.
    Leased(LeaseRecord),
    /// Has its (one) result.
    Done,
    /// Failed [`MAX_FAILURES`] times; not handed out until the sweep is resumed.
    Failed,
}

impl ShardState {
    /// May be handed out at `now_ms` (pending, or its lease expired).
    pub(crate) fn free(&self, now_ms: u64) -> bool {
        match self {
            ShardState::Pending => true,
            ShardState::Leased(l) => l.until_ms <= now_ms,
            ShardState::Done | ShardState::Failed => false,
        }
    }

    /// Held under a lease that has not expired at `now_ms`.
    pub(crate) fn held(&self, now_ms: u64) -> Option<&LeaseRecord> {
        match self {
            ShardState::Leased(l) if l.until_ms > now_ms => Some(l),
            _ => None,
        }
    }
}

/// One sweep in memory.
pub(crate) struct Sweep {
    /// As stored.
    pub(crate) record: SweepRecord,
    /// The plan, indexed by shard.
    pub(crate) plan: Vec<ShardSpec>,
    /// Shard indices in the order they are handed out: largest estimate first,
    /// so the long shards do not end up last (shorter tail). While a sample
    /// limits the sweep, only the sampled shards.
    pub(crate) order: Vec<u32>,
    /// Positions of each done shard (0 while not done).
    pub(crate) work: Vec<u64>,
    /// Worker timings of the accepted results.
    pub(crate) timings: BTreeMap<u32, ShardTiming>,
    /// Reported failures of shards not done.
    pub(crate) failures: BTreeMap<u32, FailureRecord>,
    /// Each shard's state.
    pub(crate) states: Vec<ShardState>,
    /// Leases issued so far per shard (the next lease's attempt is one more).
    pub(crate) attempts: BTreeMap<u32, u32>,
    /// Progress (positions) reported by the holders of leased shards.
    pub(crate) progress: HashMap<u32, u64>,
    /// The merge of every accepted result.
    pub(crate) merged: Output,
    /// Accepted results (= done shards).
    pub(crate) results_stored: u32,
    /// Submits ignored because the shard was done or set aside.
    pub(crate) duplicates_ignored: u64,
    /// Leases re-issued after they expired.
    pub(crate) leases_expired: u64,
    /// Leases given back early by their workers.
    pub(crate) leases_released: u64,
    /// Positions done when this process first saw the sweep, for the rate.
    pub(crate) base_work: u64,
    /// When this process first saw the sweep.
    pub(crate) base_at: Instant,
    /// Replicated validation (core/verify.rs).
    pub(crate) verify: Verification,
}

impl Sweep {
    /// A sweep with no shard done, just launched at `now`.
    pub(crate) fn new(
        record: SweepRecord,
        plan: Vec<ShardSpec>,
        empty: Output,
        now: Instant,
    ) -> Self {
        let n = plan.len();
        let order = lease_order(&plan, &record);
        let verify = Verification::new(&record, n);
        Sweep {
            record,
            plan,
            order,
            work: vec![0; n],
            timings: BTreeMap::new(),
            failures: BTreeMap::new(),
            states: vec![ShardState::Pending; n],
            attempts: BTreeMap::new(),
            progress: HashMap::new(),
            merged: empty,
            results_stored: 0,
            duplicates_ignored: 0,
            leases_expired: 0,
            leases_released: 0,
            base_work: 0,
            base_at: now,
            verify,
        }
    }

    /// Shards done.
    pub(crate) fn done(&self) -> u32 {
        self.results_stored
    }
    /// Every shard of the plan is done (and, replicated validation, every
    /// verification of a selected shard resolved).
    pub(crate) fn finished(&self) -> bool {
        self.results_stored as usize == self.plan.len() && !self.verify.pending()
    }
    /// Sampled shards done (0 without a sample).
    pub(crate) fn sample_done(&self) -> u32 {
        self.record.sample.as_ref().map_or(0, |smp| {
            smp.shards
                .iter()
                .filter(|&&i| self.states[i as usize] == ShardState::Done)
                .count() as u32
        })
    }
    /// A shard of the lease order is pending or leased (not done, not failed).
    pub(crate) fn open(&self) -> bool {
        self.order.iter().any(|&i| {
            matches!(
                self.states[i as usize],
                ShardState::Pending | ShardState::Leased(_)
            )
        }) || self.verify.pending() // replicated validation: copies to hand out
    }
    /// May a worker with these solver versions (`kind=version,…`) run this
    /// sweep's shards: its version of the sweep's kind is the recorded one.
    pub(crate) fn served_by(&self, versions: &str) -> bool {
        gamesweep_proto::version_for(versions, &self.record.kind)
            == Some(self.record.solver_version.as_str())
    }
    /// Has shards a worker may be given now (or later, after leases expire).
    pub(crate) fn servable(&self) -> bool {
        self.record.state == SweepState::Running && self.open()
    }
    /// Shards set aside.
    pub(crate) fn failed(&self) -> u32 {
        self.states
            .iter()
            .filter(|s| **s == ShardState::Failed)
            .count() as u32
    }
    /// The counters to store.
    pub(crate) fn stats(&self) -> SweepStats {
        SweepStats {
            duplicates_ignored: self.duplicates_ignored,
            leases_expired: self.leases_expired,
            leases_released: self.leases_released,
        }
    }

    /// Lease shard `index` to `worker` until `until_ms`, as its next attempt.
    pub(crate) fn grant(&mut self, index: u32, worker: &str, until_ms: u64) -> LeaseRecord {
        let attempt = {
            let a = self.attempts.entry(index).or_insert(0);
            *a += 1;
            *a
        };
        let lease = LeaseRecord {
            worker: worker.to_string(),
            until_ms,
            attempt,
        };
        if let ShardState::Leased(old) = &self.states[index as usize] {
            warn!(sweep = %self.record.id, shard = index, old_worker = %old.worker, "lease expired; re-issuing");
            self.leases_expired += 1;
        }
        self.states[index as usize] = ShardState::Leased(lease.clone());
        self.progress.remove(&index);
        lease
    }

    /// Whether `worker` may keep shard `index` under lease `attempt`: it
    /// holds that lease (expired or not: nobody else took it), or the shard
    /// went back to pending (e.g. its lease record was lost in a crash).
    pub(crate) fn may_keep(&self, index: u32, worker: &str, attempt: u32) -> bool {
        let running = self.record.state == SweepState::Running;
        match self.states.get(index as usize) {
            Some(ShardState::Leased(l)) => running && l.worker == worker && l.attempt == attempt,
            Some(ShardState::Pending) => running,
            _ => false,
        }
    }

    /// The error of a sweep that cannot finish because shards were set
    /// aside, or of one that is simply not finished; `None` if finished.
    pub(crate) fn unfinished(&self) -> Option<CoreError> {
        let id = self.record.id.clone();
        if !self.finished() && !self.open() && self.failed() > 0 {
            let (first, error) = self
                .failures
                .iter()
                .find(|(i, _)| self.states[**i as usize] == ShardState::Failed)
                .map(|(i, f)| (*i, f.error.clone()))
                .unwrap_or_default();
            return Some(CoreError::Failed {
                id,
                failed: self.failed(),
                max: MAX_FAILURES,
                first,
                error,
            });
        }
        (!self.finished()).then(|| CoreError::NotFinished {
            id,
            done: self.done(),
            total: self.plan.len() as u32,
        })
    }
}

/// The lease order for a sweep: largest estimate first, over the sample
/// while one limits the sweep, else over the whole plan.
pub(crate) fn lease_order(plan: &[ShardSpec], record: &SweepRecord) -> Vec<u32> {
    let mut order: Vec<u32> = match record.sample.as_ref().filter(|s| s.limited) {
        Some(smp) => smp.shards.clone(),
        None => (0..plan.len() as u32).collect(),
    };
    order.sort_by_key(|&i| std::cmp::Reverse(plan[i as usize].estimate));
    order
}

/// A worker as last heard from.
pub(crate) struct WorkerSeen {
    /// When.
    pub(crate) last_seen: Instant,
}

/// Everything the core's lock guards.
pub(crate) struct State {
    /// Sweeps by id.
    pub(crate) sweeps: BTreeMap<String, Sweep>,
    /// Workers by id.
    pub(crate) workers: BTreeMap<String, WorkerSeen>,
    /// Replicated validation (core/verify.rs): quarantined workers.
    pub(crate) quarantine: Quarantine,
}

impl State {
    /// Note that `worker` was heard from at `now`.
    pub(crate) fn seen(&mut self, worker: &str, now: Instant) {
        self.workers
            .insert(worker.to_string(), WorkerSeen { last_seen: now });
    }

    /// The sweep `sweep_id`.
    pub(crate) fn sweep(&self, sweep_id: &str) -> Result<&Sweep, CoreError> {
        self.sweeps
            .get(sweep_id)
            .ok_or_else(|| CoreError::NoSuchSweep(sweep_id.to_string()))
    }

    /// The sweep `sweep_id`, to change.
    pub(crate) fn sweep_mut(&mut self, sweep_id: &str) -> Result<&mut Sweep, CoreError> {
        self.sweeps
            .get_mut(sweep_id)
            .ok_or_else(|| CoreError::NoSuchSweep(sweep_id.to_string()))
    }

    /// The sweep and the state of its shard `index`, for a result or failure
    /// sent by a worker of solver `version` (which must be the sweep's).
    pub(crate) fn shard_of(
        &mut self,
        sweep_id: &str,
        index: u32,
        version: &str,
    ) -> Result<(&mut Sweep, ShardState), CoreError> {
        let s = self.sweep_mut(sweep_id)?;
        if !s.served_by(version) {
            let worker = gamesweep_proto::version_for(version, &s.record.kind).unwrap_or("none");
            warn!(
                worker_version = worker,
                "refused a shard report from a different solver build"
            );
            return Err(CoreError::VersionMismatch {
                worker: worker.to_string(),
                sweep: sweep_id.to_string(),
                sweep_version: s.record.solver_version.clone(),
            });
        }
        let Some(state) = s.states.get(index as usize).cloned() else {
            return Err(CoreError::BadRequest(format!(
                "sweep `{sweep_id}` has no shard {index} (plan has {})",
                s.plan.len()
            )));
        };
        Ok((s, state))
    }
}
