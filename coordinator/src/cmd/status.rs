//! `gamesweep status [ID] [--json] [--watch]`: where the coordinator's
//! sweeps stand.
//!
//! `--json` prints one object per call, [`Overview`] serialized with
//! serde (keys sorted):
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

use crate::connect::{self, Conn};
use crate::status_text;
use gamesweep_api::domain::{Overview, SweepState};
use std::io::IsTerminal as _;
use std::time::Duration;

/// `status` options.
#[derive(clap::Args, Debug)]
pub struct StatusArgs {
    /// Sweep id (default: all sweeps).
    pub id: Option<String>,
    /// Print JSON: one object per call; every sweep's "state" is one of
    /// running, done, cancelled, failed, sampled, paused (format: deploy/README.md).
    #[arg(long)]
    pub json: bool,
    /// Refresh every 2 seconds until the sweeps shown are no longer running
    /// (on a terminal the screen is cleared each time; into a pipe or file,
    /// each status follows the last, every line starting with the UTC time
    /// it was read).
    #[arg(long)]
    pub watch: bool,
    #[command(flatten)]
    pub conn: Conn,
}

/// The `status --json` text of `r` (one line, keys sorted).
pub fn json(r: &Overview) -> anyhow::Result<String> {
    // Through `serde_json::Value`, whose maps sort their keys.
    Ok(serde_json::to_value(r)?.to_string())
}

/// Run `status`.
pub fn exec(a: StatusArgs) -> anyhow::Result<()> {
    let rt = connect::runtime()?;
    let mut c = connect::connect(&rt, &a.conn)?;
    loop {
        let r = rt.block_on(c.status(a.id.as_deref()))?;
        let text = if a.json {
            format!("{}\n", json(&r)?)
        } else if a.watch && std::io::stdout().is_terminal() {
            // Clear the screen and go home, like `watch`.
            format!("\x1b[2J\x1b[H{}", status_text::render(&r))
        } else if a.watch {
            // Into a pipe or a file, status follows status: each line says
            // when it was read (UTC), so a log of them is a time series.
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64);
            status_text::stamped(&status_text::render(&r), &status_text::utc(now))
        } else {
            status_text::render(&r)
        };
        if !crate::output::print(text)? {
            return Ok(()); // the reader has gone
        }
        // Sampled, failed, done and cancelled sweeps are settled: nothing
        // more happens to them without a new command.
        let settled = r.sweeps.iter().all(|s| s.state != SweepState::Running);
        if !a.watch || settled {
            return Ok(());
        }
        std::thread::sleep(Duration::from_secs(2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesweep_api::domain::SweepStatus;

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
