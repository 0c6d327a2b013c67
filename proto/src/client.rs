//! Client side of the protocol: a channel to a coordinator with the bearer
//! token attached to every request.

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

/// The solver version of this build: crate version plus the deterministic
/// build id of the solver sources (`gamesweep::BUILD_ID`).
pub fn solver_version() -> String {
    format!("{}+{}", gamesweep::CRATE_VERSION, gamesweep::BUILD_ID)
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
