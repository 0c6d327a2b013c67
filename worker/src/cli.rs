//! Command-line face of the worker, shared by `gamesweep-worker` and
//! `gamesweep worker`.

use crate::{Shutdown, WorkerConfig};
use gamesweep_proto::logging::{self, LogFormat};
use std::path::PathBuf;
use tokio::sync::watch;

/// Options of a worker process.
#[derive(clap::Args, Debug, Clone)]
pub struct WorkerArgs {
    /// Coordinator URL [default: $GAMESWEEP_COORDINATOR or http://127.0.0.1:7461].
    #[arg(long)]
    pub coordinator: Option<String>,
    /// Shards to run at once [default: number of cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// File holding the coordinator's bearer token (first line).
    #[arg(long)]
    pub token_file: Option<PathBuf>,
    /// Worker id shown by `status` [default: HOST-PID].
    #[arg(long)]
    pub id: Option<String>,
    /// Exit when the coordinator has no unfinished sweep (instead of waiting for one).
    #[arg(long)]
    pub exit_when_idle: bool,
    /// Pretend to be another solver build (for testing the version check only).
    #[arg(long, hide = true)]
    pub fake_solver_version: Option<String>,
}

/// Build the worker's settings from its options.
pub fn config(args: &WorkerArgs) -> anyhow::Result<WorkerConfig> {
    let url = args
        .coordinator
        .clone()
        .unwrap_or_else(gamesweep_proto::default_url);
    let mut c = WorkerConfig::new(url);
    if let Some(t) = args.threads {
        anyhow::ensure!(t >= 1, "--threads must be at least 1");
        c.threads = t;
    }
    if let Some(p) = &args.token_file {
        c.token = Some(
            gamesweep_proto::read_token_file(p)
                .map_err(|e| anyhow::anyhow!("cannot read token file {}: {e}", p.display()))?,
        );
    }
    if let Some(id) = &args.id {
        c.worker_id = id.clone();
    }
    if let Some(v) = &args.fake_solver_version {
        c.solver_version = v.clone();
    }
    c.exit_when_idle = args.exit_when_idle;
    Ok(c)
}

/// Run a worker process: the first SIGINT/SIGTERM drains (no new leases, the
/// shards in hand finish and are submitted), a second one aborts.
pub fn run_process(args: &WorkerArgs) -> anyhow::Result<()> {
    let config = config(args)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let (tx, rx) = watch::channel(Shutdown::Running);
        tokio::spawn(async move {
            let mut term = signal_stream();
            for next in [Shutdown::Drain, Shutdown::Abort] {
                term.recv().await;
                tracing::info!(?next, "signal received");
                let _ = tx.send(next);
            }
        });
        tracing::info!(coordinator = %config.coordinator, threads = config.threads, worker = %config.worker_id, "worker starting");
        crate::run(config, rx).await?;
        Ok(())
    })
}

/// SIGINT or SIGTERM, as a stream of unit events.
struct Signals {
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    async fn recv(&mut self) {
        #[cfg(unix)]
        if let Some(t) = self.term.as_mut() {
            tokio::select! {
                _ = t.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn signal_stream() -> Signals {
    Signals {
        #[cfg(unix)]
        term: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok(),
    }
}

#[derive(clap::Parser, Debug)]
#[command(
    name = "gamesweep-worker",
    version,
    about = "Stateless gamesweep worker: leases shards from a coordinator, runs them, submits the results"
)]
struct Cli {
    #[command(flatten)]
    worker: WorkerArgs,
    /// Log format.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

/// `gamesweep-worker`'s main: returns the exit code.
pub fn main_with(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    use clap::Parser;
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    logging::init(cli.log_format, "info");
    match run_process(&cli.worker) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("gamesweep-worker: {e:#}");
            1
        }
    }
}
