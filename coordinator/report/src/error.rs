//! What can go wrong writing a report.

use std::path::{Path, PathBuf};

/// An error rendering or writing a report's files.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// `results.json` has no `kind` field (or is not JSON).
    #[error("results.json names no kind: {0}")]
    NoKind(#[source] serde_json::Error),
    /// `results.json` names a kind this build does not know, or does not
    /// parse as its kind's document.
    #[error("results.json is not a valid `{kind}` document: {source}")]
    Document {
        /// The kind `results.json` names.
        kind: String,
        /// Why it does not parse (or the kind is unknown).
        source: gamesweep::sweep::SweepError,
    },
    /// plotters failed drawing a chart.
    #[error("drawing a chart: {0}")]
    Chart(String),
    /// The figures could not be rendered.
    #[error("rendering the report's figures from results.json: {0}")]
    Figures(#[source] Box<ReportError>),
    /// A `provenance.json` that is not a provenance.
    #[error("{} is not a valid provenance.json: {source}", path.display())]
    Provenance {
        /// The file.
        path: PathBuf,
        /// Why it does not parse.
        source: serde_json::Error,
    },
    /// A `verified.json` that cannot be read as re-run records, or holds
    /// a record of another sweep.
    #[error("{}: {why}", path.display())]
    Reruns {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A file or folder could not be created, read, written or removed.
    #[error("{what} {}: {source}", path.display())]
    Io {
        /// `creating`, `reading`, `writing` or `removing`.
        what: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
}

impl ReportError {
    /// An I/O error `what`-ing `path`.
    pub fn io(what: &'static str, path: &Path, source: std::io::Error) -> Self {
        ReportError::Io {
            what,
            path: path.to_path_buf(),
            source,
        }
    }
}
