//! `gamesweep audit`: the coordinator's log of admin actions (launch,
//! cancel): when, who (role, token fingerprint, address), what.

use crate::connect::{self, Conn};
use crate::output;
use anyhow::Context as _;

/// `audit` options.
#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// Show the last N entries (the coordinator returns at most 1000).
    #[arg(long, default_value_t = 50, value_name = "N")]
    pub last: u32,
    /// Print JSON (one array of entries, times as `unix_ms`: milliseconds
    /// since the Unix epoch) instead of a table (times as UTC dates).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub conn: Conn,
}

/// Run `audit`.
pub fn exec(a: AuditArgs) -> anyhow::Result<()> {
    let rt = connect::runtime()?;
    let mut c = connect::connect(&rt, &a.conn)?;
    let entries = rt
        .block_on(c.audit(a.last.max(1)))
        .context("reading the audit log")?;
    let text = if a.json {
        format!("{}\n", serde_json::to_string_pretty(&entries)?)
    } else {
        // When, as a date in UTC (`--json` keeps the number, `unix_ms`).
        let mut t = String::from("time (UTC)            action  sweep                role    token                  peer                   detail\n");
        // Every field came over the network: control characters escaped.
        let x = gamesweep_api::escape;
        for e in &entries {
            t.push_str(&format!(
                "{:<21} {:<7} {:<20} {:<7} {:<22} {:<22} {}\n",
                output::utc_time(e.unix_ms),
                x(&e.action),
                x(&e.sweep_id),
                x(&e.role),
                x(&e.token_fingerprint),
                x(&e.peer),
                x(&e.detail)
            ));
        }
        t
    };
    output::print(text)?;
    Ok(())
}
