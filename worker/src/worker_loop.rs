//! The worker's main loop: lease shards for the spare threads, run them on
//! blocking threads, submit what they return, and stop when told to (see
//! [`crate::policy`] for the decisions, [`crate::held`] for the heartbeat).

use crate::config::{Shutdown, WorkerConfig, WorkerError, WorkerSummary};
use crate::held::{self, HeldShards};
use crate::memory::MemoryCap;
use crate::policy::{self, NoShards, Step};
use crate::retry::{self, Backoff};
use crate::shard::{self, Finished, LeasedShard, Outcome};
use crate::wire::{CallError, Link, Submitted};
use std::ops::ControlFlow;
use std::sync::Arc;
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio::time::Instant;
use tracing::{info, info_span, warn, Instrument};

/// Whether the main loop goes on.
type Flow = Result<ControlFlow<()>, WorkerError>;

/// A running worker's state.
struct Worker {
    /// Its settings.
    config: WorkerConfig,
    /// The link to the coordinator.
    link: Link,
    /// The shards in hand, shared with the heartbeat.
    held: Arc<HeldShards>,
    /// One task per shard in hand.
    running: JoinSet<Finished>,
    /// What it did so far.
    summary: WorkerSummary,
    /// Waits between lease requests the coordinator did not answer.
    lease_backoff: Backoff,
    /// No lease request before this.
    next_poll: Instant,
    /// When the worker started (for the idle grace period).
    started: Instant,
    /// The coordinator has had an unfinished sweep at some point.
    seen_work: bool,
    /// Running, draining or aborting.
    shutdown: watch::Receiver<Shutdown>,
    /// `--max-memory`, if set.
    memory_cap: Option<MemoryCap>,
}

/// Run the worker until `shutdown` says stop, the coordinator refuses it, or
/// (with `exit_when_idle`) the coordinator has nothing left.
pub(crate) async fn run(
    config: WorkerConfig,
    link: Link,
    shutdown: watch::Receiver<Shutdown>,
) -> Result<WorkerSummary, WorkerError> {
    let held = Arc::new(HeldShards::default());
    let heartbeat = tokio::spawn(held::renew_forever(held.clone(), link.clone()).in_current_span());
    let memory_cap = config.max_memory.map(MemoryCap::new);
    let memory_watch = memory_cap
        .clone()
        .map(|cap| tokio::spawn(held::watch_memory(cap, held.clone()).in_current_span()));
    let mut worker = Worker {
        memory_cap,
        lease_backoff: Backoff::new(config.max_backoff),
        config,
        link,
        held,
        running: JoinSet::new(),
        summary: WorkerSummary::default(),
        next_poll: Instant::now(),
        started: Instant::now(),
        seen_work: false,
        shutdown,
    };
    let stopped = worker.work().await;
    heartbeat.abort();
    if let Some(w) = memory_watch {
        w.abort();
    }
    let s = &worker.summary;
    info!(
        accepted = s.accepted,
        duplicates = s.duplicates,
        abandoned = s.abandoned,
        failed = s.failed,
        "worker stopped"
    );
    stopped.map(|()| worker.summary)
}

impl Worker {
    /// The main loop.
    async fn work(&mut self) -> Result<(), WorkerError> {
        let threads = self.config.threads.max(1);
        loop {
            let mode = *self.shutdown.borrow();
            let poll_due = Instant::now() >= self.next_poll;
            let flow = match policy::next_step(mode, self.running.len(), threads, poll_due) {
                Step::Abort => {
                    self.abort().await;
                    return Ok(());
                }
                Step::Stop => return Ok(()),
                Step::Lease(max_shards) => self.lease(max_shards).await?,
                Step::Wait { poll } => self.wait(poll).await?,
            };
            if flow.is_break() {
                return Ok(());
            }
        }
    }

    /// Ask for up to `max_shards` shards and start those granted.
    async fn lease(&mut self, max_shards: usize) -> Flow {
        match self.link.lease(max_shards).await {
            Ok(batch) => {
                self.lease_backoff.reset();
                self.held.set_lease_ms(batch.lease_ms);
                self.seen_work |= !batch.idle;
                if batch.shards.is_empty() {
                    let in_hand = self.running.len();
                    let waited = policy::waited(
                        self.seen_work,
                        self.started.elapsed(),
                        self.config.idle_grace,
                    );
                    match policy::no_shards(batch.idle, self.config.exit_when_idle, in_hand, waited)
                    {
                        NoShards::Stop => return Ok(ControlFlow::Break(())),
                        NoShards::PollAgainIn(wait) => self.next_poll = Instant::now() + wait,
                    }
                }
                for shard in batch.shards {
                    match shard {
                        Ok(shard) => self.start(shard),
                        Err(msg) => warn!("{msg}"),
                    }
                }
            }
            // A lease request the coordinator refuses (wrong token role,
            // a worker id it cannot take) fails the same way every time.
            Err(CallError::Refused(why) | CallError::Rejected(why)) => {
                return Err(WorkerError::Refused(why))
            }
            Err(CallError::Unreachable(e)) => {
                if let Some(err) = self.gave_up() {
                    return Err(err);
                }
                let wait = self.lease_backoff.next_wait();
                warn!(error = %e, retry_in_ms = wait.as_millis() as u64, "cannot lease; coordinator unreachable?");
                self.next_poll = Instant::now() + wait;
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Hold `leased` and run it on a blocking thread.
    fn start(&mut self, leased: LeasedShard) {
        let flags = self
            .held
            .hold(leased.key.clone(), leased.attempt, leased.token.clone());
        let span = info_span!("shard", sweep = %leased.key.sweep_id, shard = leased.key.index, attempt = leased.attempt);
        let cap = self.memory_cap.clone();
        self.running.spawn_blocking(move || {
            let _in_span = span.enter();
            shard::execute(leased, &flags, cap.as_ref())
        });
    }

    /// Wait for a shard to finish (and dispose of it), a change of mode, or
    /// (if `poll`) the time for the next lease request.
    async fn wait(&mut self, poll: bool) -> Flow {
        tokio::select! {
            Some(joined) = self.running.join_next(), if !self.running.is_empty() => {
                // A join error is unreachable in practice (shards run guarded
                // against panics); the lost shard's lease expires and it runs
                // elsewhere.
                if let Ok(finished) = joined {
                    self.dispose(finished).await?;
                }
            }
            _ = tokio::time::sleep_until(self.next_poll), if poll => {}
            changed = self.shutdown.changed() => {
                if changed.is_err() {
                    // The sender is gone: nobody can tell us to stop any more; stop now.
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Submit a finished shard's result or report its failure (a cancelled
    /// shard is just released), then stop holding it.
    async fn dispose(&mut self, finished: Finished) -> Result<(), WorkerError> {
        let Finished {
            key,
            attempt,
            token,
            outcome,
            timing,
        } = finished;
        let backoff = Backoff::new(self.config.max_backoff);
        let link = &self.link;
        let give_up = || give_up(link, self.config.give_up_after);
        let sent = match outcome {
            Outcome::Done(output, positions) => {
                let result = output.encode();
                let submit = || link.submit(&key, attempt, &token, &result, positions, timing);
                retry::until_answered("submit", &key, backoff, &mut self.shutdown, give_up, submit)
                    .await
                    .map(|reply| match reply {
                        Some(Submitted::Accepted) => self.summary.accepted += 1,
                        Some(Submitted::Duplicate) => self.summary.duplicates += 1,
                        None => self.summary.abandoned += 1,
                    })
            }
            Outcome::Failed(why) => {
                // The coordinator retries the shard a few times, then sets
                // it aside (visible in status).
                warn!(sweep = %key.sweep_id, shard = key.index, error = %why, "shard failed");
                self.summary.failed += 1;
                let report = || link.fail(&key, attempt, &token, &why);
                retry::until_answered("fail", &key, backoff, &mut self.shutdown, give_up, report)
                    .await
                    .map(|_| ())
            }
            Outcome::Cancelled => {
                self.summary.abandoned += 1;
                Ok(())
            }
        };
        self.held.release(&key);
        sent
    }

    /// Cancel every shard in hand and give them up: their leases go back
    /// to the coordinator at once (one try, bounded in time; if it does not
    /// answer, the leases expire and the shards are re-issued then).
    async fn abort(&mut self) {
        self.held.cancel_all();
        self.summary.abandoned += self.running.len() as u64;
        let held = self.held.snapshot();
        if held.is_empty() {
            return;
        }
        let release = self.link.release(&held);
        match tokio::time::timeout(RELEASE_TIMEOUT, release).await {
            Ok(Ok(n)) => info!(given_back = n, held = held.len(), "leases given back"),
            Ok(Err(e)) => warn!(error = %e, "could not give the leases back; they will expire"),
            Err(_) => {
                warn!("the coordinator did not take the leases back in time; they will expire")
            }
        }
    }

    /// The error to stop with if the coordinator has not answered for
    /// longer than `--give-up-after`.
    fn gave_up(&self) -> Option<WorkerError> {
        give_up(&self.link, self.config.give_up_after)
    }
}

/// How long an aborting worker waits for the coordinator to take its
/// leases back.
const RELEASE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// [`WorkerError::Unreachable`] if `coordinator` has not answered for
/// `give_up_after` or longer.
fn give_up(link: &Link, give_up_after: Option<std::time::Duration>) -> Option<WorkerError> {
    let down = link.down_for();
    policy::gives_up(down, give_up_after).then(|| WorkerError::Unreachable {
        coordinator: link.describe(),
        secs: down.as_secs(),
    })
}
