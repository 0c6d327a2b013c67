//! The boards' presets: named graphs with standard embeddings (path, cycle,
//! Petersen as a pentagram in a pentagon, cube, dodecahedron as a Schlegel
//! diagram), the smallest `*k` witnesses of the committed UVG runs, and the
//! Col / Myopic Col positions of the seed article (the watched digraph,
//! the −1/2 and 1/4 trees).

use gamesweep::graph::graph6;
use serde::Serialize;
use std::sync::OnceLock;

/// Side of the square the boards' coordinates live in (the page's
/// viewBox; presets' embeddings and the force layout alike).
pub const BOX: u32 = 400;

/// One preset.
#[derive(Clone, Debug, Serialize)]
pub struct Preset {
    /// Short id (`petersen`, `star3`, ...).
    pub id: String,
    /// What the menu says.
    pub name: String,
    /// `uvg`, `col` or `myopic`.
    pub game: &'static str,
    /// graph6 (digraph6 for Myopic Col).
    pub code: String,
    /// UVG: the start to put the token on.
    pub start: Option<usize>,
    /// Col: the colouring (`.`, `L`, `R` per vertex).
    pub colouring: Option<String>,
    /// Where it comes from.
    pub note: String,
    /// Fixed coordinates (in the 400 × 400 box), for named graphs.
    #[serde(skip)]
    pub coords: Option<Vec<(i32, i32)>>,
}

/// Points on a circle of radius `r` (box units) around the centre, the
/// first at angle `turn0` (turns, 0 = top), `k` of them clockwise.
fn ring(k: usize, r: f64, turn0: f64) -> Vec<(i32, i32)> {
    let c = f64::from(BOX) / 2.0;
    (0..k)
        .map(|i| {
            let a = 2.0 * std::f64::consts::PI * (turn0 + i as f64 / k as f64);
            (
                (c + r * a.sin()).round() as i32,
                (c - r * a.cos()).round() as i32,
            )
        })
        .collect()
}

/// Edges and fixed coordinates of a named graph.
type Embedded = (Vec<(usize, usize)>, Vec<(i32, i32)>);

fn code(n: usize, edges: &[(usize, usize)]) -> String {
    graph6::encode_with(n, |i, j| {
        edges
            .iter()
            .any(|&(a, b)| (a, b) == (i, j) || (b, a) == (i, j))
    })
}

fn named(
    id: &str,
    name: &str,
    game: &'static str,
    n: usize,
    edges: &[(usize, usize)],
    coords: Vec<(i32, i32)>,
) -> Preset {
    Preset {
        id: id.into(),
        name: name.into(),
        game,
        code: code(n, edges),
        start: Some(0).filter(|_| game == "uvg"),
        colouring: None,
        note: format!("{n} vertices, {} edges; standard embedding", edges.len()),
        coords: Some(coords),
    }
}

fn path(n: usize) -> Embedded {
    let e = (1..n).map(|i| (i - 1, i)).collect();
    let b = f64::from(BOX);
    let c = (0..n)
        .map(|i| {
            (
                (30.0 + (b - 60.0) * i as f64 / (n - 1) as f64).round() as i32,
                (b / 2.0) as i32,
            )
        })
        .collect();
    (e, c)
}

fn cycle(n: usize) -> Embedded {
    let e = (0..n).map(|i| (i, (i + 1) % n)).collect();
    (e, ring(n, 170.0, 0.0))
}

/// Petersen: outer pentagon 0–4, spokes i – i + 5, inner pentagram 5–9.
fn petersen() -> Embedded {
    let mut e = Vec::new();
    for i in 0..5 {
        e.push((i, (i + 1) % 5));
        e.push((i, i + 5));
        e.push((5 + i, 5 + (i + 2) % 5));
    }
    let mut c = ring(5, 175.0, 0.0);
    c.extend(ring(5, 80.0, 0.0));
    (e, c)
}

/// The cube: vertices 0–7 by bits, the square of bit 2 = 0 outside.
fn cube() -> Embedded {
    let mut e = Vec::new();
    for u in 0..8usize {
        for b in 0..3 {
            let w = u ^ 1 << b;
            if u < w {
                e.push((u, w));
            }
        }
    }
    let corner = |u: usize, r: i32| {
        let c = (BOX / 2) as i32;
        let x = if u & 1 == 0 { -r } else { r };
        let y = if u & 2 == 0 { -r } else { r };
        (c + x, c + y)
    };
    let c = (0..8)
        .map(|u| corner(u, if u & 4 == 0 { 170 } else { 75 }))
        .collect();
    (e, c)
}

/// The dodecahedron as a Schlegel diagram: outer pentagon a0–a4 (0–4),
/// b_i (5–9) below a_i, c_i (10–14) between b_i and b_(i+1), inner
/// pentagon d_i (15–19) below c_i.
fn dodecahedron() -> Embedded {
    let mut e = Vec::new();
    for i in 0..5 {
        let j = (i + 1) % 5;
        e.push((i, j)); // outer pentagon
        e.push((i, 5 + i)); // a_i – b_i
        e.push((5 + i, 10 + i)); // b_i – c_i
        e.push((10 + i, 5 + j)); // c_i – b_(i+1)
        e.push((10 + i, 15 + i)); // c_i – d_i
        e.push((15 + i, 15 + j)); // inner pentagon
    }
    let mut c = ring(5, 180.0, 0.0);
    c.extend(ring(5, 120.0, 0.0));
    c.extend(ring(5, 100.0, 0.1));
    c.extend(ring(5, 50.0, 0.1));
    (e, c)
}

/// A smallest witness of a Grundy value from a committed run.
fn witness(k: u32, code: &str, start: usize, run: &str) -> Preset {
    let n = graph6::decode(code).map(|(n, _)| n).unwrap_or(0);
    Preset {
        id: format!("star{k}"),
        name: format!("smallest *{k} ({n} vertices)"),
        game: "uvg",
        code: code.into(),
        start: Some(start),
        colouring: None,
        note: format!("start {start}: the smallest position of value *{k} in {run}"),
        coords: None,
    }
}

fn col(
    id: &str,
    name: &str,
    game: &'static str,
    code: String,
    colouring: &str,
    note: &str,
) -> Preset {
    Preset {
        id: id.into(),
        name: name.into(),
        game,
        code,
        start: None,
        colouring: Some(colouring.into()),
        note: note.into(),
        coords: None,
    }
}

fn build() -> Vec<Preset> {
    let mut v = Vec::new();
    let (e, c) = path(6);
    v.push(named("path6", "path P6", "uvg", 6, &e, c));
    let (e, c) = cycle(7);
    v.push(named("cycle7", "cycle C7", "uvg", 7, &e, c));
    let (e, c) = petersen();
    v.push(named("petersen", "Petersen graph", "uvg", 10, &e, c));
    let (e, c) = cube();
    v.push(named("cube", "cube Q3", "uvg", 8, &e, c));
    let (e, c) = dodecahedron();
    v.push(named("dodecahedron", "dodecahedron", "uvg", 20, &e, c));
    // runs/uvg-n10/results.json (by_n[].witnesses), and the local searches.
    let exact = "runs/uvg-n10 (every connected graph of ≤ 10 vertices)";
    v.push(witness(1, "A_", 0, exact));
    v.push(witness(2, "Cq", 0, exact));
    v.push(witness(3, "Er`?", 0, exact));
    v.push(witness(4, "GrqI?O", 1, exact));
    v.push(witness(5, "I}Kg[_GC?", 4, exact));
    v.push(witness(
        6,
        "K?oX@rVERZ`?",
        4,
        "runs/uvg-local-search-6 (local search, 12 vertices)",
    ));
    v.push(witness(
        7,
        "MyJEtFanoE_W?Oi_?",
        7,
        "runs/uvg-local-search-7 (local search, 14 vertices)",
    ));
    // Col.
    let (e, c) = path(5);
    let mut p = named("col-path5", "Col: path P5", "col", 5, &e, c);
    p.colouring = Some(".....".into());
    v.push(p);
    let (e, c) = petersen();
    let mut p = named(
        "col-petersen",
        "Col: Petersen, two coloured",
        "col",
        10,
        &e,
        c,
    );
    p.colouring = Some("L.R.......".into());
    v.push(p);
    // Myopic Col, the seed's presets.
    v.push(col(
        "watched",
        "Myopic: watched (0 → 1, 0 → 2, 1 → 0)",
        "myopic",
        graph6::encode_digraph_with(3, |i, j| matches!((i, j), (0, 1) | (0, 2) | (1, 0))),
        "...",
        "the smallest digraph where the root is watched: value 0, not * + * + *",
    ));
    v.push(col(
        "half",
        "Myopic: −1/2 (3 nodes)",
        "myopic",
        graph6::encode_digraph_with(3, |i, j| i == 0 && j > 0),
        ".L.",
        "root and two leaves, one leaf blue: {−1 | 0} = −1/2",
    ));
    v.push(col(
        "quarter",
        "Myopic: 1/4 tree (7 nodes)",
        "myopic",
        "&FOC@GW????".into(),
        ".R....L",
        "the smallest binary tree position of value 1/4 (runs/myopic-tree)",
    ));
    v
}

/// Every preset, in menu order.
pub fn all() -> &'static [Preset] {
    static P: OnceLock<Vec<Preset>> = OnceLock::new();
    P.get_or_init(build)
}

/// The fixed embedding of a named graph with this code, if any.
pub fn embedding(code: &str) -> Option<(String, Vec<(i32, i32)>)> {
    all()
        .iter()
        .find(|p| p.code == code && p.coords.is_some())
        .and_then(|p| Some((p.name.clone(), p.coords.clone()?)))
}

/// A board's picture data: vertices with coordinates and its edges or arcs.
#[derive(Clone, Debug, Serialize)]
pub struct Drawing {
    /// Vertices.
    pub n: usize,
    /// Edges (undirected) or arcs (directed), as given by the code.
    pub edges: Vec<(usize, usize)>,
    /// Arcs rather than edges.
    pub directed: bool,
    /// Coordinates in a 400 × 400 box.
    pub coords: Vec<(i32, i32)>,
    /// Where the coordinates come from: a preset's embedding or the layout.
    pub layout: String,
}

/// The drawing of a decoded graph: a preset's embedding when the code is a
/// preset's, else the seeded force layout of [`gamesweep::draw`].
pub fn drawing(code: &str, n: usize, edges: Vec<(usize, usize)>, directed: bool) -> Drawing {
    let (coords, layout) = match embedding(code) {
        Some((name, c)) if c.len() == n => (c, format!("{name} embedding")),
        _ => (
            gamesweep::draw::layout(n, &edges, BOX),
            "force layout".to_string(),
        ),
    };
    Drawing {
        n,
        edges,
        directed,
        coords,
        layout,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_graphs_are_what_they_say() {
        let by = |id: &str| all().iter().find(|p| p.id == id).unwrap();
        let deg = |code: &str| {
            let (n, e) = graph6::decode(code).unwrap();
            let g = gamesweep::graph::BitGraph::from_edges(n, &e);
            (
                n,
                g.edge_count(),
                (0..n).map(|v| g.degree(v)).max().unwrap(),
                (0..n).map(|v| g.degree(v)).min().unwrap(),
            )
        };
        assert_eq!(deg(&by("petersen").code), (10, 15, 3, 3));
        assert_eq!(deg(&by("cube").code), (8, 12, 3, 3));
        assert_eq!(deg(&by("dodecahedron").code), (20, 30, 3, 3));
        // Every preset decodes, and embeddings have one point per vertex.
        for p in all() {
            let n = if p.game == "myopic" {
                graph6::decode_digraph(&p.code).unwrap().0
            } else {
                graph6::decode(&p.code).unwrap().0
            };
            if let Some(c) = &p.coords {
                assert_eq!(c.len(), n, "{}", p.id);
            }
            if let Some(c) = &p.colouring {
                assert_eq!(c.len(), n, "{}", p.id);
            }
        }
    }
}
