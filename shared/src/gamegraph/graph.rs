//! The explicit game graph: named positions, moves (arcs), sink labels.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;

/// What happens when a player moves into a sink (a position without moves).
///
/// The course notes split the sinks into `N_W` (the player entering wins),
/// `N_L` (the player entering loses) and `N_T` (draw); minimax games give a
/// numeric payoff to the player entering instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SinkLabel {
    /// The player who moves into the sink wins (normal play; the default).
    Win,
    /// The player who moves into the sink loses (misère-style sink).
    Lose,
    /// Entering the sink ends the game in a draw.
    Draw,
    /// The player who moves into the sink receives this payoff (the other
    /// player receives its negative). Never `i64::MIN`, so negation is safe.
    Payoff(i64),
}

impl SinkLabel {
    /// The label's value for minimax: win +1, lose −1, draw 0, payoff itself.
    pub fn value(self) -> i64 {
        match self {
            SinkLabel::Win => 1,
            SinkLabel::Lose => -1,
            SinkLabel::Draw => 0,
            SinkLabel::Payoff(p) => p,
        }
    }

    /// The outcome class of the sink itself, seen from the player to move
    /// there (who cannot move): the entering player wins ⇒ `II`, loses ⇒ `I`.
    /// A positive payoff counts as a win for the player entering, a negative
    /// one as a loss, zero as a draw.
    pub fn outcome(self) -> Outcome {
        match self.value().signum() {
            1 => Outcome::Second,
            -1 => Outcome::First,
            _ => Outcome::Draw,
        }
    }
}

impl fmt::Display for SinkLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SinkLabel::Win => f.write_str("win"),
            SinkLabel::Lose => f.write_str("lose"),
            SinkLabel::Draw => f.write_str("draw"),
            SinkLabel::Payoff(p) => write!(f, "{p}"),
        }
    }
}

/// The outcome class of a position under optimal play, in the course's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Outcome {
    /// Type `I` (an N-position): the player to move (the "first player") wins.
    #[serde(rename = "I")]
    First,
    /// Type `II` (a P-position): the player who just moved (the "second player") wins.
    #[serde(rename = "II")]
    Second,
    /// Type `*`: neither player can force a win.
    #[serde(rename = "draw")]
    Draw,
}

impl Outcome {
    /// Short course notation: `I`, `II`, `*`.
    pub fn symbol(self) -> &'static str {
        match self {
            Outcome::First => "I",
            Outcome::Second => "II",
            Outcome::Draw => "*",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::First => "I (N: player to move wins)",
            Outcome::Second => "II (P: player to move loses)",
            Outcome::Draw => "* (draw)",
        })
    }
}

/// A finite game graph: positions with names, moves as arcs, a label on each
/// sink, an optional start position.
///
/// Positions are numbered `0..len()` in order of first appearance. Moves form
/// a set (duplicates are ignored) and may form cycles or loops; the solvers
/// say which of them need an acyclic graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameGraph {
    name: String,
    names: Vec<String>,
    index: HashMap<String, usize>,
    succ: Vec<Vec<usize>>,
    labels: Vec<SinkLabel>,
    start: Option<usize>,
}

impl GameGraph {
    /// An empty game called `name`.
    pub fn new(name: impl Into<String>) -> Self {
        GameGraph {
            name: name.into(),
            names: Vec::new(),
            index: HashMap::new(),
            succ: Vec::new(),
            labels: Vec::new(),
            start: None,
        }
    }

    /// A game on positions named `0..n` with the given moves; every sink is a
    /// normal-play sink (the player entering wins). Arcs with an end `>= n`
    /// are ignored.
    pub fn from_arcs(name: impl Into<String>, n: usize, arcs: &[(usize, usize)]) -> Self {
        let mut g = GameGraph::new(name);
        for v in 0..n {
            g.add_position(&v.to_string());
        }
        for &(u, v) in arcs {
            if u < n && v < n {
                g.add_move(u, v);
            }
        }
        g
    }

    /// The game's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// No positions at all?
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Number of moves (arcs).
    pub fn move_count(&self) -> usize {
        self.succ.iter().map(Vec::len).sum()
    }

    /// The position named `name`, added (without moves, label `Win`) if new.
    pub fn add_position(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len();
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        self.succ.push(Vec::new());
        self.labels.push(SinkLabel::Win);
        i
    }

    /// Add the move `from → to` (no effect if present). Panics if an index is
    /// out of range (indices come from [`GameGraph::add_position`]).
    pub fn add_move(&mut self, from: usize, to: usize) {
        assert!(to < self.len(), "move target out of range");
        let row = &mut self.succ[from];
        if let Err(at) = row.binary_search(&to) {
            row.insert(at, to);
        }
    }

    /// Set the label of position `v` (it only matters while `v` is a sink).
    pub fn set_label(&mut self, v: usize, label: SinkLabel) {
        self.labels[v] = label;
    }

    /// Set (or clear) the start position.
    pub fn set_start(&mut self, start: Option<usize>) {
        self.start = start;
    }

    /// The position called `name`, if any.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// Name of position `v`.
    pub fn name_of(&self, v: usize) -> &str {
        &self.names[v]
    }

    /// All position names, by index.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The moves from `v`, sorted by index.
    pub fn moves(&self, v: usize) -> &[usize] {
        &self.succ[v]
    }

    /// Is `v` a sink (no moves)?
    pub fn is_sink(&self, v: usize) -> bool {
        self.succ[v].is_empty()
    }

    /// The label of `v` if it is a sink.
    pub fn sink_label(&self, v: usize) -> Option<SinkLabel> {
        self.is_sink(v).then_some(self.labels[v])
    }

    /// The start position, if declared.
    pub fn start(&self) -> Option<usize> {
        self.start
    }

    /// Normal play: every sink is a `win` sink (the player entering wins),
    /// which is what Grundy numbers and sums of games assume. Returns the
    /// first sink that breaks it.
    pub fn first_non_normal_sink(&self) -> Option<usize> {
        (0..self.len()).find(|&v| self.is_sink(v) && self.labels[v] != SinkLabel::Win)
    }

    /// Does any sink carry a numeric payoff?
    pub fn has_payoffs(&self) -> bool {
        (0..self.len()).any(|v| matches!(self.sink_label(v), Some(SinkLabel::Payoff(_))))
    }

    /// Predecessor lists (moves reversed), each sorted.
    pub fn predecessors(&self) -> Vec<Vec<usize>> {
        let mut pred = vec![Vec::new(); self.len()];
        for (u, row) in self.succ.iter().enumerate() {
            for &v in row {
                pred[v].push(u);
            }
        }
        pred
    }

    /// Rename the game.
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }
}
