//! The worker's public settings and outcomes: how it is configured, asked
//! to stop, and what it reports.

use std::time::Duration;

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
    /// Coordinator URL, e.g. `http://127.0.0.1:7461` (unused with `coordinator_file`).
    pub coordinator: String,
    /// A file whose first line is the coordinator URL, read at start and
    /// again whenever the coordinator cannot be reached (a requeued
    /// coordinator may come back on another host).
    pub coordinator_file: Option<std::path::PathBuf>,
    /// Bearer token, if the coordinator wants one.
    pub token: Option<String>,
    /// TLS files for an `https://` coordinator (CA, client certificate).
    pub tls: gamesweep_proto::TlsFiles,

    /// Shards run at once (one blocking thread each).
    pub threads: usize,
    /// This worker's id as the coordinator shows it.
    pub worker_id: String,
    /// Solver versions sent with leases and submits (normally
    /// [`gamesweep_api::SolverVersions::of_this_build`]).
    pub solver_versions: gamesweep_api::SolverVersions,
    /// Longest wait between attempts to reach an unreachable coordinator.
    pub max_backoff: Duration,
    /// Return (instead of polling) when the coordinator has no unfinished sweep.
    pub exit_when_idle: bool,
    /// With `exit_when_idle`: a worker that has not yet seen an unfinished
    /// sweep waits this long after its start for one to be launched.
    pub idle_grace: Duration,
    /// Give up (return [`WorkerError::Unreachable`]) once the coordinator
    /// has not answered for this long; `None`: never.
    pub give_up_after: Option<Duration>,
    /// Cap on the process's resident memory in bytes: above it the shards
    /// in hand are stopped and reported as failures. `None`: no cap.
    pub max_memory: Option<u64>,
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
            tls: gamesweep_proto::TlsFiles::default(),
            threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            worker_id: format!("{host}-{}", std::process::id()),
            solver_versions: gamesweep_api::SolverVersions::of_this_build(),
            max_backoff: Duration::from_secs(10),
            exit_when_idle: false,
            idle_grace: Duration::from_secs(60),
            give_up_after: None,
            max_memory: None,
            coordinator_file: None,
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
    /// The coordinator did not answer for longer than `give_up_after`.
    #[error("the coordinator at {coordinator} has not answered for {secs} s; giving up (--give-up-after)")]
    Unreachable {
        /// Its URL, or where the URL was to be read.
        coordinator: String,
        /// How long it had not answered.
        secs: u64,
    },
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
