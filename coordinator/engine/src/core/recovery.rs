//! Startup: every stored sweep back in memory, its results decoded and
//! merged again, its leases and failures as they were — after proving,
//! against the store's journal of acknowledged work
//! ([`crate::store::journal`]), that nothing acknowledged has vanished.
//!
//! The proof is cheap (one pass that start-up makes anyway): every journaled
//! sweep is stored under its launch's sequence number, every journaled shard
//! has a stored result whose checksum (checked by the store as it loads) and
//! SHA-256 match. Anything missing refuses the start with one message naming
//! the damage, unless [`Recovery::accept_loss`]: then lost sweep records are
//! re-created from the journal (re-planned: the plan must hash as journaled),
//! damaged values dropped, exactly the lost shards re-queued, a warning
//! logged, an audit entry written, and the journal rewritten from what the
//! store now holds.

use super::model::{lease_order, CoreError, KindRef, ShardState, Sweep, MAX_FAILURES};
use super::replication::Replication;
use crate::store::journal::{self, Journal, Record, SweepEntry};
use crate::store::snapshot::SetDigest;
use crate::store::{AuditRecord, FailureRecord, Store, StoreError, StoredSweep, SweepState};
use gamesweep::kinds;
use gamesweep::sweep::SweepError;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use tracing::{info, warn};

/// How a start treats a store that lost acknowledged work.
#[derive(Clone, Debug, Default)]
pub struct Recovery {
    /// Re-create lost sweeps from the journal and run lost shards again
    /// (`--accept-loss`) instead of refusing to start.
    pub accept_loss: bool,
    /// The store's directory, named in messages (`gamesweep store check DIR`).
    pub store_dir: Option<PathBuf>,
}

/// Every sweep in `store`, in memory as of `now_ms` (Unix milliseconds),
/// once the store is proven to hold everything its journal says was
/// acknowledged (see the module docs). Leases stored at crash time stay
/// valid until they expire, so live workers keep their shards.
pub(crate) fn recover(
    store: &dyn Store,
    now_ms: u64,
    opts: &Recovery,
) -> Result<BTreeMap<String, Sweep>, CoreError> {
    let started = std::time::Instant::now();
    let loaded = check_against_journal(store, opts)?;
    let mut sweeps = BTreeMap::new();
    for stored in loaded {
        if stored.record.state == SweepState::Importing {
            // What a crash left of an import: it never became visible, so
            // nothing was acknowledged; the import can be run again.
            store.delete_sweep(&stored.record.id)?;
            warn!(sweep = %stored.record.id, results = stored.results.len(), "deleted a sweep whose import did not finish (the coordinator stopped during it); import it again");
            continue;
        }
        let s = resume(stored, now_ms)?;
        sweeps.insert(s.record.id.clone(), s);
    }
    info!(
        sweeps = sweeps.len(),
        ms = started.elapsed().as_millis() as u64,
        "store loaded and checked against its journal"
    );
    Ok(sweeps)
}

/// What a journaled sweep is missing in the store.
#[derive(Debug, Default)]
struct Loss {
    /// The sweep's id.
    id: String,
    /// Its record (and plan) is gone.
    record_lost: bool,
    /// Acknowledged shards without a stored result.
    missing: Vec<u32>,
    /// Acknowledged shards whose stored bytes are not the journaled ones.
    differing: Vec<u32>,
}

/// At most `n` shard numbers, then `...`.
fn some(shards: &[u32], n: usize) -> String {
    let mut t: Vec<String> = shards.iter().take(n).map(u32::to_string).collect();
    if shards.len() > n {
        t.push("...".into());
    }
    t.join(", ")
}

impl Loss {
    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.record_lost {
            parts.push(format!(
                "sweep `{}` lost (its record is gone) with {} acknowledged shard results",
                self.id,
                self.missing.len()
            ));
        } else if !self.missing.is_empty() {
            parts.push(format!(
                "{} acknowledged shard result(s) missing in `{}` (shards {})",
                self.missing.len(),
                self.id,
                some(&self.missing, 8)
            ));
        }
        if !self.differing.is_empty() {
            parts.push(format!(
                "{} stored result(s) of `{}` differ from what was acknowledged (shards {})",
                self.differing.len(),
                self.id,
                some(&self.differing, 8)
            ));
        }
        parts.join(", ")
    }

    fn any(&self) -> bool {
        self.record_lost || !self.missing.is_empty() || !self.differing.is_empty()
    }
}

/// The refusal: what is damaged, and the three ways out.
fn refusal(what: &str, opts: &Recovery) -> CoreError {
    let dir = opts
        .store_dir
        .as_ref()
        .map_or("DIR".to_string(), |d| d.display().to_string());
    CoreError::Store(StoreError::Damaged(format!(
        "store damaged: {what}; run `gamesweep store check {dir}`, restore it from an --export-every checkpoint (deploy/README.md, \"Recovering a damaged store\"), or restart with --accept-loss to run exactly the lost shards again"
    )))
}

/// Load the store, strictly; with `accept_loss`, drop damaged values first.
fn load(store: &dyn Store, opts: &Recovery) -> Result<Vec<StoredSweep>, CoreError> {
    match store.load_all() {
        Ok(all) => Ok(all),
        Err(StoreError::Corrupt(what)) if opts.accept_loss => {
            let damage = store.scan(true)?;
            for d in &damage {
                warn!(damage = %d.what, "--accept-loss: damaged value dropped");
            }
            warn!(first = %what, values = damage.len(), "--accept-loss: damaged values dropped from the store");
            store.load_all().map_err(|e| match e {
                StoreError::Corrupt(what) => refusal(&what, opts),
                e => e.into(),
            })
        }
        Err(StoreError::Corrupt(what)) => Err(refusal(&what, opts)),
        Err(e) => Err(e.into()),
    }
}

/// The proof of the module docs; returns the stored sweeps to resume.
/// First with the sweeps' snapshots ([`crate::store::snapshot`]): a
/// clean store then proves itself without reading the results the
/// snapshots cover. Any doubt (a snapshot the journal does not bear
/// out, any damage) and the check runs again on every stored result, which
/// names the damage exactly as without snapshots.
fn check_against_journal(
    store: &dyn Store,
    opts: &Recovery,
) -> Result<Vec<StoredSweep>, CoreError> {
    let read = store.journal()?;
    if let Some(r) = read.as_ref().filter(|r| r.damage.is_none()) {
        match store.load_for_start() {
            Ok(loaded) if loaded.iter().any(|s| s.snapshot.is_some()) => {
                match check_loaded(store, opts, &r.journal, None, loaded, true)? {
                    Checked::Clean(loaded) => return Ok(loaded),
                    Checked::Doubt(why) => {
                        warn!(why = %why, "not starting from the snapshots; reading every stored result");
                    }
                }
            }
            _ => {}
        }
    }
    let loaded = load(store, opts)?;
    let Some(read) = read else {
        return Ok(loaded);
    };
    match check_loaded(
        store,
        opts,
        &read.journal,
        read.damage.as_ref(),
        loaded,
        false,
    )? {
        Checked::Clean(loaded) => Ok(loaded),
        Checked::Doubt(_) => unreachable!("only a check from snapshots doubts"),
    }
}

/// What [`check_loaded`] found.
enum Checked {
    /// Proven (or recovered with `--accept-loss`): the sweeps to resume.
    Clean(Vec<StoredSweep>),
    /// From snapshots: something is not as the journal says (the reason);
    /// check again on every stored result.
    Doubt(String),
}

/// The proof on `loaded` (with `from_snapshots`, as
/// [`Store::load_for_start`] loaded it: then any problem is a doubt, and
/// nothing is written but the adoption of unjournaled results).
fn check_loaded(
    store: &dyn Store,
    opts: &Recovery,
    journal: &Journal,
    damage: Option<&(u64, String)>,
    mut loaded: Vec<StoredSweep>,
    from_snapshots: bool,
) -> Result<Checked, CoreError> {
    let mut problems = Vec::new();
    if let Some((at, why)) = damage {
        problems.push(format!(
            "the journal is damaged at byte {at} ({why}; what it recorded after that cannot be checked)"
        ));
    }
    // Sweeps the journal calls deleted: a delete cut short by a crash.
    let (gone, kept): (Vec<StoredSweep>, Vec<StoredSweep>) = loaded
        .into_iter()
        .partition(|s| journal.deleted.contains(&s.record.seq));
    for s in gone {
        info!(sweep = %s.record.id, "finishing the deletion of a sweep cut short by a crash");
        store.delete_sweep(&s.record.id)?;
    }
    loaded = kept;
    let mut losses = Vec::new();
    let mut adopt = Vec::new();
    for (&seq, js) in &journal.sweeps {
        let id = &js.entry.record.id;
        let mut loss = Loss {
            id: id.clone(),
            ..Loss::default()
        };
        match loaded
            .iter()
            .find(|s| &s.record.id == id && s.record.seq == seq)
        {
            None => {
                loss.record_lost = true;
                loss.missing = js.done.keys().copied().collect();
            }
            Some(s) => {
                // The digests on all cores: the largest part of the check.
                let digests: BTreeMap<u32, [u8; 32]> = s
                    .results
                    .par_iter()
                    .map(|(&i, bytes)| (i, journal::digest(bytes)))
                    .collect();
                if let Some(cp) = &s.snapshot {
                    // The snapshot must cover exactly acknowledged shards
                    // with exactly the acknowledged bytes (its set digest
                    // from the journal's, on all cores).
                    let (n, sum) = js
                        .done
                        .par_iter()
                        .filter(|(&i, _)| cp.covers(i))
                        .map(|(&i, d)| (1u64, SetDigest::of(i, d)))
                        .reduce(
                            || (0, SetDigest::default()),
                            |a, b| (a.0 + b.0, a.1.union(b.1)),
                        );
                    if n != cp.count() || sum.hex() != cp.digest {
                        return Ok(Checked::Doubt(format!(
                            "the snapshot of `{id}` does not match the journal ({n} of its {} shards journaled{})",
                            cp.count(),
                            if n == cp.count() { ", other digests" } else { "" }
                        )));
                    }
                }
                for (&i, d) in &js.done {
                    if s.snapshot.as_ref().is_some_and(|cp| cp.covers(i)) {
                        continue;
                    }
                    match digests.get(&i) {
                        None => loss.missing.push(i),
                        Some(got) if got != d => loss.differing.push(i),
                        Some(_) => {}
                    }
                }
                for (&i, &digest) in &digests {
                    if !js.done.contains_key(&i) {
                        // Flushed to sled, not yet to the journal: a crash
                        // between the two (never acknowledged, but kept).
                        adopt.push(Record::Done {
                            seq,
                            index: i,
                            digest,
                        });
                    }
                }
            }
        }
        if loss.any() {
            losses.push(loss);
        }
    }
    for s in &loaded {
        if !journal.sweeps.contains_key(&s.record.seq) {
            if from_snapshots && s.snapshot.is_some() {
                // Its covered results would go unjournaled.
                return Ok(Checked::Doubt(format!(
                    "sweep `{}` has a snapshot but is not journaled",
                    s.record.id
                )));
            }
            adopt.extend(records_of(s));
        }
    }
    problems.extend(losses.iter().map(Loss::describe));
    if from_snapshots && !problems.is_empty() {
        return Ok(Checked::Doubt(problems.join("; ")));
    }
    if problems.is_empty() {
        if !adopt.is_empty() {
            info!(
                records = adopt.len(),
                "journaling stored work the journal lacked (a crash between sled's flush and the journal's)"
            );
            store.append_journal(&adopt)?;
        }
        return Ok(Checked::Clean(loaded));
    }
    if !opts.accept_loss {
        return Err(refusal(&problems.join("; "), opts));
    }
    accept_loss(store, journal, &losses, &problems)?;
    // What the store holds now is all there is: journal exactly that.
    let loaded = store.load_all()?;
    let records: Vec<Record> = loaded.iter().flat_map(records_of).collect();
    store.rewrite_journal(&records)?;
    Ok(Checked::Clean(loaded))
}

/// Journal records saying `s` and its stored results exist.
fn records_of(s: &StoredSweep) -> Vec<Record> {
    let plan = serde_json::to_vec(&s.plan).expect("plans serialize");
    let mut out = vec![Record::Sweep(Box::new(SweepEntry {
        record: s.record.clone(),
        shards: s.plan.len() as u32,
        plan_sha256: journal::digest_hex(&plan),
    }))];
    out.extend(s.results.iter().map(|(&index, bytes)| Record::Done {
        seq: s.record.seq,
        index,
        digest: journal::digest(bytes),
    }));
    out
}

/// `--accept-loss`: re-create lost sweeps, drop differing results, log and
/// audit what runs again.
fn accept_loss(
    store: &dyn Store,
    journal: &Journal,
    losses: &[Loss],
    problems: &[String],
) -> Result<(), CoreError> {
    warn!(damage = %problems.join("; "), "--accept-loss: starting on a damaged store");
    // What was lost, per sweep, said once at the end.
    let mut summary = Vec::new();
    for loss in losses {
        let Some(js) = journal.by_id(&loss.id) else {
            continue;
        };
        if loss.record_lost {
            let record = &js.entry.record;
            let plan = kinds::find(&record.kind)
                .map_err(|e| e.to_string())
                .and_then(|kind| {
                    kind.plan(&record.params, record.target_shards)
                        .map_err(|e| e.to_string())
                });
            let bytes = plan
                .as_ref()
                .map(|p| serde_json::to_vec(p).expect("plans serialize"));
            let why = match (&plan, &bytes) {
                (Err(e), _) => Some(format!("this build cannot plan it ({e})")),
                (Ok(plan), Ok(bytes))
                    if plan.len() as u32 != js.entry.shards
                        || journal::digest_hex(bytes) != js.entry.plan_sha256 =>
                {
                    Some(format!(
                        "this build plans {} shards for it, not the {} it was launched with (or plans them differently)",
                        plan.len(),
                        js.entry.shards
                    ))
                }
                _ => None,
            };
            if let Some(why) = why {
                // Lost for good here: the other sweeps go on; the journal
                // is rewritten from what the store holds, without it.
                warn!(sweep = %loss.id, why = %why, "--accept-loss: a lost sweep cannot be re-created; restore it from an --export-every checkpoint with the build that launched it");
                summary.push(format!(
                    "sweep `{}` lost for good ({why}; its {} acknowledged shard results with it)",
                    loss.id,
                    js.done.len()
                ));
                continue;
            }
            let plan = plan.expect("checked above");
            // An older launch of the same id left behind by sled goes first.
            store.delete_sweep(&loss.id)?;
            store.create_sweep(record, &plan)?;
            warn!(sweep = %loss.id, shards = plan.len(), "--accept-loss: lost sweep re-created from the journal");
        }
        for &i in &loss.differing {
            store.remove_result(&loss.id, i)?;
        }
        let mut requeued: Vec<u32> = loss
            .missing
            .iter()
            .chain(&loss.differing)
            .copied()
            .collect();
        requeued.sort_unstable();
        // A lease stored for a lost shard is from before the damage (its
        // result was acknowledged once): the shard is pending now, not held.
        for &i in &requeued {
            store.put_lease(&loss.id, i, None)?;
        }
        warn!(
            sweep = %loss.id,
            shards = requeued.len(),
            which = %some(&requeued, 64),
            "--accept-loss: lost shards re-queued"
        );
        summary.push(format!(
            "sweep `{}`: {}{} of {} shards lost and queued again ({})",
            loss.id,
            if loss.record_lost {
                "its record (re-created from the journal), "
            } else {
                ""
            },
            requeued.len(),
            js.entry.shards,
            some(&requeued, 16)
        ));
        let unix_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        store.append_audit(&AuditRecord {
            unix_ms,
            role: "operator".into(),
            token_fingerprint: String::new(),
            peer: "local (--accept-loss)".into(),
            action: "accept-loss".into(),
            sweep_id: loss.id.clone(),
            detail: format!(
                "{}; re-queued {} shard(s): {}",
                loss.describe(),
                requeued.len(),
                some(&requeued, 64)
            ),
        })?;
    }
    store.flush()?;
    let whole: Vec<&str> = journal
        .sweeps
        .values()
        .map(|js| js.entry.record.id.as_str())
        .filter(|id| !losses.iter().any(|l| l.id == *id))
        .collect();
    if !whole.is_empty() {
        summary.push(format!(
            "kept whole: {}",
            whole
                .iter()
                .map(|id| format!("`{id}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    warn!(lost = %summary.join("; "), "--accept-loss: what was lost");
    Ok(())
}

fn corrupt(what: String) -> CoreError {
    CoreError::Store(StoreError::Corrupt(what))
}

/// One stored sweep in memory.
pub(super) fn resume(stored: StoredSweep, now_ms: u64) -> Result<Sweep, CoreError> {
    let StoredSweep {
        record,
        plan,
        results,
        leases,
        stats,
        timings,
        failures,
        replication,
        origins,
        snapshot,
    } = stored;
    // Replicated validation (core/replication.rs).
    let unrecorded = Replication::unrecorded(&record, &replication, &results);
    let kind =
        kinds::find(&record.kind).map_err(|e| corrupt(format!("sweep `{}`: {e}", record.id)))?;
    let mut states = vec![ShardState::Pending; plan.len()];
    let mut work = vec![0u64; plan.len()];
    let mut merged = kind.empty();
    let mut done_digest = SetDigest::default();
    let mut snapshotted = 0u32;
    let mut worker_work_base = BTreeMap::new();
    let lazy = snapshot.is_some();
    if let Some(cp) = snapshot {
        // What the snapshot covers (the recovery check proved it against
        // the journal): its merged result, done states and positions.
        let bad = |what: String| corrupt(format!("snapshot of `{}`: {what}", record.id));
        merged = kind.decode(&cp.merged).map_err(|e| bad(e.to_string()))?;
        done_digest = SetDigest::from_hex(&cp.digest).ok_or_else(|| bad("bad digest".into()))?;
        for (i, w) in cp.shards().zip(&cp.work) {
            states[i as usize] = ShardState::Done;
            work[i as usize] = *w;
        }
        snapshotted = cp.count() as u32;
        worker_work_base = cp.worker_work;
    }
    for (i, bytes) in results {
        let bad = |e: SweepError| corrupt(format!("result of shard {i} of `{}`: {e}", record.id));
        let (Some(state), Some(w)) = (states.get_mut(i as usize), work.get_mut(i as usize)) else {
            return Err(corrupt(format!(
                "result for shard {i} beyond the plan of `{}`",
                record.id
            )));
        };
        done_digest = done_digest.union(SetDigest::of(i, &journal::digest(&bytes)));
        let r = kind.decode(&bytes).map_err(bad)?;
        *state = ShardState::Done;
        *w = r.work();
        merged.merge(r).map_err(bad)?;
    }
    if let Some(smp) = &record.sample {
        if smp.shards.iter().any(|&i| i as usize >= plan.len()) {
            return Err(corrupt(format!(
                "sample of `{}` names a shard beyond its plan",
                record.id
            )));
        }
    }
    // Attempt numbers continue from the stored leases (a done shard's
    // lease is deleted; its attempts no longer matter).
    let mut attempts: BTreeMap<u32, u32> = leases.iter().map(|(&i, l)| (i, l.attempt)).collect();
    for (i, mut l) in leases {
        if let Some(s @ ShardState::Pending) = states.get_mut(i as usize) {
            // A lease from a store that kept no grant times counts from now.
            if l.granted_ms == 0 {
                l.granted_ms = now_ms;
            }
            *s = ShardState::Leased(l);
        }
    }
    let failures: BTreeMap<u32, FailureRecord> = failures
        .into_iter()
        .filter(|(i, _)| (*i as usize) < plan.len())
        .collect();
    for (i, f) in &failures {
        let set_aside = f.set_aside.unwrap_or(f.count >= MAX_FAILURES);
        if set_aside && states[*i as usize] != ShardState::Done {
            states[*i as usize] = ShardState::Failed;
        }
    }
    let results_stored = states.iter().filter(|s| **s == ShardState::Done).count() as u32;
    info!(sweep = %record.id, done = results_stored, total = plan.len(), "resuming sweep");
    let order = lease_order(&plan, &record);
    let replication = Replication::restore(
        &record,
        plan.len(),
        replication,
        origins,
        unrecorded,
        &mut attempts,
    );
    Ok(Sweep {
        record,
        kind: KindRef(kind),
        plan: std::sync::Arc::new(plan),
        order,
        rank: Vec::new(),
        work,
        timings,
        failures,
        states,
        attempts,
        progress: HashMap::new(),
        merged,
        results_stored,
        duplicates_ignored: stats.duplicates_ignored,
        leases_expired: stats.leases_expired,
        leases_released: stats.leases_released,
        refused_submits: stats.refused_submits,
        refused_renewals: stats.refused_renewals,
        refused_fails: stats.refused_fails,
        results_invalid: stats.results_invalid,
        results_invalid_by: stats.results_invalid_by,
        recounted: stats.recounted,
        recounts_refused: stats.recounts_refused,
        retired: HashMap::new(),
        rate_samples: Default::default(),
        growth: HashMap::new(),
        patience: Default::default(),
        pass: 0,
        replication,
        events: Default::default(),
        tally: Default::default(),
        sums: Default::default(),
        bins: Default::default(),
        worker_work: Default::default(),
        sampled: Default::default(),
        estimate: (0, 0),
        done_digest,
        snapshotted,
        lazy,
        worker_work_base,
    }
    .counted())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Core, Granted, LaunchSpec, ManualClock};
    use crate::store::SledStore;
    use std::path::Path;
    use std::sync::Arc;
    use std::time::Duration;

    /// The store in `dir`, once the previous open of it has let go.
    fn store(dir: &Path) -> Arc<SledStore> {
        Arc::new(SledStore::open_when_free(dir))
    }

    /// The sled database in `dir`, opened directly (to damage it as a
    /// disk would), with the same bounded wait for sled's lock as [`store`].
    fn raw(dir: &Path) -> sled::Db {
        for _ in 0..250 {
            match sled::open(dir) {
                Ok(db) => return db,
                Err(e) if e.to_string().contains("lock") => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                Err(e) => panic!("{e}"),
            }
        }
        panic!("store still locked");
    }

    fn open(store: Arc<SledStore>, dir: &Path, accept_loss: bool) -> Result<Core, CoreError> {
        Core::open_recovering(
            store,
            Duration::from_secs(60),
            Arc::new(ManualClock::new()),
            &Recovery {
                accept_loss,
                store_dir: Some(dir.to_path_buf()),
            },
        )
    }

    /// A finished uvg n ≤ 5 sweep `s` in `dir`; its merged result's encoding.
    fn finished(dir: &Path) -> Vec<u8> {
        let c = open(store(dir), dir, false).unwrap();
        c.launch(&LaunchSpec {
            replicate_all: false,
            part: None,
            kind: "uvg".into(),
            params: [("max_n".to_string(), 5)].into(),
            name: Some("s".into()),
            target_shards: 4,
            resume_existing: false,
            sample: None,
            verify_ppm: 0,
            verify_seed: None,
            priority: 0,
        })
        .unwrap();
        for g in c
            .lease("w", &crate::core::solver_version(), 100)
            .unwrap()
            .leases
        {
            assert!(run_and_submit(&c, &g));
        }
        c.flush().unwrap();
        let merged = c.merged("s").unwrap().output.encode();
        drop(c);
        // As a crash just before the finished sweep's snapshot leaves it
        // (the tests of damage need a start that reads every result).
        let s = store(dir);
        drop(s);
        let db = raw(dir);
        let t = db.open_tree("checkpoints").unwrap();
        for kv in t.iter() {
            t.remove(kv.unwrap().0).unwrap();
        }
        db.flush().unwrap();
        merged
    }

    /// Launch uvg n ≤ `max_n` as `s` in `c` with `target` shards.
    fn launch(c: &Core, max_n: u64, target: u32) {
        c.launch(&LaunchSpec {
            replicate_all: false,
            part: None,
            kind: "uvg".into(),
            params: [("max_n".to_string(), max_n)].into(),
            name: Some("s".into()),
            target_shards: target,
            resume_existing: false,
            sample: None,
            verify_ppm: 0,
            verify_seed: None,
            priority: 0,
        })
        .unwrap();
    }

    /// Run the leased shard `g` and submit its result as worker `w`:
    /// accepted?
    fn run_and_submit(c: &Core, g: &Granted) -> bool {
        crate::core::tests::run_and_submit(c, "w", g)
    }

    /// The merged result of sweep `s` (`launch(max_n, target)`) run to the
    /// end in memory without a restart.
    fn uninterrupted(max_n: u64, target: u32) -> Vec<u8> {
        let c = Core::open(
            Arc::new(crate::store::MemStore::new()),
            Duration::from_secs(60),
        )
        .unwrap();
        launch(&c, max_n, target);
        while run_some(&c, 100) > 0 {}
        c.merged("s").unwrap().output.encode()
    }

    /// Lease up to `n` shards of `c` and submit their results, flushed;
    /// returns how many were accepted.
    fn run_some(c: &Core, n: u32) -> u32 {
        let mut accepted = 0;
        for g in c
            .lease("w", &crate::core::solver_version(), n)
            .unwrap()
            .leases
        {
            accepted += u32::from(run_and_submit(c, &g));
        }
        c.flush().unwrap();
        accepted
    }

    /// Sweep `s` of `c`: (done shards, shards).
    fn done_of(c: &Core) -> (u32, u32) {
        let st = c.lock();
        let s = st.sweeps.get("s").unwrap();
        (s.results_stored, s.plan.len() as u32)
    }

    #[test]
    fn the_flush_of_a_sweeps_last_result_writes_its_snapshot_at_once() {
        // Snapshots are otherwise at least 10 s apart: a crash right after
        // a sweep finished would leave a restart to read its last results.
        let dir = tempfile::tempdir().unwrap();
        let c = open(store(dir.path()), dir.path(), false).unwrap();
        launch(&c, 5, 4);
        assert_eq!(run_some(&c, 1), 1);
        let cp = |c: &Core| {
            let all = c.store.load_for_start().unwrap();
            all[0].snapshot.as_ref().map(|cp| cp.count())
        };
        let early = cp(&c);
        while run_some(&c, 1) > 0 {}
        let (done, shards) = done_of(&c);
        assert_eq!(done, shards);
        assert_eq!(cp(&c), Some(u64::from(shards)), "before: {early:?}");
        assert_eq!(c.snapshot().unwrap(), 0, "nothing left to snapshot");
    }

    #[test]
    fn a_start_from_a_snapshot_does_not_read_the_results_it_covers() {
        let dir = tempfile::tempdir().unwrap();
        let want = finished(dir.path());
        {
            let c = open(store(dir.path()), dir.path(), false).unwrap();
            assert_eq!(
                c.snapshot().unwrap(),
                1,
                "one sweep with results since none"
            );
            assert_eq!(c.snapshot().unwrap(), 0, "nothing new since");
        }
        // sled loses a covered result (not through the core): the start
        // does not read it, and the merged result is the snapshot's.
        {
            let db = raw(dir.path());
            db.open_tree("results")
                .unwrap()
                .remove(b"s\0\0\0\0\x01")
                .unwrap()
                .expect("shard 1's result was there");
            db.flush().unwrap();
        }
        let st = store(dir.path());
        let c = open(st.clone(), dir.path(), false).expect("started from the snapshot");
        assert_eq!(c.merged("s").unwrap().output.encode(), want);
        drop(c);
        // `store check` finds it.
        let damage = st.scan(false).unwrap();
        assert!(
            damage.iter().any(|d| d.tree == "checkpoints"
                && d.what.contains(
                    "tree `checkpoints`, sweep `s`: 1 result(s) it covers are missing (shards 1)"
                )),
            "{damage:?}"
        );
        // Purged (the snapshot dropped), the start reads every result
        // again and names the loss.
        st.scan(true).unwrap();
        drop(st);
        let err = open(store(dir.path()), dir.path(), false)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            err.contains("1 acknowledged shard result(s) missing in `s` (shards 1)"),
            "{err}"
        );
    }

    #[test]
    fn a_snapshot_the_journal_does_not_bear_out_is_passed_over() {
        let dir = tempfile::tempdir().unwrap();
        let want = finished(dir.path());
        let (s0, good) = {
            let c = open(store(dir.path()), dir.path(), false).unwrap();
            c.snapshot().unwrap();
            let st = c.lock();
            (st.sweeps["s"].record.seq, st.sweeps["s"].snapshot())
        };
        let st = store(dir.path());
        // A snapshot merging one shard twice (its digest made to match
        // its own claim, not the journal's).
        let mut bad = good.clone();
        let r = kinds::find("uvg")
            .unwrap()
            .decode(&st.results_of("s").unwrap()[&0])
            .unwrap();
        let mut m = kinds::find("uvg").unwrap().decode(&bad.merged).unwrap();
        m.merge(r).unwrap();
        bad.merged = m.encode();
        bad.digest = SetDigest::from_hex(&bad.digest)
            .unwrap()
            .union(SetDigest::of(9, &[0; 32]))
            .hex();
        assert_eq!(bad.seq, s0);
        st.put_snapshot("s", &bad).unwrap();
        drop(st);
        let c = open(store(dir.path()), dir.path(), false).unwrap();
        assert_eq!(
            c.merged("s").unwrap().output.encode(),
            want,
            "every result read and merged again"
        );
        drop(c);
        // A snapshot whose value is damaged (its checksum fails).
        {
            let db = raw(dir.path());
            let t = db.open_tree("checkpoints").unwrap();
            let mut v = t.get(PART_0).unwrap().unwrap().to_vec();
            let last = v.len() - 1;
            v[last] ^= 1;
            t.insert(PART_0, v).unwrap();
            db.flush().unwrap();
        }
        let c = open(store(dir.path()), dir.path(), false).unwrap();
        assert_eq!(c.merged("s").unwrap().output.encode(), want);
    }

    /// Whether sweep `s` of `c` was started from its snapshot.
    fn from_snapshot(c: &Core) -> bool {
        c.lock().sweeps["s"].lazy
    }

    /// The key of the first (here, the only) part of sweep `s`'s snapshot.
    const PART_0: &[u8] = b"s\0\0\0\0\0";

    /// The sealed snapshot of sweep `s` in the store in `dir` (one part:
    /// the number of parts, then the snapshot), and to put one back.
    fn snapshot_value(dir: &Path) -> Vec<u8> {
        let db = raw(dir);
        let t = db.open_tree("checkpoints").unwrap();
        assert_eq!(t.len(), 1, "a snapshot this small is one part");
        let v = t.get(PART_0).unwrap();
        v.expect("a snapshot is stored").to_vec()
    }

    fn put_snapshot_value(dir: &Path, value: &[u8]) {
        let db = raw(dir);
        db.open_tree("checkpoints")
            .unwrap()
            .insert(PART_0, value)
            .unwrap();
        db.flush().unwrap();
    }

    #[test]
    fn a_truncated_snapshot_under_a_valid_checksum_is_passed_over() {
        let dir = tempfile::tempdir().unwrap();
        let want = finished(dir.path());
        let c = open(store(dir.path()), dir.path(), false).unwrap();
        assert_eq!(c.snapshot().unwrap(), 1);
        drop(c);
        let c = open(store(dir.path()), dir.path(), false).unwrap();
        assert!(from_snapshot(&c), "the whole snapshot is used");
        drop(c);
        let sealed = snapshot_value(dir.path());
        let payload = crate::store::unseal("checkpoints", PART_0, &sealed)
            .unwrap()
            .to_vec();
        for cut in [payload.len() - 1, payload.len() / 2, 4 + 3] {
            // Cut, and sealed again so that its checksum holds.
            put_snapshot_value(
                dir.path(),
                &crate::store::seal("checkpoints", PART_0, &payload[..cut]),
            );
            let c = open(store(dir.path()), dir.path(), false).unwrap();
            assert!(!from_snapshot(&c), "cut at {cut}: every result read");
            assert_eq!(c.merged("s").unwrap().output.encode(), want, "cut at {cut}");
        }
    }

    #[test]
    fn a_snapshot_older_than_the_journal_is_passed_over() {
        let dir = tempfile::tempdir().unwrap();
        let want = uninterrupted(5, 8);
        let c = open(store(dir.path()), dir.path(), false).unwrap();
        launch(&c, 5, 8);
        assert_eq!(run_some(&c, 2), 2);
        assert_eq!(c.snapshot().unwrap(), 1);
        let (old_done, shards) = done_of(&c);
        assert!(old_done < shards);
        drop(c);
        let old = snapshot_value(dir.path());
        // More results, a newer snapshot (the older one's fresh entries
        // are gone with it), then the older snapshot back in its place.
        let c = open(store(dir.path()), dir.path(), false).unwrap();
        while run_some(&c, 100) > 0 {}
        // Written by the flush of the last result (the sweep finished).
        assert_eq!(c.snapshot().unwrap(), 0);
        drop(c);
        assert_ne!(snapshot_value(dir.path()), old);
        put_snapshot_value(dir.path(), &old);
        let c = open(store(dir.path()), dir.path(), false).unwrap();
        assert!(!from_snapshot(&c), "every result read");
        assert_eq!(done_of(&c), (shards, shards));
        assert_eq!(c.merged("s").unwrap().output.encode(), want);
    }

    /// Restarts at random moments, snapshots at random moments: the
    /// merged result is byte for byte the uninterrupted run's, every shard
    /// counted once.
    #[test]
    fn restarts_and_snapshots_at_random_moments_change_nothing() {
        use rand::{Rng, SeedableRng};
        let dir = tempfile::tempdir().unwrap();
        let want = uninterrupted(6, 24);
        for seed in 0..4u64 {
            let _ = std::fs::remove_dir_all(dir.path());
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut c = open(store(dir.path()), dir.path(), false).unwrap();
            launch(&c, 6, 24);
            let (mut done, shards) = done_of(&c);
            for _step in 0..200 {
                if done == shards {
                    break;
                }
                match rng.random_range(0..4) {
                    0 => {
                        c.snapshot().unwrap();
                    }
                    1 => {
                        drop(c);
                        c = open(store(dir.path()), dir.path(), false).unwrap();
                        assert_eq!(done_of(&c).0, done, "nothing lost or counted twice");
                    }
                    _ => {
                        let n = rng.random_range(1..5);
                        done += run_some(&c, n);
                    }
                }
            }
            assert_eq!(done_of(&c), (shards, shards), "seed {seed}");
            assert_eq!(c.merged("s").unwrap().output.encode(), want, "seed {seed}");
            drop(c);
            let c = open(store(dir.path()), dir.path(), false).unwrap();
            assert_eq!(c.merged("s").unwrap().output.encode(), want, "seed {seed}");
        }
    }

    #[test]
    fn a_lost_result_refuses_the_start_and_accept_loss_runs_exactly_it_again() {
        let dir = tempfile::tempdir().unwrap();
        let want = finished(dir.path());
        // sled loses shard 1's result (not through the core: no journal record).
        {
            let s = store(dir.path());
            s.remove_result("s", 1).unwrap();
            s.flush().unwrap();
        }
        let err = open(store(dir.path()), dir.path(), false)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            err.contains("store damaged: 1 acknowledged shard result(s) missing in `s` (shards 1)")
                && err.contains("--accept-loss")
                && err.contains(&format!("store check {}", dir.path().display())),
            "{err}"
        );
        let c = open(store(dir.path()), dir.path(), true).unwrap();
        let leases = c
            .lease("w", &crate::core::solver_version(), 100)
            .unwrap()
            .leases;
        assert_eq!(
            leases.iter().map(|g| g.shard.index).collect::<Vec<_>>(),
            [1],
            "exactly the lost shard runs again"
        );
        let audit = c.store.audit_tail(10).unwrap();
        assert!(
            audit
                .iter()
                .any(|a| a.action == "accept-loss" && a.detail.contains("re-queued 1 shard(s): 1")),
            "{audit:?}"
        );
        assert!(run_and_submit(&c, &leases[0]));
        c.flush().unwrap();
        assert_eq!(c.merged("s").unwrap().output.encode(), want);
        drop(c);
        // Clean from now on.
        let c = open(store(dir.path()), dir.path(), false).unwrap();
        assert_eq!(c.merged("s").unwrap().output.encode(), want);
    }

    #[test]
    fn a_lost_sweep_record_is_named_and_re_created_from_the_journal() {
        let dir = tempfile::tempdir().unwrap();
        let want = finished(dir.path());
        {
            // sled loses the sweep: record, plan and results.
            let db = raw(dir.path());
            for t in ["sweeps", "plans"] {
                db.open_tree(t).unwrap().remove("s").unwrap();
            }
            let results = db.open_tree("results").unwrap();
            for kv in results.scan_prefix(b"s\0") {
                results.remove(kv.unwrap().0).unwrap();
            }
            db.flush().unwrap();
        }
        let err = open(store(dir.path()), dir.path(), false)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            err.contains("sweep `s` lost (its record is gone) with 4 acknowledged shard results"),
            "{err}"
        );
        let c = open(store(dir.path()), dir.path(), true).unwrap();
        let leases = c
            .lease("w", &crate::core::solver_version(), 100)
            .unwrap()
            .leases;
        assert_eq!(leases.len(), 4, "the re-created sweep runs all its shards");
        assert!(c.merged("s").is_err());
        // Its results again: the numbers are the same.
        for g in leases {
            assert!(run_and_submit(&c, &g));
        }
        c.flush().unwrap();
        assert_eq!(c.merged("s").unwrap().output.encode(), want);
        drop(c);
        let c = open(store(dir.path()), dir.path(), false).unwrap();
        assert_eq!(c.merged("s").unwrap().output.encode(), want);
    }

    #[test]
    fn a_damaged_value_refuses_the_start_naming_tree_sweep_and_shard() {
        let dir = tempfile::tempdir().unwrap();
        finished(dir.path());
        {
            let db = raw(dir.path());
            let results = db.open_tree("results").unwrap();
            let key = b"s\0\0\0\0\x02";
            let mut v = results.get(key).unwrap().unwrap().to_vec();
            let last = v.len() - 1;
            v[last] ^= 1;
            results.insert(key, v).unwrap();
            db.flush().unwrap();
        }
        let err = open(store(dir.path()), dir.path(), false)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            err.contains("tree `results`, sweep `s`, shard 2: checksum mismatch"),
            "{err}"
        );
        // --accept-loss drops it and runs shard 2 again.
        let c = open(store(dir.path()), dir.path(), true).unwrap();
        let leases = c
            .lease("w", &crate::core::solver_version(), 100)
            .unwrap()
            .leases;
        assert_eq!(
            leases.iter().map(|g| g.shard.index).collect::<Vec<_>>(),
            [2]
        );
    }

    #[test]
    fn a_result_changed_under_a_valid_checksum_is_caught_by_its_digest() {
        let dir = tempfile::tempdir().unwrap();
        let want = finished(dir.path());
        {
            // Shard 0's bytes where shard 3's were, sealed for shard 3's key:
            // what sled going back to another value would look like.
            let db = raw(dir.path());
            let results = db.open_tree("results").unwrap();
            let (k0, k3) = (b"s\0\0\0\0\x00", b"s\0\0\0\0\x03");
            let v0 = results.get(k0).unwrap().unwrap();
            let bytes = crate::store::unseal("results", k0, &v0).unwrap();
            results
                .insert(k3, crate::store::seal("results", k3, bytes))
                .unwrap();
            db.flush().unwrap();
        }
        let err = open(store(dir.path()), dir.path(), false)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            err.contains("1 stored result(s) of `s` differ from what was acknowledged (shards 3)"),
            "{err}"
        );
        let c = open(store(dir.path()), dir.path(), true).unwrap();
        assert!(c.merged("s").is_err(), "shard 3 is pending again");
        let leases = c
            .lease("w", &crate::core::solver_version(), 100)
            .unwrap()
            .leases;
        assert_eq!(
            leases.iter().map(|g| g.shard.index).collect::<Vec<_>>(),
            [3]
        );
        assert!(run_and_submit(&c, &leases[0]));
        assert_eq!(c.merged("s").unwrap().output.encode(), want);
    }

    /// The start-up cost of the journal check at 1,000,000 done shards
    /// (noop results of 64 padding bytes, as the load harness sends):
    /// `bench/startup-check.sh`. Prints the whole start and the check's
    /// parts (journal replay, SHA-256 of every result, seal CRCs). A
    /// measurement, not a test: compiled only with the `measurements`
    /// feature, so `cargo test -- --include-ignored` never runs it.
    #[cfg(feature = "measurements")]
    #[test]
    #[ignore = "a benchmark: builds a 1,000,000-shard store (about a minute): bench/startup-check.sh"]
    fn startup_check_cost_at_a_million_done_shards() {
        use std::time::Instant;
        const N: u32 = 1_000_000;
        let dir = tempfile::tempdir().unwrap();
        let kind = kinds::find("noop").unwrap();
        let params = kind
            .resolve_params(&[("result_bytes".to_string(), 64)].into())
            .unwrap();
        let plan = kind.plan(&params, N).unwrap();
        {
            let s = store(dir.path());
            let record = crate::store::SweepRecord {
                replicate_all: false,
                id: "load".into(),
                kind: "noop".into(),
                params: params.clone(),
                solver_version: kind.version(),
                target_shards: N,
                seq: s.next_seq().unwrap(),
                state: crate::store::SweepState::Running,
                sample: None,
                verify_ppm: 0,
                verify_seed: 0,
                paused: false,
                priority: 1,
                part: None,
                earlier_solvers: Vec::new(),
            };
            s.create_sweep(&record, &plan).unwrap();
            for shard in &plan {
                let out = kind
                    .run_shard(&params, shard, &gamesweep::sweep::ShardCtx::detached())
                    .unwrap();
                s.put_result("load", shard.index, &out.encode(), None)
                    .unwrap();
                if shard.index % 100_000 == 99_999 {
                    s.flush().unwrap();
                }
            }
            s.flush().unwrap();
        }
        let journal_bytes = std::fs::metadata(dir.path().join(journal::FILE_NAME))
            .unwrap()
            .len();
        // Warm the page cache as a restart on the same machine would find it.
        drop(open(store(dir.path()), dir.path(), false).unwrap());
        let t = Instant::now();
        let st = store(dir.path());
        let t_store = t.elapsed();
        let c = open(st.clone(), dir.path(), false).unwrap();
        let t_total = t.elapsed();
        // The snapshot: its cost, then a start from it.
        let t = Instant::now();
        assert_eq!(c.snapshot().unwrap(), 1);
        let t_snapshot = t.elapsed();
        drop(c);
        drop(st);
        let t = Instant::now();
        let st = store(dir.path());
        let c = open(st.clone(), dir.path(), false).unwrap();
        let t_from_snapshot = t.elapsed();
        drop(c);
        let data = std::fs::read(dir.path().join(journal::FILE_NAME)).unwrap();
        let t = Instant::now();
        let read = journal::replay(&data);
        let t_replay = t.elapsed();
        assert_eq!(read.journal.done_count(), N as usize);
        let results = st.results_of("load").unwrap();
        let t = Instant::now();
        let mut x = 0u8;
        for bytes in results.values() {
            x ^= journal::digest(bytes)[0];
        }
        let t_digest = t.elapsed();
        let t = Instant::now();
        for (i, bytes) in &results {
            let key = {
                let mut k = b"load\0".to_vec();
                k.extend(i.to_be_bytes());
                k
            };
            x ^= crate::store::seal("results", &key, bytes)[2];
        }
        let t_crc = t.elapsed();
        eprintln!(
            "1,000,000 done shards: journal {journal_bytes} bytes; start {:.2} s (store open with journal replay {:.2} s); check parts: replay {:.3} s, SHA-256 of every result {:.3} s, seal CRCs {:.3} s ({x})",
            t_total.as_secs_f64(),
            t_store.as_secs_f64(),
            t_replay.as_secs_f64(),
            t_digest.as_secs_f64(),
            t_crc.as_secs_f64()
        );
        eprintln!(
            "snapshot of 1,000,000 done shards written in {:.3} s; start from it {:.2} s",
            t_snapshot.as_secs_f64(),
            t_from_snapshot.as_secs_f64()
        );
    }
}
