//! gRPC protocol of gamesweep: the generated coordinator service ([`pb`]),
//! the plain data users exchange with a coordinator ([`domain`]), the
//! conversions between messages and domain types ([`convert`]), and the
//! clients ([`client`]: the typed [`Coordinator`] and the raw [`Client`]).
//! Protobuf types stay at this edge: the coordinator and the workers convert
//! on receipt and work with domain types everywhere else.
//!
//! [`logging`] is runtime-common rather than protocol: the logging setup of
//! both binaries (`gamesweep`, `gamesweep-worker`), here because both depend
//! on this crate.

/// Code generated from `proto/gamesweep.proto` (package `gamesweep.v1`).
#[allow(clippy::all, missing_docs)]
pub mod pb {
    tonic::include_proto!("gamesweep.v1");
}

pub mod client;
pub mod convert;
pub mod domain;
pub mod logging;

pub use client::{
    connect_lazy, read_token_file, solver_version, version_for, Client, Coordinator, RpcError,
};
pub use convert::ConvertError;

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
