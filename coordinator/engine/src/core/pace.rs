//! The one definition of a sweep's rate, share done and ETA, all from
//! positions (not shards: a uvg plan's shards differ in size by orders of
//! magnitude, and the largest are leased first, so a shard count runs far
//! behind the work). `status`, `status --json`, the dashboard, `/metrics`
//! and `run`'s terminal bar all show what [`Pace`] computes here, read from
//! the sweep's status ([`super::status`]); none of them computes its own.
//!
//! The rate is smoothed over a sliding window of [`RATE_WINDOW`]: the
//! positions done now minus those done at the oldest sample inside the
//! window, over the time between (samples are taken when shards are
//! leased, renewed and submitted, at most one a second). A window, rather
//! than the whole run, follows workers coming and going; rather than the
//! last few seconds, it does not jump with each shard finishing. The ETA is
//! the positions left to the target (the plan's estimate corrected by the
//! done shards, or the sample's while only the sample is served) at that
//! rate.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The rate (`status`) is measured over this much recent time.
pub const RATE_WINDOW: Duration = Duration::from_secs(gamesweep_api::domain::RATE_WINDOW_SECS);

/// The rate keeps at most one sample per this much time.
const SAMPLE_EVERY: Duration = Duration::from_secs(1);

/// Recent (time, positions done) samples of one sweep (in memory only).
#[derive(Clone, Debug, Default)]
pub struct Pace {
    samples: VecDeque<(Instant, u64)>,
}

impl Pace {
    /// Note `positions` done at `now` (at most one sample a second; samples
    /// older than [`RATE_WINDOW`] are dropped).
    pub fn note(&mut self, now: Instant, positions: u64) {
        if self
            .samples
            .back()
            .is_some_and(|&(t, _)| now.saturating_duration_since(t) < SAMPLE_EVERY)
        {
            return;
        }
        while self
            .samples
            .front()
            .is_some_and(|&(t, _)| now.saturating_duration_since(t) > RATE_WINDOW)
        {
            self.samples.pop_front();
        }
        self.samples.push_back((now, positions));
    }

    /// Positions per second at `now` over the samples of the last
    /// [`RATE_WINDOW`] up to `positions` (done now): 0 without a sample in
    /// it, or less than a second after the first.
    pub fn rate(&self, now: Instant, positions: u64) -> f64 {
        let first = self
            .samples
            .iter()
            .find(|&&(t, _)| now.saturating_duration_since(t) <= RATE_WINDOW);
        match first {
            Some(&(t, w)) => {
                let secs = now.saturating_duration_since(t).as_secs_f64();
                if secs >= 1.0 {
                    positions.saturating_sub(w) as f64 / secs
                } else {
                    0.0
                }
            }
            None => 0.0,
        }
    }
}

/// Seconds left to reach `target` positions from `done` at `rate`
/// positions a second; `None` when unknown (no target, no rate).
pub fn eta_seconds(done: u64, target: u64, rate: f64) -> Option<f64> {
    (target > 0 && rate > 0.0 && rate.is_finite())
        .then(|| target.saturating_sub(done) as f64 / rate)
}

/// The share of `target` positions that `done` is, for a sweep that is
/// not finished: below 1 even when the target was underestimated (a
/// projection, not a count), so "100 %" means finished. 0 without a target.
pub fn fraction_done(done: u64, target: u64) -> f64 {
    if target == 0 {
        0.0
    } else {
        (done as f64 / target as f64).min(0.999)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: `run uvg --max-n 10` showed, at 36 s, 74 of 257 shards done
    /// while 64 % of the positions were; an ETA by shards said 73 s (from
    /// the shard count: 36 × 183/74 ≈ 89 s) and the run ended at 63 s. Here
    /// 257 shards of very different sizes, largest first (the lease
    /// order), run at a steady 1,000 positions a second on a manual clock:
    /// the ETA from positions is the true time left, within 1 %.
    #[test]
    fn the_eta_follows_positions_not_shards_of_very_different_sizes() {
        // Shard i has 2^(-i/50) of the largest's positions: the first 74
        // hold about 64 % of them, the last is 35 times smaller than the
        // first. Scaled so that at 1,000 positions a second 64 % are done at
        // 36 s (56.25 s in all).
        let raw: Vec<f64> = (0..257).map(|i| (-(i as f64) / 50.0).exp2()).collect();
        let sum: f64 = raw.iter().sum();
        let sizes: Vec<u64> = raw
            .iter()
            .map(|r| ((r / sum) * 56_250.0).round().max(1.0) as u64)
            .collect();
        let total: u64 = sizes.iter().sum();
        let rate = 1000.0; // positions a second, steady
        let t0 = Instant::now();
        let mut pace = Pace::default();
        let (mut done, mut shards) = (0u64, 0usize);
        pace.note(t0, 0);
        // Shards finish in lease order; sample as they do, like the core.
        let at = |positions: u64| t0 + Duration::from_secs_f64(positions as f64 / rate);
        let mut checked = 0;
        for &size in &sizes {
            done += size;
            shards += 1;
            let now = at(done);
            pace.note(now, done);
            let secs = now.duration_since(t0).as_secs_f64();
            if (36.0..37.0).contains(&secs) {
                let eta = eta_seconds(done, total, pace.rate(now, done)).unwrap();
                let truth = (total - done) as f64 / rate;
                assert!(
                    (eta - truth).abs() <= 0.01 * truth + 0.5,
                    "at {secs:.1} s ({shards}/257 shards, {:.0} % of positions): eta {eta:.1} s, {truth:.1} s left",
                    100.0 * fraction_done(done, total)
                );
                // What a count of shards says instead: several times too long.
                let by_shards = secs * (257 - shards) as f64 / shards as f64;
                assert!(by_shards > 2.0 * truth, "{by_shards} vs {truth}");
                checked += 1;
            }
        }
        assert!(checked > 0, "no shard finished between 36 and 37 s");
    }

    #[test]
    fn the_rate_is_over_the_window_and_sampled_once_a_second() {
        let t0 = Instant::now();
        let mut p = Pace::default();
        p.note(t0, 0);
        // A sample 0.5 s later is not kept; the rate needs a second.
        p.note(t0 + Duration::from_millis(500), 400);
        assert_eq!(p.rate(t0 + Duration::from_millis(900), 500), 0.0);
        assert_eq!(p.rate(t0 + Duration::from_secs(2), 2000), 1000.0);
        // Work long ago leaves the window: only the recent samples count.
        let late = t0 + RATE_WINDOW + Duration::from_secs(10);
        p.note(late, 5000);
        assert_eq!(p.rate(late + Duration::from_secs(5), 6000), 200.0);
        // Nothing since the window: no rate, no ETA.
        let idle = late + 2 * RATE_WINDOW;
        assert_eq!(p.rate(idle, 6000), 0.0);
        assert_eq!(eta_seconds(6000, 10_000, 0.0), None);
        assert_eq!(eta_seconds(6000, 0, 10.0), None);
        assert_eq!(eta_seconds(6000, 10_000, 100.0), Some(40.0));
        // Past an underestimated target: 0 s left, and never "100 %".
        assert_eq!(eta_seconds(12_000, 10_000, 100.0), Some(0.0));
        assert_eq!(fraction_done(12_000, 10_000), 0.999);
        assert_eq!(fraction_done(5, 0), 0.0);
    }
}
