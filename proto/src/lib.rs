//! gRPC protocol of gamesweep: the generated coordinator service ([`pb`]) and
//! the conversions between its messages and the core's domain types
//! ([`convert`]). Protobuf types stay at this edge: the coordinator and the
//! workers convert on receipt and work with `gamesweep` types everywhere else.

/// Code generated from `proto/gamesweep.proto` (package `gamesweep.v1`).
#[allow(clippy::all, missing_docs)]
pub mod pb {
    tonic::include_proto!("gamesweep.v1");
}

pub mod convert;

pub use convert::ConvertError;
pub mod client;

pub use client::{connect_lazy, read_token_file, solver_version, Client};

/// The coordinator's default port.
pub const DEFAULT_PORT: u16 = 7461;

/// The default coordinator URL: `$GAMESWEEP_COORDINATOR`, else
/// `http://127.0.0.1:<DEFAULT_PORT>`.
pub fn default_url() -> String {
    std::env::var("GAMESWEEP_COORDINATOR")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("http://127.0.0.1:{DEFAULT_PORT}"))
}
