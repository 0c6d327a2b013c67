//! A sweep's snapshot: its merged result as of a moment, with the set of
//! done shards that result covers, so that a start merges only the results
//! accepted after it (`core/recovery.rs`) instead of decoding every stored
//! result again.
//!
//! Soundness. A snapshot is written by the core from its memory, after a
//! store flush that made every result it covers durable in sled and the
//! journal (`Core::snapshot`); the merge is associative and commutative,
//! so the snapshot's merged result merged with the results stored for the
//! shards it does not cover is the merge of every stored result. It carries
//! [`SetDigest`] of the (shard, SHA-256 of the stored bytes) pairs it
//! covers; a start recomputes that digest from the journal's `Done` and
//! `Replaced` records and uses the snapshot only if the two agree (and
//! the journal has every covered shard): then the snapshot covers exactly
//! the acknowledged bytes the journal names, and a replaced, lost or
//! re-run shard cannot hide in it. Anything else (a damaged or stale
//! snapshot) falls back to reading every result, as before snapshots.
//! The covered results stay stored: `gamesweep store check` recomputes the
//! digest from them, and export and verification read them.

/// A sweep's merged result as of a moment (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The sweep's launch sequence number (a snapshot of an earlier sweep
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
    pub worker_work: std::collections::BTreeMap<String, u64>,
}

impl Snapshot {
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

/// First bytes of an encoded snapshot ([`Snapshot::encode`]): never
/// the first byte of JSON, the format before it (read as no snapshot).
const MAGIC: &[u8; 5] = b"\xC7GSC1";

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A cursor over an encoded snapshot; every read checks the length.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let (&b, rest) = self.0.split_first().ok_or("truncated")?;
            self.0 = rest;
            if shift == 63 && b > 1 {
                return Err("varint overflows 64 bits".into());
            }
            v |= u64::from(b & 0x7F) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err("varint longer than 10 bytes".into())
    }

    fn u32(&mut self) -> Result<u32, String> {
        u32::try_from(self.varint()?).map_err(|_| "shard number beyond 32 bits".to_string())
    }

    fn bytes(&mut self) -> Result<&[u8], String> {
        let n = usize::try_from(self.varint()?).map_err(|_| "length beyond memory")?;
        if n > self.0.len() {
            return Err("truncated".into());
        }
        let (b, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(b)
    }

    /// A count of items each at least one byte long (so a damaged count
    /// cannot ask for more memory than the value holds).
    fn count(&mut self) -> Result<usize, String> {
        let n = self.varint()?;
        if n > self.0.len() as u64 {
            return Err("truncated".into());
        }
        Ok(n as usize)
    }
}

impl Snapshot {
    /// The stored form: a compact binary encoding (varints; the covered
    /// runs as gaps and lengths), about 1–5 bytes per covered shard
    /// instead of JSON's ~10.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.merged.len() + 2 * self.work.len());
        out.extend_from_slice(MAGIC);
        put_varint(&mut out, self.seq);
        put_varint(&mut out, self.digest.len() as u64);
        out.extend_from_slice(self.digest.as_bytes());
        put_varint(&mut out, self.covered.len() as u64);
        let mut last = 0u32;
        for &(a, b) in &self.covered {
            put_varint(&mut out, u64::from(a.wrapping_sub(last)));
            put_varint(&mut out, u64::from(b.wrapping_sub(a)));
            last = b;
        }
        put_varint(&mut out, self.work.len() as u64);
        for &w in &self.work {
            put_varint(&mut out, w);
        }
        put_varint(&mut out, self.merged.len() as u64);
        out.extend_from_slice(&self.merged);
        put_varint(&mut out, self.worker_work.len() as u64);
        for (worker, &w) in &self.worker_work {
            put_varint(&mut out, worker.len() as u64);
            out.extend_from_slice(worker.as_bytes());
            put_varint(&mut out, w);
        }
        out
    }

    /// [`Snapshot::encode`]'s bytes back; an error names what is wrong
    /// (truncated, overlong, not this format). Never panics on bad bytes.
    pub fn decode(bytes: &[u8]) -> Result<Snapshot, String> {
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or("not a snapshot of this format")?;
        let mut r = Reader(rest);
        let seq = r.varint()?;
        let digest = std::str::from_utf8(r.bytes()?)
            .map_err(|_| "digest is not text")?
            .to_string();
        let runs = r.count()?;
        let mut covered = Vec::with_capacity(runs);
        let mut last = 0u32;
        for _ in 0..runs {
            let a = last.checked_add(r.u32()?).ok_or("run beyond 32 bits")?;
            let b = a.checked_add(r.u32()?).ok_or("run beyond 32 bits")?;
            covered.push((a, b));
            last = b;
        }
        let n = r.count()?;
        let mut work = Vec::with_capacity(n);
        for _ in 0..n {
            work.push(r.varint()?);
        }
        let merged = r.bytes()?.to_vec();
        let workers = r.count()?;
        let mut worker_work = std::collections::BTreeMap::new();
        for _ in 0..workers {
            let name = std::str::from_utf8(r.bytes()?)
                .map_err(|_| "worker name is not UTF-8")?
                .to_string();
            worker_work.insert(name, r.varint()?);
        }
        if !r.0.is_empty() {
            return Err(format!("{} bytes after its end", r.0.len()));
        }
        Ok(Snapshot {
            seq,
            covered,
            merged,
            work,
            digest,
            worker_work,
        })
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
/// four 64-bit lanes, each the wrapping sum over the pairs of a mix of
/// that lane of the result's SHA-256 with the shard number. Unlike a hash
/// over the sorted pairs it is kept up to date as results are accepted
/// (one addition), and recomputed from the journal at a few nanoseconds a
/// pair. The mix is a bijection of the lane for a given shard, so a change
/// to any one pair's digest always changes the sum; anything else (pairs
/// swapped, several changed) goes unseen with probability about 2⁻²⁵⁶.
/// The inputs are SHA-256 digests already: no second cryptographic hash is
/// needed to spread them. It guards against damage and stale state, not
/// against an adversary who can write the store (who could change the
/// journal too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetDigest([u64; 4]);

/// splitmix64's finalizer: a bijection of `u64` that spreads every bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SetDigest {
    /// The digest of one pair.
    pub fn of(index: u32, result_sha256: &[u8; 32]) -> SetDigest {
        let lane = |k: usize| {
            let d =
                u64::from_le_bytes(result_sha256[8 * k..8 * k + 8].try_into().expect("8 bytes"));
            // A key per (shard, lane); `mix(d ^ key)` is a bijection of d.
            let key = mix(u64::from(index) ^ ((k as u64 + 1) << 40));
            mix(d ^ key)
        };
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
        let cp = Snapshot {
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
    fn the_binary_encoding_round_trips_and_refuses_every_truncation() {
        let cp = Snapshot {
            seq: 7,
            covered: vec![(0, 3), (5, 6), (1 << 20, (1 << 20) + 2)],
            merged: b"{\"x\":1}".to_vec(),
            work: vec![0, 1, 127, 128, u64::MAX, 42],
            digest: SetDigest::of(1, &[3; 32]).hex(),
            worker_work: [("a".to_string(), 5), ("@w".to_string(), u64::MAX)].into(),
        };
        let bytes = cp.encode();
        assert_eq!(Snapshot::decode(&bytes), Ok(cp.clone()));
        for cut in 0..bytes.len() {
            assert!(Snapshot::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Snapshot::decode(&longer)
            .unwrap_err()
            .contains("after its end"));
        // The JSON of the format before: not this format.
        assert!(Snapshot::decode(b"{\"seq\":1}").is_err());
        // A count that asks for more than the value holds.
        let mut huge = MAGIC.to_vec();
        huge.extend([1, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
        assert!(Snapshot::decode(&huge).is_err());
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
        assert_ne!(
            d(1, 1).union(d(2, 2)),
            d(1, 2).union(d(2, 1)),
            "results swapped between shards"
        );
        // Each lane of each pair's digest counts: one bit flipped anywhere.
        for bit in 0..256 {
            let mut sha = [7u8; 32];
            sha[bit / 8] ^= 1 << (bit % 8);
            assert_ne!(
                SetDigest::of(5, &sha),
                SetDigest::of(5, &[7; 32]),
                "bit {bit}"
            );
        }
        assert_eq!(a.without(d(2, 2)), d(1, 1).union(d(3, 3)));
        assert_eq!(a.hex().len(), 64);
        assert_eq!(SetDigest::from_hex(&a.hex()), Some(a));
        assert_eq!(SetDigest::from_hex("zz"), None);
    }
}
