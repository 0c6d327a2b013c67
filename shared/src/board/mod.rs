//! What a person looks at: the analysis of one board, shared by `gamesweep
//! solve` and the `explore` web app, so that both show the same numbers.
//!
//! * [`uvg`]: undirected vertex geography on a graph (graph6) from one or
//!   every start: the Grundy value of each start and of every legal move, the
//!   winner and a winning move, a maximum matching, ν(G) and ν(G − s), the
//!   unmatched vertices, and (max degree ≤ 3) the degree-3 algorithm's value
//!   with its number of win/lose tests.
//! * [`play`]: the solver's reply in a UVG game under way (a winning move when
//!   there is one, else the move that keeps the game longest), with the
//!   remoteness of every move.
//! * [`col`]: Col / Myopic Col on a board with a partial colouring: value,
//!   outcome, every option with the value it leads to.
//! * [`picture`]: Graphviz and SVG drawings of these (layout by
//!   [`crate::draw::layout`]).
//!
//! Nothing here is a sweep kind's dependency (`DISPLAY_ONLY` in
//! `shared/build/versions.rs`): no kind imports it.

pub mod col;
pub mod picture;
pub mod play;
pub mod uvg;

#[cfg(test)]
mod tests;
