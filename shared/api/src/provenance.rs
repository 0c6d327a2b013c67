//! `provenance.json`: where a finished sweep's result came from — the
//! solver and plan it was computed with, how much of it was verified by a
//! second worker and with what outcome, and which workers contributed.
//! The coordinator's engine writes it (`Core::provenance`); it travels as
//! JSON text on the wire and is parsed once, where a reply is decoded
//! ([`Provenance::from_json`]: a text that is not a provenance is an
//! error, never read as "nothing recorded").

use crate::shard_set::ShardSet;
use gamesweep::sweep::Params;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The shards one solver build computed, as `provenance.json` lists them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolverShare {
    /// The kind's solver version of that build.
    pub version: String,
    /// How many shards' accepted results it computed.
    pub shards: u64,
    /// Which.
    pub ranges: ShardSet,
}

/// Contributor name for results accepted before their worker was recorded.
pub const UNRECORDED: &str = "(unrecorded)";

/// A shard whose runs disagreed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MismatchRecord {
    /// Shard index.
    pub shard: u32,
    /// Every run's worker, the accepted one first.
    pub workers: Vec<String>,
    /// The out-voted workers (empty: unresolved, skipped as unverifiable).
    pub disagreeing: Vec<String>,
    /// The accepted result lost and was replaced by the majority's.
    pub replaced: bool,
}

/// How far the merged result rests on more than one identity (see
/// `docs/trust.md`): an identity is an issued credential (`@NAME`), or every
/// worker under a shared token together.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confirmation {
    /// One sentence: independently verified, partly, or not.
    pub statement: String,
    /// Shards whose accepted result two identities (one of them issued)
    /// computed alike.
    pub confirmed_by_two_identities: u32,
    /// Shards whose accepted result rests on one issued identity only.
    pub rest_on_one_issued_identity: u32,
    /// Shards whose accepted result rests on a shared token only.
    pub rest_on_a_shared_token: u32,
    /// Per identity, the shards resting on it alone: what that one
    /// identity, faulty or lying, could have changed unnoticed.
    pub resting_alone: BTreeMap<String, u32>,
    /// The most shards any one identity could have changed unnoticed.
    pub most_one_identity_could_change: u32,
    /// Per identity resting alone on some shards, the rows of the tables
    /// those shards can change (vertex counts `[lo, hi]`, the kind's
    /// [`gamesweep::sweep::SweepKind::rows`]); `None`: any row.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rows_alone: BTreeMap<String, Option<[usize; 2]>>,
    /// The sweep's runs carry no position digest (its kind computes none,
    /// [`gamesweep::sweep::SweepKind::position_digest`], or it was launched
    /// without verification and a caught lie reopened it): two identities
    /// that agreed gave equal results, which does not show that both
    /// computed them (a result replayed from an export agrees too), so the
    /// statement does not call them independent confirmation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub results_only: bool,
    /// Of `resting_alone`, the shards resting on an identity caught giving
    /// a wrong result (here or in another sweep) that no other identity
    /// could run again: unverified, and said so in the statement.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub caught_alone: BTreeMap<String, u32>,
}

/// What became of the results of one identity caught giving a wrong result
/// (here or in another sweep, before or after this one finished): every
/// result it gave here was run again by other identities.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rechecked {
    /// Its shards in this sweep verified again.
    pub shards: u32,
    /// Confirmed by the others.
    pub verified: u32,
    /// Out-voted, and replaced by the others' result.
    pub replaced: u32,
    /// No other identity could run them (skipped as unverifiable).
    pub unverifiable: u32,
}

/// `provenance.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// The sweep.
    pub sweep_id: String,
    /// Its kind.
    pub kind: String,
    /// Its parameters.
    pub params: Params,
    /// The kind's solver version the sweep finished under (the one it was
    /// launched with, unless its solver changed while it ran: `solvers`).
    pub solver_version: String,
    /// Which solver build computed which shards, when more than one did
    /// (`run --accept-solver-change`); absent when `solver_version`
    /// computed them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub solvers: Vec<SolverShare>,
    /// The coordinator build that served the result.
    pub coordinator_version: String,
    /// SHA-256 (hex) of the stored plan (its JSON encoding, as stored).
    pub plan_digest: String,
    /// Shards in the plan.
    pub shards_total: u32,
    /// Share of the shards selected for a second run (0..=1).
    pub verify_fraction: f64,
    /// The same share in millionths.
    pub verify_ppm: u32,
    /// Key of the selection hash.
    pub verify_seed: u64,
    /// Shards selected.
    pub shards_selected: u32,
    /// Shards verified again because their worker was quarantined.
    pub shards_rechecked: u32,
    /// Per identity caught giving a wrong result, what became of its
    /// results in this sweep, each run again by other identities.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rechecked_after_a_lie: BTreeMap<String, Rechecked>,
    /// Verifications whose runs agreed.
    pub shards_verified: u32,
    /// Verifications whose runs disagreed (settled by majority, or skipped).
    pub shards_mismatched: u32,
    /// Of those, whose accepted result was replaced by the majority's.
    pub shards_replaced: u32,
    /// Verifications skipped: no other worker was seen for several lease periods.
    pub shards_unverifiable: u32,
    /// The shards whose runs disagreed.
    pub mismatches: Vec<MismatchRecord>,
    /// Workers out-voted on some shard of this sweep.
    pub disagreeing_workers: Vec<String>,
    /// Workers quarantined on this coordinator.
    pub quarantined_workers: Vec<String>,
    /// Workers whose results make up the merged result, with their shard counts.
    pub contributors: BTreeMap<String, u32>,
    /// How far the result rests on more than one identity.
    #[serde(default)]
    pub confirmation: Confirmation,
    /// Results refused by validation (inconsistent: a faulty core or a
    /// careless liar), by the identity that sent them.
    #[serde(default)]
    pub results_invalid_by: BTreeMap<String, u64>,
    /// Results the coordinator recounted within its CPU budget (the kind's
    /// cheap truths per shard, core/recount.rs), and of those refused.
    #[serde(default)]
    pub recounted: u64,
    #[serde(default)]
    pub recounts_refused: u64,
    /// Cheap truths the kind knows, checked on the merged result
    /// (`Kind::truths`); a failed one means a wrong number got through.
    #[serde(default)]
    pub checks: Vec<gamesweep::sweep::TruthCheck>,
}

impl Provenance {
    /// The failed checks, one line each.
    pub fn failed_checks(&self) -> Vec<String> {
        self.checks
            .iter()
            .filter(|c| !c.ok)
            .map(|c| format!("{}: {}", c.check, c.detail))
            .collect()
    }
}

impl Provenance {
    /// The text of `provenance.json` (pretty, final newline).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("provenance serializes");
        s.push('\n');
        s
    }

    /// Parse a `provenance.json` text.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }
}
