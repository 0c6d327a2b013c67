//! Col and Myopic Col on one board with a partial colouring: what `solve
//! col` / `solve myopic` print ([`crate::col::solve_position_within`]: value,
//! outcome, every option with its value), with the board's edges or arcs and
//! the colouring, for drawing.
//!
//! ```
//! use gamesweep::board::col::analyse;
//! use gamesweep::col::Rules;
//! let a = analyse(Rules::Col, "Bg", "...", None).unwrap();
//! assert_eq!((a.n, a.edges.len(), a.report.value.as_str()), (3, 2, "0"));
//! assert_eq!(a.options.len(), 6);
//! ```

use crate::col::{parse_colouring, solve_position_within, ColError, Colour, Rules, SolveReport};
use crate::graph::graph6;
use serde::Serialize;

/// One option: who moves, the vertex coloured and the value it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ColOption {
    /// `L` (Left, Blue) or `R` (Right, Red).
    pub player: char,
    /// The vertex coloured.
    pub vertex: usize,
    /// Value of the resulting position (CGSuite notation).
    pub value: String,
}

/// A Col / Myopic Col board analysed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ColAnalysis {
    /// Number of vertices.
    pub n: usize,
    /// Edges `(u, v)`, `u < v` (Col), or arcs `u → v` (Myopic: `u` watches `v`).
    pub edges: Vec<(usize, usize)>,
    /// Arcs (Myopic Col) rather than edges.
    pub directed: bool,
    /// Each vertex's colour: `.` uncoloured, `L` blue, `R` red.
    pub colours: String,
    /// Every option, Left's first, each by vertex.
    pub options: Vec<ColOption>,
    /// The solution as `solve col` prints it.
    pub report: SolveReport,
}

/// Analyse `board` (graph6 for Col, digraph6 for Myopic Col) with
/// `colouring` (one character a vertex: `.`, `L`/`B`, `R`; empty: all
/// uncoloured) within `budget` units of solver work (`None`: unlimited).
pub fn analyse(
    rules: Rules,
    board: &str,
    colouring: &str,
    budget: Option<u64>,
) -> Result<ColAnalysis, ColError> {
    let board = board.trim();
    let decoded = match rules {
        Rules::Col => graph6::decode(board),
        Rules::Myopic => graph6::decode_digraph(board),
    };
    let colouring = match &decoded {
        Ok((n, _)) if colouring.is_empty() => ".".repeat(*n),
        _ => colouring.to_string(),
    };
    let report = solve_position_within(rules, board, &colouring, budget)?;
    // The solver parsed both, so these succeed.
    let (n, edges) = decoded?;
    let colours = parse_colouring(&colouring, n)?
        .iter()
        .map(|c| match c {
            Colour::None => '.',
            Colour::Blue => 'L',
            Colour::Red => 'R',
        })
        .collect();
    let options = report
        .left_options
        .iter()
        .map(|m| ('L', m))
        .chain(report.right_options.iter().map(|m| ('R', m)))
        .map(|(player, m)| ColOption {
            player,
            vertex: m.vertex,
            value: m.value.clone(),
        })
        .collect();
    Ok(ColAnalysis {
        n,
        edges,
        directed: rules == Rules::Myopic,
        colours,
        options,
        report,
    })
}
