//! `gamesweep key show --store DIR` and `key export --store DIR --out
//! FILE`: the Ed25519 public key a coordinator signs its exports with, and
//! the key file that makes another coordinator, `import` or `verify` trust
//! them (`--trust-key FILE`, see docs/trust.md). The job is
//! [`crate::ops::key`]; this parses and prints.

use crate::ops::key::{key, KeyRequest};
use crate::output;
use std::path::PathBuf;

/// `key` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum KeyCommand {
    /// Print the store's export signing key: its fingerprint and the key line of a key file.
    Show(StoreArg),
    /// Write the store's export signing key to a key file, for `--trust-key FILE` elsewhere.
    Export(KeyExportArgs),
}

/// The store whose key is read.
#[derive(clap::Args, Debug)]
pub struct StoreArg {
    /// A stopped coordinator's store (or a `run` folder's `OUT/store`).
    #[arg(long, value_name = "DIR")]
    pub store: PathBuf,
}

/// `key export` options.
#[derive(clap::Args, Debug)]
pub struct KeyExportArgs {
    /// The store whose key is written.
    #[command(flatten)]
    pub store: StoreArg,
    /// The key file to write (a few lines of text; public, not secret).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Run `key`.
pub fn exec(c: KeyCommand) -> anyhow::Result<()> {
    match c {
        KeyCommand::Show(a) => {
            let k = key(&KeyRequest {
                store: a.store,
                out: None,
            })?;
            output::print(k.text())?;
        }
        KeyCommand::Export(a) => {
            let k = key(&KeyRequest {
                store: a.store.store,
                out: Some(a.out),
            })?;
            if let Some(line) = k.written_text() {
                eprintln!("{line}");
            }
        }
    }
    Ok(())
}
