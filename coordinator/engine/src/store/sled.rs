//! [`Store`] on a sled database in a directory.

use super::journal::{self, JournalFile, Record, SweepEntry};
use super::snapshot::{SetDigest, Snapshot};
use super::{
    AuditRecord, CredentialRecord, Damage, FailureRecord, LeaseRecord, QuarantineRecord,
    ReplicationRecord, ShardTiming, Store, StoreError, StoredSweep, SweepRecord, SweepStats,
    TrustRecord,
};
use gamesweep::sweep::ShardSpec;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Marker stored in every gamesweep store; a directory without it is foreign.
/// The store format. v2: shard results are the kind's typed result as JSON
/// (v1 stored string-keyed counter maps) and plans carry typed JSON shards.
/// v3: every value (but `meta`'s) behind a checksum header ([`seal`]), and
/// the journal of acknowledged work beside the database (`journal.rs`).
const FORMAT: &[u8] = b"gamesweep-store-v3";
/// The format this build migrates in place on open.
const MIGRATES: &[u8] = b"gamesweep-store-v2";
/// The `meta` key of the lease-token key.
const LEASE_KEY: &str = "lease_key";
/// The `meta` key of the export signing seed.
const SIGNING_KEY: &str = "signing_key";
/// Formats this build recognises but cannot read.
const OLD_FORMATS: &[&[u8]] = &[b"gamesweep-store-v1"];

/// The trees whose values are sealed ([`seal`]), in the order a deep check
/// reads them. `meta` is not: it holds the format marker and 32-byte keys,
/// checked by their length (a flipped key bit only invalidates tokens).
pub const SEALED_TREES: &[&str] = &[
    "sweeps",
    "plans",
    "results",
    "leases",
    "stats",
    "timings",
    "failures",
    "verify",
    "origins",
    "quarantine",
    "audit",
    "trust",
    "credentials",
    "checkpoints", // the snapshots (`snapshot.rs`): the tree keeps its first name
    "fresh",
];

/// First byte of a sealed value: never the first byte of JSON (a v2 value),
/// so a migration interrupted by a crash can tell what it already sealed.
const SEAL_MAGIC: u8 = 0xC5;
/// Version of the seal header.
const SEAL_VERSION: u8 = 1;
/// Bytes of the seal header: magic, version, CRC32 (little endian).
const SEAL_LEN: usize = 6;

fn seal_crc(tree: &str, key: &[u8], payload: &[u8]) -> u32 {
    // Over tree and key too: a value moved to another key (or a flipped key
    // bit) does not pass as that key's value.
    let mut h = crc32fast::Hasher::new();
    h.update(tree.as_bytes());
    h.update(&[0]);
    h.update(&(key.len() as u32).to_le_bytes());
    h.update(key);
    h.update(payload);
    h.finalize()
}

/// `payload` as stored under `key` in `tree`: behind a header with a CRC32
/// over tree, key and payload.
pub fn seal(tree: &str, key: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(payload.len() + SEAL_LEN);
    v.push(SEAL_MAGIC);
    v.push(SEAL_VERSION);
    v.extend(seal_crc(tree, key, payload).to_le_bytes());
    v.extend_from_slice(payload);
    v
}

/// Where a stored entry belongs, for messages: `tree `results`, sweep `a`, shard 3`.
pub fn locate(tree: &str, key: &[u8]) -> String {
    let text = |b: &[u8]| String::from_utf8_lossy(b).escape_debug().to_string();
    match tree {
        "checkpoints" if is_part_key(key) => format!(
            "tree `{tree}`, sweep `{}`, snapshot part {}",
            text(&key[..key.len() - 5]),
            u32::from_be_bytes(key[key.len() - 4..].try_into().expect("4 bytes"))
        ),
        "sweeps" | "plans" | "stats" | "checkpoints" => {
            format!("tree `{tree}`, sweep `{}`", text(key))
        }
        "quarantine" => format!("tree `{tree}`, worker `{}`", text(key)),
        "audit" => format!("tree `{tree}`, entry {}", text(key).len()),
        _ if key.len() >= 5 && key[key.len() - 5] == 0 => format!(
            "tree `{tree}`, sweep `{}`, shard {}",
            text(&key[..key.len() - 5]),
            u32::from_be_bytes(key[key.len() - 4..].try_into().expect("4 bytes"))
        ),
        _ => format!("tree `{tree}`, key `{}`", text(key)),
    }
}

/// The payload of a value stored under `key` in `tree`, or
/// [`StoreError::Corrupt`] naming tree, sweep and shard if its checksum fails.
pub fn unseal<'a>(tree: &str, key: &[u8], value: &'a [u8]) -> Result<&'a [u8], StoreError> {
    let bad = |why: &str| {
        StoreError::Corrupt(format!(
            "{}: {why} (the value was damaged on disk)",
            locate(tree, key)
        ))
    };
    if value.len() < SEAL_LEN || value[0] != SEAL_MAGIC || value[1] != SEAL_VERSION {
        return Err(bad("no checksum header"));
    }
    let crc = u32::from_le_bytes(value[2..6].try_into().expect("4 bytes"));
    let payload = &value[SEAL_LEN..];
    if seal_crc(tree, key, payload) != crc {
        return Err(bad("checksum mismatch"));
    }
    Ok(payload)
}

/// A sealed value with its tree's name, so every read and write checks and
/// seals with the right name.
#[derive(Clone)]
struct Sealed {
    name: &'static str,
    tree: sled::Tree,
}

impl Sealed {
    fn open(db: &sled::Db, name: &'static str) -> Result<Self, StoreError> {
        Ok(Sealed {
            name,
            tree: db.open_tree(name)?,
        })
    }

    fn insert(&self, key: &[u8], payload: &[u8]) -> Result<(), StoreError> {
        self.tree.insert(key, seal(self.name, key, payload))?;
        Ok(())
    }

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        match self.tree.get(key)? {
            Some(v) => Ok(Some(unseal(self.name, key, &v)?.to_vec())),
            None => Ok(None),
        }
    }

    fn remove(&self, key: &[u8]) -> Result<(), StoreError> {
        self.tree.remove(key)?;
        Ok(())
    }

    /// Every (key, payload) under `prefix`, checksums checked.
    fn scan(
        &self,
        prefix: &[u8],
    ) -> impl Iterator<Item = Result<(sled::IVec, Vec<u8>), StoreError>> + '_ {
        self.tree.scan_prefix(prefix).map(move |kv| {
            let (k, v) = kv?;
            let p = unseal(self.name, &k, &v)?.to_vec();
            Ok((k, p))
        })
    }
}

/// [`Store`] on a sled database in a directory.
pub struct SledStore {
    db: sled::Db,
    sweeps: Sealed,
    plans: Sealed,
    results: Sealed,
    leases: Sealed,
    stats: Sealed,
    timings: Sealed,
    failures: Sealed,
    /// The lease-token key (kept in the `meta` tree).
    lease_key: [u8; 32],
    /// The export signing seed (kept in the `meta` tree).
    signing_key: [u8; 32],
    /// Replication records (replicated validation), by shard.
    replication: Sealed,
    /// The worker of each accepted result, by shard.
    origins: Sealed,
    /// Quarantined workers, by worker id.
    quarantine: Sealed,
    /// The audit log: big-endian sequence number -> JSON entry.
    audit: Sealed,
    /// What replication knows of each identity, by identity key.
    trust: Sealed,
    /// Issued credentials (hashes only), by name.
    credentials: Sealed,
    /// Each sweep's snapshot (`snapshot.rs`), by sweep id.
    snapshots: Sealed,
    /// The shards whose results were stored since their sweep's last
    /// snapshot (empty values), by shard: what a start reads besides the
    /// snapshot. Written before the result, removed after a snapshot
    /// covering it is flushed; an entry left behind only costs a lookup.
    fresh: Sealed,
    /// The store's directory (the journal lives in it).
    dir: PathBuf,
    /// The journal of acknowledged work, open for appending. Its lock also
    /// orders flushes: one at a time, each appending what it covers.
    journal: Mutex<JournalFile>,
    /// Framed journal records of writes not yet flushed.
    pending: Mutex<Vec<u8>>,
    /// The journal as read at open, until recovery takes it.
    replayed: Mutex<Option<journal::Read>>,
    /// Launch sequence numbers of the sweeps, by id (journal records name
    /// sweeps by it; cached: a submit must not decode the sweep's record).
    seqs: Mutex<HashMap<String, u64>>,
    /// Sequence numbers handed out are at least this (above every journaled
    /// one, even if sled lost its id counter's latest state).
    seq_floor: Mutex<u64>,
}

fn shard_key(id: &str, index: u32) -> Vec<u8> {
    let mut k = Vec::with_capacity(id.len() + 5);
    k.extend_from_slice(id.as_bytes());
    k.push(0);
    k.extend_from_slice(&index.to_be_bytes());
    k
}

/// Every key sweep `id` of `shards` shards can have in the tree named
/// `tree` (none in trees not kept by sweep).
pub(super) fn sweep_keys(tree: &[u8], id: &str, shards: u32) -> Vec<Vec<u8>> {
    match tree {
        b"sweeps" | b"plans" | b"stats" => vec![id.as_bytes().to_vec()],
        b"results" | b"leases" | b"timings" | b"failures" | b"verify" | b"origins" | b"fresh" => {
            (0..shards).map(|i| shard_key(id, i)).collect()
        }
        _ => Vec::new(),
    }
}

fn sweep_prefix(id: &str) -> Vec<u8> {
    let mut k = id.as_bytes().to_vec();
    k.push(0);
    k
}

/// Bytes of a snapshot per value of the `checkpoints` tree. Sled (0.34)
/// writes a tree node larger than a quarter of its 512-KiB log segment
/// to a file of its own in `blobs/`, and deletes a replaced one only when
/// its log segment is reused, which a reopen ([`Store::refresh`]) forgets:
/// a snapshot in one value (1.4 MB at 65,536 shards, rewritten every few
/// seconds) left every one ever written behind. A leaf node holds at most
/// 17 values before it splits: 17 parts of 4 KiB stay well under 128 KiB.
const SNAPSHOT_PART: usize = 4096;

/// Whether `key` of the `checkpoints` tree is a snapshot's part (sweep id,
/// a zero byte, the part's number), not the whole snapshot of a store
/// written before parts (the sweep id alone: ids have no zero byte).
fn is_part_key(key: &[u8]) -> bool {
    key.len() >= 5 && key[key.len() - 5] == 0
}

/// A snapshot part's payload: how many parts the snapshot has (4 bytes,
/// big endian), then its bytes; an error names the part.
fn split_part<'a>(key: &[u8], payload: &'a [u8]) -> Result<(u32, &'a [u8]), StoreError> {
    let bad = |why: &str| StoreError::Corrupt(format!("{}: {why}", locate("checkpoints", key)));
    let (count, bytes) = payload
        .split_first_chunk::<4>()
        .ok_or_else(|| bad("shorter than its header"))?;
    let count = u32::from_be_bytes(*count);
    if index_of(key)? >= count {
        return Err(bad(&format!("beyond the snapshot's {count} parts")));
    }
    Ok((count, bytes))
}

fn index_of(key: &[u8]) -> Result<u32, StoreError> {
    let n = key.len();
    if n < 5 {
        return Err(StoreError::Corrupt("short shard key".into()));
    }
    Ok(u32::from_be_bytes(
        key[n - 4..].try_into().expect("4 bytes"),
    ))
}

fn enc<T: Serialize>(v: &T) -> Vec<u8> {
    serde_json::to_vec(v).expect("domain types serialize")
}

/// Store `value` under `key`, or remove the key for `None`.
fn put_or_clear<T: Serialize>(
    tree: &Sealed,
    key: Vec<u8>,
    value: Option<&T>,
) -> Result<(), StoreError> {
    match value {
        Some(v) => tree.insert(&key, &enc(v)),
        None => tree.remove(&key),
    }
}

fn dec<T: for<'de> Deserialize<'de>>(what: &str, bytes: &[u8]) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

/// Decode one stored entry (`key`, `bytes`: the value's payload, after its
/// checksum header) of the tree named `tree` with the types and checks
/// [`Store::load_all`] uses (`results`: the key only, a result's bytes are
/// its kind's to decode). For the fuzz harness (`coordinator/tests/it/fuzz/`)
/// and `store check`: bad bytes must be an error, never a panic.
pub fn decode_any(tree: &str, key: &[u8], bytes: &[u8]) -> Result<(), StoreError> {
    match tree {
        "sweeps" => dec::<SweepRecord>("sweep record", bytes).map(drop),
        "plans" => {
            let plan: Vec<ShardSpec> = dec("plan", bytes)?;
            match plan.iter().enumerate().any(|(i, s)| s.index as usize != i) {
                true => Err(StoreError::Corrupt("plan is not indexed 0..n".into())),
                false => Ok(()),
            }
        }
        "results" => index_of(key).map(drop),
        "leases" => index_of(key).and(dec::<LeaseRecord>("lease", bytes).map(drop)),
        "timings" => index_of(key).and(dec::<ShardTiming>("shard timing", bytes).map(drop)),
        "failures" => index_of(key).and(dec::<FailureRecord>("shard failure", bytes).map(drop)),
        "stats" => dec::<SweepStats>("stats", bytes).map(drop),
        "verify" => {
            index_of(key).and(dec::<ReplicationRecord>("verification record", bytes).map(drop))
        }
        "origins" => index_of(key).and(dec::<String>("result origin", bytes).map(drop)),
        "quarantine" => dec::<QuarantineRecord>("quarantine record", bytes).map(drop),
        "trust" => dec::<TrustRecord>("trust record", bytes).map(drop),
        "credentials" => dec::<CredentialRecord>("credential", bytes).map(drop),
        "audit" => dec::<AuditRecord>("audit entry", bytes).map(drop),
        // A part's snapshot is decoded when the parts are joined (`scan_with`).
        "checkpoints" if is_part_key(key) => split_part(key, bytes).map(drop),
        "checkpoints" => Snapshot::decode(bytes)
            .map(drop)
            .map_err(|e| StoreError::Corrupt(format!("snapshot: {e}"))),
        "fresh" => index_of(key).map(drop),
        _ => Err(StoreError::Corrupt(format!("no tree `{tree}`"))),
    }
}

/// Whether `dir` holds only what a store's creation makes before anything
/// is stored: an empty `blobs/` folder, sled's `conf`, and a journal no
/// longer than its magic (the caller has checked there is no `db`).
fn only_leftovers(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().all(|e| {
        let path = e.path();
        match e.file_name().to_str() {
            Some("blobs") => std::fs::read_dir(&path).is_ok_and(|mut d| d.next().is_none()),
            Some("conf") => path.is_file(),
            Some(name) if name == journal::FILE_NAME => std::fs::metadata(&path)
                .is_ok_and(|m| m.is_file() && m.len() <= journal::MAGIC.len() as u64),
            _ => false,
        }
    })
}

/// Open sled in `dir`, turning a panic inside sled (seen on some damaged
/// files) into an error: a damaged store is refused with a message.
pub(super) fn open_db(dir: &Path) -> Result<sled::Db, String> {
    let dir = dir.to_path_buf();
    // One swap of the process's panic hook at a time: two opens at once
    // (tests, a reopen beside a start) could otherwise each restore the
    // other's silent hook and leave every later panic unreported.
    static HOOK: Mutex<()> = Mutex::new(());
    let swapping = HOOK.lock().unwrap_or_else(|e| e.into_inner());
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let res = std::panic::catch_unwind(move || sled::Config::new().path(dir).open());
    std::panic::set_hook(hook);
    drop(swapping);
    match res {
        Ok(Ok(db)) => Ok(db),
        Ok(Err(e)) => Err(super::sled_message(&e)),
        Err(p) => Err(format!(
            "the database crashed while reading it ({}): its files are damaged",
            p.downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| p.downcast_ref::<&str>().copied())
                .unwrap_or("panic")
        )),
    }
}

impl SledStore {
    /// Shard `index`'s result, with its timing and origin and its `fresh`
    /// mark, unless it has one (`Ok(false)`: nothing written). One sled
    /// transaction: a crash (or sled's own periodic flush) never keeps the
    /// result without the rest. A result is written at most once.
    fn store_result(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        timing: Option<&ShardTiming>,
        origin: Option<&str>,
    ) -> Result<bool, StoreError> {
        use ::sled::transaction::{ConflictableTransactionError, TransactionError};
        use ::sled::Transactional as _;
        let key = shard_key(id, index);
        let fresh = seal(self.fresh.name, &key, &[]);
        let sealed = seal(self.results.name, &key, result);
        let timing = timing.map(|t| seal(self.timings.name, &key, &enc(t)));
        let origin = origin.map(|w| seal(self.origins.name, &key, &enc(&w)));
        let swapped = (
            &self.fresh.tree,
            &self.results.tree,
            &self.timings.tree,
            &self.origins.tree,
        )
            .transaction(|(f, r, t, o)| {
                if r.get(key.as_slice())?.is_some() {
                    return Ok(false);
                }
                // A stored result is never missing from `fresh` (see its field).
                f.insert(key.as_slice(), fresh.as_slice())?;
                r.insert(key.as_slice(), sealed.as_slice())?;
                if let Some(v) = &timing {
                    t.insert(key.as_slice(), v.as_slice())?;
                }
                if let Some(v) = &origin {
                    o.insert(key.as_slice(), v.as_slice())?;
                }
                Ok::<bool, ConflictableTransactionError<()>>(true)
            })
            .map_err(|e| match e {
                TransactionError::Storage(e) => StoreError::from(e),
                // Not reached: the transaction above never aborts.
                TransactionError::Abort(()) => {
                    StoreError::Corrupt(format!("storing shard {index} of `{id}` aborted"))
                }
            })?;
        if swapped {
            if let Some(seq) = self.seq_of(id) {
                self.note(&Record::Done {
                    seq,
                    index,
                    digest: journal::digest(result),
                });
            }
        }
        Ok(swapped)
    }

    /// Sweep `id`'s snapshot as stored: its parts joined, or the single
    /// value of a store written before parts (`Ok(None)`: none). Parts
    /// missing, or of two snapshots, are damage.
    fn snapshot_bytes(&self, id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let mut out = Vec::new();
        let mut parts = 0u32;
        let mut count = None;
        for kv in self.snapshots.tree.scan_prefix(sweep_prefix(id)) {
            let (k, v) = kv?;
            if k.len() != id.len() + 5 || index_of(&k)? != parts {
                break;
            }
            let (c, bytes) = split_part(&k, unseal(self.snapshots.name, &k, &v)?)?;
            if count.is_some_and(|n| n != c) {
                break;
            }
            count = Some(c);
            out.extend_from_slice(bytes);
            parts += 1;
        }
        match count {
            None => self.snapshots.get(id.as_bytes()),
            Some(c) if c == parts => Ok(Some(out)),
            Some(c) => Err(StoreError::Corrupt(format!(
                "tree `checkpoints`, sweep `{id}`: the snapshot's parts 0..{c} are not all stored, part {parts} is missing or of another snapshot"
            ))),
        }
    }

    /// A batch removing sweep `id`'s snapshot: its parts from `from` on,
    /// and the single value of a store written before parts.
    fn snapshot_removal(&self, id: &str, from: u32) -> Result<sled::Batch, StoreError> {
        let mut batch = sled::Batch::default();
        for kv in self.snapshots.tree.scan_prefix(sweep_prefix(id)) {
            let (k, _) = kv?;
            if k.len() != id.len() + 5 || index_of(&k)? >= from {
                batch.remove(k);
            }
        }
        batch.remove(id.as_bytes());
        Ok(batch)
    }

    /// Remove sweep `id`'s snapshot, all of it at once.
    fn remove_snapshot(&self, id: &str) -> Result<(), StoreError> {
        Ok(self
            .snapshots
            .tree
            .apply_batch(self.snapshot_removal(id, 0)?)?)
    }

    /// The snapshot of `record`'s launch, if it reads and fits a plan of
    /// `shards` shards; a damaged one is passed over with a warning (the
    /// start then reads every result, which are all still stored).
    fn snapshot_of(&self, record: &SweepRecord, shards: usize) -> Option<Snapshot> {
        let bytes = match self.snapshot_bytes(&record.id) {
            Ok(b) => b?,
            Err(e) => {
                tracing::warn!(sweep = %record.id, error = %e, "snapshot damaged; reading every result instead");
                return None;
            }
        };
        match Snapshot::decode(&bytes) {
            Ok(cp) if cp.seq == record.seq && cp.well_formed(shards) => Some(cp),
            Ok(cp) if cp.seq != record.seq => None,
            Ok(_) => {
                tracing::warn!(sweep = %record.id, "snapshot does not fit the plan; reading every result instead");
                None
            }
            Err(e) => {
                tracing::warn!(sweep = %record.id, error = %e, "snapshot damaged; reading every result instead");
                None
            }
        }
    }

    /// What is wrong with sweep `id`'s snapshot `cp` against the stored
    /// results it covers (`None`: nothing; a stale snapshot of an earlier
    /// launch is not damage, it is never used).
    fn snapshot_damage(&self, id: &str, cp: &Snapshot) -> Result<Option<String>, StoreError> {
        let Some(seq) = self.seq_of(id) else {
            return Ok(None);
        };
        if cp.seq != seq {
            return Ok(None);
        }
        let mut missing = Vec::new();
        let mut sum = SetDigest::default();
        for i in cp.shards() {
            match self.results.tree.get(shard_key(id, i))? {
                None => missing.push(i),
                // A result whose own checksum fails is reported by the tree scan.
                Some(v) => {
                    let bytes = unseal("results", &shard_key(id, i), &v).unwrap_or(&v);
                    sum = sum.union(SetDigest::of(i, &journal::digest(bytes)));
                }
            }
        }
        Ok(if !missing.is_empty() {
            Some(format!(
                "{} result(s) it covers are missing (shards {})",
                missing.len(),
                missing
                    .iter()
                    .take(8)
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        } else if sum.hex() != cp.digest {
            Some("the stored results it covers are not the ones it merged (digest mismatch)".into())
        } else {
            None
        })
    }

    /// What [`Store::scan`] (`deep`) and [`Store::scan_start`] find. Every
    /// value of every tree is read: a part of a tree sled cannot read (a
    /// damaged page) is damage, and the tree is then read from its other
    /// end too, so the damage is bounded by the keys on either side. Every
    /// value's checksum is checked; with `deep`, every value is decoded and
    /// each snapshot's digest computed again from the results it covers,
    /// else only that those results are all there.
    fn scan_with(&self, purge: bool, deep: bool) -> Result<Vec<Damage>, StoreError> {
        let mut damage = Vec::new();
        // The stored shards of each sweep, from the `results` tree.
        let mut held: HashMap<Vec<u8>, Vec<u32>> = HashMap::new();
        let mut trees: Vec<String> = SEALED_TREES.iter().map(|s| s.to_string()).collect();
        trees.push("meta".into());
        for name in &trees {
            let tree = self.db.open_tree(name)?;
            let mut bad = Vec::new();
            let mut visit = |k: &[u8], v: &[u8]| {
                if name == "meta" {
                    return;
                }
                let problem = match unseal(name, k, v) {
                    Err(StoreError::Corrupt(what)) => Some(what),
                    Err(e) => Some(e.to_string()),
                    Ok(p) if deep => decode_any(name, k, p)
                        .err()
                        .map(|e| format!("{}: {e}", locate(name, k))),
                    Ok(_) => None,
                };
                match problem {
                    Some(what) => bad.push((k.to_vec(), what)),
                    None if name == "results" && k.len() >= 5 => {
                        held.entry(k[..k.len() - 5].to_vec())
                            .or_default()
                            .push(index_of(k).expect("5 bytes"));
                    }
                    None => {}
                }
            };
            if let Some(unreadable) = read_tree(&tree, &mut visit) {
                damage.push(Damage {
                    tree: name.clone(),
                    sweep: None,
                    shard: None,
                    what: unreadable,
                    unreadable: true,
                });
            }
            for (k, what) in bad {
                let (sweep, shard) = owner(name, &k);
                damage.push(Damage {
                    tree: name.clone(),
                    sweep,
                    shard,
                    what,
                    unreadable: false,
                });
                if purge {
                    tree.remove(&k)?;
                }
            }
        }
        // A sweep record whose plan is gone cannot be loaded (sled lost the
        // plan, or its value was damaged and purged above).
        for kv in self.sweeps.tree.iter() {
            let Ok((k, _)) = kv else { break }; // reported above
            if !self.plans.tree.contains_key(&k)? {
                damage.push(Damage {
                    tree: "plans".into(),
                    sweep: Some(String::from_utf8_lossy(&k).into_owned()),
                    shard: None,
                    what: format!("{}: the sweep's plan is missing", locate("sweeps", &k)),
                    unreadable: false,
                });
                if purge {
                    self.sweeps.tree.remove(&k)?;
                }
            }
        }
        // A snapshot must merge exactly the stored results it covers: its
        // digest again from them (a covered result lost or changed under a
        // valid checksum shows here, not at start, which reads only the
        // snapshot); without `deep`, that each of them is stored.
        let mut ids: Vec<String> = Vec::new();
        for kv in self.snapshots.tree.iter() {
            let Ok((k, _)) = kv else { break }; // reported above
            let id = match is_part_key(&k) {
                true => &k[..k.len() - 5],
                false => &k[..],
            };
            let id = String::from_utf8_lossy(id).into_owned();
            if ids.last() != Some(&id) {
                ids.push(id);
            }
        }
        for id in ids {
            let at = locate("checkpoints", id.as_bytes());
            let reported = |d: &Damage| d.tree == "checkpoints" && d.sweep.as_ref() == Some(&id);
            let found = match self.snapshot_bytes(&id) {
                // A value found damaged above: the rest of the snapshot goes with it.
                _ if damage.iter().any(reported) => None,
                Err(StoreError::Corrupt(what)) => Some(what),
                Err(e) => return Err(e),
                Ok(None) => None,
                Ok(Some(bytes)) => match Snapshot::decode(&bytes) {
                    // Passed over at start, as a stale one is.
                    Err(e) => deep.then(|| format!("{at}: snapshot: {e}")),
                    Ok(cp) => match deep {
                        true => self.snapshot_damage(&id, &cp)?,
                        false => self.snapshot_gaps(&id, &cp, held.get(id.as_bytes())),
                    }
                    .map(|what| format!("{at}: {what}")),
                },
            };
            if let Some(what) = found {
                damage.push(Damage {
                    tree: "checkpoints".into(),
                    sweep: Some(id.clone()),
                    shard: None,
                    what,
                    unreadable: false,
                });
            }
            if purge && damage.iter().any(reported) {
                self.remove_snapshot(&id)?;
            }
        }
        if purge && !damage.is_empty() {
            self.db.flush()?;
        }
        Ok(damage)
    }

    /// The shards snapshot `cp` of sweep `id` covers that are not among
    /// the sweep's stored results `held` (sorted), said as damage.
    fn snapshot_gaps(&self, id: &str, cp: &Snapshot, held: Option<&Vec<u32>>) -> Option<String> {
        if self.seq_of(id) != Some(cp.seq) {
            return None; // a stale snapshot of an earlier launch is never used
        }
        let empty = Vec::new();
        let held = held.unwrap_or(&empty);
        let missing: Vec<u32> = cp
            .shards()
            .filter(|i| held.binary_search(i).is_err())
            .collect();
        (!missing.is_empty()).then(|| {
            format!(
                "{} result(s) it covers are missing (shards {})",
                missing.len(),
                missing
                    .iter()
                    .take(8)
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    /// The values of `tree` (per shard, decoded as `what`) of sweep `id`:
    /// all of them, or those of the shards `only`.
    fn per_shard<T: for<'de> Deserialize<'de>>(
        &self,
        tree: &Sealed,
        what: &str,
        id: &str,
        only: Option<&[u32]>,
    ) -> Result<BTreeMap<u32, T>, StoreError> {
        let at =
            |k: &[u8], e: StoreError| StoreError::Corrupt(format!("{}: {e}", locate(tree.name, k)));
        let mut out = BTreeMap::new();
        match only {
            Some(shards) => {
                for &i in shards {
                    let k = shard_key(id, i);
                    if let Some(v) = tree.get(&k)? {
                        out.insert(i, dec(what, &v).map_err(|e| at(&k, e))?);
                    }
                }
            }
            None => {
                for kv in tree.scan(&sweep_prefix(id)) {
                    let (k, v) = kv?;
                    out.insert(index_of(&k)?, dec(what, &v).map_err(|e| at(&k, e))?);
                }
            }
        }
        Ok(out)
    }

    /// Every stored sweep; with `with_snapshots`, see [`Store::load_for_start`].
    fn load(&self, with_snapshots: bool) -> Result<Vec<StoredSweep>, StoreError> {
        let mut out = Vec::new();
        for kv in self.sweeps.scan(b"") {
            let (k, v) = kv?;
            let record: SweepRecord = dec("sweep record", &v)
                .map_err(|e| StoreError::Corrupt(format!("{}: {e}", locate("sweeps", &k))))?;
            if k.as_ref() != record.id.as_bytes() {
                return Err(StoreError::Corrupt(format!(
                    "sweep key/id mismatch for `{}`",
                    record.id
                )));
            }
            // Decoded where sled keeps it (no copy of a value of tens of MB).
            let plan: Vec<ShardSpec> = match self.plans.tree.get(k.as_ref())? {
                Some(p) => dec("plan", unseal("plans", &k, &p)?)?,
                None => {
                    return Err(StoreError::Corrupt(format!(
                        "sweep `{}` has no plan",
                        record.id
                    )))
                }
            };
            if plan.iter().enumerate().any(|(i, s)| s.index as usize != i) {
                return Err(StoreError::Corrupt(format!(
                    "plan of `{}` is not indexed 0..n",
                    record.id
                )));
            }
            let prefix = sweep_prefix(&record.id);
            let snapshot = match with_snapshots {
                true => self.snapshot_of(&record, plan.len()),
                false => None,
            };
            let mut results = BTreeMap::new();
            let beyond = |i: u32| {
                StoreError::Corrupt(format!(
                    "result for shard {i} beyond the plan of `{}`",
                    record.id
                ))
            };
            if let Some(cp) = &snapshot {
                // Only what was stored after the snapshot.
                for kv in self.fresh.tree.scan_prefix(&prefix) {
                    let (k, _) = kv?;
                    let i = index_of(&k)?;
                    if cp.covers(i) {
                        continue;
                    }
                    if i as usize >= plan.len() {
                        return Err(beyond(i));
                    }
                    if let Some(v) = self.results.get(&k)? {
                        results.insert(i, v);
                    }
                }
            } else {
                for kv in self.results.scan(&prefix) {
                    let (k, v) = kv?;
                    let i = index_of(&k)?;
                    if i as usize >= plan.len() {
                        return Err(beyond(i));
                    }
                    results.insert(i, v);
                }
            }
            let at = |tree: &str, k: &[u8], e: StoreError| {
                StoreError::Corrupt(format!("{}: {e}", locate(tree, k)))
            };
            let mut leases = BTreeMap::new();
            for kv in self.leases.scan(&prefix) {
                let (k, v) = kv?;
                leases.insert(
                    index_of(&k)?,
                    dec("lease", &v).map_err(|e| at("leases", &k, e))?,
                );
            }
            // From a snapshot, only the shards it does not cover: the
            // rest are read when needed ([`Store::timings_of`]).
            let only: Option<Vec<u32>> =
                snapshot.as_ref().map(|_| results.keys().copied().collect());
            let timings =
                self.per_shard(&self.timings, "shard timing", &record.id, only.as_deref())?;
            let mut failures = BTreeMap::new();
            for kv in self.failures.scan(&prefix) {
                let (k, v) = kv?;
                failures.insert(
                    index_of(&k)?,
                    dec("shard failure", &v).map_err(|e| at("failures", &k, e))?,
                );
            }
            let mut replication = BTreeMap::new();
            for kv in self.replication.scan(&prefix) {
                let (k, v) = kv?;
                replication.insert(
                    index_of(&k)?,
                    dec("verification record", &v).map_err(|e| at("verify", &k, e))?,
                );
            }
            let origins =
                self.per_shard(&self.origins, "result origin", &record.id, only.as_deref())?;
            let stats = match self.stats.get(k.as_ref())? {
                Some(s) => dec("stats", &s).map_err(|e| at("stats", &k, e))?,
                None => SweepStats::default(),
            };
            out.push(StoredSweep {
                record,
                plan,
                results,
                leases,
                stats,
                timings,
                failures,
                replication,
                origins,
                snapshot,
            });
        }
        out.sort_by_key(|s| s.record.seq);
        Ok(out)
    }

    /// Open (or create) the store in `dir`. A directory holding anything but
    /// a gamesweep store is refused; a v2 store is migrated in place (every
    /// value sealed, the journal written from what it holds). Whether
    /// anything acknowledged is missing is decided by the core at start
    /// (`core/recovery.rs`) from [`Store::journal`].
    pub fn open(dir: &Path) -> Result<Self, StoreError> {
        Self::open_with(dir, false)
    }

    /// [`SledStore::open`] again, in the process that had it open
    /// ([`super::ResilientStore`]'s reopen that bounds recovery, which
    /// dropped the store after a flush): the journal is walked, not
    /// replayed, and [`Store::journal`] reads it again if asked.
    pub fn reopen(dir: &Path) -> Result<Self, StoreError> {
        Self::open_with(dir, true)
    }

    /// [`SledStore::open`], waiting (a bounded number of times) while the
    /// store is in use: sled releases its file lock from a background thread
    /// shortly after the last handle of the previous open is dropped. For
    /// tests that close and reopen a store.
    #[cfg(test)]
    pub(crate) fn open_when_free(dir: &Path) -> Self {
        for _ in 0..250 {
            match Self::open(dir) {
                Ok(s) => return s,
                Err(StoreError::InUse(_)) => {
                    std::thread::sleep(std::time::Duration::from_millis(20))
                }
                Err(e) => panic!("{e}"),
            }
        }
        panic!("store {} still in use after 5 s", dir.display());
    }

    fn open_with(dir: &Path, reopen: bool) -> Result<Self, StoreError> {
        let open_err = |reason: String| StoreError::Open {
            path: dir.to_path_buf(),
            reason,
        };
        let journal_path = dir.join(journal::FILE_NAME);
        let has_journal = journal_path.is_file()
            && std::fs::metadata(&journal_path)
                .is_ok_and(|m| m.len() > journal::MAGIC.len() as u64);
        if dir.exists() {
            if !dir.is_dir() {
                return Err(open_err("not a directory".into()));
            }
            let has_files = std::fs::read_dir(dir)
                .map_err(|e| open_err(e.to_string()))?
                .next()
                .is_some();
            let sled_files = dir.join("conf").is_file() && dir.join("db").is_file();
            if has_journal && !sled_files {
                return Err(StoreError::Damaged(format!(
                    "store damaged: {} holds a journal of acknowledged work but sled's `conf` or `db` file is missing; restore the store from a backup or an --export-every checkpoint (see deploy/README.md, \"Recovering a damaged store\")",
                    dir.display()
                )));
            }
            // A creation killed before sled wrote its `db` leaves only what
            // sled makes first (an empty `blobs/`, maybe `conf`) and perhaps
            // a journal with no record: nothing was ever stored there, so it
            // is created again (those leftovers removed), not refused.
            if has_files && !dir.join("db").exists() && !has_journal && only_leftovers(dir) {
                tracing::warn!(store = %dir.display(), "the store's creation was cut short (only sled's first files are there): creating it again");
                for f in ["conf", journal::FILE_NAME] {
                    let _ = std::fs::remove_file(dir.join(f));
                }
                let _ = std::fs::remove_dir(dir.join("blobs"));
            } else if has_files && !sled_files {
                // sled always writes `conf` and `db`; anything else in a
                // non-empty directory is someone else's data, which we must
                // not touch.
                return Err(StoreError::Foreign(dir.to_path_buf()));
            }
        }
        let db = open_db(dir).map_err(|reason| {
            // sled's lock on its `db` file: held, not damaged.
            if reason.contains("could not acquire lock") {
                StoreError::InUse(dir.to_path_buf())
            } else if has_journal {
                StoreError::Damaged(format!(
                    "store damaged: cannot open {}: {reason}; run `gamesweep store check {}`, or restore the store from a backup or an --export-every checkpoint (see deploy/README.md, \"Recovering a damaged store\")",
                    dir.display(),
                    dir.display()
                ))
            } else {
                open_err(reason)
            }
        })?;
        let meta = db.open_tree("meta")?;
        let mut migrate = false;
        match meta.get("format")? {
            Some(f) if f.as_ref() == FORMAT => {}
            Some(f) if f.as_ref() == MIGRATES => migrate = true,
            Some(f) if OLD_FORMATS.contains(&f.as_ref()) => {
                return Err(StoreError::OldFormat {
                    dir: dir.to_path_buf(),
                    found: String::from_utf8_lossy(&f).into_owned(),
                    want: String::from_utf8_lossy(FORMAT).into_owned(),
                })
            }
            Some(_) => return Err(StoreError::Foreign(dir.to_path_buf())),
            None if has_journal => {
                // sled lost its marker (and maybe more) but the journal says
                // this is our store: the core's start-up check names what is
                // missing against the journal.
                tracing::warn!(store = %dir.display(), "the store's format marker is missing; checking it against its journal");
                meta.insert("format", FORMAT)?;
                db.flush()?;
            }
            None => {
                let is_empty = db.tree_names().iter().all(|n| {
                    n.as_ref() == b"meta" || db.open_tree(n).map(|t| t.is_empty()).unwrap_or(false)
                });
                if !is_empty {
                    return Err(StoreError::Foreign(dir.to_path_buf()));
                }
                meta.insert("format", FORMAT)?;
                db.flush()?;
            }
        }
        let kept_key = |name: &str| -> Result<[u8; 32], StoreError> {
            match meta.get(name)? {
                Some(k) => k.as_ref().try_into().map_err(|_| {
                    StoreError::Corrupt(format!(
                        "{} is {} bytes, not 32",
                        name.replace('_', " "),
                        k.len()
                    ))
                }),
                None => {
                    let key = super::random_key().map_err(|reason| StoreError::Open {
                        path: dir.to_path_buf(),
                        reason,
                    })?;
                    meta.insert(name, &key[..])?;
                    db.flush()?;
                    Ok(key)
                }
            }
        };
        if migrate {
            migrate_v2(&db, dir)?;
            meta.insert("format", FORMAT)?;
            db.flush()?;
        }
        let (journal_file, read) = match reopen {
            false => JournalFile::open(dir)?,
            true => JournalFile::reopen(dir)?,
        };
        let seq_floor = read.journal.max_seq + 1;
        let replayed = (!reopen).then_some(read);
        let t = |name| Sealed::open(&db, name);
        let lease_key = kept_key(LEASE_KEY)?;
        // Stores made before signed exports get their key on first open.
        let signing_key = kept_key(SIGNING_KEY)?;
        Ok(SledStore {
            lease_key,
            signing_key,
            trust: t("trust")?,
            credentials: t("credentials")?,
            snapshots: t("checkpoints")?,
            fresh: t("fresh")?,
            sweeps: t("sweeps")?,
            plans: t("plans")?,
            results: t("results")?,
            leases: t("leases")?,
            stats: t("stats")?,
            timings: t("timings")?,
            failures: t("failures")?,
            replication: t("verify")?,
            origins: t("origins")?,
            quarantine: t("quarantine")?,
            audit: t("audit")?,
            dir: dir.to_path_buf(),
            journal: Mutex::new(journal_file),
            pending: Mutex::new(Vec::new()),
            replayed: Mutex::new(replayed),
            seq_floor: Mutex::new(seq_floor),
            seqs: Mutex::default(),
            db,
        })
    }

    /// Queue `r` for the journal (appended by the next flush).
    fn note(&self, r: &Record) {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(r.frame());
    }

    /// The sequence number of stored sweep `id`, if its record reads.
    fn seq_of(&self, id: &str) -> Option<u64> {
        let mut seqs = self.seqs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&seq) = seqs.get(id) {
            return Some(seq);
        }
        let bytes = self.sweeps.get(id.as_bytes()).ok()??;
        let seq = dec::<SweepRecord>("sweep record", &bytes).ok()?.seq;
        seqs.insert(id.to_string(), seq);
        Some(seq)
    }

    /// Forget the cached sequence number of sweep `id` (deleted or re-created).
    fn forget_seq(&self, id: &str) {
        self.seqs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }

    /// Flush sled, then append `extra` and every queued record to the
    /// journal, fsynced: everything written before this call is durable in
    /// both, sled first (see `journal.rs`).
    fn commit(&self, extra: &[Record]) -> Result<(), StoreError> {
        let mut journal = self.journal.lock().unwrap_or_else(|e| e.into_inner());
        // Taken before sled's flush: each queued record's write precedes it.
        let mut bytes =
            std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        for r in extra {
            bytes.extend(r.frame());
        }
        let res = self
            .db
            .flush()
            .map_err(StoreError::from)
            .and_then(|_| journal.append(&bytes));
        if res.is_err() {
            // Not journaled: queue them again (ahead of newer ones) so a
            // later successful flush still records them.
            let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            bytes.extend_from_slice(&p);
            *p = bytes;
        }
        res
    }
}

/// Seal every value of a v2 store and write its journal from what it holds.
/// Idempotent: a value already sealed (a migration cut short by a crash) is
/// left as it is, and the journal is written whole and renamed into place.
fn migrate_v2(db: &sled::Db, dir: &Path) -> Result<(), StoreError> {
    tracing::info!(store = %dir.display(), "migrating the store from gamesweep-store-v2 to v3: sealing every value with a checksum and writing its journal");
    let mut sealed = 0u64;
    for &name in SEALED_TREES {
        let tree = db.open_tree(name)?;
        for kv in tree.iter() {
            let (k, v) = kv?;
            if unseal(name, &k, &v).is_ok() {
                continue;
            }
            tree.insert(&k, seal(name, &k, &v))?;
            sealed += 1;
        }
    }
    db.flush()?;
    let sweeps = Sealed::open(db, "sweeps")?;
    let plans = Sealed::open(db, "plans")?;
    let results = Sealed::open(db, "results")?;
    let mut records = Vec::new();
    for kv in sweeps.scan(b"") {
        let (k, v) = kv?;
        let record: SweepRecord = dec("sweep record", &v)?;
        let Some(plan) = plans.get(&k)? else { continue };
        let shards = dec::<Vec<ShardSpec>>("plan", &plan)?.len() as u32;
        let seq = record.seq;
        let id = record.id.clone();
        records.push(Record::Sweep(Box::new(SweepEntry {
            record,
            shards,
            plan_sha256: journal::digest_hex(&plan),
        })));
        for kv in results.scan(&sweep_prefix(&id)) {
            let (k, v) = kv?;
            records.push(Record::Done {
                seq,
                index: index_of(&k)?,
                digest: journal::digest(&v),
            });
        }
    }
    journal::write_new(dir, &records)?;
    tracing::info!(store = %dir.display(), values = sealed, journal_records = records.len(), "store migrated to gamesweep-store-v3");
    Ok(())
}

impl Store for SledStore {
    fn create_sweep(&self, record: &SweepRecord, plan: &[ShardSpec]) -> Result<(), StoreError> {
        if self.sweeps.tree.contains_key(record.id.as_bytes())? {
            return Err(StoreError::Exists(record.id.clone()));
        }
        let plan_bytes = enc(&plan);
        self.forget_seq(&record.id);
        // Plan first: a sweep record is only visible once its plan is stored.
        self.plans.insert(record.id.as_bytes(), &plan_bytes)?;
        self.sweeps.insert(record.id.as_bytes(), &enc(record))?;
        self.commit(&[Record::Sweep(Box::new(SweepEntry {
            record: record.clone(),
            shards: plan.len() as u32,
            plan_sha256: journal::digest_hex(&plan_bytes),
        }))])
    }

    fn update_sweep(&self, record: &SweepRecord) -> Result<(), StoreError> {
        self.sweeps.insert(record.id.as_bytes(), &enc(record))?;
        self.commit(&[Record::Updated(Box::new(record.clone()))])
    }

    fn delete_sweep(&self, id: &str) -> Result<(), StoreError> {
        // Journaled first: a crash mid-delete leaves a sweep the journal
        // calls deleted, which the next start finishes deleting; the other
        // order would leave a journaled sweep missing from sled.
        if let Some(seq) = self.seq_of(id) {
            self.commit(&[Record::Deleted { seq }])?;
        }
        self.forget_seq(id);
        self.sweeps.remove(id.as_bytes())?;
        self.plans.remove(id.as_bytes())?;
        self.stats.remove(id.as_bytes())?;
        self.remove_snapshot(id)?;
        for tree in [
            &self.fresh,
            &self.results,
            &self.leases,
            &self.timings,
            &self.failures,
            &self.replication,
            &self.origins,
        ] {
            for kv in tree.tree.scan_prefix(sweep_prefix(id)) {
                tree.tree.remove(kv?.0)?;
            }
        }
        self.db.flush()?;
        Ok(())
    }

    fn next_seq(&self) -> Result<u64, StoreError> {
        let mut floor = self.seq_floor.lock().unwrap_or_else(|e| e.into_inner());
        let seq = self.db.generate_id()?.max(*floor);
        *floor = seq + 1;
        Ok(seq)
    }

    fn load_all(&self) -> Result<Vec<StoredSweep>, StoreError> {
        self.load(false)
    }

    fn load_for_start(&self) -> Result<Vec<StoredSweep>, StoreError> {
        self.load(true)
    }

    fn put_snapshot(&self, id: &str, snapshot: &Snapshot) -> Result<bool, StoreError> {
        let bytes = snapshot.encode();
        let parts: Vec<&[u8]> = bytes.chunks(SNAPSHOT_PART).collect();
        let count = u32::try_from(parts.len())
            .map_err(|_| StoreError::Corrupt(format!("the snapshot of `{id}` is too large")))?;
        // One batch (sled applies it whole or not at all): the new parts,
        // and the removal of what is left of the one before.
        let mut batch = self.snapshot_removal(id, count)?;
        for (i, part) in parts.into_iter().enumerate() {
            let key = shard_key(id, i as u32);
            let mut payload = Vec::with_capacity(4 + part.len());
            payload.extend_from_slice(&count.to_be_bytes());
            payload.extend_from_slice(part);
            batch.insert(key.as_slice(), seal(self.snapshots.name, &key, &payload));
        }
        self.snapshots.tree.apply_batch(batch)?;
        self.db.flush()?;
        // Durable: the shards it covers are no longer fresh (one batch:
        // per-key removes cost tens of microseconds each).
        let mut batch = sled::Batch::default();
        for kv in self.fresh.tree.scan_prefix(sweep_prefix(id)) {
            let (k, _) = kv?;
            if index_of(&k).is_ok_and(|i| snapshot.covers(i)) {
                batch.remove(k);
            }
        }
        self.fresh.tree.apply_batch(batch)?;
        Ok(true)
    }

    fn put_result(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        timing: Option<&ShardTiming>,
    ) -> Result<bool, StoreError> {
        self.store_result(id, index, result, timing, None)
    }

    fn put_result_from(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        timing: Option<&ShardTiming>,
        origin: &str,
    ) -> Result<bool, StoreError> {
        self.store_result(id, index, result, timing, Some(origin))
    }

    fn put_lease(
        &self,
        id: &str,
        index: u32,
        lease: Option<&LeaseRecord>,
    ) -> Result<(), StoreError> {
        put_or_clear(&self.leases, shard_key(id, index), lease)
    }

    fn put_failure(
        &self,
        id: &str,
        index: u32,
        failure: Option<&FailureRecord>,
    ) -> Result<(), StoreError> {
        put_or_clear(&self.failures, shard_key(id, index), failure)
    }

    fn put_stats(&self, id: &str, stats: &SweepStats) -> Result<(), StoreError> {
        self.stats.insert(id.as_bytes(), &enc(stats))
    }

    fn put_replication(
        &self,
        id: &str,
        index: u32,
        record: Option<&ReplicationRecord>,
    ) -> Result<(), StoreError> {
        put_or_clear(&self.replication, shard_key(id, index), record)
    }

    fn put_origin(&self, id: &str, index: u32, worker: &str) -> Result<(), StoreError> {
        self.origins.insert(&shard_key(id, index), &enc(&worker))
    }

    fn replace_result(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        worker: &str,
    ) -> Result<(), StoreError> {
        let key = shard_key(id, index);
        // The snapshot merged the result replaced: gone first, so no
        // prefix of these writes keeps it beside the new result.
        self.remove_snapshot(id)?;
        self.results.insert(&key, result)?;
        // The replaced result's timing was another run's.
        self.timings.remove(&key)?;
        self.origins.insert(&key, &enc(&worker))?;
        if let Some(seq) = self.seq_of(id) {
            self.note(&Record::Replaced {
                seq,
                index,
                digest: journal::digest(result),
            });
        }
        Ok(())
    }

    fn timings_of(&self, id: &str) -> Result<BTreeMap<u32, ShardTiming>, StoreError> {
        self.per_shard(&self.timings, "shard timing", id, None)
    }

    fn origins_of(&self, id: &str) -> Result<BTreeMap<u32, String>, StoreError> {
        self.per_shard(&self.origins, "result origin", id, None)
    }

    fn results_of(&self, id: &str) -> Result<BTreeMap<u32, Vec<u8>>, StoreError> {
        let mut out = BTreeMap::new();
        for kv in self.results.scan(&sweep_prefix(id)) {
            let (k, v) = kv?;
            out.insert(index_of(&k)?, v);
        }
        Ok(out)
    }

    fn put_quarantine(&self, record: &QuarantineRecord) -> Result<(), StoreError> {
        self.quarantine
            .insert(record.worker.as_bytes(), &enc(record))?;
        self.commit(&[])
    }

    fn load_quarantine(&self) -> Result<Vec<QuarantineRecord>, StoreError> {
        self.quarantine
            .scan(b"")
            .map(|kv| dec("quarantine record", &kv?.1))
            .collect()
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.commit(&[])
    }

    fn put_trust(&self, key: &str, record: &TrustRecord) -> Result<(), StoreError> {
        self.trust.insert(key.as_bytes(), &enc(record))
    }

    fn load_trust(&self) -> Result<BTreeMap<String, TrustRecord>, StoreError> {
        let mut out = BTreeMap::new();
        for kv in self.trust.scan(b"") {
            let (k, v) = kv?;
            let key = String::from_utf8(k.to_vec())
                .map_err(|_| StoreError::Corrupt("trust record key is not UTF-8".into()))?;
            out.insert(key, dec("trust record", &v)?);
        }
        Ok(out)
    }

    fn put_credential(&self, record: &CredentialRecord) -> Result<(), StoreError> {
        self.credentials
            .insert(record.name.as_bytes(), &enc(record))?;
        self.db.flush()?;
        Ok(())
    }

    fn load_credentials(&self) -> Result<Vec<CredentialRecord>, StoreError> {
        self.credentials
            .scan(b"")
            .map(|kv| dec("credential", &kv?.1))
            .collect()
    }

    fn size_on_disk(&self) -> u64 {
        self.db.size_on_disk().unwrap_or(0)
    }

    fn lease_key(&self) -> [u8; 32] {
        self.lease_key
    }

    fn signing_key(&self) -> [u8; 32] {
        self.signing_key
    }

    fn append_audit(&self, entry: &AuditRecord) -> Result<(), StoreError> {
        let key = self.db.generate_id()?.to_be_bytes();
        let value = serde_json::to_vec(entry)
            .map_err(|e| StoreError::Corrupt(format!("audit entry: {e}")))?;
        self.audit.insert(&key, &value)?;
        self.commit(&[])
    }

    fn audit_tail(&self, n: usize) -> Result<Vec<AuditRecord>, StoreError> {
        let mut out = Vec::new();
        for kv in self.audit.tree.iter().rev().take(n) {
            let (k, v) = kv?;
            let v = unseal("audit", &k, &v)?;
            out.push(serde_json::from_slice(v).map_err(|e| {
                StoreError::Corrupt(format!(
                    "audit entry {}: {e}",
                    String::from_utf8_lossy(&k).escape_debug()
                ))
            })?);
        }
        out.reverse();
        Ok(out)
    }

    fn journal(&self) -> Result<Option<journal::Read>, StoreError> {
        if let Some(read) = self
            .replayed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            return Ok(Some(read));
        }
        // Read again (a second start-up check, `store check`): flush first
        // so the file holds everything written so far.
        self.flush()?;
        let data = std::fs::read(self.dir.join(journal::FILE_NAME))
            .map_err(|e| StoreError::Corrupt(format!("cannot read the journal: {e}")))?;
        Ok(Some(journal::replay(&data)))
    }

    fn append_journal(&self, records: &[Record]) -> Result<(), StoreError> {
        self.commit(records)
    }

    fn rewrite_journal(&self, records: &[Record]) -> Result<(), StoreError> {
        let mut journal = self.journal.lock().unwrap_or_else(|e| e.into_inner());
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.db.flush()?;
        journal.rewrite(&self.dir, records)
    }

    fn remove_result(&self, id: &str, index: u32) -> Result<(), StoreError> {
        let key = shard_key(id, index);
        self.remove_snapshot(id)?;
        self.results.remove(&key)?;
        self.timings.remove(&key)?;
        self.origins.remove(&key)
    }

    fn scan(&self, purge: bool) -> Result<Vec<Damage>, StoreError> {
        self.scan_with(purge, true)
    }

    fn scan_start(&self) -> Result<Vec<Damage>, StoreError> {
        self.scan_with(false, false)
    }
}

/// Read every entry of `tree` into `visit`, in key order and then, if sled
/// cannot read some part of it (a damaged page), from the other end back to
/// the last key read: what sled said (and where), if it could not read it all.
pub(super) fn read_tree(tree: &sled::Tree, mut visit: impl FnMut(&[u8], &[u8])) -> Option<String> {
    let mut last: Option<sled::IVec> = None;
    let mut failed = None;
    for kv in tree.iter() {
        match kv {
            Ok((k, v)) => {
                visit(&k, &v);
                last = Some(k);
            }
            Err(e) => {
                failed = Some(super::sled_message(&e));
                break;
            }
        }
    }
    let failed = failed?;
    let mut back = 0usize;
    for kv in tree.iter().rev() {
        match kv {
            Ok((k, v)) => {
                if last.as_ref().is_some_and(|l| k <= *l) {
                    break;
                }
                visit(&k, &v);
                back += 1;
            }
            Err(_) => break,
        }
    }
    let name = String::from_utf8_lossy(&tree.name()).into_owned();
    let after = match last {
        Some(k) => format!(
            "after {}",
            locate(&name, &k).replacen(&format!("tree `{name}`, "), "", 1)
        ),
        None => "from its first entry".into(),
    };
    Some(format!(
        "sled cannot read part of tree `{name}` ({failed}): its entries {after}, up to the last {back} (read back from its end), are unreadable"
    ))
}

/// The sweep and shard a key of `tree` belongs to (if it says).
fn owner(tree: &str, key: &[u8]) -> (Option<String>, Option<u32>) {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    match tree {
        "checkpoints" if is_part_key(key) => (Some(text(&key[..key.len() - 5])), None),
        "sweeps" | "plans" | "stats" | "checkpoints" => (Some(text(key)), None),
        "quarantine" | "audit" => (None, None),
        _ if key.len() >= 5 && key[key.len() - 5] == 0 => {
            (Some(text(&key[..key.len() - 5])), index_of(key).ok())
        }
        _ => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::fixtures::{plan, record};
    use crate::store::salvage::bytes_in;

    #[test]
    fn counters_stored_before_the_lease_counters_existed_still_load() {
        // Stats as a store written before `leases_expired`/`leases_released`
        // holds them: the new counters read as 0.
        let old: SweepStats = dec("stats", br#"{"duplicates_ignored":4}"#).unwrap();
        assert_eq!(
            old,
            SweepStats {
                duplicates_ignored: 4,
                leases_expired: 0,
                ..SweepStats::default()
            }
        );
        let err = dec::<SweepStats>("stats", b"{").unwrap_err();
        assert!(err.to_string().contains("stats: "), "{err}");
    }

    #[test]
    fn the_lease_key_is_kept_and_old_records_still_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store");
        let key = SledStore::open_when_free(&path).lease_key();
        assert_eq!(SledStore::open_when_free(&path).lease_key(), key, "kept");
        let other = tempfile::tempdir().unwrap();
        assert_ne!(SledStore::open_when_free(other.path()).lease_key(), key);
        // The export signing seed likewise: kept, per store, not the lease key.
        let seed = SledStore::open_when_free(&path).signing_key();
        assert_eq!(SledStore::open_when_free(&path).signing_key(), seed, "kept");
        assert_ne!(SledStore::open_when_free(other.path()).signing_key(), seed);
        assert_ne!(seed, key);
        // Records written before grant times and failing workers were kept.
        let old: LeaseRecord = dec("lease", br#"{"worker":"w","until_ms":5,"attempt":2}"#).unwrap();
        assert_eq!((old.attempt, old.granted_ms), (2, 0));
        let old: FailureRecord =
            dec("failure", br#"{"count":3,"error":"e","worker":"w"}"#).unwrap();
        assert_eq!((old.count, old.workers.len(), old.set_aside), (3, 0, None));
    }

    #[test]
    fn results_are_written_once_and_survive_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store");
        {
            let s = SledStore::open_when_free(&path);
            s.create_sweep(&record("a"), &plan(3)).unwrap();
            assert!(matches!(
                s.create_sweep(&record("a"), &plan(3)),
                Err(StoreError::Exists(_))
            ));
            let r = br#"{"work":5}"#.to_vec();
            let t = ShardTiming {
                wall_us: 7,
                cpu_us: 6,
                worker: "w".into(),
            };
            assert!(s.put_result("a", 1, &r, Some(&t)).unwrap());
            let r2 = br#"{"work":6}"#.to_vec();
            let t2 = ShardTiming {
                wall_us: 9,
                ..t.clone()
            };
            assert!(!s.put_result("a", 1, &r2, Some(&t2)).unwrap());
            s.flush().unwrap();
        }
        let s = SledStore::open_when_free(&path);
        let all = s.load_all().unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].plan, plan(3));
        assert_eq!(all[0].results.len(), 1);
        assert_eq!(all[0].results[&1], br#"{"work":5}"#.to_vec());
        assert_eq!(
            all[0].timings[&1].wall_us, 7,
            "the accepted result's timing"
        );
        assert_eq!(all[0].timings.len(), 1);
    }

    /// A creation killed before sled wrote `db` (seen in a kill/restart
    /// schedule: only sled's empty `blobs/` was there) is created again;
    /// anything more is still someone else's, and refused.
    #[test]
    fn a_store_whose_creation_was_cut_short_is_created_again() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("store");
        std::fs::create_dir_all(d.join("blobs")).unwrap();
        let s = SledStore::open(&d).expect("created again");
        drop(s);
        SledStore::open(&d).expect("and opened again");
        for (what, file) in [
            ("a file in blobs/", "blobs/x"),
            ("a file of someone else's", "notes.txt"),
        ] {
            let other = tempfile::tempdir().unwrap();
            std::fs::create_dir_all(other.path().join("blobs")).unwrap();
            std::fs::write(other.path().join(file), b"x").unwrap();
            let e = SledStore::open(other.path()).err().expect(what);
            assert!(matches!(e, StoreError::Foreign(_)), "{what}: {e}");
        }
    }

    /// A store another process (or handle) holds open is "in use", not
    /// "point --store at an empty directory" nor "damaged".
    #[test]
    fn a_store_held_open_is_in_use() {
        let dir = tempfile::tempdir().unwrap();
        let held = SledStore::open(dir.path()).unwrap();
        let err = SledStore::open(dir.path()).err().expect("opened twice");
        assert!(matches!(err, StoreError::InUse(_)), "{err}");
        let text = err.to_string();
        assert!(text.contains("in use by another process"), "{text}");
        assert!(!text.contains("empty directory"), "{text}");
        drop(held);
    }

    #[test]
    fn foreign_directories_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        assert!(matches!(
            SledStore::open(dir.path()),
            Err(StoreError::Foreign(_))
        ));
        // A sled database written by someone else.
        let other = dir.path().join("other");
        {
            let db = sled::open(&other).unwrap();
            db.insert("x", "y").unwrap();
            db.flush().unwrap();
        }
        assert!(matches!(
            SledStore::open(&other),
            Err(StoreError::Foreign(_))
        ));
    }

    #[test]
    fn older_store_formats_are_refused_with_a_clear_message() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old");
        {
            let db = sled::open(&old).unwrap();
            db.open_tree("meta")
                .unwrap()
                .insert("format", "gamesweep-store-v1")
                .unwrap();
            db.open_tree("results").unwrap().insert("x", "y").unwrap();
            db.flush().unwrap();
        }
        let err = SledStore::open(&old).err().expect("refused");
        assert!(matches!(err, StoreError::OldFormat { .. }), "{err}");
        let msg = err.to_string();
        assert!(
            msg.contains("gamesweep-store-v1") && msg.contains("cannot read"),
            "{msg}"
        );
        // Refusing it changed nothing: the old data is still there.
        let db = sled::open(&old).unwrap();
        assert_eq!(
            db.open_tree("meta")
                .unwrap()
                .get("format")
                .unwrap()
                .unwrap()
                .as_ref(),
            b"gamesweep-store-v1"
        );
    }

    #[test]
    fn a_v2_store_is_migrated_in_place_and_a_cut_migration_resumes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store");
        let result = br#"{"work":5}"#;
        {
            // A v2 store as that build wrote it: plain JSON values.
            let db = sled::open(&path).unwrap();
            let meta = db.open_tree("meta").unwrap();
            meta.insert("format", MIGRATES).unwrap();
            meta.insert(LEASE_KEY, &[7u8; 32][..]).unwrap();
            db.open_tree("sweeps")
                .unwrap()
                .insert("a", enc(&record("a")))
                .unwrap();
            db.open_tree("plans")
                .unwrap()
                .insert("a", enc(&plan(3)))
                .unwrap();
            db.open_tree("results")
                .unwrap()
                .insert(shard_key("a", 1), &result[..])
                .unwrap();
            db.flush().unwrap();
        }
        for round in 0..2 {
            {
                let s = SledStore::open_when_free(&path);
                assert_eq!(s.lease_key(), [7u8; 32], "the key is kept");
                let all = s.load_all().unwrap();
                assert_eq!(all[0].results[&1], result.to_vec(), "round {round}");
                let j = s.journal().unwrap().unwrap().journal;
                assert_eq!(j.sweeps[&1].done[&1], journal::digest(result));
                assert_eq!(j.sweeps[&1].entry.shards, 3);
                assert!(s.scan(false).unwrap().is_empty());
            }
            // A crash before the format was set: everything is sealed
            // already and must not be sealed twice.
            let db = sled::open(&path).unwrap();
            let v = db
                .open_tree("results")
                .unwrap()
                .get(shard_key("a", 1))
                .unwrap()
                .unwrap();
            assert_eq!(unseal("results", &shard_key("a", 1), &v).unwrap(), result);
            db.open_tree("meta")
                .unwrap()
                .insert("format", MIGRATES)
                .unwrap();
            db.flush().unwrap();
        }
    }

    #[test]
    fn a_flipped_value_is_corrupt_naming_tree_sweep_and_shard() {
        let key = shard_key("golden", 3);
        let mut v = seal("results", &key, b"{\"work\":1}");
        assert!(unseal("results", &key, &v).is_ok());
        // Another key or tree does not take it either.
        assert!(unseal("results", &shard_key("golden", 4), &v).is_err());
        assert!(unseal("timings", &key, &v).is_err());
        for bit in 0..v.len() * 8 {
            v[bit / 8] ^= 1 << (bit % 8);
            let err = unseal("results", &key, &v).unwrap_err().to_string();
            assert!(
                err.starts_with("store is corrupt: tree `results`, sweep `golden`, shard 3: "),
                "{err}"
            );
            v[bit / 8] ^= 1 << (bit % 8);
        }
    }

    #[test]
    fn acknowledged_work_is_journaled_by_the_flush() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store");
        {
            let s = SledStore::open_when_free(&path);
            s.create_sweep(&record("a"), &plan(3)).unwrap();
            assert!(s.put_result("a", 2, b"r2", None).unwrap());
            s.flush().unwrap();
            s.replace_result("a", 2, b"r2'", "w").unwrap();
            s.flush().unwrap();
            let mut cancelled = record("a");
            cancelled.state = crate::store::SweepState::Cancelled;
            s.update_sweep(&cancelled).unwrap();
            let b = SweepRecord {
                seq: 2,
                ..record("b")
            };
            s.create_sweep(&b, &plan(1)).unwrap();
            s.delete_sweep("b").unwrap();
        }
        let s = SledStore::open_when_free(&path);
        let j = s.journal().unwrap().unwrap().journal;
        assert_eq!(j.sweeps.len(), 1, "b deleted");
        let a = j.by_id("a").unwrap();
        assert_eq!(a.done.len(), 1);
        assert_eq!(a.done[&2], journal::digest(b"r2'"), "the replacement");
        assert_eq!(a.entry.record.state, crate::store::SweepState::Cancelled);
        assert_eq!(a.entry.plan_sha256, journal::digest_hex(&enc(&plan(3))));
    }

    /// A snapshot as large as the n = 12 campaign's (1.4 MB), written
    /// every few seconds by a coordinator that also reopens its store
    /// every 30 (`Store::refresh`).
    fn large_snapshot(round: u64) -> Snapshot {
        // Bytes that do not repeat, as a merged result's do not.
        let mut x = round.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let merged = (0..1_400_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        Snapshot {
            seq: 1,
            covered: Vec::new(),
            merged,
            work: Vec::new(),
            digest: SetDigest::default().hex(),
            worker_work: BTreeMap::new(),
        }
    }

    fn files_in(dir: &Path) -> usize {
        std::fs::read_dir(dir).map_or(0, |d| d.count())
    }

    #[test]
    fn snapshots_rewritten_across_reopens_leave_no_files_behind() {
        // Sled (0.34) writes a value larger than a quarter of its log
        // segment (512 KiB) to a file of its own in `blobs/`, and deletes
        // a replaced one only when its log segment is reused, which a
        // reopen forgets: the campaign's store kept every snapshot it had
        // ever written, 2.4 GB of them.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store");
        let mut last = None;
        for round in 0..40 {
            let s = SledStore::open_when_free(&path);
            if round == 0 {
                s.create_sweep(&record("a"), &plan(3)).unwrap();
            }
            let cp = large_snapshot(round);
            assert!(s.put_snapshot("a", &cp).unwrap());
            last = Some(cp);
        }
        let s = SledStore::open_when_free(&path);
        let blobs = files_in(&path.join("blobs"));
        assert!(blobs <= 2, "{blobs} files in blobs/ after 40 snapshots");
        // 40 snapshots of 1.4 MB each: sled's log is cleaned as it goes.
        let bytes = bytes_in(&path);
        assert!(bytes < 20_000_000, "the store holds {bytes} bytes");
        let read = s.snapshot_of(&record("a"), 3).expect("the last snapshot");
        assert_eq!(Some(read), last, "read back whole");
        assert_eq!(s.scan(false).unwrap(), Vec::new());
    }

    #[test]
    fn a_snapshot_missing_a_part_is_damage_and_goes_whole() {
        let dir = tempfile::tempdir().unwrap();
        let s = SledStore::open(dir.path()).unwrap();
        s.create_sweep(&record("a"), &plan(3)).unwrap();
        assert!(s.put_snapshot("a", &large_snapshot(1)).unwrap());
        let parts = s.snapshots.tree.len();
        assert_eq!(
            parts,
            large_snapshot(1).encode().len().div_ceil(SNAPSHOT_PART)
        );
        assert!(parts > 300);
        s.snapshots.tree.remove(shard_key("a", 5)).unwrap();
        assert_eq!(s.snapshot_of(&record("a"), 3), None, "passed over");
        for deep in [false, true] {
            let damage = s.scan_with(false, deep).unwrap();
            assert_eq!(damage.len(), 1, "{damage:?}");
            let want = format!("tree `checkpoints`, sweep `a`: the snapshot's parts 0..{parts} are not all stored, part 5 is missing");
            assert!(damage[0].what.contains(&want), "{}", damage[0].what);
        }
        // A damaged part: named, and the whole snapshot purged.
        let k = shard_key("a", 7);
        let mut v = s.snapshots.tree.get(&k).unwrap().unwrap().to_vec();
        v[100] ^= 1;
        s.snapshots.tree.insert(&k, v).unwrap();
        let damage = s.scan(true).unwrap();
        assert_eq!(damage.len(), 1, "{damage:?}");
        assert!(
            damage[0]
                .what
                .contains("tree `checkpoints`, sweep `a`, snapshot part 7: checksum mismatch"),
            "{damage:?}"
        );
        assert_eq!(s.snapshots.tree.len(), 0, "purged whole");
        assert!(s.scan(false).unwrap().is_empty());
    }

    #[test]
    fn a_snapshot_stored_whole_by_an_earlier_build_is_read_and_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let s = SledStore::open(dir.path()).unwrap();
        s.create_sweep(&record("a"), &plan(3)).unwrap();
        let old = large_snapshot(1);
        s.snapshots.insert(b"a", &old.encode()).unwrap();
        assert_eq!(s.snapshot_of(&record("a"), 3).as_ref(), Some(&old));
        assert_eq!(s.scan(false).unwrap(), Vec::new());
        let new = large_snapshot(2);
        assert!(s.put_snapshot("a", &new).unwrap());
        assert_eq!(s.snapshot_of(&record("a"), 3), Some(new));
        assert_eq!(
            s.snapshots.tree.get(b"a").unwrap(),
            None,
            "the old value removed"
        );
        // A smaller snapshot leaves none of the larger one's parts.
        let mut small = large_snapshot(3);
        small.merged.truncate(10);
        assert!(s.put_snapshot("a", &small).unwrap());
        assert_eq!(s.snapshots.tree.len(), 1);
        assert_eq!(s.snapshot_of(&record("a"), 3), Some(small));
        s.delete_sweep("a").unwrap();
        assert_eq!(s.snapshots.tree.len(), 0);
    }
}
