//! The coordinator's engine: everything a coordinator knows and decides,
//! with no network face. Modules:
//! `export_file` (the export file format: encode, decode, checksum,
//! version, signatures), `sample` (a sweep's random sample), `store` (the
//! `Store` trait, sled, the journal, the resilient wrapper), `projection`
//! (time projections from the store's timings), `core` (the state machine:
//! launch, lease, submit, verify, status, recovery, transfer). Their order
//! is stated once, in ARCHITECTURE.md ("Layers").
//!
//! Domain types (`gamesweep_api::domain`) are what the engine answers in;
//! the gRPC service, the dashboard and the command line are above it, in
//! other crates.
pub mod core;
pub mod export_file;
pub mod projection;
pub mod sample;
pub mod store;
