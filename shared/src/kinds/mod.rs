//! Every sweep kind, one folder each (named after its CLI name, `-` → `_`), and the registry that names them.
//! Add a kind here and it is reachable from `gamesweep run`, `launch`, the
//! coordinator and the workers. Kinds import the framework ([`crate::sweep`])
//! and the solvers; nothing below this module imports a kind.

pub mod col;
pub mod engine_check;
pub mod myopic_digraph;
pub mod myopic_list;
pub mod myopic_tree;
pub mod noop;
pub mod octal;
pub mod subtraction;
pub mod uvg;
pub mod uvg_degree3;
pub mod uvg_local_search;
pub mod uvg_reduction;
pub mod uvg_strategy;

use crate::sweep::{SweepError, SweepKind};

/// The user-facing sweep kinds, in the order `--help`, `gamesweep kinds` and
/// the docs list them. Hidden kinds ([`hidden`]) are not among them.
pub fn registry() -> &'static [&'static dyn SweepKind] {
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
        &engine_check::EngineCheckSweep,
        &subtraction::SubtractionSweep,
        &octal::OctalSweep,
    ]
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
}
