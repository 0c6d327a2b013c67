//! A store's export signing key (`gamesweep key show|export`, Python's
//! `Coordinator.key`): the Ed25519 public key a coordinator signs its
//! exports with (kept in its store, made when the store was created or
//! first opened by a build that signs exports), and the key file that makes
//! another coordinator, `import` or `verify` trust those exports
//! (`--trust-key FILE`, see docs/trust.md).

use crate::error::UsageError;
use anyhow::Context as _;
use gamesweep_engine::export_file::{self, PublicKey};
use gamesweep_engine::store::{SledStore, Store as _};
use std::path::{Path, PathBuf};

/// Whose key, and where to write its key file.
#[derive(Clone, Debug)]
pub struct KeyRequest {
    /// A stopped coordinator's store (or a `run` folder's `OUT/store`).
    pub store: PathBuf,
    /// Write the key file here too (`key export`); `None`: only read it.
    pub out: Option<PathBuf>,
}

/// A store's export signing key.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StoreKey {
    /// The store.
    pub store: PathBuf,
    /// The key's fingerprint (`sha256:...`).
    pub fingerprint: String,
    /// The key line of a key file.
    pub key: String,
    /// The key file written (`key export`).
    #[serde(skip)]
    pub written: Option<PathBuf>,
}

impl StoreKey {
    /// What `key show` prints.
    pub fn text(&self) -> String {
        format!(
            "export signing key of {}: {}\n{}\n",
            self.store.display(),
            self.fingerprint,
            self.key
        )
    }

    /// The line `key export` prints (on stderr), if a key file was written.
    pub fn written_text(&self) -> Option<String> {
        self.written.as_ref().map(|out| {
            format!(
                "wrote key {} of {} to {}",
                self.fingerprint,
                self.store.display(),
                out.display()
            )
        })
    }
}

/// The key of the store `r.store`, its key file written to `r.out` if
/// given (atomically). An absent folder is refused rather than made into
/// a new store with a new key.
pub fn key(r: &KeyRequest) -> anyhow::Result<StoreKey> {
    let k = public_key(&r.store)?;
    if let Some(out) = &r.out {
        let text = k.key_file(&format!(
            "gamesweep export signing key (Ed25519 public key) of the store {}\ntrust its exports with: gamesweep import FILE --trust-key THIS_FILE (or serve/verify --trust-key)",
            r.store.display()
        ));
        export_file::write_atomic(out, text.as_bytes())
            .with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(StoreKey {
        store: r.store.clone(),
        fingerprint: k.fingerprint(),
        key: format!("{} {}", export_file::KEY_FILE_TAG, k.to_hex()),
        written: r.out.clone(),
    })
}

/// The public key of the store at `dir`.
fn public_key(dir: &Path) -> anyhow::Result<PublicKey> {
    if !dir.is_dir() {
        return Err(UsageError(format!(
            "{}: no such store (give the folder a coordinator's --store, or a run's OUT/store)",
            dir.display()
        ))
        .into());
    }
    let store = SledStore::open(dir).map_err(|e| UsageError(e.to_string()))?;
    Ok(export_file::Signer::from_seed(&store.signing_key()).public())
}
