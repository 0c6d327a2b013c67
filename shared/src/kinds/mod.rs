//! Every sweep kind, one folder each (named after its CLI name, `-` → `_`), and the registry that names them.
//! Add a kind here and it is reachable from `gamesweep run`, `launch`, the
//! coordinator and the workers. Kinds import the framework ([`crate::sweep`])
//! and the solvers; nothing below this module imports a kind. A crate outside
//! the workspace adds its own kinds with [`register`], once, at process start
//! (`examples/custom-kind/`).

pub mod arc_kayles;
pub mod cgt_check;
pub mod col;
pub mod geography_edge;
pub mod geography_vertex;
pub mod myopic_digraph;
pub mod myopic_list;
pub mod myopic_tree;
pub mod node_kayles;
pub mod noop;
pub mod octal;
pub mod snort;
pub mod subtraction;
pub mod uvg;
pub mod uvg_degree3;
pub mod uvg_local_search;
pub mod uvg_reduction;
pub mod uvg_strategy;

use crate::families::graph_game::GameKind;
use crate::sweep::{SweepError, SweepKind};
use std::sync::OnceLock;

/// The user-facing kinds: this crate's ([`builtin`]) followed by those
/// [`register`]ed from outside. Fixed at its first use: by the first
/// [`registry`] or [`find`], or by [`register`].
static REGISTRY: OnceLock<&'static [&'static dyn SweepKind]> = OnceLock::new();

/// Why [`register`] refused the kinds it was given.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RegisterError {
    /// The registry was already fixed: `register` was called before, or a
    /// kind was looked up ([`registry`], [`find`]) before it.
    #[error("the kind registry is already fixed: register kinds once, at process start, before any kind is looked up")]
    AlreadyFixed,
    /// A registered kind has the name of another kind (built in, hidden or
    /// registered in the same call).
    #[error("cannot register kind `{0}`: a kind of that name already exists")]
    NameClash(&'static str),
}

/// Add `extra` kinds (defined outside this crate) to the registry, after
/// the built-in ones; [`registry`] and [`find`] then list and find them in
/// every face (`gamesweep run`, `launch`, the coordinator, the workers, the
/// report and the dashboard) without any of them naming the kinds. Callable
/// once, before any kind is looked up (`gamesweep_coordinator::main_with`
/// and `gamesweep_worker::cli::main_with_kinds` call it first thing); a
/// second call, a call after a lookup, or a name clash is an error and
/// changes nothing.
pub fn register(extra: &'static [&'static dyn SweepKind]) -> Result<(), RegisterError> {
    let mut names: Vec<&str> = builtin().iter().chain(hidden()).map(|k| k.name()).collect();
    for k in extra {
        if names.contains(&k.name()) {
            return Err(RegisterError::NameClash(k.name()));
        }
        names.push(k.name());
    }
    if REGISTRY.get().is_some() {
        return Err(RegisterError::AlreadyFixed);
    }
    // Leaked once per process (the registry lives as long as the process).
    let all: Vec<&'static dyn SweepKind> = builtin().iter().chain(extra).copied().collect();
    REGISTRY
        .set(Vec::leak(all))
        .map_err(|_| RegisterError::AlreadyFixed)
}

/// The user-facing sweep kinds, in the order `--help`, `gamesweep kinds` and
/// the docs list them: the built-in ones ([`builtin`]), then the
/// [`register`]ed ones. Hidden kinds ([`hidden`]) are not among them. The
/// first call fixes the registry.
pub fn registry() -> &'static [&'static dyn SweepKind] {
    REGISTRY.get_or_init(builtin)
}

/// The user-facing kinds this crate defines, in the order the docs list them.
pub fn builtin() -> &'static [&'static dyn SweepKind] {
    &[
        // One line per kind (this comment keeps rustfmt from joining the lines).
        &uvg::UvgSweep,
        &uvg_local_search::UvgLocalSearch,
        &uvg_reduction::ReductionSweep,
        &uvg_degree3::Degree3Sweep,
        &uvg_strategy::StrategySweep,
        &myopic_tree::MyopicTreeSweep,
        &myopic_tree::MyopicRootedSweep,
        &myopic_digraph::MyopicDigraphSweep,
        &myopic_list::MyopicListSweep,
        &col::ColSweep,
        &cgt_check::CgtCheckSweep,
        &subtraction::SubtractionSweep,
        &octal::OctalSweep,
        // Games on the graph-game layer (`families::graph_game`), one file each.
        &node_kayles::KIND,
        &arc_kayles::KIND,
        &snort::KIND,
        &geography_vertex::KIND,
        &geography_edge::KIND,
    ]
}

/// The games on the graph-game layer ([`crate::families::graph_game`]):
/// the built-in ones, then those [`register_games`]ed from outside, for
/// `gamesweep solve GAME GRAPH6`, the boards and Python. Fixed at its first
/// use.
static GAMES: OnceLock<&'static [&'static dyn GameKind]> = OnceLock::new();

/// The built-in games on the graph-game layer, in the order of [`builtin`].
fn builtin_games() -> &'static [&'static dyn GameKind] {
    &[
        &node_kayles::KIND,
        &arc_kayles::KIND,
        &snort::KIND,
        &geography_vertex::KIND,
        &geography_edge::KIND,
    ]
}

/// Every game on the graph-game layer: the built-in ones, then the
/// [`register_games`]ed ones. The first call fixes the list.
pub fn games() -> &'static [&'static dyn GameKind] {
    GAMES.get_or_init(builtin_games)
}

/// [`register`] for games on the graph-game layer defined outside this
/// crate (each `Layered(YourGame)`): they become sweep kinds and games
/// that `gamesweep solve GAME`, the boards and Python find ([`games`],
/// [`find_game`]). Once, before any kind or game is looked up
/// (`gamesweep_coordinator::main_with_games` and
/// `gamesweep_worker::cli::main_with_games` call it first thing).
pub fn register_games(extra: &'static [&'static dyn GameKind]) -> Result<(), RegisterError> {
    if GAMES.get().is_some() {
        return Err(RegisterError::AlreadyFixed);
    }
    let kinds: Vec<&'static dyn SweepKind> = extra.iter().map(|&g| g as &dyn SweepKind).collect();
    register(Vec::leak(kinds))?;
    let all: Vec<&'static dyn GameKind> = builtin_games().iter().chain(extra).copied().collect();
    GAMES
        .set(Vec::leak(all))
        .map_err(|_| RegisterError::AlreadyFixed)
}

/// The game named `name`, or an error naming every game.
pub fn find_game(name: &str) -> Result<&'static dyn GameKind, String> {
    games()
        .iter()
        .copied()
        .find(|g| g.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = games().iter().map(|g| g.name()).collect();
            format!(
                "no game `{name}` on the graph-game layer (games: {})",
                names.join(", ")
            )
        })
}

/// Kinds that exist for the project's own harnesses and are listed nowhere a
/// user looks: `noop`, the load-test kind (`bench/load.sh`, the slow `load`
/// test). [`find`] still finds them by name, so they run like any other.
pub fn hidden() -> &'static [&'static dyn SweepKind] {
    &[&noop::NoopSweep]
}

/// The kind named `name`, user-facing ([`registry`]) or [`hidden`]; the
/// error lists the user-facing names only.
pub fn find(name: &str) -> Result<&'static dyn SweepKind, SweepError> {
    registry()
        .iter()
        .chain(hidden())
        .copied()
        .find(|k| k.name() == name)
        .ok_or_else(|| {
            SweepError::UnknownKind(
                name.to_string(),
                registry()
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `noop` is reachable by name for the load harness, but no user-facing
    /// list names it; every kind has one name.
    #[test]
    fn noop_is_hidden_but_found() {
        assert!(registry().iter().all(|k| k.name() != "noop"));
        assert_eq!(find("noop").unwrap().name(), "noop");
        let Err(e) = find("nope") else {
            panic!("`nope` found")
        };
        let e = e.to_string();
        assert!(e.contains("uvg") && !e.contains("noop"), "{e}");
        let mut names: Vec<&str> = registry()
            .iter()
            .chain(hidden())
            .map(|k| k.name())
            .collect();
        let all = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all);
        for k in registry().iter().chain(hidden()) {
            assert_eq!(find(k.name()).unwrap().name(), k.name());
        }
    }

    /// A name clash is refused whenever it is tried; once a lookup fixed
    /// the registry, registering anything is refused and changes nothing.
    #[test]
    fn register_refuses_clashes_and_late_calls() {
        static CLASH: [&dyn SweepKind; 1] = [&noop::NoopSweep];
        assert_eq!(register(&CLASH), Err(RegisterError::NameClash("noop")));
        let before = registry().len();
        assert_eq!(register(&[]), Err(RegisterError::AlreadyFixed));
        assert_eq!(registry().len(), before);
        assert_eq!(builtin().len(), before);
    }
}
