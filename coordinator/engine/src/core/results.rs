//! What a sweep yields: the merged result of a finished sweep, its rendered
//! report (computed once, then cached), and the projection of a sample.

use super::model::{CoreError, ShardState};
use super::Core;
use crate::projection::{self, Projection, SweepFacts};
use crate::store::ShardTiming;
use gamesweep::sweep::{Output, Params, Rendered};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// Distinct core counts one projection may ask for.
pub const MAX_PROJECTION_CORES: usize = 64;

/// The largest core count a projection may ask for.
pub const MAX_CORES: u32 = 1_000_000;

/// `cores` if a projection may be asked for them: 1 to [`MAX_CORES`]
/// each, at most [`MAX_PROJECTION_CORES`] distinct.
pub fn check_cores(cores: &[u32]) -> Result<(), CoreError> {
    if let Some(c) = cores.iter().find(|&&c| c == 0 || c > MAX_CORES) {
        return Err(CoreError::BadRequest(format!(
            "core count {c} is out of range: core counts must be between 1 and {MAX_CORES}"
        )));
    }
    let distinct: std::collections::BTreeSet<u32> = cores.iter().copied().collect();
    if distinct.len() > MAX_PROJECTION_CORES {
        return Err(CoreError::BadRequest(format!(
            "{} distinct core counts asked for; a projection takes at most {MAX_PROJECTION_CORES}",
            distinct.len()
        )));
    }
    Ok(())
}

/// The merged result of a finished sweep.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The sweep's kind.
    pub kind: super::model::KindRef,
    /// The sweep's params.
    pub params: Params,
    /// The merge of every shard's result.
    pub output: Output,
}

/// The rendered result of a finished sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedResult {
    /// The sweep's kind.
    pub kind: super::model::KindRef,
    /// The sweep's params.
    pub params: Params,
    /// `results.json`, `report.md` and the exports.
    pub rendered: Rendered,
}

/// Which state of a sweep a render was made from: a sweep deleted and
/// launched again under its id has another `seq`, and a render is only made
/// of a finished sweep, whose done count cannot change afterwards; keying on
/// both means a stale render is never served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RenderKey {
    /// The sweep record's launch sequence number.
    seq: u64,
    /// Shards done when rendered.
    done: u32,
}

/// Renders of finished sweeps, by sweep id.
#[derive(Default)]
pub(crate) struct RenderCache {
    /// The latest render of each sweep.
    entries: Mutex<HashMap<String, (RenderKey, Arc<RenderedResult>)>>,
}

impl RenderCache {
    fn get(&self, id: &str, key: RenderKey) -> Option<Arc<RenderedResult>> {
        let e = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        e.get(id).filter(|(k, _)| *k == key).map(|(_, r)| r.clone())
    }

    fn put(&self, id: &str, key: RenderKey, r: Arc<RenderedResult>) {
        let mut e = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        e.insert(id.to_string(), (key, r));
    }

    fn forget(&self, id: &str) {
        let mut e = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        e.remove(id);
    }
}

impl Core {
    /// The merged result of a finished sweep, with its kind and params.
    pub fn merged(&self, sweep_id: &str) -> Result<Merged, CoreError> {
        let st = self.lock();
        let s = st.sweep(sweep_id)?;
        if let Some(e) = s.unfinished() {
            return Err(e);
        }
        Ok(Merged {
            kind: s.kind,
            params: s.record.params.clone(),
            output: s.merged.clone(),
        })
    }

    /// The merge of the results accepted so far, finished or not, with the
    /// sweep's launch sequence number and shards done (which together say
    /// whether it changed since an earlier call).
    pub fn partial(&self, sweep_id: &str) -> Result<(Merged, u64, u32), CoreError> {
        let st = self.lock();
        let s = st.sweep(sweep_id)?;
        Ok((
            Merged {
                kind: s.kind,
                params: s.record.params.clone(),
                output: s.merged.clone(),
            },
            s.record.seq,
            s.done(),
        ))
    }

    /// The rendered result of a finished sweep. Rendered on the first call
    /// (outside the core's lock), then served from a cache.
    pub fn rendered(&self, sweep_id: &str) -> Result<Arc<RenderedResult>, CoreError> {
        let (key, m) = {
            let st = self.lock();
            let s = st.sweep(sweep_id)?;
            if let Some(e) = s.unfinished() {
                return Err(e);
            }
            let key = RenderKey {
                seq: s.record.seq,
                done: s.done(),
            };
            if let Some(hit) = self.renders.get(sweep_id, key) {
                return Ok(hit);
            }
            let m = Merged {
                kind: s.kind,
                params: s.record.params.clone(),
                output: s.merged.clone(),
            };
            (key, m)
        };
        let cannot = |e: gamesweep::sweep::SweepError| CoreError::Render(e.to_string());
        let rendered = m.kind.render(&m.params, &m.output).map_err(cannot)?;
        let r = Arc::new(RenderedResult {
            kind: m.kind,
            params: m.params,
            rendered,
        });
        self.renders.put(sweep_id, key, r.clone());
        Ok(r)
    }

    /// Drop a sweep's cached render (it was deleted).
    pub(crate) fn forget_render(&self, sweep_id: &str) {
        self.renders.forget(sweep_id);
    }

    /// Project a sampled sweep's whole cost from its done sampled shards,
    /// with wall times for each of `cores` (at most [`MAX_PROJECTION_CORES`]
    /// distinct counts; see [`crate::projection`]). Only the sample's facts
    /// are copied under the core's lock; the schedules, whose cost grows
    /// with the plan and the core counts, are computed outside it.
    pub fn projection(&self, sweep_id: &str, cores: &[u32]) -> Result<Projection, CoreError> {
        check_cores(cores)?;
        let (kind, params, plan, sample, work, timings) = {
            let mut st = self.lock();
            let s = st.sweep_mut(sweep_id)?;
            self.fill_in(s)?;
            let s = &*s;
            let Some(sample) = s.record.sample.clone() else {
                return Err(CoreError::BadRequest(format!(
                    "sweep `{sweep_id}` was launched without --sample: a projection needs a random sample of shards (launch one with `--sample 0.5% --sample-seed N`)"
                )));
            };
            let work: BTreeMap<u32, u64> = sample
                .shards
                .iter()
                .filter(|&&i| s.states[i as usize] == ShardState::Done)
                .map(|&i| (i, s.work[i as usize]))
                .collect();
            let timings: BTreeMap<u32, ShardTiming> = work
                .keys()
                .filter_map(|i| Some((*i, s.timings.get(i)?.clone())))
                .collect();
            (
                s.record.kind.clone(),
                s.record.params.clone(),
                s.plan.clone(),
                sample,
                work,
                timings,
            )
        };
        let facts = SweepFacts {
            sweep_id,
            kind: &kind,
            params: &params,
            plan: &plan,
            sample: &sample,
            work: &work,
            timings: &timings,
        };
        projection::project(&facts, cores).map_err(|e| CoreError::BadRequest(e.to_string()))
    }

    /// The solver version a stored sweep was launched with, if it exists.
    pub fn sweep_version(&self, sweep_id: &str) -> Option<String> {
        self.lock()
            .sweeps
            .get(sweep_id)
            .map(|s| s.record.solver_version.clone())
    }
}
