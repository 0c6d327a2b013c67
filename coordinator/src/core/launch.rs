//! Launching a sweep (planning it, choosing its sample) and resuming one
//! launched before (widening its sample, retrying its failed shards).

use super::model::{lease_order, CoreError, ShardState, Sweep};
use super::Core;
use crate::store::{SampleRecord, SweepRecord, SweepState, DEFAULT_PRIORITY, MAX_PRIORITY};
use gamesweep::kinds;
use tracing::info;

pub use gamesweep_proto::domain::{LaunchSpec, Launched, SampleRequest};

/// A sweep id: 1-128 letters, digits, `-`, `_` or `.`.
pub(super) fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

impl Core {
    /// Plan and store a new sweep (or, with `resume_existing`, resume the
    /// existing one of that name if it has the same kind and params).
    pub fn launch(&self, req: &LaunchSpec) -> Result<Launched, CoreError> {
        let kind_name = req.kind.as_str();
        let kind = kinds::find(kind_name).map_err(|e| CoreError::BadRequest(e.to_string()))?;
        let params = kind
            .resolve_params(&req.params)
            .map_err(|e| CoreError::BadRequest(e.to_string()))?;
        if let Some(smp) = req.sample {
            if !(1..=1_000_000).contains(&smp.ppm) {
                return Err(CoreError::BadRequest(format!(
                    "sample size {} ppm is out of range: 1..=1000000 millionths of the plan",
                    smp.ppm
                )));
            }
        }
        // Replicated validation (core/verify.rs): the share is a fraction.
        super::verify::check_share(req.verify_ppm)?;
        if req.priority > MAX_PRIORITY {
            return Err(CoreError::BadRequest(format!(
                "priority {} is out of range: 1..={MAX_PRIORITY}",
                req.priority
            )));
        }
        if let Some(n) = req.name.as_deref() {
            if !valid_id(n) {
                return Err(CoreError::BadRequest(format!(
                    "bad sweep name `{n}`: use 1-128 letters, digits, `-`, `_` or `.`"
                )));
            }
            let mut st = self.lock();
            if let Some(s) = st.sweeps.get_mut(n) {
                if req.resume_existing && s.record.kind == kind_name && s.record.params == params {
                    super::verify::check_resume(s, req)?; // replicated validation
                    self.resume_sample(s, req.sample)?;
                    self.retry_failed(s)?;
                    if req.priority > 0 && req.priority != s.record.priority {
                        self.update_record(s, |r| r.priority = req.priority)?;
                        info!(sweep = %n, priority = req.priority, "priority changed");
                    }
                    return Ok(Launched {
                        sweep_id: n.to_string(),
                        shards: s.plan.len() as u32,
                        existing: true,
                        solver_version: s.record.solver_version.clone(),
                    });
                }
                return Err(CoreError::Exists(n.to_string()));
            }
        }
        // Planning may take a moment; do it outside the lock.
        let plan = kind
            .plan(&params, req.target_shards)
            .map_err(|e| CoreError::BadRequest(e.to_string()))?;
        if plan.is_empty() || plan.iter().enumerate().any(|(i, s)| s.index as usize != i) {
            return Err(CoreError::BadRequest(format!(
                "sweep kind `{kind_name}` produced an invalid plan ({} shards)",
                plan.len()
            )));
        }
        let mut st = self.lock();
        let seq = self.store.next_seq()?;
        let id = match req.name.as_deref() {
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
            solver_version: kind.version(),
            target_shards: req.target_shards,
            seq,
            state: SweepState::Running,
            sample: req.sample.map(|smp| SampleRecord {
                ppm: smp.ppm,
                seed: smp.seed,
                shards: crate::sample::choose(&plan, smp.ppm, smp.seed),
                limited: true,
            }),
            // Replicated validation (core/verify.rs). `--replicate all` is
            // the whole plan, never skipped.
            verify_ppm: if req.replicate_all {
                super::verify::PPM as u32
            } else {
                req.verify_ppm
            },
            replicate_all: req.replicate_all,
            verify_seed: req.verify_seed.unwrap_or_else(rand::random),
            paused: false,
            priority: if req.priority == 0 {
                DEFAULT_PRIORITY
            } else {
                req.priority
            },
        };
        self.store.create_sweep(&record, &plan)?;
        info!(
            sweep = %id,
            kind = kind_name,
            shards = plan.len(),
            sampled = record.sample.as_ref().map_or(0, |s| s.shards.len()),
            "launched sweep"
        );
        let shards = plan.len() as u32;
        let solver_version = record.solver_version.clone();
        st.sweeps
            .insert(id.clone(), Sweep::new(record, plan, kind.empty()));
        Ok(Launched {
            sweep_id: id,
            shards,
            existing: false,
            solver_version,
        })
    }

    /// Reconcile a resumed sweep's sample with the one asked for: the same
    /// sample resumes; no sample widens a sampled sweep to its whole plan.
    fn resume_sample(&self, s: &mut Sweep, asked: Option<SampleRequest>) -> Result<(), CoreError> {
        let id = s.record.id.clone();
        match (&mut s.record.sample, asked) {
            (None, None) => Ok(()),
            (Some(have), Some(want)) if have.ppm == want.ppm && have.seed == want.seed => Ok(()),
            (Some(have), None) => {
                if have.limited {
                    self.update_record(s, |r| {
                        if let Some(smp) = &mut r.sample {
                            smp.limited = false;
                        }
                    })?;
                    info!(sweep = %id, "sample widened to the whole plan");
                    let order = lease_order(&s.plan, &s.record);
                    s.set_order(order);
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
    fn retry_failed(&self, s: &mut Sweep) -> Result<(), CoreError> {
        for i in 0..s.states.len() {
            if s.states[i] == ShardState::Failed {
                s.set_state(i as u32, ShardState::Pending);
                s.failures.remove(&(i as u32));
                self.store.put_failure(&s.record.id, i as u32, None)?;
                info!(sweep = %s.record.id, shard = i, "failed shard gets new tries");
            }
        }
        Ok(())
    }

    /// Stop handing out a sweep's shards. A finished or already cancelled
    /// sweep is a bad request (nothing to cancel).
    pub fn cancel(&self, sweep_id: &str) -> Result<(), CoreError> {
        let mut st = self.lock();
        let s = st.sweep_mut(sweep_id)?;
        settled(s, "cancel")?;
        self.update_record(s, |r| r.state = SweepState::Cancelled)?;
        info!(sweep = %sweep_id, "cancelled");
        Ok(())
    }

    /// Pause (`paused`) or resume a sweep: a paused sweep hands out no
    /// shard (leases held may finish and are accepted); the state is stored.
    /// Pausing a paused sweep, resuming one that is not, or either on a
    /// finished or cancelled sweep is a bad request.
    pub fn pause(&self, sweep_id: &str, paused: bool) -> Result<(), CoreError> {
        let mut st = self.lock();
        let s = st.sweep_mut(sweep_id)?;
        let verb = if paused { "pause" } else { "resume" };
        settled(s, verb)?;
        if s.record.paused == paused {
            return Err(CoreError::BadRequest(if paused {
                format!("sweep `{sweep_id}` is already paused (`gamesweep resume {sweep_id}` resumes it)")
            } else {
                format!("sweep `{sweep_id}` is not paused; nothing to resume")
            }));
        }
        self.update_record(s, |r| r.paused = paused)?;
        info!(sweep = %sweep_id, "{}", if paused { "paused" } else { "resumed" });
        Ok(())
    }

    /// Store `s`'s record as `change` leaves it, and only then change it in
    /// memory: a write that fails (the store's writes failing) leaves the
    /// sweep as it was, in memory as on disk.
    fn update_record(
        &self,
        s: &mut Sweep,
        change: impl FnOnce(&mut SweepRecord),
    ) -> Result<(), CoreError> {
        let mut record = s.record.clone();
        change(&mut record);
        self.store.update_sweep(&record)?;
        s.record = record;
        Ok(())
    }

    /// Forget a sweep entirely (used by `run --fresh`).
    pub fn delete(&self, sweep_id: &str) -> Result<(), CoreError> {
        let mut st = self.lock();
        st.sweeps.remove(sweep_id);
        self.store.delete_sweep(sweep_id)?;
        self.forget_render(sweep_id);
        Ok(())
    }
}

/// A finished or cancelled sweep cannot be `verb`ed: a bad request saying so.
fn settled(s: &Sweep, verb: &str) -> Result<(), CoreError> {
    let id = &s.record.id;
    if s.finished() {
        return Err(CoreError::BadRequest(format!(
            "sweep `{id}` is already done; nothing to {verb}"
        )));
    }
    if s.record.state == SweepState::Cancelled {
        return Err(CoreError::BadRequest(format!(
            "sweep `{id}` is already cancelled; nothing to {verb}"
        )));
    }
    Ok(())
}
