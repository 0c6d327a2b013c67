//! A subtraction game's losing heaps and Grundy sequence, with their proven periods.

use crate::error::UsageError;
use gamesweep::gamegraph::subtraction::{analyse, grundy_sequence, Periodicity, SubtractionSet};

/// The largest `--upto` of `solve subtraction`.
pub const MAX_UPTO: u64 = 1_000_000;

/// `solve subtraction`'s answer.
#[derive(Debug, serde::Serialize)]
pub struct SubtractionReport {
    /// The set, ascending.
    pub set: Vec<u32>,
    /// Heaps listed: 0..=upto.
    pub upto: u64,
    /// The losing heaps (second-player wins) among them.
    pub losing: Vec<usize>,
    /// The Grundy value of each heap 0..=upto.
    pub grundy: Vec<u8>,
    /// The Grundy sequence's proven preperiod and period.
    pub grundy_periodicity: Periodicity,
    /// The outcome (P/N) sequence's.
    pub outcome_periodicity: Periodicity,
}

/// Read `--set`'s text: comma-separated numbers.
pub fn parse_set(text: &str) -> Result<Vec<u32>, UsageError> {
    text.split(',')
        .map(|w| {
            let w = w.trim();
            w.parse().map_err(|_| {
                UsageError(format!(
                    "--set {}: `{w:.20}` is not a number in 1..=64 (give e.g. --set 2,4,7)",
                    text.escape_debug()
                ))
            })
        })
        .collect()
}

/// The subtraction game of `elements`, heaps 0..=`upto` (at most
/// [`MAX_UPTO`]).
pub fn subtraction(elements: &[u32], upto: u64) -> Result<SubtractionReport, UsageError> {
    if upto > MAX_UPTO {
        return Err(UsageError(format!("--upto {upto} is more than {MAX_UPTO}")));
    }
    let set = SubtractionSet::new(elements).map_err(|e| UsageError(format!("--set: {e}")))?;
    let an = analyse(&set);
    let len = upto as usize + 1;
    let grundy = grundy_sequence(&set, len);
    let losing: Vec<usize> = (0..len).filter(|&n| grundy[n] == 0).collect();
    Ok(SubtractionReport {
        set: set.elements().to_vec(),
        upto,
        losing,
        grundy,
        grundy_periodicity: an.grundy,
        outcome_periodicity: an.outcome,
    })
}
