//! `audit`: the coordinator's log of admin actions (launch, cancel, ...):
//! when, who (role, token fingerprint, address), what ([`audit`]), and the
//! table the CLI prints of it ([`table`]).

use super::Session;
use crate::output;
use anyhow::Context as _;
use gamesweep_api::domain::AuditRecord;

/// What `audit` asks for.
#[derive(Clone, Copy, Debug)]
pub struct AuditRequest {
    /// The last this many entries (at least 1; the coordinator returns at
    /// most 1000).
    pub last: u32,
}

/// The last entries of the audit log, oldest first.
pub fn audit(s: &mut Session, r: AuditRequest) -> anyhow::Result<Vec<AuditRecord>> {
    s.call(|c| c.audit(r.last.max(1)))
        .context("reading the audit log")
}

/// `entries` as the table `audit` prints (times as UTC dates; `--json`
/// keeps the number, `unix_ms`).
pub fn table(entries: &[AuditRecord]) -> String {
    let mut t = String::from("time (UTC)            action  sweep                role    token                  peer                   detail\n");
    // Every field came over the network: control characters escaped.
    let x = gamesweep_api::escape;
    for e in entries {
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
}
