//! `gamesweep store check DIR`: the deep check of a stopped coordinator's
//! store. Every stored value's checksum and decoding, every result decoded
//! with its sweep's kind, and the journal of acknowledged work against the
//! store (presence and SHA-256 of every acknowledged result). Prints a
//! summary; exits non-zero if anything is damaged or missing.
//! [`check_store`] (in `ops::store`) answers the same as a value (the
//! Python module's `store_check`). `gamesweep store compact DIR`: the
//! store copied into a new database, only what it holds.

use crate::ops::store::{check_store, compact_store};
use crate::output;
use std::path::{Path, PathBuf};

/// `store` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum StoreCommand {
    /// Check a stopped coordinator's store deeply and print what is damaged.
    ///
    /// Reads every stored value (checksum and decoding), decodes every shard
    /// result with its sweep's kind, and compares the journal of acknowledged
    /// work with the store: every acknowledged sweep present, every
    /// acknowledged shard result present with the SHA-256 it was
    /// acknowledged with. Exits 0 if all is well, 1 on damage (the summary
    /// names each damaged tree, sweep and shard). DIR is a store directory
    /// (`serve --store DIR`) or a `run` output folder (its `store/`). Stop the
    /// coordinator first: the store is opened as a coordinator opens it (an
    /// older v2 store is migrated).
    Check(CheckArgs),
    /// Copy a stopped coordinator's store into a new database, keeping only what it holds.
    ///
    /// sled's files keep space it no longer needs: its log's dead pages, and
    /// (stores written by builds before snapshots were kept in parts) a file
    /// in `blobs/` for every snapshot ever written, hundreds of MB an hour
    /// in a long sweep. This copies every sweep, result, record and the
    /// journal into a new database and puts it in the store's place. The
    /// store is checked first and refused if it is damaged (see `store
    /// check`); the copy must open and read whole before the old store is
    /// removed (kept beside it as DIR.before-compact-UNIXSECONDS with
    /// --keep-old), and if it does not, the store is left as it was. Needs
    /// free disk space for the copy. Stop the coordinator first.
    Compact(CompactArgs),
}

/// `store compact` options.
#[derive(clap::Args, Debug)]
pub struct CompactArgs {
    /// The store directory, or a `run --out` folder holding `store/`.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Keep the store as it was beside the copy (DIR.before-compact-UNIXSECONDS).
    #[arg(long)]
    pub keep_old: bool,
}

/// `store check` options.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The store directory, or a `run --out` folder holding `store/`.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Run a `store` subcommand.
pub fn exec(c: StoreCommand) -> anyhow::Result<()> {
    match c {
        StoreCommand::Check(a) => check(&a.dir),
        StoreCommand::Compact(a) => output::print(compact_store(&a.dir, a.keep_old)?).map(drop),
    }
}

fn check(dir: &Path) -> anyhow::Result<()> {
    let c = check_store(dir)?;
    output::print(c.text())?;
    if c.ok() {
        return Ok(());
    }
    anyhow::bail!(
        "store {} is damaged: {} problem(s), listed above",
        c.store.display(),
        c.problems.len()
    )
}
