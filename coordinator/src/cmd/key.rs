//! `gamesweep key show --store DIR` and `key export --store DIR --out
//! FILE`: the Ed25519 public key a coordinator signs its exports with (kept
//! in its store, made when the store was created or first opened by a build
//! that signs exports). Another coordinator, or `import`/`verify`, trusts
//! the exports of this one with `--trust-key FILE` (see docs/trust.md).

use crate::error::UsageError;
use crate::output;
use anyhow::Context as _;
use gamesweep_engine::export_file::PublicKey;
use gamesweep_engine::store::{SledStore, Store as _};
use std::path::{Path, PathBuf};

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

/// The public key of the store at `dir`; an absent folder is refused
/// rather than made into a new store with a new key.
fn public_key(dir: &Path) -> anyhow::Result<PublicKey> {
    if !dir.is_dir() {
        return Err(UsageError(format!(
            "{}: no such store (give the folder a coordinator's --store, or a run's OUT/store)",
            dir.display()
        ))
        .into());
    }
    let store = SledStore::open(dir).map_err(|e| UsageError(e.to_string()))?;
    Ok(gamesweep_engine::export_file::Signer::from_seed(&store.signing_key()).public())
}

/// Run `key`.
pub fn exec(c: KeyCommand) -> anyhow::Result<()> {
    match c {
        KeyCommand::Show(a) => {
            let k = public_key(&a.store)?;
            output::print(format!(
                "export signing key of {}: {}\n{} {}\n",
                a.store.display(),
                k.fingerprint(),
                gamesweep_engine::export_file::KEY_FILE_TAG,
                k.to_hex()
            ))?;
        }
        KeyCommand::Export(a) => {
            let k = public_key(&a.store.store)?;
            let text = k.key_file(&format!(
                "gamesweep export signing key (Ed25519 public key) of the store {}\ntrust its exports with: gamesweep import FILE --trust-key THIS_FILE (or serve/verify --trust-key)",
                a.store.store.display()
            ));
            gamesweep_engine::export_file::write_atomic(&a.out, text.as_bytes())
                .with_context(|| format!("writing {}", a.out.display()))?;
            eprintln!(
                "wrote key {} of {} to {}",
                k.fingerprint(),
                a.store.store.display(),
                a.out.display()
            );
        }
    }
    Ok(())
}
