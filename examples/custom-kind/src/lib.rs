//! An example sweep kind defined outside the gamesweep workspace's crates:
//! **Node Kayles** (`custom-node-kayles`), written as one file on the
//! graph-game layer (`gamesweep::families::graph_game`), with its own
//! coordinator and worker binaries.
//!
//! What it takes to add a game from outside (README.md):
//! 1. implement [`gamesweep::families::graph_game::GraphGame`] in one file
//!    ([`game`]), with `outside_version` returning
//!    `Some(env!("GAMESWEEP_KIND_VERSION"))`;
//! 2. give the crate a solver version: `build.rs` calls
//!    `gamesweep_build::emit_kind_version()`;
//! 3. build binaries that register its game: `gamesweep_coordinator::main_with_games(GAMES)`
//!    and `gamesweep_worker::cli::main_with_games(GAMES, args)` (`src/bin/`).

pub mod game;

use gamesweep::families::graph_game::GameKind;

/// The games this crate adds, for the binaries' `main_with_games`.
pub static GAMES: &[&dyn GameKind] = &[&game::KIND];

#[cfg(test)]
mod tests;
