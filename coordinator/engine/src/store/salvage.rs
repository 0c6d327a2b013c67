//! The start-up gate of a sled store ([`open_for_start`]) and the salvage
//! of one sled cannot read in full ([`salvage`], under `--accept-loss`).
//!
//! Every start reads every stored value before it trusts the store
//! ([`Store::scan_start`]): a start never goes on a store that `gamesweep
//! store check` calls damaged (it would otherwise start, acknowledge the
//! submits that miss the damage and then fail every write that meets it,
//! for ever). Without `--accept-loss` such a store is refused with one
//! message naming the damage and the ways out. With it, damaged values are
//! dropped; parts sled cannot read at all (a damaged page, a database it
//! cannot open) are salvaged: everything sled can still read is copied into
//! a new database beside it (each tree read from both ends, then every
//! journaled sweep's keys looked up one by one), the journal is kept, and
//! the damaged store is moved aside. The start-up check against the journal
//! (`core/recovery.rs`) then re-creates every sweep whose record was lost
//! and queues again exactly the shards whose results were: damage stays
//! with the sweeps it hit.

use super::journal;
use super::sled::{read_tree, sweep_keys};
use super::{Damage, SledStore, Store, StoreError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tracing::warn;

/// What [`salvage`] did.
#[derive(Debug)]
pub struct Salvaged {
    /// Where the damaged store was moved.
    pub moved_to: PathBuf,
    /// Values copied into the new database.
    pub copied: u64,
    /// What could not be read (sled's words), one entry per tree part or
    /// the whole database.
    pub unreadable: Vec<String>,
}

/// The message of a store refused as damaged: the damage (the first
/// few), and the ways out.
pub fn refusal(dir: &Path, what: &[String]) -> StoreError {
    let mut shown: Vec<&str> = what.iter().take(3).map(String::as_str).collect();
    let more = format!("and {} more", what.len().saturating_sub(3));
    if what.len() > 3 {
        shown.push(&more);
    }
    StoreError::Damaged(format!(
        "store damaged: {}; run `gamesweep store check {}`, restore it from an --export-every checkpoint (deploy/README.md, \"Recovering a damaged store\"), or restart with --accept-loss to keep every sweep it can and run exactly the lost shards again",
        shown.join("; "),
        dir.display()
    ))
}

/// Whether `e` says sled's files are damaged (rather than in use, foreign, ...).
fn is_damage(e: &StoreError) -> bool {
    matches!(
        e,
        StoreError::Damaged(_) | StoreError::Db(::sled::Error::Corruption { .. })
    )
}

/// Open the store in `dir` for a coordinator's start: refused if
/// [`Store::scan_start`] finds damage, unless `accept_loss`: then damaged
/// values are dropped and a database sled cannot read in full is
/// [`salvage`]d first (see the module docs).
pub fn open_for_start(
    dir: &Path,
    accept_loss: bool,
) -> Result<(SledStore, Option<Salvaged>), StoreError> {
    match SledStore::open(dir) {
        Ok(store) => {
            let damage: Vec<Damage> = store.scan_start()?;
            if damage.is_empty() {
                return Ok((store, None));
            }
            if !accept_loss {
                let what: Vec<String> = damage.iter().map(|d| d.what.clone()).collect();
                return Err(refusal(dir, &what));
            }
            if !damage.iter().any(|d| d.unreadable) {
                for d in &damage {
                    warn!(damage = %d.what, "--accept-loss: damaged value dropped");
                }
                // Removed durably; the check against the journal then
                // queues again exactly what they held.
                store.scan(true)?;
                return Ok((store, None));
            }
            drop(store);
        }
        Err(e) if accept_loss && is_damage(&e) => {
            warn!(error = %e, "--accept-loss: sled cannot open the store; salvaging it from its journal");
        }
        Err(StoreError::Db(e @ ::sled::Error::Corruption { .. })) => {
            return Err(refusal(
                dir,
                &[format!(
                    "sled cannot read its database ({})",
                    super::sled_message(&e)
                )],
            ))
        }
        Err(e) => return Err(e),
    }
    let salvaged = salvage(dir)?;
    warn!(
        copied = salvaged.copied,
        unreadable = %salvaged.unreadable.join("; "),
        damaged_store = %salvaged.moved_to.display(),
        "--accept-loss: everything sled could read was copied into a new database; the damaged one was moved aside"
    );
    Ok((open_waiting(dir)?, Some(salvaged)))
}

/// Copy directory `from` to `to`, but for the files whose names `skip` says.
fn copy_except(from: &Path, to: &Path, skip: &dyn Fn(&str) -> bool) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        if skip(&e.file_name().to_string_lossy()) {
            continue;
        }
        let target = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_except(&e.path(), &target, skip)?;
        } else {
            std::fs::copy(e.path(), target)?;
        }
    }
    Ok(())
}

/// `f` until it is not "in use" (sled releases its lock from a background
/// thread shortly after the last handle is dropped), at most 10 s.
fn waiting<T>(mut f: impl FnMut() -> Result<T, StoreError>) -> Result<T, StoreError> {
    let t0 = Instant::now();
    loop {
        match f() {
            Err(StoreError::InUse(_)) if t0.elapsed() < Duration::from_secs(10) => {
                std::thread::sleep(Duration::from_millis(20))
            }
            r => return r,
        }
    }
}

fn open_waiting(dir: &Path) -> Result<SledStore, StoreError> {
    waiting(|| SledStore::open(dir))
}

/// sled's database in `dir` itself (no store checks), waiting while it is
/// in use as [`waiting`] does.
fn open_raw(dir: &Path) -> Result<::sled::Db, StoreError> {
    waiting(|| {
        super::sled::open_db(dir).map_err(|reason| {
            match reason.contains("could not acquire lock") {
                true => StoreError::InUse(dir.to_path_buf()),
                false => StoreError::Open {
                    path: dir.to_path_buf(),
                    reason,
                },
            }
        })
    })
}

/// Copy every tree of `old` into `new` (with `snapshots`, the snapshots
/// too): all sled can read of each, and around a part it cannot (said in
/// `unreadable`), every key a journaled sweep can have there, one by one.
/// Ids handed out (sequence numbers, audit keys) stay above `old`'s.
/// Returns the values copied.
fn copy_trees(
    old: &::sled::Db,
    new: &::sled::Db,
    journal: &journal::Journal,
    snapshots: bool,
    unreadable: &mut Vec<String>,
) -> Result<u64, StoreError> {
    let mut copied = 0u64;
    for tree_name in old.tree_names() {
        if tree_name == b"checkpoints" && !snapshots {
            continue;
        }
        let (Ok(src), Ok(dst)) = (old.open_tree(&tree_name), new.open_tree(&tree_name)) else {
            unreadable.push(format!(
                "tree `{}` (it does not open)",
                String::from_utf8_lossy(&tree_name)
            ));
            continue;
        };
        let mut failed = None;
        let damage = read_tree(&src, |k, v| {
            match dst.insert(k, v) {
                Ok(_) => copied += 1,
                Err(e) => failed = Some(e),
            };
        });
        if let Some(e) = failed {
            return Err(e.into());
        }
        let Some(damage) = damage else { continue };
        unreadable.push(damage);
        for js in journal.sweeps.values() {
            for k in sweep_keys(&tree_name, &js.entry.record.id, js.entry.shards) {
                if dst.contains_key(&k)? {
                    continue;
                }
                if let Ok(Some(v)) = src.get(&k) {
                    dst.insert(&k, v)?;
                    copied += 1;
                }
            }
        }
    }
    let floor = old.generate_id().unwrap_or(0).max(journal.max_seq + 1);
    let mut n = 0u64;
    while new.generate_id()? < floor && n < 100_000_000 {
        n += 1;
    }
    Ok(copied)
}

/// Put the new database in `fresh` in the place of the store in `dir`,
/// with `journal_bytes` (`dir`'s journal), each durable before the next
/// step: `dir` moved to `moved_to`, then `fresh` to `dir`. An error says
/// which step failed and where each directory is.
fn swap_in(dir: &Path, fresh: &Path, moved_to: &Path, journal_bytes: &[u8]) -> Result<(), String> {
    let synced = |path: &Path| std::fs::File::open(path).and_then(|f| f.sync_all());
    if !journal_bytes.is_empty() {
        let path = fresh.join(journal::FILE_NAME);
        std::fs::write(&path, journal_bytes)
            .and_then(|()| synced(&path))
            .map_err(|e| format!("cannot copy the journal: {e}"))?;
    }
    let parent = dir.parent().unwrap_or(Path::new("."));
    std::fs::rename(dir, moved_to)
        .and_then(|()| synced(parent))
        .map_err(|e| {
            format!(
                "cannot move {} aside to {} (the new copy is {}): {e}",
                dir.display(),
                moved_to.display(),
                fresh.display()
            )
        })?;
    std::fs::rename(fresh, dir)
        .and_then(|()| synced(parent))
        .map_err(|e| {
            format!(
                "cannot move the new copy {} to {} (the store before is {}): {e}",
                fresh.display(),
                dir.display(),
                moved_to.display()
            )
        })
}

/// The sizes of the files under `dir`, in bytes.
pub(super) fn bytes_in(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.flatten()
            .map(|e| match e.file_type().is_ok_and(|t| t.is_dir()) {
                true => bytes_in(&e.path()),
                false => e.metadata().map_or(0, |m| m.len()),
            })
            .sum()
    })
}

/// What [`compact`] did.
#[derive(Debug)]
pub struct Compacted {
    /// Bytes of the store's files before.
    pub bytes_before: u64,
    /// Bytes of the store's files after.
    pub bytes_after: u64,
    /// Values copied.
    pub copied: u64,
    /// Where the store as it was is kept (`keep_old`); otherwise removed.
    pub kept: Option<PathBuf>,
}

/// Copy the closed store in `dir` into a new database and put it in its
/// place, keeping the journal: everything the store holds, nothing sled
/// no longer needs (the log's dead pages, the files of replaced large
/// values a build before snapshot parts left in `blobs/`). A store that
/// is damaged is refused (a compaction copies only what it can read); the
/// copy must open and read whole before the old store is removed (with
/// `keep_old`, kept beside it as `DIR.before-compact-UNIXSECONDS`), and if
/// it does not, the old store is put back.
pub fn compact(dir: &Path, keep_old: bool) -> Result<Compacted, StoreError> {
    {
        let store = SledStore::open(dir)?;
        let damage = store.scan_start()?;
        if !damage.is_empty() {
            let what: Vec<String> = damage.into_iter().map(|d| d.what).collect();
            return Err(refusal(dir, &what));
        }
        store.flush()?;
    }
    let [fresh, moved_to] =
        beside(dir, ["compact", "before-compact"]).map_err(|e| StoreError::Open {
            path: dir.to_path_buf(),
            reason: format!("cannot clear an earlier compaction's copy: {e}"),
        })?;
    let bytes_before = bytes_in(dir);
    let journal_bytes = std::fs::read(dir.join(journal::FILE_NAME)).unwrap_or_default();
    let journal = journal::replay(&journal_bytes).journal;
    let copy = || -> Result<u64, StoreError> {
        let new = ::sled::Config::new().path(&fresh).open()?;
        let old = open_raw(dir)?;
        let mut unreadable = Vec::new();
        let copied = copy_trees(&old, &new, &journal, true, &mut unreadable)?;
        if !unreadable.is_empty() {
            return Err(refusal(dir, &unreadable));
        }
        new.flush()?;
        Ok(copied)
    };
    // A copy that fails leaves nothing beside the store.
    let copied = copy().inspect_err(|_| {
        let _ = std::fs::remove_dir_all(&fresh);
    })?;
    let failed = |what: String| StoreError::Open {
        path: dir.to_path_buf(),
        reason: format!("compacting it failed: {what}"),
    };
    swap_in(dir, &fresh, &moved_to, &journal_bytes).map_err(failed)?;
    let whole = open_waiting(dir).and_then(|s| s.scan_start());
    if let Err(what) = match whole {
        Ok(damage) if damage.is_empty() => Ok(()),
        Ok(damage) => Err(format!("the copy reads as damaged: {}", damage[0].what)),
        Err(e) => Err(format!("the copy does not open: {e}")),
    } {
        let put_back = std::fs::rename(dir, &fresh).and_then(|()| std::fs::rename(&moved_to, dir));
        return Err(failed(match put_back {
            Ok(()) => format!(
                "{what}; the store is as it was, the copy is {}",
                fresh.display()
            ),
            Err(e) => format!(
                "{what}; and putting the store back failed ({e}): it is {}",
                moved_to.display()
            ),
        }));
    }
    let bytes_after = bytes_in(dir);
    let kept = match keep_old {
        true => Some(moved_to),
        false => {
            std::fs::remove_dir_all(&moved_to).map_err(|e| {
                failed(format!(
                    "the copy is in place, but the store before could not be removed from {}: {e}",
                    moved_to.display()
                ))
            })?;
            None
        }
    };
    Ok(Compacted {
        bytes_before,
        bytes_after,
        copied,
        kept,
    })
}

/// Paths beside `dir`, `DIR.WHAT-UNIXSECONDS` for each of `what`: the
/// first, for a new copy, cleared of an earlier attempt.
fn beside<const N: usize>(dir: &Path, what: [&str; N]) -> std::io::Result<[PathBuf; N]> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "store".into());
    let parent = dir.parent().unwrap_or(Path::new("."));
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let paths = what.map(|w| parent.join(format!("{name}.{w}-{secs}")));
    if paths[0].exists() {
        std::fs::remove_dir_all(&paths[0])?;
    }
    Ok(paths)
}

/// Copy everything sled can read of the store in `dir` into a new database
/// and put that one in its place, keeping the journal; the damaged store is
/// moved beside it (`DIR.damaged-UNIXSECONDS`). The store must be closed.
pub fn salvage(dir: &Path) -> Result<Salvaged, StoreError> {
    let io = |what: &str, e: std::io::Error| {
        StoreError::Damaged(format!(
            "store damaged, and salvaging it failed: {what}: {e}"
        ))
    };
    let [fresh, moved_to, without_conf] = beside(dir, ["salvage", "damaged", "reopen"])
        .map_err(|e| io("cannot clear an earlier attempt", e))?;
    let journal_bytes = std::fs::read(dir.join(journal::FILE_NAME)).unwrap_or_default();
    let journal = journal::replay(&journal_bytes).journal;
    let mut unreadable = Vec::new();
    let mut copied = 0u64;
    {
        let new = ::sled::Config::new()
            .path(&fresh)
            .open()
            .map_err(StoreError::from)?;
        let old = open_raw(dir);
        // sled cannot open it: its page-table snapshot (`snap.*`, written
        // at each open) may point into the damage, and recovering from the
        // log alone reads everything up to it; a damaged `conf` (sled's
        // settings, the defaults for every gamesweep store) is written
        // again by sled when it is missing. Each tried on a copy.
        let old = old.or_else(|e| {
            let snap = |n: &str| n.starts_with("snap.");
            copy_except(dir, &without_conf, &snap).map_err(|_| e)?;
            super::sled::open_db(&without_conf)
                .or_else(|_| {
                    let _ = std::fs::remove_dir_all(&without_conf);
                    copy_except(dir, &without_conf, &|n: &str| snap(n) || n == "conf")
                        .map_err(|e| e.to_string())?;
                    super::sled::open_db(&without_conf)
                })
                .map_err(|reason| StoreError::Open {
                    path: dir.to_path_buf(),
                    reason,
                })
        });
        if old.is_ok() && without_conf.exists() {
            warn!(store = %dir.display(), "sled opens the store only without its page-table snapshot (or its conf): read from its log");
        }
        match old {
            Err(e) => unreadable.push(format!("the whole database ({e})")),
            // A snapshot only spares a start reading the results it covers:
            // the salvaged store's start reads them all, never a snapshot
            // of the damaged one (or some of its parts).
            Ok(old) => copied = copy_trees(&old, &new, &journal, false, &mut unreadable)?,
        }
        new.flush()?;
    }
    let _ = std::fs::remove_dir_all(&without_conf);
    swap_in(dir, &fresh, &moved_to, &journal_bytes).map_err(|what| {
        StoreError::Damaged(format!("store damaged, and salvaging it failed: {what}"))
    })?;
    Ok(Salvaged {
        moved_to,
        copied,
        unreadable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::fixtures::{plan, record_at as record};
    use crate::store::seal;
    use std::collections::BTreeMap;

    /// Sweeps `a` and `b`, 3 shards each, all done; closed.
    fn two_sweeps(dir: &Path) {
        let s = SledStore::open(dir).unwrap();
        for (seq, id) in [(1, "a"), (2, "b")] {
            s.create_sweep(&record(id, seq), &plan(3)).unwrap();
            for i in 0..3 {
                assert!(s
                    .put_result(id, i, format!("{id}{i}").as_bytes(), None)
                    .unwrap());
            }
        }
        s.flush().unwrap();
    }

    #[test]
    fn a_damaged_value_refuses_the_start_naming_it_and_accept_loss_drops_it() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("store");
        two_sweeps(&dir);
        {
            // A result's bytes changed under its checksum header.
            let db = ::sled::open(&dir).unwrap();
            let results = db.open_tree("results").unwrap();
            let key = b"b\0\0\0\0\x02".to_vec();
            let mut v = results.get(&key).unwrap().unwrap().to_vec();
            *v.last_mut().unwrap() ^= 1;
            results.insert(&key, v).unwrap();
            db.flush().unwrap();
        }
        let err = waiting(|| open_for_start(&dir, false).map(drop)).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(
                "store damaged: tree `results`, sweep `b`, shard 2: checksum mismatch"
            ) && text.contains("--accept-loss"),
            "{text}"
        );
        let (s, salvaged) = waiting(|| open_for_start(&dir, true)).unwrap();
        assert!(salvaged.is_none(), "a readable store is not copied");
        let all = s.load_all().unwrap();
        assert_eq!(all[0].results.len(), 3, "`a` whole");
        assert_eq!(all[1].results.keys().copied().collect::<Vec<_>>(), [0, 1]);
        assert!(s.scan_start().unwrap().is_empty());
    }

    #[test]
    fn a_store_sled_cannot_open_is_refused_or_salvaged_from_its_journal() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("store");
        two_sweeps(&dir);
        std::fs::write(dir.join("db"), b"").unwrap();
        std::fs::remove_file(dir.join("conf")).unwrap();
        let err = waiting(|| open_for_start(&dir, false).map(drop)).unwrap_err();
        assert!(err.to_string().starts_with("store damaged: "), "{err}");
        let (s, salvaged) = waiting(|| open_for_start(&dir, true)).unwrap();
        let salvaged = salvaged.expect("salvaged");
        assert!(
            salvaged.moved_to.join("journal").is_file(),
            "moved aside whole"
        );
        assert_eq!(salvaged.copied, 0);
        // Nothing of sled's is left, but the journal is: the start re-creates
        // both sweeps from it and runs all their shards again.
        assert!(s.load_all().unwrap().is_empty());
        let j = s.journal().unwrap().unwrap().journal;
        assert_eq!(j.sweeps.len(), 2);
        assert_eq!(j.done_count(), 6);
        assert!(
            s.next_seq().unwrap() > 2,
            "sequence numbers stay above the journal's"
        );
    }

    #[test]
    fn salvage_copies_everything_readable_and_keeps_ids_above_the_old_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("store");
        two_sweeps(&dir);
        let (key, signing) = {
            let s = SledStore::open(&dir).unwrap();
            (s.lease_key(), s.signing_key())
        };
        let salvaged = waiting(|| salvage(&dir)).unwrap();
        assert!(salvaged.unreadable.is_empty(), "{:?}", salvaged.unreadable);
        let s = open_waiting(&dir).unwrap();
        assert_eq!((s.lease_key(), s.signing_key()), (key, signing), "kept");
        let all = s.load_all().unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[1].results[&2], b"b2".to_vec());
        assert!(s.scan(false).unwrap().is_empty());
        assert!(s.next_seq().unwrap() > 2);
    }

    /// Each sweep's id and results, and the journal's bytes.
    type Contents = (Vec<(String, BTreeMap<u32, Vec<u8>>)>, Vec<u8>);

    /// Every sweep of the store in `dir`: ids, results, the journal.
    fn contents(dir: &Path) -> Contents {
        let s = open_waiting(dir).unwrap();
        let sweeps = s.load_all().unwrap();
        let sweeps = sweeps
            .into_iter()
            .map(|w| (w.record.id, w.results))
            .collect();
        (sweeps, std::fs::read(dir.join(journal::FILE_NAME)).unwrap())
    }

    #[test]
    fn compaction_keeps_every_value_and_drops_what_sled_no_longer_needs() {
        use crate::store::snapshot::{SetDigest, Snapshot};
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("store");
        two_sweeps(&dir);
        // Snapshots of 1 MB stored whole and replaced across reopens, as
        // builds before snapshot parts did: sled kept a file of each.
        for round in 0..12u8 {
            let db = open_raw(&dir).unwrap();
            let cp = Snapshot {
                seq: 1,
                covered: Vec::new(),
                merged: (0..1_000_000u32)
                    .map(|i| (i * 7 + u32::from(round)) as u8)
                    .collect(),
                work: Vec::new(),
                digest: SetDigest::default().hex(),
                worker_work: BTreeMap::new(),
            };
            let t = db.open_tree("checkpoints").unwrap();
            t.insert(b"a", seal("checkpoints", b"a", &cp.encode()))
                .unwrap();
            db.flush().unwrap();
        }
        let blobs = |d: &Path| std::fs::read_dir(d.join("blobs")).unwrap().count();
        assert!(blobs(&dir) >= 10, "{} files in blobs/", blobs(&dir));
        let before = contents(&dir);
        let c = compact(&dir, false).unwrap();
        assert!(blobs(&dir) <= 1, "{} files in blobs/", blobs(&dir));
        assert!(c.bytes_after * 4 < c.bytes_before, "{c:?}");
        assert_eq!(c.bytes_after, bytes_in(&dir));
        assert!(c.kept.is_none());
        assert_eq!(
            contents(&dir),
            before,
            "every sweep, result and journal record kept"
        );
        let s = open_waiting(&dir).unwrap();
        assert!(s.scan(false).unwrap().is_empty());
        assert!(
            s.load_for_start().unwrap()[0].snapshot.is_some(),
            "the snapshot kept"
        );
        let seq = s.next_seq().unwrap();
        assert!(
            seq > 2,
            "launch numbers stay above the copied store's: {seq}"
        );
        drop(s);
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left, ["store"], "nothing left beside it");
        // Kept beside it when asked.
        let c = waiting(|| compact(&dir, true)).unwrap();
        let kept = c.kept.expect("kept");
        assert!(
            kept.to_string_lossy().contains("store.before-compact-"),
            "{kept:?}"
        );
        assert_eq!(contents(&kept), before);
    }

    #[test]
    fn a_store_in_use_or_damaged_is_not_compacted() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("store");
        two_sweeps(&dir);
        let held = open_waiting(&dir).unwrap();
        let err = compact(&dir, false).unwrap_err();
        assert!(matches!(err, StoreError::InUse(_)), "{err}");
        drop(held);
        {
            let db = open_raw(&dir).unwrap();
            let results = db.open_tree("results").unwrap();
            let key = b"a\0\0\0\0\x01".to_vec();
            let mut v = results.get(&key).unwrap().unwrap().to_vec();
            *v.last_mut().unwrap() ^= 1;
            results.insert(&key, v).unwrap();
            db.flush().unwrap();
        }
        let err = waiting(|| compact(&dir, false)).unwrap_err().to_string();
        assert!(
            err.starts_with("store damaged: tree `results`, sweep `a`, shard 1: checksum mismatch"),
            "{err}"
        );
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left, ["store"], "nothing written beside it");
    }
}
