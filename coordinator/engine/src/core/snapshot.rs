//! Snapshots of the sweeps' merged results (`store/snapshot.rs` has the
//! format and the soundness argument), so that a restart merges only what
//! was accepted after the last one.
//!
//! Written off the submit path's lock: the snapshot (merged result, done
//! shards as runs, their positions, the set digest) is taken under the
//! core's lock in one pass over the sweep's shard states; everything else
//! (a store flush that makes every covered result durable, encoding, the
//! sealed write and its flush) happens after the lock is released. At most
//! one snapshot is written at a time, at most every
//! [`SNAPSHOT_EVERY`] while results come in (by the flush that follows
//! a submit), and at a clean shutdown ([`Core::snapshot`]).

use super::model::{CoreError, ShardState, Sweep};
use super::Core;
use crate::store::snapshot::{self, Snapshot};
use crate::store::SweepState;
use std::time::{Duration, Instant};
use tracing::{debug, info, warn};

/// How often snapshots are written while results come in. A restart
/// after a crash reads at most about this long's worth of results besides
/// the snapshots.
pub const SNAPSHOT_EVERY: Duration = Duration::from_secs(10);

/// A snapshot's cost grows with the plan (one pass over the shard
/// states, the positions of every covered shard encoded and written): the
/// next one waits at least this many times as long as the last one took,
/// so writing them takes at most about 1/20 of one core. (At 1,000,000
/// shards under load, snapshots every 10 s cut the submit rate from
/// 2,235/s to 1,458/s: runs/BENCHMARKS.md.)
const SNAPSHOT_SPACING: u32 = 20;

/// How often, at most, the store is reopened after a snapshot
/// ([`crate::store::Store::refresh`]): sled replays at a start everything
/// written since it last opened the database, so this bounds a restart's
/// replay to about this long's worth of writes (at 2,000 results/s, about
/// 90 MB, a tenth of a second; never reopened, a 1,000,000-shard sweep left
/// 830 MB to replay).
pub const REFRESH_EVERY: Duration = Duration::from_secs(30);

/// A reopen makes store calls wait (a fraction of a second): the next one
/// waits at least this many times as long as the last one took.
const REFRESH_SPACING: u32 = 20;

/// When the last snapshot and the last reopen of the store were started
/// (or the core opened) and how long each took.
pub(crate) struct Snapshotting {
    pub(crate) snapshot: (Instant, Duration),
    pub(crate) refresh: (Instant, Duration),
}

impl Snapshotting {
    pub(crate) fn new() -> Self {
        let now = Instant::now();
        Snapshotting {
            snapshot: (now, Duration::ZERO),
            refresh: (now, Duration::ZERO),
        }
    }
}

impl Sweep {
    /// This sweep's snapshot as of now.
    pub(crate) fn snapshot(&self) -> Snapshot {
        let covered = snapshot::runs(self.states.len() as u32, |i| {
            self.states[i as usize] == ShardState::Done
        });
        let work = covered
            .iter()
            .flat_map(|&(a, b)| a..b)
            .map(|i| self.work[i as usize])
            .collect();
        Snapshot {
            seq: self.record.seq,
            covered,
            merged: self.merged.encode(),
            work,
            digest: self.done_digest.hex(),
            worker_work: self.worker_work.clone(),
        }
    }
}

impl Core {
    /// Write a snapshot of every sweep with results accepted since its
    /// last one (a clean shutdown; tests). Returns how many were written
    /// (none by a store that keeps no snapshots).
    pub fn snapshot(&self) -> Result<usize, CoreError> {
        let mut last = self.snapshotting.lock().unwrap_or_else(|e| e.into_inner());
        let started = Instant::now();
        let out = self.write_snapshots();
        last.snapshot = (started, started.elapsed());
        out
    }

    /// Whether a sweep has every shard's result and no snapshot of them all.
    fn just_finished(&self) -> bool {
        self.lock().sweeps.values().any(|s| {
            s.results_stored as usize == s.plan.len()
                && s.results_stored != s.snapshotted
                && s.record.state != SweepState::Importing
        })
    }

    /// [`Core::snapshot`] if [`SNAPSHOT_EVERY`] has passed since the
    /// last one and no other is being written; a failure is logged (the
    /// next one covers more, and a start without one reads every result).
    pub(crate) fn snapshot_if_due(&self) {
        let Ok(mut last) = self.snapshotting.try_lock() else {
            return;
        };
        let (at, took) = last.snapshot;
        // A sweep that just finished gets its snapshot at once, so that a
        // restart reads none of its results.
        if at.elapsed() < SNAPSHOT_EVERY.max(took * SNAPSHOT_SPACING) && !self.just_finished() {
            return;
        }
        let started = Instant::now();
        let out = self.write_snapshots();
        last.snapshot = (started, started.elapsed());
        match out {
            Ok(0) => {}
            Ok(n) => {
                debug!(
                    sweeps = n,
                    ms = started.elapsed().as_millis() as u64,
                    "snapshot written"
                );
                let (at, took) = last.refresh;
                if at.elapsed() >= REFRESH_EVERY.max(took * REFRESH_SPACING) {
                    let started = Instant::now();
                    let out = self.store.refresh();
                    last.refresh = (started, started.elapsed());
                    match out {
                        Ok(true) => info!(
                            ms = started.elapsed().as_millis() as u64,
                            "store reopened, so that a restart replays only what is written after this"
                        ),
                        Ok(false) => {}
                        Err(e) => warn!(error = %e, "cannot reopen the store; reopening it in the background"),
                    }
                }
            }
            Err(e) if self.store.writes_failing().is_some() => {
                debug!(error = %e, "no snapshot while store writes fail")
            }
            Err(e) => warn!(error = %e, "cannot write a snapshot; will try again"),
        }
    }

    /// Add to a sweep started from a snapshot the timings and origins it
    /// did not read (see [`Sweep::lazy`]): before anything that needs them
    /// all. O(done shards), once per sweep and process.
    pub(crate) fn fill_in(&self, s: &mut Sweep) -> Result<(), CoreError> {
        if s.lazy {
            let started = Instant::now();
            let timings = self.store.timings_of(&s.record.id)?;
            let origins = self.store.origins_of(&s.record.id)?;
            s.fill(timings, origins);
            debug!(sweep = %s.record.id, ms = started.elapsed().as_millis() as u64, "timings and origins read");
        }
        Ok(())
    }

    fn write_snapshots(&self) -> Result<usize, CoreError> {
        let snaps: Vec<(String, Snapshot, u32)> = {
            let st = self.lock();
            st.sweeps
                .values()
                .filter(|s| {
                    s.results_stored != s.snapshotted && s.record.state != SweepState::Importing
                })
                .map(|s| (s.record.id.clone(), s.snapshot(), s.results_stored))
                .collect()
        };
        if snaps.is_empty() {
            return Ok(0);
        }
        // Every result the snapshots cover was stored before them (under
        // the lock): this flush makes them durable in sled and the journal.
        self.commit.commit(|| self.store.flush())?;
        let mut written = 0;
        for (id, cp, done) in snaps {
            if !self.store.put_snapshot(&id, &cp)? {
                continue;
            }
            written += 1;
            let mut st = self.lock();
            if let Some(s) = st.sweeps.get_mut(&id) {
                // Unless a replaced result changed the sweep meanwhile (the
                // store dropped that snapshot, or a start finds it stale).
                if s.record.seq == cp.seq && s.done_digest.hex() == cp.digest {
                    s.snapshotted = done;
                }
            }
        }
        Ok(written)
    }
}
