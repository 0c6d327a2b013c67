//! The export file (`gamesweep export`, `import`, `verify`, `--export-every`):
//! one sweep's definition, plan, solver version and finished shard results
//! in one compressed, checksummed, signed file, so a sweep moves between
//! stores.
//!
//! Layout of format 2 (all integers little endian):
//!
//! ```text
//! magic      8 bytes   "GSWEEPX\n"
//! version    4 bytes   format version (FORMAT_VERSION = 2)
//! length     8 bytes   length of the compressed body
//! body       length    zstd of the JSON of an [`Export`]
//! key       32 bytes   the signer's Ed25519 public key
//! signature 64 bytes   Ed25519 over magic, version and SHA-256(body)
//! sha256    32 bytes   SHA-256 of everything before it
//! ```
//!
//! Format 1 (written before exports were signed) is the same without `key`
//! and `signature`; it still decodes, as [`Signature::Unsigned`].
//!
//! The SHA-256 trailer catches damage, not tampering: anyone can recompute
//! it. The signature is what says who wrote the file; whether that signer
//! is trusted is for the importing side to decide (`core::transfer`, the
//! store's own key and `--trust-key` files; see `docs/trust.md`).
//!
//! Decoding trusts nothing: a short or long file, another magic, another
//! format version, a checksum that does not match, a signature that does
//! not verify under the key the file names (tampered: refused outright), a
//! body that does not decompress (or decompresses to more than
//! [`MAX_BODY`]) or is not an [`Export`], and an export whose shard indices
//! are inconsistent are each one line of error. The kind-level checks
//! (solver version, re-planning, every result decoded and validated against
//! its shard) are the core's (`core::transfer`): this module knows no kind.

use gamesweep::sweep::{Params, ShardSpec};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// The first bytes of every export file.
pub const MAGIC: &[u8; 8] = b"GSWEEPX\n";
/// The format this build writes (signed); it also reads [`UNSIGNED_VERSION`].
pub const FORMAT_VERSION: u32 = 2;
/// The unsigned format of builds before signed exports (read as untrusted).
pub const UNSIGNED_VERSION: u32 = 1;
/// The largest body (decompressed JSON) read: 1 GiB.
pub const MAX_BODY: u64 = 1 << 30;
/// The conventional file extension.
pub const EXTENSION: &str = "gsx";

const HEADER: usize = 8 + 4 + 8;
const CHECKSUM: usize = 32;
const KEY: usize = 32;
const SIG: usize = 64;

/// Bytes after the body in format `version`.
fn trailer(version: u32) -> usize {
    if version == UNSIGNED_VERSION {
        CHECKSUM
    } else {
        KEY + SIG + CHECKSUM
    }
}

/// One sweep, as exported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Export {
    /// The sweep's id in the store it came from.
    #[serde(deserialize_with = "label")]
    pub sweep_id: String,
    /// The kind's name.
    #[serde(deserialize_with = "label")]
    pub kind: String,
    /// Resolved parameters.
    pub params: Params,
    /// The kind's solver version (`SweepKind::version`) the results came from.
    #[serde(deserialize_with = "label")]
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
    /// The plan, indexed by shard index; empty in an increment that names
    /// its plan by `plan_of` instead (the chain's earlier file carries it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plan: Vec<ShardSpec>,
    /// In an increment without `plan`: the plan it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan_of: Option<PlanRef>,
    /// Every finished shard's result, by increasing shard index.
    pub results: Vec<ExportResult>,
    /// Of the file's results, those an earlier solver build of the sweep
    /// computed (its solver changed while it ran), by build; the rest are
    /// `solver_version`'s. Absent when one build computed them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_solvers: Vec<gamesweep_api::shard_set::SolverShards>,
}

/// The longest `sweep_id`, `kind` or `solver_version` a file may hold (a
/// sweep's name is at most 128 bytes): a longer one is refused while the
/// file is parsed, before any copy of it is made. (An import whose id was
/// 600 MiB long took the coordinator to 2.5 GB.)
pub const MAX_LABEL: usize = 1024;

/// Deserialize a string of at most [`MAX_LABEL`] bytes, looking at it where
/// the parser has it (borrowed from the body) before copying it.
fn label<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    struct Label;
    impl serde::de::Visitor<'_> for Label {
        type Value = String;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "a string of at most {MAX_LABEL} bytes")
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<String, E> {
            if s.len() > MAX_LABEL {
                return Err(E::custom(format!(
                    "a name of {} bytes, where at most {MAX_LABEL} are allowed",
                    s.len()
                )));
            }
            Ok(s.to_owned())
        }
    }
    d.deserialize_str(Label)
}

/// The plan an increment's results belong to, named instead of carried:
/// an n = 12 plan is about 205 KB compressed, and a campaign writes many
/// increments of one plan (`run --checkpoint-dir`, `export --since`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRef {
    /// Its shard count.
    pub shards: u32,
    /// [`plan_sha256`] of it.
    pub sha256: String,
}

/// SHA-256 (lowercase hex) of a plan's JSON encoding: what names a plan.
pub fn plan_sha256(plan: &[ShardSpec]) -> String {
    let json = serde_json::to_vec(plan).expect("plans serialize");
    Sha256::digest(&json)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Export {
    /// The shard count of its plan, carried or named.
    pub fn shards(&self) -> usize {
        match &self.plan_of {
            Some(p) if self.plan.is_empty() => p.shards as usize,
            _ => self.plan.len(),
        }
    }

    /// Whether it carries its plan (else it is an increment naming it).
    pub fn carries_plan(&self) -> bool {
        !self.plan.is_empty()
    }

    /// The same export naming its plan instead of carrying it.
    pub fn without_plan(mut self) -> Export {
        if self.carries_plan() {
            self.plan_of = Some(PlanRef {
                shards: self.plan.len() as u32,
                sha256: plan_sha256(&self.plan),
            });
            self.plan = Vec::new();
        }
        self
    }

    /// Whether its plan is `plan`: carried and equal, or named by
    /// `plan`'s shard count and digest.
    pub fn plan_is(&self, plan: &[ShardSpec]) -> bool {
        match &self.plan_of {
            Some(r) if !self.carries_plan() => {
                r.shards as usize == plan.len() && r.sha256 == plan_sha256(plan)
            }
            _ => self.plan == plan,
        }
    }
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
    #[error("export file format version {found} is unknown to this build (it reads versions {UNSIGNED_VERSION} and {FORMAT_VERSION}); import it with the gamesweep version that wrote it, or the file is corrupt")]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// The checksum does not match: a changed or damaged file.
    #[error("export file is corrupt: its SHA-256 checksum does not match its content")]
    Checksum,
    /// The signature does not verify under the key the file names: the
    /// file was changed after it was signed (its checksum recomputed).
    #[error("export file is tampered: its signature does not verify under the key it names ({0}); it was changed after it was signed")]
    Signature(String),
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

/// An Ed25519 public key that signs export files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PublicKey(pub [u8; 32]);

/// The first word of a key file's key line.
pub const KEY_FILE_TAG: &str = "gamesweep-ed25519";

impl PublicKey {
    /// `sha256:` and the first 16 bytes of the key's SHA-256, in hex: what
    /// messages and `gamesweep key show` name a key by.
    pub fn fingerprint(&self) -> String {
        format!("sha256:{}", hex(&Sha256::digest(self.0)[..16]))
    }

    /// The key in hex (64 digits).
    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    /// The text of a key file (`gamesweep key export`): comment lines, then
    /// `gamesweep-ed25519 HEX`.
    pub fn key_file(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!(
            "# fingerprint {}\n{KEY_FILE_TAG} {}\n",
            self.fingerprint(),
            self.to_hex()
        ));
        out
    }

    /// The key in a key file's text: blank lines and `#` comments are
    /// skipped; exactly one `gamesweep-ed25519 HEX` line.
    pub fn parse_key_file(text: &str) -> Result<Self, KeyFileError> {
        let mut found = None;
        for (no, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(KEY_FILE_TAG), Some(h), None) = (words.next(), words.next(), words.next())
            else {
                return Err(KeyFileError::Line(no + 1, KeyLineProblem::Expected));
            };
            if found.is_some() {
                return Err(KeyFileError::Line(no + 1, KeyLineProblem::SecondKey));
            }
            let bytes = unhex(h)
                .filter(|b| b.len() == 32)
                .ok_or(KeyFileError::Line(no + 1, KeyLineProblem::NotHex))?;
            found = Some(PublicKey(bytes.try_into().expect("32 bytes")));
        }
        found.ok_or(KeyFileError::NoKey)
    }

    /// The key in the key file at `path` (one line of error naming it).
    pub fn read_key_file(path: &Path) -> Result<Self, KeyFileError> {
        let text = std::fs::read_to_string(path).map_err(|source| KeyFileError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse_key_file(&text).map_err(|e| KeyFileError::NotAKeyFile {
            path: path.to_path_buf(),
            why: Box::new(e),
        })
    }

    fn verify(&self, message: &[u8], sig: &[u8]) -> bool {
        ring::signature::UnparsedPublicKey::new(&ring::signature::ED25519, &self.0)
            .verify(message, sig)
            .is_ok()
    }
}

impl std::fmt::Display for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fingerprint())
    }
}

/// Signs export files: an Ed25519 key pair from a 32-byte seed (the
/// store's `signing_key`).
pub struct Signer {
    pair: ring::signature::Ed25519KeyPair,
    public: PublicKey,
}

impl Signer {
    /// The key pair of `seed`.
    pub fn from_seed(seed: &[u8; 32]) -> Self {
        use ring::signature::KeyPair as _;
        let pair = ring::signature::Ed25519KeyPair::from_seed_unchecked(seed)
            .expect("any 32 bytes are an Ed25519 seed");
        let public = PublicKey(
            pair.public_key()
                .as_ref()
                .try_into()
                .expect("an Ed25519 public key is 32 bytes"),
        );
        Signer { pair, public }
    }

    /// Its public key.
    pub fn public(&self) -> PublicKey {
        self.public
    }
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Signer({})", self.public)
    }
}

/// The keys in the key files at `paths` (`--trust-key FILE`, repeatable).
pub fn read_key_files(paths: &[std::path::PathBuf]) -> Result<Vec<PublicKey>, KeyFileError> {
    paths.iter().map(|p| PublicKey::read_key_file(p)).collect()
}

/// Who signed a decoded export file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signature {
    /// Format 1: no signature.
    Unsigned,
    /// Format 2, and the signature verifies under this key (which may or
    /// may not be trusted: that is the importer's decision).
    Signed(PublicKey),
}

/// A decoded export file: its content and who signed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The content.
    pub export: Export,
    /// The signature.
    pub signature: Signature,
}

/// What the signature covers: magic, format version and the body's SHA-256.
fn signed_message(version: u32, body: &[u8]) -> Vec<u8> {
    let mut m = Vec::with_capacity(8 + 4 + 32);
    m.extend_from_slice(MAGIC);
    m.extend_from_slice(&version.to_le_bytes());
    m.extend_from_slice(&Sha256::digest(body));
    m
}

fn compress(export: &Export) -> Vec<u8> {
    let json = serde_json::to_vec(export).expect("an export serializes to JSON");
    // Level 19: the file is written rarely and kept (committed to git).
    zstd::bulk::compress(&json, 19).expect("zstd compresses a buffer")
}

fn frame(version: u32, body: &[u8], signed: Option<(&PublicKey, &[u8])>) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + body.len() + trailer(version));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(body);
    if let Some((key, sig)) = signed {
        out.extend_from_slice(&key.0);
        out.extend_from_slice(sig);
    }
    let sum = Sha256::digest(&out);
    out.extend_from_slice(&sum);
    out
}

/// The file's bytes for `export`, signed by `signer` (format 2).
pub fn encode(export: &Export, signer: &Signer) -> Vec<u8> {
    let body = compress(export);
    let sig = signer.pair.sign(&signed_message(FORMAT_VERSION, &body));
    frame(FORMAT_VERSION, &body, Some((&signer.public, sig.as_ref())))
}

/// The file's bytes for `export` in the unsigned format 1 (what builds
/// before signed exports wrote; for tests of their import).
pub fn encode_unsigned(export: &Export) -> Vec<u8> {
    frame(UNSIGNED_VERSION, &compress(export), None)
}

/// The export in `bytes` and its signer, or why it is refused.
pub fn decode(bytes: &[u8]) -> Result<Decoded, ExportError> {
    let have = bytes.len() as u64;
    let shortest = (HEADER + CHECKSUM) as u64;
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        if bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
            return Err(ExportError::Truncated {
                have,
                want: shortest,
            });
        }
        return Err(ExportError::Magic);
    }
    if bytes.len() < HEADER + CHECKSUM {
        return Err(ExportError::Truncated {
            have,
            want: shortest,
        });
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION && version != UNSIGNED_VERSION {
        return Err(ExportError::Version { found: version });
    }
    let len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
    let want = len.saturating_add((HEADER + trailer(version)) as u64);
    if have < want {
        return Err(ExportError::Truncated { have, want });
    }
    if have > want {
        return Err(ExportError::Trailing(have - want));
    }
    let end = HEADER + len as usize;
    let sum_at = bytes.len() - CHECKSUM;
    let sum = Sha256::digest(&bytes[..sum_at]);
    if sum.as_slice() != &bytes[sum_at..] {
        return Err(ExportError::Checksum);
    }
    let body = &bytes[HEADER..end];
    let signature = if version == UNSIGNED_VERSION {
        Signature::Unsigned
    } else {
        let key = PublicKey(bytes[end..end + KEY].try_into().expect("32 bytes"));
        let sig = &bytes[end + KEY..end + KEY + SIG];
        if !key.verify(&signed_message(version, body), sig) {
            return Err(ExportError::Signature(key.fingerprint()));
        }
        Signature::Signed(key)
    };
    // Sized once when the frame says its size (within the cap): growing by
    // doubling would hold up to twice the content.
    let mut json = Vec::new();
    if let Ok(Some(size)) = zstd::zstd_safe::get_frame_content_size(body) {
        json.reserve_exact(size.min(MAX_BODY) as usize);
    }
    zstd::stream::read::Decoder::new(body)
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
    Ok(Decoded { export, signature })
}

/// Read and decode the export file at `path` (one line of error, naming the file).
pub fn read(path: &Path) -> Result<Decoded, ReadError> {
    let bytes = std::fs::read(path).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    decode(&bytes).map_err(|source| ReadError::Refused {
        path: path.to_path_buf(),
        source,
    })
}

/// Why an export file could not be read (one line, naming the file).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a valid export.
    #[error("{}: {source}", path.display())]
    Refused {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: ExportError,
    },
}

/// What is wrong with one line of a key file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyLineProblem {
    /// Not `gamesweep-ed25519 HEX`.
    Expected,
    /// A second key line.
    SecondKey,
    /// The key is not 64 hex digits.
    NotHex,
}

impl std::fmt::Display for KeyLineProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyLineProblem::Expected => write!(f, "expected `{KEY_FILE_TAG} <64 hex digits>`"),
            KeyLineProblem::SecondKey => write!(f, "a second key (one key per file)"),
            KeyLineProblem::NotHex => write!(f, "the key is not 64 hex digits"),
        }
    }
}

/// Why a key file (`--trust-key FILE`) was refused.
#[derive(Debug, thiserror::Error)]
pub enum KeyFileError {
    /// A bad line (1-based).
    #[error("line {0}: {1}")]
    Line(usize, KeyLineProblem),
    /// No key line at all.
    #[error("no `{KEY_FILE_TAG}` line")]
    NoKey,
    /// The file could not be read.
    #[error("cannot read key file {}: {source}", path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file's text is not a key file.
    #[error("{}: not a gamesweep key file ({why}); write one with `gamesweep key export`", path.display())]
    NotAKeyFile {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong in it.
        why: Box<KeyFileError>,
    },
}

impl PartialEq for KeyFileError {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
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

/// The export files at `path`: the file itself, or every `*.gsx` file in
/// the folder `path` (not its subfolders), in name order. A folder that
/// does not exist holds none.
pub fn files_at(path: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    if !path.is_dir() {
        if path.exists() {
            return Ok(vec![path.to_path_buf()]);
        }
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{}: no such file or folder", path.display()),
        ));
    }
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(path)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == EXTENSION))
        .collect();
    files.sort();
    Ok(files)
}

/// Whether two exports are of the same sweep: kind, resolved parameters
/// and plan (what an import merges by; the solver build may differ, as it
/// does in a campaign whose solver changed while it ran). `None`: the
/// same; else what differs, in words.
pub fn same_sweep(a: &Export, b: &Export) -> Option<String> {
    if a.kind != b.kind || a.params != b.params {
        return Some(format!(
            "another sweep (`{}` {:?}, not `{}` {:?})",
            b.kind, b.params, a.kind, a.params
        ));
    }
    let same_plan = match (a.carries_plan(), b.carries_plan()) {
        (true, _) => b.plan_is(&a.plan),
        (false, true) => a.plan_is(&b.plan),
        (false, false) => a.plan_of == b.plan_of,
    };
    if !same_plan {
        return Some(format!(
            "another plan ({} shards, not {})",
            b.shards(),
            a.shards()
        ));
    }
    None
}

/// A folder of incremental checkpoint files of one sweep (`run
/// --checkpoint-dir DIR`): each file an export holding only shards no
/// earlier file in the folder holds, named `NNNN-HASH.gsx` (a sequence
/// number one past the highest in the folder, and the first 8 hex digits
/// of the file's SHA-256, so that files two machines wrote with the same
/// number differ by name). Importing them all, in any order, into one
/// store gives it every shard they hold.
#[derive(Clone, Debug, Default)]
pub struct Chain {
    /// The folder.
    pub dir: std::path::PathBuf,
    /// The shards its files hold.
    pub held: std::collections::BTreeSet<u32>,
    /// The highest sequence number among its files' names.
    pub last: u32,
    /// Its files.
    pub files: usize,
    /// Whether one of its files carries the plan (the next file then only
    /// names it).
    pub plan_held: bool,
}

impl Chain {
    /// The folder `dir` as it is (made if absent): every `*.gsx` file in it
    /// is read and must be an export of the same sweep as `of` (else one
    /// line naming the file).
    pub fn open(dir: &Path, of: Option<&Export>) -> Result<Chain, ChainError> {
        std::fs::create_dir_all(dir).map_err(|source| ChainError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let mut chain = Chain {
            dir: dir.to_path_buf(),
            ..Chain::default()
        };
        let files = files_at(dir).map_err(|source| ChainError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        for f in files {
            let d = read(&f).map_err(ChainError::Read)?;
            if let Some(why) = of.and_then(|of| same_sweep(of, &d.export)) {
                return Err(ChainError::Other {
                    path: f,
                    why: format!(
                        "it holds {why} than this run: use a folder of its own for each sweep"
                    ),
                });
            }
            chain.add(&f, &d.export);
        }
        Ok(chain)
    }

    /// Count the file `path` holding `export` in.
    pub fn add(&mut self, path: &Path, export: &Export) {
        self.held.extend(export.results.iter().map(|r| r.index));
        self.files += 1;
        self.plan_held |= export.carries_plan();
        if let Some(n) = sequence_of(path) {
            self.last = self.last.max(n);
        }
    }

    /// The name of the next file, whose bytes are `bytes`.
    pub fn next_path(&self, bytes: &[u8]) -> std::path::PathBuf {
        let h = hex(&Sha256::digest(bytes)[..4]);
        self.dir.join(format!(
            "{:04}-{h}.{EXTENSION}",
            self.last.saturating_add(1)
        ))
    }
}

/// The sequence number a checkpoint file's name starts with (`0007-…`).
fn sequence_of(path: &Path) -> Option<u32> {
    let name = path.file_name()?.to_str()?;
    let digits: String = name.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Why a folder of checkpoint files could not be used (one line, naming it).
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
    /// The folder could not be read or made.
    #[error("checkpoint folder {}: {source}", path.display())]
    Io {
        /// The folder.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file in it is not a valid export.
    #[error("{0}")]
    Read(ReadError),
    /// A file in it is of another sweep.
    #[error("{}: {why}", path.display())]
    Other {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// Shard indices consistent: the plan is `0..n` in order, results are
/// strictly increasing within the plan, the sample names shards of the plan.
fn check(e: &Export) -> Result<(), ExportError> {
    let bad = |m: String| Err(ExportError::Inconsistent(m));
    match (&e.plan_of, e.plan.is_empty()) {
        (None, true) => return bad("its plan is empty".into()),
        (Some(_), false) => return bad("it both carries a plan and names one".into()),
        (Some(r), true) if r.shards == 0 => return bad("it names an empty plan".into()),
        _ => {}
    }
    // An increment's results are checked against the named plan's shard
    // count here, and against the plan itself where it is imported.
    if let Some((i, s)) = e
        .plan
        .iter()
        .enumerate()
        .find(|(i, s)| s.index as usize != *i)
    {
        return bad(format!("plan entry {i} has shard index {}", s.index));
    }
    let n = e.shards() as u64;
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
            plan_of: None,
            results: vec![ExportResult {
                index: 1,
                result: "{\"work\":1}".into(),
                wall_us: 3,
                cpu_us: 2,
                worker: "w".into(),
            }],
            earlier_solvers: Vec::new(),
        }
    }

    fn signer(n: u8) -> Signer {
        Signer::from_seed(&[n; 32])
    }

    #[test]
    fn an_increment_names_its_plan_and_is_checked_against_it() {
        let mut whole = sample();
        whole.plan = (0..300)
            .map(|i| ShardSpec {
                index: i,
                payload: format!("{{\"p\":{}}}", i * 7919 % 1000),
                estimate: 5 + u64::from(i),
            })
            .collect();
        let inc = whole.clone().without_plan();
        assert!(!inc.carries_plan() && whole.carries_plan());
        assert_eq!(inc.shards(), 300);
        assert!(inc.plan_is(&whole.plan));
        assert_eq!(same_sweep(&whole, &inc), None);
        assert_eq!(same_sweep(&inc, &whole), None);
        let d = decode(&encode(&inc, &signer(1))).unwrap();
        assert_eq!(d.export, inc);
        // Smaller by the plan.
        let (a, b) = (encode(&whole, &signer(1)), encode(&inc, &signer(1)));
        assert!(b.len() < a.len(), "{} vs {}", b.len(), a.len());
        // Another plan is not this one.
        let mut other = whole.clone();
        other.plan[2].payload = "{\"p\":9}".into();
        assert!(!inc.plan_is(&other.plan));
        assert!(same_sweep(&other, &inc).unwrap().contains("another plan"));
        // Inconsistent increments are refused when decoded.
        let mut beyond = inc.clone();
        beyond.results[0].index = 300;
        let both = Export {
            plan: whole.plan.clone(),
            ..inc.clone()
        };
        let mut empty = inc.clone();
        empty.plan_of.as_mut().unwrap().shards = 0;
        for (bad, why) in [
            (beyond, "beyond its plan of 300 shards"),
            (both, "both carries a plan and names one"),
            (empty, "names an empty plan"),
        ] {
            let e = decode(&encode(&bad, &signer(1))).unwrap_err().to_string();
            assert!(e.contains(why), "{why}: {e}");
        }
    }

    #[test]
    fn round_trips_and_refuses_every_damage() {
        let e = sample();
        let bytes = encode(&e, &signer(1));
        let d = decode(&bytes).unwrap();
        assert_eq!(d.export, e);
        assert_eq!(d.signature, Signature::Signed(signer(1).public()));
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
        let mut v3 = bytes.clone();
        v3[8] = 3;
        assert_eq!(decode(&v3), Err(ExportError::Version { found: 3 }));
    }

    /// `bytes` with the trailing SHA-256 recomputed (anyone can).
    fn rechecksum(mut b: Vec<u8>) -> Vec<u8> {
        let n = b.len() - CHECKSUM;
        let sum = Sha256::digest(&b[..n]);
        b[n..].copy_from_slice(&sum);
        b
    }

    #[test]
    fn a_changed_signed_file_is_tampered_even_with_its_checksum_recomputed() {
        let bytes = encode(&sample(), &signer(1));
        let sig_at = bytes.len() - CHECKSUM - SIG;
        let key_at = sig_at - KEY;
        // The body, the signature, the key: each changed, checksum fixed.
        for pos in [HEADER + 2, sig_at + 5, key_at + 1] {
            let mut b = bytes.clone();
            b[pos] ^= 0x01;
            let e = decode(&rechecksum(b)).unwrap_err();
            assert!(matches!(e, ExportError::Signature(_)), "byte {pos}: {e}");
            assert!(e.to_string().contains("tampered"), "{e}");
        }
        // Another key's signature over the same body verifies under that
        // key: the file decodes, as signed by it (trust is the importer's).
        let other = encode(&sample(), &signer(2));
        assert_eq!(
            decode(&other).unwrap().signature,
            Signature::Signed(signer(2).public())
        );
        // Format 1 decodes as unsigned.
        let d = decode(&encode_unsigned(&sample())).unwrap();
        assert_eq!((d.export, d.signature), (sample(), Signature::Unsigned));
    }

    #[test]
    fn key_files_round_trip_and_bad_ones_are_named() {
        let k = signer(9).public();
        let text = k.key_file("signing key of store /x\nsecond line");
        assert!(text.contains(&k.fingerprint()), "{text}");
        assert_eq!(PublicKey::parse_key_file(&text), Ok(k));
        assert_ne!(signer(8).public().fingerprint(), k.fingerprint());
        for (bad, why) in [
            ("", "no `gamesweep-ed25519` line"),
            ("gamesweep-ed25519 abcd", "not 64 hex digits"),
            ("ssh-ed25519 AAAA", "line 1: expected"),
            (&format!("{KEY_FILE_TAG} {}", "+f".repeat(32)), "not 64 hex"),
            (&format!("{text}{text}"), "a second key"),
        ] {
            let e = PublicKey::parse_key_file(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
    }

    #[test]
    fn inconsistent_indices_are_refused() {
        let s = signer(1);
        let mut e = sample();
        e.results[0].index = 3;
        assert!(matches!(
            decode(&encode(&e, &s)),
            Err(ExportError::Inconsistent(_))
        ));
        let mut e = sample();
        e.plan[2].index = 7;
        assert!(matches!(
            decode(&encode(&e, &s)),
            Err(ExportError::Inconsistent(_))
        ));
    }
}
