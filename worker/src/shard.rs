//! Running one leased shard: the domain view of a lease, the solver call
//! guarded against errors and panics, and the shard's wall and CPU time.

use crate::memory::MemoryCap;
use gamesweep::sweep::{Output, Params, ShardCtx, ShardSpec, SweepError, SweepKind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A shard of a sweep, as the coordinator names it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ShardKey {
    /// The sweep it belongs to.
    pub sweep_id: String,
    /// Its position in the sweep's plan.
    pub index: u32,
}

/// A held shard as renewed: which one, and how far it got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HeldShard {
    /// Which shard.
    pub key: ShardKey,
    /// The attempt it was granted as.
    pub attempt: u32,
    /// The lease's token, sent back with the renewal.
    pub token: String,
    /// Positions done so far.
    pub progress: u64,
}

/// A shard this worker was granted, ready to run.
pub(crate) struct LeasedShard {
    /// Which shard.
    pub key: ShardKey,
    /// The coordinator's attempt number, sent back with renewals and results.
    pub attempt: u32,
    /// The lease's token, sent back with renewals, the result or a failure.
    pub token: String,
    /// The sweep kind that runs it.
    pub kind: &'static dyn SweepKind,
    /// The sweep's parameters.
    pub params: Params,
    /// The shard itself.
    pub shard: ShardSpec,
    /// The salt of the position digest the lease asks for, if any.
    pub salt: Option<u64>,
}

/// The run-time flags shared between a running shard and the worker: the
/// worker raises `cancel` (lease lost, abort), the shard bumps `progress`,
/// `finished` is raised when its run ends (before its result is sent), and
/// `memory` holds the resident memory (bytes) that made the memory watch
/// stop it (0: it was not).
#[derive(Clone, Default)]
pub(crate) struct ShardFlags {
    /// Set to ask the shard to stop.
    pub cancel: Arc<AtomicBool>,
    /// Positions done so far.
    pub progress: Arc<AtomicU64>,
    /// Set once the run has ended, however: there is nothing left to stop.
    pub finished: Arc<AtomicBool>,
    /// The worker's resident memory when it was stopped for passing
    /// `--max-memory`, in bytes; 0 if it was not.
    pub memory: Arc<AtomicU64>,
}

/// How running a shard ended.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The shard's result, to submit, with its position digest if the
    /// lease asked for one.
    Done(Output, Option<u64>),
    /// The shard was cancelled (lease lost or worker aborting): nothing to send.
    Cancelled,
    /// The shard could not be run; the message goes to the coordinator.
    Failed(String),
}

/// How long a shard took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Timing {
    /// Wall-clock microseconds from start to result.
    pub wall_us: u64,
    /// CPU microseconds of the thread that ran it (0 if unknown).
    pub cpu_us: u64,
}

/// A shard that stopped running, with everything needed to report it.
pub(crate) struct Finished {
    /// Which shard.
    pub key: ShardKey,
    /// The attempt it ran as.
    pub attempt: u32,
    /// Its lease's token.
    pub token: String,
    /// What came of it.
    pub outcome: Outcome,
    /// How long it took.
    pub timing: Timing,
}

/// Run `leased` on the calling (blocking) thread and time it. With a memory
/// `cap`, a shard is not started while the worker's resident memory is
/// above it, and a shard the memory watch stopped is a failure (so the
/// coordinator hands it out again, or sets it aside after repeated
/// failures), not a quiet cancellation.
pub(crate) fn execute(
    leased: LeasedShard,
    flags: &ShardFlags,
    cap: Option<&MemoryCap>,
) -> Finished {
    // The position digest, only when the lease asks for one.
    let positions = AtomicU64::new(0);
    let ctx = match leased.salt {
        Some(salt) => ShardCtx::new(&flags.cancel, &flags.progress).with_salt(salt, &positions),
        None => ShardCtx::new(&flags.cancel, &flags.progress),
    };
    let (t0, cpu0) = (Instant::now(), thread_cpu_us());
    let over = |rss| {
        Outcome::Failed(cap.map_or_else(String::new, |c| {
            c.message(&leased.key.sweep_id, leased.key.index, rss)
        }))
    };
    let outcome = match cap.and_then(MemoryCap::exceeded) {
        Some(rss) => over(rss),
        None => match run_guarded(|| leased.kind.run_shard(&leased.params, &leased.shard, &ctx)) {
            Outcome::Cancelled if flags.memory.load(Ordering::Relaxed) > 0 => {
                over(flags.memory.load(Ordering::Relaxed))
            }
            Outcome::Done(output, _) => {
                let digest = leased
                    .salt
                    .filter(|_| leased.kind.position_digest())
                    .map(|_| positions.load(Ordering::Relaxed));
                Outcome::Done(output, digest)
            }
            outcome => outcome,
        },
    };
    let cpu1 = thread_cpu_us();
    flags.finished.store(true, Ordering::Relaxed);
    Finished {
        key: leased.key,
        attempt: leased.attempt,
        token: leased.token,
        outcome,
        timing: Timing {
            wall_us: t0.elapsed().as_micros() as u64,
            cpu_us: if cpu0 > 0 {
                cpu1.saturating_sub(cpu0)
            } else {
                0
            },
        },
    }
}

/// Run a shard, turning an error or a panic of the solver into a message for
/// the coordinator (a panic must not leave the shard held forever).
pub(crate) fn run_guarded(run: impl FnOnce() -> Result<Output, SweepError>) -> Outcome {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(Ok(output)) => Outcome::Done(output, None),
        Ok(Err(SweepError::Cancelled)) => Outcome::Cancelled,
        Ok(Err(e)) => Outcome::Failed(e.to_string()),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".into());
            Outcome::Failed(format!("the solver panicked: {what}"))
        }
    }
}

/// CPU time of the calling thread in microseconds (0 where unsupported).
/// Shards run one per thread (a worker's blocking threads, the in-process
/// pool's threads), so this is the shard's CPU time, which stays honest
/// when the machine is shared (wall time does not).
pub fn thread_cpu_us() -> u64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if rc == 0 {
            return ts.tv_sec as u64 * 1_000_000 + ts.tv_nsec as u64 / 1_000;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesweep::kinds;

    fn failure(outcome: Outcome) -> String {
        match outcome {
            Outcome::Failed(why) => why,
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn a_result_is_done() {
        let uvg = kinds::find("uvg").unwrap();
        assert!(matches!(run_guarded(|| Ok(uvg.empty())), Outcome::Done(..)));
    }

    #[test]
    fn a_panic_becomes_a_failure_message() {
        let why = failure(run_guarded(|| panic!("index out of bounds")));
        assert_eq!(why, "the solver panicked: index out of bounds");
        let n = 7;
        let why = failure(run_guarded(|| panic!("bad vertex {n}")));
        assert_eq!(why, "the solver panicked: bad vertex 7");
        let why = failure(run_guarded(|| std::panic::panic_any(42_u8)));
        assert_eq!(why, "the solver panicked: (no message)");
    }

    #[test]
    fn an_error_becomes_a_failure_message() {
        let why = failure(run_guarded(|| {
            Err(SweepError::BadShard {
                kind: "uvg".into(),
                reason: "not JSON".into(),
            })
        }));
        assert_eq!(why, "bad shard payload for sweep `uvg`: not JSON");
    }

    #[test]
    fn cancellation_is_not_a_failure() {
        assert!(matches!(
            run_guarded(|| Err(SweepError::Cancelled)),
            Outcome::Cancelled
        ));
    }

    #[test]
    fn execute_runs_a_real_shard() {
        let uvg = kinds::find("uvg").unwrap();
        let params = uvg
            .resolve_params(&[("max_n".to_string(), 5)].into())
            .unwrap();
        let shard = uvg.plan(&params, 1).unwrap().remove(0);
        let leased = LeasedShard {
            key: ShardKey {
                sweep_id: "s".into(),
                index: shard.index,
            },
            attempt: 3,
            token: "tok".into(),
            kind: uvg,
            params,
            shard,
            salt: None,
        };
        let flags = ShardFlags::default();
        let done = execute(leased, &flags, None);
        assert!(flags.finished.load(Ordering::Relaxed), "run over: finished");
        assert_eq!(
            (
                done.key.sweep_id.as_str(),
                done.attempt,
                done.token.as_str()
            ),
            ("s", 3, "tok")
        );
        let Outcome::Done(output, _) = done.outcome else {
            panic!("expected a result")
        };
        assert!(output.work() > 0);
    }

    /// Shard 0 of a small uvg sweep, leased as sweep `s`.
    fn small_uvg_shard() -> LeasedShard {
        let uvg = kinds::find("uvg").unwrap();
        let params = uvg
            .resolve_params(&[("max_n".to_string(), 5)].into())
            .unwrap();
        let shard = uvg.plan(&params, 1).unwrap().remove(0);
        LeasedShard {
            key: ShardKey {
                sweep_id: "s".into(),
                index: shard.index,
            },
            attempt: 1,
            token: "tok".into(),
            kind: uvg,
            params,
            shard,
            salt: None,
        }
    }

    /// A cap of `max` bytes whose reading is always `rss`.
    fn fixed_cap(max: u64, rss: u64) -> MemoryCap {
        MemoryCap {
            max,
            read: Arc::new(move || Some(rss)),
        }
    }

    #[test]
    fn a_shard_is_not_started_above_the_memory_cap() {
        let flags = ShardFlags::default();
        let cap = fixed_cap(1 << 20, 3 << 20);
        let done = execute(small_uvg_shard(), &flags, Some(&cap));
        assert_eq!(
            failure(done.outcome),
            "shard 0 of sweep s stopped: the worker's resident memory reached 3 MiB, above --max-memory 1 MiB"
        );
        assert_eq!(flags.progress.load(Ordering::Relaxed), 0, "never ran");
        assert!(flags.finished.load(Ordering::Relaxed));
    }

    #[test]
    fn a_shard_stopped_for_memory_is_a_failure_not_a_cancellation() {
        let flags = ShardFlags::default();
        // The watch stopped it (as `HeldShards::stop_for_memory` does)
        // after the start check passed.
        flags.memory.store(5 << 30, Ordering::Relaxed);
        flags.cancel.store(true, Ordering::Relaxed);
        let cap = fixed_cap(4 << 30, 1 << 30);
        let done = execute(small_uvg_shard(), &flags, Some(&cap));
        assert_eq!(
            failure(done.outcome),
            "shard 0 of sweep s stopped: the worker's resident memory reached 5 GiB, above --max-memory 4 GiB"
        );
        // Under the cap, the same shard runs to its result.
        let done = execute(small_uvg_shard(), &ShardFlags::default(), Some(&cap));
        assert!(matches!(done.outcome, Outcome::Done(..)));
    }
}
