//! Command-line arguments shared by several commands: a sweep kind and its
//! parameters (`KIND [--param N]...`, options built at run time from the
//! kind's `params()`, so adding a kind adds its command line), the planning
//! options of `run` and `launch`, and the default thread and core counts;
//! [`run`]: `run`'s words as a typed request.

pub mod run;

use crate::error::UsageError;
use anyhow::Context as _;
use gamesweep::sweep::{Params, SweepKind};
use gamesweep_api::domain::SampleRequest;
use gamesweep_api::text::flag_name;
use std::time::Duration;

/// Where `run` (and `report ID`) write by default, relative to the working
/// directory: git-ignored, so a user's run never rewrites the committed
/// reference runs in `runs/` unless `--out` names one.
pub const SWEEPS_DIR: &str = "sweeps";

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
                flag_name(p.name),
                p.help,
                p.min,
                p.max,
                default
            ));
        }
    }
    out
}

/// Build the clap command for one sweep kind's parameters, plus `common`
/// options, as `gamesweep VERB KIND` (`verb`: `run` or `launch`).
pub fn kind_command(
    verb: &str,
    kind: &dyn SweepKind,
    common: impl FnOnce(clap::Command) -> clap::Command,
) -> clap::Command {
    let mut c = clap::Command::new(kind.name())
        .about(kind.about())
        .override_usage(format!("gamesweep {verb} {} [OPTIONS]", kind.name()))
        .no_binary_name(true);
    for p in kind.params() {
        let long: &'static str = Box::leak(flag_name(p.name).into_boxed_str());
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

/// `gamesweep VERB` as the man pages and shell completions show it: one
/// subcommand per kind of the registry (its parameters and `common`), so
/// that `gamesweep run <TAB>` offers the kinds and `gamesweep run uvg
/// --<TAB>` their parameters. With `options_here`, `common` is listed on
/// `VERB` itself too (the man page of `run` lists its options; a completion
/// must not offer them before the kind, where they are not accepted).
/// `parsed` is the command as parsed (its about texts are kept).
pub fn documented_kinds_command(
    parsed: clap::Command,
    verb: &'static str,
    common: fn(clap::Command) -> clap::Command,
    options_here: bool,
) -> clap::Command {
    let mut c = clap::Command::new(verb)
        .subcommand_value_name("KIND")
        .subcommand_help_heading("KINDS")
        .subcommand_required(true);
    if let Some(about) = parsed.get_about() {
        c = c.about(about.clone());
    }
    if let Some(about) = parsed.get_long_about() {
        c = c.long_about(about.clone());
    }
    if options_here {
        c = common(c);
    }
    for k in gamesweep::kinds::registry() {
        // No `--version` here: `run KIND` parses the kind's parameters
        // itself and refuses it, so its page must not list it.
        c = c.subcommand(
            kind_command(verb, *k, common)
                .no_binary_name(false)
                .disable_version_flag(true),
        );
    }
    c
}

/// The sweep kind named `name`; for a name that is no kind, a usage error
/// that lists the kinds and suggests the nearest one (`uvgg`: `uvg`).
pub fn find_kind(name: &str) -> anyhow::Result<&'static dyn SweepKind> {
    gamesweep::kinds::find(name).map_err(|e| {
        let names: Vec<&str> = gamesweep::kinds::registry().iter().map(|k| k.name()).collect();
        match did_you_mean(name, &names) {
            Some(near) => UsageError(format!(
                "unknown sweep kind `{}`: did you mean `{near}`? (kinds: {}; `gamesweep kinds` lists their parameters)",
                gamesweep_api::quote_prefix(name),
                names.join(", ")
            ))
            .into(),
            None => anyhow::Error::new(e),
        }
    })
}

/// The one of `candidates` nearest to `word` by edit distance, if it is
/// near enough to be a typo (at most a third of its letters, and at least
/// one, differ) and no other is as near.
pub fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    let mut tie = false;
    for &c in candidates {
        let d = edit_distance(&word.to_lowercase(), &c.to_lowercase());
        match best {
            Some((b, _)) if d > b => {}
            Some((b, _)) if d == b => tie = true,
            _ => {
                best = Some((d, c));
                tie = false;
            }
        }
    }
    best.filter(|&(d, _)| d <= limit && !tie).map(|(_, c)| c)
}

/// Levenshtein distance of two words (in characters).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// A clap error as one convention for every error of `gamesweep`:
/// "gamesweep: " and clap's message without its own "error: " (its tips and
/// usage lines follow).
pub fn clap_error_text(e: &clap::Error) -> String {
    let text = e.to_string();
    let text = text.trim_end();
    text.strip_prefix("error: ").unwrap_or(text).to_string()
}

/// Parse `KIND [--param N]...` (the first word is the kind) of `gamesweep
/// VERB` into the kind, its resolved parameters and the matches (for the
/// caller's common options).
pub fn parse_kind_args(
    verb: &str,
    words: &[String],
    common: impl FnOnce(clap::Command) -> clap::Command,
) -> anyhow::Result<(&'static dyn SweepKind, Params, clap::ArgMatches)> {
    let Some(name) = words.first() else {
        return Err(UsageError(format!(
            "which sweep? e.g. `gamesweep {verb} uvg --max-n 9`. Kinds:\n{}",
            kinds_help()
        ))
        .into());
    };
    if matches!(name.as_str(), "--help" | "-h" | "help") {
        // Help without a kind: the options every kind takes, then the kinds.
        let mut c = common(
            clap::Command::new("KIND")
                .override_usage(format!("gamesweep {verb} KIND [OPTIONS]"))
                .no_binary_name(true)
                .after_help(format!(
                    "Kinds and their own options (`gamesweep {verb} KIND --help` for one):\n{}",
                    kinds_help()
                )),
        );
        c.print_help()?;
        std::process::exit(0);
    }
    let kind = find_kind(name)?;
    let matches = match kind_command(verb, kind, common).try_get_matches_from(&words[1..]) {
        Ok(m) => m,
        Err(e) if matches!(e.kind(), clap::error::ErrorKind::DisplayHelp) => {
            e.exit();
        }
        Err(e) => return Err(UsageError(clap_error_text(&e)).into()),
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

/// The planning options `run` and `launch` share: `--shards K`, `--sample F`
/// and `--sample-seed N`.
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
        clap::Arg::new("part")
            .long("part")
            .value_name("K/M")
            .conflicts_with("sample")
            .help("Run only part K of M of the sweep: the shards whose index is K mod M (K is 0..M-1). The plan stays the whole sweep's, so parts run anywhere (the same --shards) and their exports merge with `gamesweep import`; results.json is written only once every shard is in")
            .value_parser(parse_part),
    )
}

/// `--part K/M`.
pub fn parse_part(text: &str) -> Result<gamesweep_api::domain::Part, String> {
    gamesweep_api::domain::Part::parse(text)
}

/// `run`'s `--project-cores LIST` (a sample's projection is written by
/// `run` itself; `launch`'s is asked for later with `gamesweep project`).
pub fn project_cores_option(c: clap::Command) -> clap::Command {
    c.arg(
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

/// The core counts asked for by [`project_cores_option`] (default: [`default_project_cores`]).
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

/// `launch`'s default replication share: one shard in a hundred runs again
/// on another worker (several workers; see `core::replication`).
pub const LAUNCH_REPLICATE_FRACTION: &str = "0.01";

/// `run`'s default replication share: none (its one local worker process
/// has one worker identity, so no copy could run on another worker).
pub const RUN_REPLICATE_FRACTION: &str = "0";

/// Add `--replicate-fraction F` (default `default`) and `--replicate-seed
/// N`. Their names before they said what they set, `--verify-fraction`
/// and `--verify-seed`, are kept as hidden aliases (scripts using them go
/// on working; *verify* is `gamesweep verify`).
pub fn replication_options(c: clap::Command, default: &'static str) -> clap::Command {
    c.arg(
        clap::Arg::new("replicate_fraction")
            .long("replicate-fraction")
            .alias("verify-fraction")
            .value_name("F")
            .default_value(default)
            .help("Share of the shards (0..1, or a percentage such as 1%) whose accepted result is run again by another identity and compared (replication); a mismatch is settled by a third run"),
    )
    .arg(
        clap::Arg::new("replicate_seed")
            .long("replicate-seed")
            .alias("verify-seed")
            .value_name("N")
            .help("Key of the hash selecting the replicated shards [default: the coordinator picks one at random]")
            .value_parser(clap::value_parser!(u64)),
    )
}

/// A replication share as millionths: `0.01` or `1%`; 0 to 1.
pub fn parse_replicate_fraction(text: &str) -> Result<u32, String> {
    parse_share("--replicate-fraction", text)
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

/// The replication share (millionths) and key asked for by [`replication_options`].
pub fn replication_from(m: &clap::ArgMatches) -> anyhow::Result<(u32, Option<u64>)> {
    let text = m
        .get_one::<String>("replicate_fraction")
        .map_or("0", String::as_str);
    let ppm = parse_replicate_fraction(text).map_err(UsageError)?;
    Ok((ppm, m.get_one::<u64>("replicate_seed").copied()))
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
    crate::output::plural(n as u64, "thread")
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
    use super::{did_you_mean, parse_replicate_fraction, shard_count_note, threads_text};

    #[test]
    fn replicate_fractions_parse_and_bad_ones_are_named() {
        assert_eq!(parse_replicate_fraction("0"), Ok(0));
        assert_eq!(parse_replicate_fraction("0.01"), Ok(10_000));
        assert_eq!(parse_replicate_fraction("1%"), Ok(10_000));
        assert_eq!(parse_replicate_fraction("1"), Ok(1_000_000));
        for bad in ["1.5", "-0.1", "NaN", "inf"] {
            let e = parse_replicate_fraction(bad).unwrap_err();
            assert!(e.contains("out of range") && e.contains(bad), "{e}");
        }
        let e = parse_replicate_fraction("lots").unwrap_err();
        assert!(e.starts_with("bad --replicate-fraction `lots`"), "{e}");
    }

    #[test]
    fn a_typo_gets_the_nearest_name_and_a_far_word_none() {
        let kinds = ["uvg", "col", "uvg-degree3", "myopic-tree"];
        assert_eq!(did_you_mean("uvgg", &kinds), Some("uvg"));
        assert_eq!(did_you_mean("UVG", &kinds), Some("uvg"));
        assert_eq!(did_you_mean("coll", &kinds), Some("col"));
        assert_eq!(did_you_mean("uvg-degre3", &kinds), Some("uvg-degree3"));
        assert_eq!(did_you_mean("chess", &kinds), None);
        // Equally near to two: no guess.
        assert_eq!(did_you_mean("cvg", &["uvg", "cog"]), None);
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
