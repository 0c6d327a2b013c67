//! What the commands do, one module per job (as cargo's `ops`): solving a
//! position or a stream of them ([`solve`]), enumerating graphs
//! ([`graphs`]), checking a store ([`store`]), running a sweep on this
//! machine ([`run`]), serving a coordinator ([`serve`]), serving the
//! boards as a local web app ([`explore`]). Each returns typed values;
//! the commands (`cmd::*`) parse their arguments, call these and print,
//! and Python and the tests call them too. No job module uses another.
pub mod explore;
pub mod graphs;
pub mod run;
pub mod serve;
pub mod solve;
pub mod store;
