//! `solve subtraction`: a subtraction game's losing heaps and Grundy sequence, with their proven periods.

use crate::ops::solve::subtraction::{parse_set, subtraction};
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

pub(super) fn solve_subtraction(a: SubtractionArgs) -> anyhow::Result<()> {
    use gamesweep::gamegraph::subtraction::SubtractionSet;
    use std::fmt::Write as _;
    let report = subtraction(&parse_set(&a.set)?, a.upto)?;
    let set = SubtractionSet::new(&report.set).expect("the report's set is one");
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
