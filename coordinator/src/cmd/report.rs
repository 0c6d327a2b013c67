//! `gamesweep report ID [--out DIR]`: fetch a finished sweep's
//! `results.json` and `report.md` from the coordinator, and write the kind's
//! other files (e.g. `collected-min-value-5.txt`), the figures and
//! `report.html`, rendered here from `results.json`, as `run` does.
//! `gamesweep report --from DIR`: the same files re-rendered from
//! `DIR/results.json`, no coordinator.

use crate::connect::{self, Conn};
use anyhow::Context as _;
use gamesweep::sweep::Rendered;
use gamesweep_engine::core::Provenance;
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
    let written = report::write_results(&out, &rendered, &report::Verification::of_dir(dir))?;
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
    let r = rt.block_on(c.result(&id))?;
    let out = a
        .out
        .unwrap_or_else(|| PathBuf::from(crate::args::SWEEPS_DIR).join(&id));
    let exports = exports_of(&r.provenance_json, &r.results_json)?;
    let written = report::write_results(
        &out,
        &Rendered {
            results_json: r.results_json,
            report_md: r.report_md,
            exports,
        },
        &report::Verification::from_json(&r.provenance_json),
    )?;
    if report::write_provenance(&out, &r.provenance_json)? {
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
    print_verification(&r.provenance_json);
    Ok(())
}

/// The kind's exports (files beside `report.md`), rendered from
/// `results.json` with the kind and parameters named in the provenance. A
/// coordinator that sent no provenance leaves nothing to render them with:
/// then none, and a line on stderr says so.
fn exports_of(provenance_json: &str, results_json: &str) -> anyhow::Result<Vec<(String, String)>> {
    if provenance_json.is_empty() {
        eprintln!("note: no provenance from the coordinator, so the kind's extra files (if any) are not written");
        return Ok(Vec::new());
    }
    let p: Provenance = serde_json::from_str(provenance_json)
        .map_err(|e| anyhow::anyhow!("the coordinator's provenance.json is not valid: {e}"))?;
    let kind = gamesweep::kinds::find(&p.kind)?;
    let rendered = kind
        .render_from_json(&p.params, results_json)
        .map_err(|e| anyhow::Error::new(e).context("rendering the exports of results.json"))?;
    Ok(rendered.exports)
}

/// Say on stderr what the verification found (from `provenance.json`).
fn print_verification(provenance_json: &str) {
    if let Some(text) = verification_summary(provenance_json) {
        eprintln!("{text}");
    }
    if let Ok(p) = serde_json::from_str::<Provenance>(provenance_json) {
        for line in p.failed_checks() {
            eprintln!("gamesweep: CHECK FAILED: {line}");
        }
    }
}

/// The one-paragraph summary of a provenance's verification (`None`: no
/// provenance, or nothing was verified).
fn verification_summary(provenance_json: &str) -> Option<String> {
    let p: Provenance = serde_json::from_str(provenance_json).ok()?;
    if p.verify_ppm == 0 && p.shards_rechecked == 0 {
        return (!p.confirmation.statement.is_empty()).then(|| p.confirmation.statement.clone());
    }
    let mut out = format!(
        "{}\n{}",
        p.confirmation.statement,
        report::replication_line(&p)
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
