//! The worker's wire edge, the only module that sees protobuf messages:
//! it builds the requests from domain values and reads the replies back into
//! domain values, and sorts gRPC errors into what the worker does about them.

use crate::config::WorkerConfig;
use crate::shard::{HeldShard, LeasedShard, ShardKey, Timing};
use gamesweep_proto::client::ClientError;
use gamesweep_proto::{convert, pb, Client};
use tonic::Code;

/// The coordinator as this worker talks to it: a client plus the worker's
/// id and solver version, which go with every request.
#[derive(Clone)]
pub(crate) struct Coordinator {
    /// The gRPC client (cheap to clone; clones share the connection).
    client: Client,
    /// This worker's id.
    worker_id: String,
    /// The solver version sent with leases, submits and failure reports.
    solver_version: String,
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
        let message = s.message().to_string();
        match s.code() {
            Code::Unavailable
            | Code::Unknown
            | Code::DeadlineExceeded
            | Code::Internal
            | Code::Cancelled => CallError::Unreachable(message),
            Code::FailedPrecondition | Code::Unauthenticated | Code::PermissionDenied => {
                CallError::Refused(message)
            }
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

impl Coordinator {
    /// A lazily connecting client for `config`'s coordinator.
    pub fn connect(config: &WorkerConfig) -> Result<Self, ClientError> {
        Ok(Coordinator {
            client: gamesweep_proto::connect_lazy(&config.coordinator, config.token.as_deref())?,
            worker_id: config.worker_id.clone(),
            solver_version: config.solver_version.clone(),
        })
    }

    /// Ask for up to `max_shards` shards.
    pub async fn lease(&self, max_shards: usize) -> Result<LeaseBatch, CallError> {
        let req = pb::LeaseRequest {
            worker_id: self.worker_id.clone(),
            solver_version: self.solver_version.clone(),
            max_shards: max_shards as u32,
        };
        let reply = self.client.clone().lease(req).await?.into_inner();
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
            held: held
                .iter()
                .map(|h| pb::HeldShard {
                    sweep_id: h.key.sweep_id.clone(),
                    index: h.key.index,
                    attempt: h.attempt,
                    progress: h.progress,
                })
                .collect(),
        };
        let reply = self.client.clone().renew(req).await?.into_inner();
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
        result: &[u8],
        timing: Timing,
    ) -> Result<Submitted, CallError> {
        let req = pb::SubmitRequest {
            worker_id: self.worker_id.clone(),
            solver_version: self.solver_version.clone(),
            sweep_id: key.sweep_id.clone(),
            index: key.index,
            attempt,
            result: result.to_vec(),
            timing: Some(pb::ShardTiming {
                wall_us: timing.wall_us,
                cpu_us: timing.cpu_us,
            }),
        };
        let reply = self.client.clone().submit(req).await?.into_inner();
        Ok(if reply.accepted {
            Submitted::Accepted
        } else {
            Submitted::Duplicate
        })
    }

    /// Report that a shard could not be run.
    pub async fn fail(&self, key: &ShardKey, attempt: u32, error: &str) -> Result<(), CallError> {
        let req = pb::FailRequest {
            worker_id: self.worker_id.clone(),
            solver_version: self.solver_version.clone(),
            sweep_id: key.sweep_id.clone(),
            index: key.index,
            attempt,
            error: error.to_string(),
        };
        self.client.clone().fail(req).await?;
        Ok(())
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
        kind,
        params,
        shard,
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
            (ok.attempt, ok.kind.name(), ok.params["max_n"]),
            (2, "uvg", 4)
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
