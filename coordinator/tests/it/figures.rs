//! Report figures: for every committed `runs/*` report, the "Figures"
//! section of `report.md`, every SVG in `figures/` and `report.html` are
//! re-rendered from `results.json` alone (by the report step's
//! `figures::render`) and compared byte for byte, twice (deterministic);
//! `figures/` holds exactly the rendered files; `gamesweep report --from`
//! rewrites a report's files from its `results.json`.

use gamesweep_report::{figures, report};
use std::path::{Path, PathBuf};

use crate::support::cli;

fn runs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The committed runs with a `results.json`.
fn run_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(runs_dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("results.json").is_file())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 16, "expected the committed runs: {dirs:?}");
    dirs
}

/// The kind's own rendering of a run: (results.json, report.md text).
fn kind_rendering(dir: &Path) -> (String, String) {
    #[derive(serde::Deserialize)]
    struct Named {
        kind: String,
        params: gamesweep::sweep::Params,
    }
    let json = read(&dir.join("results.json"));
    let named: Named = serde_json::from_str(&json).unwrap();
    let kind = gamesweep::kinds::find(&named.kind).unwrap();
    let params = kind.resolve_params(&named.params).unwrap();
    let r = kind.render_from_json(&params, &json).unwrap();
    assert_eq!(r.results_json, json, "{}", dir.display());
    (json, r.report_md)
}

/// The names of the files in `dir/figures` (none: no folder).
fn committed_figures(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join(figures::DIR))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn committed_figures_rerender_byte_for_byte() {
    let mut drawn = 0;
    let mut charts = 0;
    for dir in run_dirs() {
        let name = dir.display().to_string();
        let (json, kind_md) = kind_rendering(&dir);
        // The kind's text, the Verification section (from the run's
        // provenance.json, if any), then the figures.
        let md = format!(
            "{kind_md}{}",
            report::Verification::of_dir(&dir).section_md()
        );
        let f = figures::render(&json, &md).unwrap();
        assert_eq!(
            f,
            figures::render(&json, &md).unwrap(),
            "{name}: not deterministic"
        );
        assert!(
            read(&dir.join("report.md")) == format!("{md}{}", f.section_md),
            "{name}: report.md is not the kind's text, the verification and the figures section"
        );
        assert!(
            read(&dir.join("report.html")) == f.html,
            "{name}: report.html differs"
        );
        let mut want: Vec<String> = f.files.iter().map(|(n, _)| n.clone()).collect();
        want.sort();
        assert_eq!(committed_figures(&dir), want, "{name}: figures/ files");
        for (file, text) in &f.files {
            assert!(
                read(&dir.join(figures::DIR).join(file)) == *text,
                "{name}: figures/{file} differs"
            );
            // Linked from report.md, inline in report.html.
            assert!(
                f.section_md.contains(&format!("({}/{file})", figures::DIR)),
                "{name}: {file}"
            );
            assert!(f.html.contains(text.trim()), "{name}: {file} not inline");
            if file.starts_with("position-") {
                drawn += 1;
                assert!(
                    text.len() < 8 * 1024,
                    "{name}: {file} is {} bytes",
                    text.len()
                );
            } else {
                charts += 1;
                assert!(
                    text.len() < 32 * 1024,
                    "{name}: {file} is {} bytes",
                    text.len()
                );
            }
        }
        let positions = f
            .files
            .iter()
            .filter(|(n, _)| n.starts_with("position-"))
            .count();
        assert!(positions <= figures::MAX_DRAWINGS, "{name}");
    }
    // Every report with values by n has its chart, and positions are drawn.
    for run in [
        "uvg",
        "col",
        "myopic-tree",
        "octal",
        "subtraction",
        "uvg-degree3",
    ] {
        assert!(
            runs_dir().join(run).join("figures").is_dir(),
            "{run} has no figures"
        );
    }
    assert!(
        drawn >= 100 && charts >= 15,
        "{drawn} drawings, {charts} charts"
    );
}

#[test]
fn the_smallest_positions_are_drawn_with_their_marks() {
    // uvg ≤ 9: the value-4 witness is drawn with its start marked.
    let md = read(&runs_dir().join("uvg/report.md"));
    assert!(md.contains("smallest \\*4: 8 vertices, start 1 `GrqI?O`"), "{md}");
    let svg = read(&runs_dir().join("uvg/figures/position-05.svg"));
    assert!(svg.contains("class=\"start\" data-v=\"1\""), "{svg}");
    // Col: colourings are marked blue and red.
    // (The first 40 values in value order are negative: Left's colourings;
    // the myopic trees' drawings have both colours.)
    let col: String = ["col", "myopic-tree"]
        .iter()
        .flat_map(|run| {
            (1..=40).filter_map(move |i| {
                std::fs::read_to_string(
                    runs_dir().join(format!("{run}/figures/position-{i:02}.svg")),
                )
                .ok()
            })
        })
        .collect();
    assert!(col.contains("class=\"blue\"") && col.contains("class=\"red\""));
    // col ≤ 8 has 100 values: the cap is said.
    let md = read(&runs_dir().join("col/report.md"));
    assert!(md.contains("The first 40 of 100 are drawn"), "{md}");
}

#[test]
fn report_from_rewrites_a_report() {
    let tmp = tempfile::tempdir().unwrap();
    let src = runs_dir().join("uvg");
    let dir = tmp.path().join("uvg");
    std::fs::create_dir_all(dir.join("figures")).unwrap();
    std::fs::copy(src.join("results.json"), dir.join("results.json")).unwrap();
    std::fs::write(dir.join("figures/stale.svg"), "<svg/>").unwrap();
    std::fs::write(dir.join("figures/keep.txt"), "x").unwrap();
    cli::ok(&["report", "--from", dir.to_str().unwrap()]);
    for f in ["report.md", "report.html"] {
        assert!(read(&dir.join(f)) == read(&src.join(f)), "{f}");
    }
    let mut want = committed_figures(&src);
    want.push("keep.txt".into());
    want.sort();
    assert_eq!(
        committed_figures(&dir),
        want,
        "stale SVGs removed, other files kept"
    );
    // Into another folder with --out.
    let out = tmp.path().join("out");
    cli::ok(&[
        "report",
        "--from",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(read(&out.join("report.md")) == read(&src.join("report.md")));
    // Bad input: one line, no panic.
    let missing = tmp.path().join("missing");
    cli::refused(
        &["report", "--from", missing.to_str().unwrap()],
        "results.json",
    );
    std::fs::create_dir_all(&missing).unwrap();
    std::fs::write(missing.join("results.json"), "{\"kind\": \"uvg\"}").unwrap();
    cli::refused(
        &["report", "--from", missing.to_str().unwrap()],
        "kind and parameters",
    );
    std::fs::write(
        missing.join("results.json"),
        "{\"kind\": \"nope\", \"params\": {}}",
    )
    .unwrap();
    cli::refused(&["report", "--from", missing.to_str().unwrap()], "nope");
}
