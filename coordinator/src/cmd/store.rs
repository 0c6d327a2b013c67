//! `gamesweep store check DIR`: the deep check of a stopped coordinator's
//! store. Every stored value's checksum and decoding, every result decoded
//! with its sweep's kind, and the journal of acknowledged work against the
//! store (presence and SHA-256 of every acknowledged result). Prints a
//! summary; exits non-zero if anything is damaged or missing.

use crate::error::UsageError;
use crate::output;
use gamesweep::kinds;
use gamesweep_engine::store::journal;
use gamesweep_engine::store::{SledStore, Store};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `store` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum StoreCommand {
    /// Check a stopped coordinator's store deeply and print what is damaged.
    ///
    /// Reads every stored value (checksum and decoding), decodes every shard
    /// result with its sweep's kind, and compares the journal of acknowledged
    /// work with the store: every acknowledged sweep present, every
    /// acknowledged shard result present with the SHA-256 it was
    /// acknowledged with. Exits 0 if all is well, 1 on damage (the summary
    /// names each damaged tree, sweep and shard). DIR is a store directory
    /// (`serve --store DIR`) or a `run` output folder (its `store/`). Stop the
    /// coordinator first: the store is opened as a coordinator opens it (an
    /// older v2 store is migrated).
    Check(CheckArgs),
}

/// `store check` options.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The store directory, or a `run --out` folder holding `store/`.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Run a `store` subcommand.
pub fn exec(c: StoreCommand) -> anyhow::Result<()> {
    match c {
        StoreCommand::Check(a) => check(&a.dir),
    }
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

fn check(dir: &Path) -> anyhow::Result<()> {
    let dir = store_dir(dir);
    if !dir.is_dir() {
        return Err(UsageError(format!("{} is not a directory", dir.display())).into());
    }
    let store = SledStore::open(&dir).map_err(|e| {
        anyhow::anyhow!("store damaged or unreadable: {e} (see deploy/README.md, \"Recovering a damaged store\")")
    })?;
    let mut out = format!("store {}\n", dir.display());
    let mut problems: Vec<String> = Vec::new();
    // 1. Every value: checksum and decoding.
    let damage = store.scan(false)?;
    out.push_str(&format!(
        "values: every checksum checked, {} damaged\n",
        damage.len()
    ));
    problems.extend(damage.iter().map(|d| d.what.clone()));
    // 2. The journal.
    let read = store.journal()?.unwrap_or_else(|| journal::replay(&[]));
    let j = &read.journal;
    out.push_str(&format!(
        "journal: {} records, {} sweeps, {} acknowledged shard results{}\n",
        j.records,
        j.sweeps.len(),
        j.done_count(),
        if read.journal.torn_bytes > 0 && read.damage.is_none() {
            format!(
                " (a torn last record of {} bytes was dropped)",
                read.journal.torn_bytes
            )
        } else {
            String::new()
        }
    ));
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
        out.push_str(&format!(
            "sweep `{}` ({}, launch {}): {}, {} stored, {}\n",
            r.id,
            r.kind,
            r.seq,
            crate::output::plural(s.plan.len() as u64, "shard"),
            crate::output::plural(s.results.len() as u64, "result"),
            match acknowledged {
                None => "not in the journal (journaled at the next start)".to_string(),
                Some(js) => format!(
                    "{} acknowledged: {} missing, {} differ from their digest{}",
                    js.done.len(),
                    missing.len(),
                    differing.len(),
                    if unjournaled > 0 {
                        format!(", {unjournaled} stored but not yet journaled")
                    } else {
                        String::new()
                    }
                ),
            }
        ));
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
    if problems.is_empty() {
        out.push_str("OK: nothing acknowledged is missing or damaged\n");
        output::print(out)?;
        return Ok(());
    }
    out.push_str(&format!("DAMAGED: {} problem(s)\n", problems.len()));
    for p in &problems {
        out.push_str(&format!("  {p}\n"));
    }
    out.push_str(
        "Ways out: restore the store from an --export-every checkpoint (deploy/README.md, \"Recovering a damaged store\"), or start it with --accept-loss to run exactly the lost shards again.\n",
    );
    output::print(out)?;
    anyhow::bail!(
        "store {} is damaged: {} problem(s), listed above",
        dir.display(),
        problems.len()
    )
}
