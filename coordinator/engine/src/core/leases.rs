//! Leases: handing shards to workers, renewing them, and taking back the
//! expired ones (an expired lease counts as pending; its shard is re-issued
//! under the next attempt number). Every lease carries a token (see
//! `tokens`); renewals and releases without the lease's token are refused
//! and counted. One worker holds at most `Limits::max_shards_per_worker`
//! leases, and a lease is not renewed past `Limits::max_lease_total`.

use super::fair;
use super::model::{
    check_worker, is_issued, CoreError, End, Named, ShardState, State, Sweep, MAX_FAILURES,
    TRUST_AFTER,
};
use super::tokens::LeaseClaim;
use super::Core;
use crate::store::LeaseRecord;
use gamesweep::sweep::{Params, ShardSpec};
use gamesweep_api::SolverVersions;
use std::collections::BTreeMap;
use tracing::{debug, info, info_span, warn};

/// One granted lease.
#[derive(Clone, Debug)]
pub struct Granted {
    /// The sweep.
    pub sweep_id: String,
    /// Its kind.
    pub kind: super::model::KindRef,
    /// Its params.
    pub params: Params,
    /// The shard.
    pub shard: ShardSpec,
    /// Attempt number of this lease.
    pub attempt: u32,
    /// The lease's token, to send back with renewals, the result or a failure.
    pub token: String,
    /// The salt of the position digest the result must carry, when its run
    /// may be compared with another identity's (see [`Core::salt_for`]).
    pub salt: Option<u64>,
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
    /// The lease's token (it names the lease; nothing else the worker says
    /// about the lease is trusted).
    pub token: String,
    /// Positions done so far.
    pub progress: u64,
}

/// The pass advance per shard of a priority-1 sweep (see `Core::lease`).
const STRIDE: u64 = 1 << 20;

/// How far a shard moves sweep `s` in the fair share: [`STRIDE`] / priority.
fn stride(s: &Sweep) -> u64 {
    STRIDE / u64::from(s.priority())
}

/// Sweep `s`'s pass, at most one stride behind `vtime` (the pass of the
/// sweep served last).
fn effective_pass(s: &Sweep, vtime: u64) -> u64 {
    s.pass.max(vtime.saturating_sub(stride(s)))
}

/// Unexpired leases `worker` holds at `now_ms`, over every sweep.
fn held_by(st: &State, worker: &str, now_ms: u64) -> u32 {
    st.sweeps
        .values()
        .fold(0u32, |n, s| n.saturating_add(s.held_by(worker, now_ms)))
}

/// Unexpired leases the holders of identity `id` hold at `now_ms`, over
/// every sweep.
fn held_by_identity(st: &State, id: &str, now_ms: u64) -> u32 {
    st.sweeps.values().fold(0u32, |n, s| {
        s.tally
            .by_worker
            .keys()
            .filter(|w| fair::identity(w) == id)
            .fold(n, |n, w| n.saturating_add(s.held_by(w, now_ms)))
    })
}

/// The lease (sweep, shard) of the sweeps `candidates` that `worker` may
/// take at `now_ms` (core/fair.rs), if any: not its own, in the lease
/// order, not one `skip` excludes; first the lease whose progress stalled
/// longest (for `stall_ms` at least), else, while `worker`'s identity is
/// under its share, the lease with the least progress, most recently
/// granted, of the identity furthest over its share.
fn victim(
    st: &State,
    candidates: &[String],
    worker: &str,
    shares: &fair::Shares,
    now_ms: u64,
    stall_ms: u64,
    skip: impl Fn(&Sweep, u32) -> bool,
) -> Option<(String, u32)> {
    let me = fair::identity(worker);
    let (mine, my_share) = (shares.held_of(me), shares.share_of(me));
    // (stalled since, sweep, shard) and (-(excess), progress, -(granted), sweep, shard).
    let mut stalled: Option<(u64, &str, u32)> = None;
    type Over<'a> = (i64, u64, std::cmp::Reverse<u64>, &'a str, u32);
    let mut over: Option<Over<'_>> = None;
    for id in candidates {
        let Some(s) = st.sweeps.get(id) else { continue };
        for (i, l) in s.held(now_ms) {
            if l.worker == worker
                || s.rank
                    .get(i as usize)
                    .is_none_or(|&r| r == super::model::UNORDERED)
                || skip(s, i)
            {
                continue;
            }
            // Stalled: its reported progress has not grown, or it has gone
            // on without its result for longer than the sweep's pace allows
            // whatever it reports (core/fair.rs, `Patience`).
            let since = s
                .growth
                .get(&l.nonce)
                .filter(|g| g.stalled(now_ms, stall_ms))
                .map(|g| g.at_ms)
                .or_else(|| s.overdue(i, l, now_ms, stall_ms).then_some(l.granted_ms));
            if let Some(since) = since {
                if stalled.is_none_or(|(at, _, _)| since < at) {
                    stalled = Some((since, id.as_str(), i));
                }
                continue;
            }
            let theirs = fair::identity(&l.worker);
            if theirs == me {
                continue;
            }
            let (held, share) = (shares.held_of(theirs), shares.share_of(theirs));
            if !fair::may_take(mine, my_share, held, share) {
                continue;
            }
            let excess = (f64::from(held) - share).floor() as i64;
            let progress = s.progress.get(&i).copied().unwrap_or(0);
            let key = (
                -excess,
                progress,
                std::cmp::Reverse(l.granted_ms),
                id.as_str(),
                i,
            );
            if over.as_ref().is_none_or(|o| key < *o) {
                over = Some(key);
            }
        }
    }
    stalled
        .map(|(_, id, i)| (id.to_string(), i))
        .or_else(|| over.map(|(_, _, _, id, i)| (id.to_string(), i)))
}

impl Core {
    /// How recently a worker must have got fewer shards than it asked for
    /// to count as waiting: a lease period, at least a second (a waiting
    /// worker asks again every quarter second).
    pub(crate) fn window_ms(&self) -> u64 {
        self.lease_ms.max(1_000)
    }

    /// The live identities' demands and holdings over the sweeps
    /// `candidates` at `now_ms` (core/fair.rs).
    fn shares(&self, st: &State, candidates: &[String], now_ms: u64) -> fair::Shares {
        let now = self.clock.now();
        let alive = std::time::Duration::from_millis(self.lease_ms.saturating_mul(3));
        let mut held: BTreeMap<String, u32> = BTreeMap::new();
        let mut open = 0u32;
        for id in candidates {
            let Some(s) = st.sweeps.get(id) else { continue };
            open = open
                .saturating_add(s.tally.pending.len() as u32)
                .saturating_add(s.tally.leased.len() as u32);
            for (_, l) in s.held(now_ms) {
                *held.entry(l.worker.clone()).or_insert(0) += 1;
            }
        }
        fair::Shares::new(
            st.workers
                .iter()
                .filter(|(_, w)| now.saturating_duration_since(w.last_seen) < alive)
                .map(|(id, w)| (id.as_str(), w.asked)),
            &held,
            open,
            self.limits.max_shards_per_worker,
            now_ms,
            self.window_ms(),
        )
    }

    /// The token of lease `nonce` of shard `index` of `s`, held by `holder`.
    pub(crate) fn lease_token(&self, s: &Sweep, index: u32, holder: &str, nonce: u64) -> String {
        self.key.token(
            &LeaseClaim {
                sweep_id: &s.record.id,
                seq: s.record.seq,
                index,
                holder,
            },
            nonce,
        )
    }

    /// The salt of the position digest a result of shard `index` of `s`
    /// from `holder` must carry: asked of an issued identity (the only
    /// runs compared as votes) in a sweep with verification, when the
    /// sweep's kind computes position digests
    /// ([`gamesweep::sweep::SweepKind::position_digest`]); `None`
    /// otherwise (`gamesweep run`'s one identity computes none). It
    /// depends on nothing a lease reveals, so a first run and a copy look
    /// alike.
    pub(crate) fn salt_for(&self, s: &Sweep, index: u32, holder: &str) -> Option<u64> {
        // The same condition as the votes' (`replication::digests`).
        let asked = (s.replication.ppm > 0 || s.record.replicate_all)
            && is_issued(holder)
            && s.kind.position_digest();
        asked.then(|| self.key.salt(&s.record.id, s.record.seq, index))
    }

    /// The lease of shard `index` of `s` that `token` names, if `token` is
    /// a token the coordinator made for `holder` and that shard (else
    /// `None`: refused and counted by the caller).
    pub(crate) fn opened(&self, s: &Sweep, index: u32, holder: &str, token: &str) -> Option<Named> {
        if index as usize >= s.states.len() {
            return None;
        }
        let claim = LeaseClaim {
            sweep_id: &s.record.id,
            seq: s.record.seq,
            index,
            holder,
        };
        self.key
            .open(&claim, token)
            .map(|nonce| s.named(index, nonce))
    }

    /// Lease up to `max` shards to `worker`. Expired leases count as pending.
    /// A worker whose version matches no unfinished sweep is refused.
    /// At most `Limits::max_shards_per_worker` leases are held by one
    /// worker: a request for more gets what is left under the cap. A shard
    /// this worker has failed [`MAX_FAILURES`] times is left to the other
    /// workers while any is alive. Several sweeps share the workers by
    /// priority (a weighted round robin over the running, unpaused sweeps);
    /// a paused sweep hands out nothing.
    pub fn lease(
        &self,
        worker: &str,
        version: &SolverVersions,
        max: u32,
    ) -> Result<LeaseOutcome, CoreError> {
        check_worker(worker)?;
        let span = info_span!("lease", worker = %worker);
        let _g = span.enter();
        let now = self.clock.now();
        let now_ms = self.epoch.unix_ms(now);
        let until_ms = now_ms.saturating_add(self.lease_ms);
        let mut st = self.lock();
        st.seen(worker, now, self.lease_ms);
        // Replicated validation (core/replication.rs): a quarantined worker gets nothing.
        if st.quarantine.workers.contains_key(worker) {
            return Ok(LeaseOutcome {
                leases: Vec::new(),
                idle: false,
            });
        }
        // Every cap counts identities (core/fair.rs): a credential, or every
        // holder under a shared token together.
        let me = fair::identity(worker).to_string();
        let cap = self.limits.max_shards_per_worker;
        let asked = max.min(cap);
        let held_here = held_by(&st, worker, now_ms);
        let mut max = asked.min(cap.saturating_sub(held_by_identity(&st, &me, now_ms)));
        if let Some(w) = st.workers.get_mut(worker) {
            w.asked.demand = held_here.saturating_add(asked).min(cap);
        }
        // A shard this worker failed MAX_FAILURES times goes to others while
        // any is alive; the walk over the workers only if there is one.
        let failed_here = |s: &Sweep, i: u32| {
            s.failures
                .get(&i)
                .is_some_and(|f| f.count >= MAX_FAILURES && f.workers.iter().any(|w| w == worker))
        };
        let any_failed_here = st
            .sweeps
            .values()
            .any(|s| s.failures.keys().any(|&i| failed_here(s, i)));
        let others_alive = any_failed_here && st.others_alive(worker, now, self.lease_ms);
        // An issued identity that has not earned trust yet has every result
        // replicated (core/replication.rs): it gets the smallest shards first, so
        // that its probation costs the fleet little (docs/trust.md). While on
        // probation every result of it is replicated anyway, so what it can
        // guess from a shard's place in the order gains it nothing.
        let probation =
            is_issued(worker) && st.trust.get(worker).map_or(0, |t| t.agreements) < TRUST_AFTER;
        // Replicated validation (core/replication.rs): verification copies first,
        // so that they do not all wait for the end of the sweep.
        // A copy whose lease this worker lost is not handed straight back
        // to it while others wait (core/fair.rs).
        // Only a waiting worker that may run the copy counts: one that ran
        // the shard waits for other work, and never gets the copy, so a
        // copy whose only eligible identity lost it goes back to it.
        let (others_wait, holders_wait) = st.others_waiting(worker, now_ms, self.window_ms());
        let waiters = st.waiting_others(worker, now_ms, self.window_ms());
        let lost_copy = |old: &str, may_run: &dyn Fn(&str) -> bool| {
            let eligible: Vec<&String> = waiters.iter().filter(|w| may_run(w)).collect();
            let identity_waits = eligible
                .iter()
                .any(|w| fair::identity(w) != fair::identity(worker));
            fair::lost_to(old, worker, identity_waits, !eligible.is_empty())
        };
        let mut out =
            self.lease_copies(&mut st, worker, version, max as usize, until_ms, &lost_copy)?;
        // And those no eligible worker is around for are skipped.
        self.tick_locked(&mut st, now)?;
        let mut unfinished = 0;
        let mut mismatch: Option<(String, String)> = None;
        // The sweeps this worker may be served from now: running, not
        // paused, of its solver version.
        let mut candidates: Vec<String> = Vec::new();
        for s in st.sweeps.values() {
            if !s.servable() {
                continue;
            }
            unfinished += 1;
            if s.record.paused {
                continue;
            }
            if !s.served_by(version) {
                mismatch.get_or_insert((s.record.id.clone(), s.record.solver_version.clone()));
                continue;
            }
            candidates.push(s.record.id.clone());
        }
        // Fair shares between identities (core/fair.rs): while another
        // identity waits, at most this identity's share; a shard it lost
        // is not handed straight back to it.
        let shares = self.shares(&st, &candidates, now_ms);
        if others_wait {
            let room = fair::allowance(shares.share_of(&me), shares.held_of(&me));
            let within = (out.len() as u32).saturating_add(room);
            if within < max {
                // Cut to its share: status says so (core/fair.rs).
                st.held_back.entry(me.clone()).or_default().limited_ms = Some(now_ms);
            }
            max = max.min(within);
        }
        let lost = |s: &Sweep, i: u32| match &s.states[i as usize] {
            ShardState::Leased(l) => fair::lost_to(&l.worker, worker, others_wait, holders_wait),
            _ => false,
        };
        // Fair share (stride scheduling, a weighted round robin): each shard
        // goes to the candidate with the lowest pass, which then advances by
        // STRIDE / priority; a sweep that was idle (new, resumed, paused)
        // starts at most one stride ahead of the sweep served last, so it
        // cannot take every lease until it has caught up.
        let mut vtime = st.vtime;
        let all_candidates = candidates.clone();
        while (out.len() as u32) < max && !candidates.is_empty() {
            let pick = candidates
                .iter()
                .enumerate()
                .min_by_key(|(_, id)| {
                    let s = &st.sweeps[id.as_str()];
                    (effective_pass(s, vtime), s.record.seq)
                })
                .map(|(ci, _)| ci)
                .expect("candidates are not empty");
            let s = st
                .sweeps
                .get_mut(candidates[pick].as_str())
                .expect("a candidate is a sweep");
            // Probation only where the sweep replicates an untrusted
            // identity's results (launched with verification).
            let end = if probation && s.replication.ppm > 0 {
                End::Smallest
            } else {
                End::Largest
            };
            let free = s.first_free(now_ms, end, |i| {
                (others_alive && failed_here(s, i)) || lost(s, i)
            });
            let Some(i) = free else {
                candidates.swap_remove(pick);
                continue;
            };
            let pass = effective_pass(s, vtime);
            s.pass = pass.saturating_add(stride(s));
            vtime = vtime.max(pass);
            let expired_before = s.leases_expired;
            let lease = s.grant(i, worker, now_ms, until_ms);
            self.store.put_lease(&s.record.id, i, Some(&lease))?;
            if s.leases_expired != expired_before {
                self.store.put_stats(&s.record.id, &s.stats())?;
            }
            s.note_progress(now);
            debug!(sweep = %s.record.id, shard = i, attempt = lease.attempt, "leased");
            out.push(Granted {
                sweep_id: s.record.id.clone(),
                kind: s.kind,
                params: s.record.params.clone(),
                shard: s.plan[i as usize].clone(),
                attempt: lease.attempt,
                token: self.lease_token(s, i, worker, lease.nonce),
                salt: self.salt_for(s, i, worker),
            });
        }
        st.vtime = vtime;
        // Nothing free: take a stalled lease of another worker, or one of an
        // identity over its share while this one is under its own.
        let mut shares = shares;
        let mut taken_from: Vec<String> = Vec::new();
        while (out.len() as u32) < max {
            let Some((sweep_id, i)) = victim(
                &st,
                &all_candidates,
                worker,
                &shares,
                now_ms,
                self.limits.stall_after.as_millis() as u64,
                |s, i| others_alive && failed_here(s, i),
            ) else {
                break;
            };
            let s = st
                .sweeps
                .get_mut(&sweep_id)
                .expect("a candidate is a sweep");
            let ShardState::Leased(old) = s.states[i as usize].clone() else {
                break;
            };
            // The old lease is over: its token names nothing any more.
            s.set_state(i, ShardState::Pending);
            s.retire(i, old.nonce);
            s.events.leases_reclaimed = s.events.leases_reclaimed.saturating_add(1);
            let lease = s.grant(i, worker, now_ms, until_ms);
            self.store.put_lease(&s.record.id, i, Some(&lease))?;
            info!(sweep = %s.record.id, shard = i, from = %old.worker, to = %worker, "lease reclaimed for another identity's share or for want of progress");
            let from = fair::identity(&old.worker).to_string();
            taken_from.push(from.clone());
            if let Some(h) = shares.held.get_mut(&from) {
                *h = h.saturating_sub(1);
            }
            *shares.held.entry(me.clone()).or_insert(0) += 1;
            out.push(Granted {
                sweep_id: s.record.id.clone(),
                kind: s.kind,
                params: s.record.params.clone(),
                shard: s.plan[i as usize].clone(),
                attempt: lease.attempt,
                token: self.lease_token(s, i, worker, lease.nonce),
                salt: self.salt_for(s, i, worker),
            });
        }
        for from in taken_from {
            st.note_reclaimed(&from, 1);
        }
        // Got fewer than asked for while a sweep is open: waiting.
        let short = (out.len() as u32) < asked && unfinished > 0;
        if let Some(w) = st.workers.get_mut(worker) {
            w.asked.short_ms = short.then_some(now_ms);
        }
        if out.is_empty() {
            if let Some((sweep, sweep_version)) = mismatch {
                let kind = st.sweeps.get(&sweep).map(|s| s.record.kind.clone());
                // Only refuse if no sweep this worker could ever serve is unfinished.
                let servable = st
                    .sweeps
                    .values()
                    .any(|s| s.servable() && s.served_by(version));
                if !servable {
                    return Err(CoreError::VersionMismatch {
                        worker: kind
                            .and_then(|k| version.get(&k))
                            .unwrap_or("none")
                            .to_string(),
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
    /// is still the worker's. Only a shard named with its lease's token is
    /// renewed (others are refused and counted). A lease is extended while
    /// it is this worker's (expired or not: nobody else took it), but never
    /// past `Limits::max_lease_total` after its grant: then it is ended
    /// (false) and the shard handed out again (counted in `leases_expired`
    /// when it is). A shard that went back to pending because its lease
    /// record was lost in a coordinator crash is granted back to the holder
    /// of its latest attempt's token.
    pub fn renew(&self, worker: &str, held: &[Held]) -> Result<Vec<bool>, CoreError> {
        check_worker(worker)?;
        let now = self.clock.now();
        let now_ms = self.epoch.unix_ms(now);
        let max_total = self.limits.max_lease_total.as_millis() as u64;
        let stall_ms = self.limits.stall_after.as_millis() as u64;
        let mut st = self.lock();
        st.seen(worker, now, self.lease_ms);
        let waiting = st.others_waiting(worker, now_ms, self.window_ms());
        let mut out = Vec::with_capacity(held.len());
        let mut refused: Vec<String> = Vec::new();
        let mut reclaimed = 0u64;
        for h in held {
            let Some(s) = st.sweeps.get_mut(&h.sweep_id) else {
                out.push(false);
                continue;
            };
            let Some(named) = self.opened(s, h.index, worker, &h.token) else {
                s.refused_renewals = s.refused_renewals.saturating_add(1);
                refused.push(h.sweep_id.clone());
                out.push(false);
                continue;
            };
            // Replicated validation (core/replication.rs): a verification copy.
            if let Named::Copy(l) = &named {
                // Taken back too when it stalls while others wait (core/fair.rs).
                let progress = h.progress.min(s.progress_cap(h.index));
                let growth = s
                    .growth
                    .entry(l.nonce)
                    .or_insert_with(|| fair::Growth::granted(now_ms));
                growth.note(progress, now_ms);
                let stalled =
                    growth.stalled(now_ms, stall_ms) || s.overdue(h.index, l, now_ms, stall_ms);
                if stalled && (waiting.0 || waiting.1) {
                    if let Some(mut rec) = s.replication.records.get_mut(&h.index) {
                        if let Some(cl) = rec.lease.as_mut().filter(|cl| cl.nonce == l.nonce) {
                            cl.until_ms = cl.until_ms.min(now_ms);
                            self.store
                                .put_replication(&h.sweep_id, h.index, Some(&rec))?;
                        }
                    }
                    s.events.leases_reclaimed = s.events.leases_reclaimed.saturating_add(1);
                    reclaimed += 1;
                    info!(sweep = %h.sweep_id, shard = h.index, "verification copy without progress while others wait; not renewed");
                    out.push(false);
                    continue;
                }
                out.push(self.renew_copy(
                    s,
                    h.index,
                    l,
                    worker,
                    now_ms.saturating_add(self.lease_ms),
                )?);
                continue;
            }
            let running = s.record.state == crate::store::SweepState::Running;
            let (granted_ms, attempt, nonce, overdue) = match &named {
                Named::Shard(l) => (
                    l.granted_ms,
                    l.attempt,
                    l.nonce,
                    s.overdue(h.index, l, now_ms, stall_ms),
                ),
                Named::Lost { attempt, nonce } => (now_ms, *attempt, *nonce, false),
                _ => {
                    out.push(false);
                    continue;
                }
            };
            if !running {
                out.push(false);
                continue;
            }
            let end_ms = granted_ms.saturating_add(max_total);
            let progress = h.progress.min(s.progress_cap(h.index));
            let growth = s
                .growth
                .entry(nonce)
                .or_insert_with(|| fair::Growth::granted(now_ms));
            growth.note(progress, now_ms);
            // No progress for long, or longer without its result than the
            // sweep's pace allows whatever progress it claims (core/fair.rs).
            let stalled = (growth.stalled(now_ms, stall_ms) || overdue) && (waiting.0 || waiting.1);
            if stalled {
                // Ended now while others wait, so the shard goes to another.
                if let ShardState::Leased(l) = &s.states[h.index as usize] {
                    let mut l = l.clone();
                    l.until_ms = l.until_ms.min(now_ms);
                    self.store.put_lease(&h.sweep_id, h.index, Some(&l))?;
                    s.set_state(h.index, ShardState::Leased(l));
                    s.events.leases_reclaimed = s.events.leases_reclaimed.saturating_add(1);
                    reclaimed += 1;
                }
                info!(sweep = %h.sweep_id, shard = h.index, attempt, overdue, "lease without progress while others wait; not renewed");
                out.push(false);
                continue;
            }
            if now_ms >= end_ms {
                // Over its total: ended now, so the shard is handed out again.
                if let ShardState::Leased(l) = &s.states[h.index as usize] {
                    let mut l = l.clone();
                    l.until_ms = l.until_ms.min(now_ms);
                    self.store.put_lease(&h.sweep_id, h.index, Some(&l))?;
                    s.set_state(h.index, ShardState::Leased(l));
                }
                info!(sweep = %h.sweep_id, shard = h.index, attempt, "lease reached its maximum total; not renewed");
                out.push(false);
                continue;
            }
            let lease = LeaseRecord {
                worker: worker.to_string(),
                until_ms: now_ms.saturating_add(self.lease_ms).min(end_ms),
                attempt,
                granted_ms,
                nonce,
            };
            self.store.put_lease(&h.sweep_id, h.index, Some(&lease))?;
            s.set_state(h.index, ShardState::Leased(lease));
            s.events.leases_renewed = s.events.leases_renewed.saturating_add(1);
            let a = s.attempts.entry(h.index).or_insert(0);
            *a = (*a).max(attempt);
            s.progress.insert(h.index, progress);
            s.note_progress(now);
            out.push(true);
        }
        st.note_reclaimed(fair::identity(worker), reclaimed);
        self.put_refused(&st, refused, worker, "renewal")?;
        Ok(out)
    }

    /// Store the counters of the sweeps in `ids` (whose requests were just
    /// refused) and log the refusal once.
    pub(crate) fn put_refused(
        &self,
        st: &State,
        mut ids: Vec<String>,
        worker: &str,
        what: &str,
    ) -> Result<(), CoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        warn!(worker = %worker, refused = ids.len(), "{what} without a valid lease token refused");
        ids.sort();
        ids.dedup();
        for id in ids {
            if let Some(s) = st.sweeps.get(&id) {
                self.store.put_stats(&id, &s.stats())?;
            }
        }
        Ok(())
    }

    /// Give back leases `worker` holds before they run out (an aborting
    /// worker): each shard whose current lease is that worker's, under that
    /// attempt and with its token, is pending again at once. Returns, per
    /// shard, whether its lease was given back (false: not this worker's
    /// lease any more, or unknown; without the lease's token, refused and
    /// counted with the refused renewals).
    pub fn release(&self, worker: &str, held: &[Held]) -> Result<Vec<bool>, CoreError> {
        check_worker(worker)?;
        let mut st = self.lock();
        st.seen(worker, self.clock.now(), self.lease_ms);
        let mut out = Vec::with_capacity(held.len());
        let mut refused: Vec<String> = Vec::new();
        for h in held {
            let Some(s) = st.sweeps.get_mut(&h.sweep_id) else {
                out.push(false);
                continue;
            };
            let Some(named) = self.opened(s, h.index, worker, &h.token) else {
                s.refused_renewals = s.refused_renewals.saturating_add(1);
                refused.push(h.sweep_id.clone());
                out.push(false);
                continue;
            };
            let mine = match named {
                // Replicated validation (core/replication.rs): a verification copy.
                Named::Copy(_) => self.release_copy(s, h.index)?,
                Named::Shard(l) => {
                    self.store.put_lease(&h.sweep_id, h.index, None)?;
                    s.set_state(h.index, ShardState::Pending);
                    s.progress.remove(&h.index);
                    s.retire(h.index, l.nonce);
                    s.leases_released = s.leases_released.saturating_add(1);
                    self.store.put_stats(&h.sweep_id, &s.stats())?;
                    debug!(sweep = %h.sweep_id, shard = h.index, attempt = l.attempt, "lease given back");
                    true
                }
                Named::Lost { nonce, .. } => {
                    // Not held now; its token must not take the shard back.
                    s.retire(h.index, nonce);
                    false
                }
                Named::Finished | Named::Stale => false,
            };
            out.push(mine);
        }
        self.put_refused(&st, refused, worker, "release")?;
        Ok(out)
    }
}
