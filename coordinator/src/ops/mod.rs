//! What the commands do, one module per job (as cargo's `ops`). Each takes
//! a typed request and returns typed values; the commands (`cmd::*`) parse
//! their arguments, call these and print, and Python and the tests call
//! them too. No job module uses another.
//!
//! - On this machine: solving a position or a stream of them ([`solve`]),
//!   enumerating graphs ([`graphs`]), building the graphs of a
//!   smallest-`*k` case analysis ([`extend`]), running a sweep ([`run`]),
//!   serving a coordinator ([`serve`]) or the boards as a local web app
//!   ([`explore`]).
//! - Files and stores: checking a store ([`store`]), a store's export
//!   signing key ([`key`]), exporting a sweep to a file ([`export`]),
//!   importing one ([`import`]), re-running a sample of an export file's
//!   shards ([`verify`]), writing a sweep's report ([`report`]: fetched,
//!   partial or re-rendered).
//! - The admin calls on a running coordinator ([`remote`]: status, launch,
//!   cancel/pause/resume, project, audit, token).
pub mod explore;
pub mod export;
pub mod extend;
pub mod graphs;
pub mod import;
pub mod key;
pub mod remote;
pub mod report;
pub mod run;
pub mod serve;
pub mod solve;
pub mod store;
pub mod verify;
