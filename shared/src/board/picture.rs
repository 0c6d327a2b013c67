//! Drawings of an analysed board: Graphviz (DOT) text, and SVG pictures
//! placed as the boards place them ([`crate::draw::named::placement`]: a
//! named graph's embedding, else the force layout; deterministic, byte for
//! byte). The `<svg>` says which in its `data-layout` attribute.
//!
//! UVG: the start filled dark, the maximum matching's edges gold and thick
//! (class `matching`), the unmatched vertices ringed red (class
//! `unmatched`). Col / Myopic Col: vertices filled blue (Left) or red
//! (Right), uncoloured white; Myopic arcs with arrowheads.

use super::col::ColAnalysis;
use super::uvg::UvgAnalysis;
use crate::draw::{escape, named, DrawError, MAX_DRAW_N};
use std::fmt::Write as _;

/// Gold, for matching edges.
const GOLD: &str = "#d4a017";
/// Red, for unmatched vertices and Right's colour.
const RED: &str = "#c0392b";
/// Blue, Left's colour.
const BLUE: &str = "#2e64c8";

/// How one vertex is drawn.
struct Vertex {
    fill: &'static str,
    stroke: &'static str,
    width: u32,
    class: String,
    label_light: bool,
}

/// How one edge is drawn.
struct Edge {
    u: usize,
    v: usize,
    colour: &'static str,
    width: f64,
    class: &'static str,
}

/// The SVG text of `n` styled vertices and edges of the graph with graph6
/// code `code` (digraph6 for arcs).
fn render(
    code: &str,
    n: usize,
    edges: &[Edge],
    vertices: &[Vertex],
    directed: bool,
    title: &str,
    size: u32,
) -> Result<String, DrawError> {
    if n > MAX_DRAW_N {
        return Err(DrawError::TooBig { n });
    }
    let size = size.max(20);
    let plain: Vec<(usize, usize)> = edges.iter().map(|e| (e.u, e.v)).collect();
    let (at, placed) = named::placement(Some(code), n, &plain, size);
    let radius = if n <= 12 {
        9
    } else if n <= 30 {
        6
    } else {
        4
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" data-n=\"{n}\" data-layout=\"{}\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\"><title>{}</title>",
        escape(&placed),
        escape(title)
    );
    if directed {
        out.push_str("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"#555\"/></marker></defs>");
    }
    for e in edges {
        let ((x1, y1), (x2, y2)) = (at[e.u], at[e.v]);
        let class = if e.class.is_empty() {
            String::new()
        } else {
            format!(" class=\"{}\"", e.class)
        };
        if directed {
            let (dx, dy) = (f64::from(x2 - x1), f64::from(y2 - y1));
            let d = (dx * dx + dy * dy).sqrt().max(1.0);
            let back = f64::from(radius + 2) / d;
            let (ex, ey) = (
                (f64::from(x2) - dx * back).round() as i32,
                (f64::from(y2) - dy * back).round() as i32,
            );
            let _ = write!(
                out,
                "<line{class} data-u=\"{}\" data-v=\"{}\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{ex}\" y2=\"{ey}\" stroke=\"{}\" stroke-width=\"{}\" marker-end=\"url(#arrow)\"/>",
                e.u, e.v, e.colour, e.width
            );
        } else {
            let _ = write!(
                out,
                "<line{class} data-u=\"{}\" data-v=\"{}\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{}\" stroke-width=\"{}\"/>",
                e.u, e.v, e.colour, e.width
            );
        }
    }
    for (v, (&(x, y), s)) in at.iter().zip(vertices).enumerate() {
        let class = if s.class.is_empty() {
            String::new()
        } else {
            format!(" class=\"{}\"", s.class)
        };
        let _ = write!(
            out,
            "<circle{class} data-v=\"{v}\" cx=\"{x}\" cy=\"{y}\" r=\"{radius}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
            s.fill, s.stroke, s.width
        );
        if n <= 20 {
            let colour = if s.label_light { "#fff" } else { "#222" };
            let _ = write!(
                out,
                "<text x=\"{x}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{colour}\" font-family=\"sans-serif\">{v}</text>",
                y + radius / 2 + 1,
                radius + 2,
            );
        }
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// The styles of a UVG drawing: edges, vertices.
fn uvg_styles(a: &UvgAnalysis, start: Option<usize>) -> (Vec<Edge>, Vec<Vertex>) {
    let edges = a
        .edges
        .iter()
        .map(|&(u, v)| {
            let m = a.matching.contains(&(u.min(v), u.max(v)));
            Edge {
                u,
                v,
                colour: if m { GOLD } else { "#888" },
                width: if m { 4.0 } else { 1.5 },
                class: if m { "matching" } else { "" },
            }
        })
        .collect();
    let vertices = (0..a.n)
        .map(|v| {
            let s = start == Some(v);
            let un = a.unmatched.contains(&v);
            let mut class = Vec::new();
            if s {
                class.push("start");
            }
            if un {
                class.push("unmatched");
            }
            Vertex {
                fill: if s { "#222" } else { "#fff" },
                stroke: if un { RED } else { "#222" },
                width: if un { 3 } else { 1 },
                class: class.join(" "),
                label_light: s,
            }
        })
        .collect();
    (edges, vertices)
}

/// SVG of a UVG analysis, `start` marked (or none), `size` pixels square.
pub fn uvg_svg(a: &UvgAnalysis, start: Option<usize>, size: u32) -> Result<String, DrawError> {
    if let Some(s) = start.filter(|&s| s >= a.n) {
        return Err(DrawError::NoVertex { v: s, n: a.n });
    }
    let (edges, vertices) = uvg_styles(a, start);
    let title = format!(
        "UVG {}: ν(G) = {}, matching gold, unmatched vertices red{}",
        a.graph6,
        a.nu,
        start.map(|s| format!(", start {s}")).unwrap_or_default()
    );
    render(&a.graph6, a.n, &edges, &vertices, false, &title, size)
}

/// Graphviz (DOT) text of a UVG analysis, `start` marked (or none); each
/// start's Grundy value in its vertex's label when it was analysed.
pub fn uvg_dot(a: &UvgAnalysis, start: Option<usize>) -> String {
    let (edges, vertices) = uvg_styles(a, start);
    let mut out = String::from("graph uvg {\n  node [shape=circle, style=filled];\n");
    let _ = writeln!(
        out,
        "  label=\"UVG {}: ν(G) = {}\";",
        a.graph6.replace('\\', "\\\\").replace('"', "\\\""),
        a.nu
    );
    for (v, s) in vertices.iter().enumerate() {
        let value = a
            .starts
            .iter()
            .find(|x| x.start == v)
            .map(|x| format!("\\n{}", crate::uvg::position::nimber(x.grundy)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {v} [label=\"{v}{value}\", fillcolor=\"{}\", fontcolor=\"{}\", color=\"{}\", penwidth={}];",
            s.fill,
            if s.label_light { "#ffffff" } else { "#222222" },
            s.stroke,
            s.width
        );
    }
    for e in &edges {
        let _ = writeln!(
            out,
            "  {} -- {} [color=\"{}\", penwidth={}];",
            e.u, e.v, e.colour, e.width
        );
    }
    out.push_str("}\n");
    out
}

/// The styles of a Col drawing.
fn col_styles(a: &ColAnalysis) -> (Vec<Edge>, Vec<Vertex>) {
    let edges = a
        .edges
        .iter()
        .map(|&(u, v)| Edge {
            u,
            v,
            colour: "#555",
            width: 1.5,
            class: "",
        })
        .collect();
    let vertices = a
        .colours
        .chars()
        .map(|c| {
            let (fill, class) = match c {
                'L' => (BLUE, "blue"),
                'R' => (RED, "red"),
                _ => ("#fff", ""),
            };
            Vertex {
                fill,
                stroke: "#222",
                width: 1,
                class: class.to_string(),
                label_light: c != '.',
            }
        })
        .collect();
    (edges, vertices)
}

/// SVG of a Col / Myopic Col board with its colouring, `size` pixels square.
pub fn col_svg(a: &ColAnalysis, size: u32) -> Result<String, DrawError> {
    let (edges, vertices) = col_styles(a);
    let title = format!(
        "{} {} colouring {}: value {}",
        a.report.rules, a.report.board, a.colours, a.report.value
    );
    render(
        &a.report.board,
        a.n,
        &edges,
        &vertices,
        a.directed,
        &title,
        size,
    )
}

/// Graphviz (DOT) text of a Col / Myopic Col board with its colouring.
pub fn col_dot(a: &ColAnalysis) -> String {
    let (edges, vertices) = col_styles(a);
    let (kind, arrow) = if a.directed {
        ("digraph", "->")
    } else {
        ("graph", "--")
    };
    let mut out = format!("{kind} col {{\n  node [shape=circle, style=filled];\n");
    let _ = writeln!(
        out,
        "  label=\"{} {}: value {}\";",
        a.report.rules,
        a.report.board.replace('\\', "\\\\").replace('"', "\\\""),
        a.report.value
    );
    for (v, s) in vertices.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {v} [fillcolor=\"{}\", fontcolor=\"{}\"];",
            s.fill,
            if s.label_light { "#ffffff" } else { "#222222" }
        );
    }
    for e in &edges {
        let _ = writeln!(out, "  {} {arrow} {};", e.u, e.v);
    }
    out.push_str("}\n");
    out
}
