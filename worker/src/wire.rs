//! The worker's wire edge, the only module that sees protobuf messages:
//! it builds the requests from domain values and reads the replies back into
//! domain values, and sorts gRPC errors into what the worker does about them.

use crate::config::WorkerConfig;
use crate::shard::{HeldShard, LeasedShard, ShardKey, Timing};
use gamesweep_proto::client::ClientError;
use gamesweep_proto::{convert, pb, Client};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tonic::Code;
use tracing::{info, warn};

/// The coordinator as this worker talks to it: a client plus the worker's
/// id and solver version, which go with every request.
#[derive(Clone)]
pub(crate) struct Link {
    /// Where the coordinator is, and the client for it (shared by clones).
    endpoint: Arc<Endpoint>,
    /// This worker's id.
    worker_id: String,
    /// The solver versions sent with leases, submits and failure reports
    /// (converted once).
    solver_versions: Vec<pb::SolverVersion>,
}

/// The coordinator's address, the client connected to it, and since when
/// it has not answered. With an address file, the file is read again after
/// every call that could not reach the coordinator (a restarted coordinator
/// may be on another host and publish a new address).
struct Endpoint {
    /// The file holding the URL, if the address comes from one.
    file: Option<PathBuf>,
    /// The bearer token and TLS files.
    opts: gamesweep_proto::ClientOptions,
    /// The mutable part.
    state: Mutex<EndpointState>,
}

/// The current address and reachability.
struct EndpointState {
    /// The URL in use and its client; `None` while the address file is
    /// missing or holds no usable URL (the error says why).
    current: Result<(String, Client), String>,
    /// When the coordinator stopped answering (`None`: it answered last time).
    down_since: Option<Instant>,
}

impl Endpoint {
    fn lock(&self) -> MutexGuard<'_, EndpointState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The client to call with, or why there is none.
    fn client(&self) -> Result<Client, CallError> {
        let st = self.lock();
        match &st.current {
            Ok((_, client)) => Ok(client.clone()),
            Err(why) => Err(CallError::Unreachable(why.clone())),
        }
    }

    /// Note how a call went; after a failure to reach the coordinator,
    /// read the address file again.
    fn note<T>(&self, result: &Result<T, CallError>) {
        let unreachable = matches!(result, Err(CallError::Unreachable(_)));
        let mut st = self.lock();
        if !unreachable {
            st.down_since = None;
            return;
        }
        st.down_since.get_or_insert_with(Instant::now);
        if let Some(file) = &self.file {
            let was = st.current.as_ref().ok().map(|(url, _)| url.clone());
            let next = read_address(file, &self.opts);
            match (&was, &next) {
                (Some(old), Ok((new, _))) if old != new => {
                    info!(old = %old, new = %new, file = %file.display(), "coordinator address changed")
                }
                (None, Ok((new, _))) => {
                    info!(url = %new, file = %file.display(), "coordinator address read")
                }
                (_, Err(why)) if was.is_some() => warn!("{why}"),
                _ => {}
            }
            // Keep the old client (and its connection state) if the URL is the same.
            if was.as_ref() != next.as_ref().ok().map(|(url, _)| url) {
                st.current = next;
            }
        }
    }

    /// How long the coordinator has not answered (zero if it answered last).
    fn down_for(&self) -> Duration {
        self.lock()
            .down_since
            .map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// The URL in use, or where it comes from.
    fn describe(&self) -> String {
        match (&self.lock().current, &self.file) {
            (Ok((url, _)), _) => url.clone(),
            (Err(_), Some(file)) => format!("the address in {}", file.display()),
            (Err(why), None) => why.clone(),
        }
    }
}

/// Read the coordinator URL from the first line of `file` and make a client for it.
fn read_address(
    file: &std::path::Path,
    opts: &gamesweep_proto::ClientOptions,
) -> Result<(String, Client), String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("coordinator address file {}: {e}", file.display()))?;
    let url = text.lines().next().unwrap_or("").trim().to_string();
    if url.is_empty() {
        return Err(format!(
            "coordinator address file {} is empty",
            file.display()
        ));
    }
    let client = gamesweep_proto::connect_lazy(&url, opts)
        .map_err(|e| format!("coordinator address file {}: {e}", file.display()))?;
    Ok((url, client))
}

/// A failed call, by what the worker should do about it.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub(crate) enum CallError {
    /// The coordinator is restarting or unreachable: try again later.
    #[error("{0}")]
    Unreachable(String),
    /// The coordinator refuses this worker (solver version, token): stop.
    #[error("{0}")]
    Refused(String),
    /// The coordinator rejected this one request for good.
    #[error("{0}")]
    Rejected(String),
}

impl From<tonic::Status> for CallError {
    fn from(s: tonic::Status) -> Self {
        // With its causes: not just "transport error".
        let message = gamesweep_proto::client::status_message(&s);
        match s.code() {
            Code::Unavailable
            | Code::Unknown
            | Code::DeadlineExceeded
            | Code::Internal
            | Code::Cancelled => CallError::Unreachable(message),
            Code::FailedPrecondition | Code::Unauthenticated => CallError::Refused(message),
            // A result or failure report without a valid lease token (e.g.
            // its lease was lost to a coordinator that forgot it): that one
            // request is dropped, the worker goes on.
            _ => CallError::Rejected(message),
        }
    }
}

/// The answer to a lease request.
pub(crate) struct LeaseBatch {
    /// The shards granted; a lease this worker cannot run is a message.
    pub shards: Vec<Result<LeasedShard, String>>,
    /// Leases expire this long after the grant or the last renewal.
    pub lease_ms: u64,
    /// No unfinished sweep exists at all.
    pub idle: bool,
}

/// The answer to a renewal.
pub(crate) struct Renewal {
    /// Parallel to the shards renewed: false = the lease is gone, stop the shard.
    pub still_held: Vec<bool>,
    /// Leases expire this long after this renewal.
    pub lease_ms: u64,
}

/// What the coordinator did with a submitted result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Submitted {
    /// Stored and merged.
    Accepted,
    /// The shard was already done; the result was dropped.
    Duplicate,
}

impl Link {
    /// A lazily connecting client for `config`'s coordinator. A bad URL is
    /// an error at once; with an address file, a missing or bad file only
    /// makes the coordinator unreachable until the file is right.
    pub fn connect(config: &WorkerConfig) -> Result<Self, ClientError> {
        let opts = gamesweep_proto::ClientOptions {
            token: config.token.clone(),
            tls: config.tls.clone(),
        };
        let current = match &config.coordinator_file {
            Some(file) => read_address(file, &opts),
            None => {
                let client = gamesweep_proto::connect_lazy(&config.coordinator, &opts)?;
                Ok((config.coordinator.clone(), client))
            }
        };
        if let (Err(why), Some(_)) = (&current, &config.coordinator_file) {
            warn!("{why}; waiting for it");
        }
        let down_since = current.is_err().then(Instant::now);
        Ok(Link {
            endpoint: Arc::new(Endpoint {
                file: config.coordinator_file.clone(),
                opts,
                state: Mutex::new(EndpointState {
                    current,
                    down_since,
                }),
            }),
            worker_id: config.worker_id.clone(),
            solver_versions: convert::solver_versions_to_proto(&config.solver_versions),
        })
    }

    /// How long the coordinator has not answered (zero if it answered last).
    pub fn down_for(&self) -> Duration {
        self.endpoint.down_for()
    }

    /// The coordinator's URL (or where it is to be read from), for messages.
    pub fn describe(&self) -> String {
        self.endpoint.describe()
    }

    /// The client to call with (an error if there is no address yet).
    fn client(&self) -> Result<Client, CallError> {
        self.endpoint.client()
    }

    /// Record how a call went (see [`Endpoint::note`]) and pass its result on.
    fn noted<T>(&self, result: Result<T, CallError>) -> Result<T, CallError> {
        self.endpoint.note(&result);
        result
    }

    /// Ask for up to `max_shards` shards.
    pub async fn lease(&self, max_shards: usize) -> Result<LeaseBatch, CallError> {
        let req = pb::LeaseRequest {
            worker_id: self.worker_id.clone(),
            solver_versions: self.solver_versions.clone(),
            max_shards: max_shards as u32,
            protocol: gamesweep_proto::LEASE_PROTOCOL,
        };
        let reply = self.noted(self.call(|mut c| async move { c.lease(req).await }).await)?;
        Ok(LeaseBatch {
            shards: reply.leases.into_iter().map(leased_shard).collect(),
            lease_ms: reply.lease_ms,
            idle: reply.idle,
        })
    }

    /// Renew the leases of `held`.
    pub async fn renew(&self, held: &[HeldShard]) -> Result<Renewal, CallError> {
        let req = pb::RenewRequest {
            worker_id: self.worker_id.clone(),
            held: held.iter().map(held_shard).collect(),
        };
        let reply = self.noted(self.call(|mut c| async move { c.renew(req).await }).await)?;
        Ok(Renewal {
            still_held: reply.still_held,
            lease_ms: reply.lease_ms,
        })
    }

    /// Submit a shard's encoded result (`Output::encode`).
    pub async fn submit(
        &self,
        key: &ShardKey,
        attempt: u32,
        token: &str,
        result: &[u8],
        positions: Option<u64>,
        timing: Timing,
    ) -> Result<Submitted, CallError> {
        let req = pb::SubmitRequest {
            worker_id: self.worker_id.clone(),
            solver_versions: self.solver_versions.clone(),
            sweep_id: key.sweep_id.clone(),
            index: key.index,
            attempt,
            lease_token: token.to_string(),
            result: result.to_vec(),
            positions,
            timing: Some(pb::ShardTiming {
                wall_us: timing.wall_us,
                cpu_us: timing.cpu_us,
            }),
        };
        let reply = self.noted(self.call(|mut c| async move { c.submit(req).await }).await)?;
        Ok(if reply.accepted {
            Submitted::Accepted
        } else {
            Submitted::Duplicate
        })
    }

    /// Report that a shard could not be run.
    pub async fn fail(
        &self,
        key: &ShardKey,
        attempt: u32,
        token: &str,
        error: &str,
    ) -> Result<(), CallError> {
        let req = pb::FailRequest {
            worker_id: self.worker_id.clone(),
            solver_versions: self.solver_versions.clone(),
            sweep_id: key.sweep_id.clone(),
            index: key.index,
            attempt,
            lease_token: token.to_string(),
            error: error.to_string(),
        };
        self.noted(self.call(|mut c| async move { c.fail(req).await }).await)?;
        Ok(())
    }

    /// Give back the leases of `held` (an aborting worker); returns how
    /// many the coordinator took back.
    pub async fn release(&self, held: &[HeldShard]) -> Result<usize, CallError> {
        let req = pb::ReleaseRequest {
            worker_id: self.worker_id.clone(),
            held: held.iter().map(held_shard).collect(),
        };
        let reply = self.noted(self.call(|mut c| async move { c.release(req).await }).await)?;
        Ok(reply.released.iter().filter(|&&r| r).count())
    }

    /// Make one call with the current client.
    async fn call<R, F, Fut>(&self, rpc: F) -> Result<R, CallError>
    where
        F: FnOnce(Client) -> Fut,
        Fut: std::future::Future<Output = Result<tonic::Response<R>, tonic::Status>>,
    {
        match rpc(self.client()?).await {
            Ok(r) => Ok(r.into_inner()),
            Err(s) => Err(self.tls_mismatch(CallError::from(s)).await),
        }
    }

    /// A connection to an `http://` URL that the server dropped or answered
    /// with a protocol error: when the server speaks TLS, say "use
    /// https://" (and stop: no retry will ever reach it), instead of
    /// retrying forever without a word of why. With an address file the
    /// file may still change, so the worker keeps waiting, saying why.
    async fn tls_mismatch(&self, e: CallError) -> CallError {
        let CallError::Unreachable(why) = &e else {
            return e;
        };
        let m = why.to_ascii_lowercase();
        let dropped = m.contains("connection closed")
            || m.contains("connection reset")
            || m.contains("broken pipe")
            || m.contains("protocol error")
            || m.contains("frame with invalid size");
        let url = match &self.endpoint.lock().current {
            Ok((url, _)) if url.starts_with("http://") => url.clone(),
            _ => return e,
        };
        if !dropped || !gamesweep_proto::client::speaks_tls(&url).await {
            return e;
        }
        let msg = gamesweep_proto::client::use_https(&url);
        if self.endpoint.file.is_some() {
            CallError::Unreachable(msg)
        } else {
            CallError::Refused(msg)
        }
    }
}

/// A held shard as the protocol sends it.
fn held_shard(h: &HeldShard) -> pb::HeldShard {
    pb::HeldShard {
        sweep_id: h.key.sweep_id.clone(),
        index: h.key.index,
        attempt: h.attempt,
        lease_token: h.token.clone(),
        progress: h.progress,
    }
}

/// A lease as the worker runs it, or why it cannot be run.
fn leased_shard(lease: pb::Lease) -> Result<LeasedShard, String> {
    let kind =
        gamesweep::kinds::find(&lease.kind).map_err(|e| format!("cannot run leased shard: {e}"))?;
    let params = convert::params_from_proto(&lease.params).map_err(|e| e.to_string())?;
    let shard = convert::opt_shard_from_proto(lease.shard).map_err(|e| e.to_string())?;
    Ok(LeasedShard {
        key: ShardKey {
            sweep_id: lease.sweep_id,
            index: shard.index,
        },
        attempt: lease.attempt,
        token: lease.lease_token,
        kind,
        params,
        shard,
        salt: lease.salt,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_errors_sort_into_retry_stop_or_drop() {
        let e = |code| CallError::from(tonic::Status::new(code, "why"));
        assert_eq!(e(Code::Unavailable), CallError::Unreachable("why".into()));
        assert_eq!(e(Code::Internal), CallError::Unreachable("why".into()));
        assert_eq!(
            e(Code::FailedPrecondition),
            CallError::Refused("why".into())
        );
        assert_eq!(e(Code::Unauthenticated), CallError::Refused("why".into()));
        assert_eq!(e(Code::PermissionDenied), CallError::Rejected("why".into()));
        assert_eq!(e(Code::NotFound), CallError::Rejected("why".into()));
        assert_eq!(e(Code::InvalidArgument), CallError::Rejected("why".into()));
    }

    #[test]
    fn a_lease_reads_into_a_runnable_shard_or_a_message() {
        let lease = |kind: &str, shard| pb::Lease {
            sweep_id: "s1".into(),
            kind: kind.into(),
            params: vec![pb::Param {
                name: "max_n".into(),
                value: 4,
            }],
            shard,
            attempt: 2,
            lease_token: "tok".into(),
            salt: None,
        };
        let spec = pb::ShardSpec {
            index: 5,
            payload: "{}".into(),
            estimate: 9,
        };
        let ok = leased_shard(lease("uvg", Some(spec.clone()))).unwrap();
        assert_eq!(
            ok.key,
            ShardKey {
                sweep_id: "s1".into(),
                index: 5
            }
        );
        assert_eq!(
            (
                ok.attempt,
                ok.token.as_str(),
                ok.kind.name(),
                ok.params["max_n"]
            ),
            (2, "tok", "uvg", 4)
        );
        assert_eq!((ok.shard.payload.as_str(), ok.shard.estimate), ("{}", 9));

        let unknown = leased_shard(lease("no-such-kind", Some(spec)))
            .err()
            .unwrap();
        assert!(
            unknown.starts_with("cannot run leased shard: unknown sweep kind `no-such-kind`"),
            "{unknown}"
        );
        let missing = leased_shard(lease("uvg", None)).err().unwrap();
        assert_eq!(missing, "malformed message: missing field `shard`");
    }
}
