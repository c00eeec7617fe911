//! The gRPC service: tonic handlers around the store, the cache and the
//! solvers. The only module that sees proto types.
//!
//! [`Application::build`] opens the store (running migrations), binds the
//! listener and wires `puzzled.v1.PuzzleService`, `grpc.health.v1.Health`
//! and server reflection (v1 and v1alpha); [`Application::run_until`] serves
//! until its shutdown future resolves, then drains for a bounded time and
//! closes the store.

pub mod codec;
pub mod convert;
pub mod error;
pub mod games;
pub mod solving;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::TcpListener;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tonic::{Request, Response, Status};

use crate::config::Config;
use crate::puzzle::{Limits, SolveOptions, Spec};
use crate::store::{NewPuzzle, Store};
use error::ApiError;
pub use solving::Gauge;
use solving::{Solver, off_runtime};

/// Generated code for `proto/puzzled/v1`.
pub mod proto {
    #![allow(clippy::all, missing_docs)]
    tonic::include_proto!("puzzled.v1");
}

/// The encoded descriptor set of `proto/` (with its imports), for reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/puzzled_descriptor.bin"));

use proto::puzzle_service_server::{PuzzleService, PuzzleServiceServer};

const DEFAULT_PAGE_SIZE: u32 = 50;
const MAX_PAGE_SIZE: u32 = 1000;
const MAX_REQUEST_ID_CHARS: usize = 100;

/// A built server: store open, listener bound, not yet serving.
pub struct Application {
    listener: TcpListener,
    local_addr: SocketAddr,
    store: Store,
    solver: Solver,
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
        let store =
            Store::open(&config.database_url)
                .await
                .map_err(|source| ServerError::OpenStore {
                    url: config.database_url.clone(),
                    source,
                })?;
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
        Ok(Application {
            listener,
            local_addr,
            store,
            solver,
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
            config,
        } = self;
        let (health, health_service) = tonic_health::server::health_reporter();
        health.set_serving::<PuzzleServiceServer<PuzzleApi>>().await;
        let api = PuzzleApi {
            store: store.clone(),
            solver: solver.clone(),
            limits: Limits {
                max_vertices: config.max_vertices,
                max_edges: config.max_edges,
            },
            admin_token: config.admin_token.clone().filter(|t| !t.is_empty()),
        };
        let puzzles = PuzzleServiceServer::new(api)
            .max_decoding_message_size(config.max_message_bytes)
            .max_encoding_message_size(config.max_message_bytes);
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
        let server = Server::builder()
            .layer(tower::util::MapRequestLayer::new(
                stamp_arrival::<tonic::body::Body>,
            ))
            .layer(tower::util::MapResponseLayer::new(
                oversize_is_resource_exhausted::<tonic::body::Body>,
            ))
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

/// When a call arrived, before its message was read and decoded: the
/// client's deadline counts from here, as the transport's own timer does.
#[derive(Debug, Clone, Copy)]
struct Arrival(Instant);

fn stamp_arrival<B>(
    mut request: tonic::codegen::http::Request<B>,
) -> tonic::codegen::http::Request<B> {
    request.extensions_mut().insert(Arrival(Instant::now()));
    request
}

/// tonic answers a request over the message-size limit with OUT_OF_RANGE;
/// gRPC's own implementations (and our API contract) say RESOURCE_EXHAUSTED.
/// The status travels in the headers of that trailers-only response.
fn oversize_is_resource_exhausted<B>(
    mut response: tonic::codegen::http::Response<B>,
) -> tonic::codegen::http::Response<B> {
    let headers = response.headers_mut();
    let out_of_range = headers
        .get("grpc-status")
        .is_some_and(|s| s.as_bytes() == b"11");
    let too_large = headers
        .get("grpc-message")
        .and_then(|m| m.to_str().ok())
        .is_some_and(|m| m.contains("message%20length%20too%20large"));
    if out_of_range && too_large {
        headers.insert(
            "grpc-status",
            tonic::codegen::http::HeaderValue::from_static("8"),
        );
    }
    response
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

/// The handlers of `puzzled.v1.PuzzleService`.
pub struct PuzzleApi {
    store: Store,
    solver: Solver,
    limits: Limits,
    admin_token: Option<String>,
}

/// The client's deadline (`grpc-timeout`), counted from the call's arrival
/// and taken a little early, so the handler answers DEADLINE_EXCEEDED before
/// the transport's timer cancels the call.
fn deadline<T>(request: &Request<T>) -> Option<Instant> {
    let arrival = request
        .extensions()
        .get::<Arrival>()
        .map_or_else(Instant::now, |a| a.0);
    let value = request.metadata().get("grpc-timeout")?.to_str().ok()?;
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    let amount: u64 = digits.parse().ok()?;
    let timeout = match unit {
        "H" => Duration::from_secs(amount.saturating_mul(3600)),
        "M" => Duration::from_secs(amount.saturating_mul(60)),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    };
    let margin = (timeout / 20).clamp(Duration::from_millis(5), Duration::from_millis(50));
    arrival.checked_add(timeout.saturating_sub(margin))
}

/// Fails once `deadline` has passed. Checked after each synchronous phase:
/// a timer armed after the deadline would lose the race to the transport's.
fn check_deadline(deadline: Option<Instant>) -> Result<(), ApiError> {
    match deadline {
        Some(d) if Instant::now() >= d => Err(ApiError::DeadlineExceeded),
        _ => Ok(()),
    }
}

/// Runs `work`, answering DEADLINE_EXCEEDED once `deadline` passes (armed
/// at the start of the handler, a little before the transport's own timer).
async fn within<T>(
    deadline: Option<Instant>,
    work: impl Future<Output = Result<T, ApiError>>,
) -> Result<T, ApiError> {
    match deadline {
        Some(d) => tokio::time::timeout_at(d.into(), work)
            .await
            .map_err(|_| ApiError::DeadlineExceeded)?,
        None => work.await,
    }
}

impl PuzzleApi {
    async fn solve_spec(
        &self,
        spec: Arc<Spec>,
        options: SolveOptions,
        deadline: Option<Instant>,
    ) -> Result<proto::Solution, ApiError> {
        check_deadline(deadline)?;
        let solved = self.solver.solve(spec, options, deadline).await?;
        Ok(convert::solution_to_proto(
            solved.verdict,
            solved.canonical_hash,
            solved.cached,
        ))
    }

    fn check_admin<T>(&self, request: &Request<T>) -> Result<(), ApiError> {
        let Some(expected) = &self.admin_token else {
            return Ok(());
        };
        let given = request
            .metadata()
            .get("authorization")
            .ok_or(ApiError::Unauthenticated)?
            .to_str()
            .map_err(|_| ApiError::PermissionDenied)?;
        let token = given
            .strip_prefix("Bearer ")
            .ok_or(ApiError::Unauthenticated)?;
        if constant_time_eq(token.as_bytes(), expected.as_bytes()) {
            Ok(())
        } else {
            Err(ApiError::PermissionDenied)
        }
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[tonic::async_trait]
impl PuzzleService for PuzzleApi {
    async fn create_puzzle(
        &self,
        request: Request<proto::CreatePuzzleRequest>,
    ) -> Result<Response<proto::Puzzle>, Status> {
        let proto::CreatePuzzleRequest { puzzle, request_id } = request.into_inner();
        let puzzle = puzzle.ok_or_else(|| ApiError::missing("puzzle"))?;
        // Output-only fields are ignored, as AIP-203 asks.
        let proto::Puzzle {
            name: _,
            spec,
            canonical_hash: _,
            duplicate_of: _,
            create_time: _,
        } = puzzle;
        if request_id.chars().count() > MAX_REQUEST_ID_CHARS {
            return Err(ApiError::invalid(
                "request_id",
                "TEXT_TOO_LONG",
                format!("request_id: more than {MAX_REQUEST_ID_CHARS} characters"),
            )
            .into());
        }
        let limits = self.limits;
        let (spec, canonical) = off_runtime(move || {
            let spec = convert::spec_from_proto(spec, "puzzle.spec", limits)?;
            let canonical = crate::canon::canonicalize(&spec);
            Ok::<_, ApiError>((spec, canonical))
        })
        .await??;
        let raw = spec.raw();
        let record = self
            .store
            .create_puzzle(NewPuzzle {
                game: raw.game,
                vertex_count: raw.vertex_count,
                edges: &raw.edges,
                start: raw.start,
                black: raw.black,
                white: raw.white,
                title: &raw.title,
                author: &raw.author,
                canonical_hash: &canonical.hash,
                request_id: Some(request_id.as_str()).filter(|r| !r.is_empty()),
            })
            .await
            .map_err(ApiError::from)?;
        Ok(Response::new(convert::puzzle_to_proto(record)))
    }

    async fn get_puzzle(
        &self,
        request: Request<proto::GetPuzzleRequest>,
    ) -> Result<Response<proto::Puzzle>, Status> {
        let proto::GetPuzzleRequest { name } = request.into_inner();
        let id = convert::id_from_name(&name, "name")?;
        let record = self.store.get_puzzle(id).await.map_err(ApiError::from)?;
        Ok(Response::new(convert::puzzle_to_proto(record)))
    }

    async fn list_puzzles(
        &self,
        request: Request<proto::ListPuzzlesRequest>,
    ) -> Result<Response<proto::ListPuzzlesResponse>, Status> {
        let proto::ListPuzzlesRequest {
            page_size,
            page_token,
            game,
        } = request.into_inner();
        let game = convert::game_filter_from_proto(game, "game")?;
        let page_size = match page_size {
            0 => DEFAULT_PAGE_SIZE,
            n if n < 0 => {
                return Err(ApiError::invalid(
                    "page_size",
                    "NEGATIVE_PAGE_SIZE",
                    format!("page_size: {n} is negative"),
                )
                .into());
            }
            n => (n as u32).min(MAX_PAGE_SIZE),
        };
        let before = convert::page_token::decode(&page_token, game)?;
        let page = self
            .store
            .list_puzzles(game, before, page_size)
            .await
            .map_err(ApiError::from)?;
        Ok(Response::new(proto::ListPuzzlesResponse {
            next_page_token: page
                .next_before
                .map(|b| convert::page_token::encode(b, game))
                .unwrap_or_default(),
            puzzles: page
                .puzzles
                .into_iter()
                .map(convert::puzzle_to_proto)
                .collect(),
        }))
    }

    async fn delete_puzzle(
        &self,
        request: Request<proto::DeletePuzzleRequest>,
    ) -> Result<Response<()>, Status> {
        self.check_admin(&request)?;
        let proto::DeletePuzzleRequest { name } = request.into_inner();
        let id = convert::id_from_name(&name, "name")?;
        self.store.delete_puzzle(id).await.map_err(ApiError::from)?;
        Ok(Response::new(()))
    }

    async fn solve_puzzle(
        &self,
        request: Request<proto::SolvePuzzleRequest>,
    ) -> Result<Response<proto::Solution>, Status> {
        let deadline = deadline(&request);
        let proto::SolvePuzzleRequest {
            name,
            include_all_starts,
            include_winning_moves,
        } = request.into_inner();
        let work = async {
            let id = convert::id_from_name(&name, "name")?;
            let record = self.store.get_puzzle(id).await?;
            check_deadline(deadline)?;
            let spec = off_runtime(move || convert::spec_from_record(&record)).await??;
            let options = SolveOptions {
                all_starts: include_all_starts,
                winning_moves: include_winning_moves,
            };
            self.solve_spec(Arc::new(spec), options, deadline).await
        };
        Ok(Response::new(within(deadline, work).await?))
    }

    async fn solve(
        &self,
        request: Request<proto::SolveRequest>,
    ) -> Result<Response<proto::Solution>, Status> {
        let deadline = deadline(&request);
        let proto::SolveRequest {
            spec,
            include_all_starts,
            include_winning_moves,
        } = request.into_inner();
        let limits = self.limits;
        let work = async {
            let spec =
                off_runtime(move || convert::spec_from_proto(spec, "spec", limits)).await??;
            let options = SolveOptions {
                all_starts: include_all_starts,
                winning_moves: include_winning_moves,
            };
            self.solve_spec(Arc::new(spec), options, deadline).await
        };
        Ok(Response::new(within(deadline, work).await?))
    }
}
