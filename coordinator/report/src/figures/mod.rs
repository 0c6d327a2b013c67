//! A report's pictures, rendered from `results.json` alone by the report
//! step ([`crate::report::write_results`]): SVG charts (values by n, value
//! histograms; log scale) by plotters, drawings of positions (every
//! counterexample, the smallest position of each value, other kept
//! witnesses; start or colouring marked) by `gamesweep::draw`, a "Figures"
//! section appended to `report.md` linking them, and `report.html`, the
//! report with the figures inline. Deterministic: the same `results.json`
//! gives the same bytes.
//!
//! `data` reads each kind's typed document into what to picture; `chart`
//! draws charts; `html` writes `report.html`.

pub mod chart;
pub mod data;
pub mod html;

use crate::error::ReportError;
use data::{Marks, Role, Witness};
use gamesweep::draw;

/// The folder, beside `report.md`, that holds the SVG files.
pub const DIR: &str = "figures";

/// The most positions drawn in one report.
pub const MAX_DRAWINGS: usize = 40;

/// The heading line that starts the section appended to `report.md` (the
/// kind's own text is everything before it).
pub const HEADING: &str = "\n## Figures\n";

/// A report's figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figures {
    /// SVG files: (name inside [`DIR`], text), in link order.
    pub files: Vec<(String, String)>,
    /// The section appended to `report.md` (starts with [`HEADING`]).
    pub section_md: String,
    /// `report.html`: the whole report, figures inline.
    pub html: String,
}

/// One drawn (or undrawable) position, as listed.
struct Listed {
    drawing: Witness,
    /// File name, or why it could not be drawn.
    file: Result<String, String>,
}

/// Markdown text with the characters that could start markup inline
/// backslash-escaped (CommonMark: then always literal).
fn md_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\`*_[]<>!|#&~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A Markdown code span of `s` (fenced by more backticks than any run in it).
fn md_code(s: &str) -> String {
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') || longest > 0 {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

fn role_heading(r: Role) -> &'static str {
    r.heading()
}

fn marks_text(m: &Marks) -> &'static str {
    match m {
        Marks::Start(_) => "start",
        Marks::Colouring(_) => "colouring",
        Marks::None => "",
    }
}

/// Render the figures of `results_json` (its `report.md` text is
/// `report_md`, the kind's rendering).
pub fn render(results_json: &str, report_md: &str) -> Result<Figures, ReportError> {
    let (kind, d) = data::of_results(results_json)?;
    let mut files = Vec::new();
    let mut md = String::from(HEADING);
    md.push('\n');
    md.push_str("Drawn from `results.json` by the report step; [report.html](report.html) shows the report with them inline.\n");
    let mut charts_html = Vec::new();
    for c in &d.charts {
        let name = format!("{}.svg", c.stem);
        let svg = chart::svg(c)?;
        md.push_str(&format!("\n![{}]({DIR}/{name})\n", md_text(&c.title)));
        charts_html.push((c.title.clone(), svg.clone()));
        files.push((name, svg));
    }
    let total = d.witnesses.len();
    let mut listed = Vec::new();
    for (i, drawing) in d.witnesses.into_iter().take(MAX_DRAWINGS).enumerate() {
        let opts = draw::Options {
            title: Some(format!("{} ({})", drawing.caption, drawing.code)),
            ..draw::Options::default()
        };
        let svg = match &drawing.marks {
            Marks::Start(v) => draw::svg_code(&drawing.code, v, &opts),
            Marks::Colouring(t) => draw::svg_code_coloured(&drawing.code, t, &opts),
            Marks::None => draw::svg_code(&drawing.code, &[], &opts),
        };
        let file = match svg {
            Ok(svg) => {
                let name = format!("position-{:02}.svg", i + 1);
                files.push((name.clone(), svg));
                Ok(name)
            }
            Err(e) => Err(e.to_string()),
        };
        listed.push(Listed { drawing, file });
    }
    if d.charts.is_empty() && total == 0 {
        md.push_str("\nNone: this report has no values by n or histogram to chart and no position to draw (no counterexample).\n");
    }
    if total > 0 {
        md.push_str(
            "\nPositions (start vertex filled red; colourings: `L` filled blue, `R` filled red).\n",
        );
        if total > MAX_DRAWINGS {
            md.push_str(&format!(
                "The first {MAX_DRAWINGS} of {total} are drawn (counterexamples first, smallest first; then the smallest position of each value, in value order; then other positions); the rest are in the tables above.\n"
            ));
        }
        let mut role = None;
        for l in &listed {
            if role != Some(l.drawing.role) {
                role = Some(l.drawing.role);
                md.push_str(&format!("\n### {}\n\n", role_heading(l.drawing.role)));
            }
            let what = format!(
                "{} {}",
                md_text(&l.drawing.caption),
                md_code(&l.drawing.code)
            );
            match &l.file {
                Ok(name) => md.push_str(&format!("- [{what}]({DIR}/{name})\n")),
                Err(e) => md.push_str(&format!("- {what}: not drawn ({})\n", md_text(e))),
            }
        }
    }
    let html = html::page(
        &kind,
        report_md,
        &charts_html,
        &listed_html(&listed, &files),
    );
    Ok(Figures {
        files,
        section_md: md,
        html,
    })
}

/// (caption, code, marks, svg or why not) of each listed position, for the page.
fn listed_html<'a>(listed: &'a [Listed], files: &'a [(String, String)]) -> Vec<html::Position<'a>> {
    listed
        .iter()
        .map(|l| html::Position {
            heading: role_heading(l.drawing.role),
            caption: &l.drawing.caption,
            code: &l.drawing.code,
            marks: marks_text(&l.drawing.marks),
            svg: match &l.file {
                Ok(name) => Ok(files
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, s)| s.as_str())
                    .unwrap_or("")),
                Err(e) => Err(e.as_str()),
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_text_and_code_are_literal() {
        assert_eq!(md_text("value 1/2*: a_b"), "value 1/2\\*: a\\_b");
        assert_eq!(md_code("Cx"), "`Cx`");
        assert_eq!(md_code("A`b"), "`` A`b ``");
    }

    #[test]
    fn a_report_without_pictures_says_so() {
        // cgt-check with no disagreement: no chart, no position.
        let json = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../runs/cgt-check/results.json"),
        )
        .unwrap();
        let f = render(&json, "# r\n").unwrap();
        assert!(f.files.is_empty());
        assert!(f.section_md.starts_with(HEADING));
        assert!(f.section_md.contains("None:"), "{}", f.section_md);
        assert!(f.html.contains("<h1>r</h1>"), "{}", f.html);
    }

    #[test]
    fn bad_results_are_an_error_not_a_panic() {
        assert!(render("not json", "").is_err());
        let e = render("{\"kind\": \"uvg\", \"by_n\": 3}", "")
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a valid `uvg` document"), "{e}");
    }
}
