//! Running one leased shard: the domain view of a lease, the solver call
//! guarded against errors and panics, and the shard's wall and CPU time.

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
}

/// The run-time flags shared between a running shard and the worker: the
/// worker raises `cancel` (lease lost, abort), the shard bumps `progress`,
/// and `finished` is raised when its run ends (before its result is sent).
#[derive(Clone, Default)]
pub(crate) struct ShardFlags {
    /// Set to ask the shard to stop.
    pub cancel: Arc<AtomicBool>,
    /// Positions done so far.
    pub progress: Arc<AtomicU64>,
    /// Set once the run has ended, however: there is nothing left to stop.
    pub finished: Arc<AtomicBool>,
}

/// How running a shard ended.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The shard's result, to submit.
    Done(Output),
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

/// Run `leased` on the calling (blocking) thread and time it.
pub(crate) fn execute(leased: LeasedShard, flags: &ShardFlags) -> Finished {
    let ctx = ShardCtx::new(&flags.cancel, &flags.progress);
    let (t0, cpu0) = (Instant::now(), thread_cpu_us());
    let outcome = run_guarded(|| leased.kind.run_shard(&leased.params, &leased.shard, &ctx));
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
        Ok(Ok(output)) => Outcome::Done(output),
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
/// Shards run one per blocking thread, so this is the shard's CPU time,
/// which stays honest when the machine is shared (wall time does not).
fn thread_cpu_us() -> u64 {
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
        assert!(matches!(run_guarded(|| Ok(uvg.empty())), Outcome::Done(_)));
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
        };
        let flags = ShardFlags::default();
        let done = execute(leased, &flags);
        assert!(flags.finished.load(Ordering::Relaxed), "run over: finished");
        assert_eq!(
            (
                done.key.sweep_id.as_str(),
                done.attempt,
                done.token.as_str()
            ),
            ("s", 3, "tok")
        );
        let Outcome::Done(output) = done.outcome else {
            panic!("expected a result")
        };
        assert!(output.work() > 0);
    }
}
