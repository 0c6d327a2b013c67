//! Every sweep kind the system knows. Add a kind here and it is reachable from
//! `gamesweep run`, `launch`, the coordinator and the workers.

use super::SweepKind;

/// All registered sweep kinds, in the order `--help` lists them.
pub fn registry() -> &'static [&'static dyn SweepKind] {
    &[
        // One line per kind (this comment keeps rustfmt from joining the lines).
        &super::uvg::UvgSweep,
        &super::uvg_search::UvgLocalSearch,
        &crate::bft::sweeps::ReductionSweep,
        &crate::bft::sweeps::Degree3Sweep,
        &crate::bft::sweeps::StrategySweep,
        &crate::col::sweeps::MyopicTreeSweep,
        &crate::col::sweeps::MyopicRootedSweep,
        &crate::col::sweeps::MyopicDigraphSweep,
        &crate::col::sweeps::MyopicListSweep,
        &crate::col::sweeps::ColSweep,
        &crate::col::sweeps::EngineCheckSweep,
        &crate::gamegraph::SUBTRACTION,
    ]
}

/// The kind named `name`.
pub fn find(name: &str) -> Result<&'static dyn SweepKind, super::SweepError> {
    registry()
        .iter()
        .copied()
        .find(|k| k.name() == name)
        .ok_or_else(|| {
            super::SweepError::UnknownKind(
                name.to_string(),
                registry()
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        })
}
