//! The words of `gamesweep run KIND [params] [options]` (and of Python's
//! `run`) as a typed request: the options every `run` takes besides the
//! kind's own parameters ([`options`]), what they mean ([`RunOptions`],
//! [`parse`]) and the default output folder ([`default_out_dir`]). The job
//! itself is `ops::run`.

use gamesweep::sweep::{Params, SweepKind};
use gamesweep_api::domain::{Part, SampleRequest};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Options every `run` takes besides the kind's own parameters.
pub fn options(c: clap::Command) -> clap::Command {
    super::replication_options(
        super::project_cores_option(super::plan_options(c)),
        super::RUN_REPLICATE_FRACTION,
    )
        .arg(
        clap::Arg::new("threads")
            .long("threads")
            .value_name("T")
            .help("Worker threads (default: all cores)")
            .value_parser(clap::value_parser!(u32).range(1..=1024)),
    )
    .arg(
        clap::Arg::new("out")
            .long("out")
            .value_name("DIR")
            .help("Where results.json and report.md go (default: sweeps/<kind>[-<params>]; the committed reference runs in runs/ are rewritten only when named here)")
            .value_parser(clap::value_parser!(PathBuf)),
    )
    .arg(
        clap::Arg::new("in_process")
            .long("in-process")
            .help("Drive the embedded coordinator with local threads by direct calls instead of gRPC: the same store, resume, results and provenance, without the network layer (so no dashboard, and no --replicate-fraction: it has one worker identity)")
            .action(clap::ArgAction::SetTrue),
    )
    .arg(
        clap::Arg::new("fresh")
            .long("fresh")
            .help("Discard the stored progress of an earlier run of this folder and start over")
            .action(clap::ArgAction::SetTrue),
    )
    .arg(
        clap::Arg::new("accept_loss")
            .long("accept-loss")
            .help("Start even if the run's store lost acknowledged work (damaged on disk): re-create lost sweep records from the store's journal and run exactly the lost shards again (logged, and recorded in the audit log). Without it such a store is refused with a message naming the damage")
            .action(clap::ArgAction::SetTrue),
    )
    .arg(
        clap::Arg::new("accept_solver_change")
            .long("accept-solver-change")
            .help("Go on with a run (or take in --import files) that another build of the kind's solver started: the shards done so far stay, recorded as computed by the build that computed them, and the rest run under this build; provenance.json and the report's Verification section say which build computed which shards. Without it a run whose solver changed is refused (--fresh starts over)")
            .action(clap::ArgAction::SetTrue),
    )
    .arg(
        clap::Arg::new("export_every")
            .long("export-every")
            .value_name("DURATION")
            .help("Write a checkpoint export of the run every DURATION (e.g. 10m) and when it stops, atomically (a temporary file, fsynced, renamed): to OUT/run.gsx (all of it), or with --checkpoint-dir an incremental file there; `gamesweep import` or `run --import` resumes it elsewhere")
            .value_parser(super::parse_duration),
    )
    .arg(
        clap::Arg::new("checkpoint_dir")
            .long("checkpoint-dir")
            .value_name("DIR")
            .help("Write incremental checkpoints into DIR: each a file DIR/NNNN-HASH.gsx holding only the shards no file in DIR holds yet, every --export-every and when the run stops (a part ends, it finishes, or it is interrupted). Importing every file of DIR (in any order) restores the run: commit DIR to carry a long sweep over many sessions (docs/checkpoints.md, \"Incremental checkpoints, and a campaign over many sessions\")")
            .value_parser(clap::value_parser!(PathBuf)),
    )
    .arg(
        clap::Arg::new("import")
            .long("import")
            .value_name("PATH")
            .action(clap::ArgAction::Append)
            .help("Import this export file, or every *.gsx file in this folder, first (repeatable): the first creates the run if OUT holds none, the others merge into it — shards it lacks are re-validated and added, shards it has are compared (a different result refuses the file, naming the shards); the rest run here")
            .value_parser(clap::value_parser!(PathBuf)),
    )
    .arg(
        clap::Arg::new("trust_key")
            .long("trust-key")
            .value_name("PATH")
            .action(clap::ArgAction::Append)
            .requires("import")
            .help("Trust --import files signed by the key in this key file (`gamesweep key export`), or by any key of the *.key files in this folder (repeatable); besides the run store's own key. Without it a file another store signed imports as untrusted: its results are re-run here before the run can finish")
            .value_parser(clap::value_parser!(PathBuf)),
    )
    .arg(
        clap::Arg::new("no_http")
            .long("no-http")
            .help("Do not serve the dashboard (by default it is on an ephemeral loopback port, its URL printed at start)")
            .action(clap::ArgAction::SetTrue),
    )
    .arg(
        clap::Arg::new("quiet")
            .long("quiet")
            .short('q')
            .help("No progress bar")
            .action(clap::ArgAction::SetTrue),
    )
}

/// The default output folder: `sweeps/<kind>` plus every parameter that
/// differs from its default. `sweeps/` is git-ignored: a user's run never
/// touches the committed reference runs in `runs/` unless `--out` names one.
pub fn default_out_dir(kind: &dyn SweepKind, params: &Params) -> PathBuf {
    let mut name = kind.name().to_string();
    for p in kind.params() {
        let v = params[p.name];
        if p.default != Some(v) {
            name.push_str(&format!(
                "-{}-{}",
                gamesweep_api::text::flag_name(p.name),
                v
            ));
        }
    }
    Path::new(super::SWEEPS_DIR).join(name)
}

/// What `run`'s options ask for, besides the kind and its parameters (its
/// [`Default`]: the options' defaults, as if none were given).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// `--threads T` (default: every core).
    pub threads: usize,
    /// `--shards K` (0: the kind's default).
    pub shards: u32,
    /// `--out DIR` (`None`: [`default_out_dir`]).
    pub out: Option<PathBuf>,
    /// `--quiet`: no progress bar (there is none off a terminal either).
    pub quiet: bool,
    /// `--fresh`.
    pub fresh: bool,
    /// `--accept-loss`.
    pub accept_loss: bool,
    /// `--accept-solver-change`.
    pub accept_solver_change: bool,
    /// `--sample F [--sample-seed N]`.
    pub sample: Option<SampleRequest>,
    /// `--project-cores LIST`.
    pub project_cores: Vec<u32>,
    /// `--replicate-fraction F`, millionths.
    pub verify_ppm: u32,
    /// `--replicate-seed N`.
    pub verify_seed: Option<u64>,
    /// `--export-every DURATION`.
    pub export_every: Option<Duration>,
    /// `--import PATH`, in order.
    pub import: Vec<PathBuf>,
    /// `--trust-key PATH`, in order.
    pub trust_keys: Vec<PathBuf>,
    /// `--part K/M`.
    pub part: Option<Part>,
    /// `--checkpoint-dir DIR`.
    pub checkpoint_dir: Option<PathBuf>,
    /// Not `--no-http`: serve the dashboard (never with `in_process`).
    pub http: bool,
    /// `--in-process`.
    pub in_process: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            threads: super::default_threads(),
            shards: 0,
            out: None,
            quiet: false,
            fresh: false,
            accept_loss: false,
            accept_solver_change: false,
            sample: None,
            project_cores: super::default_project_cores(),
            verify_ppm: 0,
            verify_seed: None,
            export_every: None,
            import: Vec::new(),
            trust_keys: Vec::new(),
            part: None,
            checkpoint_dir: None,
            http: true,
            in_process: false,
        }
    }
}

/// Parse the words after `run` (`KIND [params] [options]`) into the kind,
/// its resolved parameters and the options; a bad word is a usage error
/// naming it. (`--help` prints the help and exits the process, as clap's
/// does: a caller that must not exit refuses it first.)
pub fn parse(words: &[String]) -> anyhow::Result<(&'static dyn SweepKind, Params, RunOptions)> {
    let (kind, params, m) = super::parse_kind_args("run", words, options)?;
    let sample = super::sample_from(&m)?;
    let (verify_ppm, verify_seed) = super::replication_from(&m)?;
    let in_process = m.get_flag("in_process");
    let many = |id: &str| -> Vec<PathBuf> {
        m.get_many::<PathBuf>(id)
            .map(|v| v.cloned().collect())
            .unwrap_or_default()
    };
    let options = RunOptions {
        threads: m
            .get_one::<u32>("threads")
            .map_or_else(super::default_threads, |&t| t as usize),
        shards: m.get_one::<u32>("shards").copied().unwrap_or(0),
        out: m.get_one::<PathBuf>("out").cloned(),
        quiet: m.get_flag("quiet"),
        fresh: m.get_flag("fresh"),
        accept_loss: m.get_flag("accept_loss"),
        accept_solver_change: m.get_flag("accept_solver_change"),
        sample,
        project_cores: super::project_cores_from(&m),
        verify_ppm,
        verify_seed,
        export_every: m.get_one::<Duration>("export_every").copied(),
        import: many("import"),
        trust_keys: many("trust_key"),
        part: m.get_one::<Part>("part").copied(),
        checkpoint_dir: m.get_one::<PathBuf>("checkpoint_dir").cloned(),
        http: !m.get_flag("no_http") && !in_process,
        in_process,
    };
    Ok((kind, params, options))
}
