//! What the `cgt-check` sweep shows besides its report text.
//! Display only: nothing here reaches `results.json`.

use super::super::CgtCheckDoc;
use crate::sweep::{Presentation, Role};

/// `cgt-check`: the positions where the CGT solver and the naive search
/// disagree (none in a correct build: then nothing to show).
pub fn present(d: &CgtCheckDoc) -> Presentation {
    let mut out = Presentation::default();
    for (name, s) in [("col", &d.sets.col), ("myopic", &d.sets.myopic)] {
        for p in &s.records {
            out.witnesses.push(p.witness(
                Role::Counterexample,
                &format!("{name}: solver and naive search disagree"),
            ));
        }
    }
    out
}
