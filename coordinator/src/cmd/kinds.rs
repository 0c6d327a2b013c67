//! `gamesweep kinds`: the sweep kinds and their parameters.

/// Run `kinds`.
pub fn exec() -> anyhow::Result<()> {
    crate::output::print(crate::args::kinds_help())?;
    Ok(())
}
