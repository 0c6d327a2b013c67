//! Cheap truths: facts about a finished sweep's merged result that an
//! independent, much cheaper computation gives ([`super::Kind::truths`]), so
//! that a lie or a flipped bit that slipped past replication still shows.
//! The coordinator records them in `provenance.json` and `run` fails when
//! one does not hold.

use serde::{Deserialize, Serialize};

/// One check of a finished sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TruthCheck {
    /// What was checked.
    pub check: String,
    /// Whether it held.
    pub ok: bool,
    /// The figures compared; on a failure, what to do.
    pub detail: String,
}
