//! Alternative exact Grundy algorithms, kept only so that
//! `examples/uvg_bench.rs` can compare them with the production
//! [`grundy_all`](super::grundy_all) (figures in `runs/bench-uvg.md`), and so
//! the tests can cross-check them. Not part of the supported API.

use crate::graph::{members, BitGraph, VSet};

/// Bottom-up subset DP storing one option-bit per (S, v) (`1 << g(v, S)`):
/// `g(v, S)` = mex of the OR over `u ∈ N(v) ∩ S` of row `S − v` — one load
/// per option instead of one AND per candidate value. n ≤ 16.
pub fn or_mask_dp(g: &BitGraph, tab: &mut Vec<u16>) -> Vec<u8> {
    let n = g.n();
    assert!((1..=16).contains(&n));
    let rows = 1usize << n;
    if tab.len() < rows * 16 {
        tab.resize(rows * 16, 0);
    }
    let adj: [u16; 16] = std::array::from_fn(|v| if v < n { g.nbrs(v) as u16 } else { 0 });
    for s in 1..rows {
        let mut vs = s as u16;
        while vs != 0 {
            let v = vs.trailing_zeros() as usize;
            vs &= vs - 1;
            let t = s & !(1 << v);
            let mut nb = adj[v] & s as u16;
            let mut seen = 0u16;
            while nb != 0 {
                let u = nb.trailing_zeros() as usize;
                nb &= nb - 1;
                seen |= tab[t * 16 + u];
            }
            tab[s * 16 + v] = 1 << seen.trailing_ones();
        }
    }
    (0..n)
        .map(|v| tab[(rows - 1) * 16 + v].trailing_zeros() as u8)
        .collect()
}

/// Top-down memoised search over (token, remaining set) — no component
/// canonicalisation — in a flat table of `n · 2^n` entries reset by a
/// generation stamp (entry = stamp << 8 | value). n ≤ 16.
pub struct StampedMemo {
    tab: Vec<u32>,
    stamp: u32,
    /// Positions evaluated so far (over all calls).
    pub states: u64,
}

impl Default for StampedMemo {
    fn default() -> Self {
        Self::new()
    }
}

impl StampedMemo {
    /// Empty scratch.
    pub fn new() -> Self {
        StampedMemo {
            tab: Vec::new(),
            stamp: 0,
            states: 0,
        }
    }

    /// Values of all starts of `g`.
    pub fn grundy_all(&mut self, g: &BitGraph) -> Vec<u8> {
        let n = g.n();
        assert!((1..=16).contains(&n));
        let need = n << n;
        if self.tab.len() < need {
            self.tab.resize(need, 0);
        }
        self.stamp += 1;
        if self.stamp == 1 << 24 {
            self.tab.fill(0);
            self.stamp = 1;
        }
        (0..n).map(|v| self.go(g, v, g.all())).collect()
    }

    fn go(&mut self, g: &BitGraph, v: usize, s: VSet) -> u8 {
        let n = g.n();
        let idx = (s as usize) * n + v;
        let e = self.tab[idx];
        if e >> 8 == self.stamp {
            return e as u8;
        }
        let rest = s & !(1 << v);
        let mut seen = 0u32;
        for u in members(g.nbrs(v) & rest) {
            seen |= 1 << self.go(g, u, rest);
        }
        let x = seen.trailing_ones() as u8;
        self.states += 1;
        self.tab[idx] = self.stamp << 8 | x as u32;
        x
    }
}

/// Top-down search keyed on (token, token's component) in a hash map — the
/// seed's method, and the one `grundy_all` uses above 16 vertices.
pub fn component_memo(g: &BitGraph) -> Vec<u8> {
    let mut memo = super::Memo::default();
    (0..g.n())
        .map(|v| super::memo_grundy(g, v, g.component(v, g.all()), &mut memo))
        .collect()
}

/// The first bit-plane DP: one `u16` per plane, the least empty plane found
/// by a data-dependent loop (branchy). n ≤ 16.
pub fn scalar_planes_dp(g: &BitGraph, tab: &mut Vec<u16>) -> Vec<u8> {
    let n = g.n();
    debug_assert!((1..=16).contains(&n));
    // Values never exceed the maximum degree, so planes 0..=maxdeg suffice:
    // the search for the least empty plane stops at k ≤ |N(v) ∩ S| ≤ maxdeg.
    let p = g.max_degree() as usize + 1;
    let rows = 1usize << n;
    if tab.len() < rows * p {
        tab.resize(rows * p, 0);
    }
    let adj: [u16; 16] = std::array::from_fn(|v| if v < n { g.nbrs(v) as u16 } else { 0 });
    tab[..p].fill(0);
    for s in 1..rows {
        let (done, row) = tab.split_at_mut(s * p);
        let row = &mut row[..p];
        row.fill(0);
        let mut vs = s as u16;
        while vs != 0 {
            let v = vs.trailing_zeros() as usize;
            vs &= vs - 1;
            let t = s & !(1 << v);
            let nb = adj[v] & s as u16;
            let mut k = 0;
            if nb != 0 {
                let prev = &done[t * p..t * p + p];
                while prev[k] & nb != 0 {
                    k += 1;
                }
            }
            row[k] |= 1 << v;
        }
    }
    let full = &tab[(rows - 1) * p..rows * p];
    (0..n)
        .map(|v| full.iter().position(|&pl| pl >> v & 1 == 1).unwrap() as u8)
        .collect()
}

/// The production DP without the reachability pass: every (v, S). `W = 1`
/// only (returns `None` if a value ≥ 4 occurs). Fully branch-free per position: the lowest empty
/// lane's high bit `2^(16k+15)`, shifted down by 15 and up by `v`, is exactly
/// bit `v` of plane `k`.
pub fn swar_planes_all_subsets(g: &BitGraph, tab: &mut Vec<u64>) -> Option<Vec<u8>> {
    let n = g.n();
    let rows = 1usize << n;
    if tab.len() < rows {
        tab.resize(rows, 0);
    }
    let adjb: [u64; 16] = std::array::from_fn(|v| {
        if v < n {
            g.nbrs(v) as u64 * super::LANE_ONES
        } else {
            0
        }
    });
    tab[0] = 0;
    let mut bad = false;
    for s in 1..rows {
        let sb = s as u64 * super::LANE_ONES;
        let mut cur = 0u64;
        let mut vs = s;
        while vs != 0 {
            let v = vs.trailing_zeros() as usize;
            vs &= vs - 1;
            let x = tab[s ^ (1 << v)] & adjb[v] & sb;
            let nonzero = (x | ((x & super::LANE_LO15) + super::LANE_LO15)) & super::LANE_HI;
            let empty = nonzero ^ super::LANE_HI;
            bad |= empty == 0;
            cur |= ((empty & empty.wrapping_neg()) >> 15) << v;
        }
        tab[s] = cur;
    }
    if bad {
        return None;
    }
    let full = tab[rows - 1];
    Some(
        (0..n)
            .map(|v| {
                (0..4)
                    .position(|k| full >> (16 * k + v) & 1 == 1)
                    .expect("has a value") as u8
            })
            .collect(),
    )
}

/// The bit-sliced DP (`uvg/bitsliced.rs`) alone; `None` for n > 12 or a value ≥ 4.
pub fn bitsliced(g: &BitGraph) -> Option<Vec<u8>> {
    super::bitsliced::grundy_all_bitsliced(g)
}

/// The per-position SWAR bit-plane DP that `grundy_all` uses for 13 ≤ n ≤ 16
/// (and as the fallback of the bit-sliced DP). n ≤ 16.
pub fn swar_planes(g: &BitGraph) -> Vec<u8> {
    assert!((1..=16).contains(&g.n()));
    super::PLANES.with(|t| super::planes_dp(g, &mut t.borrow_mut()))
}

/// `matching::always_matched` computed by the generic (heap-allocating)
/// blossom implementation that `GeneralGraph` uses.
pub fn generic_always_matched(g: &BitGraph, alive: VSet) -> VSet {
    let alive = alive & g.all();
    let view = super::matching::BitView { g, alive };
    let mut b = super::matching::Blossom::new(&view);
    b.maximize();
    let d = b.missable();
    members(alive).filter(|&v| !d[v]).fold(0, |s, v| s | 1 << v)
}

/// Maximum matching size by the generic blossom implementation.
pub fn generic_max_matching(g: &BitGraph, alive: VSet) -> u32 {
    let view = super::matching::BitView {
        g,
        alive: alive & g.all(),
    };
    super::matching::Blossom::new(&view).maximize()
}
