//! Cheap truths checked where a kind knows them: facts about a finished
//! sweep's merged result that an independent, much cheaper computation
//! gives, so that a lie or a flipped bit that slipped past replication
//! still shows. Today: uvg's count of connected graphs for every n the
//! sweep covers whole, against A001349(n) recomputed here by Burnside's
//! lemma (graphs on n vertices, A000088) and the inverse Euler transform
//! (connected ones), never copied in. (Where each kind's checks should
//! live once kinds own their meaning: issue "kinds own their meaning".)
//!
//! Which kinds have which checks (the rest have none yet; per-shard
//! validation, `SweepKind::validate`, covers every kind):
//! - `uvg`: connected graphs per n = A001349(n), and positions per n =
//!   n × graphs (every vertex a start), for 1 ≤ n ≤ 13.

use serde::{Deserialize, Serialize};

/// The largest n whose graph count is computed here (the Burnside sum
/// stays within 128 bits).
pub const MAX_N: u32 = 13;

/// One check of a finished sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TruthCheck {
    /// What was checked.
    pub check: String,
    /// Whether it held.
    pub ok: bool,
    /// The figures compared; on a failure, what to do.
    pub detail: String,
}

/// The partitions of `n` (as multiplicities: `m[i]` parts of size `i`).
fn partitions(n: usize) -> Vec<Vec<u32>> {
    fn go(n: usize, max: usize, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if n == 0 {
            out.push(cur.clone());
            return;
        }
        for part in (1..=max.min(n)).rev() {
            cur[part] += 1;
            go(n - part, part, cur, out);
            cur[part] -= 1;
        }
    }
    let mut out = Vec::new();
    go(n, n, &mut vec![0; n + 1], &mut out);
    out
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Graphs on `n` unlabelled vertices (A000088), by Burnside's lemma: the
/// average over the permutations of the vertices of 2^(edge orbits), summed
/// over cycle types.
pub fn graphs_on(n: u32) -> Option<u128> {
    if n > MAX_N {
        return None;
    }
    let n = n as usize;
    let fact: u128 = (1..=n as u128).product();
    let mut sum: u128 = 0;
    for m in partitions(n) {
        let parts: Vec<u64> = m
            .iter()
            .enumerate()
            .flat_map(|(size, &k)| std::iter::repeat_n(size as u64, k as usize))
            .collect();
        let mut orbits: u64 = parts.iter().map(|p| p / 2).sum();
        for (a, &p) in parts.iter().enumerate() {
            for &q in &parts[a + 1..] {
                orbits += gcd(p, q);
            }
        }
        // Permutations of this cycle type: n! / Π i^m_i m_i!.
        let mut z: u128 = 1;
        for (size, &k) in m.iter().enumerate().skip(1) {
            z *= (size as u128).pow(k) * (1..=k as u128).product::<u128>();
        }
        sum = sum.checked_add((fact / z).checked_mul(1u128.checked_shl(orbits as u32)?)?)?;
    }
    Some(sum / fact)
}

/// Connected graphs on `n` vertices (A001349), from [`graphs_on`] by the
/// inverse Euler transform.
pub fn connected_graphs(n: u32) -> Option<u128> {
    if n == 0 || n > MAX_N {
        return None;
    }
    let b: Vec<i128> = (0..=n)
        .map(|k| graphs_on(k).map(|x| x as i128))
        .collect::<Option<_>>()?;
    let n = n as usize;
    let mut c = vec![0i128; n + 1];
    for k in 1..=n {
        c[k] = k as i128 * b[k] - (1..k).map(|j| c[j] * b[k - j]).sum::<i128>();
    }
    let mobius = |mut x: usize| -> i128 {
        let mut r = 1;
        let mut p = 2;
        while p * p <= x {
            if x.is_multiple_of(p) {
                x /= p;
                if x.is_multiple_of(p) {
                    return 0;
                }
                r = -r;
            }
            p += 1;
        }
        if x > 1 {
            r = -r;
        }
        r
    };
    let a: i128 = (1..=n)
        .filter(|d| n.is_multiple_of(*d))
        .map(|d| mobius(n / d) * c[d])
        .sum::<i128>()
        / n as i128;
    u128::try_from(a).ok()
}

/// The checks of a finished sweep of `kind` whose `results.json` is `doc`
/// (empty for kinds without any).
pub fn check(kind: &str, doc: &serde_json::Value) -> Vec<TruthCheck> {
    match kind {
        "uvg" => check_uvg(doc),
        _ => Vec::new(),
    }
}

fn check_uvg(doc: &serde_json::Value) -> Vec<TruthCheck> {
    let mut out = Vec::new();
    let Some(by_n) = doc.get("by_n").and_then(|b| b.as_array()) else {
        return out;
    };
    for row in by_n {
        let (Some(n), Some(graphs), Some(positions)) = (
            row.get("n").and_then(|x| x.as_u64()),
            row.get("graphs").and_then(|x| x.as_u64()),
            row.get("positions").and_then(|x| x.as_u64()),
        ) else {
            continue;
        };
        let Some(want) = connected_graphs(n as u32) else {
            continue;
        };
        let ok = u128::from(graphs) == want && u128::from(positions) == u128::from(n) * want;
        out.push(TruthCheck {
            check: format!("uvg n = {n}: connected graphs = A001349({n}), positions = n × graphs"),
            ok,
            detail: if ok {
                format!("{graphs} graphs, {positions} positions")
            } else {
                format!(
                    "MISMATCH: the sweep counted {graphs} graphs and {positions} positions at n = {n}, but there are {want} connected graphs on {n} vertices ({} positions): a result is wrong; re-run the sweep with `launch --replicate all` (or `gamesweep verify` its export with --fraction 1) and compare",
                    u128::from(n) * want
                )
            },
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recomputation equals the spec's A000088 and A001349 (reference
    /// numbers live in tests only).
    #[test]
    fn graph_counts_are_recomputed() {
        let all = [
            1u128, 1, 2, 4, 11, 34, 156, 1044, 12346, 274668, 12005168, 1018997864,
        ];
        for (n, want) in all.iter().enumerate() {
            assert_eq!(graphs_on(n as u32), Some(*want), "A000088({n})");
        }
        let connected = [
            1u128,
            1,
            2,
            6,
            21,
            112,
            853,
            11117,
            261080,
            11716571,
            1006700565,
            164059830476,
        ];
        for (i, want) in connected.iter().enumerate() {
            let n = i as u32 + 1;
            assert_eq!(connected_graphs(n), Some(*want), "A001349({n})");
        }
        assert_eq!(connected_graphs(13), Some(50_335_907_869_219));
        assert_eq!(connected_graphs(14), None);
    }

    #[test]
    fn a_wrong_count_is_named_and_a_right_one_passes() {
        let doc = |graphs: u64| {
            serde_json::json!({"by_n": [
                {"n": 7, "graphs": 853, "positions": 5971},
                {"n": 8, "graphs": graphs, "positions": graphs * 8},
            ]})
        };
        let good = check("uvg", &doc(11_117));
        assert_eq!(good.len(), 2);
        assert!(good.iter().all(|c| c.ok), "{good:?}");
        let bad = check("uvg", &doc(11_116));
        assert!(bad[0].ok && !bad[1].ok);
        assert!(bad[1].detail.contains("11116 graphs"), "{}", bad[1].detail);
        assert!(bad[1].detail.contains("11117 connected graphs"));
        assert!(check("col", &doc(1)).is_empty());
    }
}
