//! The coordinator's faces over the engine. Modules in layers; a module
//! uses only modules of lower layers, so there is no import cycle:
//!
//! 1. Leaves: `web` (bodies, errors and security headers of the web faces),
//!    `conns` (accepted connections: idle timeouts, a cap), then `explore`
//!    (the boards' routes and their values, over the shared solvers: web).
//! 2. `access` (token roles and request sizes per method, a tower layer)
//!    and `metrics` (the Prometheus text of the engine's status).
//! 3. `audit` (admin actions logged to the store; access).
//! 4. `server` (the gRPC face of the engine; access, conns, audit) and
//!    `http` (the dashboard, the web face of the engine: access, metrics,
//!    explore, web).
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
