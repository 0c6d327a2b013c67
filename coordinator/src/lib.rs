//! The `gamesweep` command line and the coordinator.
//!
//! `cli` defines the commands; `cmd` holds one module per command family.
pub mod cli;
pub mod cmd;
