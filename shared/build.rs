//! Computes `GAMESWEEP_BUILD_ID`: a deterministic hash of the solver sources
//! (`src/**` and `Cargo.toml`). Rebuilding identical code gives the same id,
//! so a coordinator accepts workers built elsewhere from the same sources,
//! while any change to the core gives a new id and one sweep's numbers never
//! mix two solver builds.
use std::path::{Path, PathBuf};

/// FNV-1a, 64 bit: tiny, stable across Rust versions and platforms (std's
/// `DefaultHasher` is not guaranteed to be).
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

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

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    let mut files = vec![root.join("Cargo.toml")];
    collect(&root.join("src"), &mut files);
    // Relative, '/'-separated, sorted paths: the id does not depend on where
    // the checkout lives or on directory listing order.
    let mut rel: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| {
            let r = p
                .strip_prefix(&root)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            (r, p)
        })
        .collect();
    rel.sort();
    // Two differently seeded FNV streams → 128 bits, ample against accidental collisions.
    let (mut a, mut b) = (0xcbf2_9ce4_8422_2325u64, 0x6c62_272e_07bb_0142u64);
    for (name, path) in &rel {
        let data = std::fs::read(path).unwrap_or_default();
        for chunk in [
            name.as_bytes(),
            &[0],
            &(data.len() as u64).to_le_bytes(),
            &data,
        ] {
            a = fnv(a, chunk);
            b = fnv(b, chunk);
        }
    }
    println!("cargo:rustc-env=GAMESWEEP_BUILD_ID={a:016x}{b:016x}");
}
