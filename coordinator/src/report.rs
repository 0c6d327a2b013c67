//! The files a sweep leaves in its output folder, written in one place:
//! `results.json` (exact text: pretty, sorted keys, newline-terminated, so a
//! report fetched from a coordinator is byte-identical to one computed
//! in-process), `report.md`, the kind's exports, and a sample's
//! `projection.json` / `projection.md`.

use crate::figures;
use anyhow::Context as _;
use gamesweep::sweep::Rendered;
use gamesweep_proto::domain::ProjectionText;
use std::path::Path;

/// `results.json`-style text of a JSON value (pretty, sorted keys, final newline).
pub fn results_json_text(v: &serde_json::Value) -> String {
    let mut json = serde_json::to_string_pretty(v).expect("JSON values serialize");
    json.push('\n');
    json
}

/// Write `results.json`, `report.md` (the kind's text, then the figures
/// section), `report.html`, the SVG figures (in `figures/`; stale `.svg`
/// files there are removed) and the exports of `rendered` into `dir`
/// (created if missing), naming each export on stderr. The figures are
/// rendered here from `results.json` ([`figures::render`]).
pub fn write_results(dir: &Path, rendered: &Rendered) -> anyhow::Result<()> {
    let figs = figures::render(&rendered.results_json, &rendered.report_md)
        .context("rendering the report's figures from results.json")?;
    let report_md = format!("{}{}", rendered.report_md, figs.section_md);
    write_files(
        dir,
        &[
            ("results.json", &rendered.results_json),
            ("report.md", &report_md),
            ("report.html", &figs.html),
        ],
    )?;
    write_figures(&dir.join(figures::DIR), &figs.files)?;
    for (name, contents) in &rendered.exports {
        write_files(dir, &[(name, contents)])?;
        eprintln!("gamesweep: wrote {}/{name}", dir.display());
    }
    Ok(())
}

/// Write the SVG `files` into `fig_dir` and remove any other `.svg` file
/// there (left by an earlier render); no files: the folder is removed when
/// nothing else is in it.
fn write_figures(fig_dir: &Path, files: &[(String, String)]) -> anyhow::Result<()> {
    if let Ok(rd) = std::fs::read_dir(fig_dir) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".svg") && !files.iter().any(|(n, _)| *n == name) {
                std::fs::remove_file(e.path())
                    .with_context(|| format!("removing {}", e.path().display()))?;
            }
        }
    }
    if files.is_empty() {
        // Fails harmlessly when the folder is missing or holds other files.
        let _ = std::fs::remove_dir(fig_dir);
        return Ok(());
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    write_files(fig_dir, &refs)
}

/// Write `provenance.json` into `dir` (nothing for an empty text: a
/// coordinator that sends none).
pub fn write_provenance(dir: &Path, provenance_json: &str) -> anyhow::Result<()> {
    if provenance_json.is_empty() {
        return Ok(());
    }
    write_files(dir, &[("provenance.json", provenance_json)])
}

/// Write `projection.json` and `projection.md` into `dir`.
pub fn write_projection(dir: &Path, p: &ProjectionText) -> anyhow::Result<()> {
    write_files(
        dir,
        &[("projection.json", &p.json), ("projection.md", &p.md)],
    )
}

/// Create `dir` and write each `(file name, text)` into it.
fn write_files(dir: &Path, files: &[(&str, &str)]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for (name, text) in files {
        std::fs::write(dir.join(name), text)
            .with_context(|| format!("writing {}/{name}", dir.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_results_report_and_exports() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a/b");
        let rendered = Rendered {
            results_json: "{\"kind\": \"noop\"}\n".into(),
            report_md: "# r\n".into(),
            exports: vec![("positions.txt".into(), "x\n".into())],
        };
        write_results(&out, &rendered).unwrap();
        let read = |n: &str| std::fs::read_to_string(out.join(n)).unwrap();
        assert_eq!(read("results.json"), "{\"kind\": \"noop\"}\n");
        let md = read("report.md");
        assert!(md.starts_with("# r\n\n## Figures\n"), "{md}");
        assert!(read("report.html").contains("<h1>r</h1>"));
        assert_eq!(read("positions.txt"), "x\n");
    }
}
