//! `gamesweep run KIND [params]`: the embedded run (`crate::embedded`), with
//! its local workers over gRPC or, with `--in-process`, by direct calls.

use crate::args::{self, parse_kind_args};
use crate::embedded::{self, EmbeddedRun, RunEnd};
use crate::error::UsageError;
use gamesweep::sweep::{Params, SweepKind};
use gamesweep_report::report;
use std::path::{Path, PathBuf};

/// Arguments of `run`: the kind and its parameters, parsed per kind.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// KIND followed by its parameters and the run options
    /// (`--threads T`, `--shards K`, `--out DIR`); try `gamesweep run uvg --help`.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "KIND [OPTIONS]"
    )]
    pub words: Vec<String>,
}

/// Options every `run` takes besides the kind's own parameters.
pub fn common_run_options(c: clap::Command) -> clap::Command {
    args::verify_options(
        args::project_cores_option(args::plan_options(c)),
        args::RUN_VERIFY_FRACTION,
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
            .value_parser(args::parse_duration),
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
    Path::new(args::SWEEPS_DIR).join(name)
}

/// Run the `run` command.
pub fn exec(a: RunArgs) -> anyhow::Result<()> {
    let (kind, params, m) = parse_kind_args("run", &a.words, common_run_options)?;
    let threads = m
        .get_one::<u32>("threads")
        .map_or_else(args::default_threads, |&t| t as usize);
    let shards = m.get_one::<u32>("shards").copied().unwrap_or(0);
    let out = m
        .get_one::<PathBuf>("out")
        .cloned()
        .unwrap_or_else(|| default_out_dir(kind, &params));
    let quiet = m.get_flag("quiet");
    let sample = args::sample_from(&m)?;
    let (verify_ppm, verify_seed) = args::verify_from(&m)?;
    let in_process = m.get_flag("in_process");
    if in_process && verify_ppm > 0 {
        return Err(UsageError(
            "--replicate-fraction needs a second worker identity to run the copies, and --in-process has one: drop one of them".into(),
        )
        .into());
    }
    let started = std::time::Instant::now();
    // Embedded coordinator + local workers (over gRPC, or by direct
    // calls with --in-process), with a store under `out`, so an
    // interrupted run resumes.
    let cfg = EmbeddedRun {
        out: out.clone(),
        threads,
        shards,
        // The bar only on a terminal: into a pipe or a log, nothing.
        progress: !quiet && crate::progress::on_terminal(),
        fresh: m.get_flag("fresh"),
        accept_loss: m.get_flag("accept_loss"),
        accept_solver_change: m.get_flag("accept_solver_change"),
        sample,
        project_cores: args::project_cores_from(&m),
        verify_ppm,
        verify_seed,
        export_every: m.get_one::<std::time::Duration>("export_every").copied(),
        import: m
            .get_many::<PathBuf>("import")
            .map(|v| v.cloned().collect())
            .unwrap_or_default(),
        trust_keys: m
            .get_many::<PathBuf>("trust_key")
            .map(|v| v.cloned().collect())
            .unwrap_or_default(),
        part: m.get_one::<gamesweep_api::domain::Part>("part").copied(),
        checkpoint_dir: m.get_one::<PathBuf>("checkpoint_dir").cloned(),
        http: !m.get_flag("no_http") && !in_process,
        in_process,
    };
    let o = embedded::run(kind, &params, &cfg)?;
    match &o.end {
        RunEnd::Part {
            progress,
            export,
            bytes,
        } => {
            eprintln!(
                "gamesweep: {} part {} done: its {} in {:.2} s on {}; the sweep has {}, so results.json is not written (a part is not the whole table). Wrote {} ({}): merge the parts' exports into one store (`gamesweep run ... --import FILE` for each, or `gamesweep import FILE --store DIR`) and the sweep finishes with results.json as if run whole",
                kind.name(),
                progress.part,
                crate::output::plural(progress.total.into(), "shard"),
                started.elapsed().as_secs_f64(),
                args::threads_text(threads),
                crate::output::count_of(o.done.into(), o.shards.into(), "shard"),
                export.display(),
                crate::output::plural(*bytes, "byte")
            );
        }
        RunEnd::Sampled(projection) => {
            report::write_projection(&out, projection)?;
            eprintln!(
                "gamesweep: {} sample done: {} in {:.2} s on {}; wrote {}/projection.md and projection.json (rerun without --sample to run the whole plan)",
                kind.name(),
                crate::output::plural(o.positions, "position"),
                started.elapsed().as_secs_f64(),
                args::threads_text(threads),
                out.display()
            );
        }
        RunEnd::Results(rendered, provenance) => {
            let mut written = report::write_results(
                &out,
                rendered,
                &report::Verification::of(provenance.as_deref()),
            )?;
            if report::write_provenance(&out, provenance.as_deref())? {
                written = written.and("provenance.json");
            }
            eprintln!(
                "gamesweep: {} done: {} ({} resumed), {} in {:.2} s on {}; wrote {}/: {written}",
                kind.name(),
                crate::output::plural(o.shards.into(), "shard"),
                o.resumed_done,
                crate::output::plural(o.positions, "position"),
                started.elapsed().as_secs_f64(),
                args::threads_text(threads),
                out.display()
            );
            if let Some(p) = provenance {
                let failed = p.failed_checks();
                for line in &failed {
                    eprintln!("gamesweep: CHECK FAILED: {line}");
                }
                anyhow::ensure!(
                    failed.is_empty(),
                    "{} check(s) of the merged result failed (see above and {}/provenance.json)",
                    failed.len(),
                    out.display()
                );
            }
        }
    }
    Ok(())
}
