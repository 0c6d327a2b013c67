//! The verification state of a sweep and the quarantined workers (what
//! `model` keeps per sweep and in the core's state); the transitions are
//! in [`super::verify`].

use crate::store::{
    QuarantineRecord, ReplicationPurpose, ReplicationRecord, ReplicationRun, SweepRecord, Verdict,
};
use gamesweep_api::domain::ReplicationStatus;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

/// Millionths: the unit of `verify_ppm`.
pub(crate) const PPM: u64 = 1_000_000;

/// Whether shard `index` is selected for verification under `seed` at `ppm`.
pub fn selected(seed: u64, index: u32, ppm: u32) -> bool {
    if ppm == 0 {
        return false;
    }
    let mut h = Sha256::new();
    h.update(b"gamesweep-verify");
    h.update(seed.to_le_bytes());
    h.update(index.to_le_bytes());
    let d = h.finalize();
    let x = u64::from_le_bytes(d[..8].try_into().expect("8 bytes"));
    x % PPM < u64::from(ppm)
}

/// The share (millionths) of a trusted identity's results run again by
/// another identity once its probation is over (`TRUST_AFTER` agreements): the smallest share `p` with `(1 − p)^100 ≤ 1 %`, so that an
/// identity that lied in 100 shards goes unnoticed with probability at most
/// 1 %. One lie caught withdraws its trust, and every result it gave is run
/// again (`Core::distrust`).
pub const SPOT_PPM: u32 = 45_008;

/// The number of lies [`SPOT_PPM`] is chosen for.
pub const SPOT_LIES: u32 = 100;

/// The largest chance [`SPOT_PPM`] leaves that [`SPOT_LIES`] lies all go
/// unchecked.
pub const SPOT_MISS: f64 = 0.01;

/// The chance that `lies` results of one identity, each run again with
/// probability `ppm` millionths, are all left unchecked: `(1 − p)^lies`.
pub fn unnoticed(ppm: u32, lies: u32) -> f64 {
    (1.0 - f64::from(ppm) / PPM as f64).powi(lies as i32)
}

/// Whether shard `index` of a sweep keyed `seed` is spot-checked when a
/// trusted identity gives its result: about [`SPOT_PPM`] millionths of the
/// shards, by a hash independent of [`selected`]'s, unknown to the workers
/// (the seed never leaves the coordinator before the sweep is finished).
pub fn spot_checked(seed: u64, index: u32) -> bool {
    let mut h = Sha256::new();
    h.update(b"gamesweep-spot-check");
    h.update(seed.to_le_bytes());
    h.update(index.to_le_bytes());
    let d = h.finalize();
    let x = u64::from_le_bytes(d[..8].try_into().expect("8 bytes"));
    x % PPM < u64::from(SPOT_PPM)
}

/// SHA-256 of `bytes`, in lowercase hex.
pub fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What a verification run records as its digest: the SHA-256 of its
/// encoded result (`bytes`), followed, for a run that returned a position
/// digest under its lease's salt, by `+` and that digest (16 hex digits).
/// Only the verification records (the store's `verify` tree) hold it:
/// never an export, a snapshot, status or provenance.
pub(crate) fn run_digest(bytes: &[u8], positions: Option<u64>) -> String {
    let mut d = digest(bytes);
    if let Some(p) = positions {
        d.push_str(&format!("+{p:016x}"));
    }
    d
}

/// The result part of a run's digest (the SHA-256 of its result).
pub(crate) fn result_part(d: &str) -> &str {
    d.split_once('+').map_or(d, |(r, _)| r)
}

/// Does a run's digest carry a position digest?
pub(crate) fn has_positions(d: &str) -> bool {
    d.contains('+')
}

/// Do the runs of `rec` disagree? Two results differ, or two runs that
/// both carry a position digest differ in it (a run recorded from the
/// stored result, without one, differs from the others only in its
/// result).
pub(crate) fn mismatched(rec: &ReplicationRecord) -> bool {
    rec.runs.iter().enumerate().any(|(i, a)| {
        rec.runs[..i].iter().any(|b| {
            result_part(&a.digest) != result_part(&b.digest)
                || (has_positions(&a.digest) && has_positions(&b.digest) && a.digest != b.digest)
        })
    })
}

/// Quarantine state shared by every sweep (in the core's [`State`]).
#[derive(Debug, Default)]
pub(crate) struct Quarantine {
    /// Quarantine workers caught disagreeing (`serve --quarantine-on-mismatch`).
    pub(crate) on_mismatch: bool,
    /// Quarantined workers by id.
    pub(crate) workers: BTreeMap<String, QuarantineRecord>,
}

/// What status counts over the verification records, kept by [`Records`]
/// on every change of a record (so status and leasing walk none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RecordTally {
    /// Records still open (waiting for a run).
    pub(crate) open: BTreeSet<u32>,
    /// Records of quarantine rechecks.
    pub(crate) rechecks: u32,
    /// Verified.
    pub(crate) verified: u32,
    /// With runs that disagree.
    pub(crate) mismatched: u32,
    /// Decided by a majority that replaced the accepted result.
    pub(crate) replaced: u32,
    /// Skipped for want of another worker.
    pub(crate) unverifiable: u32,
    /// Workers out-voted, with the number of records naming them.
    pub(crate) disagreeing: BTreeMap<String, u32>,
}

impl RecordTally {
    /// Count record `i` in (`by` = 1) or out (`by` = -1).
    fn count(&mut self, i: u32, r: &ReplicationRecord, by: i8) {
        let add = |n: &mut u32, yes: bool| {
            if yes {
                *n = if by > 0 {
                    n.saturating_add(1)
                } else {
                    n.saturating_sub(1)
                };
            }
        };
        if r.open() {
            if by > 0 {
                self.open.insert(i);
            } else {
                self.open.remove(&i);
            }
        }
        add(&mut self.rechecks, r.purpose == ReplicationPurpose::Recheck);
        add(&mut self.verified, r.verdict == Verdict::Verified);
        add(&mut self.mismatched, mismatched(r));
        add(
            &mut self.replaced,
            matches!(r.verdict, Verdict::Majority { replaced: true, .. }),
        );
        add(&mut self.unverifiable, r.verdict == Verdict::Unverifiable);
        if let Verdict::Majority { disagreeing, .. } = &r.verdict {
            for w in disagreeing {
                let n = self.disagreeing.entry(w.clone()).or_insert(0);
                add(n, true);
                if *n == 0 {
                    self.disagreeing.remove(w);
                }
            }
        }
    }
}

/// The verification records of a sweep, by shard, with their
/// [`RecordTally`]: every change goes through [`Records::insert`] or the
/// guard [`Records::get_mut`] returns, which counts the record out and, when
/// dropped, in again.
#[derive(Debug, Default)]
pub(crate) struct Records {
    map: BTreeMap<u32, ReplicationRecord>,
    tally: RecordTally,
}

/// A record being changed (see [`Records::get_mut`]).
pub(crate) struct RecordMut<'a> {
    index: u32,
    rec: &'a mut ReplicationRecord,
    tally: &'a mut RecordTally,
}

impl std::ops::Deref for RecordMut<'_> {
    type Target = ReplicationRecord;
    fn deref(&self) -> &ReplicationRecord {
        self.rec
    }
}

impl std::ops::DerefMut for RecordMut<'_> {
    fn deref_mut(&mut self) -> &mut ReplicationRecord {
        self.rec
    }
}

impl Drop for RecordMut<'_> {
    fn drop(&mut self) {
        self.tally.count(self.index, self.rec, 1);
    }
}

impl Records {
    /// From stored records.
    pub(crate) fn from_map(map: BTreeMap<u32, ReplicationRecord>) -> Self {
        let mut r = Records {
            map,
            tally: RecordTally::default(),
        };
        r.tally = r.scan();
        r
    }
    /// The [`RecordTally`] by a walk over the records (what the kept one
    /// must equal).
    pub(crate) fn scan(&self) -> RecordTally {
        let mut t = RecordTally::default();
        for (&i, r) in &self.map {
            t.count(i, r, 1);
        }
        t
    }
    /// The kept counts.
    pub(crate) fn tally(&self) -> &RecordTally {
        &self.tally
    }
    /// Set record `i`.
    pub(crate) fn insert(&mut self, i: u32, rec: ReplicationRecord) {
        if let Some(old) = self.map.get(&i) {
            self.tally.count(i, old, -1);
        }
        self.tally.count(i, &rec, 1);
        self.map.insert(i, rec);
    }
    /// Record `i`, to change (counted again when the guard is dropped).
    pub(crate) fn get_mut(&mut self, i: &u32) -> Option<RecordMut<'_>> {
        let Records { map, tally } = self;
        map.get_mut(i).map(|rec| {
            tally.count(*i, rec, -1);
            RecordMut {
                index: *i,
                rec,
                tally,
            }
        })
    }
    /// Change every record with `f`.
    pub(crate) fn for_each_mut(&mut self, mut f: impl FnMut(&mut ReplicationRecord)) {
        let keys: Vec<u32> = self.map.keys().copied().collect();
        for i in keys {
            if let Some(mut r) = self.get_mut(&i) {
                f(&mut r);
            }
        }
    }
    /// Record `i`.
    pub(crate) fn get(&self, i: &u32) -> Option<&ReplicationRecord> {
        self.map.get(i)
    }
    /// Is there a record for `i`.
    pub(crate) fn contains_key(&self, i: &u32) -> bool {
        self.map.contains_key(i)
    }
    /// Every record, by shard.
    pub(crate) fn iter(&self) -> std::collections::btree_map::Iter<'_, u32, ReplicationRecord> {
        self.map.iter()
    }
    /// Every record.
    pub(crate) fn values(&self) -> std::collections::btree_map::Values<'_, u32, ReplicationRecord> {
        self.map.values()
    }
    /// No record.
    pub(crate) fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

impl<'a> IntoIterator for &'a Records {
    type Item = (&'a u32, &'a ReplicationRecord);
    type IntoIter = std::collections::btree_map::Iter<'a, u32, ReplicationRecord>;
    fn into_iter(self) -> Self::IntoIter {
        self.map.iter()
    }
}

/// One sweep's verification state in memory.
#[derive(Debug, Default)]
pub(crate) struct Replication {
    /// Share selected, millionths.
    pub(crate) ppm: u32,
    /// Selection key.
    pub(crate) seed: u64,
    /// Shards selected by the sample.
    pub(crate) selected: BTreeSet<u32>,
    /// Records, by shard, with their counts.
    pub(crate) records: Records,
    /// The worker each accepted result came from.
    pub(crate) origins: BTreeMap<u32, String>,
}

impl Replication {
    /// The verification of a new sweep of `shards` shards.
    pub(crate) fn new(record: &SweepRecord, shards: usize) -> Self {
        Replication {
            ppm: record.verify_ppm,
            seed: record.verify_seed,
            selected: (0..shards as u32)
                .filter(|&i| selected(record.verify_seed, i, record.verify_ppm))
                .collect(),
            ..Self::default()
        }
    }

    /// A stored sweep's verification: `records` and `origins` as stored,
    /// `unrecorded` the (shard, digest) of selected done shards without a
    /// record (written just before a crash). Attempt numbers continue after
    /// every run and copy lease.
    pub(crate) fn restore(
        record: &SweepRecord,
        shards: usize,
        records: BTreeMap<u32, ReplicationRecord>,
        origins: BTreeMap<u32, String>,
        unrecorded: Vec<(u32, String)>,
        attempts: &mut BTreeMap<u32, u32>,
    ) -> Self {
        let mut v = Self::new(record, shards);
        v.records = Records::from_map(records);
        for (i, digest) in unrecorded {
            let worker = origins.get(&i).cloned().unwrap_or_default();
            // Its wait starts at the first tick (core/replication.rs).
            v.records.insert(i, first_run(worker, 0, digest, None));
        }
        for (&i, r) in &v.records {
            let top = r
                .runs
                .iter()
                .map(|x| x.attempt)
                .chain(r.lease.iter().map(|l| l.attempt))
                .max()
                .unwrap_or(0);
            let a = attempts.entry(i).or_insert(0);
            *a = (*a).max(top);
        }
        v.origins = origins;
        v
    }

    /// The (shard, digest) of selected done shards without a record, from
    /// the stored results (see [`Replication::restore`]).
    pub(crate) fn unrecorded(
        record: &SweepRecord,
        records: &BTreeMap<u32, ReplicationRecord>,
        results: &BTreeMap<u32, Vec<u8>>,
    ) -> Vec<(u32, String)> {
        results
            .iter()
            .filter(|(i, _)| {
                !records.contains_key(i) && selected(record.verify_seed, **i, record.verify_ppm)
            })
            .map(|(i, b)| (*i, digest(b)))
            .collect()
    }

    /// A record is open: the sweep is not finished.
    pub(crate) fn pending(&self) -> bool {
        !self.records.tally().open.is_empty()
    }

    /// What status shows (`None` for a sweep without verification).
    pub(crate) fn status(&self) -> Option<ReplicationStatus> {
        if self.ppm == 0 && self.records.is_empty() {
            return None;
        }
        let t = self.records.tally();
        Some(ReplicationStatus {
            ppm: self.ppm,
            seed: self.seed,
            selected: self.selected.len() as u32,
            rechecks: t.rechecks,
            pending: t.open.len() as u32,
            verified: t.verified,
            mismatched: t.mismatched,
            replaced: t.replaced,
            unverifiable: t.unverifiable,
            disagreeing_workers: self.disagreeing().into_iter().collect(),
            // Set by status, which knows the workers (core/replication.rs).
            waiting: None,
        })
    }

    /// Workers out-voted on some shard.
    pub(crate) fn disagreeing(&self) -> BTreeSet<String> {
        self.records.tally().disagreeing.keys().cloned().collect()
    }
}

/// A new open record whose first run is the accepted result's, waiting
/// since `since_ms` (Unix milliseconds).
pub(crate) fn first_run(
    worker: String,
    attempt: u32,
    digest: String,
    since_ms: Option<u64>,
) -> ReplicationRecord {
    ReplicationRecord {
        purpose: ReplicationPurpose::Sampled,
        runs: vec![ReplicationRun {
            worker,
            attempt,
            digest,
            result: None,
        }],
        lease: None,
        verdict: Verdict::Open,
        since_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// After each of many seeded random changes (new records, runs added,
    /// verdicts and purposes changed, leases set and cleared, through the
    /// guard or by replacing a record), the kept counts equal a walk.
    #[test]
    fn kept_counts_equal_a_walk_after_random_changes() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        let mut recs = Records::default();
        let workers = ["a", "b", "c"];
        let run = |w: &str, d: u8| ReplicationRun {
            worker: w.into(),
            attempt: 1,
            digest: format!("{d}"),
            result: None,
        };
        for step in 0..5_000 {
            let i = rng.random_range(0..40u32);
            let w = workers[rng.random_range(0..3)];
            let verdict = match rng.random_range(0..4) {
                0 => Verdict::Open,
                1 => Verdict::Verified,
                2 => Verdict::Majority {
                    disagreeing: vec![w.to_string()],
                    replaced: rng.random_bool(0.5),
                },
                _ => Verdict::Unverifiable,
            };
            match rng.random_range(0..4) {
                0 => recs.insert(
                    i,
                    ReplicationRecord {
                        purpose: if rng.random_bool(0.3) {
                            ReplicationPurpose::Recheck
                        } else {
                            ReplicationPurpose::Sampled
                        },
                        runs: vec![run(w, rng.random_range(0..2))],
                        lease: None,
                        verdict,
                        since_ms: None,
                    },
                ),
                1 => {
                    if let Some(mut r) = recs.get_mut(&i) {
                        r.runs.push(run(w, rng.random_range(0..2)));
                    }
                }
                2 => {
                    if let Some(mut r) = recs.get_mut(&i) {
                        r.verdict = verdict;
                        r.purpose = ReplicationPurpose::Recheck;
                    }
                }
                _ => recs.for_each_mut(|r| {
                    if r.runs.len() > 3 {
                        r.runs.truncate(1);
                    }
                }),
            }
            assert_eq!(*recs.tally(), recs.scan(), "step {step}");
        }
        let t = recs.tally();
        assert!(t.verified > 0 && t.mismatched > 0 && !t.open.is_empty());
        assert!(t.replaced > 0 && t.unverifiable > 0 && !t.disagreeing.is_empty());
    }
}
