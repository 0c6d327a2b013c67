//! The `gamesweep` crate's integration tests, one binary (one module per
//! former test file, so the crate is linked once): the golden runs, the kind
//! versions, the contract every kind keeps and the module layers.

// The build script's version logic, tested on real and synthetic trees.
#[path = "../../build/versions.rs"]
mod versions;

// Shared with `examples/golden_long.rs`.
#[path = "../support/golden.rs"]
mod support;

mod col_labelled;
mod docs_figures;
mod golden;
mod graph_boards;
mod graph_games;
mod kind_version;
mod kinds_contract;
mod layers;
mod long_functions;
mod meter;
mod presentation;
mod spec_totals;
mod sums;
mod uvg_cut_off;
mod uvg_stack;
