//! Store maintenance: the deep check of a stopped coordinator's store
//! (`gamesweep store check`, Python's `store_check`). Every stored value's
//! checksum and decoding, every result decoded with its sweep's kind, and
//! the journal of acknowledged work against the store (presence and
//! SHA-256 of every acknowledged result), as a [`StoreCheck`]. And its
//! compaction (`gamesweep store compact`, [`compact_store`]).

use crate::error::UsageError;
use crate::output;
use gamesweep::kinds;
use gamesweep_engine::store::journal;
use gamesweep_engine::store::{SledStore, Store};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What `store compact` did, as it prints it.
pub fn compact_store(dir: &Path, keep_old: bool) -> anyhow::Result<String> {
    let dir = store_dir(dir);
    if !dir.is_dir() {
        return Err(UsageError(format!("{} is not a directory", dir.display())).into());
    }
    let c = gamesweep_engine::store::compact(&dir, keep_old)?;
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    Ok(format!(
        "store {} compacted: {:.1} MiB -> {:.1} MiB on disk, {} copied; {}\n",
        dir.display(),
        mib(c.bytes_before),
        mib(c.bytes_after),
        output::plural(c.copied, "value"),
        match &c.kept {
            Some(old) => format!("the store as it was is kept in {}", old.display()),
            None => "the store as it was is removed".into(),
        }
    ))
}

/// `DIR`, or `DIR/store` for a `run` output folder.
fn store_dir(dir: &Path) -> PathBuf {
    let inner = dir.join("store");
    if !dir.join("conf").exists() && inner.join("conf").exists() {
        inner
    } else {
        dir.to_path_buf()
    }
}

/// One sweep of a store, as `store check` found it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SweepCheck {
    /// The sweep id.
    pub sweep_id: String,
    /// Its kind.
    pub kind: String,
    /// Its launch sequence number (what the journal names it by).
    pub launch: u64,
    /// Shards in its plan.
    pub shards: u64,
    /// Shard results stored.
    pub stored: u64,
    /// Shard results the journal says were acknowledged (`None`: the sweep
    /// is not in the journal yet; it is journaled at the next start).
    pub acknowledged: Option<u64>,
    /// Acknowledged shards whose result is not stored.
    pub missing: Vec<u32>,
    /// Stored results whose SHA-256 is not the acknowledged one.
    pub differing: Vec<u32>,
    /// Stored results not journaled yet.
    pub unjournaled: u64,
    /// Stored results that do not decode as results of the sweep's kind.
    pub undecodable: Vec<u32>,
}

/// What `store check` found in a store.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StoreCheck {
    /// The store directory checked (`DIR/store` for a `run` folder).
    pub store: PathBuf,
    /// Stored values whose checksum or decoding failed.
    pub damaged_values: u64,
    /// Records in the journal.
    pub journal_records: u64,
    /// Sweeps the journal names.
    pub journal_sweeps: u64,
    /// Shard results the journal says were acknowledged.
    pub acknowledged: u64,
    /// Bytes of a torn last journal record dropped (a crash mid-append: not
    /// damage).
    pub torn_bytes: u64,
    /// The sweeps stored.
    pub sweeps: Vec<SweepCheck>,
    /// Every problem, one line each (none: nothing acknowledged is missing
    /// or damaged).
    pub problems: Vec<String>,
}

impl StoreCheck {
    /// Nothing acknowledged is missing or damaged.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }

    /// The summary `store check` prints.
    pub fn text(&self) -> String {
        let mut out = format!("store {}\n", self.store.display());
        out.push_str(&format!(
            "values: every checksum checked, {} damaged\n",
            self.damaged_values
        ));
        out.push_str(&format!(
            "journal: {} records, {} sweeps, {} acknowledged shard results{}\n",
            self.journal_records,
            self.journal_sweeps,
            self.acknowledged,
            if self.torn_bytes > 0 {
                format!(
                    " (a torn last record of {} bytes was dropped)",
                    self.torn_bytes
                )
            } else {
                String::new()
            }
        ));
        for s in &self.sweeps {
            out.push_str(&format!(
                "sweep `{}` ({}, launch {}): {}, {} stored, {}\n",
                s.sweep_id,
                s.kind,
                s.launch,
                output::plural(s.shards, "shard"),
                output::plural(s.stored, "result"),
                match s.acknowledged {
                    None => "not in the journal (journaled at the next start)".to_string(),
                    Some(n) => format!(
                        "{n} acknowledged: {} missing, {} differ from their digest{}",
                        s.missing.len(),
                        s.differing.len(),
                        if s.unjournaled > 0 {
                            format!(", {} stored but not yet journaled", s.unjournaled)
                        } else {
                            String::new()
                        }
                    ),
                }
            ));
        }
        if self.ok() {
            out.push_str("OK: nothing acknowledged is missing or damaged\n");
            return out;
        }
        out.push_str(&format!("DAMAGED: {} problem(s)\n", self.problems.len()));
        for p in &self.problems {
            out.push_str(&format!("  {p}\n"));
        }
        out.push_str(
            "Ways out: restore the store from an --export-every checkpoint (deploy/README.md, \"Recovering a damaged store\"), or start it with --accept-loss to run exactly the lost shards again.\n",
        );
        out
    }
}

/// Check the store in `dir` (or `dir/store`, a `run` folder's): what
/// `store check DIR` prints, as a value. An error only when there is no
/// store to check (not a directory, or sled cannot open it); damage found
/// is in [`StoreCheck::problems`].
pub fn check_store(dir: &Path) -> anyhow::Result<StoreCheck> {
    let dir = store_dir(dir);
    if !dir.is_dir() {
        return Err(UsageError(format!("{} is not a directory", dir.display())).into());
    }
    let store = SledStore::open(&dir).map_err(|e| {
        anyhow::anyhow!("store damaged or unreadable: {e} (see deploy/README.md, \"Recovering a damaged store\")")
    })?;
    let mut problems: Vec<String> = Vec::new();
    // 1. Every value: checksum and decoding.
    let damage = store.scan(false)?;
    problems.extend(damage.iter().map(|d| d.what.clone()));
    // 2. The journal.
    let read = store.journal()?.unwrap_or_else(|| journal::replay(&[]));
    let j = &read.journal;
    if let Some((at, why)) = &read.damage {
        problems.push(format!("the journal is damaged at byte {at}: {why}"));
    }
    // 3. Sweeps: results decoded with their kind, compared with the journal.
    let loaded = match store.load_all() {
        Ok(l) => l,
        Err(e) => {
            problems.push(format!("the sweeps do not load: {e}"));
            Vec::new()
        }
    };
    let by_id: BTreeMap<&str, &gamesweep_engine::store::StoredSweep> =
        loaded.iter().map(|s| (s.record.id.as_str(), s)).collect();
    let mut sweeps = Vec::new();
    for s in &loaded {
        let r = &s.record;
        let mut undecodable = Vec::new();
        match kinds::find(&r.kind) {
            Ok(kind) => {
                for (&i, bytes) in &s.results {
                    if kind.decode(bytes).is_err() {
                        undecodable.push(i);
                    }
                }
            }
            Err(e) => problems.push(format!("sweep `{}`: {e}", r.id)),
        }
        let acknowledged = j.sweeps.get(&r.seq);
        let (mut missing, mut differing, mut unjournaled) = (Vec::new(), Vec::new(), 0usize);
        if let Some(js) = acknowledged {
            for (&i, d) in &js.done {
                match s.results.get(&i) {
                    None => missing.push(i),
                    Some(b) if journal::digest(b) != *d => differing.push(i),
                    Some(_) => {}
                }
            }
            unjournaled = s
                .results
                .keys()
                .filter(|i| !js.done.contains_key(i))
                .count();
        }
        let list = |v: &[u32]| {
            let mut t: Vec<String> = v.iter().take(16).map(u32::to_string).collect();
            if v.len() > 16 {
                t.push("...".into());
            }
            t.join(", ")
        };
        if !undecodable.is_empty() {
            problems.push(format!(
                "{} result(s) of `{}` do not decode as `{}` results (shards {})",
                undecodable.len(),
                r.id,
                r.kind,
                list(&undecodable)
            ));
        }
        if !missing.is_empty() {
            problems.push(format!(
                "{} acknowledged result(s) missing in `{}` (shards {})",
                missing.len(),
                r.id,
                list(&missing)
            ));
        }
        if !differing.is_empty() {
            problems.push(format!(
                "{} stored result(s) of `{}` differ from what was acknowledged (shards {})",
                differing.len(),
                r.id,
                list(&differing)
            ));
        }
        sweeps.push(SweepCheck {
            sweep_id: r.id.clone(),
            kind: r.kind.clone(),
            launch: r.seq,
            shards: s.plan.len() as u64,
            stored: s.results.len() as u64,
            acknowledged: acknowledged.map(|js| js.done.len() as u64),
            missing,
            differing,
            unjournaled: unjournaled as u64,
            undecodable,
        });
    }
    for (seq, js) in &j.sweeps {
        let id = &js.entry.record.id;
        if by_id.get(id.as_str()).is_none_or(|s| s.record.seq != *seq) {
            problems.push(format!(
                "sweep `{id}` lost (its record is gone) with {} acknowledged shard results",
                js.done.len()
            ));
        }
    }
    Ok(StoreCheck {
        store: dir,
        damaged_values: damage.len() as u64,
        journal_records: j.records,
        journal_sweeps: j.sweeps.len() as u64,
        acknowledged: j.done_count() as u64,
        torn_bytes: if read.damage.is_none() {
            j.torn_bytes
        } else {
            0
        },
        sweeps,
        problems,
    })
}
