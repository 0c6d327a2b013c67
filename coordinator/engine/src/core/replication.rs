//! Replicated validation, sampled (BOINC's idea): a seeded share of each
//! sweep's shards runs a second time, on another worker, and the two results
//! are compared by digest.
//!
//! - **Selection**: shard `i` of a sweep with verification share `ppm`
//!   (millionths) and key `seed` is selected when the first 8 bytes of
//!   SHA-256(`"gamesweep-verify"`, seed, i) taken modulo 10⁶ fall below
//!   `ppm`: deterministic, independent of submission order, about `ppm`
//!   millionths of the plan.
//! - Once a selected shard's result is accepted from worker A it gets a
//!   [`ReplicationRecord`] with that run; a **verification copy** is then leased
//!   (its own attempt number) only to a worker that has not run the shard
//!   and is not quarantined. Its result is compared with the stored one by
//!   SHA-256 of [`Output::encode`] (canonical JSON of the typed result).
//!   Equal: verified. Different: another run on a third worker; the digest
//!   of at least two runs and more than any other wins (if the accepted
//!   result lost, the stored result is replaced and the merged result is
//!   rebuilt from the stored results). The losers are named.
//! - With quarantine on (`serve --quarantine-on-mismatch`), an out-voted
//!   worker gets no more leases, its later submits are ignored (counted as
//!   duplicates) and shards it holds go back to pending.
//! - **A caught lie reaches back.** Out-voted once (or refused by a
//!   recount), an issued identity loses its trust, and every result it
//!   ever gave, in every sweep of the store, finished ones included, gets
//!   a [`ReplicationPurpose::Recheck`] record (unless other identities settled
//!   it already) and is verified the same way: a finished sweep runs again
//!   until they are settled (status: "re-verifying N shards of @NAME after
//!   a caught lie"), a result the others out-vote is replaced, and one no
//!   other identity can run is skipped as unverifiable and named in the
//!   report as resting on an identity caught lying.
//! - A shard imported from an export file without a trusted signature
//!   (`core::transfer`) gets a [`ReplicationPurpose::Import`] record whose first
//!   run is the file's (worker `import:untrusted...`). That run is no vote:
//!   a worker's run that agrees verifies it, one that disagrees replaces it
//!   (the import named as out-voted), and it is never skipped as
//!   unverifiable: the sweep finishes only once a worker ran every one.
//! - An imported file whose result of a shard disagrees with the stored
//!   one (`core::transfer`) gets a [`ReplicationPurpose::Conflict`] record: the
//!   stored run, then the file's (with its result). Neither is trusted over
//!   the other: a **deciding run** by a worker that has not run the shard
//!   (an issued identity that has not, if either run is an issued
//!   identity's; otherwise any worker id that has not, so a later run on
//!   one machine decides too: a conflict is settled by recomputing) runs it
//!   again, and the result of the most runs, at least two, wins
//!   ([`settle_conflict`]): the file's replaces the stored one if it wins,
//!   and the losing runs' workers are named as out-voted, as in a
//!   replication mismatch. Never skipped as unverifiable.
//! - A sweep is finished only when no record is open. A record no eligible
//!   worker can take is skipped as [`Verdict::Unverifiable`] (counted), so
//!   a single-identity sweep finishes: when its wait is over and no
//!   eligible worker is around. Its **wait** starts when the record was
//!   opened or last got a run that left it open (`since_ms`, wall-clock
//!   Unix milliseconds stored in the record, so a restart does not reset
//!   it), or when its last copy lease ends if that is later
//!   ([`wait_start`]), and lasts [`SKIP_PERIODS`] lease periods (of the
//!   running coordinator's `--lease-secs`). A worker is **around** if this
//!   process heard from it within [`SKIP_PERIODS`] lease periods or it
//!   holds an unexpired lease (a stored one counts after a restart), and
//!   it is **eligible** if it could take the copy ([`eligible`]: an issued
//!   identity that has not run the shard, not quarantined). Never under
//!   `--replicate all`, never for an untrusted import ([`skippable`]):
//!   those wait for a second identity, and status says so.
//! - **The bound.** The skip is decided by [`Core::tick`], which needs no
//!   Lease: `serve` calls it once a [`TICK_EVERY`] (1 s) from its start,
//!   `gamesweep run` on every status poll, and every Lease and status call
//!   it too. So a sweep whose shards are all done, whose open records are
//!   all skippable and with no eligible worker around, is finished at the
//!   first tick at or after `T + 3 × lease` (`T`: when its last record
//!   was opened, at the latest when its last shard was done; or the end of
//!   a copy lease, if one was out) — within a second of it while a
//!   coordinator serves, or within a second of the next coordinator's
//!   start if none served then, however often it was restarted or killed
//!   in between (a record stored before `since_ms` existed starts its wait
//!   at the first tick after the upgrade). Status shows what it waits for
//!   and when the skip is due ([`ReplicationWaiting`]).
//!
//! Everything is in the store (`verify`, `origins`, `quarantine` trees):
//! a restarted coordinator continues where it stopped; a run from a worker
//! that already ran the shard (a replayed submit) is counted as a duplicate.

use super::leases::Granted;
use super::model::{is_issued, voter, CoreError, ShardState, State, Sweep};
pub use super::replication_state::{
    digest, selected, spot_checked, unnoticed, SPOT_LIES, SPOT_MISS, SPOT_PPM,
};
pub(crate) use super::replication_state::{first_run, Quarantine, Replication, PPM};
use super::replication_state::{has_positions, result_part, run_digest};
use super::Core;
use crate::store::snapshot::SetDigest;
use crate::store::{
    LeaseRecord, QuarantineRecord, ReplicationPurpose, ReplicationRecord, ReplicationRun,
    SweepState, Verdict,
};
use gamesweep::sweep::Output;
use gamesweep_api::SolverVersions;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};
use tracing::{info, warn};

pub use gamesweep_api::domain::{ReplicationStatus, ReplicationWaiting};

/// The run that replaces an untrusted import's result: the workers' runs
/// (every run after the import's) all agree with each other and not with
/// the import's; `None` otherwise (no worker run yet, or they agree with it).
fn import_overruled(rec: &ReplicationRecord) -> Option<&ReplicationRun> {
    let (import, workers) = rec.runs.split_first()?;
    let first = workers.first()?;
    let r = |x: &ReplicationRun| result_part(&x.digest).to_string();
    let agree = rec.purpose == ReplicationPurpose::Import
        && r(first) != r(import)
        && first.result.is_some()
        && workers.iter().all(|x| r(x) == r(first));
    agree.then_some(first)
}

/// What run `run` of record `rec` votes for: in a sweep whose kind
/// computes position digests (`digests`), its result with its position
/// digest, and nothing if it has none (a first run recorded from the
/// stored result, by a recheck or after a crash: it computed nothing we
/// can tell, so it is no vote, and two runs that carry digests must
/// agree); in other sweeps, and for an untrusted import (whose first run
/// is the file's, never a vote of its own), its result alone.
pub(crate) fn vote<'a>(
    rec: &ReplicationRecord,
    run: &'a ReplicationRun,
    digests: bool,
) -> Option<&'a str> {
    if !digests
        || matches!(
            rec.purpose,
            ReplicationPurpose::Import | ReplicationPurpose::Conflict
        )
    {
        Some(result_part(&run.digest))
    } else if has_positions(&run.digest) {
        Some(run.digest.as_str())
    } else {
        None
    }
}

/// Do the runs of sweep `s` carry position digests: its kind computes
/// them ([`gamesweep::sweep::SweepKind::position_digest`]) and it was
/// launched with verification, so every lease of an issued identity asks
/// for one ([`Core::salt_for`]). A sweep launched without verification
/// asks for none, also when a caught lie reopens it: its runs vote by
/// their results.
pub(crate) fn digests(s: &Sweep) -> bool {
    (s.replication.ppm > 0 || s.record.replicate_all) && kind_digests(s)
}

/// Does the kind of sweep `s` compute position digests?
pub(crate) fn kind_digests(s: &Sweep) -> bool {
    s.kind.position_digest()
}

/// Whether a copy whose lease `old` holder lost may not go back to the
/// asking worker now, told who may run that copy (only they count as
/// waiting for it): `lost(old, may_run)` (core/fair.rs).
pub(crate) type LostCopy<'a> = dyn Fn(&str, &dyn Fn(&str) -> bool) -> bool + 'a;

/// Lease periods an open verification waits for an eligible worker (from
/// [`wait_start`]) before it is skipped as unverifiable (see the module's
/// notes for the bound).
pub const SKIP_PERIODS: u32 = 3;

pub use super::model::TRUST_AFTER;

/// May a run of `rec` be skipped as unverifiable when no eligible identity
/// is around? Not under `--replicate all`, and not for imported results
/// without a trusted signature: those wait for a second identity.
fn skippable(replicate_all: bool, rec: &ReplicationRecord) -> bool {
    !replicate_all
        && !matches!(
            rec.purpose,
            ReplicationPurpose::Import | ReplicationPurpose::Conflict
        )
}

/// How often at most [`Core::tick`] looks at the open verifications
/// (a quarter lease period if that is shorter).
pub const TICK_EVERY: Duration = Duration::from_secs(1);

/// May `worker` run a verification copy of `rec`? Only an issued identity
/// that has not run the shard under any of its worker ids: a shared token
/// never confirms. (An untrusted import's result is confirmed by any
/// worker: the file is no identity of ours.) Quarantine is the caller's.
pub(crate) fn eligible(rec: &ReplicationRecord, worker: &str) -> bool {
    if rec.purpose == ReplicationPurpose::Conflict {
        return may_decide(rec, worker);
    }
    let import = rec.purpose == ReplicationPurpose::Import;
    (is_issued(worker) || (import && !worker.is_empty() && voter(worker) != worker))
        && !rec.ran_as(voter(worker))
}

/// Who a run of a conflict record speaks as: an issued identity's
/// worker ids are that identity; any other worker id is itself (a
/// conflict is decided by recomputing, so two machines under one shared
/// token are two runs).
fn conflict_key(worker: &str) -> &str {
    if is_issued(worker) {
        voter(worker)
    } else {
        worker
    }
}

/// May `worker` make a deciding run of conflict record `rec` (see the
/// module's notes)? One whose [`conflict_key`] made no run of it yet, and,
/// if an issued identity made one of its runs, only an issued identity.
fn may_decide(rec: &ReplicationRecord, worker: &str) -> bool {
    let issued = rec.runs.iter().any(|r| is_issued(&r.worker));
    !worker.is_empty()
        && (!issued || is_issued(worker))
        && !rec
            .runs
            .iter()
            .any(|r| conflict_key(&r.worker) == conflict_key(worker))
}

/// The decision of conflict record `rec` ([`ReplicationPurpose::Conflict`]):
/// the result shared by the runs of two or more [`conflict_key`]s, and by
/// more of them than any other result, wins. Returns the index of a run
/// carrying the winning result's bytes (`None`: the stored result, run 0,
/// won) and the workers of the runs that lost; `None` while undecided.
fn settle_conflict(rec: &ReplicationRecord) -> Option<(Option<usize>, Vec<String>)> {
    let r = |i: usize| result_part(&rec.runs[i].digest);
    let mut keys: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (i, run) in rec.runs.iter().enumerate() {
        keys.entry(r(i))
            .or_default()
            .insert(conflict_key(&run.worker));
    }
    let top = keys.values().map(BTreeSet::len).max()?;
    let mut leaders = keys.iter().filter(|(_, k)| k.len() == top);
    let (win, _) = leaders.next()?;
    if top < 2 || leaders.next().is_some() {
        return None;
    }
    let losers = rec
        .runs
        .iter()
        .enumerate()
        .filter(|&(i, _)| r(i) != *win)
        .map(|(_, run)| run.worker.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let carrier = (r(0) != *win)
        .then(|| (1..rec.runs.len()).find(|&i| r(i) == *win && rec.runs[i].result.is_some()))
        .flatten();
    Some((carrier, losers))
}

/// When the wait of open record `rec` for a second identity began, in Unix
/// milliseconds: when it was opened or last got a run that left it open,
/// or the end of its last copy lease if later (`now_ms` if not stored yet).
pub(crate) fn wait_start(rec: &ReplicationRecord, now_ms: u64) -> u64 {
    rec.since_ms
        .unwrap_or(now_ms)
        .max(rec.lease.as_ref().map_or(0, |l| l.until_ms))
}

/// The workers that may be around to take a verification copy at `now`:
/// heard from by this process within [`SKIP_PERIODS`] lease periods, or
/// holding an unexpired lease of a shard or of a copy (leases are stored,
/// so their holders count after a restart too, before they are heard
/// from again); quarantined workers are not.
pub(crate) fn around(st: &State, now: Instant, now_ms: u64, lease_ms: u64) -> BTreeSet<String> {
    let window = Duration::from_millis(u64::from(SKIP_PERIODS).saturating_mul(lease_ms));
    let mut out: BTreeSet<String> = st
        .workers
        .iter()
        .filter(|(_, w)| now.saturating_duration_since(w.last_seen) < window)
        .map(|(id, _)| id.clone())
        .collect();
    for s in st.sweeps.values() {
        if s.record.state != SweepState::Running {
            continue;
        }
        for (_, l) in s.held(now_ms) {
            if !out.contains(&l.worker) {
                out.insert(l.worker.clone());
            }
        }
        for i in &s.replication.records.tally().open {
            if let Some(l) = s.replication.records.get(i).and_then(|r| r.lease.as_ref()) {
                if l.until_ms > now_ms && !out.contains(&l.worker) {
                    out.insert(l.worker.clone());
                }
            }
        }
    }
    out.retain(|w| !st.quarantine.workers.contains_key(w));
    out
}

/// Sweep `s` is running, not paused, with every shard done and
/// verifications open: it waits for them ([`waiting`] says how).
pub(crate) fn waits(s: &Sweep) -> bool {
    s.record.state == SweepState::Running
        && !s.record.paused
        && s.results_stored as usize == s.plan.len()
        && s.replication.pending()
}

/// What a sweep whose shards are all done waits for (`status`): its open
/// verifications, who may run them, and when the skippable ones are
/// skipped; `None` for a sweep not in that state.
pub(crate) fn waiting(
    s: &Sweep,
    around: &BTreeSet<String>,
    now_ms: u64,
    window_ms: u64,
) -> Option<ReplicationWaiting> {
    if !waits(s) {
        return None;
    }
    let open = &s.replication.records.tally().open;
    let mut w = ReplicationWaiting {
        shards: open.iter().copied().take(WAITING_SHOWN).collect(),
        ..ReplicationWaiting::default()
    };
    let mut eligible_here = BTreeSet::new();
    let mut skip_at: Option<u64> = None;
    // Per identity caught giving a wrong result, its shards verified again.
    let mut rechecking: BTreeMap<&str, u32> = BTreeMap::new();
    for i in open {
        let Some(rec) = s.replication.records.get(i) else {
            continue;
        };
        if !matches!(
            rec.purpose,
            ReplicationPurpose::Import | ReplicationPurpose::Conflict
        ) {
            w.needs_issued = true;
        }
        if rec.purpose == ReplicationPurpose::Recheck {
            if let Some(first) = rec.runs.first() {
                *rechecking.entry(voter(&first.worker)).or_insert(0u32) += 1;
            }
        }
        for a in around.iter().filter(|a| eligible(rec, a)) {
            eligible_here.insert(a.clone());
        }
        if skippable(s.record.replicate_all, rec) {
            let at = wait_start(rec, now_ms).saturating_add(window_ms);
            skip_at = Some(skip_at.map_or(at, |x| x.max(at)));
        } else {
            w.unskippable += 1;
        }
    }
    w.eligible = eligible_here.into_iter().take(WAITING_SHOWN).collect();
    w.rechecking = rechecking
        .into_iter()
        .take(WAITING_SHOWN)
        .map(|(identity, shards)| gamesweep_api::domain::Rechecking {
            identity: identity.to_string(),
            shards,
        })
        .collect();
    w.skip_at_ms = skip_at;
    w.skip_in_ms = skip_at.map(|at| at.saturating_sub(now_ms));
    Some(w)
}

/// The waiting shards and eligible workers status names at most.
pub const WAITING_SHOWN: usize = 8;

/// A verification share (millionths) must be at most the whole plan.
pub(crate) fn check_share(ppm: u32) -> Result<(), CoreError> {
    if ppm as u64 > PPM {
        return Err(CoreError::BadRequest(format!(
            "verification share {ppm} ppm is out of range: 0..=1000000 millionths of the shards (--replicate-fraction 0..1)"
        )));
    }
    Ok(())
}

/// A resumed sweep keeps its verification share and key: asking for
/// others is refused.
pub(crate) fn check_resume(s: &Sweep, req: &super::LaunchSpec) -> Result<(), CoreError> {
    let r = &s.record;
    let asked = if req.replicate_all {
        PPM as u32
    } else {
        req.verify_ppm
    };
    if asked != r.verify_ppm
        || req.replicate_all != r.replicate_all
        || req.verify_seed.is_some_and(|k| k != r.verify_seed)
    {
        return Err(CoreError::BadRequest(format!(
            "sweep `{}` was launched with verification share {} ppm (seed {}); asked for {} ppm{}: resume it with --replicate-fraction {}, or use another name",
            r.id,
            r.verify_ppm,
            r.verify_seed,
            req.verify_ppm,
            req.verify_seed.map_or(String::new(), |k| format!(" (seed {k})")),
            r.verify_ppm as f64 / PPM as f64
        )));
    }
    Ok(())
}

pub(crate) struct Run<'a> {
    /// The lease was the shard's verification copy.
    pub(crate) copy: bool,
    /// The worker.
    pub(crate) worker: &'a str,
    /// Its solver versions.
    pub(crate) version: &'a SolverVersions,
    /// The sweep.
    pub(crate) sweep_id: &'a str,
    /// The shard.
    pub(crate) index: u32,
    /// The lease attempt.
    pub(crate) attempt: u32,
    /// The result.
    pub(crate) result: &'a Output,
    /// Its position digest, if its lease asked for one (see
    /// [`Core::salt_for`]); `None` otherwise.
    pub(crate) positions: Option<u64>,
}

impl Core {
    /// Quarantine workers caught disagreeing (`serve --quarantine-on-mismatch`).
    pub fn set_quarantine_on_mismatch(&self, on: bool) {
        self.lock().quarantine.on_mismatch = on;
    }

    /// The quarantined workers, by id.
    pub fn quarantined(&self) -> Vec<String> {
        self.lock().quarantine.workers.keys().cloned().collect()
    }

    /// Leases of verification copies for `worker`, at most `room` (the
    /// open verifications no eligible worker is around for are skipped by
    /// [`Core::tick`], which `lease` calls after this); not a copy whose
    /// last lease's holder `lost` says may not have it back yet, told who
    /// may run that copy: only they count as waiting for it (core/fair.rs).
    pub(crate) fn lease_copies(
        &self,
        st: &mut State,
        worker: &str,
        version: &SolverVersions,
        room: usize,
        until_ms: u64,
        lost: &LostCopy<'_>,
    ) -> Result<Vec<Granted>, CoreError> {
        let now_ms = until_ms - self.lease_ms;
        let State {
            sweeps, quarantine, ..
        } = st;
        let mut out = Vec::new();
        if room == 0 || quarantine.workers.contains_key(worker) {
            return Ok(out);
        }
        for s in sweeps.values_mut() {
            // A paused sweep hands out no verification copy either.
            if s.record.state != SweepState::Running || s.record.paused || !s.replication.pending()
            {
                continue;
            }
            if !s.served_by(version) {
                continue;
            }
            let open: Vec<u32> = s.replication.records.tally().open.iter().copied().collect();
            for i in open {
                if out.len() >= room {
                    return Ok(out);
                }
                let mut rec = s.replication.records.get_mut(&i).expect("listed above");
                if rec
                    .lease
                    .as_ref()
                    .is_some_and(|l| l.until_ms > now_ms || lost(&l.worker, &|w| eligible(&rec, w)))
                    || !eligible(&rec, worker)
                {
                    continue;
                }
                let attempt = {
                    let a = s.attempts.entry(i).or_insert(0);
                    *a += 1;
                    *a
                };
                if rec.lease.is_some() {
                    s.leases_expired += 1;
                }
                let nonce = super::tokens::fresh_nonce();
                rec.lease = Some(LeaseRecord {
                    worker: worker.to_string(),
                    until_ms,
                    attempt,
                    granted_ms: now_ms,
                    nonce,
                });
                self.store.put_replication(&s.record.id, i, Some(&rec))?;
                info!(sweep = %s.record.id, shard = i, attempt, "verification copy leased");
                drop(rec);
                out.push(Granted {
                    sweep_id: s.record.id.clone(),
                    kind: s.kind,
                    params: s.record.params.clone(),
                    shard: s.plan[i as usize].clone(),
                    attempt,
                    token: self.lease_token(s, i, worker, nonce),
                    salt: self.salt_for(s, i, worker),
                });
            }
        }
        Ok(out)
    }

    /// The wait of open verifications for a second identity, advanced
    /// without any Lease: every open record that may be skipped
    /// ([`skippable`]), has no live copy lease, whose wait began
    /// [`SKIP_PERIODS`] lease periods ago or more ([`wait_start`], from
    /// the store: restarts do not reset it), and for which no eligible
    /// worker is around ([`around`]) is skipped as
    /// [`Verdict::Unverifiable`]; a record without a stored start (an old
    /// store, or one recovered without a record) gets one now. Runs at most
    /// once per [`TICK_EVERY`] (or a quarter lease period, if shorter):
    /// `serve` and `run` call it once a second, and every Lease and status
    /// calls it too. Returns how many were skipped.
    pub fn tick(&self) -> Result<u32, CoreError> {
        let now = self.clock.now();
        let mut st = self.lock();
        self.tick_locked(&mut st, now)
    }

    /// [`Core::tick`] under the lock.
    pub(crate) fn tick_locked(&self, st: &mut State, now: Instant) -> Result<u32, CoreError> {
        let every = TICK_EVERY.min(Duration::from_millis(self.lease_ms / 4));
        if st
            .replication_ticked
            .is_some_and(|t| now.saturating_duration_since(t) < every)
        {
            return Ok(0);
        }
        st.replication_ticked = Some(now);
        let now_ms = self.epoch.unix_ms(now);
        let window_ms = self.skip_window_ms();
        let around = around(st, now, now_ms, self.lease_ms);
        let mut skipped = 0;
        for s in st.sweeps.values_mut() {
            if s.record.state != SweepState::Running || s.record.paused || !s.replication.pending()
            {
                continue;
            }
            let replicate_all = s.record.replicate_all;
            let open: Vec<u32> = s.replication.records.tally().open.iter().copied().collect();
            for i in open {
                let rec = s.replication.records.get(&i).expect("listed above");
                let changed = if rec.since_ms.is_none() {
                    // Stored before the start was: its wait starts now.
                    let mut r = rec.clone();
                    r.since_ms = Some(now_ms);
                    r
                } else if skippable(replicate_all, rec)
                    && rec.lease.as_ref().is_none_or(|l| l.until_ms <= now_ms)
                    && now_ms >= wait_start(rec, now_ms).saturating_add(window_ms)
                    && !around.iter().any(|w| eligible(rec, w))
                {
                    let mut r = rec.clone();
                    r.verdict = Verdict::Unverifiable;
                    r.lease = None;
                    r
                } else {
                    continue;
                };
                // The store first: memory changes only once it is written.
                self.store
                    .put_replication(&s.record.id, i, Some(&changed))?;
                if changed.verdict == Verdict::Unverifiable {
                    skipped += 1;
                    warn!(sweep = %s.record.id, shard = i, "no other identity to verify this shard; skipped as unverifiable");
                }
                s.replication.records.insert(i, changed);
            }
        }
        Ok(skipped)
    }

    /// [`SKIP_PERIODS`] lease periods, in milliseconds.
    pub(crate) fn skip_window_ms(&self) -> u64 {
        u64::from(SKIP_PERIODS).saturating_mul(self.lease_ms)
    }

    /// Renew `worker`'s verification copy `lease` of shard `index` (the
    /// lease its token named); whether it is still its.
    pub(crate) fn renew_copy(
        &self,
        s: &mut Sweep,
        index: u32,
        lease: &LeaseRecord,
        worker: &str,
        until_ms: u64,
    ) -> Result<bool, CoreError> {
        let running = s.record.state == SweepState::Running;
        let Some(mut rec) = s.replication.records.get_mut(&index) else {
            return Ok(false);
        };
        let mine = rec.open() && running && lease.worker == worker;
        if mine {
            rec.lease = Some(LeaseRecord {
                until_ms,
                ..lease.clone()
            });
            self.store
                .put_replication(&s.record.id, index, Some(&rec))?;
        }
        Ok(mine)
    }

    /// Give back the verification copy of shard `index` (its token named
    /// it); whether there was one.
    pub(crate) fn release_copy(&self, s: &mut Sweep, index: u32) -> Result<bool, CoreError> {
        let Some(mut rec) = s.replication.records.get_mut(&index) else {
            return Ok(false);
        };
        if rec.lease.is_none() {
            return Ok(false);
        }
        rec.lease = None;
        self.store
            .put_replication(&s.record.id, index, Some(&rec))?;
        drop(rec);
        s.leases_released += 1;
        self.store.put_stats(&s.record.id, &s.stats())?;
        Ok(true)
    }

    /// After a result of shard `index` was accepted from `worker` (its
    /// origin stored with it, `Store::put_result_from`): note where it came
    /// from, and open its verification if it is selected.
    pub(crate) fn replication_accepted(
        &self,
        s: &mut Sweep,
        agreements: u32,
        index: u32,
        worker: &str,
        attempt: u32,
        (result, positions): (&Output, Option<u64>),
    ) -> Result<(), CoreError> {
        s.replication.origins.insert(index, worker.to_string());
        // Adaptive replication: an issued identity's results are all
        // verified until it has earned trust (TRUST_AFTER agreements), then
        // a spot-checked share of them (SPOT_PPM). A
        // shared token's are verified at the sampled share only: nobody can
        // earn trust for it. Only in sweeps launched with verification.
        let purpose = if s.replication.selected.contains(&index) {
            Some(ReplicationPurpose::Sampled)
        } else if s.replication.ppm > 0 && is_issued(worker) && agreements < TRUST_AFTER {
            Some(ReplicationPurpose::Untrusted)
        } else if s.replication.ppm > 0
            && is_issued(worker)
            && spot_checked(s.replication.seed, index)
        {
            // Past its probation: a spot check of SPOT_PPM of its results.
            Some(ReplicationPurpose::Spot)
        } else {
            None
        };
        if let Some(purpose) = purpose.filter(|_| !s.replication.records.contains_key(&index)) {
            let now_ms = self.epoch.unix_ms(self.clock.now());
            let mut rec = first_run(
                worker.to_string(),
                attempt,
                run_digest(&result.encode(), positions),
                Some(now_ms),
            );
            rec.purpose = purpose;
            self.store
                .put_replication(&s.record.id, index, Some(&rec))?;
            s.replication.records.insert(index, rec);
        }
        Ok(())
    }

    /// Before the ordinary acceptance of a submit: `Some(accepted)` if
    /// verification handled it (a verification run, or a quarantined
    /// worker's submit, ignored), `None` to accept it the ordinary way.
    pub(crate) fn replication_submit(
        &self,
        st: &mut State,
        run: &Run<'_>,
    ) -> Result<Option<bool>, CoreError> {
        let now = self.clock.now();
        let quarantined = st.quarantine.workers.contains_key(run.worker);
        let (s, state) = st.shard_of(run.sweep_id, run.index, run.version)?;
        if quarantined {
            s.duplicates_ignored += 1;
            self.store.put_stats(run.sweep_id, &s.stats())?;
            warn!(worker = %run.worker, shard = run.index, "result from a quarantined worker ignored");
            return Ok(Some(false));
        }
        let Some(mut rec) = s.replication.records.get_mut(&run.index) else {
            return Ok(None);
        };
        // Only the copy's lease runs a verification: the coordinator chose
        // its holder, so nobody can volunteer a confirmation.
        let ran = if rec.purpose == ReplicationPurpose::Conflict {
            !may_decide(&rec, run.worker)
        } else {
            rec.ran_as(voter(run.worker))
        };
        if !run.copy || state != ShardState::Done || !rec.open() || ran {
            return Ok(None);
        }
        if run.result.kind() != s.record.kind {
            return Ok(None); // refused by the ordinary path, with its message
        }
        let bytes = run.result.encode();
        let digest = run_digest(&bytes, run.positions);
        rec.runs.push(ReplicationRun {
            worker: run.worker.to_string(),
            attempt: run.attempt,
            digest,
            result: Some(String::from_utf8(bytes).map_err(|e| {
                CoreError::BadRequest(format!("shard result is not UTF-8 JSON: {e}"))
            })?),
        });
        if rec.lease.as_ref().is_some_and(|l| l.worker == run.worker) {
            rec.lease = None;
        }
        drop(rec);
        let (agreed, losers) = self.settle(s, run.index, now)?;
        for w in agreed {
            let t = st.trust.entry(w.clone()).or_default();
            t.agreements = t.agreements.saturating_add(1);
            self.store.put_trust(&w, t)?;
        }
        // One disagreement withdraws an identity's trust: everything it gave
        // in unfinished sweeps is verified again, and its next results are
        // all verified until it has earned trust again.
        let losers: Vec<String> = losers.into_iter().filter(|w| is_issued(w)).collect();
        if !losers.is_empty() {
            self.distrust(st, &losers, run.sweep_id)?;
            if st.quarantine.on_mismatch {
                self.quarantine(st, &losers, run.sweep_id, run.index)?;
            }
        }
        Ok(Some(true))
    }

    /// Withdraw the trust of issued identities caught giving a wrong
    /// result (out-voted, or refused by a recount): their next results are
    /// all verified until they earned trust again, and everything they gave
    /// in unfinished sweeps (and in `sweep`) is verified again.
    pub(crate) fn distrust(
        &self,
        st: &mut State,
        identities: &[String],
        sweep: &str,
    ) -> Result<(), CoreError> {
        for w in identities {
            let t = st.trust.entry(w.clone()).or_default();
            t.agreements = 0;
            t.disagreements = t.disagreements.saturating_add(1);
            self.store.put_trust(w, t)?;
        }
        self.recheck_all(st, identities, sweep)
    }

    /// Decide shard `index`'s verification from its runs, counting
    /// identities, not runs: all the worker ids of one credential are one
    /// voice, every shared-token run together is one voice that never
    /// counts towards a majority. Agreement of two identities verifies; on
    /// a mismatch the digest of at least two issued identities, and more
    /// than any other digest's, wins. Returns the issued identities that
    /// agreed (verified, or on the winning side) and the workers out-voted.
    fn settle(
        &self,
        s: &mut Sweep,
        index: u32,
        now: Instant,
    ) -> Result<(Vec<String>, Vec<String>), CoreError> {
        let id = s.record.id.clone();
        let with_digests = digests(s);
        let mut guard = s
            .replication
            .records
            .get_mut(&index)
            .expect("caller checked");
        let rec: &mut ReplicationRecord = &mut guard;
        // What each run votes for (a run without a position digest in a
        // sweep that asks for them votes for nothing), and the first run's
        // result, which the winner may replace.
        let votes: Vec<Option<&str>> = rec
            .runs
            .iter()
            .map(|r| vote(rec, r, with_digests))
            .collect();
        let mut voices: BTreeMap<&str, std::collections::BTreeSet<&str>> = BTreeMap::new();
        for (r, v) in rec.runs.iter().zip(&votes) {
            if let Some(v) = v {
                voices.entry(v).or_default().insert(voter(&r.worker));
            }
        }
        let issued = |d: &str| voices[d].iter().filter(|v| is_issued(v)).count();
        let top = voices.keys().map(|d| issued(d)).max().unwrap_or(0);
        let leaders: Vec<&str> = voices
            .keys()
            .copied()
            .filter(|d| issued(d) == top)
            .collect();
        // A run agrees with the winning vote `w`: it votes for it, or, voting
        // for nothing, its result is the winner's.
        let agrees = |i: usize, w: &str| match votes[i] {
            Some(v) => v == w,
            None => result_part(&rec.runs[i].digest) == result_part(w),
        };
        let mut losers = Vec::new();
        let mut agreed = Vec::new();
        let mut replacement = None;
        let all_voices: std::collections::BTreeSet<&str> =
            voices.values().flatten().copied().collect();
        let unanimous = voices.len() == 1 && all_voices.len() >= 2;
        let winner: Option<String> = if unanimous {
            voices.keys().next().map(|w| w.to_string())
        } else if top >= 2 && leaders.len() == 1 {
            Some(leaders[0].to_string())
        } else {
            None
        };
        let overruled =
            import_overruled(rec).map(|w| (w.result.clone().unwrap_or_default(), w.worker.clone()));
        let conflict = (rec.purpose == ReplicationPurpose::Conflict)
            .then(|| settle_conflict(rec))
            .flatten();
        if rec.purpose == ReplicationPurpose::Conflict {
            if let Some((carrier, lost)) = conflict {
                let replaced = carrier.is_some();
                if let Some(c) = carrier {
                    let w = &rec.runs[c];
                    replacement = Some((w.result.clone().unwrap_or_default(), w.worker.clone()));
                }
                agreed = rec
                    .runs
                    .iter()
                    .filter(|r| !lost.contains(&r.worker) && is_issued(voter(&r.worker)))
                    .map(|r| voter(&r.worker).to_string())
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect();
                losers = lost;
                warn!(sweep = %id, shard = index, disagreeing = ?losers, replaced, "an import's conflict decided by a deciding run");
                rec.verdict = Verdict::Majority {
                    disagreeing: losers.clone(),
                    replaced,
                };
                rec.lease = None;
            } else {
                rec.since_ms = Some(self.epoch.unix_ms(now));
                warn!(sweep = %id, shard = index, "an import's conflict undecided: the shard runs again");
            }
        } else if let Some(winner) = winner.as_ref().filter(|w| unanimous && agrees(0, w)) {
            rec.verdict = Verdict::Verified;
            agreed = voices[winner.as_str()]
                .iter()
                .filter(|v| is_issued(v))
                .map(|v| v.to_string())
                .collect();
            info!(sweep = %id, shard = index, runs = rec.runs.len(), "verified");
        } else if let Some(winner) = winner {
            agreed = voices[winner.as_str()]
                .iter()
                .filter(|v| is_issued(v))
                .map(|v| v.to_string())
                .collect();
            losers = (0..rec.runs.len())
                .filter(|&i| !agrees(i, &winner))
                .map(|i| rec.runs[i].worker.clone())
                .collect();
            losers.sort();
            losers.dedup();
            let replaced = !agrees(0, &winner);
            if replaced {
                let w = (1..rec.runs.len())
                    .find(|&i| votes[i] == Some(winner.as_str()) && rec.runs[i].result.is_some())
                    .map(|i| &rec.runs[i])
                    .expect("the winner has two runs, so one besides the first");
                replacement = Some((w.result.clone().unwrap_or_default(), w.worker.clone()));
            }
            warn!(sweep = %id, shard = index, disagreeing = ?losers, replaced, "verification mismatch settled by majority");
            rec.verdict = Verdict::Majority {
                disagreeing: losers.clone(),
                replaced,
            };
            rec.lease = None;
        } else if let Some(w) = overruled {
            // An untrusted import's run is no vote: the workers' agreeing
            // runs replace it (core/transfer.rs).
            losers = vec![rec.runs[0].worker.clone()];
            replacement = Some(w);
            warn!(sweep = %id, shard = index, import = %rec.runs[0].worker, "an imported result without a trusted signature was wrong; replaced by the worker's");
            rec.verdict = Verdict::Majority {
                disagreeing: losers.clone(),
                replaced: true,
            };
            rec.lease = None;
        } else {
            // Still open: its wait for another identity starts again.
            rec.since_ms = Some(self.epoch.unix_ms(now));
            if voices.len() > 1 {
                warn!(sweep = %id, shard = index, "verification mismatch: the shard runs again on another identity");
            }
        }
        drop(guard);
        let rec = s.replication.records.get(&index).expect("still there");
        self.store.put_replication(&id, index, Some(rec))?;
        if let Some((bytes, worker)) = replacement {
            self.store
                .replace_result(&id, index, bytes.as_bytes(), &worker)?;
            s.replication.origins.insert(index, worker);
            s.timings.remove(&index);
            self.rebuild(s)?;
        }
        Ok((agreed, losers))
    }

    /// Settle conflict record `index` of `s` at once if its runs already
    /// decide it (an import's result against a shard verified before):
    /// [`settle_conflict`]. Trust is not counted: the file's runs are not
    /// this coordinator's identities' work.
    pub(crate) fn settle_now(&self, s: &mut Sweep, index: u32) -> Result<(), CoreError> {
        let decided = s.replication.records.get(&index).is_some_and(|r| {
            r.purpose == ReplicationPurpose::Conflict && settle_conflict(r).is_some()
        });
        if decided {
            self.settle(s, index, self.clock.now())?;
        }
        Ok(())
    }

    /// Merge the stored results of `s` again (one was replaced).
    fn rebuild(&self, s: &mut Sweep) -> Result<(), CoreError> {
        self.fill_in(s)?;
        let bad = |e: gamesweep::sweep::SweepError| CoreError::Render(e.to_string());
        let kind = s.kind;
        let mut merged = kind.empty();
        let mut digest = SetDigest::default();
        for (i, bytes) in self.store.results_of(&s.record.id)? {
            if s.states.get(i as usize) != Some(&ShardState::Done) {
                continue;
            }
            digest = digest.union(SetDigest::of(i, &crate::store::journal::digest(&bytes)));
            let r = kind.decode(&bytes).map_err(bad)?;
            s.work[i as usize] = r.work();
            merged.merge(r).map_err(bad)?;
        }
        s.merged = merged;
        s.done_digest = digest;
        // A render of it (finished before, or by an earlier vote) is stale.
        self.forget_render(&s.record.id);
        // The store dropped the snapshot with the replaced result.
        s.snapshotted = 0;
        s.recount_work();
        Ok(())
    }

    /// Quarantine `workers` (out-voted on shard `shard` of `sweep`): no more
    /// leases; shards they hold go back to pending (their results are
    /// verified again by [`Core::recheck_all`], called before).
    fn quarantine(
        &self,
        st: &mut State,
        workers: &[String],
        sweep: &str,
        shard: u32,
    ) -> Result<(), CoreError> {
        for w in workers {
            if st.quarantine.workers.contains_key(w) || w.is_empty() {
                continue;
            }
            let rec = QuarantineRecord {
                worker: w.clone(),
                sweep: sweep.to_string(),
                shard,
            };
            self.store.put_quarantine(&rec)?;
            st.quarantine.workers.insert(w.clone(), rec);
            warn!(worker = %w, "worker quarantined: it gets no more leases");
            for s in st.sweeps.values_mut() {
                if s.record.state != SweepState::Running {
                    continue;
                }
                let id = s.record.id.clone();
                let theirs: Vec<u32> = s
                    .tally
                    .leased
                    .iter()
                    .copied()
                    .filter(|&i| {
                        matches!(&s.states[i as usize], ShardState::Leased(l) if &l.worker == w)
                    })
                    .collect();
                for i in theirs {
                    s.set_state(i, ShardState::Pending);
                    s.progress.remove(&i);
                    self.store.put_lease(&id, i, None)?;
                }
                s.replication.records.for_each_mut(|r| {
                    if r.lease.as_ref().is_some_and(|l| &l.worker == w) {
                        r.lease = None;
                    }
                });
            }
        }
        Ok(())
    }

    /// Verify again every result accepted from `workers` (identities whose
    /// trust was just withdrawn, out-voted on a shard of `sweep`) in every
    /// sweep of the store, finished ones included (retroactively): each
    /// gets a [`ReplicationPurpose::Recheck`] record unless one is open or
    /// settled by other identities already. A finished sweep that gets one
    /// is running again (status says why) until they are settled by the
    /// mismatch and vote of any verification, or skipped as unverifiable
    /// when no other identity is around; its cached render is dropped.
    pub(crate) fn recheck_all(
        &self,
        st: &mut State,
        workers: &[String],
        sweep: &str,
    ) -> Result<(), CoreError> {
        let now_ms = self.epoch.unix_ms(self.clock.now());
        for w in workers {
            warn!(identity = %w, caught_in = %sweep, "out-voted: its trust is withdrawn and every result it gave is verified again");
            for s in st.sweeps.values_mut() {
                if s.record.state != SweepState::Running {
                    continue;
                }
                let was_finished = s.finished();
                self.fill_in(s)?;
                let id = s.record.id.clone();
                let theirs: Vec<u32> = s
                    .replication
                    .origins
                    .iter()
                    .filter(|(i, o)| {
                        *o == w && s.states.get(**i as usize) == Some(&ShardState::Done)
                    })
                    .map(|(i, _)| *i)
                    .collect();
                let stored = if theirs.is_empty() {
                    BTreeMap::new()
                } else {
                    self.store.results_of(&id)?
                };
                for i in theirs {
                    let rec = match s.replication.records.get_mut(&i) {
                        // Already being verified, or verified by others.
                        Some(r) if r.verdict != Verdict::Unverifiable => continue,
                        Some(mut r) => {
                            r.verdict = Verdict::Open;
                            r.purpose = ReplicationPurpose::Recheck;
                            r.since_ms = Some(now_ms);
                            r.clone()
                        }
                        None => {
                            let Some(bytes) = stored.get(&i) else {
                                continue;
                            };
                            let mut r = first_run(w.clone(), 0, digest(bytes), Some(now_ms));
                            r.purpose = ReplicationPurpose::Recheck;
                            r
                        }
                    };
                    self.store.put_replication(&id, i, Some(&rec))?;
                    s.replication.records.insert(i, rec);
                }
                if was_finished && !s.finished() {
                    self.forget_render(&id);
                    warn!(sweep = %id, identity = %w, pending = s.replication.records.tally().open.len(), "a finished sweep runs again: the results of an identity caught giving a wrong result are verified again");
                }
            }
        }
        Ok(())
    }
}
