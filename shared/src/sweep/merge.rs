//! Merging typed results.
//!
//! Each kind's result is a plain struct that implements [`Merge`] by merging
//! field by field with the helpers here: counts add ([`add_counts`]),
//! maxima keep the larger ([`Max`]), witnesses keep the smallest in witness
//! order ([`Smallest`]), record sets union ([`super::RecordSet::merge`]).
//! Every helper is associative and commutative, so a struct merged with them
//! is too, and the merged result never depends on shard order or size.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A mergeable result: the merged result of a whole sweep is the fold of its
/// shards' results with `merge`, in any order and grouping.
pub trait Merge {
    /// Fold `other` into `self` (associative and commutative).
    fn merge(&mut self, other: Self);
    /// Positions processed (drives progress, rate and ETA).
    fn work(&self) -> u64;
    /// Counterexamples found so far, by name (e.g. `matching_exceptions` →
    /// 0), for status displays. None by default.
    fn counterexamples(&self) -> Vec<(String, u64)> {
        Vec::new()
    }
}

/// Add every count of `other` into `into`.
pub fn add_counts<K: Ord>(into: &mut BTreeMap<K, u64>, other: BTreeMap<K, u64>) {
    for (k, v) in other {
        *into.entry(k).or_insert(0) += v;
    }
}

/// Merge two maps value-wise with `f` (keys present on one side are kept).
pub fn merge_maps<K: Ord, V>(
    into: &mut BTreeMap<K, V>,
    other: BTreeMap<K, V>,
    mut f: impl FnMut(&mut V, V),
) {
    for (k, v) in other {
        match into.get_mut(&k) {
            Some(mine) => f(mine, v),
            None => {
                into.insert(k, v);
            }
        }
    }
}

/// Add `other` into `into` element-wise, growing `into` as needed.
pub fn add_vecs(into: &mut Vec<u64>, other: Vec<u64>) {
    if into.len() < other.len() {
        into.resize(other.len(), 0);
    }
    for (a, b) in into.iter_mut().zip(other) {
        *a += b;
    }
}

/// The smallest value offered (by `Ord`), e.g. a witness in witness order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Smallest<T>(pub Option<T>);

impl<T> Default for Smallest<T> {
    fn default() -> Self {
        Smallest(None)
    }
}

impl<T: Ord> Smallest<T> {
    /// Offer `x`; kept if smaller than the current value.
    pub fn offer(&mut self, x: T) {
        match &self.0 {
            Some(old) if *old <= x => {}
            _ => self.0 = Some(x),
        }
    }
    /// Merge: the smaller of the two.
    pub fn merge(&mut self, other: Self) {
        if let Some(x) = other.0 {
            self.offer(x);
        }
    }
}

/// The largest value offered (0 when none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Max(pub u64);

impl Max {
    /// Raise to at least `x`.
    pub fn offer(&mut self, x: u64) {
        self.0 = self.0.max(x);
    }
    /// Merge: the larger of the two.
    pub fn merge(&mut self, other: Self) {
        self.offer(other.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_are_order_independent() {
        let mut a = BTreeMap::from([(1, 2u64)]);
        add_counts(&mut a, BTreeMap::from([(1, 3), (2, 1)]));
        assert_eq!(a, BTreeMap::from([(1, 5), (2, 1)]));
        let mut v = vec![1, 2];
        add_vecs(&mut v, vec![1, 1, 1]);
        assert_eq!(v, vec![2, 3, 1]);
        let (mut s, mut t) = (Smallest::default(), Smallest::default());
        s.offer((2, "b"));
        t.offer((1, "z"));
        t.offer((3, "a"));
        s.merge(t);
        assert_eq!(s.0, Some((1, "z")));
        let mut m = Max(3);
        m.merge(Max(7));
        m.offer(5);
        assert_eq!(m, Max(7));
    }
}
