//! Every sweep kind, one module each, and the registry that names them.
//! Add a kind here and it is reachable from `gamesweep run`, `launch`, the
//! coordinator and the workers. Kinds import the framework ([`crate::sweep`])
//! and the solvers; nothing below this module imports a kind.

pub mod bft;
pub mod col;
pub mod noop;
pub mod octal;
pub mod subtraction;
pub mod uvg;
pub mod uvg_search;

use crate::sweep::{SweepError, SweepKind};

/// All registered sweep kinds, in the order `--help` lists them.
pub fn registry() -> &'static [&'static dyn SweepKind] {
    &[
        // One line per kind (this comment keeps rustfmt from joining the lines).
        &uvg::UvgSweep,
        &uvg_search::UvgLocalSearch,
        &bft::ReductionSweep,
        &bft::Degree3Sweep,
        &bft::StrategySweep,
        &col::MyopicTreeSweep,
        &col::MyopicRootedSweep,
        &col::MyopicDigraphSweep,
        &col::MyopicListSweep,
        &col::ColSweep,
        &col::EngineCheckSweep,
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
