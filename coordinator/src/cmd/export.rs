//! `gamesweep export ID FILE`: write one sweep (definition, plan, solver
//! version, every finished shard result) to one compressed, checksummed
//! export file signed with the coordinator's key, from a running
//! coordinator or, with `--store DIR`, from a stopped coordinator's store.
//! The job is [`crate::ops::export`]; this parses, shows its steps on a
//! terminal and prints its line.

use crate::connect::Conn;
use crate::ops::export::{export, ExportRequest, Source};
use std::path::PathBuf;

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

impl From<&ExportArgs> for ExportRequest {
    fn from(a: &ExportArgs) -> Self {
        ExportRequest {
            id: a.id.clone(),
            file: a.file.clone(),
            from: match &a.store {
                Some(dir) => Source::Store {
                    dir: dir.clone(),
                    since: a.since.clone(),
                },
                None => Source::Coordinator(a.conn.clone()),
            },
        }
    }
}

/// Run `export`.
pub fn exec(a: ExportArgs) -> anyhow::Result<()> {
    // What it is doing, on a terminal only (a large sweep takes minutes).
    let spinner = crate::progress::Spinner::new(crate::progress::on_terminal());
    let done = export(&ExportRequest::from(&a), &|what| spinner.step(what))?;
    spinner.finish();
    eprintln!("{}", done.text());
    Ok(())
}
