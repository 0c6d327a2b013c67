//! The distributed commands: `serve`, `launch`, `status`, `report`, `cancel`
//! and `worker`. Everything but `serve` talks gRPC to `--coordinator URL`
//! (default `$GAMESWEEP_COORDINATOR`, else `http://127.0.0.1:7461`).
//!
//! `status --json` prints one object (keys sorted):
//! `{"coordinator_version": S, "sweeps": [SWEEP...], "workers": [WORKER...]}` with
//! SWEEP = `{"sweep_id", "kind", "params": {name: u64}, "solver_version",
//! "state": "running"|"done"|"cancelled", "shards_total", "shards_pending",
//! "shards_leased", "shards_done", "results_stored", "positions_done",
//! "positions_estimate", "rate" (positions/s), "eta_seconds" (number or null),
//! "counterexamples": {key: total}, "duplicates_ignored"}` and
//! WORKER = `{"worker_id", "alive", "last_seen_ms_ago", "shards_held"}`.

use crate::cli::{parse_kind_args, UsageError};
use crate::core::Core;
use crate::server;
use crate::store::SledStore;
use anyhow::Context as _;
use gamesweep_proto::{convert, pb, Client};
use gamesweep_worker::cli::{LogFormat, WorkerArgs};
use serde_json::json;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The distributed commands (flattened into `gamesweep`'s command list).
#[derive(clap::Subcommand, Debug)]
pub enum RuntimeCommand {
    /// Run a coordinator: serve sweeps to workers over gRPC, keeping state in a sled store.
    Serve(ServeArgs),
    /// Plan a sweep on the coordinator and print its id.
    ///
    /// `gamesweep launch KIND [--param N]... [--name ID] [--shards K]`
    #[command(disable_help_flag = true)]
    Launch(LaunchArgs),
    /// Show progress of one sweep or all.
    Status(StatusArgs),
    /// Fetch a finished sweep's results.json and report.md.
    Report(ReportArgs),
    /// Stop handing out a sweep's shards.
    Cancel(CancelArgs),
    /// Project a sampled sweep's whole cost (launch it with --sample) from the sampled shards done so far.
    Project(ProjectArgs),
    /// Run a worker that leases shards from the coordinator (same as `gamesweep-worker`).
    Worker(WorkerCmd),
}

/// Where the coordinator is and how to authenticate.
#[derive(clap::Args, Debug, Clone)]
pub struct Conn {
    /// Coordinator URL [default: $GAMESWEEP_COORDINATOR or http://127.0.0.1:7461].
    #[arg(long)]
    pub coordinator: Option<String>,
    /// File holding the coordinator's bearer token (first line).
    #[arg(long)]
    pub token_file: Option<PathBuf>,
}

/// `serve` options.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value_t = SocketAddr::from(([127, 0, 0, 1], gamesweep_proto::DEFAULT_PORT)))]
    pub listen: SocketAddr,
    /// Directory of the sled store (created if missing; reused to resume).
    #[arg(long)]
    pub store: PathBuf,
    /// File holding the bearer token every client must send (first line).
    #[arg(long)]
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

/// `launch` arguments: the kind, its parameters, and launch options.
#[derive(clap::Args, Debug)]
pub struct LaunchArgs {
    /// KIND followed by its parameters and `--name ID`, `--shards K`,
    /// `--coordinator URL`, `--token-file F`.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "KIND [OPTIONS]"
    )]
    pub words: Vec<String>,
}

/// `status` options.
#[derive(clap::Args, Debug)]
pub struct StatusArgs {
    /// Sweep id (default: all sweeps).
    pub id: Option<String>,
    /// Print JSON (stable; documented in deploy/README.md).
    #[arg(long)]
    pub json: bool,
    /// Refresh every 2 seconds until the sweeps shown are done or cancelled.
    #[arg(long)]
    pub watch: bool,
    #[command(flatten)]
    pub conn: Conn,
}

/// `report` options.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Sweep id.
    pub id: String,
    /// Output directory [default: runs/<ID>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub conn: Conn,
}

/// `project` options.
#[derive(clap::Args, Debug)]
pub struct ProjectArgs {
    /// Sweep id (launched with `--sample`).
    pub id: String,
    /// Core counts to project wall time for [default: this machine's cores and 64 = 4 machines x 16].
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub cores: Vec<u32>,
    /// Also write projection.json and projection.md into this directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the JSON instead of the Markdown.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub conn: Conn,
}

/// `cancel` options.
#[derive(clap::Args, Debug)]
pub struct CancelArgs {
    /// Sweep id.
    pub id: String,
    #[command(flatten)]
    pub conn: Conn,
}

/// `worker` options.
#[derive(clap::Args, Debug)]
pub struct WorkerCmd {
    #[command(flatten)]
    pub worker: WorkerArgs,
    /// Log format.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// Run a distributed command.
pub fn dispatch(cmd: RuntimeCommand) -> anyhow::Result<()> {
    match cmd {
        RuntimeCommand::Serve(a) => serve(a),
        RuntimeCommand::Launch(a) => launch(a),
        RuntimeCommand::Status(a) => status(a),
        RuntimeCommand::Report(a) => report(a),
        RuntimeCommand::Cancel(a) => cancel(a),
        RuntimeCommand::Project(a) => project(a),
        RuntimeCommand::Worker(a) => {
            gamesweep_worker::cli::init_logging(a.log_format, "info");
            gamesweep_worker::cli::run_process(&a.worker)
        }
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

/// Read `--token-file` if given.
pub fn token(path: Option<&PathBuf>) -> anyhow::Result<Option<String>> {
    path.map(|p| {
        gamesweep_proto::read_token_file(p)
            .map_err(|e| UsageError(format!("cannot read token file {}: {e}", p.display())).into())
    })
    .transpose()
}

/// Connect per `conn` (on `rt`); returns the client and the URL used.
pub fn client(rt: &tokio::runtime::Runtime, conn: &Conn) -> anyhow::Result<(Client, String)> {
    let _in_rt = rt.enter();
    let url = conn
        .coordinator
        .clone()
        .unwrap_or_else(gamesweep_proto::default_url);
    let c = gamesweep_proto::connect_lazy(&url, token(conn.token_file.as_ref())?.as_deref())
        .map_err(|e| UsageError(e.to_string()))?;
    Ok((c, url))
}

/// Turn an RPC error into a one-line message that says what to do.
pub fn rpc_error(url: &str, s: tonic::Status) -> anyhow::Error {
    let msg = s.message().replace('\n', " ");
    match s.code() {
        tonic::Code::Unavailable | tonic::Code::DeadlineExceeded => anyhow::anyhow!(
            "cannot reach the coordinator at {url} ({msg}); start one with `gamesweep serve --store DIR` or point --coordinator / GAMESWEEP_COORDINATOR at it"
        ),
        tonic::Code::InvalidArgument | tonic::Code::NotFound | tonic::Code::AlreadyExists => {
            UsageError(msg).into()
        }
        _ => anyhow::anyhow!("{msg}"),
    }
}

fn serve(a: ServeArgs) -> anyhow::Result<()> {
    // sled reports a corrupt store itself through `log`; our error says it in one line.
    gamesweep_worker::cli::init_logging(a.log_format, "info,sled=off");
    let token = token(a.token_file.as_ref())?;
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
    let rt = runtime()?;
    rt.block_on(async move {
        let listener = server::bind(a.listen).await?;
        let addr = listener.local_addr()?;
        tracing::info!(%addr, store = %a.store.display(), version = core.version(), "coordinator listening");
        server::serve(core, listener, token, server::shutdown_signal()).await?;
        Ok(())
    })
}

fn launch(a: LaunchArgs) -> anyhow::Result<()> {
    let (kind, params, m) = parse_kind_args(&a.words, |c| {
        crate::cli::plan_options(c)
            .arg(
            clap::Arg::new("name")
                .long("name")
                .value_name("ID")
                .help("Sweep id (default: KIND-<number>)"),
        )
        .arg(
            clap::Arg::new("resume")
                .long("resume")
                .help("If a sweep of this --name exists with the same kind and parameters, continue it (without --sample: widen a sampled sweep to its whole plan)")
                .requires("name")
                .action(clap::ArgAction::SetTrue),
        )
        .arg(
            clap::Arg::new("coordinator")
                .long("coordinator")
                .value_name("URL")
                .help("Coordinator URL"),
        )
        .arg(
            clap::Arg::new("token_file")
                .long("token-file")
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help("File holding the bearer token"),
        )
    })?;
    let conn = Conn {
        coordinator: m.get_one::<String>("coordinator").cloned(),
        token_file: m.get_one::<PathBuf>("token_file").cloned(),
    };
    let rt = runtime()?;
    let (mut c, url) = client(&rt, &conn)?;
    let req = pb::LaunchRequest {
        kind: kind.name().to_string(),
        params: convert::params_to_proto(&params),
        name: m.get_one::<String>("name").cloned().unwrap_or_default(),
        target_shards: m.get_one::<u32>("shards").copied().unwrap_or(0),
        resume_existing: m.get_flag("resume"),
        sample: crate::cli::sample_from(&m)?.map(|s| pb::SampleSpec {
            ppm: s.ppm,
            seed: s.seed,
        }),
    };
    let reply = rt
        .block_on(c.launch(req))
        .map_err(|s| rpc_error(&url, s))?
        .into_inner();
    if reply.existing {
        eprintln!("continuing {} ({} shards)", reply.sweep_id, reply.shards);
    } else {
        eprintln!("launched {} with {} shards", reply.sweep_id, reply.shards);
    }
    println!("{}", reply.sweep_id);
    Ok(())
}

/// The JSON form of a status reply (see the module docs).
pub fn status_json(r: &pb::StatusReply) -> serde_json::Value {
    json!({
        "coordinator_version": r.coordinator_version,
        "sweeps": r.sweeps.iter().map(|s| json!({
            "sweep_id": s.sweep_id,
            "kind": s.kind,
            "params": s.params.iter().map(|p| (p.name.clone(), json!(p.value))).collect::<serde_json::Map<_, _>>(),
            "solver_version": s.solver_version,
            "state": s.state,
            "shards_total": s.shards_total,
            "shards_pending": s.shards_pending,
            "shards_leased": s.shards_leased,
            "shards_done": s.shards_done,
            "results_stored": s.results_stored,
            "positions_done": s.positions_done,
            "positions_estimate": s.positions_estimate,
            "rate": s.rate,
            "eta_seconds": if s.eta_seconds >= 0.0 { json!(s.eta_seconds) } else { json!(null) },
            "counterexamples": s.counterexamples.iter().map(|c| (c.key.clone(), json!(c.total))).collect::<serde_json::Map<_, _>>(),
            "duplicates_ignored": s.duplicates_ignored,
            "sample": s.sample.as_ref().map(|m| json!({
                "ppm": m.ppm,
                "seed": m.seed,
                "shards": m.shards,
                "done": m.done,
                "limited": m.limited,
                "estimate": m.estimate,
            })),
            "shards_failed": s.shards_failed,
            "failures": s.failures.iter().map(|f| json!({
                "index": f.index,
                "count": f.count,
                "error": f.error,
                "worker_id": f.worker_id,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "store_bytes": r.store_bytes,
        "coordinator_rss_bytes": r.coordinator_rss_bytes,
        "coordinator_peak_rss_bytes": r.coordinator_peak_rss_bytes,
        "workers": r.workers.iter().map(|w| json!({
            "worker_id": w.worker_id,
            "alive": w.alive,
            "last_seen_ms_ago": w.last_seen_ms_ago,
            "shards_held": w.shards_held,
        })).collect::<Vec<_>>(),
    })
}

fn hms(secs: f64) -> String {
    let s = secs.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Human-readable status.
pub fn status_text(r: &pb::StatusReply) -> String {
    let mut out = String::new();
    if r.sweeps.is_empty() {
        out.push_str("no sweeps (start one with `gamesweep launch KIND ...`)\n");
    }
    for s in &r.sweeps {
        let params: Vec<String> = s
            .params
            .iter()
            .map(|p| format!("{}={}", p.name, p.value))
            .collect();
        out.push_str(&format!(
            "{}  {} {}  [{}]\n",
            s.sweep_id,
            s.kind,
            params.join(" "),
            s.state
        ));
        out.push_str(&format!(
            "  shards: {} done, {} leased, {} pending of {}\n",
            s.shards_done, s.shards_leased, s.shards_pending, s.shards_total
        ));
        let est = if s.positions_estimate > 0 {
            format!(" of ~{}", s.positions_estimate)
        } else {
            String::new()
        };
        let eta = if s.eta_seconds >= 0.0 {
            hms(s.eta_seconds)
        } else {
            "unknown".into()
        };
        out.push_str(&format!(
            "  positions: {}{est}  rate: {:.0}/s  ETA: {eta}\n",
            s.positions_done, s.rate
        ));
        if !s.counterexamples.is_empty() {
            let c: Vec<String> = s
                .counterexamples
                .iter()
                .map(|c| format!("{}={}", c.key, c.total))
                .collect();
            out.push_str(&format!("  counterexamples so far: {}\n", c.join(", ")));
        }
        if let Some(m) = &s.sample {
            out.push_str(&format!(
                "  sample: {}/{} shards done (seed {}, {:.4} % of the estimate){}\n",
                m.done,
                m.shards,
                m.seed,
                m.ppm as f64 / 1e4,
                if m.limited {
                    format!("; only the sample is served: `gamesweep project {}` prices the whole sweep", s.sweep_id)
                } else {
                    "; widened to the whole plan".into()
                }
            ));
        }
        if !s.failures.is_empty() {
            out.push_str(&format!(
                "  failed shards (set aside after repeated failures): {}\n",
                s.shards_failed
            ));
            for f in &s.failures {
                out.push_str(&format!(
                    "    shard {}: {} failure(s), last on {}: {}\n",
                    f.index, f.count, f.worker_id, f.error
                ));
            }
        }
        if s.duplicates_ignored > 0 {
            out.push_str(&format!(
                "  duplicate/late results ignored: {}\n",
                s.duplicates_ignored
            ));
        }
    }
    if r.store_bytes > 0 || r.coordinator_rss_bytes > 0 {
        let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
        out.push_str(&format!(
            "coordinator: {} store {:.1} MiB on disk, memory {:.1} MiB (peak {:.1} MiB)\n",
            r.coordinator_version,
            mib(r.store_bytes),
            mib(r.coordinator_rss_bytes),
            mib(r.coordinator_peak_rss_bytes)
        ));
    }
    if !r.workers.is_empty() {
        out.push_str("workers:\n");
        for w in &r.workers {
            out.push_str(&format!(
                "  {}  {}  {} shards  last seen {:.1} s ago\n",
                w.worker_id,
                if w.alive { "alive" } else { "gone" },
                w.shards_held,
                w.last_seen_ms_ago as f64 / 1000.0
            ));
        }
    }
    out
}

fn status(a: StatusArgs) -> anyhow::Result<()> {
    let rt = runtime()?;
    let (mut c, url) = client(&rt, &a.conn)?;
    loop {
        let req = pb::StatusRequest {
            sweep_id: a.id.clone().unwrap_or_default(),
        };
        let r = rt
            .block_on(c.status(req))
            .map_err(|s| rpc_error(&url, s))?
            .into_inner();
        if a.json {
            println!("{}", serde_json::to_string(&status_json(&r))?);
        } else {
            if a.watch {
                // Clear the screen and go home, like `watch`.
                print!("\x1b[2J\x1b[H");
            }
            print!("{}", status_text(&r));
        }
        let settled = r.sweeps.iter().all(|s| s.state != "running");
        // ("sampled" counts as settled: nothing more is served until it is widened.)
        if !a.watch || settled {
            return Ok(());
        }
        std::thread::sleep(Duration::from_secs(2));
    }
}

fn report(a: ReportArgs) -> anyhow::Result<()> {
    let rt = runtime()?;
    let (mut c, url) = client(&rt, &a.conn)?;
    let r = rt
        .block_on(c.get_result(pb::GetResultRequest {
            sweep_id: a.id.clone(),
        }))
        .map_err(|s| rpc_error(&url, s))?
        .into_inner();
    let out = a.out.unwrap_or_else(|| PathBuf::from("runs").join(&a.id));
    crate::report::write_texts(&out, &r.results_json, &r.report_md)?;
    eprintln!("wrote {}/results.json and report.md", out.display());
    Ok(())
}

fn project(a: ProjectArgs) -> anyhow::Result<()> {
    let rt = runtime()?;
    let (mut c, url) = client(&rt, &a.conn)?;
    let cores = if a.cores.is_empty() {
        crate::cli::default_project_cores()
    } else {
        a.cores.clone()
    };
    let r = rt
        .block_on(c.get_projection(pb::GetProjectionRequest {
            sweep_id: a.id.clone(),
            cores,
        }))
        .map_err(|s| rpc_error(&url, s))?
        .into_inner();
    if let Some(out) = &a.out {
        crate::report::write_projection(out, &r.projection_json, &r.projection_md)?;
        eprintln!("wrote {}/projection.json and projection.md", out.display());
    }
    if a.json {
        print!("{}", r.projection_json);
    } else {
        print!("{}", r.projection_md);
    }
    Ok(())
}

fn cancel(a: CancelArgs) -> anyhow::Result<()> {
    let rt = runtime()?;
    let (mut c, url) = client(&rt, &a.conn)?;
    rt.block_on(c.cancel(pb::CancelRequest {
        sweep_id: a.id.clone(),
    }))
    .map_err(|s| rpc_error(&url, s))
    .with_context(|| format!("cancelling {}", a.id))?;
    eprintln!("cancelled {}", a.id);
    Ok(())
}
