//! Octal games (Guy–Smith codes 0.d1d2…dk): Grundy values by heap size and
//! their periodicity as the Octal Game Theorem proves it; the `octal` sweep
//! kind (`crate::kinds::octal`) runs them over every code.

use serde::{Deserialize, Serialize};

/// The code of rank `r` as a base-8 number d1d2…dk (dk ≠ 0).
pub fn code_of_rank(r: u64) -> u64 {
    r / 7 * 8 + r % 7 + 1
}

/// The digits d1..dk of `code` (k digits).
pub fn digits_of(code: u64, k: u64) -> Vec<u8> {
    (0..k)
        .rev()
        .map(|i| ((code >> (3 * i)) & 7) as u8)
        .collect()
}

/// `0.137`.
pub fn code_text(code: u64, k: u64) -> String {
    let d: String = digits_of(code, k)
        .iter()
        .map(|d| char::from(b'0' + d))
        .collect();
    format!("0.{d}")
}

/// G(0..=max_heap) of the octal game with digits `d` (d[i−1] = d_i).
pub fn grundy_values(d: &[u8], max_heap: usize) -> Vec<u32> {
    let mut g = vec![0u32; max_heap + 1];
    // A heap has at most k·(n/2 + 1) options, so the mex is below `cap`.
    let cap = d.len() * (max_heap / 2 + 2) + 2;
    let mut seen = vec![0usize; cap];
    for n in 1..=max_heap {
        let mut mark = |v: u32| {
            if let Some(s) = seen.get_mut(v as usize) {
                *s = n;
            }
        };
        for (i, &digit) in d.iter().enumerate() {
            let i = i + 1;
            if i > n {
                break;
            }
            let r = n - i;
            if digit & 1 != 0 && r == 0 {
                mark(0);
            }
            if digit & 2 != 0 && r > 0 {
                mark(g[r]);
            }
            if digit & 4 != 0 {
                for a in 1..=r / 2 {
                    mark(g[a] ^ g[r - a]);
                }
            }
        }
        g[n] = seen.iter().position(|&s| s != n).unwrap_or(cap) as u32;
    }
    g
}

/// Preperiod and period of an ultimately periodic sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Periodicity {
    /// n0.
    pub preperiod: u64,
    /// p.
    pub period: u64,
}

/// The smallest (p, then n0) periodicity of `g` = G(0..=N) that the Octal
/// Game Theorem proves with largest removal `t`, using only `g`.
pub fn proven_periodicity(g: &[u32], t: usize) -> Option<Periodicity> {
    let n = g.len().checked_sub(1)?;
    let mut next_bad = Vec::with_capacity(g.len() + 1);
    // n0 = 0 needs 2p + t − 1 ≤ N.
    for p in (1..).take_while(|p| 2 * p + t <= n + 1) {
        // next_bad[j]: the smallest j' ≥ j with G(j' + p) ≠ G(j'), j' + p ≤ N.
        let m = n - p;
        next_bad.clear();
        next_bad.resize(m + 2, m + 1);
        for j in (0..=m).rev() {
            next_bad[j] = if g[j + p] != g[j] { j } else { next_bad[j + 1] };
        }
        // The window n0 ≤ n < end needs end − 1 + p ≤ N.
        for (n0, &bad) in next_bad.iter().enumerate() {
            let end = 2 * n0 + p + t;
            if end + p > n + 1 {
                break;
            }
            if bad >= end {
                return Some(Periodicity {
                    preperiod: n0 as u64,
                    period: p as u64,
                });
            }
        }
    }
    None
}
