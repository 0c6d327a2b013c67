//! Report figures: for every committed `runs/*` report, the "Figures"
//! section of `report.md`, every SVG in `figures/` and `report.html` are
//! re-rendered from `results.json` alone (by the report step's
//! `figures::render`) and compared byte for byte, twice (deterministic);
//! `figures/` holds exactly the rendered files; `gamesweep report --from`
//! rewrites a report's files from its `results.json`.

use gamesweep_report::{figures, report};
use std::path::{Path, PathBuf};

use crate::support::harness;

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
        // provenance.json, if any, and its verified.json), then the figures.
        let md = format!(
            "{kind_md}{}",
            report::verification_md(&dir, &json, &report::Verification::of_dir(&dir).unwrap())
                .unwrap()
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
    assert!(
        md.contains("smallest \\*4: 8 vertices, start 1 `GrqI?O`"),
        "{md}"
    );
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

/// Board codes hold any character from `?` to `~`, backtick and
/// `|` included. In every committed `report.html`, a table cell that opens
/// with a code span holds a whole board code: the span decodes as graph6
/// or digraph6 (`` `Gr`CC?` `` cut the span at `Gr` and left the rest as
/// text), and the rendered rows have the header's number of cells. The
/// Markdown of a code with a backtick and a `|` in a Col table renders the
/// same way.
#[test]
fn board_codes_survive_markdown_tables() {
    use gamesweep::graph::graph6;
    let unescape = |s: &str| {
        s.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
    };
    let check = |name: &str, html: &str| -> usize {
        let mut codes = 0;
        for table in html.split("<table>").skip(1) {
            let table = &table[..table.find("</table>").unwrap()];
            // Header cells (`<th>` or `<th style=…>`, not `<thead>`).
            let width = table.matches("<th>").count() + table.matches("<th ").count();
            for row in table.split("<tr>").skip(2) {
                assert_eq!(
                    row.matches("<td>").count() + row.matches("<td ").count(),
                    width,
                    "{name}: {row}"
                );
                for cell in row.split("<td>").skip(1) {
                    let Some(rest) = cell.strip_prefix("<code>") else {
                        continue;
                    };
                    let code = unescape(&rest[..rest.find("</code>").unwrap()]);
                    let ok = if code.starts_with('&') {
                        graph6::decode_digraph(&code).is_ok()
                    } else {
                        graph6::decode(&code).is_ok()
                    };
                    assert!(ok, "{name}: `{code}` is not a board code: {cell}");
                    codes += 1;
                }
            }
        }
        codes
    };
    let mut codes = 0;
    for dir in run_dirs() {
        let html = read(&dir.join("report.html"));
        codes += check(&dir.display().to_string(), &html);
    }
    assert!(codes >= 200, "{codes} codes in tables");
    // `|` too: a made-up row as the Col table writes it.
    let md = format!(
        "| value | positions | smallest position |\n|---|---|---|\n| -1 | 2 | {} 3 vertices, colouring L.. |\n",
        gamesweep::sweep::report::md_code_cell("B`|")
    );
    let html = gamesweep_report::figures::html::markdown(&md);
    assert!(html.contains("<code>B`|</code>"), "{html}");
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
    let o = harness::gs(&["report", "--from", dir.to_str().unwrap()]);
    assert!(o.status.success());
    // Regression: the line names every file written (it said "report.md,
    // report.html and figures/", leaving out results.json and how many SVGs).
    let err = String::from_utf8(o.stderr).unwrap();
    let svgs = committed_figures(&src).len();
    assert!(
        err.contains(&format!(
            "results.json, report.md, report.html and figures/ ({svgs} SVG files), from"
        )),
        "{err}"
    );
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
    harness::ok(&[
        "report",
        "--from",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(read(&out.join("report.md")) == read(&src.join("report.md")));
    // Bad input: one line, no panic.
    let missing = tmp.path().join("missing");
    harness::refused(
        &["report", "--from", missing.to_str().unwrap()],
        "results.json",
    );
    std::fs::create_dir_all(&missing).unwrap();
    std::fs::write(missing.join("results.json"), "{\"kind\": \"uvg\"}").unwrap();
    harness::refused(
        &["report", "--from", missing.to_str().unwrap()],
        "kind and parameters",
    );
    std::fs::write(
        missing.join("results.json"),
        "{\"kind\": \"nope\", \"params\": {}}",
    )
    .unwrap();
    harness::refused(&["report", "--from", missing.to_str().unwrap()], "nope");
}
