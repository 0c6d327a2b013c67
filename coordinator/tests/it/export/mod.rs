//! Moving a sweep: `gamesweep export`, `import` (over gRPC and into a
//! stopped store), `verify`, `--export-every`, with real processes on
//! 127.0.0.1 (port 0), and the refusals of an untrusted export file: any
//! flipped byte, a truncated file, an unknown format version, another solver
//! version, a caller without the admin role, and a forged
//! result under a valid checksum. A refused import writes nothing.
//!
//! Signed exports (docs/trust.md): a file changed and re-checksummed after
//! signing is refused as tampered; one without a trusted signature (format
//! 1, or another key's) imports as untrusted, and its results count only
//! once workers re-ran them (an undercounting file never reaches a report),
//! or is refused with `--require-signature`; the verification share is the
//! importer's, never the file's; `verify` re-derives the plan.

use gamesweep_engine::core::transfer::ImportPolicy;
use gamesweep_engine::core::{Core, CoreError};
use gamesweep_engine::export_file::{self, Decoded, Export, Signer, FORMAT_VERSION};
use gamesweep_engine::store::{SledStore, Store};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::support::harness;
use harness::{gs, ok, refused, serve, work_until_idle};

mod moves;
mod refused;
mod tampered;

fn write_token(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("{text}\n")).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `gamesweep args` succeeds; its standard error (where `import` reports).
fn ok_err(args: &[&str]) -> String {
    let o = gs(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "gamesweep {args:?} failed: {err}");
    err
}

/// `v` as `&str`s (for [`gs`] and friends).
fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The key file of the store at `store` (`gamesweep key export`), at `out`.
fn key_file(store: &Path, out: &Path) -> PathBuf {
    let err = ok_err(&["key", "export", "--store", s(store), "--out", s(out)]);
    assert!(err.contains("sha256:"), "{err}");
    out.to_path_buf()
}

/// The results.json of an uninterrupted in-process run of uvg n ≤ `n`.
fn reference(dir: &Path, n: u32) -> Vec<u8> {
    let out = dir.join(format!("ref{n}"));
    ok(&[
        "run",
        "uvg",
        "--max-n",
        &n.to_string(),
        "--shards",
        "64",
        "--in-process",
        "-q",
        "--out",
        s(&out),
    ]);
    std::fs::read(out.join("results.json")).unwrap()
}

/// A finished run of uvg n ≤ 7 with `--export-every`: its checkpoint file
/// (written when the run stops) is a real export of a finished sweep.
fn finished_export(dir: &Path) -> PathBuf {
    let out = dir.join("small");
    ok(&[
        "run",
        "uvg",
        "--max-n",
        "7",
        "--shards",
        "16",
        "-q",
        "--export-every",
        "1h",
        "--out",
        s(&out),
    ]);
    let file = out.join("run.gsx");
    assert!(file.exists(), "run --export-every wrote no checkpoint");
    file
}

/// `bytes` with its trailing checksum recomputed (what an attacker can do).
fn rechecksum(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 32;
    let sum = Sha256::digest(&bytes[..n]);
    bytes[n..].copy_from_slice(&sum);
    bytes
}

/// The key that signed `d`.
fn signer_of(d: &Decoded) -> export_file::PublicKey {
    match d.signature {
        export_file::Signature::Signed(k) => k,
        export_file::Signature::Unsigned => panic!("an unsigned export"),
    }
}

/// `export` with its first result's `first_player_wins` counter raised by
/// one: still a well-formed result of the kind, but not the shard's.
fn forge(export: &mut Export) -> u32 {
    let key = "\"first_player_wins\":";
    for r in &mut export.results {
        if let Some(at) = r.result.find(key) {
            let start = at + key.len();
            let end = start
                + r.result[start..]
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap();
            let n: u64 = r.result[start..end].parse().unwrap();
            r.result.replace_range(start..end, &(n + 1).to_string());
            return r.index;
        }
    }
    panic!("no result with {key}");
}

/// The sweep ids in the sled store at `dir` (the store closed again).
fn stored_ids(dir: &Path) -> Vec<String> {
    let store = SledStore::open(dir).unwrap();
    store
        .load_all()
        .unwrap()
        .into_iter()
        .map(|s| s.record.id)
        .collect()
}

/// Resume the uvg sweep `name` (max n 9, 64 shards, no verification copies)
/// at `url` with the `[admin, worker, read]` tokens, work it to the end, and
/// return its `results.json` as reported into `dir/got`.
fn resume_and_report(
    url: &str,
    name: &str,
    [admin, worker, read]: [&Path; 3],
    worker_log: &Path,
    dir: &Path,
) -> Vec<u8> {
    ok(&[
        "launch",
        "uvg",
        "--max-n",
        "9",
        "--shards",
        "64",
        "--name",
        name,
        "--resume",
        "--replicate-fraction",
        "0",
        "--coordinator",
        url,
        "--token-file",
        s(admin),
    ]);
    work_until_idle(url, Some(worker), worker_log);
    let got = dir.join("got");
    ok(&[
        "report",
        name,
        "--out",
        s(&got),
        "--coordinator",
        url,
        "--token-file",
        s(read),
    ]);
    std::fs::read(got.join("results.json")).unwrap()
}
