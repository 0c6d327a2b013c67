//! `gamesweep verify FILE --sample F [--seed S] [--threads T] [--trust-key
//! KEY]... [--record DIR]`: check who signed an export file, re-derive its plan, re-run a
//! seeded sample of its finished shards in this process and compare each
//! with the exported result; print each mismatch and a summary, and fail on
//! any. The job is [`crate::ops::verify`] (the Python module's `verify`
//! calls it too); this parses and prints.

use crate::ops::verify::{verify, VerifyRequest};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

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
    /// Add what was found (when, this machine, the solver build, the
    /// shards re-run and how many matched) to DIR/verified.json; the report
    /// written in DIR (`run --out DIR`, `report --from DIR`) states it in
    /// its Verification section. DIR's results.json, if any, must be of the
    /// same sweep.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
}

fn parse_share(text: &str) -> Result<u32, String> {
    gamesweep_engine::sample::parse_fraction(text).map_err(|e| e.to_string())
}

impl From<&VerifyArgs> for VerifyRequest {
    fn from(a: &VerifyArgs) -> Self {
        VerifyRequest {
            file: a.file.clone(),
            sample_ppm: a.sample,
            seed: a.seed,
            threads: a.threads,
            trust_key: a.trust_key.clone(),
            require_signature: a.require_signature,
            record: a.record.clone(),
        }
    }
}

/// Run `verify`.
pub fn exec(a: VerifyArgs) -> anyhow::Result<()> {
    let v = verify(
        &VerifyRequest::from(&a),
        &AtomicBool::new(false),
        |signature| {
            println!("verify {}: {signature}", a.file.display());
        },
    )?;
    for m in &v.mismatches {
        println!("shard {}: MISMATCH: {}", m.shard, m.why);
    }
    println!("{}", v.summary());
    if let Some(dir) = &a.record {
        println!(
            "verify: recorded in {}; `gamesweep report --from {}` states it in the report",
            dir.join(gamesweep_report::reruns::FILE).display(),
            dir.display()
        );
    }
    if !v.ok() {
        anyhow::bail!(
            "{} of {} re-run shards of {} do not match the exported results",
            v.mismatches.len(),
            v.rerun.len(),
            a.file.display()
        );
    }
    Ok(())
}
