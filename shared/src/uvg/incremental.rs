//! Grundy values of every start along a walk of the generation tree, one
//! vertex at a time ([`Incremental`]).
//!
//! Canonical augmentation builds a child `H = G + x` by adding vertex
//! `x = n − 1` to its parent `G` with `G`'s labels intact. A position is a
//! token `v` and a set `S` of remaining vertices; its value only depends on
//! the graph induced by `S`. So every position with `x ∉ S` is a position of
//! the parent, and the subset table of `H` is the parent's table (the rows
//! `S < 2^(n−1)`) followed by the rows with `x ∈ S` (`2^(n−1) ≤ S < 2^n`),
//! which are the only ones a node has to compute. One table serves the whole
//! depth-first walk: the node on level `n` owns rows `[2^(n−1), 2^n)`, and
//! in preorder its ancestors' rows are still in place when it is visited.
//!
//! A row is two words of "bit planes" (as in the per-position DP of
//! [`grundy_all`](super::grundy_all)): plane `k` is a 16-bit lane whose bit
//! `u` is set iff `u ∈ S` and `g(u, S) = k`; word 0 holds planes 0..=3,
//! word 1 planes 4..=7. For `v ∈ S`, `g(v, S)` is the least `k` with
//! `plane_k(S − v) ∩ N(v) = ∅`: a branch-free SWAR lane test on word 0, and on
//! word 1 only when all four low planes meet `N(v)` (values ≥ 4 are rare).
//! Rows are computed in increasing order of `S`, so `S − v` is always done.
//!
//! Compared with recomputing each graph from scratch, a node costs half a
//! table (`2^(n−1)` rows instead of `2^n`) and needs no fixed-point rounds;
//! the parents' own half tables are shared by all their children (about 84
//! per parent at n = 11). The last level of a walk ([`Incremental::push_leaf`])
//! computes no row at all: which positions are lost is read in O(1) from the
//! parent's plane 0 (a proven shortcut by the matching theorem,
//! `docs/uvg-shortcuts.md`), and a top-down search by the game rule gives the
//! values of the starts that are not lost. The leaves' parents need not
//! compute their value rows either ([`Incremental::push_parent`]): the
//! leaves read them only through plane 0, which is derived by the same
//! shortcut from the grandparent's plane 0, and so on down [`THIN_LEVELS`]
//! *thin* levels (plane 0 only, shared by the sibling parents) to complete
//! rows (`docs/uvg-shortcuts.md`), every row at once with a few vector
//! operations. Graphs on more than [`MAX_N`] vertices, or with a
//! value ≥ 8 in some position (impossible below 13 vertices), fall back to
//! the per-position DPs of [`grundy_all`](super::grundy_all).

use crate::graph::BitGraph;

/// Largest number of vertices the incremental table handles.
pub const MAX_N: usize = 16;

/// Rows of the table (`2^MAX_N`); indices are masked with `ROWS − 1`, which
/// lets the compiler drop the bounds checks on the hot path.
const ROWS: usize = 1 << MAX_N;

/// The levels below a leaves' parent ([`Incremental::push_parent`]) that
/// hold plane 0 only (*thin*), derived as the parent's is; the levels under
/// them have complete rows.
const THIN_LEVELS: usize = 3;

const LANE_LO15: u64 = 0x7fff_7fff_7fff_7fff;
const LANE_HI: u64 = 0x8000_8000_8000_8000;
const LANE_ONES: u64 = 0x0001_0001_0001_0001;

/// `SPREAD[k]`: the 16-bit lane `i` of four all ones where bit `i` of `k` is set.
const SPREAD: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut k = 0;
    while k < 16 {
        let mut i = 0;
        while i < 4 {
            if k >> i & 1 == 1 {
                t[k] |= 0xffff << (16 * i);
            }
            i += 1;
        }
        k += 1;
    }
    t
};

/// The start values of one graph, counted: what a sweep adds up per graph,
/// without a pass over the values when the solver knows them in bulk
/// ([`Incremental::value_counts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueCounts {
    /// The number of starts of each value `k` < 16 in the 4-bit field `k`
    /// (graphs of fewer than 16 vertices; `None` for larger ones).
    pub packed: Option<u64>,
    /// The values present: bit `k` for value `k` (values ≥ 32 are not
    /// marked).
    pub present: u32,
    /// The starts of nonzero value (the first player wins).
    pub nonzero: u32,
}

impl ValueCounts {
    /// The counts of `values` (`values[v]` = the value of start `v`).
    pub fn of(values: &[u8]) -> Self {
        let small = values.len() < 16 && values.iter().all(|&k| k < 16);
        let (mut packed, mut present, mut nonzero) = (0u64, 0u32, 0u32);
        for (v, &k) in values.iter().enumerate() {
            if small {
                packed += 1 << (4 * u32::from(k));
            }
            present |= 1u32.checked_shl(u32::from(k)).unwrap_or(0);
            nonzero |= u32::from(k != 0) << (v & 31);
        }
        ValueCounts {
            packed: small.then_some(packed),
            present,
            nonzero,
        }
    }
}

/// Bit 15 of each 16-bit lane of `x` set iff the lane is not zero.
#[inline(always)]
fn lanes_nonzero(x: u64) -> u64 {
    (x | ((x & LANE_LO15) + LANE_LO15)) & LANE_HI
}

/// Bits 15, 31, 47 and 63 of `h` (one per lane) as bits 0..=3.
#[inline(always)]
fn gather_lanes(h: u64) -> usize {
    // Lane i's bit lands alone on bit 48 + i of the product.
    (((h >> 15).wrapping_mul(0x0001_0002_0004_0008)) >> 48) as usize & 0xf
}

/// The subset table of the current root-to-node path of a walk, and the
/// graphs that own its levels.
///
/// Levels `1..=valid` have complete rows. Above them there may be one *lazy*
/// level `valid + 1` (a node pushed by [`Self::push_parent`], whose children
/// are all leaves): only plane 0 of its rows (their lost sets) is computed,
/// from the complete rows below by the same matching shortcut as the
/// leaves' ([`Self::derive_lazy`]); the values of its positions come from
/// the memoised search of [`Self::nimber`].
pub struct Incremental {
    /// Word 0 of every row (planes 0..=3). Rows `[2^(m−1), 2^m)` belong to
    /// `path[m]` (the node with `m` vertices).
    lo: Box<[u64; ROWS]>,
    /// Word 1 of every row (planes 4..=7), read only when word 0 is full.
    hi: Box<[u64; ROWS]>,
    /// Plane 0 of every row in place (its lost set `D(S)`): of the complete
    /// levels' rows (a copy of `lo`'s first lane, in half the space), and of
    /// the lazy level's, derived by [`Self::derive_lazy`].
    d: Box<[u16; ROWS]>,
    /// Scratch of [`Self::derive_lazy`]: one mask per row of the level below.
    inc: Box<[u16; ROWS]>,
    /// Adjacency of the node on each level whose rows are in place (the
    /// first `level` entries of `path[level]`; the others are not read).
    path: Vec<[u32; MAX_N]>,
    /// Levels `1..=valid` of `path` are consistent (each the parent of the
    /// next) and have complete rows.
    valid: usize,
    /// Levels `valid + 1..=dtop` of `path` are consistent with the levels
    /// below and have their plane 0 (in `d`) only; when `dtop > valid`,
    /// level `dtop` holds a lazy node (pushed by [`Self::push_parent`]),
    /// and a level between is its parent, a *thin* level.
    dtop: usize,
    /// The round of the lazy node: its entries of `memo`.
    lazy_round: u32,
    /// Level whose values [`Self::nimber`] is computing (a leaf, or the
    /// lazy node itself): the adjacency it reads is `path[deep]`.
    deep: usize,
    /// Rows `S ≥ leaf_start` belong to the leaf being computed (its new
    /// vertex is this bit); below it and from `1 << valid` on, to the lazy
    /// level.
    leaf_start: usize,
    /// The neighbours of the leaf's new vertex (bit `leaf_start`).
    leaf_nx: usize,
    /// The lazy node's rows that miss at most two of its vertices,
    /// transposed per vertex for its leaves' lost tests
    /// ([`Self::leaf_starts`]): 16-bit lane `j` of `tr[w]` (`j` < the lazy
    /// node's order) has bit `u ≠ j` iff `w ∈ D(P − j − u)`, and lane 15 has
    /// bit `u` iff `w ∈ D(P − u)` and bit 15 iff `w ∈ D(P)`, where `P` is
    /// the lazy node's vertex set.
    tr: [[u64; 4]; MAX_N],
    /// `D(P − v)` for every vertex `v` of the lazy node, in 16-bit lane `v`.
    d_lanes: [u64; 4],
    /// The lazy node's adjacency, `N(v)` in 16-bit lane `v`.
    adj_lanes: [u64; 4],
    /// `D(P)`.
    d_full: u16,
    /// The lazy node's start values (all its vertices remaining).
    parent_values: [u8; MAX_N],
    /// Memo of [`Self::nimber`]'s top-down search, valid where its stamp
    /// is the round of the row's level (`round` for the leaf, `lazy_round`
    /// for the lazy level).
    memo: Box<[Memo; ROWS]>,
    round: u32,
    /// Source of fresh rounds: every round is handed out once, so a stale
    /// stamp never equals a live round.
    clock: u32,
    values: [u8; 32],
    /// The counts of `values`, when the last push knew them in bulk
    /// ([`Self::leaf_starts`]).
    counts: Option<ValueCounts>,
    /// How many lazy nodes [`Self::push_parent`] has left in place: the
    /// current one's number.
    parents: u64,
    /// The number of the lazy node the last leaf was pushed under, if it
    /// was.
    leaf_parent: Option<u64>,
}

impl Default for Incremental {
    fn default() -> Self {
        Self::new()
    }
}

/// The vertices of `opts` (a subset of `s`) that lose as the token's vertex
/// at `s`, where `start` (a single bit) is the top vertex `x` of `s` and
/// `nx` its neighbours, given `d(r)` = the lost set `D(r)` of every `r ⊆ s
/// − x`, by the matching theorem (`docs/uvg-shortcuts.md`):
/// with `t = s − x` and `inc(s) = [N(x) ∩ D(t) ≠ ∅]` (`ν(s) = ν(t) +
/// inc(s)`), `u` loses at `s` iff `ν(s − u) = ν(s)`, that is iff
/// `inc(s − u) − inc(s) = [u ∉ D(t)]` (and `x` iff `inc(s) = 0`).
#[inline(always)]
fn lost_by_matching(
    opts: usize,
    s: usize,
    start: usize,
    nx: usize,
    mut d: impl FnMut(usize) -> usize,
) -> usize {
    let t = s ^ start;
    let dset = d(t);
    let inc_s = dset & nx != 0;
    // inc(s − u) of every option u, gathered without branches.
    let rest = opts & !start;
    let mut inc = 0usize;
    let mut r = rest;
    while r != 0 {
        let u = r.trailing_zeros() as usize;
        r &= r - 1;
        inc |= ((d(t ^ (1 << u)) & nx != 0) as usize) << u;
    }
    // u ∈ D(t): loses iff inc(s − u) = inc(s); u ∉ D(t): iff
    // inc(s − u) = 1 and inc(s) = 0. So with inc(s) = 1 the lost ones
    // are D ∩ inc, with inc(s) = 0 they are D xor inc.
    let lost = if inc_s { dset & inc } else { dset ^ inc } & rest;
    if opts & start != 0 && !inc_s {
        lost | start
    } else {
        lost
    }
}

/// A row's memo of [`Incremental::nimber`]: value + 1 of each vertex in
/// 4-bit fields (0 = not known), and the round it belongs to (one cache
/// line holds both).
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct Memo {
    values: u64,
    stamp: u32,
}

/// A table of `ROWS` zeros, allocated on the heap directly: `Box::new([0;
/// ROWS])` builds the array on the stack first in a debug build, and the
/// tables of [`Incremental::new`] (2.3 MiB) overflowed a 2 MiB thread
/// stack (tokio's blocking threads, the pipeline's).
fn zeroed<T: Copy + Default>() -> Box<[T; ROWS]> {
    vec![T::default(); ROWS]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("a vector of ROWS entries"))
}

impl Incremental {
    /// An empty table.
    pub fn new() -> Self {
        Incremental {
            lo: zeroed(),
            hi: zeroed(),
            d: zeroed(),
            inc: zeroed(),
            path: vec![[0; MAX_N]; MAX_N + 1],
            valid: 0,
            dtop: 0,
            lazy_round: 0,
            deep: 0,
            leaf_start: 0,
            leaf_nx: 0,
            tr: [[0; 4]; MAX_N],
            d_lanes: [0; 4],
            adj_lanes: [0; 4],
            d_full: 0,
            parent_values: [0; MAX_N],
            memo: zeroed(),
            round: 0,
            clock: 0,
            values: [0; 32],
            counts: None,
            parents: 0,
            leaf_parent: None,
        }
    }

    /// A round number never handed out before (stamps are cleared when the
    /// counter wraps, and the lazy level's memo with them).
    fn fresh_round(&mut self) -> u32 {
        self.clock = self.clock.wrapping_add(1);
        if self.clock == 0 {
            self.memo.fill(Memo::default());
            // Everything memoised is forgotten; the lazy level keeps its
            // node but gets a round no stamp holds.
            self.lazy_round = 1;
            self.clock = 2;
        }
        self.clock
    }

    /// The value of every start of `g` (`out[v]` = value of token on `v`, all
    /// vertices remaining), reusing the rows of `g`'s parent (`g` minus its
    /// last vertex) when that was the last node pushed with one vertex fewer,
    /// else rebuilding the levels that differ. Afterwards `g`'s rows are in
    /// place for its children.
    pub fn push(&mut self, g: &BitGraph) -> &[u8] {
        self.counts = None;
        self.leaf_parent = None;
        let n = g.n();
        if n == 0 {
            return &[];
        }
        // Complete rows may overwrite the lazy and thin levels'.
        self.dtop = 0;
        if n > MAX_N {
            self.valid = 0;
            let vals = super::grundy_all_direct(g);
            self.values[..n].copy_from_slice(&vals);
            return &self.values[..n];
        }
        // The deepest level m < n whose node is g restricted to its first m vertices.
        let mut m = self.valid.min(n - 1);
        while m > 0 && !self.level_matches(g, m) {
            m -= 1;
        }
        for level in m + 1..=n {
            let mask = (1u32 << level) - 1;
            let adj: [u32; MAX_N] =
                std::array::from_fn(|v| if v < level { g.nbrs(v) & mask } else { 0 });
            self.path[level] = adj;
            if !self.extend(level) {
                self.valid = 0;
                let vals = super::grundy_all_direct(g);
                self.values[..n].copy_from_slice(&vals);
                return &self.values[..n];
            }
        }
        self.valid = n;
        self.dtop = n;
        let full = (1usize << n) - 1;
        let (w0, w1) = (self.lo[full], self.hi[full]);
        for k in 0..8 {
            let word = if k < 4 { w0 } else { w1 };
            let mut lane = (word >> (16 * (k % 4))) & 0xffff;
            while lane != 0 {
                self.values[lane.trailing_zeros() as usize] = k as u8;
                lane &= lane - 1;
            }
        }
        &self.values[..n]
    }

    /// Like [`Self::push`] for a node all of whose children are leaves
    /// (pushed with [`Self::push_leaf`]): the same values, and `g` is left
    /// in place as a *lazy* level for its children, with no value row
    /// computed. (It serves a node whose children are leaves' parents as
    /// well: they find it in place as their thin parent level.)
    ///
    /// Only the levels [`THIN_LEVELS`] below `g`'s parent need complete
    /// rows; `g`'s parent and the levels between are thin (plane 0 only,
    /// derived as `g`'s is, and kept for `g`'s siblings). A row `S` of `g` (with its new
    /// vertex `y`) is needed by the leaves only through its lost set `D(S)`
    /// and, rarely, the values of its other positions; every `D(S)` is
    /// derived at once from the parent's plane 0 by the leaf's matching
    /// shortcut one level up ([`Self::derive_lazy`], a few vector operations
    /// per row), and the rows that miss at most two vertices are transposed
    /// by [`Self::transpose`] for the leaves' start tests; the values by the
    /// memoised search of [`Self::nimber`], shared by all of `g`'s children.
    pub fn push_parent(&mut self, g: &BitGraph) -> &[u8] {
        self.counts = None;
        self.leaf_parent = None;
        let n = g.n();
        if !(2..=MAX_N).contains(&n) {
            return self.push(g);
        }
        let below = n - 1;
        // The levels below g: complete up to `base`, thin above it (a
        // parent of one vertex is complete); kept where they are in place
        // (a sibling's), else rebuilt.
        let base = below.saturating_sub(THIN_LEVELS).max(1);
        let mut top = self.dtop.min(below);
        while top > 0 && !self.level_matches(g, top) {
            top -= 1;
        }
        if top < base {
            self.push(&g.induced((1u32 << base) - 1));
            if self.valid != base {
                // A value ≥ 8 somewhere (not below 13 vertices).
                return self.push(g);
            }
            top = base;
        }
        self.valid = self.valid.min(top);
        for level in top + 1..=below {
            let mask = (1u32 << level) - 1;
            self.path[level] =
                std::array::from_fn(|v| if v < level { g.nbrs(v) & mask } else { 0 });
            self.derive_lazy(level);
        }
        self.dtop = n;
        self.parents += 1;
        self.path[n][..n].copy_from_slice(&g.rows()[..n]);
        self.lazy_round = self.fresh_round();
        self.deep = n;
        self.leaf_start = 1 << n;
        self.derive_lazy(n);
        self.transpose(n);
        self.starts(n);
        // The start values: by the game rule, a leaf's new vertex has the
        // mex of them over its neighbours as its own start value
        // ([`Self::leaf_starts`]).
        self.parent_values[..n].copy_from_slice(&self.values[..n]);
        &self.values[..n]
    }

    /// Like [`Self::push`] for a node whose children will not be pushed (a
    /// leaf of the walk): the same values, computed with less work, and
    /// `g`'s own rows are not left in place.
    ///
    /// No row with `x = n − 1 ∈ S` is computed. Whether a position with `x`
    /// is lost for the mover is read in O(1) from plane 0 of the parent's
    /// rows ([`Self::lost_among`], by the matching theorem; proof in
    /// `docs/uvg-shortcuts.md`): complete rows if the parent was pushed with
    /// [`Self::push`], else the lazy level of [`Self::push_parent`]. The
    /// values of the starts that do not lose come from a memoised top-down
    /// search by the game rule, which stops at every lost position and at
    /// every complete row. At odd `n` almost every start loses, so most
    /// graphs need no search at all; at even `n` most starts are `*` with
    /// all their options lost, a search of one level.
    pub fn push_leaf(&mut self, g: &BitGraph) -> &[u8] {
        self.counts = None;
        self.leaf_parent = None;
        let n = g.n();
        if n == 0 || n > MAX_N {
            return self.push(g);
        }
        let lazy_parent =
            self.dtop > self.valid && self.dtop + 1 == n && self.level_matches(g, n - 1);
        if !lazy_parent {
            if !(self.valid >= n - 1 && self.level_matches(g, n - 1)) {
                // Rebuild the ancestors' levels first (a fresh start or a jump).
                self.push(&g.induced((1u32 << (n - 1)) - 1));
                if self.valid != n - 1 {
                    // The parent has a value ≥ 8 somewhere (not below 13 vertices).
                    let vals = super::grundy_all_direct(g);
                    self.values[..n].copy_from_slice(&vals);
                    return &self.values[..n];
                }
            }
            // The parent's complete rows are in place; deeper levels are dropped.
            self.valid = n - 1;
            self.dtop = n - 1;
        }
        self.path[n][..n].copy_from_slice(&g.rows()[..n]);
        self.round = self.fresh_round();
        self.deep = n;
        self.leaf_start = 1 << (n - 1);
        self.leaf_nx = self.path[n][n - 1] as usize;
        if lazy_parent {
            self.leaf_parent = Some(self.parents);
            self.leaf_starts(n)
        } else {
            self.starts(n)
        }
    }

    /// Fill [`Self::tr`], [`Self::d_lanes`], [`Self::adj_lanes`] and [`Self::d_full`] for the
    /// lazy node on level `n` (from the lost sets [`Self::derive_lazy`] put in `d`).
    fn transpose(&mut self, n: usize) {
        let full = (1usize << n) - 1;
        let dt = &*self.d;
        let d = |r: usize| dt[r & (ROWS - 1)] as usize;
        let mut tr = [[0u64; 4]; MAX_N];
        let mut set = |dset: usize, lane: usize, bit: usize| {
            let mut ws = dset;
            while ws != 0 {
                let w = ws.trailing_zeros() as usize;
                ws &= ws - 1;
                tr[w & (MAX_N - 1)][lane / 4] |= 1 << (16 * (lane % 4) + bit);
            }
        };
        set(d(full), 15, 15);
        for j in 0..n {
            set(d(full ^ (1 << j)), 15, j);
            for u in j + 1..n {
                let dset = d(full ^ (1 << j) ^ (1 << u));
                set(dset, j, u);
                set(dset, u, j);
            }
        }
        self.tr = tr;
        self.d_full = d(full) as u16;
        let (mut dl, mut al) = ([0u64; 4], [0u64; 4]);
        for j in 0..n {
            dl[(j / 4) & 3] |= (d(full ^ (1 << j)) as u64) << (16 * (j % 4));
            al[(j / 4) & 3] |= (self.path[n][j & (MAX_N - 1)] as u64 & 0xffff) << (16 * (j % 4));
        }
        (self.d_lanes, self.adj_lanes) = (dl, al);
    }

    /// [`Self::starts`] for a leaf on level `n` under a lazy parent, with
    /// the lost tests of the positions that miss at most one vertex (every
    /// start, and every option of a start) read from the transposed rows
    /// [`Self::tr`]: the `inc(·)` bits of [`lost_by_matching`] for all of
    /// them at once are the OR of `tr[w]` over the neighbours `w` of the
    /// new vertex `x` (`inc(r + x) = [N(x) ∩ D(r) ≠ ∅]`), then each test is
    /// the same few mask operations as in [`lost_by_matching`].
    fn leaf_starts(&mut self, n: usize) -> &[u8] {
        let full = (1usize << n) - 1;
        let x = n - 1;
        let xbit = 1usize << x;
        let p = xbit - 1;
        let mut inc = [0u64; 4];
        let mut nx = self.path[n][x] as usize;
        while nx != 0 {
            let w = nx.trailing_zeros() as usize;
            nx &= nx - 1;
            let t = &self.tr[w & (MAX_N - 1)];
            inc = [inc[0] | t[0], inc[1] | t[1], inc[2] | t[2], inc[3] | t[3]];
        }
        let lane = |j: usize| (inc[j / 4] >> (16 * (j % 4))) as usize & 0xffff;
        // lane 15: bit u = inc(full − u), bit 15 = inc(full).
        let l15 = lane(15);
        let inc_full = l15 >> 15 & 1 == 1;
        let inc1 = l15 & p;
        let dp = self.d_full as usize;
        let mut lost = if inc_full { dp & inc1 } else { dp ^ inc1 } & p;
        if !inc_full {
            lost |= xbit;
        }
        // Every other start v < x at once, one 16-bit lane each: its
        // options at s = full − v (t = P − v) are lost by the same rule,
        // with inc(s) = bit v of lane 15 and inc(s − u) = bit u of lane v;
        // a start whose options all lose has value 1.
        let nxp = self.path[n][x] as usize & p;
        let xlane = (xbit as u64) * LANE_ONES;
        let (mut need, mut lost_opts) = (0usize, [0u64; 4]);
        // (The groups of four starts below x: three at n = 12.)
        for g in 0..x.div_ceil(4).min(4) {
            let incs = SPREAD[(inc1 >> (4 * g)) & 0xf];
            let xs = SPREAD[(nxp >> (4 * g)) & 0xf] & xlane;
            let (dt, iv, adj) = (self.d_lanes[g & 3], inc[g & 3], self.adj_lanes[g & 3]);
            // Lanes v ≥ x are empty in `adj` and `xs`.
            let lo = ((dt & iv & incs) | ((dt ^ iv) & !incs)) & adj | (xs & !incs);
            lost_opts[g & 3] = lo;
            let opts = adj | xs;
            // Not all options lost, or none at all (such a start is lost,
            // but the search is the rule for it).
            let busy = lanes_nonzero(opts & !lo) | (lanes_nonzero(opts) ^ LANE_HI);
            need |= gather_lanes(busy) << (4 * g);
        }
        let need = need & p & !lost;
        // Value 1 everywhere, then the lost starts, x, and the searched ones;
        // counted as they are set (4-bit counts: n < 16 here, see below).
        let lostc = lost.count_ones();
        let mut packed = u64::from(lostc) + (u64::from(n as u32 - lostc) << 4);
        let mut special = 0u32;
        self.values[..n].fill(1);
        let mut l = lost;
        while l != 0 {
            self.values[l.trailing_zeros() as usize & 31] = 0;
            l &= l - 1;
        }
        if lost & xbit == 0 {
            // By the game rule: x's options are the starts of the lazy
            // node at its neighbours, whose values are known (no search).
            let mut seen = 0u32;
            let mut nx = nxp;
            while nx != 0 {
                let u = nx.trailing_zeros() as usize;
                nx &= nx - 1;
                seen |= 1 << self.parent_values[u & (MAX_N - 1)];
            }
            let k = seen.trailing_ones();
            self.values[x & 31] = k as u8;
            packed = packed.wrapping_add((1 << (4 * k)) - (1 << 4));
            special |= 1 << k;
        }
        let mut rest = need;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let opts = self.path[n][v & (MAX_N - 1)] as usize & (full ^ (1 << v));
            let lo = (lost_opts[(v / 4) & 3] >> (16 * (v % 4))) as usize & 0xffff;
            let k = self.mex_given(full ^ (1 << v), opts, lo);
            self.values[v & 31] = k;
            packed = packed.wrapping_add((1 << (4 * u32::from(k))) - (1 << 4));
            special |= 1 << k;
        }
        // (A count of n ≥ 16 would not fit its field: MAX_N is 16.)
        if n < 16 {
            self.counts = Some(ValueCounts {
                packed: Some(packed),
                present: special | u32::from(lostc != 0) | u32::from(packed >> 4 & 0xf != 0) << 1,
                nonzero: (full & !lost) as u32,
            });
        }
        &self.values[..n]
    }

    /// The start values the last push returned (of a graph on `n`
    /// vertices) and their counts: known in bulk for a leaf under a lazy
    /// parent, else counted from the values.
    pub fn counted(&self, n: usize) -> (&[u8], ValueCounts) {
        let values = &self.values[..n];
        let counts = self.counts.unwrap_or_else(|| ValueCounts::of(values));
        (values, counts)
    }

    /// When the last push was a leaf under a lazy parent: a number of that
    /// parent, the same for all its children and never another's (in this
    /// table's life), so that a caller keeping something per parent knows
    /// it without comparing rows.
    pub fn leaf_parent(&self) -> Option<u64> {
        self.leaf_parent
    }

    /// The value of a start whose options at `t` (the position after the
    /// move) are `opts`, of which `lost` are known to lose: the mex of 0 (if
    /// any is lost) and the values of the others by [`Self::nimber`]. (A
    /// start's own row is read by nothing else, so it is not memoised.)
    fn mex_given(&mut self, t: usize, opts: usize, lost: usize) -> u8 {
        let mut seen = (lost != 0) as u32;
        let mut rest = opts & !lost;
        while rest != 0 {
            let u = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            seen |= 1 << self.option_value(u, t);
        }
        seen.trailing_ones() as u8
    }

    /// [`Self::nimber`]`(u, t)` for a row `t` one move below a leaf's start
    /// `v` (`t` = all vertices but `v`), without the memo: only `v`'s
    /// search reads row `t`, once per option `u`. (Most such positions have
    /// only lost options: value 1 from one lost test.)
    #[inline(always)]
    fn option_value(&mut self, u: usize, t: usize) -> u8 {
        let s = t ^ (1 << u);
        if s >> self.valid == 0 {
            // (A complete row: not at the leaves of a walk.)
            return self.nimber(u, t);
        }
        let mut opts = self.path[self.deep][u & (MAX_N - 1)] as usize & s;
        let lost = self.lost_among(opts, s);
        let mut seen = (lost != 0) as u32;
        opts &= !lost;
        while opts != 0 {
            let w = opts.trailing_zeros() as usize;
            opts &= opts - 1;
            seen |= 1 << self.nimber(w, s);
        }
        seen.trailing_ones() as u8
    }

    /// The values of the starts of the node on level `n` (`deep`), all
    /// vertices remaining: lost ones by [`Self::lost_among`], the others
    /// by [`Self::nimber`].
    fn starts(&mut self, n: usize) -> &[u8] {
        let full = (1usize << n) - 1;
        let lost = self.lost_among(full, full);
        for v in 0..n {
            self.values[v] = if lost >> v & 1 == 1 {
                0
            } else if v + 1 == n {
                self.nimber(v, full)
            } else {
                // Most starts that do not lose have only lost options
                // (value 1): one lost test of the options, no memo.
                let t = full ^ (1 << v);
                let opts = self.path[n][v] as usize & t;
                if opts != 0 && self.lost_among(opts, t) == opts {
                    1
                } else {
                    self.nimber(v, full)
                }
            };
        }
        &self.values[..n]
    }

    /// The lost sets of the lazy node on level `n` (new vertex `y = n − 1`):
    /// `D(S)` of every row `S ∋ y`, into `d`, from the lost sets of the
    /// complete rows below by the matching shortcut of [`lost_by_matching`]
    /// (`docs/uvg-shortcuts.md`), for all `2^(n−1)` rows at once. With `t =
    /// S − y` and `inc(r) = [N(y) ∩ D(r) ≠ ∅]`, `D(S)` is `D(t) ∩ I(t)` if
    /// `inc(t)`, else `(D(t) xor I(t)) + y`, where `I(t) = {u ∈ t : inc(t −
    /// u)}`. `inc` is one mask per row; `I` is gathered one dimension `u` of
    /// the cube at a time, over runs of consecutive rows (the loops
    /// vectorise). Every row of the lazy level is derived, since the
    /// leaves' searches read most of them (the lazy derivation of each row
    /// on first use, with a memo per row, cost more).
    fn derive_lazy(&mut self, n: usize) {
        let y = n - 1;
        let half = 1usize << y;
        let ny = self.path[n][y] as u16;
        let (low, up) = self.d.split_at_mut(half);
        let up = &mut up[..half];
        let inc = &mut self.inc[..half];
        if half < 8 {
            // (Levels of at most 3 vertices: rows one by one.)
            for t in 0..half {
                inc[t] = 0u16.wrapping_sub(u16::from(low[t] & ny != 0));
            }
            for t in 0..half {
                up[t] = (0..y)
                    .filter(|&u| t >> u & 1 == 1)
                    .fold(0, |a, u| a | (inc[t ^ 1 << u] & 1 << u));
            }
        }
        // inc(R), and I(R) for the dimensions 0, 1 and 2, a run of 8 rows
        // `8k..8k+8` at a time (they read only each other)...
        for ((iu, im), dl) in up
            .chunks_exact_mut(8)
            .zip(inc.chunks_exact_mut(8))
            .zip(low.chunks_exact(8))
        {
            let m: [u16; 8] =
                std::array::from_fn(|j| 0u16.wrapping_sub(u16::from(dl[j] & ny != 0)));
            im.copy_from_slice(&m);
            iu[0] = 0;
            iu[1] = m[0] & 1;
            iu[2] = m[0] & 2;
            iu[3] = (m[2] & 1) | (m[1] & 2);
            iu[4] = m[0] & 4;
            iu[5] = (m[4] & 1) | (m[1] & 4);
            iu[6] = (m[4] & 2) | (m[2] & 4);
            iu[7] = (m[6] & 1) | (m[5] & 2) | (m[3] & 4);
        }
        // ... then the others, a run of `b` rows at a time.
        for u in 3..y {
            let b = 1usize << u;
            let bit = b as u16;
            for blk in (b..half).step_by(2 * b) {
                let (from, to) = (&inc[blk - b..blk], &mut up[blk..blk + b]);
                for (i, &m) in to.iter_mut().zip(from) {
                    *i |= m & bit;
                }
            }
        }
        let ybit = 1u16 << y;
        for ((i, &m), &dt) in up.iter_mut().zip(inc.iter()).zip(low.iter()) {
            *i = (m & dt & *i) | (!m & ((dt ^ *i) | ybit));
        }
    }

    /// The vertices of `opts` (a subset of `s`) that lose as the token's
    /// vertex at `s`: from the lost set of a complete or lazy row, or for a
    /// row of the leaf (with its new vertex `x`, bit `leaf_start`) by
    /// [`lost_by_matching`] over the lost sets of the rows below
    /// (`docs/uvg-shortcuts.md`): two ANDs with `N(x)` per option, no row of
    /// the leaf.
    #[inline(always)]
    fn lost_among(&mut self, opts: usize, s: usize) -> usize {
        let d = &*self.d;
        if s >= self.leaf_start {
            lost_by_matching(opts, s, self.leaf_start, self.leaf_nx, |r| {
                d[r & (ROWS - 1)] as usize
            })
        } else {
            d[s & (ROWS - 1)] as usize & opts
        }
    }

    /// Value of the token on `v` at `s` (`v ∈ s`), by the game rule, top
    /// down: complete rows are read, lost options are recognised by
    /// [`Self::lost_among`], the rest searched and memoised.
    fn nimber(&mut self, v: usize, s: usize) -> u8 {
        if s >> self.valid == 0 {
            let (w0, w1) = (self.lo[s], self.hi[s]);
            for k in 0..8 {
                let word = if k < 4 { w0 } else { w1 };
                if word >> (16 * (k % 4) + v) & 1 == 1 {
                    return k as u8;
                }
            }
            unreachable!("every vertex of a complete row has a value");
        }
        let round = if s >= self.leaf_start {
            self.round
        } else {
            self.lazy_round
        };
        let e = self.memo[s];
        if e.stamp == round {
            let known = (e.values >> (4 * v)) & 0xf;
            if known != 0 {
                return known as u8 - 1;
            }
        } else {
            self.memo[s] = Memo {
                values: 0,
                stamp: round,
            };
        }
        let t = s ^ (1 << v);
        let mut opts = self.path[self.deep][v] as usize & t;
        let mut seen = 0u32;
        if t >> self.valid == 0 {
            // Every option is a complete row.
            let (w0, w1) = (self.lo[t], self.hi[t]);
            while opts != 0 {
                let u = opts.trailing_zeros() as usize;
                opts &= opts - 1;
                let mut k = 0;
                while k < 8 {
                    let word = if k < 4 { w0 } else { w1 };
                    if word >> (16 * (k % 4) + u) & 1 == 1 {
                        break;
                    }
                    k += 1;
                }
                debug_assert!(k < 8, "every vertex of a complete row has a value");
                seen |= 1 << k;
            }
        } else {
            let lost = self.lost_among(opts, t);
            seen = (lost != 0) as u32;
            opts &= !lost;
            while opts != 0 {
                let u = opts.trailing_zeros() as usize;
                opts &= opts - 1;
                seen |= 1 << self.nimber(u, t);
            }
        }
        // A value k needs an option k − 1 on fewer vertices, so *k needs at
        // least k − 7 + 13 vertices (the smallest *7 has at least 13): on
        // ≤ 16 vertices values are ≤ 10 and value + 1 fits its 4 bits.
        let value = seen.trailing_ones() as u8;
        debug_assert!(value < 15);
        self.memo[s].values |= (value as u64 + 1) << (4 * v);
        value
    }

    /// Is the node on `level` equal to `g` restricted to its first `level` vertices?
    fn level_matches(&self, g: &BitGraph, level: usize) -> bool {
        g.prefix_is(&self.path[level][..level])
    }

    /// Compute rows `[2^(level−1), 2^level)` for the node `path[level]`;
    /// `false` if some position has a value ≥ 8.
    fn extend(&mut self, level: usize) -> bool {
        let adj = &self.path[level];
        let adjb: [u64; 16] = std::array::from_fn(|v| {
            if v < MAX_N {
                adj[v] as u64 * LANE_ONES
            } else {
                0
            }
        });
        let start = 1usize << (level - 1);
        let (lo, hi, d) = (&mut *self.lo, &mut *self.hi, &mut *self.d);
        let mut ok = true;
        if level == 1 {
            lo[0] = 0;
            hi[0] = 0;
            d[0] = 0;
        }
        for s in start..start << 1 {
            let (mut c0, mut c1) = (0u64, 0u64);
            let mut vs = s;
            while vs != 0 {
                let v = vs.trailing_zeros() as usize;
                vs &= vs - 1;
                let t = (s ^ (1 << v)) & (ROWS - 1);
                let nb = adjb[v & 15];
                let x = lo[t] & nb;
                let nonzero = (x | ((x & LANE_LO15) + LANE_LO15)) & LANE_HI;
                let empty = nonzero ^ LANE_HI;
                if empty != 0 {
                    c0 |= ((empty & empty.wrapping_neg()) >> 15) << v;
                } else {
                    let x = hi[t] & nb;
                    let nonzero = (x | ((x & LANE_LO15) + LANE_LO15)) & LANE_HI;
                    let empty = nonzero ^ LANE_HI;
                    ok &= empty != 0;
                    c1 |= ((empty & empty.wrapping_neg()) >> 15) << v;
                }
            }
            lo[s & (ROWS - 1)] = c0;
            hi[s & (ROWS - 1)] = c1;
            d[s & (ROWS - 1)] = c0 as u16;
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{self, WalkOptions};
    use rand::{Rng, SeedableRng};

    #[test]
    fn agrees_with_grundy_all_along_a_whole_walk() {
        // Every node of the generation tree up to 8 vertices, in walk order
        // (so almost every push reuses its parent's rows).
        let mut inc = Incremental::new();
        let mut nodes = 0;
        let opts = WalkOptions::default();
        gen::walk_nodes(&BitGraph::new(0), 8, opts, &mut |g, _| {
            nodes += 1;
            let want = super::super::grundy_all_direct(g);
            if g.n() == 8 {
                assert_eq!(inc.push_leaf(g), want.as_slice(), "{g:?}");
            } else {
                assert_eq!(inc.push(g), want.as_slice(), "{g:?}");
            }
        });
        assert_eq!(nodes, 1 + 1 + 2 + 4 + 11 + 34 + 156 + 1044 + 12346);
    }

    #[test]
    fn the_sweeps_pushes_agree_with_grundy_all_along_a_whole_walk() {
        // As the `uvg` kind pushes a walk to 9 vertices: leaves by
        // `push_leaf`, their parents and grandparents by `push_parent` (the
        // grandparents left in place as the parents' thin level), the rest
        // by `push`; every node's values and counts against the DPs.
        let mut inc = Incremental::new();
        let (mut nodes, mut bulk) = (0u64, 0u64);
        gen::walk_nodes(&BitGraph::new(0), 9, WalkOptions::default(), &mut |g, _| {
            nodes += 1;
            let want = super::super::grundy_all_direct(g);
            let got = match g.n() {
                9 => inc.push_leaf(g).to_vec(),
                7 | 8 => inc.push_parent(g).to_vec(),
                _ => inc.push(g).to_vec(),
            };
            assert_eq!(got, want, "{g:?}");
            assert_eq!(inc.counted(g.n()).1, ValueCounts::of(&want), "{g:?}");
            bulk += u64::from(inc.counts.is_some());
        });
        assert_eq!(nodes, 1 + 1 + 2 + 4 + 11 + 34 + 156 + 1044 + 12346 + 274668);
        // Every leaf's values were counted in bulk, under its lazy parent.
        assert_eq!(bulk, 274668);
    }

    /// The leaf's shortcuts against the exact game rule on every graph of
    /// the generation tree up to `max_n` vertices (connected or not), each
    /// as a leaf under its parent, twice: under complete parent rows
    /// ([`Incremental::push`]) and under a lazy parent
    /// ([`Incremental::push_parent`], whose lost sets are derived from the
    /// thin levels below it, and theirs from complete rows). Checked against the complete rows
    /// [`Incremental::push`] computes by the game rule alone (no matching
    /// theorem): every start's value from [`Incremental::push_leaf`], the
    /// lazy parent's start values, and the lost test of every position
    /// `(u, S)` with the new vertex in `S`, in both settings, and with the
    /// parent's new vertex in `S` (the lazy level's derived plane 0).
    /// Returns the number of connected graphs and of positions checked.
    fn leaf_crosscheck(max_n: usize) -> (u64, u64) {
        let mut exact = Incremental::new();
        let mut leaf = Incremental::new();
        let mut lazy = Incremental::new();
        let (mut connected, mut positions) = (0u64, 0u64);
        let (mut thin, mut under_lazy) = (0u64, 0u64);
        gen::walk_nodes(
            &BitGraph::new(0),
            max_n,
            WalkOptions::default(),
            &mut |g, _| {
                let n = g.n();
                if n == 0 {
                    return;
                }
                let want = exact.push(g).to_vec();
                assert_eq!(exact.leaf_parent(), None);
                assert_eq!(leaf.push_leaf(g), want.as_slice(), "{g:?}");
                let start = 1usize << (n - 1);
                for s in start..start << 1 {
                    let lost = exact.lo[s] & 0xffff;
                    assert_eq!(leaf.lost_among(s, s) as u64, lost, "{g:?} S = {s:b}");
                    positions += s.count_ones() as u64;
                }
                if n < max_n {
                    leaf.push(g);
                }
                if n >= 2 {
                    // g under a lazy parent: the parent pushed as a lazy
                    // level, on thin levels over complete ones.
                    let parent = g.induced((1u32 << (n - 1)) - 1);
                    let pfull = start - 1;
                    let pwant: Vec<u8> = (0..n - 1)
                        .map(|v| {
                            let vals = (0..8).filter(|&k| {
                                let word = if k < 4 {
                                    exact.lo[pfull]
                                } else {
                                    exact.hi[pfull]
                                };
                                word >> (16 * (k % 4) + v) & 1 == 1
                            });
                            vals.collect::<Vec<_>>()[0] as u8
                        })
                        .collect();
                    assert_eq!(lazy.push_parent(&parent), pwant.as_slice(), "{parent:?}");
                    assert_eq!(lazy.leaf_parent(), None, "{parent:?}");
                    let number = lazy.parents;
                    assert_eq!(lazy.push_leaf(g), want.as_slice(), "{g:?}");
                    // The parent's number, for the sweep's matching check.
                    assert_eq!(lazy.leaf_parent(), (n >= 3).then_some(number), "{g:?}");
                    // The counts the leaf made in bulk, as the sweep adds them up.
                    assert_eq!(
                        (lazy.counts.is_some(), lazy.counted(n).1),
                        (n >= 3, ValueCounts::of(&want)),
                        "{g:?}"
                    );
                    // (A parent of one vertex is pushed complete.)
                    assert!(
                        n < 3 || (lazy.dtop + 1 == n && lazy.valid < lazy.dtop),
                        "{g:?}: not under a lazy parent"
                    );
                    // The grandparent thin (else complete, as a sibling's
                    // complete parent left it).
                    thin += u64::from(n >= 4 && lazy.valid + 2 < n);
                    under_lazy += u64::from(n >= 4);
                    for s in start..start << 1 {
                        let lost = exact.lo[s] & 0xffff;
                        assert_eq!(lazy.lost_among(s, s) as u64, lost, "{g:?} S = {s:b}");
                        positions += s.count_ones() as u64;
                    }
                    // The parent's rows, and the thin levels' below it.
                    for s in 1 << lazy.valid..start {
                        let lost = exact.lo[s] & 0xffff;
                        assert_eq!(lazy.lost_among(s, s) as u64, lost, "{parent:?} S = {s:b}");
                        positions += s.count_ones() as u64;
                    }
                }
                if g.is_connected() {
                    connected += 1;
                }
            },
        );
        // The thin grandparent is the walk's case, and tested as such.
        assert!(thin * 10 >= under_lazy * 9, "{thin} of {under_lazy} thin");
        (connected, positions)
    }

    #[test]
    fn leaf_shortcut_agrees_with_the_game_rule_on_every_graph_up_to_9_vertices() {
        let (connected, _) = leaf_crosscheck(9);
        // OEIS A001349, n = 1..=9.
        assert_eq!(connected, 1 + 1 + 2 + 6 + 21 + 112 + 853 + 11_117 + 261_080);
    }

    /// Once by hand:
    /// `cargo test --release -p gamesweep --features exhaustive leaf_shortcut_agrees_with_the_game_rule_at_10 -- --ignored --nocapture`
    /// (about 5 minutes: compiled only with the `exhaustive` feature, so
    /// that CI's `--include-ignored` does not run it; n <= 9 runs in CI).
    #[cfg(feature = "exhaustive")]
    #[test]
    #[ignore = "n = 10, once by hand (about 5 minutes); n <= 9 runs in CI"]
    fn leaf_shortcut_agrees_with_the_game_rule_at_10_vertices() {
        let (connected, positions) = leaf_crosscheck(10);
        println!("{connected} connected graphs on 1..=10 vertices, {positions} lost tests of positions checked");
        assert_eq!(
            connected,
            1 + 1 + 2 + 6 + 21 + 112 + 853 + 11_117 + 261_080 + 11_716_571
        );
    }

    #[test]
    fn agrees_with_grundy_all_on_random_graphs_in_any_order() {
        // Unrelated graphs one after another (no parent in place), random
        // children of the last graph, and graphs of up to 12 vertices.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut inc = Incremental::new();
        let mut g = BitGraph::new(0);
        for _ in 0..3000 {
            match rng.random_range(0..3) {
                0 if g.n() < MAX_N => {
                    let nbrs = rng.random::<u32>() & g.all();
                    g.push_vertex(nbrs);
                }
                _ => {
                    let top = if rng.random_bool(0.9) { 12 } else { MAX_N };
                    let n = rng.random_range(1..=top);
                    let p = rng.random_range(0.15..0.8);
                    g = BitGraph::new(n);
                    for j in 1..n {
                        for i in 0..j {
                            if rng.random::<f64>() < p {
                                g.add_edge(i, j);
                            }
                        }
                    }
                }
            }
            let want = super::super::grundy_all_direct(&g);
            if rng.random_bool(0.5) {
                assert_eq!(inc.push_leaf(&g), want.as_slice(), "{g:?}");
            } else {
                assert_eq!(inc.push(&g), want.as_slice(), "{g:?}");
            }
        }
    }

    #[test]
    fn agrees_on_random_graphs_of_11_to_16_vertices() {
        // Each graph from scratch, then a chain of random children of it
        // (the walk's case), against the per-position DPs of `grundy_all`.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1116);
        let mut inc = Incremental::new();
        let mut lazy = Incremental::new();
        for _ in 0..40 {
            let n = rng.random_range(11..=15);
            let p = rng.random_range(0.2..0.7);
            let mut g = BitGraph::new(n);
            for j in 1..n {
                for i in 0..j {
                    if rng.random::<f64>() < p {
                        g.add_edge(i, j);
                    }
                }
            }
            assert_eq!(
                inc.push(&g),
                super::super::grundy_all_direct(&g).as_slice(),
                "{g:?}"
            );
            while g.n() < MAX_N {
                let parent = g;
                g.push_vertex(rng.random::<u32>() & g.all());
                let want = super::super::grundy_all_direct(&g);
                assert_eq!(inc.push_leaf(&g), want.as_slice(), "{g:?}");
                // Under a lazy parent on thin levels, up to 16 vertices.
                assert_eq!(
                    lazy.push_parent(&parent),
                    super::super::grundy_all_direct(&parent).as_slice()
                );
                assert_eq!(lazy.push_leaf(&g), want.as_slice(), "{g:?}");
                assert_eq!(lazy.counted(g.n()).1, ValueCounts::of(&want), "{g:?}");
                assert_eq!(inc.push(&g), want.as_slice(), "{g:?}");
            }
        }
    }

    #[test]
    fn larger_graphs_fall_back() {
        let g = BitGraph::from_edges(18, &(0..17).map(|i| (i, i + 1)).collect::<Vec<_>>());
        let mut inc = Incremental::new();
        assert_eq!(inc.push(&g), super::super::grundy_all_direct(&g).as_slice());
    }
}
