//! The `gamesweep` command line and the coordinator.
//!
//! `cli` defines the commands; `cmd` holds one module per command family.
pub mod cli;
pub mod cmd;
pub mod core;
pub mod embedded;
pub mod projection;
pub mod remote;
pub mod report;
pub mod sample;
pub mod server;
pub mod store;
