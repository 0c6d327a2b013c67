//! `gamesweep report ID [--out DIR]`: fetch a finished sweep's
//! `results.json`, `report.md` and `provenance.json` from the coordinator,
//! and write the kind's other files (e.g. `collected-min-value-5.txt`), the
//! figures and `report.html`, rendered here from `results.json`, as `run`
//! does. `gamesweep report --from DIR`: the same files re-rendered from
//! `DIR/results.json`, no coordinator.
//!
//! `gamesweep report ID --partial`: a sweep not finished (running, paused,
//! cancelled, sampled) has no final report; this renders one from the
//! shards done so far (fetched as an export, a read), marked as partial and
//! not final at the top of `report.md` and `report.html`, its results in
//! `results.partial.json` (never `results.json`, which is a final result),
//! by default in `sweeps/ID-partial/`. Without `--partial`, `report` on such
//! a sweep says why there is no report and what to do (for a cancelled
//! sweep: not to watch it move, it never will).

use crate::connect::{self, Conn};
use crate::error::UsageError;
use anyhow::Context as _;
use gamesweep::sweep::Rendered;
use gamesweep_api::domain::{SweepState, SweepStatus};
use gamesweep_engine::core::Provenance;
use gamesweep_engine::export_file;
use gamesweep_report::report;
use std::path::{Path, PathBuf};

/// `report` options.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Sweep id.
    #[arg(required_unless_present = "from")]
    pub id: Option<String>,
    /// Re-render a report from the `results.json` in DIR instead of
    /// fetching one: `report.md`, `report.html`, the figures and the kind's
    /// other files, written back into DIR (or --out); no coordinator.
    #[arg(long, value_name = "DIR", conflicts_with = "id")]
    pub from: Option<PathBuf>,
    /// For a sweep not finished (running, paused, cancelled, sampled): a
    /// partial report of the shards done so far, marked "partial, not
    /// final" in report.md and report.html, its results in
    /// results.partial.json [default --out: sweeps/<ID>-partial].
    #[arg(long, conflicts_with = "from")]
    pub partial: bool,
    /// Output directory [default: sweeps/<ID>, or the --from DIR].
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub conn: Conn,
}

/// The kind and parameters a `results.json` names.
#[derive(serde::Deserialize)]
struct Named {
    kind: String,
    params: gamesweep::sweep::Params,
}

/// `report --from DIR`: render everything again from `DIR/results.json`.
fn exec_from(dir: &Path, out: Option<PathBuf>) -> anyhow::Result<()> {
    let path = dir.join("results.json");
    let json =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let named: Named = serde_json::from_str(&json).map_err(|e| {
        anyhow::anyhow!(
            "{} does not name its kind and parameters: {e}",
            path.display()
        )
    })?;
    let kind = gamesweep::kinds::find(&named.kind)?;
    let params = kind.resolve_params(&named.params)?;
    let rendered = kind
        .render_from_json(&params, &json)
        .map_err(|e| anyhow::Error::new(e).context(format!("rendering {}", path.display())))?;
    if rendered.results_json != json {
        anyhow::bail!(
            "{} is not in the kind's exact format (it does not re-render byte for byte); not rewriting it",
            path.display()
        );
    }
    let out = out.unwrap_or_else(|| dir.to_path_buf());
    let written = report::write_results(&out, &rendered, &report::Verification::of_dir(dir)?)?;
    eprintln!(
        "wrote {}/: {written}, from {}",
        out.display(),
        path.display()
    );
    Ok(())
}

/// Run `report`.
pub fn exec(a: ReportArgs) -> anyhow::Result<()> {
    if let Some(dir) = &a.from {
        return exec_from(dir, a.out);
    }
    let Some(id) = a.id else {
        anyhow::bail!("report needs a sweep id, or --from DIR");
    };
    let rt = connect::runtime()?;
    let mut c = connect::connect(&rt, &a.conn)?;
    if a.partial {
        let out = a.out.unwrap_or_else(|| {
            PathBuf::from(crate::args::SWEEPS_DIR).join(format!("{id}-partial"))
        });
        return exec_partial(&rt, &mut c, &id, &out);
    }
    let r = match rt.block_on(c.result(&id)) {
        Ok(r) => r,
        Err(e) => {
            // Say what a sweep that is not done is waiting for, if it is
            // not simply running (the coordinator's message tells to watch).
            let st = rt.block_on(c.status(Some(&id))).ok();
            let sweep = st.as_ref().and_then(|r| r.sweeps.first());
            match sweep.and_then(not_finished) {
                Some(why) => return Err(UsageError(why).into()),
                None => return Err(e.into()),
            }
        }
    };
    let out = a
        .out
        .unwrap_or_else(|| PathBuf::from(crate::args::SWEEPS_DIR).join(&id));
    let exports = exports_of(r.provenance.as_ref(), &r.results_json)?;
    let written = report::write_results(
        &out,
        &Rendered {
            results_json: r.results_json,
            report_md: r.report_md,
            exports,
        },
        &report::Verification::of(r.provenance.as_ref()),
    )?;
    if report::write_provenance(&out, r.provenance.as_ref())? {
        eprintln!(
            "wrote {}/: {}",
            out.display(),
            written.and("provenance.json")
        );
    } else {
        eprintln!(
            "wrote {}/: {written} (the coordinator sent no provenance)",
            out.display()
        );
    }
    if let Some(p) = &r.provenance {
        print_verification(p);
    }
    Ok(())
}

/// Why sweep `s` has no final report and what to do, for a sweep that will
/// not get one by waiting (cancelled, paused, sampled); `None` for others
/// (running: the coordinator's own message says to watch it).
fn not_finished(s: &SweepStatus) -> Option<String> {
    let id = &s.sweep_id;
    let done = crate::output::count_of(s.shards_done.into(), s.shards_total.into(), "shard");
    let partial = format!(
        "`gamesweep report {id} --partial` writes a partial report of the done shards (marked not final)"
    );
    match s.state {
        SweepState::Cancelled => Some(format!(
            "sweep `{id}` was cancelled with {done} done, so it will never finish and has no report; {partial}; to carry on from its done shards, `gamesweep export {id} FILE`, then `gamesweep import FILE --name NEW` (admin token) and run workers"
        )),
        SweepState::Paused => Some(format!(
            "sweep `{id}` is paused with {done} done: nothing runs and it has no report until it is resumed (`gamesweep resume {id}`, admin token) and finishes; meanwhile {partial}"
        )),
        SweepState::Sampled => Some(format!(
            "sweep `{id}` has run its sample ({done}) and stops there: its projection is `gamesweep project {id}`; widen it to the whole plan with `gamesweep launch KIND ... --name {id} --resume` (without --sample) for a report; meanwhile {partial}"
        )),
        _ => None,
    }
}

/// `report ID --partial`: the shards done so far, fetched as an export (a
/// read), merged and rendered here into `out`, marked partial.
fn exec_partial(
    rt: &tokio::runtime::Runtime,
    c: &mut gamesweep_proto::Remote,
    id: &str,
    out: &Path,
) -> anyhow::Result<()> {
    if out.join("results.json").exists() {
        return Err(UsageError(format!(
            "{} holds a results.json (a final report?): a partial report is not written over it; pick another --out",
            out.display()
        ))
        .into());
    }
    let state = rt
        .block_on(c.status(Some(id)))
        .with_context(|| format!("reading the status of {id}"))?
        .sweeps
        .into_iter()
        .next()
        .map(|s| s.state);
    let bytes = rt
        .block_on(c.export(id))
        .with_context(|| format!("fetching the done shards of {id}"))?;
    let export = export_file::decode(&bytes)
        .map_err(|e| anyhow::anyhow!("the coordinator sent a bad export: {e}"))?
        .export;
    let kind = gamesweep::kinds::find(&export.kind)?;
    let params = kind.resolve_params(&export.params)?;
    let mut merged = kind.empty();
    for r in &export.results {
        let shard = export.plan.get(r.index as usize).ok_or_else(|| {
            anyhow::anyhow!(
                "the coordinator sent a result of shard {}, not in its plan",
                r.index
            )
        })?;
        let o = kind
            .decode(r.result.as_bytes())
            .with_context(|| format!("decoding the result of shard {}", r.index))?;
        kind.validate(&params, shard, &o)?;
        merged.merge(o)?;
    }
    let rendered = kind
        .render(&params, &merged)
        .map_err(|e| anyhow::Error::new(e).context("rendering the done shards"))?;
    let (done, total) = (export.results.len() as u64, export.plan.len() as u64);
    let banner = partial_banner(id, state, done, total);
    let rendered = Rendered {
        report_md: with_banner(&rendered.report_md, &banner),
        ..rendered
    };
    let written = report::write_results(out, &rendered, &report::Verification::Unrecorded)?;
    // A final result is `results.json`; this one is named as what it is.
    std::fs::rename(out.join("results.json"), out.join(PARTIAL_RESULTS))
        .with_context(|| format!("naming {}/{PARTIAL_RESULTS}", out.display()))?;
    let files: Vec<String> = written
        .files
        .into_iter()
        .map(|f| {
            if f == "results.json" {
                PARTIAL_RESULTS.to_string()
            } else {
                f
            }
        })
        .collect();
    eprintln!(
        "wrote a partial report (not final: {}) into {}/: {}",
        crate::output::count_of(done, total, "shard"),
        out.display(),
        report::Written { files }
    );
    Ok(())
}

/// The name of a partial report's results (never `results.json`).
pub const PARTIAL_RESULTS: &str = "results.partial.json";

/// The notice at the top of a partial report.
fn partial_banner(id: &str, state: Option<SweepState>, done: u64, total: u64) -> String {
    let state = state.map_or_else(|| "not finished".to_string(), |s| s.to_string());
    format!(
        "> **Partial report, not final.** Sweep `{id}` is {state}: {} done. Everything here is of those shards only: a smallest position, a count or a maximum may change, and none is the sweep's result. Its results are in `{PARTIAL_RESULTS}`.\n",
        crate::output::count_of(done, total, "shard")
    )
}

/// `md` with `banner` after its title line (or first, without one).
fn with_banner(md: &str, banner: &str) -> String {
    match md.split_once('\n') {
        Some((title, rest)) if title.starts_with("# ") => format!("{title}\n\n{banner}{rest}"),
        _ => format!("{banner}\n{md}"),
    }
}

/// The kind's exports (files beside `report.md`), rendered from
/// `results.json` with the kind and parameters named in the provenance. A
/// coordinator that sent no provenance leaves nothing to render them with:
/// then none, and a line on stderr says so.
fn exports_of(
    provenance: Option<&Provenance>,
    results_json: &str,
) -> anyhow::Result<Vec<(String, String)>> {
    let Some(p) = provenance else {
        eprintln!("note: no provenance from the coordinator, so the kind's extra files (if any) are not written");
        return Ok(Vec::new());
    };
    let kind = gamesweep::kinds::find(&p.kind)?;
    let rendered = kind
        .render_from_json(&p.params, results_json)
        .map_err(|e| anyhow::Error::new(e).context("rendering the exports of results.json"))?;
    Ok(rendered.exports)
}

/// Say on stderr what the verification found (from `provenance.json`).
fn print_verification(p: &Provenance) {
    if let Some(text) = verification_summary(p) {
        eprintln!("{text}");
    }
    for line in p.failed_checks() {
        eprintln!("gamesweep: CHECK FAILED: {line}");
    }
}

/// The one-paragraph summary of a provenance's verification (`None`:
/// nothing was verified).
fn verification_summary(p: &Provenance) -> Option<String> {
    if p.verify_ppm == 0 && p.shards_rechecked == 0 {
        return (!p.confirmation.statement.is_empty()).then(|| p.confirmation.statement.clone());
    }
    let mut out = format!(
        "{}\n{}",
        p.confirmation.statement,
        report::replication_line(p)
    );
    if !p.disagreeing_workers.is_empty() {
        out.push_str(&format!(
            "\ndisagreeing workers (out-voted): {}",
            p.disagreeing_workers.join(", ")
        ));
    }
    if !p.quarantined_workers.is_empty() {
        out.push_str(&format!(
            "\nquarantined workers: {}",
            p.quarantined_workers.join(", ")
        ));
    }
    Some(out)
}
