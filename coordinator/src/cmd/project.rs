//! `gamesweep project ID`: project a sampled sweep's whole cost from the
//! sampled shards done so far (`ops::remote::project`).

use crate::connect::Conn;
use crate::ops::remote::project::{project, ProjectRequest};
use crate::ops::remote::Session;
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

impl From<&ProjectArgs> for ProjectRequest {
    fn from(a: &ProjectArgs) -> Self {
        ProjectRequest {
            id: a.id.clone(),
            cores: a.cores.clone(),
            out: a.out.clone(),
        }
    }
}

/// Run `project`.
pub fn exec(a: ProjectArgs) -> anyhow::Result<()> {
    let mut s = Session::connect(&a.conn)?;
    let p = project(&mut s, &ProjectRequest::from(&a))?;
    if let Some(wrote) = &p.wrote {
        eprintln!("{wrote}");
    }
    let p = p.projection;
    crate::output::print(if a.json { &p.json } else { &p.md })?;
    Ok(())
}
