//! [`Store`] in memory: the same contract as the sled store (write-once
//! results, launch order, orphaned writes invisible), durable only as long
//! as the process. For tests and for coordinators whose state may be lost.

use super::{
    journal, AuditRecord, Damage, FailureRecord, LeaseRecord, QuarantineRecord, ReplicationRecord,
    ShardTiming, Store, StoreError, StoredSweep, SweepRecord, SweepStats,
};
use gamesweep::sweep::ShardSpec;
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

/// A per-shard table: (sweep id, shard index) to a value.
type ShardTable<T> = BTreeMap<(String, u32), T>;

/// The tables, like the sled store's trees.
#[derive(Default)]
struct Tables {
    /// Sweep records by id.
    sweeps: BTreeMap<String, SweepRecord>,
    /// Plans by sweep id.
    plans: BTreeMap<String, Vec<ShardSpec>>,
    /// Encoded results.
    results: ShardTable<Vec<u8>>,
    /// Current leases.
    leases: ShardTable<LeaseRecord>,
    /// Timings of accepted results.
    timings: ShardTable<ShardTiming>,
    /// Failure records.
    failures: ShardTable<FailureRecord>,
    /// Counters by sweep id.
    stats: BTreeMap<String, SweepStats>,
    /// Replication records.
    replication: ShardTable<ReplicationRecord>,
    /// The worker of each accepted result.
    origins: ShardTable<String>,
    /// Quarantined workers by id.
    quarantine: BTreeMap<String, QuarantineRecord>,
    /// Trust of identities by key.
    trust: BTreeMap<String, super::TrustRecord>,
    /// Issued credentials by name.
    credentials: BTreeMap<String, super::CredentialRecord>,
    /// The last sequence number handed out.
    seq: u64,
}

/// [`Store`] in memory.
pub struct MemStore {
    /// Everything stored.
    tables: Mutex<Tables>,
    /// The lease-token key, random per store.
    lease_key: [u8; 32],
    /// The export signing seed, random per store.
    signing_key: [u8; 32],
    /// The audit log.
    audit: Mutex<Vec<AuditRecord>>,
}

impl Default for MemStore {
    fn default() -> Self {
        Self::new()
    }
}

impl MemStore {
    /// An empty store.
    pub fn new() -> Self {
        // Without a system random source (never seen on the platforms we
        // run on) a store for tests and throw-away coordinators falls back
        // to a key from the process's hasher seed, still not guessable from
        // outside.
        let key = || {
            super::random_key().unwrap_or_else(|_| {
                use std::hash::{BuildHasher, Hasher};
                let mut key = [0u8; 32];
                for chunk in key.chunks_mut(8) {
                    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
                    h.write_u64(0);
                    chunk.copy_from_slice(&h.finish().to_le_bytes());
                }
                key
            })
        };
        let (lease_key, signing_key) = (key(), key());
        MemStore {
            tables: Mutex::default(),
            lease_key,
            signing_key,
            audit: Mutex::default(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The entries of sweep `id` in `table`, by shard index.
fn of_sweep<T: Clone>(table: &ShardTable<T>, id: &str) -> BTreeMap<u32, T> {
    table
        .range((id.to_string(), 0)..=(id.to_string(), u32::MAX))
        .map(|((_, i), v)| (*i, v.clone()))
        .collect()
}

/// Set or clear `key` in `table`.
fn put_or_clear<T: Clone>(table: &mut ShardTable<T>, key: (String, u32), value: Option<&T>) {
    match value {
        Some(v) => table.insert(key, v.clone()),
        None => table.remove(&key),
    };
}

impl Store for MemStore {
    fn create_sweep(&self, record: &SweepRecord, plan: &[ShardSpec]) -> Result<(), StoreError> {
        let mut t = self.lock();
        if t.sweeps.contains_key(&record.id) {
            return Err(StoreError::Exists(record.id.clone()));
        }
        t.plans.insert(record.id.clone(), plan.to_vec());
        t.sweeps.insert(record.id.clone(), record.clone());
        Ok(())
    }

    fn update_sweep(&self, record: &SweepRecord) -> Result<(), StoreError> {
        self.lock().sweeps.insert(record.id.clone(), record.clone());
        Ok(())
    }

    fn delete_sweep(&self, id: &str) -> Result<(), StoreError> {
        let mut t = self.lock();
        t.sweeps.remove(id);
        t.plans.remove(id);
        t.stats.remove(id);
        t.results.retain(|(s, _), _| s != id);
        t.leases.retain(|(s, _), _| s != id);
        t.timings.retain(|(s, _), _| s != id);
        t.failures.retain(|(s, _), _| s != id);
        t.replication.retain(|(s, _), _| s != id);
        t.origins.retain(|(s, _), _| s != id);
        Ok(())
    }

    fn next_seq(&self) -> Result<u64, StoreError> {
        let mut t = self.lock();
        let seq = t.seq;
        t.seq += 1;
        Ok(seq)
    }

    fn load_all(&self) -> Result<Vec<StoredSweep>, StoreError> {
        let t = self.lock();
        let mut out = Vec::new();
        for (id, record) in &t.sweeps {
            let plan = t
                .plans
                .get(id)
                .ok_or_else(|| StoreError::Corrupt(format!("sweep `{id}` has no plan")))?
                .clone();
            let results = of_sweep(&t.results, id);
            if let Some(i) = results.keys().find(|&&i| i as usize >= plan.len()) {
                return Err(StoreError::Corrupt(format!(
                    "result for shard {i} beyond the plan of `{id}`"
                )));
            }
            out.push(StoredSweep {
                record: record.clone(),
                plan,
                results,
                leases: of_sweep(&t.leases, id),
                stats: t.stats.get(id).cloned().unwrap_or_default(),
                timings: of_sweep(&t.timings, id),
                failures: of_sweep(&t.failures, id),
                replication: of_sweep(&t.replication, id),
                origins: of_sweep(&t.origins, id),
                snapshot: None,
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
        let mut t = self.lock();
        let key = (id.to_string(), index);
        if t.results.contains_key(&key) {
            return Ok(false);
        }
        t.results.insert(key.clone(), result.to_vec());
        if let Some(timing) = timing {
            t.timings.insert(key, timing.clone());
        }
        Ok(true)
    }

    fn put_lease(
        &self,
        id: &str,
        index: u32,
        lease: Option<&LeaseRecord>,
    ) -> Result<(), StoreError> {
        put_or_clear(&mut self.lock().leases, (id.to_string(), index), lease);
        Ok(())
    }

    fn put_failure(
        &self,
        id: &str,
        index: u32,
        failure: Option<&FailureRecord>,
    ) -> Result<(), StoreError> {
        put_or_clear(&mut self.lock().failures, (id.to_string(), index), failure);
        Ok(())
    }

    fn put_stats(&self, id: &str, stats: &SweepStats) -> Result<(), StoreError> {
        self.lock().stats.insert(id.to_string(), stats.clone());
        Ok(())
    }

    fn put_replication(
        &self,
        id: &str,
        index: u32,
        record: Option<&ReplicationRecord>,
    ) -> Result<(), StoreError> {
        put_or_clear(
            &mut self.lock().replication,
            (id.to_string(), index),
            record,
        );
        Ok(())
    }

    fn put_origin(&self, id: &str, index: u32, worker: &str) -> Result<(), StoreError> {
        self.lock()
            .origins
            .insert((id.to_string(), index), worker.to_string());
        Ok(())
    }

    fn replace_result(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        worker: &str,
    ) -> Result<(), StoreError> {
        let mut t = self.lock();
        let key = (id.to_string(), index);
        t.results.insert(key.clone(), result.to_vec());
        t.timings.remove(&key);
        t.origins.insert(key, worker.to_string());
        Ok(())
    }

    fn results_of(&self, id: &str) -> Result<BTreeMap<u32, Vec<u8>>, StoreError> {
        Ok(of_sweep(&self.lock().results, id))
    }

    fn put_quarantine(&self, record: &QuarantineRecord) -> Result<(), StoreError> {
        self.lock()
            .quarantine
            .insert(record.worker.clone(), record.clone());
        Ok(())
    }

    fn load_quarantine(&self) -> Result<Vec<QuarantineRecord>, StoreError> {
        Ok(self.lock().quarantine.values().cloned().collect())
    }

    fn flush(&self) -> Result<(), StoreError> {
        Ok(())
    }

    fn put_trust(&self, key: &str, record: &super::TrustRecord) -> Result<(), StoreError> {
        self.lock().trust.insert(key.to_string(), record.clone());
        Ok(())
    }

    fn load_trust(&self) -> Result<BTreeMap<String, super::TrustRecord>, StoreError> {
        Ok(self.lock().trust.clone())
    }

    fn put_credential(&self, record: &super::CredentialRecord) -> Result<(), StoreError> {
        self.lock()
            .credentials
            .insert(record.name.clone(), record.clone());
        Ok(())
    }

    fn load_credentials(&self) -> Result<Vec<super::CredentialRecord>, StoreError> {
        Ok(self.lock().credentials.values().cloned().collect())
    }

    fn size_on_disk(&self) -> u64 {
        0
    }

    fn lease_key(&self) -> [u8; 32] {
        self.lease_key
    }

    fn signing_key(&self) -> [u8; 32] {
        self.signing_key
    }

    fn append_audit(&self, entry: &AuditRecord) -> Result<(), StoreError> {
        self.audit
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(entry.clone());
        Ok(())
    }

    fn audit_tail(&self, n: usize) -> Result<Vec<AuditRecord>, StoreError> {
        let log = self.audit.lock().unwrap_or_else(|e| e.into_inner());
        Ok(log[log.len().saturating_sub(n)..].to_vec())
    }

    fn journal(&self) -> Result<Option<journal::Read>, StoreError> {
        // Nothing outlives the process, so nothing can vanish across a restart.
        Ok(None)
    }

    fn append_journal(&self, _records: &[journal::Record]) -> Result<(), StoreError> {
        Ok(())
    }

    fn rewrite_journal(&self, _records: &[journal::Record]) -> Result<(), StoreError> {
        Ok(())
    }

    fn remove_result(&self, id: &str, index: u32) -> Result<(), StoreError> {
        let mut t = self.lock();
        let key = (id.to_string(), index);
        t.results.remove(&key);
        t.timings.remove(&key);
        t.origins.remove(&key);
        Ok(())
    }

    fn scan(&self, _purge: bool) -> Result<Vec<Damage>, StoreError> {
        Ok(Vec::new())
    }
}
