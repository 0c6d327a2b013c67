//! The worker against a minimal in-process coordinator (lease, renew,
//! submit, fail) on loopback: it leases the shards of a tiny sweep, submits
//! results that decode as the kind's, reports shards it cannot run, stops
//! when refused, and exits when the coordinator is idle.

use gamesweep::{kinds, sweep};
use gamesweep_proto::pb::coordinator_server::{Coordinator, CoordinatorServer};
use gamesweep_proto::{convert, pb};
use gamesweep_worker::{Shutdown, WorkerConfig, WorkerError, WorkerSummary};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use tonic::{Request, Response, Status};

/// What the fake coordinator hands out and what it received.
#[derive(Default)]
struct State {
    /// Leases not handed out yet.
    pending: Vec<pb::Lease>,
    /// Leases handed out and neither submitted nor reported failed.
    outstanding: usize,
    /// Submitted (shard index, result bytes, timing).
    submitted: Vec<pb::SubmitRequest>,
    /// Reported failures.
    failed: Vec<pb::FailRequest>,
    /// Refuse every lease with this message.
    refuse: Option<String>,
}

#[derive(Default)]
struct Fake(Mutex<State>);

impl Fake {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap()
    }
}

#[tonic::async_trait]
impl Coordinator for Fake {
    async fn lease(
        &self,
        req: Request<pb::LeaseRequest>,
    ) -> Result<Response<pb::LeaseReply>, Status> {
        let mut s = self.state();
        if let Some(why) = &s.refuse {
            return Err(Status::failed_precondition(why.clone()));
        }
        let n = (req.into_inner().max_shards as usize).min(s.pending.len());
        let leases: Vec<pb::Lease> = s.pending.drain(..n).collect();
        s.outstanding += leases.len();
        Ok(Response::new(pb::LeaseReply {
            leases,
            lease_ms: 1_000,
            idle: s.pending.is_empty() && s.outstanding == 0,
        }))
    }
    async fn renew(
        &self,
        req: Request<pb::RenewRequest>,
    ) -> Result<Response<pb::RenewReply>, Status> {
        Ok(Response::new(pb::RenewReply {
            still_held: vec![true; req.into_inner().held.len()],
            lease_ms: 1_000,
        }))
    }
    async fn submit(
        &self,
        req: Request<pb::SubmitRequest>,
    ) -> Result<Response<pb::SubmitReply>, Status> {
        let mut s = self.state();
        s.outstanding -= 1;
        s.submitted.push(req.into_inner());
        Ok(Response::new(pb::SubmitReply { accepted: true }))
    }
    async fn fail(&self, req: Request<pb::FailRequest>) -> Result<Response<pb::FailReply>, Status> {
        let mut s = self.state();
        s.outstanding -= 1;
        s.failed.push(req.into_inner());
        Ok(Response::new(pb::FailReply {
            failures: 1,
            set_aside: true,
        }))
    }
    async fn launch(
        &self,
        _: Request<pb::LaunchRequest>,
    ) -> Result<Response<pb::LaunchReply>, Status> {
        Err(Status::unimplemented("fake"))
    }
    async fn status(
        &self,
        _: Request<pb::StatusRequest>,
    ) -> Result<Response<pb::StatusReply>, Status> {
        Err(Status::unimplemented("fake"))
    }
    async fn cancel(
        &self,
        _: Request<pb::CancelRequest>,
    ) -> Result<Response<pb::CancelReply>, Status> {
        Err(Status::unimplemented("fake"))
    }
    async fn get_result(
        &self,
        _: Request<pb::GetResultRequest>,
    ) -> Result<Response<pb::GetResultReply>, Status> {
        Err(Status::unimplemented("fake"))
    }
    async fn get_projection(
        &self,
        _: Request<pb::GetProjectionRequest>,
    ) -> Result<Response<pb::GetProjectionReply>, Status> {
        Err(Status::unimplemented("fake"))
    }
}

/// Leases of `shards` of a `uvg` sweep with `params`.
fn leases(params: &sweep::Params, shards: &[sweep::ShardSpec]) -> Vec<pb::Lease> {
    shards
        .iter()
        .map(|s| pb::Lease {
            sweep_id: "fake".into(),
            kind: "uvg".into(),
            params: convert::params_to_proto(params),
            shard: Some(convert::shard_to_proto(s)),
            attempt: 1,
        })
        .collect()
}

/// Serve `fake` on an ephemeral loopback port; run a two-thread worker that
/// exits when idle against it, for at most 60 s.
async fn run_worker(fake: Arc<Fake>) -> Result<WorkerSummary, WorkerError> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(CoordinatorServer::from_arc(fake))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    let mut config = WorkerConfig::new(url);
    config.threads = 2;
    config.worker_id = "test-worker".into();
    config.exit_when_idle = true;
    let (_tx, rx) = watch::channel(Shutdown::Running);
    tokio::time::timeout(Duration::from_secs(60), gamesweep_worker::run(config, rx))
        .await
        .expect("the worker did not exit when idle")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_runs_a_tiny_sweep_and_exits_when_idle() {
    let uvg = kinds::find("uvg").unwrap();
    let params = uvg
        .resolve_params(&[("max_n".to_string(), 4)].into())
        .unwrap();
    let plan = uvg.plan(&params, 2).unwrap();
    assert!(plan.len() >= 2, "want a plan of several shards");
    let fake = Arc::new(Fake::default());
    fake.state().pending = leases(&params, &plan);

    let summary = run_worker(fake.clone()).await.unwrap();

    assert_eq!(summary.accepted, plan.len() as u64);
    assert_eq!(
        (summary.duplicates, summary.abandoned, summary.failed),
        (0, 0, 0)
    );
    let s = fake.state();
    let mut indices: Vec<u32> = s.submitted.iter().map(|r| r.index).collect();
    indices.sort();
    assert_eq!(indices, plan.iter().map(|p| p.index).collect::<Vec<_>>());
    let mut merged = uvg.empty();
    for r in &s.submitted {
        assert_eq!(
            (r.worker_id.as_str(), r.sweep_id.as_str(), r.attempt),
            ("test-worker", "fake", 1)
        );
        assert_eq!(r.solver_version, gamesweep_proto::solver_version());
        assert!(r.timing.is_some_and(|t| t.wall_us > 0));
        merged.merge(uvg.decode(&r.result).unwrap()).unwrap();
    }
    let sequential = sweep::run_all_sequential(uvg, &params, &plan).unwrap();
    assert_eq!(merged.encode(), sequential.encode());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shard_that_cannot_run_is_reported_failed() {
    let uvg = kinds::find("uvg").unwrap();
    let params = uvg
        .resolve_params(&[("max_n".to_string(), 4)].into())
        .unwrap();
    let broken = sweep::ShardSpec {
        index: 0,
        payload: "not a shard".into(),
        estimate: 0,
    };
    let fake = Arc::new(Fake::default());
    fake.state().pending = leases(&params, &[broken]);

    let summary = run_worker(fake.clone()).await.unwrap();

    assert_eq!((summary.accepted, summary.failed), (0, 1));
    let s = fake.state();
    assert_eq!(s.failed.len(), 1);
    assert!(
        s.failed[0].error.contains("bad shard payload"),
        "{}",
        s.failed[0].error
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_worker_stops_with_the_coordinators_reason() {
    let fake = Arc::new(Fake::default());
    fake.state().refuse = Some("solver version 0.0.0 is not this sweep's".into());
    match run_worker(fake).await {
        Err(e @ WorkerError::Refused(_)) => assert_eq!(
            e.to_string(),
            "coordinator refused this worker: solver version 0.0.0 is not this sweep's"
        ),
        other => panic!("expected a refusal, got {other:?}"),
    }
}
