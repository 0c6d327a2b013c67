//! Leases: handing shards to workers, renewing them, and taking back the
//! expired ones (an expired lease counts as pending; its shard is re-issued
//! under the next attempt number).

use super::model::CoreError;
use super::Core;
use crate::store::LeaseRecord;
use gamesweep::sweep::{Params, ShardSpec};
use tracing::{debug, info_span};

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

impl Core {
    /// Lease up to `max` shards to `worker`. Expired leases count as pending.
    /// A worker whose version matches no unfinished sweep is refused.
    pub fn lease(&self, worker: &str, version: &str, max: u32) -> Result<LeaseOutcome, CoreError> {
        let span = info_span!("lease", worker = %worker);
        let _g = span.enter();
        let now = self.clock.now();
        let now_ms = self.epoch.unix_ms(now);
        let until_ms = now_ms + self.lease_ms;
        let mut st = self.lock();
        st.seen(worker, now);
        // Replicated validation (core/verify.rs): a quarantined worker gets nothing.
        if st.quarantine.workers.contains_key(worker) {
            return Ok(LeaseOutcome {
                leases: Vec::new(),
                idle: false,
            });
        }
        // Replicated validation (core/verify.rs): verification copies first,
        // so that they do not all wait for the end of the sweep.
        let mut out = self.lease_copies(&mut st, worker, version, max as usize, now, until_ms)?;
        let mut unfinished = 0;
        let mut mismatch: Option<(String, String)> = None;
        for s in st.sweeps.values_mut() {
            if !s.servable() {
                continue;
            }
            unfinished += 1;
            if !s.served_by(version) {
                mismatch.get_or_insert((s.record.id.clone(), s.record.solver_version.clone()));
                continue;
            }
            let expired_before = s.leases_expired;
            for oi in 0..s.order.len() {
                if out.len() as u32 >= max {
                    break;
                }
                let i = s.order[oi];
                if !s.states[i as usize].free(now_ms) {
                    continue;
                }
                let lease = s.grant(i, worker, until_ms);
                self.store.put_lease(&s.record.id, i, Some(&lease))?;
                debug!(sweep = %s.record.id, shard = i, attempt = lease.attempt, "leased");
                out.push(Granted {
                    sweep_id: s.record.id.clone(),
                    kind: s.record.kind.clone(),
                    params: s.record.params.clone(),
                    shard: s.plan[i as usize].clone(),
                    attempt: lease.attempt,
                });
            }
            if s.leases_expired != expired_before {
                self.store.put_stats(&s.record.id, &s.stats())?;
            }
            if out.len() as u32 >= max {
                break;
            }
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
                            .and_then(|k| gamesweep_proto::version_for(version, &k))
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
    /// is still the worker's. A shard that went back to pending (e.g. its
    /// lease record was lost in a coordinator crash) is granted back.
    pub fn renew(&self, worker: &str, held: &[Held]) -> Result<Vec<bool>, CoreError> {
        let now = self.clock.now();
        let until_ms = self.epoch.unix_ms(now) + self.lease_ms;
        let mut st = self.lock();
        st.seen(worker, now);
        let mut out = Vec::with_capacity(held.len());
        for h in held {
            let Some(s) = st.sweeps.get_mut(&h.sweep_id) else {
                out.push(false);
                continue;
            };
            let keep = s.may_keep(h.index, worker, h.attempt);
            // Replicated validation (core/verify.rs): a verification copy.
            if !keep && self.renew_copy(s, h, worker, until_ms)? {
                out.push(true);
                continue;
            }
            if keep {
                let lease = LeaseRecord {
                    worker: worker.to_string(),
                    until_ms,
                    attempt: h.attempt,
                };
                self.store.put_lease(&h.sweep_id, h.index, Some(&lease))?;
                s.states[h.index as usize] = super::ShardState::Leased(lease);
                s.progress.insert(h.index, h.progress);
            }
            out.push(keep);
        }
        Ok(out)
    }

    /// Give back leases `worker` holds before they run out (an aborting
    /// worker): each shard whose current lease is that worker's, under that
    /// attempt, is pending again at once. Returns, per shard, whether its
    /// lease was given back (false: not this worker's lease any more, or
    /// unknown).
    pub fn release(&self, worker: &str, held: &[Held]) -> Result<Vec<bool>, CoreError> {
        let mut st = self.lock();
        st.seen(worker, self.clock.now());
        let mut out = Vec::with_capacity(held.len());
        for h in held {
            let Some(s) = st.sweeps.get_mut(&h.sweep_id) else {
                out.push(false);
                continue;
            };
            let mine = matches!(
                s.states.get(h.index as usize),
                Some(super::ShardState::Leased(l)) if l.worker == worker && l.attempt == h.attempt
            );
            // Replicated validation (core/verify.rs): a verification copy.
            if !mine && self.release_copy(s, h, worker)? {
                out.push(true);
                continue;
            }
            if mine {
                self.store.put_lease(&h.sweep_id, h.index, None)?;
                s.states[h.index as usize] = super::ShardState::Pending;
                s.progress.remove(&h.index);
                s.leases_released += 1;
                self.store.put_stats(&h.sweep_id, &s.stats())?;
                debug!(sweep = %h.sweep_id, shard = h.index, attempt = h.attempt, "lease given back");
            }
            out.push(mine);
        }
        Ok(out)
    }
}
