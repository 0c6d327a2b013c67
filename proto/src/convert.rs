//! Conversions between protobuf messages and the core's domain types, in one
//! place. Decoding a message from the wire is fallible ([`ConvertError`]):
//! a malformed message (missing field, duplicate parameter) is rejected
//! rather than guessed at. Shard results travel as the kind's typed result
//! encoded as JSON bytes; only the kind can decode them (`SweepKind::decode`).

use crate::pb;
use gamesweep::sweep::{Params, ShardSpec};
use gamesweep_api::domain::{
    IdentityLimit, Imported, LaunchSpec, Launched, Overview, ProjectionText, Rechecking,
    RenderedSweep, ReplicationStatus, ReplicationWaiting, SampleRequest, SampleStatus,
    ShardFailureStatus, SweepState, SweepStatus, WorkerStatus,
};
use gamesweep_api::provenance::Provenance;
use gamesweep_api::{SolverVersion, SolverVersionError, SolverVersions};
use std::collections::BTreeMap;

/// A protobuf message that does not describe a valid domain value.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConvertError {
    /// A required sub-message was absent.
    #[error("malformed message: missing field `{0}`")]
    Missing(&'static str),
    /// A parameter name given twice.
    #[error("malformed message: parameter `{0}` given twice")]
    DuplicateParam(String),
    /// A counterexample key given twice.
    #[error("malformed message: counterexample key `{0}` given twice")]
    DuplicateKey(String),
    /// A sweep state this build does not know (or the unspecified 0).
    #[error("malformed message: unknown sweep state {0}")]
    UnknownState(i32),
    /// A number that cannot be what the field says (e.g. a negative ETA).
    #[error("malformed message: `{field}` is {value}")]
    BadNumber {
        /// The field.
        field: &'static str,
        /// Its value, as text.
        value: String,
    },
    /// A bad entry of a `solver_versions` list (the message names it).
    #[error("malformed message: {0}")]
    SolverVersion(#[from] SolverVersionError),
    /// A `provenance_json` that is not a provenance.
    #[error("malformed message: the coordinator's provenance.json is not valid: {0}")]
    Provenance(String),
}

/// Domain solver versions → the wire's repeated `SolverVersion`.
pub fn solver_versions_to_proto(v: &SolverVersions) -> Vec<pb::SolverVersion> {
    v.entries()
        .iter()
        .map(|e| pb::SolverVersion {
            name: e.name.clone(),
            version: e.version.clone(),
        })
        .collect()
}

/// The wire's repeated `SolverVersion` → domain solver versions; an empty
/// name or version, or a kind listed twice, is an error naming the entry.
pub fn solver_versions_from_proto(v: &[pb::SolverVersion]) -> Result<SolverVersions, ConvertError> {
    let entries = v
        .iter()
        .map(|e| SolverVersion {
            name: e.name.clone(),
            version: e.version.clone(),
        })
        .collect();
    Ok(SolverVersions::new(entries)?)
}

/// Domain params → wire params (sorted by name, as `Params` is).
pub fn params_to_proto(params: &Params) -> Vec<pb::Param> {
    params
        .iter()
        .map(|(name, &value)| pb::Param {
            name: name.clone(),
            value,
        })
        .collect()
}

/// Wire params → domain params; a name given twice is an error.
pub fn params_from_proto(params: &[pb::Param]) -> Result<Params, ConvertError> {
    let mut out = Params::new();
    for p in params {
        if out.insert(p.name.clone(), p.value).is_some() {
            return Err(ConvertError::DuplicateParam(p.name.clone()));
        }
    }
    Ok(out)
}

/// Domain shard → wire shard.
pub fn shard_to_proto(s: &ShardSpec) -> pb::ShardSpec {
    pb::ShardSpec {
        index: s.index,
        payload: s.payload.clone(),
        estimate: s.estimate,
    }
}

/// Wire shard → domain shard.
pub fn shard_from_proto(s: pb::ShardSpec) -> ShardSpec {
    ShardSpec {
        index: s.index,
        payload: s.payload,
        estimate: s.estimate,
    }
}

/// Wire shard (optional sub-message) → domain shard.
pub fn opt_shard_from_proto(s: Option<pb::ShardSpec>) -> Result<ShardSpec, ConvertError> {
    s.map(shard_from_proto)
        .ok_or(ConvertError::Missing("shard"))
}

impl From<SweepState> for pb::SweepState {
    fn from(s: SweepState) -> Self {
        match s {
            SweepState::Running => pb::SweepState::Running,
            SweepState::Done => pb::SweepState::Done,
            SweepState::Cancelled => pb::SweepState::Cancelled,
            SweepState::Failed => pb::SweepState::Failed,
            SweepState::Sampled => pb::SweepState::Sampled,
            SweepState::Paused => pb::SweepState::Paused,
        }
    }
}

/// The wire's `SweepState` field (an `i32`, as prost keeps open enums).
pub fn state_from_proto(v: i32) -> Result<SweepState, ConvertError> {
    {
        match pb::SweepState::try_from(v) {
            Ok(pb::SweepState::Running) => Ok(SweepState::Running),
            Ok(pb::SweepState::Done) => Ok(SweepState::Done),
            Ok(pb::SweepState::Cancelled) => Ok(SweepState::Cancelled),
            Ok(pb::SweepState::Failed) => Ok(SweepState::Failed),
            Ok(pb::SweepState::Sampled) => Ok(SweepState::Sampled),
            Ok(pb::SweepState::Paused) => Ok(SweepState::Paused),
            Ok(pb::SweepState::Unspecified) | Err(_) => Err(ConvertError::UnknownState(v)),
        }
    }
}

impl From<SampleRequest> for pb::SampleSpec {
    fn from(s: SampleRequest) -> Self {
        pb::SampleSpec {
            ppm: s.ppm,
            seed: s.seed,
        }
    }
}

impl From<pb::SampleSpec> for SampleRequest {
    fn from(s: pb::SampleSpec) -> Self {
        SampleRequest {
            ppm: s.ppm,
            seed: s.seed,
        }
    }
}

impl From<LaunchSpec> for pb::LaunchRequest {
    fn from(l: LaunchSpec) -> Self {
        pb::LaunchRequest {
            kind: l.kind,
            params: params_to_proto(&l.params),
            name: l.name.unwrap_or_default(),
            target_shards: l.target_shards,
            resume_existing: l.resume_existing,
            sample: l.sample.map(Into::into),
            verify_ppm: l.verify_ppm,
            verify_seed: l.verify_seed,
            priority: l.priority,
            replicate_all: l.replicate_all,
            part: l.part.map(|p| pb::PartSpec {
                index: p.index,
                of: p.of,
            }),
        }
    }
}

impl TryFrom<pb::LaunchRequest> for LaunchSpec {
    type Error = ConvertError;
    fn try_from(r: pb::LaunchRequest) -> Result<Self, ConvertError> {
        Ok(LaunchSpec {
            params: params_from_proto(&r.params)?,
            kind: r.kind,
            name: (!r.name.is_empty()).then_some(r.name),
            target_shards: r.target_shards,
            resume_existing: r.resume_existing,
            sample: r.sample.map(Into::into),
            verify_ppm: r.verify_ppm,
            verify_seed: r.verify_seed,
            priority: r.priority,
            replicate_all: r.replicate_all,
            part: r.part.map(|p| gamesweep_api::domain::Part {
                index: p.index,
                of: p.of,
            }),
        })
    }
}

impl From<Imported> for pb::ImportReply {
    fn from(i: Imported) -> Self {
        pb::ImportReply {
            sweep_id: i.sweep_id,
            shards: i.shards,
            done: i.done,
            signer: i.signer,
            trusted: i.trusted,
            merged: i.merged,
            added: i.added,
            confirmed: i.confirmed,
            conflicts: i.conflicts,
        }
    }
}

impl From<pb::ImportReply> for Imported {
    fn from(r: pb::ImportReply) -> Self {
        Imported {
            sweep_id: r.sweep_id,
            shards: r.shards,
            done: r.done,
            signer: r.signer,
            trusted: r.trusted,
            merged: r.merged,
            added: r.added,
            confirmed: r.confirmed,
            conflicts: r.conflicts,
        }
    }
}

impl From<Launched> for pb::LaunchReply {
    fn from(l: Launched) -> Self {
        pb::LaunchReply {
            sweep_id: l.sweep_id,
            shards: l.shards,
            existing: l.existing,
            solver_version: l.solver_version,
        }
    }
}

impl From<pb::LaunchReply> for Launched {
    fn from(r: pb::LaunchReply) -> Self {
        Launched {
            sweep_id: r.sweep_id,
            shards: r.shards,
            existing: r.existing,
            solver_version: r.solver_version,
        }
    }
}

impl From<SweepStatus> for pb::SweepStatus {
    fn from(s: SweepStatus) -> Self {
        pb::SweepStatus {
            sweep_id: s.sweep_id,
            kind: s.kind,
            params: params_to_proto(&s.params),
            solver_version: s.solver_version,
            state: pb::SweepState::from(s.state).into(),
            shards_total: s.shards_total,
            shards_pending: s.shards_pending,
            shards_leased: s.shards_leased,
            shards_done: s.shards_done,
            positions_done: s.positions_done,
            positions_estimate: s.positions_estimate,
            rate: s.rate,
            eta_seconds: s.eta_seconds,
            counterexamples: s
                .counterexamples
                .into_iter()
                .map(|(key, total)| pb::CounterexampleCount { key, total })
                .collect(),
            duplicates_ignored: s.duplicates_ignored,
            leases_expired: s.leases_expired,
            leases_released: s.leases_released,
            refused_submits: s.refused_submits,
            refused_renewals: s.refused_renewals,
            refused_fails: s.refused_fails,
            results_invalid: s.results_invalid,
            recounted: s.recounted,
            recounts_refused: s.recounts_refused,
            results_stored: s.results_stored,
            sample: s.sample.map(|m| pb::SampleStatus {
                ppm: m.ppm,
                seed: m.seed,
                shards: m.shards,
                done: m.done,
                limited: m.limited,
                estimate: m.estimate,
            }),
            shards_failed: s.shards_failed,
            failures: s
                .failures
                .into_iter()
                .map(|f| pb::ShardFailure {
                    index: f.index,
                    count: f.count,
                    error: f.error,
                    worker_id: f.worker_id,
                })
                .collect(),
            verification: s.verification.map(Into::into),
            priority: s.priority,
            positions_projected: s.positions_projected,
            estimate_spread: s.estimate_spread,
            positions_target: s.positions_target,
            fraction_done: s.fraction_done,
        }
    }
}

impl From<ReplicationStatus> for pb::VerifyStatus {
    fn from(v: ReplicationStatus) -> Self {
        pb::VerifyStatus {
            ppm: v.ppm,
            seed: v.seed,
            selected: v.selected,
            rechecks: v.rechecks,
            pending: v.pending,
            verified: v.verified,
            mismatched: v.mismatched,
            replaced: v.replaced,
            unverifiable: v.unverifiable,
            disagreeing_workers: v.disagreeing_workers,
            waiting: v.waiting.map(|w| pb::VerifyWaiting {
                shards: w.shards,
                needs_issued: w.needs_issued,
                eligible: w.eligible,
                unskippable: w.unskippable,
                skip_at_ms: w.skip_at_ms,
                skip_in_ms: w.skip_in_ms,
                rechecking: w
                    .rechecking
                    .into_iter()
                    .map(|r| pb::Rechecking {
                        identity: r.identity,
                        shards: r.shards,
                    })
                    .collect(),
            }),
        }
    }
}

impl From<pb::VerifyStatus> for ReplicationStatus {
    fn from(v: pb::VerifyStatus) -> Self {
        ReplicationStatus {
            ppm: v.ppm,
            seed: v.seed,
            selected: v.selected,
            rechecks: v.rechecks,
            pending: v.pending,
            verified: v.verified,
            mismatched: v.mismatched,
            replaced: v.replaced,
            unverifiable: v.unverifiable,
            disagreeing_workers: v.disagreeing_workers,
            waiting: v.waiting.map(|w| ReplicationWaiting {
                shards: w.shards,
                needs_issued: w.needs_issued,
                eligible: w.eligible,
                unskippable: w.unskippable,
                skip_at_ms: w.skip_at_ms,
                skip_in_ms: w.skip_in_ms,
                rechecking: w
                    .rechecking
                    .into_iter()
                    .map(|r| Rechecking {
                        identity: r.identity,
                        shards: r.shards,
                    })
                    .collect(),
            }),
        }
    }
}

impl TryFrom<pb::SweepStatus> for SweepStatus {
    type Error = ConvertError;
    fn try_from(s: pb::SweepStatus) -> Result<Self, ConvertError> {
        if let Some(eta) = s.eta_seconds.filter(|e| !(e.is_finite() && *e >= 0.0)) {
            return Err(ConvertError::BadNumber {
                field: "eta_seconds",
                value: eta.to_string(),
            });
        }
        if let Some(x) = s.estimate_spread.filter(|e| !(e.is_finite() && *e >= 0.0)) {
            return Err(ConvertError::BadNumber {
                field: "estimate_spread",
                value: x.to_string(),
            });
        }
        if !(0.0..=1.0).contains(&s.fraction_done) {
            return Err(ConvertError::BadNumber {
                field: "fraction_done",
                value: s.fraction_done.to_string(),
            });
        }
        if !(s.rate.is_finite() && s.rate >= 0.0) {
            return Err(ConvertError::BadNumber {
                field: "rate",
                value: s.rate.to_string(),
            });
        }
        let mut counterexamples = BTreeMap::new();
        for c in s.counterexamples {
            if counterexamples.contains_key(&c.key) {
                return Err(ConvertError::DuplicateKey(c.key));
            }
            counterexamples.insert(c.key, c.total);
        }
        Ok(SweepStatus {
            params: params_from_proto(&s.params)?,
            state: state_from_proto(s.state)?,
            sweep_id: s.sweep_id,
            kind: s.kind,
            solver_version: s.solver_version,
            shards_total: s.shards_total,
            shards_pending: s.shards_pending,
            shards_leased: s.shards_leased,
            shards_done: s.shards_done,
            results_stored: s.results_stored,
            positions_done: s.positions_done,
            positions_estimate: s.positions_estimate,
            rate: s.rate,
            eta_seconds: s.eta_seconds,
            counterexamples,
            duplicates_ignored: s.duplicates_ignored,
            leases_expired: s.leases_expired,
            leases_released: s.leases_released,
            refused_submits: s.refused_submits,
            refused_renewals: s.refused_renewals,
            refused_fails: s.refused_fails,
            results_invalid: s.results_invalid,
            recounted: s.recounted,
            recounts_refused: s.recounts_refused,
            sample: s.sample.map(|m| SampleStatus {
                ppm: m.ppm,
                seed: m.seed,
                shards: m.shards,
                done: m.done,
                limited: m.limited,
                estimate: m.estimate,
            }),
            shards_failed: s.shards_failed,
            failures: s
                .failures
                .into_iter()
                .map(|f| ShardFailureStatus {
                    index: f.index,
                    count: f.count,
                    error: f.error,
                    worker_id: f.worker_id,
                })
                .collect(),
            verification: s.verification.map(Into::into),
            priority: s.priority.max(1),
            positions_projected: s.positions_projected,
            estimate_spread: s.estimate_spread,
            positions_target: s.positions_target,
            fraction_done: s.fraction_done,
        })
    }
}

impl From<WorkerStatus> for pb::WorkerInfo {
    fn from(w: WorkerStatus) -> Self {
        pb::WorkerInfo {
            worker_id: w.worker_id,
            last_seen_ms_ago: w.last_seen_ms_ago,
            shards_held: w.shards_held,
            alive: w.alive,
        }
    }
}

impl From<pb::WorkerInfo> for WorkerStatus {
    fn from(w: pb::WorkerInfo) -> Self {
        WorkerStatus {
            worker_id: w.worker_id,
            last_seen_ms_ago: w.last_seen_ms_ago,
            shards_held: w.shards_held,
            alive: w.alive,
        }
    }
}

impl From<Overview> for pb::StatusReply {
    fn from(r: Overview) -> Self {
        pb::StatusReply {
            sweeps: r.sweeps.into_iter().map(Into::into).collect(),
            workers: r.workers.into_iter().map(Into::into).collect(),
            coordinator_version: r.coordinator_version,
            store_bytes: r.store_bytes,
            coordinator_rss_bytes: r.coordinator_rss_bytes,
            coordinator_peak_rss_bytes: r.coordinator_peak_rss_bytes,
            workers_pruned: r.workers_pruned,
            quarantined_workers: r.quarantined_workers,
            store_writes_failing: r.store_writes_failing.unwrap_or_default(),
            identities_limited: r
                .identities_limited
                .into_iter()
                .map(|l| pb::IdentityLimit {
                    identity: l.identity,
                    limited: l.limited,
                    leases_reclaimed: l.leases_reclaimed,
                })
                .collect(),
        }
    }
}

impl TryFrom<pb::StatusReply> for Overview {
    type Error = ConvertError;
    fn try_from(r: pb::StatusReply) -> Result<Self, ConvertError> {
        Ok(Overview {
            sweeps: r
                .sweeps
                .into_iter()
                .map(SweepStatus::try_from)
                .collect::<Result<_, _>>()?,
            workers: r.workers.into_iter().map(Into::into).collect(),
            coordinator_version: r.coordinator_version,
            store_bytes: r.store_bytes,
            coordinator_rss_bytes: r.coordinator_rss_bytes,
            coordinator_peak_rss_bytes: r.coordinator_peak_rss_bytes,
            workers_pruned: r.workers_pruned,
            quarantined_workers: r.quarantined_workers,
            store_writes_failing: Some(r.store_writes_failing).filter(|w| !w.is_empty()),
            identities_limited: r
                .identities_limited
                .into_iter()
                .map(|l| IdentityLimit {
                    identity: l.identity,
                    limited: l.limited,
                    leases_reclaimed: l.leases_reclaimed,
                })
                .collect(),
        })
    }
}

impl From<RenderedSweep> for pb::GetResultReply {
    fn from(r: RenderedSweep) -> Self {
        pb::GetResultReply {
            results_json: r.results_json,
            report_md: r.report_md,
            kind: r.kind,
            params: params_to_proto(&r.params),
            provenance_json: r
                .provenance
                .as_ref()
                .map(Provenance::to_json)
                .unwrap_or_default(),
        }
    }
}

impl TryFrom<pb::GetResultReply> for RenderedSweep {
    type Error = ConvertError;
    fn try_from(r: pb::GetResultReply) -> Result<Self, ConvertError> {
        Ok(RenderedSweep {
            params: params_from_proto(&r.params)?,
            kind: r.kind,
            results_json: r.results_json,
            report_md: r.report_md,
            provenance: if r.provenance_json.is_empty() {
                None
            } else {
                Some(
                    Provenance::from_json(&r.provenance_json)
                        .map_err(|e| ConvertError::Provenance(e.to_string()))?,
                )
            },
        })
    }
}

impl From<ProjectionText> for pb::GetProjectionReply {
    fn from(p: ProjectionText) -> Self {
        pb::GetProjectionReply {
            projection_json: p.json,
            projection_md: p.md,
        }
    }
}

impl From<pb::GetProjectionReply> for ProjectionText {
    fn from(p: pb::GetProjectionReply) -> Self {
        ProjectionText {
            json: p.projection_json,
            md: p.projection_md,
        }
    }
}

impl From<pb::AuditEntry> for gamesweep_api::domain::AuditRecord {
    fn from(e: pb::AuditEntry) -> Self {
        gamesweep_api::domain::AuditRecord {
            unix_ms: e.unix_ms,
            role: e.role,
            token_fingerprint: e.token_fingerprint,
            peer: e.peer,
            action: e.action,
            sweep_id: e.sweep_id,
            detail: e.detail,
        }
    }
}

impl From<gamesweep_api::domain::AuditRecord> for pb::AuditEntry {
    fn from(e: gamesweep_api::domain::AuditRecord) -> Self {
        pb::AuditEntry {
            unix_ms: e.unix_ms,
            role: e.role,
            token_fingerprint: e.token_fingerprint,
            peer: e.peer,
            action: e.action,
            sweep_id: e.sweep_id,
            detail: e.detail,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sweep_status(state: SweepState, eta_seconds: Option<f64>) -> SweepStatus {
        let mut params = Params::new();
        params.insert("max_n".into(), 7);
        SweepStatus {
            sweep_id: "s".into(),
            kind: "uvg".into(),
            params,
            solver_version: "0.1.0+abc".into(),
            state,
            shards_total: 10,
            shards_pending: 3,
            shards_leased: 2,
            shards_done: 5,
            results_stored: 5,
            positions_done: 1234,
            positions_estimate: 5000,
            rate: 12.5,
            eta_seconds,
            counterexamples: [("bad".to_string(), 2u64)].into_iter().collect(),
            duplicates_ignored: 1,
            leases_expired: 2,
            leases_released: 3,
            refused_submits: 4,
            refused_renewals: 5,
            refused_fails: 6,
            results_invalid: 7,
            recounted: 31,
            recounts_refused: 2,
            sample: Some(SampleStatus {
                ppm: 10_000,
                seed: 7,
                shards: 4,
                done: 4,
                limited: true,
                estimate: 300,
            }),
            shards_failed: 1,
            failures: vec![ShardFailureStatus {
                index: 3,
                count: 3,
                error: "boom".into(),
                worker_id: "w".into(),
            }],
            verification: Some(ReplicationStatus {
                ppm: 10_000,
                seed: 9,
                selected: 4,
                rechecks: 1,
                pending: 1,
                verified: 2,
                mismatched: 1,
                replaced: 1,
                unverifiable: 1,
                disagreeing_workers: vec!["liar".into()],
                waiting: Some(ReplicationWaiting {
                    shards: vec![3, 17],
                    needs_issued: true,
                    eligible: vec!["@b".into()],
                    unskippable: 1,
                    skip_at_ms: Some(1_800_000_000_000),
                    skip_in_ms: Some(25_000),
                    rechecking: vec![Rechecking {
                        identity: "@liar".into(),
                        shards: 2,
                    }],
                }),
            }),
            priority: 2,
            positions_projected: 4000,
            estimate_spread: Some(0.25),
            positions_target: 4000,
            fraction_done: 0.25,
        }
    }

    fn report() -> Overview {
        Overview {
            coordinator_version: "0.1.0+abc".into(),
            sweeps: SweepState::ALL
                .iter()
                .map(|&s| sweep_status(s, Some(3.5)))
                .collect(),
            workers: vec![WorkerStatus {
                worker_id: "w".into(),
                last_seen_ms_ago: 12,
                shards_held: 2,
                alive: true,
            }],
            store_bytes: 1,
            coordinator_rss_bytes: 2,
            coordinator_peak_rss_bytes: 3,
            workers_pruned: 4,
            quarantined_workers: vec!["liar".into()],
            store_writes_failing: Some("IO error: No space left on device (os error 28)".into()),
            identities_limited: vec![IdentityLimit {
                identity: "@hoarder".into(),
                limited: true,
                leases_reclaimed: 3,
            }],
        }
    }

    #[test]
    fn status_round_trips_through_the_wire() {
        let r = report();
        assert_eq!(
            Overview::try_from(pb::StatusReply::from(r.clone())),
            Ok(r.clone())
        );
        // Writes that work: nothing on the wire, `None` back.
        let ok = Overview {
            store_writes_failing: None,
            ..r
        };
        assert_eq!(pb::StatusReply::from(ok.clone()).store_writes_failing, "");
        assert_eq!(
            Overview::try_from(pb::StatusReply::from(ok.clone())),
            Ok(ok)
        );
    }

    #[test]
    fn every_state_round_trips_and_unknown_states_are_refused() {
        for s in SweepState::ALL {
            let wire: i32 = pb::SweepState::from(s).into();
            assert_eq!(state_from_proto(wire), Ok(s));
        }
        assert_eq!(state_from_proto(0), Err(ConvertError::UnknownState(0)));
        assert_eq!(state_from_proto(99), Err(ConvertError::UnknownState(99)));
    }

    #[test]
    fn no_eta_is_absent_on_the_wire_and_none_after() {
        let wire = pb::SweepStatus::from(sweep_status(SweepState::Running, None));
        assert_eq!(wire.eta_seconds, None);
        assert_eq!(SweepStatus::try_from(wire).unwrap().eta_seconds, None);
    }

    #[test]
    fn malformed_status_is_refused() {
        let good = pb::SweepStatus::from(sweep_status(SweepState::Done, Some(0.0)));
        let mut negative_eta = good.clone();
        negative_eta.eta_seconds = Some(-1.0);
        assert!(matches!(
            SweepStatus::try_from(negative_eta),
            Err(ConvertError::BadNumber {
                field: "eta_seconds",
                ..
            })
        ));
        let mut nan_rate = good.clone();
        nan_rate.rate = f64::NAN;
        assert!(matches!(
            SweepStatus::try_from(nan_rate),
            Err(ConvertError::BadNumber { field: "rate", .. })
        ));
        let mut no_state = good.clone();
        no_state.state = 0;
        assert_eq!(
            SweepStatus::try_from(no_state),
            Err(ConvertError::UnknownState(0))
        );
        let mut dup = good.clone();
        dup.counterexamples.push(dup.counterexamples[0].clone());
        assert_eq!(
            SweepStatus::try_from(dup),
            Err(ConvertError::DuplicateKey("bad".into()))
        );
        let mut dup_param = good;
        dup_param.params.push(dup_param.params[0].clone());
        assert_eq!(
            SweepStatus::try_from(dup_param),
            Err(ConvertError::DuplicateParam("max_n".into()))
        );
    }

    #[test]
    fn launch_round_trips_and_empty_name_means_none() {
        let mut params = Params::new();
        params.insert("max_n".into(), 9);
        let spec = LaunchSpec {
            replicate_all: false,
            kind: "uvg".into(),
            params,
            name: None,
            target_shards: 64,
            resume_existing: true,
            sample: Some(SampleRequest { ppm: 5000, seed: 3 }),
            verify_ppm: 10_000,
            verify_seed: Some(11),
            priority: 3,
            part: Some(gamesweep_api::domain::Part { index: 2, of: 5 }),
        };
        let wire = pb::LaunchRequest::from(spec.clone());
        assert_eq!(wire.name, "");
        assert_eq!(LaunchSpec::try_from(wire), Ok(spec.clone()));
        let named = LaunchSpec {
            name: Some("n".into()),
            part: None,
            ..spec
        };
        assert_eq!(
            LaunchSpec::try_from(pb::LaunchRequest::from(named.clone())),
            Ok(named)
        );
        let l = Launched {
            sweep_id: "n".into(),
            shards: 3,
            existing: true,
            solver_version: "v".into(),
        };
        assert_eq!(Launched::from(pb::LaunchReply::from(l.clone())), l);
    }

    #[test]
    fn result_and_projection_round_trip() {
        let mut params = Params::new();
        params.insert("max_n".into(), 5);
        let r = RenderedSweep {
            kind: "uvg".into(),
            params,
            results_json: "{}\n".into(),
            report_md: "# r\n".into(),
            provenance: Some(
                Provenance::from_json(include_str!("../../runs/col-10/provenance.json")).unwrap(),
            ),
        };
        assert_eq!(
            RenderedSweep::try_from(pb::GetResultReply::from(r.clone())),
            Ok(r.clone())
        );
        let none = RenderedSweep {
            provenance: None,
            ..r
        };
        assert_eq!(
            RenderedSweep::try_from(pb::GetResultReply::from(none.clone())),
            Ok(none)
        );
    }

    #[test]
    fn a_provenance_that_does_not_parse_is_an_error_not_nothing_recorded() {
        let reply = pb::GetResultReply {
            results_json: "{}\n".into(),
            report_md: "# r\n".into(),
            kind: "uvg".into(),
            params: Vec::new(),
            provenance_json: "{\"shards_total\": 1}\n".into(),
        };
        let e = RenderedSweep::try_from(reply).unwrap_err().to_string();
        assert!(
            e.contains("provenance.json is not valid") && e.contains("missing field"),
            "{e}"
        );
        let p = ProjectionText {
            json: "{}".into(),
            md: "p".into(),
        };
        assert_eq!(
            ProjectionText::from(pb::GetProjectionReply::from(p.clone())),
            p
        );
    }

    #[test]
    fn solver_versions_round_trip_and_a_bad_entry_names_its_field() {
        let v = gamesweep_api::solver_version();
        let wire = solver_versions_to_proto(&v);
        assert_eq!(wire.len(), v.entries().len());
        assert_eq!(solver_versions_from_proto(&wire), Ok(v));
        let entry = |name: &str, version: &str| pb::SolverVersion {
            name: name.into(),
            version: version.into(),
        };
        let e = solver_versions_from_proto(&[entry("uvg", "1"), entry("col", "")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "malformed message: solver_versions[1].version is empty (kind `col`)"
        );
        let e = solver_versions_from_proto(&[entry("uvg", "1"), entry("uvg", "1")]).unwrap_err();
        assert!(
            e.to_string().contains("solver_versions[1].name `uvg`"),
            "{e}"
        );
    }

    #[test]
    fn params_round_trip() {
        let mut p = Params::new();
        p.insert("max_n".into(), 8);
        assert_eq!(params_from_proto(&params_to_proto(&p)).unwrap(), p);
    }

    #[test]
    fn malformed_messages_are_typed_errors() {
        let dup = vec![
            pb::Param {
                name: "a".into(),
                value: 1,
            },
            pb::Param {
                name: "a".into(),
                value: 2,
            },
        ];
        assert_eq!(
            params_from_proto(&dup),
            Err(ConvertError::DuplicateParam("a".into()))
        );
        assert_eq!(
            opt_shard_from_proto(None),
            Err(ConvertError::Missing("shard"))
        );
    }
}
