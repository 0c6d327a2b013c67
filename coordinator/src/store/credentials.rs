//! Worker and read credentials issued by the admin (`gamesweep token
//! issue`): each is a random secret whose SHA-256 alone is stored, under
//! the credential's name. The access layer (`crate::access`) finds a
//! caller's credential by that hash and derives its identity from it.

use serde::{Deserialize, Serialize};

/// One issued credential, as stored (never the secret itself).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CredentialRecord {
    /// Its name: the identity's name (`@NAME` in provenance and status).
    pub name: String,
    /// The role it grants: `worker` or `read`.
    pub role: String,
    /// SHA-256 of the secret, lowercase hex.
    pub secret_sha256: String,
    /// When it was issued, Unix milliseconds.
    pub issued_unix_ms: u64,
    /// When it was revoked, Unix milliseconds (`None`: valid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revoked_unix_ms: Option<u64>,
}
