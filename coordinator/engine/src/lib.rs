//! The coordinator's engine: everything a coordinator knows and decides,
//! with no network face. Modules in layers; a module uses only modules of
//! lower layers, so there is no import cycle:
//!
//! 1. Leaves: `export_file` (the export file format: encode, decode,
//!    checksum, version, signatures) and `sample` (a sweep's random sample).
//! 2. `store` (the `Store` trait, sled, the journal, the resilient wrapper),
//!    then `projection` (time projections from the store's timings).
//! 3. `core` (the state machine: launch, lease, submit, verify, status,
//!    recovery, transfer; over store, sample, projection).
//!
//! Domain types (`gamesweep_api::domain`) are what the engine answers in;
//! the gRPC service, the dashboard and the command line are above it, in
//! other crates.
pub mod core;
pub mod export_file;
pub mod projection;
pub mod sample;
pub mod store;
