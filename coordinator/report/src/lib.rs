//! The files a finished sweep leaves: `results.json`, `report.md` with its
//! Verification section (from the engine's provenance), the figures and
//! `report.html`, and projections. Modules: `error` (what can go wrong),
//! `figures` (a report's pictures and `report.html`, from `results.json`),
//! `report` (the writer: figures, and the Verification section), `reruns`
//! (`verified.json`: re-runs elsewhere, stated in that section). Their
//! order is stated once, in ARCHITECTURE.md ("Layers").
pub mod error;
pub mod figures;
pub mod report;
pub mod reruns;

pub use error::ReportError;
