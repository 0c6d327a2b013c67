//! Who may call what, and how large a request may be: a tower layer in
//! front of the gRPC services that reads the bearer token, finds its
//! [`Role`]s, and lets a request through only if one of them may call the
//! method named by the request's path; and that caps the request body per
//! method (a submit carries a shard result, every other call is small).
//!
//! Roles: the worker token may lease, renew, release, submit and fail; the
//! read token may read status, results and projections; the admin token may
//! launch, cancel and import, and read (export is a read). A coordinator given only the admin token
//! (`serve --token-file`, as before roles existed) lets it do everything.
//! The health service is open (probes cannot send a token).
//!
//! Access fails closed: a method of the gamesweep services without a rule
//! here is refused (PERMISSION_DENIED, naming the method) whatever the
//! token, so an RPC added to the `.proto` without a rule is open to no one.
//! A test checks that every method of the compiled descriptors
//! ([`gamesweep_proto::METHODS`]) has exactly one rule.

use gamesweep_engine::core::credentials::{CredentialRole, Credentials};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tonic::body::Body;
use tonic::codegen::http;
use tonic::codegen::Bytes;
use tonic::Status;

/// What a token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Launch, cancel, pause and resume sweeps (and everything [`Role::Read`] may do).
    Admin,
    /// Lease shards, renew and release leases, submit results, report failures.
    Worker,
    /// Read status, results and projections.
    Read,
}

impl Role {
    /// The role's name, as options and messages spell it.
    pub fn name(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Worker => "worker",
            Role::Read => "read",
        }
    }

    fn bit(self) -> u8 {
        match self {
            Role::Admin => 1,
            Role::Worker => 2,
            Role::Read => 4,
        }
    }
}

/// The largest request any method but Submit accepts (a launch's
/// parameters, a renewal's held shards: a few KiB in practice).
pub const SMALL_LIMIT: usize = 1 << 20;

/// The largest Submit request accepted: the encoded shard result plus a few
/// ids. The largest real shard result measured is uvg n ≤ 10 planned as a
/// single shard (every record in one result): see
/// `coordinator/tests/it/limits.rs`, which checks it fits with a wide margin.
pub const SUBMIT_LIMIT: usize = 16 << 20;

/// The largest Import request accepted (the whole export file, sent in
/// chunks; each chunk is one message of at most 1 MiB).
pub const IMPORT_LIMIT: usize = 1 << 30;

/// One method of a gamesweep service: the role it needs, what it does
/// (for the refusal message), and its request size limit.
struct Rule {
    /// The service's path prefix ([`SERVICE`] or [`AUDIT_SERVICE`]).
    service: &'static str,
    /// The method's name, as the `.proto` spells it.
    method: &'static str,
    role: Role,
    does: &'static str,
    limit: usize,
}

const RULES: &[Rule] = &[
    rule("Launch", Role::Admin, "launch sweeps", SMALL_LIMIT),
    rule("Cancel", Role::Admin, "cancel sweeps", SMALL_LIMIT),
    rule("Pause", Role::Admin, "pause sweeps", SMALL_LIMIT),
    rule("Resume", Role::Admin, "resume sweeps", SMALL_LIMIT),
    rule("Lease", Role::Worker, "lease shards", SMALL_LIMIT),
    rule("Renew", Role::Worker, "renew leases", SMALL_LIMIT),
    rule("Release", Role::Worker, "release leases", SMALL_LIMIT),
    rule("Submit", Role::Worker, "submit shard results", SUBMIT_LIMIT),
    rule("Fail", Role::Worker, "report shard failures", SMALL_LIMIT),
    rule("Status", Role::Read, "read sweep status", SMALL_LIMIT),
    rule("GetResult", Role::Read, "fetch results", SMALL_LIMIT),
    rule(
        "GetProjection",
        Role::Read,
        "fetch projections",
        SMALL_LIMIT,
    ),
    Rule {
        service: AUDIT_SERVICE,
        method: "GetAudit",
        role: Role::Read,
        does: "read the audit log",
        limit: SMALL_LIMIT,
    },
    rule("Export", Role::Read, "export sweeps", SMALL_LIMIT),
    rule("Import", Role::Admin, "import sweeps", IMPORT_LIMIT),
    rule(
        "IssueCredential",
        Role::Admin,
        "issue credentials",
        SMALL_LIMIT,
    ),
    rule(
        "ListCredentials",
        Role::Admin,
        "list credentials",
        SMALL_LIMIT,
    ),
    rule(
        "RevokeCredential",
        Role::Admin,
        "revoke credentials",
        SMALL_LIMIT,
    ),
];

/// A rule for a method of the coordinator service ([`SERVICE`]).
const fn rule(method: &'static str, role: Role, does: &'static str, limit: usize) -> Rule {
    Rule {
        service: SERVICE,
        method,
        role,
        does,
        limit,
    }
}

/// The gamesweep service's path prefix.
const SERVICE: &str = "/gamesweep.v1.Coordinator/";
/// The audit service's path prefix.
const AUDIT_SERVICE: &str = "/gamesweep.v1.Audit/";
/// The health service's path prefix (open).
const HEALTH: &str = "/grpc.health.v1.Health/";

/// The configured tokens and the roles each grants. No token at all: every
/// request is let through (a loopback coordinator, `run`).
#[derive(Clone, Debug, Default)]
pub struct Tokens {
    entries: Vec<(Vec<u8>, u8)>,
    /// Credentials issued by the admin (`gamesweep token issue`), looked
    /// up by the SHA-256 of the secret; shared with the core, which issues
    /// and revokes them.
    issued: Option<Arc<Credentials>>,
}

/// A set of role tokens that cannot be served.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokensError {
    /// A worker or read token without the admin token.
    #[error("--worker-token-file and --read-token-file need --token-file (the admin token)")]
    NoAdmin,
    /// Two roles given the same token (the role named second).
    #[error("the {0} token is the same as another role's token: give each role its own token")]
    Shared(&'static str),
}

impl Tokens {
    /// Tokens by role. `admin` alone grants every role (one token, as
    /// before roles); with a worker or read token it grants admin and read.
    /// A worker or read token needs an admin token, and no two may be equal.
    pub fn new(
        admin: Option<String>,
        worker: Option<String>,
        read: Option<String>,
    ) -> Result<Tokens, TokensError> {
        let Some(admin) = admin else {
            if worker.is_some() || read.is_some() {
                return Err(TokensError::NoAdmin);
            }
            return Ok(Tokens::default());
        };
        let all = Role::Admin.bit() | Role::Worker.bit() | Role::Read.bit();
        if worker.is_none() && read.is_none() {
            return Ok(Tokens {
                entries: vec![(admin.into_bytes(), all)],
                issued: None,
            });
        }
        let mut entries = vec![(admin.into_bytes(), Role::Admin.bit() | Role::Read.bit())];
        for (t, role) in [(worker, Role::Worker), (read, Role::Read)] {
            let Some(t) = t else { continue };
            if entries.iter().any(|(e, _)| *e == t.as_bytes()) {
                return Err(TokensError::Shared(role.name()));
            }
            entries.push((t.into_bytes(), role.bit()));
        }
        Ok(Tokens {
            entries,
            issued: None,
        })
    }

    /// These tokens and the credentials issued by the admin (the core's:
    /// [`gamesweep_engine::core::Core::credentials`]). Without an admin token nothing
    /// can be issued, and every request is let through as before.
    pub fn with_credentials(mut self, issued: Arc<Credentials>) -> Self {
        self.issued = Some(issued);
        self
    }

    /// Whether a shared token grants the worker role (results under it
    /// never count as independent confirmation; the coordinator warns).
    pub fn shared_worker_token(&self) -> bool {
        self.entries
            .iter()
            .any(|(_, r)| r & Role::Worker.bit() != 0)
    }

    /// Whether any token is set.
    pub fn any(&self) -> bool {
        !self.entries.is_empty()
    }

    /// Whether `given` may read (status, results): the read or the admin
    /// token. Compared in constant time against every token.
    pub fn may_read(&self, given: &[u8]) -> bool {
        self.roles(given).0 & Role::Read.bit() != 0
    }

    /// The tokens that may read (see [`Tokens::may_read`]).
    pub fn readers(&self) -> impl Iterator<Item = &[u8]> {
        self.entries
            .iter()
            .filter(|(_, r)| r & Role::Read.bit() != 0)
            .map(|(t, _)| t.as_slice())
    }

    /// The roles `given` grants (0: none), compared in constant time
    /// against every shared token, and the issued credential it is.
    fn roles(&self, given: &[u8]) -> (u8, Option<String>) {
        let mut roles = 0;
        for (t, r) in &self.entries {
            if ct_eq(given, t) {
                roles |= r;
            }
        }
        if roles == 0 {
            if let Some(c) = self.issued.as_ref().and_then(|i| i.lookup(given)) {
                let bit = match c.role {
                    CredentialRole::Worker => Role::Worker.bit(),
                    CredentialRole::Read => Role::Read.bit(),
                };
                return (bit, Some(c.name));
            }
        }
        (roles, None)
    }
}

/// Constant-time comparison (no early exit on the first differing byte, so
/// response timing does not reveal how much of a guessed token was right).
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    let mut diff = (a.len() ^ b.len()) as u64;
    for i in 0..a.len().max(b.len()) {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0xff);
        diff |= (x ^ y) as u64;
    }
    std::hint::black_box(diff) == 0
}

/// The tower layer: [`Tokens`] checked per method, request bodies capped.
#[derive(Clone)]
pub struct AccessLayer {
    tokens: Arc<Tokens>,
}

impl AccessLayer {
    /// Check requests against `tokens`.
    pub fn new(tokens: Tokens) -> Self {
        AccessLayer {
            tokens: Arc::new(tokens),
        }
    }
}

impl<S> tower::Layer<S> for AccessLayer {
    type Service = Access<S>;
    fn layer(&self, inner: S) -> Access<S> {
        Access {
            inner,
            tokens: self.tokens.clone(),
        }
    }
}

/// The service [`AccessLayer`] wraps around the routes.
#[derive(Clone)]
pub struct Access<S> {
    inner: S,
    tokens: Arc<Tokens>,
}

/// Who made a request, as the audit log records it (a request extension
/// for the handlers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    /// The role the token has for this call (`open` without tokens).
    pub role: &'static str,
    /// A short hash of the token (never the token); empty without tokens.
    pub fingerprint: String,
    /// The name of the issued credential the caller presented (`None`: a
    /// shared role token, or none): its identity, whatever ids it sends.
    pub identity: Option<String>,
}

impl Caller {
    /// A caller without a token (a coordinator without tokens).
    pub fn open() -> Self {
        Caller {
            role: "open",
            fingerprint: String::new(),
            identity: None,
        }
    }
}

/// A short, stable fingerprint of a token: the first 6 bytes of its SHA-256.
pub fn fingerprint(token: &[u8]) -> String {
    let d = ring::digest::digest(&ring::digest::SHA256, token);
    let hex: String = d.as_ref()[..6].iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// Decide on a request for `path` with `authorization` header value `auth`:
/// the body limit to apply and the caller, or the refusal.
fn decide(tokens: &Tokens, path: &str, auth: Option<&str>) -> Result<(usize, Caller), Status> {
    let open = Caller::open();
    if path.starts_with(HEALTH) {
        return Ok((SMALL_LIMIT, open));
    }
    let rule = RULES
        .iter()
        .find(|r| path.strip_prefix(r.service) == Some(r.method));
    let limit = rule.map_or(SMALL_LIMIT, |r| r.limit);
    if !tokens.any() {
        return match rule {
            Some(_) => Ok((limit, open)),
            None => Err(no_rule(path)),
        };
    }
    let given = auth.and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("");
    let (roles, identity) = tokens.roles(given.as_bytes());
    if roles == 0 {
        if let Some(name) = tokens
            .issued
            .as_ref()
            .and_then(|i| i.revoked(given.as_bytes()))
        {
            tracing::warn!(path, credential = %name, "request with a revoked credential refused");
            return Err(Status::unauthenticated(format!(
                "credential `{name}` was revoked (gamesweep token revoke): ask the coordinator's admin for a new one"
            )));
        }
        tracing::warn!(path, "request with a missing or wrong token refused");
        return Err(Status::unauthenticated(
            "missing or wrong token: pass the coordinator's token with --token-file",
        ));
    }
    let caller = |role: Role| Caller {
        role: role.name(),
        fingerprint: fingerprint(given.as_bytes()),
        identity: identity.clone(),
    };
    let Some(rule) = rule else {
        // Fail closed: a method without a rule is open to no token.
        return Err(no_rule(path));
    };
    if roles & rule.role.bit() != 0 {
        // Name the strongest role the token has (admin for a lone token).
        let role = [Role::Admin, Role::Worker, Role::Read]
            .into_iter()
            .find(|r| roles & r.bit() != 0)
            .unwrap_or(rule.role);
        return Ok((limit, caller(role)));
    }
    tracing::warn!(path, "request with a token of the wrong role refused");
    Err(Status::permission_denied(format!(
        "this token may not {}: use the {} token",
        rule.does,
        if rule.role == Role::Read {
            "read or admin"
        } else {
            rule.role.name()
        }
    )))
}

/// The refusal of a method without a rule (unknown, or added to the
/// `.proto` without one here), naming it.
fn no_rule(path: &str) -> Status {
    let method = gamesweep_api::quote_prefix(path);
    tracing::warn!(path, "request for a method without an access rule refused");
    Status::permission_denied(format!(
        "method \"{method}\" has no access rule on this coordinator: refused"
    ))
}

impl<S> tower::Service<http::Request<Body>> for Access<S>
where
    S: tower::Service<http::Request<Body>, Response = http::Response<Body>>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<Body>) -> Self::Future {
        let auth = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok());
        let path = req.uri().path().to_string();
        match decide(&self.tokens, &path, auth) {
            Err(status) => Box::pin(async move { Ok(status.into_http()) }),
            Ok((limit, caller)) => {
                let mut req = req.map(|b| Body::new(Capped::new(b, limit, path)));
                req.extensions_mut().insert(caller);
                // The clone that was made ready is the one called.
                let clone = self.inner.clone();
                let mut inner = std::mem::replace(&mut self.inner, clone);
                Box::pin(inner.call(req))
            }
        }
    }
}

/// A request body that fails once more than `left` bytes came in.
struct Capped {
    inner: Body,
    left: usize,
    limit: usize,
    path: String,
}

impl Capped {
    fn new(inner: Body, limit: usize, path: String) -> Self {
        Capped {
            inner,
            left: limit + 5, // the gRPC frame header
            limit,
            path,
        }
    }
}

impl http_body::Body for Capped {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    if data.len() > this.left {
                        let method = this.path.rsplit('/').next().unwrap_or("");
                        return Poll::Ready(Some(Err(Box::new(Status::resource_exhausted(
                            format!(
                                "{method} request larger than the coordinator's limit of {} bytes for it: refused",
                                this.limit
                            ),
                        )))));
                    }
                    this.left -= data.len();
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => Poll::Ready(Some(Err(Box::new(e)))),
            other => other.map(|o| o.map(|r| r.map_err(|e| Box::new(e) as _))),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(s: &str) -> Option<String> {
        Some(s.to_string())
    }

    #[test]
    fn each_role_calls_only_its_methods() {
        let t = Tokens::new(tok("adm"), tok("wrk"), tok("rd")).unwrap();
        let call = |m: &str, token: &str| {
            decide(
                &t,
                &format!("{SERVICE}{m}"),
                Some(&format!("Bearer {token}")),
            )
            .map(|(limit, _)| limit)
            .map_err(|s| (s.code(), s.message().to_string()))
        };
        assert_eq!(call("Submit", "wrk"), Ok(SUBMIT_LIMIT));
        assert_eq!(call("Lease", "wrk"), Ok(SMALL_LIMIT));
        assert_eq!(
            call("Launch", "wrk"),
            Err((
                tonic::Code::PermissionDenied,
                "this token may not launch sweeps: use the admin token".into()
            ))
        );
        assert_eq!(
            call("Status", "wrk").unwrap_err().1,
            "this token may not read sweep status: use the read or admin token"
        );
        assert_eq!(call("Status", "rd"), Ok(SMALL_LIMIT));
        assert_eq!(call("Status", "adm"), Ok(SMALL_LIMIT));
        assert_eq!(
            call("Submit", "rd").unwrap_err().1,
            "this token may not submit shard results: use the worker token"
        );
        assert_eq!(
            call("Submit", "adm").unwrap_err().0,
            tonic::Code::PermissionDenied
        );
        assert_eq!(call("Cancel", "adm"), Ok(SMALL_LIMIT));
        for m in ["Pause", "Resume"] {
            assert_eq!(call(m, "adm"), Ok(SMALL_LIMIT));
            let what = m.to_lowercase();
            assert_eq!(
                call(m, "rd").unwrap_err().1,
                format!("this token may not {what} sweeps: use the admin token")
            );
            assert_eq!(call(m, "wrk").unwrap_err().0, tonic::Code::PermissionDenied);
        }
        assert_eq!(call("Import", "adm"), Ok(IMPORT_LIMIT));
        assert_eq!(
            call("Import", "rd").unwrap_err().1,
            "this token may not import sweeps: use the admin token"
        );
        assert_eq!(
            call("Import", "wrk").unwrap_err().0,
            tonic::Code::PermissionDenied
        );
        assert_eq!(call("Export", "rd"), Ok(SMALL_LIMIT));
        assert_eq!(call("Export", "adm"), Ok(SMALL_LIMIT));
        assert_eq!(
            call("Export", "wrk").unwrap_err().0,
            tonic::Code::PermissionDenied
        );
        assert_eq!(
            call("Cancel", "nope").unwrap_err().0,
            tonic::Code::Unauthenticated
        );
        // Health is open; no token at all is unauthenticated elsewhere.
        assert!(decide(&t, "/grpc.health.v1.Health/Check", None).is_ok());
        let (_, who) = decide(&t, "/gamesweep.v1.Coordinator/Launch", Some("Bearer adm")).unwrap();
        assert_eq!(who.role, "admin");
        assert_eq!(who.fingerprint, fingerprint(b"adm"));
        assert!(!who.fingerprint.contains("adm"), "{}", who.fingerprint);
        assert_eq!(who.fingerprint.len(), "sha256:".len() + 12);
        let audit = |token: &str| {
            decide(
                &t,
                "/gamesweep.v1.Audit/GetAudit",
                Some(&format!("Bearer {token}")),
            )
            .map(|(limit, _)| limit)
            .map_err(|s| s.code())
        };
        assert_eq!(audit("rd"), Ok(SMALL_LIMIT));
        assert_eq!(audit("adm"), Ok(SMALL_LIMIT));
        assert_eq!(audit("wrk"), Err(tonic::Code::PermissionDenied));
        assert_eq!(
            decide(&t, "/gamesweep.v1.Coordinator/Status", None)
                .unwrap_err()
                .code(),
            tonic::Code::Unauthenticated
        );
    }

    #[test]
    fn one_token_does_everything_and_none_is_open() {
        let t = Tokens::new(tok("one"), None, None).unwrap();
        for m in ["Launch", "Submit", "Status", "Cancel", "Fail"] {
            let path = format!("{SERVICE}{m}");
            assert!(decide(&t, &path, Some("Bearer one")).is_ok(), "{m}");
        }
        let open = Tokens::new(None, None, None).unwrap();
        assert!(decide(&open, "/gamesweep.v1.Coordinator/Launch", None).is_ok());
    }

    /// The path a rule matches.
    fn path(r: &Rule) -> String {
        format!("{}{}", r.service, r.method)
    }

    #[test]
    fn every_method_of_the_descriptor_has_exactly_one_rule() {
        let methods = gamesweep_proto::METHODS;
        assert!(methods.len() >= 18, "{methods:?}");
        for m in methods {
            let n = RULES.iter().filter(|r| path(r) == *m).count();
            assert_eq!(n, 1, "{m} has {n} access rules: give it exactly one");
        }
        for r in RULES {
            assert!(
                methods.contains(&path(r).as_str()),
                "the access rule for {} names no method of proto/gamesweep.proto",
                path(r)
            );
        }
        // And each of them is let through to the token of its role.
        let t = Tokens::new(tok("adm"), tok("wrk"), tok("rd")).unwrap();
        for r in RULES {
            let token = match r.role {
                Role::Admin => "Bearer adm",
                Role::Worker => "Bearer wrk",
                Role::Read => "Bearer rd",
            };
            assert_eq!(decide(&t, &path(r), Some(token)).unwrap().0, r.limit);
        }
    }

    #[test]
    fn a_method_without_a_rule_is_refused() {
        let roles = Tokens::new(tok("adm"), tok("wrk"), tok("rd")).unwrap();
        let one = Tokens::new(tok("one"), None, None).unwrap();
        let open = Tokens::new(None, None, None).unwrap();
        for p in [
            "/gamesweep.v1.Coordinator/Frobnicate",
            "/gamesweep.v1.Coordinator/GetAudit",
            "/gamesweep.v1.Audit/Launch",
            "/gamesweep.v1.Other/Status",
            "/Launch",
            "",
        ] {
            for (tokens, auth) in [
                (&roles, Some("Bearer adm")),
                (&roles, Some("Bearer wrk")),
                (&roles, Some("Bearer rd")),
                (&one, Some("Bearer one")),
                (&open, None),
            ] {
                let e = decide(tokens, p, auth).unwrap_err();
                assert_eq!(e.code(), tonic::Code::PermissionDenied, "{p} {auth:?}");
                assert_eq!(
                    e.message(),
                    format!("method \"{p}\" has no access rule on this coordinator: refused")
                );
            }
            // A wrong token is still told it is wrong first.
            let e = decide(&roles, p, Some("Bearer nope")).unwrap_err();
            assert_eq!(e.code(), tonic::Code::Unauthenticated, "{p}");
        }
    }

    #[test]
    fn bad_token_sets_are_refused() {
        assert_eq!(
            Tokens::new(None, tok("w"), None).unwrap_err().to_string(),
            "--worker-token-file and --read-token-file need --token-file (the admin token)"
        );
        let e = Tokens::new(tok("same"), tok("same"), None)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("the worker token is the same"), "{e}");
    }
}
