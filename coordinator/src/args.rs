//! Command-line arguments shared by several commands: a sweep kind and its
//! parameters (`KIND [--param N]...`, options built at run time from the
//! kind's `params()`, so adding a kind adds its command line), the planning
//! options of `run` and `launch`, and the default thread and core counts.

use crate::error::UsageError;
use anyhow::Context as _;
use gamesweep::sweep::{Params, SweepKind};
use gamesweep_proto::domain::SampleRequest;

/// Text listing every kind with its parameters.
pub fn kinds_help() -> String {
    let mut out = String::new();
    for k in gamesweep::kinds::registry() {
        out.push_str(&format!("{:<16} {}\n", k.name(), k.about()));
        for p in k.params() {
            let default = p
                .default
                .map(|d| format!(" [default: {d}]"))
                .unwrap_or_else(|| " (required)".into());
            out.push_str(&format!(
                "    --{:<22} {} ({}..={}){}\n",
                p.name.replace('_', "-"),
                p.help,
                p.min,
                p.max,
                default
            ));
        }
    }
    out
}

/// Build the clap command for one sweep kind's parameters, plus `common` options.
pub fn kind_command(
    kind: &dyn SweepKind,
    common: impl FnOnce(clap::Command) -> clap::Command,
) -> clap::Command {
    let mut c = clap::Command::new(kind.name())
        .about(kind.about())
        .override_usage(format!(
            "gamesweep run {} [OPTIONS]  (or: gamesweep launch {} [OPTIONS])",
            kind.name(),
            kind.name()
        ))
        .no_binary_name(true);
    for p in kind.params() {
        let long: &'static str = Box::leak(p.name.replace('_', "-").into_boxed_str());
        let mut a = clap::Arg::new(p.name)
            .long(long)
            .value_name("N")
            .help(format!("{} ({}..={})", p.help, p.min, p.max))
            .value_parser(clap::value_parser!(u64));
        if let Some(d) = p.default {
            a = a.default_value(Box::leak(d.to_string().into_boxed_str()) as &'static str);
        } else {
            a = a.required(true);
        }
        c = c.arg(a);
    }
    common(c)
}

/// Parse `KIND [--param N]...` (the first word is the kind) into the kind, its
/// resolved parameters and the matches (for the caller's common options).
pub fn parse_kind_args(
    words: &[String],
    common: impl FnOnce(clap::Command) -> clap::Command,
) -> anyhow::Result<(&'static dyn SweepKind, Params, clap::ArgMatches)> {
    let Some(name) = words.first() else {
        return Err(UsageError(format!(
            "which sweep? e.g. `gamesweep run uvg --max-n 9`. Kinds:\n{}",
            kinds_help()
        ))
        .into());
    };
    if matches!(name.as_str(), "--help" | "-h" | "help") {
        // Help without a kind: the options every kind takes, then the kinds.
        let mut c = common(
            clap::Command::new("KIND")
                .override_usage(
                    "gamesweep run KIND [OPTIONS]  (or: gamesweep launch KIND [OPTIONS])",
                )
                .no_binary_name(true)
                .after_help(format!(
                    "Kinds and their own options (`gamesweep run KIND --help` for one):\n{}",
                    kinds_help()
                )),
        );
        c.print_help()?;
        std::process::exit(0);
    }
    let kind = gamesweep::kinds::find(name)?;
    let matches = match kind_command(kind, common).try_get_matches_from(&words[1..]) {
        Ok(m) => m,
        Err(e) if matches!(e.kind(), clap::error::ErrorKind::DisplayHelp) => {
            e.exit();
        }
        Err(e) => return Err(UsageError(e.to_string().trim_end().to_string()).into()),
    };
    let mut given = Params::new();
    for p in kind.params() {
        if matches.value_source(p.name) == Some(clap::parser::ValueSource::CommandLine) {
            given.insert(
                p.name.to_string(),
                *matches.get_one::<u64>(p.name).context("param")?,
            );
        }
    }
    let params = kind.resolve_params(&given)?;
    Ok((kind, params, matches))
}

/// The planning options `run` and `launch` share: `--shards K`, `--sample F`,
/// `--sample-seed N` and `--project-cores LIST`.
pub fn plan_options(c: clap::Command) -> clap::Command {
    c.arg(
        clap::Arg::new("shards")
            .long("shards")
            .value_name("K")
            .help("Target number of shards (default: the kind's own choice)")
            .value_parser(clap::value_parser!(u32).range(1..=10_000_000)),
    )
    .arg(
        clap::Arg::new("sample")
            .long("sample")
            .value_name("SHARE")
            .help("Run only a seeded random sample of the shards, about SHARE of the estimated positions (e.g. 0.5% or 0.005), and project the whole sweep's cost from it"),
    )
    .arg(
        clap::Arg::new("sample_seed")
            .long("sample-seed")
            .value_name("N")
            .requires("sample")
            .help("Seed of the sample's shuffle (recorded with the sample) [default: 1]")
            .value_parser(clap::value_parser!(u64)),
    )
    .arg(
        clap::Arg::new("project_cores")
            .long("project-cores")
            .value_name("LIST")
            .value_delimiter(',')
            .help("Core counts to project wall time for [default: this machine's cores and 64 = 4 machines x 16]")
            .value_parser(clap::value_parser!(u32).range(1..=1_000_000)),
    )
}

/// The sample asked for by [`plan_options`], if any.
pub fn sample_from(m: &clap::ArgMatches) -> anyhow::Result<Option<SampleRequest>> {
    let Some(text) = m.get_one::<String>("sample") else {
        return Ok(None);
    };
    let ppm = crate::sample::parse_fraction(text).map_err(UsageError)?;
    Ok(Some(SampleRequest {
        ppm,
        seed: m.get_one::<u64>("sample_seed").copied().unwrap_or(1),
    }))
}

/// The core counts asked for by [`plan_options`] (default: [`default_project_cores`]).
pub fn project_cores_from(m: &clap::ArgMatches) -> Vec<u32> {
    match m.get_many::<u32>("project_cores") {
        Some(v) => v.copied().collect(),
        None => default_project_cores(),
    }
}

/// This machine's core count, and 64 (4 machines × 16 cores).
pub fn default_project_cores() -> Vec<u32> {
    let here = default_threads() as u32;
    let mut v = vec![here];
    if here != 64 {
        v.push(64);
    }
    v
}

/// Threads when `--threads` is not given: every core of this machine.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
