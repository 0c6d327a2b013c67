//! The files a finished sweep leaves: `results.json`, `report.md` with its
//! Verification section (from the engine's provenance), the figures and
//! `report.html`, and projections. Modules in layers:
//!
//! 0. `error` (what can go wrong).
//! 1. `figures` (a report's pictures and `report.html`, from `results.json`).
//! 2. `report` (the report writer: figures, and the Verification section).
pub mod error;
pub mod figures;
pub mod report;

pub use error::ReportError;
