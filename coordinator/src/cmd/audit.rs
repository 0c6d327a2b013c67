//! `gamesweep audit`: the coordinator's log of admin actions (launch,
//! cancel): when, who (role, token fingerprint, address), what
//! (`ops::remote::audit`), as a table or JSON.

use crate::connect::Conn;
use crate::ops::remote::audit::{audit, table, AuditRequest};
use crate::ops::remote::Session;

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
    let mut s = Session::connect(&a.conn)?;
    let entries = audit(&mut s, AuditRequest { last: a.last })?;
    let text = if a.json {
        format!("{}\n", serde_json::to_string_pretty(&entries)?)
    } else {
        table(&entries)
    };
    crate::output::print(text)?;
    Ok(())
}
