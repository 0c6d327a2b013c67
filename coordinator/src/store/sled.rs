//! [`Store`] on a sled database in a directory.

use super::{
    AuditRecord, CredentialRecord, FailureRecord, LeaseRecord, QuarantineRecord, ShardTiming,
    Store, StoreError, StoredSweep, SweepRecord, SweepStats, TrustRecord, VerifyRecord,
};
use gamesweep::sweep::ShardSpec;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Marker stored in every gamesweep store; a directory without it is foreign.
/// The store format. v2: shard results are the kind's typed result as JSON
/// (v1 stored string-keyed counter maps) and plans carry typed JSON shards.
const FORMAT: &[u8] = b"gamesweep-store-v2";
/// The `meta` key of the lease-token key.
const LEASE_KEY: &str = "lease_key";
/// The `meta` key of the export signing seed.
const SIGNING_KEY: &str = "signing_key";
/// Formats this build recognises but cannot read.
const OLD_FORMATS: &[&[u8]] = &[b"gamesweep-store-v1"];

/// [`Store`] on a sled database in a directory.
pub struct SledStore {
    db: sled::Db,
    sweeps: sled::Tree,
    plans: sled::Tree,
    results: sled::Tree,
    leases: sled::Tree,
    stats: sled::Tree,
    timings: sled::Tree,
    failures: sled::Tree,
    /// The lease-token key (kept in the `meta` tree).
    lease_key: [u8; 32],
    /// The export signing seed (kept in the `meta` tree).
    signing_key: [u8; 32],
    /// Verification records (replicated validation), by shard.
    verify: sled::Tree,
    /// The worker of each accepted result, by shard.
    origins: sled::Tree,
    /// Quarantined workers, by worker id.
    quarantine: sled::Tree,
    /// The audit log: big-endian sequence number -> JSON entry.
    audit: sled::Tree,
}

fn shard_key(id: &str, index: u32) -> Vec<u8> {
    let mut k = Vec::with_capacity(id.len() + 5);
    k.extend_from_slice(id.as_bytes());
    k.push(0);
    k.extend_from_slice(&index.to_be_bytes());
    k
}

fn sweep_prefix(id: &str) -> Vec<u8> {
    let mut k = id.as_bytes().to_vec();
    k.push(0);
    k
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
    tree: &sled::Tree,
    key: Vec<u8>,
    value: Option<&T>,
) -> Result<(), StoreError> {
    match value {
        Some(v) => tree.insert(key, enc(v))?,
        None => tree.remove(key)?,
    };
    Ok(())
}

fn dec<T: for<'de> Deserialize<'de>>(what: &str, bytes: &[u8]) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

/// Decode one stored entry (`key`, `bytes`) of the tree named `tree` with
/// the types and checks [`Store::load_all`] uses (`results`: the key only,
/// a result's bytes are its kind's to decode). For the fuzz harness
/// (`coordinator/tests/fuzz.rs`): bad bytes must be an error, never a panic.
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
        "verify" => index_of(key).and(dec::<VerifyRecord>("verification record", bytes).map(drop)),
        "origins" => index_of(key).and(dec::<String>("result origin", bytes).map(drop)),
        "quarantine" => dec::<QuarantineRecord>("quarantine record", bytes).map(drop),
        "trust" => dec::<TrustRecord>("trust record", bytes).map(drop),
        "credentials" => dec::<CredentialRecord>("credential", bytes).map(drop),
        _ => Err(StoreError::Corrupt(format!("no tree `{tree}`"))),
    }
}

impl SledStore {
    /// Open (or create) the store in `dir`. A directory holding anything but
    /// a gamesweep store is refused.
    pub fn open(dir: &Path) -> Result<Self, StoreError> {
        let open_err = |reason: String| StoreError::Open {
            path: dir.to_path_buf(),
            reason,
        };
        if dir.exists() {
            if !dir.is_dir() {
                return Err(open_err("not a directory".into()));
            }
            let has_files = std::fs::read_dir(dir)
                .map_err(|e| open_err(e.to_string()))?
                .next()
                .is_some();
            // sled always writes `conf` and `db`; anything else in a non-empty
            // directory is someone else's data, which we must not touch.
            if has_files && !(dir.join("conf").is_file() && dir.join("db").is_file()) {
                return Err(StoreError::Foreign(dir.to_path_buf()));
            }
        }
        let db = sled::Config::new()
            .path(dir)
            .open()
            .map_err(|e| open_err(super::sled_message(&e)))?;
        let meta = db.open_tree("meta")?;
        match meta.get("format")? {
            Some(f) if f.as_ref() == FORMAT => {}
            Some(f) if OLD_FORMATS.contains(&f.as_ref()) => {
                return Err(StoreError::OldFormat {
                    dir: dir.to_path_buf(),
                    found: String::from_utf8_lossy(&f).into_owned(),
                    want: String::from_utf8_lossy(FORMAT).into_owned(),
                })
            }
            Some(_) => return Err(StoreError::Foreign(dir.to_path_buf())),
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
        let lease_key = kept_key(LEASE_KEY)?;
        // Stores made before signed exports get their key on first open.
        let signing_key = kept_key(SIGNING_KEY)?;
        Ok(SledStore {
            lease_key,
            signing_key,
            sweeps: db.open_tree("sweeps")?,
            plans: db.open_tree("plans")?,
            results: db.open_tree("results")?,
            leases: db.open_tree("leases")?,
            stats: db.open_tree("stats")?,
            timings: db.open_tree("timings")?,
            failures: db.open_tree("failures")?,
            verify: db.open_tree("verify")?,
            origins: db.open_tree("origins")?,
            quarantine: db.open_tree("quarantine")?,
            audit: db.open_tree("audit")?,
            db,
        })
    }
}

impl Store for SledStore {
    fn create_sweep(&self, record: &SweepRecord, plan: &[ShardSpec]) -> Result<(), StoreError> {
        if self.sweeps.contains_key(record.id.as_bytes())? {
            return Err(StoreError::Exists(record.id.clone()));
        }
        // Plan first: a sweep record is only visible once its plan is stored.
        self.plans.insert(record.id.as_bytes(), enc(&plan))?;
        self.sweeps.insert(record.id.as_bytes(), enc(record))?;
        self.db.flush()?;
        Ok(())
    }

    fn update_sweep(&self, record: &SweepRecord) -> Result<(), StoreError> {
        self.sweeps.insert(record.id.as_bytes(), enc(record))?;
        self.db.flush()?;
        Ok(())
    }

    fn delete_sweep(&self, id: &str) -> Result<(), StoreError> {
        self.sweeps.remove(id.as_bytes())?;
        self.plans.remove(id.as_bytes())?;
        self.stats.remove(id.as_bytes())?;
        for tree in [
            &self.results,
            &self.leases,
            &self.timings,
            &self.failures,
            &self.verify,
            &self.origins,
        ] {
            for kv in tree.scan_prefix(sweep_prefix(id)) {
                tree.remove(kv?.0)?;
            }
        }
        self.db.flush()?;
        Ok(())
    }

    fn next_seq(&self) -> Result<u64, StoreError> {
        Ok(self.db.generate_id()?)
    }

    fn load_all(&self) -> Result<Vec<StoredSweep>, StoreError> {
        let mut out = Vec::new();
        for kv in self.sweeps.iter() {
            let (k, v) = kv?;
            let record: SweepRecord = dec("sweep record", &v)?;
            if k.as_ref() != record.id.as_bytes() {
                return Err(StoreError::Corrupt(format!(
                    "sweep key/id mismatch for `{}`",
                    record.id
                )));
            }
            let plan: Vec<ShardSpec> = match self.plans.get(k.as_ref())? {
                Some(p) => dec("plan", &p)?,
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
            let mut results = BTreeMap::new();
            for kv in self.results.scan_prefix(sweep_prefix(&record.id)) {
                let (k, v) = kv?;
                let i = index_of(&k)?;
                if i as usize >= plan.len() {
                    return Err(StoreError::Corrupt(format!(
                        "result for shard {i} beyond the plan of `{}`",
                        record.id
                    )));
                }
                results.insert(i, v.to_vec());
            }
            let mut leases = BTreeMap::new();
            for kv in self.leases.scan_prefix(sweep_prefix(&record.id)) {
                let (k, v) = kv?;
                leases.insert(index_of(&k)?, dec("lease", &v)?);
            }
            let mut timings = BTreeMap::new();
            for kv in self.timings.scan_prefix(sweep_prefix(&record.id)) {
                let (k, v) = kv?;
                timings.insert(index_of(&k)?, dec("shard timing", &v)?);
            }
            let mut failures = BTreeMap::new();
            for kv in self.failures.scan_prefix(sweep_prefix(&record.id)) {
                let (k, v) = kv?;
                failures.insert(index_of(&k)?, dec("shard failure", &v)?);
            }
            let mut verify = BTreeMap::new();
            for kv in self.verify.scan_prefix(sweep_prefix(&record.id)) {
                let (k, v) = kv?;
                verify.insert(index_of(&k)?, dec("verification record", &v)?);
            }
            let mut origins = BTreeMap::new();
            for kv in self.origins.scan_prefix(sweep_prefix(&record.id)) {
                let (k, v) = kv?;
                origins.insert(index_of(&k)?, dec("result origin", &v)?);
            }
            let stats = match self.stats.get(k.as_ref())? {
                Some(s) => dec("stats", &s)?,
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
                verify,
                origins,
            });
        }
        out.sort_by_key(|s| s.record.seq);
        Ok(out)
    }

    fn put_result(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        timing: Option<&ShardTiming>,
    ) -> Result<bool, StoreError> {
        // Compare-and-swap on an empty slot: a shard's result is written at most once.
        let key = shard_key(id, index);
        let swapped = self
            .results
            .compare_and_swap(&key, None as Option<&[u8]>, Some(result))?
            .is_ok();
        if swapped {
            // Only the accepted result's timing is kept; it is flushed with the result.
            if let Some(t) = timing {
                self.timings.insert(key, enc(t))?;
            }
        }
        Ok(swapped)
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
        self.stats.insert(id.as_bytes(), enc(stats))?;
        Ok(())
    }

    fn put_verify(
        &self,
        id: &str,
        index: u32,
        record: Option<&VerifyRecord>,
    ) -> Result<(), StoreError> {
        put_or_clear(&self.verify, shard_key(id, index), record)
    }

    fn put_origin(&self, id: &str, index: u32, worker: &str) -> Result<(), StoreError> {
        self.origins.insert(shard_key(id, index), enc(&worker))?;
        Ok(())
    }

    fn replace_result(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        worker: &str,
    ) -> Result<(), StoreError> {
        let key = shard_key(id, index);
        self.results.insert(key.clone(), result)?;
        // The replaced result's timing was another run's.
        self.timings.remove(key.clone())?;
        self.origins.insert(key, enc(&worker))?;
        Ok(())
    }

    fn results_of(&self, id: &str) -> Result<BTreeMap<u32, Vec<u8>>, StoreError> {
        let mut out = BTreeMap::new();
        for kv in self.results.scan_prefix(sweep_prefix(id)) {
            let (k, v) = kv?;
            out.insert(index_of(&k)?, v.to_vec());
        }
        Ok(out)
    }

    fn put_quarantine(&self, record: &QuarantineRecord) -> Result<(), StoreError> {
        self.quarantine
            .insert(record.worker.as_bytes(), enc(record))?;
        self.db.flush()?;
        Ok(())
    }

    fn load_quarantine(&self) -> Result<Vec<QuarantineRecord>, StoreError> {
        self.quarantine
            .iter()
            .map(|kv| dec("quarantine record", &kv?.1))
            .collect()
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        Ok(())
    }

    fn put_trust(&self, key: &str, record: &TrustRecord) -> Result<(), StoreError> {
        self.db
            .open_tree("trust")?
            .insert(key.as_bytes(), enc(record))?;
        Ok(())
    }

    fn load_trust(&self) -> Result<BTreeMap<String, TrustRecord>, StoreError> {
        let mut out = BTreeMap::new();
        for kv in self.db.open_tree("trust")?.iter() {
            let (k, v) = kv?;
            let key = String::from_utf8(k.to_vec())
                .map_err(|_| StoreError::Corrupt("trust record key is not UTF-8".into()))?;
            out.insert(key, dec("trust record", &v)?);
        }
        Ok(out)
    }

    fn put_credential(&self, record: &CredentialRecord) -> Result<(), StoreError> {
        self.db
            .open_tree("credentials")?
            .insert(record.name.as_bytes(), enc(record))?;
        self.db.flush()?;
        Ok(())
    }

    fn load_credentials(&self) -> Result<Vec<CredentialRecord>, StoreError> {
        self.db
            .open_tree("credentials")?
            .iter()
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
        self.audit.insert(key, value)?;
        self.db.flush()?;
        Ok(())
    }

    fn audit_tail(&self, n: usize) -> Result<Vec<AuditRecord>, StoreError> {
        let mut out = Vec::new();
        for kv in self.audit.iter().rev().take(n) {
            let (k, v) = kv?;
            out.push(serde_json::from_slice(&v).map_err(|e| {
                StoreError::Corrupt(format!(
                    "audit entry {}: {e}",
                    String::from_utf8_lossy(&k).escape_debug()
                ))
            })?);
        }
        out.reverse();
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SweepState;

    fn record(id: &str) -> SweepRecord {
        SweepRecord {
            replicate_all: false,
            id: id.into(),
            kind: "k".into(),
            params: [("max_n".to_string(), 3)].into(),
            solver_version: "v".into(),
            target_shards: 0,
            seq: 1,
            state: SweepState::Running,
            sample: None,
            verify_ppm: 0,
            verify_seed: 0,
            paused: false,
            priority: 1,
        }
    }

    fn plan(n: u32) -> Vec<ShardSpec> {
        (0..n)
            .map(|i| ShardSpec {
                index: i,
                payload: format!("p{i}"),
                estimate: 1,
            })
            .collect()
    }

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
        let key = SledStore::open(&path).unwrap().lease_key();
        assert_eq!(SledStore::open(&path).unwrap().lease_key(), key, "kept");
        let other = tempfile::tempdir().unwrap();
        assert_ne!(SledStore::open(other.path()).unwrap().lease_key(), key);
        // The export signing seed likewise: kept, per store, not the lease key.
        let seed = SledStore::open(&path).unwrap().signing_key();
        assert_eq!(SledStore::open(&path).unwrap().signing_key(), seed, "kept");
        assert_ne!(SledStore::open(other.path()).unwrap().signing_key(), seed);
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
            let s = SledStore::open(&path).unwrap();
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
        let s = SledStore::open(&path).unwrap();
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
}
