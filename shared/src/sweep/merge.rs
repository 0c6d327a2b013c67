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
use std::fmt::Debug;

/// A merge that cannot be done: a counter would overflow its type. Names the
/// counter by its path in the result (e.g. `by_n[5].graphs`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("counter `{field}` overflows u64 when merged ({left} + {right})")]
pub struct MergeError {
    /// The counter's path in the result.
    pub field: String,
    /// Its value in the result merged into.
    pub left: u64,
    /// Its value in the result merged in.
    pub right: u64,
}

impl MergeError {
    /// The same error, with its field named inside `outer` (`outer.field`).
    pub fn within(mut self, outer: impl std::fmt::Display) -> Self {
        self.field = format!("{outer}.{}", self.field);
        self
    }
}

/// A mergeable result: the merged result of a whole sweep is the fold of its
/// shards' results with `merge`, in any order and grouping.
pub trait Merge {
    /// Fold `other` into `self` (associative and commutative). Counters add
    /// with checked arithmetic: an overflow is an error naming the counter,
    /// never a wrap. After an error `self` may be partly merged: a caller
    /// that must keep its state merges into a copy.
    fn merge(&mut self, other: Self) -> Result<(), MergeError>;
    /// Positions processed (drives progress, rate and ETA).
    fn work(&self) -> u64;
    /// Counterexamples found so far, by name (e.g. `matching_exceptions` →
    /// 0), for status displays. None by default.
    fn counterexamples(&self) -> Vec<(String, u64)> {
        Vec::new()
    }
}

/// Add `other` into the counter `into` named `field`; an overflow is an error.
#[inline]
pub fn add(into: &mut u64, other: u64, field: &str) -> Result<(), MergeError> {
    *into = into.checked_add(other).ok_or_else(|| MergeError {
        field: field.to_string(),
        left: *into,
        right: other,
    })?;
    Ok(())
}

/// Add every count of `other` into `into` (the counters `field[key]`).
pub fn add_counts<K: Ord + Debug>(
    into: &mut BTreeMap<K, u64>,
    other: BTreeMap<K, u64>,
    field: &str,
) -> Result<(), MergeError> {
    for (k, v) in other {
        match into.get_mut(&k) {
            Some(mine) => add(mine, v, "").map_err(|e| MergeError {
                field: format!("{field}[{k:?}]"),
                ..e
            })?,
            None => {
                into.insert(k, v);
            }
        }
    }
    Ok(())
}

/// Merge two maps value-wise with `f` (keys present on one side are kept);
/// an error of `f` is named inside `field[key]`.
pub fn merge_maps<K: Ord + Debug, V>(
    into: &mut BTreeMap<K, V>,
    other: BTreeMap<K, V>,
    field: &str,
    mut f: impl FnMut(&mut V, V) -> Result<(), MergeError>,
) -> Result<(), MergeError> {
    for (k, v) in other {
        match into.get_mut(&k) {
            Some(mine) => f(mine, v).map_err(|e| e.within(format_args!("{field}[{k:?}]")))?,
            None => {
                into.insert(k, v);
            }
        }
    }
    Ok(())
}

/// Add `other` into `into` element-wise (the counters `field[i]`), growing
/// `into` as needed.
pub fn add_vecs(into: &mut Vec<u64>, other: Vec<u64>, field: &str) -> Result<(), MergeError> {
    if into.len() < other.len() {
        into.resize(other.len(), 0);
    }
    for (i, (a, b)) in into.iter_mut().zip(other).enumerate() {
        add(a, b, "").map_err(|e| MergeError {
            field: format!("{field}[{i}]"),
            ..e
        })?;
    }
    Ok(())
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
        add_counts(&mut a, BTreeMap::from([(1, 3), (2, 1)]), "a").unwrap();
        assert_eq!(a, BTreeMap::from([(1, 5), (2, 1)]));
        let mut v = vec![1, 2];
        add_vecs(&mut v, vec![1, 1, 1], "v").unwrap();
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

    /// Defect: two counters of 2^64 − 1 merged to 2^64 − 2 (a wrap). Now
    /// every helper refuses, naming the counter.
    #[test]
    fn overflow_is_an_error_naming_the_counter_not_a_wrap() {
        let mut x = u64::MAX;
        let e = add(&mut x, u64::MAX, "graphs").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "counter `graphs` overflows u64 when merged ({} + {})",
                u64::MAX,
                u64::MAX
            )
        );
        let mut a = BTreeMap::from([(3u8, u64::MAX)]);
        let e = add_counts(&mut a, BTreeMap::from([(3u8, 1)]), "grundy").unwrap_err();
        assert_eq!(e.field, "grundy[3]");
        let mut v = vec![0, u64::MAX];
        let e = add_vecs(&mut v, vec![0, 2], "values").unwrap_err();
        assert_eq!(e.field, "values[1]");
        let mut m = BTreeMap::from([(5usize, u64::MAX)]);
        let e = merge_maps(&mut m, BTreeMap::from([(5usize, 1)]), "by_n", |a, b| {
            add(a, b, "graphs")
        })
        .unwrap_err();
        assert_eq!(e.field, "by_n[5].graphs");
    }
}
