//! Charts as SVG text by plotters' SVG backend: no fonts are read (text is
//! SVG `<text>` laid out by plotters' built-in estimate), so the same data
//! gives the same bytes on every machine.

use super::data::{Chart, Plot};
use crate::error::ReportError;
use plotters::prelude::*;

/// Width and height of a chart, in pixels.
const SIZE: (u32, u32) = (640, 380);

/// Series colours (colour-blind safe, Okabe–Ito), then repeated.
const COLOURS: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
];

/// A count on a log axis: exact below 10⁴, else `1e6`, `2e6`, `5e6`, …
fn count_label(v: f64) -> String {
    if v < 0.99 {
        return String::new();
    }
    let r = v.round();
    if r < 1.0 {
        return String::new();
    }
    if r < 1e4 {
        return format!("{r}");
    }
    let e = r.log10().floor() as i32;
    let m = (r / 10f64.powi(e)).round();
    format!("{m}e{e}")
}

fn err(e: impl std::fmt::Display) -> ReportError {
    ReportError::Chart(e.to_string())
}

/// The chart's SVG text.
pub fn svg(c: &Chart) -> Result<String, ReportError> {
    let points: Vec<(u64, u64)> = match &c.plot {
        Plot::Lines(s) => s.iter().flat_map(|s| s.points.iter().copied()).collect(),
        Plot::Bars(b) => b.clone(),
    };
    let (x0, x1) = points
        .iter()
        .fold((u64::MAX, 0), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (x0, x1) = if x0 > x1 { (0, 1) } else { (x0, x1) };
    let ymax = points.iter().map(|p| p.1).max().unwrap_or(1).max(1) as f64;
    // Bars sit on 0.5 (below the lowest count, 1) and are 0.8 wide.
    let (xlo, xhi) = match c.plot {
        Plot::Lines(_) => (x0 as f64, (x1.max(x0 + 1)) as f64),
        Plot::Bars(_) => (x0 as f64 - 0.6, x1 as f64 + 0.6),
    };
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&c.title, ("sans-serif", 17))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(62)
            .build_cartesian_2d(xlo..xhi, (0.5f64..ymax * 3.0).log_scale())
            .map_err(err)?;
        let integer_x = |v: &f64| {
            if (v - v.round()).abs() < 1e-9 && *v >= 0.0 {
                format!("{}", v.round() as u64)
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .x_desc(c.x_label.as_str())
            .y_desc(c.y_label.as_str())
            .x_labels(((x1 - x0) as usize + 1).min(20))
            .x_label_formatter(&integer_x)
            .y_label_formatter(&|v| count_label(*v))
            .x_max_light_lines(0)
            .y_max_light_lines(0)
            .bold_line_style(RGBColor(225, 225, 225))
            .label_style(("sans-serif", 12))
            .axis_desc_style(("sans-serif", 13))
            .draw()
            .map_err(err)?;
        match &c.plot {
            Plot::Lines(series) => {
                let mut drawn = 0;
                for (i, s) in series.iter().enumerate() {
                    // Each series keeps its colour whatever is left out.
                    let colour = COLOURS[i % COLOURS.len()];
                    let pts: Vec<(f64, f64)> = s
                        .points
                        .iter()
                        .filter(|p| p.1 > 0)
                        .map(|&(x, y)| (x as f64, y as f64))
                        .collect();
                    // A series that is zero everywhere has no point on a log
                    // scale: no line, so no legend entry either.
                    if pts.is_empty() {
                        continue;
                    }
                    drawn += 1;
                    chart
                        .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
                        .map_err(err)?
                        .label(s.name.as_str())
                        .legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
                        });
                    chart
                        .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, colour.filled())))
                        .map_err(err)?;
                }
                if drawn > 0 {
                    chart
                        .configure_series_labels()
                        .position(SeriesLabelPosition::UpperLeft)
                        .background_style(WHITE.mix(0.85))
                        .border_style(BLACK.mix(0.4))
                        .label_font(("sans-serif", 12))
                        .draw()
                        .map_err(err)?;
                }
            }
            Plot::Bars(b) => {
                let colour = COLOURS[0];
                chart
                    .draw_series(b.iter().filter(|p| p.1 > 0).map(|&(x, y)| {
                        let x = x as f64;
                        Rectangle::new([(x - 0.4, 0.5), (x + 0.4, y as f64)], colour.filled())
                    }))
                    .map_err(err)?;
            }
        }
        root.present().map_err(err)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::data::Series;

    #[test]
    fn counts_are_labelled_exactly_or_in_powers_of_ten() {
        assert_eq!(count_label(0.5), "");
        assert_eq!(count_label(1.0), "1");
        assert_eq!(count_label(5000.0), "5000");
        assert_eq!(count_label(20000.0), "2e4");
        assert_eq!(count_label(1e9), "1e9");
    }

    #[test]
    fn charts_are_svg_and_deterministic() {
        let c = Chart {
            stem: "t".into(),
            title: "T <&>".into(),
            x_label: "n".into(),
            y_label: "count".into(),
            plot: Plot::Lines(vec![
                Series {
                    name: "a".into(),
                    points: vec![(1, 1), (2, 10), (3, 0), (4, 1000)],
                },
                Series {
                    name: "b".into(),
                    points: vec![(1, 5), (2, 50)],
                },
            ]),
        };
        let a = svg(&c).unwrap();
        assert_eq!(a, svg(&c).unwrap());
        assert!(
            a.starts_with("<svg") && a.trim_end().ends_with("</svg>"),
            "{a}"
        );
        assert!(a.contains("T &lt;&amp;&gt;"), "title escaped: {a}");
        let b = Chart {
            plot: Plot::Bars(vec![(0, 3), (1, 0), (2, 7)]),
            ..c
        };
        let s = svg(&b).unwrap();
        // Two bars (the zero count is not drawn), plus the background.
        assert!(s.matches("<rect").count() >= 3, "{s}");
    }

    /// Regression: a series that is zero everywhere draws nothing on a log
    /// scale, so it has no legend entry (it had one, with no line); the
    /// other series keep their colours.
    #[test]
    fn all_zero_series_have_no_legend_entry() {
        let series = |names: &[&str]| {
            names
                .iter()
                .map(|&n| Series {
                    name: n.into(),
                    points: if n == "zero" {
                        vec![(1, 0), (2, 0)]
                    } else {
                        vec![(1, 3), (2, 30)]
                    },
                })
                .collect()
        };
        let chart = |names: &[&str]| Chart {
            stem: "t".into(),
            title: "T".into(),
            x_label: "n".into(),
            y_label: "count".into(),
            plot: Plot::Lines(series(names)),
        };
        let s = svg(&chart(&["kept", "zero", "last"])).unwrap();
        // plotters writes each legend text on a line of its own.
        assert!(s.contains("\nkept\n") && s.contains("\nlast\n"), "{s}");
        assert!(!s.contains("\nzero\n"), "a legend entry with no line: {s}");
        // "last" is drawn in the third colour, as when nothing is left out.
        let (r, g, b) = COLOURS[2].rgb();
        let third = format!("#{r:02X}{g:02X}{b:02X}");
        assert!(s.contains(&third), "{third}: {s}");
        // Nothing to draw: no empty legend box either.
        let empty = svg(&chart(&["zero"])).unwrap();
        assert!(!empty.contains("\nzero\n"), "{empty}");
    }
}
