//! The resilient store on a disk that fills up and empties again
//! ([`testing::Disk`]): what was written before, during and after an
//! episode is on the disk once it has room, without a restart.

use super::testing::Disk;
use super::*;
use crate::store::fixtures::{plan, record};
use crate::store::MemStore;

fn lease(attempt: u32) -> LeaseRecord {
    LeaseRecord {
        nonce: 0,
        worker: "w".into(),
        until_ms: 1000,
        attempt,
        granted_ms: 900,
    }
}

/// Wait (at most 5 s) until `store` says its writes work again.
fn until_resumed(store: &ResilientStore) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while store.writes_failing().is_some() {
        assert!(Instant::now() < deadline, "writes did not resume");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// What a restart would find on `disk`.
fn on_disk(disk: &Disk) -> StoredSweep {
    let mut all = disk.data.load_all().unwrap();
    assert_eq!(all.len(), 1);
    all.remove(0)
}

#[test]
fn the_test_disk_fails_like_sled_until_reopened() {
    // Without the wrapper: once a flush failed, room on the disk does not help.
    let disk = Disk::new();
    let store = disk.opener()().unwrap();
    store.create_sweep(&record("a"), &plan(2)).unwrap();
    disk.set_full(true);
    assert!(store.flush().is_err());
    disk.set_full(false);
    let e = store.flush().unwrap_err();
    assert!(e.to_string().contains("No space left on device"), "{e}");
    assert!(store.put_lease("a", 0, Some(&lease(1))).is_err());
}

#[test]
fn writes_resume_without_a_restart_and_nothing_flushed_or_logged_is_lost() {
    let disk = Disk::new();
    let store = disk.resilient();
    store.create_sweep(&record("a"), &plan(4)).unwrap();
    assert!(store.put_result("a", 0, b"r0", None).unwrap());
    store.flush().unwrap();
    // Written but not flushed when the disk fills: the failing store
    // loses it at the reopen, the redo log writes it again.
    assert!(store.put_result("a", 1, b"r1", None).unwrap());
    store.put_lease("a", 2, Some(&lease(1))).unwrap();
    disk.set_full(true);
    let e = store.flush().unwrap_err();
    assert!(matches!(e, StoreError::WritesFailing(_)), "{e}");
    assert!(e.to_string().contains("No space left on device"), "{e}");
    let why = store.writes_failing().expect("an episode");
    assert!(why.contains("No space left on device"), "{why}");
    // During the episode: a new result is refused (the core changes
    // nothing, the worker resends it), other writes are kept, writes that
    // flush by themselves are refused, and flushes keep failing.
    assert!(matches!(
        store.put_result("a", 3, b"r3", None),
        Err(StoreError::WritesFailing(_))
    ));
    store.put_lease("a", 2, Some(&lease(2))).unwrap();
    store
        .put_stats(
            "a",
            &SweepStats {
                duplicates_ignored: 7,
                ..SweepStats::default()
            },
        )
        .unwrap();
    assert!(store.update_sweep(&record("a")).is_err());
    assert!(store.next_seq().is_err());
    std::thread::sleep(Duration::from_millis(100));
    assert!(store.flush().is_err(), "still full: still failing");
    assert!(disk.opens.load(Ordering::SeqCst) >= 2, "reopen attempts");
    // Reads see what was written, flushed or not.
    assert_eq!(
        store
            .results_of("a")
            .unwrap()
            .keys()
            .copied()
            .collect::<Vec<_>>(),
        [0, 1]
    );
    // Room again: the episode ends by itself, without a restart.
    disk.set_full(false);
    until_resumed(&store);
    assert!(store.put_result("a", 3, b"r3", None).unwrap());
    store.flush().unwrap();
    let s = on_disk(&disk);
    assert_eq!(s.results.keys().copied().collect::<Vec<_>>(), [0, 1, 3]);
    assert_eq!(s.results[&1], b"r1".to_vec());
    assert_eq!(s.leases[&2].attempt, 2, "the latest lease");
    assert_eq!(s.stats.duplicates_ignored, 7);
    // Writes that flush by themselves work again.
    store.update_sweep(&record("a")).unwrap();
    assert!(store.next_seq().is_ok());
}

#[test]
fn a_disk_that_stays_full_keeps_the_episode_going_and_writes_nothing_twice() {
    let disk = Disk::new();
    let store = disk.resilient();
    store.create_sweep(&record("a"), &plan(3)).unwrap();
    disk.set_full(true);
    store.put_lease("a", 0, Some(&lease(1))).unwrap();
    assert!(store.flush().is_err());
    // Many reopen attempts (5 ms apart at first, then 20 ms).
    let deadline = Instant::now() + Duration::from_secs(5);
    while disk.opens.load(Ordering::SeqCst) < 6 {
        assert!(Instant::now() < deadline, "no reopen attempts");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(store.writes_failing().is_some());
    assert!(on_disk(&disk).leases.is_empty(), "nothing reached the disk");
    disk.set_full(false);
    until_resumed(&store);
    store.flush().unwrap();
    assert_eq!(on_disk(&disk).leases[&0].attempt, 1);
}

#[test]
fn a_sweep_whose_creation_failed_is_removed_when_the_store_is_reopened() {
    let disk = Disk::new();
    let store = disk.resilient();
    disk.set_full(true);
    assert!(store.create_sweep(&record("a"), &plan(3)).is_err());
    // As if the record had reached the disk after all (sled writes in
    // the background): the reopen deletes it, the core never knew it.
    disk.data.create_sweep(&record("a"), &plan(3)).unwrap();
    disk.set_full(false);
    until_resumed(&store);
    assert!(disk.data.load_all().unwrap().is_empty());
    store.create_sweep(&record("a"), &plan(3)).unwrap();
}

#[test]
fn a_store_that_does_not_fail_behaves_like_the_one_it_wraps() {
    // The same script on a plain and a wrapped memory store.
    let script = |s: &dyn Store| {
        s.create_sweep(&record("a"), &plan(3)).unwrap();
        assert!(s.put_result("a", 0, b"x", None).unwrap());
        assert!(!s.put_result("a", 0, b"y", None).unwrap(), "written once");
        s.replace_result("a", 0, b"z", "w2").unwrap();
        s.put_origin("a", 1, "w").unwrap();
        s.put_lease("a", 2, Some(&lease(3))).unwrap();
        s.flush().unwrap();
        let mut all = s.load_all().unwrap();
        all[0].record.seq = 0;
        format!("{all:#?}")
    };
    let wrapped = ResilientStore::new(
        || Ok(Arc::new(MemStore::new()) as Arc<dyn Store>),
        Backoff::default(),
    )
    .unwrap();
    assert_eq!(script(&wrapped), script(&MemStore::new()));
    assert_eq!(wrapped.writes_failing(), None);
}

#[test]
fn a_sled_store_is_reopened_in_the_same_directory() {
    let dir = tempfile::tempdir().unwrap();
    let store = ResilientStore::open_sled(dir.path()).unwrap();
    let key = store.lease_key();
    store.create_sweep(&record("a"), &plan(2)).unwrap();
    assert!(store.put_result("a", 0, b"{}", None).unwrap());
    // Force an episode with a closed handle, as a failed write would.
    {
        let mut log = store.shared.log();
        store
            .shared
            .start_episode(&mut log, &StoreError::WritesFailing("test".into()));
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while store.writes_failing().is_some() {
        assert!(Instant::now() < deadline, "sled was not reopened");
        std::thread::sleep(Duration::from_millis(20));
    }
    store.flush().unwrap();
    assert_eq!(store.lease_key(), key);
    let all = store.load_all().unwrap();
    assert_eq!(all[0].results.keys().copied().collect::<Vec<_>>(), [0]);
}

/// The stable LSN of sled's newest page-table snapshot in `dir` (its file
/// is `snap.<LSN in hex>`), 0 if there is none.
fn snapshot_lsn(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            let hex = name.strip_prefix("snap.")?;
            u64::from_str_radix(hex, 16).ok()
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn a_refresh_advances_sleds_snapshot_so_the_next_start_replays_only_what_follows() {
    let dir = tempfile::tempdir().unwrap();
    let store = ResilientStore::open_sled(dir.path()).unwrap();
    store.create_sweep(&record("a"), &plan(3000)).unwrap();
    for i in 0..3000 {
        assert!(store.put_result("a", i, &[7; 64], None).unwrap());
        store.put_lease("a", i, None).unwrap();
    }
    store.flush().unwrap();
    let before = snapshot_lsn(dir.path());
    assert!(store.refresh().unwrap(), "a sled store reopens");
    let after = snapshot_lsn(dir.path());
    // Without the reopen, sled snapshots only at open: a restart would
    // replay everything written since the store was created.
    assert!(
        after > before + 3000 * 64,
        "snapshot at LSN {after} after the reopen, {before} before"
    );
    // Served as before, and written after the reopen.
    assert!(store.put_result("a", 3000 - 1, b"again", None).is_ok());
    assert_eq!(store.journal().unwrap().unwrap().journal.done_count(), 3000);
    let all = store.load_all().unwrap();
    assert_eq!(all[0].results.len(), 3000);
    assert!(all[0].results.values().all(|v| v == &[7; 64]));
    drop(store);
    // A start reads the journal whole and finds it all.
    let again = crate::store::SledStore::open(dir.path()).unwrap();
    assert_eq!(again.journal().unwrap().unwrap().journal.done_count(), 3000);
    assert_eq!(again.load_all().unwrap()[0].results.len(), 3000);
}

#[test]
fn calls_during_a_refresh_wait_for_it_and_none_fails() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(ResilientStore::open_sled(dir.path()).unwrap());
    store.create_sweep(&record("a"), &plan(400)).unwrap();
    let writer = {
        let store = store.clone();
        std::thread::spawn(move || {
            for i in 0..400 {
                assert!(store.put_result("a", i, b"{}", None).unwrap());
                if i % 10 == 0 {
                    store.flush().unwrap();
                }
            }
            store.flush().unwrap();
        })
    };
    for _ in 0..5 {
        assert!(store.refresh().unwrap());
    }
    writer.join().unwrap();
    assert_eq!(store.writes_failing(), None);
    assert_eq!(store.load_all().unwrap()[0].results.len(), 400);
}

/// The n = 12 campaign's first fault: a refresh closed the store and opened
/// it again at once, sled still held the lock of the handle just closed (it
/// releases it from a background thread), and the refresh took its own lock
/// for another process's: an episode, acknowledgements paused until a
/// background reopen. Now it waits for that lock (a bounded time) and the
/// refresh is one, with no episode.
#[test]
fn a_refresh_waits_for_the_lock_of_the_handle_it_closed() {
    use std::sync::atomic::AtomicU32;
    let disk = Disk::new();
    let still_locked = Arc::new(AtomicU32::new(0));
    let open = {
        let open = disk.opener();
        let still_locked = still_locked.clone();
        move || {
            let left = still_locked.load(Ordering::SeqCst);
            if left > 0 {
                still_locked.store(left - 1, Ordering::SeqCst);
                return Err(StoreError::InUse("the-store".into()));
            }
            open()
        }
    };
    let backoff = Backoff {
        first: Duration::from_millis(5),
        max: Duration::from_millis(5),
    };
    let store = ResilientStore::new(open, backoff).unwrap();
    store.create_sweep(&record("a"), &plan(4)).unwrap();
    assert!(store.put_result("a", 0, b"r0", None).unwrap());
    // The next three opens find the lock still held: 60 ms or so.
    still_locked.store(3, Ordering::SeqCst);
    assert!(store.refresh().unwrap(), "the refresh reopened the store");
    assert_eq!(still_locked.load(Ordering::SeqCst), 0);
    assert_eq!(store.writes_failing(), None, "no episode");
    assert!(store.put_result("a", 1, b"r1", None).unwrap());
    store.flush().unwrap();
    assert_eq!(on_disk(&disk).results.len(), 2);
}
