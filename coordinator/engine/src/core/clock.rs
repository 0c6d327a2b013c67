//! Time as the core sees it: an injectable [`Clock`], so lease expiry,
//! liveness and rates are driven by the caller (a [`ManualClock`] in tests,
//! which never sleep) rather than read from the system inside transitions.

use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// A source of the current instant.
pub trait Clock: Send + Sync {
    /// Now.
    fn now(&self) -> Instant;

    /// Now on the wall clock, in Unix milliseconds: read once, when the
    /// core opens ([`Epoch::anchor`]). The system's wall clock unless the
    /// clock is a test's.
    fn unix_ms(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }
}

/// The system's monotonic clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that stands still until [`ManualClock::advance`] moves it; its
/// wall clock moves with it, so cores reopened on the same clock (a
/// restart) see the time advanced in between, and nothing else.
#[derive(Debug)]
pub struct ManualClock {
    /// The instant it shows.
    now: Mutex<Instant>,
    /// The instant and the Unix milliseconds it showed when made.
    start: (Instant, u64),
}

impl ManualClock {
    /// A clock showing the real now, frozen there.
    pub fn new() -> Self {
        let now = Instant::now();
        ManualClock {
            now: Mutex::new(now),
            start: (now, SystemClock.unix_ms()),
        }
    }

    /// Move the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        *self.now.lock().unwrap_or_else(|e| e.into_inner()) += by;
    }
}

impl Default for ManualClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Instant {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn unix_ms(&self) -> u64 {
        let (at, unix_ms) = self.start;
        unix_ms + self.now().saturating_duration_since(at).as_millis() as u64
    }
}

/// Converts the clock's instants to Unix milliseconds, the unit stored in
/// lease records (which outlive this process). Anchored once, when the core
/// opens: the wall clock is read there and nowhere else, and a wall-clock
/// jump while running cannot expire or extend leases.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Epoch {
    /// The clock's instant at the anchor.
    at: Instant,
    /// Unix milliseconds at the anchor.
    unix_ms: u64,
}

impl Epoch {
    /// Anchor `clock`'s now to its wall clock (the system's).
    pub(crate) fn anchor(clock: &dyn Clock) -> Self {
        Epoch {
            at: clock.now(),
            unix_ms: clock.unix_ms(),
        }
    }

    /// `now` in Unix milliseconds.
    pub(crate) fn unix_ms(&self, now: Instant) -> u64 {
        self.unix_ms + now.saturating_duration_since(self.at).as_millis() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_moves_only_when_advanced() {
        let c = ManualClock::new();
        let t0 = c.now();
        assert_eq!(c.now(), t0);
        c.advance(Duration::from_millis(1500));
        assert_eq!(c.now() - t0, Duration::from_millis(1500));
        let e = Epoch::anchor(&c);
        let base = e.unix_ms(c.now());
        c.advance(Duration::from_secs(2));
        assert_eq!(e.unix_ms(c.now()), base + 2000);
        assert_eq!(e.unix_ms(t0), base, "instants before the anchor saturate");
        // A later anchor on the same clock (a core reopened: a restart)
        // sees the time advanced in between, and only that.
        let later = Epoch::anchor(&c);
        assert_eq!(later.unix_ms(c.now()), base + 2000);
    }
}
