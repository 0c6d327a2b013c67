//! Sums of games: the product game graph and the Sprague–Grundy check.
//!
//! The sum G₁ + G₂ has positions V(G₁) × V(G₂); from (u₁, u₂) a move goes to
//! (v₁, u₂) for a move u₁v₁ of G₁ or to (u₁, v₂) for a move u₂v₂ of G₂. The
//! sum is a normal-play game (its only sinks are pairs of sinks), so the
//! parts must be normal-play games too.

use super::label::grundy;
use super::{GameGraph, GameGraphError, Outcome};

/// Largest product graph [`sum_graph`] builds.
pub const MAX_SUM_POSITIONS: usize = 4_000_000;

/// Most moves a product graph [`sum_graph`] builds may have.
pub const MAX_SUM_MOVES: usize = 50_000_000;

/// Index of the pair (u, v) in the sum graph: row-major, `u * |G₂| + v`.
pub fn pair_index(right_len: usize, u: usize, v: usize) -> usize {
    u * right_len + v
}

/// The product game graph G₁ + G₂, positions named `(u,v)` and numbered by
/// [`pair_index`]; the start is the pair of starts if both are declared.
///
/// Errors: a part that is not normal play ([`GameGraphError::NotNormalPlay`]),
/// a product with more than [`MAX_SUM_POSITIONS`] positions or
/// [`MAX_SUM_MOVES`] moves ([`GameGraphError::TooLarge`]).
pub fn sum_graph(left: &GameGraph, right: &GameGraph) -> Result<GameGraph, GameGraphError> {
    for g in [left, right] {
        if let Some(v) = g.first_non_normal_sink() {
            return Err(GameGraphError::NotNormalPlay {
                game: g.name().to_string(),
                position: g.name_of(v).to_string(),
                label: g.sink_label(v).expect("a sink").to_string(),
            });
        }
    }
    let (n1, n2) = (left.len(), right.len());
    let size = n1.saturating_mul(n2);
    if size > MAX_SUM_POSITIONS {
        return Err(GameGraphError::TooLarge {
            what: format!("sum {} + {}", left.name(), right.name()),
            size,
            limit: MAX_SUM_POSITIONS,
        });
    }
    // every move of a part appears once per position of the other part
    let moves = left
        .move_count()
        .saturating_mul(n2)
        .saturating_add(right.move_count().saturating_mul(n1));
    if moves > MAX_SUM_MOVES {
        return Err(GameGraphError::TooLarge {
            what: format!("sum {} + {} (counting moves)", left.name(), right.name()),
            size: moves,
            limit: MAX_SUM_MOVES,
        });
    }
    let mut s = GameGraph::new(format!("{} + {}", left.name(), right.name()));
    for u in 0..n1 {
        for v in 0..n2 {
            s.add_position(&format!("({},{})", left.name_of(u), right.name_of(v)));
        }
    }
    for u in 0..n1 {
        for v in 0..n2 {
            let from = pair_index(n2, u, v);
            for &w in left.moves(u) {
                s.add_move(from, pair_index(n2, w, v));
            }
            for &w in right.moves(v) {
                s.add_move(from, pair_index(n2, u, w));
            }
        }
    }
    if let (Some(a), Some(b)) = (left.start(), right.start()) {
        s.set_start(Some(pair_index(n2, a, b)));
    }
    Ok(s)
}

/// The outcome of a sum of normal-play games from the parts' Grundy numbers
/// (Sprague–Grundy): II exactly when their XOR (nim-sum) is 0.
pub fn sum_outcome(grundy_parts: &[u32]) -> Outcome {
    if grundy_parts.iter().fold(0, |a, &g| a ^ g) == 0 {
        Outcome::Second
    } else {
        Outcome::First
    }
}

/// The Grundy table of the sum computed on the product graph, and the pairs
/// where it differs from the XOR of the parts (Sprague–Grundy says: none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumGrundy {
    /// `table[u][v]` = Grundy number of (u, v) in the product graph.
    pub table: Vec<Vec<u32>>,
    /// Grundy numbers of the left part.
    pub left: Vec<u32>,
    /// Grundy numbers of the right part.
    pub right: Vec<u32>,
    /// Pairs (u, v) with `table[u][v] != left[u] ^ right[v]`.
    pub mismatches: Vec<(usize, usize)>,
}

/// Grundy numbers of the product graph, checked pair by pair against the
/// XOR of the parts. Errors as [`sum_graph`] and [`grundy`] (cyclic parts).
pub fn sum_grundy(left: &GameGraph, right: &GameGraph) -> Result<SumGrundy, GameGraphError> {
    let gl = grundy(left)?;
    let gr = grundy(right)?;
    let s = sum_graph(left, right)?;
    let gs = grundy(&s)?;
    let n2 = right.len();
    let table: Vec<Vec<u32>> = (0..left.len())
        .map(|u| (0..n2).map(|v| gs[pair_index(n2, u, v)]).collect())
        .collect();
    let mismatches = (0..left.len())
        .flat_map(|u| (0..n2).map(move |v| (u, v)))
        .filter(|&(u, v)| table[u][v] != gl[u] ^ gr[v])
        .collect();
    Ok(SumGrundy {
        table,
        left: gl,
        right: gr,
        mismatches,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamegraph::label::outcomes;

    /// A nim heap of size n as a game graph: k → j for every j < k.
    pub(crate) fn nim_heap(n: usize) -> GameGraph {
        let arcs: Vec<_> = (0..=n).flat_map(|k| (0..k).map(move |j| (k, j))).collect();
        GameGraph::from_arcs(format!("nim{n}"), n + 1, &arcs)
    }

    #[test]
    fn nim_heaps_sum_to_xor() {
        let (a, b) = (nim_heap(5), nim_heap(6));
        let sg = sum_grundy(&a, &b).unwrap();
        assert!(sg.mismatches.is_empty());
        for u in 0..=5 {
            for v in 0..=6 {
                assert_eq!(sg.table[u][v], (u ^ v) as u32);
            }
        }
        let s = sum_graph(&a, &b).unwrap();
        assert_eq!(s.len(), 42);
        assert_eq!(s.name_of(pair_index(7, 2, 3)), "(2,3)");
        let out = outcomes(&s);
        for u in 0..=5 {
            for v in 0..=6 {
                assert_eq!(
                    out[pair_index(7, u, v)],
                    sum_outcome(&[u as u32, v as u32]),
                    "({u},{v})"
                );
            }
        }
    }

    #[test]
    fn sum_needs_normal_play() {
        let mut a = nim_heap(1);
        a.set_label(0, crate::gamegraph::SinkLabel::Draw);
        assert!(matches!(
            sum_graph(&a, &nim_heap(1)),
            Err(GameGraphError::NotNormalPlay { .. })
        ));
    }
}
