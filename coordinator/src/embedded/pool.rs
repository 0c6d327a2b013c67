//! `run --in-process`: the embedded run's local workers without gRPC.
//! Threads of this process lease shards from the run's [`Core`], run them
//! with [`gamesweep::sweep::SweepKind::run_shard`], and hand the result to
//! the core through the one entry point the gRPC submit calls too
//! ([`Core::accept`], on the encoded bytes), so a result is checked,
//! validated, recounted and made durable exactly as a remote worker's. Only the network layer is left out.

use gamesweep::sweep::{Output, ShardCtx, SweepError};
use gamesweep_api::SolverVersions;
use gamesweep_engine::core::{Core, CoreError, Delivery, FailureReport, Granted, Held, Timing};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a thread waits before asking again when the core has no shard
/// for it (the rest are leased by other threads, or the run is settled).
const IDLE_WAIT: Duration = Duration::from_millis(20);

/// One shard a pool thread runs: its lease, as renewed.
struct Running {
    sweep_id: String,
    index: u32,
    token: String,
    progress: Arc<AtomicU64>,
}

/// The leases the pool's threads hold, for the renewal thread.
type HeldSet = Mutex<Vec<Running>>;

/// Run `threads` threads as worker `worker` against `core` until `stop` is
/// raised (shards running then are cancelled and their leases released). An error of the core (its store)
/// stops every thread and is returned.
pub(super) fn run(
    core: &Core,
    worker: &str,
    threads: usize,
    stop: &AtomicBool,
) -> Result<(), CoreError> {
    let versions = SolverVersions::of_this_build();
    let held: HeldSet = Mutex::new(Vec::new());
    let first_error: Mutex<Option<CoreError>> = Mutex::new(None);
    let fail_all = |e: CoreError| {
        stop.store(true, Ordering::Relaxed);
        first_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert(e);
    };
    std::thread::scope(|s| {
        // Results go to one submitting thread, so that a shard thread does
        // not wait for the store's flush before leasing its next shard (the
        // gRPC worker overlaps its submits with running the same way).
        let (done_tx, done_rx) = std::sync::mpsc::channel::<Done>();
        for _ in 0..threads.max(1) {
            let done_tx = done_tx.clone();
            s.spawn(|| {
                if let Err(e) = work(core, worker, &versions, &held, stop, done_tx) {
                    fail_all(e);
                }
            });
        }
        drop(done_tx);
        // It ends when every shard thread has ended and it has reported all
        // their results.
        s.spawn(|| {
            for d in done_rx {
                let reported = match d.outcome {
                    Ok((result, positions)) => submit(
                        core,
                        worker,
                        &versions,
                        &d.granted,
                        (&result, positions),
                        d.timing,
                    ),
                    Err(why) => fail(core, worker, &versions, &d.granted, why),
                };
                lock(&held).retain(|r| r.token != d.granted.token);
                if let Err(e) = reported {
                    fail_all(e);
                }
            }
        });
        // The heartbeat: a shard longer than the lease period keeps its lease.
        s.spawn(|| {
            let period = Duration::from_millis(core.lease_ms() / 3).max(IDLE_WAIT);
            let mut last = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(IDLE_WAIT);
                if last.elapsed() < period {
                    continue;
                }
                last = Instant::now();
                let now: Vec<Held> = lock(&held)
                    .iter()
                    .map(|r| Held {
                        sweep_id: r.sweep_id.clone(),
                        index: r.index,
                        token: r.token.clone(),
                        progress: r.progress.load(Ordering::Relaxed),
                    })
                    .collect();
                if !now.is_empty() {
                    if let Err(e) = core.renew(worker, &now) {
                        fail_all(e);
                    }
                }
            }
        });
    });
    match first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn lock(held: &HeldSet) -> std::sync::MutexGuard<'_, Vec<Running>> {
    held.lock().unwrap_or_else(|p| p.into_inner())
}

/// A shard that ran to a result or a failure, for the submitting thread.
struct Done {
    granted: Granted,
    /// The result and its position digest (if its lease asked for one),
    /// or why there is none.
    outcome: Result<(Output, Option<u64>), String>,
    timing: Timing,
}

/// One pool thread: lease one shard at a time, run it, and hand its result
/// or failure to the submitting thread (which drops it from `held`).
fn work(
    core: &Core,
    worker: &str,
    versions: &SolverVersions,
    held: &HeldSet,
    stop: &AtomicBool,
    done: std::sync::mpsc::Sender<Done>,
) -> Result<(), CoreError> {
    while !stop.load(Ordering::Relaxed) {
        let Some(g) = core.lease(worker, versions, 1)?.leases.into_iter().next() else {
            std::thread::sleep(IDLE_WAIT);
            continue;
        };
        let progress = Arc::new(AtomicU64::new(0));
        lock(held).push(Running {
            sweep_id: g.sweep_id.clone(),
            index: g.shard.index,
            token: g.token.clone(),
            progress: progress.clone(),
        });
        let (t0, cpu0) = (Instant::now(), gamesweep_worker::thread_cpu_us());
        let outcome = run_guarded(&g, stop, &progress);
        let timing = Timing {
            wall_us: t0.elapsed().as_micros() as u64,
            cpu_us: if cpu0 > 0 {
                gamesweep_worker::thread_cpu_us().saturating_sub(cpu0)
            } else {
                0
            },
        };
        let outcome = match outcome {
            Ok(result) => Ok(result),
            Err(Some(why)) => Err(why),
            // Stopping: handed back, so that a rerun need not wait for it
            // to expire (a refusal only means it expired already).
            Err(None) => {
                let back = Held {
                    sweep_id: g.sweep_id.clone(),
                    index: g.shard.index,
                    token: g.token.clone(),
                    progress: 0,
                };
                lock(held).retain(|r| r.token != g.token);
                match core.release(worker, &[back]) {
                    Err(e @ CoreError::Store(_)) => return Err(e),
                    _ => continue,
                }
            }
        };
        let d = Done {
            granted: g,
            outcome,
            timing,
        };
        if done.send(d).is_err() {
            // The submitting thread stopped on an error of the core.
            break;
        }
    }
    Ok(())
}

/// Run the granted shard; `Err(None)`: cancelled, `Err(Some(why))`: it
/// could not be run (an error or a panic of the solver).
fn run_guarded(
    g: &Granted,
    stop: &AtomicBool,
    progress: &AtomicU64,
) -> Result<(Output, Option<u64>), Option<String>> {
    let kind = g.kind;
    let positions = AtomicU64::new(0);
    let ctx = match g.salt {
        Some(salt) => ShardCtx::new(stop, progress).with_salt(salt, &positions),
        None => ShardCtx::new(stop, progress),
    };
    let run = || kind.run_shard(&g.params, &g.shard, &ctx);
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(Ok(output)) => {
            let digest = g
                .salt
                .filter(|_| kind.position_digest())
                .map(|_| positions.load(std::sync::atomic::Ordering::Relaxed));
            Ok((output, digest))
        }
        Ok(Err(SweepError::Cancelled)) => Err(None),
        Ok(Err(e)) => Err(Some(e.to_string())),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".into());
            Err(Some(format!("the solver panicked: {what}")))
        }
    }
}

/// Hand a result to the core the way the gRPC submit does: token first,
/// then the encoded bytes decoded and validated by the sweep's kind, then
/// the submission, durable before the next lease. A result the core
/// refuses is reported as the shard's failure, so a kind whose results
/// never pass ends with the shard set aside instead of running forever.
fn submit(
    core: &Core,
    worker: &str,
    versions: &SolverVersions,
    g: &Granted,
    (result, positions): (&Output, Option<u64>),
    timing: Timing,
) -> Result<(), CoreError> {
    let accepted = core.accept(Delivery {
        worker: worker.to_string(),
        version: versions.clone(),
        sweep_id: g.sweep_id.clone(),
        index: g.shard.index,
        token: g.token.clone(),
        result: result.encode(),
        timing: Some(timing),
        positions,
    });
    match accepted {
        Ok(_) => Ok(()),
        Err(e @ CoreError::Store(_)) => Err(e),
        Err(e) => fail(core, worker, versions, g, format!("result refused: {e}")),
    }
}

/// Report that the granted shard could not be run (or its result was refused).
fn fail(
    core: &Core,
    worker: &str,
    versions: &SolverVersions,
    g: &Granted,
    why: String,
) -> Result<(), CoreError> {
    tracing::warn!(sweep = %g.sweep_id, shard = g.shard.index, error = %why, "shard failed");
    let report = FailureReport {
        worker: worker.to_string(),
        version: versions.clone(),
        sweep_id: g.sweep_id.clone(),
        index: g.shard.index,
        token: g.token.clone(),
        error: why,
    };
    match core.accept_failure(&report) {
        Ok(_) => Ok(()),
        Err(e @ CoreError::Store(_)) => Err(e),
        // A lease lost meanwhile: the shard is someone else's now.
        Err(_) => Ok(()),
    }
}
