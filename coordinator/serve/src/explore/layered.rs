//! The boards of the games on the graph-game layer
//! (`gamesweep::families::graph_game`): every game of
//! `gamesweep::kinds::games()` gets one, found there (this module names
//! none), its values and moves from the layer's
//! [`GameKind::board`](gamesweep::families::graph_game::GameKind::board),
//! its presets generated from the game's graph type and size limit.

use super::presets::Preset;
use super::values::{drawing, BoardError, Drawing};
use gamesweep::draw::named;
use gamesweep::families::graph_game::board::{BoardView, Line, Refused, BOARD_BUDGET};
use gamesweep::families::graph_game::{GameKind, Side};
use gamesweep::graph::graph6;
use serde::Serialize;
use std::sync::OnceLock;

/// A game of the layer as the page's menu and its one generic game object
/// know it.
#[derive(Clone, Debug, Serialize)]
pub struct GameInfo {
    /// Its name (`node-kayles`): the `game` of links and requests.
    pub name: &'static str,
    /// Its name for people ("Node Kayles").
    pub title: &'static str,
    /// The rule, one line.
    pub about: &'static str,
    /// Impartial (Grundy values) or partizan (canonical values, Left and
    /// Right).
    pub impartial: bool,
    /// Played on digraphs (digraph6).
    pub directed: bool,
    /// The most vertices its boards take.
    pub max_vertices: usize,
}

/// Every game of the layer.
pub fn games() -> Vec<GameInfo> {
    gamesweep::kinds::games()
        .iter()
        .map(|g| GameInfo {
            name: g.name(),
            title: g.title(),
            about: g.about(),
            impartial: g.impartial(),
            directed: g.directed(),
            max_vertices: g.max_vertices(),
        })
        .collect()
}

/// A board of a layered game: the layer's answer and the drawing.
#[derive(Clone, Debug, Serialize)]
pub struct LayeredView {
    /// The position, its moves and values.
    #[serde(flatten)]
    pub board: BoardView,
    /// The graph's drawing.
    pub drawing: Drawing,
    /// The game's name for people.
    pub title: &'static str,
}

/// The game named `name`, or why there is none (naming the games there are).
pub fn find(name: &str) -> Result<&'static dyn GameKind, BoardError> {
    let all = gamesweep::kinds::games();
    all.iter()
        .copied()
        .find(|g| g.name() == name)
        .ok_or_else(|| {
            BoardError::Illegal(format!(
                "no game `{}` on the graph-game layer (games: {})",
                name.chars().take(40).collect::<String>(),
                all.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ")
            ))
        })
}

/// A list of numbers `0,3,1` (empty: none), `what` naming it in the error.
fn numbers(text: &str, what: &str) -> Result<Vec<usize>, BoardError> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(Vec::new());
    }
    t.split(',')
        .map(|s| {
            s.trim().parse::<usize>().map_err(|_| {
                BoardError::Illegal(format!(
                    "bad {what} `{}`: `{}` is not a number",
                    t.chars().take(40).collect::<String>(),
                    s.chars().take(20).collect::<String>()
                ))
            })
        })
        .collect()
}

/// The board of game `name` on `code` from start `start` (empty: none
/// chosen) along the moves `moves` (option indices, `0,2,1`), `first`
/// (`L`, `R` or empty: Left) moving first in a partizan game.
pub fn view(
    name: &str,
    code: &str,
    start: &str,
    moves: &str,
    first: &str,
) -> Result<LayeredView, BoardError> {
    let game = find(name)?;
    let start = match numbers(start, "start")?[..] {
        [] => None,
        [s] => Some(s),
        _ => {
            return Err(BoardError::Illegal(format!(
                "bad start `{}`: one position's number",
                start.chars().take(40).collect::<String>()
            )))
        }
    };
    let first = match first.trim() {
        "" | "L" => Side::Left,
        "R" => Side::Right,
        f => {
            return Err(BoardError::Illegal(format!(
                "unknown side `{}` to move first (L: Blue, Left; R: Red, Right)",
                f.chars().take(16).collect::<String>()
            )))
        }
    };
    let line = Line {
        start,
        moves: numbers(moves, "moves")?,
        first: Some(first),
    };
    let board = game.board(code, &line, BOARD_BUDGET).map_err(|e| match e {
        Refused::Budget(m) => BoardError::Budget(m),
        Refused::Input(m) => BoardError::Illegal(m),
    })?;
    let d = drawing(code.trim(), board.n, board.edges.clone(), board.directed);
    Ok(LayeredView {
        board,
        drawing: d,
        title: game.title(),
    })
}

/// Presets for every game of the layer, after the others in the menu:
/// the named undirected graphs (path, cycle, Petersen, cube) that fit an
/// undirected game's size limit; two digraphs for a directed game.
pub fn presets() -> &'static [Preset] {
    static P: OnceLock<Vec<Preset>> = OnceLock::new();
    P.get_or_init(|| {
        let mut out = Vec::new();
        for g in gamesweep::kinds::games() {
            let mut graphs: Vec<(String, String, String)> = Vec::new();
            if g.directed() {
                // The regular tournament on 5 vertices (i → i + 1, i + 2)
                // and the directed cycle on 6 with chords i → i + 3 for
                // even i.
                let t5 = graph6::encode_digraph_with(5, |i, j| matches!((j + 5 - i) % 5, 1 | 2));
                let c6 = graph6::encode_digraph_with(6, |i, j| {
                    j == (i + 1) % 6 || (i % 2 == 0 && j == (i + 3) % 6)
                });
                graphs.push(("t5".into(), "tournament T5".into(), t5));
                graphs.push(("c6".into(), "6-cycle with chords".into(), c6));
            } else {
                for id in ["path6", "cycle7", "petersen", "cube"] {
                    let n = named::by_id(id).expect("a named graph");
                    graphs.push((id.into(), n.name.into(), n.code.clone()));
                }
            }
            for (id, gname, code) in graphs {
                let n = if g.directed() {
                    graph6::decode_digraph(&code).map(|(n, _)| n)
                } else {
                    graph6::decode(&code).map(|(n, _)| n)
                }
                .expect("a preset decodes");
                if n > g.max_vertices() {
                    continue;
                }
                out.push(Preset {
                    id: format!("{}-{id}", g.name()),
                    name: format!("{}: {gname}", g.title()),
                    game: g.name(),
                    code,
                    start: None,
                    colouring: None,
                    note: format!("{} ({n} vertices)", g.about()),
                    coords: None,
                });
            }
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_opens_within_the_budget() {
        let ps = presets();
        assert!(ps.len() >= gamesweep::kinds::games().len() * 2);
        for p in ps {
            let v = view(p.game, &p.code, "", "", "").unwrap_or_else(|e| panic!("{}: {e}", p.id));
            // A game with several starts shows them until one is chosen.
            if v.board.start.is_none() {
                assert_eq!(v.board.starts.len(), v.board.n, "{}", p.id);
                let s = v.board.starts[0].index.to_string();
                view(p.game, &p.code, &s, "", "").unwrap_or_else(|e| panic!("{}: {e}", p.id));
            }
        }
    }

    #[test]
    fn a_bad_request_says_what_is_wrong() {
        let e = |g: &str, code: &str, s: &str, m: &str, f: &str| {
            view(g, code, s, m, f).unwrap_err().to_string()
        };
        assert!(e("nope", "Bw", "", "", "")
            .starts_with("no game `nope` on the graph-game layer (games: node-kayles,"));
        assert_eq!(
            e("node-kayles", "Bw", "", "1,x", ""),
            "bad moves `1,x`: `x` is not a number"
        );
        assert_eq!(
            e("node-kayles", "Bw", "0,1", "", ""),
            "bad start `0,1`: one position's number"
        );
        assert_eq!(
            e("snort", "Bw", "", "", "B"),
            "unknown side `B` to move first (L: Blue, Left; R: Red, Right)"
        );
    }
}
