//! A small, fast, deterministic hasher for integer keys (the Fx hash used by
//! rustc). The memo tables hash millions of `u32`/`u64`/`u128` keys; SipHash's
//! DoS resistance buys nothing here and costs several times the time.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Fx hasher: multiply-rotate per word.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap()));
        }
        for &b in chunks.remainder() {
            self.add(b as u64);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    /// The state rotated so that its well-mixed high bits come out low:
    /// `HashMap` picks the bucket from the low bits of the hash, and the low
    /// bits of a product depend only on the low bits of the key, so without
    /// the rotation keys that differ only above bit 32 (the UVG memo's
    /// `token | component << 32`) all fell into a handful of buckets and the
    /// memo went quadratic (`solve uvg` on K40).
    #[inline]
    fn finish(&self) -> u64 {
        self.hash.rotate_left(26)
    }
}

/// The `BuildHasher` of [`FxHasher`].
pub type FxBuildHasher = BuildHasherDefault<FxHasher>;
/// A `HashMap` hashed with [`FxHasher`].
pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
/// `HashSet` with [`FxHasher`].
pub type FxHashSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher as _;

    #[test]
    fn keys_differing_only_in_high_bits_spread_over_buckets() {
        // 4096 keys `token | set << 32` with the same token: the low 12 bits
        // of their hashes (the bucket in a table of 4096) must mostly differ.
        let b = FxBuildHasher::default();
        let low: FxHashSet<u64> = (0..4096u64)
            .map(|set| b.hash_one(3 | set << 32) & 0xfff)
            .collect();
        // (Random hashes give about 2600; before the rotation in `finish`: 1.)
        assert!(low.len() > 1000, "{} distinct buckets", low.len());
    }
}
