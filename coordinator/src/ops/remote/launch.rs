//! `launch KIND [params]`: plan a sweep on the coordinator
//! ([`launch`], a [`LaunchSpec`] in, a [`Launched`] out), and the words of
//! `gamesweep launch` read into a [`LaunchSpec`] and the connection
//! ([`spec_from_words`]: the CLI and Python's `Coordinator.launch` both
//! give words, since a kind's parameters are known only at run time).

use super::Session;
use crate::args;
use crate::connect::Conn;
use crate::error::UsageError;
use gamesweep_api::domain::{LaunchSpec, SweepState, SweepStatus};

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
    Conn::args(args::replication_options(
        c,
        args::LAUNCH_REPLICATE_FRACTION,
    ))
}

/// The sweep `launch WORDS` asks for (`WORDS`: the kind, its parameters and
/// launch's options) and the coordinator it names.
pub fn spec_from_words(words: &[String]) -> anyhow::Result<(LaunchSpec, Conn)> {
    let (kind, params, m) = args::parse_kind_args("launch", words, launch_options)?;
    let (verify_ppm, verify_seed) = args::replication_from(&m)?;
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
    Ok((spec, Conn::from_matches(&m)))
}

/// A sweep launched (or, with `--resume`, found).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Launched {
    /// Its id.
    pub sweep_id: String,
    /// Shards in its plan.
    pub shards: u32,
    /// It existed already (`--resume` continued it).
    pub existing: bool,
    /// What `launch` says of it on stderr: launched with how many shards
    /// (and why not as many as asked), or the state of the sweep resumed.
    #[serde(skip)]
    pub message: String,
}

/// Launch `spec`. With `resume_existing`, an existing sweep of that name
/// with other parameters is refused with what it was launched as.
pub fn launch(s: &mut Session, spec: LaunchSpec) -> anyhow::Result<Launched> {
    let asked_shards = spec.target_shards;
    let resume = spec.resume_existing;
    let (kind_name, params, name) = (spec.kind.clone(), spec.params.clone(), spec.name.clone());
    let reply = match s.call(|c| c.launch(spec)) {
        Err(gamesweep_proto::RpcError::AlreadyExists(msg)) if resume => {
            // "Pick another --name" is no answer to --resume: the user meant
            // this sweep, launched with other parameters.
            let name = name.unwrap_or_default();
            let st = s.call(|c| c.status(Some(&name)))?;
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
    let message = if reply.existing {
        // What `--resume` found: a sweep with nothing left is not "continued".
        let st = s.call(|c| c.status(Some(&reply.sweep_id)))?;
        resumed_text(&reply.sweep_id, st.sweeps.first())
    } else {
        format!(
            "launched {} with {}{}",
            reply.sweep_id,
            crate::output::plural(reply.shards.into(), "shard"),
            args::shard_count_note(asked_shards, reply.shards)
        )
    };
    Ok(Launched {
        sweep_id: reply.sweep_id,
        shards: reply.shards,
        existing: reply.existing,
        message,
    })
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
