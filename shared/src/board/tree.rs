//! The game tree of one position (`gamesweep solve tree`, the boards'
//! expandable tree): the position's options, each with its canonical value
//! and outcome, recursively to a depth. Partizan games (Col, Myopic Col)
//! list Left's and Right's options apart; impartial ones (UVG, game graphs)
//! list their moves once. Every node carries its term, so a viewer can ask
//! for the next level of any node later ([`tree`] with depth 1).
//!
//! ```
//! use gamesweep::board::sum::Limits;
//! use gamesweep::board::tree::tree;
//! // The path 0 - 1 - 2 in Col: 0; Left colours an end (-1/2) or the middle (-2).
//! let t = tree("col:Bg", 1, 100, &Limits::default(), &|_| Err("no files".into())).unwrap();
//! assert_eq!(t.root.value, "0");
//! let left: Vec<&str> = t.root.left.as_ref().unwrap().iter().map(|n| n.value.as_str()).collect();
//! assert_eq!(left, ["-1/2", "-2", "-1/2"]);
//! ```

use super::sum::{Analyst, FileLoader, Limits, Position, SumError};
use crate::cgt::Outcome;
use serde::Serialize;
use std::fmt;

/// Deepest tree asked for.
pub const MAX_DEPTH: u32 = 64;

/// One position of the tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TreeNode {
    /// The move that led here from the parent (vertex or position name);
    /// absent at the root.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The position's canonical term.
    pub term: String,
    /// Its canonical value (CGSuite notation).
    pub value: String,
    /// Its outcome class.
    pub outcome: Outcome,
    /// Are its options listed below (false at the depth limit, and for a
    /// position without options)?
    pub expanded: bool,
    /// How many options it has (Left's plus Right's for partizan games).
    pub option_count: usize,
    /// Impartial games, when expanded: the moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<TreeNode>>,
    /// Partizan games, when expanded: Left's (Blue's) options.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<Vec<TreeNode>>,
    /// Partizan games, when expanded: Right's (Red's) options.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right: Option<Vec<TreeNode>>,
}

/// `solve tree --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TreeReport {
    /// `uvg`, `col`, `myopic` or `gamegraph`.
    pub game: String,
    /// Impartial (options in `moves`) or partizan (`left`, `right`)?
    pub impartial: bool,
    /// The depth asked for.
    pub depth: u32,
    /// Positions listed (the root included).
    pub positions: usize,
    /// The root.
    pub root: TreeNode,
}

/// The tree of `term` to `depth` levels of options, at most `max_positions`
/// positions (more is [`SumError::TreeTooBig`]), within `limits`.
pub fn tree(
    term: &str,
    depth: u32,
    max_positions: usize,
    limits: &Limits,
    load: FileLoader,
) -> Result<TreeReport, SumError> {
    let mut a = Analyst::new(*limits, load);
    let p = a.resolve(term)?;
    let depth = depth.min(MAX_DEPTH);
    let mut count = 0usize;
    let root = node(&mut a, &p, None, depth, &mut count, max_positions).map_err(|e| match e {
        SumError::TreeTooBig { limit, .. } => SumError::TreeTooBig {
            term: p.term().chars().take(80).collect(),
            depth,
            limit,
        },
        e => e,
    })?;
    Ok(TreeReport {
        game: p.game().to_string(),
        impartial: p.impartial(),
        depth,
        positions: count,
        root,
    })
}

fn node(
    a: &mut Analyst,
    p: &Position,
    label: Option<String>,
    depth: u32,
    count: &mut usize,
    max: usize,
) -> Result<TreeNode, SumError> {
    *count += 1;
    if *count > max {
        // The caller names the root and the depth asked for.
        return Err(SumError::TreeTooBig {
            term: String::new(),
            depth,
            limit: max,
        });
    }
    let g = a.value(p)?;
    let outcome = a.arena().outcome(g);
    let value = a.display(g);
    let opts = a.options(p);
    let option_count = if p.impartial() {
        opts.left.len()
    } else {
        opts.left.len() + opts.right.len()
    };
    let mut n = TreeNode {
        label,
        term: p.term(),
        value,
        outcome,
        expanded: false,
        option_count,
        moves: None,
        left: None,
        right: None,
    };
    if depth == 0 || option_count == 0 {
        return Ok(n);
    }
    let mut level = |moves: &[super::sum::Move]| -> Result<Vec<TreeNode>, SumError> {
        moves
            .iter()
            .map(|m| node(a, &m.to, Some(m.label.clone()), depth - 1, count, max))
            .collect()
    };
    n.expanded = true;
    if p.impartial() {
        n.moves = Some(level(&opts.left)?);
    } else {
        n.left = Some(level(&opts.left)?);
        n.right = Some(level(&opts.right)?);
    }
    Ok(n)
}

impl fmt::Display for TreeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn write(
            f: &mut fmt::Formatter<'_>,
            n: &TreeNode,
            who: &str,
            indent: usize,
        ) -> fmt::Result {
            let pad = "  ".repeat(indent);
            match &n.label {
                None => writeln!(f, "{} = {} ({})", n.term, n.value, n.outcome)?,
                Some(m) => writeln!(
                    f,
                    "{pad}{who}{m} → {} ({})   {}",
                    n.value, n.outcome, n.term
                )?,
            }
            for (who, list) in [("", &n.moves), ("L ", &n.left), ("R ", &n.right)] {
                for c in list.iter().flatten() {
                    write(f, c, who, indent + 1)?;
                }
            }
            Ok(())
        }
        write(f, &self.root, "", 0)?;
        writeln!(
            f,
            "{} positions to depth {}{}",
            self.positions,
            self.depth,
            if self.impartial {
                " (impartial: each move is open to both players)"
            } else {
                " (L: Left's (Blue's) options, R: Right's (Red's))"
            }
        )
    }
}
