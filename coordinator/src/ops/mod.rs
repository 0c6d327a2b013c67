//! What the commands do, one module per job (as cargo's `ops`): solving a
//! position or a stream of them ([`solve`]), enumerating graphs
//! ([`graphs`]), checking a store ([`store`]). Each returns typed values;
//! the commands (`cmd::*`) parse their arguments, call these and print,
//! and Python and the tests call them too. No job module uses another.
pub mod graphs;
/// The admin calls on a running coordinator: status, launch,
/// cancel/pause/resume, project, audit, token.
pub mod remote;
/// A sweep's report written: fetched, partial, or re-rendered.
pub mod report;
pub mod solve;
pub mod store;
