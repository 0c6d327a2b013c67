//! # gamesweep — the pure, deterministic core
//!
//! Graphs and their enumeration, exact game solvers, the CGT engine and the
//! sweep definitions. Nothing here does I/O, talks to the network, reads a
//! clock or spawns async tasks: the coordinator and the workers are thin shells
//! around this crate, and every result it computes is a pure function of its
//! inputs.
#![deny(missing_docs)]

pub mod bft;
pub mod cgt;
pub mod col;
pub mod fxhash;
pub mod gamegraph;
pub mod gen;
pub mod kinds;
pub mod graph;
pub mod sweep;
pub mod uvg;

/// Version of the solver code, recorded with every sweep so that one sweep's
/// numbers never mix two solver builds.
pub const CRATE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Deterministic id of the solver sources (a hash of `shared/src/**` and
/// `shared/Cargo.toml`, computed by `build.rs`): together with
/// [`CRATE_VERSION`] it is the solver version a sweep records.
pub const BUILD_ID: &str = env!("GAMESWEEP_BUILD_ID");
