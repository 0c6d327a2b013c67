//! The export file (`gamesweep export`, `import`, `verify`, `--export-every`):
//! one sweep's definition, plan, solver version and finished shard results
//! in one compressed, checksummed file, so a sweep moves between stores.
//!
//! Layout (all integers little endian):
//!
//! ```text
//! magic    8 bytes   "GSWEEPX\n"
//! version  4 bytes   format version (FORMAT_VERSION)
//! length   8 bytes   length of the compressed body
//! body     length    zstd of the JSON of an [`Export`]
//! sha256  32 bytes   SHA-256 of everything before it
//! ```
//!
//! Decoding trusts nothing: a short or long file, another magic, another
//! format version, a checksum that does not match, a body that does not
//! decompress (or decompresses to more than [`MAX_BODY`]) or is not an
//! [`Export`], and an export whose shard indices are inconsistent are each
//! one line of error. The kind-level checks (solver version, re-planning,
//! every result decoded and validated against its shard) are the core's
//! (`core::transfer`): this module knows no kind.

use gamesweep::sweep::{Params, ShardSpec};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// The first bytes of every export file.
pub const MAGIC: &[u8; 8] = b"GSWEEPX\n";
/// The format this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// The largest body (decompressed JSON) read: 1 GiB.
pub const MAX_BODY: u64 = 1 << 30;
/// The conventional file extension.
pub const EXTENSION: &str = "gsx";

const HEADER: usize = 8 + 4 + 8;
const TRAILER: usize = 32;

/// One sweep, as exported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Export {
    /// The sweep's id in the store it came from.
    pub sweep_id: String,
    /// The kind's name.
    pub kind: String,
    /// Resolved parameters.
    pub params: Params,
    /// The kind's solver version (`SweepKind::version`) the results came from.
    pub solver_version: String,
    /// The target shard count asked for at launch (0: the kind's default).
    pub target_shards: u32,
    /// The sample the sweep was launched with, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<ExportSample>,
    /// Share of shards verified by a second worker, millionths.
    pub verify_ppm: u32,
    /// Key of the hash that selects them.
    pub verify_seed: u64,
    /// The plan, indexed by shard index.
    pub plan: Vec<ShardSpec>,
    /// Every finished shard's result, by increasing shard index.
    pub results: Vec<ExportResult>,
}

/// A sweep's seeded sample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportSample {
    /// Target share of the plan's estimated work, millionths.
    pub ppm: u32,
    /// Seed of the shuffle that picked the shards.
    pub seed: u64,
    /// The sampled shard indices.
    pub shards: Vec<u32>,
    /// Whether only the sample is handed out.
    pub limited: bool,
}

/// One finished shard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportResult {
    /// The shard index.
    pub index: u32,
    /// The stored encoded result (the kind's result as JSON text).
    pub result: String,
    /// Wall-clock microseconds on its worker (0: unknown).
    #[serde(default)]
    pub wall_us: u64,
    /// Thread CPU microseconds on its worker (0: unknown).
    #[serde(default)]
    pub cpu_us: u64,
    /// The worker whose result was accepted (empty: unknown).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub worker: String,
}

/// Why an export file was refused (one line each).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ExportError {
    /// Shorter than a header and a trailer, or than its header says.
    #[error("export file is truncated ({have} bytes, expected {want}): copy it again")]
    Truncated {
        /// Bytes present.
        have: u64,
        /// Bytes the header promises (at least).
        want: u64,
    },
    /// Not a gamesweep export.
    #[error("not a gamesweep export file (its first bytes are not the export magic)")]
    Magic,
    /// Another format version.
    #[error("export file format version {found} is unknown to this build (it reads version {FORMAT_VERSION}); import it with the gamesweep version that wrote it, or the file is corrupt")]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// The checksum does not match: a changed or damaged file.
    #[error("export file is corrupt: its SHA-256 checksum does not match its content")]
    Checksum,
    /// Longer than its header says.
    #[error("export file has {0} bytes after its end: it is corrupt")]
    Trailing(u64),
    /// The body does not decompress, or is not an export.
    #[error("export file is corrupt: {0}")]
    Body(String),
    /// The content is inconsistent (indices).
    #[error("export file is inconsistent: {0}")]
    Inconsistent(String),
}

/// The file's bytes for `export`.
pub fn encode(export: &Export) -> Vec<u8> {
    let json = serde_json::to_vec(export).expect("an export serializes to JSON");
    // Level 19: the file is written rarely and kept (committed to git).
    let body = zstd::bulk::compress(&json, 19).expect("zstd compresses a buffer");
    let mut out = Vec::with_capacity(HEADER + body.len() + TRAILER);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    let sum = Sha256::digest(&out);
    out.extend_from_slice(&sum);
    out
}

/// The export in `bytes`, or why it is refused.
pub fn decode(bytes: &[u8]) -> Result<Export, ExportError> {
    let have = bytes.len() as u64;
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        if bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
            return Err(ExportError::Truncated {
                have,
                want: (HEADER + TRAILER) as u64,
            });
        }
        return Err(ExportError::Magic);
    }
    if bytes.len() < HEADER + TRAILER {
        return Err(ExportError::Truncated {
            have,
            want: (HEADER + TRAILER) as u64,
        });
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(ExportError::Version { found: version });
    }
    let len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
    let want = len.saturating_add((HEADER + TRAILER) as u64);
    if have < want {
        return Err(ExportError::Truncated { have, want });
    }
    if have > want {
        return Err(ExportError::Trailing(have - want));
    }
    let end = HEADER + len as usize;
    let sum = Sha256::digest(&bytes[..end]);
    if sum.as_slice() != &bytes[end..] {
        return Err(ExportError::Checksum);
    }
    let mut json = Vec::new();
    zstd::stream::read::Decoder::new(&bytes[HEADER..end])
        .map_err(|e| ExportError::Body(format!("cannot decompress: {e}")))?
        .take(MAX_BODY + 1)
        .read_to_end(&mut json)
        .map_err(|e| ExportError::Body(format!("cannot decompress: {e}")))?;
    if json.len() as u64 > MAX_BODY {
        return Err(ExportError::Body(format!(
            "its content is larger than {MAX_BODY} bytes"
        )));
    }
    let export: Export = serde_json::from_slice(&json)
        .map_err(|e| ExportError::Body(format!("not an export: {e}")))?;
    check(&export)?;
    Ok(export)
}

/// Read and decode the export file at `path` (one line of error, naming the file).
pub fn read(path: &Path) -> Result<Export, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Write `bytes` to `path` atomically: a temporary file beside it, fsynced,
/// renamed over `path`, and the folder fsynced, so a crash leaves the old
/// file or the new one, never a part.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "export".into());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        std::fs::File::open(dir)?.sync_all()
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Shard indices consistent: the plan is `0..n` in order, results are
/// strictly increasing within the plan, the sample names shards of the plan.
fn check(e: &Export) -> Result<(), ExportError> {
    let bad = |m: String| Err(ExportError::Inconsistent(m));
    if e.plan.is_empty() {
        return bad("its plan is empty".into());
    }
    if let Some((i, s)) = e
        .plan
        .iter()
        .enumerate()
        .find(|(i, s)| s.index as usize != *i)
    {
        return bad(format!("plan entry {i} has shard index {}", s.index));
    }
    let n = e.plan.len() as u64;
    let mut last: Option<u32> = None;
    for r in &e.results {
        if u64::from(r.index) >= n {
            return bad(format!(
                "a result for shard {} beyond its plan of {n} shards",
                r.index
            ));
        }
        if last.is_some_and(|l| r.index <= l) {
            return bad(format!(
                "results not in increasing shard order at shard {}",
                r.index
            ));
        }
        last = Some(r.index);
    }
    if let Some(smp) = &e.sample {
        if smp.shards.iter().any(|&i| u64::from(i) >= n) {
            return bad("its sample names a shard beyond its plan".into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Export {
        Export {
            sweep_id: "s".into(),
            kind: "k".into(),
            params: [("max_n".to_string(), 3)].into(),
            solver_version: "v1".into(),
            target_shards: 0,
            sample: None,
            verify_ppm: 0,
            verify_seed: 7,
            plan: (0..3)
                .map(|i| ShardSpec {
                    index: i,
                    payload: format!("{{\"p\":{i}}}"),
                    estimate: 5,
                })
                .collect(),
            results: vec![ExportResult {
                index: 1,
                result: "{\"work\":1}".into(),
                wall_us: 3,
                cpu_us: 2,
                worker: "w".into(),
            }],
        }
    }

    #[test]
    fn round_trips_and_refuses_every_damage() {
        let e = sample();
        let bytes = encode(&e);
        assert_eq!(decode(&bytes).unwrap(), e);
        for pos in [0, 5, 9, 13, HEADER + 3, bytes.len() / 2, bytes.len() - 1] {
            let mut b = bytes.clone();
            b[pos] ^= 0x10;
            assert!(decode(&b).is_err(), "flipped byte {pos}");
        }
        for len in [0, 3, 8, 20, bytes.len() - 1] {
            assert!(
                matches!(decode(&bytes[..len]), Err(ExportError::Truncated { .. })),
                "cut at {len}: {:?}",
                decode(&bytes[..len])
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode(&longer), Err(ExportError::Trailing(1)));
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert_eq!(decode(&v2), Err(ExportError::Version { found: 2 }));
    }

    #[test]
    fn inconsistent_indices_are_refused() {
        let mut e = sample();
        e.results[0].index = 3;
        assert!(matches!(
            decode(&encode(&e)),
            Err(ExportError::Inconsistent(_))
        ));
        let mut e = sample();
        e.plan[2].index = 7;
        assert!(matches!(
            decode(&encode(&e)),
            Err(ExportError::Inconsistent(_))
        ));
    }
}
