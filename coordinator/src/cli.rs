//! The command-line interface: clap definitions and dispatch.
//!
//! Sweep parameters are declared by each sweep kind (`SweepKind::params`), so
//! the options of `gamesweep run KIND ...` are built at run time from the
//! registry rather than written out here: adding a kind adds its command line.

use crate::cmd;
use anyhow::Context as _;
use clap::{Parser, Subcommand};
use gamesweep::sweep::{self, Params, SweepKind};

/// Exact exhaustive sweeps for combinatorial game theory.
#[derive(Parser, Debug)]
#[command(name = "gamesweep", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Top-level commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a sweep on this machine and write results.json + report.md.
    ///
    /// `gamesweep run KIND --help` lists the kind's parameters; `gamesweep kinds` lists the kinds.
    #[command(disable_help_flag = true)]
    Run(cmd::run::RunArgs),
    /// Generate graphs by canonical augmentation, printing graph6 (like nauty's geng).
    Graphs(cmd::graphs::GraphsArgs),
    /// Solve a single position exactly.
    #[command(subcommand)]
    Solve(cmd::solve::SolveCommand),
    /// List the sweep kinds and their parameters.
    Kinds,
    /// The distributed commands: serve, launch, status, report, cancel, worker.
    #[command(flatten)]
    Runtime(crate::remote::RuntimeCommand),
}

/// An error in what the user typed (exit code 2), as opposed to a failure while running (exit code 1).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Map an error to the process exit code: 2 for bad input, 1 otherwise.
pub fn exit_code(err: &anyhow::Error) -> i32 {
    if err
        .chain()
        .any(|e| e.is::<UsageError>() || e.is::<sweep::SweepError>())
    {
        2
    } else {
        1
    }
}

/// Run the parsed command.
pub fn dispatch(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Run(args) => cmd::run::run(args),
        Command::Graphs(args) => cmd::graphs::graphs(args),
        Command::Solve(c) => cmd::solve::solve(c),
        Command::Runtime(c) => crate::remote::dispatch(c),
        Command::Kinds => {
            print!("{}", kinds_help());
            Ok(())
        }
    }
}

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
pub fn sample_from(m: &clap::ArgMatches) -> anyhow::Result<Option<crate::core::SampleRequest>> {
    let Some(text) = m.get_one::<String>("sample") else {
        return Ok(None);
    };
    let ppm = crate::sample::parse_fraction(text).map_err(UsageError)?;
    Ok(Some(crate::core::SampleRequest {
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
    let here = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let mut v = vec![here];
    if here != 64 {
        v.push(64);
    }
    v
}
