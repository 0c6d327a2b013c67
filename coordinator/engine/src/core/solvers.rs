//! Which solver build computed which shards of a sweep.
//!
//! A sweep is launched with its kind's solver version and only workers of
//! that version run its shards (`model::Sweep::served_by`). A campaign that
//! outlives its machines also outlives builds: a faster solver lands while
//! it runs. Its results must not change (a solver that changes a result is
//! wrong, and the kind's validation and replication are there to catch
//! it), but who computed what must stay on record. So the switch is
//! explicit (`run --accept-solver-change`, [`Core::change_solver`]): the
//! shards done so far are recorded under the version that computed them
//! (`SweepRecord::earlier_solvers`), the sweep goes on under the new one,
//! exports carry the record per shard, imports keep it, and
//! `provenance.json` and the report's Replication section say which
//! build computed which shards.

use super::model::{CoreError, ShardState, Sweep};
use super::Core;
use crate::store::SolverShards;
pub use gamesweep_api::provenance::SolverShare;
use gamesweep_api::shard_set::ShardSet;
use tracing::info;

/// What [`Core::change_solver`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverChanged {
    /// The version the sweep ran under until now.
    pub from: String,
    /// Shards done under it (or under earlier ones) that stay as they are.
    pub shards_kept: u32,
}

/// The version that computed each shard of `earlier`'s sets, else `current`.
pub(crate) fn version_of<'a>(earlier: &'a [SolverShards], current: &'a str, shard: u32) -> &'a str {
    earlier
        .iter()
        .find(|e| e.shards.contains(shard))
        .map_or(current, |e| e.version.as_str())
}

/// `earlier` with `shards` recorded as `version`'s (a version that is the
/// sweep's current one is not recorded: its shards are the rest).
pub(crate) fn with_shards(
    earlier: &[SolverShards],
    current: &str,
    version: &str,
    shards: &ShardSet,
) -> Vec<SolverShards> {
    let mut out = earlier.to_vec();
    if version == current || shards.is_empty() {
        return out;
    }
    match out.iter_mut().find(|e| e.version == version) {
        Some(e) => e.shards = e.shards.union(shards),
        None => out.push(SolverShards {
            version: version.to_string(),
            shards: shards.clone(),
        }),
    }
    out
}

/// Every solver build's share of sweep `s`'s done shards, the earlier
/// builds first (in the order they were recorded), then the current one.
/// Empty when one build computed everything.
pub(crate) fn shares(s: &Sweep) -> Vec<SolverShare> {
    if s.record.earlier_solvers.is_empty() {
        return Vec::new();
    }
    let done: ShardSet = (0..s.plan.len() as u32)
        .filter(|&i| s.states[i as usize] == ShardState::Done)
        .collect();
    let mut rest = done.clone();
    let mut out = Vec::new();
    for e in &s.record.earlier_solvers {
        let mine = e.shards.filter(|i| done.contains(i));
        rest = rest.minus(&mine);
        out.push(SolverShare {
            version: e.version.clone(),
            shards: mine.len(),
            ranges: mine,
        });
    }
    out.push(SolverShare {
        version: s.record.solver_version.clone(),
        shards: rest.len(),
        ranges: rest,
    });
    out
}

impl Core {
    /// Go on with sweep `sweep_id` under solver version `version` (this
    /// build's): the shards done so far stay, recorded as computed by the
    /// version that computed them; from now on only workers of `version`
    /// run its shards (leases held by workers of the old one are refused
    /// when they submit, and their shards handed out again). Durable before
    /// it returns. `None` if the sweep already runs under `version`.
    pub fn change_solver(
        &self,
        sweep_id: &str,
        version: &str,
    ) -> Result<Option<SolverChanged>, CoreError> {
        let mut st = self.lock();
        let s = st.sweep_mut(sweep_id)?;
        let from = s.record.solver_version.clone();
        if from == version {
            return Ok(None);
        }
        // Done shards not already recorded under an earlier build are the
        // current build's.
        let done: ShardSet = (0..s.plan.len() as u32)
            .filter(|&i| s.states[i as usize] == ShardState::Done)
            .filter(|&i| version_of(&s.record.earlier_solvers, &from, i) == from)
            .collect();
        let shards_kept = s.results_stored;
        let mut earlier = with_shards(&s.record.earlier_solvers, "", &from, &done);
        // Going back to a build recorded earlier: its shards are the
        // current build's again (the rest of the done shards).
        earlier.retain(|e| e.version != version);
        self.update_record(s, |r| {
            r.solver_version = version.to_string();
            r.earlier_solvers = earlier;
        })?;
        drop(st);
        self.commit.commit(|| self.store.flush())?;
        self.forget_render(sweep_id);
        info!(sweep = %sweep_id, from = %from, to = %version, shards_kept, "the sweep's solver changed");
        Ok(Some(SolverChanged { from, shards_kept }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[u32]) -> ShardSet {
        v.iter().copied().collect()
    }

    #[test]
    fn a_shard_belongs_to_the_build_that_recorded_it_else_to_the_current_one() {
        let earlier = with_shards(&[], "b", "a", &set(&[0, 1, 2]));
        let earlier = with_shards(&earlier, "b", "a", &set(&[5]));
        assert_eq!(earlier.len(), 1);
        assert_eq!(earlier[0].shards.ranges(), &[[0, 2], [5, 5]]);
        assert_eq!(version_of(&earlier, "b", 1), "a");
        assert_eq!(version_of(&earlier, "b", 3), "b");
        // The current build's shards are never recorded as earlier.
        assert_eq!(with_shards(&earlier, "b", "b", &set(&[7])), earlier);
    }
}
