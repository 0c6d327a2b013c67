//! The gRPC face of the coordinator: converts protobuf messages to domain
//! types (via `gamesweep_proto::convert`), calls [`Core`], and serves until
//! a shutdown signal, behind [`crate::access`] (token roles, request sizes)
//! and [`crate::conns`] (connection bounds), optionally over TLS.
//!
//! Every handler that locks the core or touches the store runs on a
//! blocking thread (`spawn_blocking`): the core's lock is a std mutex and
//! the store writes to disk, neither of which may stall the async runtime.

use crate::audit::{AuditService, Audited};
use gamesweep_api::domain::RenderedSweep;
use gamesweep_engine::core::{Core, CoreError, Delivery, FailureReport, Held, LaunchSpec, Timing};
use gamesweep_proto::convert;
use gamesweep_proto::pb::coordinator_server::Coordinator as CoordinatorService;
use gamesweep_proto::pb::{self, coordinator_server};
use std::net::SocketAddr;
use std::sync::Arc;
use tonic::{Request, Response, Status};
use tracing::{info, warn};

/// The gRPC status of an engine error (its message clipped).
pub fn status(e: CoreError) -> Status {
    {
        let msg = gamesweep_api::text::clip(e.to_string());
        match e {
            CoreError::NoSuchSweep(_) => Status::not_found(msg),
            CoreError::BadRequest(_) => Status::invalid_argument(msg),
            CoreError::Exists(_) => Status::already_exists(msg),
            CoreError::VersionMismatch { .. } => Status::failed_precondition(msg),
            CoreError::NotFinished { .. } | CoreError::Failed { .. } | CoreError::Render(_) => {
                Status::failed_precondition(msg)
            }
            CoreError::Denied(_) => Status::permission_denied(msg),
            CoreError::Store(_) => Status::internal(msg),
        }
    }
}

fn bad(e: convert::ConvertError) -> Status {
    Status::invalid_argument(gamesweep_api::text::clip(e.to_string()))
}

/// The tonic service over a [`Core`].
pub struct Service {
    core: Arc<Core>,
}

impl Service {
    /// Serve `core`.
    pub fn new(core: Arc<Core>) -> Self {
        Service { core }
    }
}

/// The lease holder a worker request speaks for: the identity of the
/// issued credential it presented (`@NAME`), whatever worker id it sends;
/// under a shared role token (or none) the worker id it sends, which may
/// not pose as an issued identity.
fn holder<T>(req: &Request<T>, worker_id: &str) -> Result<String, Status> {
    let caller = req.extensions().get::<crate::access::Caller>();
    if let Some(name) = caller.and_then(|c| c.identity.as_deref()) {
        return Ok(format!(
            "{}{name}",
            gamesweep_engine::core::model::ISSUED_PREFIX
        ));
    }
    if worker_id.starts_with(gamesweep_engine::core::model::IMPORT_PREFIX) {
        return Err(Status::invalid_argument(format!(
            "worker id `{}` starts with `{}`, which marks imported results: pick another id",
            gamesweep_engine::core::model::short(worker_id),
            gamesweep_engine::core::model::IMPORT_PREFIX
        )));
    }
    if worker_id.starts_with(gamesweep_engine::core::model::ISSUED_PREFIX) {
        return Err(Status::invalid_argument(format!(
            "worker id `{}` starts with `{}`, which marks identities of issued credentials: under a shared token pick another id (or ask the admin for a credential: `gamesweep token issue`)",
            gamesweep_engine::core::model::short(worker_id),
            gamesweep_engine::core::model::ISSUED_PREFIX
        )));
    }
    Ok(worker_id.to_string())
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, CoreError> + Send + 'static,
) -> Result<T, Status> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Status::internal(format!("coordinator task failed: {e}")))?
        .map_err(status)
}

#[tonic::async_trait]
impl CoordinatorService for Service {
    async fn launch(
        &self,
        req: Request<pb::LaunchRequest>,
    ) -> Result<Response<pb::LaunchReply>, Status> {
        let launch = LaunchSpec::try_from(req.into_inner()).map_err(bad)?;
        let core = self.core.clone();
        let l = blocking(move || core.launch(&launch)).await?;
        Ok(Response::new(l.into()))
    }

    async fn lease(
        &self,
        req: Request<pb::LeaseRequest>,
    ) -> Result<Response<pb::LeaseReply>, Status> {
        let worker = holder(&req, &req.get_ref().worker_id)?;
        let r = req.into_inner();
        if r.protocol != gamesweep_proto::LEASE_PROTOCOL {
            return Err(Status::failed_precondition(format!(
                "this worker speaks lease protocol {}, the coordinator {} (lease tokens bound to the worker's credential; results that carry the position digest a lease asks for): upgrade the worker to the coordinator's gamesweep build",
                if r.protocol == 0 { "1 or older".to_string() } else { r.protocol.to_string() },
                gamesweep_proto::LEASE_PROTOCOL
            )));
        }
        let versions = convert::solver_versions_from_proto(&r.solver_versions).map_err(bad)?;
        let core = self.core.clone();
        let out = blocking(move || core.lease(&worker, &versions, r.max_shards)).await?;
        Ok(Response::new(pb::LeaseReply {
            leases: out
                .leases
                .into_iter()
                .map(|g| pb::Lease {
                    sweep_id: g.sweep_id,
                    kind: g.kind.name().to_string(),
                    params: convert::params_to_proto(&g.params),
                    shard: Some(convert::shard_to_proto(&g.shard)),
                    // Nothing tells a first run from a verification copy.
                    attempt: 0,
                    lease_token: g.token,
                    salt: g.salt,
                })
                .collect(),
            lease_ms: self.core.lease_ms(),
            idle: out.idle,
        }))
    }

    async fn renew(
        &self,
        req: Request<pb::RenewRequest>,
    ) -> Result<Response<pb::RenewReply>, Status> {
        let worker = holder(&req, &req.get_ref().worker_id)?;
        let r = req.into_inner();
        let held = held_shards(r.held);
        let core = self.core.clone();
        let still_held = blocking(move || core.renew(&worker, &held)).await?;
        Ok(Response::new(pb::RenewReply {
            still_held,
            lease_ms: self.core.lease_ms(),
        }))
    }

    async fn release(
        &self,
        req: Request<pb::ReleaseRequest>,
    ) -> Result<Response<pb::ReleaseReply>, Status> {
        let worker = holder(&req, &req.get_ref().worker_id)?;
        let r = req.into_inner();
        let held = held_shards(r.held);
        let core = self.core.clone();
        let released = blocking(move || core.release(&worker, &held)).await?;
        Ok(Response::new(pb::ReleaseReply { released }))
    }

    async fn submit(
        &self,
        req: Request<pb::SubmitRequest>,
    ) -> Result<Response<pb::SubmitReply>, Status> {
        let worker = holder(&req, &req.get_ref().worker_id)?;
        let r = req.into_inner();
        let versions = convert::solver_versions_from_proto(&r.solver_versions).map_err(bad)?;
        let core = self.core.clone();
        // Durable before acknowledged: `accept` flushes before it returns.
        let accepted = blocking(move || {
            core.accept(Delivery {
                worker,
                version: versions,
                sweep_id: r.sweep_id,
                index: r.index,
                token: r.lease_token,
                result: r.result,
                timing: r.timing.map(|t| Timing {
                    wall_us: t.wall_us,
                    cpu_us: t.cpu_us,
                }),
                positions: r.positions,
            })
        })
        .await?;
        Ok(Response::new(pb::SubmitReply { accepted }))
    }

    async fn fail(&self, req: Request<pb::FailRequest>) -> Result<Response<pb::FailReply>, Status> {
        let worker = holder(&req, &req.get_ref().worker_id)?;
        let r = req.into_inner();
        let report = FailureReport {
            worker,
            version: convert::solver_versions_from_proto(&r.solver_versions).map_err(bad)?,
            sweep_id: r.sweep_id,
            index: r.index,
            token: r.lease_token,
            error: r.error,
        };
        let core = self.core.clone();
        let out = blocking(move || core.accept_failure(&report)).await?;
        Ok(Response::new(pb::FailReply {
            failures: out.failures,
            set_aside: out.set_aside,
        }))
    }

    async fn status(
        &self,
        req: Request<pb::StatusRequest>,
    ) -> Result<Response<pb::StatusReply>, Status> {
        let r = req.into_inner();
        let id = (!r.sweep_id.is_empty()).then_some(r.sweep_id);
        let core = self.core.clone();
        let report = blocking(move || core.overview(id.as_deref())).await?;
        Ok(Response::new(report.into()))
    }

    async fn cancel(
        &self,
        req: Request<pb::CancelRequest>,
    ) -> Result<Response<pb::CancelReply>, Status> {
        let r = req.into_inner();
        let core = self.core.clone();
        blocking(move || core.cancel(&r.sweep_id)).await?;
        Ok(Response::new(pb::CancelReply {}))
    }

    async fn pause(
        &self,
        req: Request<pb::PauseRequest>,
    ) -> Result<Response<pb::PauseReply>, Status> {
        let r = req.into_inner();
        let core = self.core.clone();
        blocking(move || core.pause(&r.sweep_id, true)).await?;
        Ok(Response::new(pb::PauseReply {}))
    }

    async fn resume(
        &self,
        req: Request<pb::ResumeRequest>,
    ) -> Result<Response<pb::ResumeReply>, Status> {
        let r = req.into_inner();
        let core = self.core.clone();
        blocking(move || core.pause(&r.sweep_id, false)).await?;
        Ok(Response::new(pb::ResumeReply {}))
    }

    async fn get_result(
        &self,
        req: Request<pb::GetResultRequest>,
    ) -> Result<Response<pb::GetResultReply>, Status> {
        let r = req.into_inner();
        let core = self.core.clone();
        // Rendered once per finished sweep (the core caches it).
        let (out, provenance) =
            blocking(move || Ok((core.rendered(&r.sweep_id)?, core.provenance(&r.sweep_id)?)))
                .await?;
        Ok(Response::new(pb::GetResultReply::from(RenderedSweep {
            kind: out.kind.name().to_string(),
            params: out.params.clone(),
            results_json: out.rendered.results_json.clone(),
            report_md: out.rendered.report_md.clone(),
            provenance: Some(provenance),
        })))
    }

    async fn get_projection(
        &self,
        req: Request<pb::GetProjectionRequest>,
    ) -> Result<Response<pb::GetProjectionReply>, Status> {
        let r = req.into_inner();
        let cores = if r.cores.is_empty() {
            vec![std::thread::available_parallelism().map_or(1, |n| n.get() as u32)]
        } else {
            r.cores
        };
        // Checked here, before the request waits for a blocking thread.
        gamesweep_engine::core::results::check_cores(&cores).map_err(status)?;
        let core = self.core.clone();
        let p = blocking(move || core.projection(&r.sweep_id, &cores)).await?;
        Ok(Response::new(pb::GetProjectionReply {
            projection_json: gamesweep_report::report::results_json_text(
                &serde_json::to_value(&p).map_err(|e| Status::internal(e.to_string()))?,
            ),
            projection_md: gamesweep_engine::projection::render_md(&p),
        }))
    }

    type ExportStream = ExportStream;

    async fn issue_credential(
        &self,
        req: Request<pb::IssueCredentialRequest>,
    ) -> Result<Response<pb::IssueCredentialReply>, Status> {
        let r = req.into_inner();
        let role =
            gamesweep_engine::core::credentials::CredentialRole::parse(&r.role).map_err(status)?;
        let core = self.core.clone();
        let (secret, rec) = blocking(move || core.issue_credential(&r.name, role)).await?;
        Ok(Response::new(pb::IssueCredentialReply {
            fingerprint: crate::access::fingerprint(secret.as_bytes()),
            name: rec.name,
            role: rec.role,
            secret,
        }))
    }

    async fn list_credentials(
        &self,
        _req: Request<pb::ListCredentialsRequest>,
    ) -> Result<Response<pb::ListCredentialsReply>, Status> {
        let core = self.core.clone();
        let list = blocking(move || core.list_credentials()).await?;
        Ok(Response::new(pb::ListCredentialsReply {
            credentials: list
                .into_iter()
                .map(|r| pb::CredentialInfo {
                    fingerprint: gamesweep_engine::core::credentials::record_fingerprint(&r),
                    name: r.name,
                    role: r.role,
                    issued_unix_ms: r.issued_unix_ms,
                    revoked_unix_ms: r.revoked_unix_ms.unwrap_or(0),
                })
                .collect(),
        }))
    }

    async fn revoke_credential(
        &self,
        req: Request<pb::RevokeCredentialRequest>,
    ) -> Result<Response<pb::RevokeCredentialReply>, Status> {
        let r = req.into_inner();
        let core = self.core.clone();
        blocking(move || core.revoke_credential(&r.name)).await?;
        Ok(Response::new(pb::RevokeCredentialReply {}))
    }

    async fn export(
        &self,
        req: Request<pb::ExportRequest>,
    ) -> Result<Response<ExportStream>, Status> {
        Ok(Response::new(
            self.export_file(req.into_inner().sweep_id).await?,
        ))
    }

    async fn import(
        &self,
        req: Request<tonic::Streaming<pb::ImportChunk>>,
    ) -> Result<Response<pb::ImportReply>, Status> {
        Ok(Response::new(self.import_file(req.into_inner()).await?))
    }
}

/// The stream of an export file's chunks.
pub type ExportStream =
    std::pin::Pin<Box<dyn tokio_stream::Stream<Item = Result<pb::ExportChunk, Status>> + Send>>;

impl Service {
    /// `Export`: the sweep encoded as an export file, in chunks.
    async fn export_file(&self, sweep_id: String) -> Result<ExportStream, Status> {
        let core = self.core.clone();
        let bytes = blocking(move || core.export_file(&sweep_id)).await?;
        let chunks: Vec<Result<pb::ExportChunk, Status>> = bytes
            .chunks(gamesweep_proto::client::IMPORT_CHUNK)
            .map(|c| Ok(pb::ExportChunk { data: c.to_vec() }))
            .collect();
        Ok(Box::pin(tokio_stream::iter(chunks)))
    }

    /// `Import`: the chunks gathered (at most [`crate::access::IMPORT_LIMIT`]
    /// bytes), decoded, re-validated and stored by the core.
    async fn import_file(
        &self,
        mut chunks: tonic::Streaming<pb::ImportChunk>,
    ) -> Result<pb::ImportReply, Status> {
        let mut bytes = Vec::new();
        let mut first = None;
        while let Some(c) = chunks.message().await? {
            if first.is_none() {
                // The options travel in the first chunk.
                first = Some((c.rename.clone(), c.require_signature, c.verify_ppm));
            }
            if bytes.len() + c.data.len() > crate::access::IMPORT_LIMIT {
                return Err(Status::resource_exhausted(format!(
                    "import refused: the export file is larger than the coordinator's limit of {} bytes",
                    crate::access::IMPORT_LIMIT
                )));
            }
            bytes.extend_from_slice(&c.data);
        }
        let (rename, require_signature, verify_ppm) = first.unwrap_or_default();
        let rename = Some(rename).filter(|r| !r.is_empty());
        // Trusted signers: the store's key and `serve --trust-key` (the
        // core's); a client cannot add any.
        let policy = gamesweep_engine::core::transfer::ImportPolicy {
            trusted: Vec::new(),
            require_signature,
            verify_ppm,
            // Another solver build's results are taken in only by a local
            // `run --accept-solver-change`, never over the wire.
            accept_solver_change: false,
        };
        let core = self.core.clone();
        let imported = blocking(move || {
            let file = gamesweep_engine::export_file::decode(&bytes)
                .map_err(|e| CoreError::BadRequest(format!("import refused: {e}")))?;
            core.import(&file, rename.as_deref(), &policy)
        })
        .await?;
        info!(sweep = %imported.sweep_id, done = imported.done, trusted = imported.trusted, "sweep imported");
        Ok(imported.into())
    }
}

pub use crate::access::ct_eq;

/// The held shards of a renewal or release, as the core takes them.
fn held_shards(held: Vec<pb::HeldShard>) -> Vec<Held> {
    held.into_iter()
        .map(|h| Held {
            sweep_id: h.sweep_id,
            index: h.index,
            token: h.lease_token,
            progress: h.progress,
        })
        .collect()
}

/// Errors starting the server.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Non-loopback listen address without a token.
    #[error("refusing to listen on {0} without a token: pass --token-file FILE (or --insecure on a trusted network)")]
    InsecureListen(SocketAddr),
    /// Binding failed. (`why` is said here and is not the error's source,
    /// which a `{:#}` chain would say a second time.)
    #[error("cannot listen on {addr}: {why}{}", if why.kind() == std::io::ErrorKind::AddrInUse { " (another coordinator on that port? pick another --listen)" } else { "" })]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        why: std::io::Error,
    },
    /// The server failed.
    #[error("server error: {0}")]
    Transport(#[from] tonic::transport::Error),
    /// The final flush failed.
    #[error(transparent)]
    Core(#[from] CoreError),
}

/// Check the listen address against the token policy.
pub fn check_listen(addr: SocketAddr, has_token: bool, insecure: bool) -> Result<(), ServeError> {
    if !addr.ip().is_loopback() && !has_token && !insecure {
        return Err(ServeError::InsecureListen(addr));
    }
    Ok(())
}

/// Bind `addr` (port 0 picks a free port).
pub async fn bind(addr: SocketAddr) -> Result<tokio::net::TcpListener, ServeError> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|why| ServeError::Bind { addr, why })
}

/// How a coordinator serves: who may call what, TLS, and how many
/// connections it keeps open.
pub struct ServeOptions {
    /// The tokens and their roles (none: every request is let through).
    pub tokens: crate::access::Tokens,
    /// TLS (certificate, key, optional client CA); `None`: plain HTTP/2.
    pub tls: Option<tonic::transport::ServerTlsConfig>,
    /// The most connections kept open (lowered to fit the descriptor limit).
    pub max_connections: usize,
    /// Where the audit log of admin actions goes (the core's store); `None`:
    /// kept in memory only.
    pub audit: Option<Arc<dyn gamesweep_engine::store::Store>>,
}

/// The default of `serve --max-connections`: well below common descriptor
/// limits (it is lowered further to fit the process's own).
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;

/// The longest a request may run on the server before it is cut off (the
/// client's own deadline is usually shorter).
pub const REQUEST_DEADLINE: std::time::Duration = std::time::Duration::from_secs(120);

/// Serve `core` on `listener` until `shutdown` resolves, with one token
/// granting everything (or none), plain HTTP/2; see [`serve_with`].
pub async fn serve(
    core: Arc<Core>,
    listener: tokio::net::TcpListener,
    token: Option<String>,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let opts = ServeOptions {
        tokens: crate::access::Tokens::new(token, None, None)
            .expect("a single admin token is always valid"),
        tls: None,
        max_connections: DEFAULT_MAX_CONNECTIONS,
        audit: None,
    };
    serve_with(core, listener, opts, shutdown).await
}

/// Serve `core` on `listener` until `shutdown` resolves; then stop accepting,
/// finish in-flight requests and flush the store.
///
/// Requests pass [`crate::access`] (token roles per method, request size
/// per method); connections are bounded by [`crate::conns`] (idle timeouts,
/// a cap); every request has a deadline ([`REQUEST_DEADLINE`]) and the
/// server sends HTTP/2 keepalive pings.
///
/// Beside the gamesweep service the server answers the standard
/// `grpc.health.v1.Health` service, without the token (Kubernetes' gRPC
/// probes cannot send one): SERVING for the server ("") and for
/// `gamesweep.v1.Coordinator` until `shutdown` resolves, then NOT_SERVING;
/// NOT_SERVING too while the store's writes fail (see
/// [`gamesweep_engine::store::ResilientStore`]), SERVING again once they work.
pub async fn serve_with(
    core: Arc<Core>,
    listener: tokio::net::TcpListener,
    opts: ServeOptions,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    type Server = coordinator_server::CoordinatorServer<Audited<Service>>;
    let log = opts
        .audit
        .unwrap_or_else(|| Arc::new(gamesweep_engine::store::MemStore::new()));
    let audit_svc =
        gamesweep_proto::pb::audit_server::AuditServer::new(AuditService::new(log.clone()));
    let svc = Server::new(Audited::new(Service::new(core.clone()), log))
        .max_decoding_message_size(crate::access::SUBMIT_LIMIT)
        .max_encoding_message_size(256 << 20);
    let (mut health, health_svc) = tonic_health::server::health_reporter();
    health.set_serving::<Server>().await;
    let names = ["", <Server as tonic::server::NamedService>::NAME];
    let store_watch = tokio::spawn(watch_store_writes(core.clone(), health.clone(), names));
    let ticks = tokio::spawn(tick(core.clone()));
    let (draining, drain_started) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async move {
        shutdown.await;
        ticks.abort();
        let _ = ticks.await;
        // Stopped first, so that it cannot turn the health SERVING again.
        store_watch.abort();
        let _ = store_watch.await;
        for name in names {
            health
                .set_service_status(name, tonic_health::ServingStatus::NotServing)
                .await;
            // Ends open Watch streams (after their NOT_SERVING), which the
            // drain would otherwise wait for forever.
            health.clear_service_status(name).await;
        }
        let _ = draining.send(());
    };
    let cap = crate::conns::effective_cap(opts.max_connections);
    if cap < opts.max_connections {
        warn!(
            cap,
            wanted = opts.max_connections,
            "connection cap lowered to fit the open-file limit (raise it, e.g. LimitNOFILE= in the systemd unit)"
        );
    }
    let mut builder = tonic::transport::Server::builder()
        .timeout(REQUEST_DEADLINE)
        .http2_keepalive_interval(Some(gamesweep_proto::client::KEEPALIVE_INTERVAL))
        .http2_keepalive_timeout(Some(gamesweep_proto::client::KEEPALIVE_TIMEOUT));
    if let Some(tls) = opts.tls {
        builder = builder.tls_config(tls.timeout(crate::conns::FIRST_BYTE_LIMIT))?;
    }
    let server = builder
        .layer(crate::access::AccessLayer::new(opts.tokens))
        .add_service(health_svc)
        .add_service(svc)
        .add_service(audit_svc)
        .serve_with_incoming_shutdown(crate::conns::Incoming::new(listener, cap), shutdown);
    // The drain (in-flight requests finish, connections close) is bounded:
    // a client that keeps its connection open cannot keep the coordinator
    // from stopping. Cutting a request off loses nothing: a result is
    // acknowledged only once it is on disk, and workers resend what was
    // not acknowledged.
    let drain_limit = async {
        if drain_started.await.is_ok() {
            tokio::time::sleep(DRAIN_LIMIT).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        served = server => served?,
        () = drain_limit => {
            tracing::warn!(secs = DRAIN_LIMIT.as_secs(), "connections still open after the shutdown grace period; stopping anyway");
        }
    }
    // The server has stopped: nothing else waits on this thread.
    core.flush()?;
    // So that the next start reads nothing but the snapshots.
    if let Err(e) = core.snapshot() {
        tracing::warn!(error = %e, "no snapshot at shutdown; the next start reads every result");
    }
    info!("coordinator stopped; store flushed");
    Ok(())
}

/// Advance the core's clock-driven transitions without any request, once
/// a [`gamesweep_engine::core::replication::TICK_EVERY`] from the start: an
/// open verification no eligible worker is around for is skipped as
/// unverifiable once its wait is over, even if no worker ever calls Lease
/// again (`Core::tick`). Runs until aborted; a failure is logged and
/// retried at the next tick.
async fn tick(core: Arc<Core>) {
    let mut tick = tokio::time::interval(gamesweep_engine::core::replication::TICK_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let c = core.clone();
        match tokio::task::spawn_blocking(move || c.tick()).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                warn!(error = %e, "verification wait not advanced; retried at the next tick")
            }
            Err(e) => warn!(error = %e, "tick task failed"),
        }
    }
}

/// How often gRPC health looks at whether the store's writes fail.
const STORE_WATCH: std::time::Duration = std::time::Duration::from_millis(500);

/// Keep the health of the services `names` NOT_SERVING while the store's
/// writes fail (a probe or load balancer then sends no work here; nothing
/// would be acknowledged), SERVING otherwise. Runs until aborted.
async fn watch_store_writes(
    core: Arc<Core>,
    health: tonic_health::server::HealthReporter,
    names: [&'static str; 2],
) {
    let mut failing = false;
    let mut tick = tokio::time::interval(STORE_WATCH);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        // The store's own lock, briefly: on a blocking thread like every
        // other use of the core.
        let c = core.clone();
        let Ok(now) = tokio::task::spawn_blocking(move || c.store_writes_failing().is_some()).await
        else {
            continue;
        };
        if now == failing {
            continue;
        }
        failing = now;
        let status = if now {
            tonic_health::ServingStatus::NotServing
        } else {
            tonic_health::ServingStatus::Serving
        };
        for name in names {
            health.set_service_status(name, status).await;
        }
    }
}

/// Where `--export-every` writes its checkpoint exports.
#[derive(Clone, Debug)]
pub enum Checkpoint {
    /// `DIR/<sweep-id>.gsx` for every sweep (`serve --export-dir DIR`).
    Dir(std::path::PathBuf),
    /// One sweep to one file (`run`: `OUT/run.gsx`).
    File {
        /// The sweep.
        sweep_id: String,
        /// The file.
        path: std::path::PathBuf,
    },
}

/// Write checkpoint exports every `every` (see [`write_checkpoints`]),
/// forever (abort the task to stop).
pub async fn checkpoint_loop(core: Arc<Core>, every: std::time::Duration, to: Checkpoint) {
    let mut written = std::collections::HashMap::new();
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await; // the first tick is immediate
    loop {
        tick.tick().await;
        let (core2, to2) = (core.clone(), to.clone());
        let mut w = std::mem::take(&mut written);
        match tokio::task::spawn_blocking(move || {
            write_checkpoints(&core2, &to2, &mut w);
            w
        })
        .await
        {
            Ok(w) => written = w,
            Err(e) => warn!(error = %e, "checkpoint task failed"),
        }
    }
}

/// Write the checkpoint export of every sweep `to` names whose count of
/// finished shards changed since `written` (sweep id → finished shards at
/// its last checkpoint), atomically (a temporary file, fsynced, renamed).
/// A failure is logged and retried at the next checkpoint.
pub fn write_checkpoints(
    core: &Core,
    to: &Checkpoint,
    written: &mut std::collections::HashMap<String, usize>,
) {
    let targets: Vec<(String, std::path::PathBuf)> = match to {
        Checkpoint::Dir(dir) => core
            .sweep_ids()
            .into_iter()
            .map(|id| {
                let path = dir.join(format!("{id}.{}", gamesweep_engine::export_file::EXTENSION));
                (id, path)
            })
            .collect(),
        Checkpoint::File { sweep_id, path } => vec![(sweep_id.clone(), path.clone())],
    };
    for (id, path) in targets {
        let export = match core.export(&id) {
            Ok(e) => e,
            Err(CoreError::NoSuchSweep(_)) => continue,
            Err(e) => {
                warn!(sweep = %id, error = %e, "checkpoint export failed");
                continue;
            }
        };
        if written.get(&id) == Some(&export.results.len()) && path.exists() {
            continue;
        }
        let bytes = core.sign(&export);
        match gamesweep_engine::export_file::write_atomic(&path, &bytes) {
            Ok(()) => {
                info!(sweep = %id, file = %path.display(), done = export.results.len(), bytes = bytes.len(), "checkpoint export written");
                written.insert(id, export.results.len());
            }
            Err(e) => {
                warn!(sweep = %id, file = %path.display(), error = %e, "cannot write the checkpoint export")
            }
        }
    }
}

/// How long a stopping coordinator waits for in-flight requests and open
/// connections before it stops anyway.
const DRAIN_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => info!("SIGINT: shutting down"),
        _ = term => info!("SIGTERM: shutting down"),
    }
}

#[cfg(test)]
mod tests {
    use super::ct_eq;

    #[test]
    fn constant_time_compare_is_equality() {
        assert!(ct_eq(b"secret", b"secret"));
        assert!(!ct_eq(b"secret", b"secreT"));
        assert!(!ct_eq(b"secret", b"secret2"));
        assert!(!ct_eq(b"", b"x"));
        assert!(ct_eq(b"", b""));
    }
}
