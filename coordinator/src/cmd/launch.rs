//! `gamesweep launch KIND [params]`: plan a sweep on a coordinator and print its id.

use crate::args::{self, parse_kind_args};
use crate::connect::{self, Conn};
use crate::error::UsageError;
use gamesweep_api::domain::{LaunchSpec, SweepState, SweepStatus};

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
pub fn launch_options(c: clap::Command) -> clap::Command {
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
                .help("`all`: every shard confirmed by two identities (issued credentials) before the sweep finishes, for publication runs (about twice the CPU; none is skipped for want of a second identity). `sampled` (default): adaptive replication — every result of an identity is confirmed until it has agreed with others 5 times, then a --replicate-fraction share of its results"),
        );
    Conn::args(args::verify_options(c, args::LAUNCH_VERIFY_FRACTION))
}

/// The sweep `launch WORDS` asks for (`WORDS`: the kind, its parameters and
/// launch's options), and the parsed words (they hold the connection too).
pub fn launch_spec(words: &[String]) -> anyhow::Result<(LaunchSpec, clap::ArgMatches)> {
    let (kind, params, m) = parse_kind_args("launch", words, launch_options)?;
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
        part: m.get_one::<gamesweep_api::domain::Part>("part").copied(),
    };
    Ok((spec, m))
}

/// Run `launch`.
pub fn exec(a: LaunchArgs) -> anyhow::Result<()> {
    let (spec, m) = launch_spec(&a.words)?;
    let spec_shards = spec.target_shards;
    let rt = connect::runtime()?;
    let mut c = connect::connect(&rt, &Conn::from_matches(&m))?;
    let resume = spec.resume_existing;
    let (kind_name, params) = (spec.kind.clone(), spec.params.clone());
    let reply = match rt.block_on(c.launch(spec)) {
        Err(gamesweep_proto::RpcError::AlreadyExists(msg)) if resume => {
            // "Pick another --name" is no answer to --resume: the user meant
            // this sweep, launched with other parameters.
            let name = m.get_one::<String>("name").cloned().unwrap_or_default();
            let st = rt.block_on(c.status(Some(&name)))?;
            return Err(match st.sweeps.first() {
                Some(s) => UsageError(format!(
                    "sweep `{}` was launched as `{}`, not `{}`: --resume continues a sweep only with the same kind and parameters (drop --resume and pick another --name to launch these)",
                    gamesweep_api::quote_prefix(&name),
                    gamesweep_api::text::with_flags(&s.kind, &s.params),
                    gamesweep_api::text::with_flags(&kind_name, &params)
                ))
                .into(),
                None => gamesweep_proto::RpcError::AlreadyExists(msg).into(),
            });
        }
        r => r?,
    };
    if reply.existing {
        // What `--resume` found: a sweep with nothing left is not "continued".
        let st = rt.block_on(c.status(Some(&reply.sweep_id)))?;
        eprintln!("{}", resumed_text(&reply.sweep_id, st.sweeps.first()));
    } else {
        eprintln!(
            "launched {} with {}{}",
            reply.sweep_id,
            crate::output::plural(reply.shards.into(), "shard"),
            args::shard_count_note(spec_shards, reply.shards)
        );
    }
    crate::output::print(format_args!("{}\n", reply.sweep_id))?;
    Ok(())
}

/// What `launch --resume` says of the existing sweep `id` it found, by the
/// state it is in now.
fn resumed_text(id: &str, s: Option<&SweepStatus>) -> String {
    let Some(s) = s else {
        return format!("continuing {id}");
    };
    let done = crate::output::count_of(s.shards_done.into(), s.shards_total.into(), "shard");
    match s.state {
        SweepState::Done => format!(
            "{id} is already done ({done}): nothing to continue; `gamesweep report {id}` fetches its results"
        ),
        SweepState::Sampled => format!(
            "{id} has finished its sample ({done}): nothing more runs until it is widened (`launch --resume` without --sample)"
        ),
        SweepState::Paused => format!(
            "{id} is paused ({done}): `gamesweep resume {id}` hands its shards out again"
        ),
        SweepState::Cancelled => format!(
            "{id} is cancelled ({done}): --resume does not restart it; launch under another --name to run it again"
        ),
        SweepState::Running | SweepState::Failed => format!("continuing {id} ({done})"),
    }
}
