//! The files a sweep leaves in its output folder, written in one place:
//! `results.json` (exact text: pretty, sorted keys, newline-terminated, so a
//! report fetched from a coordinator is byte-identical to one computed
//! in-process), `report.md`, the kind's exports, and a sample's
//! `projection.json` / `projection.md`.

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

/// Write `results.json`, `report.md` and the exports of `rendered` into
/// `dir` (created if missing), naming each export on stderr.
pub fn write_results(dir: &Path, rendered: &Rendered) -> anyhow::Result<()> {
    write_files(
        dir,
        &[
            ("results.json", &rendered.results_json),
            ("report.md", &rendered.report_md),
        ],
    )?;
    for (name, contents) in &rendered.exports {
        write_files(dir, &[(name, contents)])?;
        eprintln!("gamesweep: wrote {}/{name}", dir.display());
    }
    Ok(())
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
            results_json: "{}\n".into(),
            report_md: "# r\n".into(),
            exports: vec![("positions.txt".into(), "x\n".into())],
        };
        write_results(&out, &rendered).unwrap();
        let read = |n: &str| std::fs::read_to_string(out.join(n)).unwrap();
        assert_eq!(read("results.json"), "{}\n");
        assert_eq!(read("report.md"), "# r\n");
        assert_eq!(read("positions.txt"), "x\n");
    }
}
