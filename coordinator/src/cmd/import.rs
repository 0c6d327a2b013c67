//! `gamesweep import FILE`: load an export file into a running coordinator
//! (streamed over gRPC, admin token) or, with `--store DIR`, into a stopped
//! coordinator's store (or a `run` folder's `OUT/store`); every result is
//! re-validated, a file no trusted key signed imports as untrusted (or is
//! refused with `--require-signature`), and a file of a sweep the store
//! holds merges. The job is [`crate::ops::import`]; this parses, shows its
//! steps on a terminal and prints what it did.

use crate::args;
use crate::connect::Conn;
use crate::ops::import::{import, ImportRequest, Target};
use std::path::PathBuf;

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
    #[arg(long = "replicate-fraction", alias = "verify-fraction", value_name = "F", value_parser = args::parse_replicate_fraction)]
    pub replicate_fraction: Option<u32>,
    #[command(flatten)]
    pub conn: Conn,
}

impl From<&ImportArgs> for ImportRequest {
    fn from(a: &ImportArgs) -> Self {
        ImportRequest {
            file: a.file.clone(),
            into: match &a.store {
                Some(dir) => Target::Store {
                    dir: dir.clone(),
                    trust_key: a.trust_key.clone(),
                    accept_solver_change: a.accept_solver_change,
                },
                None => Target::Coordinator(a.conn.clone()),
            },
            name: a.name.clone(),
            require_signature: a.require_signature,
            verify_ppm: a.replicate_fraction,
        }
    }
}

/// Run `import`.
pub fn exec(a: ImportArgs) -> anyhow::Result<()> {
    // What it is doing, on a terminal only (a large file takes minutes).
    let spinner = crate::progress::Spinner::new(crate::progress::on_terminal());
    let done = import(&ImportRequest::from(&a), &|what| spinner.step(what))?;
    spinner.finish();
    eprintln!("{}", done.text());
    Ok(())
}
