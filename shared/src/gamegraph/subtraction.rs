//! Subtraction games: a heap of n counters, a move removes s ∈ S counters
//! (s ≤ n), normal play.
//!
//! **Window argument** (course notes): for n ≥ max(S) every s ∈ S is a legal
//! move, so the value at n is a fixed function of the previous m = max(S)
//! values. Hence if the length-m windows starting at i and at j > i are equal,
//! the sequence is periodic with period j − i from i on. Both the Grundy
//! sequence and the outcome (P/N) sequence have this property (an outcome is
//! P iff no move reaches a P), so each is eventually periodic and the first
//! repeated window *proves* it. From that certificate [`analyse`] derives the
//! smallest period (a divisor of j − i, since the periods of a purely periodic
//! sequence are the multiples of its least one) and the smallest preperiod.

use super::{GameGraph, GameGraphError};
use serde::Serialize;
use std::collections::HashMap;

/// Largest element a subtraction set may have here.
pub const MAX_ELEMENT: u32 = 64;

/// A validated subtraction set: distinct elements in 1..=[`MAX_ELEMENT`],
/// sorted, non-empty.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct SubtractionSet(Vec<u32>);

impl SubtractionSet {
    /// Check and sort `elements` (duplicates are an error too).
    pub fn new(elements: &[u32]) -> Result<Self, GameGraphError> {
        let mut v = elements.to_vec();
        v.sort_unstable();
        if v.is_empty() {
            return Err(GameGraphError::BadSubtractionSet("the set is empty".into()));
        }
        if let Some(&bad) = v.iter().find(|&&x| x == 0 || x > MAX_ELEMENT) {
            return Err(GameGraphError::BadSubtractionSet(format!(
                "element {bad} is outside 1..={MAX_ELEMENT}"
            )));
        }
        if let Some(w) = v.windows(2).find(|w| w[0] == w[1]) {
            return Err(GameGraphError::BadSubtractionSet(format!(
                "element {} appears twice",
                w[0]
            )));
        }
        Ok(SubtractionSet(v))
    }

    /// The set whose elements are the 1-based positions of the bits of
    /// `mask` (bit 0 ↔ element 1). Errors on 0.
    pub fn from_mask(mask: u64) -> Result<Self, GameGraphError> {
        let elems: Vec<u32> = (0..64)
            .filter(|b| mask >> b & 1 == 1)
            .map(|b| b + 1)
            .collect();
        SubtractionSet::new(&elems)
    }

    /// The elements, ascending.
    pub fn elements(&self) -> &[u32] {
        &self.0
    }

    /// max(S), the window length.
    pub fn max_element(&self) -> usize {
        *self.0.last().expect("non-empty") as usize
    }

    /// `{2,4,7}`.
    pub fn to_string_braced(&self) -> String {
        let parts: Vec<String> = self.0.iter().map(u32::to_string).collect();
        format!("{{{}}}", parts.join(","))
    }
}

/// The Grundy value of heap n given the values of all smaller heaps.
fn next_grundy(s: &SubtractionSet, seq: &[u8]) -> u8 {
    let n = seq.len();
    let mut seen = 0u128;
    for &x in s.elements() {
        let x = x as usize;
        if x > n {
            break;
        }
        seen |= 1u128 << seq[n - x];
    }
    // at most |S| ≤ 64 options, so the mex is ≤ 64 and fits the mask
    (!seen).trailing_zeros() as u8
}

/// The outcome of heap n (1 = P, 0 = N) given the smaller heaps: P iff no move reaches a P.
fn next_outcome(s: &SubtractionSet, seq: &[u8]) -> u8 {
    let n = seq.len();
    let reaches_p = s
        .elements()
        .iter()
        .take_while(|&&x| x as usize <= n)
        .any(|&x| seq[n - x as usize] == 1);
    u8::from(!reaches_p)
}

/// Grundy values of heaps 0..len.
pub fn grundy_sequence(s: &SubtractionSet, len: usize) -> Vec<u8> {
    let mut seq = Vec::with_capacity(len);
    while seq.len() < len {
        let x = next_grundy(s, &seq);
        seq.push(x);
    }
    seq
}

/// The P-positions (second-player wins) among heaps 0..len.
pub fn p_positions(s: &SubtractionSet, len: usize) -> Vec<usize> {
    let mut seq = Vec::with_capacity(len);
    while seq.len() < len {
        let x = next_outcome(s, &seq);
        seq.push(x);
    }
    (0..len).filter(|&n| seq[n] == 1).collect()
}

/// Eventual periodicity of a sequence, with its proof certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Periodicity {
    /// Smallest a with x(n + period) = x(n) for all n ≥ a.
    pub preperiod: usize,
    /// Smallest p ≥ 1 with x(n + p) = x(n) for all large n.
    pub period: usize,
    /// The certificate: the length-max(S) windows starting at `repeat.0`
    /// and `repeat.1` are equal (the first repetition of a window).
    pub repeat: (usize, usize),
    /// How many terms were computed.
    pub terms: usize,
}

/// Find the first repeated window of length `m` of the sequence generated
/// by `next`, then the least period and preperiod it implies.
fn periodicity(m: usize, mut next: impl FnMut(&[u8]) -> u8) -> Periodicity {
    const BASE: u64 = 0x9E37_79B9_7F4A_7C15; // odd multiplier for a rolling hash
    let mut seq: Vec<u8> = Vec::new();
    while seq.len() < m {
        let x = next(&seq);
        seq.push(x);
    }
    let top = BASE.wrapping_pow(m as u32 - 1);
    let mut hash = seq.iter().fold(0u64, |h, &x| {
        h.wrapping_mul(BASE).wrapping_add(x as u64 + 1)
    });
    // hash of the window → window starts with that hash (verified by comparison)
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut a = 0usize;
    let (i, j) = loop {
        if let Some(starts) = seen.get(&hash) {
            if let Some(&i) = starts.iter().find(|&&i| seq[i..i + m] == seq[a..a + m]) {
                break (i, a);
            }
        }
        seen.entry(hash).or_default().push(a);
        let x = next(&seq);
        seq.push(x);
        hash = hash
            .wrapping_sub((seq[a] as u64 + 1).wrapping_mul(top))
            .wrapping_mul(BASE)
            .wrapping_add(x as u64 + 1);
        a += 1;
    };
    let q = j - i;
    // the proven tail: x(n + q) = x(n) for n ≥ i; get two full periods
    while seq.len() < i + 2 * q {
        let x = next(&seq);
        seq.push(x);
    }
    let period = (1..=q)
        .filter(|d| q % d == 0)
        .find(|&d| (i..i + q).all(|n| seq[n] == seq[n + d]))
        .expect("q itself is a period");
    let mut pre = i;
    while pre > 0 && seq[pre - 1] == seq[pre - 1 + period] {
        pre -= 1;
    }
    Periodicity {
        preperiod: pre,
        period,
        repeat: (i, j),
        terms: seq.len(),
    }
}

/// Periodicity of the Grundy and outcome sequences of one subtraction game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SubtractionAnalysis {
    /// The set S.
    pub set: SubtractionSet,
    /// Of the outcome (P/N) sequence.
    pub outcome: Periodicity,
    /// Of the Grundy sequence.
    pub grundy: Periodicity,
    /// Largest Grundy value that occurs (within preperiod + period, i.e. ever).
    pub max_grundy: u8,
}

/// Detect and prove the periodicity of both sequences of `s`.
pub fn analyse(s: &SubtractionSet) -> SubtractionAnalysis {
    let m = s.max_element();
    let outcome = periodicity(m, |seq| next_outcome(s, seq));
    let grundy = periodicity(m, |seq| next_grundy(s, seq));
    let max_grundy = grundy_sequence(s, grundy.preperiod + grundy.period)
        .into_iter()
        .max()
        .unwrap_or(0);
    SubtractionAnalysis {
        set: s.clone(),
        outcome,
        grundy,
        max_grundy,
    }
}

/// The subtraction game on heaps 0..=n as an explicit game graph (positions
/// named by heap size), for cross-checks with the general solvers.
pub fn subtraction_game_graph(s: &SubtractionSet, n: usize) -> GameGraph {
    let arcs: Vec<(usize, usize)> = (0..=n)
        .flat_map(|k| {
            s.elements()
                .iter()
                .filter(move |&&x| x as usize <= k)
                .map(move |&x| (k, k - x as usize))
        })
        .collect();
    GameGraph::from_arcs(format!("subtraction{}", s.to_string_braced()), n + 1, &arcs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamegraph::label::{grundy, outcomes};
    use crate::gamegraph::Outcome;
    use proptest::prelude::*;

    fn set(e: &[u32]) -> SubtractionSet {
        SubtractionSet::new(e).unwrap()
    }

    /// Course notes: for S = {2, 4, 7} the P-positions are 0, 1 and the
    /// multiples of 3 from 6 on (proved there by hand up to 10, then by
    /// induction); the window of length 7 repeats, so from 4 on the outcome
    /// sequence has period 3.
    #[test]
    fn course_example_2_4_7() {
        let s = set(&[2, 4, 7]);
        let p = p_positions(&s, 300);
        let expected: Vec<usize> = (0..300)
            .filter(|&n| n <= 1 || (n >= 6 && n % 3 == 0))
            .collect();
        assert_eq!(p, expected);
        assert_eq!(&p[..5], &[0, 1, 6, 9, 12]);
        let a = analyse(&s);
        // N N N N at 2..5, then P N N repeating from 6; 3 is N but 6 is P,
        // so the smallest preperiod is 4 (x(n) = x(n+3) fails at n = 3).
        assert_eq!((a.outcome.preperiod, a.outcome.period), (4, 3));
        // the explicit game graph agrees
        let g = subtraction_game_graph(&s, 60);
        let out = outcomes(&g);
        for (n, o) in out.iter().enumerate() {
            assert_eq!(*o == Outcome::Second, expected.contains(&n), "{n}");
        }
        let gr = grundy(&g).unwrap();
        assert_eq!(
            gr.iter().map(|&x| x as u8).collect::<Vec<_>>(),
            grundy_sequence(&s, 61)
        );
    }

    /// Known closed forms: S = {1..k} gives n mod (k+1); S = {a} gives
    /// ⌊n/a⌋ mod 2 (period 2a, no preperiod).
    #[test]
    fn closed_forms() {
        for k in 1..=9u32 {
            let s = set(&(1..=k).collect::<Vec<_>>());
            let g = grundy_sequence(&s, 100);
            assert!((0..100).all(|n| g[n] as usize == n % (k as usize + 1)));
            let a = analyse(&s);
            assert_eq!((a.grundy.preperiod, a.grundy.period), (0, k as usize + 1));
            assert_eq!((a.outcome.preperiod, a.outcome.period), (0, k as usize + 1));
            assert_eq!(a.max_grundy as u32, k);
        }
        for x in 1..=9u32 {
            let a = analyse(&set(&[x]));
            assert_eq!((a.grundy.preperiod, a.grundy.period), (0, 2 * x as usize));
            assert_eq!((a.outcome.preperiod, a.outcome.period), (0, 2 * x as usize));
        }
    }

    #[test]
    fn bad_sets_are_typed_errors() {
        assert!(SubtractionSet::new(&[]).is_err());
        assert!(SubtractionSet::new(&[0, 3]).is_err());
        assert!(SubtractionSet::new(&[3, 3]).is_err());
        assert!(SubtractionSet::new(&[65]).is_err());
        assert!(SubtractionSet::from_mask(0).is_err());
        assert_eq!(
            SubtractionSet::from_mask(0b1001010).unwrap().elements(),
            &[2, 4, 7]
        );
    }

    /// Check a claimed (preperiod, period) against a long prefix directly:
    /// it holds, no smaller period works, and the preperiod is tight.
    fn check_claim(seq: &[u8], pre: usize, per: usize) {
        let len = seq.len();
        assert!(
            (pre..len - per).all(|n| seq[n] == seq[n + per]),
            "claimed period fails"
        );
        for d in 1..per {
            assert!(
                (pre.max(len / 2)..len - d).any(|n| seq[n] != seq[n + d]),
                "smaller period {d} also works"
            );
        }
        if pre > 0 {
            assert_ne!(seq[pre - 1], seq[pre - 1 + per], "preperiod not tight");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The certificate-derived answer agrees with a direct check on a
        /// prefix much longer than preperiod + period.
        #[test]
        fn periodicity_claims_hold(mask in 1u64..(1 << 10)) {
            let s = SubtractionSet::from_mask(mask).unwrap();
            let a = analyse(&s);
            let len = 4 * (a.grundy.preperiod + 2 * a.grundy.period) + 200;
            let g = grundy_sequence(&s, len);
            check_claim(&g, a.grundy.preperiod, a.grundy.period);
            let o: Vec<u8> = g.iter().map(|&x| u8::from(x == 0)).collect();
            check_claim(&o, a.outcome.preperiod, a.outcome.period);
            prop_assert_eq!(a.grundy.period % a.outcome.period, 0);
            prop_assert!(a.outcome.preperiod <= a.grundy.preperiod);
        }
    }
}
