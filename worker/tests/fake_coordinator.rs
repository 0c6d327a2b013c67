//! The worker against a minimal in-process coordinator (lease, renew,
//! submit, fail, release) on loopback: it leases the shards of a tiny sweep,
//! submits results that decode as the kind's, reports shards it cannot run,
//! stops when refused, exits when the coordinator is idle (after a grace
//! period if it never saw work), gives up on an unreachable coordinator
//! when told to, finds the coordinator through an address file, gives
//! its leases back when aborted, sends each lease's token back with every
//! request about it, and drops a result the coordinator refuses
//! (PERMISSION_DENIED) instead of retrying it.

use gamesweep::{kinds, sweep};
use gamesweep_proto::pb::coordinator_server::{
    Coordinator as CoordinatorService, CoordinatorServer,
};
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
    /// Leases given back.
    released: Vec<pb::HeldShard>,
    /// Refuse every submit with PERMISSION_DENIED.
    deny_submits: bool,
}

#[derive(Default)]
struct Fake(Mutex<State>);

impl Fake {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap()
    }
}

#[tonic::async_trait]
impl CoordinatorService for Fake {
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
        if s.deny_submits {
            return Err(Status::permission_denied("no valid lease token"));
        }
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
    async fn release(
        &self,
        req: Request<pb::ReleaseRequest>,
    ) -> Result<Response<pb::ReleaseReply>, Status> {
        let mut s = self.state();
        let held = req.into_inner().held;
        s.outstanding -= held.len();
        let released = vec![true; held.len()];
        s.released.extend(held);
        Ok(Response::new(pb::ReleaseReply { released }))
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
    async fn pause(
        &self,
        _: Request<pb::PauseRequest>,
    ) -> Result<Response<pb::PauseReply>, Status> {
        Err(Status::unimplemented("fake"))
    }
    async fn resume(
        &self,
        _: Request<pb::ResumeRequest>,
    ) -> Result<Response<pb::ResumeReply>, Status> {
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
    type ExportStream = tokio_stream::Empty<Result<pb::ExportChunk, Status>>;
    async fn export(
        &self,
        _: Request<pb::ExportRequest>,
    ) -> Result<Response<Self::ExportStream>, Status> {
        Err(Status::unimplemented("fake"))
    }
    async fn import(
        &self,
        _: Request<tonic::Streaming<pb::ImportChunk>>,
    ) -> Result<Response<pb::ImportReply>, Status> {
        Err(Status::unimplemented("fake"))
    }

    async fn issue_credential(
        &self,
        _: Request<pb::IssueCredentialRequest>,
    ) -> Result<Response<pb::IssueCredentialReply>, Status> {
        Err(Status::unimplemented("fake"))
    }

    async fn list_credentials(
        &self,
        _: Request<pb::ListCredentialsRequest>,
    ) -> Result<Response<pb::ListCredentialsReply>, Status> {
        Err(Status::unimplemented("fake"))
    }

    async fn revoke_credential(
        &self,
        _: Request<pb::RevokeCredentialRequest>,
    ) -> Result<Response<pb::RevokeCredentialReply>, Status> {
        Err(Status::unimplemented("fake"))
    }
}

/// The fake's lease token for shard `index`.
fn token(index: u32) -> String {
    format!("token-{index}")
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
            lease_token: token(s.index),
            salt: None,
        })
        .collect()
}

/// Serve `fake` on an ephemeral loopback port; returns its URL.
async fn serve(fake: Arc<Fake>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(CoordinatorServer::from_arc(fake))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    url
}

/// A two-thread worker for `url` that exits when idle.
fn config(url: &str) -> WorkerConfig {
    let mut config = WorkerConfig::new(url);
    config.threads = 2;
    config.worker_id = "test-worker".into();
    config.exit_when_idle = true;
    config
}

/// Run a worker with `config` for at most 60 s.
async fn run_with(config: WorkerConfig) -> Result<WorkerSummary, WorkerError> {
    let (_tx, rx) = watch::channel(Shutdown::Running);
    tokio::time::timeout(Duration::from_secs(60), gamesweep_worker::run(config, rx))
        .await
        .expect("the worker did not exit when idle")
}

/// Serve `fake` on an ephemeral loopback port; run a two-thread worker that
/// exits when idle against it, for at most 60 s.
async fn run_worker(fake: Arc<Fake>) -> Result<WorkerSummary, WorkerError> {
    let url = serve(fake).await;
    run_with(config(&url)).await
}

/// A fake holding the shards of a tiny uvg sweep (n ≤ 4); the plan.
fn tiny_sweep() -> (Arc<Fake>, Vec<sweep::ShardSpec>) {
    let uvg = kinds::find("uvg").unwrap();
    let params = uvg
        .resolve_params(&[("max_n".to_string(), 4)].into())
        .unwrap();
    let plan = uvg.plan(&params, 2).unwrap();
    let fake = Arc::new(Fake::default());
    fake.state().pending = leases(&params, &plan);
    (fake, plan)
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
        assert_eq!(r.lease_token, token(r.index), "the lease's token");
        assert_eq!(
            convert::solver_versions_from_proto(&r.solver_versions).unwrap(),
            gamesweep_api::SolverVersions::of_this_build()
        );
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
    assert_eq!(s.failed[0].lease_token, token(0));
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_started_before_launch_waits_its_grace_period_for_work() {
    // Nothing to do at first (idle); the sweep arrives after 0.5 s.
    let fake = Arc::new(Fake::default());
    let url = serve(fake.clone()).await;
    let mut c = config(&url);
    c.idle_grace = Duration::from_secs(30);
    let worker = tokio::spawn(run_with(c));
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, plan) = tiny_sweep();
    {
        let (later, _) = tiny_sweep();
        let pending = std::mem::take(&mut later.state().pending);
        fake.state().pending = pending;
    }
    let summary = worker.await.unwrap().unwrap();
    assert_eq!(summary.accepted, plan.len() as u64, "it ran the late sweep");

    // With no sweep ever, it exits once the grace period is over, not before.
    let idle = Arc::new(Fake::default());
    let url = serve(idle).await;
    let mut c = config(&url);
    c.idle_grace = Duration::from_millis(1500);
    let t0 = std::time::Instant::now();
    let summary = run_with(c).await.unwrap();
    let waited = t0.elapsed();
    assert_eq!(summary, WorkerSummary::default());
    assert!(
        waited >= Duration::from_millis(1500) && waited < Duration::from_secs(20),
        "exited after {waited:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_gives_up_on_an_unreachable_coordinator_when_told_to() {
    // A port nothing listens on (bound, then closed).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let mut c = config(&url);
    c.give_up_after = Some(Duration::from_secs(1));
    c.max_backoff = Duration::from_millis(200);
    let t0 = std::time::Instant::now();
    let err = run_with(c).await.unwrap_err();
    assert!(t0.elapsed() >= Duration::from_secs(1));
    match &err {
        WorkerError::Unreachable { coordinator, secs } => {
            assert_eq!((coordinator.as_str(), *secs >= 1), (url.as_str(), true))
        }
        other => panic!("expected giving up, got {other:?}"),
    }
    assert!(
        err.to_string().ends_with("; giving up (--give-up-after)"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_finds_the_coordinator_through_its_address_file_and_follows_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("coordinator.url");
    let (fake, plan) = tiny_sweep();
    let url = serve(fake.clone()).await;
    // At first the file is missing, then it names a dead port (a coordinator
    // that has gone), then the live one: the worker follows each change.
    let mut c = config("http://unused.invalid:1");
    c.coordinator_file = Some(file.clone());
    c.max_backoff = Duration::from_millis(100);
    c.give_up_after = Some(Duration::from_secs(30));
    let worker = tokio::spawn(run_with(c));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    std::fs::write(&file, format!("http://127.0.0.1:{dead}\n")).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(fake.state().submitted.is_empty());
    std::fs::write(&file, format!("{url}\n")).unwrap();
    let summary = worker.await.unwrap().unwrap();
    assert_eq!(summary.accepted, plan.len() as u64);
    assert_eq!(fake.state().submitted.len(), plan.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aborted_worker_gives_its_leases_back() {
    // One long shard (the largest of uvg n <= 10 in a few pieces), held, then abort.
    let uvg = kinds::find("uvg").unwrap();
    let params = uvg
        .resolve_params(&[("max_n".to_string(), 10)].into())
        .unwrap();
    let mut plan = uvg.plan(&params, 2).unwrap();
    plan.sort_by_key(|s| std::cmp::Reverse(s.estimate));
    let fake = Arc::new(Fake::default());
    fake.state().pending = leases(&params, &plan[..1]);
    let url = serve(fake.clone()).await;
    let (tx, rx) = watch::channel(Shutdown::Running);
    let worker = tokio::spawn(gamesweep_worker::run(config(&url), rx));
    for _ in 0..100 {
        if fake.state().outstanding == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(fake.state().outstanding, 1, "the worker holds the shard");
    tx.send(Shutdown::Abort).unwrap();
    let summary = tokio::time::timeout(Duration::from_secs(30), worker)
        .await
        .expect("the aborted worker did not stop")
        .unwrap()
        .unwrap();
    assert_eq!((summary.accepted, summary.abandoned), (0, 1));
    let s = fake.state();
    assert_eq!(s.released.len(), 1, "the lease was given back");
    assert_eq!(
        (s.released[0].index, s.released[0].attempt),
        (plan[0].index, 1)
    );
    assert_eq!(s.released[0].lease_token, token(plan[0].index));
    assert!(s.submitted.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_refused_for_its_token_is_dropped_not_retried() {
    let (fake, plan) = tiny_sweep();
    fake.state().deny_submits = true;
    let summary = run_worker(fake.clone()).await.unwrap();
    // Each result sent once, refused, dropped; the worker went on and
    // exited when idle.
    assert_eq!(
        (summary.accepted, summary.abandoned),
        (0, plan.len() as u64)
    );
    assert_eq!(fake.state().submitted.len(), plan.len());
}
