//! `gamesweep token issue|list|revoke`: per-worker credentials, issued by
//! the admin. A worker presenting one is that identity (`@NAME`) whatever
//! worker id it sends: its leases, caps, failures and results are filed
//! under it, and replication counts it as one voice (see `docs/trust.md`).

use crate::connect::{self, Conn};
use crate::output;
use anyhow::Context as _;
use std::io::Write as _;
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

/// Run a `token` subcommand.
pub fn exec(c: TokenCommand) -> anyhow::Result<()> {
    let rt = connect::runtime()?;
    match c {
        TokenCommand::Issue(a) => {
            if let Some(out) = &a.out {
                if out.exists() {
                    anyhow::bail!(crate::error::UsageError(format!(
                        "{} exists: refusing to overwrite a secret file",
                        out.display()
                    )));
                }
            }
            let mut client = connect::connect(&rt, &a.conn)?;
            let r = rt
                .block_on(client.issue_credential(&a.name, &a.role))
                .context("issuing a credential")?;
            match &a.out {
                Some(out) => {
                    write_secret(out, &r.secret)?;
                    eprintln!(
                        "issued {} credential @{} ({}); secret written to {} — give it to the worker with --token-file",
                        r.role, r.name, r.fingerprint, out.display()
                    );
                }
                None => {
                    eprintln!(
                        "issued {} credential @{} ({}); the secret below is shown once — give it to the worker with --token-file:",
                        r.role, r.name, r.fingerprint
                    );
                    output::print(format!("{}\n", r.secret))?;
                }
            }
        }
        TokenCommand::List(a) => {
            let mut client = connect::connect(&rt, &a.conn)?;
            let list = rt
                .block_on(client.list_credentials())
                .context("listing credentials")?;
            let text = if a.json {
                let v: Vec<serde_json::Value> = list
                    .iter()
                    .map(|c| {
                        serde_json::json!({
                            "name": c.name,
                            "role": c.role,
                            "issued_unix_ms": c.issued_unix_ms,
                            "revoked_unix_ms": (c.revoked_unix_ms > 0).then_some(c.revoked_unix_ms),
                            "fingerprint": c.fingerprint,
                        })
                    })
                    .collect();
                format!("{}\n", serde_json::to_string_pretty(&v)?)
            } else {
                // Dates in UTC (`--json` keeps the numbers).
                let mut t = format!(
                    "{:<24} {:<7} {:<21} {:<21} {}\n",
                    "name", "role", "issued (UTC)", "revoked (UTC)", "fingerprint"
                );
                for c in &list {
                    t.push_str(&format!(
                        "{:<24} {:<7} {:<21} {:<21} {}\n",
                        format!("@{}", c.name),
                        c.role,
                        output::utc_time(c.issued_unix_ms),
                        if c.revoked_unix_ms > 0 {
                            output::utc_time(c.revoked_unix_ms)
                        } else {
                            "-".into()
                        },
                        c.fingerprint
                    ));
                }
                t
            };
            output::print(text)?;
        }
        TokenCommand::Revoke(a) => {
            let mut client = connect::connect(&rt, &a.conn)?;
            rt.block_on(client.revoke_credential(&a.name))
                .context("revoking a credential")?;
            eprintln!("revoked @{}", a.name);
        }
    }
    Ok(())
}

/// Write `secret` to a new file readable by its owner only.
fn write_secret(path: &std::path::Path, secret: &str) -> anyhow::Result<()> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        o.mode(0o600);
    }
    let mut f = o
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    writeln!(f, "{secret}").with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
