//! Moving a sweep between stores: [`Core::export`] collects one sweep's
//! definition, plan and finished results ([`crate::export_file::Export`]),
//! [`Core::export_file`] encodes it signed with the store's key;
//! [`Core::import`] takes one in as if it had been launched here and its
//! finished shards submitted. An export is untrusted input: the import
//! re-plans the sweep and refuses a plan that differs, and decodes,
//! validates (`SweepKind::validate`) and merges (checked) every result as a
//! submit does, before anything is written. The sweep then loads exactly as
//! a restart loads a stored one (`recovery`): unfinished shards are pending
//! and get fresh leases, signed with this store's key.
//!
//! Into a store that holds a sweep of that id already, a file merges
//! ([`Core::import`] → `import_into`): it must be the same sweep (kind,
//! resolved parameters, solver version, plan); the shards the store lacks
//! are added (validated and merged, checked, as above), the ones it has
//! are compared by the digest of their canonical result — equal ones are
//! confirmed and change nothing, a different one refuses the whole file
//! naming the shards, before anything is written. So the parts of a sweep
//! (`--part K/M`) and a chain of incremental exports
//! ([`Core::export_where`]) merge in any order, and importing a file twice
//! changes nothing.
//!
//! Trust: validation checks a result's shape, not its truth, so the
//! signature decides what the results are worth. A file signed by a key
//! this coordinator trusts (its store's own, `serve --trust-key`, or the
//! import's `--trust-key`) imports as it is. Any other file (unsigned
//! format 1, or signed by an unknown key; a signature that does not verify
//! is refused when the file is decoded) imports as the results of an
//! untrusted identity ([`UNTRUSTED_IMPORT`]): each imported shard gets a
//! [`ReplicationPurpose::Import`] verification record whose first run is the
//! file's, so a worker re-runs every one before the sweep can finish and a
//! wrong one is replaced (`core::verify`); or it is refused, with
//! `--require-signature`. Either way the sweep's verification share is the
//! importing side's ([`ImportPolicy::verify_ppm`]), never the file's.

use super::model::{CoreError, ShardState, Sweep, IMPORT_PREFIX};
use super::replication::digest;
use super::Core;
use crate::export_file::{Decoded, Export, ExportResult, ExportSample, PublicKey, Signature};
use crate::store::snapshot::SetDigest;
use crate::store::{
    ReplicationPurpose, ReplicationRecord, ReplicationRun, SampleRecord, ShardTiming, SolverShards,
    StoreError, StoredSweep, SweepRecord, SweepState, SweepStats, Verdict,
};
use gamesweep::kinds;
use gamesweep::sweep::Output;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::sync::MutexGuard;
use tracing::{info, warn};

pub use gamesweep_api::domain::Imported;

/// The origin identity of results imported from an unsigned file; a file
/// signed by an unknown key gets `import:untrusted:sha256:...` (its key's
/// fingerprint), so status and provenance say which file lied.
pub const UNTRUSTED_IMPORT: &str = "import:untrusted";

/// An import's verification share when the importer names none: the
/// default of `launch --replicate-fraction` (1 %).
pub const DEFAULT_IMPORT_VERIFY_PPM: u32 = 10_000;

/// What an import trusts and the verification the imported sweep gets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportPolicy {
    /// Signers trusted for this import besides the store's own key and the
    /// core's [`Core::trust_keys`] (`import --trust-key`).
    pub trusted: Vec<PublicKey>,
    /// Refuse a file no trusted key signed (`--require-signature`).
    pub require_signature: bool,
    /// The imported sweep's verification share, millionths (`None`:
    /// [`DEFAULT_IMPORT_VERIFY_PPM`]). The file's own share is not used.
    pub verify_ppm: Option<u32>,
    /// Take in results of another solver build of the kind than this one's
    /// (`run --accept-solver-change`): the sweep goes on under this build,
    /// and the file's shards keep the record of which build computed them
    /// (`core::solvers`). Without it such a file is refused.
    pub accept_solver_change: bool,
}

impl Core {
    /// The public key this coordinator signs its exports with.
    pub fn signing_key(&self) -> PublicKey {
        self.signer.public()
    }

    /// Trust exports signed by `keys` besides the store's own key (`serve
    /// --trust-key`), for every later import.
    pub fn trust_keys(&self, keys: Vec<PublicKey>) {
        *self.trusted_keys.lock().unwrap_or_else(|e| e.into_inner()) = keys;
    }

    /// Sweep `sweep_id` as an export file, signed with the store's key.
    pub fn export_file(&self, sweep_id: &str) -> Result<Vec<u8>, CoreError> {
        Ok(self.sign(&self.export(sweep_id)?))
    }

    /// `export` as an export file, signed with the store's key.
    pub fn sign(&self, export: &Export) -> Vec<u8> {
        crate::export_file::encode(export, &self.signer)
    }

    /// The key that signed `sig`, and whether this import trusts it.
    fn trusted_signer(&self, sig: &Signature, policy: &ImportPolicy) -> (Option<PublicKey>, bool) {
        let Signature::Signed(key) = sig else {
            return (None, false);
        };
        let trusted = *key == self.signer.public()
            || policy.trusted.contains(key)
            || self
                .trusted_keys
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains(key);
        (Some(*key), trusted)
    }

    /// Sweep `sweep_id` as an export: its record, plan and every stored
    /// result (with its timing and worker where known).
    pub fn export(&self, sweep_id: &str) -> Result<Export, CoreError> {
        self.export_where(sweep_id, |_| true)
    }

    /// [`Core::export`] with only the results of the shards `keep` keeps:
    /// an incremental export (`export --since`, `run --checkpoint-dir`)
    /// leaves out the shards earlier files hold. It is an export like any
    /// other (the whole plan, some results); importing it merges.
    pub fn export_where(
        &self,
        sweep_id: &str,
        keep: impl Fn(u32) -> bool,
    ) -> Result<Export, CoreError> {
        let (record, plan, timings, origins) = {
            let mut st = self.lock();
            let s = st.sweep_mut(sweep_id)?;
            self.fill_in(s)?;
            (
                s.record.clone(),
                s.plan.clone(),
                s.timings.clone(),
                s.replication.origins.clone(),
            )
        };
        // Read outside the lock; a result accepted meanwhile is in or not.
        let stored = self.store.results_of(sweep_id)?;
        let mut results = Vec::with_capacity(stored.len());
        for (index, bytes) in stored {
            if index as usize >= plan.len() || !keep(index) {
                continue;
            }
            let result = String::from_utf8(bytes).map_err(|_| {
                CoreError::Store(crate::store::StoreError::Corrupt(format!(
                    "result of shard {index} of `{sweep_id}` is not text"
                )))
            })?;
            let t = timings.get(&index);
            results.push(ExportResult {
                index,
                result,
                wall_us: t.map_or(0, |t| t.wall_us),
                cpu_us: t.map_or(0, |t| t.cpu_us),
                worker: t
                    .map(|t| t.worker.clone())
                    .or_else(|| origins.get(&index).cloned())
                    .unwrap_or_default(),
            });
        }
        Ok(Export {
            sweep_id: record.id.clone(),
            kind: record.kind.clone(),
            params: record.params.clone(),
            solver_version: record.solver_version.clone(),
            target_shards: record.target_shards,
            sample: record.sample.as_ref().map(|s| ExportSample {
                ppm: s.ppm,
                seed: s.seed,
                shards: s.shards.clone(),
                limited: s.limited,
            }),
            verify_ppm: record.verify_ppm,
            verify_seed: record.verify_seed,
            plan: plan.as_ref().clone(),
            plan_of: None,
            earlier_solvers: record
                .earlier_solvers
                .iter()
                .map(|e| SolverShards {
                    version: e.version.clone(),
                    shards: e
                        .shards
                        .filter(|i| results.binary_search_by_key(&i, |r| r.index).is_ok()),
                })
                .filter(|e| !e.shards.is_empty())
                .collect(),
            results,
        })
    }

    /// Delete what a failed import of `id` left in the store (if one did,
    /// and it could not be deleted then). Taken out of the set first, so
    /// two imports of `id` cannot both delete: the second finds the first's
    /// sweep and is refused as existing.
    fn remove_failed_import(&self, id: &str) -> Result<(), CoreError> {
        if !self.lock_failed_imports().remove(id) {
            return Ok(());
        }
        if let Err(e) = self.store.delete_sweep(id) {
            self.lock_failed_imports().insert(id.to_string());
            return Err(e.into());
        }
        info!(sweep = %id, "deleted a failed import");
        Ok(())
    }

    fn lock_failed_imports(&self) -> MutexGuard<'_, BTreeSet<String>> {
        self.failed_imports
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The ids of every sweep, in id order.
    pub fn sweep_ids(&self) -> Vec<String> {
        self.lock().sweeps.keys().cloned().collect()
    }

    /// Take in the decoded export file `file` as sweep `rename` (default:
    /// its own id), or refuse it with one line: no trusted signature under
    /// `policy.require_signature`, an unknown kind, another solver version
    /// than this build's, parameters or a plan other than this build makes
    /// for them, an id that exists, a result that does not decode, does not
    /// validate against its shard or overflows the merge. A file no trusted
    /// key signed imports with every result awaiting a worker's run (see
    /// the module doc). Nothing is written unless everything passed; the
    /// sweep is flushed before this returns.
    ///
    /// All or nothing, even through a crash: the sweep is stored as
    /// [`SweepState::Importing`] (invisible), then its results, and made
    /// `running` last; a restart deletes a sweep still importing
    /// (`recovery`), and so does a failed import (or, if the store cannot
    /// be written then, the next import of the same id).
    pub fn import(
        &self,
        file: &Decoded,
        rename: Option<&str>,
        policy: &ImportPolicy,
    ) -> Result<Imported, CoreError> {
        let export = &file.export;
        let id = rename.unwrap_or(&export.sweep_id).to_string();
        let (who, kind, verify_ppm) = self.admit(file, &id, policy)?;
        if self.lock().sweeps.contains_key(&id) {
            // The same sweep held here: merge the file's shards into it.
            return self.import_into(&id, export, kind, &who);
        }
        let (params, plan) = planned(kind, export)?;
        let (merged, records) = self.decode_and_merge(kind, &params, &plan, export, &who)?;
        // Written without the core's lock (workers keep being served); the
        // store's create refuses an id taken meanwhile, and the sweep is
        // added to the core only once all of it is durable.
        if self.lock().sweeps.contains_key(&id) {
            return Err(CoreError::Exists(id));
        }
        let record =
            self.staged_record(&id, export, params, kind.version(), verify_ppm, who.trusted)?;
        let (record, results, timings, origins) =
            self.store_import(&id, &record, &plan, export, &who, &records)?;
        let now = self.clock.now();
        let sweep = super::recovery::resume(
            StoredSweep {
                record,
                plan,
                results,
                leases: BTreeMap::new(),
                stats: SweepStats::default(),
                timings,
                failures: BTreeMap::new(),
                replication: records,
                origins,
                snapshot: None,
            },
            self.epoch.unix_ms(now),
        )?;
        let imported = Imported {
            sweep_id: id.clone(),
            shards: sweep.plan.len() as u32,
            done: sweep.results_stored,
            signer: who.signer.map(|k| k.fingerprint()).unwrap_or_default(),
            trusted: who.trusted,
            merged: false,
            added: sweep.results_stored,
            confirmed: 0,
            conflicts: 0,
        };
        debug_assert_eq!(sweep.merged.encode(), merged.encode());
        self.lock().sweeps.insert(id.clone(), sweep);
        self.forget_render(&id);
        if who.trusted {
            info!(sweep = %id, done = imported.done, total = imported.shards, signer = %imported.signer, "imported sweep, signed by a trusted key");
        } else {
            warn!(sweep = %id, done = imported.done, total = imported.shards, signer = %imported.signer, "imported sweep without a trusted signature: every imported result is re-run by a worker before the sweep can finish");
        }
        Ok(imported)
    }

    /// The checks of an import before its kind's work: a valid id, a
    /// trusted signature if `policy` requires one, a known kind, this
    /// build's solver version unless `policy` accepts a change. Who the
    /// results are from, the kind, and the sweep's verification share.
    fn admit(
        &self,
        file: &Decoded,
        id: &str,
        policy: &ImportPolicy,
    ) -> Result<(Who, &'static dyn gamesweep::sweep::SweepKind, u32), CoreError> {
        let export = &file.export;
        if !super::launch::valid_id(id) {
            return Err(refused(format!(
                "bad sweep id `{id}`: use 1-128 letters, digits, `-`, `_` or `.`"
            )));
        }
        let (signer, trusted) = self.trusted_signer(&file.signature, policy);
        if policy.require_signature && !trusted {
            return Err(refused(match signer {
                None => "the file is not signed (an export of format 1) and a signature by a trusted key is required (--require-signature)".into(),
                Some(k) => format!("the file is signed by key {k}, which is not trusted here, and a signature by a trusted key is required (--require-signature): trust it with --trust-key FILE (`gamesweep key export` on its coordinator)"),
            }));
        }
        // The identity results without a trusted signature are counted under.
        let untrusted: Option<String> = (!trusted).then(|| match signer {
            None => UNTRUSTED_IMPORT.to_string(),
            Some(k) => format!("{UNTRUSTED_IMPORT}:{}", k.fingerprint()),
        });
        let verify_ppm = policy.verify_ppm.unwrap_or(DEFAULT_IMPORT_VERIFY_PPM);
        super::replication::check_share(verify_ppm)?;
        let kind = kinds::find(&export.kind).map_err(|e| refused(e.to_string()))?;
        let mine = kind.version();
        if export.solver_version != mine && !policy.accept_solver_change {
            return Err(refused(format!(
                "solver version mismatch: the export's `{}` results come from solver version {}, this build's is {mine}; import it with the gamesweep build that wrote it, or go on under this build with `run --accept-solver-change` (the report then says which build computed which shards)",
                export.kind, export.solver_version
            )));
        }
        let who = Who {
            untrusted,
            signer,
            trusted,
            accept_solver_change: policy.accept_solver_change,
        };
        Ok((who, kind, verify_ppm))
    }

    /// The file's results decoded and validated as a submit does (in
    /// parallel: validation re-solves witnesses), then merged with checked
    /// arithmetic; with the open verification records of a file no trusted
    /// key signed (`who`).
    fn decode_and_merge(
        &self,
        kind: &'static dyn gamesweep::sweep::SweepKind,
        params: &gamesweep::sweep::Params,
        plan: &[gamesweep::sweep::ShardSpec],
        export: &Export,
        who: &Who,
    ) -> Result<(Output, BTreeMap<u32, ReplicationRecord>), CoreError> {
        let decoded: Vec<(Output, String)> = export
            .results
            .par_iter()
            .map(|r| {
                let shard = plan.get(r.index as usize).ok_or_else(|| {
                    refused(format!("a result for shard {} beyond the plan", r.index))
                })?;
                kind.decode(r.result.as_bytes())
                    .and_then(|out| kind.validate(params, shard, &out).map(|()| out))
                    .map(|out| {
                        // The digest a worker's run is compared with.
                        let d = digest(&out.encode());
                        (out, d)
                    })
                    .map_err(|e| refused(format!("shard {} result: {e}", r.index)))
            })
            .collect::<Result<_, _>>()?;
        let mut merged = kind.empty();
        let mut last = None;
        let mut records = BTreeMap::new();
        let opened_ms = self.epoch.unix_ms(self.clock.now());
        for (r, (out, d)) in export.results.iter().zip(decoded) {
            if let Some(u) = &who.untrusted {
                records.insert(r.index, import_run(u, d, opened_ms));
            }
            if last.is_some_and(|l| r.index <= l) {
                return Err(refused("results not in increasing shard order".into()));
            }
            last = Some(r.index);
            merged
                .merge(out)
                .map_err(|e| refused(gamesweep::sweep::in_shard(e, r.index).to_string()))?;
        }
        Ok((merged, records))
    }

    /// The record of sweep `id` imported from `export` (resolved `params`),
    /// staged: made visible (running) once everything is stored.
    fn staged_record(
        &self,
        id: &str,
        export: &Export,
        params: gamesweep::sweep::Params,
        mine: String,
        verify_ppm: u32,
        trusted: bool,
    ) -> Result<SweepRecord, CoreError> {
        // Which build computed each of the file's results, kept as the
        // sweep's record (this build's own need no entry).
        let earlier_solvers = attribute(&[], &mine, export, export.results.iter().map(|r| r.index));
        Ok(SweepRecord {
            id: id.to_string(),
            kind: export.kind.clone(),
            params,
            solver_version: mine,
            target_shards: export.target_shards,
            seq: self.store.next_seq()?,
            // Staged: made visible (running) once everything is stored.
            state: SweepState::Importing,
            sample: export.sample.as_ref().map(|s| SampleRecord {
                ppm: s.ppm,
                seed: s.seed,
                shards: s.shards.clone(),
                limited: s.limited,
            }),
            verify_ppm,
            // An untrusted file's seed could steer which later shards are
            // checked: pick a fresh one.
            verify_seed: if trusted {
                export.verify_seed
            } else {
                rand::random()
            },
            replicate_all: false,
            paused: false,
            priority: crate::store::DEFAULT_PRIORITY,
            part: None,
            earlier_solvers,
        })
    }

    /// Store the staged sweep `record` (`plan`) and the file's results, then
    /// make it visible: the visible record and the results, timings and
    /// origins stored. On a failure nothing is left behind (if the store
    /// cannot be written now, the next import of this id or a restart
    /// deletes it).
    fn store_import(
        &self,
        id: &str,
        record: &SweepRecord,
        plan: &[gamesweep::sweep::ShardSpec],
        export: &Export,
        who: &Who,
        records: &BTreeMap<u32, ReplicationRecord>,
    ) -> Result<Stored, CoreError> {
        let mut results = BTreeMap::new();
        let mut timings = BTreeMap::new();
        let mut origins = BTreeMap::new();
        self.remove_failed_import(id)?;
        match self.store.create_sweep(record, plan) {
            Err(StoreError::Exists(_)) => return Err(CoreError::Exists(id.to_string())),
            Err(e) => return Err(e.into()),
            Ok(()) => {}
        }
        let written = (|| -> Result<SweepRecord, CoreError> {
            for r in &export.results {
                // An untrusted file's worker names are its own word: its
                // results are the untrusted identity's.
                let worker = who.untrusted.as_ref().unwrap_or(&r.worker);
                let timing = (r.wall_us > 0 || r.cpu_us > 0).then(|| ShardTiming {
                    wall_us: r.wall_us,
                    cpu_us: r.cpu_us,
                    worker: worker.clone(),
                });
                self.store
                    .put_result(id, r.index, r.result.as_bytes(), timing.as_ref())?;
                if !worker.is_empty() {
                    self.store.put_origin(id, r.index, worker)?;
                    origins.insert(r.index, worker.clone());
                }
                if let Some(rec) = records.get(&r.index) {
                    self.store.put_replication(id, r.index, Some(rec))?;
                }
                results.insert(r.index, r.result.as_bytes().to_vec());
                if let Some(t) = timing {
                    timings.insert(r.index, t);
                }
            }
            self.store.flush()?;
            // Visible last (this flushes): until here a restart deletes it.
            let visible = SweepRecord {
                state: SweepState::Running,
                ..record.clone()
            };
            self.store.update_sweep(&visible)?;
            Ok(visible)
        })();
        let record = match written {
            Ok(visible) => visible,
            Err(e) => {
                // Leave no half-imported sweep behind; if the store cannot
                // be written now, the next import of this id (or a restart)
                // deletes it.
                if let Err(why) = self.store.delete_sweep(id) {
                    warn!(sweep = %id, error = %why, "cannot delete a failed import yet");
                    self.lock_failed_imports().insert(id.to_string());
                }
                return Err(e);
            }
        };
        Ok((record, results, timings, origins))
    }
}

/// The plan of a file carrying one: its parameters complete resolved
/// parameters of `kind`, its target bounded, its plan the one this build
/// makes for them, its sample within it.
fn planned(
    kind: &'static dyn gamesweep::sweep::SweepKind,
    export: &Export,
) -> Result<(gamesweep::sweep::Params, Vec<gamesweep::sweep::ShardSpec>), CoreError> {
    if !export.carries_plan() {
        return Err(refused("the file is an increment: it holds results of a sweep whose plan is in an earlier file of its checkpoint folder, and this store does not hold that sweep yet; import a file that carries the plan first (`run --import` of the whole folder does)".into()));
    }
    let params = kind
        .resolve_params(&export.params)
        .map_err(|e| refused(e.to_string()))?;
    if params != export.params {
        return Err(refused(
            "the export's parameters are not complete resolved parameters of its kind".into(),
        ));
    }
    // A file chooses its target: bounded before planning (a 2^32 − 1
    // target would make planning itself the attack).
    super::launch::check_target_shards(export.target_shards)
        .and_then(|()| super::launch::check_plan_size(export.plan.len()))
        .map_err(|e| refused(e.to_string()))?;
    let plan = kind
        .plan(&params, export.target_shards)
        .map_err(|e| refused(e.to_string()))?;
    if plan != export.plan {
        return Err(refused(format!(
            "the export's plan ({} shards) is not the plan this build makes for its parameters ({} shards)",
            export.plan.len(),
            plan.len()
        )));
    }
    if let Some(smp) = &export.sample {
        if !(1..=1_000_000).contains(&smp.ppm)
            || smp.shards.iter().any(|&i| i as usize >= plan.len())
        {
            return Err(refused("the export's sample is out of range".into()));
        }
    }
    Ok((params, plan))
}

/// A sweep imported anew as stored: its visible record, results, timings
/// and origins.
type Stored = (
    SweepRecord,
    BTreeMap<u32, Vec<u8>>,
    BTreeMap<u32, ShardTiming>,
    BTreeMap<u32, String>,
);

/// Who a file's results are from, for an import.
struct Who {
    /// The identity results without a trusted signature are counted under.
    untrusted: Option<String>,
    /// The key that signed the file.
    signer: Option<PublicKey>,
    /// Whether this import trusts it.
    trusted: bool,
    /// Whether results of another solver build are taken in.
    accept_solver_change: bool,
}

/// `earlier` (a sweep's record of earlier solver builds, whose current
/// build is `current`) with each of `added`, results of `export`, recorded
/// under the build that computed it by the file's own record.
fn attribute(
    earlier: &[SolverShards],
    current: &str,
    export: &Export,
    added: impl Iterator<Item = u32>,
) -> Vec<SolverShards> {
    let mut by: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for i in added {
        let v = super::solvers::version_of(&export.earlier_solvers, &export.solver_version, i);
        if v != current {
            by.entry(v).or_default().push(i);
        }
    }
    by.into_iter().fold(earlier.to_vec(), |acc, (v, shards)| {
        super::solvers::with_shards(&acc, current, v, &shards.into_iter().collect())
    })
}

/// At most this many disagreeing shards are named in a refusal.
const NAMED: usize = 10;

/// `shards` as text, the first [`NAMED`] of them.
fn some_shards(shards: &[u32]) -> String {
    let mut t = shards
        .iter()
        .take(NAMED)
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if shards.len() > NAMED {
        t.push_str(&format!(" and {} more", shards.len() - NAMED));
    }
    t
}

impl Core {
    /// Merge the export `export` into sweep `id`, which this store holds
    /// already: the same sweep (kind, resolved parameters, solver version
    /// and plan), or refused naming what differs. Shards the store lacks
    /// are added (decoded and validated as a submit is; merged with checked
    /// arithmetic, all before anything is written; a file no trusted key
    /// signed adds them as its untrusted identity's, each re-run by a
    /// worker before the sweep can finish). Shards it has are compared by
    /// the digest of their canonical result: equal ones are confirmed and
    /// change nothing; if any differs the import is refused naming them,
    /// and nothing is written. Importing the same file again changes
    /// nothing. Each added result is stored (then flushed) as a submitted
    /// one is, so a crash keeps a subset of them and importing the file
    /// again adds the rest.
    fn import_into(
        &self,
        id: &str,
        export: &Export,
        kind: &'static dyn gamesweep::sweep::SweepKind,
        who: &Who,
    ) -> Result<Imported, CoreError> {
        if who.accept_solver_change {
            // The sweep goes on under this build (its shards done so far
            // recorded under the build that computed them).
            self.change_solver(id, &kind.version())?;
        }
        let (held, plan) = self.same_sweep(id, export, who)?;
        let decoded = decode_for_merge(kind, &export.params, &plan, &held, export)?;
        let mine = self.stored_digests(id, kind, &held)?;
        let mut st = self.lock();
        let s = st.sweep_mut(id)?;
        // Shards done meanwhile (a worker's submit) are compared too.
        let raced: BTreeSet<u32> = export
            .results
            .iter()
            .map(|r| r.index)
            .filter(|i| !held.contains(i) && s.states[*i as usize] == ShardState::Done)
            .collect();
        let mine = if raced.is_empty() {
            mine
        } else {
            let mut all = mine;
            all.extend(self.stored_digests(id, kind, &raced)?);
            all
        };
        let mut unknown = Vec::new();
        let mut confirmed = 0u32;
        let mut new = Vec::new();
        let mut conflicts = Vec::new();
        for (r, (out, d)) in export.results.iter().zip(decoded) {
            match mine.get(&r.index) {
                Some(m) if *m == d => confirmed += 1,
                Some(m) => conflicts.push((r, out, d, m.clone())),
                None if s.states[r.index as usize] == ShardState::Done => unknown.push(r.index),
                None => new.push((r, out, d)),
            }
        }
        if !unknown.is_empty() {
            // Done without a stored result: the store disagrees with itself.
            return Err(CoreError::Store(StoreError::Corrupt(format!(
                "sweep `{id}`: {} done without a stored result; nothing was imported (`gamesweep store check`)",
                some_shards(&unknown)
            ))));
        }
        // Checked before anything is written: a merge that would overflow
        // refuses the whole file.
        let mut merged = s.merged.clone();
        for (r, out, _) in &new {
            merged
                .merge(out.clone())
                .map_err(|e| refused(gamesweep::sweep::in_shard(e, r.index).to_string()))?;
        }
        let added = new.len() as u32;
        // Which build computed each added result, recorded before the
        // results (a crash between leaves a shard attributed, not a result
        // unattributed).
        let earlier = attribute(
            &s.record.earlier_solvers,
            &s.record.solver_version,
            export,
            new.iter().map(|(r, _, _)| r.index),
        );
        if earlier != s.record.earlier_solvers {
            self.update_record(s, |r| r.earlier_solvers = earlier)?;
        }
        // Replication records opened here wait from now (`core::verify`).
        let now_ms = self.epoch.unix_ms(self.clock.now());
        for new in new {
            self.add_imported(s, id, who, new, now_ms)?;
        }
        // A result that differs from the stored one is a mismatch, as in
        // replication: both runs are recorded, a deciding run settles it
        // (`core::verify`, "conflict"), and the sweep is not finished until
        // then.
        let conflicted = conflicts.len() as u32;
        for conflict in conflicts {
            self.record_conflict(s, id, who, conflict, now_ms)?;
        }
        let done = s.results_stored;
        let shards = s.plan.len() as u32;
        let finished = s.finished();
        drop(st);
        self.commit.commit(|| self.store.flush())?;
        self.forget_render(id);
        let imported = Imported {
            sweep_id: id.to_string(),
            shards,
            done,
            signer: who.signer.map(|k| k.fingerprint()).unwrap_or_default(),
            trusted: who.trusted,
            merged: true,
            added,
            confirmed,
            conflicts: conflicted,
        };
        info!(sweep = %id, added, confirmed, conflicts = conflicted, done, total = shards, finished, "merged an export into a held sweep");
        Ok(imported)
    }

    /// The held sweep `id` is the file's sweep (kind, parameters, solver
    /// version unless `who` accepts a change, plan) and the file's results
    /// are of its shards, in order: the shards of them the sweep has done,
    /// and its plan.
    fn same_sweep(
        &self,
        id: &str,
        export: &Export,
        who: &Who,
    ) -> Result<(BTreeSet<u32>, Plan), CoreError> {
        let st = self.lock();
        let s = st.sweep(id)?;
        let r = &s.record;
        let as_flags = gamesweep_api::text::with_flags;
        if r.kind != export.kind || r.params != export.params {
            return Err(refused(format!(
                "this store's sweep `{id}` is `{}` and the file's is `{}`: a file merges only into the same sweep (import it under another --name)",
                as_flags(&r.kind, &r.params),
                as_flags(&export.kind, &export.params)
            )));
        }
        if r.solver_version != export.solver_version && !who.accept_solver_change {
            return Err(refused(format!(
                "this store's sweep `{id}` was run by solver version {} and the file's results by {}: results of two solver builds are merged only with `run --accept-solver-change` (the report then says which build computed which shards)",
                r.solver_version, export.solver_version
            )));
        }
        if let Some(r) = export
            .results
            .iter()
            .find(|r| r.index as usize >= s.plan.len())
        {
            return Err(refused(format!(
                "a result for shard {} beyond the plan",
                r.index
            )));
        }
        if export.results.windows(2).any(|w| w[0].index >= w[1].index) {
            return Err(refused("results not in increasing shard order".into()));
        }
        if !export.plan_is(&s.plan) {
            return Err(refused(format!(
                "the file's plan ({} shards) is not the plan of this store's sweep `{id}` ({} shards): the parts of a sweep share one plan (the same --shards)",
                export.shards(),
                s.plan.len()
            )));
        }
        let held = export
            .results
            .iter()
            .map(|r| r.index)
            .filter(|&i| s.states[i as usize] == ShardState::Done)
            .collect();
        Ok((held, s.plan.clone()))
    }

    /// The digests of the store's results of the shards `wanted` of sweep `id`.
    fn stored_digests(
        &self,
        id: &str,
        kind: &'static dyn gamesweep::sweep::SweepKind,
        wanted: &BTreeSet<u32>,
    ) -> Result<BTreeMap<u32, String>, CoreError> {
        if wanted.is_empty() {
            return Ok(BTreeMap::new());
        }
        let stored = self.store.results_of(id)?;
        wanted
            .iter()
            .filter_map(|i| stored.get(i).map(|b| (*i, b)))
            .map(|(i, b)| {
                let out = kind.decode(b).map_err(|e| {
                    CoreError::Store(StoreError::Corrupt(format!(
                        "stored result of shard {i} of `{id}` does not decode: {e}"
                    )))
                })?;
                Ok((i, digest(&out.encode())))
            })
            .collect()
    }

    /// Add the file's result `r` (decoded `out`, digest `d`) of a shard
    /// sweep `s` (`id`) has not done, as a submit does: stored, then held.
    /// Stored meanwhile (a worker's submit), it is not this import's to add.
    fn add_imported(
        &self,
        s: &mut Sweep,
        id: &str,
        who: &Who,
        (r, out, d): (&ExportResult, Output, String),
        now_ms: u64,
    ) -> Result<(), CoreError> {
        let i = r.index;
        // An untrusted file's worker names are its own word.
        let worker = who.untrusted.as_ref().unwrap_or(&r.worker).clone();
        let timing = (r.wall_us > 0 || r.cpu_us > 0).then(|| ShardTiming {
            wall_us: r.wall_us,
            cpu_us: r.cpu_us,
            worker: worker.clone(),
        });
        let record = match &who.untrusted {
            Some(u) => Some(import_run(u, d, now_ms)),
            // As a restart records a selected shard's result.
            None if s.replication.selected.contains(&i) => Some(super::replication::first_run(
                worker.clone(),
                0,
                d,
                Some(now_ms),
            )),
            None => None,
        };
        if !worker.is_empty() {
            self.store.put_origin(id, i, &worker)?;
        }
        if let Some(rec) = &record {
            self.store.put_replication(id, i, Some(rec))?;
        }
        let bytes = out.encode();
        let stored = self.store.put_result(id, i, &bytes, timing.as_ref());
        if !matches!(stored, Ok(true)) {
            if record.is_some() {
                let _ = self.store.put_replication(id, i, None);
            }
            stored?;
            // Stored meanwhile: not this import's to add.
            return Ok(());
        }
        if matches!(s.states[i as usize], ShardState::Leased(_)) {
            self.store.put_lease(id, i, None)?;
        }
        if s.failures.remove(&i).is_some() {
            self.store.put_failure(id, i, None)?;
        }
        s.set_state(i, ShardState::Done);
        s.progress.remove(&i);
        s.set_work(i, out.work());
        if !worker.is_empty() {
            s.replication.origins.insert(i, worker.clone());
        }
        if let Some(rec) = record {
            s.replication.records.insert(i, rec);
        }
        if let Some(t) = timing {
            s.set_timing(i, t);
        }
        if let Err(e) = s.merged.merge(out) {
            // Not reached: the whole file merged above.
            return Err(refused(gamesweep::sweep::in_shard(e, i).to_string()));
        }
        s.done_digest = s
            .done_digest
            .union(SetDigest::of(i, &crate::store::journal::digest(&bytes)));
        s.results_stored += 1;
        Ok(())
    }

    /// Record the file's result `r` (decoded `out`, digest `d`), which
    /// differs from the stored one (digest `stored`), as a mismatch of
    /// sweep `s` (`id`) to be settled by a deciding run.
    fn record_conflict(
        &self,
        s: &mut Sweep,
        id: &str,
        who: &Who,
        (r, out, d, stored): (&ExportResult, Output, String, String),
        now_ms: u64,
    ) -> Result<(), CoreError> {
        let i = r.index;
        let mut rec = s.replication.records.get(&i).cloned().unwrap_or_else(|| {
            let worker = s.replication.origins.get(&i).cloned().unwrap_or_default();
            super::replication::first_run(worker, 0, stored, None)
        });
        let worker = match (&who.untrusted, r.worker.as_str()) {
            (Some(u), _) => u.clone(),
            (None, "") => format!(
                "{IMPORT_PREFIX}{}",
                who.signer
                    .as_ref()
                    .map(|k| k.fingerprint())
                    .unwrap_or_default()
            ),
            (None, w) => w.to_string(),
        };
        rec.runs.push(ReplicationRun {
            worker,
            attempt: 0,
            digest: d,
            result: Some(
                String::from_utf8(out.encode())
                    .map_err(|e| refused(format!("shard {i} result is not UTF-8 JSON: {e}")))?,
            ),
        });
        rec.purpose = ReplicationPurpose::Conflict;
        rec.verdict = Verdict::Open;
        rec.since_ms = Some(now_ms);
        self.store.put_replication(id, i, Some(&rec))?;
        s.replication.records.insert(i, rec);
        warn!(sweep = %id, shard = i, "an imported result differs from the stored one: recorded as a mismatch; a deciding run settles it");
        // Runs already recorded may decide it (a verified shard).
        self.settle_now(s, i)?;
        Ok(())
    }
}

/// A sweep's plan, shared.
type Plan = std::sync::Arc<Vec<gamesweep::sweep::ShardSpec>>;

/// `import refused: …`: the one-line refusal of an import.
fn refused(m: String) -> CoreError {
    CoreError::BadRequest(format!("import refused: {m}"))
}

/// The file's results decoded, with their digests; those of shards not in
/// `held` validated too (in parallel: validation re-solves witnesses). A
/// result the store has is only compared: it changes nothing unless it
/// differs, and then the import is refused.
fn decode_for_merge(
    kind: &'static dyn gamesweep::sweep::SweepKind,
    params: &gamesweep::sweep::Params,
    plan: &Plan,
    held: &BTreeSet<u32>,
    export: &Export,
) -> Result<Vec<(Output, String)>, CoreError> {
    export
        .results
        .par_iter()
        .map(|r| {
            let shard = &plan[r.index as usize];
            kind.decode(r.result.as_bytes())
                .and_then(|out| {
                    if held.contains(&r.index) {
                        Ok(out)
                    } else {
                        kind.validate(params, shard, &out).map(|()| out)
                    }
                })
                .map(|out| {
                    let d = digest(&out.encode());
                    (out, d)
                })
                .map_err(|e| refused(format!("shard {} result: {e}", r.index)))
        })
        .collect::<Result<_, _>>()
}

/// The open verification record of a shard imported without a trusted
/// signature: its one run is the file's (`who`, result digest `digest`),
/// waiting since `since_ms`.
fn import_run(who: &str, digest: String, since_ms: u64) -> ReplicationRecord {
    ReplicationRecord {
        purpose: ReplicationPurpose::Import,
        runs: vec![ReplicationRun {
            worker: who.to_string(),
            attempt: 0,
            digest,
            result: None,
        }],
        lease: None,
        verdict: Verdict::Open,
        since_ms: Some(since_ms),
    }
}
