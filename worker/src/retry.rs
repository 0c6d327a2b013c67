//! Waiting out an unreachable coordinator: the backoff schedule, and sending
//! one request until it gets an answer.

use crate::config::{Shutdown, WorkerError};
use crate::policy;
use crate::shard::ShardKey;
use crate::wire::CallError;
use std::future::Future;
use std::time::Duration;
use tokio::sync::watch;
use tracing::{debug, warn};

/// The first wait after a failure.
const FIRST_WAIT: Duration = Duration::from_millis(100);

/// Exponential backoff: waits of 100 ms, 200 ms, 400 ms, … up to a ceiling.
#[derive(Clone, Debug)]
pub(crate) struct Backoff {
    /// The next wait.
    next: Duration,
    /// The longest wait.
    max: Duration,
}

impl Backoff {
    /// A schedule whose waits never exceed `max`.
    pub fn new(max: Duration) -> Self {
        Backoff {
            next: FIRST_WAIT.min(max),
            max,
        }
    }

    /// The wait after one more failure.
    pub fn next_wait(&mut self) -> Duration {
        let wait = self.next;
        self.next = (wait * 2).min(self.max);
        wait
    }

    /// Start over (after a success).
    pub fn reset(&mut self) {
        *self = Backoff::new(self.max);
    }
}

/// Send one request (`what`, about shard `key`) with `call`, retrying with
/// backoff while the coordinator is unreachable. `Ok(None)`: given up (the
/// worker is aborting, or the coordinator rejected the request for good);
/// `Err`: the coordinator refuses this worker, or `give_up` (asked after
/// each failure to reach it) says it has been unreachable for too long.
pub(crate) async fn until_answered<T, F, Fut>(
    what: &str,
    key: &ShardKey,
    mut backoff: Backoff,
    shutdown: &mut watch::Receiver<Shutdown>,
    give_up: impl Fn() -> Option<WorkerError>,
    mut call: F,
) -> Result<Option<T>, WorkerError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, CallError>>,
{
    loop {
        match call().await {
            Ok(reply) => {
                debug!(sweep = %key.sweep_id, shard = key.index, what, "sent");
                return Ok(Some(reply));
            }
            Err(CallError::Unreachable(e)) => {
                if let Some(err) = give_up() {
                    return Err(err);
                }
                warn!(sweep = %key.sweep_id, shard = key.index, what, error = %e, "failed to reach the coordinator; retrying");
            }
            Err(CallError::Refused(e)) => return Err(WorkerError::Refused(e)),
            Err(CallError::Rejected(e)) => {
                warn!(sweep = %key.sweep_id, shard = key.index, what, error = %e, "rejected by the coordinator; dropping it");
                return Ok(None);
            }
        }
        // Wait, but wake up for a change of mode. (If nobody can change the
        // mode any more, just wait.)
        tokio::select! {
            _ = tokio::time::sleep(backoff.next_wait()) => {}
            Ok(()) = shutdown.changed() => {}
        }
        if !policy::keeps_retrying(*shutdown.borrow()) {
            return Ok(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn waits(max_ms: u64, n: usize) -> Vec<u64> {
        let mut b = Backoff::new(Duration::from_millis(max_ms));
        (0..n).map(|_| b.next_wait().as_millis() as u64).collect()
    }

    #[test]
    fn backoff_doubles_from_100ms_up_to_the_ceiling() {
        assert_eq!(waits(1_000, 6), [100, 200, 400, 800, 1_000, 1_000]);
        assert_eq!(waits(10_000, 9).last(), Some(&10_000));
        // Never longer than the ceiling, even at first.
        assert_eq!(waits(30, 3), [30, 30, 30]);
    }

    #[test]
    fn backoff_starts_over_after_a_reset() {
        let mut b = Backoff::new(Duration::from_secs(10));
        b.next_wait();
        b.next_wait();
        b.reset();
        assert_eq!(b.next_wait(), Duration::from_millis(100));
    }

    fn key() -> ShardKey {
        ShardKey {
            sweep_id: "s".into(),
            index: 0,
        }
    }

    /// Answers `replies` in turn, counting the calls.
    async fn send(
        replies: Vec<Result<u32, CallError>>,
        mode: Shutdown,
    ) -> (Result<Option<u32>, WorkerError>, usize) {
        let (_tx, mut rx) = watch::channel(mode);
        let calls = Cell::new(0);
        let mut replies = replies.into_iter();
        let fast = Backoff::new(Duration::from_millis(1));
        let got = until_answered(
            "submit",
            &key(),
            fast,
            &mut rx,
            || None,
            || {
                calls.set(calls.get() + 1);
                std::future::ready(replies.next().expect("no more replies"))
            },
        )
        .await;
        (got, calls.get())
    }

    #[tokio::test]
    async fn an_unreachable_coordinator_is_retried_until_it_answers() {
        let down = || Err(CallError::Unreachable("down".into()));
        let (got, calls) = send(vec![down(), down(), Ok(7)], Shutdown::Drain).await;
        assert_eq!((got.unwrap(), calls), (Some(7), 3));
    }

    #[tokio::test]
    async fn a_rejection_drops_the_request_and_a_refusal_stops_the_worker() {
        let (got, calls) = send(
            vec![Err(CallError::Rejected("no".into()))],
            Shutdown::Running,
        )
        .await;
        assert_eq!((got.unwrap(), calls), (None, 1));
        let (got, _) = send(
            vec![Err(CallError::Refused("version".into()))],
            Shutdown::Running,
        )
        .await;
        assert!(matches!(got, Err(WorkerError::Refused(why)) if why == "version"));
    }

    #[tokio::test]
    async fn an_unreachable_coordinator_is_given_up_when_the_check_says_so() {
        let (_tx, mut rx) = watch::channel(Shutdown::Running);
        let calls = Cell::new(0);
        let fast = Backoff::new(Duration::from_millis(1));
        let give_up = || {
            (calls.get() >= 3).then(|| WorkerError::Unreachable {
                coordinator: "http://c:1".into(),
                secs: 60,
            })
        };
        let got = until_answered("submit", &key(), fast, &mut rx, give_up, || {
            calls.set(calls.get() + 1);
            std::future::ready(Err::<u32, _>(CallError::Unreachable("down".into())))
        })
        .await;
        assert!(matches!(
            got,
            Err(WorkerError::Unreachable { secs: 60, .. })
        ));
        assert_eq!(calls.get(), 3);
    }

    #[tokio::test]
    async fn an_aborting_worker_stops_retrying() {
        let down = || Err(CallError::Unreachable("down".into()));
        let (got, calls) = send(vec![down(), down()], Shutdown::Abort).await;
        assert_eq!((got.unwrap(), calls), (None, 1));
    }
}
