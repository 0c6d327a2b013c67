//! Drawing small graphs: a deterministic layout and an SVG picture with some
//! vertices marked (a game's start). Pure: the same graph, marks and options
//! give the same text, byte for byte, on every platform.
//!
//! The layout starts from the vertices on a circle (vertex 0 at the top,
//! clockwise) and runs a fixed number of force-directed steps
//! (Fruchterman–Reingold, with a cooling schedule); it uses only `+ − × ÷`
//! and `sqrt`, which IEEE 754 rounds exactly, and a Taylor series of its own
//! for the circle (the platform's `sin`/`cos` may differ in the last bit),
//! and rounds the final coordinates to integers. Nothing here is a sweep
//! kind's dependency: the coordinator's dashboard uses it to picture
//! witnesses.

pub mod levels;
pub mod named;

use crate::graph::graph6::{self, Graph6Error};
use std::fmt::Write as _;

/// The most vertices drawn (a bigger graph is not a readable small picture).
pub const MAX_DRAW_N: usize = 64;

/// Force-directed steps of the layout.
const STEPS: usize = 150;

/// How a picture is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Width and height of the picture, in pixels.
    pub size: u32,
    /// Arcs (with arrowheads) instead of edges.
    pub directed: bool,
    /// Write each vertex's number in it.
    pub labels: bool,
    /// A title (shown by browsers as a tooltip); escaped.
    pub title: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            size: 160,
            directed: false,
            labels: true,
            title: None,
        }
    }
}

/// Why a graph cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// More vertices than [`MAX_DRAW_N`].
    #[error("{n} vertices is too many to draw (at most {MAX_DRAW_N})")]
    TooBig {
        /// The vertex count.
        n: usize,
    },
    /// An edge or a mark names a vertex that does not exist.
    #[error("vertex {v} is out of range for a graph on {n} vertices")]
    NoVertex {
        /// The vertex.
        v: usize,
        /// The vertex count.
        n: usize,
    },
    /// A colouring text that is not one of `L`, `R`, `.` per vertex.
    #[error("colouring `{text}` is not one of L, R, . for each of {n} vertices")]
    Colouring {
        /// The text (at most 40 characters of it).
        text: String,
        /// The vertex count.
        n: usize,
    },
    /// The graph6/digraph6 text did not decode.
    #[error("{0}")]
    Code(#[from] Graph6Error),
}

/// Cosine and sine of `2π · t` for `t` in `[0, 1)`, by Taylor series on a
/// reduced argument: deterministic (no platform `sin`/`cos`).
fn cos_sin_turns(t: f64) -> (f64, f64) {
    // Reduce to an eighth of a turn by symmetry would be more accurate; the
    // series on [−π, π] with 30 terms is already exact to ~1e-15.
    let mut x = 2.0 * std::f64::consts::PI * t;
    if x > std::f64::consts::PI {
        x -= 2.0 * std::f64::consts::PI;
    }
    let (mut c, mut s) = (0.0f64, 0.0f64);
    let mut term = 1.0f64; // x^k / k!
    for k in 0..40u32 {
        match k % 4 {
            0 => c += term,
            1 => s += term,
            2 => c -= term,
            _ => s -= term,
        }
        term = term * x / f64::from(k + 1);
    }
    (c, s)
}

/// Positions of `n` vertices in the square `[0, size]²` (integers), from the
/// edges `edges` (undirected; direction and repeats do not matter).
pub fn layout(n: usize, edges: &[(usize, usize)], size: u32) -> Vec<(i32, i32)> {
    let size = f64::from(size.max(20));
    let margin = 12.0f64.min(size / 4.0);
    let (lo, hi) = (margin, size - margin);
    let mid = size / 2.0;
    let r = (hi - lo) / 2.0;
    let mut p: Vec<(f64, f64)> = match n {
        // One vertex in the middle, two side by side.
        1 => vec![(mid, mid)],
        2 => vec![(lo, mid), (hi, mid)],
        _ => Vec::new(),
    };
    p.extend((p.len()..n).filter(|_| n >= 3).map(|i| {
        let (c, s) = cos_sin_turns(i as f64 / n.max(1) as f64);
        // Vertex 0 at the top, clockwise.
        (mid + r * s, mid - r * c)
    }));
    if n >= 3 {
        let area = (hi - lo) * (hi - lo);
        let k = (area / n as f64).sqrt() * 0.75;
        let mut adj = vec![false; n * n];
        for &(u, v) in edges {
            if u < n && v < n && u != v {
                adj[u * n + v] = true;
                adj[v * n + u] = true;
            }
        }
        let mut temp = r / 4.0;
        let cool = temp / (STEPS as f64 + 1.0);
        let mut disp = vec![(0.0f64, 0.0f64); n];
        for _ in 0..STEPS {
            for d in disp.iter_mut() {
                *d = (0.0, 0.0);
            }
            for i in 0..n {
                for j in (i + 1)..n {
                    let (mut dx, mut dy) = (p[i].0 - p[j].0, p[i].1 - p[j].1);
                    let mut d2 = dx * dx + dy * dy;
                    if d2 < 1e-6 {
                        // Coincident: push apart along a fixed direction.
                        dx = 0.01 * (1.0 + (i % 7) as f64);
                        dy = 0.01 * (1.0 + (j % 5) as f64);
                        d2 = dx * dx + dy * dy;
                    }
                    let d = d2.sqrt();
                    // Repulsion k²/d, attraction d²/k along edges.
                    let mut f = k * k / d;
                    if adj[i * n + j] {
                        f -= d2 / k;
                    }
                    let (fx, fy) = (dx / d * f, dy / d * f);
                    disp[i].0 += fx;
                    disp[i].1 += fy;
                    disp[j].0 -= fx;
                    disp[j].1 -= fy;
                }
            }
            for i in 0..n {
                // A weak pull to the centre keeps components together.
                let (dx, dy) = (
                    disp[i].0 + (mid - p[i].0) * 0.05,
                    disp[i].1 + (mid - p[i].1) * 0.05,
                );
                let d = (dx * dx + dy * dy).sqrt();
                if d > 0.0 {
                    let step = d.min(temp);
                    p[i].0 += dx / d * step;
                    p[i].1 += dy / d * step;
                }
                p[i].0 = p[i].0.clamp(lo, hi);
                p[i].1 = p[i].1.clamp(lo, hi);
            }
            temp -= cool;
        }
        // Fit into the box: scale the bounding box up to fill it.
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for &(x, y) in &p {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        let span = (x1 - x0).max(y1 - y0).max(1e-9);
        let scale = (hi - lo) / span;
        let (ox, oy) = (
            lo + ((hi - lo) - (x1 - x0) * scale) / 2.0,
            lo + ((hi - lo) - (y1 - y0) * scale) / 2.0,
        );
        for q in p.iter_mut() {
            *q = (ox + (q.0 - x0) * scale, oy + (q.1 - y0) * scale);
        }
    }
    p.into_iter()
        .map(|(x, y)| (x.round() as i32, y.round() as i32))
        .collect()
}

/// Escape text for XML and HTML (`& < > " '`; control characters other
/// than newline and tab dropped). The one escape of every picture and page
/// gamesweep writes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// An SVG picture of the graph on `n` vertices with `edges` (arcs when
/// `opts.directed`), vertices in `marked` filled dark and ringed (class
/// `start`). The `<svg>` element has class `graph` and a `data-n` attribute.
pub fn svg(
    n: usize,
    edges: &[(usize, usize)],
    marked: &[usize],
    opts: &Options,
) -> Result<String, DrawError> {
    let marks: Vec<(usize, Mark)> = marked.iter().map(|&v| (v, Mark::Start)).collect();
    svg_marks(n, edges, &marks, opts)
}

/// How a vertex is marked in a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A game's start (the token): filled dark red and ringed, class `start`.
    Start,
    /// Coloured blue (Left), class `blue`.
    Blue,
    /// Coloured red (Right), class `red`.
    Red,
}

/// The blue and red vertices of a colouring written one character per
/// vertex: `L` blue (Left), `R` red (Right), `.` uncoloured.
pub fn parse_colouring(text: &str, n: usize) -> Result<Vec<(usize, Mark)>, DrawError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != n {
        return Err(DrawError::Colouring {
            text: text.chars().take(40).collect(),
            n,
        });
    }
    let mut out = Vec::new();
    for (v, ch) in chars.into_iter().enumerate() {
        match ch {
            'L' => out.push((v, Mark::Blue)),
            'R' => out.push((v, Mark::Red)),
            '.' => {}
            _ => {
                return Err(DrawError::Colouring {
                    text: text.chars().take(40).collect(),
                    n,
                })
            }
        }
    }
    Ok(out)
}

/// [`svg`] with each vertex of `marks` drawn by its [`Mark`] (a vertex
/// listed twice takes its first mark).
pub fn svg_marks(
    n: usize,
    edges: &[(usize, usize)],
    marks: &[(usize, Mark)],
    opts: &Options,
) -> Result<String, DrawError> {
    if n > MAX_DRAW_N {
        return Err(DrawError::TooBig { n });
    }
    if let Some(&v) = edges
        .iter()
        .flat_map(|(u, v)| [u, v])
        .chain(marks.iter().map(|(v, _)| v))
        .find(|&&v| v >= n)
    {
        return Err(DrawError::NoVertex { v, n });
    }
    let size = opts.size.max(20);
    let at = layout(n, edges, size);
    let radius = if n <= 12 {
        7
    } else if n <= 30 {
        5
    } else {
        3
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"graph\" data-n=\"{n}\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\">"
    );
    if let Some(t) = &opts.title {
        let _ = write!(out, "<title>{}</title>", escape(t));
    }
    if opts.directed {
        let _ = write!(
            out,
            "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"#555\"/></marker></defs>"
        );
    }
    out.push_str("<g stroke=\"#555\" stroke-width=\"1.5\">");
    for &(u, v) in edges {
        let ((x1, y1), (x2, y2)) = (at[u], at[v]);
        if opts.directed {
            // Stop the arrow at the head's rim.
            let (dx, dy) = (f64::from(x2 - x1), f64::from(y2 - y1));
            let d = (dx * dx + dy * dy).sqrt().max(1.0);
            let back = f64::from(radius + 1) / d;
            let (ex, ey) = (
                (f64::from(x2) - dx * back).round() as i32,
                (f64::from(y2) - dy * back).round() as i32,
            );
            let _ = write!(
                out,
                "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{ex}\" y2=\"{ey}\" marker-end=\"url(#arrow)\"/>"
            );
        } else {
            let _ = write!(
                out,
                "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\"/>"
            );
        }
    }
    out.push_str("</g>");
    for (v, &(x, y)) in at.iter().enumerate() {
        let mark = marks.iter().find(|(u, _)| *u == v).map(|&(_, m)| m);
        let filled = mark.is_some();
        if let Some(m) = mark {
            let (class, colour) = match m {
                Mark::Start => ("start", "#c0392b"),
                Mark::Blue => ("blue", "#1f5fa8"),
                Mark::Red => ("red", "#c0392b"),
            };
            let ring = if m == Mark::Start { "#c0392b" } else { "#222" };
            let width = if m == Mark::Start { 3 } else { 1 };
            let _ = write!(
                out,
                "<circle class=\"{class}\" data-v=\"{v}\" cx=\"{x}\" cy=\"{y}\" r=\"{radius}\" fill=\"{colour}\" stroke=\"{ring}\" stroke-width=\"{width}\"/>",
            );
        } else {
            let _ = write!(
                out,
                "<circle data-v=\"{v}\" cx=\"{x}\" cy=\"{y}\" r=\"{radius}\" fill=\"#fff\" stroke=\"#222\" stroke-width=\"1.5\"/>",
            );
        }
        if opts.labels && n <= 20 {
            let colour = if filled { "#fff" } else { "#222" };
            let _ = write!(
                out,
                "<text x=\"{x}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{colour}\" font-family=\"sans-serif\">{v}</text>",
                y + radius / 2 + 1,
                radius + 2,
            );
        }
    }
    out.push_str("</svg>");
    Ok(out)
}

/// [`svg`] of a graph6 code, or of a digraph6 code (starting with `&`,
/// drawn with arrows).
pub fn svg_code(code: &str, marked: &[usize], opts: &Options) -> Result<String, DrawError> {
    let marks: Vec<(usize, Mark)> = marked.iter().map(|&v| (v, Mark::Start)).collect();
    svg_code_marks(code, |_| Ok(marks), opts)
}

/// [`svg_marks`] of a graph6 code, or of a digraph6 code (starting with `&`,
/// drawn with arrows); `marks` gets the vertex count.
pub fn svg_code_marks(
    code: &str,
    marks: impl FnOnce(usize) -> Result<Vec<(usize, Mark)>, DrawError>,
    opts: &Options,
) -> Result<String, DrawError> {
    let directed = code.starts_with('&');
    let (n, edges) = if directed {
        graph6::decode_digraph(code)?
    } else {
        graph6::decode(code)?
    };
    svg_marks(
        n,
        &edges,
        &marks(n)?,
        &Options {
            directed,
            ..opts.clone()
        },
    )
}

/// [`svg_code_marks`] with the colouring `text` (see [`parse_colouring`]).
pub fn svg_code_coloured(code: &str, text: &str, opts: &Options) -> Result<String, DrawError> {
    svg_code_marks(code, |n| parse_colouring(text, n), opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Well-formed enough: one root `<svg …>…</svg>`, every other tag
    /// self-closed or closed in order.
    fn balanced(s: &str) -> bool {
        let mut stack: Vec<String> = Vec::new();
        let mut rest = s;
        while let Some(i) = rest.find('<') {
            let Some(j) = rest[i..].find('>') else {
                return false;
            };
            let tag = &rest[i + 1..i + j];
            rest = &rest[i + j + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                if stack.pop().as_deref() != Some(name) {
                    return false;
                }
            } else if !tag.ends_with('/') {
                let name = tag.split_whitespace().next().unwrap_or("");
                stack.push(name.to_string());
            }
        }
        stack.is_empty() && s.starts_with("<svg ") && s.ends_with("</svg>")
    }

    #[test]
    fn a_picture_is_balanced_and_marks_its_start() {
        // A 4-vertex graph, start 2.
        let (n, edges) = graph6::decode("Cx").unwrap();
        let s = svg(n, &edges, &[2], &Options::default()).unwrap();
        assert!(balanced(&s), "{s}");
        assert_eq!(s.matches("<circle").count(), n);
        assert_eq!(s.matches("<line").count(), edges.len());
        assert_eq!(s.matches("class=\"start\"").count(), 1);
        assert!(s.contains("class=\"start\" data-v=\"2\""), "{s}");
        assert!(s.contains("data-n=\"4\""));
    }

    #[test]
    fn pictures_are_deterministic_and_inside_the_box() {
        for code in [
            "@",
            "A_",
            "Bw",
            "Cx",
            "DQw",
            "EQjO",
            "Fs\\zw",
            "G?qbF_",
            "JhCGGC@?G?_",
        ] {
            let (n, edges) = graph6::decode(code).unwrap();
            let a = svg_code(code, &[0], &Options::default()).unwrap();
            let b = svg_code(code, &[0], &Options::default()).unwrap();
            assert_eq!(a, b, "{code}");
            assert!(balanced(&a), "{code}: {a}");
            let pts = layout(n, &edges, 160);
            assert_eq!(pts.len(), n);
            for &(x, y) in &pts {
                assert!(
                    (0..=160).contains(&x) && (0..=160).contains(&y),
                    "{code}: {pts:?}"
                );
            }
            // No two vertices drawn on top of each other.
            for i in 0..n {
                for j in (i + 1)..n {
                    let (dx, dy) = (pts[i].0 - pts[j].0, pts[i].1 - pts[j].1);
                    assert!(
                        dx * dx + dy * dy >= 64,
                        "{code}: {i} and {j} overlap: {pts:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_layout_is_pinned() {
        // Byte-stable across platforms: only exactly rounded arithmetic.
        assert_eq!(layout(1, &[], 160), vec![(80, 80)]);
        assert_eq!(layout(2, &[(0, 1)], 160), vec![(12, 80), (148, 80)]);
        let p4 = layout(4, &[(0, 1), (1, 2), (2, 3)], 160);
        // The path 0-1-2-3 straightened out, evenly spaced, corner to corner.
        assert_eq!(p4, vec![(148, 12), (104, 56), (56, 104), (12, 148)]);
    }

    #[test]
    fn the_circle_is_exact_enough() {
        for k in 0..16 {
            let t = k as f64 / 16.0;
            let (c, s) = cos_sin_turns(t);
            let x = 2.0 * std::f64::consts::PI * t;
            assert!(
                (c - x.cos()).abs() < 1e-12 && (s - x.sin()).abs() < 1e-12,
                "{t}"
            );
        }
    }

    #[test]
    fn colourings_mark_blue_and_red() {
        let s = svg_code_coloured("Bw", "L.R", &Options::default()).unwrap();
        assert!(balanced(&s), "{s}");
        assert!(s.contains("class=\"blue\" data-v=\"0\""), "{s}");
        assert!(s.contains("class=\"red\" data-v=\"2\""), "{s}");
        assert_eq!(s.matches("class=\"blue\"").count(), 1);
        assert_eq!(s.matches("class=\"red\"").count(), 1);
        assert!(!s.contains("class=\"start\""));
        // Same picture as `svg_code` but for the marks.
        let plain = svg_code("Bw", &[], &Options::default()).unwrap();
        assert_eq!(s.matches("<line").count(), plain.matches("<line").count());
        for bad in ["L.", "L.RR", "LXR"] {
            assert!(
                matches!(
                    svg_code_coloured("Bw", bad, &Options::default()),
                    Err(DrawError::Colouring { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn digraphs_have_arrows_and_bad_input_is_an_error() {
        let d = graph6::encode_digraph_with(3, |u, v| (u, v) == (0, 1) || (u, v) == (1, 2));
        let s = svg_code(&d, &[0], &Options::default()).unwrap();
        assert_eq!(s.matches("marker-end").count(), 2);
        assert!(balanced(&s));
        assert!(matches!(
            svg_code("not graph6 ~~", &[], &Options::default()),
            Err(DrawError::Code(_))
        ));
        assert_eq!(
            svg(3, &[(0, 3)], &[], &Options::default()),
            Err(DrawError::NoVertex { v: 3, n: 3 })
        );
        assert_eq!(
            svg(2, &[], &[2], &Options::default()),
            Err(DrawError::NoVertex { v: 2, n: 2 })
        );
        assert_eq!(
            svg(65, &[], &[], &Options::default()),
            Err(DrawError::TooBig { n: 65 })
        );
        let t = Options {
            title: Some("a<b & \"c\"".into()),
            ..Options::default()
        };
        let s = svg(1, &[], &[], &t).unwrap();
        assert!(
            s.contains("<title>a&lt;b &amp; &quot;c&quot;</title>"),
            "{s}"
        );
    }
}
