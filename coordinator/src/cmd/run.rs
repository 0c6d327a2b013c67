//! `gamesweep run KIND [params]`: `run`'s words parsed into a request
//! (`args::run`), the run (`ops::run`: the embedded run, with its local
//! workers over gRPC or, with `--in-process`, by direct calls), its
//! summary and failed checks printed.

use crate::ops::run::{run, RunRequest};

/// Arguments of `run`: the kind and its parameters, parsed per kind.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// KIND followed by its parameters and the run options
    /// (`--threads T`, `--shards K`, `--out DIR`); try `gamesweep run uvg --help`.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "KIND [OPTIONS]"
    )]
    pub words: Vec<String>,
}

/// Run the `run` command.
pub fn exec(a: RunArgs) -> anyhow::Result<()> {
    let o = run(&RunRequest::from_words(&a.words)?)?;
    for line in o.messages() {
        eprintln!("{line}");
    }
    o.checks_passed()
}
