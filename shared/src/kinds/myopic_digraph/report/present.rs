//! What the `myopic-digraph` sweep shows besides its report text. Display
//! only: nothing here reaches `results.json`.

use super::super::DigraphDoc;
use crate::sweep::{Presentation, Role};

/// Per rule set (exhaustive, random): the exceptions, the non-cold
/// positions, and the smallest position where the watched rule breaks.
pub fn present(d: &DigraphDoc) -> Presentation {
    let mut out = Presentation::default();
    let sets = [
        ("exhaustive", Some(&d.sets.exhaustive)),
        ("random", d.sets.random.as_ref()),
    ];
    for (name, s) in sets.into_iter().filter_map(|(n, s)| Some((n, s?))) {
        for p in &s.exception_records {
            out.witnesses
                .push(p.witness(Role::Counterexample, &format!("{name}: exception")));
        }
        for p in &s.non_cold_records {
            out.witnesses
                .push(p.witness(Role::Counterexample, &format!("{name}: non-cold")));
        }
        if let Some(p) = &s.smallest_watched_broken {
            out.witnesses.push(p.witness(
                Role::Collected,
                &format!("{name}: smallest position where the watched rule breaks"),
            ));
        }
    }
    out
}
