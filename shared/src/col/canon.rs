//! Codes naming a component up to isomorphism, the keys of the component memo.
//!
//! A component is first *compacted* ([`Compact`]): its `k` vertices renumbered
//! `0..k` in increasing order, each with a label (blue-only 1, red-only 2,
//! both 3) and its kept look-arcs. Every code below is an exact description of
//! a compacted component under some vertex order, so equal codes ⇒ isomorphic
//! components ⇒ equal values; the codes differ in how often isomorphic
//! components get the same code:
//!
//! * [`labelled_code`]: the compacted order itself (no isomorphism at all);
//! * AHU codes for out-trees (Myopic Col on trees) and for undirected trees
//!   (Col), rooted at the root / the centre: complete invariants, linear time;
//! * otherwise colour refinement plus individualisation over the remaining
//!   ties, keeping the smallest leaf code — a canonical labelling. Highly
//!   symmetric components can make that search large; beyond [`LEAF_CAP`]
//!   leaves we fall back to the labelled code (still exact, only less shared).
//!
//! Codes of up to 10 vertices (trees: up to 30) pack into a `u128`; larger
//! ones use a boxed word list. The top 3 bits of a small code hold its tag, so
//! codes of different schemes never collide.

use super::{Board, Pos};
use crate::graph::members;

/// A component code (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// Packed code: tag in bits 125..128.
    Small(u128),
    /// Word list `[tag, k, labels…, rows…]` for large components.
    Big(Box<[u32]>),
}

const TAG_LABELLED: u128 = 1;
const TAG_OUT_TREE: u128 = 2;
const TAG_TREE: u128 = 3;
const TAG_CANON: u128 = 4;

/// Most leaves the individualisation search visits before falling back to the labelled code.
pub const LEAF_CAP: u32 = 720;

/// A component renumbered `0..k`.
#[derive(Clone, Copy, Debug)]
pub struct Compact {
    /// Vertex count.
    pub k: usize,
    /// 1 = blue only, 2 = red only, 3 = both.
    pub label: [u8; 32],
    /// `out[i]`: the compacted vertices `i` looks at (kept arcs only).
    pub out: [u32; 32],
}

/// Compact the part of `p` on `comp` (arcs between vertices sharing no
/// available colour are dropped when `drop_arcs`).
#[inline]
pub fn compact(b: &Board, p: Pos, comp: u32, drop_arcs: bool) -> Compact {
    let mut c = Compact {
        k: comp.count_ones() as usize,
        label: [0; 32],
        out: [0; 32],
    };
    let mut rank = [0u8; 32];
    for (i, v) in members(comp).enumerate() {
        rank[v] = i as u8;
    }
    for (i, u) in members(comp).enumerate() {
        c.label[i] = (p.l >> u & 1) as u8 | ((p.r >> u & 1) as u8) << 1;
        let mut row = b.look(u) & comp;
        if drop_arcs {
            row &= p.share(u);
        }
        let mut o = 0u32;
        for w in members(row) {
            o |= 1 << rank[w];
        }
        c.out[i] = o;
    }
    c
}

/// The code of the component in the given vertex order `perm` (position → vertex).
fn ordered_code(c: &Compact, perm: &[usize], tag: u128) -> Code {
    let k = c.k;
    if k <= 10 {
        let mut x: u128 = k as u128;
        for &v in perm {
            x = x << 2 | c.label[v] as u128;
        }
        for &u in perm {
            for &w in perm {
                x = x << 1 | (c.out[u] >> w & 1) as u128;
            }
        }
        Code::Small(tag << 125 | x)
    } else {
        let mut inv = [0usize; 32];
        for (i, &v) in perm.iter().enumerate() {
            inv[v] = i;
        }
        let mut words = Vec::with_capacity(2 + 2 * k);
        words.push(tag as u32);
        words.push(k as u32);
        words.extend(perm.iter().map(|&v| c.label[v] as u32));
        for &u in perm {
            let mut row = 0u32;
            for w in members(c.out[u]) {
                row |= 1 << inv[w];
            }
            words.push(row);
        }
        Code::Big(words.into_boxed_slice())
    }
}

/// The code of the component in its compacted order (no isomorphism reduction).
pub fn labelled_code(c: &Compact) -> Code {
    let perm: Vec<usize> = (0..c.k).collect();
    ordered_code(c, &perm, TAG_LABELLED)
}

/// A code shared by all components isomorphic to `c` (except when the
/// canonical search exceeds [`LEAF_CAP`], where the labelled code is returned).
pub fn canonical_code(c: &Compact) -> Code {
    let k = c.k;
    let mut inn = [0u32; 32];
    let mut arcs = 0;
    for u in 0..k {
        arcs += c.out[u].count_ones();
        for w in members(c.out[u]) {
            inn[w] |= 1 << u;
        }
    }
    if k <= 30 && connected(c, &inn) {
        if arcs as usize == k - 1 {
            // Out-tree: one root, every other vertex has exactly one in-arc.
            let roots: Vec<usize> = (0..k).filter(|&v| inn[v] == 0).collect();
            if roots.len() == 1 && (0..k).all(|v| inn[v].count_ones() <= 1) {
                let (bits, _) = ahu(c, roots[0], usize::MAX, &|u| c.out[u]);
                return Code::Small(TAG_OUT_TREE << 125 | bits);
            }
        }
        let symmetric = (0..k).all(|v| c.out[v] == inn[v]);
        if symmetric && arcs as usize == 2 * (k - 1) {
            let centres = centres(c);
            let best = centres
                .iter()
                .map(|&r| ahu(c, r, usize::MAX, &|u| c.out[u]))
                .min_by_key(|&(bits, len)| (len, bits))
                .expect("a tree has a centre");
            return Code::Small(TAG_TREE << 125 | best.0);
        }
    }
    let mut best: Option<Code> = None;
    let mut leaves = 0u32;
    let colours: Vec<u32> = (0..k).map(|v| c.label[v] as u32).collect();
    if search(c, &inn, colours, &mut best, &mut leaves) {
        return labelled_code(c);
    }
    best.expect("the search reaches at least one leaf")
}

fn connected(c: &Compact, inn: &[u32; 32]) -> bool {
    if c.k == 0 {
        return true;
    }
    let all = if c.k == 32 {
        u32::MAX
    } else {
        (1u32 << c.k) - 1
    };
    let mut seen = 1u32;
    let mut frontier = 1u32;
    while frontier != 0 {
        let u = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = (c.out[u] | inn[u]) & !seen;
        seen |= new;
        frontier |= new;
    }
    seen == all
}

/// AHU code of the subtree at `v` (children = `kids(v)` minus `parent`):
/// `1, label (2 bits), children's codes in sorted order, 0`. Returns (bits, length).
fn ahu(c: &Compact, v: usize, parent: usize, kids: &dyn Fn(usize) -> u32) -> (u128, u32) {
    let mut subs: Vec<(u32, u128)> = members(kids(v))
        .filter(|&w| w != parent)
        .map(|w| {
            let (b, l) = ahu(c, w, v, kids);
            (l, b)
        })
        .collect();
    subs.sort_unstable();
    let mut bits: u128 = 0b100 | c.label[v] as u128;
    let mut len = 3;
    for (l, b) in subs {
        bits = bits << l | b;
        len += l;
    }
    (bits << 1, len + 1)
}

/// The one or two centres of an undirected tree (leaf stripping).
fn centres(c: &Compact) -> Vec<usize> {
    let k = c.k;
    if k == 1 {
        return vec![0];
    }
    let mut deg: Vec<u32> = (0..k).map(|v| c.out[v].count_ones()).collect();
    let mut alive = if k == 32 { u32::MAX } else { (1u32 << k) - 1 };
    let mut left = k;
    while left > 2 {
        let leaves: Vec<usize> = members(alive).filter(|&v| deg[v] <= 1).collect();
        for &v in &leaves {
            alive &= !(1 << v);
            for w in members(c.out[v] & alive) {
                deg[w] -= 1;
            }
        }
        left -= leaves.len();
    }
    members(alive).collect()
}

/// Colour refinement: split colour classes by (own colour, neighbour colour
/// counts out and in) until stable; colours become ranks `0..m`.
fn refine(c: &Compact, inn: &[u32; 32], colours: &mut [u32]) -> usize {
    let k = c.k;
    let mut classes = count_classes(colours);
    loop {
        let m = *colours.iter().max().unwrap_or(&0) as usize + 1;
        let mut sigs: Vec<(Vec<u32>, usize)> = (0..k)
            .map(|v| {
                let mut s = vec![0u32; 1 + 2 * m];
                s[0] = colours[v];
                for w in members(c.out[v]) {
                    s[1 + colours[w] as usize] += 1;
                }
                for w in members(inn[v]) {
                    s[1 + m + colours[w] as usize] += 1;
                }
                (s, v)
            })
            .collect();
        sigs.sort();
        let mut rank = 0u32;
        for i in 0..k {
            if i > 0 && sigs[i].0 != sigs[i - 1].0 {
                rank += 1;
            }
            colours[sigs[i].1] = rank;
        }
        let now = rank as usize + 1;
        if now == classes {
            return now;
        }
        classes = now;
    }
}

fn count_classes(colours: &[u32]) -> usize {
    let mut v: Vec<u32> = colours.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len()
}

/// Individualisation-refinement search; returns true when it gave up (too many leaves).
fn search(
    c: &Compact,
    inn: &[u32; 32],
    mut colours: Vec<u32>,
    best: &mut Option<Code>,
    leaves: &mut u32,
) -> bool {
    let k = c.k;
    let classes = refine(c, inn, &mut colours);
    if classes == k {
        let mut perm = vec![0usize; k];
        for v in 0..k {
            perm[colours[v] as usize] = v;
        }
        let code = ordered_code(c, &perm, TAG_CANON);
        if best.as_ref().is_none_or(|b| code < *b) {
            *best = Some(code);
        }
        *leaves += 1;
        return *leaves > LEAF_CAP;
    }
    // First non-singleton class (smallest colour).
    let mut count = vec![0u32; k];
    for &x in &colours {
        count[x as usize] += 1;
    }
    let target = (0..k)
        .find(|&x| count[x] > 1)
        .expect("a non-singleton class") as u32;
    for v in 0..k {
        if colours[v] != target {
            continue;
        }
        let next: Vec<u32> = (0..k)
            .map(|x| 2 * colours[x] + u32::from(colours[x] == target && x != v))
            .collect();
        if search(c, inn, next, best, leaves) {
            return true;
        }
    }
    false
}
