//! `gamesweep project ID`: project a sampled sweep's whole cost from the
//! sampled shards done so far.

use crate::args;
use crate::connect::{self, Conn};
use gamesweep_report::report;
use std::path::PathBuf;

/// `project` options.
#[derive(clap::Args, Debug)]
pub struct ProjectArgs {
    /// Sweep id (launched with `--sample`).
    pub id: String,
    /// Core counts to project wall time for [default: this machine's cores and 64 = 4 machines x 16].
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub cores: Vec<u32>,
    /// Also write projection.json and projection.md into this directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the JSON instead of the Markdown.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub conn: Conn,
}

/// Run `project`.
pub fn exec(a: ProjectArgs) -> anyhow::Result<()> {
    let rt = connect::runtime()?;
    let mut c = connect::connect(&rt, &a.conn)?;
    let cores = if a.cores.is_empty() {
        args::default_project_cores()
    } else {
        a.cores.clone()
    };
    let p = rt.block_on(c.projection(&a.id, cores))?;
    if let Some(out) = &a.out {
        report::write_projection(out, &p)?;
        eprintln!("wrote {}/projection.json and projection.md", out.display());
    }
    crate::output::print(if a.json { &p.json } else { &p.md })?;
    Ok(())
}
