//! Edmonds' blossom algorithm specialised to [`BitGraph`] (≤ 32 vertices):
//! the same algorithm as [`super::matching::Blossom`], but every array lives
//! on the stack (`[u8; 32]`) and the per-vertex flags are `u32` masks, so a
//! run allocates nothing. This is the sweep's matching hot path
//! (`runs/bench-uvg.md`: about 3× faster than the generic version at n = 9).

use crate::graph::{BitGraph, VSet};

const NONE: u8 = u8::MAX;

pub(crate) struct SmallBlossom<'g> {
    adj: &'g [VSet],
    alive: VSet,
    pub mate: [u8; 32],
    parent: [u8; 32],
    base: [u8; 32],
    /// Outer ("even") vertices of the current forest.
    even: VSet,
    queue: [u8; 32],
    qlen: usize,
}

impl<'g> SmallBlossom<'g> {
    pub fn new(g: &'g BitGraph, alive: VSet) -> Self {
        SmallBlossom {
            adj: g.rows(),
            alive: alive & g.all(),
            mate: [NONE; 32],
            parent: [NONE; 32],
            base: std::array::from_fn(|i| i as u8),
            even: 0,
            queue: [0; 32],
            qlen: 0,
        }
    }

    #[inline]
    fn nbrs(&self, v: usize) -> VSet {
        self.adj[v] & self.alive
    }

    /// Greedy matching, then one augmenting search per exposed vertex.
    pub fn maximize(&mut self) -> u32 {
        let mut size = 0;
        let mut free = self.alive;
        let mut s = self.alive;
        while s != 0 {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            if free >> v & 1 == 0 {
                continue;
            }
            let cand = self.nbrs(v) & free;
            if cand != 0 {
                let u = cand.trailing_zeros() as usize;
                self.mate[v] = u as u8;
                self.mate[u] = v as u8;
                free &= !(1 << u | 1 << v);
                size += 1;
            }
        }
        // A matching of ⌊|alive| / 2⌋ edges is maximum: then no search (on
        // an odd number of vertices it would explore the whole graph from
        // the last exposed vertex, to find nothing).
        let most = self.alive.count_ones() / 2;
        let mut s = free;
        while s != 0 && size < most {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            if self.mate[v] != NONE {
                continue;
            }
            // Most exposed vertices the greedy pass leaves have an
            // augmenting path of length 1 or 3; the forest search only
            // for the others.
            if self.short_augment(v, &mut free) {
                size += 1;
                continue;
            }
            self.reset();
            self.even = 1 << v;
            self.push(v);
            if let Some(end) = self.search() {
                self.augment(end);
                free &= !(1 << v | 1 << end);
                size += 1;
            }
        }
        size
    }

    /// Starting from `mate`, a maximum matching of `g[alive]` minus the
    /// vertex `w` (exposed in it): a maximum matching of `g[alive]`. Every
    /// augmenting path of `mate` in `g[alive]` ends at `w` (any other would
    /// augment it without `w`), so one search from `w` decides.
    /// `grows` = false says there is no augmenting path (the caller
    /// knows the matching number did not grow): no search then.
    pub fn extend(&mut self, mate: &[u8; 32], w: usize, grows: bool) {
        debug_assert!(mate[w] == NONE && self.alive >> w & 1 == 1);
        self.mate = *mate;
        if !grows {
            return;
        }
        let mut free = self.alive;
        let mut s = self.alive;
        while s != 0 {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            if self.mate[v] != NONE {
                free &= !(1 << v);
            }
        }
        if self.short_augment(w, &mut free) {
            return;
        }
        self.reset();
        self.even = 1 << w;
        self.push(w);
        if let Some(end) = self.search() {
            self.augment(end);
        }
    }

    /// Augment along a path of length 1 (`v`–`u`, `u` exposed) or 3
    /// (`v`–`w`=`m`–`y`, `w` matched to `m`, `y` exposed) from the exposed
    /// vertex `v`, if there is one; `free` is the set of exposed vertices.
    #[inline]
    fn short_augment(&mut self, v: usize, free: &mut VSet) -> bool {
        let nb = self.nbrs(v);
        let others = *free & !(1 << v);
        if nb & others != 0 {
            let u = (nb & others).trailing_zeros() as usize;
            self.mate[v] = u as u8;
            self.mate[u] = v as u8;
            *free &= !(1 << u | 1 << v);
            return true;
        }
        let mut ws = nb;
        while ws != 0 {
            let w = ws.trailing_zeros() as usize;
            ws &= ws - 1;
            let m = self.mate[w];
            if m == NONE {
                continue;
            }
            let ys = self.nbrs(m as usize) & others;
            if ys != 0 {
                let y = ys.trailing_zeros() as usize;
                self.mate[v] = w as u8;
                self.mate[w] = v as u8;
                self.mate[m as usize] = y as u8;
                self.mate[y] = m;
                *free &= !(1 << y | 1 << v);
                return true;
            }
        }
        false
    }

    #[inline]
    fn push(&mut self, v: usize) {
        self.queue[self.qlen] = v as u8;
        self.qlen += 1;
    }

    fn reset(&mut self) {
        self.parent = [NONE; 32];
        self.base = std::array::from_fn(|i| i as u8);
        self.even = 0;
        self.qlen = 0;
    }

    #[inline]
    fn is_even(&self, to: usize) -> bool {
        self.even >> to & 1 == 1
            || (self.mate[to] != NONE && self.parent[self.mate[to] as usize] != NONE)
    }

    fn search(&mut self) -> Option<usize> {
        let mut qi = 0;
        while qi < self.qlen {
            let v = self.queue[qi] as usize;
            qi += 1;
            let mut nb = self.nbrs(v);
            while nb != 0 {
                let to = nb.trailing_zeros() as usize;
                nb &= nb - 1;
                if self.base[v] == self.base[to] || self.mate[v] as usize == to {
                    continue;
                }
                if self.is_even(to) {
                    let cur = self.lca(v, to)?;
                    let mut blossom = 0u32;
                    self.mark_path(v, cur, to, &mut blossom);
                    self.mark_path(to, cur, v, &mut blossom);
                    let mut s = self.alive;
                    while s != 0 {
                        let x = s.trailing_zeros() as usize;
                        s &= s - 1;
                        if blossom >> self.base[x] & 1 == 1 {
                            self.base[x] = cur as u8;
                            if self.even >> x & 1 == 0 {
                                self.even |= 1 << x;
                                self.push(x);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v as u8;
                    if self.mate[to] == NONE {
                        return Some(to);
                    }
                    let m = self.mate[to] as usize;
                    self.even |= 1 << m;
                    self.push(m);
                }
            }
        }
        None
    }

    fn lca(&self, a: usize, b: usize) -> Option<usize> {
        let mut mark = 0u32;
        let mut a = a;
        loop {
            a = self.base[a] as usize;
            mark |= 1 << a;
            let m = self.mate[a];
            if m == NONE || self.parent[m as usize] == NONE {
                break;
            }
            a = self.parent[m as usize] as usize;
        }
        let mut b = b;
        loop {
            b = self.base[b] as usize;
            if mark >> b & 1 == 1 {
                return Some(b);
            }
            let m = self.mate[b];
            if m == NONE || self.parent[m as usize] == NONE {
                return None;
            }
            b = self.parent[m as usize] as usize;
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize, blossom: &mut u32) {
        while self.base[v] as usize != b {
            let m = self.mate[v] as usize;
            *blossom |= 1 << self.base[v] | 1 << self.base[m];
            self.parent[v] = child as u8;
            child = m;
            v = self.parent[m] as usize;
        }
    }

    fn augment(&mut self, mut v: usize) {
        while v != NONE as usize {
            let pv = self.parent[v] as usize;
            let ppv = self.mate[pv];
            self.mate[v] = pv as u8;
            self.mate[pv] = v as u8;
            v = ppv as usize;
        }
    }

    /// After [`maximize`](Self::maximize): the Gallai–Edmonds set D (alive
    /// vertices some maximum matching misses) = even vertices of the forest
    /// grown from all exposed vertices at once.
    pub fn missable(&mut self) -> VSet {
        self.reset();
        let mut s = self.alive;
        while s != 0 {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            if self.mate[v] == NONE {
                self.even |= 1 << v;
                self.push(v);
            }
        }
        let found = self.search();
        debug_assert!(found.is_none(), "matching was not maximum");
        self.even
    }
}
