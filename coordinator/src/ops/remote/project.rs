//! `project ID`: a sampled sweep's whole cost, projected by the
//! coordinator from the sampled shards done so far ([`project`]), and
//! written as `projection.json` and `projection.md` if asked.

use super::Session;
use crate::args;
use crate::error::UsageError;
use gamesweep_api::domain::ProjectionText;
use gamesweep_report::report;
use std::path::PathBuf;

/// The most cores a projection is asked for.
pub const MAX_CORES: u32 = 1_000_000;

/// What `project` asks for.
#[derive(Clone, Debug)]
pub struct ProjectRequest {
    /// The sweep's id (launched with `--sample`).
    pub id: String,
    /// Core counts to project wall time for, each 1..=[`MAX_CORES`]
    /// (empty: [`args::default_project_cores`]).
    pub cores: Vec<u32>,
    /// Also write `projection.json` and `projection.md` into this directory.
    pub out: Option<PathBuf>,
}

/// A projection, and where it was written.
#[derive(Clone, Debug)]
pub struct Projected {
    /// `projection.json` and `projection.md`.
    pub projection: ProjectionText,
    /// What the CLI says on stderr of the files written (`None`: no `out`).
    pub wrote: Option<String>,
}

/// The projection `r` asks for (an error for a core count out of range).
pub fn project(s: &mut Session, r: &ProjectRequest) -> anyhow::Result<Projected> {
    if let Some(&c) = r.cores.iter().find(|&&c| !(1..=MAX_CORES).contains(&c)) {
        return Err(UsageError(format!("cores: {c} is not in 1..={MAX_CORES}")).into());
    }
    let cores = if r.cores.is_empty() {
        args::default_project_cores()
    } else {
        r.cores.clone()
    };
    let projection = s.call(|c| c.projection(&r.id, cores))?;
    let wrote = match &r.out {
        Some(out) => {
            report::write_projection(out, &projection)?;
            Some(format!(
                "wrote {}/projection.json and projection.md",
                out.display()
            ))
        }
        None => None,
    };
    Ok(Projected { projection, wrote })
}
