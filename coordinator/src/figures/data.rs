//! What a report pictures: the kind's own [`Presentation`] of its
//! `results.json` ([`gamesweep::sweep::Kind::present`]): charts, and the
//! positions worth drawing with their role, value and caption, in drawing
//! order. This module knows no kind; the kind says what its document means.

pub use gamesweep::sweep::{Chart, Marks, Plot, Presentation, Role, Series, Witness};

#[derive(serde::Deserialize)]
struct KindOnly {
    kind: String,
}

/// The kind named by a `results.json` text and its presentation.
pub fn of_results(json: &str) -> anyhow::Result<(String, Presentation)> {
    let k: KindOnly = serde_json::from_str(json)
        .map_err(|e| anyhow::anyhow!("results.json names no kind: {e}"))?;
    let kind = gamesweep::kinds::find(&k.kind)?;
    let p = kind
        .present(json)
        .map_err(|e| anyhow::anyhow!("results.json is not a valid `{}` document: {e}", k.kind))?;
    Ok((k.kind, p))
}
