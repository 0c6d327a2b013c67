//! What the commands do, one module per job (as cargo's `ops`): solving a
//! position or a stream of them ([`solve`]), enumerating graphs
//! ([`graphs`]), checking a store ([`store`]), exporting a sweep to a file
//! ([`export`]), importing one ([`import`]), a store's export signing key
//! ([`key`]) and re-running a sample of an export file's shards
//! ([`verify`]), the admin calls on a running coordinator ([`remote`]:
//! status, launch, cancel/pause/resume, project, audit, token) and writing
//! a sweep's report ([`report`]: fetched, partial or re-rendered). Each
//! takes a typed request and returns typed values; the
//! commands (`cmd::*`) parse their arguments, call these and print, and
//! Python and the tests call them too. No job module uses another.
pub mod export;
pub mod graphs;
pub mod import;
pub mod key;
pub mod remote;
pub mod report;
pub mod solve;
pub mod store;
pub mod verify;
