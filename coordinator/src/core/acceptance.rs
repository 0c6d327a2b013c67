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

/// `merged` with `result` (of shard `index`) merged in, or the overflow
/// that refuses the result.
fn merge_checked(
    merged: &Output,
    result: &Output,
    sweep_id: &str,
    index: u32,
) -> Result<Output, CoreError> {
    let mut m = merged.clone();
    m.merge(result.clone()).map_err(|e| {
        let e = gamesweep::sweep::in_shard(e, index);
        CoreError::BadRequest(format!("result refused for sweep `{sweep_id}`: {e}"))
    })?;
    Ok(m)
}

impl Core {
    /// Decode a submitted result of shard `index` with the kind of sweep
    /// `sweep_id` and validate it against the shard
    /// ([`gamesweep::sweep::SweepKind::validate`]: consistent counts,
    /// witnesses in the shard and of the value claimed). Bytes that are not
    /// that kind's result, or a result the shard cannot have produced, are a
    /// bad request. The kind, params and shard are copied under the core's
    /// lock; decoding and validating run after it is released (the server
    /// calls this on a blocking thread).
    pub fn decode_result(
        &self,
        sweep_id: &str,
        index: u32,
        bytes: &[u8],
    ) -> Result<Output, CoreError> {
        let (kind_name, params, shard) = {
            let st = self.lock();
            let s = st.sweep(sweep_id)?;
            let shard = s.plan.get(index as usize).cloned().ok_or_else(|| {
                CoreError::BadRequest(format!(
                    "sweep `{sweep_id}` has no shard {index} (its plan has {})",
                    s.plan.len()
                ))
            })?;
            (s.record.kind.clone(), s.record.params.clone(), shard)
        };
        let kind = kinds::find(&kind_name).map_err(|e| CoreError::BadRequest(e.to_string()))?;
        let bad = |e: gamesweep::sweep::SweepError| {
            CoreError::BadRequest(format!("shard {index} result for `{sweep_id}`: {e}"))
        };
        let out = kind.decode(bytes).map_err(bad)?;
        kind.validate(&params, &shard, &out).map_err(bad)?;
        Ok(out)
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
        // Merged into a copy before anything is stored: a result that would
        // overflow a counter is refused and leaves the sweep as it was.
        let merged = match state {
            ShardState::Done | ShardState::Failed => None,
            _ => Some(merge_checked(&s.merged, &result, &sweep_id, index)?),
        };
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
        if let Some(t) = timing {
            s.timings.insert(index, t);
        }
        s.merged = merged.expect("merged above for a shard not done");
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
