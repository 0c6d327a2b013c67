//! The canonical-value solver: components, memo, options.

use super::canon::{self, Code};
use super::{Board, Pos};
use crate::cgt::{Arena, GameId};
use crate::fxhash::FxHashMap;
use crate::graph::members;
use crate::meter::Gauge;

/// How component values are memoised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoMode {
    /// No memo at all (every component re-solved; for measurements only).
    None,
    /// Keyed by the labelled code (compacted vertex order, no isomorphism).
    Labelled,
    /// Labelled code first, then the canonical code (isomorphic components share).
    Canonical,
    /// Labelled code first, then the AHU code for components that are trees
    /// (cheap); other components only by labelled code.
    TreeCanonical,
}

/// Which reductions the solver applies (components, dropped arcs and the
/// labelled + tree-canonical memo by default; the other settings exist to
/// measure what each one is worth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverOptions {
    /// Split positions into components and sum their values.
    pub components: bool,
    /// Drop arcs between vertices that share no available colour.
    pub drop_arcs: bool,
    /// Memo scheme.
    pub memo: MemoMode,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            components: true,
            drop_arcs: true,
            // Measured (runs/bench-col.md): full canonical labelling of general
            // components costs more than the sharing it buys at these sizes;
            // AHU codes for tree components are cheap and pay on trees.
            memo: MemoMode::TreeCanonical,
        }
    }
}

/// Counters of the solver's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Components valued by expanding their options.
    pub expanded: u64,
    /// Hits in the labelled memo.
    pub labelled_hits: u64,
    /// Hits in the canonical memo (after a labelled miss).
    pub canonical_hits: u64,
}

/// Values reduced positions with one CGT [`Arena`] and a component memo.
/// Not thread-safe by design: give each thread its own solver.
pub struct Solver {
    /// The arena holding every value this solver returned.
    pub arena: Arena,
    opts: SolverOptions,
    labelled: FxHashMap<Code, GameId>,
    canonical: FxHashMap<Code, GameId>,
    /// Work counters.
    pub stats: SolverStats,
    one: GameId,
    minus_one: GameId,
    star: GameId,
    /// Most work units ([`Solver::work`]) allowed; `None`: unlimited.
    budget: Option<u64>,
    /// Set once the budget ran out or the meter was stopped (values from
    /// then on are meaningless).
    exceeded: bool,
    /// Set when the meter was stopped.
    stopped: bool,
    gauge: Gauge,
}

impl Solver {
    /// A solver with the given reductions.
    pub fn new(opts: SolverOptions) -> Self {
        let mut arena = Arena::new();
        let one = arena.integer(1);
        let minus_one = arena.integer(-1);
        let star = arena.star();
        Solver {
            arena,
            opts,
            labelled: FxHashMap::default(),
            canonical: FxHashMap::default(),
            stats: SolverStats::default(),
            one,
            minus_one,
            star,
            budget: None,
            exceeded: false,
            stopped: false,
            gauge: Gauge::current(),
        }
    }

    /// A solver that stops expanding once its work ([`Solver::work`])
    /// reaches `budget` (`None`: unlimited, as [`Solver::new`]). Its memory
    /// grows with the work, so the budget bounds both. After the budget ran
    /// out ([`Solver::budget_exceeded`]) every value it returns is
    /// meaningless and the solver should be dropped.
    pub fn with_budget(opts: SolverOptions, budget: Option<u64>) -> Self {
        Solver {
            budget,
            ..Solver::new(opts)
        }
    }

    /// Work done so far: components expanded plus games held by the arena
    /// (what a budget counts).
    pub fn work(&self) -> u64 {
        self.stats.expanded + self.arena.len() as u64
    }

    /// Did the work reach the budget of [`Solver::with_budget`], or was the
    /// [`Meter`](crate::meter::Meter) it was created under stopped
    /// ([`Solver::stopped`])? Either way the values it returned since are
    /// meaningless.
    pub fn budget_exceeded(&self) -> bool {
        self.exceeded
    }

    /// Was the [`Meter`](crate::meter::Meter) this solver was created under
    /// stopped?
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The value of a position: sum of its components' values.
    pub fn value(&mut self, b: &Board, p: Pos) -> GameId {
        if !self.opts.components {
            return self.component_value(b, p);
        }
        let mut alive = p.alive();
        let mut sum = self.arena.zero();
        while alive != 0 {
            let v = alive.trailing_zeros() as usize;
            let comp = p.component(b, v, self.opts.drop_arcs);
            let g = self.component_value(b, p.restrict(comp));
            sum = self.arena.add(sum, g);
            alive &= !comp;
        }
        sum
    }

    /// The value of the components of `p`, listed as `(vertex set, value)`.
    pub fn components(&mut self, b: &Board, p: Pos) -> Vec<(u32, GameId)> {
        let mut out = Vec::new();
        let mut alive = p.alive();
        while alive != 0 {
            let v = alive.trailing_zeros() as usize;
            let comp = p.component(b, v, self.opts.drop_arcs);
            out.push((comp, self.component_value(b, p.restrict(comp))));
            alive &= !comp;
        }
        out
    }

    /// The value of `p` taken as one game (it may be disconnected when
    /// components are switched off).
    pub fn component_value(&mut self, b: &Board, p: Pos) -> GameId {
        let alive = p.alive();
        match alive.count_ones() {
            0 => return self.arena.zero(),
            1 => {
                return match (p.l != 0, p.r != 0) {
                    (true, true) => self.star,
                    (true, false) => self.one,
                    _ => self.minus_one,
                }
            }
            _ => {}
        }
        if self.opts.memo == MemoMode::None {
            return self.expand(b, p);
        }
        let c = canon::compact(b, p, alive, self.opts.drop_arcs);
        let lk = canon::labelled_code(&c);
        if let Some(&g) = self.labelled.get(&lk) {
            self.stats.labelled_hits += 1;
            return g;
        }
        let ck = match self.opts.memo {
            MemoMode::Canonical => Some(canon::canonical_code(&c)),
            MemoMode::TreeCanonical => canon::tree_code(&c),
            _ => None,
        };
        if let Some(ck) = ck {
            if let Some(&g) = self.canonical.get(&ck) {
                self.stats.canonical_hits += 1;
                self.labelled.insert(lk, g);
                return g;
            }
            let g = self.expand(b, p);
            self.canonical.insert(ck, g);
            self.labelled.insert(lk, g);
            g
        } else {
            let g = self.expand(b, p);
            self.labelled.insert(lk, g);
            g
        }
    }

    fn expand(&mut self, b: &Board, p: Pos) -> GameId {
        if self.gauge.tick(1) {
            self.stopped = true;
            self.exceeded = true;
        }
        if self.exceeded || self.budget.is_some_and(|budget| self.work() >= budget) {
            // Unwind without expanding: the caller checks `exceeded`.
            self.exceeded = true;
            return self.arena.zero();
        }
        self.stats.expanded += 1;
        let mut lo = Vec::with_capacity(p.l.count_ones() as usize);
        for u in members(p.l) {
            lo.push(self.value(b, p.move_left(b, u)));
        }
        let mut ro = Vec::with_capacity(p.r.count_ones() as usize);
        for u in members(p.r) {
            ro.push(self.value(b, p.move_right(b, u)));
        }
        self.arena.game(&lo, &ro)
    }

    /// Number of entries in the (labelled, canonical) memos.
    pub fn memo_sizes(&self) -> (usize, usize) {
        (self.labelled.len(), self.canonical.len())
    }
}
