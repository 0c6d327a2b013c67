//! `gamesweep worker`: a worker that leases shards from the coordinator
//! (the same as `gamesweep-worker`).

use gamesweep_worker::cli::WorkerArgs;
use gamesweep_worker::logging::{self, LogFormat};

/// `worker` options.
#[derive(clap::Args, Debug)]
pub struct WorkerCmd {
    #[command(flatten)]
    pub worker: WorkerArgs,
    /// Log format.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// Run `worker` until it is drained or aborted by a signal.
pub fn exec(a: WorkerCmd) -> anyhow::Result<()> {
    logging::init(a.log_format, "info");
    Ok(gamesweep_worker::cli::run_process(&a.worker)?)
}
