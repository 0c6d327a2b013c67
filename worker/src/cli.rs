//! Command-line face of the worker, shared by `gamesweep-worker` and
//! `gamesweep worker`.

use crate::config::{Shutdown, WorkerConfig};
use crate::logging::{self, LogFormat};
use std::path::PathBuf;
use tokio::sync::watch;

/// Options of a worker process.
#[derive(clap::Args, Debug, Clone)]
pub struct WorkerArgs {
    /// Coordinator URL [default: http://127.0.0.1:7461].
    #[arg(long, env = "GAMESWEEP_COORDINATOR", value_name = "URL")]
    pub coordinator: Option<String>,
    /// File whose first line is the coordinator URL (e.g. written by `gamesweep serve --address-file` on a shared filesystem); read again whenever the coordinator cannot be reached, so a coordinator that moved to another host is found. Takes precedence over --coordinator.
    #[arg(long, env = "GAMESWEEP_COORDINATOR_FILE", value_name = "FILE")]
    pub coordinator_file: Option<PathBuf>,
    /// Shards to run at once [default: number of cores].
    #[arg(long, env = "GAMESWEEP_THREADS", value_name = "N")]
    pub threads: Option<usize>,
    /// File holding the coordinator's bearer token (first line) [default: ~/.gamesweep/token if it exists].
    #[arg(long, env = "GAMESWEEP_TOKEN_FILE", value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// TLS files: `--tls-ca`, `--tls-cert`, `--tls-key`.
    #[command(flatten)]
    pub tls: gamesweep_proto::TlsFiles,
    /// Worker id shown by `status` [default: HOST-PID].
    #[arg(long)]
    pub id: Option<String>,
    /// Exit when the coordinator has no unfinished sweep (instead of waiting for one). A worker that has not yet seen a sweep first waits --idle-grace for one to be launched.
    #[arg(long)]
    pub exit_when_idle: bool,
    /// With --exit-when-idle: how long a worker started before any sweep waits for one, in seconds.
    #[arg(
        long,
        env = "GAMESWEEP_IDLE_GRACE",
        value_name = "SECS",
        default_value_t = 60.0
    )]
    pub idle_grace: f64,
    /// Exit with an error once the coordinator has not answered for this many seconds (so a batch allocation is not burnt waiting) [default: wait forever].
    #[arg(long, env = "GAMESWEEP_GIVE_UP_AFTER", value_name = "SECS")]
    pub give_up_after: Option<f64>,
    /// Cap on the worker's resident memory, e.g. 4G, 512M, 2GiB or a number of bytes (units are binary: K, M, G, T, also written KiB, MiB, GiB, TiB). Checked every 50 ms while shards run and before each starts: above the cap, the shards in hand stop and are reported to the coordinator as failed (they are handed out again, or set aside after repeated failures) instead of the machine swapping or the OOM killer taking the worker [default: no cap].
    #[arg(long, env = "GAMESWEEP_MAX_MEMORY", value_name = "SIZE")]
    pub max_memory: Option<String>,
    /// Pretend to be another solver build, every kind at this version (for
    /// testing the version check only).
    #[arg(long, hide = true)]
    pub fake_solver_version: Option<String>,
    /// Accept a --max-memory below the worker's own baseline (for testing
    /// the memory watch only).
    #[arg(long, hide = true)]
    pub allow_low_memory_cap: bool,
}

/// Why a worker process did not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An option's value is out of range or malformed (the message names it).
    #[error("{0}")]
    Option(String),
    /// The token file could not be read.
    #[error("cannot read token file {}: {source}", path.display())]
    TokenFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The async runtime could not start.
    #[error("cannot start the async runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The worker stopped with an error.
    #[error(transparent)]
    Worker(#[from] crate::WorkerError),
}

/// Build the worker's settings from its options.
pub fn config(args: &WorkerArgs) -> Result<WorkerConfig, CliError> {
    let url = args
        .coordinator
        .clone()
        .unwrap_or_else(gamesweep_proto::default_url);
    let mut c = WorkerConfig::new(url);
    c.coordinator_file = args.coordinator_file.clone();
    c.idle_grace = seconds("--idle-grace", args.idle_grace)?;
    c.give_up_after = args
        .give_up_after
        .map(|s| seconds("--give-up-after", s))
        .transpose()?;
    c.max_memory = args
        .max_memory
        .as_deref()
        .map(|s| {
            crate::memory::parse_size(s).map_err(|e| CliError::Option(format!("--max-memory: {e}")))
        })
        .transpose()?;
    if let Some(t) = args.threads {
        if t < 1 {
            return Err(CliError::Option("--threads must be at least 1".into()));
        }
        c.threads = t;
    }
    if let Some(p) = gamesweep_proto::token_file(args.token_file.as_deref()) {
        c.token = Some(
            gamesweep_proto::read_token_file(&p)
                .map_err(|source| CliError::TokenFile { path: p, source })?,
        );
    }
    c.tls = args.tls.clone();
    if let Some(id) = &args.id {
        c.worker_id = id.clone();
    }
    if let Some(v) = &args.fake_solver_version {
        c.solver_versions = c.solver_versions.all_at(v);
    }
    c.exit_when_idle = args.exit_when_idle;
    Ok(c)
}

/// A duration option given in seconds: finite and not negative.
fn seconds(option: &str, secs: f64) -> Result<std::time::Duration, CliError> {
    if !(secs.is_finite() && secs >= 0.0) {
        return Err(CliError::Option(format!(
            "{option} must be a number of seconds, at least 0 (got {secs})"
        )));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

/// Run a worker process: the first SIGINT/SIGTERM drains (no new leases, the
/// shards in hand finish and are submitted), a second one aborts.
pub fn run_process(args: &WorkerArgs) -> Result<(), CliError> {
    let config = config(args)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(CliError::Runtime)?;
    if let (Some(cap), false) = (config.max_memory, args.allow_low_memory_cap) {
        // Measured once the runtime's threads exist: what this process
        // holds before any shard runs.
        if let Some(baseline) = crate::memory::resident_bytes() {
            crate::memory::check_cap(cap, baseline, args.max_memory.as_deref().unwrap_or(""))
                .map_err(|e| CliError::Option(format!("--max-memory: {e}")))?;
        }
    }
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
        let coordinator = match &config.coordinator_file {
            Some(f) => format!("(address in {})", f.display()),
            None => config.coordinator.clone(),
        };
        let max_memory = config.max_memory.map(crate::memory::format_size);
        tracing::info!(%coordinator, threads = config.threads, worker = %config.worker_id, max_memory = max_memory.as_deref().unwrap_or("none"), "worker starting");
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

/// [`main_with`] with `extra_kinds` (defined outside the workspace) added to
/// the kind registry first, so the worker runs their shards: the worker
/// binary of a crate with its own kinds. A registration error is exit code 2.
pub fn main_with_kinds(
    extra_kinds: &'static [&'static dyn gamesweep::sweep::SweepKind],
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> i32 {
    if let Err(e) = gamesweep::kinds::register(extra_kinds) {
        eprintln!("gamesweep-worker: {e}");
        return 2;
    }
    main_with(args)
}

/// [`main_with_kinds`] for games on the graph-game layer defined outside
/// the workspace (each `Layered(YourGame)`), as the coordinator's
/// `main_with_games` takes them.
pub fn main_with_games(
    games: &'static [&'static dyn gamesweep::families::graph_game::GameKind],
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> i32 {
    if let Err(e) = gamesweep::kinds::register_games(games) {
        eprintln!("gamesweep-worker: {e}");
        return 2;
    }
    main_with(args)
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn parse(args: &[&str]) -> Result<WorkerArgs, String> {
        Cli::try_parse_from(std::iter::once("gamesweep-worker").chain(args.iter().copied()))
            .map(|c| c.worker)
            .map_err(|e| e.to_string())
    }

    fn config_of(args: &[&str]) -> Result<WorkerConfig, String> {
        config(&parse(args)?).map_err(|e| format!("{e:#}"))
    }

    /// A file in the temp dir with `text`, removed on drop.
    struct TempFile(PathBuf);
    impl TempFile {
        fn new(name: &str, text: &str) -> Self {
            let path = std::env::temp_dir()
                .join(format!("gamesweep-worker-{}-{name}", std::process::id()));
            std::fs::write(&path, text).unwrap();
            TempFile(path)
        }
        fn arg(&self) -> &str {
            self.0.to_str().unwrap()
        }
    }
    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn options_become_settings() {
        let token = TempFile::new("token", "s3cret\nignored\n");
        let c = config_of(&[
            "--coordinator",
            "http://coord:7461",
            "--threads",
            "3",
            "--id",
            "w7",
            "--token-file",
            token.arg(),
            "--exit-when-idle",
        ])
        .unwrap();
        assert_eq!(c.coordinator, "http://coord:7461");
        assert_eq!((c.threads, c.worker_id.as_str()), (3, "w7"));
        assert_eq!(c.token.as_deref(), Some("s3cret"));
        assert!(c.exit_when_idle);
        assert_eq!(
            c.solver_versions,
            gamesweep_api::SolverVersions::of_this_build()
        );
    }

    #[test]
    fn slurm_options_become_settings() {
        let c = config_of(&[
            "--coordinator-file",
            "/shared/coordinator.url",
            "--idle-grace",
            "2.5",
            "--give-up-after",
            "600",
        ])
        .unwrap();
        assert_eq!(
            c.coordinator_file.as_deref(),
            Some(std::path::Path::new("/shared/coordinator.url"))
        );
        assert_eq!(c.idle_grace, std::time::Duration::from_millis(2500));
        assert_eq!(c.give_up_after, Some(std::time::Duration::from_secs(600)));
        let d = config_of(&[]).unwrap();
        assert_eq!(
            (d.idle_grace.as_secs(), d.give_up_after),
            (60, None),
            "defaults"
        );
        let err = config_of(&["--give-up-after=-1"]).unwrap_err();
        assert_eq!(
            err,
            "--give-up-after must be a number of seconds, at least 0 (got -1)"
        );
        let err = config_of(&["--idle-grace", "inf"]).unwrap_err();
        assert!(err.starts_with("--idle-grace must be"), "{err}");
    }

    #[test]
    fn max_memory_becomes_a_cap_in_bytes() {
        assert_eq!(config_of(&[]).unwrap().max_memory, None, "default: no cap");
        let c = config_of(&["--max-memory", "4G"]).unwrap();
        assert_eq!(c.max_memory, Some(4 << 30));
        let c = config_of(&["--max-memory=512MiB"]).unwrap();
        assert_eq!(c.max_memory, Some(512 << 20));
        assert_eq!(
            config_of(&["--max-memory", "4 gigs"]).unwrap_err(),
            "--max-memory: bad memory size `4 gigs`: unknown unit (e.g. 4G, 512M, 2GiB or a number of bytes)"
        );
        assert_eq!(
            config_of(&["--max-memory", "0"]).unwrap_err(),
            "--max-memory: bad memory size `0`: must be at least 1 byte (e.g. 4G, 512M, 2GiB or a number of bytes)"
        );
    }

    #[test]
    fn zero_threads_is_refused_clearly() {
        assert_eq!(
            config_of(&["--threads", "0"]).unwrap_err(),
            "--threads must be at least 1"
        );
    }

    #[test]
    fn a_bad_token_file_is_named_in_the_error() {
        let missing = std::env::temp_dir().join("gamesweep-worker-no-such-token");
        let err = config_of(&["--token-file", missing.to_str().unwrap()]).unwrap_err();
        assert!(
            err.starts_with(&format!("cannot read token file {}: ", missing.display())),
            "{err}"
        );
        let empty = TempFile::new("empty-token", "\n");
        let err = config_of(&["--token-file", empty.arg()]).unwrap_err();
        assert!(err.contains("is empty"), "{err}");
    }

    #[test]
    fn malformed_options_are_usage_errors() {
        let err = parse(&["--threads", "many"]).unwrap_err();
        assert!(err.contains("invalid value 'many' for '--threads"), "{err}");
        let err = parse(&["--thread", "2"]).unwrap_err();
        assert!(err.contains("unexpected argument '--thread'"), "{err}");
        let args = |a: &[&str]| {
            a.iter()
                .map(Into::into)
                .collect::<Vec<std::ffi::OsString>>()
        };
        assert_eq!(main_with(args(&["gamesweep-worker", "--bogus"])), 2);
        assert_eq!(main_with(args(&["gamesweep-worker", "--version"])), 0);
    }

    #[tokio::test]
    async fn a_bad_coordinator_url_is_refused_before_any_work() {
        let (_tx, rx) = watch::channel(Shutdown::Running);
        let err = crate::run(WorkerConfig::new("coord:7461"), rx)
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "bad coordinator URL `coord:7461`: expected e.g. http://127.0.0.1:7461"
        );
    }
}
