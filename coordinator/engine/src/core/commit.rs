//! Group commit: many submits waiting for durability share one flush.
//!
//! Every caller takes a ticket. A flush started after a ticket was taken
//! covers that ticket's writes, so a caller whose ticket a finished flush
//! covers returns at once; if no flush is running, the caller leads one that
//! covers every ticket taken so far; otherwise it waits for the running one
//! to end and looks again.

use std::sync::{Condvar, Mutex};

/// Counters of the group commit (guarded by [`GroupCommit::state`]).
#[derive(Debug, Default)]
struct Tickets {
    /// Tickets taken so far (the latest ticket's number).
    requested: u64,
    /// Every ticket up to this one is covered by a finished flush.
    covered: u64,
    /// A flush is running.
    flushing: bool,
}

/// Shares flushes between concurrent callers (see the module docs).
#[derive(Debug, Default)]
pub struct GroupCommit {
    /// The tickets. A std mutex: it is never held across an await or a flush.
    state: Mutex<Tickets>,
    /// Signalled when a flush ends.
    flushed: Condvar,
}

impl GroupCommit {
    /// Make everything written before this call durable, with `flush`
    /// (called by at most one caller at a time, possibly not by this one).
    /// A failed flush is reported to the caller that ran it; the callers
    /// waiting on it then lead a new one.
    pub fn commit<E>(&self, flush: impl FnOnce() -> Result<(), E>) -> Result<(), E> {
        let mut t = self.state.lock().unwrap_or_else(|e| e.into_inner());
        t.requested += 1;
        let mine = t.requested;
        loop {
            if t.covered >= mine {
                return Ok(());
            }
            if !t.flushing {
                // Lead a flush covering every ticket taken so far (ours included).
                t.flushing = true;
                let target = t.requested;
                drop(t);
                let res = flush();
                t = self.state.lock().unwrap_or_else(|e| e.into_inner());
                t.flushing = false;
                if res.is_ok() {
                    t.covered = t.covered.max(target);
                }
                self.flushed.notify_all();
                return res;
            }
            t = self.flushed.wait(t).unwrap_or_else(|e| e.into_inner());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::{mpsc, Arc};

    #[test]
    fn a_lone_caller_flushes_and_errors_reach_it() {
        let g = GroupCommit::default();
        let n = AtomicU32::new(0);
        for _ in 0..3 {
            g.commit(|| {
                n.fetch_add(1, Ordering::SeqCst);
                Ok::<_, ()>(())
            })
            .unwrap();
        }
        assert_eq!(
            n.load(Ordering::SeqCst),
            3,
            "no flush covers a later ticket"
        );
        assert_eq!(g.commit(|| Err("disk full")), Err("disk full"));
        g.commit(|| Ok::<_, ()>(())).unwrap();
    }

    /// While one flush runs, later callers queue; when it ends, one of them
    /// leads a single flush for all of them.
    #[test]
    fn callers_waiting_during_a_flush_share_the_next_one() {
        let g = Arc::new(GroupCommit::default());
        let flushes = Arc::new(AtomicU32::new(0));
        let (release, hold) = mpsc::channel::<()>();
        let leader = {
            let (g, flushes) = (g.clone(), flushes.clone());
            std::thread::spawn(move || {
                g.commit(|| {
                    flushes.fetch_add(1, Ordering::SeqCst);
                    hold.recv().unwrap();
                    Ok::<_, ()>(())
                })
            })
        };
        let tickets = |g: &GroupCommit| g.state.lock().unwrap().requested;
        while tickets(&g) < 1 {
            std::thread::yield_now();
        }
        let waiters: Vec<_> = (0..4)
            .map(|_| {
                let (g, flushes) = (g.clone(), flushes.clone());
                std::thread::spawn(move || {
                    g.commit(|| {
                        flushes.fetch_add(1, Ordering::SeqCst);
                        Ok::<_, ()>(())
                    })
                })
            })
            .collect();
        while tickets(&g) < 5 {
            std::thread::yield_now();
        }
        assert_eq!(
            flushes.load(Ordering::SeqCst),
            1,
            "the first flush still runs"
        );
        release.send(()).unwrap();
        leader.join().unwrap().unwrap();
        for w in waiters {
            w.join().unwrap().unwrap();
        }
        assert_eq!(flushes.load(Ordering::SeqCst), 2, "four waiters, one flush");
        let t = g.state.lock().unwrap();
        assert_eq!((t.requested, t.covered, t.flushing), (5, 5, false));
    }
}
