//! The gamesweep worker, as a library: [`run`] leases shards from a
//! coordinator, runs them with the core's shard executor on blocking threads,
//! renews the leases while they run, and submits the results.
//!
//! A worker is stateless: everything it knows comes with its leases, so it
//! can be killed at any moment (its leases expire and the shards go to other
//! workers) and any number of them can join or leave a sweep.

//!
//! Inside: [`cli`] is the command line; the main loop (`worker_loop`) leases,
//! starts and disposes of shards, following pure decisions (`policy`: when
//! to lease, what draining and aborting do) and retrying with backoff
//! (`retry`); `shard` runs one shard guarded against panics; `held` keeps
//! the shards in hand and renews their leases; `memory` is the
//! `--max-memory` cap and its watch; `wire` is the only module that
//! sees protobuf messages.

pub mod cli;
mod config;
mod held;
pub mod logging;
mod memory;
mod policy;
mod retry;
mod shard;
mod wire;
mod worker_loop;

pub use config::{Shutdown, WorkerConfig, WorkerError, WorkerSummary};
pub use shard::thread_cpu_us;
use tokio::sync::watch;
use tracing::{info_span, Instrument};

/// Run a worker until `shutdown` says stop (or, with `exit_when_idle`, until
/// the coordinator has nothing left).
pub async fn run(
    config: WorkerConfig,
    shutdown: watch::Receiver<Shutdown>,
) -> Result<WorkerSummary, WorkerError> {
    let link = wire::Link::connect(&config)?;
    let span = info_span!("worker", worker = %config.worker_id);
    worker_loop::run(config, link, shutdown)
        .instrument(span)
        .await
}
