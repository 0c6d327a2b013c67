//! `gamesweep kinds`: the sweep kinds and their parameters.

/// Run `kinds`.
pub fn exec() -> anyhow::Result<()> {
    print!("{}", crate::args::kinds_help());
    Ok(())
}
