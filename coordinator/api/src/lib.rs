//! The plain data a coordinator exchanges with its users and workers, with
//! no protocol and no storage: [`domain`] (what to launch, where sweeps
//! stand, a rendered result), [`solver`] (the solver versions a worker
//! runs, by kind) and [`text`] (peer text made safe to show).
//!
//! The engine (`gamesweep-engine`) produces these types, the protocol
//! (`gamesweep-proto`) converts them to and from messages, and the
//! command line prints them; a worker compiles this crate (serde only) to
//! lease shards, never the engine's store.

pub mod domain;
pub mod solver;
pub mod text;

pub use solver::{solver_version, SolverVersion, SolverVersionError, SolverVersions};
pub use text::{escape, escape_controls, quote_prefix};
