//! What the `uvg-reduction` sweep shows besides its report text. Display
//! only: nothing here reaches `results.json`.

use super::super::ReductionDoc;
use crate::sweep::report::{nim, vertices};
use crate::sweep::{Marks, Presentation, Role, Witness};

/// Every exception of each check; the smallest Wrong Way position of each
/// value (the digraph the gadget belongs to).
pub fn present(d: &ReductionDoc) -> Presentation {
    let mut out = Presentation::default();
    for (name, list) in d.exceptions.in_report_order() {
        for r in &list.records {
            let mut caption = format!("{name}: {}", vertices(r.vertices));
            for part in [&r.detail, &r.note] {
                if !part.is_empty() {
                    caption.push_str(", ");
                    caption.push_str(part);
                }
            }
            out.witnesses.push(Witness {
                role: Role::Counterexample,
                size: (r.vertices, r.edges),
                code: r.code.clone(),
                marks: Marks::None,
                value: None,
                caption,
            });
        }
    }
    for (&v, r) in &d.wrong_way_examples {
        let value = nim(v);
        out.witnesses.push(Witness {
            role: Role::Smallest,
            size: (r.vertices, r.edges),
            code: r.code.clone(),
            marks: Marks::None,
            caption: format!(
                "smallest Wrong Way {value}: digraph on {}, {}",
                vertices(r.vertices),
                r.detail
            ),
            value: Some(value),
        });
    }
    out
}
