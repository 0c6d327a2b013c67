//! `status [ID]`: where the coordinator's sweeps stand, as an
//! [`Overview`] (`gamesweep status`, Python's `Coordinator.status`), and
//! its `--json` text ([`json`]).
//!
//! The JSON is [`Overview`] serialized with serde (keys sorted):
//! `{"coordinator_version": S, "sweeps": [SWEEP...], "workers": [WORKER...],
//! "store_bytes", "coordinator_rss_bytes", "coordinator_peak_rss_bytes",
//! "workers_pruned"}` with
//! SWEEP = `{"sweep_id", "kind", "params": {name: u64}, "solver_version",
//! "state": "running"|"done"|"cancelled"|"failed"|"sampled"|"paused", "shards_total",
//! "shards_pending", "shards_leased", "shards_done", "results_stored",
//! "positions_done", "positions_estimate", "positions_projected",
//! "positions_target", "fraction_done" (0..1), "rate" (positions/s),
//! "eta_seconds" (number or null), "counterexamples": {key: total},
//! "duplicates_ignored", "leases_expired", "leases_released",
//! "refused_submits", "refused_renewals", "refused_fails", "results_invalid",
//! "recounted", "recounts_refused",
//! "sample" (null or {"ppm", "seed", "shards", "done",
//! "limited", "estimate"}), "shards_failed", "failures": [{"index", "count",
//! "error", "worker_id"}]}` and WORKER = `{"worker_id", "alive",
//! "last_seen_ms_ago", "shards_held"}`. The states are
//! [`gamesweep_api::domain::SweepState`]'s; `deploy/README.md` explains them.

use super::Session;
use gamesweep_api::domain::Overview;

/// What `status` asks for.
#[derive(Clone, Debug, Default)]
pub struct StatusRequest {
    /// One sweep's id (`None`: every sweep).
    pub id: Option<String>,
}

/// The coordinator's status: the sweep asked for (or every sweep), the
/// workers, the coordinator's own figures.
pub fn status(s: &mut Session, r: &StatusRequest) -> anyhow::Result<Overview> {
    Ok(s.call(|c| c.status(r.id.as_deref()))?)
}

/// The `status --json` text of `r` (one line, keys sorted).
pub fn json(r: &Overview) -> anyhow::Result<String> {
    // Through `serde_json::Value`, whose maps sort their keys.
    Ok(serde_json::to_value(r)?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesweep_api::domain::{SweepState, SweepStatus};

    #[test]
    fn json_has_sorted_keys_and_parses_back() {
        let r = Overview {
            coordinator_version: "v".into(),
            sweeps: vec![SweepStatus {
                sweep_id: "s".into(),
                kind: "uvg".into(),
                params: [("max_n".to_string(), 5u64)].into_iter().collect(),
                solver_version: "v".into(),
                state: SweepState::Sampled,
                shards_total: 1,
                shards_pending: 0,
                shards_leased: 0,
                shards_done: 1,
                results_stored: 1,
                positions_done: 10,
                positions_estimate: 10,
                rate: 0.0,
                eta_seconds: None,
                counterexamples: Default::default(),
                duplicates_ignored: 0,
                leases_expired: 2,
                leases_released: 1,
                refused_submits: 3,
                refused_renewals: 4,
                refused_fails: 5,
                results_invalid: 6,
                recounted: 0,
                recounts_refused: 0,
                sample: None,
                shards_failed: 0,
                failures: vec![],
                verification: Some(gamesweep_api::domain::ReplicationStatus {
                    ppm: 1_000_000,
                    selected: 1,
                    mismatched: 1,
                    disagreeing_workers: vec!["liar".into()],
                    ..Default::default()
                }),
                priority: 1,
                positions_projected: 10,
                estimate_spread: None,
                positions_target: 400,
                fraction_done: 0.25,
            }],
            workers: vec![],
            store_bytes: 0,
            coordinator_rss_bytes: 0,
            coordinator_peak_rss_bytes: 0,
            workers_pruned: 7,
            quarantined_workers: vec!["liar".into()],
            store_writes_failing: None,
            identities_limited: vec![],
        };
        let text = json(&r).unwrap();
        assert!(text.contains(r#""refused_submits":3"#), "{text}");
        assert!(text.contains(r#""workers_pruned":7"#), "{text}");
        assert!(
            text.starts_with(r#"{"coordinator_peak_rss_bytes":0,"#),
            "{text}"
        );
        assert!(text.contains(r#""eta_seconds":null"#), "{text}");
        assert!(text.contains(r#""state":"sampled""#), "{text}");
        assert!(
            text.contains(r#""disagreeing_workers":["liar"]"#)
                && text.contains(r#""quarantined_workers":["liar"]"#),
            "{text}"
        );
        let back: Overview = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r);
    }
}
