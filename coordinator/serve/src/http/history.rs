//! Rate over time: every [`EVERY`], the positions done of each sweep and
//! the positions each worker has had accepted, kept for the last hour (a
//! ring buffer per sweep and worker). The page draws the sweep's rate from
//! consecutive samples; a worker's rate is over the last [`WORKER_WINDOW`].

use super::Dashboard;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How often a sample is taken.
pub const EVERY: Duration = Duration::from_secs(10);

/// How long samples are kept.
pub const KEEP: Duration = Duration::from_secs(3600);

/// The window a worker's rate is measured over.
pub const WORKER_WINDOW: Duration = Duration::from_secs(300);

/// Samples kept per series at most (an hour at [`EVERY`], and a few more).
const MAX_SAMPLES: usize = (KEEP.as_secs() / EVERY.as_secs()) as usize + 2;

/// Series kept at most (sweeps, workers); the longest unseen go first.
const MAX_SERIES: usize = 1_000;

/// One series: (unix ms, value) samples, oldest first.
type Series = VecDeque<(u64, u64)>;

/// The samples.
#[derive(Default)]
pub struct History {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    sweeps: BTreeMap<String, Series>,
    workers: BTreeMap<String, Series>,
}

/// What `/api/history` returns.
#[derive(Serialize)]
pub struct Samples {
    /// Seconds between samples.
    pub every_s: u64,
    /// The server's clock when this was read (unix ms): the time of the
    /// status read with it, on the samples' clock.
    pub now_ms: u64,
    /// Per sweep: `[unix ms, positions done]`, oldest first, the last hour.
    pub sweeps: BTreeMap<String, Vec<(u64, u64)>>,
    /// Per worker: positions per second over the last five minutes (of
    /// accepted results; `null` before two samples).
    pub workers: BTreeMap<String, Option<f64>>,
}

fn push(map: &mut BTreeMap<String, Series>, key: &str, at_ms: u64, value: u64) {
    if !map.contains_key(key) && map.len() >= MAX_SERIES {
        // Forget the series sampled least recently.
        if let Some(old) = map
            .iter()
            .min_by_key(|(_, s)| s.back().map_or(0, |x| x.0))
            .map(|(k, _)| k.clone())
        {
            map.remove(&old);
        }
    }
    let s = map.entry(key.to_string()).or_default();
    s.push_back((at_ms, value));
    let keep_from = at_ms.saturating_sub(KEEP.as_millis() as u64);
    while s.len() > MAX_SAMPLES || s.front().is_some_and(|x| x.0 < keep_from) {
        s.pop_front();
    }
}

/// Positions per second between the first sample at or after
/// `now − window` and the last one.
fn rate(s: &Series, window: Duration) -> Option<f64> {
    let last = s.back()?;
    let from = last.0.saturating_sub(window.as_millis() as u64);
    let first = s.iter().find(|x| x.0 >= from)?;
    (last.0 > first.0)
        .then(|| last.1.saturating_sub(first.1) as f64 * 1000.0 / (last.0 - first.0) as f64)
}

impl History {
    /// Record sweeps' positions done and workers' accepted positions at `at_ms`.
    pub fn record(
        &self,
        at_ms: u64,
        sweeps: impl IntoIterator<Item = (String, u64)>,
        workers: impl IntoIterator<Item = (String, u64)>,
    ) {
        let mut h = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        for (id, v) in sweeps {
            push(&mut h.sweeps, &id, at_ms, v);
        }
        for (id, v) in workers {
            push(&mut h.workers, &id, at_ms, v);
        }
    }

    /// The samples as `/api/history` returns them.
    pub fn samples(&self) -> Samples {
        let h = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        Samples {
            every_s: EVERY.as_secs(),
            now_ms: unix_ms(),
            sweeps: h
                .sweeps
                .iter()
                .map(|(k, s)| (k.clone(), s.iter().copied().collect()))
                .collect(),
            workers: h
                .workers
                .iter()
                .map(|(k, s)| (k.clone(), rate(s, WORKER_WINDOW)))
                .collect(),
        }
    }
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Sample `d`'s core every [`EVERY`], forever (the caller aborts it).
pub async fn sample_loop(d: Arc<Dashboard>) {
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let dd = d.clone();
        let _ = tokio::task::spawn_blocking(move || {
            let Ok((sweeps, _)) = dd.core.status(None) else {
                return;
            };
            let workers = dd.core.worker_work();
            dd.history.record(
                unix_ms(),
                sweeps.into_iter().map(|s| (s.sweep_id, s.positions_done)),
                workers,
            );
        })
        .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_hour_is_kept_and_rates_are_over_the_window() {
        let h = History::default();
        for i in 0..1000u64 {
            h.record(
                i * 10_000,
                [("s".to_string(), i * 500)],
                [("w".to_string(), i * 100)],
            );
        }
        let s = h.samples();
        let series = &s.sweeps["s"];
        assert!(series.len() <= MAX_SAMPLES);
        let (first, last) = (series[0].0, series[series.len() - 1].0);
        assert_eq!(last, 999 * 10_000);
        assert!(last - first <= KEEP.as_millis() as u64, "{first}..{last}");
        assert_eq!(s.workers["w"], Some(10.0));
        let one = History::default();
        one.record(5, [], [("w".to_string(), 7)]);
        assert_eq!(one.samples().workers["w"], None);
    }
}
