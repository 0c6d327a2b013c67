//! The picture of one game of a game file on the boards: each position a
//! box holding its name (cut in the middle only past [`LABEL_MAX_CHARS`];
//! the page gives the full name on hover and in the table), placed by level
//! when the game is acyclic ([`gamesweep::draw::levels`]: every move goes
//! down) and by the force layout otherwise; and the page's cut of a
//! declared sum's pair table.

use super::presets::{Drawing, BOX};
use gamesweep::draw::levels::level_layout;
use gamesweep::gamegraph::solve::{PositionRow, DISPLAY_MAX_COLUMNS};
use gamesweep::gamegraph::{PairTable, SumReport};
use serde::Serialize;

/// Longest position name shown whole in its box; longer ones show their
/// first and last characters around `…`.
pub const LABEL_MAX_CHARS: usize = 16;

/// Height of a position's box, in pixels.
pub const BOX_HEIGHT: u32 = 22;

/// Rows of a sum's pair table the page shows (`solve gamegraph` prints all
/// of them, and as many columns, [`DISPLAY_MAX_COLUMNS`], as the page).
pub const PAIR_ROWS_MAX: usize = 100;

/// A game's picture: the graph with coordinates, and what each box shows.
#[derive(Clone, Debug, Serialize)]
pub struct GamePicture {
    /// Positions (in the report's table order), moves as arcs, coordinates
    /// (`layout` says which: "level layout" or "force layout").
    #[serde(flatten)]
    pub drawing: Drawing,
    /// What each position's box shows: its name, or its name cut in the
    /// middle when longer than [`LABEL_MAX_CHARS`].
    pub labels: Vec<String>,
    /// Width of each position's box, in pixels (its label fits).
    pub widths: Vec<u32>,
    /// With the level layout, each position's level: the most moves that
    /// can still be made from it (0 at the end positions); every move goes
    /// to a lower level.
    pub levels: Option<Vec<usize>>,
}

/// `name` whole when at most [`LABEL_MAX_CHARS`] characters, else its
/// first and last characters around `…` ([`LABEL_MAX_CHARS`] in all).
pub fn short_label(name: &str) -> String {
    let n = name.chars().count();
    if n <= LABEL_MAX_CHARS {
        return name.to_string();
    }
    let head = (LABEL_MAX_CHARS - 1) * 2 / 3;
    let tail = LABEL_MAX_CHARS - 1 - head;
    let mut s: String = name.chars().take(head).collect();
    s.push('…');
    s.extend(name.chars().skip(n - tail));
    s
}

/// Width of a box showing `label` at the page's 10 px font (about 6 px a
/// character, 6 px padding each side; at least a circle's width).
pub fn box_width(label: &str) -> u32 {
    (6 * label.chars().count() as u32 + 12).max(BOX_HEIGHT + 4)
}

/// The picture of a game from its report's table.
pub fn picture(table: &[PositionRow]) -> GamePicture {
    let n = table.len();
    let index: std::collections::HashMap<&str, usize> = table
        .iter()
        .enumerate()
        .map(|(i, r)| (r.position.as_str(), i))
        .collect();
    let edges: Vec<(usize, usize)> = table
        .iter()
        .enumerate()
        .flat_map(|(i, r)| {
            r.moves
                .iter()
                .filter_map(|m| index.get(m.as_str()).map(|&j| (i, j)))
                .collect::<Vec<_>>()
        })
        .collect();
    let labels: Vec<String> = table.iter().map(|r| short_label(&r.position)).collect();
    let widths: Vec<u32> = labels.iter().map(|l| box_width(l)).collect();
    let (coords, layout, levels) = match level_layout(n, &edges, &widths, BOX_HEIGHT, BOX) {
        Some(l) => (l.coords, "level layout", Some(l.levels)),
        None => (
            gamesweep::draw::layout(n, &edges, BOX),
            "force layout",
            None,
        ),
    };
    GamePicture {
        drawing: Drawing {
            n,
            edges,
            directed: true,
            coords,
            layout: layout.into(),
        },
        labels,
        widths,
        levels,
    }
}

/// The pair table of a declared sum as the page shows it: as `solve
/// gamegraph` prints it, cut to [`PAIR_ROWS_MAX`] rows.
pub fn pair_table(sum: &SumReport) -> Option<PairTable> {
    sum.pair_table(PAIR_ROWS_MAX, DISPLAY_MAX_COLUMNS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_whole_unless_long_and_then_keep_both_ends() {
        assert_eq!(short_label("2+2+1+1+1+1"), "2+2+1+1+1+1");
        assert_eq!(short_label("2+1+1+1+1+1+1+1"), "2+1+1+1+1+1+1+1");
        assert_eq!(short_label("abcdefghijklmnop"), "abcdefghijklmnop");
        let cut = short_label("abcdefghijklmnopqrstuvwxyz");
        assert_eq!(cut.chars().count(), LABEL_MAX_CHARS);
        assert_eq!(cut, "abcdefghij…vwxyz");
        let e = short_label(&"é".repeat(20));
        assert_eq!(e.chars().count(), LABEL_MAX_CHARS, "{e}");
        assert!(box_width("2+2+1+1+1+1") >= 6 * 11);
    }

    /// An acyclic game from a file is drawn by level: every move goes from a
    /// higher level to a lower one, each level is the longest line of moves
    /// from the position (recomputed here from the report's moves), and no
    /// two boxes overlap; a cyclic one keeps the force layout.
    #[test]
    fn acyclic_games_are_drawn_by_level() {
        for (name, text) in super::super::GAME_EXAMPLES {
            let report =
                gamesweep::gamegraph::solve_text(text, gamesweep::gamegraph::Format::Auto).unwrap();
            for g in &report.games {
                let p = picture(&g.table);
                assert_eq!(p.levels.is_some(), g.acyclic, "{name}");
                assert_eq!(p.drawing.layout == "level layout", g.acyclic);
                let Some(levels) = &p.levels else { continue };
                let at = |s: &str| g.table.iter().position(|r| r.position == s).unwrap();
                // The longest line of moves from each position, memoised.
                fn height(
                    g: &[PositionRow],
                    v: usize,
                    at: &dyn Fn(&str) -> usize,
                    memo: &mut Vec<Option<usize>>,
                ) -> usize {
                    if let Some(h) = memo[v] {
                        return h;
                    }
                    let h = g[v]
                        .moves
                        .iter()
                        .map(|m| 1 + height(g, at(m), at, memo))
                        .max()
                        .unwrap_or(0);
                    memo[v] = Some(h);
                    h
                }
                let mut memo = vec![None; g.table.len()];
                for (v, r) in g.table.iter().enumerate() {
                    assert_eq!(
                        levels[v],
                        height(&g.table, v, &at, &mut memo),
                        "{name} {}",
                        r.position
                    );
                    for m in &r.moves {
                        let w = at(m);
                        assert!(levels[v] > levels[w]);
                        assert!(p.drawing.coords[v].1 < p.drawing.coords[w].1);
                    }
                }
                let c = &p.drawing.coords;
                for u in 0..c.len() {
                    for v in u + 1..c.len() {
                        let apart_x =
                            (c[u].0 - c[v].0).abs() * 2 >= (p.widths[u] + p.widths[v]) as i32;
                        let apart_y = (c[u].1 - c[v].1).abs() >= BOX_HEIGHT as i32;
                        assert!(apart_x || apart_y, "{name}: {u} and {v} overlap");
                    }
                }
            }
        }
    }
}
