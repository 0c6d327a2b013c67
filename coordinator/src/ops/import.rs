//! Importing an export file (`gamesweep import FILE`, Python's
//! `Coordinator.import_`): into a running coordinator (streamed over gRPC,
//! admin token) or into a stopped coordinator's store (or a `run` folder's
//! `OUT/store`). Either way every result is re-validated as a submit is,
//! and nothing is written unless the whole file passes. A file no trusted
//! key signed imports as untrusted (every imported result re-run by a
//! worker before the sweep can finish), or is refused with
//! `require_signature`; [`trust_text`] says which.
//!
//! Into a store that holds the same sweep already (the same id, kind,
//! parameters and plan: the parts of one sweep, `--part K/M`, or a chain of
//! incremental checkpoints) the file merges: the shards the store lacks are
//! added, those it has are compared by result digest (a difference refuses
//! the file, naming the shards, and changes nothing); importing the same
//! file again changes nothing.

use crate::connect::{self, Conn};
use crate::error::UsageError;
use crate::output;
use anyhow::Context as _;
use gamesweep_api::domain::{ImportOptions, Imported};
use gamesweep_engine::core::transfer::ImportPolicy;
use gamesweep_engine::core::Core;
use gamesweep_engine::export_file;
use gamesweep_engine::store::SledStore;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where the file is imported.
#[derive(Clone, Debug)]
pub enum Target {
    /// A running coordinator, which trusts its own key and those of `serve
    /// --trust-key` only, and refuses results of another solver build.
    Coordinator(Conn),
    /// A stopped coordinator's store.
    Store {
        /// The store directory.
        dir: PathBuf,
        /// Key files whose signature is trusted besides the store's own key.
        trust_key: Vec<PathBuf>,
        /// Take in results of another build of the kind's solver.
        accept_solver_change: bool,
    },
}

/// What to import, and how.
#[derive(Clone, Debug)]
pub struct ImportRequest {
    /// The export file.
    pub file: PathBuf,
    /// Where it is imported.
    pub into: Target,
    /// Import under this sweep id instead of the file's.
    pub name: Option<String>,
    /// Refuse the file unless a trusted key signed it.
    pub require_signature: bool,
    /// The share of the sweep's shards run again by another worker from now
    /// on, in millionths (`None`: `launch`'s default).
    pub verify_ppm: Option<u32>,
}

/// What an import did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ImportDone {
    /// What the coordinator or store answered.
    #[serde(flatten)]
    pub imported: Imported,
    /// The file imported.
    #[serde(skip)]
    pub file: PathBuf,
    /// Wall time of the whole import, in seconds.
    #[serde(skip)]
    pub seconds: f64,
}

impl ImportDone {
    /// The lines `import` prints (on stderr) when done.
    pub fn text(&self) -> String {
        let i = &self.imported;
        if !i.merged {
            return format!(
                "imported {} as sweep {}: {} done, in {:.2} s; {}",
                self.file.display(),
                i.sweep_id,
                output::count_of(i.done.into(), i.shards.into(), "shard"),
                self.seconds,
                trust_text(i)
            );
        }
        let mut out = format!(
            "merged {} into the held sweep {}: {} added, {} already held with the same result; {} done, in {:.2} s; {}",
            self.file.display(),
            i.sweep_id,
            output::plural(i.added.into(), "shard"),
            i.confirmed,
            output::count_of(i.done.into(), i.shards.into(), "shard"),
            self.seconds,
            trust_text(i)
        );
        if i.conflicts > 0 {
            out.push('\n');
            out.push_str(&output::conflicts_text(i.conflicts, &i.sweep_id));
        }
        out
    }
}

/// Import as `r` asks. `step` is told what it is doing as it goes (a large
/// file takes minutes); the CLI shows it on a terminal.
pub fn import(r: &ImportRequest, step: &dyn Fn(String)) -> anyhow::Result<ImportDone> {
    let started = Instant::now();
    step(format!("reading {}", r.file.display()));
    let bytes = std::fs::read(&r.file).with_context(|| format!("reading {}", r.file.display()))?;
    let imported = match &r.into {
        Target::Store {
            dir,
            trust_key,
            accept_solver_change,
        } => {
            let policy = ImportPolicy {
                trusted: export_file::read_key_files(trust_key)
                    .map_err(|e| UsageError(e.to_string()))?,
                require_signature: r.require_signature,
                verify_ppm: r.verify_ppm,
                accept_solver_change: *accept_solver_change,
            };
            into_store(r, &bytes, dir, &policy, step)?
        }
        Target::Coordinator(conn) => {
            let rt = connect::runtime()?;
            let mut c = connect::connect(&rt, conn)?;
            let opts = ImportOptions {
                rename: r.name.clone(),
                require_signature: r.require_signature,
                verify_ppm: r.verify_ppm,
            };
            step(format!(
                "sending {} ({} bytes) to the coordinator, which re-validates every result",
                r.file.display(),
                bytes.len()
            ));
            rt.block_on(c.import(bytes, &opts))
                .with_context(|| format!("importing {}", r.file.display()))?
        }
    };
    Ok(ImportDone {
        imported,
        file: r.file.clone(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The file `bytes` of `r` imported into the stopped store at `dir`.
fn into_store(
    r: &ImportRequest,
    bytes: &[u8],
    dir: &Path,
    policy: &ImportPolicy,
    step: &dyn Fn(String),
) -> anyhow::Result<Imported> {
    step(format!("checking {}", r.file.display()));
    let file = export_file::decode(bytes)
        .map_err(|e| UsageError(format!("{}: import refused: {e}", r.file.display())))?;
    step(format!("opening {}", dir.display()));
    let store = SledStore::open(dir).map_err(|e| UsageError(e.to_string()))?;
    let core = Core::open(Arc::new(store), Duration::from_secs(60))?;
    step(format!(
        "importing {} results into {} (each re-validated)",
        file.export.results.len(),
        dir.display()
    ));
    Ok(core
        .import(&file, r.name.as_deref(), policy)
        .map_err(|e| UsageError(format!("{}: {e}", r.file.display())))?)
}

/// What the import's signature meant, in words.
pub fn trust_text(i: &Imported) -> String {
    let rest = if i.done < i.shards {
        "; the unfinished shards are handed out to workers"
    } else {
        ""
    };
    if i.trusted {
        return format!(
            "signed by trusted key {}: {} trusted{rest}",
            i.signer,
            output::plural(i.added.into(), "result")
        );
    }
    let who = if i.signer.is_empty() {
        "not signed (an export of format 1)".to_string()
    } else {
        format!(
            "signed by key {}, which is not trusted here (trust it with --trust-key)",
            i.signer
        )
    };
    format!(
        "{who}: not signed by a trusted key: {} will be re-run by workers before the sweep can finish{rest}",
        output::plural(i.added.into(), "result")
    )
}
