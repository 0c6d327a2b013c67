//! Status: what `gamesweep status` shows about sweeps, workers and the
//! coordinator process, computed from the state at one instant.

use super::memory::ProcessMemory;
use super::model::{CoreError, ShardState, State, Sweep};
use super::Core;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// Failure records shown in a status (the lowest shard indices).
const FAILURES_SHOWN: usize = 20;

use super::model::Events;
pub use gamesweep_api::domain::{
    IdentityLimit, Overview, SampleStatus, ShardFailureStatus, SweepState as ShownState,
    SweepStatus, WorkerStatus,
};

/// What the coordinator process uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// Bytes of the store on disk (0 if unknown).
    pub store_bytes: u64,
    /// This process's memory.
    pub memory: ProcessMemory,
}

/// What every sweep's status needs besides the sweep, at one instant.
struct At<'a> {
    /// Now.
    now: Instant,
    /// Now, in Unix milliseconds.
    now_ms: u64,
    /// The workers around to take a verification copy (`replication::around`).
    around: &'a BTreeSet<String>,
    /// The wait for a second identity before a skip, in milliseconds.
    window_ms: u64,
}

/// Status of sweep `s` at `at`. It costs O(leases held), not O(shards):
/// the counts by state are maintained (`Tally`), only the leases are
/// looked at for expiry and progress (and, for a sweep whose shards are
/// all done, its open verifications).
fn sweep_status(s: &Sweep, at: &At<'_>) -> SweepStatus {
    let (now, now_ms) = (at.now, at.now_ms);
    debug_assert_eq!(
        s.tally,
        s.scan(),
        "maintained shard counts of {}",
        s.record.id
    );
    let (mut leased, mut inflight) = (0u32, 0u64);
    for (i, _) in s.held(now_ms) {
        leased += 1;
        inflight = inflight.saturating_add(s.progress.get(&i).copied().unwrap_or(0));
    }
    // Pending: the rest, expired leases included.
    let pending = (s.plan.len() as u32)
        .saturating_sub(s.tally.done)
        .saturating_sub(s.tally.failed)
        .saturating_sub(leased);
    let positions_done = s.merged.work().saturating_add(inflight);
    let (estimate, sample_estimate) = s.estimate;
    let sample = s.record.sample.as_ref().map(|smp| SampleStatus {
        ppm: smp.ppm,
        seed: smp.seed,
        shards: smp.shards.len() as u32,
        done: s.sample_done(),
        limited: smp.limited,
        estimate: sample_estimate,
    });
    let sampled = sample
        .as_ref()
        .is_some_and(|smp| smp.limited && smp.done == smp.shards);
    let shards_failed = s.failed();
    let state = if s.finished() {
        ShownState::Done
    } else if s.record.state == crate::store::SweepState::Cancelled {
        ShownState::Cancelled
    } else if shards_failed > 0 && !s.open() {
        ShownState::Failed
    } else if sampled {
        ShownState::Sampled
    } else if s.record.paused {
        ShownState::Paused
    } else {
        ShownState::Running
    };
    let projection = Projection::of(s);
    // While a sample limits the sweep, progress is toward the sample.
    let projected_target = match sample.as_ref().filter(|smp| smp.limited) {
        Some(_) => s.record.sample.as_ref().map_or(0, |smp| {
            smp.shards
                .iter()
                .fold(0u64, |sum, &i| sum.saturating_add(projection.shard(s, i)))
        }),
        None => projection.total,
    };
    // Every shard done, the sweep waits for verifications (if running).
    let all_done = s.results_stored as usize == s.plan.len();
    // Only a running sweep has a rate and an ETA: a done, cancelled,
    // failed, sampled or paused one is not moving, nor one whose shards
    // are all done (it waits for verifications: `verification.waiting`).
    let running = state == ShownState::Running && !all_done;
    let rate = if running {
        s.rate(now, positions_done)
    } else {
        0.0
    };
    // The one definition of the ETA and the share done (core/pace.rs).
    let eta_seconds = if running {
        super::pace::eta_seconds(positions_done, projected_target, rate)
    } else {
        None
    };
    // Done, or every shard done: the whole plan; sampled: the whole sample
    // (what it ran toward).
    let fraction_done = if all_done || matches!(state, ShownState::Done | ShownState::Sampled) {
        1.0
    } else {
        super::pace::fraction_done(positions_done, projected_target)
    };
    SweepStatus {
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
        leases_expired: s.leases_expired,
        leases_released: s.leases_released,
        refused_submits: s.refused_submits,
        refused_renewals: s.refused_renewals,
        refused_fails: s.refused_fails,
        results_invalid: s.results_invalid,
        recounted: s.recounted,
        recounts_refused: s.recounts_refused,
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
        // Replicated validation (core/replication.rs).
        verification: s.replication.status().map(|mut v| {
            v.waiting = super::replication::waiting(s, at.around, now_ms, at.window_ms);
            v
        }),
        priority: s.priority(),
        positions_projected: projection.total,
        estimate_spread: projection.spread,
        positions_target: projected_target,
        fraction_done,
    }
}

/// The plan's estimates corrected by what the done shards actually took.
struct Projection {
    /// Done shards' positions / their estimates (`None`: no done shard
    /// with an estimate).
    ratio: Option<f64>,
    /// Relative spread (one standard deviation, weighted by estimate) of
    /// the done shards' ratios; `None` with fewer than two of them.
    spread: Option<f64>,
    /// The whole plan: done shards' positions plus the others' estimates
    /// times `ratio`.
    total: u64,
}

impl Projection {
    /// From the sums kept over the done shards (O(1) in the shards): the
    /// spread by Σ e·(w/e − r)² = Σ w²/e − 2r·Σ w + r²·Σ e, the shards not
    /// done by their estimates' total times the ratio (rounded once).
    fn of(s: &Sweep) -> Projection {
        let m = &s.sums;
        let (est, work) = (m.est as f64, m.work as f64);
        let ratio = (est > 0.0).then(|| work / est);
        let spread = ratio.filter(|&r| m.n >= 2 && r > 0.0).map(|r| {
            let var = (m.w2e - 2.0 * r * work + r * r * est).max(0.0);
            (var / est).sqrt() / r
        });
        // The shards not done: each estimate bin's estimates times that
        // bin's own ratio, or the overall one in a bin with no done shard
        // (O(bins)). The done shards are not a random sample of the plan
        // (largest first), and the plan's estimates err differently by
        // size: one overall ratio would carry the largest shards' error to
        // all (`lease_order`'s probes give every bin a shard early).
        let rest = if m.bins.len() == s.bins.est.len() && !m.bins.is_empty() {
            let mut rest = 0f64;
            for (&all, &(est, work)) in s.bins.est.iter().zip(&m.bins) {
                let left = all.saturating_sub(est) as f64;
                rest += match (est > 0).then(|| work as f64 / est as f64).or(ratio) {
                    Some(r) => left * r,
                    None => left,
                };
            }
            rest.round() as u128
        } else {
            let rest = (s.estimate.0 as u128).saturating_sub(m.est);
            match ratio {
                Some(r) => (rest as f64 * r).round() as u128,
                None => rest,
            }
        };
        Projection {
            ratio,
            spread,
            total: u64::try_from(m.work_all.saturating_add(rest)).unwrap_or(u64::MAX),
        }
    }

    /// Shard `i`'s positions: actual if done, else its estimate times the
    /// ratio (for a sample's target: a walk over the sample only).
    fn shard(&self, s: &Sweep, i: u32) -> u64 {
        let i = i as usize;
        if s.states[i] == ShardState::Done {
            s.work[i]
        } else {
            let e = s.plan[i].estimate;
            match self.ratio {
                Some(r) => (e as f64 * r).round() as u64,
                None => e,
            }
        }
    }
}

/// The identities the fair share held back (core/fair.rs): cut to their
/// share within `window_ms` before `now_ms`, or with leases taken back.
fn identities_limited(st: &State, now_ms: u64, window_ms: u64) -> Vec<IdentityLimit> {
    st.held_back
        .iter()
        .filter_map(|(id, h)| {
            let limited = h
                .limited_ms
                .is_some_and(|t| now_ms.saturating_sub(t) < window_ms);
            (limited || h.reclaimed > 0).then(|| IdentityLimit {
                identity: id.clone(),
                limited,
                leases_reclaimed: h.reclaimed,
            })
        })
        .collect()
}

/// The workers `st` has heard from, at `now`: alive if heard from within
/// three lease periods of `lease_ms`.
fn worker_statuses(st: &State, now: Instant, now_ms: u64, lease_ms: u64) -> Vec<WorkerStatus> {
    let mut held_by: BTreeMap<&str, u32> = BTreeMap::new();
    for s in st.sweeps.values() {
        for (_, l) in s.held(now_ms) {
            *held_by.entry(l.worker.as_str()).or_insert(0) += 1;
        }
    }
    st.workers
        .iter()
        .map(|(id, w)| {
            let ago = now.saturating_duration_since(w.last_seen).as_millis() as u64;
            WorkerStatus {
                worker_id: id.clone(),
                last_seen_ms_ago: ago,
                shards_held: held_by.get(id.as_str()).copied().unwrap_or(0),
                alive: ago < 3 * lease_ms,
            }
        })
        .collect()
}

impl Core {
    /// Status of one sweep or all, and the workers seen.
    pub fn status(
        &self,
        sweep_id: Option<&str>,
    ) -> Result<(Vec<SweepStatus>, Vec<WorkerStatus>), CoreError> {
        let now = self.clock.now();
        let now_ms = self.epoch.unix_ms(now);
        let mut st = self.lock();
        self.tick_for_status(&mut st, now);
        let around = self.around_for_status(&st, sweep_id, now, now_ms);
        let at = At {
            now,
            now_ms,
            around: &around,
            window_ms: self.skip_window_ms(),
        };
        let sweeps = match sweep_id {
            Some(id) => vec![sweep_status(st.sweep(id)?, &at)],
            None => st.sweeps.values().map(|s| sweep_status(s, &at)).collect(),
        };
        Ok((sweeps, worker_statuses(&st, now, now_ms, self.lease_ms)))
    }

    /// The whole status (`gamesweep status --json`) of one sweep or all.
    pub fn overview(&self, sweep_id: Option<&str>) -> Result<Overview, CoreError> {
        Ok(self.overview_and_events(sweep_id)?.0)
    }

    /// The status of every sweep and, per sweep id, the events this process
    /// counted, read under one lock (what `/metrics` shows).
    pub fn metrics_overview(&self) -> Result<(Overview, BTreeMap<String, Events>), CoreError> {
        self.overview_and_events(None)
    }

    fn overview_and_events(
        &self,
        sweep_id: Option<&str>,
    ) -> Result<(Overview, BTreeMap<String, Events>), CoreError> {
        let now = self.clock.now();
        let now_ms = self.epoch.unix_ms(now);
        let (sweeps, workers, events, workers_pruned, quarantined_workers, identities_limited) = {
            let mut st = self.lock();
            self.tick_for_status(&mut st, now);
            let around = self.around_for_status(&st, sweep_id, now, now_ms);
            let at = At {
                now,
                now_ms,
                around: &around,
                window_ms: self.skip_window_ms(),
            };
            let shown: Vec<&Sweep> = match sweep_id {
                Some(id) => vec![st.sweep(id)?],
                None => st.sweeps.values().collect(),
            };
            (
                shown.iter().map(|s| sweep_status(s, &at)).collect(),
                worker_statuses(&st, now, now_ms, self.lease_ms),
                shown
                    .iter()
                    .map(|s| (s.record.id.clone(), s.events))
                    .collect(),
                st.workers_pruned,
                st.quarantine.workers.keys().cloned().collect(),
                identities_limited(&st, now_ms, self.window_ms().saturating_mul(3)),
            )
        };
        let res = self.resources();
        let report = Overview {
            sweeps,
            workers,
            coordinator_version: self.version().to_string(),
            store_bytes: res.store_bytes,
            coordinator_rss_bytes: res.memory.resident,
            coordinator_peak_rss_bytes: res.memory.peak,
            workers_pruned,
            quarantined_workers,
            store_writes_failing: self.store.writes_failing(),
            identities_limited,
        };
        Ok((report, events))
    }

    /// Advance the verifications' wait before a status ([`Core::tick`]), so
    /// that what it shows is current; a store write that fails is logged
    /// (the status is shown all the same, and the next tick tries again).
    fn tick_for_status(&self, st: &mut State, now: Instant) {
        if let Err(e) = self.tick_locked(st, now) {
            tracing::warn!(error = %e, "verification wait not advanced");
        }
    }

    /// The workers around ([`super::replication::around`]) if a sweep status
    /// shows (`sweep_id`, or all) waits for verifications; else none, at
    /// no cost (a status stays O(leases held)).
    fn around_for_status(
        &self,
        st: &State,
        sweep_id: Option<&str>,
        now: Instant,
        now_ms: u64,
    ) -> BTreeSet<String> {
        let waits = match sweep_id {
            Some(id) => st.sweeps.get(id).is_some_and(super::replication::waits),
            None => st.sweeps.values().any(super::replication::waits),
        };
        if waits {
            super::replication::around(st, now, now_ms, self.lease_ms)
        } else {
            BTreeSet::new()
        }
    }

    /// Positions in the accepted results of each worker (over every sweep
    /// this process holds), for per-worker rates.
    pub fn worker_work(&self) -> BTreeMap<String, u64> {
        let st = self.lock();
        let mut out: BTreeMap<String, u64> = BTreeMap::new();
        for s in st.sweeps.values() {
            for (worker, &w) in &s.worker_work {
                let e = out.entry(worker.clone()).or_insert(0);
                *e = e.saturating_add(w);
            }
        }
        out
    }

    /// Workers this process has forgotten (see `State::seen`).
    pub fn workers_pruned(&self) -> u64 {
        self.lock().workers_pruned
    }

    /// Why the store's writes are failing right now (`None`: they work).
    /// Cheap (no I/O): gRPC health asks twice a second.
    pub fn store_writes_failing(&self) -> Option<String> {
        self.store.writes_failing()
    }

    /// The store's size on disk and this process's memory.
    pub fn resources(&self) -> Resources {
        Resources {
            store_bytes: self.store.size_on_disk(),
            memory: ProcessMemory::read(),
        }
    }
}
