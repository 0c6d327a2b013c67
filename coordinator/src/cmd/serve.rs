//! `gamesweep serve`: a coordinator serving sweeps to workers over gRPC,
//! keeping its state in a sled store.

use crate::args::parse_duration;
use crate::connect;
use crate::error::UsageError;
use gamesweep_engine::core::{Core, Limits};
use gamesweep_engine::store::ResilientStore;
use gamesweep_serve::access::Tokens;
use gamesweep_serve::http;
use gamesweep_serve::server;
use gamesweep_worker::logging::{self, LogFormat};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tonic::transport::{Certificate, Identity, ServerTlsConfig};

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
    /// File holding the worker token (first line): it may only lease, renew, release, submit and fail. With it (or --read-token-file), the --token-file token is the admin token (launch, cancel, read) and no longer does a worker's calls.
    #[arg(long, env = "GAMESWEEP_WORKER_TOKEN_FILE", value_name = "FILE")]
    pub worker_token_file: Option<PathBuf>,
    /// File holding the read-only token (first line): status, results and projections.
    #[arg(long, env = "GAMESWEEP_READ_TOKEN_FILE", value_name = "FILE")]
    pub read_token_file: Option<PathBuf>,
    /// Serve TLS with this certificate chain (PEM); clients then use an https:// URL.
    #[arg(long, value_name = "PEM", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM).
    #[arg(long, value_name = "PEM", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Require a client certificate signed by this CA (PEM) from every client (mutual TLS).
    #[arg(long, value_name = "PEM", requires = "tls_cert")]
    pub tls_client_ca: Option<PathBuf>,
    /// The most connections kept open; over it, the connection silent longest is closed. Lowered to fit the open-file limit (less 64).
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_MAX_CONNECTIONS)]
    pub max_connections: usize,
    /// Allow a non-loopback listen address without a token.
    #[arg(long)]
    pub insecure: bool,
    /// Lease length in seconds (workers renew at a third of it).
    #[arg(long, default_value_t = 30.0)]
    pub lease_secs: f64,
    /// Most unexpired leases one identity may hold at once (an issued credential, or every worker under the shared worker token together); a lease request for more gets what is left under it.
    #[arg(long, default_value_t = Limits::default().max_shards_per_worker, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_shards_per_worker: u32,
    /// Longest a lease may be held, renewals included (e.g. `2h`, `90m`, `600s`, `600`); then it is not renewed and its shard is handed out again. Keep it far above the longest shard.
    #[arg(long, value_name = "DURATION", default_value = "2h", value_parser = parse_duration)]
    pub max_lease_total: Duration,
    /// Take back a lease whose reported progress has not grown for this long (e.g. `10m`, `90s`) while another identity or worker waits for shards, and hand it to the waiting one (never straight back to its holder). At least twice --lease-secs; keep it above the longest a shard goes without reporting progress. See docs/trust.md, "Fair shares".
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = parse_duration)]
    pub reclaim_stalled_after: Duration,
    /// Once listening, write the URL workers should use (`http://HOST:PORT`) to this file, replacing it atomically; removed again on a clean exit. Workers given `--coordinator-file FILE` find the coordinator through it, also after it moved to another host.
    #[arg(long, value_name = "FILE")]
    pub address_file: Option<PathBuf>,
    /// The host name or address written to --address-file [default: this host's name when listening on all interfaces, else the listen address].
    #[arg(long, value_name = "HOST", requires = "address_file")]
    pub advertise_host: Option<String>,
    /// Log format.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Quarantine a worker out-voted on a verified shard: it gets no more leases, and every result already accepted from it (in sweeps not finished) is run again by other workers before its sweep can finish.
    #[arg(long)]
    pub quarantine_on_mismatch: bool,
    /// Share of one core the coordinator spends recounting submitted results where the kind knows a cheap truth (uvg: each shard's graphs of each size, by enumerating them, about 2 % of solving them), e.g. `5%` or `0.05`; 0 turns it off. A result the recount contradicts is refused and its identity loses trust; beyond the budget, results are taken without a recount (replication covers them).
    #[arg(long, value_name = "SHARE", default_value = "5%", value_parser = crate::args::parse_recount_budget)]
    pub recount_budget: u32,
    /// Write a checkpoint export of every sweep whose finished shards
    /// changed, every DURATION (e.g. 10m), to `--export-dir DIR` as
    /// `DIR/<sweep-id>.gsx`: atomically (a temporary file in DIR, fsynced,
    /// renamed over the old one), so a crash leaves the previous checkpoint.
    /// `gamesweep import DIR/<sweep-id>.gsx` resumes the sweep elsewhere.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, requires = "export_dir")]
    pub export_every: Option<Duration>,
    /// Serve the read-only dashboard (a web page) on this address too, e.g.
    /// `127.0.0.1:7462` (port 0 picks a free port). On a non-loopback
    /// address it asks for the read (or admin) token through a login form;
    /// with --tls-cert it is served over HTTPS with the same settings as gRPC.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<SocketAddr>,
    /// Memory one search of the dashboard's boards past their budget may
    /// hold, in MiB (searches run one at a time, and only for callers on
    /// loopback or logged in).
    #[arg(long, value_name = "MIB", default_value_t = gamesweep_serve::explore::values::SEARCH_MEMORY_DEFAULT >> 20, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub search_memory: u64,
    /// Once the dashboard listens, write its URL to this file (replaced
    /// atomically, removed on a clean exit).
    #[arg(long, value_name = "FILE", requires = "http")]
    pub http_address_file: Option<PathBuf>,
    /// Ask for the token on the dashboard even on a loopback address (for tests).
    #[arg(long, hide = true, requires = "http")]
    pub http_login: bool,
    /// Start even if the store lost acknowledged work (damaged on disk):
    /// re-create lost sweep records from the store's journal and run exactly
    /// the lost shards again (logged at warn, and written to the audit log).
    /// Without it such a store is refused with a message naming the damage.
    #[arg(long)]
    pub accept_loss: bool,
    /// Folder of the `--export-every` checkpoints (created if missing).
    #[arg(long, value_name = "DIR", requires = "export_every")]
    pub export_dir: Option<PathBuf>,
    /// Trust export files signed by the key in FILE (written by `gamesweep
    /// key export` on the coordinator that made them) on gRPC import, besides
    /// this store's own key; repeatable. Other files import as untrusted:
    /// every imported result is re-run by a worker (see docs/trust.md).
    #[arg(long, value_name = "FILE")]
    pub trust_key: Vec<PathBuf>,
}

/// The longest lease `--lease-secs` accepts: a day (much longer would
/// overflow the deadlines computed from it).
const MAX_LEASE_SECS: f64 = 86_400.0;

/// Run `serve` until SIGINT or SIGTERM.
pub fn exec(a: ServeArgs) -> anyhow::Result<()> {
    // sled reports a corrupt store itself through `log`; our error says it in one line.
    logging::init(a.log_format, "info,sled=off");
    let token = connect::token(a.token_file.as_ref())?;
    let role_token = |f: &Option<PathBuf>| -> anyhow::Result<Option<String>> {
        f.as_ref()
            .map(|p| {
                gamesweep_proto::read_token_file(p).map_err(|e| {
                    UsageError(format!("cannot read token file {}: {e}", p.display())).into()
                })
            })
            .transpose()
    };
    let tokens = Tokens::new(
        token.clone(),
        role_token(&a.worker_token_file)?,
        role_token(&a.read_token_file)?,
    )
    .map_err(|e| UsageError(e.to_string()))?;
    server::check_listen(a.listen, token.is_some(), a.insecure)
        .map_err(|e| UsageError(e.to_string()))?;
    let tls = server_tls(&a)?;
    if let Some(addr) = a.http {
        server::check_listen(addr, token.is_some(), a.insecure)
            .map_err(|e| UsageError(format!("--http: {e}")))?;
    }
    let http_tls = match (&a.http, &a.tls_cert, &a.tls_key) {
        (Some(_), Some(cert), Some(key)) => {
            let ca = a
                .tls_client_ca
                .as_ref()
                .map(|p| pem("--tls-client-ca", p))
                .transpose()?;
            Some(
                http::tls_config(
                    &pem("--tls-cert", cert)?,
                    &pem("--tls-key", key)?,
                    ca.as_deref(),
                )
                .map_err(UsageError)?,
            )
        }
        _ => None,
    };
    let http_opts = a.http.map(|addr| http::HttpOptions {
        login: a.http_login || http::needs_login(addr, &tokens),
        tokens: tokens.clone(),
        tls: http_tls,
        search_memory: Some(a.search_memory << 20),
        ..Default::default()
    });
    anyhow::ensure!(
        (0.2..=MAX_LEASE_SECS).contains(&a.lease_secs),
        UsageError(format!(
            "--lease-secs must be between 0.2 and {MAX_LEASE_SECS} (got {})",
            a.lease_secs
        ))
    );
    // The addresses first: a taken one is refused before anything starts
    // (or logs).
    let rt = connect::runtime()?;
    let (http_listener, listener) = rt.block_on(async {
        let http_listener = match a.http {
            Some(addr) => Some(http::bind(addr).await?),
            None => None,
        };
        let listener = server::bind(a.listen).await?;
        anyhow::Ok((http_listener, listener))
    })?;
    // Reopened in-process when writes fail (a full disk), so they resume
    // without a restart once there is room.
    // Checked first: a damaged store is refused, or salvaged with --accept-loss.
    let store: Arc<dyn gamesweep_engine::store::Store> = Arc::new(
        ResilientStore::open_sled_for_start(&a.store, a.accept_loss)
            .map_err(|e| UsageError(e.to_string()))?
            .0,
    );
    anyhow::ensure!(
        a.max_lease_total.as_secs_f64() >= a.lease_secs,
        UsageError(format!(
            "--max-lease-total ({} s) must be at least --lease-secs ({} s)",
            a.max_lease_total.as_secs_f64(),
            a.lease_secs
        ))
    );
    anyhow::ensure!(
        a.reclaim_stalled_after.as_secs_f64() >= 2.0 * a.lease_secs,
        UsageError(format!(
            "--reclaim-stalled-after ({} s) must be at least twice --lease-secs ({} s): workers report progress only when they renew",
            a.reclaim_stalled_after.as_secs_f64(),
            a.lease_secs
        ))
    );
    let core = Arc::new(
        Core::open_recovering(
            store.clone(),
            Duration::from_secs_f64(a.lease_secs),
            Arc::new(gamesweep_engine::core::SystemClock),
            &gamesweep_engine::core::Recovery {
                accept_loss: a.accept_loss,
                store_dir: Some(a.store.clone()),
            },
        )
        .map_err(crate::embedded::damaged_is_usage)?
        .with_limits(Limits {
            max_shards_per_worker: a.max_shards_per_worker,
            max_lease_total: a.max_lease_total,
            stall_after: a.reclaim_stalled_after,
        }),
    );
    core.set_quarantine_on_mismatch(a.quarantine_on_mismatch);
    core.set_recount_share(f64::from(a.recount_budget) / 1e6);
    // Issued credentials (`gamesweep token issue`) are looked up next to
    // the shared role tokens; without an admin token none can be issued.
    let tokens = tokens.with_credentials(core.credentials());
    if tokens.shared_worker_token() {
        tracing::warn!(
            "a shared token grants the worker role: results under it never count as independent confirmation, and one holder can claim any worker id; issue per-worker credentials with `gamesweep token issue --role worker --name NAME`"
        );
    }
    let trusted = gamesweep_engine::export_file::read_key_files(&a.trust_key)
        .map_err(|e| UsageError(e.to_string()))?;
    tracing::info!(key = %core.signing_key(), trusted = trusted.len(), "exports are signed with this store's key; imports trust it and --trust-key");
    core.trust_keys(trusted);
    rt.block_on(async move {
        let addr = listener.local_addr()?;
        tracing::info!(%addr, store = %a.store.display(), version = core.version(), "coordinator listening");
        let published = match &a.address_file {
            Some(file) => {
                let url = advertised_url(addr, a.advertise_host.as_deref(), a.tls_cert.is_some());
                publish(file, &url)?;
                tracing::info!(%url, file = %file.display(), "address published");
                Some((file.clone(), url))
            }
            None => None,
        };
        let scheme = if tls.is_some() { "https" } else { "http" };
        let dashboard = match (http_listener, http_opts) {
            (Some(listener), Some(opts)) => {
                let url = http::url(listener.local_addr()?, opts.tls.is_some());
                tracing::info!(%url, login = opts.login, "dashboard listening");
                eprintln!("gamesweep: dashboard: {url}");
                if let Some(file) = &a.http_address_file {
                    publish_as("--http-address-file", file, &url)?;
                }
                let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
                let task = tokio::spawn(http::serve(core.clone(), listener, opts, async {
                    let _ = stopped.await;
                }));
                Some((stop, task))
            }
            _ => None,
        };
        let opts = server::ServeOptions {
            tokens,
            tls,
            max_connections: a.max_connections,
            audit: Some(store),
        };
        tracing::info!(scheme, "serving");
        let checkpoints = match (a.export_every, &a.export_dir) {
            (Some(every), Some(dir)) => {
                std::fs::create_dir_all(dir).map_err(|e| {
                    UsageError(format!("cannot create --export-dir {}: {e}", dir.display()))
                })?;
                Some(tokio::spawn(server::checkpoint_loop(
                    core.clone(),
                    every,
                    server::Checkpoint::Dir(dir.clone()),
                )))
            }
            _ => None,
        };
        server::serve_with(core, listener, opts, server::shutdown_signal()).await?;
        if let Some(task) = checkpoints {
            task.abort();
        }
        if let Some((stop, task)) = dashboard {
            let _ = stop.send(());
            let _ = task.await;
            if let Some(file) = &a.http_address_file {
                let _ = std::fs::remove_file(file);
            }
        }
        if let Some((file, url)) = published {
            // Only our own address: a coordinator started since may have replaced it.
            if std::fs::read_to_string(&file).is_ok_and(|t| t.trim() == url) {
                let _ = std::fs::remove_file(&file);
            }
        }
        Ok(())
    })
}

/// The URL workers reach a coordinator listening on `addr` at: `host` if
/// given, else this host's name for a wildcard address, else the address.
fn advertised_url(addr: SocketAddr, host: Option<&str>, tls: bool) -> String {
    let host = match host {
        Some(h) => h.to_string(),
        None if addr.ip().is_unspecified() => host_name(),
        None => match addr.ip() {
            std::net::IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        },
    };
    let scheme = if tls { "https" } else { "http" };
    format!("{scheme}://{host}:{}", addr.port())
}

/// Read a PEM file given to option `option`.
fn pem(option: &str, path: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    let bytes = std::fs::read(path)
        .map_err(|e| UsageError(format!("cannot read {option} {}: {e}", path.display())))?;
    anyhow::ensure!(
        String::from_utf8_lossy(&bytes).contains("-----BEGIN "),
        UsageError(format!(
            "{option} {} is not a PEM file (no -----BEGIN line)",
            path.display()
        ))
    );
    Ok(bytes)
}

/// The server's TLS settings from `--tls-cert`, `--tls-key`, `--tls-client-ca`.
fn server_tls(a: &ServeArgs) -> anyhow::Result<Option<ServerTlsConfig>> {
    let (Some(cert), Some(key)) = (&a.tls_cert, &a.tls_key) else {
        return Ok(None);
    };
    let mut tls = ServerTlsConfig::new().identity(Identity::from_pem(
        pem("--tls-cert", cert)?,
        pem("--tls-key", key)?,
    ));
    if let Some(ca) = &a.tls_client_ca {
        tls = tls.client_ca_root(Certificate::from_pem(pem("--tls-client-ca", ca)?));
    }
    Ok(Some(tls))
}

/// This machine's host name (`localhost` if it cannot be told).
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

/// Write `url` to `file` atomically (a reader sees the old or the new
/// content, never half of it).
fn publish(file: &std::path::Path, url: &str) -> anyhow::Result<()> {
    publish_as("--address-file", file, url)
}

/// [`publish`], naming `option` in its error.
fn publish_as(option: &str, file: &std::path::Path, url: &str) -> anyhow::Result<()> {
    let name = file
        .file_name()
        .map_or_else(|| "address".into(), |n| n.to_string_lossy().into_owned());
    let tmp = file.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, format!("{url}\n"))
        .and_then(|()| std::fs::rename(&tmp, file))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            UsageError(format!("cannot write {option} {}: {e}", file.display())).into()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_with_units_and_bad_ones_say_why() {
        let secs = |t: &str| parse_duration(t).map(|d| d.as_secs());
        assert_eq!(secs("2h"), Ok(7_200));
        assert_eq!(secs("90m"), Ok(5_400));
        assert_eq!(secs("600s"), Ok(600));
        assert_eq!(secs("600"), Ok(600));
        assert_eq!(secs("1d"), Ok(86_400));
        for bad in [
            "",
            "h",
            "2x",
            "-1h",
            "1.5h",
            "0",
            "366d",
            "99999999999999999999",
        ] {
            let e = secs(bad).unwrap_err();
            assert!(e.contains(&format!("`{bad}`")), "{bad}: {e}");
        }
    }

    #[test]
    fn the_advertised_url_names_a_reachable_host() {
        let at = |s: &str| s.parse::<SocketAddr>().unwrap();
        assert_eq!(
            advertised_url(at("10.1.2.3:7461"), None, false),
            "http://10.1.2.3:7461"
        );
        assert_eq!(
            advertised_url(at("[::1]:80"), None, false),
            "http://[::1]:80"
        );
        assert_eq!(
            advertised_url(at("0.0.0.0:7461"), Some("node17"), true),
            "https://node17:7461"
        );
        let wildcard = advertised_url(at("0.0.0.0:9"), None, false);
        assert_eq!(wildcard, format!("http://{}:9", host_name()));
        assert!(!wildcard.contains("0.0.0.0"), "{wildcard}");
    }

    #[test]
    fn the_address_file_is_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("coordinator.url");
        std::fs::write(&file, "http://old:1\n").unwrap();
        publish(&file, "http://new:2").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "http://new:2\n");
        let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary file left behind");
        let err = publish(&dir.path().join("no/such/dir/f"), "http://x:1").unwrap_err();
        assert!(
            err.to_string().starts_with("cannot write --address-file "),
            "{err}"
        );
    }
}
