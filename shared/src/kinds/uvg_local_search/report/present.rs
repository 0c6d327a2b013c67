//! What the `uvg-local-search` sweep shows besides its report text.
//! Display only: nothing here reaches `results.json`.

use super::super::SearchDoc;
use crate::sweep::report::{nim, vertices};
use crate::sweep::{Marks, Presentation, Role, Witness};

/// The best position found for each value a climb reached: an upper bound
/// on the smallest position of that value, not the smallest.
pub fn present(d: &SearchDoc) -> Presentation {
    Presentation {
        charts: Vec::new(),
        witnesses: d
            .best_values
            .iter()
            .map(|(&v, b)| {
                let value = nim(v as u64);
                Witness {
                    role: Role::Collected,
                    size: (d.params.vertices as u32, b.edges),
                    code: b.graph6.clone(),
                    marks: Marks::Start(vec![b.start as usize]),
                    caption: format!(
                        "best found {value}: {}, start {} ({} climbs)",
                        vertices(d.params.vertices as u64),
                        b.start,
                        b.climbs
                    ),
                    value: Some(value),
                }
            })
            .collect(),
    }
}
