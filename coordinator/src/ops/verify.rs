//! Checking an export file on this machine (`gamesweep verify FILE`,
//! Python's `verify`): who signed it, its plan re-derived from its kind,
//! parameters and target shard count (a plan that differs is refused,
//! naming the first differing shard), and a seeded sample of its finished
//! shards re-run here, each recomputed result compared with the exported
//! one (byte for byte, or equal once decoded). A mismatch is a finding in
//! the [`Verified`] answered, not an error.

use crate::args;
use crate::error::UsageError;
use anyhow::Context as _;
use gamesweep::kinds;
use gamesweep::sweep::{ShardCtx, ShardSpec};
use gamesweep_engine::export_file::{self, ExportResult, Signature};
use gamesweep_report::reruns::{self, Rerun};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What to check, and how much of it.
#[derive(Clone, Debug)]
pub struct VerifyRequest {
    /// The export file.
    pub file: PathBuf,
    /// Share of the finished shards to re-run, in millionths.
    pub sample_ppm: u32,
    /// Seed of the (deterministic) choice of shards.
    pub seed: u64,
    /// Threads (`None`: all cores).
    pub threads: Option<u32>,
    /// Key files whose signature makes the file trusted.
    pub trust_key: Vec<PathBuf>,
    /// Fail unless a trusted key signed the file.
    pub require_signature: bool,
    /// Add what was found to this report folder's `verified.json`
    /// ([`gamesweep_report::reruns`]), stated in the Verification section
    /// of the report written there.
    pub record: Option<PathBuf>,
}

/// What became of one re-run shard.
enum Check {
    Match,
    Mismatch(String),
}

/// The finished shards (positions into `results`) a sample of `ppm`
/// millionths with `seed` re-runs, in increasing shard order.
pub fn choose(results: &[ExportResult], ppm: u32, seed: u64) -> Vec<usize> {
    // Every shard weighs the same: the share is of the shards, not of their work.
    let flat: Vec<ShardSpec> = (0..results.len())
        .map(|i| ShardSpec {
            index: i as u32,
            payload: String::new(),
            estimate: 0,
        })
        .collect();
    if flat.is_empty() {
        return Vec::new();
    }
    let mut picked: Vec<usize> = gamesweep_engine::sample::choose(&flat, ppm, seed)
        .into_iter()
        .map(|i| i as usize)
        .collect();
    picked.sort_unstable();
    picked
}

/// A re-run shard whose recomputed result differs from the exported one.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Mismatch {
    /// The shard.
    pub shard: u32,
    /// Why they differ.
    pub why: String,
}

/// Millionths as a share (`sample` in `verify`'s JSON).
fn share<S: serde::Serializer>(ppm: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(f64::from(*ppm) / 1e6)
}

/// What `verify` found in an export file.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Verified {
    /// The export file.
    pub file: PathBuf,
    /// Its sweep id.
    pub sweep_id: String,
    /// Its kind.
    pub kind: String,
    /// Who signed it, as `verify` says it.
    pub signature: String,
    /// The fingerprint of the key that signed it (`""`: unsigned).
    pub signer: String,
    /// A trusted key (`--trust-key`) signed it.
    pub trusted: bool,
    /// Finished shards in the file.
    pub finished: u64,
    /// The share re-run, in millionths (as a share, `sample`, in JSON).
    #[serde(rename = "sample", serialize_with = "share")]
    pub sample_ppm: u32,
    /// The seed of the choice of shards.
    pub seed: u64,
    /// Threads the re-runs used.
    pub threads: usize,
    /// The shards re-run, in increasing order.
    pub rerun: Vec<u32>,
    /// The re-run shards whose recomputed result differs from the
    /// exported one, with why.
    pub mismatches: Vec<Mismatch>,
    /// Wall time of the whole check, in seconds.
    pub seconds: f64,
}

impl Verified {
    /// Every re-run shard matched.
    pub fn ok(&self) -> bool {
        self.mismatches.is_empty()
    }

    /// The summary line `verify` prints last.
    pub fn summary(&self) -> String {
        format!(
            "verify {}: {} of {} re-run (sample {}, seed {}), {} match, {} mismatch, in {:.2} s on {}",
            self.file.display(),
            self.rerun.len(),
            crate::output::plural(self.finished, "finished shard"),
            self.sample_ppm as f64 / 1e6,
            self.seed,
            self.rerun.len() - self.mismatches.len(),
            self.mismatches.len(),
            self.seconds,
            args::threads_text(self.threads)
        )
    }
}

/// Check the export file `r.file` as `verify` does: its signature (told to
/// `on_signature` as soon as known, before the re-runs, which may take
/// hours), its kind, solver version and plan, then the sample of its
/// finished shards re-run here; what was found, mismatches included. An
/// error for a file that cannot be checked (unreadable, a plan this build
/// does not make, not trusted under `--require-signature`) or when `cancel`
/// is set (the re-runs stop at their next check of it).
pub fn verify(
    r: &VerifyRequest,
    cancel: &AtomicBool,
    on_signature: impl FnOnce(&str),
) -> anyhow::Result<Verified> {
    let started = Instant::now();
    let trusted =
        export_file::read_key_files(&r.trust_key).map_err(|e| UsageError(e.to_string()))?;
    let decoded = export_file::read(&r.file).map_err(|e| UsageError(e.to_string()))?;
    let export = &decoded.export;
    let signature = match decoded.signature {
        Signature::Signed(k) if trusted.contains(&k) => format!("signed by trusted key {k}"),
        Signature::Signed(k) => format!("signed by key {k}, which is not trusted (no --trust-key names it): its origin is unknown"),
        Signature::Unsigned => "not signed (an export of format 1): its origin is unknown".into(),
    };
    let is_trusted = matches!(decoded.signature, Signature::Signed(k) if trusted.contains(&k));
    let signer = match decoded.signature {
        Signature::Signed(k) => k.fingerprint(),
        Signature::Unsigned => String::new(),
    };
    on_signature(&signature);
    if r.require_signature && !is_trusted {
        return Err(UsageError(format!(
            "{}: not signed by a trusted key (--require-signature)",
            r.file.display()
        ))
        .into());
    }
    let kind = kinds::find(&export.kind).map_err(|e| UsageError(e.to_string()))?;
    if kind.version() != export.solver_version {
        return Err(UsageError(format!(
            "{}: solver version mismatch: its `{}` results come from solver version {}, this build's is {}; verify it with the gamesweep build that wrote it",
            r.file.display(),
            export.kind,
            export.solver_version,
            kind.version()
        ))
        .into());
    }
    let params = kind
        .resolve_params(&export.params)
        .map_err(|e| UsageError(format!("{}: {e}", r.file.display())))?;
    if params != export.params {
        return Err(UsageError(format!(
            "{}: its parameters are not complete resolved parameters of `{}`",
            r.file.display(),
            export.kind
        ))
        .into());
    }
    if let Some(dir) = &r.record {
        // Before hours of re-runs: the folder's report must be this sweep's.
        record_fits(dir, &export.kind, &params)?;
    }
    // The file's plan is its own word: re-derive it and compare.
    let plan = replan(kind, &params, export.target_shards, export)
        .map_err(|e| UsageError(format!("{}: {e}", r.file.display())))?;
    let picked = choose(&export.results, r.sample_ppm, r.seed);
    let threads = r
        .threads
        .map_or_else(args::default_threads, |t| t as usize)
        .max(1);
    let next = AtomicUsize::new(0);
    let checks: Mutex<Vec<(u32, Check)>> = Mutex::new(Vec::new());
    // Shards re-run so far, on a terminal only (hours on a large export).
    let counter = crate::progress::Counter::new(
        "shards re-run",
        Some(picked.len() as u64),
        crate::progress::on_terminal(),
    );
    std::thread::scope(|s| {
        for _ in 0..threads.min(picked.len().max(1)) {
            s.spawn(|| loop {
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&pos) = picked.get(k) else { break };
                let result = &export.results[pos];
                let check = recheck(kind, &params, &plan[result.index as usize], result, cancel);
                checks
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((result.index, check));
                counter.inc(1);
            });
        }
    });
    counter.finish();
    if cancel.load(Ordering::Relaxed) {
        anyhow::bail!("verify {}: stopped", r.file.display());
    }
    let mut checks = checks.into_inner().unwrap_or_else(|e| e.into_inner());
    checks.sort_by_key(|(i, _)| *i);
    let rerun = checks.iter().map(|(i, _)| *i).collect();
    let mismatches = checks
        .into_iter()
        .filter_map(|(i, c)| match c {
            Check::Match => None,
            Check::Mismatch(why) => Some(Mismatch { shard: i, why }),
        })
        .collect();
    let verified = Verified {
        file: r.file.clone(),
        sweep_id: export.sweep_id.clone(),
        kind: export.kind.clone(),
        signature,
        signer,
        trusted: is_trusted,
        finished: export.results.len() as u64,
        sample_ppm: r.sample_ppm,
        seed: r.seed,
        threads,
        rerun,
        mismatches,
        seconds: started.elapsed().as_secs_f64(),
    };
    if let Some(dir) = &r.record {
        let record = Rerun {
            date: crate::output::utc_time(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis() as u64),
            ),
            machine: machine(),
            build: env!("CARGO_PKG_VERSION").to_string(),
            solver: kind.version(),
            file: r
                .file
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            file_sha256: file_sha256(&r.file)?,
            signer: verified.signer.clone(),
            trusted: verified.trusted,
            sweep_id: verified.sweep_id.clone(),
            kind: verified.kind.clone(),
            params: params.clone(),
            finished: verified.finished,
            sample_ppm: verified.sample_ppm,
            seed: verified.seed,
            rerun: verified.rerun.len() as u64,
            mismatched: verified.mismatches.iter().map(|m| m.shard).collect(),
            threads: verified.threads as u64,
            seconds: verified.seconds,
        };
        reruns::append(dir, record)?;
    }
    Ok(verified)
}

/// `dir`'s `results.json`, if there is one, is of a `kind` sweep with
/// `params`: a record of another sweep would be refused when the report is
/// written, so it is refused before the re-runs.
fn record_fits(
    dir: &std::path::Path,
    kind: &str,
    params: &gamesweep::sweep::Params,
) -> anyhow::Result<()> {
    let path = dir.join("results.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(anyhow::Error::new(e).context(format!("reading {}", path.display()))),
    };
    if !reruns::of_sweep(&text, kind, params) {
        return Err(UsageError(format!(
            "--record {}: its results.json is not of this `{kind}` sweep with parameters {}; record a re-run beside its own sweep's report",
            dir.display(),
            serde_json::to_string(params).expect("parameters serialize")
        ))
        .into());
    }
    Ok(())
}

/// This machine as it reads itself: the CPU model (Linux's
/// `/proc/cpuinfo`) and the logical cores.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!(
        "{model}, {cores} logical core{}",
        if cores == 1 { "" } else { "s" }
    )
}

/// The SHA-256 of `path`'s bytes, in hex.
fn file_sha256(path: &std::path::Path) -> anyhow::Result<String> {
    use sha2::Digest as _;
    let mut f = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut h = sha2::Sha256::new();
    std::io::copy(&mut f, &mut h).with_context(|| format!("reading {}", path.display()))?;
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// The plan this build makes for `params` and `target` shards, if the
/// file's plan (carried, or named by an increment) is that plan; else one
/// line naming the first shard where they differ.
fn replan(
    kind: &dyn gamesweep::sweep::SweepKind,
    params: &gamesweep::sweep::Params,
    target: u32,
    file: &gamesweep_engine::export_file::Export,
) -> Result<Vec<ShardSpec>, String> {
    // A file asking for a huge target would make planning itself the attack.
    gamesweep_engine::core::launch::check_target_shards(target)
        .and_then(|()| gamesweep_engine::core::launch::check_plan_size(file.shards()))
        .map_err(|e| format!("{e}: not a plan this build makes"))?;
    let plan = kind.plan(params, target).map_err(|e| e.to_string())?;
    if !file.carries_plan() {
        // An increment names its plan: this build's must be the one named.
        return if file.plan_is(&plan) {
            Ok(plan)
        } else {
            Err(format!(
                "it names a plan of {} shards that is not the plan this build makes for its parameters ({} shards)",
                file.shards(),
                plan.len()
            ))
        };
    }
    let claimed = &file.plan;
    if let Some(i) = (0..plan.len().max(claimed.len())).find(|&i| plan.get(i) != claimed.get(i)) {
        return Err(match (plan.get(i), claimed.get(i)) {
            (Some(want), Some(_)) => format!(
                "its plan differs from the plan this build makes for its parameters at shard {i} (this build's: {})",
                want.payload
            ),
            _ => format!(
                "its plan has {} shards, the plan this build makes for its parameters {} (first difference at shard {i})",
                claimed.len(),
                plan.len()
            ),
        });
    }
    Ok(plan)
}

/// Re-run `shard` and compare with the exported result `r`.
fn recheck(
    kind: &dyn gamesweep::sweep::SweepKind,
    params: &gamesweep::sweep::Params,
    shard: &ShardSpec,
    r: &ExportResult,
    cancel: &AtomicBool,
) -> Check {
    let work = AtomicU64::new(0);
    let ctx = ShardCtx::new(cancel, &work);
    let fresh = match kind.run_shard(params, shard, &ctx) {
        Ok(out) => out.encode(),
        Err(e) => return Check::Mismatch(format!("re-running it failed: {e}")),
    };
    if fresh == r.result.as_bytes() {
        return Check::Match;
    }
    // Equal once decoded (the same result, encoded differently)?
    match kind.decode(r.result.as_bytes()) {
        Ok(stored) if stored.encode() == fresh => Check::Match,
        Ok(_) => Check::Mismatch(format!(
            "the exported result differs from the recomputed one ({} vs {} bytes)",
            r.result.len(),
            fresh.len()
        )),
        Err(e) => Check::Mismatch(format!("the exported result does not decode: {e}")),
    }
}
