//! What the `engine-check` sweep shows besides its report text.
//! Display only: nothing here reaches `results.json`.

use super::super::EngineCheckDoc;
use crate::sweep::{Presentation, Role};

/// `engine-check`: the positions where the engines disagree (none in a
/// correct build: then nothing to show).
pub fn present(d: &EngineCheckDoc) -> Presentation {
    let mut out = Presentation::default();
    for (name, s) in [("col", &d.sets.col), ("myopic", &d.sets.myopic)] {
        for p in &s.records {
            out.witnesses
                .push(p.witness(Role::Counterexample, &format!("{name}: engines disagree")));
        }
    }
    out
}
