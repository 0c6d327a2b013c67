//! `gamesweep report ID [--out DIR]`: fetch a finished sweep's
//! `results.json` and `report.md` from the coordinator.

use crate::connect::{self, Conn};
use crate::report;
use gamesweep::sweep::Rendered;
use std::path::PathBuf;

/// `report` options.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Sweep id.
    pub id: String,
    /// Output directory [default: runs/<ID>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub conn: Conn,
}

/// Run `report`.
pub fn exec(a: ReportArgs) -> anyhow::Result<()> {
    let rt = connect::runtime()?;
    let mut c = connect::connect(&rt, &a.conn)?;
    let r = rt.block_on(c.result(&a.id))?;
    let out = a.out.unwrap_or_else(|| PathBuf::from("runs").join(&a.id));
    report::write_results(
        &out,
        &Rendered {
            results_json: r.results_json,
            report_md: r.report_md,
            exports: Vec::new(),
        },
    )?;
    eprintln!("wrote {}/results.json and report.md", out.display());
    Ok(())
}
