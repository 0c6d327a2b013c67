//! `report.html`: the kind's `report.md` as HTML (pulldown-cmark, tables
//! on), then the figures inline; one self-contained file (SVG inline, a
//! small embedded style sheet, no script).

use pulldown_cmark::{html, Event, Options, Parser};

/// A position in the page.
pub struct Position<'a> {
    /// The group it is listed under.
    pub heading: &'static str,
    /// What it is.
    pub caption: &'a str,
    /// graph6 / digraph6.
    pub code: &'a str,
    /// What is marked (`start`, `colouring`, or empty).
    pub marks: &'static str,
    /// Its SVG, or why it could not be drawn.
    pub svg: Result<&'a str, &'a str>,
}

const STYLE: &str = "body{font-family:sans-serif;max-width:72em;margin:1em auto;padding:0 1em;color:#222;line-height:1.4}\
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.15em .5em;text-align:left}\
th{background:#f3f3f3}code{font-size:.95em}pre{background:#f6f6f6;padding:.5em;overflow:auto}\
figure{margin:.5em}figure.chart svg{max-width:100%;height:auto}\
.drawings{display:flex;flex-wrap:wrap}.drawings figure{width:180px}\
.drawings figcaption{font-size:.8em;overflow-wrap:anywhere}";

pub use gamesweep::draw::escape;

/// The report's Markdown as HTML.
pub fn markdown(md: &str) -> String {
    let mut opts = Options::empty();
    opts.insert(Options::ENABLE_TABLES);
    // Raw HTML in the text is shown as text, not passed through.
    let events = Parser::new_ext(md, opts).map(|e| match e {
        Event::Html(h) | Event::InlineHtml(h) => Event::Text(h),
        e => e,
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}

/// The page's title: the report's first `# ` heading, else the kind.
fn title(kind: &str, md: &str) -> String {
    md.lines()
        .find_map(|l| l.strip_prefix("# "))
        .map_or_else(|| format!("{kind} report"), str::to_string)
}

/// The whole `report.html`.
pub fn page(
    kind: &str,
    report_md: &str,
    charts: &[(String, String)],
    positions: &[Position<'_>],
) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!(
        "<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&title(kind, report_md))
    ));
    out.push_str(&markdown(report_md));
    out.push_str("<h2 id=\"figures\">Figures</h2>\n");
    if charts.is_empty() && positions.is_empty() {
        out.push_str("<p>None: this report has no values by n or histogram to chart and no position to draw (no counterexample).</p>\n");
    }
    for (t, svg) in charts {
        out.push_str(&format!(
            "<figure class=\"chart\">{}<figcaption>{}</figcaption></figure>\n",
            svg.trim(),
            escape(t)
        ));
    }
    let mut heading = None;
    for p in positions {
        if heading != Some(p.heading) {
            if heading.is_some() {
                out.push_str("</div>\n");
            }
            heading = Some(p.heading);
            out.push_str(&format!(
                "<h3>{}</h3>\n<div class=\"drawings\">\n",
                escape(p.heading)
            ));
        }
        let marks = if p.marks.is_empty() {
            String::new()
        } else {
            format!(" ({} marked)", p.marks)
        };
        match p.svg {
            Ok(svg) => out.push_str(&format!(
                "<figure>{svg}<figcaption>{}{marks}<br><code>{}</code></figcaption></figure>\n",
                escape(p.caption),
                escape(p.code)
            )),
            Err(e) => out.push_str(&format!(
                "<figure><figcaption>{} <code>{}</code>: not drawn ({})</figcaption></figure>\n",
                escape(p.caption),
                escape(p.code),
                escape(e)
            )),
        }
    }
    if heading.is_some() {
        out.push_str("</div>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_become_html_tables_and_text_is_escaped() {
        let h = markdown("# T\n\n| a | b |\n|---|---|\n| 1 | <x> |\n");
        assert!(
            h.contains("<table>") && h.contains("<td>&lt;x&gt;</td>"),
            "{h}"
        );
        let p = page("k", "# A & B\n", &[], &[]);
        assert!(p.contains("<title>A &amp; B</title>"), "{p}");
        assert!(p.contains("None:"));
    }
}
