//! `provenance.json`: where a finished sweep's result came from — the
//! solver and plan it was computed with, how much of it was verified by a
//! second worker and with what outcome, and which workers contributed.
//! Written beside `results.json` (which stays free of anything
//! build-dependent, so committed goldens stay byte-identical).

use super::model::CoreError;
use super::model::{is_issued, voter};
use super::replication;
use super::replication_state::result_part;
use super::Core;
use crate::store::{ReplicationPurpose, Verdict};
use std::collections::BTreeMap;

pub use gamesweep_api::provenance::{
    Confirmation, MismatchRecord, Provenance, Rechecked, SolverShare, UNRECORDED,
};

impl Core {
    /// The provenance of a finished sweep.
    pub fn provenance(&self, sweep_id: &str) -> Result<Provenance, CoreError> {
        let checks = {
            let r = self.rendered(sweep_id)?;
            // The kind's own cheap truths (`Kind::truths`); the core names no kind.
            let checks = r
                .kind
                .truths(&r.rendered.results_json)
                .map_err(|e| CoreError::Render(format!("results.json: {e}")))?;
            for c in checks.iter().filter(|c| !c.ok) {
                tracing::error!(sweep = %sweep_id, check = %c.check, "{}", c.detail);
            }
            checks
        };
        let st = self.lock();
        let s = st.sweep(sweep_id)?;
        if let Some(e) = s.unfinished() {
            return Err(e);
        }
        let plan = serde_json::to_vec(&*s.plan).expect("plans serialize");
        let v = &s.replication;
        let status = v.status().unwrap_or_default();
        let mut contributors = BTreeMap::new();
        for i in 0..s.plan.len() as u32 {
            let w = v.origins.get(&i).map_or(UNRECORDED, String::as_str);
            *contributors.entry(w.to_string()).or_insert(0) += 1;
        }
        let mismatches = v
            .records
            .iter()
            .filter(|(_, r)| super::replication_state::mismatched(r))
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
        let mut rechecked_after_a_lie: BTreeMap<String, Rechecked> = BTreeMap::new();
        for r in v.records.values() {
            let Some(first) = r
                .runs
                .first()
                .filter(|_| r.purpose == ReplicationPurpose::Recheck)
            else {
                continue;
            };
            let e = rechecked_after_a_lie
                .entry(voter(&first.worker).to_string())
                .or_default();
            e.shards += 1;
            match &r.verdict {
                Verdict::Verified
                | Verdict::Majority {
                    replaced: false, ..
                } => e.verified += 1,
                Verdict::Majority { replaced: true, .. } => e.replaced += 1,
                Verdict::Unverifiable => e.unverifiable += 1,
                Verdict::Open => {}
            }
        }
        // Identities caught giving a wrong result, here or elsewhere.
        let caught: std::collections::BTreeSet<&str> = st
            .trust
            .iter()
            .filter(|(_, t)| t.disagreements > 0)
            .map(|(w, _)| w.as_str())
            .collect();
        Ok(Provenance {
            sweep_id: s.record.id.clone(),
            kind: s.record.kind.clone(),
            params: s.record.params.clone(),
            solver_version: s.record.solver_version.clone(),
            solvers: super::solvers::shares(s),
            coordinator_version: self.version.clone(),
            plan_digest: replication::digest(&plan),
            shards_total: s.plan.len() as u32,
            verify_fraction: v.ppm as f64 / 1e6,
            verify_ppm: v.ppm,
            verify_seed: v.seed,
            shards_selected: status.selected,
            shards_rechecked: v
                .records
                .values()
                .filter(|r| r.purpose == ReplicationPurpose::Recheck)
                .count() as u32,
            rechecked_after_a_lie,
            shards_verified: status.verified,
            shards_mismatched: status.mismatched,
            shards_replaced: status.replaced,
            shards_unverifiable: status.unverifiable,
            mismatches,
            disagreeing_workers: status.disagreeing_workers,
            quarantined_workers: st.quarantine.workers.keys().cloned().collect(),
            contributors,
            confirmation: confirmation(s, &caught),
            results_invalid_by: s.results_invalid_by.clone(),
            recounted: s.recounted,
            recounts_refused: s.recounts_refused,
            checks,
        })
    }
}

/// What replication established for sweep `s` (finished), given the
/// identities `caught` giving a wrong result.
fn confirmation(
    s: &super::model::Sweep,
    caught: &std::collections::BTreeSet<&str>,
) -> Confirmation {
    let mut c = Confirmation::default();
    let total = s.plan.len() as u32;
    // The rows shard `i` can change, if the kind says.
    let rows = |i: u32| {
        let r = s.kind.rows(&s.record.params, s.plan.get(i as usize)?)?;
        Some([*r.start(), *r.end()])
    };
    let digests = replication::digests(s);
    for i in 0..total {
        let origin = s
            .replication
            .origins
            .get(&i)
            .map_or(UNRECORDED, String::as_str);
        // The identities that computed the accepted result.
        let mut agreeing: std::collections::BTreeSet<&str> = [voter(origin)].into();
        if let Some(r) = s.replication.records.get(&i) {
            // What the accepted result's run voted for (its result and, in
            // a sweep with position digests, its digest), else its result.
            let accepted_run = match &r.verdict {
                Verdict::Majority { replaced: true, .. } => r
                    .runs
                    .iter()
                    .find(|x| x.worker == origin && x.result.is_some()),
                _ => r.runs.first(),
            };
            if let (Some(acc), true) = (
                accepted_run,
                matches!(r.verdict, Verdict::Verified | Verdict::Majority { .. }),
            ) {
                let votes: Vec<(&str, Option<&str>)> = r
                    .runs
                    .iter()
                    .map(|x| (voter(&x.worker), replication::vote(r, x, digests)))
                    .collect();
                // The vote the accepted result won by: its run's own, or,
                // for a run that is no vote (recorded from the stored
                // result), the vote for its result with the most voices.
                let won = replication::vote(r, acc, digests).or_else(|| {
                    let mut by: BTreeMap<&str, std::collections::BTreeSet<&str>> = BTreeMap::new();
                    for (w, v) in &votes {
                        if let Some(v) = v.filter(|v| result_part(v) == result_part(&acc.digest)) {
                            by.entry(v).or_default().insert(w);
                        }
                    }
                    by.into_iter().max_by_key(|(_, w)| w.len()).map(|(v, _)| v)
                });
                for (w, v) in &votes {
                    if won.is_some() && *v == won {
                        agreeing.insert(w);
                    }
                }
            }
        }
        if agreeing.len() >= 2 && agreeing.iter().any(|v| is_issued(v)) {
            c.confirmed_by_two_identities += 1;
            continue;
        }
        let alone = voter(origin).to_string();
        if is_issued(&alone) {
            c.rest_on_one_issued_identity += 1;
        } else {
            c.rest_on_a_shared_token += 1;
        }
        // The union of the rows of its shards (each a range ending at the
        // same top for a graph sweep; a span over them otherwise).
        let span = rows(i);
        c.rows_alone
            .entry(alone.clone())
            .and_modify(|was| {
                *was = match (*was, span) {
                    (Some([a, b]), Some([x, y])) => Some([a.min(x), b.max(y)]),
                    _ => None,
                }
            })
            .or_insert(span);
        if caught.contains(alone.as_str()) {
            *c.caught_alone.entry(alone.clone()).or_insert(0) += 1;
        }
        *c.resting_alone.entry(alone).or_insert(0) += 1;
    }
    // Only a sweep where two identities agreed says that their agreement
    // shows no computation.
    c.results_only = !digests && c.confirmed_by_two_identities > 0;
    let worst = c.resting_alone.iter().max_by_key(|(_, n)| **n);
    c.most_one_identity_could_change = worst.map_or(0, |(_, n)| *n);
    // Every identity resting alone on some shards, the most first: naming
    // only the largest would name an honest one beside a liar of fewer.
    let mut each: Vec<(&String, &u32)> = c.resting_alone.iter().collect();
    each.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let everyone = each
        .iter()
        .map(|(w, n)| format!("{w}: {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    c.statement = if c.results_only && c.confirmed_by_two_identities > 0 {
        let n = c.most_one_identity_could_change;
        format!(
            "not independently verified: {} of {total} shards have equal results from two identities, but {}, so that does not show both computed them (a result replayed from an export agrees too); one faulty or lying identity could have changed up to {n} shards unnoticed{}",
            c.confirmed_by_two_identities,
            if replication::kind_digests(s) {
                "the sweep was launched without verification, so its runs carry no position digest".to_string()
            } else {
                format!("kind `{}` computes no position digest", s.record.kind)
            },
            if everyone.is_empty() { String::new() } else { format!(" (resting alone: {everyone})") }
        )
    } else if c.confirmed_by_two_identities == total {
        "independently verified: every shard confirmed by two identities".to_string()
    } else if c.confirmed_by_two_identities == 0 && c.resting_alone.len() == 1 {
        "not independently verified: every shard rests on one identity".to_string()
    } else if c.confirmed_by_two_identities == 0 {
        let n = c.most_one_identity_could_change;
        format!(
            "not independently verified: no shard confirmed by a second identity; one faulty or lying identity could have changed up to {n} of {total} shards unnoticed ({everyone})"
        )
    } else {
        let n = c.most_one_identity_could_change;
        format!(
            "partly verified: {} of {total} shards confirmed by two identities; one faulty or lying identity could have changed up to {n} shards unnoticed (resting alone: {everyone})",
            c.confirmed_by_two_identities
        )
    };
    // Said plainly: shards resting on an identity caught lying are
    // unverified, whatever else the statement says.
    for (w, n) in &c.caught_alone {
        c.statement.push_str(&format!(
            "; {} rest on {w} alone, an identity caught giving a wrong result, and no other identity could run {} again: unverified",
            if *n == 1 { "1 shard".to_string() } else { format!("{n} shards") },
            if *n == 1 { "it" } else { "them" },
        ));
    }
    c
}
