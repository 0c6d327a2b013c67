//! `gamesweep report ID [--out DIR]`: fetch a finished sweep's report
//! from the coordinator; `report ID --partial`: a partial report of a
//! sweep not finished (by default in `sweeps/ID-partial/`); `report --from
//! DIR`: re-render one from `DIR/results.json`, no coordinator. What each
//! writes is `ops::report`'s; this prints what it says.

use crate::connect::Conn;
use crate::ops::report::{self, ReportRequest, RerenderRequest};
use std::path::PathBuf;

/// `report` options.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Sweep id.
    #[arg(required_unless_present = "from")]
    pub id: Option<String>,
    /// Re-render a report from the `results.json` in DIR instead of
    /// fetching one: `report.md`, `report.html`, the figures and the kind's
    /// other files, written back into DIR (or --out); no coordinator.
    #[arg(long, value_name = "DIR", conflicts_with = "id")]
    pub from: Option<PathBuf>,
    /// For a sweep not finished (running, paused, cancelled, sampled): a
    /// partial report of the shards done so far, marked "partial, not
    /// final" in report.md and report.html, its results in
    /// results.partial.json [default --out: sweeps/<ID>-partial].
    #[arg(long, conflicts_with = "from")]
    pub partial: bool,
    /// Output directory [default: sweeps/<ID>, or the --from DIR].
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub conn: Conn,
}

/// Run `report`.
pub fn exec(a: ReportArgs) -> anyhow::Result<()> {
    let done = if let Some(dir) = a.from {
        report::rerender(&RerenderRequest { dir, out: a.out })?
    } else {
        let Some(id) = a.id else {
            anyhow::bail!("report needs a sweep id, or --from DIR");
        };
        let dir = crate::args::SWEEPS_DIR;
        if a.partial {
            let out = a
                .out
                .unwrap_or_else(|| PathBuf::from(dir).join(format!("{id}-partial")));
            report::partial(&a.conn, &ReportRequest { id, out })?
        } else {
            let out = a.out.unwrap_or_else(|| PathBuf::from(dir).join(&id));
            report::fetch(&a.conn, &ReportRequest { id, out })?
        }
    };
    for line in &done.lines {
        eprintln!("{line}");
    }
    Ok(())
}
