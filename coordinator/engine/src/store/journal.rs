//! The journal of acknowledged work: an append-only file beside sled
//! (`STORE/journal`) that says what the coordinator promised to keep, so that
//! a start can prove nothing it acknowledged has vanished from sled.
//!
//! Records (sweep launched or changed, shard result acknowledged with the
//! SHA-256 of its stored bytes, result replaced, sweep deleted, shard given
//! up by `--accept-loss`) are buffered by the store as it writes and appended
//! and fsynced by [`super::Store::flush`] *after* sled's own flush: whatever a
//! submit's acknowledgement covers is in both, and a crash between the two
//! leaves sled ahead of the journal (harmless), never behind it.
//!
//! File: the 8-byte magic [`MAGIC`], then records, each `len: u32 LE`,
//! `crc32: u32 LE` (of the payload), `payload` (a tag byte and its body). A
//! record cut short by a crash mid-append (running past the end of the file,
//! or followed only by zeros) is a torn tail: dropped and truncated, not an
//! error. A bad record with intact data after it is damage.

use super::{StoreError, SweepRecord};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

/// The first bytes of a journal file.
pub const MAGIC: &[u8; 8] = b"gsjrnl01";

/// The journal's file name inside the store directory.
pub const FILE_NAME: &str = "journal";

const TAG_SWEEP: u8 = 1;
const TAG_DONE: u8 = 2;
const TAG_REPLACED: u8 = 3;
const TAG_DELETED: u8 = 4;
const TAG_LOST: u8 = 5;
const TAG_UPDATED: u8 = 6;

/// A sweep as journaled: its record (enough to re-plan it with
/// `kinds::find(kind).plan(params, target_shards)`) and its plan's size and
/// digest, which a re-plan must reproduce.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepEntry {
    /// The record as stored.
    pub record: SweepRecord,
    /// Shards in its plan.
    pub shards: u32,
    /// SHA-256 (hex) of the plan as stored (its JSON).
    pub plan_sha256: String,
}

/// One journal record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// A sweep launched, imported or re-created.
    Sweep(Box<SweepEntry>),
    /// A sweep's record changed (cancelled, paused, priority, sample widened).
    Updated(Box<SweepRecord>),
    /// Shard `index` of the sweep launched as `seq` has an acknowledged
    /// result whose stored bytes hash to `digest`.
    Done {
        /// The sweep's launch sequence number.
        seq: u64,
        /// The shard.
        index: u32,
        /// SHA-256 of the stored result bytes.
        digest: [u8; 32],
    },
    /// A verification majority replaced shard `index`'s result.
    Replaced {
        /// The sweep's launch sequence number.
        seq: u64,
        /// The shard.
        index: u32,
        /// SHA-256 of the new result bytes.
        digest: [u8; 32],
    },
    /// The sweep launched as `seq` was deleted (`run --fresh`, a failed import).
    Deleted {
        /// The sweep's launch sequence number.
        seq: u64,
    },
    /// Shard `index`'s result was lost and given up (`--accept-loss`): it runs again.
    Lost {
        /// The sweep's launch sequence number.
        seq: u64,
        /// The shard.
        index: u32,
    },
}

impl Record {
    /// The record framed for the file: length, CRC32, payload.
    pub fn frame(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(48);
        match self {
            Record::Sweep(e) => {
                p.push(TAG_SWEEP);
                p.extend(serde_json::to_vec(e).expect("sweep entries serialize"));
            }
            Record::Updated(r) => {
                p.push(TAG_UPDATED);
                p.extend(serde_json::to_vec(r).expect("sweep records serialize"));
            }
            Record::Done { seq, index, digest } | Record::Replaced { seq, index, digest } => {
                p.push(if matches!(self, Record::Done { .. }) {
                    TAG_DONE
                } else {
                    TAG_REPLACED
                });
                p.extend(seq.to_le_bytes());
                p.extend(index.to_le_bytes());
                p.extend(digest);
            }
            Record::Deleted { seq } => {
                p.push(TAG_DELETED);
                p.extend(seq.to_le_bytes());
            }
            Record::Lost { seq, index } => {
                p.push(TAG_LOST);
                p.extend(seq.to_le_bytes());
                p.extend(index.to_le_bytes());
            }
        }
        let mut f = Vec::with_capacity(p.len() + 8);
        f.extend((p.len() as u32).to_le_bytes());
        f.extend(crc32fast::hash(&p).to_le_bytes());
        f.extend(p);
        f
    }

    fn parse(p: &[u8]) -> Option<Record> {
        let (&tag, body) = p.split_first()?;
        let seq = |b: &[u8]| Some(u64::from_le_bytes(b.get(..8)?.try_into().ok()?));
        let index = |b: &[u8]| Some(u32::from_le_bytes(b.get(8..12)?.try_into().ok()?));
        let digest = |b: &[u8]| -> Option<[u8; 32]> { b.get(12..44)?.try_into().ok() };
        match (tag, body.len()) {
            (TAG_SWEEP, _) => serde_json::from_slice(body)
                .ok()
                .map(|e| Record::Sweep(Box::new(e))),
            (TAG_UPDATED, _) => serde_json::from_slice(body)
                .ok()
                .map(|r| Record::Updated(Box::new(r))),
            (TAG_DONE, 44) => Some(Record::Done {
                seq: seq(body)?,
                index: index(body)?,
                digest: digest(body)?,
            }),
            (TAG_REPLACED, 44) => Some(Record::Replaced {
                seq: seq(body)?,
                index: index(body)?,
                digest: digest(body)?,
            }),
            (TAG_DELETED, 8) => Some(Record::Deleted { seq: seq(body)? }),
            (TAG_LOST, 12) => Some(Record::Lost {
                seq: seq(body)?,
                index: index(body)?,
            }),
            _ => None,
        }
    }
}

/// SHA-256 of `bytes`.
pub fn digest(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes).into()
}

/// SHA-256 (hex) of `bytes`.
pub fn digest_hex(bytes: &[u8]) -> String {
    digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// A journaled sweep, replayed: its latest record and its acknowledged shards.
#[derive(Clone, Debug)]
pub struct JournaledSweep {
    /// The latest journaled record and plan digest.
    pub entry: SweepEntry,
    /// Acknowledged shards: the digest of each one's stored result.
    pub done: BTreeMap<u32, [u8; 32]>,
}

/// The journal replayed: what the store must hold.
#[derive(Clone, Debug, Default)]
pub struct Journal {
    /// Live sweeps by launch sequence number.
    pub sweeps: BTreeMap<u64, JournaledSweep>,
    /// Sequence numbers of deleted sweeps.
    pub deleted: BTreeSet<u64>,
    /// The highest sequence number seen (the store numbers launches above it).
    pub max_seq: u64,
    /// Records read.
    pub records: u64,
    /// Bytes of a torn last record dropped.
    pub torn_bytes: u64,
    /// Records that named a sweep the journal never launched (ignored).
    pub orphans: u64,
}

impl Journal {
    /// Apply one record.
    pub fn apply(&mut self, r: Record) {
        self.records += 1;
        match r {
            Record::Sweep(e) => {
                let seq = e.record.seq;
                self.max_seq = self.max_seq.max(seq);
                self.deleted.remove(&seq);
                match self.sweeps.get_mut(&seq) {
                    Some(s) => s.entry = *e,
                    None => {
                        self.sweeps.insert(
                            seq,
                            JournaledSweep {
                                entry: *e,
                                done: BTreeMap::new(),
                            },
                        );
                    }
                }
            }
            Record::Updated(r) => match self.sweeps.get_mut(&r.seq) {
                Some(s) => s.entry.record = *r,
                None => self.orphans += 1,
            },
            Record::Done { seq, index, digest } | Record::Replaced { seq, index, digest } => {
                match self.sweeps.get_mut(&seq) {
                    Some(s) => {
                        s.done.insert(index, digest);
                    }
                    None => self.orphans += 1,
                }
            }
            Record::Deleted { seq } => {
                self.max_seq = self.max_seq.max(seq);
                self.sweeps.remove(&seq);
                self.deleted.insert(seq);
            }
            Record::Lost { seq, index } => {
                if let Some(s) = self.sweeps.get_mut(&seq) {
                    s.done.remove(&index);
                }
            }
        }
    }

    /// Acknowledged shard results in all live sweeps.
    pub fn done_count(&self) -> usize {
        self.sweeps.values().map(|s| s.done.len()).sum()
    }

    /// Records that replay to this journal's sweeps and shards (a compacted journal).
    pub fn to_records(&self) -> Vec<Record> {
        let mut out = Vec::new();
        for (&seq, s) in &self.sweeps {
            out.push(Record::Sweep(Box::new(s.entry.clone())));
            for (&index, &digest) in &s.done {
                out.push(Record::Done { seq, index, digest });
            }
        }
        out
    }

    /// The live sweep named `id`, if the journal has one.
    pub fn by_id(&self, id: &str) -> Option<&JournaledSweep> {
        self.sweeps.values().find(|s| s.entry.record.id == id)
    }
}

/// What reading a journal file found.
#[derive(Debug)]
pub struct Read {
    /// The replayed journal.
    pub journal: Journal,
    /// Length of the valid prefix (the file is truncated to it on open).
    pub valid_len: u64,
    /// Damage in the middle of the file (a bad record with data after it):
    /// its offset and what was wrong. The records before it are in `journal`.
    pub damage: Option<(u64, String)>,
}

/// A shard's record in journal order: its digest (`Done`, `Replaced`) or
/// `None` (`Lost`).
type ShardRecord = (u32, Option<[u8; 32]>);

/// Replay the journal bytes `data`.
pub fn replay(data: &[u8]) -> Read {
    let mut journal = Journal::default();
    // A million shards' records inserted one by one into ordered maps took
    // most of a start's journal time: each live sweep's shard records are
    // kept in order instead, and each map built at the end from its last
    // record per shard (same result as [`Journal::apply`] on each record).
    let mut shards: HashMap<u64, Vec<ShardRecord>> = HashMap::new();
    let walked = walk(data, |r| match r {
        Record::Done { seq, index, digest } | Record::Replaced { seq, index, digest }
            if journal.sweeps.contains_key(&seq) =>
        {
            journal.records += 1;
            shards.entry(seq).or_default().push((index, Some(digest)));
        }
        Record::Lost { seq, index } if journal.sweeps.contains_key(&seq) => {
            journal.records += 1;
            shards.entry(seq).or_default().push((index, None));
        }
        Record::Deleted { seq } => {
            shards.remove(&seq);
            journal.apply(r);
        }
        r => journal.apply(r),
    });
    for (seq, mut records) in shards {
        let Some(s) = journal.sweeps.get_mut(&seq) else {
            continue;
        };
        // Stable: a shard's records stay in journal order.
        records.sort_by_key(|&(index, _)| index);
        let mut last: Vec<(u32, [u8; 32])> = Vec::with_capacity(records.len());
        for (k, &(index, digest)) in records.iter().enumerate() {
            let superseded = records.get(k + 1).is_some_and(|&(next, _)| next == index);
            if let (false, Some(d)) = (superseded, digest) {
                last.push((index, d));
            }
        }
        // Sorted and distinct: built in one pass.
        s.done = last.into_iter().collect();
    }
    journal.torn_bytes = walked.torn_bytes;
    Read {
        journal,
        valid_len: walked.valid_len,
        damage: walked.damage,
    }
}

/// The highest launch sequence number the journal bytes `data` name, and
/// what [`replay`] would say of their framing, without building the sweeps'
/// maps: a reopen in the same process ([`JournalFile::reopen`]) needs no more.
pub fn max_seq(data: &[u8]) -> Read {
    let mut journal = Journal::default();
    let walked = walk(data, |r| {
        journal.records += 1;
        match r {
            Record::Sweep(e) => journal.max_seq = journal.max_seq.max(e.record.seq),
            Record::Deleted { seq } => journal.max_seq = journal.max_seq.max(seq),
            _ => {}
        }
    });
    journal.torn_bytes = walked.torn_bytes;
    Read {
        journal,
        valid_len: walked.valid_len,
        damage: walked.damage,
    }
}

/// What [`walk`] found of a journal's framing.
struct Walked {
    valid_len: u64,
    torn_bytes: u64,
    damage: Option<(u64, String)>,
}

/// Every whole, intact record of the journal bytes `data`, in order, to
/// `visit`; stops at a torn tail or at damage (see the module docs).
fn walk(data: &[u8], mut visit: impl FnMut(Record)) -> Walked {
    if data.is_empty() {
        return Walked {
            valid_len: 0,
            torn_bytes: 0,
            damage: None,
        };
    }
    if data.len() < MAGIC.len() || &data[..MAGIC.len()] != MAGIC {
        // A header cut by a crash while the file was created is a torn tail.
        let torn = data.len() < MAGIC.len() && MAGIC.starts_with(data);
        return Walked {
            valid_len: 0,
            torn_bytes: data.len() as u64,
            damage: (!torn).then(|| (0, "not a gamesweep journal (bad magic)".to_string())),
        };
    }
    let mut at = MAGIC.len();
    loop {
        let rest = &data[at..];
        if rest.is_empty() {
            break;
        }
        let bad = |why: &str| -> Option<String> {
            // Torn: the record runs past the end, or only zeros follow.
            if rest.iter().all(|&b| b == 0) {
                None
            } else {
                Some(why.to_string())
            }
        };
        let problem = if rest.len() < 8 {
            None // a header cut short: torn
        } else {
            let len = u32::from_le_bytes(rest[..4].try_into().expect("4 bytes")) as usize;
            let crc = u32::from_le_bytes(rest[4..8].try_into().expect("4 bytes"));
            if len == 0 {
                bad("empty record")
            } else if rest.len() < 8 + len {
                // Runs past the end of the file: a torn append.
                None
            } else {
                let payload = &rest[8..8 + len];
                if crc32fast::hash(payload) != crc {
                    if rest.len() == 8 + len {
                        None // the last record, half written
                    } else {
                        bad("checksum mismatch")
                    }
                } else {
                    match Record::parse(payload) {
                        Some(r) => {
                            visit(r);
                            at += 8 + len;
                            continue;
                        }
                        None => bad("unreadable record"),
                    }
                }
            }
        };
        return Walked {
            valid_len: at as u64,
            torn_bytes: rest.len() as u64,
            damage: problem.map(|p| (at as u64, p)),
        };
    }
    Walked {
        valid_len: at as u64,
        torn_bytes: 0,
        damage: None,
    }
}

/// The journal file, open for appending.
#[derive(Debug)]
pub struct JournalFile {
    /// Its path.
    path: PathBuf,
    /// Open for appending.
    file: std::fs::File,
    /// Bytes of whole records (and the magic) in the file: a failed append
    /// is cut back to it, so a half-written record never has records after it.
    len: u64,
}

impl JournalFile {
    /// Open the journal in `dir`, creating it (with its magic, fsynced)
    /// if missing, and truncating a torn tail. Returns the file and what it held.
    pub fn open(dir: &Path) -> Result<(JournalFile, Read), StoreError> {
        Self::open_reading(dir, replay)
    }

    /// [`JournalFile::open`] for a store reopened in the process that wrote
    /// its journal (`ResilientStore`'s reopen to bound recovery): the
    /// records are walked for their framing and highest sequence number but
    /// not replayed into maps (the returned [`Read`] has only `max_seq`,
    /// `records` and the framing).
    pub fn reopen(dir: &Path) -> Result<(JournalFile, Read), StoreError> {
        Self::open_reading(dir, max_seq)
    }

    fn open_reading(
        dir: &Path,
        read_with: fn(&[u8]) -> Read,
    ) -> Result<(JournalFile, Read), StoreError> {
        let path = dir.join(FILE_NAME);
        let io = |what: &str, e: std::io::Error| {
            StoreError::Corrupt(format!("journal {}: {what}: {e}", path.display()))
        };
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(|e| io("cannot open", e))?;
        let mut data = Vec::new();
        file.read_to_end(&mut data)
            .map_err(|e| io("cannot read", e))?;
        let read = read_with(&data);
        if read.damage.is_none() && read.valid_len < data.len() as u64 {
            // A torn last record (crash mid-append): cut it off.
            file.set_len(read.valid_len)
                .map_err(|e| io("cannot truncate a torn record", e))?;
            tracing::warn!(
                journal = %path.display(),
                bytes = data.len() as u64 - read.valid_len,
                "journal: torn last record truncated (a crash during an append)"
            );
        }
        let mut len = read.valid_len;
        if read.damage.is_none() && read.valid_len == 0 {
            file.write_all(MAGIC).map_err(|e| io("cannot write", e))?;
            file.sync_all().map_err(|e| io("cannot sync", e))?;
            sync_dir(dir);
            len = MAGIC.len() as u64;
        } else if read.damage.is_some() {
            len = data.len() as u64;
        }
        Ok((JournalFile { path, file, len }, read))
    }

    /// Append `bytes` (framed records) and fsync.
    pub fn append(&mut self, bytes: &[u8]) -> Result<(), StoreError> {
        if bytes.is_empty() {
            return Ok(());
        }
        let io = |e: std::io::Error| {
            StoreError::Db(sled::Error::Io(std::io::Error::new(
                e.kind(),
                format!("journal {}: {e}", self.path.display()),
            )))
        };
        let written = self
            .file
            .write_all(bytes)
            .and_then(|()| self.file.sync_data());
        if let Err(e) = written {
            // A disk that filled up mid-record: cut the partial record off,
            // so the next append follows whole records (best effort; a torn
            // tail left behind is dropped at the next open anyway).
            let _ = self.file.set_len(self.len);
            return Err(io(e));
        }
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// Replace the journal with one holding `records` (written to a
    /// temporary file, fsynced, renamed over it).
    pub fn rewrite(&mut self, dir: &Path, records: &[Record]) -> Result<(), StoreError> {
        *self = write_new(dir, records)?;
        Ok(())
    }
}

/// Write a new journal holding `records` in `dir` atomically; returns it open.
pub fn write_new(dir: &Path, records: &[Record]) -> Result<JournalFile, StoreError> {
    let path = dir.join(FILE_NAME);
    let tmp = dir.join(format!("{FILE_NAME}.tmp"));
    let io = |e: std::io::Error| {
        StoreError::Corrupt(format!("journal {}: cannot write: {e}", path.display()))
    };
    let mut bytes = MAGIC.to_vec();
    for r in records {
        bytes.extend(r.frame());
    }
    {
        let mut f = std::fs::File::create(&tmp).map_err(io)?;
        f.write_all(&bytes).map_err(io)?;
        f.sync_all().map_err(io)?;
    }
    std::fs::rename(&tmp, &path).map_err(io)?;
    sync_dir(dir);
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .map_err(io)?;
    Ok(JournalFile {
        path,
        file,
        len: bytes.len() as u64,
    })
}

/// Make a rename or creation in `dir` durable (best effort: not every
/// file system lets a directory be fsynced).
fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SweepState;

    fn entry(id: &str, seq: u64) -> Record {
        Record::Sweep(Box::new(SweepEntry {
            record: SweepRecord {
                replicate_all: false,
                id: id.into(),
                kind: "uvg".into(),
                params: [("max_n".to_string(), 3)].into(),
                solver_version: "v".into(),
                target_shards: 0,
                seq,
                state: SweepState::Running,
                sample: None,
                verify_ppm: 0,
                verify_seed: 0,
                paused: false,
                priority: 1,
                part: None,
                earlier_solvers: Vec::new(),
            },
            shards: 4,
            plan_sha256: "00".into(),
        }))
    }

    fn bytes(records: &[Record]) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        for r in records {
            b.extend(r.frame());
        }
        b
    }

    #[test]
    fn a_replay_is_each_record_applied_in_order() {
        use rand::{Rng, SeedableRng};
        for seed in 0..200u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let recs: Vec<Record> = (0..rng.random_range(0..60))
                .map(|_| {
                    let seq = rng.random_range(1..4u64);
                    let index = rng.random_range(0..6u32);
                    let digest = [rng.random_range(0..3u8); 32];
                    match rng.random_range(0..10) {
                        0 => entry(&format!("s{seq}"), seq),
                        1 => Record::Deleted { seq },
                        2 => Record::Lost { seq, index },
                        3 => Record::Replaced { seq, index, digest },
                        _ => Record::Done { seq, index, digest },
                    }
                })
                .collect();
            let mut one_by_one = Journal::default();
            for r in recs.iter().cloned() {
                one_by_one.apply(r);
            }
            let read = replay(&bytes(&recs));
            let show = |j: &Journal| {
                let sweeps: Vec<_> = j.sweeps.iter().map(|(k, s)| (k, &s.done)).collect();
                format!(
                    "{sweeps:?} {:?} {} {} {}",
                    j.deleted, j.max_seq, j.records, j.orphans
                )
            };
            assert_eq!(show(&read.journal), show(&one_by_one), "seed {seed}");
        }
    }

    #[test]
    fn the_walk_for_a_reopen_finds_what_a_replay_finds_of_sequence_numbers_and_framing() {
        let recs = vec![
            entry("a", 3),
            Record::Done {
                seq: 3,
                index: 1,
                digest: [7; 32],
            },
            entry("b", 9),
            Record::Deleted { seq: 12 },
            Record::Lost { seq: 3, index: 1 },
        ];
        let whole = bytes(&recs);
        let mut torn = whole.clone();
        torn.truncate(whole.len() - 3);
        let mut damaged = whole.clone();
        let at = MAGIC.len() + 9;
        damaged[at] ^= 0x40;
        for data in [whole, torn, damaged, Vec::new(), b"gsj".to_vec()] {
            let (full, walked) = (replay(&data), max_seq(&data));
            assert_eq!(walked.journal.max_seq, full.journal.max_seq);
            assert_eq!(walked.journal.records, full.journal.records);
            assert_eq!(walked.journal.torn_bytes, full.journal.torn_bytes);
            assert_eq!(
                (walked.valid_len, walked.damage),
                (full.valid_len, full.damage)
            );
            assert!(
                walked.journal.sweeps.is_empty(),
                "nothing replayed into maps"
            );
        }
        assert_eq!(max_seq(&bytes(&recs)).journal.max_seq, 12);
    }

    #[test]
    fn records_round_trip_and_replay_in_order() {
        let recs = vec![
            entry("a", 3),
            Record::Done {
                seq: 3,
                index: 1,
                digest: [7; 32],
            },
            Record::Done {
                seq: 3,
                index: 2,
                digest: [8; 32],
            },
            Record::Replaced {
                seq: 3,
                index: 2,
                digest: [9; 32],
            },
            Record::Lost { seq: 3, index: 1 },
            entry("b", 5),
            Record::Deleted { seq: 5 },
            Record::Done {
                seq: 77,
                index: 0,
                digest: [0; 32],
            },
        ];
        let read = replay(&bytes(&recs));
        assert!(read.damage.is_none());
        let j = read.journal;
        assert_eq!((j.records, j.max_seq, j.orphans), (8, 5, 1));
        assert_eq!(j.sweeps.len(), 1);
        assert_eq!(j.sweeps[&3].done.len(), 1);
        assert_eq!(j.sweeps[&3].done[&2], [9; 32]);
        assert!(j.deleted.contains(&5));
    }

    #[test]
    fn a_torn_tail_is_dropped_and_damage_in_the_middle_is_reported() {
        let recs = vec![
            entry("a", 1),
            Record::Done {
                seq: 1,
                index: 0,
                digest: [1; 32],
            },
        ];
        let full = bytes(&recs);
        // Every cut inside the last record is a torn tail, not damage.
        let last = full.len() - recs[1].frame().len();
        for cut in last..full.len() {
            let read = replay(&full[..cut]);
            assert!(read.damage.is_none(), "cut at {cut}");
            assert_eq!(read.valid_len, last as u64);
            assert_eq!(read.journal.done_count(), 0);
        }
        // Zeros after the last record (a file extended by a crash).
        let mut zeros = full.clone();
        zeros.extend([0u8; 100]);
        let read = replay(&zeros);
        assert!(read.damage.is_none());
        assert_eq!(read.journal.done_count(), 1);
        // A flipped bit in the first record, with the second intact after it.
        let mut flipped = full.clone();
        flipped[MAGIC.len() + 20] ^= 4;
        let read = replay(&flipped);
        let (at, why) = read.damage.expect("damage");
        assert_eq!(at, MAGIC.len() as u64);
        assert!(why.contains("checksum"), "{why}");
    }

    #[test]
    fn the_file_is_created_truncated_when_torn_and_appended_durably() {
        let dir = tempfile::tempdir().unwrap();
        {
            let (mut f, read) = JournalFile::open(dir.path()).unwrap();
            assert_eq!(read.journal.records, 0);
            f.append(&entry("a", 1).frame()).unwrap();
            let done = Record::Done {
                seq: 1,
                index: 0,
                digest: [1; 32],
            }
            .frame();
            f.append(&done[..done.len() - 3]).unwrap(); // torn
        }
        let (_, read) = JournalFile::open(dir.path()).unwrap();
        assert_eq!(read.journal.records, 1);
        let len = std::fs::metadata(dir.path().join(FILE_NAME)).unwrap().len();
        assert_eq!(len, read.valid_len, "torn tail truncated");
    }
}
