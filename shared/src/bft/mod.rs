//! Burke–Ferland–Teng checks (FOCS 2021, arXiv:2106.02114): directed vertex
//! geography, the directed-to-undirected reduction with its arc gadget and the
//! prefix gadget, the lemmas about them, the degree-3 algorithm at scale, the
//! matching strategy against a random mover, and the trees t(k).
//!
//! Code map:
//! * [`digraph`]: small digraphs (digraph6 in) and the memoised directed
//!   geography solver that decides P/N on the original digraph.
//! * [`reduction`]: the constructors — per-vertex leaf plus ten-edge arc
//!   gadget, the prefix gadget — with the bookkeeping of which vertex is `a`,
//!   `b`, … of each arc, and [`reduction::Position`] (graph + deleted
//!   vertices + token) as the UVG position handed to the solver.
//! * [`solve`]: the one place that calls the UVG solvers of [`crate::uvg`].
//! * [`random`]: the seeded random models (ChaCha8, one stream per instance).
//! * [`trees`]: t(k) and the exhaustive "smallest tree with value *k" check.
//! * the sweep kinds (in `crate::kinds::uvg_reduction`, `uvg_degree3`, `uvg_strategy`): `uvg-reduction`, `uvg-degree3`, `uvg-strategy`.
//!
//! Section 5 of the paper (the polynomial-size *n construction) is not here:
//! the write-up we have does not give its chain lengths or gadget interiors,
//! so it cannot be rebuilt without the paper text (see
//! `spec/focs-constructions.md`).
//!
//! ```
//! use gamesweep::bft::digraph::Digraph;
//! // 0 → 1: from 0 the mover goes to 1 and wins; from 1 the mover is stuck.
//! let d = Digraph::from_digraph6("&AO").unwrap();
//! assert_eq!(d.arcs(), vec![(0, 1)]);
//! assert!(d.first_player_wins(0));
//! assert!(!d.first_player_wins(1));
//! ```

pub mod digraph;
pub mod random;
pub mod reduction;
pub mod solve;
pub mod trees;
