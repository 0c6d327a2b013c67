//! Per-worker credentials (`gamesweep token issue|list|revoke`): the admin
//! issues a named credential; its secret goes to one worker (or one group
//! of processes run by one person) and the coordinator keeps only its
//! SHA-256. A caller presenting it *is* that identity (`@NAME`): the access
//! layer (`crate::access`) looks the secret up here and the gRPC service
//! derives the lease holder from it, never from the worker id a client
//! sends. Revoking takes effect at once; names are never reused, so an
//! identity in a provenance record means one credential.

use super::model::CoreError;
use super::Core;
use crate::store::CredentialRecord;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use tracing::{info, warn};

/// What an issued credential may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CredentialRole {
    /// Lease, renew, release, submit, fail.
    Worker,
    /// Status, results, projections, export, audit.
    Read,
}

impl CredentialRole {
    /// The role's name.
    pub fn name(self) -> &'static str {
        match self {
            CredentialRole::Worker => "worker",
            CredentialRole::Read => "read",
        }
    }

    /// The role named `s`.
    pub fn parse(s: &str) -> Result<Self, CoreError> {
        match s {
            "worker" => Ok(CredentialRole::Worker),
            "read" => Ok(CredentialRole::Read),
            _ => Err(CoreError::BadRequest(format!(
                "unknown credential role `{}`: give `worker` or `read`",
                crate::core::model::short(s)
            ))),
        }
    }
}

/// A valid issued credential, as the access layer finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issued {
    /// Its name (the identity is `@NAME`).
    pub name: String,
    /// Its role.
    pub role: CredentialRole,
}

/// The valid issued credentials by the SHA-256 of their secrets, shared
/// between the core (which issues and revokes) and the access layer (which
/// looks callers up on every request).
#[derive(Debug, Default)]
pub struct Credentials {
    by_hash: RwLock<HashMap<[u8; 32], Issued>>,
    /// Revoked credentials' names by the SHA-256 of their secrets, so a
    /// refusal can say "revoked" rather than "wrong token".
    revoked: RwLock<HashMap<[u8; 32], String>>,
}

/// SHA-256 of a secret.
fn hash(secret: &[u8]) -> [u8; 32] {
    Sha256::digest(secret).into()
}

/// The longest credential name.
pub const MAX_NAME: usize = 64;

/// The prefix of every issued secret (so a leaked one is recognisable).
const SECRET_PREFIX: &str = "gsw1_";

impl Credentials {
    /// The credential whose secret is `secret`, if it is valid.
    pub fn lookup(&self, secret: &[u8]) -> Option<Issued> {
        if !secret.starts_with(SECRET_PREFIX.as_bytes()) {
            return None;
        }
        let h = hash(secret);
        self.read().get(&h).cloned()
    }

    /// The name of the revoked credential whose secret is `secret`, if it is one.
    pub fn revoked(&self, secret: &[u8]) -> Option<String> {
        if !secret.starts_with(SECRET_PREFIX.as_bytes()) {
            return None;
        }
        let h = hash(secret);
        self.revoked
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&h)
            .cloned()
    }

    fn note_revoked(&self, hash: [u8; 32], name: &str) {
        self.revoked
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(hash, name.to_string());
    }

    /// Whether any credential is valid.
    pub fn any(&self) -> bool {
        !self.read().is_empty()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<[u8; 32], Issued>> {
        self.by_hash.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<[u8; 32], Issued>> {
        self.by_hash.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Take in a stored record (valid ones only).
    fn load(&self, r: &CredentialRecord) -> Result<(), CoreError> {
        if r.revoked_unix_ms.is_some() {
            if let Some(h) = hex_to_32(&r.secret_sha256) {
                self.note_revoked(h, &r.name);
            }
            return Ok(());
        }
        let bad = || {
            CoreError::Store(crate::store::StoreError::Corrupt(format!(
                "credential `{}`: bad stored hash or role",
                r.name
            )))
        };
        let bytes = hex_to_32(&r.secret_sha256).ok_or_else(bad)?;
        let role = CredentialRole::parse(&r.role).map_err(|_| bad())?;
        self.write().insert(
            bytes,
            Issued {
                name: r.name.clone(),
                role,
            },
        );
        Ok(())
    }
}

fn hex_to_32(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A credential name must be 1 to [`MAX_NAME`] of `[A-Za-z0-9._-]`.
pub fn check_name(name: &str) -> Result<(), CoreError> {
    let ok = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(CoreError::BadRequest(format!(
            "bad credential name `{}`: use 1 to {MAX_NAME} letters, digits, `.`, `_` or `-`",
            crate::core::model::short(name)
        )))
    }
}

/// The loaded credentials of `store`.
pub(crate) fn load(store: &dyn crate::store::Store) -> Result<Credentials, CoreError> {
    let c = Credentials::default();
    for r in store.load_credentials()? {
        c.load(&r)?;
    }
    Ok(c)
}

impl Core {
    /// The valid issued credentials (for the access layer).
    pub fn credentials(&self) -> Arc<Credentials> {
        self.credentials.clone()
    }

    /// Issue a credential `name` with `role`: returns its secret (shown
    /// once; only its hash is stored, durably, before this returns) and
    /// the stored record. Names are never reused, revoked ones included.
    pub fn issue_credential(
        &self,
        name: &str,
        role: CredentialRole,
    ) -> Result<(String, CredentialRecord), CoreError> {
        check_name(name)?;
        let _st = self.lock();
        if self
            .store
            .load_credentials()?
            .iter()
            .any(|r| r.name == name)
        {
            return Err(CoreError::BadRequest(format!(
                "a credential named `{name}` was issued already (names are never reused, revoked ones included, so that an identity in a provenance record means one credential): pick another name"
            )));
        }
        let key = crate::store::random_key().map_err(|e| {
            CoreError::Store(crate::store::StoreError::Corrupt(format!(
                "no randomness for a credential: {e}"
            )))
        })?;
        let secret = format!("{SECRET_PREFIX}{}", to_hex(&key));
        let record = CredentialRecord {
            name: name.to_string(),
            role: role.name().to_string(),
            secret_sha256: to_hex(&hash(secret.as_bytes())),
            issued_unix_ms: self.epoch.unix_ms(self.clock.now()),
            revoked_unix_ms: None,
        };
        self.store.put_credential(&record)?;
        self.credentials.load(&record)?;
        info!(name, role = role.name(), "credential issued");
        Ok((secret, record))
    }

    /// Every issued credential (revoked ones too), by name.
    pub fn list_credentials(&self) -> Result<Vec<CredentialRecord>, CoreError> {
        let mut v = self.store.load_credentials()?;
        v.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(v)
    }

    /// Revoke credential `name`: refused from its next request on. Its
    /// accepted results stay (they were validated, and replicated as its
    /// trust required); leases it holds run out.
    pub fn revoke_credential(&self, name: &str) -> Result<CredentialRecord, CoreError> {
        check_name(name)?;
        let _st = self.lock();
        let Some(mut r) = self
            .store
            .load_credentials()?
            .into_iter()
            .find(|r| r.name == name)
        else {
            return Err(CoreError::BadRequest(format!(
                "no credential named `{name}` (see `gamesweep token list`)"
            )));
        };
        if r.revoked_unix_ms.is_none() {
            r.revoked_unix_ms = Some(self.epoch.unix_ms(self.clock.now()));
            self.store.put_credential(&r)?;
        }
        if let Some(h) = hex_to_32(&r.secret_sha256) {
            self.credentials.write().remove(&h);
            self.credentials.note_revoked(h, &r.name);
        }
        warn!(name, "credential revoked");
        Ok(r)
    }
}

/// The fingerprint of a stored credential (as audit entries show a caller's
/// token: the first 6 bytes of the secret's SHA-256).
pub fn record_fingerprint(r: &CredentialRecord) -> String {
    format!(
        "sha256:{}",
        &r.secret_sha256[..r.secret_sha256.len().min(12)]
    )
}
