//! The verification state of a sweep and the quarantined workers (what
//! `model` keeps per sweep and in the core's state); the transitions are
//! in [`super::verify`].

use crate::store::{
    QuarantineRecord, SweepRecord, Verdict, VerifyPurpose, VerifyRecord, VerifyRun,
};
use gamesweep_proto::domain::VerifyStatus;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

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

/// SHA-256 of `bytes`, in lowercase hex.
pub fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Quarantine state shared by every sweep (in the core's [`State`]).
#[derive(Debug, Default)]
pub(crate) struct Quarantine {
    /// Quarantine workers caught disagreeing (`serve --quarantine-on-mismatch`).
    pub(crate) on_mismatch: bool,
    /// Quarantined workers by id.
    pub(crate) workers: BTreeMap<String, QuarantineRecord>,
}

/// One sweep's verification state in memory.
#[derive(Debug, Default)]
pub(crate) struct Verification {
    /// Share selected, millionths.
    pub(crate) ppm: u32,
    /// Selection key.
    pub(crate) seed: u64,
    /// Shards selected by the sample.
    pub(crate) selected: BTreeSet<u32>,
    /// Records, by shard.
    pub(crate) records: BTreeMap<u32, VerifyRecord>,
    /// The worker each accepted result came from.
    pub(crate) origins: BTreeMap<u32, String>,
    /// When each open record last changed (in this process).
    pub(crate) since: HashMap<u32, Instant>,
}

impl Verification {
    /// The verification of a new sweep of `shards` shards.
    pub(crate) fn new(record: &SweepRecord, shards: usize) -> Self {
        Verification {
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
        records: BTreeMap<u32, VerifyRecord>,
        origins: BTreeMap<u32, String>,
        unrecorded: Vec<(u32, String)>,
        attempts: &mut BTreeMap<u32, u32>,
    ) -> Self {
        let mut v = Self::new(record, shards);
        v.records = records;
        for (i, digest) in unrecorded {
            let worker = origins.get(&i).cloned().unwrap_or_default();
            v.records.insert(i, first_run(worker, 0, digest));
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
    /// the stored results (see [`Verification::restore`]).
    pub(crate) fn unrecorded(
        record: &SweepRecord,
        records: &BTreeMap<u32, VerifyRecord>,
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
        self.records.values().any(VerifyRecord::open)
    }

    /// What status shows (`None` for a sweep without verification).
    pub(crate) fn status(&self) -> Option<VerifyStatus> {
        if self.ppm == 0 && self.records.is_empty() {
            return None;
        }
        let count = |f: &dyn Fn(&VerifyRecord) -> bool| {
            self.records.values().filter(|r| f(r)).count() as u32
        };
        Some(VerifyStatus {
            ppm: self.ppm,
            seed: self.seed,
            selected: self.selected.len() as u32,
            rechecks: count(&|r| r.purpose == VerifyPurpose::Recheck),
            pending: count(&|r| r.open()),
            verified: count(&|r| r.verdict == Verdict::Verified),
            mismatched: count(&|r| r.mismatched()),
            replaced: count(&|r| matches!(r.verdict, Verdict::Majority { replaced: true, .. })),
            unverifiable: count(&|r| r.verdict == Verdict::Unverifiable),
            disagreeing_workers: self.disagreeing().into_iter().collect(),
        })
    }

    /// Workers out-voted on some shard.
    pub(crate) fn disagreeing(&self) -> BTreeSet<String> {
        self.records
            .values()
            .filter_map(|r| match &r.verdict {
                Verdict::Majority { disagreeing, .. } => Some(disagreeing.iter().cloned()),
                _ => None,
            })
            .flatten()
            .collect()
    }
}

/// A new open record whose first run is the accepted result's.
pub(crate) fn first_run(worker: String, attempt: u32, digest: String) -> VerifyRecord {
    VerifyRecord {
        purpose: VerifyPurpose::Sampled,
        runs: vec![VerifyRun {
            worker,
            attempt,
            digest,
            result: None,
        }],
        lease: None,
        verdict: Verdict::Open,
    }
}
