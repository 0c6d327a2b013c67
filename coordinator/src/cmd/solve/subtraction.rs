//! `solve subtraction`: a subtraction game's losing heaps and Grundy sequence, with their proven periods.

use crate::error::UsageError;
use crate::output;

/// Arguments of `solve subtraction`.
#[derive(clap::Args, Debug)]
pub struct SubtractionArgs {
    /// The subtraction set: distinct numbers in 1..=64, comma-separated (`2,4,7`).
    #[arg(long, value_name = "S")]
    pub set: String,
    /// List heaps 0..=N.
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub upto: u64,
    /// Print JSON (set, upto, losing, grundy, and the periodicity of both sequences).
    #[arg(long)]
    pub json: bool,
}

/// The largest `--upto` of `solve subtraction`.
pub const MAX_UPTO: u64 = 1_000_000;

/// `solve subtraction`'s answer.
#[derive(Debug, serde::Serialize)]
struct SubtractionReport {
    /// The set, ascending.
    set: Vec<u32>,
    /// Heaps listed: 0..=upto.
    upto: u64,
    /// The losing heaps (second-player wins) among them.
    losing: Vec<usize>,
    /// The Grundy value of each heap 0..=upto.
    grundy: Vec<u8>,
    /// The Grundy sequence's proven preperiod and period.
    grundy_periodicity: gamesweep::gamegraph::subtraction::Periodicity,
    /// The outcome (P/N) sequence's.
    outcome_periodicity: gamesweep::gamegraph::subtraction::Periodicity,
}

pub(super) fn solve_subtraction(a: SubtractionArgs) -> anyhow::Result<()> {
    use gamesweep::gamegraph::subtraction::{analyse, grundy_sequence, SubtractionSet};
    use std::fmt::Write as _;
    if a.upto > MAX_UPTO {
        return Err(UsageError(format!("--upto {} is more than {MAX_UPTO}", a.upto)).into());
    }
    let mut elements = Vec::new();
    for w in a.set.split(',') {
        let w = w.trim();
        let x: u32 = w.parse().map_err(|_| {
            UsageError(format!(
                "--set {}: `{w:.20}` is not a number in 1..=64 (give e.g. --set 2,4,7)",
                a.set.escape_debug()
            ))
        })?;
        elements.push(x);
    }
    let set = SubtractionSet::new(&elements).map_err(|e| UsageError(format!("--set: {e}")))?;
    let an = analyse(&set);
    let len = a.upto as usize + 1;
    let grundy = grundy_sequence(&set, len);
    let losing: Vec<usize> = (0..len).filter(|&n| grundy[n] == 0).collect();
    let report = SubtractionReport {
        set: set.elements().to_vec(),
        upto: a.upto,
        losing,
        grundy,
        grundy_periodicity: an.grundy,
        outcome_periodicity: an.outcome,
    };
    if a.json {
        output::print(format_args!("{}\n", serde_json::to_string(&report)?))?;
        return Ok(());
    }
    let mut t = String::new();
    let join = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(" ");
    let _ = writeln!(
        t,
        "subtraction game S = {}, heaps 0..={}",
        set.to_string_braced(),
        a.upto
    );
    let _ = writeln!(
        t,
        "losing heaps (second player wins): {}",
        join(&mut report.losing.iter().map(|n| n.to_string()))
    );
    let _ = writeln!(
        t,
        "grundy: {}",
        join(&mut report.grundy.iter().map(|g| g.to_string()))
    );
    let m = set.max_element();
    for (name, p) in [
        ("grundy sequence", &report.grundy_periodicity),
        ("losing heaps", &report.outcome_periodicity),
    ] {
        let _ = writeln!(
            t,
            "{name}: preperiod {}, period {} (proven: the {m} values from heap {} repeat from heap {}, \
             and each value depends only on the {m} before it)",
            p.preperiod, p.period, p.repeat.0, p.repeat.1
        );
    }
    output::print(t)?;
    Ok(())
}
