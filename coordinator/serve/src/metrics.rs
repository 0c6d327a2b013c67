//! `/metrics`: the coordinator's status in the Prometheus text format
//! (version 0.0.4), encoded by the official client (`prometheus-client`).
//!
//! Everything is read from one [`Core::metrics_overview`], the same status
//! `gamesweep status --json` prints, plus the events the core counts in
//! memory ([`Events`]); so the two agree. Per sweep (label `sweep`): shards
//! by state (label `state`: pending, leased, done, failed), positions done
//! and estimated, positions/s, leases issued / renewed / expired / given
//! back, results accepted / duplicate / late / refused / invalid; for the
//! process: workers known and alive, store bytes, resident memory.
//!
//! Counters named "since launch" are stored with the sweep and survive a
//! restart; those named "since this coordinator started" are kept in memory
//! and start again from 0 (Prometheus's `rate()` and `increase()` handle
//! such resets).

use gamesweep_engine::core::{Core, CoreError, Events, Overview};
use prometheus_client::encoding::prometheus_text;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicU64;

/// The `Content-Type` of [`render`]'s text.
pub const CONTENT_TYPE: &str = prometheus_text::CONTENT_TYPE;

/// The prefix of every metric name.
const PREFIX: &str = "gamesweep";

/// Labels of a per-sweep metric.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SweepLabel {
    sweep: String,
}

/// Labels of a per-sweep, per-shard-state metric.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ShardLabels {
    sweep: String,
    state: String,
}

/// Labels of the per-sweep info metric.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct InfoLabels {
    sweep: String,
    kind: String,
    state: String,
}

type UGauge = Gauge<u64, AtomicU64>;
type FGauge = Gauge<f64, AtomicU64>;

/// A per-sweep counter family registered as `name` (`_total` is appended).
fn counters(reg: &mut Registry, name: &str, help: &str) -> Family<SweepLabel, Counter> {
    let f = Family::<SweepLabel, Counter>::default();
    reg.register(name, help, f.clone());
    f
}

/// A per-sweep gauge family registered as `name`.
fn gauges(reg: &mut Registry, name: &str, help: &str) -> Family<SweepLabel, UGauge> {
    let f = Family::<SweepLabel, UGauge>::default();
    reg.register(name, help, f.clone());
    f
}

/// A process-wide gauge registered as `name`, set to `v`.
fn gauge(reg: &mut Registry, name: &str, help: &str, v: u64) {
    let g = UGauge::default();
    g.set(v);
    reg.register(name, help, g);
}

/// The Prometheus text of `core`'s status now.
pub fn render(core: &Core) -> Result<String, CoreError> {
    let (report, events) = core.metrics_overview()?;
    Ok(render_report(&report, &events))
}

/// The Prometheus text of a status report and the events counted per sweep
/// (a sweep missing from `events` shows zeros).
pub fn render_report(report: &Overview, events: &BTreeMap<String, Events>) -> String {
    let mut reg = Registry::with_prefix(PREFIX);
    let info = Family::<InfoLabels, UGauge>::default();
    reg.register(
        "sweep_info",
        format!(
            "1 per sweep, with its kind and state ({})",
            gamesweep_api::domain::SweepState::ALL
                .map(|s| s.as_str())
                .join(", ")
        ),
        info.clone(),
    );
    let shards = Family::<ShardLabels, UGauge>::default();
    reg.register(
        "shards",
        "Shards of a sweep by state: pending (including expired leases), leased (unexpired lease), done, failed (set aside)",
        shards.clone(),
    );
    let done = gauges(
        &mut reg,
        "positions_done",
        "Positions done: accepted results plus the progress reported on unexpired leases",
    );
    let estimate = gauges(
        &mut reg,
        "positions_estimate",
        "The plan's estimate of the sweep's positions",
    );
    let rate = Family::<SweepLabel, FGauge>::default();
    reg.register(
        "positions_per_second",
        "Positions per second, as `gamesweep status` computes it",
        rate.clone(),
    );
    let issued = counters(
        &mut reg,
        "leases_issued",
        "Shard leases granted since this coordinator started",
    );
    let renewed = counters(
        &mut reg,
        "leases_renewed",
        "Shard lease renewals granted since this coordinator started",
    );
    let reclaimed = counters(
        &mut reg,
        "leases_reclaimed",
        "Leases taken back from their holders for another identity's fair share, or renewed without progress while others waited, since this coordinator started",
    );
    let expired = counters(
        &mut reg,
        "leases_expired",
        "Shards re-issued after their lease expired, since launch",
    );
    let released = counters(
        &mut reg,
        "leases_released",
        "Leases given back early by their workers, since launch",
    );
    let accepted = counters(
        &mut reg,
        "results_accepted",
        "Results accepted as their shard's result, since this coordinator started",
    );
    let late = counters(
        &mut reg,
        "results_late",
        "Results accepted under a lease that had expired, been given back or been re-issued, since this coordinator started (also counted as accepted)",
    );
    let duplicate = counters(
        &mut reg,
        "results_duplicate",
        "Results ignored because their shard was done or set aside (or their worker quarantined), since launch",
    );
    let refused = counters(
        &mut reg,
        "results_refused",
        "Results refused for want of a valid lease token, since launch",
    );
    let invalid = counters(
        &mut reg,
        "results_invalid",
        "Results refused because they did not decode or validate as the shard's, since launch",
    );
    let refused_renewals = counters(
        &mut reg,
        "renewals_refused",
        "Renewals and releases refused for want of a valid lease token, since launch",
    );
    let refused_fails = counters(
        &mut reg,
        "failure_reports_refused",
        "Failure reports refused for want of a valid lease token, since launch",
    );
    for s in &report.sweeps {
        let sweep = || SweepLabel {
            sweep: s.sweep_id.clone(),
        };
        info.get_or_create(&InfoLabels {
            sweep: s.sweep_id.clone(),
            kind: s.kind.clone(),
            state: s.state.as_str().to_string(),
        })
        .set(1);
        for (state, n) in [
            ("pending", s.shards_pending),
            ("leased", s.shards_leased),
            ("done", s.shards_done),
            ("failed", s.shards_failed),
        ] {
            shards
                .get_or_create(&ShardLabels {
                    sweep: s.sweep_id.clone(),
                    state: state.to_string(),
                })
                .set(n.into());
        }
        done.get_or_create(&sweep()).set(s.positions_done);
        estimate.get_or_create(&sweep()).set(s.positions_estimate);
        rate.get_or_create(&sweep()).set(s.rate);
        let e = events.get(&s.sweep_id).copied().unwrap_or_default();
        for (family, v) in [
            (&issued, e.leases_issued),
            (&renewed, e.leases_renewed),
            (&reclaimed, e.leases_reclaimed),
            (&expired, s.leases_expired),
            (&released, s.leases_released),
            (&accepted, e.results_accepted),
            (&late, e.results_late),
            (&duplicate, s.duplicates_ignored),
            (&refused, s.refused_submits),
            (&invalid, s.results_invalid),
            (&refused_renewals, s.refused_renewals),
            (&refused_fails, s.refused_fails),
        ] {
            family.get_or_create(&sweep()).inc_by(v);
        }
    }
    let alive = report.workers.iter().filter(|w| w.alive).count() as u64;
    gauge(
        &mut reg,
        "workers_alive",
        "Workers heard from within three lease periods",
        alive,
    );
    gauge(
        &mut reg,
        "workers_known",
        "Workers this coordinator remembers (alive or not)",
        report.workers.len() as u64,
    );
    gauge(
        &mut reg,
        "workers_quarantined",
        "Workers quarantined after being out-voted (replicated validation)",
        report.quarantined_workers.len() as u64,
    );
    let pruned = Counter::<u64>::default();
    pruned.inc_by(report.workers_pruned);
    reg.register(
        "workers_pruned",
        "Workers forgotten (unheard of for long, or too many), since this coordinator started",
        pruned,
    );
    gauge(
        &mut reg,
        "store_bytes",
        "Bytes the store occupies on disk (0 where unknown)",
        report.store_bytes,
    );
    gauge(
        &mut reg,
        "store_writes_failing",
        "1 while the store's writes fail (a full or failing disk: no result is acknowledged until they work again; `status` says why), else 0",
        u64::from(report.store_writes_failing.is_some()),
    );
    gauge(
        &mut reg,
        "coordinator_resident_bytes",
        "The coordinator's resident memory (0 where the platform does not say)",
        report.coordinator_rss_bytes,
    );
    gauge(
        &mut reg,
        "coordinator_peak_resident_bytes",
        "The coordinator's peak resident memory so far",
        report.coordinator_peak_rss_bytes,
    );
    let mut text = String::new();
    // Writing to a String cannot fail; the encoder reports only the
    // writer's errors.
    prometheus_text::encode(&mut text, &reg).expect("writing to a String");
    text
}

#[cfg(test)]
mod tests;
