//! UVG on [`GeneralGraph`]: exact Grundy values of single positions on large
//! sparse graphs (hundreds of vertices), the matching winner and winning move,
//! the degree-3 algorithm, and the trees t(k).
//!
//! The exact search is memoised on (token, token's component): the token can
//! never leave its component, so that pair determines the value. Sound
//! shortcuts keep it fast:
//! * a move onto a vertex with no other remaining neighbour has value 0 and
//!   is never searched (so a bunch of pendant leaves costs one option);
//! * the children of a position are found by one pass that splits
//!   `component − token` into its pieces (one BFS per piece, not per option);
//!   a token on a leaf of its component skips the BFS altogether;
//! * positions whose component has at most 32 vertices are handed to the
//!   [`BitGraph`] search (bitset components, integer memo keys), which is an
//!   order of magnitude cheaper per position; they still count as search
//!   nodes for the budget.

use std::collections::HashMap;

use crate::graph::general::{GeneralGraph, VertexSet};
use crate::graph::BitGraph;
use crate::meter::Gauge;

use super::matching::{self, Blossom, MatchGraph};
use super::FxBuildHasher;

/// Result of a completed exact search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GeneralOutcome {
    /// The Grundy value.
    pub value: u32,
    /// Search nodes used (distinct positions evaluated).
    pub nodes: u64,
}

/// The search was stopped after using up its node budget, or because its
/// [`Meter`](crate::meter::Meter) was stopped (`stopped`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("search {} after {nodes} nodes", if *stopped { "stopped" } else { "budget exceeded" })]
pub struct BudgetExceeded {
    /// Nodes evaluated before stopping.
    pub nodes: u64,
    /// Stopped through the meter, not by the budget.
    pub stopped: bool,
}

/// Memo over large components.
type BigMemo = HashMap<(u32, VertexSet), u32, FxBuildHasher>;

struct Frame {
    token: usize,
    comp: VertexSet,
    children: Vec<(usize, VertexSet)>,
    next: usize,
    /// Option values seen so far, as a bitmask (values ≥ 128 go to `big`).
    seen: u128,
    big: Vec<u32>,
}

struct Search<'g> {
    g: &'g GeneralGraph,
    memo: BigMemo,
    small: super::Memo,
    nodes: u64,
    budget: Option<u64>,
    gauge: Gauge,
    /// Components up to this size go to the BitGraph search.
    small_limit: usize,
    /// Scratch for splitting components.
    label: Vec<u32>,
    stack: Vec<usize>,
}

/// Largest component handed to the [`BitGraph`] search.
const SMALL: usize = 32;

/// Positions the [`BitGraph`] search evaluates between two looks at the
/// meter.
const SMALL_CHUNK: u64 = 1 << 16;

impl<'g> Search<'g> {
    fn new(g: &'g GeneralGraph, budget: Option<u64>, small_limit: usize) -> Self {
        Search {
            small_limit: small_limit.min(SMALL),
            g,
            memo: BigMemo::default(),
            small: super::Memo::default(),
            nodes: 0,
            budget,
            gauge: Gauge::current(),
            label: vec![u32::MAX; g.n()],
            stack: Vec::new(),
        }
    }

    /// Bytes the search's tables will hold when they grow next, about:
    /// both memos' slots (a hashbrown table has 8 slots for every 7 it
    /// fills, one control byte each), the general memo's vertex sets on
    /// the heap (their words and the allocator's 16 bytes), and the doubled
    /// table a full memo moves into (for that moment both are held). What a meter's memory limit is compared
    /// with ([`Gauge::tick_holding`]), so the limit holds at that peak too.
    fn held(&self) -> u64 {
        let slots = |capacity: usize| capacity as u64 * 8 / 7;
        let big = std::mem::size_of::<((u32, VertexSet), u32)>() as u64 + 1;
        let small = std::mem::size_of::<(u64, u8)>() as u64 + 1;
        let words = self.g.n().div_ceil(64) as u64;
        let tables = slots(self.memo.capacity()) * big + slots(self.small.capacity()) * small;
        3 * tables + self.memo.len() as u64 * (words * 8 + 16)
    }

    fn charge(&mut self, k: u64) -> Result<(), BudgetExceeded> {
        self.nodes += k;
        let stopped = self.gauge.tick_holding(k, || self.held());
        match self.budget {
            Some(b) if self.nodes > b => Err(self.stop(false)),
            _ if stopped => Err(self.stop(true)),
            _ => Ok(()),
        }
    }

    fn stop(&self, stopped: bool) -> BudgetExceeded {
        BudgetExceeded {
            nodes: self.nodes,
            stopped,
        }
    }

    /// Options of (t, comp), with the component each one moves into.
    /// Leaf options (value 0) are returned once, with a singleton component.
    fn children(&mut self, t: usize, comp: &VertexSet) -> Vec<(usize, VertexSet)> {
        let g = self.g;
        let mut rest = comp.clone();
        rest.remove(t);
        let opts: Vec<usize> = g
            .nbrs(t)
            .iter()
            .copied()
            .filter(|&u| rest.contains(u))
            .collect();
        let mut out = Vec::with_capacity(opts.len());
        if opts.len() == 1 {
            // t is a leaf of its component: removing it disconnects nothing.
            out.push((opts[0], rest));
            return out;
        }
        let mut leaf_done = false;
        let mut pieces: Vec<VertexSet> = Vec::new();
        for &u in &opts {
            if !g.nbrs(u).iter().any(|&w| rest.contains(w)) {
                if !leaf_done {
                    leaf_done = true;
                    let mut s = VertexSet::empty(g.n());
                    s.insert(u);
                    out.push((u, s));
                }
                continue;
            }
            let id = self.label[u];
            let piece = if (id as usize) < pieces.len() && pieces[id as usize].contains(u) {
                id as usize
            } else {
                // New piece: BFS inside rest.
                let mut s = VertexSet::empty(g.n());
                s.insert(u);
                let pid = pieces.len() as u32;
                self.label[u] = pid;
                self.stack.push(u);
                while let Some(x) = self.stack.pop() {
                    for &y in g.nbrs(x) {
                        if rest.contains(y) && !s.contains(y) {
                            s.insert(y);
                            self.label[y] = pid;
                            self.stack.push(y);
                        }
                    }
                }
                pieces.push(s);
                pid as usize
            };
            out.push((u, pieces[piece].clone()));
        }
        out
    }

    /// Value of a position whose component is small: BitGraph search.
    fn small_value(&mut self, t: usize, comp: &VertexSet) -> Result<u32, BudgetExceeded> {
        let verts: Vec<usize> = comp.iter().collect();
        let mut bg = BitGraph::new(verts.len());
        for (i, &x) in verts.iter().enumerate() {
            for &y in self.g.nbrs(x) {
                if let Ok(j) = verts.binary_search(&y) {
                    if j > i {
                        bg.add_edge(i, j);
                    }
                }
            }
        }
        let ti = verts.binary_search(&t).expect("token in its component");
        // A fresh memo per small component: its labels are local.
        self.small.clear();
        // In chunks of SMALL_CHUNK positions, so that a stop is seen within
        // one chunk; the memo keeps what a chunk finished, so the next one
        // only walks back down to where it stopped.
        let mut left_total = match self.budget {
            Some(b) => b.saturating_sub(self.nodes),
            None => u64::MAX,
        };
        loop {
            let chunk = left_total.min(SMALL_CHUNK);
            let mut left = chunk;
            let x = super::memo_grundy_budget(&bg, ti, bg.all(), &mut self.small, &mut left);
            let used = chunk - left;
            match x {
                Some(x) => {
                    self.charge(used)?;
                    return Ok(x as u32);
                }
                // The budget ran out: the position that did not fit counts
                // too (so nodes > budget).
                None if chunk == left_total => {
                    self.nodes += used + 1;
                    self.gauge.tick(used + 1);
                    return Err(self.stop(false));
                }
                None => {
                    self.charge(used)?;
                    left_total -= used;
                }
            }
        }
    }

    fn frame(&mut self, token: usize, comp: VertexSet) -> Frame {
        let children = self.children(token, &comp);
        Frame {
            token,
            comp,
            children,
            next: 0,
            seen: 0,
            big: Vec::new(),
        }
    }

    fn solve(&mut self, start: usize) -> Result<u32, BudgetExceeded> {
        let comp = self.g.component(start, &self.g.all());
        if comp.len() <= self.small_limit {
            return self.small_value(start, &comp);
        }
        self.charge(1)?;
        let f = self.frame(start, comp);
        let mut stack = vec![f];
        loop {
            let top = stack.last_mut().expect("non-empty");
            if top.next < top.children.len() {
                let (u, cu) =
                    std::mem::replace(&mut top.children[top.next], (0, VertexSet::empty(0)));
                top.next += 1;
                let known = if cu.len() == 1 {
                    Some(0)
                } else {
                    let key = (u as u32, cu);
                    match self.memo.get(&key) {
                        Some(&x) => Some(x),
                        None if key.1.len() <= self.small_limit => {
                            let x = self.small_value(u, &key.1)?;
                            self.memo.insert(key, x);
                            Some(x)
                        }
                        None => {
                            self.charge(1)?;
                            let f = self.frame(u, key.1);
                            stack.push(f);
                            None
                        }
                    }
                };
                if let Some(x) = known {
                    record(stack.last_mut().expect("non-empty"), x);
                }
            } else {
                let f = stack.pop().expect("non-empty");
                let x = mex(&f);
                self.memo.insert((f.token as u32, f.comp), x);
                match stack.last_mut() {
                    Some(parent) => record(parent, x),
                    None => return Ok(x),
                }
            }
        }
    }
}

fn record(f: &mut Frame, x: u32) {
    if x < 128 {
        f.seen |= 1 << x;
    } else {
        f.big.push(x);
    }
}

fn mex(f: &Frame) -> u32 {
    let m = f.seen.trailing_ones();
    if m < 128 {
        return m;
    }
    let mut big = f.big.clone();
    big.sort_unstable();
    let mut m = 128;
    for x in big {
        if x == m {
            m += 1;
        } else if x > m {
            break;
        }
    }
    m
}

/// Exact Grundy value of (token on `start`, all vertices remaining) on a large
/// graph, with an optional budget of search nodes (distinct positions
/// evaluated). `start` must be `< g.n()` (panics otherwise; callers validate
/// user input).
pub fn grundy_general(
    g: &GeneralGraph,
    start: usize,
    budget: Option<u64>,
) -> Result<GeneralOutcome, BudgetExceeded> {
    grundy_general_with(g, start, budget, SMALL)
}

/// [`grundy_general`] with components of at most `small_limit` (≤ 32)
/// vertices handed to the BitGraph search; `0` keeps everything in the
/// general search (the tests compare both).
pub(crate) fn grundy_general_with(
    g: &GeneralGraph,
    start: usize,
    budget: Option<u64>,
    small_limit: usize,
) -> Result<GeneralOutcome, BudgetExceeded> {
    assert!(start < g.n(), "start vertex {start} out of range");
    let mut s = Search::new(g, budget, small_limit);
    let value = s.solve(start)?;
    Ok(GeneralOutcome {
        value,
        nodes: s.nodes,
    })
}

/// [`GeneralGraph`] restricted to an alive set, for the blossom algorithm.
struct GeneralView<'g> {
    g: &'g GeneralGraph,
    alive: &'g VertexSet,
}

/// Alive neighbours of a vertex.
struct AliveNbrs<'g> {
    it: std::slice::Iter<'g, usize>,
    alive: &'g VertexSet,
}

impl Iterator for AliveNbrs<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        self.it.by_ref().copied().find(|&u| self.alive.contains(u))
    }
}

impl MatchGraph for GeneralView<'_> {
    type Nbrs<'a>
        = AliveNbrs<'a>
    where
        Self: 'a;
    fn size(&self) -> usize {
        self.g.n()
    }
    fn vertices(&self) -> Vec<usize> {
        self.alive.iter().filter(|&v| v < self.g.n()).collect()
    }
    fn nbrs(&self, v: usize) -> AliveNbrs<'_> {
        AliveNbrs {
            it: self.g.nbrs(v).iter(),
            alive: self.alive,
        }
    }
}

/// A maximum matching of `g` restricted to `alive` (Edmonds' blossom
/// algorithm), as a mate array over all vertices.
pub fn max_matching_general(g: &GeneralGraph, alive: &VertexSet) -> Vec<Option<usize>> {
    let view = GeneralView { g, alive };
    let mut b = Blossom::new(&view);
    b.maximize();
    matching::mate_options(&b.mate)
}

/// Size of a maximum matching of `g` restricted to `alive`.
pub fn max_matching_size_general(g: &GeneralGraph, alive: &VertexSet) -> usize {
    let view = GeneralView { g, alive };
    Blossom::new(&view).maximize() as usize
}

/// Blossom run on `v`'s component: (is `v` in every maximum matching, mates).
fn essential(g: &GeneralGraph, v: usize, alive: &VertexSet) -> (bool, Vec<u32>) {
    let mut alive = alive.clone();
    alive.insert(v);
    let comp = g.component(v, &alive);
    let view = GeneralView { g, alive: &comp };
    let mut b = Blossom::new(&view);
    b.maximize();
    let d = b.missable();
    (!d[v], b.mate)
}

/// Matching theorem on a general graph: the player to move from `v`
/// (remaining `alive`) wins iff `v` is in every maximum matching of its component.
pub fn first_player_wins_general(g: &GeneralGraph, v: usize, alive: &VertexSet) -> bool {
    essential(g, v, alive).0
}

/// A winning move (`v`'s mate in a maximum matching) if the mover wins, else `None`.
pub fn winning_move_general(g: &GeneralGraph, v: usize, alive: &VertexSet) -> Option<usize> {
    let (wins, mate) = essential(g, v, alive);
    if wins {
        matching::mate_options(&mate)[v]
    } else {
        None
    }
}

struct GeneralGame<'g>(&'g GeneralGraph);

impl super::degree3::Degree3Game for GeneralGame<'_> {
    type Set = VertexSet;
    fn options(&self, v: usize, alive: &VertexSet) -> Vec<usize> {
        self.0
            .nbrs(v)
            .iter()
            .copied()
            .filter(|&u| alive.contains(u))
            .collect()
    }
    fn without(&self, alive: &VertexSet, v: usize) -> VertexSet {
        let mut s = alive.clone();
        s.remove(v);
        s
    }
    fn wins(&self, v: usize, alive: &VertexSet) -> bool {
        first_player_wins_general(self.0, v, alive)
    }
}

/// The degree-3 algorithm ([`super::degree3`]) on a general graph: (value,
/// win/lose tests), or `None` if `v`'s component of `alive` has a vertex of
/// degree > 3 (or `v` is not a vertex).
pub fn degree3_general(g: &GeneralGraph, v: usize, alive: &VertexSet) -> Option<(u32, u32)> {
    if v >= g.n() {
        return None;
    }
    let mut alive = alive.clone();
    alive.insert(v);
    let comp = g.component(v, &alive);
    if comp
        .iter()
        .any(|u| g.nbrs(u).iter().filter(|&&w| comp.contains(w)).count() > 3)
    {
        return None;
    }
    super::degree3::run(&GeneralGame(g), v, comp).map(|(x, t)| (x as u32, t))
}

/// The tree t(k): t(0) is one vertex; t(k) is a root (vertex 0) whose
/// children root copies of t(k−1), …, t(0). It has 2^k vertices and the
/// token on the root has value *k.
pub fn tree_t(k: u32) -> GeneralGraph {
    fn build(k: u32, next: &mut usize, edges: &mut Vec<(usize, usize)>) -> usize {
        let root = *next;
        *next += 1;
        for j in (0..k).rev() {
            let c = build(j, next, edges);
            edges.push((root, c));
        }
        root
    }
    let mut next = 0;
    let mut edges = Vec::new();
    build(k, &mut next, &mut edges);
    GeneralGraph::from_edges(next, &edges).expect("tree edges are simple")
}

/// The game positions (token, token's component) reachable from the starts
/// `starts` of `g`, every start with all vertices present — the node count of
/// a plain exact search memoised on (token, component), independent of any
/// solver's shortcuts. `seen` is shared across calls to count a whole graph
/// with one memo.
pub fn reachable_positions(
    g: &BitGraph,
    start: usize,
    seen: &mut std::collections::HashSet<(usize, crate::graph::VSet)>,
) -> u64 {
    let before = seen.len();
    let first = (start, g.component(start, g.all()));
    if seen.insert(first) {
        let mut stack = vec![first];
        while let Some((v, comp)) = stack.pop() {
            let rest = comp & !(1 << v);
            for u in crate::graph::members(g.nbrs(v) & rest) {
                let next = (u, g.component(u, rest));
                if seen.insert(next) {
                    stack.push(next);
                }
            }
        }
    }
    (seen.len() - before) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meter::Meter;

    /// 30 vertices, about a quarter of the pairs joined (seeded): start 0
    /// needs more than 5 million search nodes.
    const HARD: &str = "]`cCCO?[??OPHD?UW??`H?o?CUOOs__E@?p?g?C`GFq?go?C_A?lu_PGwAC@_h?Ka??WY?WG`G";

    /// 30 vertices, about 12 % of the pairs joined: start 0 needs about
    /// 100,000 nodes.
    const G30: &str = "]K??K@????????CCGAI_QI?A?AY??LG?@C?g_a?GO???Oo?a?@???AAA??K?W?A?@?O?GO?_??";

    fn graph(code: &str) -> GeneralGraph {
        let (n, edges) = crate::graph::graph6::decode(code).unwrap();
        GeneralGraph::from_edges(n, &edges).unwrap()
    }

    #[test]
    fn a_memory_limit_stops_the_search_once_its_tables_would_hold_more() {
        let limit = 4 << 20;
        let m = Meter::with_memory_limit(limit);
        let e = m
            .run(|| grundy_general(&graph(HARD), 0, Some(50_000_000)))
            .unwrap_err();
        assert!(e.stopped && m.over_memory(), "{e:?}");
        // Seen at the first look past the limit: a table's growth at most
        // doubles what it holds.
        assert!(m.held() > limit && m.held() <= 3 * limit, "{}", m.held());
        assert!(e.nodes < 5_000_000, "{e:?}");
        // A search within the limit is not touched.
        let g = graph(G30);
        let free = grundy_general(&g, 0, None).unwrap();
        let m = Meter::with_memory_limit(1 << 30);
        assert_eq!(m.run(|| grundy_general(&g, 0, None)).unwrap(), free);
        assert!(!m.over_memory() && m.held() > 0 && m.held() < 1 << 30);
    }
}
