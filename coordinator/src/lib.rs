//! The `gamesweep` command line and the coordinator.
//!
//! Modules in layers; a module uses only modules of lower layers (and
//! `error` anywhere), so there is no import cycle:
//!
//! 1. `error` (usage errors, exit codes); `report` (the files a sweep
//!    writes); `sample`, `projection`; `store`.
//! 2. `core` (the coordinator's state machine: store, sample, projection).
//! 3. `server` (the gRPC face of `core`; `report` for projection text).
//! 4. CLI helpers: `args` (kind parameters, planning options, thread and
//!    core defaults), `connect` (connection options, runtime, typed
//!    client), `progress` (the progress bar), `status_text` (status tables).
//! 5. `embedded` (`run`'s coordinator on loopback + local workers: `core`,
//!    `server`, `connect`, `progress`).
//! 6. `cmd::*`, one module per command; no command module uses another.
//! 7. `cli` (the clap definition and dispatch), then the binary's `main`.
//!
//! Protobuf messages appear only in `server` (the tonic service); everything
//! else speaks `gamesweep_proto::domain` types through the typed client.
pub mod args;
pub mod cli;
pub mod cmd;
pub mod connect;
pub mod core;
pub mod embedded;
pub mod error;
pub mod progress;
pub mod projection;
pub mod report;
pub mod sample;
pub mod server;
pub mod status_text;
pub mod store;
