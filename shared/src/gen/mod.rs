//! Graph generation by canonical augmentation, shardable by canonical-form prefix.
//!
//! McKay's canonical construction path, vertex by vertex (the method of
//! nauty's `geng`), in pure Rust on [`BitGraph`]. Every graph `H` on `N ≥ 1`
//! vertices has one *canonical parent*: `H − v` for `v` in a canonically chosen
//! Aut(H)-orbit `m(H)`. A node `G` of the generation tree gets one child
//! `G + v` (new vertex `v = n` adjacent to a set `S`) per Aut(G)-orbit of sets
//! `S`, kept iff the new vertex lies in `m(G + v)`. Then every isomorphism class
//! appears exactly once, and the tree below a node depends only on that node
//! (in its exact labelling), so the nodes at depth `k` ([`prefixes`]) split the
//! work into independent shards whose subtrees are regenerated from scratch.
//!
//! The choice of `m(H)`, cheapest test first (as geng does):
//! 1. minimum degree: the new vertex must have the least degree, so `|S|` is at
//!    most `δ(G) + 1` and the sets are enumerated by size with the forced
//!    vertices already in; if it is the only vertex of least degree, accept;
//! 2. among those, the largest sum of neighbour degrees, then the most
//!    triangles through the vertex, then the largest 2-hop sum of neighbour
//!    degree sums (each O(|S|) from per-parent tables); reject as soon as
//!    another vertex beats the new one, accept as soon as the new one is alone;
//! 3. otherwise the ordered partition `[M | rest by degree]` (`M` = the
//!    vertices still tied) is refined towards an equitable one (reject as soon
//!    as the new vertex leaves the first cell, accept as soon as it is alone
//!    there), and only then a canonical labelling is searched ([`canon`]):
//!    `m(H)` is the orbit of the first vertex of the canonical labelling.
//!    Where no child group is needed (the last level, and a level cut by
//!    `res/mod`, whose few kept children get their group afterwards) two
//!    cheap sufficient tests come first. If every vertex still tied with the
//!    new one is its twin (the same neighbours besides each other), each
//!    swap with it is an automorphism, so the tied class is one orbit; it
//!    is invariant and stays the first cell of the refinement, where the
//!    canonical vertex lies: accepted without refining. Else, after
//!    refinement, if the leftmost leaves below every vertex of the first
//!    cell coincide, that cell is one orbit and the child is accepted
//!    without the full search.
//!
//! Sets `S` are enumerated by size, each size in increasing numeric order; the
//! representative of an Aut(G)-orbit is its numerically least set, checked
//! exactly by a breadth-first walk over the orbit (only for accepted sets of
//! parents with a non-trivial group).
//!
//! With `connected_only`, the last level only adds vertices whose neighbourhood
//! meets every component of the parent (`G + v` is connected iff that holds);
//! earlier levels are not pruned, since connected graphs can have disconnected
//! canonical parents.
//!
//! ```
//! use gamesweep::gen;
//! assert_eq!(gen::count(&gen::prefixes(0)[0], 5, true), 21);
//! assert_eq!(gen::prefixes(3).len(), 4);
//! ```

// Index loops over `0..n` read best in permutation code.
#![allow(clippy::needless_range_loop)]

pub mod canon;
pub mod count;

use crate::graph::{BitGraph, VSet};
use canon::{orbits, refine, refine_watch, search, Part, Perm};

/// Filters for [`walk_filtered`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkOptions {
    /// Visit only connected graphs (and prune the last level accordingly).
    pub connected_only: bool,
    /// Visit only graphs with at least this many vertices.
    pub min_n: usize,
}

/// All nodes of the generation tree at depth `depth` (graphs on `depth` vertices,
/// exactly one per isomorphism class, each in the exact labelling the generator
/// uses), in a deterministic order. `depth` 0 gives `[empty graph]`.
pub fn prefixes(depth: usize) -> Vec<BitGraph> {
    let mut out = Vec::new();
    if depth > BitGraph::MAX_N {
        return out;
    }
    let opts = WalkOptions {
        connected_only: false,
        min_n: depth,
    };
    walk_filtered(&BitGraph::new(0), depth, opts, &mut |g| out.push(*g));
    out
}

/// Visit `prefix` (a node returned by [`prefixes`], or the empty graph = root)
/// and every descendant with at most `max_n` vertices, each exactly once. Over
/// all prefixes at one depth `k`, the visited graphs with `m ≥ k` vertices are
/// exactly one per isomorphism class of graphs on `m` vertices.
pub fn walk(prefix: &BitGraph, max_n: usize, visit: &mut dyn FnMut(&BitGraph)) {
    walk_filtered(prefix, max_n, WalkOptions::default(), visit)
}

/// Like [`walk`] but visits only the graphs that pass `opts` (connected, at
/// least `min_n` vertices). The subtree walked is the same; only the last level
/// is pruned when `connected_only` is set.
pub fn walk_filtered(
    prefix: &BitGraph,
    max_n: usize,
    opts: WalkOptions,
    visit: &mut dyn FnMut(&BitGraph),
) {
    walk_nodes(prefix, max_n, opts, &mut |g, shown| {
        if shown {
            visit(g)
        }
    })
}

/// Every node of the tree [`walk_filtered`] walks, in depth-first preorder:
/// `visit(g, shown)` with `shown` = `g` passes `opts`. Each node after the
/// first is a child of the last node visited with one vertex fewer: it is
/// that node plus vertex `n − 1`, with the parent's labels intact (so a
/// caller can keep per-level state, e.g. the subset tables of the UVG solver,
/// and extend it by one vertex per level).
pub fn walk_nodes(
    prefix: &BitGraph,
    max_n: usize,
    opts: WalkOptions,
    visit: &mut dyn FnMut(&BitGraph, bool),
) {
    walk_nodes_split(prefix, max_n, opts, &[], visit)
}

/// A geng-style `res/mod` cut of the generation tree at one level: of the
/// nodes with `level` vertices that a walk reaches, keep only those whose
/// index among them (0, 1, 2, ... in the order the walk generates them) is
/// `≡ res (mod modulus)`; the others and their subtrees are not walked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Residue {
    /// The level (number of vertices) of the nodes cut.
    pub level: usize,
    /// The residue kept.
    pub res: u64,
    /// The modulus, at least 1 (1 keeps every node).
    pub modulus: u64,
}

/// [`walk_nodes`] with `res/mod` cuts (levels above `prefix.n()`; others are
/// ignored): a node at a cut level is visited, and its subtree walked, only
/// if its index among the nodes reached at that level is in the cut's
/// residue class. Nodes are generated and ordered exactly as in
/// [`walk_nodes`], so for fixed cuts above a level, the shards that differ
/// only in that level's residue reach the same nodes there in the same order,
/// and the residues `0..modulus` split them exactly.
pub fn walk_nodes_split(
    prefix: &BitGraph,
    max_n: usize,
    opts: WalkOptions,
    cuts: &[Residue],
    visit: &mut dyn FnMut(&BitGraph, bool),
) {
    let max_n = max_n.min(BitGraph::MAX_N);
    if prefix.n() > max_n {
        return;
    }
    visit(
        prefix,
        prefix.n() >= opts.min_n && (!opts.connected_only || prefix.is_connected()),
    );
    if prefix.n() == max_n {
        return;
    }
    let gens = canon::canon_unit(prefix).gens;
    let mut cut = vec![None; max_n + 1];
    for c in cuts {
        if c.level > prefix.n() && c.level <= max_n {
            cut[c.level] = Some((c.res, c.modulus.max(1), 0u64));
        }
    }
    let mut w = Walker {
        max_n,
        opts,
        visit,
        bufs: vec![Vec::new(); max_n + 1],
        scratch: Scratch::default(),
        cut,
    };
    w.expand(prefix, &gens);
}

/// Number of graphs on exactly `n` vertices (optionally only connected ones)
/// in the subtree of `prefix`.
pub fn count(prefix: &BitGraph, n: usize, connected_only: bool) -> u64 {
    let mut c = 0u64;
    let opts = WalkOptions {
        connected_only,
        min_n: n,
    };
    walk_filtered(prefix, n, opts, &mut |_| c += 1);
    c
}

/// Knuth's random-probe estimate of the number of **connected** graphs on
/// each number of vertices `m` in the subtree of `prefix` (index `m` of the
/// returned vector, `prefix.n() ..= max_n`; lower indices are 0). Each probe
/// walks one random root-to-leaf path, choosing uniformly among the accepted
/// children at every level; the product of the branching factors along the
/// path is an unbiased estimate of the level sizes, and `probes` of them are
/// averaged. `seed` fixes the random choices, so the result is deterministic.
/// The cost is `probes × (max_n − prefix.n())` child generations, independent
/// of the subtree's size.
pub fn estimate_connected_levels(
    prefix: &BitGraph,
    max_n: usize,
    probes: usize,
    seed: u64,
) -> Vec<f64> {
    use rand::{Rng, SeedableRng};
    let max_n = max_n.min(BitGraph::MAX_N);
    let mut est = vec![0f64; max_n + 1];
    if prefix.n() > max_n {
        return est;
    }
    if prefix.is_connected() {
        est[prefix.n()] = 1.0;
    }
    if prefix.n() == max_n || probes == 0 {
        return est;
    }
    let root_gens = canon::canon_unit(prefix).gens;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut kids = Vec::new();
    let mut scratch = Scratch::default();
    let share = 1.0 / probes as f64;
    for _ in 0..probes {
        let mut g = *prefix;
        let mut gens = root_gens.clone();
        let mut weight = share;
        while g.n() < max_n {
            let last = g.n() + 1 == max_n;
            kids.clear();
            accepted_children(&g, &gens, last, !last, &mut kids, &mut scratch);
            if last {
                est[max_n] += weight * kids.len() as f64;
                break;
            }
            let connected = kids
                .iter()
                .filter(|(s, _)| {
                    let mut h = g;
                    h.push_vertex(*s);
                    h.is_connected()
                })
                .count();
            est[g.n() + 1] += weight * connected as f64;
            if kids.is_empty() {
                break;
            }
            weight *= kids.len() as f64;
            let (s, cg) = kids.swap_remove(rng.random_range(0..kids.len()));
            g.push_vertex(s);
            gens = cg.into_gens(&g, gens.is_empty());
        }
    }
    est
}

struct Walker<'a> {
    max_n: usize,
    opts: WalkOptions,
    visit: &'a mut dyn FnMut(&BitGraph, bool),
    /// Child lists, one per depth, reused across siblings.
    bufs: Vec<Vec<Kid>>,
    scratch: Scratch,
    /// Per level: the `res/mod` cut there (residue, modulus, nodes reached so far).
    cut: Vec<Option<(u64, u64, u64)>>,
}

impl Walker<'_> {
    /// Generate, visit and recurse into the children of `g` (whose automorphism
    /// group is generated by `gens`).
    fn expand(&mut self, g: &BitGraph, gens: &[Perm]) {
        let child_n = g.n() + 1;
        if child_n > self.max_n {
            return;
        }
        let last = child_n == self.max_n;
        let need_conn = self.opts.connected_only && last;
        let mut kids = std::mem::take(&mut self.bufs[child_n]);
        // A child's group is needed only if its subtree is walked: below a
        // cut that keeps one child in `modulus`, the others' groups would be
        // computed for nothing, so it is left to the kept ones.
        let cut_here = matches!(self.cut[child_n], Some((_, m, _)) if m > 1);
        let keep_gens = !last && !cut_here;
        accepted_children(g, gens, need_conn, keep_gens, &mut kids, &mut self.scratch);
        let show = child_n >= self.opts.min_n;
        for (s, cg) in kids.drain(..) {
            if let Some((res, modulus, seen)) = &mut self.cut[child_n] {
                let index = *seen;
                *seen += 1;
                if index % *modulus != *res {
                    continue;
                }
            }
            let mut h = *g;
            h.push_vertex(s);
            let shown = show && (!self.opts.connected_only || need_conn || h.is_connected());
            (self.visit)(&h, shown);
            if !last {
                let cg = cg.into_gens(&h, gens.is_empty());
                self.expand(&h, &cg);
            }
        }
        self.bufs[child_n] = kids;
    }
}

/// Per-parent data for the acceptance tests.
struct Parent {
    n: usize,
    adj: [VSet; 32],
    deg: [u32; 32],
    /// `dmask[k]`: the vertices of degree `k`.
    dmask: [VSet; 33],
    /// Sum of the neighbours' degrees.
    nds: [u32; 32],
    /// Twice the number of triangles through each vertex.
    tri: [u32; 32],
    /// Does the CPU have `popcnt` ([`Self::judge`])?
    #[cfg(target_arch = "x86_64")]
    popcnt: bool,
    /// Sum over the neighbours of their `nds`.
    nds2: [u32; 32],
}

enum Verdict {
    Reject,
    /// Accepted; what is known of the child's automorphism group.
    Accept(ChildGroup),
}

/// What the acceptance test learned of an accepted child's automorphism
/// group.
#[derive(Clone)]
enum ChildGroup {
    /// Its generators, computed on the way.
    Gens(Vec<Perm>),
    /// Not computed, but the new vertex is fixed by every automorphism (it
    /// was alone in the canonical deletion class): [`child_group`].
    Fixed,
    /// Not computed, and the new vertex may be moved (it was accepted by
    /// the orbit probe, without a group): [`full_group`].
    Unknown,
}

impl ChildGroup {
    /// Generators of the automorphism group of `h`, the accepted child,
    /// whose parent's group is trivial if `parent_trivial`.
    fn into_gens(self, h: &BitGraph, parent_trivial: bool) -> Vec<Perm> {
        match self {
            ChildGroup::Gens(gens) => gens,
            // An automorphism fixing the new vertex restricts to one of
            // the parent (`h` minus that vertex), which is the identity.
            ChildGroup::Fixed if parent_trivial => Vec::new(),
            ChildGroup::Fixed => child_group(h),
            ChildGroup::Unknown => full_group(h),
        }
    }
}

impl Parent {
    fn new(g: &BitGraph) -> Self {
        let n = g.n();
        let adj = canon::adj_array(g);
        let mut deg = [0u32; 32];
        let mut dmask = [0u32; 33];
        for v in 0..n {
            deg[v] = adj[v].count_ones();
            dmask[deg[v] as usize] |= 1 << v;
        }
        let mut nds = [0u32; 32];
        for v in 0..n {
            let mut s = adj[v];
            while s != 0 {
                nds[v] += deg[s.trailing_zeros() as usize];
                s &= s - 1;
            }
        }
        let mut tri = [0u32; 32];
        for v in 0..n {
            let mut s = adj[v];
            while s != 0 {
                tri[v] += (adj[s.trailing_zeros() as usize] & adj[v]).count_ones();
                s &= s - 1;
            }
        }
        let mut nds2 = [0u32; 32];
        for v in 0..n {
            let mut s = adj[v];
            while s != 0 {
                nds2[v] += nds[s.trailing_zeros() as usize];
                s &= s - 1;
            }
        }
        Parent {
            n,
            adj,
            deg,
            dmask,
            nds,
            tri,
            nds2,
            #[cfg(target_arch = "x86_64")]
            popcnt: std::is_x86_feature_detected!("popcnt"),
        }
    }

    /// Is `G + v` (v adjacent to `s`, `|s| = d`) accepted, i.e. is the new
    /// vertex in the canonical deletion orbit `m(G + v)`? The caller guarantees
    /// that the new vertex has least degree.
    #[inline]
    fn judge(&self, s: VSet, d: u32, keep_gens: bool) -> Verdict {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: the CPU has `popcnt` (checked in `Parent::new`).
            return unsafe { self.judge_popcnt(s, d, keep_gens) };
        }
        self.judge_body(s, d, keep_gens)
    }

    /// [`Self::judge`] compiled with the `popcnt` instruction (the
    /// invariants are popcounts of rows; without it each is a dozen
    /// instructions).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn judge_popcnt(&self, s: VSet, d: u32, keep_gens: bool) -> Verdict {
        self.judge_body(s, d, keep_gens)
    }

    #[inline(always)]
    fn judge_body(&self, s: VSet, d: u32, keep_gens: bool) -> Verdict {
        let ties = if d == 0 {
            self.dmask[0]
        } else {
            (self.dmask[d as usize] & !s) | (self.dmask[d as usize - 1] & s)
        };
        if ties == 0 {
            return Verdict::Accept(ChildGroup::Fixed);
        }
        let mut new_inv = 0u32;
        let mut t = s;
        while t != 0 {
            new_inv += self.deg[t.trailing_zeros() as usize] + 1;
            t &= t - 1;
        }
        let mut m2 = 0u32;
        let mut t = ties;
        while t != 0 {
            let u = t.trailing_zeros() as usize;
            t &= t - 1;
            let inv =
                self.nds[u] + (self.adj[u] & s).count_ones() + if s >> u & 1 == 1 { d } else { 0 };
            if inv > new_inv {
                return Verdict::Reject;
            }
            if inv == new_inv {
                m2 |= 1 << u;
            }
        }
        if m2 == 0 {
            return Verdict::Accept(ChildGroup::Fixed);
        }
        // Step 2b: most triangles (doubled counts).
        let mut new_tri = 0u32;
        let mut t = s;
        while t != 0 {
            new_tri += (self.adj[t.trailing_zeros() as usize] & s).count_ones();
            t &= t - 1;
        }
        let mut m3 = 0u32;
        let mut t = m2;
        while t != 0 {
            let u = t.trailing_zeros() as usize;
            t &= t - 1;
            let tr = self.tri[u]
                + if s >> u & 1 == 1 {
                    2 * (self.adj[u] & s).count_ones()
                } else {
                    0
                };
            if tr > new_tri {
                return Verdict::Reject;
            }
            if tr == new_tri {
                m3 |= 1 << u;
            }
        }
        if m3 == 0 {
            return Verdict::Accept(ChildGroup::Fixed);
        }
        // Step 2c: largest sum over the neighbours of their neighbour-degree sums.
        let mut new_h = d * d + new_tri;
        let mut t = s;
        while t != 0 {
            new_h += self.nds[t.trailing_zeros() as usize];
            t &= t - 1;
        }
        let mut m4 = 0u32;
        let mut t = m3;
        while t != 0 {
            let u = t.trailing_zeros() as usize;
            t &= t - 1;
            let au = self.adj[u];
            let mut h = self.nds2[u] + d * (au & s).count_ones();
            let mut w = s;
            while w != 0 {
                h += (self.adj[w.trailing_zeros() as usize] & au).count_ones();
                w &= w - 1;
            }
            if s >> u & 1 == 1 {
                h += new_inv;
            }
            if h > new_h {
                return Verdict::Reject;
            }
            if h == new_h {
                m4 |= 1 << u;
            }
        }
        if m4 == 0 {
            return Verdict::Accept(ChildGroup::Fixed);
        }
        // Every vertex still tied is a twin of the new vertex (the same
        // neighbours besides each other): swapping the two is an
        // automorphism, so the tied class is one orbit, which holds the
        // canonical vertex (it stays the first cell of the refinement).
        if !keep_gens && twins_of_new(&self.adj, s, m4) {
            return Verdict::Accept(ChildGroup::Unknown);
        }
        self.judge_refined(s, m4, keep_gens)
    }

    /// Step 3 of the deletion choice: refinement, then canonical labelling.
    #[cold]
    fn judge_refined(&self, s: VSet, m2: VSet, keep_gens: bool) -> Verdict {
        let n = self.n;
        let nb = 1u32 << n;
        let mut hadj = self.adj;
        let mut t = s;
        while t != 0 {
            hadj[t.trailing_zeros() as usize] |= nb;
            t &= t - 1;
        }
        hadj[n] = s;
        let first = m2 | nb;
        let mut cells = [0u32; 34];
        cells[0] = first;
        for (v, &row) in hadj[..=n].iter().enumerate() {
            if first >> v & 1 == 0 {
                cells[1 + row.count_ones() as usize] |= 1 << v;
            }
        }
        let mut p = Part::new(&cells);
        let q = p.all_lowbits();
        refine_watch(&hadj, n + 1, &mut p, q, nb);
        if p.cells[0] & nb == 0 {
            return Verdict::Reject;
        }
        if p.cells[0] == nb {
            return Verdict::Accept(ChildGroup::Fixed);
        }
        if !keep_gens && canon::first_cell_is_orbit(&hadj, n + 1, &p) {
            // The new vertex is in the orbit of every vertex of the first
            // cell, the canonical one included.
            return Verdict::Accept(ChildGroup::Unknown);
        }
        let out = search(&hadj, n + 1, &p);
        let orb = orbits(n + 1, &out.gens);
        if orb[out.lab[0] as usize] & nb != 0 {
            Verdict::Accept(ChildGroup::Gens(out.gens))
        } else {
            Verdict::Reject
        }
    }
}

/// Is every vertex `u` of `tied` a twin of the new vertex, whose
/// neighbourhood is `s` (`N(u)` and `s` equal up to `u` and the new vertex
/// themselves)? Then each transposition of `u` and the new vertex is an
/// automorphism of the child.
#[inline(always)]
fn twins_of_new(adj: &[VSet; 32], s: VSet, tied: VSet) -> bool {
    let mut t = tied;
    while t != 0 {
        let u = t.trailing_zeros() as usize;
        t &= t - 1;
        if adj[u] != s & !(1 << u) {
            return false;
        }
    }
    true
}

/// The automorphism group of a graph `h` (generators): a search from its
/// vertices ordered by degree, refined (a partition every automorphism
/// preserves, so its group is all of Aut(h)).
fn full_group(h: &BitGraph) -> Vec<Perm> {
    let n = h.n();
    let adj = canon::adj_array(h);
    let mut cells = [0u32; 34];
    for (v, &row) in adj[..n].iter().enumerate() {
        cells[row.count_ones() as usize] |= 1 << v;
    }
    let mut p = Part::new(&cells);
    let q = p.all_lowbits();
    refine(&adj, n, &mut p, q);
    if p.len == n {
        return Vec::new();
    }
    search(&adj, n, &p).gens
}

/// The automorphism group of a freshly accepted child `h`, whose last vertex
/// is fixed by every automorphism (it was the unique vertex in `m(h)`).
fn child_group(h: &BitGraph) -> Vec<Perm> {
    let n = h.n();
    let adj = canon::adj_array(h);
    let last = n - 1;
    let mut cells = [0u32; 34];
    cells[0] = 1 << last;
    for (v, &row) in adj[..last].iter().enumerate() {
        cells[1 + row.count_ones() as usize] |= 1 << v;
    }
    let mut p = Part::new(&cells);
    let q = p.all_lowbits();
    refine(&adj, n, &mut p, q);
    if p.len == n {
        return Vec::new();
    }
    search(&adj, n, &p).gens
}

/// The next larger integer with the same number of set bits (Gosper's hack,
/// division-free form).
#[inline(always)]
fn next_combination(c: u64) -> u64 {
    let t = c | (c - 1);
    (t + 1) | (((!t & (!t).wrapping_neg()) - 1) >> (c.trailing_zeros() + 1))
}

/// Call `f` on every `k`-subset of `mask` (Gosper's hack on the compressed
/// positions).
#[inline]
fn for_each_ksubset(mask: VSet, k: u32, mut f: impl FnMut(VSet)) {
    let nb = mask.count_ones();
    if k > nb {
        return;
    }
    if k == 0 {
        f(0);
        return;
    }
    let mut pos = [0u8; 32];
    let mut m = mask;
    let mut i = 0;
    while m != 0 {
        pos[i] = m.trailing_zeros() as u8;
        m &= m - 1;
        i += 1;
    }
    let mut c: u64 = (1u64 << k) - 1;
    let limit = 1u64 << nb;
    if mask as u64 == limit - 1 {
        // Contiguous low bits: the compressed subset is the subset.
        while c < limit {
            f(c as VSet);
            c = next_combination(c);
        }
        return;
    }
    while c < limit {
        let mut s = 0u32;
        let mut t = c;
        while t != 0 {
            s |= 1 << pos[t.trailing_zeros() as usize];
            t &= t - 1;
        }
        f(s);
        c = next_combination(c);
    }
}

/// Image of the vertex set `s` under the permutation `g`.
#[inline]
fn permute_set(s: VSet, g: &Perm) -> VSet {
    let mut t = s;
    let mut r = 0u32;
    while t != 0 {
        r |= 1 << g[t.trailing_zeros() as usize];
        t &= t - 1;
    }
    r
}

/// The children of `g` in the generation tree, as neighbourhoods `S` of the
/// new vertex, one per Aut(g)-orbit (the numerically least set of each orbit,
/// which is also the first enumerated), with what was learned of the child's
/// group on the way (its generators only if `keep_gens`; without, the orbit
/// probe may accept a child whose group is then [`ChildGroup::Unknown`]).
/// With `need_conn`, only children that are connected.
fn accepted_children(
    g: &BitGraph,
    gens: &[Perm],
    need_conn: bool,
    keep_gens: bool,
    out: &mut Vec<Kid>,
    scratch: &mut Scratch,
) {
    let n = g.n();
    if n >= BitGraph::MAX_N {
        return;
    }
    if n == 0 {
        out.push((0, ChildGroup::Fixed));
        return;
    }
    let par = Parent::new(g);
    let delta = par.deg[..n].iter().copied().min().unwrap_or(0);
    let all = g.all();
    // Components of g: the new vertex must meet each one for a connected child.
    let mut comps = [0u32; 32];
    let mut ncomps = 0usize;
    if need_conn {
        let mut rest = all;
        while rest != 0 {
            let c = g.component(rest.trailing_zeros() as usize, all);
            comps[ncomps] = c;
            ncomps += 1;
            rest &= !c;
        }
    }
    let comps = &comps[..ncomps];
    let dmin = if need_conn { ncomps as u32 } else { 0 };
    for d in dmin..=delta + 1 {
        // d ≤ δ: any d-set; d = δ + 1: all vertices of degree δ must be in S.
        let forced = if d == delta + 1 {
            par.dmask[delta as usize]
        } else {
            0
        };
        let nf = forced.count_ones();
        if nf > d {
            continue;
        }
        for_each_ksubset(all & !forced, d - nf, |t| {
            let s = forced | t;
            // (One component: every non-empty set meets it, and d ≥ 1.)
            if comps.len() > 1 && comps.iter().any(|&c| c & s == 0) {
                return;
            }
            if let Verdict::Accept(cg) = par.judge(s, d, keep_gens) {
                if gens.is_empty() || is_orbit_min(n, s, gens, scratch) {
                    out.push((s, cg));
                }
            }
        });
    }
}

/// One child: the new vertex's neighbourhood, and what the acceptance test
/// learned of the child's automorphism group.
type Kid = (VSet, ChildGroup);

/// Reusable buffers for [`accepted_children`].
#[derive(Default)]
struct Scratch {
    /// `seen[s] == stamp`: set `s` already reached in the current orbit search.
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<VSet>,
    /// Fallback for parents too large for the `seen` table.
    seen_big: std::collections::HashSet<VSet>,
}

/// Largest parent size for which sets are looked up in a direct table.
const LOOKUP_MAX_N: usize = 20;

/// Is `s` the numerically least set of its orbit under the group generated
/// by `gens`? (Breadth-first over the orbit, stopping at the first smaller set.)
/// `n` is the number of vertices the permutations act on.
fn is_orbit_min(n: usize, s: VSet, gens: &[Perm], scratch: &mut Scratch) -> bool {
    scratch.queue.clear();
    scratch.queue.push(s);
    if n <= LOOKUP_MAX_N {
        if scratch.seen.len() < 1 << n {
            scratch.seen.resize(1 << n, 0);
        }
        scratch.stamp = scratch.stamp.wrapping_add(1);
        if scratch.stamp == 0 {
            scratch.seen.iter_mut().for_each(|x| *x = 0);
            scratch.stamp = 1;
        }
        let stamp = scratch.stamp;
        scratch.seen[s as usize] = stamp;
        while let Some(x) = scratch.queue.pop() {
            for gp in gens {
                let y = permute_set(x, gp);
                if y < s {
                    return false;
                }
                if scratch.seen[y as usize] != stamp {
                    scratch.seen[y as usize] = stamp;
                    scratch.queue.push(y);
                }
            }
        }
    } else {
        scratch.seen_big.clear();
        scratch.seen_big.insert(s);
        while let Some(x) = scratch.queue.pop() {
            for gp in gens {
                let y = permute_set(x, gp);
                if y < s {
                    return false;
                }
                if scratch.seen_big.insert(y) {
                    scratch.queue.push(y);
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests;
