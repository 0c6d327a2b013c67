//! Minimax (negamax) labelling of payoff game trees and DAGs.
//!
//! Convention of the course notes: the label of a position is the payoff of
//! the player who moved *into* it. A sink's label is its given payoff (a
//! `win` sink counts +1, `lose` −1, `draw` 0). The player moving out of an
//! inner position picks the successor with the largest label (their own
//! payoff), and the player who entered gets the negative: label = −max.

use super::label::reverse_topological_order;
use super::{GameGraph, GameGraphError};

/// Negamax labels of an acyclic game graph (see the module docs for the
/// convention). `Err(Cyclic)` on a cycle, where the recursion has no base.
pub fn minimax(g: &GameGraph) -> Result<Vec<i64>, GameGraphError> {
    let order = reverse_topological_order(g).map_err(|c| GameGraphError::Cyclic {
        game: g.name().to_string(),
        cycle: c.iter().map(|&v| g.name_of(v).to_string()).collect(),
    })?;
    let mut val = vec![0i64; g.len()];
    for v in order {
        val[v] = match g.sink_label(v) {
            Some(label) => label.value(),
            // Payoffs are never i64::MIN (the parser rejects it), so every
            // label lies in −i64::MAX..=i64::MAX and negation cannot overflow.
            None => -g
                .moves(v)
                .iter()
                .map(|&w| val[w])
                .max()
                .expect("inner position"),
        };
    }
    Ok(val)
}

/// The optimal moves from `v`: those into a successor of largest label.
pub fn best_moves(g: &GameGraph, val: &[i64], v: usize) -> Vec<usize> {
    let Some(best) = g.moves(v).iter().map(|&w| val[w]).max() else {
        return Vec::new();
    };
    g.moves(v)
        .iter()
        .copied()
        .filter(|&w| val[w] == best)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamegraph::SinkLabel;

    /// A depth-2 tree: root → a, b; a → a1 (3), a2 (−2); b → b1 (5), b2 (1).
    /// Payoffs are for the player entering. At a the mover (the player who
    /// did not enter a) takes max(3, −2) = 3, so a = −3; b = −5. At the root
    /// the mover takes max(−3, −5) = −3, so root = 3 for whoever "entered"
    /// the root, i.e. the mover at the root gets −3 playing to a.
    #[test]
    fn negamax_tree() {
        let mut g = GameGraph::new("t");
        let names = ["root", "a", "b", "a1", "a2", "b1", "b2"];
        for n in names {
            g.add_position(n);
        }
        for (u, v) in [(0, 1), (0, 2), (1, 3), (1, 4), (2, 5), (2, 6)] {
            g.add_move(u, v);
        }
        for (v, p) in [(3, 3), (4, -2), (5, 5), (6, 1)] {
            g.set_label(v, SinkLabel::Payoff(p));
        }
        let val = minimax(&g).unwrap();
        assert_eq!(val, vec![3, -3, -5, 3, -2, 5, 1]);
        assert_eq!(best_moves(&g, &val, 0), vec![1]);
        assert_eq!(best_moves(&g, &val, 2), vec![5]);
    }

    #[test]
    fn minimax_rejects_cycles() {
        let g = GameGraph::from_arcs("c", 2, &[(0, 1), (1, 0)]);
        assert!(matches!(minimax(&g), Err(GameGraphError::Cyclic { .. })));
    }
}
