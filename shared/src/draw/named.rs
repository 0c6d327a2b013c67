//! Named graphs with their standard embeddings (paths, cycles, Petersen as a
//! pentagram in a pentagon, the cube, the dodecahedron as a Schlegel
//! diagram), and the one choice every drawing of a graph makes: a named
//! graph's embedding when the graph6 code is one of these, else the force
//! [`layout`]. The boards and `solve --svg` both draw through
//! [`placement`], so a graph looks the same on either.

use super::layout;
use crate::graph::graph6;
use std::sync::OnceLock;

/// Side of the square the embeddings' coordinates live in.
pub const BOX: u32 = 400;

/// A named graph: its edges and fixed coordinates in the [`BOX`] square.
#[derive(Clone, Debug)]
pub struct Named {
    /// Short id (`petersen`, `cube`, ...).
    pub id: &'static str,
    /// What it is called (`Petersen graph`, ...).
    pub name: &'static str,
    /// Vertices.
    pub n: usize,
    /// Edges.
    pub edges: Vec<(usize, usize)>,
    /// The graph6 code of `n` and `edges`.
    pub code: String,
    /// One point per vertex in the [`BOX`] square.
    pub coords: Vec<(i32, i32)>,
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

fn named(
    id: &'static str,
    name: &'static str,
    n: usize,
    edges: Vec<(usize, usize)>,
    coords: Vec<(i32, i32)>,
) -> Named {
    let code = graph6::encode_with(n, |i, j| {
        edges
            .iter()
            .any(|&(a, b)| (a, b) == (i, j) || (b, a) == (i, j))
    });
    Named {
        id,
        name,
        n,
        edges,
        code,
        coords,
    }
}

/// The path on `n` vertices, left to right.
fn path(id: &'static str, name: &'static str, n: usize) -> Named {
    let b = f64::from(BOX);
    let c = (0..n)
        .map(|i| {
            (
                (30.0 + (b - 60.0) * i as f64 / (n - 1) as f64).round() as i32,
                (b / 2.0) as i32,
            )
        })
        .collect();
    named(id, name, n, (1..n).map(|i| (i - 1, i)).collect(), c)
}

/// The cycle on `n` vertices, vertex 0 at the top, clockwise.
fn cycle(id: &'static str, name: &'static str, n: usize) -> Named {
    let e = (0..n).map(|i| (i, (i + 1) % n)).collect();
    named(id, name, n, e, ring(n, 170.0, 0.0))
}

/// Petersen: outer pentagon 0–4, spokes i – i + 5, inner pentagram 5–9.
fn petersen() -> Named {
    let mut e = Vec::new();
    for i in 0..5 {
        e.push((i, (i + 1) % 5));
        e.push((i, i + 5));
        e.push((5 + i, 5 + (i + 2) % 5));
    }
    let mut c = ring(5, 175.0, 0.0);
    c.extend(ring(5, 80.0, 0.0));
    named("petersen", "Petersen graph", 10, e, c)
}

/// The cube: vertices 0–7 by bits, the square of bit 2 = 0 outside.
fn cube() -> Named {
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
    named("cube", "cube Q3", 8, e, c)
}

/// The dodecahedron as a Schlegel diagram: outer pentagon a0–a4 (0–4),
/// b_i (5–9) below a_i, c_i (10–14) between b_i and b_(i+1), inner
/// pentagon d_i (15–19) below c_i.
fn dodecahedron() -> Named {
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
    named("dodecahedron", "dodecahedron", 20, e, c)
}

/// Every named graph.
pub fn all() -> &'static [Named] {
    static ALL: OnceLock<Vec<Named>> = OnceLock::new();
    ALL.get_or_init(|| {
        vec![
            path("path6", "path P6", 6),
            cycle("cycle7", "cycle C7", 7),
            petersen(),
            cube(),
            dodecahedron(),
            path("path5", "path P5", 5),
        ]
    })
}

/// The named graph with id `id`.
pub fn by_id(id: &str) -> Option<&'static Named> {
    all().iter().find(|g| g.id == id)
}

/// The named graph whose graph6 code is `code` (as written, vertex
/// numbering included: an embedding places numbered vertices).
pub fn by_code(code: &str) -> Option<&'static Named> {
    let code = graph6::strip_header(code.trim());
    all().iter().find(|g| g.code == code)
}

/// Where to draw the `n` vertices of the graph with `edges` (graph6 code
/// `code`, when it has one) in a `size` × `size` square, and what placed
/// them: a named graph's embedding (scaled from [`BOX`]), named "NAME
/// embedding", or the force [`layout`], "force layout".
pub fn placement(
    code: Option<&str>,
    n: usize,
    edges: &[(usize, usize)],
    size: u32,
) -> (Vec<(i32, i32)>, String) {
    match code.and_then(by_code).filter(|g| g.n == n) {
        Some(g) => {
            let s = f64::from(size.max(20)) / f64::from(BOX);
            let c = g
                .coords
                .iter()
                .map(|&(x, y)| {
                    (
                        (f64::from(x) * s).round() as i32,
                        (f64::from(y) * s).round() as i32,
                    )
                })
                .collect();
            (c, format!("{} embedding", g.name))
        }
        None => (layout(n, edges, size), "force layout".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_graphs_are_what_they_say() {
        let deg = |id: &str| {
            let g = by_id(id).unwrap();
            let (n, e) = graph6::decode(&g.code).unwrap();
            let b = crate::graph::BitGraph::from_edges(n, &e);
            (
                n,
                b.edge_count(),
                (0..n).map(|v| b.degree(v)).max().unwrap(),
                (0..n).map(|v| b.degree(v)).min().unwrap(),
            )
        };
        assert_eq!(deg("petersen"), (10, 15, 3, 3));
        assert_eq!(deg("cube"), (8, 12, 3, 3));
        assert_eq!(deg("dodecahedron"), (20, 30, 3, 3));
        assert_eq!(deg("path6"), (6, 5, 2, 1));
        assert_eq!(deg("cycle7"), (7, 7, 2, 2));
        for g in all() {
            assert_eq!(g.coords.len(), g.n, "{}", g.id);
            assert!(g
                .coords
                .iter()
                .all(|&(x, y)| (0..=BOX as i32).contains(&x) && (0..=BOX as i32).contains(&y)));
        }
        // The Petersen graph's outer pentagon starts at the top centre.
        assert_eq!(by_id("petersen").unwrap().coords[0], (200, 25));
    }

    #[test]
    fn placement_is_the_embedding_scaled_or_the_force_layout() {
        let p = by_id("petersen").unwrap();
        let (c, name) = placement(Some(&p.code), 10, &p.edges, BOX);
        assert_eq!(
            (c, name.as_str()),
            (p.coords.clone(), "Petersen graph embedding")
        );
        let (c, _) = placement(Some(&p.code), 10, &p.edges, BOX / 2);
        assert_eq!(c[0], (100, 13));
        // networkx's and nauty's Petersen graph is numbered as this one.
        assert_eq!(p.code, "IheA@GUAo");
        // Another numbering of the same graph is not the embedding's.
        let moved: Vec<(usize, usize)> = p
            .edges
            .iter()
            .map(|&(u, v)| ((u + 1) % 10, (v + 1) % 10))
            .collect();
        let other = graph6::encode_with(10, |i, j| {
            moved
                .iter()
                .any(|&(a, b)| (a, b) == (i, j) || (b, a) == (i, j))
        });
        assert_ne!(other, p.code);
        let (_, name) = placement(Some(&other), 10, &moved, BOX);
        assert_eq!(name, "force layout");
        let (c, name) = placement(None, 10, &p.edges, 160);
        assert_eq!(
            (c, name.as_str()),
            (layout(10, &p.edges, 160), "force layout")
        );
    }
}
