//! The gamesweep worker, as a library: [`run`] leases shards from a
//! coordinator, runs them with the core's shard executor on blocking threads,
//! renews the leases while they run, and submits the results.
//!
//! A worker is stateless: everything it knows comes with its leases, so it
//! can be killed at any moment (its leases expire and the shards go to other
//! workers) and any number of them can join or leave a sweep.

pub mod cli;

use gamesweep::sweep::{self, Output, ShardCtx, SweepError};
use gamesweep_proto::{convert, pb, Client};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinSet;
use tonic::Code;
use tracing::{debug, info, info_span, warn, Instrument};

/// How a worker is asked to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shutdown {
    /// Keep working.
    Running,
    /// Stop leasing; finish and submit the shards in hand, then return.
    Drain,
    /// Stop now: cancel the shards in hand (their leases expire and they run elsewhere).
    Abort,
}

/// Worker settings.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// Coordinator URL, e.g. `http://127.0.0.1:7461`.
    pub coordinator: String,
    /// Bearer token, if the coordinator wants one.
    pub token: Option<String>,
    /// Shards run at once (one blocking thread each).
    pub threads: usize,
    /// This worker's id as the coordinator shows it.
    pub worker_id: String,
    /// Solver version sent with leases and submits (normally
    /// [`gamesweep_proto::solver_version`]).
    pub solver_version: String,
    /// Longest wait between attempts to reach an unreachable coordinator.
    pub max_backoff: Duration,
    /// Return (instead of polling) when the coordinator has no unfinished sweep.
    pub exit_when_idle: bool,
}

impl WorkerConfig {
    /// Settings for `coordinator` with this build's solver version, one
    /// thread per core and an id from the host name and process id.
    pub fn new(coordinator: impl Into<String>) -> Self {
        let host = std::env::var("HOSTNAME")
            .ok()
            .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
            .map(|h| h.trim().to_string())
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "worker".into());
        WorkerConfig {
            coordinator: coordinator.into(),
            token: None,
            threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            worker_id: format!("{host}-{}", std::process::id()),
            solver_version: gamesweep_proto::solver_version(),
            max_backoff: Duration::from_secs(10),
            exit_when_idle: false,
        }
    }
}

/// Why a worker stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// Bad URL or token.
    #[error(transparent)]
    Client(#[from] gamesweep_proto::client::ClientError),
    /// The coordinator refused this worker (different solver version, wrong token).
    #[error("coordinator refused this worker: {0}")]
    Refused(String),
}

/// What a worker did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkerSummary {
    /// Shards whose result the coordinator accepted.
    pub accepted: u64,
    /// Shards whose result the coordinator already had.
    pub duplicates: u64,
    /// Shards given up (lease lost, cancelled, or aborted).
    pub abandoned: u64,
    /// Shards that could not be run (reported to the coordinator).
    pub failed: u64,
}

type Key = (String, u32);

struct Running {
    attempt: u32,
    cancel: Arc<AtomicBool>,
    progress: Arc<AtomicU64>,
}

struct Finished {
    key: Key,
    attempt: u32,
    /// `Err(None)`: cancelled; `Err(Some(why))`: the shard could not be run.
    result: Result<Output, Option<String>>,
    timing: pb::ShardTiming,
}

/// Run one shard, turning an error or a panic of the solver into a message
/// for the coordinator (a panic must not leave the shard held forever).
fn run_guarded(
    kind: &'static dyn sweep::SweepKind,
    params: &sweep::Params,
    shard: &sweep::ShardSpec,
    ctx: &ShardCtx<'_>,
) -> Result<Output, Option<String>> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        kind.run_shard(params, shard, ctx)
    })) {
        Ok(Ok(r)) => Ok(r),
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

/// Errors that mean "try again later" (coordinator restarting or unreachable).
fn transient(s: &tonic::Status) -> bool {
    matches!(
        s.code(),
        Code::Unavailable
            | Code::Unknown
            | Code::DeadlineExceeded
            | Code::Internal
            | Code::Cancelled
    )
}

fn fatal(s: &tonic::Status) -> Option<WorkerError> {
    match s.code() {
        Code::FailedPrecondition | Code::Unauthenticated | Code::PermissionDenied => {
            Some(WorkerError::Refused(s.message().to_string()))
        }
        _ => None,
    }
}

/// Run a worker until `shutdown` says stop (or, with `exit_when_idle`, until
/// the coordinator has nothing left).
pub async fn run(
    config: WorkerConfig,
    mut shutdown: watch::Receiver<Shutdown>,
) -> Result<WorkerSummary, WorkerError> {
    let client = gamesweep_proto::connect_lazy(&config.coordinator, config.token.as_deref())?;
    let span = info_span!("worker", worker = %config.worker_id);
    run_inner(config, client, &mut shutdown)
        .instrument(span)
        .await
}

async fn run_inner(
    config: WorkerConfig,
    mut client: Client,
    shutdown: &mut watch::Receiver<Shutdown>,
) -> Result<WorkerSummary, WorkerError> {
    let threads = config.threads.max(1);
    let running: Arc<Mutex<HashMap<Key, Running>>> = Arc::default();
    let lease_ms = Arc::new(AtomicU64::new(10_000));
    let mut tasks: JoinSet<Finished> = JoinSet::new();
    let mut summary = WorkerSummary::default();
    let mut backoff = Duration::from_millis(100);
    let mut next_poll = tokio::time::Instant::now();

    // Heartbeat: renew every held lease at a third of the lease period.
    let renewer = {
        let running = running.clone();
        let lease_ms = lease_ms.clone();
        let mut client = client.clone();
        let worker_id = config.worker_id.clone();
        tokio::spawn(
            async move {
                loop {
                    let period = Duration::from_millis((lease_ms.load(Ordering::Relaxed) / 3).max(50));
                    tokio::time::sleep(period).await;
                    let held: Vec<(Key, pb::HeldShard)> = running
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .iter()
                        .map(|(k, r)| {
                            (
                                k.clone(),
                                pb::HeldShard {
                                    sweep_id: k.0.clone(),
                                    index: k.1,
                                    attempt: r.attempt,
                                    progress: r.progress.load(Ordering::Relaxed),
                                },
                            )
                        })
                        .collect();
                    if held.is_empty() {
                        continue;
                    }
                    let req = pb::RenewRequest {
                        worker_id: worker_id.clone(),
                        held: held.iter().map(|h| h.1.clone()).collect(),
                    };
                    match client.renew(req).await {
                        Ok(reply) => {
                            let reply = reply.into_inner();
                            lease_ms.store(reply.lease_ms.max(150), Ordering::Relaxed);
                            let map = running.lock().unwrap_or_else(|e| e.into_inner());
                            for ((key, _), keep) in held.iter().zip(reply.still_held) {
                                if !keep {
                                    if let Some(r) = map.get(key) {
                                        info!(sweep = %key.0, shard = key.1, "lease lost; stopping shard");
                                        r.cancel.store(true, Ordering::Relaxed);
                                    }
                                }
                            }
                        }
                        Err(e) => debug!(error = %e.message(), "renew failed; will retry"),
                    }
                }
            }
            .in_current_span(),
        )
    };

    let result = loop {
        let mode = *shutdown.borrow();
        if mode == Shutdown::Abort {
            for r in running.lock().unwrap_or_else(|e| e.into_inner()).values() {
                r.cancel.store(true, Ordering::Relaxed);
            }
            summary.abandoned += tasks.len() as u64;
            break Ok(());
        }
        if mode == Shutdown::Drain && tasks.is_empty() {
            break Ok(());
        }

        // Lease when there are spare threads.
        let free = threads.saturating_sub(tasks.len());
        if mode == Shutdown::Running && free > 0 && tokio::time::Instant::now() >= next_poll {
            let req = pb::LeaseRequest {
                worker_id: config.worker_id.clone(),
                solver_version: config.solver_version.clone(),
                max_shards: free as u32,
            };
            match client.lease(req).await {
                Ok(reply) => {
                    backoff = Duration::from_millis(100);
                    let reply = reply.into_inner();
                    lease_ms.store(reply.lease_ms.max(150), Ordering::Relaxed);
                    if reply.leases.is_empty() {
                        if reply.idle && config.exit_when_idle && tasks.is_empty() {
                            break Ok(());
                        }
                        // Nothing to do now: poll again soon (sooner while busy,
                        // as shards of other workers may be re-issued).
                        let wait = if reply.idle { 1000 } else { 250 };
                        next_poll = tokio::time::Instant::now() + Duration::from_millis(wait);
                    }
                    for lease in reply.leases {
                        match start(lease, &running) {
                            Ok((key, attempt, params, shard, kind, cancel, progress)) => {
                                let span =
                                    info_span!("shard", sweep = %key.0, shard = key.1, attempt);
                                tasks.spawn_blocking(move || {
                                    let _g = span.enter();
                                    let ctx = ShardCtx::new(&cancel, &progress);
                                    let (t0, c0) = (std::time::Instant::now(), thread_cpu_us());
                                    let result = run_guarded(kind, &params, &shard, &ctx);
                                    let cpu = thread_cpu_us();
                                    Finished {
                                        key,
                                        attempt,
                                        result,
                                        timing: pb::ShardTiming {
                                            wall_us: t0.elapsed().as_micros() as u64,
                                            cpu_us: if c0 > 0 { cpu.saturating_sub(c0) } else { 0 },
                                        },
                                    }
                                });
                            }
                            Err(msg) => warn!("{msg}"),
                        }
                    }
                }
                Err(e) => {
                    if let Some(f) = fatal(&e) {
                        break Err(f);
                    }
                    warn!(error = %e.message(), retry_in_ms = backoff.as_millis() as u64, "cannot lease; coordinator unreachable?");
                    next_poll = tokio::time::Instant::now() + backoff;
                    backoff = (backoff * 2).min(config.max_backoff);
                }
            }
            continue;
        }

        tokio::select! {
            Some(done) = tasks.join_next(), if !tasks.is_empty() => {
                let Ok(done) = done else {
                    // Unreachable in practice (run_guarded catches panics);
                    // the lease of the lost shard expires and it runs elsewhere.
                    continue;
                };
                let cancel = running.lock().unwrap_or_else(|e| e.into_inner()).get(&done.key).map(|r| r.cancel.clone());
                match done.result {
                    Ok(result) => {
                        let req = pb::SubmitRequest {
                            worker_id: config.worker_id.clone(),
                            solver_version: config.solver_version.clone(),
                            sweep_id: done.key.0.clone(),
                            index: done.key.1,
                            attempt: done.attempt,
                            result: result.encode(),
                            timing: Some(done.timing),
                        };
                        let call = |mut c: Client, r: pb::SubmitRequest| async move { c.submit(r).await };
                        match with_retry(&client, &config, &done.key, "submit", req, call, shutdown).await {
                            Ok(Some(r)) if r.accepted => summary.accepted += 1,
                            Ok(Some(_)) => summary.duplicates += 1,
                            Ok(None) => summary.abandoned += 1,
                            Err(e) => {
                                running.lock().unwrap_or_else(|e| e.into_inner()).remove(&done.key);
                                break Err(e);
                            }
                        }
                    }
                    Err(None) => summary.abandoned += 1,
                    Err(Some(why)) => {
                        // Tell the coordinator, which retries the shard a few
                        // times and then sets it aside (visible in status).
                        warn!(sweep = %done.key.0, shard = done.key.1, error = %why, "shard failed");
                        summary.failed += 1;
                        let req = pb::FailRequest {
                            worker_id: config.worker_id.clone(),
                            solver_version: config.solver_version.clone(),
                            sweep_id: done.key.0.clone(),
                            index: done.key.1,
                            attempt: done.attempt,
                            error: why,
                        };
                        let call = |mut c: Client, r: pb::FailRequest| async move { c.fail(r).await };
                        if let Err(e) = with_retry(&client, &config, &done.key, "fail", req, call, shutdown).await {
                            running.lock().unwrap_or_else(|e| e.into_inner()).remove(&done.key);
                            break Err(e);
                        }
                    }
                }
                let _ = cancel;
                running.lock().unwrap_or_else(|e| e.into_inner()).remove(&done.key);
            }
            _ = tokio::time::sleep_until(next_poll), if mode == Shutdown::Running && tasks.len() < threads => {}
            changed = shutdown.changed() => {
                if changed.is_err() {
                    // The sender is gone: nobody can tell us to stop any more; drain.
                    break Ok(());
                }
            }
        }
    };
    renewer.abort();
    info!(
        accepted = summary.accepted,
        duplicates = summary.duplicates,
        abandoned = summary.abandoned,
        failed = summary.failed,
        "worker stopped"
    );
    result.map(|()| summary)
}

#[allow(clippy::type_complexity)]
fn start(
    lease: pb::Lease,
    running: &Mutex<HashMap<Key, Running>>,
) -> Result<
    (
        Key,
        u32,
        sweep::Params,
        sweep::ShardSpec,
        &'static dyn sweep::SweepKind,
        Arc<AtomicBool>,
        Arc<AtomicU64>,
    ),
    String,
> {
    let kind = gamesweep::kinds::find(&lease.kind).map_err(|e| format!("cannot run leased shard: {e}"))?;
    let params = convert::params_from_proto(&lease.params).map_err(|e| e.to_string())?;
    let shard = convert::opt_shard_from_proto(lease.shard).map_err(|e| e.to_string())?;
    let key = (lease.sweep_id, shard.index);
    let cancel = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(AtomicU64::new(0));
    running.lock().unwrap_or_else(|e| e.into_inner()).insert(
        key.clone(),
        Running {
            attempt: lease.attempt,
            cancel: cancel.clone(),
            progress: progress.clone(),
        },
    );
    Ok((key, lease.attempt, params, shard, kind, cancel, progress))
}

/// Send one request (a submit or a failure report), retrying with backoff
/// while the coordinator is unreachable. `Ok(None)`: given up (an abort, or
/// the coordinator rejected the request for good).
#[allow(clippy::too_many_arguments)]
async fn with_retry<Req, Rep, F, Fut>(
    client: &Client,
    config: &WorkerConfig,
    key: &Key,
    what: &str,
    req: Req,
    call: F,
    shutdown: &mut watch::Receiver<Shutdown>,
) -> Result<Option<Rep>, WorkerError>
where
    Req: Clone,
    F: Fn(Client, Req) -> Fut,
    Fut: std::future::Future<Output = Result<tonic::Response<Rep>, tonic::Status>>,
{
    let mut backoff = Duration::from_millis(100);
    loop {
        match call(client.clone(), req.clone()).await {
            Ok(r) => {
                debug!(sweep = %key.0, shard = key.1, what, "sent");
                return Ok(Some(r.into_inner()));
            }
            Err(e) if transient(&e) => {
                warn!(sweep = %key.0, shard = key.1, what, error = %e.message(), "failed to reach the coordinator; retrying");
            }
            Err(e) => {
                if let Some(f) = fatal(&e) {
                    return Err(f);
                }
                warn!(sweep = %key.0, shard = key.1, what, error = %e.message(), "rejected by the coordinator; dropping it");
                return Ok(None);
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(backoff) => {}
            _ = shutdown.changed() => {}
        }
        if *shutdown.borrow() == Shutdown::Abort {
            return Ok(None);
        }
        backoff = (backoff * 2).min(config.max_backoff);
    }
}
