//! `gamesweep launch KIND [params]`: plan a sweep on a coordinator and print its id.

use crate::args::{self, parse_kind_args};
use crate::connect::{self, Conn};
use gamesweep_api::domain::LaunchSpec;

/// `launch` arguments: the kind, its parameters, and launch options.
#[derive(clap::Args, Debug)]
pub struct LaunchArgs {
    /// KIND followed by its parameters and `--name ID`, `--shards K`,
    /// `--coordinator URL`, `--token-file F`.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "KIND [OPTIONS]"
    )]
    pub words: Vec<String>,
}

/// The options `launch` takes besides the kind's parameters.
fn launch_options(c: clap::Command) -> clap::Command {
    let c = args::plan_options(c)
        .arg(
            clap::Arg::new("name")
                .long("name")
                .value_name("ID")
                .help("Sweep id (default: KIND-<number>)"),
        )
        .arg(
            clap::Arg::new("resume")
                .long("resume")
                .help("If a sweep of this --name exists with the same kind and parameters, continue it (without --sample: widen a sampled sweep to its whole plan)")
                .requires("name")
                .action(clap::ArgAction::SetTrue),
        )
        .arg(
            clap::Arg::new("priority")
                .long("priority")
                .value_name("N")
                .help("Share of the workers relative to the other running sweeps (weighted round robin; with --resume, changes it) [default: 1]")
                .value_parser(clap::value_parser!(u32).range(1..=1000)),
        )
        .arg(
            clap::Arg::new("replicate")
                .long("replicate")
                .value_name("POLICY")
                .value_parser(["all", "sampled"])
                .help("`all`: every shard confirmed by two identities (issued credentials) before the sweep finishes, for publication runs (about twice the CPU; none is skipped for want of a second identity). `sampled` (default): adaptive replication — every result of an identity is confirmed until it has agreed with others 5 times, then a --verify-fraction share of its results"),
        );
    Conn::args(args::verify_options(c, args::LAUNCH_VERIFY_FRACTION))
}

/// Run `launch`.
pub fn exec(a: LaunchArgs) -> anyhow::Result<()> {
    let (kind, params, m) = parse_kind_args(&a.words, launch_options)?;
    let (verify_ppm, verify_seed) = args::verify_from(&m)?;
    let spec = LaunchSpec {
        kind: kind.name().to_string(),
        params,
        name: m.get_one::<String>("name").cloned(),
        target_shards: m.get_one::<u32>("shards").copied().unwrap_or(0),
        resume_existing: m.get_flag("resume"),
        sample: args::sample_from(&m)?,
        verify_ppm,
        verify_seed,
        priority: m.get_one::<u32>("priority").copied().unwrap_or(0),
        replicate_all: m.get_one::<String>("replicate").is_some_and(|p| p == "all"),
    };
    let spec_shards = spec.target_shards;
    let rt = connect::runtime()?;
    let mut c = connect::connect(&rt, &Conn::from_matches(&m))?;
    let reply = rt.block_on(c.launch(spec))?;
    if reply.existing {
        eprintln!("continuing {} ({} shards)", reply.sweep_id, reply.shards);
    } else {
        eprintln!(
            "launched {} with {} shards{}",
            reply.sweep_id,
            reply.shards,
            args::shard_count_note(spec_shards, reply.shards)
        );
    }
    crate::output::print(format_args!("{}\n", reply.sweep_id))?;
    Ok(())
}
