//! A set of shard indices stored as sorted, disjoint, inclusive ranges:
//! small when the set is the shards done up to some moment (a run finishes
//! shards largely in plan order), exact whatever it is.
//!
//! Used where a sweep records which shards a solver build other than its
//! current one computed (`SweepRecord::earlier_solvers`, the export file's
//! `earlier_solvers`, `provenance.json`'s `solvers`).

use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// Shards a sweep's earlier solver build computed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolverShards {
    /// The kind's solver version (`SweepKind::version`) of that build.
    pub version: String,
    /// The shards whose accepted result it computed.
    pub shards: ShardSet,
}

/// Sorted, disjoint, non-adjacent inclusive ranges `[first, last]`.
///
/// Deserializing checks the invariant: a stored or imported set that is
/// not sorted, overlaps or has `first > last` is refused, not repaired.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ShardSet(Vec<[u32; 2]>);

impl<'de> Deserialize<'de> for ShardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let ranges = Vec::<[u32; 2]>::deserialize(d)?;
        ShardSet::from_ranges(ranges).map_err(serde::de::Error::custom)
    }
}

impl ShardSet {
    /// The empty set.
    pub fn new() -> Self {
        ShardSet(Vec::new())
    }

    /// The set of `ranges`, which must be sorted, disjoint and
    /// non-adjacent, each `first <= last`.
    pub fn from_ranges(ranges: Vec<[u32; 2]>) -> Result<Self, String> {
        for r in &ranges {
            if r[0] > r[1] {
                return Err(format!("shard range {}-{} runs backwards", r[0], r[1]));
            }
        }
        for w in ranges.windows(2) {
            // Adjacent ranges would have one canonical form merged: refuse
            // them too, so equal sets have equal encodings.
            if u64::from(w[1][0]) <= u64::from(w[0][1]) + 1 {
                return Err(format!(
                    "shard ranges {}-{} and {}-{} are not sorted and apart",
                    w[0][0], w[0][1], w[1][0], w[1][1]
                ));
            }
        }
        Ok(ShardSet(ranges))
    }

    /// The ranges, sorted.
    pub fn ranges(&self) -> &[[u32; 2]] {
        &self.0
    }

    /// Whether `shard` is in the set.
    pub fn contains(&self, shard: u32) -> bool {
        // The first range whose last index is at least `shard`.
        let at = self.0.partition_point(|r| r[1] < shard);
        self.0.get(at).is_some_and(|r| r[0] <= shard)
    }

    /// The number of shards in the set.
    pub fn len(&self) -> u64 {
        self.0.iter().map(|r| u64::from(r[1] - r[0]) + 1).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every shard in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().flat_map(|r| r[0]..=r[1])
    }

    /// The union of this set and `other`.
    pub fn union(&self, other: &ShardSet) -> ShardSet {
        let mut all: Vec<[u32; 2]> = self.0.iter().chain(&other.0).copied().collect();
        all.sort_unstable();
        ShardSet(coalesce(all))
    }

    /// The shards of this set that `keep` keeps.
    pub fn filter(&self, keep: impl Fn(u32) -> bool) -> ShardSet {
        self.iter().filter(|&i| keep(i)).collect()
    }

    /// The shards of this set not in `other`.
    pub fn minus(&self, other: &ShardSet) -> ShardSet {
        self.filter(|i| !other.contains(i))
    }
}

/// Merge sorted ranges that overlap or touch.
fn coalesce(sorted: Vec<[u32; 2]>) -> Vec<[u32; 2]> {
    let mut out: Vec<[u32; 2]> = Vec::with_capacity(sorted.len());
    for r in sorted {
        match out.last_mut() {
            Some(last) if u64::from(r[0]) <= u64::from(last[1]) + 1 => {
                last[1] = last[1].max(r[1]);
            }
            _ => out.push(r),
        }
    }
    out
}

impl FromIterator<u32> for ShardSet {
    /// The set of the given shards, in any order, repeats allowed.
    fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> Self {
        let mut v: Vec<u32> = iter.into_iter().collect();
        v.sort_unstable();
        ShardSet(coalesce(v.into_iter().map(|i| [i, i]).collect()))
    }
}

impl fmt::Display for ShardSet {
    /// `0-1869, 1900` style, at most 8 ranges, then "and N more ranges".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 8;
        if self.0.is_empty() {
            return f.write_str("none");
        }
        for (k, r) in self.0.iter().take(SHOWN).enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            if r[0] == r[1] {
                write!(f, "{}", r[0])?;
            } else {
                write!(f, "{}-{}", r[0], r[1])?;
            }
        }
        if self.0.len() > SHOWN {
            write!(f, " and {} more ranges", self.0.len() - SHOWN)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_is_its_shards_in_ranges_whatever_their_order() {
        let s: ShardSet = [7, 3, 4, 5, 9, 4, 10].into_iter().collect();
        assert_eq!(s.ranges(), &[[3, 5], [7, 7], [9, 10]]);
        assert_eq!(s.len(), 6);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 4, 5, 7, 9, 10]);
        for i in 0..12 {
            assert_eq!(s.contains(i), [3, 4, 5, 7, 9, 10].contains(&i), "{i}");
        }
        assert_eq!(s.to_string(), "3-5, 7, 9-10");
        assert_eq!(ShardSet::new().to_string(), "none");
    }

    #[test]
    fn union_and_difference_agree_with_sets_of_indices() {
        let a: ShardSet = (0..10).chain(20..25).collect();
        let b: ShardSet = (5..21).chain([30]).collect();
        let u: Vec<u32> = a.union(&b).iter().collect();
        let want: std::collections::BTreeSet<u32> = a.iter().chain(b.iter()).collect();
        assert_eq!(u, want.into_iter().collect::<Vec<_>>());
        assert_eq!(a.union(&b).ranges(), &[[0, 24], [30, 30]]);
        assert_eq!(a.minus(&b).ranges(), &[[0, 4], [21, 24]]);
        assert_eq!(a.filter(|i| i % 2 == 0).len(), 5 + 3);
    }

    #[test]
    fn a_stored_set_out_of_order_or_overlapping_is_refused() {
        let ok: ShardSet = serde_json::from_str("[[0,3],[5,5]]").unwrap();
        assert_eq!(ok.len(), 5);
        for bad in ["[[5,5],[0,3]]", "[[0,3],[3,7]]", "[[0,3],[4,7]]", "[[4,2]]"] {
            let e = serde_json::from_str::<ShardSet>(bad).unwrap_err();
            assert!(e.to_string().contains("shard range"), "{bad}: {e}");
        }
        let wide: ShardSet = [u32::MAX, 0].into_iter().collect();
        assert_eq!(wide.len(), 2);
        assert_eq!(
            serde_json::to_string(&wide).unwrap(),
            "[[0,0],[4294967295,4294967295]]"
        );
    }
}
