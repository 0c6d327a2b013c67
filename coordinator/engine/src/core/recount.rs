//! Cheap truths recounted per shard: after a submitted result
//! validates, the coordinator asks the kind to recount what it can without
//! solving ([`gamesweep::sweep::SweepKind::recount`]; for uvg, the shard's
//! graphs of each size, by enumerating them: about 2 % of running it). A
//! result that disagrees is refused like an invalid one, counted against
//! the identity that sent it, and that identity's trust is withdrawn (its
//! results are verified again, core/replication.rs).
//!
//! The coordinator does this within a CPU budget (`serve --recount-budget`,
//! a share of one core, default [`DEFAULT_SHARE`]): credit accrues with the
//! wall clock, at most [`MAX_CREDIT`] banked, and each recount is charged
//! its wall time on the blocking thread that ran it (at least its CPU
//! time). While the credit is spent, results are taken without a recount;
//! on a large fleet the rest is sampled this way, and replication (another
//! identity re-running the shard) covers what the budget does not.

use super::clock::Clock;
use std::time::{Duration, Instant};

/// The default share of one core the coordinator spends recounting: 5 %.
pub const DEFAULT_SHARE: f64 = 0.05;
/// The most recount time banked while idle (and the credit at start).
pub const MAX_CREDIT: Duration = Duration::from_secs(2);

/// The recount budget: a token bucket of CPU time.
#[derive(Debug)]
pub(crate) struct Budget {
    /// Share of one core (0 turns recounts off).
    share: f64,
    /// Credit in seconds (may go below 0 after an expensive recount).
    credit: f64,
    /// When the credit was last brought up to date.
    at: Instant,
}

impl Budget {
    pub(crate) fn new(share: f64, now: Instant) -> Self {
        let share = if share.is_finite() {
            share.clamp(0.0, 1.0)
        } else {
            0.0
        };
        Budget {
            share,
            credit: if share > 0.0 {
                MAX_CREDIT.as_secs_f64()
            } else {
                0.0
            },
            at: now,
        }
    }

    /// Whether a recount may run at `now` (credit left).
    pub(crate) fn allows(&mut self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = self.at.max(now);
        self.credit = (self.credit + dt * self.share).min(MAX_CREDIT.as_secs_f64());
        self.share > 0.0 && self.credit > 0.0
    }

    /// Charge a recount that took `spent`.
    pub(crate) fn charge(&mut self, spent: Duration) {
        self.credit -= spent.as_secs_f64();
    }
}

/// Run `f` if the budget allows; charge what it took.
pub(crate) fn within<T>(
    budget: &std::sync::Mutex<Budget>,
    clock: &dyn Clock,
    f: impl FnOnce() -> T,
) -> Option<T> {
    let lock = || budget.lock().unwrap_or_else(|e| e.into_inner());
    if !lock().allows(clock.now()) {
        return None;
    }
    let t0 = Instant::now();
    let out = f();
    lock().charge(t0.elapsed());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credit_accrues_at_the_share_and_is_capped() {
        let t0 = Instant::now();
        let mut b = Budget::new(0.05, t0);
        assert!(b.allows(t0));
        b.charge(Duration::from_secs(3)); // 2 s banked, 1 s overdrawn
        assert!(!b.allows(t0 + Duration::from_secs(10))); // +0.5 s: -0.5
        assert!(b.allows(t0 + Duration::from_secs(30))); // +1.0 s: +0.5
                                                         // Idle for an hour: no more than MAX_CREDIT banked.
        assert!(b.allows(t0 + Duration::from_secs(3630)));
        b.charge(MAX_CREDIT);
        assert!(!b.allows(t0 + Duration::from_secs(3630)));
        // A share of 0 (or nonsense) never recounts.
        for share in [0.0, -1.0, f64::NAN] {
            let mut off = Budget::new(share, t0);
            assert!(!off.allows(t0 + Duration::from_secs(100)), "{share}");
        }
    }
}
