//! A sweep's checkpoint: its merged result as of a moment, with the set of
//! done shards that result covers, so that a start merges only the results
//! accepted after it (`core/recovery.rs`) instead of decoding every stored
//! result again.
//!
//! Soundness. A checkpoint is written by the core from its memory, after a
//! store flush that made every result it covers durable in sled and the
//! journal (`Core::checkpoint`); the merge is associative and commutative,
//! so the checkpoint's merged result merged with the results stored for the
//! shards it does not cover is the merge of every stored result. It carries
//! [`SetDigest`] of the (shard, SHA-256 of the stored bytes) pairs it
//! covers; a start recomputes that digest from the journal's `Done` and
//! `Replaced` records and uses the checkpoint only if the two agree (and
//! the journal has every covered shard): then the checkpoint covers exactly
//! the acknowledged bytes the journal names, and a replaced, lost or
//! re-run shard cannot hide in it. Anything else (a damaged or stale
//! checkpoint) falls back to reading every result, as before checkpoints.
//! The covered results stay stored: `gamesweep store check` recomputes the
//! digest from them, and export and verification read them.

use serde::{Deserialize, Serialize};

/// A sweep's merged result as of a moment (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The sweep's launch sequence number (a checkpoint of an earlier sweep
    /// of the same id is never used).
    pub seq: u64,
    /// The done shards it covers, as sorted, disjoint `[start, end)` runs.
    pub covered: Vec<(u32, u32)>,
    /// The merge of the covered shards' results, encoded by the kind.
    pub merged: Vec<u8>,
    /// Each covered shard's positions (`work`), in index order.
    pub work: Vec<u64>,
    /// [`SetDigest`] of the covered (shard, result SHA-256) pairs, hex.
    pub digest: String,
    /// Positions of the covered shards by the worker whose result was
    /// accepted (from their timings), so a start need not read them.
    #[serde(default)]
    pub worker_work: std::collections::BTreeMap<String, u64>,
}

impl Checkpoint {
    /// Covered shards, in index order.
    pub fn shards(&self) -> impl Iterator<Item = u32> + '_ {
        self.covered.iter().flat_map(|&(a, b)| a..b)
    }

    /// Shards covered.
    pub fn count(&self) -> u64 {
        self.covered.iter().map(|&(a, b)| u64::from(b - a)).sum()
    }

    /// Whether shard `i` is covered (binary search over the runs).
    pub fn covers(&self, i: u32) -> bool {
        let at = self.covered.partition_point(|&(_, end)| end <= i);
        self.covered.get(at).is_some_and(|&(a, _)| a <= i)
    }

    /// The runs are sorted, disjoint, non-empty, within a plan of `shards`
    /// shards, and there is one `work` per covered shard.
    pub fn well_formed(&self, shards: usize) -> bool {
        let mut last = 0u32;
        for (k, &(a, b)) in self.covered.iter().enumerate() {
            if a >= b || (k > 0 && a <= last) || b as usize > shards {
                return false;
            }
            last = b;
        }
        self.count() == self.work.len() as u64
    }
}

/// Runs `[start, end)` of the indices `i` for which `done(i)`, in `0..n`.
pub fn runs(n: u32, done: impl Fn(u32) -> bool) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut start = None;
    for i in 0..n {
        match (done(i), start) {
            (true, None) => start = Some(i),
            (false, Some(a)) => {
                out.push((a, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(a) = start {
        out.push((a, n));
    }
    out
}

/// An order-independent digest of a set of (shard, result SHA-256) pairs:
/// the sum, modulo 2²⁵⁶ (four 64-bit lanes, each wrapping), of SHA-256 over
/// each pair. Unlike a hash over the sorted pairs it is kept up to date as
/// results are accepted (one addition), and recomputed from the journal on
/// all cores. It guards against damage and stale state, not against an
/// adversary who can write the store (who could change the journal too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetDigest([u64; 4]);

impl SetDigest {
    /// The digest of one pair.
    pub fn of(index: u32, result_sha256: &[u8; 32]) -> SetDigest {
        use sha2::Digest as _;
        let mut h = sha2::Sha256::new();
        h.update(index.to_be_bytes());
        h.update(result_sha256);
        let d: [u8; 32] = h.finalize().into();
        let lane = |k: usize| u64::from_le_bytes(d[8 * k..8 * k + 8].try_into().expect("8 bytes"));
        SetDigest([lane(0), lane(1), lane(2), lane(3)])
    }

    /// The digest of the union of two disjoint sets.
    #[must_use]
    pub fn union(self, other: SetDigest) -> SetDigest {
        let mut out = self.0;
        for (o, x) in out.iter_mut().zip(other.0) {
            *o = o.wrapping_add(x);
        }
        SetDigest(out)
    }

    /// The digest of this set without a member's digest `other`.
    #[must_use]
    pub fn without(self, other: SetDigest) -> SetDigest {
        let mut out = self.0;
        for (o, x) in out.iter_mut().zip(other.0) {
            *o = o.wrapping_sub(x);
        }
        SetDigest(out)
    }

    /// Hex, as stored.
    pub fn hex(&self) -> String {
        self.0.iter().map(|l| format!("{l:016x}")).collect()
    }

    /// The digest of [`SetDigest::hex`]'s text (`None` if it is not that).
    pub fn from_hex(text: &str) -> Option<SetDigest> {
        if text.len() != 64 || !text.is_ascii() {
            return None;
        }
        let lane = |k: usize| u64::from_str_radix(&text[16 * k..16 * k + 16], 16).ok();
        Some(SetDigest([lane(0)?, lane(1)?, lane(2)?, lane(3)?]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_coverage_agree() {
        let done = |i: u32| !i.is_multiple_of(5) && i != 7;
        let r = runs(23, done);
        assert_eq!(r, [(1, 5), (6, 7), (8, 10), (11, 15), (16, 20), (21, 23)]);
        let cp = Checkpoint {
            seq: 1,
            covered: r,
            merged: vec![],
            work: vec![0; 17],
            digest: String::new(),
            worker_work: Default::default(),
        };
        assert!(cp.well_formed(23) && !cp.well_formed(22));
        for i in 0..30 {
            assert_eq!(cp.covers(i), i < 23 && done(i), "{i}");
        }
        assert_eq!(cp.shards().count() as u64, cp.count());
        assert_eq!(runs(4, |_| true), [(0, 4)]);
        assert!(runs(4, |_| false).is_empty());
    }

    #[test]
    fn the_set_digest_ignores_order_and_sees_every_member() {
        let d = |i: u32, b: u8| SetDigest::of(i, &[b; 32]);
        let a = d(1, 1).union(d(2, 2)).union(d(3, 3));
        let b = d(3, 3).union(d(1, 1)).union(d(2, 2));
        assert_eq!(a, b);
        assert_ne!(a, d(1, 1).union(d(2, 2)));
        assert_ne!(a, d(1, 1).union(d(2, 2)).union(d(3, 4)), "another digest");
        assert_ne!(a, d(1, 1).union(d(2, 2)).union(d(4, 3)), "another shard");
        assert_eq!(a.without(d(2, 2)), d(1, 1).union(d(3, 3)));
        assert_eq!(a.hex().len(), 64);
        assert_eq!(SetDigest::from_hex(&a.hex()), Some(a));
        assert_eq!(SetDigest::from_hex("zz"), None);
    }
}
