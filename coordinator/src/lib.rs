//! The `gamesweep` command line and the coordinator.
//!
//! Modules in layers; a module uses only modules of lower layers, so there
//! is no import cycle:
//!
//! 0. `figures` (a report's pictures and `report.html`, from `results.json`).
//! 1. Leaves: `error` (usage errors, exit codes), `output` (stdout that
//!    a closed pipe does not break), `sample`, `progress` (the progress bar), `status_text`
//!    (status tables, from domain types only), `export_file` (the export
//!    file format: encode, decode, checksum, version), `web` (bodies,
//!    errors and security headers of the web faces), then `explore` (the
//!    boards' routes and their values, over the shared solvers: web).
//! 2. `store` (the `Store` trait, sled), then `projection` (store's timings).
//! 3. `core` (the coordinator's state machine: store, sample, projection).
//! 4. `access` (token roles and request sizes per method, a tower layer),
//!    `conns` (accepted connections: idle timeouts, a cap) and `metrics`
//!    (the Prometheus text of core's status), `report` (the files a sweep
//!    writes: figures, and its Verification section from core's
//!    provenance), then
//!    `audit` (admin actions logged to the store; access), then `server`
//!    (the gRPC face of `core`; projection, report, access, conns, audit)
//!    and `http` (the dashboard, the web face of `core`: core, access).
//! 5. CLI helpers: `args` (kind parameters, planning options, thread and
//!    core defaults: error, sample) and `connect` (connection options,
//!    runtime, typed client: error).
//! 6. `embedded` (`run`'s coordinator on loopback + local workers: core,
//!    server, store, connect, progress, error).
//! 7. `cmd::*`, one module per command, over layers 1-6; no command module
//!    uses another.
//! 8. `cli` (the clap definition and dispatch to `cmd`), then `main`.
//!
//! Protobuf messages appear only in `server` (the tonic service); everything
//! else speaks `gamesweep_proto::domain` types through the typed client.
pub mod access;
pub mod args;
pub mod audit;
pub mod cli;
pub mod cmd;
pub mod connect;
pub mod conns;
pub mod core;
pub mod embedded;
pub mod error;
pub mod explore;
pub mod export_file;
pub mod figures;
pub mod http;
pub mod metrics;
pub mod output;
pub mod progress;
pub mod projection;
pub mod report;
pub mod sample;
pub mod server;
pub mod status_text;
pub mod store;
pub mod web;
