//! # gamesweep — the pure, deterministic core
//!
//! Graphs and their enumeration, exact game solvers, the CGT arena and the
//! sweep definitions. Nothing here does I/O, talks to the network, reads a
//! clock or spawns async tasks: the coordinator and the workers are thin shells
//! around this crate, and every result it computes is a pure function of its
//! inputs.
#![deny(missing_docs)]

pub mod bft;
pub mod board;
pub mod cgt;
pub mod col;
pub mod draw;
pub mod families;
pub mod fxhash;
pub mod gamegraph;
pub mod gen;
pub mod graph;
pub mod kinds;
pub mod meter;
pub mod sweep;
pub mod uvg;
pub mod version;

pub use version::{kind_version, source_version, BUILD_ID, CRATE_VERSION, SOURCE_VERSIONS};
