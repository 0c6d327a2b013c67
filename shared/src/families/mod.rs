//! Code shared by a family of sweep kinds, one module per family: the layer
//! between the framework ([`crate::sweep`]) and the kinds ([`crate::kinds`]).
//! Kinds never import each other; what two kinds share lives here. Nothing
//! here imports a kind.

pub mod bft;
pub mod col;
pub mod graph_game;
