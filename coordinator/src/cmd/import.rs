//! `gamesweep import FILE`: load an export file into a running coordinator
//! (streamed over gRPC, admin token) or, with `--store DIR`, into a stopped
//! coordinator's store (or a `run` folder's `OUT/store`). Either way every
//! result is re-validated as a submit is, and nothing is written unless the
//! whole file passes. A file no trusted key signed imports as untrusted
//! (every imported result re-run by a worker before the sweep can finish),
//! or is refused with `--require-signature`; the output says which.
//!
//! Into a store that holds the same sweep already (the same id, kind,
//! parameters and plan: the parts of one sweep, `--part K/M`, or a chain of
//! incremental checkpoints) the file merges: the shards the store lacks are
//! added, those it has are compared by result digest (a difference refuses
//! the file, naming the shards, and changes nothing); importing the same
//! file again changes nothing.

use crate::args;
use crate::connect::{self, Conn};
use crate::error::UsageError;
use anyhow::Context as _;
use gamesweep_api::domain::{ImportOptions, Imported};
use gamesweep_engine::core::transfer::ImportPolicy;
use gamesweep_engine::core::Core;
use gamesweep_engine::export_file;
use gamesweep_engine::store::SledStore;
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
    /// use `--store OUT/store --name run --replicate-fraction 0` (`run`'s
    /// share), then rerun the same `run` to finish the sweep.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Import under this sweep id instead of the file's.
    #[arg(long, value_name = "ID")]
    pub name: Option<String>,
    /// With --store: trust files signed by the key in FILE (`gamesweep key
    /// export` on the coordinator that wrote it), besides the store's own
    /// key; repeatable. A running coordinator trusts its own key and those
    /// of `serve --trust-key` only.
    #[arg(long, value_name = "FILE", requires = "store")]
    pub trust_key: Vec<PathBuf>,
    /// Refuse the file unless a trusted key signed it (instead of importing
    /// its results as untrusted, to be re-run by workers).
    #[arg(long)]
    pub require_signature: bool,
    /// With --store: take in results of another build of the kind's solver
    /// than this one's; the sweep goes on under this build, and each shard
    /// keeps the record of which build computed it (`provenance.json`, the
    /// report's Verification section). A running coordinator refuses them.
    #[arg(long, requires = "store")]
    pub accept_solver_change: bool,
    /// Share of the imported sweep's shards (0..1, or a percentage) whose
    /// result is run again by another identity and compared (replication),
    /// from now on [default: 1%, as `launch`]. The file's own share is not
    /// used.
    // `--verify-fraction`: its older name, accepted and not shown.
    #[arg(long = "replicate-fraction", alias = "verify-fraction", value_name = "F", value_parser = args::parse_verify_fraction)]
    pub verify_fraction: Option<u32>,
    #[command(flatten)]
    pub conn: Conn,
}

/// Run `import`.
pub fn exec(a: ImportArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    // What it is doing, on a terminal only (a large file takes minutes).
    let spinner = crate::progress::Spinner::new(crate::progress::on_terminal());
    spinner.step(format!("reading {}", a.file.display()));
    let bytes = std::fs::read(&a.file).with_context(|| format!("reading {}", a.file.display()))?;
    let imported = match &a.store {
        Some(dir) => {
            let policy = ImportPolicy {
                trusted: export_file::read_key_files(&a.trust_key)
                    .map_err(|e| UsageError(e.to_string()))?,
                require_signature: a.require_signature,
                verify_ppm: a.verify_fraction,
                accept_solver_change: a.accept_solver_change,
            };
            spinner.step(format!("checking {}", a.file.display()));
            let file = export_file::decode(&bytes)
                .map_err(|e| UsageError(format!("{}: import refused: {e}", a.file.display())))?;
            spinner.step(format!("opening {}", dir.display()));
            let store = SledStore::open(dir).map_err(|e| UsageError(e.to_string()))?;
            let core = Core::open(Arc::new(store), Duration::from_secs(60))?;
            spinner.step(format!(
                "importing {} results into {} (each re-validated)",
                file.export.results.len(),
                dir.display()
            ));
            core.import(&file, a.name.as_deref(), &policy)
                .map_err(|e| UsageError(format!("{}: {e}", a.file.display())))?
        }
        None => {
            let rt = connect::runtime()?;
            let mut c = connect::connect(&rt, &a.conn)?;
            let opts = ImportOptions {
                rename: a.name.clone(),
                require_signature: a.require_signature,
                verify_ppm: a.verify_fraction,
            };
            spinner.step(format!(
                "sending {} ({} bytes) to the coordinator, which re-validates every result",
                a.file.display(),
                bytes.len()
            ));
            rt.block_on(c.import(bytes, &opts))
                .with_context(|| format!("importing {}", a.file.display()))?
        }
    };
    spinner.finish();
    if imported.merged {
        eprintln!(
            "merged {} into the held sweep {}: {} added, {} already held with the same result; {} done, in {:.2} s; {}",
            a.file.display(),
            imported.sweep_id,
            crate::output::plural(imported.added.into(), "shard"),
            imported.confirmed,
            crate::output::count_of(imported.done.into(), imported.shards.into(), "shard"),
            started.elapsed().as_secs_f64(),
            trust_text(&imported)
        );
        if imported.conflicts > 0 {
            eprintln!(
                "{}",
                crate::output::conflicts_text(imported.conflicts, &imported.sweep_id)
            );
        }
        return Ok(());
    }
    eprintln!(
        "imported {} as sweep {}: {} done, in {:.2} s; {}",
        a.file.display(),
        imported.sweep_id,
        crate::output::count_of(imported.done.into(), imported.shards.into(), "shard"),
        started.elapsed().as_secs_f64(),
        trust_text(&imported)
    );
    Ok(())
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
            crate::output::plural(i.added.into(), "result")
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
        crate::output::plural(i.added.into(), "result")
    )
}
