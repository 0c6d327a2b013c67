//! Logging setup common to the runtime's processes (`gamesweep serve`,
//! `gamesweep run`, `gamesweep worker` and `gamesweep-worker`). It lives in
//! the worker's library because both binaries link it (the `gamesweep`
//! binary runs workers too); it has nothing to do with the protocol.

/// Log output format.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line, with span fields (sweep, shard, worker ids).
    Json,
}

/// Send `tracing` output to stderr in `format`; the level comes from
/// `RUST_LOG` (default `default_level`). A second call does nothing.
pub fn init(format: LogFormat, default_level: &str) {
    use std::io::IsTerminal as _;
    use tracing_subscriber::EnvFilter;
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_level));
    // Colours only on a terminal: log files and journald get plain text.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .try_init(),
    };
}
