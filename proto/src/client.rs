//! Client side of the protocol: a channel to a coordinator with the bearer
//! token attached to every request ([`Client`], the generated client), and
//! [`Coordinator`], the typed client for the user-facing RPCs: it takes and
//! returns [`crate::domain`] types and maps tonic's errors to [`RpcError`].

use crate::convert::ConvertError;
use crate::domain::{LaunchSpec, Launched, ProjectionText, StatusReport, SweepReport};
use crate::pb;
use crate::pb::coordinator_client::CoordinatorClient;
use tonic::metadata::{Ascii, MetadataValue};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Channel, Endpoint};

/// Adds `authorization: Bearer <token>` to every request (if a token is set).
#[derive(Clone)]
pub struct BearerAuth(Option<MetadataValue<Ascii>>);

impl tonic::service::Interceptor for BearerAuth {
    fn call(&mut self, mut req: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        if let Some(v) = &self.0 {
            req.metadata_mut().insert("authorization", v.clone());
        }
        Ok(req)
    }
}

/// A coordinator client.
pub type Client = CoordinatorClient<InterceptedService<Channel, BearerAuth>>;

/// Errors setting up a client.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The URL does not parse.
    #[error("bad coordinator URL `{0}`: expected e.g. http://127.0.0.1:7461")]
    BadUrl(String),
    /// The token has characters that cannot go in a header.
    #[error("the token contains characters not allowed in an HTTP header (use printable ASCII)")]
    BadToken,
}

/// A client for `url` that connects lazily (and reconnects by itself after
/// the coordinator was unreachable), sending `token` with every request.
pub fn connect_lazy(url: &str, token: Option<&str>) -> Result<Client, ClientError> {
    let endpoint = Endpoint::from_shared(url.to_string())
        .map_err(|_| ClientError::BadUrl(url.to_string()))?
        .connect_timeout(std::time::Duration::from_secs(3))
        .tcp_nodelay(true);
    if !url.starts_with("http://") && !url.starts_with("https://") {
        return Err(ClientError::BadUrl(url.to_string()));
    }
    let auth = match token {
        Some(t) => Some(
            format!("Bearer {t}")
                .parse::<MetadataValue<Ascii>>()
                .map_err(|_| ClientError::BadToken)?,
        ),
        None => None,
    };
    let channel = endpoint.connect_lazy();
    Ok(
        CoordinatorClient::with_interceptor(channel, BearerAuth(auth))
            .max_decoding_message_size(256 << 20)
            .max_encoding_message_size(256 << 20),
    )
}

/// A failed call of the [`Coordinator`] client, by what the caller can do about it.
#[derive(Debug, thiserror::Error)]
pub enum RpcError {
    /// Nothing answered at the URL (or not in time).
    #[error("cannot reach the coordinator at {url} ({message}); start one with `gamesweep serve --store DIR` or point --coordinator / GAMESWEEP_COORDINATOR at it")]
    Unreachable {
        /// The coordinator URL.
        url: String,
        /// What the transport said.
        message: String,
    },
    /// The request names a sweep that does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The request would create a sweep that exists already.
    #[error("{0}")]
    AlreadyExists(String),
    /// The coordinator refused the request's contents.
    #[error("{0}")]
    InvalidArgument(String),
    /// Any other refusal or failure on the coordinator's side.
    #[error("{message}")]
    Failed {
        /// The gRPC status code.
        code: tonic::Code,
        /// The coordinator's message.
        message: String,
    },
    /// The reply does not describe a valid domain value.
    #[error("the coordinator at {url} sent a malformed reply: {source}")]
    Malformed {
        /// The coordinator URL.
        url: String,
        /// What is wrong with it.
        source: ConvertError,
    },
}

impl RpcError {
    /// The request itself was wrong (a missing or existing sweep, bad
    /// parameters): the user's input, not a failure while running.
    pub fn is_rejection(&self) -> bool {
        matches!(
            self,
            RpcError::NotFound(_) | RpcError::AlreadyExists(_) | RpcError::InvalidArgument(_)
        )
    }

    fn from_status(url: &str, s: tonic::Status) -> Self {
        let message = status_message(&s);
        match s.code() {
            tonic::Code::Unavailable | tonic::Code::DeadlineExceeded => RpcError::Unreachable {
                url: url.to_string(),
                message,
            },
            tonic::Code::NotFound => RpcError::NotFound(message),
            tonic::Code::AlreadyExists => RpcError::AlreadyExists(message),
            tonic::Code::InvalidArgument => RpcError::InvalidArgument(message),
            code => RpcError::Failed { code, message },
        }
    }
}

/// A status's message on one line (the coordinator's messages may span
/// several), followed by the chain of errors that caused it: a bare
/// "transport error" then says what happened to the connection (e.g.
/// "connection closed before message completed").
pub fn status_message(s: &tonic::Status) -> String {
    let mut message = s.message().to_string();
    let mut cause = std::error::Error::source(s);
    while let Some(e) = cause {
        let text = e.to_string();
        // hyper and tonic often repeat their source's text in their own.
        if !text.is_empty() && !message.contains(&text) {
            message = format!("{message}: {text}");
        }
        cause = e.source();
    }
    message.replace('\n', " ")
}

/// The typed client of a coordinator's user-facing RPCs (launch, status,
/// cancel, result, projection): domain types in, domain types out.
#[derive(Clone)]
pub struct Coordinator {
    client: Client,
    url: String,
}

impl Coordinator {
    /// A client for `url` sending `token` (see [`connect_lazy`]); call within
    /// a tokio runtime.
    pub fn connect_lazy(url: &str, token: Option<&str>) -> Result<Self, ClientError> {
        Ok(Coordinator {
            client: connect_lazy(url, token)?,
            url: url.to_string(),
        })
    }

    /// The coordinator's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    fn rpc(&self, s: tonic::Status) -> RpcError {
        RpcError::from_status(&self.url, s)
    }

    fn malformed(&self, source: ConvertError) -> RpcError {
        RpcError::Malformed {
            url: self.url.clone(),
            source,
        }
    }

    /// Plan a sweep (or return the existing one, per `spec.resume_existing`).
    pub async fn launch(&mut self, spec: LaunchSpec) -> Result<Launched, RpcError> {
        let reply = self.client.launch(pb::LaunchRequest::from(spec)).await;
        Ok(reply.map_err(|s| self.rpc(s))?.into_inner().into())
    }

    /// Status of sweep `sweep_id`, or of all sweeps.
    pub async fn status(&mut self, sweep_id: Option<&str>) -> Result<StatusReport, RpcError> {
        let req = pb::StatusRequest {
            sweep_id: sweep_id.unwrap_or_default().to_string(),
        };
        let reply = self.client.status(req).await.map_err(|s| self.rpc(s))?;
        StatusReport::try_from(reply.into_inner()).map_err(|e| self.malformed(e))
    }

    /// Stop handing out a sweep's shards.
    pub async fn cancel(&mut self, sweep_id: &str) -> Result<(), RpcError> {
        let req = pb::CancelRequest {
            sweep_id: sweep_id.to_string(),
        };
        self.client.cancel(req).await.map_err(|s| self.rpc(s))?;
        Ok(())
    }

    /// A finished sweep's rendered result.
    pub async fn result(&mut self, sweep_id: &str) -> Result<SweepReport, RpcError> {
        let req = pb::GetResultRequest {
            sweep_id: sweep_id.to_string(),
        };
        let reply = self.client.get_result(req).await.map_err(|s| self.rpc(s))?;
        SweepReport::try_from(reply.into_inner()).map_err(|e| self.malformed(e))
    }

    /// A sampled sweep's projection for `cores` (empty: the coordinator's own).
    pub async fn projection(
        &mut self,
        sweep_id: &str,
        cores: Vec<u32>,
    ) -> Result<ProjectionText, RpcError> {
        let req = pb::GetProjectionRequest {
            sweep_id: sweep_id.to_string(),
            cores,
        };
        let reply = self
            .client
            .get_projection(req)
            .await
            .map_err(|s| self.rpc(s))?;
        Ok(reply.into_inner().into())
    }
}

/// This build's solver versions: `kind=version` for every registered kind,
/// sorted, joined by `,`. Workers send it with every request; a coordinator
/// serves a worker the shards of a sweep only if the worker's version of that
/// sweep's kind equals the one the sweep was launched with
/// ([`version_for`]), so a change to one kind never stops workers from
/// serving the others.
pub fn solver_version() -> String {
    let mut v: Vec<String> = gamesweep::kinds::registry()
        .iter()
        .map(|k| format!("{}={}", k.name(), k.version()))
        .collect();
    v.sort();
    v.join(",")
}

/// The version of `kind` in a worker's [`solver_version`] list.
pub fn version_for<'a>(versions: &'a str, kind: &str) -> Option<&'a str> {
    versions
        .split(',')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == kind)
        .map(|(_, v)| v)
}

/// Read a token file: its first line, trimmed. An empty token is refused.
pub fn read_token_file(path: &std::path::Path) -> Result<String, std::io::Error> {
    let text = std::fs::read_to_string(path)?;
    let t = text.lines().next().unwrap_or("").trim().to_string();
    if t.is_empty() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("token file {} is empty", path.display()),
        ));
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_transport_error_says_what_happened() {
        let mut s = tonic::Status::unavailable("transport error");
        let cause = std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "connection closed before message completed",
        );
        s.set_source(Arc::new(cause));
        let e = RpcError::from_status("http://h:1", s);
        assert_eq!(
            e.to_string(),
            "cannot reach the coordinator at http://h:1 (transport error: connection closed \
             before message completed); start one with `gamesweep serve --store DIR` or point \
             --coordinator / GAMESWEEP_COORDINATOR at it"
        );
        // A cause repeating the message adds nothing; lines are joined.
        let mut s = tonic::Status::internal("boom\nbang");
        s.set_source(Arc::new(std::io::Error::other("boom")));
        assert_eq!(status_message(&s), "boom bang");
    }
}
