//! Start-up and shutdown: the store, the listener, the services and their
//! layers, the drain bounded by the grace period.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;

use super::FILE_DESCRIPTOR_SET;
use super::admission::Admission;
use super::handlers::PuzzleApi;
use super::middleware::{MessageLimit, stamp_arrival};
use super::proto::puzzle_service_server::PuzzleServiceServer;
use super::solving::{Gauge, Solver};
use crate::config::Config;
use crate::puzzle::Limits;
use crate::store::Store;

/// A built server: store open, listener bound, not yet serving.
pub struct Application {
    listener: TcpListener,
    local_addr: SocketAddr,
    store: Store,
    solver: Solver,
    admission: Arc<Admission>,
    config: Config,
}

/// Why the server could not start, serve, or answer a health check.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("opening the store {url}")]
    OpenStore {
        url: String,
        source: crate::store::StoreError,
    },
    #[error("listening on {addr}")]
    Listen {
        addr: String,
        source: std::io::Error,
    },
    #[error("installing signal handlers")]
    Signals(#[source] std::io::Error),
    #[error("building the reflection service")]
    Reflection(#[from] tonic_reflection::server::Error),
    #[error("serving")]
    Serve(#[source] tonic::transport::Error),
    #[error("connecting to {addr}")]
    Connect {
        addr: String,
        source: tonic::transport::Error,
    },
    #[error("asking {addr} for its health")]
    HealthCheck { addr: String, source: tonic::Status },
}

impl Application {
    /// Opens the store and binds the listen address.
    pub async fn build(config: Config) -> Result<Application, ServerError> {
        let store = Store::open(&config.database_url)
            .await
            .map_err(|source| ServerError::OpenStore {
                url: config.database_url.clone(),
                source,
            })?
            .retain_verdict_bytes(config.verdict_store_bytes);
        let listen = |source| ServerError::Listen {
            addr: config.listen.clone(),
            source,
        };
        let listener = TcpListener::bind(&config.listen).await.map_err(listen)?;
        let local_addr = listener.local_addr().map_err(listen)?;
        let solver = Solver::new(
            store.clone(),
            config.workers(),
            config.solve_queue,
            config.cache_bytes,
        );
        let admission = Arc::new(Admission::new(
            config.admission_budget(),
            config.admission_queue,
        ));
        Ok(Application {
            listener,
            local_addr,
            store,
            solver,
            admission,
            config,
        })
    }

    /// The live count of solves holding a worker: lets a caller (a test, a
    /// metrics probe) see that a solve has really started on the server.
    pub fn solves_running(&self) -> Gauge {
        self.solver.solves_running()
    }

    /// The live count of calls waiting for a solve, queued or running.
    pub fn callers_waiting(&self) -> Gauge {
        self.solver.callers_waiting()
    }

    /// The live count of requests waiting for the admission budget.
    pub fn admission_waiting(&self) -> Gauge {
        self.admission.waiting()
    }

    /// The bound port (useful with port 0).
    pub fn port(&self) -> u16 {
        self.local_addr.port()
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Serves until SIGINT or SIGTERM.
    pub async fn run_until_stopped(self) -> Result<(), ServerError> {
        let signal = shutdown_signal().map_err(ServerError::Signals)?;
        self.run_until(signal).await
    }

    /// Serves until `shutdown` resolves; then reports NOT_SERVING, lets
    /// in-flight calls finish (at most the configured grace), and closes the
    /// store.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let Application {
            listener,
            local_addr,
            store,
            solver,
            admission,
            config,
        } = self;
        let (health, health_service) = tonic_health::server::health_reporter();
        health.set_serving::<PuzzleServiceServer<PuzzleApi>>().await;
        let api = PuzzleApi::new(
            store.clone(),
            solver.clone(),
            Limits {
                max_vertices: config.max_vertices,
                max_edges: config.max_edges,
            },
            config.admin_token.clone().filter(|t| !t.is_empty()),
            config.message_limit(),
            admission.clone(),
        );
        let puzzles = PuzzleServiceServer::new(api)
            .max_decoding_message_size(config.message_limit())
            .max_encoding_message_size(config.message_limit());
        // Each reflection service also lists the other version.
        let reflection_v1 = reflection()
            .register_encoded_file_descriptor_set(
                tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
            )
            .build_v1()?;
        let reflection_v1alpha = reflection()
            .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
            .build_v1alpha()?;

        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            shutdown.await;
            let _ = stop_tx.send(true);
        });
        let stopping = {
            let mut stop_rx = stop_rx.clone();
            let health = health.clone();
            async move {
                let _ = stop_rx.wait_for(|&s| s).await.is_ok();
                tracing::info!("shutting down: refusing new calls, finishing in-flight ones");
                health
                    .set_service_status("", tonic_health::ServingStatus::NotServing)
                    .await;
                health
                    .set_not_serving::<PuzzleServiceServer<PuzzleApi>>()
                    .await;
            }
        };
        tracing::info!(
            "puzzled listening on {local_addr}, store {}",
            config.database_url
        );
        let budget = admission.budget();
        tracing::info!(
            admission_budget = budget,
            message_limit = config.message_limit(),
            "requests hold at most {budget} vertices + edges at once"
        );
        if budget < config.max_vertices.saturating_add(config.max_edges) {
            tracing::warn!(
                "the admission budget ({budget}) is smaller than the largest puzzle the \
                 size limits allow; such puzzles are refused with ADMISSION_BUDGET_EXCEEDED"
            );
        }
        let server = Server::builder()
            .layer(tower::util::MapRequestLayer::new(
                stamp_arrival::<tonic::body::Body>,
            ))
            .layer(tower::layer::layer_fn(|inner| MessageLimit {
                inner,
                limit: config.message_limit(),
            }))
            .add_service(health_service)
            .add_service(reflection_v1)
            .add_service(reflection_v1alpha)
            .add_service(puzzles)
            .serve_with_incoming_shutdown(TcpIncoming::from(listener), stopping);
        tokio::pin!(server);
        let mut stop_rx = stop_rx;
        let stop_requested = async move {
            // Drop the borrow guard at once: it must not live across awaits.
            let _ = stop_rx.wait_for(|&s| s).await.is_ok();
        };
        let served = tokio::select! {
            result = &mut server => result,
            () = stop_requested => {
                match tokio::time::timeout(config.shutdown_grace(), &mut server).await {
                    Ok(result) => result,
                    Err(_) => {
                        tracing::warn!("in-flight calls did not finish within the grace period; stopping their solves");
                        solver.cancel_all();
                        Ok(())
                    }
                }
            }
        };
        store.close().await;
        tracing::info!("store closed");
        served.map_err(ServerError::Serve)
    }
}

fn reflection() -> tonic_reflection::server::Builder<'static> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        // google.rpc.BadRequest, ErrorInfo, …: lets grpcurl print error details.
        .register_encoded_file_descriptor_set(tonic_types::pb::FILE_DESCRIPTOR_SET)
}

/// Asks the server at `addr` (e.g. `http://127.0.0.1:50051`) whether the
/// whole server is SERVING, through `grpc.health.v1.Health/Check`.
pub async fn health_check(addr: &str, timeout: Duration) -> Result<bool, ServerError> {
    use tonic_health::pb::health_check_response::ServingStatus;
    let connect = |source| ServerError::Connect {
        addr: addr.to_owned(),
        source,
    };
    let channel = tonic::transport::Endpoint::from_shared(addr.to_owned())
        .map_err(connect)?
        .connect_timeout(timeout)
        .timeout(timeout)
        .connect()
        .await
        .map_err(connect)?;
    let status = tonic_health::pb::health_client::HealthClient::new(channel)
        .check(tonic_health::pb::HealthCheckRequest {
            service: String::new(),
        })
        .await
        .map_err(|source| ServerError::HealthCheck {
            addr: addr.to_owned(),
            source,
        })?
        .into_inner()
        .status;
    Ok(status == ServingStatus::Serving as i32)
}

/// A future that resolves on SIGINT (Ctrl-C) or SIGTERM. The handlers are
/// installed when this returns, so a signal that arrives any time after
/// start-up is caught rather than killing the process.
pub fn shutdown_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {},
                _ = terminate.recv() => {},
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}
