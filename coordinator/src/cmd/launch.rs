//! `gamesweep launch KIND [params]`: plan a sweep on a coordinator
//! (`ops::remote::launch`) and print its id.

use crate::ops::remote::{launch, Session};

pub use crate::ops::remote::launch::launch_options;

/// `launch` arguments: the kind, its parameters, and launch options.
#[derive(clap::Args, Debug)]
pub struct LaunchArgs {
    /// KIND followed by its parameters and `--name ID`, `--shards K`,
    /// `--coordinator URL`, `--token-file F`.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "KIND [OPTIONS]"
    )]
    pub words: Vec<String>,
}

/// Run `launch`.
pub fn exec(a: LaunchArgs) -> anyhow::Result<()> {
    let (spec, conn) = launch::spec_from_words(&a.words)?;
    let mut s = Session::connect(&conn)?;
    let l = launch::launch(&mut s, spec)?;
    eprintln!("{}", l.message);
    crate::output::print(format_args!("{}\n", l.sweep_id))?;
    Ok(())
}
