//! `gamesweep verify FILE --sample F [--seed S] [--threads T] [--trust-key
//! KEY]...`: check who signed an export file, re-derive its plan from its
//! kind, parameters and target shard count (a plan that differs is refused,
//! naming the first differing shard), re-run a seeded sample of its
//! finished shards in this process and compare each recomputed result with
//! the exported one (byte for byte, or equal once decoded); print each
//! mismatch and a summary, and fail on any.

use crate::args;
use crate::error::UsageError;
use gamesweep::kinds;
use gamesweep::sweep::{ShardCtx, ShardSpec};
use gamesweep_engine::export_file::{self, ExportResult, Signature};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// `verify` options.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The export file.
    pub file: PathBuf,
    /// Share of the finished shards to re-run: `0.05`, `5%`, or `1` (all).
    #[arg(long, value_name = "F", value_parser = parse_share)]
    pub sample: u32,
    /// Seed of the (deterministic) choice of shards.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Threads [default: all cores].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Trust files signed by the key in FILE (`gamesweep key export` on the
    /// coordinator that wrote it); repeatable. Without a trusted signature
    /// the file's origin is unknown, and only the re-run shards are checked.
    #[arg(long, value_name = "FILE")]
    pub trust_key: Vec<PathBuf>,
    /// Fail unless a trusted key signed the file.
    #[arg(long)]
    pub require_signature: bool,
}

fn parse_share(text: &str) -> Result<u32, String> {
    gamesweep_engine::sample::parse_fraction(text).map_err(|e| e.to_string())
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

/// Run `verify`.
pub fn exec(a: VerifyArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let trusted =
        export_file::read_key_files(&a.trust_key).map_err(|e| UsageError(e.to_string()))?;
    let decoded = export_file::read(&a.file).map_err(|e| UsageError(e.to_string()))?;
    let export = &decoded.export;
    let signature = match decoded.signature {
        Signature::Signed(k) if trusted.contains(&k) => format!("signed by trusted key {k}"),
        Signature::Signed(k) => format!("signed by key {k}, which is not trusted (no --trust-key names it): its origin is unknown"),
        Signature::Unsigned => "not signed (an export of format 1): its origin is unknown".into(),
    };
    let is_trusted = matches!(decoded.signature, Signature::Signed(k) if trusted.contains(&k));
    println!("verify {}: {signature}", a.file.display());
    if a.require_signature && !is_trusted {
        return Err(UsageError(format!(
            "{}: not signed by a trusted key (--require-signature)",
            a.file.display()
        ))
        .into());
    }
    let kind = kinds::find(&export.kind).map_err(|e| UsageError(e.to_string()))?;
    if kind.version() != export.solver_version {
        return Err(UsageError(format!(
            "{}: solver version mismatch: its `{}` results come from solver version {}, this build's is {}; verify it with the gamesweep build that wrote it",
            a.file.display(),
            export.kind,
            export.solver_version,
            kind.version()
        ))
        .into());
    }
    let params = kind
        .resolve_params(&export.params)
        .map_err(|e| UsageError(format!("{}: {e}", a.file.display())))?;
    if params != export.params {
        return Err(UsageError(format!(
            "{}: its parameters are not complete resolved parameters of `{}`",
            a.file.display(),
            export.kind
        ))
        .into());
    }
    // The file's plan is its own word: re-derive it and compare.
    let plan = replan(kind, &params, export.target_shards, export)
        .map_err(|e| UsageError(format!("{}: {e}", a.file.display())))?;
    let picked = choose(&export.results, a.sample, a.seed);
    let threads = a
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
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&pos) = picked.get(k) else { break };
                let r = &export.results[pos];
                let check = recheck(kind, &params, &plan[r.index as usize], r);
                checks
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((r.index, check));
                counter.inc(1);
            });
        }
    });
    counter.finish();
    let mut checks = checks.into_inner().unwrap_or_else(|e| e.into_inner());
    checks.sort_by_key(|(i, _)| *i);
    let mut mismatched = 0;
    for (index, check) in &checks {
        if let Check::Mismatch(why) = check {
            mismatched += 1;
            println!("shard {index}: MISMATCH: {why}");
        }
    }
    println!(
        "verify {}: {} of {} re-run (sample {}, seed {}), {} match, {} mismatch, in {:.2} s on {}",
        a.file.display(),
        checks.len(),
        crate::output::plural(export.results.len() as u64, "finished shard"),
        a.sample as f64 / 1e6,
        a.seed,
        checks.len() - mismatched,
        mismatched,
        started.elapsed().as_secs_f64(),
        args::threads_text(threads)
    );
    if mismatched > 0 {
        anyhow::bail!(
            "{mismatched} of {} re-run shards of {} do not match the exported results",
            checks.len(),
            a.file.display()
        );
    }
    Ok(())
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
) -> Check {
    let cancel = AtomicBool::new(false);
    let work = AtomicU64::new(0);
    let ctx = ShardCtx::new(&cancel, &work);
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
