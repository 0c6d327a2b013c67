//! A coordinator serving sweeps to workers over gRPC (`gamesweep serve`),
//! its state in a sled store: [`start`] checks a [`ServeRequest`] (tokens,
//! TLS files, lease bounds, listen addresses), binds the addresses and
//! opens the store and the core (a damaged store refused, or salvaged with
//! `accept_loss`); [`Coordinator::serve`] then serves (the dashboard and
//! `--export-every`'s checkpoints too, its address published to
//! `--address-file`) until the shutdown future completes, and answers
//! [`Served`].

use crate::connect;
use crate::embedded;
use crate::error::UsageError;
use gamesweep_engine::core::{Core, Limits};
use gamesweep_engine::store::ResilientStore;
use gamesweep_serve::access::Tokens;
use gamesweep_serve::http;
use gamesweep_serve::server;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tonic::transport::{Certificate, Identity, ServerTlsConfig};

/// How to serve: `serve`'s options, typed (each field is the option of its
/// name; see `gamesweep serve --help`).
#[derive(Clone, Debug)]
pub struct ServeRequest {
    /// Address to listen on (`--listen`).
    pub listen: SocketAddr,
    /// Directory of the sled store (`--store`; created if missing).
    pub store: PathBuf,
    /// The admin token's file (`--token-file`; `None`: `~/.gamesweep/token`
    /// if it exists).
    pub token_file: Option<PathBuf>,
    /// The worker token's file (`--worker-token-file`).
    pub worker_token_file: Option<PathBuf>,
    /// The read-only token's file (`--read-token-file`).
    pub read_token_file: Option<PathBuf>,
    /// TLS certificate chain, PEM (`--tls-cert`).
    pub tls_cert: Option<PathBuf>,
    /// Its private key, PEM (`--tls-key`).
    pub tls_key: Option<PathBuf>,
    /// CA every client's certificate must be signed by (`--tls-client-ca`).
    pub tls_client_ca: Option<PathBuf>,
    /// The most connections kept open (`--max-connections`).
    pub max_connections: usize,
    /// Allow a non-loopback address without a token (`--insecure`).
    pub insecure: bool,
    /// Lease length in seconds (`--lease-secs`).
    pub lease_secs: f64,
    /// Most unexpired leases per identity (`--max-shards-per-worker`).
    pub max_shards_per_worker: u32,
    /// Longest a lease may be held, renewals included (`--max-lease-total`).
    pub max_lease_total: Duration,
    /// Take back a lease stalled this long (`--reclaim-stalled-after`).
    pub reclaim_stalled_after: Duration,
    /// Where to publish the workers' URL (`--address-file`).
    pub address_file: Option<PathBuf>,
    /// The host written there (`--advertise-host`).
    pub advertise_host: Option<String>,
    /// Quarantine a worker out-voted on a verified shard
    /// (`--quarantine-on-mismatch`).
    pub quarantine_on_mismatch: bool,
    /// Share of one core spent recounting results, millionths
    /// (`--recount-budget`).
    pub recount_ppm: u32,
    /// Checkpoint every sweep this often (`--export-every`, with
    /// `export_dir`).
    pub export_every: Option<Duration>,
    /// The checkpoints' folder (`--export-dir`).
    pub export_dir: Option<PathBuf>,
    /// Serve the dashboard on this address too (`--http`).
    pub http: Option<SocketAddr>,
    /// Memory one search of the dashboard may hold, MiB (`--search-memory`).
    pub search_memory_mib: u64,
    /// Where to publish the dashboard's URL (`--http-address-file`).
    pub http_address_file: Option<PathBuf>,
    /// Ask for the token on the dashboard even on loopback (`--http-login`).
    pub http_login: bool,
    /// Start on a store that lost acknowledged work (`--accept-loss`).
    pub accept_loss: bool,
    /// Key files whose exports are trusted on import (`--trust-key`).
    pub trust_keys: Vec<PathBuf>,
}

/// A coordinator ready to serve: its addresses bound, its store and core
/// open.
pub struct Coordinator {
    request: ServeRequest,
    rt: tokio::runtime::Runtime,
    core: Arc<Core>,
    listener: tokio::net::TcpListener,
    options: server::ServeOptions,
    dashboard_on: Option<(tokio::net::TcpListener, http::HttpOptions)>,
}

/// What a coordinator served on, once it stopped.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Served {
    /// The gRPC address it listened on.
    pub addr: SocketAddr,
    /// The dashboard's URL, if it served one.
    pub dashboard: Option<String>,
}

/// Check `a` and get a coordinator ready: every option checked, the
/// addresses bound (a taken one is refused before anything starts or
/// logs), the store opened (a damaged one refused unless `accept_loss`)
/// and the core recovered over it. Errors are one line, usage errors
/// (exit code 2) where the options are at fault.
pub fn start(a: ServeRequest) -> anyhow::Result<Coordinator> {
    let token = connect::token(a.token_file.as_ref())?;
    let tokens = role_tokens(&a, token.clone())?;
    server::check_listen(a.listen, token.is_some(), a.insecure)
        .map_err(|e| UsageError(e.to_string()))?;
    let tls = server_tls(&a)?;
    let http_opts = http_options(&a, &tokens, token.is_some())?;
    check_lease_options(&a)?;
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
    let core = open_core(&a, store.clone())?;
    // Issued credentials (`gamesweep token issue`) are looked up next to
    // the shared role tokens; without an admin token none can be issued.
    let tokens = tokens.with_credentials(core.credentials());
    if tokens.shared_worker_token() {
        tracing::warn!(
            "a shared token grants the worker role: results under it never count as independent confirmation, and one holder can claim any worker id; issue per-worker credentials with `gamesweep token issue --role worker --name NAME`"
        );
    }
    let options = server::ServeOptions {
        tokens,
        tls,
        max_connections: a.max_connections,
        audit: Some(store),
    };
    Ok(Coordinator {
        request: a,
        rt,
        core,
        listener,
        options,
        dashboard_on: http_listener.zip(http_opts),
    })
}

impl Coordinator {
    /// The gRPC address it listens on.
    pub fn addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serve until `shutdown` completes (the CLI's: SIGINT or SIGTERM);
    /// `say` gets the lines the CLI prints to standard error meanwhile (the
    /// dashboard's URL). The addresses published are removed at the end.
    pub fn serve(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send,
        say: &dyn Fn(&str),
    ) -> anyhow::Result<Served> {
        let Coordinator {
            request,
            rt,
            core,
            listener,
            options,
            dashboard_on,
        } = self;
        rt.block_on(serve(
            &request,
            core,
            listener,
            options,
            dashboard_on,
            shutdown,
            say,
        ))
    }
}

/// The longest lease `--lease-secs` accepts: a day (much longer would
/// overflow the deadlines computed from it).
const MAX_LEASE_SECS: f64 = 86_400.0;

/// The role tokens: the admin `token`, `--worker-token-file`'s and
/// `--read-token-file`'s.
fn role_tokens(a: &ServeRequest, token: Option<String>) -> anyhow::Result<Tokens> {
    let role_token = |f: &Option<PathBuf>| -> anyhow::Result<Option<String>> {
        f.as_ref()
            .map(|p| {
                gamesweep_proto::read_token_file(p).map_err(|e| {
                    UsageError(format!("cannot read token file {}: {e}", p.display())).into()
                })
            })
            .transpose()
    };
    Ok(Tokens::new(
        token,
        role_token(&a.worker_token_file)?,
        role_token(&a.read_token_file)?,
    )
    .map_err(|e| UsageError(e.to_string()))?)
}

/// The dashboard's options with `--http` (its address checked as the
/// gRPC one is, TLS as the gRPC server's), else none.
fn http_options(
    a: &ServeRequest,
    tokens: &Tokens,
    has_token: bool,
) -> anyhow::Result<Option<http::HttpOptions>> {
    let Some(addr) = a.http else {
        return Ok(None);
    };
    server::check_listen(addr, has_token, a.insecure)
        .map_err(|e| UsageError(format!("--http: {e}")))?;
    let tls = match (&a.tls_cert, &a.tls_key) {
        (Some(cert), Some(key)) => {
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
    Ok(Some(http::HttpOptions {
        login: a.http_login || http::needs_login(addr, tokens),
        tokens: tokens.clone(),
        tls,
        search_memory: Some(a.search_memory_mib << 20),
        ..Default::default()
    }))
}

/// `--lease-secs`, `--max-lease-total` and `--reclaim-stalled-after`
/// within their bounds and consistent.
fn check_lease_options(a: &ServeRequest) -> anyhow::Result<()> {
    anyhow::ensure!(
        (0.2..=MAX_LEASE_SECS).contains(&a.lease_secs),
        UsageError(format!(
            "--lease-secs must be between 0.2 and {MAX_LEASE_SECS} (got {})",
            a.lease_secs
        ))
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
    Ok(())
}

/// The core over `store` (recovered from its journal), with the limits,
/// verification settings and trusted keys the options give.
fn open_core(
    a: &ServeRequest,
    store: Arc<dyn gamesweep_engine::store::Store>,
) -> anyhow::Result<Arc<Core>> {
    let core = Arc::new(
        Core::open_recovering(
            store,
            Duration::from_secs_f64(a.lease_secs),
            Arc::new(gamesweep_engine::core::SystemClock),
            &gamesweep_engine::core::Recovery {
                accept_loss: a.accept_loss,
                store_dir: Some(a.store.clone()),
            },
        )
        .map_err(embedded::damaged_is_usage)?
        .with_limits(Limits {
            max_shards_per_worker: a.max_shards_per_worker,
            max_lease_total: a.max_lease_total,
            stall_after: a.reclaim_stalled_after,
        }),
    );
    core.set_quarantine_on_mismatch(a.quarantine_on_mismatch);
    core.set_recount_share(f64::from(a.recount_ppm) / 1e6);
    let trusted = gamesweep_engine::export_file::read_key_files(&a.trust_keys)
        .map_err(|e| UsageError(e.to_string()))?;
    tracing::info!(key = %core.signing_key(), trusted = trusted.len(), "exports are signed with this store's key; imports trust it and --trust-key");
    core.trust_keys(trusted);
    Ok(core)
}

/// Serve until `shutdown`: the gRPC server, the dashboard (with its bound
/// listener), `--export-every`'s checkpoints; the published addresses
/// removed at the end.
async fn serve(
    a: &ServeRequest,
    core: Arc<Core>,
    listener: tokio::net::TcpListener,
    opts: server::ServeOptions,
    dashboard_on: Option<(tokio::net::TcpListener, http::HttpOptions)>,
    shutdown: impl std::future::Future<Output = ()> + Send,
    say: &dyn Fn(&str),
) -> anyhow::Result<Served> {
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
    let scheme = if opts.tls.is_some() { "https" } else { "http" };
    let dashboard = match dashboard_on {
        Some((listener, http_opts)) => Some(start_dashboard(a, &core, listener, http_opts, say)?),
        None => None,
    };
    let dashboard_url = dashboard.as_ref().map(|d| d.2.clone());
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
    server::serve_with(core, listener, opts, shutdown).await?;
    if let Some(task) = checkpoints {
        task.abort();
    }
    if let Some((stop, task, _)) = dashboard {
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
    Ok(Served {
        addr,
        dashboard: dashboard_url,
    })
}

/// The dashboard's task on `listener`, the sender that stops it, and its URL.
type Dashboard = (
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
    String,
);

/// Start the dashboard on `listener` (its URL logged, said and published
/// with `--http-address-file`).
fn start_dashboard(
    a: &ServeRequest,
    core: &Arc<Core>,
    listener: tokio::net::TcpListener,
    opts: http::HttpOptions,
    say: &dyn Fn(&str),
) -> anyhow::Result<Dashboard> {
    let url = http::url(listener.local_addr()?, opts.tls.is_some());
    tracing::info!(%url, login = opts.login, "dashboard listening");
    say(&format!("gamesweep: dashboard: {url}"));
    if let Some(file) = &a.http_address_file {
        publish_as("--http-address-file", file, &url)?;
    }
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(http::serve(core.clone(), listener, opts, async {
        let _ = stopped.await;
    }));
    Ok((stop, task, url))
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
fn server_tls(a: &ServeRequest) -> anyhow::Result<Option<ServerTlsConfig>> {
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
