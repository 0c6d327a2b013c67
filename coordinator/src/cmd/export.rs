//! `gamesweep export ID FILE`: write one sweep (definition, plan, solver
//! version, every finished shard result) to one compressed, checksummed
//! export file signed with the coordinator's key (see
//! [`gamesweep_engine::export_file`]), from a running coordinator or, with `--store
//! DIR`, from a stopped coordinator's store.

use crate::connect::{self, Conn};
use crate::error::UsageError;
use anyhow::Context as _;
use gamesweep_engine::core::{Core, CoreError};
use gamesweep_engine::export_file;
use gamesweep_engine::store::SledStore;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `export` options.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// Sweep id.
    pub id: String,
    /// The export file to write (conventionally `ID.gsx`); written atomically
    /// (a temporary file beside it, fsynced, renamed over it).
    pub file: PathBuf,
    /// Read the sweep from this stopped coordinator's store instead of
    /// asking a running coordinator (a store in use is refused).
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Export only the shards no earlier export holds: those of this export
    /// file, or of every *.gsx file in this folder (repeatable). The files
    /// must be of the same sweep. An incremental checkpoint: importing it
    /// and those files gives everything (needs --store). When one of those
    /// files carries the plan, this one only names it (an increment: it
    /// imports into a store that holds the sweep, e.g. after those files).
    #[arg(long, value_name = "PATH", requires = "store")]
    pub since: Vec<PathBuf>,
    #[command(flatten)]
    pub conn: Conn,
}

/// Run `export`.
pub fn exec(a: ExportArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    // What it is doing, on a terminal only (a large sweep takes minutes).
    let spinner = crate::progress::Spinner::new(crate::progress::on_terminal());
    let bytes = match &a.store {
        Some(dir) => {
            spinner.step(format!("reading sweep {} from {}", a.id, dir.display()));
            let store = SledStore::open(dir).map_err(|e| UsageError(e.to_string()))?;
            let core = Core::open(Arc::new(store), Duration::from_secs(60))?;
            let (held, plan_held) = since(&core, &a.id, &a.since)?;
            core.export_where(&a.id, |i| !held.contains(&i))
                .map(|e| if plan_held { e.without_plan() } else { e })
                .map(|e| core.sign(&e))
                .map_err(|e| match e {
                    // There is no coordinator here to speak of: name the store.
                    CoreError::NoSuchSweep(_) => {
                        let ids: Vec<String> = core
                            .status(None)
                            .map(|(s, _)| s.into_iter().map(|s| s.sweep_id).collect())
                            .unwrap_or_default();
                        UsageError(format!(
                            "no sweep named `{}` in the store {} ({})",
                            gamesweep_api::quote_prefix(&a.id),
                            dir.display(),
                            if ids.is_empty() {
                                "it holds none".to_string()
                            } else {
                                format!("it holds {}", ids.join(", "))
                            }
                        ))
                    }
                    e => UsageError(e.to_string()),
                })?
        }
        None => {
            let rt = connect::runtime()?;
            let mut c = connect::connect(&rt, &a.conn)?;
            spinner.step(format!("receiving sweep {} from the coordinator", a.id));
            rt.block_on(c.export(&a.id))
                .with_context(|| format!("exporting {}", a.id))?
        }
    };
    // What came over the wire is checked like any export file.
    spinner.step(format!("checking the export ({} bytes)", bytes.len()));
    let decoded = export_file::decode(&bytes).map_err(|e| match &a.store {
        Some(dir) => anyhow::anyhow!("the store {} gave a bad export: {e}", dir.display()),
        None => anyhow::anyhow!("the coordinator sent a bad export: {e}"),
    })?;
    let export = &decoded.export;
    let signed = match decoded.signature {
        export_file::Signature::Signed(k) => format!("signed by key {k}"),
        export_file::Signature::Unsigned => "unsigned".into(),
    };
    spinner.step(format!("writing {}", a.file.display()));
    export_file::write_atomic(&a.file, &bytes)
        .with_context(|| format!("writing {}", a.file.display()))?;
    spinner.finish();
    eprintln!(
        "exported {}{}: {} done, {signed}, {}, in {:.2} s, to {}",
        a.id,
        if a.since.is_empty() {
            ""
        } else {
            " (only the shards the --since files do not hold)"
        },
        crate::output::count_of(export.results.len() as u64, export.shards() as u64, "shard"),
        crate::output::plural(bytes.len() as u64, "byte"),
        started.elapsed().as_secs_f64(),
        a.file.display()
    );
    Ok(())
}

/// The shards the export files at `paths` (files, or folders of `*.gsx`
/// files) hold, and whether one of them carries the plan; each must be an
/// export of sweep `id` as `core` holds it (kind, parameters, plan), else
/// one line naming it.
fn since(
    core: &Core,
    id: &str,
    paths: &[PathBuf],
) -> anyhow::Result<(std::collections::BTreeSet<u32>, bool)> {
    let mut held = std::collections::BTreeSet::new();
    let mut plan_held = false;
    if paths.is_empty() {
        return Ok((held, plan_held));
    }
    // The sweep without its results: what the files must be of.
    let Ok(of) = core.export_where(id, |_| false) else {
        return Ok((held, plan_held)); // no such sweep: refused below, naming the store
    };
    for p in paths {
        let files = export_file::files_at(p)
            .map_err(|e| UsageError(format!("--since {}: {e}", p.display())))?;
        for f in files {
            let d = export_file::read(&f).map_err(|e| UsageError(format!("--since {e}")))?;
            if let Some(why) = export_file::same_sweep(&of, &d.export) {
                return Err(UsageError(format!(
                    "--since {}: it is an export of {why} than sweep `{id}`",
                    f.display()
                ))
                .into());
            }
            held.extend(d.export.results.iter().map(|r| r.index));
            plan_held |= d.export.carries_plan();
        }
    }
    Ok((held, plan_held))
}
