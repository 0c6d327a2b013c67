//! `token issue|list|revoke`: per-worker credentials, issued by the admin
//! ([`issue`], [`list`], [`revoke`]). A worker presenting one is that
//! identity (`@NAME`) whatever worker id it sends (see `docs/trust.md`).
//! An issued secret is shown once, or written to a new file readable by
//! its owner only ([`IssueRequest::out`]).

use super::Session;
use crate::error::UsageError;
use crate::output;
use anyhow::Context as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What a credential may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Lease and submit shards (`worker`).
    Worker,
    /// Read status, results and exports (`read`).
    Read,
}

impl Role {
    /// `worker` or `read`, as the coordinator names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Worker => "worker",
            Role::Read => "read",
        }
    }
}

impl std::str::FromStr for Role {
    type Err = UsageError;

    /// `worker` or `read`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "worker" => Ok(Role::Worker),
            "read" => Ok(Role::Read),
            other => Err(UsageError(format!(
                "role `{other}`: expected `worker` or `read`"
            ))),
        }
    }
}

/// What `token issue` asks for.
#[derive(Clone, Debug)]
pub struct IssueRequest {
    /// The identity's name (1 to 64 letters, digits, `.`, `_` or `-`; the
    /// coordinator checks it).
    pub name: String,
    /// What it may do.
    pub role: Role,
    /// Write the secret to this new file (mode 0600) instead of returning it.
    pub out: Option<PathBuf>,
}

/// A credential issued. Serialized (keys sorted) as `{"fingerprint",
/// "name", "role", "secret"}`, `secret` null when written to a file.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Issued {
    /// Its name.
    pub name: String,
    /// Its role.
    pub role: String,
    /// Its fingerprint (a short hash of the secret).
    pub fingerprint: String,
    /// The secret (`None`: written to [`IssueRequest::out`]).
    pub secret: Option<String>,
    /// What `token issue` says on stderr.
    #[serde(skip)]
    pub message: String,
}

/// Issue the credential `r` asks for. A file `out` that exists is refused
/// before asking the coordinator.
pub fn issue(s: &mut Session, r: &IssueRequest) -> anyhow::Result<Issued> {
    if let Some(out) = &r.out {
        if out.exists() {
            return Err(UsageError(format!(
                "{} exists: refusing to overwrite a secret file",
                out.display()
            ))
            .into());
        }
    }
    let reply = s
        .call(|c| c.issue_credential(&r.name, r.role.as_str()))
        .context("issuing a credential")?;
    let (secret, message) = match &r.out {
        Some(out) => {
            write_secret(out, &reply.secret)?;
            let m = format!(
                "issued {} credential @{} ({}); secret written to {} — give it to the worker with --token-file",
                reply.role, reply.name, reply.fingerprint, out.display()
            );
            (None, m)
        }
        None => {
            let m = format!(
                "issued {} credential @{} ({}); the secret below is shown once — give it to the worker with --token-file:",
                reply.role, reply.name, reply.fingerprint
            );
            (Some(reply.secret), m)
        }
    };
    Ok(Issued {
        name: reply.name,
        role: reply.role,
        fingerprint: reply.fingerprint,
        secret,
        message,
    })
}

/// Write `secret` to a new file readable by its owner only.
fn write_secret(path: &Path, secret: &str) -> anyhow::Result<()> {
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

/// One issued credential, as `token list` shows it. Serialized (keys
/// sorted) as `{"fingerprint", "issued_unix_ms", "name", "revoked_unix_ms",
/// "role"}`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Credential {
    /// Its name.
    pub name: String,
    /// Its role (`worker` or `read`).
    pub role: String,
    /// When it was issued, in Unix milliseconds.
    pub issued_unix_ms: u64,
    /// When it was revoked, in Unix milliseconds (`None`: in force).
    pub revoked_unix_ms: Option<u64>,
    /// Its fingerprint.
    pub fingerprint: String,
}

/// Every credential issued, revoked ones too.
pub fn list(s: &mut Session) -> anyhow::Result<Vec<Credential>> {
    let list = s
        .call(|c| c.list_credentials())
        .context("listing credentials")?;
    Ok(list
        .into_iter()
        .map(|c| Credential {
            name: c.name,
            role: c.role,
            issued_unix_ms: c.issued_unix_ms,
            revoked_unix_ms: (c.revoked_unix_ms > 0).then_some(c.revoked_unix_ms),
            fingerprint: c.fingerprint,
        })
        .collect())
}

/// `list` as JSON, keys sorted (`pretty`: indented, as `token list --json`
/// prints it).
pub fn list_json(list: &[Credential], pretty: bool) -> anyhow::Result<String> {
    // Through `serde_json::Value`, whose maps sort their keys.
    let v = serde_json::to_value(list)?;
    Ok(if pretty {
        serde_json::to_string_pretty(&v)?
    } else {
        v.to_string()
    })
}

/// `list` as the table `token list` prints (dates in UTC).
pub fn list_table(list: &[Credential]) -> String {
    let mut t = format!(
        "{:<24} {:<7} {:<21} {:<21} {}\n",
        "name", "role", "issued (UTC)", "revoked (UTC)", "fingerprint"
    );
    for c in list {
        t.push_str(&format!(
            "{:<24} {:<7} {:<21} {:<21} {}\n",
            format!("@{}", c.name),
            c.role,
            output::utc_time(c.issued_unix_ms),
            c.revoked_unix_ms
                .map_or_else(|| "-".into(), output::utc_time),
            c.fingerprint
        ));
    }
    t
}

/// Revoke credential `name`: refused from its next request on; what the
/// CLI says on stderr.
pub fn revoke(s: &mut Session, name: &str) -> anyhow::Result<String> {
    s.call(|c| c.revoke_credential(name))
        .context("revoking a credential")?;
    Ok(format!("revoked @{name}"))
}
