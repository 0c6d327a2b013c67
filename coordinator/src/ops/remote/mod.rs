//! The admin calls on a running coordinator, one module per job: where the
//! sweeps stand ([`status`]), planning a sweep ([`launch`]), cancelling,
//! pausing and resuming one ([`act`]), a sampled sweep's projection
//! ([`project`]), the audit log ([`audit`]) and per-worker credentials
//! ([`token`]). Each takes a [`Session`] (the client runtime and the typed
//! client, connected by the CLI's connection options) and a typed request,
//! and returns a typed outcome with the lines the CLI prints; `cmd::*`
//! print them, Python's `coordinator_*` functions return them as JSON.

pub mod act;
pub mod audit;
pub mod launch;
pub mod project;
pub mod status;
pub mod token;

use crate::connect::{self, Conn};
use gamesweep_proto::Remote;

/// A connection to a coordinator: the client runtime and the typed client
/// (connected lazily: the first call reaches the coordinator).
pub struct Session {
    rt: tokio::runtime::Runtime,
    client: Remote,
}

impl Session {
    /// A session with the coordinator `conn` names (URL, token file, TLS
    /// files, their environment variables and defaults).
    pub fn connect(conn: &Conn) -> anyhow::Result<Session> {
        let rt = connect::runtime()?;
        let client = connect::connect(&rt, conn)?;
        Ok(Session { rt, client })
    }

    /// Run one call of the client to its end.
    fn call<'a, F, T>(&'a mut self, f: impl FnOnce(&'a mut Remote) -> F) -> T
    where
        F: std::future::Future<Output = T> + 'a,
    {
        self.rt.block_on(f(&mut self.client))
    }
}
