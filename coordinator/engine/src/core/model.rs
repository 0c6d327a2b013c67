//! The core's in-memory model: errors, a shard's state, a sweep's state and
//! the few transitions on it that need no store (they take `now` explicitly).

use super::replication_state::{Quarantine, Replication};
use crate::store::snapshot::SetDigest;
use crate::store::{
    FailureRecord, LeaseRecord, ShardTiming, StoreError, SweepRecord, SweepState, SweepStats,
};
use gamesweep::sweep::{Output, ShardSpec, SweepKind};
use gamesweep_api::SolverVersions;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tracing::warn;

/// Errors the coordinator returns to its clients.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// No sweep with that id.
    #[error("no sweep named `{}` on this coordinator (see `gamesweep status`)", gamesweep_api::quote_prefix(.0))]
    NoSuchSweep(String),
    /// Bad launch request (unknown kind, bad params, bad plan).
    #[error("{0}")]
    BadRequest(String),
    /// A sweep id that exists already.
    #[error("a sweep named `{}` already exists; pick another --name", gamesweep_api::quote_prefix(.0))]
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
    #[error("sweep `{id}` is not finished: {done}/{total} shards done{} (watch it with `gamesweep status {id} --watch`)", waiting_note(*.verifying))]
    NotFinished {
        /// The sweep.
        id: String,
        /// Done shards.
        done: u32,
        /// All shards.
        total: u32,
        /// Open verifications (core/replication.rs) a sweep whose shards are
        /// all done waits for (0 while shards are not).
        verifying: u32,
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
    /// A request about a shard without a valid lease token for it.
    #[error("{0}")]
    Denied(String),
    /// A finished sweep's result could not be rendered.
    #[error("cannot render: {0}")]
    Render(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What [`CoreError::NotFinished`] says of `verifying` open verifications.
fn waiting_note(verifying: u32) -> String {
    match verifying {
        0 => String::new(),
        n => format!(
            ", {n} verification{} waiting for a second identity (status says which, and until when)",
            if n == 1 { "" } else { "s" }
        ),
    }
}

pub use super::pace::RATE_WINDOW;

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
    /// May be handed out at `now_ms` (pending, or its lease expired): what
    /// `Sweep::first_free` finds by its indices (the tests walk with this).
    #[cfg(test)]
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

/// Events of one sweep counted by this process since it started (kept in
/// memory only, unlike the stored counters of [`SweepStats`]); verification
/// copies (core/replication.rs) are not counted here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    /// Leases granted on shards (first leases and re-issues).
    pub leases_issued: u64,
    /// Lease renewals granted.
    pub leases_renewed: u64,
    /// Leases taken back from their holders for another identity's fair
    /// share, or for want of progress while others waited (core/fair.rs).
    pub leases_reclaimed: u64,
    /// Results accepted as their shard's result (the shard became done).
    pub results_accepted: u64,
    /// Results submitted for a shard not done yet under a lease that was
    /// no longer the shard's live lease (it had expired, been given back or
    /// been re-issued): accepted all the same, so also in `results_accepted`.
    pub results_late: u64,
}

/// Shard counts and indices of one sweep, kept up to date on every change
/// of a shard's state ([`Sweep::set_state`]) so that status and leasing
/// need no scan of the shards.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Shards whose state is `Leased` (the lease expired or not).
    pub(crate) leased: BTreeSet<u32>,
    /// Shards done.
    pub(crate) done: u32,
    /// Shards set aside.
    pub(crate) failed: u32,
    /// Shards of the sample done.
    pub(crate) sample_done: u32,
    /// Shards of the sample set aside.
    pub(crate) sample_failed: u32,
    /// Positions in the lease order ([`Sweep::order`]) of the pending
    /// shards in it: the next shard to hand out is the first (or an expired
    /// lease earlier in the order), found without walking the done ones.
    pub(crate) pending: BTreeSet<u32>,
    /// (Expiry, shard) of every `Leased` shard: the expired ones are its
    /// first entries.
    pub(crate) expiry: BTreeSet<(u64, u32)>,
    /// Per worker, the shards whose state is `Leased` to it (expired or
    /// not): a worker's held leases without a walk over everyone's.
    pub(crate) by_worker: BTreeMap<String, BTreeSet<u32>>,
}

/// Sums over the done shards that status's projection needs, kept by
/// [`Sweep::set_state`] and [`Sweep::set_work`] (floating point, so equal
/// to a recount up to rounding, not bit for bit).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct WorkSums {
    /// Positions of every done shard.
    pub(crate) work_all: u128,
    /// Done shards with an estimate.
    pub(crate) n: u32,
    /// Their estimates.
    pub(crate) est: u128,
    /// Their positions.
    pub(crate) work: u128,
    /// Σ positions² / estimate over them (for the spread of the ratios).
    pub(crate) w2e: f64,
    /// Per estimate bin ([`EstimateBins`]): the done shards' estimates and
    /// positions (empty until the bins are known).
    pub(crate) bins: Vec<(u128, u128)>,
}

/// How many bins the plan's shards fall into by estimate (equal numbers of
/// shards, largest estimates in bin 0): the projection corrects each bin's
/// estimates by its own done shards' ratio, and a long sweep runs one
/// probe per bin first (see [`lease_order`]).
pub const ESTIMATE_BINS: usize = 64;

/// A lease order of at least this many shards starts with the probes.
pub const PROBES_FROM: usize = 1024;

/// The plan's shards by estimate bin ([`ESTIMATE_BINS`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct EstimateBins {
    /// Each shard's bin.
    pub(crate) of: Vec<u8>,
    /// Each bin's estimated positions, all its shards.
    pub(crate) est: Vec<u128>,
}

impl EstimateBins {
    /// The bins of `plan`: shards ranked by estimate, largest first (ties
    /// by index), cut into [`ESTIMATE_BINS`] runs of equal length.
    pub(crate) fn of(plan: &[ShardSpec]) -> Self {
        let mut ranked: Vec<u32> = (0..plan.len() as u32).collect();
        ranked.sort_by_key(|&i| (std::cmp::Reverse(plan[i as usize].estimate), i));
        let n = plan.len().max(1);
        let mut of = vec![0u8; plan.len()];
        let mut est = vec![0u128; ESTIMATE_BINS];
        for (rank, &i) in ranked.iter().enumerate() {
            let b = rank * ESTIMATE_BINS / n;
            of[i as usize] = b as u8;
            est[b] += u128::from(plan[i as usize].estimate);
        }
        EstimateBins { of, est }
    }
}

impl WorkSums {
    /// Count a done shard of estimate `e` and positions `w`, in estimate
    /// bin `bin` (`None`: bins not known), in (`by` = 1) or out (`by` = -1).
    fn count(&mut self, e: u64, w: u64, bin: Option<u8>, by: i8) {
        if let Some(b) = bin.filter(|_| e > 0) {
            if self.bins.is_empty() {
                self.bins = vec![(0, 0); ESTIMATE_BINS];
            }
            let (be, bw) = &mut self.bins[b as usize];
            if by > 0 {
                *be += u128::from(e);
                *bw += u128::from(w);
            } else {
                *be = be.saturating_sub(u128::from(e));
                *bw = bw.saturating_sub(u128::from(w));
            }
        }
        let (e128, w128) = (e as u128, w as u128);
        let w2e = if e > 0 {
            (w as f64) * (w as f64) / e as f64
        } else {
            0.0
        };
        if by > 0 {
            self.work_all += w128;
            if e > 0 {
                self.n += 1;
                self.est += e128;
                self.work += w128;
                self.w2e += w2e;
            }
        } else {
            self.work_all = self.work_all.saturating_sub(w128);
            if e > 0 {
                self.n = self.n.saturating_sub(1);
                self.est = self.est.saturating_sub(e128);
                self.work = self.work.saturating_sub(w128);
                self.w2e -= w2e;
            }
        }
    }
}

/// The lease a token names, for its holder (see [`Sweep::named`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Named {
    /// The shard's current lease (expired or not), this holder's.
    Shard(LeaseRecord),
    /// The shard's verification copy lease (core/replication.rs), this holder's.
    Copy(LeaseRecord),
    /// A lease of this holder whose record was lost (a coordinator crash
    /// before it was flushed): the shard is pending and the lease was
    /// neither given back nor reported failed.
    Lost {
        /// The shard's latest attempt.
        attempt: u32,
        /// The lease's nonce (from its token).
        nonce: u64,
    },
    /// The shard is done or set aside.
    Finished,
    /// A lease of this holder that is over: given back, reported failed, or
    /// its shard handed to someone else since.
    Stale,
}

/// Adaptive replication: every result of an issued identity is verified by
/// another identity until its results have agreed with another identity's
/// this many times (since its last disagreement); after that its results
/// are verified at the sweep's sampled share.
pub const TRUST_AFTER: u32 = 5;

/// Which end of the lease order [`Sweep::first_free`] takes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The largest estimated shards first (the default: the sweep's tail
    /// is then made of small shards).
    Largest,
    /// The smallest first: for an identity on probation, whose results are
    /// all replicated until it has earned trust (core/replication.rs).
    Smallest,
}

/// The position in the lease order of a shard that is not in it.
pub(crate) const UNORDERED: u32 = u32::MAX;

impl Tally {
    /// Count shard `index` in `state` (`sampled`: it is in the sample;
    /// `rank`: its position in the lease order, or [`UNORDERED`]) in
    /// (`by` = 1) or out (`by` = -1).
    fn count(&mut self, index: u32, state: &ShardState, sampled: bool, rank: u32, by: i8) {
        let add = |n: &mut u32| {
            *n = if by > 0 {
                n.saturating_add(1)
            } else {
                n.saturating_sub(1)
            };
        };
        match state {
            ShardState::Pending => {
                if rank != UNORDERED {
                    if by > 0 {
                        self.pending.insert(rank);
                    } else {
                        self.pending.remove(&rank);
                    }
                }
            }
            ShardState::Leased(l) => {
                if by > 0 {
                    self.leased.insert(index);
                    self.expiry.insert((l.until_ms, index));
                    self.by_worker
                        .entry(l.worker.clone())
                        .or_default()
                        .insert(index);
                } else {
                    self.leased.remove(&index);
                    self.expiry.remove(&(l.until_ms, index));
                    if let Some(set) = self.by_worker.get_mut(&l.worker) {
                        set.remove(&index);
                        if set.is_empty() {
                            self.by_worker.remove(&l.worker);
                        }
                    }
                }
            }
            ShardState::Done => {
                add(&mut self.done);
                if sampled {
                    add(&mut self.sample_done);
                }
            }
            ShardState::Failed => {
                add(&mut self.failed);
                if sampled {
                    add(&mut self.sample_failed);
                }
            }
        }
    }
}

/// A sweep's kind, resolved from its name once (a launch, a sweep read
/// back from the store, an import) and carried from then on; shown and
/// compared by its name (the registry refuses two kinds of one name).
#[derive(Clone, Copy)]
pub struct KindRef(pub &'static dyn SweepKind);

impl std::ops::Deref for KindRef {
    type Target = dyn SweepKind;
    fn deref(&self) -> &Self::Target {
        self.0
    }
}

impl std::fmt::Debug for KindRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "kind `{}`", self.0.name())
    }
}

impl PartialEq for KindRef {
    fn eq(&self, other: &Self) -> bool {
        self.0.name() == other.0.name()
    }
}

impl Eq for KindRef {}

/// One sweep in memory.
pub(crate) struct Sweep {
    /// As stored.
    pub(crate) record: SweepRecord,
    /// The sweep's kind, resolved from `record.kind` once, when the sweep
    /// was launched, imported or read back from the store: nothing else
    /// looks a kind up by name.
    pub(crate) kind: KindRef,
    /// The plan, indexed by shard (shared, so a projection can read it
    /// outside the core's lock).
    pub(crate) plan: Arc<Vec<ShardSpec>>,
    /// Shard indices in the order they are handed out: largest estimate first,
    /// so the long shards do not end up last (shorter tail). While a sample
    /// limits the sweep, only the sampled shards. Set with [`Sweep::set_order`].
    pub(crate) order: Vec<u32>,
    /// Each shard's position in `order` ([`UNORDERED`] if not in it).
    pub(crate) rank: Vec<u32>,
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
    /// Submits refused for want of a valid lease token.
    pub(crate) refused_submits: u64,
    /// Renewals and releases refused for want of a valid lease token.
    pub(crate) refused_renewals: u64,
    /// Failure reports refused for want of a valid lease token.
    pub(crate) refused_fails: u64,
    /// Submits whose bytes did not decode as this sweep's result.
    pub(crate) results_invalid: u64,
    /// Of those, by identity (see [`SweepStats::results_invalid_by`]).
    pub(crate) results_invalid_by: BTreeMap<String, u64>,
    /// Submitted results recounted (core/recount.rs), and of those refused.
    pub(crate) recounted: u64,
    pub(crate) recounts_refused: u64,
    /// Per shard, the nonces of leases given back or reported failed: their
    /// tokens name no lease any more (in memory only; after a restart such a
    /// token of a shard still pending may take it back, for the same
    /// identity only, within its cap).
    pub(crate) retired: HashMap<u32, HashSet<u64>>,
    /// Recent (time, positions done) samples, for the rate
    /// ([`super::pace`]): taken when shards are leased, renewed and
    /// submitted (in memory only).
    pub(crate) rate_samples: super::pace::Pace,
    /// Per lease (by its nonce), how its reported progress grew
    /// ([`super::fair::Growth`]; in memory only: after a restart a lease's
    /// growth is counted from its first renewal).
    pub(crate) growth: HashMap<u64, super::fair::Growth>,
    /// What this sweep's accepted results took from grant to acceptance
    /// ([`super::fair::Patience`]; in memory only).
    pub(crate) patience: super::fair::Patience,
    /// Fair share between sweeps (see `leases`): the virtual time at which
    /// this sweep is next served (in memory only).
    pub(crate) pass: u64,
    /// Replicated validation (core/replication.rs).
    pub(crate) replication: Replication,
    /// Events counted since this process started.
    pub(crate) events: Events,
    /// Shard counts by state ([`Sweep::set_state`] keeps them).
    pub(crate) tally: Tally,
    /// Sums over the done shards' positions (projection).
    pub(crate) sums: WorkSums,
    /// The plan's shards by estimate bin (projection; [`Sweep::set_order`]).
    pub(crate) bins: EstimateBins,
    /// Positions in the accepted results per worker (from their timings).
    pub(crate) worker_work: BTreeMap<String, u64>,
    /// The sampled shards (empty without a sample).
    pub(crate) sampled: HashSet<u32>,
    /// The plan's estimated positions, and the sample's.
    pub(crate) estimate: (u64, u64),
    /// [`SetDigest`] of the done shards' (index, result SHA-256) pairs:
    /// what a snapshot of this moment covers (`store/snapshot.rs`).
    pub(crate) done_digest: SetDigest,
    /// Done shards the sweep's stored snapshot covers (0: none): a
    /// snapshot is due when [`Sweep::results_stored`] differs.
    pub(crate) snapshotted: u32,
    /// Started from a snapshot: `timings` and `verify.origins` hold only
    /// the shards it did not cover until [`Sweep::fill`] adds the rest
    /// (read from the store by what needs them: export, projection,
    /// re-verification), so a start does not read them.
    pub(crate) lazy: bool,
    /// While lazy: [`Sweep::worker_work`] of the shards the snapshot
    /// covered (its aggregate), under the workers' own.
    pub(crate) worker_work_base: BTreeMap<String, u64>,
}

impl Sweep {
    /// A sweep with no shard done, just launched.
    pub(crate) fn new(record: SweepRecord, kind: KindRef, plan: Vec<ShardSpec>) -> Self {
        let n = plan.len();
        let order = lease_order(&plan, &record);
        let replication = Replication::new(&record, n);
        Sweep {
            record,
            kind,
            plan: Arc::new(plan),
            order,
            rank: Vec::new(),
            work: vec![0; n],
            timings: BTreeMap::new(),
            failures: BTreeMap::new(),
            states: vec![ShardState::Pending; n],
            attempts: BTreeMap::new(),
            progress: HashMap::new(),
            merged: kind.empty(),
            results_stored: 0,
            duplicates_ignored: 0,
            leases_expired: 0,
            leases_released: 0,
            refused_submits: 0,
            refused_renewals: 0,
            refused_fails: 0,
            results_invalid: 0,
            results_invalid_by: BTreeMap::new(),
            recounted: 0,
            recounts_refused: 0,
            retired: HashMap::new(),
            rate_samples: Default::default(),
            growth: HashMap::new(),
            patience: Default::default(),
            pass: 0,
            replication,
            events: Events::default(),
            tally: Tally::default(),
            sums: WorkSums::default(),
            bins: EstimateBins::default(),
            worker_work: BTreeMap::new(),
            sampled: HashSet::new(),
            estimate: (0, 0),
            done_digest: SetDigest::default(),
            snapshotted: 0,
            lazy: false,
            worker_work_base: BTreeMap::new(),
        }
        .counted()
    }

    /// This sweep with its [`Tally`], sample set and estimates computed
    /// from its states and plan (once, when it is loaded or launched).
    pub(crate) fn counted(mut self) -> Self {
        self.sampled = self
            .record
            .sample
            .as_ref()
            .map(|smp| smp.shards.iter().copied().collect())
            .unwrap_or_default();
        let sum = |it: &mut dyn Iterator<Item = u64>| it.fold(0u64, |a, e| a.saturating_add(e));
        self.estimate = (
            sum(&mut self.plan.iter().map(|p| p.estimate)),
            sum(&mut self
                .record
                .sample
                .iter()
                .flat_map(|smp| smp.shards.iter())
                .map(|&i| self.plan[i as usize].estimate)),
        );
        let order = std::mem::take(&mut self.order);
        self.set_order(order);
        self
    }

    /// Hand out shards in `order` from now on (its [`Sweep::rank`] and the
    /// [`Tally`] follow).
    pub(crate) fn set_order(&mut self, order: Vec<u32>) {
        let mut rank = vec![UNORDERED; self.plan.len()];
        for (pos, &i) in order.iter().enumerate() {
            rank[i as usize] = pos as u32;
        }
        self.order = order;
        self.rank = rank;
        self.tally = self.scan();
        if self.bins.of.len() != self.plan.len() {
            self.bins = EstimateBins::of(&self.plan);
        }
        self.recount_work();
    }

    /// [`Sweep::sums`] and [`Sweep::worker_work`] by a walk over the done
    /// shards (at load, and after results were merged again).
    pub(crate) fn recount_work(&mut self) {
        let (sums, by_worker) = self.scan_work();
        self.sums = sums;
        self.worker_work = by_worker;
    }

    /// What [`Sweep::sums`] and [`Sweep::worker_work`] must equal, by a walk.
    pub(crate) fn scan_work(&self) -> (WorkSums, BTreeMap<String, u64>) {
        let mut sums = WorkSums::default();
        for (i, state) in self.states.iter().enumerate() {
            if *state == ShardState::Done {
                sums.count(self.plan[i].estimate, self.work[i], self.bin(i), 1);
            }
        }
        let mut by_worker: BTreeMap<String, u64> = self.worker_work_base.clone();
        for (&i, t) in &self.timings {
            let w = self.work.get(i as usize).copied().unwrap_or(0);
            let e = by_worker.entry(t.worker.clone()).or_insert(0);
            *e = e.saturating_add(w);
        }
        (sums, by_worker)
    }

    /// The stored timings and origins of a sweep started lazily (see
    /// [`Sweep::lazy`]): those of done shards it lacks are added (what it
    /// holds is as new or newer), and its worker work counted again.
    pub(crate) fn fill(
        &mut self,
        timings: BTreeMap<u32, ShardTiming>,
        origins: BTreeMap<u32, String>,
    ) {
        let done = |s: &Self, i: u32| s.states.get(i as usize) == Some(&ShardState::Done);
        for (i, t) in timings {
            if done(self, i) {
                self.timings.entry(i).or_insert(t);
            }
        }
        for (i, o) in origins {
            if done(self, i) {
                self.replication.origins.entry(i).or_insert(o);
            }
        }
        self.lazy = false;
        self.worker_work_base.clear();
        self.recount_work();
    }

    /// Shard `i`'s estimate bin (`None` before [`Sweep::set_order`]).
    fn bin(&self, i: usize) -> Option<u8> {
        self.bins.of.get(i).copied()
    }

    /// Set shard `index`'s positions (keeping [`Sweep::sums`]).
    pub(crate) fn set_work(&mut self, index: u32, w: u64) {
        let i = index as usize;
        if self.states[i] == ShardState::Done {
            let (e, b) = (self.plan[i].estimate, self.bin(i));
            self.sums.count(e, self.work[i], b, -1);
            self.sums.count(e, w, b, 1);
        }
        self.work[i] = w;
    }

    /// Record the timing of shard `index`'s accepted result (after its
    /// positions are set), keeping [`Sweep::worker_work`].
    pub(crate) fn set_timing(&mut self, index: u32, t: ShardTiming) {
        let w = self.work[index as usize];
        if let Some(old) = self.timings.insert(index, t.clone()) {
            if let Some(e) = self.worker_work.get_mut(&old.worker) {
                *e = e.saturating_sub(w);
            }
        }
        let e = self.worker_work.entry(t.worker).or_insert(0);
        *e = e.saturating_add(w);
    }

    /// The [`Tally`] by a scan of every shard's state (what the maintained
    /// one must always equal).
    pub(crate) fn scan(&self) -> Tally {
        let mut t = Tally::default();
        for (i, state) in self.states.iter().enumerate() {
            let rank = self.rank.get(i).copied().unwrap_or(UNORDERED);
            t.count(i as u32, state, self.sampled.contains(&(i as u32)), rank, 1);
        }
        t
    }

    /// Set shard `index`'s state, keeping the [`Tally`]. Every change of a
    /// shard's state goes through here.
    pub(crate) fn set_state(&mut self, index: u32, state: ShardState) {
        let sampled = self.sampled.contains(&index);
        let rank = self.rank[index as usize];
        let old = std::mem::replace(&mut self.states[index as usize], state);
        self.tally.count(index, &old, sampled, rank, -1);
        self.tally
            .count(index, &self.states[index as usize], sampled, rank, 1);
        let done = (
            old == ShardState::Done,
            self.states[index as usize] == ShardState::Done,
        );
        if done.0 != done.1 {
            let (e, w) = (
                self.plan[index as usize].estimate,
                self.work[index as usize],
            );
            let b = self.bin(index as usize);
            self.sums.count(e, w, b, if done.1 { 1 } else { -1 });
        }
    }

    /// Unexpired leases `worker` holds at `now_ms` (a walk over its own
    /// leases only).
    pub(crate) fn held_by(&self, worker: &str, now_ms: u64) -> u32 {
        self.tally.by_worker.get(worker).map_or(0, |set| {
            set.iter()
                .filter(|&&i| self.states[i as usize].held(now_ms).is_some())
                .count() as u32
        })
    }

    /// The first shard of the lease order that is free at `now_ms`
    /// (pending, or leased under an expired lease) and that `skip` does
    /// not exclude, from the front of the order (largest estimate first)
    /// or, for [`End::Smallest`], from its back: the pending shards by
    /// their index in order, the expired leases from the front of the
    /// expiry index. What a walk of `order` would find, without walking the
    /// shards handed out already.
    pub(crate) fn first_free(
        &self,
        now_ms: u64,
        end: End,
        skip: impl Fn(u32) -> bool,
    ) -> Option<u32> {
        let smallest = end == End::Smallest;
        // A pending shard's position in the order is its rank.
        let free = |&pos: &u32| (!skip(self.order[pos as usize])).then_some(pos);
        let mut best = if smallest {
            self.tally.pending.iter().rev().find_map(free)
        } else {
            self.tally.pending.iter().find_map(free)
        };
        let better = |r: u32, b: u32| if smallest { r > b } else { r < b };
        for &(until_ms, i) in &self.tally.expiry {
            if until_ms > now_ms {
                break;
            }
            let r = self.rank[i as usize];
            if r != UNORDERED && best.is_none_or(|b| better(r, b)) && !skip(i) {
                best = Some(r);
            }
        }
        best.map(|pos| self.order[pos as usize])
    }

    /// Unexpired leases at `now_ms` of this sweep, in shard order.
    pub(crate) fn held(&self, now_ms: u64) -> impl Iterator<Item = (u32, &LeaseRecord)> + '_ {
        self.tally
            .leased
            .iter()
            .filter_map(move |&i| self.states[i as usize].held(now_ms).map(|l| (i, l)))
    }

    /// Shards done.
    pub(crate) fn done(&self) -> u32 {
        self.results_stored
    }
    /// Every shard of the plan is done (and, replicated validation, every
    /// verification of a selected shard resolved).
    pub(crate) fn finished(&self) -> bool {
        self.results_stored as usize == self.plan.len() && !self.replication.pending()
    }
    /// Sampled shards done (0 without a sample).
    pub(crate) fn sample_done(&self) -> u32 {
        self.tally.sample_done
    }
    /// A shard of the lease order is pending or leased (not done, not failed).
    pub(crate) fn open(&self) -> bool {
        let t = &self.tally;
        let open = match (
            self.record.sample.as_ref().filter(|smp| smp.limited),
            self.record.part,
        ) {
            // The lease order is the sample.
            (Some(_), _) => self.sampled.len() as u32 > t.sample_done + t.sample_failed,
            // The lease order is the part: a pending shard of it (only the
            // ordered ones are in `pending`), or one of it leased.
            (None, Some(_)) => {
                !t.pending.is_empty()
                    || t.leased
                        .iter()
                        .any(|&i| self.rank.get(i as usize).is_some_and(|&r| r != UNORDERED))
            }
            (None, None) => self.plan.len() as u32 > t.done + t.failed,
        };
        open || self.replication.pending() // replicated validation: copies to hand out
    }
    /// May a worker with these solver versions run this
    /// sweep's shards: its version of the sweep's kind is the recorded one.
    pub(crate) fn served_by(&self, versions: &SolverVersions) -> bool {
        versions.get(&self.record.kind) == Some(self.record.solver_version.as_str())
    }
    /// Has shards a worker may be given now (or later, after leases expire).
    pub(crate) fn servable(&self) -> bool {
        self.record.state == SweepState::Running && self.open()
    }
    /// Shards set aside.
    pub(crate) fn failed(&self) -> u32 {
        self.tally.failed
    }
    /// Positions done: the merged result's plus the progress reported for
    /// leased shards.
    pub(crate) fn positions(&self) -> u64 {
        self.progress
            .values()
            .fold(self.merged.work(), |sum, &p| sum.saturating_add(p))
    }

    /// Note the positions done at `now` for the rate ([`super::pace`]).
    pub(crate) fn note_progress(&mut self, now: Instant) {
        let positions = self.positions();
        self.rate_samples.note(now, positions);
    }

    /// Positions per second at `now` up to `positions` (done now), over the
    /// recent window ([`super::pace::Pace::rate`]).
    pub(crate) fn rate(&self, now: Instant, positions: u64) -> f64 {
        self.rate_samples.rate(now, positions)
    }

    /// Share of the workers relative to other sweeps (at least 1).
    pub(crate) fn priority(&self) -> u32 {
        self.record.priority.max(1)
    }

    /// The counters to store.
    pub(crate) fn stats(&self) -> SweepStats {
        SweepStats {
            duplicates_ignored: self.duplicates_ignored,
            leases_expired: self.leases_expired,
            leases_released: self.leases_released,
            refused_submits: self.refused_submits,
            refused_renewals: self.refused_renewals,
            refused_fails: self.refused_fails,
            results_invalid: self.results_invalid,
            results_invalid_by: self.results_invalid_by.clone(),
            recounted: self.recounted,
            recounts_refused: self.recounts_refused,
        }
    }

    /// The largest in-flight progress a holder of shard `index` may report:
    /// four times its estimate (estimates are rough, but a shard is not
    /// orders of magnitude off), or 2^32 positions for a shard without one;
    /// so a worker cannot make the status's sum of positions meaningless.
    pub(crate) fn progress_cap(&self, index: u32) -> u64 {
        match self.plan.get(index as usize).map_or(0, |p| p.estimate) {
            0 => 1 << 32,
            e => e.saturating_mul(4),
        }
    }

    /// Whether lease `l` of shard `index` has been renewed without its
    /// result for longer than the sweep's pace allows at `now_ms`, and at
    /// least twice `stall_ms` (the stall bound: [`super::fair::Patience`]):
    /// it then counts as stalled whatever progress its holder claims.
    pub(crate) fn overdue(&self, index: u32, l: &LeaseRecord, now_ms: u64, stall_ms: u64) -> bool {
        let estimate = self.plan.get(index as usize).map_or(0, |p| p.estimate);
        self.patience
            .bound_ms(estimate, stall_ms.saturating_mul(2))
            .is_some_and(|b| l.granted_ms > 0 && now_ms.saturating_sub(l.granted_ms) >= b)
    }

    /// Lease shard `index` to `worker` at `now_ms` until `until_ms`, as its
    /// next attempt.
    pub(crate) fn grant(
        &mut self,
        index: u32,
        worker: &str,
        now_ms: u64,
        until_ms: u64,
    ) -> LeaseRecord {
        let attempt = {
            let a = self.attempts.entry(index).or_insert(0);
            *a = a.saturating_add(1);
            *a
        };
        let lease = LeaseRecord {
            worker: worker.to_string(),
            until_ms,
            attempt,
            granted_ms: now_ms,
            nonce: super::tokens::fresh_nonce(),
        };
        if let ShardState::Leased(old) = &self.states[index as usize] {
            warn!(sweep = %self.record.id, shard = index, old_worker = %old.worker, "lease expired; re-issuing");
            self.leases_expired = self.leases_expired.saturating_add(1);
        }
        self.set_state(index, ShardState::Leased(lease.clone()));
        self.progress.remove(&index);
        self.events.leases_issued = self.events.leases_issued.saturating_add(1);
        self.note_granted(lease.nonce, now_ms);
        lease
    }

    /// Count the progress of lease `nonce` from its grant at `now_ms`
    /// (core/fair.rs), forgetting the growth of leases that are over once
    /// there are many more than live ones.
    pub(crate) fn note_granted(&mut self, nonce: u64, now_ms: u64) {
        if self.growth.len()
            > 2 * (self.tally.leased.len() + self.replication.records.values().len()) + 64
        {
            let mut live: HashSet<u64> = self
                .tally
                .leased
                .iter()
                .filter_map(|&i| match &self.states[i as usize] {
                    ShardState::Leased(l) => Some(l.nonce),
                    _ => None,
                })
                .collect();
            live.extend(
                self.replication
                    .records
                    .values()
                    .filter_map(|r| r.lease.as_ref().map(|l| l.nonce)),
            );
            self.growth.retain(|n, _| live.contains(n));
        }
        self.growth
            .insert(nonce, super::fair::Growth::granted(now_ms));
    }

    /// Which lease of shard `index` the lease `nonce` (from a token made
    /// for `index` and its holder, so the holder is the token's) is.
    pub(crate) fn named(&self, index: u32, nonce: u64) -> Named {
        if let Some(l) = self
            .replication
            .records
            .get(&index)
            .and_then(|r| r.lease.as_ref())
            .filter(|l| l.nonce == nonce)
        {
            return Named::Copy(l.clone());
        }
        match self.states.get(index as usize) {
            Some(ShardState::Leased(l)) if l.nonce == nonce => Named::Shard(l.clone()),
            Some(ShardState::Leased(_)) | None => Named::Stale,
            Some(ShardState::Done | ShardState::Failed) => Named::Finished,
            Some(ShardState::Pending) => {
                if self.retired.get(&index).is_some_and(|r| r.contains(&nonce)) {
                    Named::Stale
                } else {
                    Named::Lost {
                        attempt: self.attempts.get(&index).copied().unwrap_or(0).max(1),
                        nonce,
                    }
                }
            }
        }
    }

    /// Note that lease `nonce` of shard `index` is over (given back or
    /// reported failed): its token names nothing any more.
    pub(crate) fn retire(&mut self, index: u32, nonce: u64) {
        self.retired.entry(index).or_default().insert(nonce);
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
            // Said only once every shard is done: then it waits for them.
            verifying: if self.done() as usize == self.plan.len() {
                self.replication.records.tally().open.len() as u32
            } else {
                0
            },
        })
    }
}

/// The lease order for a sweep: largest estimate first, over the sample
/// while one limits the sweep, else over its part (`--part K/M`), else over
/// the whole plan. An order of [`PROBES_FROM`] shards or more starts with
/// **probes**: cut into [`ESTIMATE_BINS`] runs of equal length, the middle
/// shard of each run, largest first. Largest-first alone would measure the
/// plan's estimates only on its largest shards, whose estimates err high
/// (the n = 12 plan's top fifth took 0.89 of its estimate, the whole plan
/// 1.002), so the projection and the ETA would be low until the end; with
/// a probe in every bin the projection corrects each bin by its own
/// shards (`core/status.rs`).
pub(crate) fn lease_order(plan: &[ShardSpec], record: &SweepRecord) -> Vec<u32> {
    let mut order: Vec<u32> = match (record.sample.as_ref().filter(|s| s.limited), record.part) {
        (Some(smp), _) => smp.shards.clone(),
        (None, Some(part)) => part.shards(plan.len() as u32).collect(),
        (None, None) => (0..plan.len() as u32).collect(),
    };
    order.sort_by_key(|&i| (std::cmp::Reverse(plan[i as usize].estimate), i));
    if order.len() >= PROBES_FROM {
        let n = order.len();
        let probes: Vec<u32> = (0..ESTIMATE_BINS)
            .map(|b| order[(b * n / ESTIMATE_BINS + (b + 1) * n / ESTIMATE_BINS) / 2])
            .collect();
        let first: HashSet<u32> = probes.iter().copied().collect();
        order.retain(|i| !first.contains(i));
        order.splice(0..0, probes);
    }
    order
}

/// A worker as last heard from.
pub(crate) struct WorkerSeen {
    /// When.
    pub(crate) last_seen: Instant,
    /// What it declared at its last lease request (core/fair.rs).
    pub(crate) asked: super::fair::Asked,
}

/// Workers remembered at most (the longest unheard of are forgotten first).
pub const MAX_WORKERS: usize = 10_000;

/// The longest worker id accepted, in bytes.
pub const MAX_WORKER_ID: usize = 256;

/// Workers unheard of for this many lease periods (and at least
/// [`FORGET_MIN`]) are forgotten.
const FORGET_LEASES: u32 = 10;

/// The shortest time after which an unheard-of worker is forgotten.
const FORGET_MIN: Duration = Duration::from_secs(600);

/// How often the worker list is swept for workers to forget.
const PRUNE_EVERY: Duration = Duration::from_secs(10);

/// Everything the core's lock guards.
pub(crate) struct State {
    /// Sweeps by id.
    pub(crate) sweeps: BTreeMap<String, Sweep>,
    /// Workers by id (at most [`MAX_WORKERS`]).
    pub(crate) workers: BTreeMap<String, WorkerSeen>,
    /// Workers forgotten so far by this process (unheard of for long, or
    /// the list was full).
    pub(crate) workers_pruned: u64,
    /// When the worker list was last swept.
    pub(crate) pruned_at: Option<Instant>,
    /// Replicated validation (core/replication.rs): quarantined workers.
    pub(crate) quarantine: Quarantine,
    /// Adaptive replication (core/replication.rs): what each issued identity
    /// earned, by identity key.
    pub(crate) trust: BTreeMap<String, crate::store::TrustRecord>,
    /// Fair share between sweeps (see `leases`): the pass of the sweep
    /// served last.
    pub(crate) vtime: u64,
    /// When the open verifications were last looked at (`Core::tick`).
    pub(crate) replication_ticked: Option<Instant>,
    /// What the fair share did to each identity, for status (in memory
    /// only; one entry per identity, and identities are bounded by the
    /// issued credentials plus the shared token's one).
    pub(crate) held_back: BTreeMap<String, super::fair::HeldBack>,
}

pub use crate::store::{is_issued, voter, IMPORT_PREFIX, ISSUED_PREFIX, SHARED_VOTER};

/// The most identities an invalid-result count is kept for per sweep (a
/// shared token's holders choose their ids; the rest go under `(others)`).
pub const MAX_INVALID_BY: usize = 64;

/// At most the first 64 characters of client-sent text, control
/// characters escaped, for an error message (a message never echoes a
/// whole large field back).
pub fn short(s: &str) -> String {
    let mut out: String = s.chars().take(64).flat_map(char::escape_debug).collect();
    if s.chars().nth(64).is_some() {
        out.push('…');
    }
    out
}

/// `worker` if it is a worker id the core accepts.
pub(crate) fn check_worker(worker: &str) -> Result<(), CoreError> {
    if worker.len() > MAX_WORKER_ID {
        return Err(CoreError::BadRequest(format!(
            "worker id of {} bytes is too long (at most {MAX_WORKER_ID})",
            worker.len()
        )));
    }
    Ok(())
}

impl State {
    /// Note that `worker` was heard from at `now` (leases last `lease_ms`);
    /// forget workers unheard of for long, and the longest unheard of if
    /// the list is full.
    pub(crate) fn seen(&mut self, worker: &str, now: Instant, lease_ms: u64) {
        let forget_after =
            Duration::from_millis(lease_ms.saturating_mul(FORGET_LEASES as u64)).max(FORGET_MIN);
        if self
            .pruned_at
            .is_none_or(|at| now.saturating_duration_since(at) >= PRUNE_EVERY)
        {
            self.pruned_at = Some(now);
            let before = self.workers.len();
            self.workers
                .retain(|_, w| now.saturating_duration_since(w.last_seen) < forget_after);
            self.workers_pruned = self
                .workers_pruned
                .saturating_add((before - self.workers.len()) as u64);
        }
        if let Some(w) = self.workers.get_mut(worker) {
            w.last_seen = now;
            return;
        }
        while self.workers.len() >= MAX_WORKERS {
            let oldest = self
                .workers
                .iter()
                .min_by_key(|(_, w)| w.last_seen)
                .map(|(id, _)| id.clone());
            let Some(oldest) = oldest else { break };
            self.workers.remove(&oldest);
            self.workers_pruned = self.workers_pruned.saturating_add(1);
        }
        self.workers.insert(
            worker.to_string(),
            WorkerSeen {
                last_seen: now,
                asked: Default::default(),
            },
        );
    }

    /// Whether another identity than `worker`'s, and whether another worker
    /// id than `worker`, waits for shards at `now_ms` (core/fair.rs).
    pub(crate) fn others_waiting(&self, worker: &str, now_ms: u64, window_ms: u64) -> (bool, bool) {
        let me = super::fair::identity(worker);
        let (mut identity, mut holder) = (false, false);
        for (id, w) in &self.workers {
            if id != worker && super::fair::waiting(&w.asked, now_ms, window_ms) {
                holder = true;
                identity |= super::fair::identity(id) != me;
            }
        }
        (identity, holder)
    }

    /// Count `n` leases of identity `id` taken back (status, core/fair.rs).
    pub(crate) fn note_reclaimed(&mut self, id: &str, n: u64) {
        if n > 0 {
            let h = self.held_back.entry(id.to_string()).or_default();
            h.reclaimed = h.reclaimed.saturating_add(n);
        }
    }

    /// The worker ids other than `worker` waiting at `now_ms` (short
    /// within `window_ms`).
    pub(crate) fn waiting_others(&self, worker: &str, now_ms: u64, window_ms: u64) -> Vec<String> {
        self.workers
            .iter()
            .filter(|(id, w)| *id != worker && super::fair::waiting(&w.asked, now_ms, window_ms))
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Whether a worker other than `worker` was heard from within the last
    /// three lease periods of `lease_ms` (as status calls a worker alive).
    pub(crate) fn others_alive(&self, worker: &str, now: Instant, lease_ms: u64) -> bool {
        let alive = Duration::from_millis(lease_ms.saturating_mul(3));
        self.workers
            .iter()
            .any(|(id, w)| id != worker && now.saturating_duration_since(w.last_seen) < alive)
    }

    /// Whether a worker of another identity than `worker`'s (see [`voter`])
    /// was heard from within three lease periods before `now`.
    pub(crate) fn other_voters_alive(&self, worker: &str, now: Instant, lease_ms: u64) -> bool {
        let alive = Duration::from_millis(lease_ms.saturating_mul(3));
        let me = voter(worker);
        self.workers
            .iter()
            .any(|(id, w)| voter(id) != me && now.saturating_duration_since(w.last_seen) < alive)
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
        version: &SolverVersions,
    ) -> Result<(&mut Sweep, ShardState), CoreError> {
        let s = self.sweep_mut(sweep_id)?;
        if !s.served_by(version) {
            let worker = version.get(&s.record.kind).unwrap_or("none");
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
