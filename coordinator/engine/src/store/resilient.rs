//! [`ResilientStore`]: a [`Store`] that lives through failing writes (a
//! full disk, I/O errors) and resumes writing without a restart.
//!
//! sled keeps returning its first I/O error until the database is opened
//! again, so one full disk would otherwise stop every later write until the
//! coordinator restarts. This wrapper keeps, in memory, every write made
//! since the last flush that succeeded (the *redo log*, one entry per key:
//! the latest write of a lease, a counter, a result...). When a write or a
//! flush fails with a store error, an *episode* starts:
//!
//! - it is logged once at error level (and its end once at info level);
//!   [`Store::writes_failing`] says why (status, the dashboard and gRPC
//!   health read it);
//! - every flush fails ([`StoreError::WritesFailing`]), so no submit is
//!   acknowledged; a new result ([`Store::put_result`]) is refused before
//!   the core changes anything, and the worker sends it again later;
//! - the other writes (leases, counters, failure and verification records)
//!   go to the redo log only, so the core's own state and the store's never
//!   disagree: what the core did is in the log, and the log is written;
//! - a background thread closes the database (every tree and handle),
//!   opens the same directory again, writes the redo log into it and
//!   flushes, retrying with exponential backoff (at most [`Backoff::max`]
//!   apart) for as long as the episode lasts. The first attempt that
//!   flushes ends the episode.
//!
//! Nothing acknowledged is lost: an acknowledgement follows a flush that
//! succeeded, and a redo-log entry is dropped only once a flush of the
//! database it was written to has succeeded after it was written. Writing
//! an entry twice is harmless (results are compare-and-swap on an empty
//! slot, everything else is the latest value of its key).
//!
//! The writes that flush on their own (creating, updating and deleting a
//! sweep, quarantine, the audit log, sequence numbers) fail at once during
//! an episode: their callers change nothing in memory unless they succeed.

use super::{
    AuditRecord, FailureRecord, LeaseRecord, QuarantineRecord, ReplicationRecord, ShardTiming,
    Store, StoreError, StoredSweep, SweepRecord, SweepStats,
};
use gamesweep::sweep::ShardSpec;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, Weak};
use std::time::{Duration, Instant};
use tracing::{debug, error, info};

/// Opens (and reopens) the wrapped store.
type Opener = dyn Fn() -> Result<Arc<dyn Store>, StoreError> + Send + Sync;

/// How long the background reopen waits before each attempt of an episode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// Before the first attempt.
    pub first: Duration,
    /// The longest wait (the wait doubles after each failed attempt).
    pub max: Duration,
}

impl Default for Backoff {
    /// 200 ms, doubling up to 10 s: a reopen reads the whole database, so
    /// a long episode (a disk that stays full) costs one read per 10 s.
    fn default() -> Self {
        Backoff {
            first: Duration::from_millis(200),
            max: Duration::from_secs(10),
        }
    }
}

/// A [`Store`] that reopens the store it wraps when writes fail (see the
/// module docs).
pub struct ResilientStore {
    /// Everything, shared with the reopening thread (which holds it weakly).
    shared: Arc<Shared>,
}

/// The state of a [`ResilientStore`].
struct Shared {
    /// Opens the wrapped store again.
    open: Box<Opener>,
    /// The wrapped store; `None` while it is being reopened. Every use holds
    /// the read guard for the whole call, so that when the reopen takes the
    /// write guard no handle of the old database is left anywhere (sled
    /// keeps its file locked while one is).
    handle: RwLock<Option<Arc<dyn Store>>>,
    /// The redo log and the episode, if one is under way. Lock order: `log`
    /// before `handle`.
    log: Mutex<Redo>,
    /// The wrapped store's lease-token key (the same after a reopen).
    lease_key: [u8; 32],
    /// The export signing key (kept like the lease key).
    signing_key: [u8; 32],
    /// Waits between reopen attempts.
    backoff: Backoff,
    /// The wrapped store's size at the last look (shown while it is closed).
    size: AtomicU64,
}

/// Writes not yet known to be on disk, and the episode under way.
#[derive(Default)]
struct Redo {
    /// The latest write of each key, with its sequence number.
    entries: HashMap<Key, (u64, Write)>,
    /// The last sequence number given out.
    seq: u64,
    /// Writes are failing: since when and why.
    failing: Option<Episode>,
}

/// An episode of failing writes.
struct Episode {
    /// What the store said, one line.
    reason: String,
    /// When the first write failed.
    since: Instant,
}

/// What a write sets: one slot of the store.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    /// A sweep whose creation failed (removed again when replayed).
    Sweep(String),
    /// A shard's result (with its timing and, when replaced, its origin).
    Result(String, u32),
    /// A shard's lease.
    Lease(String, u32),
    /// A shard's failure record.
    Failure(String, u32),
    /// A sweep's counters.
    Stats(String),
    /// A shard's verification record.
    Replication(String, u32),
    /// The worker a shard's result came from.
    Origin(String, u32),
}

impl Key {
    /// The sweep the slot belongs to.
    fn sweep(&self) -> &str {
        match self {
            Key::Sweep(id) | Key::Stats(id) => id,
            Key::Result(id, _)
            | Key::Lease(id, _)
            | Key::Failure(id, _)
            | Key::Replication(id, _)
            | Key::Origin(id, _) => id,
        }
    }
}

/// One write of the redo log, as the [`Store`] call that makes it.
#[derive(Clone, Debug)]
pub(crate) enum Write {
    /// Delete a sweep whose creation failed half-way (it may have reached
    /// the disk in part).
    Forget {
        /// The sweep.
        id: String,
    },
    /// [`Store::put_result`].
    Result {
        /// The sweep.
        id: String,
        /// The shard.
        index: u32,
        /// The encoded result.
        bytes: Vec<u8>,
        /// Its timing.
        timing: Option<ShardTiming>,
    },
    /// [`Store::replace_result`].
    Replace {
        /// The sweep.
        id: String,
        /// The shard.
        index: u32,
        /// The encoded result.
        bytes: Vec<u8>,
        /// The worker it came from.
        worker: String,
    },
    /// [`Store::put_lease`].
    Lease {
        /// The sweep.
        id: String,
        /// The shard.
        index: u32,
        /// The lease, or none.
        lease: Option<LeaseRecord>,
    },
    /// [`Store::put_failure`].
    Failure {
        /// The sweep.
        id: String,
        /// The shard.
        index: u32,
        /// The record, or none.
        failure: Option<FailureRecord>,
    },
    /// [`Store::put_stats`].
    Stats {
        /// The sweep.
        id: String,
        /// Its counters.
        stats: SweepStats,
    },
    /// [`Store::put_replication`].
    Replication {
        /// The sweep.
        id: String,
        /// The shard.
        index: u32,
        /// The record, or none.
        record: Option<ReplicationRecord>,
    },
    /// [`Store::put_origin`].
    Origin {
        /// The sweep.
        id: String,
        /// The shard.
        index: u32,
        /// The worker.
        worker: String,
    },
}

impl Write {
    /// The slot this write sets (a later write of the same slot supersedes it).
    fn key(&self) -> Key {
        match self {
            Write::Forget { id } => Key::Sweep(id.clone()),
            Write::Result { id, index, .. } | Write::Replace { id, index, .. } => {
                Key::Result(id.clone(), *index)
            }
            Write::Lease { id, index, .. } => Key::Lease(id.clone(), *index),
            Write::Failure { id, index, .. } => Key::Failure(id.clone(), *index),
            Write::Stats { id, .. } => Key::Stats(id.clone()),
            Write::Replication { id, index, .. } => Key::Replication(id.clone(), *index),
            Write::Origin { id, index, .. } => Key::Origin(id.clone(), *index),
        }
    }

    /// Make this write on `s` (again: every write may be made twice).
    fn apply(&self, s: &dyn Store) -> Result<(), StoreError> {
        match self {
            Write::Forget { id } => s.delete_sweep(id),
            Write::Result {
                id,
                index,
                bytes,
                timing,
            } => s.put_result(id, *index, bytes, timing.as_ref()).map(drop),
            Write::Replace {
                id,
                index,
                bytes,
                worker,
            } => s.replace_result(id, *index, bytes, worker),
            Write::Lease { id, index, lease } => s.put_lease(id, *index, lease.as_ref()),
            Write::Failure { id, index, failure } => s.put_failure(id, *index, failure.as_ref()),
            Write::Stats { id, stats } => s.put_stats(id, stats),
            Write::Replication { id, index, record } => {
                s.put_replication(id, *index, record.as_ref())
            }
            Write::Origin { id, index, worker } => s.put_origin(id, *index, worker),
        }
    }
}

impl Redo {
    /// Log `w` (superseding the earlier write of its slot).
    fn push(&mut self, w: Write) {
        self.seq += 1;
        self.entries.insert(w.key(), (self.seq, w));
    }

    /// The writes numbered above `after`, in the order they were made.
    fn after(&self, after: u64) -> Vec<Write> {
        let mut v: Vec<&(u64, Write)> = self.entries.values().filter(|e| e.0 > after).collect();
        v.sort_by_key(|e| e.0);
        v.into_iter().map(|e| e.1.clone()).collect()
    }

    /// Forget the writes numbered `upto` or below: a flush covered them.
    fn prune(&mut self, upto: u64) {
        self.entries.retain(|_, e| e.0 > upto);
    }

    /// The error of a write refused during the episode.
    fn refusal(&self) -> Option<StoreError> {
        self.failing
            .as_ref()
            .map(|ep| StoreError::WritesFailing(ep.reason.clone()))
    }
}

/// Whether `e` is the store failing to write (and worth a reopen), rather
/// than a refusal (an existing sweep) or a value that does not decode.
fn is_write_failure(e: &StoreError) -> bool {
    matches!(e, StoreError::Db(_) | StoreError::WritesFailing(_))
}

/// `e` as the one-line reason status shows.
fn reason_of(e: &StoreError) -> String {
    match e {
        StoreError::Db(e) => super::sled_message(e),
        StoreError::WritesFailing(r) => r.clone(),
        e => e.to_string(),
    }
}

/// The error of a use of the store while it is being reopened.
fn closed() -> StoreError {
    StoreError::WritesFailing("the store is being reopened".into())
}

impl ResilientStore {
    /// Shard `index`'s result (with its timing, and its origin if given)
    /// through the inner store, kept in the redo log once written.
    fn result_write(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        timing: Option<&ShardTiming>,
        origin: Option<&str>,
    ) -> Result<bool, StoreError> {
        let sh = &self.shared;
        let mut log = sh.log();
        // Refused during an episode, before the core changes anything: the
        // worker sends it again.
        if let Some(e) = log.refusal() {
            return Err(e);
        }
        let written = sh.with(|s| match origin {
            Some(w) => s.put_result_from(id, index, result, timing, w),
            None => s.put_result(id, index, result, timing),
        });
        match written {
            Ok(true) => {
                log.push(Write::Result {
                    id: id.into(),
                    index,
                    bytes: result.to_vec(),
                    timing: timing.cloned(),
                });
                if let Some(w) = origin {
                    log.push(Write::Origin {
                        id: id.into(),
                        index,
                        worker: w.into(),
                    });
                }
                Ok(true)
            }
            Ok(false) => Ok(false),
            Err(e) if is_write_failure(&e) => {
                sh.start_episode(&mut log, &e);
                Err(log.refusal().unwrap_or(e))
            }
            Err(e) => Err(e),
        }
    }

    /// The sled store in `dir` (see [`super::SledStore::open`]), reopened
    /// in the same directory when writes fail.
    pub fn open_sled(dir: &Path) -> Result<Self, StoreError> {
        let first = Arc::new(super::SledStore::open(dir)?);
        let dir: PathBuf = dir.to_path_buf();
        // Reopened in this process: its journal is not replayed again.
        Ok(Self::around(
            first,
            move || Ok(Arc::new(super::SledStore::reopen(&dir)?) as Arc<dyn Store>),
            Backoff::default(),
        ))
    }

    /// [`ResilientStore::open_sled`] for a coordinator's start: the store
    /// checked first, refused if damaged unless `accept_loss` (then
    /// salvaged: [`super::open_for_start`]).
    pub fn open_sled_for_start(
        dir: &Path,
        accept_loss: bool,
    ) -> Result<(Self, Option<super::Salvaged>), StoreError> {
        let (first, salvaged) = super::open_for_start(dir, accept_loss)?;
        let dir: PathBuf = dir.to_path_buf();
        Ok((
            Self::around(
                Arc::new(first),
                move || Ok(Arc::new(super::SledStore::reopen(&dir)?) as Arc<dyn Store>),
                Backoff::default(),
            ),
            salvaged,
        ))
    }

    /// The store `open` opens, reopened by `open` when writes fail, with
    /// `backoff` between attempts. Fails if the first open does.
    pub fn new(
        open: impl Fn() -> Result<Arc<dyn Store>, StoreError> + Send + Sync + 'static,
        backoff: Backoff,
    ) -> Result<Self, StoreError> {
        Ok(Self::around(open()?, open, backoff))
    }

    /// `store`, reopened by `open` when writes fail (and by
    /// [`Store::refresh`]), with `backoff` between attempts.
    pub fn around(
        store: Arc<dyn Store>,
        open: impl Fn() -> Result<Arc<dyn Store>, StoreError> + Send + Sync + 'static,
        backoff: Backoff,
    ) -> Self {
        ResilientStore {
            shared: Arc::new(Shared {
                lease_key: store.lease_key(),
                signing_key: store.signing_key(),
                size: AtomicU64::new(store.size_on_disk()),
                handle: RwLock::new(Some(store)),
                open: Box::new(open),
                log: Mutex::default(),
                backoff,
            }),
        }
    }
}

impl Shared {
    fn log(&self) -> MutexGuard<'_, Redo> {
        // Every critical section leaves the log consistent: keep going
        // after a panic elsewhere rather than refusing every write.
        self.log.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn handle(&self) -> RwLockReadGuard<'_, Option<Arc<dyn Store>>> {
        self.handle.read().unwrap_or_else(|e| e.into_inner())
    }

    /// `f` on the wrapped store (an error while it is being reopened).
    fn with<T>(
        &self,
        f: impl FnOnce(&dyn Store) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        match self.handle().as_deref() {
            Some(s) => f(s),
            None => Err(closed()),
        }
    }

    /// Start an episode (unless one is under way) because of `e`: log it
    /// once and start reopening in the background.
    fn start_episode(self: &Arc<Self>, log: &mut Redo, e: &StoreError) {
        if log.failing.is_some() {
            return;
        }
        let reason = reason_of(e);
        error!(
            reason = %reason,
            "store writes failing: {reason}; no result is acknowledged until the store can be written again (reopening it in the background)"
        );
        log.failing = Some(Episode {
            reason,
            since: Instant::now(),
        });
        let weak = Arc::downgrade(self);
        let backoff = self.backoff;
        let spawned = std::thread::Builder::new()
            .name("store-reopen".into())
            .spawn(move || reopen_until_written(weak, backoff));
        if let Err(e) = spawned {
            // Without the thread writes stay refused (nothing is lost or
            // acknowledged); a restart reopens the store.
            error!(error = %e, "cannot start the thread that reopens the store; restart the coordinator once the disk has room");
        }
    }

    /// A write that is not flushed by itself: made on the store unless an
    /// episode is under way, and logged. It fails only for a reason other
    /// than the store's writes failing (which starts an episode instead).
    fn write(self: &Arc<Self>, w: Write) -> Result<(), StoreError> {
        let mut log = self.log();
        if log.failing.is_none() {
            match self.with(|s| w.apply(s)) {
                Ok(()) => {}
                Err(e) if is_write_failure(&e) => self.start_episode(&mut log, &e),
                Err(e) => return Err(e),
            }
        }
        log.push(w);
        Ok(())
    }

    /// A call that flushes by itself (`f`): refused during an episode; on
    /// success it covered every write logged before it. `on_failure` is
    /// logged if it fails for want of writes (to undo what may have reached
    /// the disk).
    fn durable<T>(
        self: &Arc<Self>,
        f: impl FnOnce(&dyn Store) -> Result<T, StoreError>,
        on_failure: Option<Write>,
    ) -> Result<T, StoreError> {
        let upto = {
            let log = self.log();
            if let Some(e) = log.refusal() {
                return Err(e);
            }
            log.seq
        };
        let res = self.with(f);
        let mut log = self.log();
        match res {
            Ok(v) => {
                if log.failing.is_none() {
                    log.prune(upto);
                }
                Ok(v)
            }
            Err(e) if is_write_failure(&e) => {
                self.start_episode(&mut log, &e);
                if let Some(w) = on_failure {
                    log.push(w);
                }
                Err(log.refusal().unwrap_or(e))
            }
            Err(e) => Err(e),
        }
    }

    /// Close the store, open it again, write the redo log into it and flush:
    /// the end of the episode, or the error that keeps it going.
    fn reopen(&self) -> Result<(), StoreError> {
        // Every handle of the old database goes (its trees, its Db, so its
        // file lock), before the directory is opened again.
        drop(
            self.handle
                .write()
                .unwrap_or_else(|e| e.into_inner())
                .take(),
        );
        let store = (self.open)()?;
        let install = |store: Arc<dyn Store>| {
            self.size.store(store.size_on_disk(), Ordering::Relaxed);
            *self.handle.write().unwrap_or_else(|e| e.into_inner()) = Some(store);
        };
        // The log as it is now, written and flushed without holding it
        // (writes made meanwhile go to the log only: the episode goes on).
        let (upto, writes) = {
            let log = self.log();
            (log.seq, log.after(0))
        };
        let written = writes
            .iter()
            .try_for_each(|w| w.apply(store.as_ref()))
            .and_then(|()| store.flush());
        if let Err(e) = written {
            // Still failing: the store serves reads until the next attempt
            // (every write and flush is refused before it reaches it).
            install(store);
            return Err(e);
        }
        // The writes logged meanwhile, and back in service; they are
        // flushed by the next flush like any other write.
        let mut log = self.log();
        let late = log.after(upto);
        let written = late.iter().try_for_each(|w| w.apply(store.as_ref()));
        install(store);
        written?;
        log.prune(upto);
        if let Some(ep) = log.failing.take() {
            info!(
                failing_for_secs = ep.since.elapsed().as_secs_f64(),
                rewritten = writes.len(),
                "store writes resumed (after: {})",
                ep.reason
            );
        }
        Ok(())
    }
}

impl Shared {
    /// [`Store::refresh`]: flush, close and open again, holding the handle
    /// throughout so that calls wait rather than fail. A flush that fails
    /// or an open that fails starts an episode, as a failed write would.
    fn refresh(self: &Arc<Self>) -> Result<bool, StoreError> {
        let mut log = self.log();
        if log.failing.is_some() {
            return Ok(false);
        }
        let mut handle = self.handle.write().unwrap_or_else(|e| e.into_inner());
        let Some(old) = handle.take() else {
            return Ok(false);
        };
        if let Err(e) = old.flush() {
            *handle = Some(old);
            drop(handle);
            if is_write_failure(&e) {
                self.start_episode(&mut log, &e);
            }
            return Err(e);
        }
        // Everything logged is on disk now.
        let upto = log.seq;
        log.prune(upto);
        // Every handle of the old database goes before the directory is
        // opened again (sled keeps its file locked while one is).
        drop(old);
        match self.open_once_released() {
            Ok(store) => {
                self.size.store(store.size_on_disk(), Ordering::Relaxed);
                *handle = Some(store);
                Ok(true)
            }
            Err(e) => {
                // Closed, with nothing unflushed: reopened in the background.
                drop(handle);
                self.start_episode(&mut log, &e);
                Err(e)
            }
        }
    }
}

/// How long [`Shared::refresh`] waits for the lock of the handle it has
/// just dropped, in steps of [`RELEASE_STEP`]: sled releases its file lock
/// from a background thread shortly after the last handle goes (tens of
/// milliseconds; once, in the n = 12 campaign, long enough for the reopen
/// to find it still held).
const RELEASE_WAIT: Duration = Duration::from_secs(5);
const RELEASE_STEP: Duration = Duration::from_millis(20);

impl Shared {
    /// `open`, again while the store is still locked, for at most
    /// [`RELEASE_WAIT`]: the lock a refresh finds just after closing the
    /// store is its own closing handle's, not another process's. A lock
    /// held longer is someone else's, and the refresh fails with that.
    fn open_once_released(&self) -> Result<Arc<dyn Store>, StoreError> {
        let deadline = Instant::now() + RELEASE_WAIT;
        loop {
            match (self.open)() {
                Err(StoreError::InUse(dir)) if Instant::now() < deadline => {
                    debug!(store = %dir.display(), "reopen: the closed handle still holds the lock");
                    std::thread::sleep(RELEASE_STEP);
                }
                other => return other,
            }
        }
    }
}

/// The background side of an episode: reopen until the store can be
/// written (or the store is dropped), waiting longer after each failure.
fn reopen_until_written(shared: Weak<Shared>, backoff: Backoff) {
    let mut wait = backoff.first;
    for attempt in 1u64.. {
        std::thread::sleep(wait);
        let Some(s) = shared.upgrade() else { return };
        match s.reopen() {
            Ok(()) => return,
            Err(e) => debug!(attempt, error = %e, "store still cannot be written"),
        }
        wait = (wait * 2).min(backoff.max);
    }
}

impl Store for ResilientStore {
    fn create_sweep(&self, record: &SweepRecord, plan: &[ShardSpec]) -> Result<(), StoreError> {
        let forget = Write::Forget {
            id: record.id.clone(),
        };
        self.shared
            .durable(|s| s.create_sweep(record, plan), Some(forget))
    }

    fn update_sweep(&self, record: &SweepRecord) -> Result<(), StoreError> {
        self.shared.durable(|s| s.update_sweep(record), None)
    }

    fn delete_sweep(&self, id: &str) -> Result<(), StoreError> {
        self.shared.durable(|s| s.delete_sweep(id), None)?;
        // Nothing of the sweep is written again by a later reopen.
        self.shared.log().entries.retain(|k, _| k.sweep() != id);
        Ok(())
    }

    fn next_seq(&self) -> Result<u64, StoreError> {
        self.shared.durable(|s| s.next_seq(), None)
    }

    fn load_all(&self) -> Result<Vec<StoredSweep>, StoreError> {
        // Everything written is flushed first, so the store holds it all.
        self.flush()?;
        self.shared.with(|s| s.load_all())
    }

    fn load_for_start(&self) -> Result<Vec<StoredSweep>, StoreError> {
        self.flush()?;
        self.shared.with(|s| s.load_for_start())
    }

    fn put_snapshot(
        &self,
        id: &str,
        snapshot: &super::snapshot::Snapshot,
    ) -> Result<bool, StoreError> {
        // Not kept in the redo log: a snapshot is an optimisation, and
        // while writes fail there is none to write (the next one covers more).
        if self.writes_failing().is_some() {
            return Ok(false);
        }
        self.shared.with(|s| s.put_snapshot(id, snapshot))
    }

    fn put_result(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        timing: Option<&ShardTiming>,
    ) -> Result<bool, StoreError> {
        self.result_write(id, index, result, timing, None)
    }

    fn put_lease(
        &self,
        id: &str,
        index: u32,
        lease: Option<&LeaseRecord>,
    ) -> Result<(), StoreError> {
        self.shared.write(Write::Lease {
            id: id.into(),
            index,
            lease: lease.cloned(),
        })
    }

    fn put_failure(
        &self,
        id: &str,
        index: u32,
        failure: Option<&FailureRecord>,
    ) -> Result<(), StoreError> {
        self.shared.write(Write::Failure {
            id: id.into(),
            index,
            failure: failure.cloned(),
        })
    }

    fn put_stats(&self, id: &str, stats: &SweepStats) -> Result<(), StoreError> {
        self.shared.write(Write::Stats {
            id: id.into(),
            stats: stats.clone(),
        })
    }

    fn put_replication(
        &self,
        id: &str,
        index: u32,
        record: Option<&ReplicationRecord>,
    ) -> Result<(), StoreError> {
        self.shared.write(Write::Replication {
            id: id.into(),
            index,
            record: record.cloned(),
        })
    }

    fn put_result_from(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        timing: Option<&ShardTiming>,
        origin: &str,
    ) -> Result<bool, StoreError> {
        self.result_write(id, index, result, timing, Some(origin))
    }

    fn put_origin(&self, id: &str, index: u32, worker: &str) -> Result<(), StoreError> {
        self.shared.write(Write::Origin {
            id: id.into(),
            index,
            worker: worker.into(),
        })
    }

    fn replace_result(
        &self,
        id: &str,
        index: u32,
        result: &[u8],
        worker: &str,
    ) -> Result<(), StoreError> {
        self.shared.write(Write::Replace {
            id: id.into(),
            index,
            bytes: result.to_vec(),
            worker: worker.into(),
        })
    }

    fn timings_of(&self, id: &str) -> Result<BTreeMap<u32, ShardTiming>, StoreError> {
        // Called for what was stored before the start (flushed then).
        self.shared.with(|s| s.timings_of(id))
    }

    fn origins_of(&self, id: &str) -> Result<BTreeMap<u32, String>, StoreError> {
        self.shared.with(|s| s.origins_of(id))
    }

    fn results_of(&self, id: &str) -> Result<BTreeMap<u32, Vec<u8>>, StoreError> {
        let mut out = self.shared.with(|s| s.results_of(id))?;
        // With the results not yet flushed (the only copy during an episode).
        for (_, w) in self.shared.log().entries.values() {
            match w {
                Write::Result {
                    id: i,
                    index,
                    bytes,
                    ..
                } if i == id => {
                    out.entry(*index).or_insert_with(|| bytes.clone());
                }
                Write::Replace {
                    id: i,
                    index,
                    bytes,
                    ..
                } if i == id => {
                    out.insert(*index, bytes.clone());
                }
                _ => {}
            }
        }
        Ok(out)
    }

    fn put_quarantine(&self, record: &QuarantineRecord) -> Result<(), StoreError> {
        self.shared.durable(|s| s.put_quarantine(record), None)
    }

    fn load_quarantine(&self) -> Result<Vec<QuarantineRecord>, StoreError> {
        self.shared.with(|s| s.load_quarantine())
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.shared.durable(|s| s.flush(), None)
    }

    fn refresh(&self) -> Result<bool, StoreError> {
        self.shared.refresh()
    }

    fn size_on_disk(&self) -> u64 {
        match self.shared.handle().as_deref() {
            Some(s) => {
                let size = s.size_on_disk();
                self.shared.size.store(size, Ordering::Relaxed);
                size
            }
            None => self.shared.size.load(Ordering::Relaxed),
        }
    }

    fn lease_key(&self) -> [u8; 32] {
        self.shared.lease_key
    }

    fn signing_key(&self) -> [u8; 32] {
        self.shared.signing_key
    }

    // The journal and the damage scan run at start-up and in `--accept-loss`
    // recovery, before any episode: written through at once.
    fn journal(&self) -> Result<Option<super::journal::Read>, StoreError> {
        self.shared.with(|s| s.journal())
    }

    fn append_journal(&self, records: &[super::journal::Record]) -> Result<(), StoreError> {
        self.shared.durable(|s| s.append_journal(records), None)
    }

    fn rewrite_journal(&self, records: &[super::journal::Record]) -> Result<(), StoreError> {
        self.shared.durable(|s| s.rewrite_journal(records), None)
    }

    fn remove_result(&self, id: &str, index: u32) -> Result<(), StoreError> {
        self.shared.durable(|s| s.remove_result(id, index), None)
    }

    fn scan_start(&self) -> Result<Vec<super::Damage>, StoreError> {
        self.shared.with(|s| s.scan_start())
    }

    fn scan(&self, purge: bool) -> Result<Vec<super::Damage>, StoreError> {
        if purge {
            self.shared.durable(|s| s.scan(true), None)
        } else {
            self.shared.with(|s| s.scan(false))
        }
    }

    // Trust records and credentials are written through at once (refused
    // during an episode): they are rare, and a credential must be durable
    // before its secret is shown.
    fn put_trust(&self, key: &str, record: &super::TrustRecord) -> Result<(), StoreError> {
        self.shared.durable(|s| s.put_trust(key, record), None)
    }

    fn load_trust(&self) -> Result<BTreeMap<String, super::TrustRecord>, StoreError> {
        self.shared.with(|s| s.load_trust())
    }

    fn put_credential(&self, record: &super::CredentialRecord) -> Result<(), StoreError> {
        self.shared.durable(|s| s.put_credential(record), None)
    }

    fn load_credentials(&self) -> Result<Vec<super::CredentialRecord>, StoreError> {
        self.shared.with(|s| s.load_credentials())
    }

    fn append_audit(&self, entry: &AuditRecord) -> Result<(), StoreError> {
        self.shared.durable(|s| s.append_audit(entry), None)
    }

    fn audit_tail(&self, n: usize) -> Result<Vec<AuditRecord>, StoreError> {
        self.shared.with(|s| s.audit_tail(n))
    }

    fn writes_failing(&self) -> Option<String> {
        self.shared
            .log()
            .failing
            .as_ref()
            .map(|ep| ep.reason.clone())
    }
}

/// A store that fails like sled on a full disk, for tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::store::MemStore;
    use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32};

    /// A "disk" shared by every [`FaultyStore`] opened on it: what was
    /// flushed, and whether it is full.
    pub(crate) struct Disk {
        /// What reached the disk.
        pub(crate) data: Arc<MemStore>,
        /// While set, every write and flush fails with ENOSPC.
        pub(crate) full: AtomicBool,
        /// Stores opened on it so far.
        pub(crate) opens: AtomicU32,
        /// The disk fills up at the result write this counts down to
        /// (0 or below: never).
        pub(crate) fill_after: AtomicI64,
    }

    impl Disk {
        /// An empty disk with room.
        pub(crate) fn new() -> Arc<Disk> {
            Arc::new(Disk {
                data: Arc::new(MemStore::new()),
                full: AtomicBool::new(false),
                opens: AtomicU32::new(0),
                fill_after: AtomicI64::new(0),
            })
        }

        /// Fill the disk at the `n`th result written from now on.
        pub(crate) fn fill_after(&self, n: i64) {
            self.fill_after.store(n, Ordering::SeqCst);
        }

        /// Fill the disk, or make room again.
        pub(crate) fn set_full(&self, full: bool) {
            self.full.store(full, Ordering::SeqCst);
        }

        /// Opens a [`FaultyStore`] on this disk.
        pub(crate) fn opener(
            self: &Arc<Self>,
        ) -> impl Fn() -> Result<Arc<dyn Store>, StoreError> + Send + Sync + 'static {
            let disk = self.clone();
            move || {
                disk.opens.fetch_add(1, Ordering::SeqCst);
                Ok(Arc::new(FaultyStore {
                    disk: disk.clone(),
                    pending: Mutex::default(),
                    broken: AtomicBool::new(false),
                }) as Arc<dyn Store>)
            }
        }

        /// A [`ResilientStore`] on this disk, reopening every few milliseconds.
        pub(crate) fn resilient(self: &Arc<Self>) -> ResilientStore {
            let fast = Backoff {
                first: Duration::from_millis(5),
                max: Duration::from_millis(20),
            };
            ResilientStore::new(self.opener(), fast).unwrap()
        }
    }

    /// Like sled on a full disk: writes are kept in memory until a flush
    /// puts them on the [`Disk`]; while the disk is full every write and
    /// flush fails, and once one has failed this store keeps failing until
    /// it is opened again (what it had not flushed is then gone).
    pub(crate) struct FaultyStore {
        disk: Arc<Disk>,
        pending: Mutex<Vec<Write>>,
        broken: AtomicBool,
    }

    fn enospc() -> StoreError {
        StoreError::Db(::sled::Error::Io(std::io::Error::from_raw_os_error(28)))
    }

    impl FaultyStore {
        fn check(&self) -> Result<(), StoreError> {
            if self.disk.full.load(Ordering::SeqCst) {
                self.broken.store(true, Ordering::SeqCst);
            }
            match self.broken.load(Ordering::SeqCst) {
                true => Err(enospc()),
                false => Ok(()),
            }
        }

        fn pending(&self) -> MutexGuard<'_, Vec<Write>> {
            self.pending.lock().unwrap()
        }

        fn write(&self, w: Write) -> Result<(), StoreError> {
            self.check()?;
            self.pending().push(w);
            Ok(())
        }
    }

    impl Store for FaultyStore {
        fn create_sweep(&self, r: &SweepRecord, plan: &[ShardSpec]) -> Result<(), StoreError> {
            self.flush()?;
            self.disk.data.create_sweep(r, plan)
        }
        fn update_sweep(&self, r: &SweepRecord) -> Result<(), StoreError> {
            self.flush()?;
            self.disk.data.update_sweep(r)
        }
        fn delete_sweep(&self, id: &str) -> Result<(), StoreError> {
            self.flush()?;
            self.disk.data.delete_sweep(id)
        }
        fn next_seq(&self) -> Result<u64, StoreError> {
            self.check()?;
            self.disk.data.next_seq()
        }
        fn load_all(&self) -> Result<Vec<StoredSweep>, StoreError> {
            self.disk.data.load_all()
        }
        fn put_result(
            &self,
            id: &str,
            index: u32,
            result: &[u8],
            timing: Option<&ShardTiming>,
        ) -> Result<bool, StoreError> {
            if self.disk.fill_after.fetch_sub(1, Ordering::SeqCst) == 1 {
                self.disk.set_full(true);
            }
            self.check()?;
            let key = Key::Result(id.into(), index);
            if self.pending().iter().any(|w| w.key() == key)
                || self.disk.data.results_of(id)?.contains_key(&index)
            {
                return Ok(false);
            }
            self.write(Write::Result {
                id: id.into(),
                index,
                bytes: result.to_vec(),
                timing: timing.cloned(),
            })?;
            Ok(true)
        }
        fn put_lease(&self, id: &str, i: u32, l: Option<&LeaseRecord>) -> Result<(), StoreError> {
            self.write(Write::Lease {
                id: id.into(),
                index: i,
                lease: l.cloned(),
            })
        }
        fn put_failure(
            &self,
            id: &str,
            i: u32,
            f: Option<&FailureRecord>,
        ) -> Result<(), StoreError> {
            self.write(Write::Failure {
                id: id.into(),
                index: i,
                failure: f.cloned(),
            })
        }
        fn put_stats(&self, id: &str, stats: &SweepStats) -> Result<(), StoreError> {
            self.write(Write::Stats {
                id: id.into(),
                stats: stats.clone(),
            })
        }
        fn put_replication(
            &self,
            id: &str,
            i: u32,
            r: Option<&ReplicationRecord>,
        ) -> Result<(), StoreError> {
            self.write(Write::Replication {
                id: id.into(),
                index: i,
                record: r.cloned(),
            })
        }
        fn put_origin(&self, id: &str, i: u32, worker: &str) -> Result<(), StoreError> {
            self.write(Write::Origin {
                id: id.into(),
                index: i,
                worker: worker.into(),
            })
        }
        fn replace_result(&self, id: &str, i: u32, r: &[u8], w: &str) -> Result<(), StoreError> {
            self.write(Write::Replace {
                id: id.into(),
                index: i,
                bytes: r.to_vec(),
                worker: w.into(),
            })
        }
        fn results_of(&self, id: &str) -> Result<BTreeMap<u32, Vec<u8>>, StoreError> {
            let mut out = self.disk.data.results_of(id)?;
            for w in self.pending().iter() {
                if let Write::Result {
                    id: i,
                    index,
                    bytes,
                    ..
                }
                | Write::Replace {
                    id: i,
                    index,
                    bytes,
                    ..
                } = w
                {
                    if i == id {
                        out.insert(*index, bytes.clone());
                    }
                }
            }
            Ok(out)
        }
        fn put_quarantine(&self, r: &QuarantineRecord) -> Result<(), StoreError> {
            self.flush()?;
            self.disk.data.put_quarantine(r)
        }
        fn load_quarantine(&self) -> Result<Vec<QuarantineRecord>, StoreError> {
            self.disk.data.load_quarantine()
        }
        fn flush(&self) -> Result<(), StoreError> {
            self.check()?;
            for w in self.pending().drain(..) {
                w.apply(self.disk.data.as_ref())?;
            }
            Ok(())
        }
        fn size_on_disk(&self) -> u64 {
            0
        }
        fn lease_key(&self) -> [u8; 32] {
            self.disk.data.lease_key()
        }
        fn signing_key(&self) -> [u8; 32] {
            self.disk.data.signing_key()
        }
        fn journal(&self) -> Result<Option<super::super::journal::Read>, StoreError> {
            self.disk.data.journal()
        }
        fn append_journal(&self, r: &[super::super::journal::Record]) -> Result<(), StoreError> {
            self.flush()?;
            self.disk.data.append_journal(r)
        }
        fn rewrite_journal(&self, r: &[super::super::journal::Record]) -> Result<(), StoreError> {
            self.flush()?;
            self.disk.data.rewrite_journal(r)
        }
        fn remove_result(&self, id: &str, index: u32) -> Result<(), StoreError> {
            self.flush()?;
            self.disk.data.remove_result(id, index)
        }
        fn scan(&self, purge: bool) -> Result<Vec<super::super::Damage>, StoreError> {
            self.disk.data.scan(purge)
        }
        fn put_trust(&self, key: &str, r: &super::super::TrustRecord) -> Result<(), StoreError> {
            self.flush()?;
            self.disk.data.put_trust(key, r)
        }
        fn load_trust(&self) -> Result<BTreeMap<String, super::super::TrustRecord>, StoreError> {
            self.disk.data.load_trust()
        }
        fn put_credential(&self, r: &super::super::CredentialRecord) -> Result<(), StoreError> {
            self.flush()?;
            self.disk.data.put_credential(r)
        }
        fn load_credentials(&self) -> Result<Vec<super::super::CredentialRecord>, StoreError> {
            self.disk.data.load_credentials()
        }
        fn append_audit(&self, entry: &AuditRecord) -> Result<(), StoreError> {
            self.flush()?;
            self.disk.data.append_audit(entry)
        }
        fn audit_tail(&self, n: usize) -> Result<Vec<AuditRecord>, StoreError> {
            self.disk.data.audit_tail(n)
        }
    }
}

#[cfg(test)]
mod tests;
