//! Attribution flushed with the result (the Slurm issue, item 5): whatever a
//! crash keeps of a submit, a stored result has the identity that computed
//! it, so `provenance.json` never counts it as `(unrecorded)`.
//!
//! The crash is modelled at every write boundary of a run of submits on the
//! sled store: after the k-th store write everything written so far is
//! flushed (the worst case: sled's own periodic flush, or another
//! submit's group commit, lands right there) and every later call fails,
//! as if the process died. The store, opened again, must hold an origin
//! for every result.

use super::*;
use crate::store::snapshot::Snapshot;
use crate::store::{
    journal, AuditRecord, CredentialRecord, Damage, FailureRecord, LeaseRecord, QuarantineRecord,
    ReplicationRecord, ShardTiming, StoreError, StoredSweep, SweepRecord, SweepStats, TrustRecord,
};
use gamesweep::sweep::ShardSpec;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};

/// A store that dies at its k-th write: it flushes what it has, then
/// refuses every call (reads included: the process is gone).
struct DiesAtWrite {
    inner: Arc<SledStore>,
    /// Writes left before it dies (negative: not armed).
    left: AtomicI64,
}

fn dead() -> StoreError {
    StoreError::Corrupt("the process died (test)".into())
}

impl DiesAtWrite {
    fn alive(&self) -> Result<(), StoreError> {
        if self.left.load(Ordering::SeqCst) == 0 {
            Err(dead())
        } else {
            Ok(())
        }
    }

    /// One write through `f`, unless this is where the process dies.
    fn write<T>(&self, f: impl FnOnce() -> Result<T, StoreError>) -> Result<T, StoreError> {
        self.alive()?;
        let r = f();
        if self.left.fetch_sub(1, Ordering::SeqCst) == 1 {
            // Died right after this write: what sled had is flushed.
            let _ = self.inner.flush();
        }
        r
    }
}

impl Store for DiesAtWrite {
    fn create_sweep(&self, r: &SweepRecord, plan: &[ShardSpec]) -> Result<(), StoreError> {
        self.write(|| self.inner.create_sweep(r, plan))
    }
    fn update_sweep(&self, r: &SweepRecord) -> Result<(), StoreError> {
        self.write(|| self.inner.update_sweep(r))
    }
    fn delete_sweep(&self, id: &str) -> Result<(), StoreError> {
        self.write(|| self.inner.delete_sweep(id))
    }
    fn next_seq(&self) -> Result<u64, StoreError> {
        self.write(|| self.inner.next_seq())
    }
    fn load_all(&self) -> Result<Vec<StoredSweep>, StoreError> {
        self.alive()?;
        self.inner.load_all()
    }
    fn load_for_start(&self) -> Result<Vec<StoredSweep>, StoreError> {
        self.alive()?;
        self.inner.load_for_start()
    }
    fn put_snapshot(&self, id: &str, c: &Snapshot) -> Result<bool, StoreError> {
        self.write(|| self.inner.put_snapshot(id, c))
    }
    fn put_result(
        &self,
        id: &str,
        i: u32,
        r: &[u8],
        t: Option<&ShardTiming>,
    ) -> Result<bool, StoreError> {
        self.write(|| self.inner.put_result(id, i, r, t))
    }
    fn put_result_from(
        &self,
        id: &str,
        i: u32,
        r: &[u8],
        t: Option<&ShardTiming>,
        origin: &str,
    ) -> Result<bool, StoreError> {
        self.write(|| self.inner.put_result_from(id, i, r, t, origin))
    }
    fn put_lease(&self, id: &str, i: u32, l: Option<&LeaseRecord>) -> Result<(), StoreError> {
        self.write(|| self.inner.put_lease(id, i, l))
    }
    fn put_failure(&self, id: &str, i: u32, f: Option<&FailureRecord>) -> Result<(), StoreError> {
        self.write(|| self.inner.put_failure(id, i, f))
    }
    fn put_stats(&self, id: &str, s: &SweepStats) -> Result<(), StoreError> {
        self.write(|| self.inner.put_stats(id, s))
    }
    fn put_replication(
        &self,
        id: &str,
        i: u32,
        r: Option<&ReplicationRecord>,
    ) -> Result<(), StoreError> {
        self.write(|| self.inner.put_replication(id, i, r))
    }
    fn put_origin(&self, id: &str, i: u32, w: &str) -> Result<(), StoreError> {
        self.write(|| self.inner.put_origin(id, i, w))
    }
    fn replace_result(&self, id: &str, i: u32, r: &[u8], w: &str) -> Result<(), StoreError> {
        self.write(|| self.inner.replace_result(id, i, r, w))
    }
    fn results_of(&self, id: &str) -> Result<BTreeMap<u32, Vec<u8>>, StoreError> {
        self.alive()?;
        self.inner.results_of(id)
    }
    fn put_quarantine(&self, r: &QuarantineRecord) -> Result<(), StoreError> {
        self.write(|| self.inner.put_quarantine(r))
    }
    fn load_quarantine(&self) -> Result<Vec<QuarantineRecord>, StoreError> {
        self.alive()?;
        self.inner.load_quarantine()
    }
    fn flush(&self) -> Result<(), StoreError> {
        self.alive()?;
        self.inner.flush()
    }
    fn size_on_disk(&self) -> u64 {
        self.inner.size_on_disk()
    }
    fn lease_key(&self) -> [u8; 32] {
        self.inner.lease_key()
    }
    fn signing_key(&self) -> [u8; 32] {
        self.inner.signing_key()
    }
    fn append_audit(&self, e: &AuditRecord) -> Result<(), StoreError> {
        self.write(|| self.inner.append_audit(e))
    }
    fn audit_tail(&self, n: usize) -> Result<Vec<AuditRecord>, StoreError> {
        self.inner.audit_tail(n)
    }
    fn put_trust(&self, k: &str, r: &TrustRecord) -> Result<(), StoreError> {
        self.write(|| self.inner.put_trust(k, r))
    }
    fn load_trust(&self) -> Result<BTreeMap<String, TrustRecord>, StoreError> {
        self.alive()?;
        self.inner.load_trust()
    }
    fn put_credential(&self, r: &CredentialRecord) -> Result<(), StoreError> {
        self.write(|| self.inner.put_credential(r))
    }
    fn load_credentials(&self) -> Result<Vec<CredentialRecord>, StoreError> {
        self.alive()?;
        self.inner.load_credentials()
    }
    fn journal(&self) -> Result<Option<journal::Read>, StoreError> {
        self.alive()?;
        self.inner.journal()
    }
    fn append_journal(&self, r: &[journal::Record]) -> Result<(), StoreError> {
        self.write(|| self.inner.append_journal(r))
    }
    fn rewrite_journal(&self, r: &[journal::Record]) -> Result<(), StoreError> {
        self.write(|| self.inner.rewrite_journal(r))
    }
    fn remove_result(&self, id: &str, i: u32) -> Result<(), StoreError> {
        self.write(|| self.inner.remove_result(id, i))
    }
    fn scan(&self, purge: bool) -> Result<Vec<Damage>, StoreError> {
        self.alive()?;
        self.inner.scan(purge)
    }
}

/// Submits of uvg n ≤ 6 in 8 shards by worker `w`, the process dying at its
/// `k`-th store write after the launch: how many results the reopened
/// store holds, and whether every one has its origin.
fn die_at(k: i64) -> (usize, bool) {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Arc::new(DiesAtWrite {
            inner: Arc::new(SledStore::open_when_free(dir.path())),
            left: AtomicI64::new(-1),
        });
        let c = Core::open_with_clock(
            store.clone(),
            Duration::from_secs(30),
            Arc::new(ManualClock::new()),
        )
        .unwrap();
        c.launch(&uvg(6, "s", 8)).unwrap();
        c.flush().unwrap();
        store.left.store(k, Ordering::SeqCst);
        // Until the process dies (or the sweep is done).
        'run: for _ in 0..8 {
            let Ok(got) = c.lease("w", &V(), 2) else {
                break;
            };
            if got.leases.is_empty() {
                break;
            }
            for g in &got.leases {
                if c.submit(submission("w", g, run(g))).is_err() || c.flush().is_err() {
                    break 'run;
                }
            }
        }
    }
    let store = SledStore::open_when_free(dir.path());
    let results = store.results_of("s").unwrap();
    let origins = store.origins_of("s").unwrap();
    let all = results
        .keys()
        .all(|i| origins.get(i).is_some_and(|w| w == "w"));
    (results.len(), all)
}

#[test]
fn a_result_is_never_stored_without_the_identity_that_computed_it() {
    let mut kept = std::collections::BTreeSet::new();
    for k in 1..=60 {
        let (results, attributed) = die_at(k);
        assert!(
            attributed,
            "died at write {k}: {results} results stored, some without an origin"
        );
        kept.insert(results);
    }
    // The deaths fell before, between and after the results.
    assert!(kept.contains(&0) && kept.len() > 3, "{kept:?}");
}
