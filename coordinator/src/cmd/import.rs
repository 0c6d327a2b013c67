//! `gamesweep import FILE`: load an export file into a running coordinator
//! (streamed over gRPC, admin token) or, with `--store DIR`, into a stopped
//! coordinator's store (or a `run` folder's `OUT/store`). Either way every
//! result is re-validated as a submit is, and nothing is written unless the
//! whole file passes.

use crate::connect::{self, Conn};
use crate::core::Core;
use crate::error::UsageError;
use crate::export_file;
use crate::store::SledStore;
use anyhow::Context as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `import` options.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The export file (written by `gamesweep export` or `--export-every`).
    pub file: PathBuf,
    /// Write into this stopped coordinator's store instead of sending the
    /// file to a running coordinator. For `gamesweep run ... --out OUT`,
    /// use `--store OUT/store --name run`, then rerun the same `run` to
    /// finish the sweep.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Import under this sweep id instead of the file's.
    #[arg(long, value_name = "ID")]
    pub name: Option<String>,
    #[command(flatten)]
    pub conn: Conn,
}

/// Run `import`.
pub fn exec(a: ImportArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let bytes = std::fs::read(&a.file).with_context(|| format!("reading {}", a.file.display()))?;
    let imported = match &a.store {
        Some(dir) => {
            let export = export_file::decode(&bytes)
                .map_err(|e| UsageError(format!("{}: import refused: {e}", a.file.display())))?;
            let store = SledStore::open(dir).map_err(|e| UsageError(e.to_string()))?;
            let core = Core::open(Arc::new(store), Duration::from_secs(60))?;
            core.import(&export, a.name.as_deref())
                .map_err(|e| UsageError(format!("{}: {e}", a.file.display())))?
        }
        None => {
            let rt = connect::runtime()?;
            let mut c = connect::connect(&rt, &a.conn)?;
            rt.block_on(c.import(bytes, a.name.as_deref()))
                .with_context(|| format!("importing {}", a.file.display()))?
        }
    };
    eprintln!(
        "imported {} as sweep {}: {}/{} shards done, in {:.2} s; the rest are handed out to workers",
        a.file.display(),
        imported.sweep_id,
        imported.done,
        imported.shards,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
