//! `gamesweep run`, the one executor: a coordinator [`Core`] over the sled
//! store under the run's output folder, and local workers in this process.
//! By default the workers speak real gRPC to the core on a loopback port and
//! the dashboard is on another loopback port; with `--in-process`
//! ([`RunOptions::in_process`]) the same core is driven by threads that
//! lease and submit by direct calls (`pool`), with no server at all. Either
//! way interrupting it (Ctrl-C, kill -9) and running the same command again
//! resumes: finished shards are on disk and the stored plan is reused, so
//! the final numbers are the same, and results, provenance, samples,
//! exports and imports are the core's.

mod pool;

use crate::args::run::RunOptions;
use crate::error::UsageError;
use crate::progress::RunBar;
use gamesweep::sweep::{Params, Rendered, SweepKind};
use gamesweep_api::domain::{LaunchSpec, ProjectionText, SweepState};
use gamesweep_engine::core::{Core, PartProgress, Provenance};
use gamesweep_engine::export_file::{self, Chain};
use gamesweep_engine::store::ResilientStore;
use gamesweep_proto::{Remote, RpcError};
use gamesweep_serve::server;
use gamesweep_worker::logging::{self, LogFormat};
use gamesweep_worker::{Shutdown, WorkerConfig};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The one sweep id an embedded run's store holds.
pub const RUN_SWEEP_ID: &str = "run";

/// Settings of an embedded run: `run`'s options, with the output folder
/// resolved and whether to draw a progress bar decided.
#[derive(Clone, Debug)]
pub struct EmbeddedRun {
    /// Output folder (results.json, report.md, and `store/`).
    pub out: PathBuf,
    /// Show a progress bar.
    pub progress: bool,
    /// The rest, as `run` was given them (`options.out` and
    /// `options.quiet` are decided above). With a replication share, the
    /// run's local worker is one worker identity, so a copy is never run
    /// and every selected shard is skipped as unverifiable after three
    /// lease periods (10 s each); `run`'s default share is 0.
    pub options: RunOptions,
}

impl EmbeddedRun {
    /// Serve the dashboard: asked for, and not `--in-process`.
    fn http(&self) -> bool {
        self.options.http && !self.options.in_process
    }
}

/// Where `run --export-every` writes its checkpoint: `OUT/run.gsx`.
pub fn export_path(out: &Path) -> PathBuf {
    out.join(format!(
        "{RUN_SWEEP_ID}.{}",
        gamesweep_engine::export_file::EXTENSION
    ))
}

/// What an embedded run did.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// Shards in the plan.
    pub shards: u32,
    /// Shards done when it ended.
    pub done: u32,
    /// Shards already done when this invocation started (resumed).
    pub resumed_done: u32,
    /// Positions in the merged result (in the sample's shards, for a sample).
    pub positions: u64,
    /// What the run produced (the caller writes it into the output folder).
    pub end: RunEnd,
}

/// What an embedded run produced.
#[derive(Clone, Debug)]
pub enum RunEnd {
    /// The whole plan ran: the rendered result, with the kind's exports,
    /// and `provenance.json`.
    Results(Rendered, Option<Box<Provenance>>),
    /// The run stopped after its sample: the projection of the whole sweep.
    Sampled(ProjectionText),
    /// The run's part (`--part K/M`) is done and the sweep is not: an
    /// export of everything the run's store holds was written.
    Part {
        /// The part's progress (finished).
        progress: PartProgress,
        /// The export written (`OUT/run.gsx`).
        export: PathBuf,
        /// Its size.
        bytes: u64,
    },
}

/// A store refused as damaged is the user's to decide about (exit code 2,
/// the message as it is).
pub fn damaged_is_usage(e: gamesweep_engine::core::CoreError) -> anyhow::Error {
    match e {
        gamesweep_engine::core::CoreError::Store(gamesweep_engine::store::StoreError::Damaged(
            m,
        )) => UsageError(m).into(),
        e => e.into(),
    }
}

fn store_dir(out: &Path) -> PathBuf {
    out.join("store")
}

/// Run `kind` with `params` through an embedded coordinator and local workers.
pub fn run(
    kind: &'static dyn SweepKind,
    params: &Params,
    cfg: &EmbeddedRun,
) -> anyhow::Result<RunOutcome> {
    logging::init(LogFormat::Text, "warn,sled=off");
    let dir = store_dir(&cfg.out);
    // Checked first: a damaged store is refused, or salvaged with --accept-loss.
    let store =
        ResilientStore::open_sled_for_start(&dir, cfg.options.accept_loss || cfg.options.fresh)
            .map_err(|e| UsageError(e.to_string()))?
            .0;
    let recovery = gamesweep_engine::core::Recovery {
        accept_loss: cfg.options.accept_loss || cfg.options.fresh,
        store_dir: Some(dir.clone()),
    };
    let core = Arc::new(
        Core::open_recovering(
            Arc::new(store),
            Duration::from_secs(10),
            Arc::new(gamesweep_engine::core::SystemClock),
            &recovery,
        )
        .map_err(damaged_is_usage)?,
    );
    if let Some(v) = core.sweep_version(RUN_SWEEP_ID) {
        if cfg.options.fresh {
            core.delete(RUN_SWEEP_ID)?;
        } else if v != kind.version() && !cfg.options.accept_solver_change {
            return Err(UsageError(format!(
                "the `{}` solver changed since this run started in {} (stored {v}, this build {}): rerun with --accept-solver-change to go on under this build (the shards done stay, and the report says which build computed which), or with --fresh to start over",
                kind.name(),
                cfg.out.display(),
                kind.version()
            ))
            .into());
        } else if let Some(c) = core.change_solver(RUN_SWEEP_ID, &kind.version())? {
            eprintln!(
                "gamesweep: the `{}` solver changed since this run started (was {}, now {}): going on under this build; the {} done so far stay, recorded as the earlier build's",
                kind.name(),
                c.from,
                kind.version(),
                crate::output::plural(c.shards_kept.into(), "shard")
            );
        }
    }
    import_files(kind, params, cfg, &core)?;
    let chain = match &cfg.options.checkpoint_dir {
        Some(dir) => Some(Arc::new(Mutex::new(open_chain(&core, dir)?))),
        None => None,
    };
    let rt = crate::connect::runtime()?;
    if cfg.options.in_process {
        return rt.block_on(async {
            let checkpoints = checkpoints(&core, cfg, &chain);
            let result = drive(kind, params, cfg, &core, Local::InProcess, None).await;
            stop_checkpoints(&core, checkpoints).await;
            result
        });
    }
    // A per-run random token: other local users cannot talk to this coordinator.
    let token: String = {
        use rand::Rng as _;
        let mut rng = rand::rng();
        (0..32)
            .map(|_| format!("{:x}", rng.random_range(0..16u8)))
            .collect()
    };
    rt.block_on(async {
        let listener = server::bind(([127, 0, 0, 1], 0).into()).await?;
        let url = format!("http://{}", listener.local_addr()?);
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(server::serve(
            core.clone(),
            listener,
            Some(token.clone()),
            async {
                let _ = stop_rx.await;
            },
        ));
        let last_poll = gamesweep_serve::http::LastPoll::default();
        let dashboard = if cfg.http() {
            let listener = gamesweep_serve::http::bind(([127, 0, 0, 1], 0).into()).await?;
            let url = gamesweep_serve::http::url(listener.local_addr()?, false);
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let task = tokio::spawn(gamesweep_serve::http::serve(
                core.clone(),
                listener,
                gamesweep_serve::http::HttpOptions {
                    last_poll: last_poll.clone(),
                    ..Default::default()
                },
                async {
                    let _ = stopped.await;
                },
            ));
            Some((stop, task, url))
        } else {
            None
        };
        let checkpoints = checkpoints(&core, cfg, &chain);
        let dashboard_url = dashboard.as_ref().map(|d| d.2.as_str());
        let local = Local::Grpc {
            url: &url,
            token: &token,
        };
        let result = drive(kind, params, cfg, &core, local, dashboard_url).await;
        stop_checkpoints(&core, checkpoints).await;
        if let Some((stop, task, _)) = dashboard {
            // An open page reads the final state before the dashboard
            // stops (not after an interruption: the user asked to stop).
            if result.is_ok() {
                linger(&last_poll, Instant::now()).await;
            }
            let _ = stop.send(());
            let _ = task.await;
        }
        let _ = stop_tx.send(());
        match server.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!(error = %e, "embedded coordinator stopped with an error"),
            Err(e) => tracing::warn!(error = %e, "embedded coordinator task failed"),
        }
        result
    })
}

/// A page that read the dashboard this recently when the run ended is
/// open: the dashboard waits for it to read the final state.
const PAGE_OPEN: Duration = Duration::from_secs(10);

/// The longest the dashboard stays up after the run for an open page
/// (it polls every 2 s): the next poll, and the page's follow-up requests
/// (witness pictures) after it.
const LINGER_MAX: Duration = Duration::from_secs(6);

/// After a page's first poll past the end, how long its follow-up
/// requests (the pictures) get.
const LINGER_AFTER_POLL: Duration = Duration::from_millis(1500);

/// How long the dashboard stays up at `now`, the run having ended at
/// `ended`, when a page last polled at `polled`: not at all without a poll
/// within [`PAGE_OPEN`] of the end; until [`LINGER_AFTER_POLL`] past the
/// first poll after the end, at most [`LINGER_MAX`] after the end.
fn linger_left(polled: Option<Instant>, ended: Instant, now: Instant) -> Duration {
    let Some(polled) = polled else {
        return Duration::ZERO;
    };
    if polled < ended && ended.saturating_duration_since(polled) > PAGE_OPEN {
        return Duration::ZERO;
    }
    let until = if polled >= ended {
        (polled + LINGER_AFTER_POLL).min(ended + LINGER_MAX)
    } else {
        ended + LINGER_MAX
    };
    until.saturating_duration_since(now)
}

/// Keep the dashboard answering (with the final state) while
/// [`linger_left`] says an open page has yet to read it.
async fn linger(last_poll: &gamesweep_serve::http::LastPoll, ended: Instant) {
    loop {
        let left = linger_left(last_poll.get(), ended, Instant::now());
        if left.is_zero() {
            return;
        }
        tokio::time::sleep(left.min(Duration::from_millis(100))).await;
    }
}

/// The checkpoint exports of `cfg.options.export_every` and `cfg.options.checkpoint_dir`,
/// if asked for.
struct Checkpoints {
    /// The periodic writer (none without `--export-every`).
    task: Option<tokio::task::JoinHandle<()>>,
    to: CheckpointTo,
}

/// Where checkpoint exports go.
enum CheckpointTo {
    /// All of the run, to `OUT/run.gsx`.
    File(server::Checkpoint),
    /// Incremental files into a folder.
    Chain(Arc<Mutex<Chain>>),
}

/// Start writing checkpoint exports every `cfg.options.export_every`: incremental
/// files into `chain`'s folder if there is one, else `OUT/run.gsx`.
fn checkpoints(
    core: &Arc<Core>,
    cfg: &EmbeddedRun,
    chain: &Option<Arc<Mutex<Chain>>>,
) -> Option<Checkpoints> {
    if let Some(chain) = chain {
        let task = cfg.options.export_every.map(|every| {
            let (core, chain) = (core.clone(), chain.clone());
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(every);
                tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                tick.tick().await; // the first tick is immediate
                loop {
                    tick.tick().await;
                    let (core, chain) = (core.clone(), chain.clone());
                    let _ = tokio::task::spawn_blocking(move || {
                        match write_increment(&core, &chain) {
                            Ok(Some(w)) => say_written(&chain, &w),
                            Ok(None) => {}
                            Err(e) => {
                                tracing::warn!(error = %e, "cannot write an incremental checkpoint; will try again")
                            }
                        }
                    })
                    .await;
                }
            })
        });
        return Some(Checkpoints {
            task,
            to: CheckpointTo::Chain(chain.clone()),
        });
    }
    let checkpoint = server::Checkpoint::File {
        sweep_id: RUN_SWEEP_ID.to_string(),
        path: export_path(&cfg.out),
    };
    cfg.options.export_every.map(|every| Checkpoints {
        task: Some(tokio::spawn(server::checkpoint_loop(
            core.clone(),
            every,
            checkpoint.clone(),
        ))),
        to: CheckpointTo::File(checkpoint),
    })
}

/// Stop the checkpoint loop and write the last checkpoint: what the run
/// has when it stops.
async fn stop_checkpoints(core: &Arc<Core>, checkpoints: Option<Checkpoints>) {
    let Some(c) = checkpoints else { return };
    if let Some(task) = c.task {
        task.abort();
    }
    let core = core.clone();
    let _ = tokio::task::spawn_blocking(move || match c.to {
        CheckpointTo::File(to) => server::write_checkpoints(&core, &to, &mut Default::default()),
        CheckpointTo::Chain(chain) => match write_increment(&core, &chain) {
            Ok(Some(w)) => say_written(&chain, &w),
            Ok(None) => {}
            Err(e) => eprintln!("gamesweep: cannot write the last incremental checkpoint: {e:#}"),
        },
    })
    .await;
}

/// One line on stderr for an incremental checkpoint written (`w`: its
/// file, new shards and bytes), with the time: a long run's log then says
/// when its last checkpoint was written.
fn say_written(chain: &Mutex<Chain>, w: &(PathBuf, usize, usize)) {
    let (path, shards, bytes) = w;
    let c = chain.lock().unwrap_or_else(|e| e.into_inner());
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    eprintln!(
        "gamesweep: {} wrote checkpoint {}: {} new, {}; the {} in {} hold {} shards",
        crate::output::utc_time(now_ms),
        path.display(),
        crate::output::plural(*shards as u64, "shard"),
        crate::output::plural(*bytes as u64, "byte"),
        crate::output::plural(c.files as u64, "file"),
        c.dir.display(),
        c.held.len()
    );
}

/// The checkpoint folder `dir` as it is: its files must be of the run's
/// sweep. Files there while the store holds no run are refused: their
/// shards would be left out of the new files without being here.
fn open_chain(core: &Core, dir: &Path) -> anyhow::Result<Chain> {
    let of = match core.sweep_version(RUN_SWEEP_ID) {
        Some(_) => Some(core.export_where(RUN_SWEEP_ID, |_| false)?),
        None => None,
    };
    let chain = Chain::open(dir, of.as_ref()).map_err(|e| UsageError(e.to_string()))?;
    if of.is_none() && chain.files > 0 {
        return Err(UsageError(format!(
            "{} holds {} of another run: import them (--import {}) or use an empty folder for --checkpoint-dir",
            dir.display(),
            crate::output::plural(chain.files as u64, "checkpoint file"),
            dir.display()
        ))
        .into());
    }
    Ok(chain)
}

/// Write the next incremental checkpoint file of `chain`: the run's shards
/// no file of its folder holds; nothing if there are none. Returns the
/// file, its shards and bytes.
fn write_increment(
    core: &Core,
    chain: &Mutex<Chain>,
) -> anyhow::Result<Option<(PathBuf, usize, usize)>> {
    let mut chain = chain.lock().unwrap_or_else(|e| e.into_inner());
    let export = match core.export_where(RUN_SWEEP_ID, |i| !chain.held.contains(&i)) {
        Ok(e) => e,
        // Stopped before the run was launched: nothing to write.
        Err(gamesweep_engine::core::CoreError::NoSuchSweep(_)) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    if export.results.is_empty() {
        return Ok(None);
    }
    // The first file of the folder carries the plan; the rest name it (an
    // n = 12 plan is about 205 KB: a campaign's files would be mostly plans).
    let export = if chain.plan_held {
        export.without_plan()
    } else {
        export
    };
    let bytes = core.sign(&export);
    let path = chain.next_path(&bytes);
    export_file::write_atomic(&path, &bytes)
        .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
    chain.add(&path, &export);
    tracing::info!(file = %path.display(), shards = export.results.len(), bytes = bytes.len(), "incremental checkpoint written");
    Ok(Some((path, export.results.len(), bytes.len())))
}

/// The key files at `paths`: each a key file, or a folder whose `*.key`
/// files are taken.
fn key_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut keys: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| UsageError(format!("--trust-key {}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "key"))
                .collect();
            keys.sort();
            files.extend(keys);
        } else {
            files.push(p.clone());
        }
    }
    Ok(files)
}

/// Import `cfg.options.import` (files, and the `*.gsx` files of folders) into the
/// run's store: the first creates the run if there is none, the rest merge.
fn import_files(
    kind: &'static dyn SweepKind,
    params: &Params,
    cfg: &EmbeddedRun,
    core: &Core,
) -> anyhow::Result<()> {
    if cfg.options.import.is_empty() {
        return Ok(());
    }
    // Trusted: the run store's own key, and --trust-key's (a file another
    // store signed is otherwise re-run by the local workers).
    let policy = gamesweep_engine::core::transfer::ImportPolicy {
        verify_ppm: Some(cfg.options.verify_ppm),
        accept_solver_change: cfg.options.accept_solver_change,
        trusted: export_file::read_key_files(&key_files(&cfg.options.trust_keys)?)
            .map_err(|e| UsageError(format!("--trust-key: {e}")))?,
        ..Default::default()
    };
    let mut files = Vec::new();
    for p in &cfg.options.import {
        files.extend(
            export_file::files_at(p)
                .map_err(|e| UsageError(format!("--import {}: {e}", p.display())))?,
        );
    }
    let mut decoded_files = Vec::with_capacity(files.len());
    for file in &files {
        let decoded = export_file::read(file).map_err(|e| UsageError(e.to_string()))?;
        decoded_files.push((file, decoded));
    }
    // Files that carry the plan first: an increment only names it, so it
    // merges into a run an earlier file created.
    decoded_files.sort_by_key(|(_, d)| !d.export.carries_plan());
    let (mut added, mut confirmed, mut untrusted, mut conflicts) = (0u64, 0u64, 0u64, 0u32);
    for (file, decoded) in &decoded_files {
        let export = &decoded.export;
        if export.kind != kind.name()
            || kind.resolve_params(&export.params).ok().as_ref() != Some(params)
        {
            return Err(UsageError(format!(
                "{} holds a `{}` sweep with other parameters than this run's: run it with the same kind and parameters",
                file.display(),
                export.kind
            ))
            .into());
        }
        let i = core
            .import(decoded, Some(RUN_SWEEP_ID), &policy)
            .map_err(|e| UsageError(format!("{}: {e}", file.display())))?;
        added += u64::from(i.added);
        confirmed += u64::from(i.confirmed);
        conflicts += i.conflicts;
        if !i.trusted {
            untrusted += u64::from(i.added);
        }
        tracing::info!(file = %file.display(), added = i.added, confirmed = i.confirmed, conflicts = i.conflicts, "imported");
        if files.len() == 1 || !i.trusted {
            let trust = if i.trusted {
                format!("signed by trusted key {}", i.signer)
            } else {
                format!(
                    "not signed by a trusted key: its {} are re-run before the run can finish",
                    crate::output::plural(i.added.into(), "added result")
                )
            };
            eprintln!(
                "gamesweep: imported {}: {} added, {} already held; {} done, {trust}",
                file.display(),
                crate::output::plural(i.added.into(), "shard"),
                i.confirmed,
                crate::output::count_of(i.done.into(), i.shards.into(), "shard")
            );
        }
    }
    if files.len() > 1 {
        let (st, _) = core.status(Some(RUN_SWEEP_ID))?;
        eprintln!(
            "gamesweep: imported {}: {} added, {} already held (the same results); {} done{}",
            crate::output::plural(files.len() as u64, "file"),
            crate::output::plural(added, "shard"),
            confirmed,
            crate::output::count_of(st[0].shards_done.into(), st[0].shards_total.into(), "shard"),
            if untrusted > 0 {
                format!("; {untrusted} results without a trusted signature are re-run first")
            } else {
                String::new()
            }
        );
    }
    if conflicts > 0 {
        eprintln!(
            "gamesweep: {}",
            crate::output::conflicts_text(conflicts, RUN_SWEEP_ID)
        );
    }
    Ok(())
}

/// How the run's local workers reach its core.
enum Local<'a> {
    /// A `gamesweep_worker` over gRPC to the server at `url`.
    Grpc {
        /// The embedded server's URL.
        url: &'a str,
        /// The per-run bearer token.
        token: &'a str,
    },
    /// Threads of this process calling the core directly (`pool`).
    InProcess,
}

/// Launch (or resume) the run's sweep, through the server or directly;
/// a refusal is the user's to fix (exit code 2), worded the same either way.
async fn launch(
    spec: LaunchSpec,
    core: &Arc<Core>,
    client: Option<&mut Remote>,
    out: &Path,
) -> anyhow::Result<gamesweep_api::domain::Launched> {
    let exists = || -> anyhow::Error {
        UsageError(format!(
            "{} holds a different sweep (another kind or other parameters); use another --out or --fresh",
            out.display()
        ))
        .into()
    };
    let invalid = |msg: String| -> anyhow::Error {
        UsageError(format!("{msg} (in {}; --fresh starts over)", out.display())).into()
    };
    match client {
        Some(client) => client.launch(spec).await.map_err(|e| match e {
            RpcError::AlreadyExists(_) => exists(),
            RpcError::InvalidArgument(msg) => invalid(msg),
            e => e.into(),
        }),
        None => core.launch(&spec).map_err(|e| match e {
            gamesweep_engine::core::CoreError::Exists(_) => exists(),
            gamesweep_engine::core::CoreError::BadRequest(msg) => {
                invalid(gamesweep_api::text::clip(msg))
            }
            e => e.into(),
        }),
    }
}

async fn drive(
    kind: &'static dyn SweepKind,
    params: &Params,
    cfg: &EmbeddedRun,
    core: &Arc<Core>,
    local: Local<'_>,
    dashboard: Option<&str>,
) -> anyhow::Result<RunOutcome> {
    // Caught from here on (registered now, not when first awaited), so that
    // a signal during planning is not the default death without a word.
    let mut interrupted = std::pin::pin!(stop_signal()?);
    let mut client = match &local {
        Local::Grpc { url, token } => Some(Remote::connect_lazy(
            url,
            &gamesweep_proto::ClientOptions::token(Some(token)),
        )?),
        Local::InProcess => None,
    };
    let (shards, resumed_done) = launch_run(kind, params, cfg, core, client.as_mut()).await?;
    if let Some(u) = dashboard {
        eprintln!("gamesweep: dashboard: {u}");
    }
    let mut workers = LocalWorkers::start(&local, cfg, core);
    let bar = RunBar::new(kind.name(), cfg.progress);
    let started = Instant::now();
    let watched = watch_run(core, cfg, &bar, &mut workers, &mut interrupted).await;
    if watched.is_ok() {
        // (After an error the workers may be gone: their task is not
        // polled again.)
        workers.stop().await;
    }
    bar.finish();
    let (part_done, load) = match watched? {
        Watched::Settled { part_done, load } => (part_done, load),
        Watched::Interrupted(signal) => return Err(interrupted_error(core, cfg, signal, started)),
    };
    let (st, _) = core.status(Some(RUN_SWEEP_ID))?;
    let end = match part_done.filter(|_| st[0].state != SweepState::Done) {
        Some(progress) => part_end(core, cfg, progress)?,
        None => run_end(kind, params, cfg, core, client.as_mut(), st[0].state, &load).await?,
    };
    let (st, _) = core.status(Some(RUN_SWEEP_ID))?;
    Ok(RunOutcome {
        shards,
        done: st[0].shards_done,
        resumed_done,
        positions: st[0].positions_done,
        end,
    })
}

/// Launch (or resume) the run's sweep and say what it is: the shards
/// planned or already done, the sample, the part. Returns the plan's
/// shards and those done before this run.
async fn launch_run(
    kind: &'static dyn SweepKind,
    params: &Params,
    cfg: &EmbeddedRun,
    core: &Arc<Core>,
    client: Option<&mut Remote>,
) -> anyhow::Result<(u32, u32)> {
    let spec = LaunchSpec {
        kind: kind.name().to_string(),
        params: params.clone(),
        name: Some(RUN_SWEEP_ID.to_string()),
        target_shards: cfg.options.shards,
        resume_existing: true,
        sample: cfg.options.sample,
        verify_ppm: cfg.options.verify_ppm,
        verify_seed: cfg.options.verify_seed,
        priority: 0,
        replicate_all: false,
        part: cfg.options.part,
    };
    let reply = launch(spec, core, client, &cfg.out).await?;
    let (st, _) = core.status(Some(RUN_SWEEP_ID))?;
    let resumed_done = st[0].shards_done;
    let sample_shards = st[0]
        .sample
        .as_ref()
        .filter(|s| s.limited)
        .map(|s| s.shards);
    if let Some(k) = sample_shards {
        eprintln!(
            "gamesweep: sample: {k} of {} (seed {}); a projection is written when they are done, and rerunning without --sample continues with the whole plan",
            crate::output::plural(reply.shards.into(), "shard"),
            cfg.options.sample.map_or(0, |s| s.seed)
        );
    }
    if reply.existing {
        eprintln!(
            "gamesweep: resuming the run in {}: {} already done",
            cfg.out.display(),
            crate::output::count_of(resumed_done.into(), reply.shards.into(), "shard")
        );
    } else {
        eprintln!(
            "gamesweep: {} planned{}; progress is saved in {} (interrupt and rerun the same command to resume)",
            crate::output::plural(reply.shards.into(), "shard"),
            crate::args::shard_count_note(cfg.options.shards, reply.shards),
            store_dir(&cfg.out).display()
        );
    }
    if let Some(p) = core.part_progress(RUN_SWEEP_ID)? {
        eprintln!(
            "gamesweep: part {}: {} of the sweep's {} ({} of them done); the run stops when they are",
            p.part,
            crate::output::plural(p.total.into(), "shard"),
            reply.shards,
            p.done
        );
    }
    Ok((reply.shards, resumed_done))
}

/// The run's local workers, running until [`LocalWorkers::stop`].
struct LocalWorkers {
    /// The gRPC worker's or the in-process pool's task.
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
    /// Tells the gRPC worker to stop.
    shutdown: watch::Sender<Shutdown>,
    /// Tells the in-process pool to stop.
    stop: Arc<AtomicBool>,
}

impl LocalWorkers {
    /// Start the workers `local` names, `cfg.options.threads` of them.
    fn start(local: &Local<'_>, cfg: &EmbeddedRun, core: &Arc<Core>) -> LocalWorkers {
        let worker_id = format!("local-{}", std::process::id());
        let (shutdown, rx) = watch::channel(Shutdown::Running);
        let stop = Arc::new(AtomicBool::new(false));
        let task: tokio::task::JoinHandle<anyhow::Result<()>> = match local {
            Local::Grpc { url, token } => {
                let mut wc = WorkerConfig::new(*url);
                wc.token = Some(token.to_string());
                wc.threads = cfg.options.threads.max(1);
                wc.worker_id = worker_id;
                tokio::spawn(async move { Ok(gamesweep_worker::run(wc, rx).await.map(drop)?) })
            }
            Local::InProcess => {
                let (core, stop, threads) = (core.clone(), stop.clone(), cfg.options.threads);
                tokio::task::spawn_blocking(move || {
                    Ok(pool::run(&core, &worker_id, threads, &stop)?)
                })
            }
        };
        LocalWorkers {
            task,
            shutdown,
            stop,
        }
    }

    /// Tell the workers to stop and give them two seconds to.
    async fn stop(&mut self) {
        let _ = self.shutdown.send(Shutdown::Abort);
        self.stop.store(true, Ordering::Relaxed);
        let _ = tokio::time::timeout(Duration::from_secs(2), &mut self.task).await;
    }
}

/// How watching a run ended.
enum Watched {
    /// The sweep settled (done, sampled, failed, …), or the run's part is
    /// done (`part_done`); `load` is this machine's load over the run.
    Settled {
        part_done: Option<PartProgress>,
        load: LoadAverage,
    },
    /// A signal (its number) stopped the run.
    Interrupted(i32),
}

/// Show the run's progress until its sweep settles, its part is done or a
/// signal comes; an error if the workers stop on their own.
async fn watch_run(
    core: &Arc<Core>,
    cfg: &EmbeddedRun,
    bar: &RunBar,
    workers: &mut LocalWorkers,
    interrupted: &mut std::pin::Pin<&mut impl std::future::Future<Output = i32>>,
) -> anyhow::Result<Watched> {
    let mut load = LoadAverage::default();
    loop {
        let (st, _) = core.status(Some(RUN_SWEEP_ID))?;
        let s = &st[0];
        bar.set(s);
        load.sample();
        // A paused run waits for `gamesweep resume`.
        if !matches!(s.state, SweepState::Running | SweepState::Paused) {
            return Ok(Watched::Settled {
                part_done: None,
                load,
            });
        }
        // A part ends the run when its shards are done (the sweep is then
        // still running: its other parts are elsewhere).
        if let Some(p) = core.part_progress(RUN_SWEEP_ID)?.filter(|p| p.finished) {
            return Ok(Watched::Settled {
                part_done: Some(p),
                load,
            });
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(if cfg.progress { 200 } else { 20 })) => {}
            sig = interrupted.as_mut() => return Ok(Watched::Interrupted(sig)),
            w = &mut workers.task => {
                // The worker stopped on its own: only an error makes it do that here.
                return Err(match w {
                    Ok(Err(e)) => e,
                    Ok(Ok(())) => anyhow::anyhow!("the local worker stopped unexpectedly"),
                    Err(e) => anyhow::anyhow!("the local worker failed: {e}"),
                });
            }
        }
    }
}

/// The error of a run a signal stopped, its progress saved first.
fn interrupted_error(
    core: &Arc<Core>,
    cfg: &EmbeddedRun,
    signal: i32,
    started: Instant,
) -> anyhow::Error {
    let saved = || -> anyhow::Result<(u32, u32)> {
        core.flush()?;
        // So that the resume reads nothing but the snapshot (best effort).
        let _ = core.snapshot();
        let (st, _) = core.status(Some(RUN_SWEEP_ID))?;
        Ok((st[0].shards_done, st[0].shards_total))
    };
    let (done, total) = match saved() {
        Ok(x) => x,
        Err(e) => return e,
    };
    crate::error::Interrupted {
        signal,
        message: format!(
            "interrupted ({}) after {:.1} s with {} saved in {}; rerun the same command to resume",
            if signal == crate::error::SIGTERM {
                "SIGTERM"
            } else {
                "SIGINT"
            },
            started.elapsed().as_secs_f64(),
            crate::output::count_of(done as u64, total as u64, "shard"),
            store_dir(&cfg.out).display()
        ),
    }
    .into()
}

/// The end of a run whose part is done (the sweep is not): the part's
/// shards exported to the run's export file.
fn part_end(core: &Arc<Core>, cfg: &EmbeddedRun, progress: PartProgress) -> anyhow::Result<RunEnd> {
    core.flush()?;
    let path = export_path(&cfg.out);
    let bytes = core.export_file(RUN_SWEEP_ID)?;
    export_file::write_atomic(&path, &bytes)
        .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
    Ok(RunEnd::Part {
        progress,
        export: path,
        bytes: bytes.len() as u64,
    })
}

/// The end of a run whose sweep settled in `state`: its results (through
/// the server with a client), its projection, or its failure.
async fn run_end(
    kind: &'static dyn SweepKind,
    params: &Params,
    cfg: &EmbeddedRun,
    core: &Arc<Core>,
    client: Option<&mut Remote>,
    state: SweepState,
    load: &LoadAverage,
) -> anyhow::Result<RunEnd> {
    Ok(match state {
        SweepState::Failed => {
            // The error names the shard and says how to retry.
            return Err(core
                .merged(RUN_SWEEP_ID)
                .err()
                .map_or_else(|| anyhow::anyhow!("the sweep failed"), anyhow::Error::new));
        }
        // Neither happens (the loop above waits for a settled state, and nobody
        // else holds this coordinator's token to cancel), but say so if it does.
        state @ (SweepState::Cancelled | SweepState::Running | SweepState::Paused) => {
            return Err(anyhow::anyhow!("the run stopped while {state}"))
        }
        // Projected here, where the sample ran, so the projection can say
        // how loaded this machine was over the run.
        SweepState::Sampled => RunEnd::Sampled(projection_text(
            core,
            &cfg.options.project_cores,
            load.mean(),
        )?),
        SweepState::Done => match client {
            None => {
                // What the server's GetResult sends, without the trip.
                let r = core.rendered(RUN_SWEEP_ID)?;
                RunEnd::Results(
                    r.rendered.clone(),
                    Some(Box::new(core.provenance(RUN_SWEEP_ID)?)),
                )
            }
            Some(client) => {
                let r = client.result(RUN_SWEEP_ID).await?;
                let exports = kind
                    .render_from_json(params, &r.results_json)
                    .map_err(|e| {
                        anyhow::Error::new(e).context("rendering the exports of results.json")
                    })?
                    .exports;
                RunEnd::Results(
                    Rendered {
                        results_json: r.results_json,
                        report_md: r.report_md,
                        exports,
                    },
                    r.provenance.map(Box::new),
                )
            }
        },
    })
}

/// The machine's 1-minute load average over a run, read from
/// `/proc/loadavg` at most once a second (nothing where there is none).
#[derive(Default)]
struct LoadAverage {
    sum: f64,
    n: u32,
    last: Option<Instant>,
}

impl LoadAverage {
    fn sample(&mut self) {
        if self
            .last
            .is_some_and(|t| t.elapsed() < Duration::from_secs(1))
        {
            return;
        }
        self.last = Some(Instant::now());
        let Ok(text) = std::fs::read_to_string("/proc/loadavg") else {
            return;
        };
        if let Some(l) = text
            .split_whitespace()
            .next()
            .and_then(|v| v.parse::<f64>().ok())
        {
            self.sum += l;
            self.n += 1;
        }
    }

    /// The mean over the run, against this machine's cores.
    fn mean(&self) -> Option<gamesweep_engine::projection::MachineLoad> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
        (self.n > 0).then(|| {
            gamesweep_engine::projection::MachineLoad::new(cores, self.sum / self.n as f64)
        })
    }
}

/// A future that ends with the number of the first SIGINT (Ctrl-C) or
/// SIGTERM (`kill`, Slurm's `scancel`, systemd's stop) the process gets;
/// both are caught from the moment this is called.
fn stop_signal() -> anyhow::Result<impl std::future::Future<Output = i32>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut int = signal(SignalKind::interrupt())?;
    let mut term = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = int.recv() => crate::error::SIGINT,
            _ = term.recv() => crate::error::SIGTERM,
        }
    })
}

/// The projection of the sampled run for `cores` (default: this machine's
/// cores), as the server's GetProjection renders it.
fn projection_text(
    core: &Core,
    cores: &[u32],
    machine: Option<gamesweep_engine::projection::MachineLoad>,
) -> anyhow::Result<ProjectionText> {
    let cores = if cores.is_empty() {
        vec![std::thread::available_parallelism().map_or(1, |n| n.get() as u32)]
    } else {
        cores.to_vec()
    };
    gamesweep_engine::core::results::check_cores(&cores)?;
    let mut p = core.projection(RUN_SWEEP_ID, &cores)?;
    p.machine = machine;
    Ok(ProjectionText {
        json: gamesweep_report::report::results_json_text(&serde_json::to_value(&p)?),
        md: gamesweep_engine::projection::render_md(&p),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: when `run` ended, its dashboard stopped at once, and an
    /// open page froze at "running ... ETA 1 s" under "Failed to fetch".
    /// Now it stays for the page's next poll (bounded), and not at all
    /// when no page polled recently.
    #[test]
    fn the_dashboard_lingers_only_for_a_page_that_polled_recently() {
        let end = Instant::now() + Duration::from_secs(100);
        let s = Duration::from_secs;
        let ms = Duration::from_millis;
        // No page, or one long closed: stop at once.
        assert_eq!(linger_left(None, end, end), Duration::ZERO);
        assert_eq!(linger_left(Some(end - s(11)), end, end), Duration::ZERO);
        // A page polled 1 s before the end: wait for its next poll...
        assert_eq!(linger_left(Some(end - s(1)), end, end), LINGER_MAX);
        assert_eq!(linger_left(Some(end - s(1)), end, end + s(2)), s(4));
        // ... which came 1.8 s after the end: its pictures get 1.5 s more.
        let polled = end + ms(1800);
        assert_eq!(linger_left(Some(polled), end, polled), ms(1500));
        assert_eq!(
            linger_left(Some(polled), end, polled + s(2)),
            Duration::ZERO
        );
        // A page that stopped polling: never past LINGER_MAX.
        assert_eq!(
            linger_left(Some(end - s(9)), end, end + s(6)),
            Duration::ZERO
        );
        assert_eq!(
            linger_left(Some(end + ms(5900)), end, end + ms(5900)),
            ms(100)
        );
    }
}
