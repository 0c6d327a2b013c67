//! `gamesweep serve`: a coordinator serving sweeps to workers over gRPC,
//! keeping its state in a sled store. The options, as a request for
//! `ops::serve`, which serves until SIGINT or SIGTERM.

use crate::args::parse_duration;
use crate::ops::{self, serve::ServeRequest};
use gamesweep_engine::core::Limits;
use gamesweep_serve::server;
use gamesweep_worker::logging::{self, LogFormat};
use std::net::SocketAddr;
use std::path::PathBuf;
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

impl From<&ServeArgs> for ServeRequest {
    fn from(a: &ServeArgs) -> Self {
        ServeRequest {
            listen: a.listen,
            store: a.store.clone(),
            token_file: a.token_file.clone(),
            worker_token_file: a.worker_token_file.clone(),
            read_token_file: a.read_token_file.clone(),
            tls_cert: a.tls_cert.clone(),
            tls_key: a.tls_key.clone(),
            tls_client_ca: a.tls_client_ca.clone(),
            max_connections: a.max_connections,
            insecure: a.insecure,
            lease_secs: a.lease_secs,
            max_shards_per_worker: a.max_shards_per_worker,
            max_lease_total: a.max_lease_total,
            reclaim_stalled_after: a.reclaim_stalled_after,
            address_file: a.address_file.clone(),
            advertise_host: a.advertise_host.clone(),
            quarantine_on_mismatch: a.quarantine_on_mismatch,
            recount_ppm: a.recount_budget,
            export_every: a.export_every,
            export_dir: a.export_dir.clone(),
            http: a.http,
            search_memory_mib: a.search_memory,
            http_address_file: a.http_address_file.clone(),
            http_login: a.http_login,
            accept_loss: a.accept_loss,
            trust_keys: a.trust_key.clone(),
        }
    }
}

/// Run `serve` until SIGINT or SIGTERM.
pub fn exec(a: ServeArgs) -> anyhow::Result<()> {
    // sled reports a corrupt store itself through `log`; our error says it in one line.
    logging::init(a.log_format, "info,sled=off");
    ops::serve::start(ServeRequest::from(&a))?
        .serve(server::shutdown_signal(), &|line| eprintln!("{line}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::args::parse_duration;

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
}
