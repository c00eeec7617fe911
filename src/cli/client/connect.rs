//! The connection to the server: TLS for an `https://` address (the web's
//! roots and `--ca-cert`, as `puzzled healthcheck`), the bearer token on
//! every call, and the deadline of single calls.

use std::time::Duration;

use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};

use super::error::{ClientError, Result};
use crate::api::proto::puzzle_service_client::PuzzleServiceClient;
use crate::cli::connect_advice::{advice, advice_for_status};

/// Where `--help` lists the flags every client subcommand takes.
pub const SERVER_OPTIONS: &str = "Server options";

/// Seconds `--timeout-secs` gives connecting and each single call.
pub const DEFAULT_TIMEOUT_SECS: u64 = 30;

/// Which server, as whom, and how long to wait: the flags every client
/// subcommand takes.
#[derive(clap::Args)]
pub struct ServerFlags {
    /// The server's address: http://HOST:PORT, or https://HOST:PORT for TLS.
    #[arg(long, global = true, help_heading = SERVER_OPTIONS, env = "PUZZLED_SERVER", default_value = crate::config::DEFAULT_SERVER)]
    pub server: String,
    /// A bearer token sent with every call (`authorization: Bearer TOKEN`):
    /// a writer's for create and import on a server with writer tokens, the
    /// admin's for delete.
    #[arg(long, global = true, help_heading = SERVER_OPTIONS, env = "PUZZLED_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// For an https:// address: a PEM certificate to trust besides the web's
    /// root authorities (a private authority's, or a self-signed server's).
    #[arg(long, global = true, help_heading = SERVER_OPTIONS, env = "PUZZLED_CA_CERT")]
    pub ca_cert: Option<std::path::PathBuf>,
    /// Give up connecting, and each single call, after this many seconds
    /// (streams — import, export, play — run as long as they have work).
    #[arg(long, global = true, help_heading = SERVER_OPTIONS, default_value_t = DEFAULT_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout_secs: u64,
}

/// `Bearer TOKEN`, for a token a header can carry: printable ASCII, no
/// spaces (HTTP would take some other bytes, but no server could read
/// them as a token, so they are refused here, before anything is sent;
/// a pasted placeholder such as `…` is the usual case).
fn authorization(token: &str) -> Result<MetadataValue<Ascii>> {
    let source = token_source();
    if let Some((at, bad)) = token
        .chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii_graphic())
    {
        let shown = if bad.is_ascii() {
            format!("{bad:?}")
        } else {
            format!("`{bad}`")
        };
        return Err(ClientError::usage(format!(
            "{source} holds characters a header cannot carry ({shown} at character {}): a \
             token is printable ASCII without spaces, such as `openssl rand -hex 24` makes",
            at + 1
        )));
    }
    MetadataValue::try_from(format!("Bearer {token}"))
        .map_err(|_| ClientError::usage(format!("{source} cannot be sent as a header")))
}

/// Where the token came from, to name it in an error: the flag when the
/// command line has it, else the variable.
fn token_source() -> &'static str {
    let flagged = std::env::args().any(|arg| arg == "--token" || arg.starts_with("--token="));
    if flagged { "--token" } else { "PUZZLED_TOKEN" }
}

/// The server and what every call carries; the channel is opened by the
/// first call that needs it, so that a command's local work (reading its
/// files, checking its flags) fails first and alone.
pub struct Connection {
    pub addr: String,
    endpoint: Endpoint,
    channel: tokio::sync::OnceCell<Channel>,
    authorization: Option<MetadataValue<Ascii>>,
    timeout: Duration,
    /// Whether `--ca-cert` was given, for the advice on a refused certificate.
    ca_cert: bool,
}

impl Connection {
    pub fn new(args: &ServerFlags) -> Result<Connection> {
        let addr = args.server.clone();
        // An empty token (`PUZZLED_TOKEN=`) is no token.
        let authorization = match args.token.as_deref() {
            Some(token) if !token.is_empty() => Some(authorization(token)?),
            _ => None,
        };
        let timeout = Duration::from_secs(args.timeout_secs);
        let mut endpoint = Endpoint::from_shared(addr.clone())
            .map_err(|e| ClientError::usage(format!("--server {addr}: {e}")))?;
        if addr.starts_with("https://") {
            let mut tls = ClientTlsConfig::new().with_webpki_roots();
            if let Some(path) = &args.ca_cert {
                let pem = std::fs::read(path).map_err(|error| {
                    ClientError::local(format!("reading --ca-cert {}: {error}", path.display()))
                })?;
                tls = tls.ca_certificate(Certificate::from_pem(pem));
            }
            endpoint = endpoint
                .tls_config(tls)
                .map_err(|e| ClientError::usage(format!("--server {addr}: {e}")))?;
        } else if !addr.starts_with("http://") {
            return Err(ClientError::usage(format!(
                "--server {addr}: give the address as http://HOST:PORT or https://HOST:PORT"
            )));
        }
        // Streams can run long with nothing to say (a person thinking over
        // a move, a large import being stored): pings keep the connection
        // known alive, and find one that died.
        let endpoint = endpoint
            .connect_timeout(timeout)
            .http2_keep_alive_interval(Duration::from_secs(30))
            .keep_alive_timeout(Duration::from_secs(20))
            .keep_alive_while_idle(true);
        Ok(Connection {
            addr,
            endpoint,
            channel: tokio::sync::OnceCell::new(),
            authorization,
            timeout,
            ca_cert: args.ca_cert.is_some(),
        })
    }

    /// The channel, connected on first use: an unreachable server is one
    /// clear error naming its address, not a failed call.
    pub async fn channel(&self) -> Result<Channel> {
        self.channel
            .get_or_try_init(|| async {
                self.endpoint
                    .connect()
                    .await
                    .map_err(|error| ClientError::Unreachable {
                        addr: self.addr.clone(),
                        message: advice(&self.addr, self.ca_cert, &error)
                            .unwrap_or_else(|| crate::cli::causes(&anyhow::Error::new(error))),
                    })
            })
            .await
            .cloned()
    }

    /// `error`, ended by the server's answers, said better when it is a
    /// mistake of the connection's (see `connect_advice`).
    pub async fn explained(&self, error: ClientError) -> ClientError {
        let ClientError::Status { status, .. } = &error else {
            return error;
        };
        match advice_for_status(&self.addr, self.ca_cert, status).await {
            Some(message) => ClientError::Unreachable {
                addr: self.addr.clone(),
                message,
            },
            None => error,
        }
    }

    /// The API's client, with no message size limit of its own (the server
    /// has its limits, and says so).
    pub async fn puzzles(&self) -> Result<PuzzleServiceClient<Channel>> {
        Ok(PuzzleServiceClient::new(self.channel().await?)
            .max_decoding_message_size(usize::MAX)
            .max_encoding_message_size(usize::MAX))
    }

    /// A single call's request: the token, and the deadline.
    pub fn unary<T>(&self, message: T) -> tonic::Request<T> {
        let mut request = self.stream(message);
        request.set_timeout(self.timeout);
        request
    }

    /// A stream's request: the token, no deadline (it lasts as long as its
    /// work or its player).
    pub fn stream<T>(&self, message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        if let Some(value) = &self.authorization {
            request
                .metadata_mut()
                .insert("authorization", value.clone());
        }
        request
    }
}
