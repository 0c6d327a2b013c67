//! The text of `results.json` exactly as `gamesweep run` writes it (pretty,
//! newline-terminated), so a report fetched from a coordinator is
//! byte-identical to one computed in-process.

/// `results.json` text for a rendered result.
pub fn results_json_text(v: &serde_json::Value) -> String {
    let mut json = serde_json::to_string_pretty(v).expect("JSON values serialize");
    json.push('\n');
    json
}

/// Write `results.json` and `report.md` (given as text) into `dir`.
pub fn write_texts(
    dir: &std::path::Path,
    results_json: &str,
    report_md: &str,
) -> anyhow::Result<()> {
    write_files(
        dir,
        &[("results.json", results_json), ("report.md", report_md)],
    )
}

/// Write `projection.json` and `projection.md` (given as text) into `dir`.
pub fn write_projection(dir: &std::path::Path, json: &str, md: &str) -> anyhow::Result<()> {
    write_files(dir, &[("projection.json", json), ("projection.md", md)])
}

/// Create `dir` and write each `(file name, text)` into it.
fn write_files(dir: &std::path::Path, files: &[(&str, &str)]) -> anyhow::Result<()> {
    use anyhow::Context as _;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for (name, text) in files {
        std::fs::write(dir.join(name), text)
            .with_context(|| format!("writing {}/{name}", dir.display()))?;
    }
    Ok(())
}
