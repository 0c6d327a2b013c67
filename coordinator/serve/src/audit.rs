//! The audit log of admin actions: [`Audited`] wraps the gamesweep service
//! and, after every successful launch, cancel and import, appends who (role, token
//! fingerprint, peer address), what (action, sweep, kind and parameters)
//! and when (Unix ms) to the store; [`AuditService`] serves the log's tail
//! (`GetAudit`, for the admin and read tokens: see [`crate::access`]).

use crate::access::Caller;
use gamesweep_engine::store::{AuditRecord, Store};
use gamesweep_proto::pb::coordinator_server::Coordinator as CoordinatorService;
use gamesweep_proto::pb::{self, audit_server};
use std::sync::Arc;
use tonic::{Request, Response, Status};

/// The most entries one `GetAudit` returns (and its default).
pub const MAX_ENTRIES: u32 = 1000;

/// The gamesweep service `S` with its admin actions written to `store`.
pub struct Audited<S> {
    inner: S,
    store: Arc<dyn Store>,
}

impl<S> Audited<S> {
    /// Wrap `inner`, logging to `store`.
    pub fn new(inner: S, store: Arc<dyn Store>) -> Self {
        Audited { inner, store }
    }
}

/// Who made `req`, before it is consumed: role and fingerprint (set by
/// [`crate::access`]) and the peer's address.
fn who<T>(req: &Request<T>) -> (Caller, String) {
    let caller = req
        .extensions()
        .get::<Caller>()
        .cloned()
        .unwrap_or_else(Caller::open);
    let peer = req
        .remote_addr()
        .map_or_else(String::new, |a| a.to_string());
    (caller, peer)
}

impl<S> Audited<S> {
    /// Append an entry; a failure to write it is logged, not returned (the
    /// action itself has happened and is durable).
    async fn record(
        &self,
        (caller, peer): (Caller, String),
        action: &str,
        sweep_id: String,
        detail: String,
    ) {
        let entry = AuditRecord {
            unix_ms: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64),
            role: caller.role.to_string(),
            token_fingerprint: caller.fingerprint,
            peer,
            action: action.to_string(),
            sweep_id,
            detail,
        };
        tracing::info!(
            action = %entry.action,
            sweep = %entry.sweep_id,
            role = %entry.role,
            token = %entry.token_fingerprint,
            peer = %entry.peer,
            "audit"
        );
        let store = self.store.clone();
        let written = tokio::task::spawn_blocking(move || store.append_audit(&entry)).await;
        match written {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::error!(error = %e, "cannot write the audit log"),
            Err(e) => tracing::error!(error = %e, "audit log task failed"),
        }
    }
}

/// A launch request's kind and parameters, as the log shows them.
fn launch_detail(r: &pb::LaunchRequest) -> String {
    let mut d = r.kind.clone();
    for p in &r.params {
        d.push_str(&format!(" {}={}", p.name, p.value));
    }
    if r.target_shards > 0 {
        d.push_str(&format!(" shards={}", r.target_shards));
    }
    if let Some(s) = &r.sample {
        d.push_str(&format!(" sample={}ppm seed={}", s.ppm, s.seed));
    }
    if r.resume_existing {
        d.push_str(" resume");
    }
    if r.priority > 1 {
        d.push_str(&format!(" priority={}", r.priority));
    }
    d
}

#[tonic::async_trait]
impl<S: CoordinatorService> CoordinatorService for Audited<S> {
    async fn launch(
        &self,
        req: Request<pb::LaunchRequest>,
    ) -> Result<Response<pb::LaunchReply>, Status> {
        let who = who(&req);
        let detail = launch_detail(req.get_ref());
        let reply = self.inner.launch(req).await?;
        if !reply.get_ref().existing {
            let id = reply.get_ref().sweep_id.clone();
            self.record(who, "launch", id, detail).await;
        }
        Ok(reply)
    }

    async fn cancel(
        &self,
        req: Request<pb::CancelRequest>,
    ) -> Result<Response<pb::CancelReply>, Status> {
        let who = who(&req);
        let id = req.get_ref().sweep_id.clone();
        let reply = self.inner.cancel(req).await?;
        self.record(who, "cancel", id, String::new()).await;
        Ok(reply)
    }

    async fn pause(
        &self,
        req: Request<pb::PauseRequest>,
    ) -> Result<Response<pb::PauseReply>, Status> {
        let who = who(&req);
        let id = req.get_ref().sweep_id.clone();
        let reply = self.inner.pause(req).await?;
        self.record(who, "pause", id, String::new()).await;
        Ok(reply)
    }

    async fn resume(
        &self,
        req: Request<pb::ResumeRequest>,
    ) -> Result<Response<pb::ResumeReply>, Status> {
        let who = who(&req);
        let id = req.get_ref().sweep_id.clone();
        let reply = self.inner.resume(req).await?;
        self.record(who, "resume", id, String::new()).await;
        Ok(reply)
    }

    async fn lease(
        &self,
        req: Request<pb::LeaseRequest>,
    ) -> Result<Response<pb::LeaseReply>, Status> {
        self.inner.lease(req).await
    }

    async fn issue_credential(
        &self,
        req: Request<pb::IssueCredentialRequest>,
    ) -> Result<Response<pb::IssueCredentialReply>, Status> {
        let who = who(&req);
        let detail = format!("role={}", req.get_ref().role);
        let reply = self.inner.issue_credential(req).await?;
        let r = reply.get_ref();
        let detail = format!("{detail} name={} fingerprint={}", r.name, r.fingerprint);
        self.record(who, "issue-credential", String::new(), detail)
            .await;
        Ok(reply)
    }

    async fn list_credentials(
        &self,
        req: Request<pb::ListCredentialsRequest>,
    ) -> Result<Response<pb::ListCredentialsReply>, Status> {
        self.inner.list_credentials(req).await
    }

    async fn revoke_credential(
        &self,
        req: Request<pb::RevokeCredentialRequest>,
    ) -> Result<Response<pb::RevokeCredentialReply>, Status> {
        let who = who(&req);
        let detail = format!("name={}", req.get_ref().name);
        let reply = self.inner.revoke_credential(req).await?;
        self.record(who, "revoke-credential", String::new(), detail)
            .await;
        Ok(reply)
    }

    async fn renew(
        &self,
        req: Request<pb::RenewRequest>,
    ) -> Result<Response<pb::RenewReply>, Status> {
        self.inner.renew(req).await
    }

    async fn release(
        &self,
        req: Request<pb::ReleaseRequest>,
    ) -> Result<Response<pb::ReleaseReply>, Status> {
        self.inner.release(req).await
    }

    async fn submit(
        &self,
        req: Request<pb::SubmitRequest>,
    ) -> Result<Response<pb::SubmitReply>, Status> {
        self.inner.submit(req).await
    }

    async fn fail(&self, req: Request<pb::FailRequest>) -> Result<Response<pb::FailReply>, Status> {
        self.inner.fail(req).await
    }

    async fn status(
        &self,
        req: Request<pb::StatusRequest>,
    ) -> Result<Response<pb::StatusReply>, Status> {
        self.inner.status(req).await
    }

    async fn get_result(
        &self,
        req: Request<pb::GetResultRequest>,
    ) -> Result<Response<pb::GetResultReply>, Status> {
        self.inner.get_result(req).await
    }

    async fn get_projection(
        &self,
        req: Request<pb::GetProjectionRequest>,
    ) -> Result<Response<pb::GetProjectionReply>, Status> {
        self.inner.get_projection(req).await
    }

    type ExportStream = S::ExportStream;

    async fn export(
        &self,
        req: Request<pb::ExportRequest>,
    ) -> Result<Response<S::ExportStream>, Status> {
        self.inner.export(req).await
    }

    async fn import(
        &self,
        req: Request<tonic::Streaming<pb::ImportChunk>>,
    ) -> Result<Response<pb::ImportReply>, Status> {
        let who = who(&req);
        let reply = self.inner.import(req).await?;
        let r = reply.get_ref();
        let detail = format!(
            "{} of {} shards done; {}",
            r.done,
            r.shards,
            if r.trusted {
                format!("signed by trusted key {}", r.signer)
            } else if r.signer.is_empty() {
                "unsigned: results re-run by workers".to_string()
            } else {
                format!(
                    "signed by untrusted key {}: results re-run by workers",
                    r.signer
                )
            }
        );
        self.record(who, "import", r.sweep_id.clone(), detail).await;
        Ok(reply)
    }
}

/// Serves the audit log's tail.
pub struct AuditService {
    store: Arc<dyn Store>,
}

impl AuditService {
    /// Serve the log in `store`.
    pub fn new(store: Arc<dyn Store>) -> Self {
        AuditService { store }
    }
}

#[tonic::async_trait]
impl audit_server::Audit for AuditService {
    async fn get_audit(
        &self,
        req: Request<pb::GetAuditRequest>,
    ) -> Result<Response<pb::GetAuditReply>, Status> {
        let limit = match req.get_ref().limit {
            0 => MAX_ENTRIES,
            n => n.min(MAX_ENTRIES),
        } as usize;
        let store = self.store.clone();
        let entries = tokio::task::spawn_blocking(move || store.audit_tail(limit))
            .await
            .map_err(|e| Status::internal(format!("audit log task failed: {e}")))?
            .map_err(|e| Status::internal(e.to_string()))?;
        Ok(Response::new(pb::GetAuditReply {
            entries: entries.into_iter().map(Into::into).collect(),
        }))
    }
}
