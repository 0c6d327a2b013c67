//! The coordinator's state machine, independent of gRPC: sweeps, their
//! shards' states (pending / leased / done / failed), leases that expire,
//! exactly-once acceptance of results, and status. The gRPC service ([`crate::server`])
//! converts messages and calls into this; so does the embedded `run`.

use crate::projection::{self, Projection, SweepFacts};
use crate::store::{
    FailureRecord, LeaseRecord, SampleRecord, ShardTiming, Store, StoreError, StoredSweep,
    SweepRecord, SweepState, SweepStats,
};
use gamesweep::kinds;
use gamesweep::sweep::{self, Output, Params, ShardSpec};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tracing::{debug, info, info_span, warn};

pub use gamesweep_proto::domain::{
    SampleRequest, SampleStatus, ShardFailureStatus, SweepStatus, WorkerStatus,
};
pub use gamesweep_proto::solver_version;

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
    #[error("solver version mismatch: worker has {worker}, sweep `{sweep}` was launched with {sweep_version}; rebuild the worker from the same gamesweep sources as the coordinator")]
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
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Failures after which a shard is set aside instead of handed out again
/// (a deterministic solver fails the same way every time). Resuming the
/// sweep (`launch --resume`, rerunning `run`) gives failed shards new tries.
pub const MAX_FAILURES: u32 = 3;

/// Failure records shown in a status (the lowest shard indices).
const FAILURES_SHOWN: usize = 20;

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

struct SweepMem {
    record: SweepRecord,
    plan: Vec<ShardSpec>,
    /// Shard indices in the order they are handed out: largest estimate first,
    /// so the long shards do not end up last (shorter tail). While a sample
    /// limits the sweep, only the sampled shards.
    order: Vec<u32>,
    /// Positions of each done shard (0 while not done).
    work: Vec<u64>,
    /// Worker timings of the accepted results.
    timings: BTreeMap<u32, ShardTiming>,
    /// Reported failures of shards not done.
    failures: BTreeMap<u32, FailureRecord>,
    states: Vec<ShardState>,
    attempts: BTreeMap<u32, u32>,
    progress: HashMap<u32, u64>,
    merged: Output,
    results_stored: u32,
    duplicates_ignored: u64,
    /// Positions done when this process first saw the sweep, for the rate.
    base_work: u64,
    base_at: Instant,
}

impl SweepMem {
    fn done(&self) -> u32 {
        self.results_stored
    }
    fn finished(&self) -> bool {
        self.results_stored as usize == self.plan.len()
    }
    fn sample_done(&self) -> u32 {
        self.record.sample.as_ref().map_or(0, |smp| {
            smp.shards
                .iter()
                .filter(|&&i| self.states[i as usize] == ShardState::Done)
                .count() as u32
        })
    }
    /// A shard of the lease order is pending or leased (not done, not failed).
    fn open(&self) -> bool {
        self.order.iter().any(|&i| {
            matches!(
                self.states[i as usize],
                ShardState::Pending | ShardState::Leased(_)
            )
        })
    }
    /// Has shards a worker may be given now (or later, after leases expire).
    fn servable(&self) -> bool {
        self.record.state == SweepState::Running && self.open()
    }
    fn failed(&self) -> u32 {
        self.states
            .iter()
            .filter(|s| **s == ShardState::Failed)
            .count() as u32
    }
    fn stats(&self) -> SweepStats {
        SweepStats {
            duplicates_ignored: self.duplicates_ignored,
        }
    }
}

/// The lease order for a sweep: largest estimate first, over the sample
/// while one limits the sweep, else over the whole plan.
fn lease_order(plan: &[ShardSpec], record: &SweepRecord) -> Vec<u32> {
    let mut order: Vec<u32> = match record.sample.as_ref().filter(|s| s.limited) {
        Some(smp) => smp.shards.clone(),
        None => (0..plan.len() as u32).collect(),
    };
    order.sort_by_key(|&i| std::cmp::Reverse(plan[i as usize].estimate));
    order
}

struct WorkerMem {
    last_seen: Instant,
}

struct State {
    sweeps: BTreeMap<String, SweepMem>,
    workers: BTreeMap<String, WorkerMem>,
}

impl State {
    /// Note that `worker` was heard from.
    fn seen(&mut self, worker: &str) {
        self.workers.insert(
            worker.to_string(),
            WorkerMem {
                last_seen: Instant::now(),
            },
        );
    }

    /// The sweep and the state of its shard `index`, for a result or failure
    /// sent by a worker of solver `version` (which must be the sweep's).
    fn shard_of(
        &mut self,
        sweep_id: &str,
        index: u32,
        version: &str,
    ) -> Result<(&mut SweepMem, ShardState), CoreError> {
        let s = self
            .sweeps
            .get_mut(sweep_id)
            .ok_or_else(|| CoreError::NoSuchSweep(sweep_id.to_string()))?;
        if s.record.solver_version != version {
            warn!(
                worker_version = version,
                "refused a shard report from a different solver build"
            );
            return Err(CoreError::VersionMismatch {
                worker: version.to_string(),
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

/// One granted lease.
#[derive(Clone, Debug)]
pub struct Granted {
    /// The sweep.
    pub sweep_id: String,
    /// Its kind.
    pub kind: String,
    /// Its params.
    pub params: Params,
    /// The shard.
    pub shard: ShardSpec,
    /// Attempt number of this lease.
    pub attempt: u32,
}

/// Result of a lease request.
#[derive(Clone, Debug)]
pub struct LeaseOutcome {
    /// Leases granted (possibly none).
    pub leases: Vec<Granted>,
    /// No unfinished sweep exists.
    pub idle: bool,
}

/// A shard a worker says it holds.
#[derive(Clone, Debug)]
pub struct Held {
    /// The sweep.
    pub sweep_id: String,
    /// Shard index.
    pub index: u32,
    /// Attempt of the lease.
    pub attempt: u32,
    /// Positions done so far.
    pub progress: u64,
}

/// Group commit: many submits waiting for durability share one flush.
#[derive(Default)]
struct Committer {
    /// (commit requests so far, requests covered by a finished flush, a flush is running)
    state: Mutex<(u64, u64, bool)>,
    cv: std::sync::Condvar,
}

/// The coordinator.
pub struct Core {
    store: Arc<dyn Store>,
    committer: Committer,
    state: Mutex<State>,
    lease_ms: u64,
    version: String,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// (resident, peak resident) bytes of this process, from `/proc/self/status` (0 elsewhere).
fn process_memory() -> (u64, u64) {
    let Ok(text) = std::fs::read_to_string("/proc/self/status") else {
        return (0, 0);
    };
    let field = |name: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb * 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

impl Core {
    /// Load every sweep from `store` and resume them. Leases stored at crash
    /// time stay valid until they expire, so live workers keep their shards.
    pub fn open(store: Arc<dyn Store>, lease: Duration) -> Result<Self, CoreError> {
        let mut sweeps = BTreeMap::new();
        for StoredSweep {
            record,
            plan,
            results,
            leases,
            stats,
            timings,
            failures,
        } in store.load_all()?
        {
            let kind = kinds::find(&record.kind).map_err(|e| {
                CoreError::Store(StoreError::Corrupt(format!("sweep `{}`: {e}", record.id)))
            })?;
            let mut states = vec![ShardState::Pending; plan.len()];
            let mut work = vec![0u64; plan.len()];
            let mut merged = kind.empty();
            for (i, bytes) in results {
                let corrupt = |e: sweep::SweepError| {
                    CoreError::Store(StoreError::Corrupt(format!(
                        "result of shard {i} of `{}`: {e}",
                        record.id
                    )))
                };
                let r = kind.decode(&bytes).map_err(corrupt)?;
                states[i as usize] = ShardState::Done;
                work[i as usize] = r.work();
                merged.merge(r).map_err(corrupt)?;
            }
            if let Some(smp) = &record.sample {
                if smp.shards.iter().any(|&i| i as usize >= plan.len()) {
                    return Err(CoreError::Store(StoreError::Corrupt(format!(
                        "sample of `{}` names a shard beyond its plan",
                        record.id
                    ))));
                }
            }
            // Attempt numbers continue from the stored leases (a done shard's
            // lease is deleted; its attempts no longer matter).
            let attempts: BTreeMap<u32, u32> =
                leases.iter().map(|(&i, l)| (i, l.attempt)).collect();
            for (i, l) in leases {
                if let Some(s @ ShardState::Pending) = states.get_mut(i as usize) {
                    *s = ShardState::Leased(l);
                }
            }
            let failures: BTreeMap<u32, FailureRecord> = failures
                .into_iter()
                .filter(|(i, _)| (*i as usize) < plan.len())
                .collect();
            for (i, f) in &failures {
                if f.count >= MAX_FAILURES && states[*i as usize] != ShardState::Done {
                    states[*i as usize] = ShardState::Failed;
                }
            }
            let results_stored = states.iter().filter(|s| **s == ShardState::Done).count() as u32;
            info!(sweep = %record.id, done = results_stored, total = plan.len(), "resuming sweep");
            let order = lease_order(&plan, &record);
            let base_work = merged.work();
            sweeps.insert(
                record.id.clone(),
                SweepMem {
                    record,
                    plan,
                    order,
                    work,
                    timings,
                    failures,
                    states,
                    attempts,
                    progress: HashMap::new(),
                    merged,
                    results_stored,
                    duplicates_ignored: stats.duplicates_ignored,
                    base_work,
                    base_at: Instant::now(),
                },
            );
        }
        Ok(Core {
            store,
            committer: Committer::default(),
            state: Mutex::new(State {
                sweeps,
                workers: BTreeMap::new(),
            }),
            lease_ms: lease.as_millis().max(1) as u64,
            version: solver_version(),
        })
    }

    /// Lease length in milliseconds.
    pub fn lease_ms(&self) -> u64 {
        self.lease_ms
    }

    /// This coordinator's solver version.
    pub fn version(&self) -> &str {
        &self.version
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock would be a bug; keep serving the
        // state as it is rather than poisoning every later request.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Plan and store a new sweep (or, with `resume_existing`, return the
    /// existing one of that name if it has the same kind and params).
    /// With `sample`, only a seeded random sample of the plan is handed out
    /// until the sweep is resumed without one (see [`crate::sample`]).
    /// Returns (id, shard count, existing?, the sweep's solver version).
    pub fn launch(
        &self,
        kind_name: &str,
        given: &Params,
        name: Option<&str>,
        target_shards: u32,
        resume_existing: bool,
        sample: Option<SampleRequest>,
    ) -> Result<(String, u32, bool, String), CoreError> {
        let kind = kinds::find(kind_name).map_err(|e| CoreError::BadRequest(e.to_string()))?;
        let params =
            kind.resolve_params(given).map_err(|e| CoreError::BadRequest(e.to_string()))?;
        if let Some(smp) = sample {
            if !(1..=1_000_000).contains(&smp.ppm) {
                return Err(CoreError::BadRequest(format!(
                    "sample size {} ppm is out of range: 1..=1000000 millionths of the plan",
                    smp.ppm
                )));
            }
        }
        if let Some(n) = name {
            if !valid_id(n) {
                return Err(CoreError::BadRequest(format!(
                    "bad sweep name `{n}`: use 1-128 letters, digits, `-`, `_` or `.`"
                )));
            }
            let mut st = self.lock();
            if let Some(s) = st.sweeps.get_mut(n) {
                if resume_existing && s.record.kind == kind_name && s.record.params == params {
                    self.resume_sample(s, sample)?;
                    self.retry_failed(s)?;
                    return Ok((
                        n.to_string(),
                        s.plan.len() as u32,
                        true,
                        s.record.solver_version.clone(),
                    ));
                }
                return Err(CoreError::Exists(n.to_string()));
            }
        }
        // Planning may take a moment; do it outside the lock.
        let plan = kind
            .plan(&params, target_shards)
            .map_err(|e| CoreError::BadRequest(e.to_string()))?;
        if plan.is_empty() || plan.iter().enumerate().any(|(i, s)| s.index as usize != i) {
            return Err(CoreError::BadRequest(format!(
                "sweep kind `{kind_name}` produced an invalid plan ({} shards)",
                plan.len()
            )));
        }
        let mut st = self.lock();
        let seq = self.store.next_seq()?;
        let id = match name {
            Some(n) => n.to_string(),
            None => {
                let mut i = st.sweeps.len() + 1;
                loop {
                    let cand = format!("{kind_name}-{i}");
                    if !st.sweeps.contains_key(&cand) {
                        break cand;
                    }
                    i += 1;
                }
            }
        };
        if st.sweeps.contains_key(&id) {
            return Err(CoreError::Exists(id));
        }
        let record = SweepRecord {
            id: id.clone(),
            kind: kind_name.to_string(),
            params,
            solver_version: self.version.clone(),
            target_shards,
            seq,
            state: SweepState::Running,
            sample: sample.map(|smp| SampleRecord {
                ppm: smp.ppm,
                seed: smp.seed,
                shards: crate::sample::choose(&plan, smp.ppm, smp.seed),
                limited: true,
            }),
        };
        self.store.create_sweep(&record, &plan)?;
        info!(
            sweep = %id,
            kind = kind_name,
            shards = plan.len(),
            sampled = record.sample.as_ref().map_or(0, |s| s.shards.len()),
            "launched sweep"
        );
        let n = plan.len();
        let order = lease_order(&plan, &record);
        st.sweeps.insert(
            id.clone(),
            SweepMem {
                record,
                plan,
                order,
                work: vec![0; n],
                timings: BTreeMap::new(),
                failures: BTreeMap::new(),
                states: vec![ShardState::Pending; n],
                attempts: BTreeMap::new(),
                progress: HashMap::new(),
                merged: kind.empty(),
                results_stored: 0,
                duplicates_ignored: 0,
                base_work: 0,
                base_at: Instant::now(),
            },
        );
        Ok((id, n as u32, false, self.version.clone()))
    }

    /// Reconcile a resumed sweep's sample with the one asked for: the same
    /// sample resumes; no sample widens a sampled sweep to its whole plan.
    fn resume_sample(
        &self,
        s: &mut SweepMem,
        asked: Option<SampleRequest>,
    ) -> Result<(), CoreError> {
        let id = &s.record.id;
        match (&mut s.record.sample, asked) {
            (None, None) => Ok(()),
            (Some(have), Some(want)) if have.ppm == want.ppm && have.seed == want.seed => Ok(()),
            (Some(have), None) => {
                if have.limited {
                    have.limited = false;
                    self.store.update_sweep(&s.record)?;
                    s.order = lease_order(&s.plan, &s.record);
                    info!(sweep = %id, "sample widened to the whole plan");
                }
                Ok(())
            }
            (Some(have), Some(want)) => Err(CoreError::BadRequest(format!(
                "sweep `{id}` was launched with another sample ({} ppm, seed {}); asked for {} ppm, seed {}: resume it without --sample to run the whole plan, or use another name",
                have.ppm, have.seed, want.ppm, want.seed
            ))),
            (None, Some(_)) => Err(CoreError::BadRequest(format!(
                "sweep `{id}` runs its whole plan already; a sample of it would measure nothing new: use another name for a sampled sweep"
            ))),
        }
    }

    /// Give every failed shard of a resumed sweep new tries.
    fn retry_failed(&self, s: &mut SweepMem) -> Result<(), CoreError> {
        for (i, state) in s.states.iter_mut().enumerate() {
            if *state == ShardState::Failed {
                *state = ShardState::Pending;
                s.failures.remove(&(i as u32));
                self.store.put_failure(&s.record.id, i as u32, None)?;
                info!(sweep = %s.record.id, shard = i, "failed shard gets new tries");
            }
        }
        Ok(())
    }

    /// Lease up to `max` shards to `worker`. Expired leases count as pending.
    /// A worker whose version matches no unfinished sweep is refused.
    pub fn lease(&self, worker: &str, version: &str, max: u32) -> Result<LeaseOutcome, CoreError> {
        let span = info_span!("lease", worker = %worker);
        let _g = span.enter();
        let now = now_ms();
        let mut st = self.lock();
        st.seen(worker);
        let mut out = Vec::new();
        let mut unfinished = 0;
        let mut mismatch: Option<(String, String)> = None;
        for s in st.sweeps.values_mut() {
            if !s.servable() {
                continue;
            }
            unfinished += 1;
            if s.record.solver_version != version {
                mismatch.get_or_insert((s.record.id.clone(), s.record.solver_version.clone()));
                continue;
            }
            for oi in 0..s.order.len() {
                if out.len() as u32 >= max {
                    break;
                }
                let i = s.order[oi];
                let free = match &s.states[i as usize] {
                    ShardState::Pending => true,
                    ShardState::Leased(l) => l.until_ms <= now,
                    ShardState::Done | ShardState::Failed => false,
                };
                if !free {
                    continue;
                }
                let attempt = {
                    let a = s.attempts.entry(i).or_insert(0);
                    *a += 1;
                    *a
                };
                let lease = LeaseRecord {
                    worker: worker.to_string(),
                    until_ms: now + self.lease_ms,
                    attempt,
                };
                if let ShardState::Leased(old) = &s.states[i as usize] {
                    warn!(sweep = %s.record.id, shard = i, old_worker = %old.worker, "lease expired; re-issuing");
                }
                self.store.put_lease(&s.record.id, i, Some(&lease))?;
                s.states[i as usize] = ShardState::Leased(lease);
                s.progress.remove(&i);
                debug!(sweep = %s.record.id, shard = i, attempt, "leased");
                out.push(Granted {
                    sweep_id: s.record.id.clone(),
                    kind: s.record.kind.clone(),
                    params: s.record.params.clone(),
                    shard: s.plan[i as usize].clone(),
                    attempt,
                });
            }
            if out.len() as u32 >= max {
                break;
            }
        }
        if out.is_empty() {
            if let Some((sweep, sweep_version)) = mismatch {
                // Only refuse if no sweep this worker could ever serve is unfinished.
                let servable = st
                    .sweeps
                    .values()
                    .any(|s| s.servable() && s.record.solver_version == version);
                if !servable {
                    return Err(CoreError::VersionMismatch {
                        worker: version.to_string(),
                        sweep,
                        sweep_version,
                    });
                }
            }
        }
        Ok(LeaseOutcome {
            leases: out,
            idle: unfinished == 0,
        })
    }

    /// Extend the leases `worker` holds; returns, per held shard, whether it
    /// is still the worker's. A shard that went back to pending (e.g. its
    /// lease record was lost in a coordinator crash) is granted back.
    pub fn renew(&self, worker: &str, held: &[Held]) -> Result<Vec<bool>, CoreError> {
        let now = now_ms();
        let mut st = self.lock();
        st.seen(worker);
        let mut out = Vec::with_capacity(held.len());
        for h in held {
            let Some(s) = st.sweeps.get_mut(&h.sweep_id) else {
                out.push(false);
                continue;
            };
            let running = s.record.state == SweepState::Running;
            let keep = match s.states.get(h.index as usize) {
                Some(ShardState::Leased(l)) => {
                    running && l.worker == worker && l.attempt == h.attempt
                }
                Some(ShardState::Pending) => running,
                _ => false,
            };
            if keep {
                let lease = LeaseRecord {
                    worker: worker.to_string(),
                    until_ms: now + self.lease_ms,
                    attempt: h.attempt,
                };
                self.store.put_lease(&h.sweep_id, h.index, Some(&lease))?;
                s.states[h.index as usize] = ShardState::Leased(lease);
                s.progress.insert(h.index, h.progress);
            }
            out.push(keep);
        }
        Ok(out)
    }

    /// Record shard `index`'s result (and how long it took, if the worker
    /// said) unless the shard is done already. Returns whether it was
    /// accepted. The caller must [`Core::flush`] before acknowledging an
    /// accepted result.
    #[allow(clippy::too_many_arguments)]
    pub fn submit(
        &self,
        worker: &str,
        version: &str,
        sweep_id: &str,
        index: u32,
        attempt: u32,
        result: Output,
        timing: Option<(u64, u64)>,
    ) -> Result<bool, CoreError> {
        let span = info_span!("submit", sweep = %sweep_id, shard = index, worker = %worker);
        let _g = span.enter();
        let mut st = self.lock();
        st.seen(worker);
        let (s, state) = st.shard_of(sweep_id, index, version)?;
        if result.kind() != s.record.kind {
            return Err(CoreError::BadRequest(format!(
                "a `{}` result submitted for sweep `{sweep_id}` of kind `{}`",
                result.kind(),
                s.record.kind
            )));
        }
        let timing = timing.map(|(wall_us, cpu_us)| ShardTiming {
            wall_us,
            cpu_us,
            worker: worker.to_string(),
        });
        if matches!(state, ShardState::Done | ShardState::Failed)
            || !self
                .store
                .put_result(sweep_id, index, &result.encode(), timing.as_ref())?
        {
            s.duplicates_ignored += 1;
            self.store.put_stats(sweep_id, &s.stats())?;
            info!(attempt, "duplicate or late result ignored");
            return Ok(false);
        }
        if let ShardState::Leased(l) = &state {
            if l.worker != worker || l.attempt != attempt {
                info!(attempt, holder = %l.worker, "late result accepted (shard not done yet)");
            }
        }
        self.store.put_lease(sweep_id, index, None)?;
        s.states[index as usize] = ShardState::Done;
        s.progress.remove(&index);
        if s.failures.remove(&index).is_some() {
            self.store.put_failure(sweep_id, index, None)?;
        }
        s.work[index as usize] = result.work();
        if let Some(t) = timing {
            s.timings.insert(index, t);
        }
        s.merged
            .merge(result)
            .map_err(|e| CoreError::BadRequest(e.to_string()))?;
        s.results_stored += 1;
        debug!(
            done = s.results_stored,
            total = s.plan.len(),
            "result accepted"
        );
        if s.finished() {
            info!(sweep = %sweep_id, "sweep finished");
        }
        Ok(true)
    }

    /// Record that `worker` could not run shard `index` (`error`: why).
    /// The shard goes back to pending, or is set aside after
    /// [`MAX_FAILURES`] failures. Returns (failures so far, set aside?).
    #[allow(clippy::too_many_arguments)]
    pub fn fail(
        &self,
        worker: &str,
        version: &str,
        sweep_id: &str,
        index: u32,
        attempt: u32,
        error: &str,
    ) -> Result<(u32, bool), CoreError> {
        let mut st = self.lock();
        st.seen(worker);
        let (s, state) = st.shard_of(sweep_id, index, version)?;
        let count = s.failures.get(&index).map_or(0, |f| f.count);
        match state {
            ShardState::Done => return Ok((count, false)),
            ShardState::Failed => return Ok((count, true)),
            ShardState::Pending | ShardState::Leased(_) => {}
        }
        // One line, bounded: it is stored and shown in status.
        let mut line: String = error.split_whitespace().collect::<Vec<_>>().join(" ");
        if line.len() > 500 {
            let mut cut = 500;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line.truncate(cut);
            line.push('…');
        }
        let rec = FailureRecord {
            count: count + 1,
            error: line,
            worker: worker.to_string(),
        };
        self.store.put_failure(sweep_id, index, Some(&rec))?;
        self.store.put_lease(sweep_id, index, None)?;
        let set_aside = rec.count >= MAX_FAILURES;
        warn!(sweep = %sweep_id, shard = index, attempt, failures = rec.count, set_aside, error = %rec.error, "shard failed");
        s.states[index as usize] = if set_aside {
            ShardState::Failed
        } else {
            ShardState::Pending
        };
        s.progress.remove(&index);
        s.failures.insert(index, rec.clone());
        Ok((rec.count, set_aside))
    }

    /// Make everything accepted so far durable. Concurrent callers share
    /// flushes: a caller whose writes are covered by a flush that started
    /// after its request waits for that flush instead of issuing another.
    pub fn flush(&self) -> Result<(), CoreError> {
        let c = &self.committer;
        let mut st = c.state.lock().unwrap_or_else(|e| e.into_inner());
        st.0 += 1;
        let mine = st.0;
        loop {
            if st.1 >= mine {
                return Ok(());
            }
            if !st.2 {
                // Lead a flush covering every request made so far (ours included).
                st.2 = true;
                let target = st.0;
                drop(st);
                let res = self.store.flush();
                st = c.state.lock().unwrap_or_else(|e| e.into_inner());
                st.2 = false;
                if res.is_ok() {
                    st.1 = st.1.max(target);
                }
                c.cv.notify_all();
                return Ok(res?);
            }
            st = c.cv.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Stop handing out a sweep's shards.
    pub fn cancel(&self, sweep_id: &str) -> Result<(), CoreError> {
        let mut st = self.lock();
        let s = st
            .sweeps
            .get_mut(sweep_id)
            .ok_or_else(|| CoreError::NoSuchSweep(sweep_id.to_string()))?;
        s.record.state = SweepState::Cancelled;
        self.store.update_sweep(&s.record)?;
        info!(sweep = %sweep_id, "cancelled");
        Ok(())
    }

    /// Forget a sweep entirely (used by `run --fresh`).
    pub fn delete(&self, sweep_id: &str) -> Result<(), CoreError> {
        let mut st = self.lock();
        st.sweeps.remove(sweep_id);
        self.store.delete_sweep(sweep_id)?;
        Ok(())
    }

    /// Status of one sweep or all, and the workers seen.
    pub fn status(
        &self,
        sweep_id: Option<&str>,
    ) -> Result<(Vec<SweepStatus>, Vec<WorkerStatus>), CoreError> {
        let now = now_ms();
        let st = self.lock();
        let mut out = Vec::new();
        let mut held_by: BTreeMap<&str, u32> = BTreeMap::new();
        for s in st.sweeps.values() {
            for state in &s.states {
                if let ShardState::Leased(l) = state {
                    if l.until_ms > now {
                        *held_by.entry(l.worker.as_str()).or_insert(0) += 1;
                    }
                }
            }
        }
        for s in st.sweeps.values() {
            if sweep_id.is_some_and(|id| id != s.record.id) {
                continue;
            }
            let (mut pending, mut leased, mut inflight) = (0u32, 0u32, 0u64);
            for (i, state) in s.states.iter().enumerate() {
                match state {
                    ShardState::Pending => pending += 1,
                    ShardState::Leased(l) if l.until_ms > now => {
                        leased += 1;
                        inflight += s.progress.get(&(i as u32)).copied().unwrap_or(0);
                    }
                    ShardState::Leased(_) => pending += 1,
                    ShardState::Done | ShardState::Failed => {}
                }
            }
            let positions_done = s.merged.work() + inflight;
            let estimate: u64 = s.plan.iter().map(|p| p.estimate).sum();
            let sample = s.record.sample.as_ref().map(|smp| SampleStatus {
                ppm: smp.ppm,
                seed: smp.seed,
                shards: smp.shards.len() as u32,
                done: s.sample_done(),
                limited: smp.limited,
                estimate: smp
                    .shards
                    .iter()
                    .map(|&i| s.plan[i as usize].estimate)
                    .sum(),
            });
            // While a sample limits the sweep, progress is toward the sample.
            let target = match &sample {
                Some(smp) if smp.limited => smp.estimate,
                _ => estimate,
            };
            let secs = s.base_at.elapsed().as_secs_f64();
            let rate = if secs > 0.5 {
                positions_done.saturating_sub(s.base_work) as f64 / secs
            } else {
                0.0
            };
            let sampled = sample
                .as_ref()
                .is_some_and(|smp| smp.limited && smp.done == smp.shards);
            let shards_failed = s.failed();
            use gamesweep_proto::domain::SweepState as Shown;
            let state = if s.finished() {
                Shown::Done
            } else if s.record.state == SweepState::Cancelled {
                Shown::Cancelled
            } else if shards_failed > 0 && !s.open() {
                Shown::Failed
            } else if sampled {
                Shown::Sampled
            } else {
                Shown::Running
            };
            let eta_seconds = if s.finished() || sampled {
                Some(0.0)
            } else if target > 0 && rate > 0.0 {
                Some(target.saturating_sub(positions_done) as f64 / rate)
            } else {
                None
            };
            out.push(SweepStatus {
                sweep_id: s.record.id.clone(),
                kind: s.record.kind.clone(),
                params: s.record.params.clone(),
                solver_version: s.record.solver_version.clone(),
                state,
                shards_total: s.plan.len() as u32,
                shards_pending: pending,
                shards_leased: leased,
                shards_done: s.done(),
                results_stored: s.results_stored,
                positions_done,
                positions_estimate: estimate,
                rate,
                eta_seconds,
                counterexamples: s.merged.counterexamples().into_iter().collect(),
                duplicates_ignored: s.duplicates_ignored,
                sample,
                shards_failed,
                failures: s
                    .failures
                    .iter()
                    .take(FAILURES_SHOWN)
                    .map(|(&index, f)| ShardFailureStatus {
                        index,
                        count: f.count,
                        error: f.error.clone(),
                        worker_id: f.worker.clone(),
                    })
                    .collect(),
            });
        }
        if let Some(id) = sweep_id {
            if out.is_empty() {
                return Err(CoreError::NoSuchSweep(id.to_string()));
            }
        }
        let workers = st
            .workers
            .iter()
            .map(|(id, w)| {
                let ago = w.last_seen.elapsed().as_millis() as u64;
                WorkerStatus {
                    worker_id: id.clone(),
                    last_seen_ms_ago: ago,
                    shards_held: held_by.get(id.as_str()).copied().unwrap_or(0),
                    alive: ago < 3 * self.lease_ms,
                }
            })
            .collect();
        Ok((out, workers))
    }

    /// Decode a submitted result with the kind of sweep `sweep_id`; bytes
    /// that are not that kind's result are a bad request.
    pub fn decode_result(&self, sweep_id: &str, bytes: &[u8]) -> Result<Output, CoreError> {
        let kind_name = {
            let st = self.lock();
            st.sweeps
                .get(sweep_id)
                .ok_or_else(|| CoreError::NoSuchSweep(sweep_id.to_string()))?
                .record
                .kind
                .clone()
        };
        let kind = kinds::find(&kind_name).map_err(|e| CoreError::BadRequest(e.to_string()))?;
        kind.decode(bytes)
            .map_err(|e| CoreError::BadRequest(format!("shard result for `{sweep_id}`: {e}")))
    }

    /// The merged result of a finished sweep, with its kind and params.
    pub fn merged(&self, sweep_id: &str) -> Result<(String, Params, Output), CoreError> {
        let st = self.lock();
        let s = st
            .sweeps
            .get(sweep_id)
            .ok_or_else(|| CoreError::NoSuchSweep(sweep_id.to_string()))?;
        if !s.finished() && !s.open() && s.failed() > 0 {
            let (first, f) = s
                .failures
                .iter()
                .find(|(i, _)| s.states[**i as usize] == ShardState::Failed)
                .map(|(i, f)| (*i, f.error.clone()))
                .unwrap_or_default();
            return Err(CoreError::Failed {
                id: sweep_id.to_string(),
                failed: s.failed(),
                max: MAX_FAILURES,
                first,
                error: f,
            });
        }
        if !s.finished() {
            return Err(CoreError::NotFinished {
                id: sweep_id.to_string(),
                done: s.done(),
                total: s.plan.len() as u32,
            });
        }
        Ok((
            s.record.kind.clone(),
            s.record.params.clone(),
            s.merged.clone(),
        ))
    }

    /// Project a sampled sweep's whole cost from its done sampled shards,
    /// with wall times for each of `cores` (see [`crate::projection`]).
    pub fn projection(&self, sweep_id: &str, cores: &[u32]) -> Result<Projection, CoreError> {
        let st = self.lock();
        let s = st
            .sweeps
            .get(sweep_id)
            .ok_or_else(|| CoreError::NoSuchSweep(sweep_id.to_string()))?;
        let Some(sample) = &s.record.sample else {
            return Err(CoreError::BadRequest(format!(
                "sweep `{sweep_id}` was launched without --sample: a projection needs a random sample of shards (launch one with `--sample 0.5% --sample-seed N`)"
            )));
        };
        let work: BTreeMap<u32, u64> = sample
            .shards
            .iter()
            .filter(|&&i| s.states[i as usize] == ShardState::Done)
            .map(|&i| (i, s.work[i as usize]))
            .collect();
        let facts = SweepFacts {
            sweep_id,
            kind: &s.record.kind,
            params: &s.record.params,
            plan: &s.plan,
            sample,
            work: &work,
            timings: &s.timings,
        };
        projection::project(&facts, cores).map_err(CoreError::BadRequest)
    }

    /// Bytes of the store on disk, and this process's resident and peak
    /// resident memory (0 where unknown).
    pub fn resources(&self) -> (u64, u64, u64) {
        let (rss, peak) = process_memory();
        (self.store.size_on_disk(), rss, peak)
    }

    /// The solver version a stored sweep was launched with, if it exists.
    pub fn sweep_version(&self, sweep_id: &str) -> Option<String> {
        self.lock()
            .sweeps
            .get(sweep_id)
            .map(|s| s.record.solver_version.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SledStore;
    use gamesweep_proto::domain::SweepState as Shown;

    fn core(dir: &std::path::Path, lease: Duration) -> Core {
        Core::open(Arc::new(SledStore::open(dir).unwrap()), lease).unwrap()
    }

    fn run(g: &Granted) -> Output {
        let kind = gamesweep::kinds::find(&g.kind).unwrap();
        kind.run_shard(&g.params, &g.shard, &sweep::ShardCtx::detached())
            .unwrap()
    }

    #[test]
    fn expired_leases_are_reissued_and_results_accepted_once() {
        let dir = tempfile::tempdir().unwrap();
        let c = core(dir.path(), Duration::from_millis(50));
        let v = solver_version();
        let params: Params = [("max_n".to_string(), 5)].into();
        let (id, n, existing, _) = c.launch("uvg", &params, Some("s"), 3, false, None).unwrap();
        assert!(!existing);
        let all = c.lease("a", &v, 100).unwrap().leases;
        assert_eq!(all.len() as u32, n);
        assert!(c.lease("b", &v, 1).unwrap().leases.is_empty(), "all leased");
        std::thread::sleep(Duration::from_millis(80));
        // a's leases expired: b gets the first one again, with attempt 2.
        let again = c.lease("b", &v, 1).unwrap().leases;
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].attempt, 2);
        let idx = again[0].shard.index;
        let held = |w: &str, a: u32| {
            c.renew(
                w,
                &[Held {
                    sweep_id: id.clone(),
                    index: idx,
                    attempt: a,
                    progress: 0,
                }],
            )
            .unwrap()[0]
        };
        assert!(!held("a", 1), "a lost the shard to b");
        assert!(held("b", 2));
        let r = run(&again[0]);
        // a's late result arrives first: accepted (not done yet); b's is a duplicate.
        assert!(c.submit("a", &v, &id, idx, 1, r.clone(), None).unwrap());
        assert!(!c.submit("b", &v, &id, idx, 2, r, None).unwrap());
        for g in all.iter().filter(|g| g.shard.index != idx) {
            assert!(c
                .submit("a", &v, &id, g.shard.index, g.attempt, run(g), None)
                .unwrap());
        }
        let (st, _) = c.status(Some(&id)).unwrap();
        assert_eq!(st[0].state, Shown::Done);
        assert_eq!(st[0].duplicates_ignored, 1);
        assert_eq!(st[0].results_stored, n);
        // The merged result equals the sequential one, and survives a reopen.
        let kind = gamesweep::kinds::find("uvg").unwrap();
        let resolved = kind.resolve_params(&params).unwrap();
        let plan = kind.plan(&resolved, 3).unwrap();
        let want = sweep::run_all_sequential(kind, &resolved, &plan).unwrap();
        assert_eq!(c.merged(&id).unwrap().2, want);
        c.flush().unwrap();
        drop(c);
        let c = core(dir.path(), Duration::from_millis(50));
        assert_eq!(c.merged(&id).unwrap().2, want);
        assert!(c.lease("a", &v, 5).unwrap().idle);
    }

    /// A sampled sweep serves only its sample, projects from it, and widened
    /// to the whole plan merges exactly the sequential result.
    #[test]
    fn sampled_sweeps_serve_the_sample_then_widen() {
        let dir = tempfile::tempdir().unwrap();
        let c = core(dir.path(), Duration::from_secs(30));
        let v = solver_version();
        let params: Params = [("max_n".to_string(), 8)].into();
        let smp = SampleRequest {
            ppm: 100_000,
            seed: 9,
        };
        let (id, n, ..) = c
            .launch("uvg", &params, Some("s"), 40, false, Some(smp))
            .unwrap();
        let (st, _) = c.status(Some(&id)).unwrap();
        let info = st[0].sample.clone().unwrap();
        assert!(info.limited && info.shards >= 1 && info.shards < n / 2);
        assert!(
            info.estimate * 10 >= st[0].positions_estimate,
            "≥ 10 % of the estimate"
        );
        assert!(
            matches!(c.projection(&id, &[2]), Err(CoreError::BadRequest(_))),
            "nothing done yet"
        );
        // Only the sample is handed out, however much is asked for.
        let got = c.lease("w", &v, 1000).unwrap().leases;
        assert_eq!(got.len() as u32, info.shards);
        for g in &got {
            assert!(c
                .submit(
                    "w",
                    &v,
                    &id,
                    g.shard.index,
                    g.attempt,
                    run(g),
                    Some((2_000, 1_000))
                )
                .unwrap());
        }
        let (st, _) = c.status(Some(&id)).unwrap();
        assert_eq!(st[0].state, Shown::Sampled);
        let out = c.lease("w", &v, 1000).unwrap();
        assert!(
            out.leases.is_empty() && out.idle,
            "a finished sample is idle"
        );
        let p = c.projection(&id, &[1, 64]).unwrap();
        assert_eq!(p.measured.shards, info.shards);
        assert_eq!(p.measured.positions, st[0].positions_done);
        assert!((p.measured.cpu_seconds - info.shards as f64 * 1e-3).abs() < 1e-9);
        // The same sample resumes; another one is refused; none widens.
        assert!(
            c.launch("uvg", &params, Some("s"), 0, true, Some(smp))
                .unwrap()
                .2
        );
        let other = SampleRequest { seed: 10, ..smp };
        assert!(matches!(
            c.launch("uvg", &params, Some("s"), 0, true, Some(other)),
            Err(CoreError::BadRequest(_))
        ));
        drop(c);
        let c = core(dir.path(), Duration::from_secs(30));
        assert_eq!(
            c.status(Some(&id)).unwrap().0[0].state,
            Shown::Sampled,
            "survives a restart"
        );
        assert_eq!(
            c.projection(&id, &[1]).unwrap().measured.shards,
            info.shards
        );
        assert!(
            c.launch("uvg", &params, Some("s"), 0, true, None)
                .unwrap()
                .2
        );
        let rest = c.lease("w", &v, 1000).unwrap().leases;
        assert_eq!(
            rest.len() as u32,
            n - info.shards,
            "widened: the rest of the plan"
        );
        for g in &rest {
            assert!(c
                .submit("w", &v, &id, g.shard.index, g.attempt, run(g), None)
                .unwrap());
        }
        let kind = gamesweep::kinds::find("uvg").unwrap();
        let resolved = kind.resolve_params(&params).unwrap();
        let want =
            sweep::run_all_sequential(kind, &resolved, &kind.plan(&resolved, 1).unwrap()).unwrap();
        assert_eq!(c.merged(&id).unwrap().2, want);
        assert_eq!(c.status(Some(&id)).unwrap().0[0].state, Shown::Done);
    }

    /// A shard that keeps failing is retried, then set aside; the sweep says
    /// so instead of handing it out forever; resuming gives it new tries.
    #[test]
    fn failing_shards_are_set_aside_and_retried_on_resume() {
        let dir = tempfile::tempdir().unwrap();
        let c = core(dir.path(), Duration::from_secs(30));
        let v = solver_version();
        let params: Params = [("max_n".to_string(), 6)].into();
        let (id, n, ..) = c.launch("uvg", &params, Some("f"), 3, false, None).unwrap();
        // Everything but one shard succeeds.
        let all = c.lease("w", &v, 100).unwrap().leases;
        let bad = all[0].shard.index;
        for g in &all[1..] {
            assert!(c
                .submit("w", &v, &id, g.shard.index, g.attempt, run(g), None)
                .unwrap());
        }
        let mut attempt = all[0].attempt;
        for k in 1..=MAX_FAILURES {
            let (count, aside) = c
                .fail("w", &v, &id, bad, attempt, "boom\nat line 2")
                .unwrap();
            assert_eq!((count, aside), (k, k == MAX_FAILURES));
            let again = c.lease("w", &v, 100).unwrap();
            if k < MAX_FAILURES {
                assert_eq!(again.leases.len(), 1, "retried at once");
                attempt = again.leases[0].attempt;
            } else {
                assert!(
                    again.leases.is_empty() && again.idle,
                    "set aside, nothing to serve"
                );
            }
        }
        let (st, _) = c.status(Some(&id)).unwrap();
        assert_eq!((st[0].state, st[0].shards_failed), (Shown::Failed, 1));
        assert_eq!(st[0].failures[0].error, "boom at line 2", "one line");
        assert!(matches!(
            c.merged(&id),
            Err(CoreError::Failed { failed: 1, .. })
        ));
        // A late result for a set-aside shard is not merged.
        assert!(!c
            .submit("w", &v, &id, bad, attempt, run(&all[0]), None)
            .unwrap());
        drop(c);
        let c = core(dir.path(), Duration::from_secs(30));
        assert_eq!(
            c.status(Some(&id)).unwrap().0[0].state,
            Shown::Failed,
            "survives a restart"
        );
        // Resuming retries it; this time it works.
        assert!(
            c.launch("uvg", &params, Some("f"), 0, true, None)
                .unwrap()
                .2
        );
        let g = c.lease("w", &v, 100).unwrap().leases;
        assert_eq!(g.len(), 1);
        assert!(c
            .submit("w", &v, &id, bad, g[0].attempt, run(&g[0]), None)
            .unwrap());
        let (st, _) = c.status(Some(&id)).unwrap();
        assert_eq!((st[0].state, st[0].results_stored), (Shown::Done, n));
        assert!(st[0].failures.is_empty());
    }

    #[test]
    fn launch_rejects_bad_requests() {
        let dir = tempfile::tempdir().unwrap();
        let c = core(dir.path(), Duration::from_secs(1));
        let p: Params = [("max_n".to_string(), 99)].into();
        assert!(matches!(
            c.launch("uvg", &p, None, 0, false, None),
            Err(CoreError::BadRequest(_))
        ));
        assert!(matches!(
            c.launch("nope", &Params::new(), None, 0, false, None),
            Err(CoreError::BadRequest(_))
        ));
        let p: Params = [("max_n".to_string(), 4)].into();
        assert!(matches!(
            c.launch("uvg", &p, Some("bad name!"), 0, false, None),
            Err(CoreError::BadRequest(_))
        ));
        let (id, ..) = c.launch("uvg", &p, None, 0, false, None).unwrap();
        assert_eq!(id, "uvg-1");
        assert!(matches!(
            c.launch("uvg", &p, Some("uvg-1"), 0, false, None),
            Err(CoreError::Exists(_))
        ));
        assert!(c.launch("uvg", &p, Some("uvg-1"), 0, true, None).unwrap().2);
        assert!(matches!(
            c.submit("w", "other", &id, 0, 1, kinds::find("uvg").unwrap().empty(), None),
            Err(CoreError::VersionMismatch { .. })
        ));
    }
}
