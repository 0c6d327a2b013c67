//! Seeded random samples of a plan: which shards a sampled sweep runs first.
//!
//! The shard indices are shuffled (Fisher–Yates driven by ChaCha8 seeded with
//! the user's seed; both fully specified, so a seed names the same sample on
//! every machine and build) and taken in that order until their estimates
//! add up to the requested share of the plan's total estimate. A plan whose
//! kind gives no estimates is sampled by shard count.

use gamesweep::sweep::ShardSpec;
use rand::{RngCore, SeedableRng};

/// A sample size that is not a share of the plan (the message quotes it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FractionError {
    /// Not a number.
    #[error("bad sample size `{0}`: give a share such as `0.5%` or `0.005`")]
    NotANumber(String),
    /// Not above 0 and at most 100 %.
    #[error("sample size `{0}` is out of range: it must be above 0 and at most 100%")]
    OutOfRange(String),
}

/// Parse a sample size: `0.5%`, `0.005` or `5e-3`, as millionths (ppm) of the
/// plan, in `1..=1_000_000`.
pub fn parse_fraction(text: &str) -> Result<u32, FractionError> {
    let t = text.trim();
    let (num, scale) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), 0.01),
        None => (t, 1.0),
    };
    let v: f64 = num
        .parse()
        .map_err(|_| FractionError::NotANumber(text.to_string()))?;
    let f = v * scale;
    if !f.is_finite() || f <= 0.0 || f > 1.0 {
        return Err(FractionError::OutOfRange(text.to_string()));
    }
    Ok(((f * 1e6).round() as u32).clamp(1, 1_000_000))
}

/// The sample: shard indices in the order picked, stopping as soon as their
/// estimates reach `ppm` millionths of the total (at least one shard).
pub fn choose(plan: &[ShardSpec], ppm: u32, seed: u64) -> Vec<u32> {
    let weight = |s: &ShardSpec| -> u128 {
        if plan.iter().all(|p| p.estimate == 0) {
            1
        } else {
            s.estimate as u128
        }
    };
    let total: u128 = plan.iter().map(weight).sum();
    let target = (total * ppm as u128).div_ceil(1_000_000);
    let mut order: Vec<u32> = (0..plan.len() as u32).collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for i in (1..order.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    let mut acc = 0u128;
    let mut out = Vec::new();
    for i in order {
        if acc >= target && !out.is_empty() {
            break;
        }
        acc += weight(&plan[i as usize]);
        out.push(i);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(est: &[u64]) -> Vec<ShardSpec> {
        est.iter()
            .enumerate()
            .map(|(i, &e)| ShardSpec {
                index: i as u32,
                payload: String::new(),
                estimate: e,
            })
            .collect()
    }

    #[test]
    fn fractions_parse_with_clear_errors() {
        assert_eq!(parse_fraction("0.5%"), Ok(5_000));
        assert_eq!(parse_fraction("0.005"), Ok(5_000));
        assert_eq!(parse_fraction("100%"), Ok(1_000_000));
        assert_eq!(parse_fraction("1e-9"), Ok(1));
        for bad in ["", "x", "0", "-1%", "101%", "1.5", "nan", "inf"] {
            assert!(parse_fraction(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn samples_reach_the_share_and_depend_only_on_the_seed() {
        let p = plan(&(1..=1000).map(|i| 1000 + i % 7).collect::<Vec<_>>());
        let total: u64 = p.iter().map(|s| s.estimate).sum();
        let a = choose(&p, 10_000, 42);
        assert_eq!(a, choose(&p, 10_000, 42));
        assert_ne!(a, choose(&p, 10_000, 43));
        let got: u64 = a.iter().map(|&i| p[i as usize].estimate).sum();
        assert!(got * 100 >= total, "at least 1 %");
        let short: u64 = a[..a.len() - 1]
            .iter()
            .map(|&i| p[i as usize].estimate)
            .sum();
        assert!(short * 100 < total, "and no more shards than needed");
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), a.len(), "no shard twice");
        // Without estimates: by shard count. Whole plan: every shard.
        assert_eq!(choose(&plan(&[0; 200]), 50_000, 1).len(), 10);
        assert_eq!(choose(&p, 1_000_000, 5).len(), 1000);
        assert_eq!(choose(&p, 1, 5).len(), 1);
    }
}
