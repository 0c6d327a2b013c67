//! `gamesweep completions SHELL` and `gamesweep man`: shell completions and
//! man pages generated from the clap definition of the command line.

use crate::error::UsageError;
use anyhow::Context as _;
use std::path::PathBuf;

/// `completions` options.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: clap_complete::Shell,
}

/// `man` options.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Write one page per command (gamesweep.1, gamesweep-run.1, ...) into
    /// DIR instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Print the completion script for `a.shell` of `cmd` to stdout.
pub fn completions(a: CompletionsArgs, mut cmd: clap::Command) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "gamesweep", &mut buf);
    crate::output::print(String::from_utf8_lossy(&buf))?;
    Ok(())
}

/// Print the man page of `cmd` (roff) to stdout, or write one page per
/// command into `a.out`.
pub fn man(a: ManArgs, cmd: clap::Command) -> anyhow::Result<()> {
    let Some(dir) = a.out else {
        let mut buf = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut buf)?;
        crate::output::print(String::from_utf8_lossy(&buf))?;
        return Ok(());
    };
    if dir.exists() && !dir.is_dir() {
        return Err(UsageError(format!("--out {}: not a directory", dir.display())).into());
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    clap_mangen::generate_to(cmd, &dir)
        .with_context(|| format!("writing into {}", dir.display()))?;
    eprintln!("wrote man pages into {}", dir.display());
    Ok(())
}
