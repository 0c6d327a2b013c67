//! Exporting a sweep (`gamesweep export ID FILE`, Python's
//! `Coordinator.export`): one sweep (definition, plan, solver version,
//! every finished shard result) written to one compressed, checksummed
//! export file signed with the coordinator's key (see
//! [`gamesweep_engine::export_file`]), from a running coordinator or from a
//! stopped coordinator's store, optionally only the shards earlier export
//! files do not hold (`--since`). What came over the wire is checked like
//! any export file before it is written; the file is written atomically.

use crate::connect::{self, Conn};
use crate::error::UsageError;
use crate::output;
use anyhow::Context as _;
use gamesweep_engine::core::{Core, CoreError};
use gamesweep_engine::export_file;
use gamesweep_engine::store::SledStore;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where the sweep is read from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A running coordinator.
    Coordinator(Conn),
    /// A stopped coordinator's store (a store in use is refused).
    Store {
        /// The store directory.
        dir: PathBuf,
        /// Leave out the shards these export files (or folders of `*.gsx`
        /// files) hold: an incremental checkpoint. They must be of the same
        /// sweep.
        since: Vec<PathBuf>,
    },
}

/// What to export, and where to.
#[derive(Clone, Debug)]
pub struct ExportRequest {
    /// The sweep id.
    pub id: String,
    /// The export file to write (conventionally `ID.gsx`).
    pub file: PathBuf,
    /// Where the sweep is read from.
    pub from: Source,
}

/// What an export wrote: what the file holds.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Exported {
    /// The file's sweep id.
    pub sweep_id: String,
    /// Its kind.
    pub kind: String,
    /// The file written.
    pub file: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Shards in the sweep's plan.
    pub shards: u64,
    /// Shards whose result the file holds.
    pub done: u64,
    /// The fingerprint of the key that signed it (`""`: unsigned).
    pub signer: String,
    /// The sweep id asked for.
    #[serde(skip)]
    pub id: String,
    /// Only the shards earlier files do not hold (`--since`).
    #[serde(skip)]
    pub incremental: bool,
    /// Wall time of the whole export, in seconds.
    #[serde(skip)]
    pub seconds: f64,
}

impl Exported {
    /// The line `export` prints (on stderr) when done.
    pub fn text(&self) -> String {
        format!(
            "exported {}{}: {} done, {}, {}, in {:.2} s, to {}",
            self.id,
            if self.incremental {
                " (only the shards the --since files do not hold)"
            } else {
                ""
            },
            output::count_of(self.done, self.shards, "shard"),
            if self.signer.is_empty() {
                "unsigned".to_string()
            } else {
                format!("signed by key {}", self.signer)
            },
            output::plural(self.bytes, "byte"),
            self.seconds,
            self.file.display()
        )
    }
}

/// Export as `r` asks: read the sweep, check the export, write the file.
/// `step` is told what it is doing as it goes (a large sweep takes
/// minutes); the CLI shows it on a terminal.
pub fn export(r: &ExportRequest, step: &dyn Fn(String)) -> anyhow::Result<Exported> {
    let started = Instant::now();
    let bytes = match &r.from {
        Source::Store { dir, since } => {
            step(format!("reading sweep {} from {}", r.id, dir.display()));
            from_store(&r.id, dir, since)?
        }
        Source::Coordinator(conn) => {
            let rt = connect::runtime()?;
            let mut c = connect::connect(&rt, conn)?;
            step(format!("receiving sweep {} from the coordinator", r.id));
            rt.block_on(c.export(&r.id))
                .with_context(|| format!("exporting {}", r.id))?
        }
    };
    // What came over the wire is checked like any export file.
    step(format!("checking the export ({} bytes)", bytes.len()));
    let decoded = export_file::decode(&bytes).map_err(|e| match &r.from {
        Source::Store { dir, .. } => {
            anyhow::anyhow!("the store {} gave a bad export: {e}", dir.display())
        }
        Source::Coordinator(_) => anyhow::anyhow!("the coordinator sent a bad export: {e}"),
    })?;
    step(format!("writing {}", r.file.display()));
    export_file::write_atomic(&r.file, &bytes)
        .with_context(|| format!("writing {}", r.file.display()))?;
    let export = &decoded.export;
    Ok(Exported {
        sweep_id: export.sweep_id.clone(),
        kind: export.kind.clone(),
        file: r.file.clone(),
        bytes: bytes.len() as u64,
        shards: export.shards() as u64,
        done: export.results.len() as u64,
        signer: match decoded.signature {
            export_file::Signature::Signed(k) => k.fingerprint(),
            export_file::Signature::Unsigned => String::new(),
        },
        id: r.id.clone(),
        incremental: matches!(&r.from, Source::Store { since, .. } if !since.is_empty()),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Sweep `id` of the stopped store at `dir`, without the shards the files
/// at `since` hold, signed with the store's key.
fn from_store(id: &str, dir: &Path, since: &[PathBuf]) -> anyhow::Result<Vec<u8>> {
    let store = SledStore::open(dir).map_err(|e| UsageError(e.to_string()))?;
    let core = Core::open(Arc::new(store), Duration::from_secs(60))?;
    let (held, plan_held) = held_by(&core, id, since)?;
    let bytes = core
        .export_where(id, |i| !held.contains(&i))
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
                    gamesweep_api::quote_prefix(id),
                    dir.display(),
                    if ids.is_empty() {
                        "it holds none".to_string()
                    } else {
                        format!("it holds {}", ids.join(", "))
                    }
                ))
            }
            e => UsageError(e.to_string()),
        })?;
    Ok(bytes)
}

/// The shards the export files at `paths` (files, or folders of `*.gsx`
/// files) hold, and whether one of them carries the plan; each must be an
/// export of sweep `id` as `core` holds it (kind, parameters, plan), else
/// one line naming it.
fn held_by(core: &Core, id: &str, paths: &[PathBuf]) -> anyhow::Result<(BTreeSet<u32>, bool)> {
    let mut held = BTreeSet::new();
    let mut plan_held = false;
    if paths.is_empty() {
        return Ok((held, plan_held));
    }
    // The sweep without its results: what the files must be of.
    let Ok(of) = core.export_where(id, |_| false) else {
        return Ok((held, plan_held)); // no such sweep: refused by the caller, naming the store
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
