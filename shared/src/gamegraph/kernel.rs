//! Kernels of digraphs: sets K that are independent (no arc between two
//! members, no member with a loop) and absorbing (every vertex outside K has
//! an arc into K).
//!
//! An acyclic digraph has exactly one kernel, built greedily in reverse
//! topological order ([`kernel_acyclic`]); in a normal-play game graph it is
//! the set of II positions. A general digraph may have none (an odd directed
//! cycle), one, or several; [`find_kernel`] decides which by an exhaustive
//! backtracking search with unit propagation.

use super::label::reverse_topological_order;
use super::{GameGraph, GameGraphError};
use crate::meter::Gauge;
use serde::Serialize;

/// Does `set` (a membership vector) form a kernel of `g`'s move digraph?
pub fn is_kernel(g: &GameGraph, set: &[bool]) -> bool {
    // An arc between two members (or a loop on one) starts at a member, so
    // checking the members' moves covers independence.
    (0..g.len()).all(|v| {
        if set[v] {
            g.moves(v).iter().all(|&w| !set[w])
        } else {
            g.moves(v).iter().any(|&w| set[w])
        }
    })
}

/// The unique kernel of an acyclic digraph: in reverse topological order a
/// vertex joins when none of its successors has joined. `Err` on a cycle.
pub fn kernel_acyclic(g: &GameGraph) -> Result<Vec<bool>, GameGraphError> {
    let order = reverse_topological_order(g).map_err(|c| GameGraphError::Cyclic {
        game: g.name().to_string(),
        cycle: c.iter().map(|&v| g.name_of(v).to_string()).collect(),
    })?;
    let mut k = vec![false; g.len()];
    for v in order {
        k[v] = g.moves(v).iter().all(|&w| !k[w]);
    }
    Ok(k)
}

/// The answer of the exact kernel search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum KernelSearch {
    /// A kernel (membership vector) and the number of branching decisions made.
    Found {
        /// `kernel[v]` ⇔ v is in the kernel.
        kernel: Vec<bool>,
        /// Branching decisions tried before it was found.
        branches: u64,
    },
    /// The search space was exhausted: the digraph has no kernel.
    NoKernel {
        /// Branching decisions tried (0: propagation alone refuted it).
        branches: u64,
    },
}

const UNKNOWN: i8 = 0;
const IN: i8 = 1;
const OUT: i8 = -1;

/// Backtracking state: a partial assignment, the counters propagation
/// needs, and a trail to undo assignments.
struct Search<'a> {
    g: &'a GameGraph,
    pred: Vec<Vec<usize>>,
    state: Vec<i8>,
    /// successors not (yet) OUT
    open: Vec<usize>,
    /// successors IN
    ins: Vec<usize>,
    trail: Vec<usize>,
    queue: Vec<usize>,
}

impl<'a> Search<'a> {
    fn new(g: &'a GameGraph) -> Self {
        let n = g.len();
        Search {
            g,
            pred: g.predecessors(),
            state: vec![UNKNOWN; n],
            open: (0..n).map(|v| g.moves(v).len()).collect(),
            ins: vec![0; n],
            trail: Vec::new(),
            queue: Vec::new(),
        }
    }

    /// Assign `v`; false on a contradiction with an earlier assignment.
    fn assign(&mut self, v: usize, s: i8) -> bool {
        if self.state[v] != UNKNOWN {
            return self.state[v] == s;
        }
        self.state[v] = s;
        self.trail.push(v);
        for i in 0..self.pred[v].len() {
            let u = self.pred[v][i];
            if s == OUT {
                self.open[u] -= 1;
            } else {
                self.ins[u] += 1;
            }
        }
        self.queue.push(v);
        true
    }

    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let v = self.trail.pop().expect("trail longer than mark");
            let s = self.state[v];
            for &u in &self.pred[v] {
                if s == OUT {
                    self.open[u] += 1;
                } else {
                    self.ins[u] -= 1;
                }
            }
            self.state[v] = UNKNOWN;
        }
    }

    /// The absorption rule for `u`: an OUT vertex needs an IN successor (if
    /// only one candidate is left it must be IN); an undecided vertex whose
    /// successors are all OUT cannot be absorbed, so it must be IN.
    fn check_absorbed(&mut self, u: usize) -> bool {
        if self.ins[u] > 0 {
            return true;
        }
        match (self.state[u], self.open[u]) {
            (OUT, 0) => false,
            (OUT, 1) => {
                let w = *self
                    .g
                    .moves(u)
                    .iter()
                    .find(|&&w| self.state[w] == UNKNOWN)
                    .expect("one open successor, not IN, so undecided");
                self.assign(w, IN)
            }
            (UNKNOWN, 0) => self.assign(u, IN),
            _ => true,
        }
    }

    /// Unit propagation to a fixpoint; false on a contradiction.
    fn propagate(&mut self) -> bool {
        while let Some(v) = self.queue.pop() {
            let ok = if self.state[v] == IN {
                // independence: every neighbour (either direction) is OUT
                let g = self.g;
                g.moves(v).iter().all(|&w| w != v && self.assign(w, OUT))
                    && (0..self.pred[v].len()).all(|i| {
                        let u = self.pred[v][i];
                        u != v && self.assign(u, OUT)
                    })
            } else {
                self.check_absorbed(v)
                    && (0..self.pred[v].len()).all(|i| {
                        let u = self.pred[v][i];
                        self.check_absorbed(u)
                    })
            };
            if !ok {
                self.queue.clear();
                return false;
            }
        }
        true
    }
}

/// Exact kernel search with at most `max_branches` branching decisions.
///
/// Propagation alone settles acyclic digraphs; on the rest the search
/// branches on the first undecided vertex (IN, then OUT) and backtracks on
/// contradictions, so `NoKernel` is a proof by exhaustion.
/// Errors with [`GameGraphError::SearchLimit`] if the budget runs out.
pub fn find_kernel(g: &GameGraph, max_branches: u64) -> Result<KernelSearch, GameGraphError> {
    let n = g.len();
    let mut s = Search::new(g);
    let mut ok = true;
    for v in 0..n {
        // a vertex with a loop can never be IN; a sink always is
        if g.moves(v).contains(&v) {
            ok &= s.assign(v, OUT);
        } else if g.is_sink(v) {
            ok &= s.assign(v, IN);
        }
    }
    ok = ok && s.propagate();
    if !ok {
        return Ok(KernelSearch::NoKernel { branches: 0 });
    }
    struct Frame {
        mark: usize,
        v: usize,
        tried_out: bool,
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut branches = 0u64;
    let gauge = Gauge::current();
    loop {
        // Branch on the first undecided vertex; everything before the top
        // frame's vertex was decided when the frame was pushed.
        let from = stack.last().map_or(0, |f| f.v + 1);
        let Some(v) = (from..n).find(|&v| s.state[v] == UNKNOWN) else {
            return Ok(KernelSearch::Found {
                kernel: s.state.iter().map(|&x| x == IN).collect(),
                branches,
            });
        };
        stack.push(Frame {
            mark: s.trail.len(),
            v,
            tried_out: false,
        });
        branches += 1;
        if gauge.tick(1) {
            return Err(GameGraphError::Stopped {
                game: g.name().to_string(),
                branches,
            });
        }
        if branches > max_branches {
            return Err(GameGraphError::SearchLimit {
                game: g.name().to_string(),
                branches: max_branches,
            });
        }
        if s.assign(v, IN) && s.propagate() {
            continue;
        }
        // backtrack to the deepest frame that still has its OUT branch
        loop {
            let Some(f) = stack.last_mut() else {
                return Ok(KernelSearch::NoKernel { branches });
            };
            s.undo_to(f.mark);
            if f.tried_out {
                stack.pop();
                continue;
            }
            f.tried_out = true;
            let v = f.v;
            if s.assign(v, OUT) && s.propagate() {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cycle(n: usize) -> GameGraph {
        let arcs: Vec<_> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        GameGraph::from_arcs(format!("C{n}"), n, &arcs)
    }

    fn brute_force_kernels(g: &GameGraph) -> Vec<Vec<bool>> {
        let n = g.len();
        (0u32..1 << n)
            .map(|m| (0..n).map(|v| m >> v & 1 == 1).collect::<Vec<_>>())
            .filter(|s| is_kernel(g, s))
            .collect()
    }

    /// Course notes: in a digraph where every vertex has exactly one
    /// out-neighbour, an odd directed cycle has no kernel (some vertex and its
    /// out-neighbour would both be outside the independent set).
    #[test]
    fn odd_directed_cycles_have_no_kernel_even_ones_do() {
        for n in 1..=9 {
            let g = cycle(n);
            let found = find_kernel(&g, 1 << 20).unwrap();
            let brute = brute_force_kernels(&g);
            if n % 2 == 1 {
                assert!(matches!(found, KernelSearch::NoKernel { .. }), "C{n}");
                assert!(brute.is_empty());
            } else {
                match found {
                    KernelSearch::Found { kernel, .. } => assert!(is_kernel(&g, &kernel)),
                    other => panic!("C{n}: {other:?}"),
                }
                // exactly the two alternating sets
                assert_eq!(brute.len(), 2);
            }
        }
    }

    /// The greedy kernel of a DAG: sinks join, then anything that sees no member.
    #[test]
    fn dag_kernel_is_greedy_and_unique() {
        // 0 → 1 → 2, 0 → 3, 3 → 2, 4 → 0
        let g = GameGraph::from_arcs("d", 5, &[(0, 1), (1, 2), (0, 3), (3, 2), (4, 0)]);
        let k = kernel_acyclic(&g).unwrap();
        assert_eq!(k, vec![true, false, true, false, false]);
        assert_eq!(brute_force_kernels(&g), vec![k.clone()]);
        match find_kernel(&g, 10).unwrap() {
            KernelSearch::Found { kernel, branches } => {
                assert_eq!(kernel, k);
                assert_eq!(branches, 0, "propagation settles a DAG");
            }
            other => panic!("{other:?}"),
        }
    }

    /// Course notes: in a symmetric digraph (an undirected graph) every
    /// maximal independent set is a kernel, so one always exists.
    #[test]
    fn symmetric_digraphs_have_kernels() {
        // the 5-cycle as an undirected graph
        let mut arcs = Vec::new();
        for i in 0..5 {
            arcs.push((i, (i + 1) % 5));
            arcs.push(((i + 1) % 5, i));
        }
        let g = GameGraph::from_arcs("C5sym", 5, &arcs);
        assert!(matches!(
            find_kernel(&g, 100).unwrap(),
            KernelSearch::Found { .. }
        ));
        // its kernels are exactly its 5 maximal independent sets {i, i+2}
        assert_eq!(brute_force_kernels(&g).len(), 5);
    }

    #[test]
    fn loops_and_search_limit() {
        // a single vertex with a loop: it cannot be in K and cannot be absorbed
        let g = GameGraph::from_arcs("loop", 1, &[(0, 0)]);
        assert_eq!(
            find_kernel(&g, 10).unwrap(),
            KernelSearch::NoKernel { branches: 0 }
        );
        // a long odd cycle needs a branch; a budget of 0 gives up with an error
        assert!(matches!(
            find_kernel(&cycle(7), 0),
            Err(GameGraphError::SearchLimit { .. })
        ));
    }

    /// Exact search agrees with brute force on every digraph on 4 vertices
    /// (loops excluded): 4,096 digraphs.
    #[test]
    fn search_matches_brute_force_on_all_4_vertex_digraphs() {
        let pairs: Vec<(usize, usize)> = (0..4)
            .flat_map(|u| (0..4).map(move |v| (u, v)))
            .filter(|(u, v)| u != v)
            .collect();
        for mask in 0u32..1 << pairs.len() {
            let arcs: Vec<_> = pairs
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &a)| a)
                .collect();
            let g = GameGraph::from_arcs("x", 4, &arcs);
            let brute = brute_force_kernels(&g);
            match find_kernel(&g, 1000).unwrap() {
                KernelSearch::Found { kernel, .. } => {
                    assert!(brute.contains(&kernel), "{arcs:?}")
                }
                KernelSearch::NoKernel { .. } => assert!(brute.is_empty(), "{arcs:?}"),
            }
        }
    }
}
