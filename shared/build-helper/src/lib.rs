//! Solver versions for sweep kinds defined outside `gamesweep`.
//!
//! A crate with its own kind calls [`emit_kind_version`] from its `build.rs`
//! (with this crate as a build dependency) and returns
//! `Some(env!("GAMESWEEP_KIND_VERSION"))` from `Kind::outside_version`; the
//! kind's version is then `gamesweep::version::outside_kind_version`.
//!
//! # What the id covers, and why that is enough
//!
//! The id hashes, with the same tokenizer as shared's own kind versions
//! (`shared/build/versions.rs`, included here):
//!
//! 1. every file of the crate's library module tree (`src/lib.rs` and the
//!    `mod`s it declares outside `#[cfg(test)]`), comments dropped and
//!    `#[cfg(test)]` items cut, plus every `src/main.rs` and `src/bin/**.rs`
//!    (binaries, the same way);
//! 2. the crate's `[dependencies]` and `[features]` sections and edition, and
//!    the workspace's `[workspace.dependencies]` section and edition (all of
//!    them: over-approximating is sound);
//! 3. the `Cargo.lock` entries of every package the crate depends on,
//!    transitively: name, version, source and checksum. That includes
//!    `gamesweep` and everything it depends on.
//!
//! The runtime adds `gamesweep`'s `BUILD_ID` (every file under `shared/src`
//! and `shared/Cargo.toml`), since the kind may run any of its code. So a
//! change that can alter the kind's results (its code, `gamesweep`'s code,
//! a locked crate, a feature) changes the version; tests, comments and
//! docs of the outside crate do not. Not covered, as for shared's kinds: the
//! toolchain, and features another package of the build turns on.

#[path = "../../build/versions.rs"]
mod versions;

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// The environment variable [`emit_kind_version`] sets for the crate's code.
pub const ENV: &str = "GAMESWEEP_KIND_VERSION";

/// Why no version could be computed.
#[derive(Debug)]
pub enum BuildError {
    /// A file could not be read.
    Read(PathBuf, std::io::Error),
    /// The library's module tree is broken (a declared module has no file).
    Tree(String),
    /// No `Cargo.lock` in the crate's directory or above it.
    NoLock(PathBuf),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Read(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            BuildError::Tree(e) => write!(f, "module tree: {e}"),
            BuildError::NoLock(p) => {
                write!(f, "no Cargo.lock in {} or above it", p.display())
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// The `Cargo.lock` that governs `dir`: the nearest one in it or above it.
pub fn find_lock(dir: &Path) -> Result<PathBuf, BuildError> {
    dir.ancestors()
        .map(|d| d.join("Cargo.lock"))
        .find(|p| p.is_file())
        .ok_or_else(|| BuildError::NoLock(dir.to_path_buf()))
}

fn read(p: &Path) -> Result<String, BuildError> {
    std::fs::read_to_string(p).map_err(|e| BuildError::Read(p.to_path_buf(), e))
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The version id (32 hex digits) of the crate `package` at `manifest_dir`
/// (see the crate docs for what it covers).
pub fn outside_version_id(manifest_dir: &Path, package: &str) -> Result<String, BuildError> {
    let mut h = versions::Fnv128::default();
    h.put(b"gamesweep outside kind version 1");
    let src = manifest_dir.join("src");
    // 1. the library's module tree, then the binaries
    if src.join("lib.rs").is_file() {
        for f in versions::read_tree(&src).map_err(BuildError::Tree)? {
            h.put(f.path.as_bytes());
            h.put(versions::normalized(&f.toks).as_bytes());
            for (p, text) in &f.included {
                h.put(p.as_bytes());
                h.put(text.as_bytes());
            }
        }
    }
    let mut bins = Vec::new();
    if src.join("main.rs").is_file() {
        bins.push(src.join("main.rs"));
    }
    rust_files(&src.join("bin"), &mut bins);
    bins.sort();
    for p in &bins {
        let toks = versions::tokenize(&read(p)?);
        // `None`: nothing left outside tests; hash the marker only.
        let toks = versions::strip_cfg_test(toks).unwrap_or_default();
        let rel = p.strip_prefix(manifest_dir).unwrap_or(p);
        h.put(rel.to_string_lossy().replace('\\', "/").as_bytes());
        h.put(versions::normalized(&toks).as_bytes());
    }
    // 2. manifests
    let manifest = read(&manifest_dir.join("Cargo.toml"))?;
    let lock_path = find_lock(manifest_dir)?;
    let root = lock_path.parent().unwrap_or(manifest_dir);
    let ws_manifest = if root == manifest_dir {
        String::new()
    } else {
        read(&root.join("Cargo.toml"))?
    };
    h.put(b"manifest");
    let deps = versions::toml_section(&manifest, "dependencies");
    for l in deps
        .iter()
        .chain(&versions::toml_section(&manifest, "features"))
    {
        h.put(l.as_bytes());
    }
    h.put(b"workspace");
    for l in versions::toml_section(&ws_manifest, "workspace.dependencies") {
        h.put(l.as_bytes());
    }
    for l in manifest.lines().chain(ws_manifest.lines()) {
        if l.trim().starts_with("edition") {
            h.put(l.trim().as_bytes());
        }
    }
    // 3. the locked closure of every dependency
    h.put(b"lock");
    let lock = versions::parse_lock(&read(&lock_path)?);
    let crates: BTreeSet<String> = versions::dependency_names(&deps);
    for p in versions::lock_closure(&lock, package, &crates) {
        h.put(p.name.as_bytes());
        h.put(p.version.as_bytes());
        h.put(p.origin.as_bytes());
    }
    Ok(h.hex())
}

/// For a `build.rs`: compute the id of the crate being built (from cargo's
/// `CARGO_MANIFEST_DIR` and `CARGO_PKG_NAME`), hand it to the crate's code
/// as `env!("GAMESWEEP_KIND_VERSION")`, and ask cargo to run the script
/// again when a hashed input changes. Panics with the reason if it cannot
/// (a build script has no better way to fail).
pub fn emit_kind_version() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let package = std::env::var("CARGO_PKG_NAME").expect("cargo sets it");
    let id = outside_version_id(&dir, &package)
        .unwrap_or_else(|e| panic!("gamesweep kind version of {package}: {e}"));
    println!("cargo:rustc-env={ENV}={id}");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    if let Ok(lock) = find_lock(&dir) {
        println!("cargo:rerun-if-changed={}", lock.display());
        if let Some(root) = lock.parent() {
            println!(
                "cargo:rerun-if-changed={}",
                root.join("Cargo.toml").display()
            );
        }
    }
}
