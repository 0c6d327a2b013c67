//! Outcome labelling (I / II / draw) and Grundy numbers.
//!
//! Two labellers on purpose: [`outcomes_acyclic`] is the course's rule applied
//! in reverse topological order, [`outcomes`] is retrograde analysis, which
//! also handles cycles (a position it never resolves is a draw: neither player
//! can force a win, the other can keep the game going or reach a draw sink).
//! On acyclic graphs they agree; the tests check it.

use super::{GameGraph, GameGraphError, Outcome};

/// The positions of an acyclic graph with every position after all of its
/// successors (sinks first): the course's topological order, reversed.
/// On a cyclic graph, `Err` carries one directed cycle (positions in order).
pub fn reverse_topological_order(g: &GameGraph) -> Result<Vec<usize>, Vec<usize>> {
    let n = g.len();
    let pred = g.predecessors();
    let mut remaining: Vec<usize> = (0..n).map(|v| g.moves(v).len()).collect();
    let mut order: Vec<usize> = (0..n).filter(|&v| remaining[v] == 0).collect();
    let mut head = 0;
    while head < order.len() {
        let v = order[head];
        head += 1;
        for &u in &pred[v] {
            remaining[u] -= 1;
            if remaining[u] == 0 {
                order.push(u);
            }
        }
    }
    if order.len() == n {
        return Ok(order);
    }
    // Every position left over still has a move to another left-over position
    // (its counter never reached zero), so walking such moves must repeat.
    let mut seen_at = vec![usize::MAX; n];
    let mut walk = Vec::new();
    let mut v = (0..n)
        .find(|&v| remaining[v] > 0)
        .expect("a left-over position");
    loop {
        if seen_at[v] != usize::MAX {
            return Err(walk[seen_at[v]..].to_vec());
        }
        seen_at[v] = walk.len();
        walk.push(v);
        v = *g
            .moves(v)
            .iter()
            .find(|&&w| remaining[w] > 0)
            .expect("left-over positions have a left-over successor");
    }
}

fn cyclic_error(g: &GameGraph, cycle: &[usize]) -> GameGraphError {
    GameGraphError::Cyclic {
        game: g.name().to_string(),
        cycle: cycle.iter().map(|&v| g.name_of(v).to_string()).collect(),
    }
}

/// The course's labelling in reverse topological order: a sink gets its
/// label's class (`win` sink ⇒ II, `lose` ⇒ I, `draw` ⇒ *); any other
/// position is I if it sees a II, else * if it sees a *, else II.
pub fn outcomes_acyclic(g: &GameGraph) -> Result<Vec<Outcome>, GameGraphError> {
    let order = reverse_topological_order(g).map_err(|c| cyclic_error(g, &c))?;
    let mut out = vec![Outcome::Draw; g.len()];
    for v in order {
        out[v] = match g.sink_label(v) {
            Some(label) => label.outcome(),
            None => {
                let seen = |o| g.moves(v).iter().any(|&w| out[w] == o);
                if seen(Outcome::Second) {
                    Outcome::First
                } else if seen(Outcome::Draw) {
                    Outcome::Draw
                } else {
                    Outcome::Second
                }
            }
        };
    }
    Ok(out)
}

/// Retrograde analysis on any game graph. Sinks are resolved by their
/// labels (draw sinks stay unresolved); then a position with a move to a II
/// position is I, and a position all of whose moves lead to I positions is
/// II. Positions never resolved are draws.
pub fn outcomes(g: &GameGraph) -> Vec<Outcome> {
    let n = g.len();
    let pred = g.predecessors();
    let mut label: Vec<Option<Outcome>> = vec![None; n];
    // moves from v not yet known to lead to an I position
    let mut open: Vec<usize> = (0..n).map(|v| g.moves(v).len()).collect();
    let mut queue = Vec::new();
    for (v, lv) in label.iter_mut().enumerate() {
        if let Some(l) = g.sink_label(v) {
            if l.outcome() != Outcome::Draw {
                *lv = Some(l.outcome());
                queue.push(v);
            }
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let w = queue[head];
        head += 1;
        let lw = label[w].expect("queued positions are labelled");
        for &u in &pred[w] {
            if label[u].is_some() {
                continue;
            }
            match lw {
                Outcome::Second => {
                    label[u] = Some(Outcome::First);
                    queue.push(u);
                }
                Outcome::First => {
                    open[u] -= 1;
                    if open[u] == 0 {
                        label[u] = Some(Outcome::Second);
                        queue.push(u);
                    }
                }
                Outcome::Draw => unreachable!("draws are never queued"),
            }
        }
    }
    label
        .into_iter()
        .map(|l| l.unwrap_or(Outcome::Draw))
        .collect()
}

/// The moves from `v` that keep the best outcome for the player to move:
/// to a II position from an I position, to a draw from a draw; none from II.
pub fn good_moves(g: &GameGraph, out: &[Outcome], v: usize) -> Vec<usize> {
    let target = match out[v] {
        Outcome::First => Outcome::Second,
        Outcome::Draw => Outcome::Draw,
        Outcome::Second => return Vec::new(),
    };
    g.moves(v)
        .iter()
        .copied()
        .filter(|&w| out[w] == target)
        .collect()
}

/// The minimum excluded value: the least non-negative integer not in `values`.
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut seen: Vec<bool> = Vec::new();
    for x in values {
        let x = x as usize;
        if x >= seen.len() {
            seen.resize(x + 1, false);
        }
        seen[x] = true;
    }
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32
}

/// Grundy numbers of a normal-play acyclic game graph: in reverse topological
/// order each position gets the mex of its successors' numbers (sinks 0).
///
/// Errors: [`GameGraphError::Cyclic`] (naming a cycle) if the graph has a
/// cycle, [`GameGraphError::NotNormalPlay`] if some sink is not a `win` sink.
pub fn grundy(g: &GameGraph) -> Result<Vec<u32>, GameGraphError> {
    if let Some(v) = g.first_non_normal_sink() {
        return Err(GameGraphError::NotNormalPlay {
            game: g.name().to_string(),
            position: g.name_of(v).to_string(),
            label: g.sink_label(v).expect("a sink").to_string(),
        });
    }
    let order = reverse_topological_order(g).map_err(|c| cyclic_error(g, &c))?;
    let mut num = vec![0u32; g.len()];
    for v in order {
        num[v] = mex(g.moves(v).iter().map(|&w| num[w]));
    }
    Ok(num)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamegraph::SinkLabel;

    #[test]
    fn mex_examples() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 1, 3]), 2);
        assert_eq!(mex([2, 0, 1, 1]), 3);
    }

    /// The course's topological-order rule on a path with a branch:
    /// 0 → 1 → 2, 0 → 2, 3 → 0. Grundy: 2 = 0 (sink), 1 = mex{0} = 1,
    /// 0 = mex{1, 0} = 2, 3 = mex{2} = 0.
    #[test]
    fn grundy_in_reverse_topological_order() {
        let g = GameGraph::from_arcs("t", 4, &[(0, 1), (1, 2), (0, 2), (3, 0)]);
        let order = reverse_topological_order(&g).unwrap();
        for (i, &v) in order.iter().enumerate() {
            for &w in g.moves(v) {
                assert!(order[..i].contains(&w), "successor before position");
            }
        }
        assert_eq!(grundy(&g).unwrap(), vec![2, 1, 0, 0]);
        use Outcome::*;
        assert_eq!(
            outcomes_acyclic(&g).unwrap(),
            vec![First, First, Second, Second]
        );
        assert_eq!(outcomes(&g), vec![First, First, Second, Second]);
    }

    #[test]
    fn grundy_on_cycle_names_the_cycle() {
        let g = GameGraph::from_arcs("c", 4, &[(0, 1), (1, 2), (2, 1), (2, 3)]);
        match grundy(&g) {
            Err(GameGraphError::Cyclic { game, cycle }) => {
                assert_eq!(game, "c");
                let mut c = cycle.clone();
                c.sort();
                assert_eq!(c, vec!["1", "2"]);
            }
            other => panic!("expected a cycle error, got {other:?}"),
        }
        let err = grundy(&g).unwrap_err().to_string();
        assert!(err.contains("->"), "{err}");
    }

    #[test]
    fn grundy_needs_normal_play() {
        let mut g = GameGraph::from_arcs("m", 2, &[(0, 1)]);
        g.set_label(1, SinkLabel::Lose);
        assert!(matches!(
            grundy(&g),
            Err(GameGraphError::NotNormalPlay { .. })
        ));
        // Outcome labelling handles it: entering 1 loses, so 1 is I, and 0,
        // whose only move enters 1, is II.
        use Outcome::*;
        assert_eq!(outcomes_acyclic(&g).unwrap(), vec![Second, First]);
    }

    /// The course's draw rule: sees II ⇒ I; else sees * ⇒ *; else II.
    #[test]
    fn draws_with_draw_sinks_and_cycles() {
        use Outcome::*;
        // 0 → 1 (draw sink), 0 → 2 (win sink, so 2 is II) ⇒ 0 is I;
        // 3 → 1, 3 → 4 where 4 → 2 (4 is I) ⇒ 3 is a draw.
        let mut g = GameGraph::from_arcs("d", 5, &[(0, 1), (0, 2), (3, 1), (3, 4), (4, 2)]);
        g.set_label(1, SinkLabel::Draw);
        let expect = vec![First, Draw, Second, Draw, First];
        assert_eq!(outcomes_acyclic(&g).unwrap(), expect);
        assert_eq!(outcomes(&g), expect);
        // a 2-cycle with an exit to a II sink: 0 ⇄ 1, 1 → 2 (sink): 1 is I,
        // 0 only sees I ⇒ II. A pure 2-cycle 3 ⇄ 4 is a draw.
        let g = GameGraph::from_arcs("c", 5, &[(0, 1), (1, 0), (1, 2), (3, 4), (4, 3)]);
        assert_eq!(outcomes(&g), vec![Second, First, Second, Draw, Draw]);
    }
}
