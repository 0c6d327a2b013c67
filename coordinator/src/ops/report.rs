//! `report`: a sweep's report written into a folder, three ways.
//!
//! - [`fetch`] (`gamesweep report ID`): a finished sweep's `results.json`,
//!   `report.md` and `provenance.json` from the coordinator, and the kind's
//!   other files (e.g. `collected-min-value-5.txt`), the figures and
//!   `report.html`, rendered here from `results.json`, as `run` does. A
//!   sweep not finished is refused with why and what to do (for a
//!   cancelled sweep: not to watch it move, it never will).
//! - [`partial`] (`report ID --partial`): a sweep not finished (running,
//!   paused, cancelled, sampled), its shards done so far fetched as an
//!   export (a read), merged and rendered here, marked as partial and not
//!   final at the top of `report.md` and `report.html`, its results in
//!   `results.partial.json` (never `results.json`, which is a final result).
//! - [`rerender`] (`report --from DIR`): the same files re-rendered from
//!   `DIR/results.json`, no coordinator.
//!
//! Each returns a [`Reported`]: the folder and the lines the CLI prints on
//! stderr (what was written, the verification found).

use crate::connect::{self, Conn};
use crate::error::UsageError;
use anyhow::Context as _;
use gamesweep::sweep::Rendered;
use gamesweep_api::domain::{SweepState, SweepStatus};
use gamesweep_engine::core::Provenance;
use gamesweep_engine::export_file;
use gamesweep_report::report;
use std::path::PathBuf;

/// A report of sweep `id` from a coordinator, into `out`.
#[derive(Clone, Debug)]
pub struct ReportRequest {
    /// The sweep's id.
    pub id: String,
    /// The folder to write into.
    pub out: PathBuf,
}

/// A report re-rendered from `dir/results.json`.
#[derive(Clone, Debug)]
pub struct RerenderRequest {
    /// The folder holding `results.json`.
    pub dir: PathBuf,
    /// The folder to write into (`None`: `dir`).
    pub out: Option<PathBuf>,
}

/// A report written.
#[derive(Clone, Debug)]
pub struct Reported {
    /// The folder written.
    pub out: PathBuf,
    /// What the CLI says on stderr, in order: notes, the files written,
    /// what the verification found (`CHECK FAILED` lines included).
    pub lines: Vec<String>,
}

/// The kind and parameters a `results.json` names.
#[derive(serde::Deserialize)]
struct Named {
    kind: String,
    params: gamesweep::sweep::Params,
}

/// `report --from DIR`: render everything again from `DIR/results.json`.
pub fn rerender(r: &RerenderRequest) -> anyhow::Result<Reported> {
    let path = r.dir.join("results.json");
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
    let out = r.out.clone().unwrap_or_else(|| r.dir.clone());
    let verification = report::Verification::of_dir(&r.dir)?;
    // The re-run records travel with the report they are stated in.
    let records = gamesweep_report::reruns::read(&r.dir)?;
    if out != r.dir && !records.is_empty() {
        gamesweep_report::reruns::write_all(&out, &records)?;
    }
    let written = report::write_results(&out, &rendered, &verification)?;
    let line = format!(
        "wrote {}/: {written}, from {}",
        out.display(),
        path.display()
    );
    Ok(Reported {
        out,
        lines: vec![line],
    })
}

/// `report ID`: a finished sweep's report from the coordinator `conn`.
pub fn fetch(conn: &Conn, r: &ReportRequest) -> anyhow::Result<Reported> {
    let (id, out) = (&r.id, &r.out);
    let rt = connect::runtime()?;
    let mut c = connect::connect(&rt, conn)?;
    let got = match rt.block_on(c.result(id)) {
        Ok(got) => got,
        Err(e) => {
            // Say what a sweep that is not done is waiting for, if it is
            // not simply running (the coordinator's message tells to watch).
            let st = rt.block_on(c.status(Some(id))).ok();
            let sweep = st.as_ref().and_then(|r| r.sweeps.first());
            match sweep.and_then(not_finished) {
                Some(why) => return Err(UsageError(why).into()),
                None => return Err(e.into()),
            }
        }
    };
    let mut lines = Vec::new();
    let exports = exports_of(got.provenance.as_ref(), &got.results_json, &mut lines)?;
    let written = report::write_results(
        out,
        &Rendered {
            results_json: got.results_json,
            report_md: got.report_md,
            exports,
        },
        &report::Verification::of(got.provenance.as_ref()),
    )?;
    if report::write_provenance(out, got.provenance.as_ref())? {
        lines.push(format!(
            "wrote {}/: {}",
            out.display(),
            written.and("provenance.json")
        ));
    } else {
        lines.push(format!(
            "wrote {}/: {written} (the coordinator sent no provenance)",
            out.display()
        ));
    }
    if let Some(p) = &got.provenance {
        lines.extend(verification_summary(p));
        lines.extend(
            p.failed_checks()
                .into_iter()
                .map(|line| format!("gamesweep: CHECK FAILED: {line}")),
        );
    }
    Ok(Reported {
        out: out.clone(),
        lines,
    })
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

/// `report ID --partial`: the shards done so far, fetched from the
/// coordinator `conn` as an export (a read), merged and rendered here into
/// `out`, marked partial. A folder holding a `results.json` is refused.
pub fn partial(conn: &Conn, r: &ReportRequest) -> anyhow::Result<Reported> {
    let (id, out) = (r.id.as_str(), r.out.as_path());
    let rt = connect::runtime()?;
    let mut c = connect::connect(&rt, conn)?;
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
    let (done, total) = (export.results.len() as u64, export.plan.len() as u64);
    let rendered = merged_render(&export)?;
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
    let line = format!(
        "wrote a partial report (not final: {}) into {}/: {}",
        crate::output::count_of(done, total, "shard"),
        out.display(),
        report::Written { files }
    );
    Ok(Reported {
        out: out.to_path_buf(),
        lines: vec![line],
    })
}

/// The results of `export`, each checked against its shard, merged and
/// rendered with its kind.
fn merged_render(export: &export_file::Export) -> anyhow::Result<Rendered> {
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
    kind.render(&params, &merged)
        .map_err(|e| anyhow::Error::new(e).context("rendering the done shards"))
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
/// then none, and a line of `lines` says so.
fn exports_of(
    provenance: Option<&Provenance>,
    results_json: &str,
    lines: &mut Vec<String>,
) -> anyhow::Result<Vec<(String, String)>> {
    let Some(p) = provenance else {
        lines.push("note: no provenance from the coordinator, so the kind's extra files (if any) are not written".into());
        return Ok(Vec::new());
    };
    let kind = gamesweep::kinds::find(&p.kind)?;
    let rendered = kind
        .render_from_json(&p.params, results_json)
        .map_err(|e| anyhow::Error::new(e).context("rendering the exports of results.json"))?;
    Ok(rendered.exports)
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
