//! What a report pictures: the kind's own [`Presentation`] of its
//! `results.json` ([`gamesweep::sweep::Kind::present`]): charts, and the
//! positions worth drawing with their role, value and caption, in drawing
//! order. This module knows no kind; the kind says what its document means.

use crate::error::ReportError;
pub use gamesweep::sweep::{Chart, Marks, Plot, Presentation, Role, Series, Witness};

#[derive(serde::Deserialize)]
struct KindOnly {
    kind: String,
}

/// The kind named by a `results.json` text and its presentation.
pub fn of_results(json: &str) -> Result<(String, Presentation), ReportError> {
    let k: KindOnly = serde_json::from_str(json).map_err(ReportError::NoKind)?;
    let present = gamesweep::kinds::find(&k.kind).and_then(|kind| kind.present(json));
    let p = present.map_err(|source| ReportError::Document {
        kind: k.kind.clone(),
        source,
    })?;
    Ok((k.kind, p))
}
