//! Watching a long search from another thread: how many positions it has
//! evaluated so far, and asking it to stop.
//!
//! The exact solvers (UVG's general search, the Col solver, the boards'
//! reply searches, the game graphs' kernel search) look for the [`Meter`]
//! of the thread that starts them, through [`Meter::run`]. They add every
//! position they evaluate to it, and once [`Meter::stop`] is called they end
//! at their next position with their "stopped" error, as they end when a
//! budget runs out. A search started outside [`Meter::run`] costs nothing
//! extra and cannot be stopped.
//!
//! A meter may also cap the memory a search holds
//! ([`Meter::with_memory_limit`]): a search that reports its tables
//! ([`Gauge::tick_holding`], UVG's general search does) is stopped, as by
//! [`Meter::stop`], once they hold more than the limit, and
//! [`Meter::over_memory`] says why it stopped.
//!
//! Whoever stops a search must drop whatever it returns: a Col value
//! computed after the stop is meaningless (the solver's own "budget
//! exceeded" rule).
//!
//! ```
//! use gamesweep::meter::Meter;
//! use gamesweep::uvg::position::{solve_position_within, PositionError};
//! let k40 = gamesweep::graph::graph6::encode_with(40, |_, _| true);
//! let meter = Meter::new();
//! meter.stop(); // asked before it starts: the search ends at its first position
//! let r = meter.run(|| solve_position_within(&k40, Some(0), None));
//! assert!(matches!(r, Err(PositionError::Stopped { .. })));
//! assert!(meter.nodes() >= 1);
//! ```

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// A search's progress and stop request, shared between the thread running
/// it and the threads watching it.
#[derive(Debug, Default)]
pub struct Meter {
    nodes: AtomicU64,
    stop: AtomicBool,
    /// Most bytes the watched search may hold (0: no limit).
    memory_limit: u64,
    /// Most bytes a watched search was seen to hold.
    held: AtomicU64,
    /// Stopped because a search held more than `memory_limit`.
    over_memory: AtomicBool,
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<Meter>>> = const { RefCell::new(None) };
}

impl Meter {
    /// A meter with nothing counted and no stop requested.
    pub fn new() -> Arc<Meter> {
        Arc::new(Meter::default())
    }

    /// A meter that stops a watched search once the tables it reports
    /// ([`Gauge::tick_holding`]) hold more than `bytes`.
    pub fn with_memory_limit(bytes: u64) -> Arc<Meter> {
        Arc::new(Meter {
            memory_limit: bytes,
            ..Meter::default()
        })
    }

    /// Run `f` on this thread with this meter watching every search `f`
    /// starts (the meter of an enclosing `run` is restored afterwards, also
    /// when `f` panics).
    pub fn run<R>(self: &Arc<Self>, f: impl FnOnce() -> R) -> R {
        struct Restore(Option<Arc<Meter>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let before = self.0.take();
                CURRENT.with(|c| *c.borrow_mut() = before);
            }
        }
        let before = CURRENT.with(|c| c.borrow_mut().replace(self.clone()));
        let _restore = Restore(before);
        f()
    }

    /// Ask the searches to stop (from any thread); they end at their next
    /// position.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Was [`Meter::stop`] called?
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Positions the watched searches have evaluated so far, all together.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The most bytes a watched search reported holding.
    pub fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }

    /// Was the search stopped because it held more than the memory limit?
    pub fn over_memory(&self) -> bool {
        self.over_memory.load(Ordering::Relaxed)
    }
}

/// A search's handle on the meter of the thread that created it (none
/// outside [`Meter::run`]).
#[derive(Debug, Default)]
pub(crate) struct Gauge(Option<Arc<Meter>>);

impl Gauge {
    /// The meter of the current thread's [`Meter::run`], if any.
    pub(crate) fn current() -> Gauge {
        Gauge(CURRENT.with(|c| c.borrow().clone()))
    }

    /// Count `k` evaluated positions; `true` once the search should stop.
    #[inline]
    pub(crate) fn tick(&self, k: u64) -> bool {
        match &self.0 {
            None => false,
            Some(m) => {
                m.nodes.fetch_add(k, Ordering::Relaxed);
                m.stopped()
            }
        }
    }

    /// [`Gauge::tick`] for a search whose tables hold `held()` bytes
    /// (asked only under a meter): past the meter's memory limit the
    /// search is stopped.
    #[inline]
    pub(crate) fn tick_holding(&self, k: u64, held: impl FnOnce() -> u64) -> bool {
        match &self.0 {
            None => false,
            Some(m) => {
                m.nodes.fetch_add(k, Ordering::Relaxed);
                if m.memory_limit > 0 {
                    let h = held();
                    m.held.fetch_max(h, Ordering::Relaxed);
                    if h > m.memory_limit {
                        m.over_memory.store(true, Ordering::Relaxed);
                        m.stop();
                    }
                }
                m.stopped()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gauge_sees_the_meter_of_its_run_and_only_there() {
        assert!(!Gauge::current().tick(5));
        let outer = Meter::new();
        let inner = Meter::new();
        outer.run(|| {
            assert!(!Gauge::current().tick(2));
            inner.run(|| {
                inner.stop();
                assert!(Gauge::current().tick(3));
            });
            assert!(!Gauge::current().tick(1), "the outer meter is back");
        });
        assert_eq!((outer.nodes(), inner.nodes()), (3, 3));
        assert!(Gauge::current().0.is_none());
        let r = std::panic::catch_unwind(|| outer.run(|| panic!("in the search")));
        assert!(r.is_err());
        assert!(Gauge::current().0.is_none(), "restored after a panic");
    }

    #[test]
    fn a_search_holding_more_than_the_limit_is_stopped_and_says_why() {
        let free = Meter::new();
        free.run(|| assert!(!Gauge::current().tick_holding(1, || u64::MAX)));
        assert!(
            !free.over_memory() && free.held() == 0,
            "no limit, not asked"
        );
        let m = Meter::with_memory_limit(1000);
        m.run(|| {
            let g = Gauge::current();
            assert!(!g.tick_holding(1, || 1000));
            assert!(!m.over_memory());
            assert!(g.tick_holding(1, || 1001));
        });
        assert!(m.stopped() && m.over_memory());
        assert_eq!((m.held(), m.nodes()), (1001, 2));
    }

    #[test]
    fn a_stop_from_another_thread_is_seen() {
        let m = Meter::new();
        let g = m.run(Gauge::current);
        assert!(!g.tick(1));
        let m2 = m.clone();
        std::thread::spawn(move || m2.stop()).join().unwrap();
        assert!(g.tick(1));
        assert_eq!(m.nodes(), 2);
    }
}
