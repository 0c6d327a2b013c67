//! `gamesweep status [ID] [--json] [--watch]`: where the coordinator's
//! sweeps stand, read by `ops::remote::status` (which documents the JSON),
//! printed as a table or JSON, once or every 2 seconds.

use crate::connect::Conn;
use crate::ops::remote::{status, Session};
use crate::status_text;
use gamesweep_api::domain::SweepState;
use std::io::IsTerminal as _;
use std::time::Duration;

/// `status` options.
#[derive(clap::Args, Debug)]
pub struct StatusArgs {
    /// Sweep id (default: all sweeps).
    pub id: Option<String>,
    /// Print JSON: one object per call; every sweep's "state" is one of
    /// running, done, cancelled, failed, sampled, paused (format: deploy/README.md).
    #[arg(long)]
    pub json: bool,
    /// Refresh every 2 seconds until the sweeps shown are no longer running
    /// (on a terminal the screen is cleared each time; into a pipe or file,
    /// each status follows the last, every line starting with the UTC time
    /// it was read).
    #[arg(long)]
    pub watch: bool,
    #[command(flatten)]
    pub conn: Conn,
}

impl From<&StatusArgs> for status::StatusRequest {
    fn from(a: &StatusArgs) -> Self {
        status::StatusRequest { id: a.id.clone() }
    }
}

/// Run `status`.
pub fn exec(a: StatusArgs) -> anyhow::Result<()> {
    let mut s = Session::connect(&a.conn)?;
    let req = status::StatusRequest::from(&a);
    loop {
        let r = status::status(&mut s, &req)?;
        let text = if a.json {
            format!("{}\n", status::json(&r)?)
        } else if a.watch && std::io::stdout().is_terminal() {
            // Clear the screen and go home, like `watch`.
            format!("\x1b[2J\x1b[H{}", status_text::render(&r))
        } else if a.watch {
            // Into a pipe or a file, status follows status: each line says
            // when it was read (UTC), so a log of them is a time series.
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64);
            status_text::stamped(&status_text::render(&r), &status_text::utc(now))
        } else {
            status_text::render(&r)
        };
        if !crate::output::print(text)? {
            return Ok(()); // the reader has gone
        }
        // Sampled, failed, done and cancelled sweeps are settled: nothing
        // more happens to them without a new command.
        let settled = r.sweeps.iter().all(|s| s.state != SweepState::Running);
        if !a.watch || settled {
            return Ok(());
        }
        std::thread::sleep(Duration::from_secs(2));
    }
}
