//! Talking to a coordinator from the command line: the connection options
//! (`--coordinator URL`, default `$GAMESWEEP_COORDINATOR`, else
//! `http://127.0.0.1:7461`; `--token-file F`, default `$GAMESWEEP_TOKEN_FILE`,
//! else `~/.gamesweep/token` if it exists; `--tls-ca`, `--tls-cert`,
//! `--tls-key` for https), the token, the client runtime,
//! and the typed client ([`gamesweep_proto::Remote`]). Nothing here
//! renders anything.

use crate::error::UsageError;
use gamesweep_proto::Remote;
use std::path::PathBuf;

/// Where the coordinator is and how to authenticate.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Conn {
    /// Coordinator URL [default: http://127.0.0.1:7461].
    #[arg(long, env = "GAMESWEEP_COORDINATOR", value_name = "URL")]
    pub coordinator: Option<String>,
    /// File holding the coordinator's bearer token (first line) [default: ~/.gamesweep/token if it exists].
    #[arg(long, env = "GAMESWEEP_TOKEN_FILE", value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// TLS files: `--tls-ca`, `--tls-cert`, `--tls-key`.
    #[command(flatten)]
    pub tls: gamesweep_proto::TlsFiles,
}

impl Conn {
    /// The same options as clap arguments, for commands that build their
    /// command line at run time (`launch KIND ...`).
    pub fn args(c: clap::Command) -> clap::Command {
        c.arg(
            clap::Arg::new("coordinator")
                .long("coordinator")
                .value_name("URL")
                .env(gamesweep_proto::ENV_COORDINATOR)
                .help("Coordinator URL [default: http://127.0.0.1:7461]"),
        )
        .arg(
            clap::Arg::new("token_file")
                .long("token-file")
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .env(gamesweep_proto::ENV_TOKEN_FILE)
                .help("File holding the bearer token [default: ~/.gamesweep/token if it exists]"),
        )
        .arg(pem_arg("tls_ca", "tls-ca", gamesweep_proto::ENV_TLS_CA, "CA certificate (PEM) that signed the coordinator's TLS certificate, for an https:// URL [default: the webpki roots]"))
        .arg(pem_arg("tls_cert", "tls-cert", gamesweep_proto::ENV_TLS_CERT, "Client certificate (PEM) for a coordinator that asks for one").requires("tls_key"))
        .arg(pem_arg("tls_key", "tls-key", gamesweep_proto::ENV_TLS_KEY, "The client certificate's private key (PEM)").requires("tls_cert"))
    }

    /// The options [`Conn::args`] parsed.
    pub fn from_matches(m: &clap::ArgMatches) -> Self {
        Conn {
            coordinator: m.get_one::<String>("coordinator").cloned(),
            token_file: m.get_one::<PathBuf>("token_file").cloned(),
            tls: gamesweep_proto::TlsFiles {
                ca: m.get_one::<PathBuf>("tls_ca").cloned(),
                cert: m.get_one::<PathBuf>("tls_cert").cloned(),
                key: m.get_one::<PathBuf>("tls_key").cloned(),
            },
        }
    }

    /// The TLS files given.
    pub fn tls(&self) -> gamesweep_proto::TlsFiles {
        self.tls.clone()
    }
}

/// A `--LONG PEM` option (id `id`) read from `env` too.
fn pem_arg(
    id: &'static str,
    long: &'static str,
    env: &'static str,
    help: &'static str,
) -> clap::Arg {
    clap::Arg::new(id)
        .long(long)
        .value_name("PEM")
        .value_parser(clap::value_parser!(PathBuf))
        .env(env)
        .help(help)
}

/// The tokio runtime the client commands (and `serve`) run on.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

/// Read the token: `--token-file` (or `$GAMESWEEP_TOKEN_FILE`) if given,
/// else `~/.gamesweep/token` if it exists, else none.
pub fn token(path: Option<&PathBuf>) -> anyhow::Result<Option<String>> {
    gamesweep_proto::token_file(path.map(PathBuf::as_path))
        .map(|p| {
            gamesweep_proto::read_token_file(&p).map_err(|e| {
                UsageError(format!("cannot read token file {}: {e}", p.display())).into()
            })
        })
        .transpose()
}

/// The typed client for `conn` (connecting lazily, on `rt`).
pub fn connect(rt: &tokio::runtime::Runtime, conn: &Conn) -> anyhow::Result<Remote> {
    let _in_rt = rt.enter();
    let url = conn
        .coordinator
        .clone()
        .unwrap_or_else(gamesweep_proto::default_url);
    let opts = gamesweep_proto::ClientOptions {
        token: token(conn.token_file.as_ref())?,
        tls: conn.tls(),
    };
    Remote::connect_lazy(&url, &opts).map_err(|e| UsageError(e.to_string()).into())
}
