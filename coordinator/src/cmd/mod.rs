//! One module per command family.
pub mod graphs;
pub mod run;
pub mod solve;
