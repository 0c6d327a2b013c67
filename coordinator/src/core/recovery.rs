//! Startup: every stored sweep back in memory, its results decoded and
//! merged again, its leases and failures as they were.

use super::model::{lease_order, CoreError, ShardState, Sweep, MAX_FAILURES};
use super::verify::Verification;
use crate::store::{FailureRecord, Store, StoreError, StoredSweep, SweepState};
use gamesweep::kinds;
use gamesweep::sweep::SweepError;
use std::collections::{BTreeMap, HashMap};
use tracing::{info, warn};

/// Every sweep in `store`, in memory as of `now_ms` (Unix milliseconds). Leases stored at crash time stay valid until they expire,
/// so live workers keep their shards.
pub(crate) fn recover(
    store: &dyn Store,
    now_ms: u64,
) -> Result<BTreeMap<String, Sweep>, CoreError> {
    let mut sweeps = BTreeMap::new();
    for stored in store.load_all()? {
        if stored.record.state == SweepState::Importing {
            // What a crash left of an import: it never became visible, so
            // nothing was acknowledged; the import can be run again.
            store.delete_sweep(&stored.record.id)?;
            warn!(sweep = %stored.record.id, results = stored.results.len(), "deleted a sweep whose import did not finish (the coordinator stopped during it); import it again");
            continue;
        }
        let s = resume(stored, now_ms)?;
        sweeps.insert(s.record.id.clone(), s);
    }
    Ok(sweeps)
}

fn corrupt(what: String) -> CoreError {
    CoreError::Store(StoreError::Corrupt(what))
}

/// One stored sweep in memory.
pub(super) fn resume(stored: StoredSweep, now_ms: u64) -> Result<Sweep, CoreError> {
    let StoredSweep {
        record,
        plan,
        results,
        leases,
        stats,
        timings,
        failures,
        verify,
        origins,
    } = stored;
    // Replicated validation (core/verify.rs).
    let unrecorded = Verification::unrecorded(&record, &verify, &results);
    let kind =
        kinds::find(&record.kind).map_err(|e| corrupt(format!("sweep `{}`: {e}", record.id)))?;
    let mut states = vec![ShardState::Pending; plan.len()];
    let mut work = vec![0u64; plan.len()];
    let mut merged = kind.empty();
    for (i, bytes) in results {
        let bad = |e: SweepError| corrupt(format!("result of shard {i} of `{}`: {e}", record.id));
        let (Some(state), Some(w)) = (states.get_mut(i as usize), work.get_mut(i as usize)) else {
            return Err(corrupt(format!(
                "result for shard {i} beyond the plan of `{}`",
                record.id
            )));
        };
        let r = kind.decode(&bytes).map_err(bad)?;
        *state = ShardState::Done;
        *w = r.work();
        merged.merge(r).map_err(bad)?;
    }
    if let Some(smp) = &record.sample {
        if smp.shards.iter().any(|&i| i as usize >= plan.len()) {
            return Err(corrupt(format!(
                "sample of `{}` names a shard beyond its plan",
                record.id
            )));
        }
    }
    // Attempt numbers continue from the stored leases (a done shard's
    // lease is deleted; its attempts no longer matter).
    let mut attempts: BTreeMap<u32, u32> = leases.iter().map(|(&i, l)| (i, l.attempt)).collect();
    for (i, mut l) in leases {
        if let Some(s @ ShardState::Pending) = states.get_mut(i as usize) {
            // A lease from a store that kept no grant times counts from now.
            if l.granted_ms == 0 {
                l.granted_ms = now_ms;
            }
            *s = ShardState::Leased(l);
        }
    }
    let failures: BTreeMap<u32, FailureRecord> = failures
        .into_iter()
        .filter(|(i, _)| (*i as usize) < plan.len())
        .collect();
    for (i, f) in &failures {
        let set_aside = f.set_aside.unwrap_or(f.count >= MAX_FAILURES);
        if set_aside && states[*i as usize] != ShardState::Done {
            states[*i as usize] = ShardState::Failed;
        }
    }
    let results_stored = states.iter().filter(|s| **s == ShardState::Done).count() as u32;
    info!(sweep = %record.id, done = results_stored, total = plan.len(), "resuming sweep");
    let order = lease_order(&plan, &record);
    let verify = Verification::restore(
        &record,
        plan.len(),
        verify,
        origins,
        unrecorded,
        &mut attempts,
    );
    Ok(Sweep {
        record,
        plan: std::sync::Arc::new(plan),
        order,
        rank: Vec::new(),
        work,
        timings,
        failures,
        states,
        attempts,
        progress: HashMap::new(),
        merged,
        results_stored,
        duplicates_ignored: stats.duplicates_ignored,
        leases_expired: stats.leases_expired,
        leases_released: stats.leases_released,
        refused_submits: stats.refused_submits,
        refused_renewals: stats.refused_renewals,
        refused_fails: stats.refused_fails,
        results_invalid: stats.results_invalid,
        retired: HashMap::new(),
        rate_samples: Default::default(),
        pass: 0,
        verify,
        events: Default::default(),
        tally: Default::default(),
        sums: Default::default(),
        worker_work: Default::default(),
        sampled: Default::default(),
        estimate: (0, 0),
    }
    .counted())
}
