//! What the `myopic-list` sweep shows besides its report text. Display
//! only: nothing here reaches `results.json`.

use super::super::ListDoc;
use crate::sweep::{Presentation, Role};

/// The exceptions of the lemma and of the corollary, and the non-cold
/// positions (none when the claims hold: then nothing to show).
pub fn present(d: &ListDoc) -> Presentation {
    let mut out = Presentation::default();
    for (name, ps) in [
        ("lemma exception", &d.lemma.records),
        (
            "corollary exception (single list)",
            &d.corollary.single.records,
        ),
        ("corollary exception (forest)", &d.corollary.forests.records),
        ("non-cold", &d.non_cold_records),
    ] {
        for p in ps {
            out.witnesses.push(p.witness(Role::Counterexample, name));
        }
    }
    out
}
