//! Command-line arguments shared by several commands: a sweep kind and its
//! parameters (`KIND [--param N]...`, options built at run time from the
//! kind's `params()`, so adding a kind adds its command line), the planning
//! options of `run` and `launch`, and the default thread and core counts.

use crate::error::UsageError;
use anyhow::Context as _;
use gamesweep::sweep::{Params, SweepKind};
use gamesweep_api::domain::SampleRequest;
use std::time::Duration;

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
            .value_parser(clap::value_parser!(u32).range(1..=i64::from(gamesweep_engine::core::launch::MAX_TARGET_SHARDS))),
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
    let ppm =
        gamesweep_engine::sample::parse_fraction(text).map_err(|e| UsageError(e.to_string()))?;
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

/// `launch`'s default verification share: one shard in a hundred runs again
/// on another worker (several workers; see `core::verify`).
pub const LAUNCH_VERIFY_FRACTION: &str = "0.01";

/// `run`'s default verification share: none (its one local worker process
/// has one worker identity, so no copy could run on another worker).
pub const RUN_VERIFY_FRACTION: &str = "0";

/// Add `--verify-fraction F` (default `default`) and `--verify-seed N`.
pub fn verify_options(c: clap::Command, default: &'static str) -> clap::Command {
    c.arg(
        clap::Arg::new("verify_fraction")
            .long("verify-fraction")
            .value_name("F")
            .default_value(default)
            .help("Share of the shards (0..1, or a percentage such as 1%) whose accepted result is run again by another worker and compared; a mismatch is settled by a third run"),
    )
    .arg(
        clap::Arg::new("verify_seed")
            .long("verify-seed")
            .value_name("N")
            .help("Key of the hash selecting the verified shards [default: the coordinator picks one at random]")
            .value_parser(clap::value_parser!(u64)),
    )
}

/// A verification share as millionths: `0.01` or `1%`; 0 to 1.
pub fn parse_verify_fraction(text: &str) -> Result<u32, String> {
    parse_share("--verify-fraction", text)
}

/// The coordinator's recount budget, a share of one core as millionths:
/// `0.05` or `5%`; 0 to 1 (0 turns recounts off).
pub fn parse_recount_budget(text: &str) -> Result<u32, String> {
    parse_share("--recount-budget", text)
}

/// A share between 0 and 1 (`0.01` or `1%`) as millionths; `flag` names
/// the option in the error.
fn parse_share(flag: &str, text: &str) -> Result<u32, String> {
    let t = text.trim();
    let (num, scale) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), 0.01),
        None => (t, 1.0),
    };
    let v: f64 = num
        .parse()
        .map_err(|_| format!("bad {flag} `{text}`: give a share such as `0.01` or `1%`"))?;
    let f = v * scale;
    if !f.is_finite() || !(0.0..=1.0).contains(&f) {
        return Err(format!(
            "{flag} `{text}` is out of range: it must be between 0 and 1 (100%)"
        ));
    }
    Ok((f * 1e6).round() as u32)
}

/// The verification share (millionths) and key asked for by [`verify_options`].
pub fn verify_from(m: &clap::ArgMatches) -> anyhow::Result<(u32, Option<u64>)> {
    let text = m
        .get_one::<String>("verify_fraction")
        .map_or("0", String::as_str);
    let ppm = parse_verify_fraction(text).map_err(UsageError)?;
    Ok((ppm, m.get_one::<u64>("verify_seed").copied()))
}

/// The longest `--max-lease-total`: a year.
pub const MAX_LEASE_TOTAL_SECS: u64 = 365 * 86_400;

/// A duration: a whole number with an optional unit `s`, `m`, `h` or `d`
/// (seconds without one), between 1 s and a year.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (digits, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => t.split_at(i),
        None => (t, "s"),
    };
    let scale = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3_600,
        "d" => 86_400,
        _ => {
            return Err(format!(
                "`{text}` is not a duration: use a whole number with s, m, h or d (e.g. 2h)"
            ))
        }
    };
    let n: u64 = digits.parse().map_err(|_| {
        format!("`{text}` is not a duration: use a whole number with s, m, h or d (e.g. 2h)")
    })?;
    let secs = n.saturating_mul(scale);
    if !(1..=MAX_LEASE_TOTAL_SECS).contains(&secs) {
        return Err(format!("`{text}` is out of range: 1 s to 365 d"));
    }
    Ok(Duration::from_secs(secs))
}

/// `n thread` or `n threads`.
pub fn threads_text(n: usize) -> String {
    format!("{n} thread{}", if n == 1 { "" } else { "s" })
}

/// Why a plan has `got` shards when `--shards asked` was given (empty when
/// it has as many, or none was asked for): a kind plans in whole units.
pub fn shard_count_note(asked: u32, got: u32) -> String {
    if asked == 0 || asked == got {
        return String::new();
    }
    let why = if got == asked + 1 {
        "one more shard holds the graphs smaller than the prefixes the others start from"
    } else if got > asked && got.is_power_of_two() {
        "split plans have a power-of-two number of shards"
    } else if got < asked {
        "the kind has fewer units of work to deal out"
    } else {
        "the kind plans in whole units of work"
    };
    format!(" (asked for {asked}: {why})")
}

#[cfg(test)]
mod tests {
    use super::{parse_verify_fraction, shard_count_note, threads_text};

    #[test]
    fn verify_fractions_parse_and_bad_ones_are_named() {
        assert_eq!(parse_verify_fraction("0"), Ok(0));
        assert_eq!(parse_verify_fraction("0.01"), Ok(10_000));
        assert_eq!(parse_verify_fraction("1%"), Ok(10_000));
        assert_eq!(parse_verify_fraction("1"), Ok(1_000_000));
        for bad in ["1.5", "-0.1", "NaN", "inf"] {
            let e = parse_verify_fraction(bad).unwrap_err();
            assert!(e.contains("out of range") && e.contains(bad), "{e}");
        }
        let e = parse_verify_fraction("lots").unwrap_err();
        assert!(e.starts_with("bad --verify-fraction `lots`"), "{e}");
    }

    #[test]
    fn counts_read_as_english_and_shard_counts_say_why() {
        assert_eq!(threads_text(1), "1 thread");
        assert_eq!(threads_text(4), "4 threads");
        assert_eq!(shard_count_note(0, 65), "");
        assert_eq!(shard_count_note(64, 64), "");
        assert!(shard_count_note(64, 65).contains("asked for 64: one more shard"));
        assert!(shard_count_note(100, 128).contains("power-of-two"));
        assert!(shard_count_note(300, 256).contains("fewer units"));
    }
}
