//! The worker's decisions, as pure functions of its state: when to lease,
//! when to stop, what happens to the shards in hand when draining or
//! aborting, and how long to wait for work.
//!
//! Draining (first SIGTERM) stops leasing; the shards in hand run to the end
//! and their results are submitted (failures reported), retrying while the
//! coordinator is unreachable. Aborting (second SIGTERM) releases the shards
//! in hand: they are cancelled and not submitted, pending retries give up,
//! their leases expire and the coordinator hands them to other workers.

use crate::config::Shutdown;
use std::time::Duration;

/// Poll interval while no sweep is unfinished anywhere.
const IDLE_POLL: Duration = Duration::from_millis(1000);
/// Poll interval while sweeps are unfinished but nothing is pending (shards
/// of other workers may be re-issued soon).
const BUSY_POLL: Duration = Duration::from_millis(250);

/// What the main loop does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Cancel and release every shard in hand, then stop.
    Abort,
    /// Stop: nothing in hand and no more leasing.
    Stop,
    /// Ask for up to this many shards.
    Lease(usize),
    /// Wait for a shard to finish or the mode to change; also for the next
    /// poll if `poll` (spare threads while running).
    Wait {
        /// Wake up for the next lease poll.
        poll: bool,
    },
}

/// The next step in `mode` with `in_hand` shards running on `threads`
/// threads; `poll_due`: the time for the next lease request has come.
pub(crate) fn next_step(mode: Shutdown, in_hand: usize, threads: usize, poll_due: bool) -> Step {
    let free = threads.saturating_sub(in_hand);
    match mode {
        Shutdown::Abort => Step::Abort,
        Shutdown::Drain if in_hand == 0 => Step::Stop,
        Shutdown::Running if free > 0 && poll_due => Step::Lease(free),
        Shutdown::Running => Step::Wait { poll: free > 0 },
        Shutdown::Drain => Step::Wait { poll: false },
    }
}

/// What to do about a lease reply that brought no shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoShards {
    /// Stop the worker (it was asked to exit when the coordinator is idle).
    Stop,
    /// Ask again after this long.
    PollAgainIn(Duration),
}

/// After an empty lease reply: `idle` (no unfinished sweep anywhere),
/// `exit_when_idle` (the worker's setting), `in_hand` shards running,
/// `waited` (the worker has seen a sweep, or waited its grace period for
/// one: a worker started before `launch` does not quit at once).
pub(crate) fn no_shards(
    idle: bool,
    exit_when_idle: bool,
    in_hand: usize,
    waited: bool,
) -> NoShards {
    match (idle, exit_when_idle && in_hand == 0 && waited) {
        (true, true) => NoShards::Stop,
        (true, false) => NoShards::PollAgainIn(IDLE_POLL),
        (false, _) => NoShards::PollAgainIn(BUSY_POLL),
    }
}

/// Whether an idle worker has waited long enough to exit: it has `seen_work`
/// (an unfinished sweep), or `since_start` reached the `grace` period.
pub(crate) fn waited(seen_work: bool, since_start: Duration, grace: Duration) -> bool {
    seen_work || since_start >= grace
}

/// Whether a worker whose coordinator has not answered for `down_for`
/// gives up, with the `give_up_after` setting.
pub(crate) fn gives_up(down_for: Duration, give_up_after: Option<Duration>) -> bool {
    give_up_after.is_some_and(|limit| down_for >= limit)
}

/// Whether a request that could not reach the coordinator is tried again
/// in `mode` (a draining worker still delivers; an aborting one gives up).
pub(crate) fn keeps_retrying(mode: Shutdown) -> bool {
    mode != Shutdown::Abort
}

#[cfg(test)]
mod tests {
    use super::*;
    use Shutdown::{Abort, Drain, Running};

    #[test]
    fn a_running_worker_leases_for_its_spare_threads_when_the_poll_is_due() {
        assert_eq!(next_step(Running, 0, 4, true), Step::Lease(4));
        assert_eq!(next_step(Running, 3, 4, true), Step::Lease(1));
        assert_eq!(next_step(Running, 3, 4, false), Step::Wait { poll: true });
        assert_eq!(next_step(Running, 4, 4, true), Step::Wait { poll: false });
        assert_eq!(next_step(Running, 0, 4, false), Step::Wait { poll: true });
    }

    #[test]
    fn a_draining_worker_leases_nothing_and_stops_when_its_hands_are_empty() {
        assert_eq!(next_step(Drain, 2, 4, true), Step::Wait { poll: false });
        assert_eq!(next_step(Drain, 0, 4, true), Step::Stop);
    }

    #[test]
    fn an_aborting_worker_aborts_whatever_it_holds() {
        assert_eq!(next_step(Abort, 2, 4, true), Step::Abort);
        assert_eq!(next_step(Abort, 0, 4, false), Step::Abort);
    }

    #[test]
    fn an_empty_lease_reply_stops_only_an_idle_worker_that_wants_to_exit() {
        assert_eq!(no_shards(true, true, 0, true), NoShards::Stop);
        assert_eq!(
            no_shards(true, true, 1, true),
            NoShards::PollAgainIn(IDLE_POLL)
        );
        assert_eq!(
            no_shards(true, false, 0, true),
            NoShards::PollAgainIn(IDLE_POLL)
        );
        assert_eq!(
            no_shards(false, true, 0, true),
            NoShards::PollAgainIn(BUSY_POLL)
        );
    }

    #[test]
    fn a_worker_started_before_launch_waits_out_its_grace_period() {
        // Idle, wants to exit, nothing in hand, but has neither seen a
        // sweep nor waited long enough: poll again.
        assert_eq!(
            no_shards(true, true, 0, false),
            NoShards::PollAgainIn(IDLE_POLL)
        );
    }

    #[test]
    fn the_grace_period_ends_once_a_sweep_was_seen_or_the_time_is_up() {
        let grace = Duration::from_secs(60);
        assert!(!waited(false, Duration::from_secs(59), grace));
        assert!(waited(false, Duration::from_secs(60), grace));
        assert!(waited(true, Duration::ZERO, grace));
    }

    #[test]
    fn a_worker_gives_up_only_when_told_to_and_only_after_the_set_time() {
        let s = Duration::from_secs;
        assert!(!gives_up(s(3600), None));
        assert!(!gives_up(s(59), Some(s(60))));
        assert!(gives_up(s(60), Some(s(60))));
    }

    #[test]
    fn requests_are_retried_while_running_or_draining_but_not_when_aborting() {
        assert!(keeps_retrying(Running));
        assert!(keeps_retrying(Drain));
        assert!(!keeps_retrying(Abort));
    }
}
