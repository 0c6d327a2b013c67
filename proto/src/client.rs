//! Client side of the protocol: a channel to a coordinator with the bearer
//! token attached to every request ([`Client`], the generated client), and
//! [`Remote`], the typed client for the user-facing RPCs: it takes and
//! returns [`gamesweep_api::domain`] types and maps tonic's errors to [`RpcError`].

use crate::convert::ConvertError;
use crate::pb;
use crate::pb::audit_client::AuditClient;
use crate::pb::coordinator_client::CoordinatorClient;
use gamesweep_api::domain::{
    AuditRecord, ImportOptions, Imported, LaunchSpec, Launched, Overview, ProjectionText,
    RenderedSweep,
};
use std::time::Duration;
use tonic::metadata::{Ascii, MetadataValue};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

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
    /// TLS files given for a plain `http://` URL (they would be ignored).
    #[error("--tls-ca/--tls-cert/--tls-key given but the coordinator URL `{0}` is plain http: use https://HOST:PORT")]
    TlsWithoutHttps(String),
    /// A TLS file cannot be read or used.
    #[error("{0}")]
    Tls(String),
}

/// Environment variable: the CA certificate a client trusts (`--tls-ca`).
pub const ENV_TLS_CA: &str = "GAMESWEEP_TLS_CA";
/// Environment variable: a client's certificate (`--tls-cert`).
pub const ENV_TLS_CERT: &str = "GAMESWEEP_TLS_CERT";
/// Environment variable: a client's private key (`--tls-key`).
pub const ENV_TLS_KEY: &str = "GAMESWEEP_TLS_KEY";

/// The PEM files a client uses for TLS (all optional): the CA that signed
/// the coordinator's certificate (none: the compiled-in webpki roots), and
/// a client certificate and key for a coordinator that asks for one.
///
/// Also the clients' `--tls-ca`, `--tls-cert` and `--tls-key` options (and
/// their environment variables), flattened into every command that connects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct TlsFiles {
    /// CA certificate (PEM) that signed the coordinator's TLS certificate, for an https:// URL [default: the webpki roots].
    #[cfg_attr(
        feature = "cli",
        arg(id = "tls_ca", long = "tls-ca", env = ENV_TLS_CA, value_name = "PEM")
    )]
    pub ca: Option<std::path::PathBuf>,
    /// Client certificate (PEM) for a coordinator that asks for one (serve --tls-client-ca).
    #[cfg_attr(
        feature = "cli",
        arg(
            id = "tls_cert",
            long = "tls-cert",
            env = ENV_TLS_CERT,
            value_name = "PEM",
            requires = "tls_key"
        )
    )]
    pub cert: Option<std::path::PathBuf>,
    /// The client certificate's private key (PEM).
    #[cfg_attr(
        feature = "cli",
        arg(
            id = "tls_key",
            long = "tls-key",
            env = ENV_TLS_KEY,
            value_name = "PEM",
            requires = "tls_cert"
        )
    )]
    pub key: Option<std::path::PathBuf>,
}

impl TlsFiles {
    /// Whether any file is given.
    pub fn any(&self) -> bool {
        self.ca.is_some() || self.cert.is_some() || self.key.is_some()
    }
}

/// How a client reaches a coordinator: the bearer token and TLS files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientOptions {
    /// Bearer token sent with every request.
    pub token: Option<String>,
    /// TLS files (used with `https://` URLs only).
    pub tls: TlsFiles,
}

impl ClientOptions {
    /// Options with just a token.
    pub fn token(token: Option<&str>) -> Self {
        ClientOptions {
            token: token.map(str::to_string),
            tls: TlsFiles::default(),
        }
    }
}

/// The longest any call may take (a submit of a large result over a slow
/// link, a render of a big report); a coordinator that does not answer
/// within it (overloaded, stopped) fails the call instead of hanging it.
pub const CALL_DEADLINE: Duration = Duration::from_secs(60);
/// The chunk size of an export file sent or received (well below every
/// message limit).
pub const IMPORT_CHUNK: usize = 1 << 20;
/// The deadline of the quick user calls (status, cancel, projection, audit).
pub const QUICK_DEADLINE: Duration = Duration::from_secs(20);
/// HTTP/2 keepalive ping interval (a dead peer is noticed within this plus
/// [`KEEPALIVE_TIMEOUT`] even between calls).
pub const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(30);
/// How long a keepalive ping may go unanswered.
pub const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(20);

/// A client for `url` that connects lazily (and reconnects by itself after
/// the coordinator was unreachable), sending the token of `opts` with every
/// request. An `https://` URL always uses TLS (never plain text), trusting
/// `opts.tls.ca` or else the webpki roots; every call has a deadline
/// ([`CALL_DEADLINE`]) and the connection sends HTTP/2 keepalives.
pub fn connect_lazy(url: &str, opts: &ClientOptions) -> Result<Client, ClientError> {
    let (channel, auth) = channel(url, opts)?;
    Ok(CoordinatorClient::with_interceptor(channel, auth)
        .max_decoding_message_size(256 << 20)
        .max_encoding_message_size(256 << 20))
}

/// The lazily connecting channel of [`connect_lazy`] and its bearer token.
fn channel(url: &str, opts: &ClientOptions) -> Result<(Channel, BearerAuth), ClientError> {
    let mut endpoint = Endpoint::from_shared(url.to_string())
        .map_err(|_| ClientError::BadUrl(url.to_string()))?
        .connect_timeout(Duration::from_secs(3))
        .timeout(CALL_DEADLINE)
        .http2_keep_alive_interval(KEEPALIVE_INTERVAL)
        .keep_alive_timeout(KEEPALIVE_TIMEOUT)
        .keep_alive_while_idle(true)
        .tcp_nodelay(true);
    if url.starts_with("https://") {
        endpoint = endpoint
            .tls_config(client_tls(&opts.tls)?)
            .map_err(|e| ClientError::Tls(format!("TLS setup for {url}: {e}")))?;
    } else if url.starts_with("http://") {
        if opts.tls.any() {
            return Err(ClientError::TlsWithoutHttps(url.to_string()));
        }
    } else {
        return Err(ClientError::BadUrl(url.to_string()));
    }
    let auth = match &opts.token {
        Some(t) => Some(
            format!("Bearer {t}")
                .parse::<MetadataValue<Ascii>>()
                .map_err(|_| ClientError::BadToken)?,
        ),
        None => None,
    };
    Ok((endpoint.connect_lazy(), BearerAuth(auth)))
}

/// Read a PEM file named by option `option`.
fn read_pem(option: &str, path: &std::path::Path) -> Result<Vec<u8>, ClientError> {
    let pem = std::fs::read(path)
        .map_err(|e| ClientError::Tls(format!("cannot read {option} {}: {e}", path.display())))?;
    if !String::from_utf8_lossy(&pem).contains("-----BEGIN ") {
        return Err(ClientError::Tls(format!(
            "{option} {} is not a PEM file (no -----BEGIN line)",
            path.display()
        )));
    }
    Ok(pem)
}

/// The client TLS settings of `files`.
fn client_tls(files: &TlsFiles) -> Result<ClientTlsConfig, ClientError> {
    let mut tls = ClientTlsConfig::new();
    tls = match &files.ca {
        Some(ca) => tls.ca_certificate(Certificate::from_pem(read_pem("--tls-ca", ca)?)),
        None => tls.with_webpki_roots(),
    };
    match (&files.cert, &files.key) {
        (Some(cert), Some(key)) => {
            tls = tls.identity(Identity::from_pem(
                read_pem("--tls-cert", cert)?,
                read_pem("--tls-key", key)?,
            ));
        }
        (None, None) => {}
        _ => {
            return Err(ClientError::Tls(
                "--tls-cert and --tls-key go together (a client certificate and its key)".into(),
            ))
        }
    }
    Ok(tls)
}

/// A failed call of the [`Remote`] client, by what the caller can do about it.
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
    /// The coordinator accepted the connection but did not answer in time
    /// (overloaded, or stopped).
    #[error(
        "the coordinator at {url} did not answer within {secs} s (is it overloaded or stopped?)"
    )]
    Deadline {
        /// The coordinator URL.
        url: String,
        /// The deadline, in seconds.
        secs: u64,
    },
    /// The token is missing or wrong, or may not make this call.
    #[error("{0}")]
    Denied(String),
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

    fn from_status(url: &str, s: tonic::Status, deadline: Duration) -> Self {
        let message = status_message(&s);
        let timed_out = s.code() == tonic::Code::DeadlineExceeded
            || (s.code() == tonic::Code::Cancelled && message.contains("Timeout expired"));
        if timed_out {
            return RpcError::Deadline {
                url: url.to_string(),
                secs: deadline.as_secs(),
            };
        }
        // A connection that failed, whatever code hyper's error became.
        let transport = matches!(
            s.code(),
            tonic::Code::Unknown | tonic::Code::Cancelled | tonic::Code::Internal
        ) && (message.contains("transport error")
            || message.contains("h2 protocol error"));
        if transport {
            return RpcError::Unreachable {
                url: url.to_string(),
                message: format!("{message}{}", transport_hint(url, &message)),
            };
        }
        match s.code() {
            tonic::Code::Unavailable => RpcError::Unreachable {
                url: url.to_string(),
                message: format!("{message}{}", transport_hint(url, &message)),
            },
            tonic::Code::Unauthenticated | tonic::Code::PermissionDenied => {
                RpcError::Denied(message)
            }
            tonic::Code::NotFound => RpcError::NotFound(message),
            tonic::Code::AlreadyExists => RpcError::AlreadyExists(message),
            tonic::Code::InvalidArgument => RpcError::InvalidArgument(message),
            code => RpcError::Failed { code, message },
        }
    }
}

/// A hint for a transport failure that looks like a TLS mismatch: an
/// `https://` URL whose handshake failed, or a plain `http://` URL whose
/// connection the server dropped (a TLS server does that to plain text).
fn transport_hint(url: &str, message: &str) -> &'static str {
    let m = message.to_ascii_lowercase();
    if url.starts_with("https://") {
        if m.contains("certificaterequired") {
            return "; the coordinator wants a client certificate: pass --tls-cert and --tls-key (or $GAMESWEEP_TLS_CERT, $GAMESWEEP_TLS_KEY)";
        }
        if m.contains("certificate") || m.contains("unknownissuer") || m.contains("badsignature") {
            return "; the coordinator's certificate is not trusted: pass the CA that signed it with --tls-ca (or $GAMESWEEP_TLS_CA)";
        }
        if m.contains("corrupt message")
            || m.contains("invalidcontenttype")
            || m.contains("tls")
            || m.contains("handshake")
        {
            return "; TLS handshake failed: is the coordinator serving TLS (serve --tls-cert/--tls-key), and does it want a client certificate (--tls-cert/--tls-key)?";
        }
    } else if m.ends_with("connection closed")
        || m.contains("connection reset")
        || m.contains("broken pipe")
        || m.contains("frame with invalid size")
        || m.contains("protocol error")
    {
        if answers_http1(url) {
            return "; that address answers plain HTTP/1.1 like a web page (the dashboard of `serve --http`?), not gRPC: point --coordinator at the coordinator's `serve --listen` address (default port 7461)";
        }
        return "; if the coordinator serves TLS, use an https:// URL";
    }
    ""
}

/// Whether the server at `url` (an `http://` URL) answers an HTTP/1.1
/// request with an HTTP/1.1 response, as a web server (the dashboard) does
/// and a gRPC server (HTTP/2 only) does not. Gives up (false) after about
/// a second; called on an error path only.
fn answers_http1(url: &str) -> bool {
    use std::io::{Read as _, Write as _};
    let Some(rest) = url.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split('/').next().unwrap_or("");
    let Some(addr) = std::net::ToSocketAddrs::to_socket_addrs(authority)
        .ok()
        .and_then(|mut a| a.next())
    else {
        return false;
    };
    let limit = Duration::from_millis(500);
    let Ok(mut s) = std::net::TcpStream::connect_timeout(&addr, limit) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(limit));
    let _ = s.set_write_timeout(Some(limit));
    let request = format!("GET / HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n");
    let mut head = [0u8; 7];
    s.write_all(request.as_bytes()).is_ok()
        && s.read_exact(&mut head).is_ok()
        && &head == b"HTTP/1."
}

/// Whether the server at `url` (an `http://` URL) answers a TLS
/// ClientHello with a TLS record (a ServerHello or an alert): then the URL
/// should have been `https://`. A plain gRPC server answers the hello with
/// an HTTP/2 error or not at all. Gives up (false) after about 2 s.
pub async fn speaks_tls(url: &str) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Some(rest) = url.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split('/').next().unwrap_or("");
    let addr = if authority
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
    {
        authority.to_string()
    } else {
        format!("{authority}:80")
    };
    let probe = async {
        let mut s = tokio::net::TcpStream::connect(&addr).await.ok()?;
        s.write_all(&client_hello()).await.ok()?;
        let mut head = [0u8; 2];
        s.read_exact(&mut head).await.ok()?;
        // Record type handshake (22) or alert (21), protocol major 3.
        Some(matches!(head, [0x15 | 0x16, 0x03]))
    };
    matches!(
        tokio::time::timeout(Duration::from_secs(2), probe).await,
        Ok(Some(true))
    )
}

/// A TLS 1.3 ClientHello (TLS 1.2 suites too), X25519 key share: enough for
/// any TLS server to answer with a record of its own.
fn client_hello() -> Vec<u8> {
    let mut ext = Vec::new();
    let mut push_ext = |typ: u16, body: &[u8]| {
        ext.extend_from_slice(&typ.to_be_bytes());
        ext.extend_from_slice(&(body.len() as u16).to_be_bytes());
        ext.extend_from_slice(body);
    };
    push_ext(0x002b, &[4, 0x03, 0x04, 0x03, 0x03]); // supported_versions
    push_ext(0x000a, &[0, 4, 0x00, 0x1d, 0x00, 0x17]); // groups: x25519, p256
    push_ext(
        0x000d,
        &[0, 8, 0x04, 0x03, 0x08, 0x04, 0x04, 0x01, 0x08, 0x07],
    ); // signature algorithms
    let mut share = vec![0, 36, 0x00, 0x1d, 0, 32];
    share.extend_from_slice(&[9u8; 32]);
    push_ext(0x0033, &share); // key_share
    let mut hello = vec![0x03, 0x03];
    hello.extend_from_slice(&[7u8; 32]); // random
    hello.push(0); // session id
    let suites: [u16; 5] = [0x1301, 0x1302, 0x1303, 0xc02f, 0xc02b];
    hello.extend_from_slice(&((suites.len() * 2) as u16).to_be_bytes());
    for c in suites {
        hello.extend_from_slice(&c.to_be_bytes());
    }
    hello.extend_from_slice(&[1, 0]); // compression: null
    hello.extend_from_slice(&(ext.len() as u16).to_be_bytes());
    hello.extend_from_slice(&ext);
    let mut hs = vec![0x01];
    hs.extend_from_slice(&(hello.len() as u32).to_be_bytes()[1..]);
    hs.extend_from_slice(&hello);
    let mut rec = vec![0x16, 0x03, 0x01];
    rec.extend_from_slice(&(hs.len() as u16).to_be_bytes());
    rec.extend_from_slice(&hs);
    rec
}

/// The message for a plain `http://` URL whose server speaks TLS.
pub fn use_https(url: &str) -> String {
    format!(
        "the coordinator at {url} speaks TLS: use https://{}",
        url.strip_prefix("http://").unwrap_or(url)
    )
}

/// A status's message on one line (the coordinator's messages may span
/// several), its control characters escaped, followed by the chain of errors that caused it: a bare
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
    // From the network: printed, it must not drive the terminal.
    gamesweep_api::text::escape_controls(&message.replace('\n', " "))
}

/// The typed client of a coordinator's user-facing RPCs (launch, status,
/// cancel, result, projection): domain types in, domain types out.
#[derive(Clone)]
pub struct Remote {
    client: Client,
    audit: AuditClient<InterceptedService<Channel, BearerAuth>>,
    url: String,
}

impl Remote {
    /// A client for `url` with `opts` (see [`connect_lazy`]); call within
    /// a tokio runtime.
    pub fn connect_lazy(url: &str, opts: &ClientOptions) -> Result<Self, ClientError> {
        let (channel, auth) = channel(url, opts)?;
        Ok(Remote {
            client: CoordinatorClient::with_interceptor(channel.clone(), auth.clone())
                .max_decoding_message_size(256 << 20)
                .max_encoding_message_size(256 << 20),
            audit: AuditClient::with_interceptor(channel, auth),
            url: url.to_string(),
        })
    }

    /// The coordinator's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    fn rpc(&self, s: tonic::Status) -> RpcError {
        RpcError::from_status(&self.url, s, CALL_DEADLINE)
    }

    fn quick_rpc(&self, s: tonic::Status) -> RpcError {
        RpcError::from_status(&self.url, s, QUICK_DEADLINE)
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
    pub async fn status(&mut self, sweep_id: Option<&str>) -> Result<Overview, RpcError> {
        let req = quick(pb::StatusRequest {
            sweep_id: sweep_id.unwrap_or_default().to_string(),
        });
        let reply = self
            .client
            .status(req)
            .await
            .map_err(|s| self.quick_rpc(s))?;
        Overview::try_from(reply.into_inner()).map_err(|e| self.malformed(e))
    }

    /// Sweep `sweep_id` as an export file (the coordinator streams it in chunks).
    pub async fn export(&mut self, sweep_id: &str) -> Result<Vec<u8>, RpcError> {
        let req = pb::ExportRequest {
            sweep_id: sweep_id.to_string(),
        };
        let mut stream = self
            .client
            .export(req)
            .await
            .map_err(|s| self.rpc(s))?
            .into_inner();
        let mut bytes = Vec::new();
        while let Some(chunk) = stream.message().await.map_err(|s| self.rpc(s))? {
            bytes.extend_from_slice(&chunk.data);
        }
        Ok(bytes)
    }

    /// Send export file `bytes` to the coordinator in chunks of
    /// [`IMPORT_CHUNK`] bytes, to import as `opts` says (the options travel
    /// in the first chunk).
    pub async fn import(
        &mut self,
        bytes: Vec<u8>,
        opts: &ImportOptions,
    ) -> Result<Imported, RpcError> {
        let chunks: Vec<pb::ImportChunk> = bytes
            .chunks(IMPORT_CHUNK)
            .enumerate()
            .map(|(i, c)| {
                let first = i == 0;
                pb::ImportChunk {
                    data: c.to_vec(),
                    rename: opts.rename.clone().filter(|_| first).unwrap_or_default(),
                    require_signature: first && opts.require_signature,
                    verify_ppm: opts.verify_ppm.filter(|_| first),
                }
            })
            .collect();
        let reply = self
            .client
            .import(tokio_stream::iter(chunks))
            .await
            .map_err(|s| self.rpc(s))?;
        Ok(reply.into_inner().into())
    }

    /// Stop handing out a sweep's shards.
    pub async fn cancel(&mut self, sweep_id: &str) -> Result<(), RpcError> {
        let req = quick(pb::CancelRequest {
            sweep_id: sweep_id.to_string(),
        });
        self.client
            .cancel(req)
            .await
            .map_err(|s| self.quick_rpc(s))?;
        Ok(())
    }

    /// Issue a credential `name` with `role` (`worker` or `read`): the reply
    /// holds its secret, shown once.
    pub async fn issue_credential(
        &mut self,
        name: &str,
        role: &str,
    ) -> Result<pb::IssueCredentialReply, RpcError> {
        let req = quick(pb::IssueCredentialRequest {
            name: name.to_string(),
            role: role.to_string(),
        });
        let r = self
            .client
            .issue_credential(req)
            .await
            .map_err(|s| self.quick_rpc(s))?;
        Ok(r.into_inner())
    }

    /// Every issued credential (revoked ones too).
    pub async fn list_credentials(&mut self) -> Result<Vec<pb::CredentialInfo>, RpcError> {
        let req = quick(pb::ListCredentialsRequest {});
        let r = self
            .client
            .list_credentials(req)
            .await
            .map_err(|s| self.quick_rpc(s))?;
        Ok(r.into_inner().credentials)
    }

    /// Revoke credential `name`.
    pub async fn revoke_credential(&mut self, name: &str) -> Result<(), RpcError> {
        let req = quick(pb::RevokeCredentialRequest {
            name: name.to_string(),
        });
        self.client
            .revoke_credential(req)
            .await
            .map_err(|s| self.quick_rpc(s))?;
        Ok(())
    }

    /// Stop handing out a sweep's shards for now (`resume` hands them out again).
    pub async fn pause(&mut self, sweep_id: &str) -> Result<(), RpcError> {
        let req = quick(pb::PauseRequest {
            sweep_id: sweep_id.to_string(),
        });
        self.client
            .pause(req)
            .await
            .map_err(|s| self.quick_rpc(s))?;
        Ok(())
    }

    /// Hand out a paused sweep's shards again.
    pub async fn resume(&mut self, sweep_id: &str) -> Result<(), RpcError> {
        let req = quick(pb::ResumeRequest {
            sweep_id: sweep_id.to_string(),
        });
        self.client
            .resume(req)
            .await
            .map_err(|s| self.quick_rpc(s))?;
        Ok(())
    }

    /// A finished sweep's rendered result.
    pub async fn result(&mut self, sweep_id: &str) -> Result<RenderedSweep, RpcError> {
        let req = pb::GetResultRequest {
            sweep_id: sweep_id.to_string(),
        };
        let reply = self.client.get_result(req).await.map_err(|s| self.rpc(s))?;
        RenderedSweep::try_from(reply.into_inner()).map_err(|e| self.malformed(e))
    }

    /// A sampled sweep's projection for `cores` (empty: the coordinator's own).
    pub async fn projection(
        &mut self,
        sweep_id: &str,
        cores: Vec<u32>,
    ) -> Result<ProjectionText, RpcError> {
        let req = quick(pb::GetProjectionRequest {
            sweep_id: sweep_id.to_string(),
            cores,
        });
        let reply = self
            .client
            .get_projection(req)
            .await
            .map_err(|s| self.quick_rpc(s))?;
        Ok(reply.into_inner().into())
    }
}

impl Remote {
    /// The most recent `limit` entries of the coordinator's audit log (0:
    /// its default), oldest first.
    pub async fn audit(&mut self, limit: u32) -> Result<Vec<AuditRecord>, RpcError> {
        let reply = self
            .audit
            .get_audit(quick(pb::GetAuditRequest { limit }))
            .await
            .map_err(|s| self.quick_rpc(s))?;
        Ok(reply
            .into_inner()
            .entries
            .into_iter()
            .map(AuditRecord::from)
            .collect())
    }
}

/// `msg` as a request with the [`QUICK_DEADLINE`] (shorter than the
/// channel's [`CALL_DEADLINE`], which bounds every call).
fn quick<T>(msg: T) -> tonic::Request<T> {
    let mut req = tonic::Request::new(msg);
    req.set_timeout(QUICK_DEADLINE);
    req
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
        let e = RpcError::from_status("http://h:1", s, CALL_DEADLINE);
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
