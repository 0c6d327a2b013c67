//! gRPC protocol of gamesweep: the generated coordinator service ([`pb`]),
//! the conversions between messages and the domain types of
//! `gamesweep_api` ([`convert`]), and the clients ([`client`]: the typed
//! [`Remote`] and the raw [`Client`]), with the client's configuration
//! defaults (URL, token file). Protobuf types stay at this edge: the
//! coordinator and the workers convert on receipt and work with domain types
//! everywhere else.

/// Code generated from `proto/gamesweep.proto` (package `gamesweep.v1`).
#[allow(clippy::all, missing_docs)]
pub mod pb {
    tonic::include_proto!("gamesweep.v1");
}

pub mod client;
pub mod convert;

pub use client::{
    connect_lazy, read_token_file, Client, ClientOptions, Remote, RpcError, TlsFiles,
};
pub use convert::ConvertError;

/// The gRPC path (`/package.Service/Method`) of every method of every
/// service in `proto/gamesweep.proto`, read from the compiled descriptors by
/// `build.rs`: the coordinator's access rules are checked against it.
pub const METHODS: &[&str] = include!(concat!(env!("OUT_DIR"), "/methods.rs"));

/// The coordinator's default port.
pub const DEFAULT_PORT: u16 = 7461;

/// The lease protocol this build speaks (`LeaseRequest.protocol`). 2: lease
/// tokens are opaque and bound to the worker's identity; leases carry no
/// attempt. 3: a lease may carry a salt, and the result of such a lease
/// carries the position digest under it (`SubmitRequest.positions`). A
/// coordinator refuses a worker speaking another one.
pub const LEASE_PROTOCOL: u32 = 3;

/// Environment variable: the coordinator URL (`--coordinator`).
pub const ENV_COORDINATOR: &str = "GAMESWEEP_COORDINATOR";
/// Environment variable: the file holding the bearer token (`--token-file`).
pub const ENV_TOKEN_FILE: &str = "GAMESWEEP_TOKEN_FILE";

pub use client::{ENV_TLS_CA, ENV_TLS_CERT, ENV_TLS_KEY};

/// The default coordinator URL: `$GAMESWEEP_COORDINATOR`, else
/// `http://127.0.0.1:<DEFAULT_PORT>`.
pub fn default_url() -> String {
    std::env::var(ENV_COORDINATOR)
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("http://127.0.0.1:{DEFAULT_PORT}"))
}

/// The default token file, `$HOME/.gamesweep/token` (used when no
/// `--token-file` or `$GAMESWEEP_TOKEN_FILE` is given and the file exists).
pub fn default_token_file() -> Option<std::path::PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| std::path::PathBuf::from(h).join(".gamesweep").join("token"))
}

/// The token file to use: `explicit` (from `--token-file` or
/// `$GAMESWEEP_TOKEN_FILE`) if given, else [`default_token_file`] if it exists.
pub fn token_file(explicit: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
    match explicit {
        Some(p) => Some(p.to_path_buf()),
        None => default_token_file().filter(|p| p.exists()),
    }
}
