//! `gamesweep serve`: a coordinator serving sweeps to workers over gRPC,
//! keeping its state in a sled store.

use crate::connect;
use crate::core::Core;
use crate::error::UsageError;
use crate::server;
use crate::store::SledStore;
use gamesweep_proto::logging::{self, LogFormat};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// `serve` options.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value_t = SocketAddr::from(([127, 0, 0, 1], gamesweep_proto::DEFAULT_PORT)))]
    pub listen: SocketAddr,
    /// Directory of the sled store (created if missing; reused to resume).
    #[arg(long)]
    pub store: PathBuf,
    /// File holding the bearer token every client must send (first line) [default: ~/.gamesweep/token if it exists].
    #[arg(long, env = "GAMESWEEP_TOKEN_FILE", value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// Allow a non-loopback listen address without a token.
    #[arg(long)]
    pub insecure: bool,
    /// Lease length in seconds (workers renew at a third of it).
    #[arg(long, default_value_t = 30.0)]
    pub lease_secs: f64,
    /// Log format.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// Run `serve` until SIGINT or SIGTERM.
pub fn exec(a: ServeArgs) -> anyhow::Result<()> {
    // sled reports a corrupt store itself through `log`; our error says it in one line.
    logging::init(a.log_format, "info,sled=off");
    let token = connect::token(a.token_file.as_ref())?;
    server::check_listen(a.listen, token.is_some(), a.insecure)
        .map_err(|e| UsageError(e.to_string()))?;
    anyhow::ensure!(
        a.lease_secs.is_finite() && a.lease_secs >= 0.2,
        UsageError("--lease-secs must be at least 0.2".into())
    );
    let store = SledStore::open(&a.store).map_err(|e| UsageError(e.to_string()))?;
    let core = Arc::new(Core::open(
        Arc::new(store),
        Duration::from_secs_f64(a.lease_secs),
    )?);
    let rt = connect::runtime()?;
    rt.block_on(async move {
        let listener = server::bind(a.listen).await?;
        let addr = listener.local_addr()?;
        tracing::info!(%addr, store = %a.store.display(), version = core.version(), "coordinator listening");
        server::serve(core, listener, token, server::shutdown_signal()).await?;
        Ok(())
    })
}
