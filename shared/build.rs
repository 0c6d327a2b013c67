//! Build-time solver ids.
//!
//! * `$OUT_DIR/kind_versions.rs`: the solver version id of every source file
//!   (relative to `src/`), i.e. of the unit holding it and everything that
//!   unit depends on, with comments, tests and unrelated modules left out.
//!   A kind's version ([`gamesweep::sweep::SweepKind::version`]) is looked up
//!   here by its `source_file()`. How it is computed, and why a change that
//!   can alter a kind's results always changes it: `build/versions.rs`.
//! * `GAMESWEEP_BUILD_ID`: a hash of everything under `src/` and `Cargo.toml`
//!   (tests and comments included). For display; never used to decide
//!   whether a sweep may be resumed.
use std::path::{Path, PathBuf};

#[path = "build/versions.rs"]
mod versions;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The whole-crate id (see the module docs).
fn build_id(root: &Path) -> String {
    let mut files = vec![root.join("Cargo.toml")];
    collect(&root.join("src"), &mut files);
    // Relative, '/'-separated, sorted paths: the id does not depend on where
    // the checkout lives or on directory listing order.
    let mut rel: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| {
            let r = p
                .strip_prefix(root)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            (r, p)
        })
        .collect();
    rel.sort();
    let mut h = versions::Fnv128::default();
    for (name, path) in &rel {
        h.put(name.as_bytes());
        h.put(&std::fs::read(path).unwrap_or_default());
    }
    h.hex()
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    for p in [
        "src",
        "build",
        "Cargo.toml",
        "../Cargo.toml",
        "../Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={p}");
    }
    println!("cargo:rustc-env=GAMESWEEP_BUILD_ID={}", build_id(&root));

    let inputs = versions::read_inputs(&root, "gamesweep");
    let table = versions::file_versions(&root.join("src"), &inputs)
        .unwrap_or_else(|e| panic!("solver versions: {e}"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("kind_versions.rs"), versions::render_table(&table))
        .expect("OUT_DIR is writable");
}
