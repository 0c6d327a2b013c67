//! Status: what `gamesweep status` shows about sweeps, workers and the
//! coordinator process, computed from the state at one instant.

use super::memory::ProcessMemory;
use super::model::{CoreError, ShardState, State, Sweep};
use super::Core;
use std::collections::BTreeMap;
use std::time::Instant;

/// Failure records shown in a status (the lowest shard indices).
const FAILURES_SHOWN: usize = 20;

pub use gamesweep_proto::domain::{
    SampleStatus, ShardFailureStatus, StatusReport, SweepState as ShownState, SweepStatus,
    WorkerStatus,
};

/// What the coordinator process uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// Bytes of the store on disk (0 if unknown).
    pub store_bytes: u64,
    /// This process's memory.
    pub memory: ProcessMemory,
}

/// Status of sweep `s` at `now` (`now_ms` in Unix milliseconds).
fn sweep_status(s: &Sweep, now: Instant, now_ms: u64) -> SweepStatus {
    let (mut pending, mut leased, mut inflight) = (0u32, 0u32, 0u64);
    for (i, state) in s.states.iter().enumerate() {
        match state {
            ShardState::Pending => pending += 1,
            ShardState::Leased(l) if l.until_ms > now_ms => {
                leased += 1;
                inflight =
                    inflight.saturating_add(s.progress.get(&(i as u32)).copied().unwrap_or(0));
            }
            ShardState::Leased(_) => pending += 1,
            ShardState::Done | ShardState::Failed => {}
        }
    }
    let positions_done = s.merged.work().saturating_add(inflight);
    let estimate = s
        .plan
        .iter()
        .fold(0u64, |sum, p| sum.saturating_add(p.estimate));
    let sample = s.record.sample.as_ref().map(|smp| SampleStatus {
        ppm: smp.ppm,
        seed: smp.seed,
        shards: smp.shards.len() as u32,
        done: s.sample_done(),
        limited: smp.limited,
        estimate: smp.shards.iter().fold(0u64, |sum, &i| {
            sum.saturating_add(s.plan[i as usize].estimate)
        }),
    });
    // While a sample limits the sweep, progress is toward the sample.
    let target = match &sample {
        Some(smp) if smp.limited => smp.estimate,
        _ => estimate,
    };
    let secs = now.saturating_duration_since(s.base_at).as_secs_f64();
    let rate = if secs > 0.5 {
        positions_done.saturating_sub(s.base_work) as f64 / secs
    } else {
        0.0
    };
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
    } else {
        ShownState::Running
    };
    let eta_seconds = if s.finished() || sampled {
        Some(0.0)
    } else if target > 0 && rate > 0.0 {
        Some(target.saturating_sub(positions_done) as f64 / rate)
    } else {
        None
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
        // Replicated validation (core/verify.rs).
        verification: s.verify.status(),
    }
}

/// The workers `st` has heard from, at `now`: alive if heard from within
/// three lease periods of `lease_ms`.
fn worker_statuses(st: &State, now: Instant, now_ms: u64, lease_ms: u64) -> Vec<WorkerStatus> {
    let mut held_by: BTreeMap<&str, u32> = BTreeMap::new();
    for s in st.sweeps.values() {
        for l in s.states.iter().filter_map(|state| state.held(now_ms)) {
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
        let st = self.lock();
        let sweeps = match sweep_id {
            Some(id) => vec![sweep_status(st.sweep(id)?, now, now_ms)],
            None => st
                .sweeps
                .values()
                .map(|s| sweep_status(s, now, now_ms))
                .collect(),
        };
        Ok((sweeps, worker_statuses(&st, now, now_ms, self.lease_ms)))
    }

    /// The whole status report of one sweep or all (what `status` shows).
    pub fn report(&self, sweep_id: Option<&str>) -> Result<StatusReport, CoreError> {
        let (sweeps, workers) = self.status(sweep_id)?;
        let res = self.resources();
        Ok(StatusReport {
            sweeps,
            workers,
            coordinator_version: self.version().to_string(),
            store_bytes: res.store_bytes,
            coordinator_rss_bytes: res.memory.resident,
            coordinator_peak_rss_bytes: res.memory.peak,
            workers_pruned: self.workers_pruned(),
            quarantined_workers: self.quarantined(),
        })
    }

    /// Positions in the accepted results of each worker (over every sweep
    /// this process holds), for per-worker rates.
    pub fn worker_work(&self) -> BTreeMap<String, u64> {
        let st = self.lock();
        let mut out: BTreeMap<String, u64> = BTreeMap::new();
        for s in st.sweeps.values() {
            for (&i, t) in &s.timings {
                let w = s.work.get(i as usize).copied().unwrap_or(0);
                let e = out.entry(t.worker.clone()).or_insert(0);
                *e = e.saturating_add(w);
            }
        }
        out
    }

    /// Workers this process has forgotten (see `State::seen`).
    pub fn workers_pruned(&self) -> u64 {
        self.lock().workers_pruned
    }

    /// The store's size on disk and this process's memory.
    pub fn resources(&self) -> Resources {
        Resources {
            store_bytes: self.store.size_on_disk(),
            memory: ProcessMemory::read(),
        }
    }
}
