//! Every sweep kind the system knows. Add a kind here and it is reachable from
//! `gamesweep run`, `launch`, the coordinator and the workers.

use super::SweepKind;

/// All registered sweep kinds, in the order `--help` lists them.
pub fn registry() -> &'static [&'static dyn SweepKind] {
    &[&super::uvg::UvgSweep]
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
