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

/// All registered sweep kinds, in the order `--help` lists them.
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
        &noop::NoopSweep,
    ]
}

/// The kind named `name`.
pub fn find(name: &str) -> Result<&'static dyn SweepKind, SweepError> {
    registry()
        .iter()
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
