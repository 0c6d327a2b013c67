//! The plain data a coordinator exchanges with its users and workers, with
//! no protocol and no storage: [`domain`] (what to launch, where sweeps
//! stand, a rendered result), [`provenance`] (where a finished sweep's
//! result came from), [`shard_set`] (sets of shard indices as ranges),
//! [`solver`] (the solver versions a worker runs, by kind) and [`text`]
//! (peer text made safe to show).
//!
//! The engine (`gamesweep-engine`) produces these types, the protocol
//! (`gamesweep-proto`) converts them to and from messages, and the
//! command line prints them; a worker compiles this crate (serde only, no I/O) to
//! lease shards, never the engine's store.

pub mod domain;
pub mod provenance;
pub mod shard_set;
pub mod solver;
pub mod text;

pub use solver::{solver_version, SolverVersion, SolverVersionError, SolverVersions};
pub use text::{escape, escape_controls, quote_prefix};
