//! The coordinator's faces over the engine. Modules:
//! `web` (bodies, errors and security headers of the web faces), `conns`
//! (accepted connections: idle timeouts, a cap), `explore` (the boards'
//! routes and their values), `access` (token roles and request sizes per
//! method, a tower layer), `metrics` (the Prometheus text of the engine's
//! status), `audit` (admin actions logged to the store), `server` (the
//! gRPC face of the engine), `http` (the dashboard). Their order is stated
//! once, in ARCHITECTURE.md ("Layers").
//!
//! Protobuf messages appear only in `server` and `audit` (the tonic
//! services); the rest speaks `gamesweep_api::domain` types.
pub mod access;
pub mod audit;
pub mod conns;
pub mod explore;
pub mod http;
pub mod metrics;
pub mod server;
pub mod web;
