//! The connection to the server: TLS for an `https://` address (the web's
//! roots and `--ca-cert`, as `puzzled healthcheck`), the bearer token on
//! every call, and the deadline of single calls.

use std::time::Duration;

use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};

use super::args::ClientArgs;
use super::error::{ClientError, Result};
use crate::api::proto::puzzle_service_client::PuzzleServiceClient;

/// The server and what every call carries; the channel is opened by the
/// first call that needs it, so that a command's local work (reading its
/// files, checking its flags) fails first and alone.
pub struct Connection {
    pub addr: String,
    endpoint: Endpoint,
    channel: tokio::sync::OnceCell<Channel>,
    authorization: Option<MetadataValue<Ascii>>,
    timeout: Duration,
}

impl Connection {
    pub fn new(args: &ClientArgs) -> Result<Connection> {
        let addr = args.server.clone();
        let authorization = match &args.token {
            Some(token) => Some(MetadataValue::try_from(format!("Bearer {token}")).map_err(
                |_| ClientError::usage("--token: a token is printable ASCII without line breaks"),
            )?),
            None => None,
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
                        message: crate::cli::causes(&anyhow::Error::new(error)),
                    })
            })
            .await
            .cloned()
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
