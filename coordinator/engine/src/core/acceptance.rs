//! Results and failures from workers: exactly-once acceptance (a shard is
//! merged at most once; duplicates and late results are counted and
//! dropped), failures that set a shard aside, and durability before an
//! acknowledgement ([`Core::flush`]). A result or failure report is taken
//! only from the identity a lease was granted to, with that lease's token,
//! while the lease is the shard's (live, or expired but not handed to
//! anyone else since: a slow but honest holder's late result still counts)
//! or is a verification copy's; a token of a lease given back, reported
//! failed or re-issued is refused ([`CoreError::Denied`]), and so is
//! anything else, and counted.

use super::model::{voter, CoreError, Named, ShardState, State, Sweep, MAX_FAILURES};
use super::Core;
use crate::store::journal;
use crate::store::snapshot::SetDigest;
use crate::store::{FailureRecord, ShardTiming, FAILING_WORKERS_KEPT};
use gamesweep::sweep::Output;
use gamesweep_api::SolverVersions;
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
    /// The worker's solver versions (its version of the sweep's kind must
    /// be the sweep's).
    pub version: SolverVersions,
    /// The sweep.
    pub sweep_id: String,
    /// The shard.
    pub index: u32,
    /// The token of the lease it ran under.
    pub token: String,
    /// The result.
    pub result: Output,
    /// How long it took, if the worker said.
    pub timing: Option<Timing>,
    /// The position digest under the lease's salt
    /// ([`gamesweep::sweep::positions`]), if the worker sent one. Required
    /// when the lease had a salt (else the submit is refused); ignored when
    /// it had none.
    pub positions: Option<u64>,
}

/// A shard's result as a worker delivers it, encoded, under the token of
/// the lease it ran under: what [`Core::accept`] takes.
#[derive(Clone, Debug)]
pub struct Delivery {
    /// The worker (the identity the face derived from its credential).
    pub worker: String,
    /// The worker's solver versions.
    pub version: SolverVersions,
    /// The sweep.
    pub sweep_id: String,
    /// The shard.
    pub index: u32,
    /// The token of the lease it ran under.
    pub token: String,
    /// The result as the kind encodes it (`Output::encode`).
    pub result: Vec<u8>,
    /// How long it took, if the worker said.
    pub timing: Option<Timing>,
    /// The position digest under the lease's salt, if the worker sent one
    /// (see [`Submission::positions`]).
    pub positions: Option<u64>,
}

/// A shard a worker could not run.
#[derive(Clone, Debug)]
pub struct FailureReport {
    /// The worker.
    pub worker: String,
    /// The worker's solver versions (its version of the sweep's kind must
    /// be the sweep's).
    pub version: SolverVersions,
    /// The sweep.
    pub sweep_id: String,
    /// The shard.
    pub index: u32,
    /// The token of the lease it ran under.
    pub token: String,
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

/// The refusal of a `what` (submit, failure report) for shard `index` of
/// sweep `s` without a valid token of one of its leases.
fn denied(s: &Sweep, index: u32, what: &str) -> CoreError {
    CoreError::Denied(format!(
        "{what} for shard {index} of sweep `{}` refused: no valid lease token (only the identity the shard was leased to may send it, with that lease's token)",
        s.record.id
    ))
}

/// The refusal of a `what` under a lease that is over.
fn stale(s: &Sweep, index: u32, what: &str) -> CoreError {
    CoreError::Denied(format!(
        "{what} for shard {index} of sweep `{}` refused: that lease is over (given back, reported failed, or the shard was handed to another worker)",
        s.record.id
    ))
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
    /// bad request (counted in the sweep's `results_invalid`). The kind,
    /// params and shard are copied under the core's lock; decoding and
    /// validating run after it is released (the server calls this on a
    /// blocking thread).
    pub fn decode_result(
        &self,
        sweep_id: &str,
        index: u32,
        bytes: &[u8],
    ) -> Result<Output, CoreError> {
        self.decode_result_from("", sweep_id, index, bytes)
    }

    /// [`Core::decode_result`] of a result `worker` sent: a refusal is
    /// also counted against it (`results_invalid_by`, in provenance).
    pub fn decode_result_from(
        &self,
        worker: &str,
        sweep_id: &str,
        index: u32,
        bytes: &[u8],
    ) -> Result<Output, CoreError> {
        let (kind, params, shard) = {
            let st = self.lock();
            let s = st.sweep(sweep_id)?;
            let shard = s.plan.get(index as usize).cloned().ok_or_else(|| {
                CoreError::BadRequest(format!(
                    "sweep `{sweep_id}` has no shard {index} (its plan has {})",
                    s.plan.len()
                ))
            })?;
            (s.kind, s.record.params.clone(), shard)
        };
        let bad = |e: gamesweep::sweep::SweepError| {
            CoreError::BadRequest(format!("shard {index} result for `{sweep_id}`: {e}"))
        };
        let checked = kind
            .decode(bytes)
            .and_then(|out| kind.validate(&params, &shard, &out).map(|()| out))
            .map_err(bad);
        if let Err(e) = &checked {
            warn!(sweep = %sweep_id, shard = index, worker = %worker, "invalid result refused: {e}");
            self.count_invalid(worker, sweep_id)?;
            return checked;
        }
        // The kind's cheap truths, within the coordinator's CPU budget
        // (core/recount.rs).
        let recounted = checked.as_ref().ok().and_then(|out| {
            super::recount::within(&self.recount, self.clock.as_ref(), || {
                kind.recount(&params, &shard, out)
            })
            .flatten()
        });
        match recounted {
            None => checked,
            Some(Ok(())) => {
                self.count_recount(sweep_id, None)?;
                checked
            }
            Some(Err(e)) => {
                let e = bad(e);
                warn!(sweep = %sweep_id, shard = index, worker = %worker, "result refused by the recount: {e}");
                self.count_invalid(worker, sweep_id)?;
                self.count_recount(sweep_id, Some(worker))?;
                Err(e)
            }
        }
    }

    /// Count a recount of a result of `sweep_id`; `Some(worker)` if it
    /// refused `worker`'s result: then an issued identity's trust is
    /// withdrawn and its results are verified again (core/replication.rs).
    fn count_recount(&self, sweep_id: &str, refused: Option<&str>) -> Result<(), CoreError> {
        let mut st = self.lock();
        let Some(s) = st.sweeps.get_mut(sweep_id) else {
            return Ok(());
        };
        s.recounted = s.recounted.saturating_add(1);
        if refused.is_some() {
            s.recounts_refused = s.recounts_refused.saturating_add(1);
        }
        self.store.put_stats(sweep_id, &s.stats())?;
        match refused.map(super::model::voter) {
            Some(w) if super::model::is_issued(w) => {
                self.distrust(&mut st, &[w.to_string()], sweep_id)
            }
            _ => Ok(()),
        }
    }

    /// Count a submit from `worker` whose bytes were not a result of sweep
    /// `sweep_id`.
    fn count_invalid(&self, worker: &str, sweep_id: &str) -> Result<(), CoreError> {
        let mut st = self.lock();
        if let Some(s) = st.sweeps.get_mut(sweep_id) {
            s.results_invalid = s.results_invalid.saturating_add(1);
            if !worker.is_empty() {
                let full = s.results_invalid_by.len() >= super::model::MAX_INVALID_BY
                    && !s.results_invalid_by.contains_key(worker);
                let key = if full { "(others)" } else { worker };
                let n = s.results_invalid_by.entry(key.to_string()).or_insert(0);
                *n = n.saturating_add(1);
            }
            self.store.put_stats(sweep_id, &s.stats())?;
        }
        Ok(())
    }

    /// Refuse (and count) a result for shard `index` of sweep `sweep_id`
    /// from `worker` whose `token` names no lease of `worker` on that shard.
    /// Checked before anything else is done with a submitted result, so a
    /// sender without a lease costs no decoding or validation
    /// ([`Core::decode_result`]).
    pub fn check_result_token(
        &self,
        worker: &str,
        sweep_id: &str,
        index: u32,
        token: &str,
        version: &SolverVersions,
    ) -> Result<(), CoreError> {
        let mut st = self.lock();
        self.check_submit_token(&mut st, worker, sweep_id, index, token, version)
            .map(drop)
    }

    /// The lease `token` names for `worker`, or the refusal (counted).
    fn check_submit_token(
        &self,
        st: &mut State,
        worker: &str,
        sweep_id: &str,
        index: u32,
        token: &str,
        version: &SolverVersions,
    ) -> Result<Named, CoreError> {
        let (s, _) = st.shard_of(sweep_id, index, version)?;
        let named = self.opened(s, index, worker, token);
        let refusal = match &named {
            None => Some(denied(s, index, "a result")),
            Some(Named::Stale) => Some(stale(s, index, "a result")),
            Some(_) => None,
        };
        if let Some(e) = refusal {
            s.refused_submits = s.refused_submits.saturating_add(1);
            self.store.put_stats(sweep_id, &s.stats())?;
            warn!(sweep = %sweep_id, shard = index, worker = %worker, "result refused: {e}");
            return Err(e);
        }
        Ok(named.expect("refused above"))
    }

    /// Record a shard's result (and how long it took, if the worker said)
    /// unless the shard is done already or set aside. Returns whether it was
    /// accepted; a submission without a valid token of one of the shard's
    /// leases is refused ([`CoreError::Denied`], counted). The caller must
    /// [`Core::flush`] before acknowledging an accepted result.
    pub fn submit(&self, sub: Submission) -> Result<bool, CoreError> {
        let Submission {
            worker,
            version,
            sweep_id,
            index,
            token,
            result,
            timing,
            positions,
        } = sub;
        super::model::check_worker(&worker)?;
        let span = info_span!("submit", sweep = %sweep_id, shard = index, worker = %worker);
        let _g = span.enter();
        let now = self.clock.now();
        let now_ms = self.epoch.unix_ms(now);
        let mut st = self.lock();
        st.seen(&worker, now, self.lease_ms);
        let named =
            self.check_submit_token(&mut st, &worker, &sweep_id, index, &token, &version)?;
        let attempt = match &named {
            Named::Shard(l) | Named::Copy(l) => l.attempt,
            Named::Lost { attempt, .. } => *attempt,
            Named::Finished | Named::Stale => 0,
        };
        // A lease that asked for a position digest (core/leases.rs) takes
        // no result without one: it could not be told from a replayed
        // result. One sent unasked is ignored.
        let positions = {
            let (s, _) = st.shard_of(&sweep_id, index, &version)?;
            match (self.salt_for(s, index, &worker), positions) {
                (Some(_), None) => {
                    s.results_invalid = s.results_invalid.saturating_add(1);
                    let full = s.results_invalid_by.len() >= super::model::MAX_INVALID_BY
                        && !s.results_invalid_by.contains_key(&worker);
                    let key = if full { "(others)" } else { worker.as_str() };
                    let n = s.results_invalid_by.entry(key.to_string()).or_insert(0);
                    *n = n.saturating_add(1);
                    self.store.put_stats(&sweep_id, &s.stats())?;
                    let e = CoreError::BadRequest(format!(
                        "result for shard {index} of sweep `{sweep_id}` refused: its lease asked for the position digest under its salt and the submit carries none (workers of lease protocol 3 compute it: upgrade the worker)"
                    ));
                    warn!(worker = %worker, "result refused: {e}");
                    return Err(e);
                }
                (Some(_), p) => p,
                (None, _) => None,
            }
        };
        // Replicated validation (core/replication.rs): a verification run, or a quarantined worker.
        let run = super::replication::Run {
            worker: &worker,
            version: &version,
            sweep_id: &sweep_id,
            index,
            attempt,
            copy: matches!(named, Named::Copy(_)),
            result: &result,
            positions,
        };
        if let Some(accepted) = self.replication_submit(&mut st, &run)? {
            return Ok(accepted);
        }
        let agreements = st.trust.get(&worker).map_or(0, |t| t.agreements);
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
        let bytes = result.encode();
        if matches!(state, ShardState::Done | ShardState::Failed)
            || !self
                .store
                .put_result_from(&sweep_id, index, &bytes, timing.as_ref(), &worker)?
        {
            s.duplicates_ignored = s.duplicates_ignored.saturating_add(1);
            self.store.put_stats(&sweep_id, &s.stats())?;
            info!(attempt, "duplicate or late result ignored");
            return Ok(false);
        }
        // Late: the lease it ran under is no longer the shard's live lease.
        let live = matches!(&state, ShardState::Leased(l)
            if l.worker == worker && l.attempt == attempt && l.until_ms > now_ms);
        // (A result under this identity's lease that expired unclaimed, or
        // whose record a crash lost: same identity, shard still open.)
        // What it took, as measured here: the sweep's pace, which bounds
        // how long a lease goes on without its result (core/fair.rs).
        if let ShardState::Leased(l) = &state {
            if live && l.granted_ms > 0 {
                let estimate = s.plan.get(index as usize).map_or(0, |p| p.estimate);
                s.patience
                    .note(now_ms.saturating_sub(l.granted_ms), estimate);
            }
        }
        if !live {
            s.events.results_late = s.events.results_late.saturating_add(1);
            let holder = match &state {
                ShardState::Leased(l) => l.worker.as_str(),
                _ => "none",
            };
            info!(attempt, holder, "late result accepted (shard not done yet)");
        }
        self.store.put_lease(&sweep_id, index, None)?;
        s.set_state(index, ShardState::Done);
        s.progress.remove(&index);
        if s.failures.remove(&index).is_some() {
            self.store.put_failure(&sweep_id, index, None)?;
        }
        s.set_work(index, result.work());
        // Replicated validation (core/replication.rs): origin, and a verification if selected.
        self.replication_accepted(s, agreements, index, &worker, attempt, (&result, positions))?;
        if let Some(t) = timing {
            s.set_timing(index, t);
        }
        s.merged = merged.expect("merged above for a shard not done");
        s.done_digest = s
            .done_digest
            .union(SetDigest::of(index, &journal::digest(&bytes)));
        s.results_stored += 1;
        s.events.results_accepted = s.events.results_accepted.saturating_add(1);
        s.note_progress(self.clock.now());
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

    /// Record that a worker could not run a shard, under the token of one
    /// of its leases (else refused and counted). The shard goes back to
    /// pending (unless another attempt holds it now), or is set aside after
    /// [`MAX_FAILURES`] failures reported by at least two distinct workers,
    /// or by one worker while no other is alive (a single-worker sweep).
    pub fn fail(&self, report: &FailureReport) -> Result<FailOutcome, CoreError> {
        let FailureReport {
            worker,
            version,
            sweep_id,
            index,
            token,
            error,
        } = report;
        let index = *index;
        super::model::check_worker(worker)?;
        let now = self.clock.now();
        let mut st = self.lock();
        st.seen(worker, now, self.lease_ms);
        let alone = !st.other_voters_alive(worker, now, self.lease_ms);
        let (s, state) = st.shard_of(sweep_id, index, version)?;
        let named = self.opened(s, index, worker, token);
        let (attempt, nonce) = match &named {
            Some(Named::Shard(l)) => (l.attempt, l.nonce),
            Some(Named::Lost { attempt, nonce }) => (*attempt, *nonce),
            // A verification copy that failed, or a shard finished meanwhile:
            // nothing to count against the shard.
            Some(Named::Copy(_) | Named::Finished) => (0, 0),
            Some(Named::Stale) | None => {
                s.refused_fails = s.refused_fails.saturating_add(1);
                self.store.put_stats(sweep_id, &s.stats())?;
                let e = if named.is_some() {
                    stale(s, index, "a failure report")
                } else {
                    denied(s, index, "a failure report")
                };
                warn!(sweep = %sweep_id, shard = index, worker = %worker, "failure report refused: {e}");
                return Err(e);
            }
        };
        if matches!(named, Some(Named::Copy(_))) {
            let count = s.failures.get(&index).map_or(0, |f| f.count);
            return Ok(FailOutcome {
                failures: count,
                set_aside: false,
            });
        }
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
        let mut workers = s
            .failures
            .get(&index)
            .map(|f| f.workers.clone())
            .unwrap_or_default();
        if !workers.contains(worker) && workers.len() < FAILING_WORKERS_KEPT {
            workers.push(worker.clone());
        }
        // Identities, not worker ids: one credential's many ids (or every
        // worker under a shared token) are one voice.
        let voices: std::collections::BTreeSet<&str> = workers.iter().map(|w| voter(w)).collect();
        let set_aside = count.saturating_add(1) >= MAX_FAILURES && (voices.len() >= 2 || alone);
        let rec = FailureRecord {
            count: count.saturating_add(1),
            error: one_line(error),
            worker: worker.clone(),
            workers,
            set_aside: Some(set_aside),
        };
        self.store.put_failure(sweep_id, index, Some(&rec))?;
        warn!(sweep = %sweep_id, shard = index, attempt, failures = rec.count, set_aside, error = %rec.error, "shard failed");
        // Another lease holding the shard now keeps it (unless set aside).
        let held_by_another =
            matches!(&state, ShardState::Leased(l) if l.nonce != nonce && !set_aside);
        if !held_by_another {
            self.store.put_lease(sweep_id, index, None)?;
            s.set_state(
                index,
                if set_aside {
                    ShardState::Failed
                } else {
                    ShardState::Pending
                },
            );
            s.progress.remove(&index);
        }
        s.retire(index, nonce);
        let failures = rec.count;
        s.failures.insert(index, rec);
        Ok(FailOutcome {
            failures,
            set_aside,
        })
    }

    /// The one way a worker's result gets in, for every face (the gRPC
    /// submit and the in-process pool): the lease token first (a sender
    /// without a lease costs no decoding), then the bytes decoded and
    /// validated by the sweep's kind and recounted within the budget
    /// ([`Core::decode_result_from`]), then the checked merge
    /// ([`Core::submit`]), and the store flushed before it returns: a face
    /// that acknowledges on `Ok` acknowledges only what is durable.
    /// `Ok(false)`: a duplicate or late result, counted and dropped.
    pub fn accept(&self, d: Delivery) -> Result<bool, CoreError> {
        self.check_result_token(&d.worker, &d.sweep_id, d.index, &d.token, &d.version)?;
        let result = self.decode_result_from(&d.worker, &d.sweep_id, d.index, &d.result)?;
        let accepted = self.submit(Submission {
            worker: d.worker,
            version: d.version,
            sweep_id: d.sweep_id,
            index: d.index,
            token: d.token,
            result,
            timing: d.timing,
            positions: d.positions,
        })?;
        // Concurrent callers share flushes (group commit, `core::commit`).
        self.flush()?;
        Ok(accepted)
    }

    /// A worker's failure report, for every face: [`Core::fail`], then the
    /// store flushed before it returns.
    pub fn accept_failure(&self, report: &FailureReport) -> Result<FailOutcome, CoreError> {
        let out = self.fail(report)?;
        self.flush()?;
        Ok(out)
    }

    /// Make everything accepted so far durable. Concurrent callers share
    /// flushes (see [`super::commit`]).
    pub fn flush(&self) -> Result<(), CoreError> {
        self.commit.commit(|| self.store.flush())?;
        self.snapshot_if_due();
        Ok(())
    }
}
