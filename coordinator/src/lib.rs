//! The `gamesweep` command line, over the coordinator's crates
//! (`gamesweep_engine`, `gamesweep_report`, `gamesweep_serve`) and the
//! worker's (`gamesweep_worker`).
//!
//! Modules in layers; a module uses only modules of lower layers, so there
//! is no import cycle:
//!
//! 1. Leaves: `error` (usage errors, exit codes), `output` (stdout that
//!    a closed pipe does not break), `progress` (the progress bar),
//!    `status_text` (status tables, from domain types only).
//! 2. CLI helpers: `args` (kind parameters, planning options, thread and
//!    core defaults: error) and `connect` (connection options, runtime,
//!    typed client: error).
//! 3. `embedded` (`run`'s coordinator on loopback + local workers: args,
//!    connect, progress, error).
//! 4. `cmd::*`, one module per command, over layers 1-3; no command module
//!    uses another.
//! 5. `cli` (the clap definition and dispatch to `cmd`, and
//!    [`main_with`], the whole process with extra kinds), then `main`.
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
pub mod output;
pub mod progress;
pub mod status_text;

pub use cli::main_with;
