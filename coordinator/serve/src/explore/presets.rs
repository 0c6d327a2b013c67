//! The boards' presets: the named graphs of [`gamesweep::draw::named`]
//! with their standard embeddings (path, cycle, Petersen as a pentagram in
//! a pentagon, cube, dodecahedron as a Schlegel diagram), the smallest `*k` witnesses of the committed UVG runs, and the
//! Col / Myopic Col positions of the seed article (the watched digraph,
//! the −1/2 and 1/4 trees).

use gamesweep::draw::named;
use gamesweep::graph::graph6;
use serde::Serialize;
use std::sync::OnceLock;

/// Side of the square the boards' coordinates live in (the page's
/// viewBox; presets' embeddings and the force layout alike).
pub const BOX: u32 = named::BOX;

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

/// The preset of a named graph of [`gamesweep::draw::named`] (its
/// embedding, as `solve --svg` draws it).
fn named(id: &str, name: &str, game: &'static str, graph: &str) -> Preset {
    let g = named::by_id(graph).expect("a named graph");
    Preset {
        id: id.into(),
        name: name.into(),
        game,
        code: g.code.clone(),
        start: Some(0).filter(|_| game == "uvg"),
        colouring: None,
        note: format!(
            "{} vertices, {} edges; standard embedding",
            g.n,
            g.edges.len()
        ),
        coords: Some(g.coords.clone()),
    }
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
    for g in named::all().iter().filter(|g| g.id != "path5") {
        v.push(named(g.id, g.name, "uvg", g.id));
    }
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
    let mut p = named("col-path5", "Col: path P5", "col", "path5");
    p.colouring = Some(".....".into());
    v.push(p);
    let mut p = named(
        "col-petersen",
        "Col: Petersen, two coloured",
        "col",
        "petersen",
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

/// The drawing of a decoded graph: a named graph's embedding when the
/// code is one's, else the seeded force layout of [`gamesweep::draw`]
/// ([`named::placement`], as `solve --svg` draws it).
pub fn drawing(code: &str, n: usize, edges: Vec<(usize, usize)>, directed: bool) -> Drawing {
    let (coords, layout) = named::placement(Some(code), n, &edges, BOX);
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
