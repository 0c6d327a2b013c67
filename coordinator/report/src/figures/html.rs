//! `report.html`: the kind's `report.md` as HTML (pulldown-cmark, tables
//! on), then the figures inline; one self-contained file (SVG inline, a
//! small embedded style sheet, no script).

use pulldown_cmark::{html, Alignment, Event, Options, Parser, Tag, TagEnd};

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

// Tables scroll sideways on a narrow screen rather than widening the page;
// number columns are right-aligned by [`markdown`] (an inline style).
const STYLE: &str = "body{font-family:sans-serif;max-width:72em;margin:1em auto;padding:0 1em;color:#222;line-height:1.4}\
table{border-collapse:collapse;margin:.5em 0;display:block;overflow-x:auto;max-width:100%}th,td{border:1px solid #ccc;padding:.15em .5em;text-align:left}\
td[style*=right]{font-variant-numeric:tabular-nums}\
th{background:#f3f3f3}code{font-size:.95em}pre{background:#f6f6f6;padding:.5em;overflow:auto}\
figure{margin:.5em}figure.chart svg{max-width:100%;height:auto}\
.drawings{display:flex;flex-wrap:wrap}.drawings figure{width:180px}\
.drawings figcaption{font-size:.8em;overflow-wrap:anywhere}";

pub use gamesweep::draw::escape;

/// The report's Markdown as HTML. A table column whose body cells are all
/// numbers (or empty) is right-aligned, unless the Markdown aligned it:
/// left-aligned counts of different lengths are hard to compare.
pub fn markdown(md: &str) -> String {
    let mut opts = Options::empty();
    opts.insert(Options::ENABLE_TABLES);
    // Raw HTML in the text is shown as text, not passed through.
    let mut events: Vec<Event<'_>> = Parser::new_ext(md, opts)
        .map(|e| match e {
            Event::Html(h) | Event::InlineHtml(h) => Event::Text(h),
            e => e,
        })
        .collect();
    align_number_columns(&mut events);
    let mut out = String::new();
    html::push_html(&mut out, events.into_iter());
    out
}

/// Whether a table cell's text is a number: digits with `,` and `.`,
/// perhaps a sign, `~` or `≥` before and `%` after ("1,234", "12.5 %",
/// "−3"). Empty cells and dashes count as numbers (no value).
fn numeric(cell: &str) -> bool {
    let t = cell.trim();
    if t.is_empty() || t == "-" || t == "–" || t == "—" {
        return true;
    }
    let t = t.trim_end_matches('%').trim_end();
    let t = t
        .trim_start_matches(['~', '≥', '≤', '<', '>', '±', '+', '-', '−'])
        .trim_start();
    t.chars().any(|c| c.is_ascii_digit())
        && t.chars()
            .all(|c| c.is_ascii_digit() || c == ',' || c == '.')
}

/// Set the alignment of every table's number columns ([`numeric`] in every
/// body cell, one at least not empty) to right, where none was given.
fn align_number_columns(events: &mut [Event<'_>]) {
    let mut i = 0;
    while i < events.len() {
        if !matches!(events[i], Event::Start(Tag::Table(_))) {
            i += 1;
            continue;
        }
        // One table: per column, whether every body cell is a number and
        // whether one holds a digit.
        let (mut in_head, mut col, mut cell) = (false, 0usize, String::new());
        let mut cols: Vec<(bool, bool)> = Vec::new();
        let mut j = i + 1;
        while j < events.len() {
            match &events[j] {
                Event::End(TagEnd::Table) => break,
                Event::Start(Tag::TableHead) => in_head = true,
                Event::End(TagEnd::TableHead) => in_head = false,
                Event::Start(Tag::TableRow) => col = 0,
                Event::Start(Tag::TableCell) => cell.clear(),
                Event::Text(t) | Event::Code(t) => cell.push_str(t),
                Event::End(TagEnd::TableCell) => {
                    if !in_head {
                        if cols.len() <= col {
                            cols.resize(col + 1, (true, false));
                        }
                        cols[col].0 &= numeric(&cell);
                        cols[col].1 |= cell.chars().any(|c| c.is_ascii_digit());
                    }
                    col += 1;
                }
                _ => {}
            }
            j += 1;
        }
        if let Event::Start(Tag::Table(aligns)) = &mut events[i] {
            for (a, &(all, some)) in aligns.iter_mut().zip(&cols) {
                if *a == Alignment::None && all && some {
                    *a = Alignment::Right;
                }
            }
        }
        i = j;
    }
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
    // The viewport: without it a phone lays the page out 980 px wide and
    // shrinks it.
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
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

    /// Regression: report.html had no viewport (a phone laid it out 980 px
    /// wide) and its number columns were left-aligned.
    #[test]
    fn number_columns_are_right_aligned_and_the_page_has_a_viewport() {
        let h = markdown(
            "| value | n | positions | graph |\n|---|---|---|:-:|\n| *5 | 10 | 1,234 | `` I}K `` |\n| *6 | – | 12.5 % | `` J `` |\n",
        );
        // The numbers' header and cells: right; the values, the graphs
        // (centred by the Markdown) as they were.
        assert!(h.contains("<th style=\"text-align: right\">n</th>"), "{h}");
        assert!(
            h.contains("<td style=\"text-align: right\">1,234</td>"),
            "{h}"
        );
        assert!(
            h.contains("<td style=\"text-align: right\">12.5 %</td>"),
            "{h}"
        );
        assert!(h.contains("<td>*5</td>"), "{h}");
        assert!(
            h.contains("<th style=\"text-align: center\">graph</th>"),
            "{h}"
        );
        assert!(numeric("≥ 3") && numeric("−3") && !numeric("*3") && !numeric("1/2"));
        let p = page("k", "# A\n", &[], &[]);
        assert!(
            p.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"),
            "{p}"
        );
    }
}
