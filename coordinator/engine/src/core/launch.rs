//! Launching a sweep (planning it, choosing its sample) and resuming one
//! launched before (widening its sample, retrying its failed shards).

use super::model::{lease_order, CoreError, KindRef, ShardState, Sweep};
use super::Core;
use crate::store::{SampleRecord, SweepRecord, SweepState, DEFAULT_PRIORITY, MAX_PRIORITY};
use gamesweep::kinds;
use gamesweep_api::quote_prefix;
use tracing::info;

pub use gamesweep_api::domain::{LaunchSpec, Launched, Part, SampleRequest};

/// The largest shard count a launch, an import or `verify` may ask a plan
/// for (`target_shards`, `--shards`). Planning allocates per shard (about
/// 320 bytes held per pending shard, more while planning), so an unchecked
/// `u32::MAX` from a client made the coordinator abort on a 45 GB
/// allocation; 2,097,152 shards (~680 MB held) is twice the n = 13 plan of
/// `docs/scaling.md`.
pub const MAX_TARGET_SHARDS: u32 = 1 << 21;

/// The most shards a stored plan may have: a kind rounds a target up (split
/// plans to a power of two), never past this.
pub const MAX_PLAN_SHARDS: usize = MAX_TARGET_SHARDS as usize;

/// A shard count past [`MAX_TARGET_SHARDS`] or a plan past [`MAX_PLAN_SHARDS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanLimitError {
    /// The target asked for.
    #[error("{0} target shards is more than this coordinator plans (at most {MAX_TARGET_SHARDS})")]
    Target(u32),
    /// The plan a kind made.
    #[error("the plan has {0} shards, more than this coordinator keeps (at most {MAX_PLAN_SHARDS}): ask for fewer shards")]
    Plan(usize),
}

impl From<PlanLimitError> for CoreError {
    fn from(e: PlanLimitError) -> Self {
        CoreError::BadRequest(e.to_string())
    }
}

/// Refuse a target shard count no plan should be made for; call it before
/// `SweepKind::plan` on anything a client or a file chose (launch, import,
/// `verify`). 0 means the kind's own choice and is fine.
pub fn check_target_shards(target: u32) -> Result<(), PlanLimitError> {
    if target > MAX_TARGET_SHARDS {
        return Err(PlanLimitError::Target(target));
    }
    Ok(())
}

/// Refuse a plan (made, or read from a file) of more than
/// [`MAX_PLAN_SHARDS`] shards.
pub fn check_plan_size(shards: usize) -> Result<(), PlanLimitError> {
    if shards > MAX_PLAN_SHARDS {
        return Err(PlanLimitError::Plan(shards));
    }
    Ok(())
}

/// A part of a plan of `shards` shards: well formed and not empty.
fn check_part(part: Part, shards: usize) -> Result<(), CoreError> {
    part.check()
        .map_err(|e| CoreError::BadRequest(format!("bad part {part}: {e}")))?;
    if part.index as usize >= shards {
        return Err(CoreError::BadRequest(format!(
            "part {part} has no shards: the plan has {shards} (shard indices 0..{shards}); split it into at most {shards} parts"
        )));
    }
    Ok(())
}

/// What of its part a sweep launched with `--part K/M` has done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartProgress {
    /// The part.
    pub part: Part,
    /// Its shards done.
    pub done: u32,
    /// Its shards.
    pub total: u32,
    /// Every shard of it is done and nothing of it is open (no
    /// verification pending): the part is finished, the sweep may not be.
    pub finished: bool,
}

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
        check_words(req)?;
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
        if let Some(part) = req.part {
            part.check()
                .map_err(|e| CoreError::BadRequest(format!("bad part {part}: {e}")))?;
            if req.sample.is_some() {
                return Err(CoreError::BadRequest(format!(
                    "a sample and a part (--part {part}) cannot be combined: sample the whole sweep, or run the part"
                )));
            }
        }
        // Replicated validation (core/replication.rs): the share is a fraction.
        super::replication::check_share(req.verify_ppm)?;
        if req.priority > MAX_PRIORITY {
            return Err(CoreError::BadRequest(format!(
                "priority {} is out of range: 1..={MAX_PRIORITY}",
                req.priority
            )));
        }
        if let Some(n) = req.name.as_deref() {
            if !valid_id(n) {
                return Err(CoreError::BadRequest(format!(
                    "bad sweep name `{}`: use 1-128 letters, digits, `-`, `_` or `.`",
                    quote_prefix(n)
                )));
            }
            let mut st = self.lock();
            if let Some(s) = st.sweeps.get_mut(n) {
                if req.resume_existing && s.record.kind == kind_name && s.record.params == params {
                    super::replication::check_resume(s, req)?; // replicated validation
                    self.resume_sample(s, req.sample)?;
                    self.set_part_of(s, req.part)?;
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
        check_target_shards(req.target_shards)?;
        let plan = kind
            .plan(&params, req.target_shards)
            .map_err(|e| CoreError::BadRequest(e.to_string()))?;
        check_plan_size(plan.len())?;
        if let Some(part) = req.part {
            check_part(part, plan.len())?;
        }
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
            // Replicated validation (core/replication.rs). `--replicate all` is
            // the whole plan, never skipped.
            verify_ppm: if req.replicate_all {
                super::replication::PPM as u32
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
            part: req.part,
            earlier_solvers: Vec::new(),
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
            .insert(id.clone(), Sweep::new(record, KindRef(kind), plan));
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

    /// Hand out only `part`'s shards of sweep `sweep_id` from now on
    /// (`None`: the whole plan), stored with the sweep. Shards done stay
    /// done; leases of shards outside the part run out and are not renewed
    /// into new ones.
    pub fn set_part(&self, sweep_id: &str, part: Option<Part>) -> Result<(), CoreError> {
        let mut st = self.lock();
        let s = st.sweep_mut(sweep_id)?;
        self.set_part_of(s, part)
    }

    fn set_part_of(&self, s: &mut Sweep, part: Option<Part>) -> Result<(), CoreError> {
        if s.record.part == part {
            return Ok(());
        }
        if let Some(p) = part {
            check_part(p, s.plan.len())?;
            if s.record.sample.as_ref().is_some_and(|smp| smp.limited) {
                return Err(CoreError::BadRequest(format!(
                    "sweep `{}` runs a sample: a part (--part {p}) of it cannot be run until the sample is widened (resume it without --sample)",
                    s.record.id
                )));
            }
        }
        self.update_record(s, |r| r.part = part)?;
        match part {
            Some(p) => {
                info!(sweep = %s.record.id, part = %p, "only the part's shards are handed out")
            }
            None => info!(sweep = %s.record.id, "the whole plan is handed out"),
        }
        let order = lease_order(&s.plan, &s.record);
        s.set_order(order);
        Ok(())
    }

    /// The part sweep `sweep_id` runs (`None`: the whole plan), and its
    /// shards done and in all: what `run --part` waits for.
    pub fn part_progress(&self, sweep_id: &str) -> Result<Option<PartProgress>, CoreError> {
        let st = self.lock();
        let s = st.sweep(sweep_id)?;
        Ok(s.record.part.map(|part| {
            let (mut done, mut total) = (0u32, 0u32);
            for i in part.shards(s.plan.len() as u32) {
                total += 1;
                if s.states[i as usize] == ShardState::Done {
                    done += 1;
                }
            }
            PartProgress {
                part,
                done,
                total,
                finished: done == total && !s.open(),
            }
        }))
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
    pub(super) fn update_record(
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

/// The longest kind or parameter name a launch may give (the registry's
/// and the kinds' own errors quote these names whole).
pub const MAX_WORD: usize = 64;

/// Refuse a kind or parameter name no kind has before the registry or the
/// kind quotes it back whole: a megabyte name must not come back as a
/// megabyte error (larger than a client's metadata limit).
fn check_words(req: &LaunchSpec) -> Result<(), CoreError> {
    let odd = |w: &str| {
        w.len() > MAX_WORD
            || !w
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
    };
    if odd(&req.kind) {
        return Err(CoreError::BadRequest(format!(
            "unknown sweep kind `{}` (see `gamesweep kinds`)",
            quote_prefix(&req.kind)
        )));
    }
    if req.params.len() > 64 {
        return Err(CoreError::BadRequest(format!(
            "{} parameters given; no sweep kind has that many",
            req.params.len()
        )));
    }
    if let Some(p) = req.params.keys().find(|p| odd(p)) {
        return Err(CoreError::BadRequest(format!(
            "sweep `{}` has no parameter `{}`",
            req.kind,
            quote_prefix(p)
        )));
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ManualClock;
    use crate::store::MemStore;
    use std::sync::Arc;
    use std::time::Duration;

    fn core() -> Core {
        let clock = Arc::new(ManualClock::new());
        Core::open_with_clock(Arc::new(MemStore::new()), Duration::from_secs(60), clock).unwrap()
    }

    fn uvg(max_n: u64, name: &str, shards: u32) -> LaunchSpec {
        LaunchSpec {
            replicate_all: false,
            part: None,
            kind: "uvg".into(),
            params: [("max_n".to_string(), max_n)].into(),
            name: Some(name.into()),
            target_shards: shards,
            resume_existing: false,
            sample: None,
            verify_ppm: 0,
            verify_seed: None,
            priority: 0,
        }
    }

    /// Regression: `Launch uvg max_n=12 target_shards=4294967295` aborted the
    /// coordinator on a 45 GB allocation.
    #[test]
    fn a_u32_max_target_is_refused_before_planning() {
        let c = core();
        // Refused by the bound, before any plan is made (a plan of
        // 2^32 shards would abort on the allocation, not return).
        let e = c.launch(&uvg(12, "big", u32::MAX)).unwrap_err();
        assert!(matches!(e, CoreError::BadRequest(_)), "{e:?}");
        assert_eq!(
            e.to_string(),
            "4294967295 target shards is more than this coordinator plans (at most 2097152)"
        );
        let e = c
            .launch(&uvg(12, "big", MAX_TARGET_SHARDS + 1))
            .unwrap_err();
        assert!(e.to_string().contains("at most 2097152"), "{e}");
        assert!(c.sweep_ids().is_empty());
        // The limit itself plans (small n: the split plan stays in bounds).
        c.launch(&uvg(6, "ok", MAX_TARGET_SHARDS)).unwrap();
        assert!(check_plan_size(MAX_PLAN_SHARDS).is_ok());
        assert_eq!(
            check_plan_size(MAX_PLAN_SHARDS + 1),
            Err(PlanLimitError::Plan(MAX_PLAN_SHARDS + 1))
        );
        assert!(check_target_shards(0).is_ok());
    }

    /// Regression: a 0.9 MiB sweep name came back whole in the error, larger
    /// than the client's metadata limit ("Stream removed").
    #[test]
    fn errors_quote_a_short_prefix_of_what_a_client_sent() {
        let c = core();
        let huge = "x".repeat(900 << 10);
        let short = |e: CoreError| {
            let m = e.to_string();
            assert!(m.len() < 300, "{} bytes: {}", m.len(), &m[..300]);
            assert!(m.contains("xxxx…(92160"), "{m}");
            m
        };
        short(c.launch(&uvg(6, &huge, 0)).unwrap_err());
        short(
            c.launch(&uvg(6, &format!("{huge}\u{1b}[2J"), 0))
                .unwrap_err(),
        );
        short(c.cancel(&huge).unwrap_err());
        short(c.pause(&huge, true).unwrap_err());
        let mut kind = uvg(6, "k", 0);
        kind.kind = huge.clone();
        short(c.launch(&kind).unwrap_err());
        let mut param = uvg(6, "p", 0);
        param.params.insert(huge.clone(), 1);
        short(c.launch(&param).unwrap_err());
        // Escape sequences in what is quoted are shown escaped.
        let m = c.cancel("a\u{1b}[31m").unwrap_err().to_string();
        assert!(m.contains("a\\e[31m") && !m.contains('\u{1b}'), "{m}");
    }
}
