//! Worker and read credentials issued by the admin (`gamesweep token
//! issue`): each is a random secret whose SHA-256 alone is stored, under
//! the credential's name. The access layer (`crate::access`) finds a
//! caller's credential by that hash and derives its identity from it.

use serde::{Deserialize, Serialize};

// Identity keys: what the core files leases, caps, failures and results
// under, and how replication counts them (here, below the core, because
// stored verification records are read with them).

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

/// The first character of the key of an identity issued by the admin
/// (`gamesweep token issue --name NAME` is `@NAME`): worker ids a client
/// sends under a shared token may not start with it, so no client can
/// speak for an issued identity.
pub const ISSUED_PREFIX: char = '@';

/// The voter of every holder under a shared token (or none): however many
/// worker ids such clients choose, they are one identity for replication,
/// and never an independent one.
pub const SHARED_VOTER: &str = "(shared token)";

/// Whether `key` (a holder's key, see [`ISSUED_PREFIX`]) is an identity
/// issued by the admin, whose results count as independent confirmation.
pub fn is_issued(key: &str) -> bool {
    key.starts_with(ISSUED_PREFIX)
}

/// The first characters of the identity of an imported export file's
/// results (`core::transfer`): no client may send a worker id like it.
pub const IMPORT_PREFIX: &str = "import:";

/// The identity `key` votes as in replicated validation: itself if issued
/// or an imported file's, else [`SHARED_VOTER`].
pub fn voter(key: &str) -> &str {
    if is_issued(key) || key.starts_with(IMPORT_PREFIX) {
        key
    } else {
        SHARED_VOTER
    }
}
