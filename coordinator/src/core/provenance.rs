//! `provenance.json`: where a finished sweep's result came from — the
//! solver and plan it was computed with, how much of it was verified by a
//! second worker and with what outcome, and which workers contributed.
//! Written beside `results.json` (which stays free of anything
//! build-dependent, so committed goldens stay byte-identical).

use super::model::CoreError;
use super::verify;
use super::Core;
use crate::store::{Verdict, VerifyPurpose};
use gamesweep::sweep::Params;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Contributor name for results accepted before their worker was recorded.
pub const UNRECORDED: &str = "(unrecorded)";

/// A shard whose runs disagreed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MismatchRecord {
    /// Shard index.
    pub shard: u32,
    /// Every run's worker, the accepted one first.
    pub workers: Vec<String>,
    /// The out-voted workers (empty: unresolved, skipped as unverifiable).
    pub disagreeing: Vec<String>,
    /// The accepted result lost and was replaced by the majority's.
    pub replaced: bool,
}

/// `provenance.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// The sweep.
    pub sweep_id: String,
    /// Its kind.
    pub kind: String,
    /// Its parameters.
    pub params: Params,
    /// The kind's solver version the sweep was launched with.
    pub solver_version: String,
    /// The coordinator build that served the result.
    pub coordinator_version: String,
    /// SHA-256 (hex) of the stored plan (its JSON encoding, as stored).
    pub plan_digest: String,
    /// Shards in the plan.
    pub shards_total: u32,
    /// Share of the shards selected for a second run (0..=1).
    pub verify_fraction: f64,
    /// The same share in millionths.
    pub verify_ppm: u32,
    /// Key of the selection hash.
    pub verify_seed: u64,
    /// Shards selected.
    pub shards_selected: u32,
    /// Shards verified again because their worker was quarantined.
    pub shards_rechecked: u32,
    /// Verifications whose runs agreed.
    pub shards_verified: u32,
    /// Verifications whose runs disagreed (settled by majority, or skipped).
    pub shards_mismatched: u32,
    /// Of those, whose accepted result was replaced by the majority's.
    pub shards_replaced: u32,
    /// Verifications skipped: no other worker was seen for several lease periods.
    pub shards_unverifiable: u32,
    /// The shards whose runs disagreed.
    pub mismatches: Vec<MismatchRecord>,
    /// Workers out-voted on some shard of this sweep.
    pub disagreeing_workers: Vec<String>,
    /// Workers quarantined on this coordinator.
    pub quarantined_workers: Vec<String>,
    /// Workers whose results make up the merged result, with their shard counts.
    pub contributors: BTreeMap<String, u32>,
}

impl Provenance {
    /// The text of `provenance.json` (pretty, final newline).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("provenance serializes");
        s.push('\n');
        s
    }
}

impl Core {
    /// The provenance of a finished sweep.
    pub fn provenance(&self, sweep_id: &str) -> Result<Provenance, CoreError> {
        let st = self.lock();
        let s = st.sweep(sweep_id)?;
        if let Some(e) = s.unfinished() {
            return Err(e);
        }
        let plan = serde_json::to_vec(&*s.plan).expect("plans serialize");
        let v = &s.verify;
        let status = v.status().unwrap_or_default();
        let mut contributors = BTreeMap::new();
        for i in 0..s.plan.len() as u32 {
            let w = v.origins.get(&i).map_or(UNRECORDED, String::as_str);
            *contributors.entry(w.to_string()).or_insert(0) += 1;
        }
        let mismatches = v
            .records
            .iter()
            .filter(|(_, r)| r.mismatched())
            .map(|(&shard, r)| MismatchRecord {
                shard,
                workers: r.runs.iter().map(|x| x.worker.clone()).collect(),
                disagreeing: match &r.verdict {
                    Verdict::Majority { disagreeing, .. } => disagreeing.clone(),
                    _ => Vec::new(),
                },
                replaced: matches!(r.verdict, Verdict::Majority { replaced: true, .. }),
            })
            .collect();
        Ok(Provenance {
            sweep_id: s.record.id.clone(),
            kind: s.record.kind.clone(),
            params: s.record.params.clone(),
            solver_version: s.record.solver_version.clone(),
            coordinator_version: self.version.clone(),
            plan_digest: verify::digest(&plan),
            shards_total: s.plan.len() as u32,
            verify_fraction: v.ppm as f64 / 1e6,
            verify_ppm: v.ppm,
            verify_seed: v.seed,
            shards_selected: status.selected,
            shards_rechecked: v
                .records
                .values()
                .filter(|r| r.purpose == VerifyPurpose::Recheck)
                .count() as u32,
            shards_verified: status.verified,
            shards_mismatched: status.mismatched,
            shards_replaced: status.replaced,
            shards_unverifiable: status.unverifiable,
            mismatches,
            disagreeing_workers: status.disagreeing_workers,
            quarantined_workers: st.quarantine.workers.keys().cloned().collect(),
            contributors,
        })
    }
}
