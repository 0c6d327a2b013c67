//! `gamesweep token issue|list|revoke`: per-worker credentials, issued by
//! the admin. A worker presenting one is that identity (`@NAME`) whatever
//! worker id it sends: its leases, caps, failures and results are filed
//! under it, and replication counts it as one voice (see `docs/trust.md`).
//! What each does is `ops::remote::token`'s.

use crate::connect::Conn;
use crate::ops::remote::token::{self, IssueRequest};
use crate::ops::remote::Session;
use std::path::PathBuf;

/// `token` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum TokenCommand {
    /// Issue a credential (admin token): prints its secret once, or writes it to --out (mode 0600).
    ///
    /// Give each machine or person its own: results of two credentials that agree count as independent confirmation.
    Issue(IssueArgs),
    /// List the issued credentials (admin token): name, role, when issued and revoked, fingerprint.
    List(ListArgs),
    /// Revoke a credential (admin token): refused from its next request on; its name is never reused.
    Revoke(RevokeArgs),
}

/// `token issue` options.
#[derive(clap::Args, Debug)]
pub struct IssueArgs {
    /// The identity's name: 1 to 64 letters, digits, `.`, `_` or `-` (shown as `@NAME`).
    #[arg(long)]
    pub name: String,
    /// What it may do: `worker` (lease, submit) or `read` (status, results, export).
    #[arg(long, value_parser = ["worker", "read"], default_value = "worker")]
    pub role: String,
    /// Write the secret to this file (created, mode 0600) instead of printing it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub conn: Conn,
}

/// `token list` options.
#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub conn: Conn,
}

/// `token revoke` options.
#[derive(clap::Args, Debug)]
pub struct RevokeArgs {
    /// The credential's name.
    pub name: String,
    #[command(flatten)]
    pub conn: Conn,
}

impl TryFrom<&IssueArgs> for IssueRequest {
    type Error = anyhow::Error;

    fn try_from(a: &IssueArgs) -> anyhow::Result<Self> {
        Ok(IssueRequest {
            name: a.name.clone(),
            role: a.role.parse()?,
            out: a.out.clone(),
        })
    }
}

/// Run a `token` subcommand.
pub fn exec(c: TokenCommand) -> anyhow::Result<()> {
    match c {
        TokenCommand::Issue(a) => {
            let req = IssueRequest::try_from(&a)?;
            let mut s = Session::connect(&a.conn)?;
            let issued = token::issue(&mut s, &req)?;
            eprintln!("{}", issued.message);
            if let Some(secret) = &issued.secret {
                crate::output::print(format!("{secret}\n"))?;
            }
        }
        TokenCommand::List(a) => {
            let mut s = Session::connect(&a.conn)?;
            let list = token::list(&mut s)?;
            let text = if a.json {
                format!("{}\n", token::list_json(&list, true)?)
            } else {
                token::list_table(&list)
            };
            crate::output::print(text)?;
        }
        TokenCommand::Revoke(a) => {
            let mut s = Session::connect(&a.conn)?;
            eprintln!("{}", token::revoke(&mut s, &a.name)?);
        }
    }
    Ok(())
}
