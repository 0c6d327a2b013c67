//! A sweep run on this machine (`gamesweep run`, Python's `run`): the
//! embedded run (`crate::embedded`: its coordinator and local workers,
//! resuming what the output folder's store holds), then what it produced
//! written into the output folder (results.json, report.md, figures and
//! provenance.json; a sample's projection; a part's export is written by
//! the run), as a [`RunOutcome`] whose [`RunOutcome::messages`] are the
//! lines the CLI prints at the end.

use crate::args;
use crate::args::run::RunOptions;
use crate::embedded::{self, EmbeddedRun, RunEnd};
use crate::error::UsageError;
use crate::output;
use gamesweep::sweep::{Params, SweepKind};
use gamesweep_api::domain::Part;
use gamesweep_report::report::{self, Written};
use std::path::PathBuf;

/// A run: the kind, its parameters and `run`'s options.
#[derive(Clone)]
pub struct RunRequest {
    /// The sweep kind.
    pub kind: &'static dyn SweepKind,
    /// Its parameters, resolved (every one given or defaulted).
    pub params: Params,
    /// The run's options.
    pub options: RunOptions,
}

impl RunRequest {
    /// `run`'s words (`KIND [params] [options]`, as after `gamesweep run`)
    /// as a request: [`args::run::parse`].
    pub fn from_words(words: &[String]) -> anyhow::Result<RunRequest> {
        let (kind, params, options) = args::run::parse(words)?;
        Ok(RunRequest {
            kind,
            params,
            options,
        })
    }

    /// The output folder: `--out`, or [`args::run::default_out_dir`].
    pub fn out(&self) -> PathBuf {
        self.options
            .out
            .clone()
            .unwrap_or_else(|| args::run::default_out_dir(self.kind, &self.params))
    }
}

/// How a run ended, and what it wrote.
#[derive(Clone, Debug)]
pub enum Ended {
    /// The whole plan ran: `written` (results.json, report.md, ...; and
    /// provenance.json) are in the output folder.
    Results {
        /// What was written, in order.
        written: Written,
        /// The provenance's failed checks of the merged result, one line
        /// each (none: all passed, or no provenance).
        failed_checks: Vec<String>,
    },
    /// Its sample ran: projection.md and projection.json were written.
    Sampled,
    /// Its part is done and the sweep is not: no results.json; an export
    /// of everything the run's store holds was written.
    Part {
        /// The part.
        part: Part,
        /// The part's shards.
        part_shards: u32,
        /// The export written (`OUT/run.gsx`).
        export: PathBuf,
        /// Its size in bytes.
        bytes: u64,
    },
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// The kind's name.
    pub kind: &'static str,
    /// The output folder.
    pub out: PathBuf,
    /// Worker threads.
    pub threads: usize,
    /// Seconds from the start to everything written.
    pub seconds: f64,
    /// Shards in the plan.
    pub shards: u32,
    /// Shards done when it ended.
    pub done: u32,
    /// Shards already done when it started (resumed).
    pub resumed_done: u32,
    /// Positions in the merged result (in the sample's shards, for a sample).
    pub positions: u64,
    /// How it ended.
    pub ended: Ended,
}

impl RunOutcome {
    /// The lines `gamesweep run` prints (to standard error) at the end: the
    /// summary, then one line per failed check.
    pub fn messages(&self) -> Vec<String> {
        let mut lines = vec![self.summary()];
        if let Ended::Results { failed_checks, .. } = &self.ended {
            lines.extend(
                failed_checks
                    .iter()
                    .map(|l| format!("gamesweep: CHECK FAILED: {l}")),
            );
        }
        lines
    }

    /// An error if a check of the merged result failed (the run's exit
    /// status), naming how many.
    pub fn checks_passed(&self) -> anyhow::Result<()> {
        if let Ended::Results { failed_checks, .. } = &self.ended {
            anyhow::ensure!(
                failed_checks.is_empty(),
                "{} check(s) of the merged result failed (see above and {}/provenance.json)",
                failed_checks.len(),
                self.out.display()
            );
        }
        Ok(())
    }

    /// The summary line.
    fn summary(&self) -> String {
        let on = args::threads_text(self.threads);
        match &self.ended {
            Ended::Part {
                part,
                part_shards,
                export,
                bytes,
            } => format!(
                "gamesweep: {} part {} done: its {} in {:.2} s on {on}; the sweep has {}, so results.json is not written (a part is not the whole table). Wrote {} ({}): merge the parts' exports into one store (`gamesweep run ... --import FILE` for each, or `gamesweep import FILE --store DIR`) and the sweep finishes with results.json as if run whole",
                self.kind,
                part,
                output::plural((*part_shards).into(), "shard"),
                self.seconds,
                output::count_of(self.done.into(), self.shards.into(), "shard"),
                export.display(),
                output::plural(*bytes, "byte")
            ),
            Ended::Sampled => format!(
                "gamesweep: {} sample done: {} in {:.2} s on {on}; wrote {}/projection.md and projection.json (rerun without --sample to run the whole plan)",
                self.kind,
                output::plural(self.positions, "position"),
                self.seconds,
                self.out.display()
            ),
            Ended::Results { written, .. } => format!(
                "gamesweep: {} done: {} ({} resumed), {} in {:.2} s on {on}; wrote {}/: {written}",
                self.kind,
                output::plural(self.shards.into(), "shard"),
                self.resumed_done,
                output::plural(self.positions, "position"),
                self.seconds,
                self.out.display()
            ),
        }
    }
}

/// Run `r` on this machine: an embedded coordinator over the store under
/// the output folder (so an interrupted run resumes) and local workers
/// (over gRPC, or by direct calls with `in_process`); then write what it
/// produced into the output folder. The progress bar (on a terminal,
/// without `quiet`) and the dashboard's URL go to standard error as it
/// runs; a failed check of the merged result is in the outcome
/// ([`RunOutcome::checks_passed`]), not an error.
pub fn run(r: &RunRequest) -> anyhow::Result<RunOutcome> {
    let o = &r.options;
    if o.in_process && o.verify_ppm > 0 {
        return Err(UsageError(
            "--replicate-fraction needs a second worker identity to run the copies, and --in-process has one: drop one of them".into(),
        )
        .into());
    }
    let out = r.out();
    let started = std::time::Instant::now();
    let cfg = EmbeddedRun {
        out: out.clone(),
        // The bar only on a terminal: into a pipe or a log, nothing.
        progress: !o.quiet && crate::progress::on_terminal(),
        options: o.clone(),
    };
    let e = embedded::run(r.kind, &r.params, &cfg)?;
    let ended = match e.end {
        RunEnd::Part {
            progress,
            export,
            bytes,
        } => Ended::Part {
            part: progress.part,
            part_shards: progress.total,
            export,
            bytes,
        },
        RunEnd::Sampled(projection) => {
            report::write_projection(&out, &projection)?;
            Ended::Sampled
        }
        RunEnd::Results(rendered, provenance) => {
            let mut written = report::write_results(
                &out,
                &rendered,
                &report::Verification::of(provenance.as_deref()),
            )?;
            if report::write_provenance(&out, provenance.as_deref())? {
                written = written.and("provenance.json");
            }
            Ended::Results {
                written,
                failed_checks: provenance.map(|p| p.failed_checks()).unwrap_or_default(),
            }
        }
    };
    Ok(RunOutcome {
        kind: r.kind.name(),
        out,
        threads: o.threads,
        seconds: started.elapsed().as_secs_f64(),
        shards: e.shards,
        done: e.done,
        resumed_done: e.resumed_done,
        positions: e.positions,
        ended,
    })
}
