//! Results and failures from workers: exactly-once acceptance (a shard is
//! merged at most once; duplicates and late results are counted and
//! dropped), failures that set a shard aside, and durability before an
//! acknowledgement ([`Core::flush`]).

use super::model::{CoreError, ShardState, MAX_FAILURES};
use super::Core;
use crate::store::{FailureRecord, ShardTiming};
use gamesweep::kinds;
use gamesweep::sweep::Output;
use tracing::{debug, info, info_span, warn};

/// How long a shard took on its worker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    /// Wall-clock microseconds.
    pub wall_us: u64,
    /// CPU microseconds of the thread that ran it (0 if unknown).
    pub cpu_us: u64,
}

/// A shard's result, as a worker submits it.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The worker.
    pub worker: String,
    /// The worker's solver version (must be the sweep's).
    pub version: String,
    /// The sweep.
    pub sweep_id: String,
    /// The shard.
    pub index: u32,
    /// The attempt of the lease it ran under.
    pub attempt: u32,
    /// The result.
    pub result: Output,
    /// How long it took, if the worker said.
    pub timing: Option<Timing>,
}

/// A shard a worker could not run.
#[derive(Clone, Debug)]
pub struct FailureReport {
    /// The worker.
    pub worker: String,
    /// The worker's solver version (must be the sweep's).
    pub version: String,
    /// The sweep.
    pub sweep_id: String,
    /// The shard.
    pub index: u32,
    /// The attempt of the lease it ran under.
    pub attempt: u32,
    /// Why (any text; stored as one bounded line).
    pub error: String,
}

/// What became of a reported failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailOutcome {
    /// Failures of the shard so far.
    pub failures: u32,
    /// The shard is set aside (after [`MAX_FAILURES`] failures).
    pub set_aside: bool,
}

/// `error` as one line of at most about 500 bytes: it is stored and shown in status.
fn one_line(error: &str) -> String {
    let mut line: String = error.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.len() > 500 {
        let mut cut = 500;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line.truncate(cut);
        line.push('…');
    }
    line
}

impl Core {
    /// Decode a submitted result with the kind of sweep `sweep_id`; bytes
    /// that are not that kind's result are a bad request.
    pub fn decode_result(&self, sweep_id: &str, bytes: &[u8]) -> Result<Output, CoreError> {
        let kind_name = self.lock().sweep(sweep_id)?.record.kind.clone();
        let kind = kinds::find(&kind_name).map_err(|e| CoreError::BadRequest(e.to_string()))?;
        kind.decode(bytes)
            .map_err(|e| CoreError::BadRequest(format!("shard result for `{sweep_id}`: {e}")))
    }

    /// Record a shard's result (and how long it took, if the worker said)
    /// unless the shard is done already or set aside. Returns whether it was
    /// accepted. The caller must [`Core::flush`] before acknowledging an
    /// accepted result.
    pub fn submit(&self, sub: Submission) -> Result<bool, CoreError> {
        let Submission {
            worker,
            version,
            sweep_id,
            index,
            attempt,
            result,
            timing,
        } = sub;
        let span = info_span!("submit", sweep = %sweep_id, shard = index, worker = %worker);
        let _g = span.enter();
        let mut st = self.lock();
        st.seen(&worker, self.clock.now());
        // Replicated validation (core/verify.rs): a verification run, or a quarantined worker.
        let run = super::verify::Run {
            worker: &worker,
            version: &version,
            sweep_id: &sweep_id,
            index,
            attempt,
            result: &result,
        };
        if let Some(accepted) = self.verify_submit(&mut st, &run)? {
            return Ok(accepted);
        }
        let (s, state) = st.shard_of(&sweep_id, index, &version)?;
        if result.kind() != s.record.kind {
            return Err(CoreError::BadRequest(format!(
                "a `{}` result submitted for sweep `{sweep_id}` of kind `{}`",
                result.kind(),
                s.record.kind
            )));
        }
        let timing = timing.map(|t| ShardTiming {
            wall_us: t.wall_us,
            cpu_us: t.cpu_us,
            worker: worker.clone(),
        });
        if matches!(state, ShardState::Done | ShardState::Failed)
            || !self
                .store
                .put_result(&sweep_id, index, &result.encode(), timing.as_ref())?
        {
            s.duplicates_ignored += 1;
            self.store.put_stats(&sweep_id, &s.stats())?;
            info!(attempt, "duplicate or late result ignored");
            return Ok(false);
        }
        if let ShardState::Leased(l) = &state {
            if l.worker != worker || l.attempt != attempt {
                info!(attempt, holder = %l.worker, "late result accepted (shard not done yet)");
            }
        }
        self.store.put_lease(&sweep_id, index, None)?;
        s.states[index as usize] = ShardState::Done;
        s.progress.remove(&index);
        if s.failures.remove(&index).is_some() {
            self.store.put_failure(&sweep_id, index, None)?;
        }
        s.work[index as usize] = result.work();
        // Replicated validation (core/verify.rs): origin, and a verification if selected.
        self.verify_accepted(s, index, &worker, attempt, &result)?;
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

    /// Record that a worker could not run a shard. The shard goes back to
    /// pending, or is set aside after [`MAX_FAILURES`] failures.
    pub fn fail(&self, report: &FailureReport) -> Result<FailOutcome, CoreError> {
        let FailureReport {
            worker,
            version,
            sweep_id,
            index,
            attempt,
            error,
        } = report;
        let index = *index;
        let mut st = self.lock();
        st.seen(worker, self.clock.now());
        let (s, state) = st.shard_of(sweep_id, index, version)?;
        let count = s.failures.get(&index).map_or(0, |f| f.count);
        match state {
            ShardState::Done => {
                return Ok(FailOutcome {
                    failures: count,
                    set_aside: false,
                })
            }
            ShardState::Failed => {
                return Ok(FailOutcome {
                    failures: count,
                    set_aside: true,
                })
            }
            ShardState::Pending | ShardState::Leased(_) => {}
        }
        let rec = FailureRecord {
            count: count + 1,
            error: one_line(error),
            worker: worker.clone(),
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
        let failures = rec.count;
        s.failures.insert(index, rec);
        Ok(FailOutcome {
            failures,
            set_aside,
        })
    }

    /// Make everything accepted so far durable. Concurrent callers share
    /// flushes (see [`super::commit`]).
    pub fn flush(&self) -> Result<(), CoreError> {
        Ok(self.commit.commit(|| self.store.flush())?)
    }
}
