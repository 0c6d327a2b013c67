//! The `gamesweep` command line, over the coordinator's crates
//! (`gamesweep_engine`, `gamesweep_report`, `gamesweep_serve`) and the
//! worker's (`gamesweep_worker`).
//!
//! Modules: `error` (usage errors, exit codes), `output` (stdout that a
//! closed pipe does not break), `progress` (the progress bar),
//! `status_text` (status tables, from domain types only), `args` (kind
//! parameters, planning options, thread and core defaults; `run`'s words
//! as a typed request), `connect`
//! (connection options, runtime, typed client), `embedded` (`run`'s
//! coordinator on loopback + local workers, which `ops::run` drives), `ops::*` (what the commands
//! do, one module per job, returning typed values: what Python and the
//! tests call), `cmd::*` (one module per command: parse, call `ops`,
//! print; no command uses another), `cli` (the clap definition and
//! dispatch; [`main_with`], the whole process with extra kinds). Their order is stated once, in ARCHITECTURE.md ("Layers").
//!
//! Protobuf messages appear only in `gamesweep_serve::server` (the tonic
//! service); everything else speaks `gamesweep_api::domain` types through
//! the typed client.
pub mod args;
pub mod cli;
pub mod cmd;
pub mod connect;
pub mod embedded;
pub mod error;
pub mod ops;
pub mod output;
pub mod progress;
pub mod status_text;

pub use cli::{main_with, main_with_games};
