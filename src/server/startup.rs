//! Start-up and shutdown: the store, the listener, the services and their
//! layers, the drain bounded by the grace period.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tonic::service::Routes;
use tower_http::request_id::{PropagateRequestIdLayer, SetRequestIdLayer};

use super::metrics as metrics_endpoint;
use super::middleware::{
    CallSpans, Deadlines, EndWatchesAtShutdown, FreshRequestIds, MessageLimit,
    drop_unusable_request_id,
};
use super::page::WithPage;
use super::tls::{ServingTls, TlsError};
use super::transport::{CallService, Transport};
use crate::api::positions::{PlayLimits, Positions};
use crate::api::proto::puzzle_service_server::PuzzleServiceServer;
use crate::api::{FILE_DESCRIPTOR_SET, MemoSizes, PuzzleApi, UseCases};
use crate::app::access::{Access, AccessSettings, TokenSources, TokensError};
use crate::app::admission::{self, Admission};
use crate::app::catalog::Catalog;
use crate::app::generate::Generations;
use crate::app::pool::WorkerSettings;
use crate::app::work_budget::WorkBudget;
use crate::app::{Gauge, Solver};
use crate::config::Config;
use crate::metrics::LiveCounts;
use crate::puzzle::Limits;
use crate::store::{PoolSettings, Store, StoreError};

/// A built server: store open, listener bound, not yet serving.
pub struct Application {
    listener: TcpListener,
    local_addr: SocketAddr,
    /// The metrics endpoint's listener, with `--metrics-listen`.
    metrics_listener: Option<TcpListener>,
    store: Store,
    solver: Solver,
    admission: Arc<Admission>,
    access: Arc<Access>,
    /// TLS on the serving port, when configured.
    tls: Option<Arc<ServingTls>>,
    connections_open: Gauge,
    games_open: Gauge,
    config: Config,
}

/// After the grace period, how long the calls whose solves were just
/// stopped have to send their answer before their connections are dropped.
const ANSWER_AFTER_CANCEL: Duration = Duration::from_millis(250);

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
    #[error("connecting to {addr}")]
    Connect {
        addr: String,
        source: tonic::transport::Error,
    },
    #[error("--cors-origin {0:?} is not a valid origin (scheme://host[:port], or *)")]
    CorsOrigin(String),
    #[error("asking {addr} for its health")]
    HealthCheck { addr: String, source: tonic::Status },
    #[error("reading the writer tokens")]
    Tokens(#[from] TokensError),
    #[error("setting up TLS")]
    Tls(#[from] TlsError),
}

/// Writer tokens and rate limits, from the configuration.
fn access_settings(config: &Config) -> AccessSettings {
    AccessSettings {
        admin_token: config.admin_token.clone(),
        tokens: TokenSources {
            file: config.writer_tokens_file.clone(),
            list: config
                .writer_tokens
                .clone()
                .filter(|list| !list.trim().is_empty()),
        },
        writes_per_minute: config.write_rate_per_minute,
        write_burst: config.write_burst,
    }
}

impl Application {
    /// Opens the store and binds the listen address.
    pub async fn build(config: Config) -> Result<Application, ServerError> {
        let store = Store::open_with(&config.database_url, pool_settings(&config))
            .await
            .map_err(|source| ServerError::OpenStore {
                url: config.database_url_redacted(),
                source,
            })?
            .retain_verdict_bytes(config.verdict_store_bytes);
        let access = Arc::new(Access::new(access_settings(&config))?);
        let tls = ServingTls::from_files(config.tls_cert.as_deref(), config.tls_key.as_deref())?
            .map(Arc::new);
        crate::metrics::metrics().build_info(crate::solver::SOLVER_VERSION);
        if let Ok(used) = store.verdict_bytes_used().await {
            crate::metrics::metrics().verdict_store_bytes(used, config.verdict_store_bytes);
        }
        let listen = |source| ServerError::Listen {
            addr: config.listen.clone(),
            source,
        };
        let listener = TcpListener::bind(&config.listen).await.map_err(listen)?;
        let local_addr = listener.local_addr().map_err(listen)?;
        let metrics_listener = match &config.metrics_listen {
            Some(addr) => {
                Some(
                    TcpListener::bind(addr)
                        .await
                        .map_err(|source| ServerError::Listen {
                            addr: addr.clone(),
                            source,
                        })?,
                )
            }
            None => None,
        };
        let workers = WorkerSettings {
            workers: config.workers(),
            max_waiting: config.solve_queue,
            max_waiting_per_caller: config.solve_queue_per_caller,
            budget: WorkBudget::new(config.work_secs_per_minute, config.work_burst_secs),
        };
        let solver = Solver::new(
            store.clone(),
            workers,
            config.cache_bytes,
            config.canon_budget(),
            config.search_budget_states,
        );
        let admission = Arc::new(Admission::new(
            config
                .admission_budget
                .unwrap_or_else(admission::default_budget),
            config.admission_queue,
        ));
        Ok(Application {
            listener,
            local_addr,
            metrics_listener,
            store,
            solver,
            admission,
            access,
            tls,
            connections_open: Gauge::default(),
            games_open: Gauge::default(),
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

    /// The live counts of canonical labellings being computed, and of the
    /// calls waiting for them.
    pub fn labellings(&self) -> (Gauge, Gauge) {
        self.solver.labellings()
    }

    /// How many solves have been stopped because their callers had all
    /// gone: lets a test see a solve stopped rather than finished.
    pub fn solves_stopped(&self) -> Gauge {
        self.solver.solves_stopped()
    }

    /// How many searches ran out of their state budget since start-up
    /// (each question once: a repeat is answered from memory).
    pub fn searches_over_budget(&self) -> Gauge {
        self.solver.searches_over_budget()
    }

    /// The live count of requests waiting for the admission budget.
    pub fn admission_waiting(&self) -> Gauge {
        self.admission.waiting()
    }

    /// The live count of connections being served.
    pub fn connections_open(&self) -> Gauge {
        self.connections_open.clone()
    }

    /// The metrics endpoint's address, with `--metrics-listen`.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_listener
            .as_ref()
            .and_then(|listener| listener.local_addr().ok())
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

    /// Serves until `shutdown` resolves; then reports NOT_SERVING, stops
    /// accepting, closes idle connections, lets in-flight calls finish (at
    /// most the configured grace), and closes the store.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let metrics_addr = self.metrics_addr();
        let Application {
            listener,
            local_addr,
            metrics_listener,
            store,
            solver,
            admission,
            access,
            tls,
            connections_open,
            games_open,
            config,
        } = self;
        let cors = cors_layer(&config.cors_origins)?;
        let reloading = reload_on_hangup(access.clone(), tls.clone())?;
        let (health, health_service) = tonic_health::server::health_reporter();
        health.set_serving::<PuzzleServiceServer<PuzzleApi>>().await;
        // Stopped when shutdown begins: from then on the drain alone
        // speaks for health.
        let watching_the_store =
            tokio::spawn(report_the_store_health(store.clone(), health.clone())).abort_handle();
        let rehashing = tokio::spawn(rehash_stored_puzzles(solver.clone()));
        let writing_uses = tokio::spawn(store.clone().write_verdict_uses_every(VERDICT_USES_EVERY));
        let (games_closing, games_closing_seen) = tokio::sync::watch::channel(false);
        let api = puzzle_api(
            &config,
            &store,
            &solver,
            &admission,
            &access,
            &games_open,
            games_closing_seen,
        );
        let serving_metrics = metrics_listener.map(|listener| {
            let live = live_counts(
                &solver,
                &admission,
                &store,
                api.memo_sizes(),
                &connections_open,
                &games_open,
            );
            tokio::spawn(metrics_endpoint::serve(listener, live))
        });
        let (watches_closing, watches_closing_seen) = tokio::sync::watch::channel(false);
        let stopping = {
            let health = health.clone();
            async move {
                shutdown.await;
                watching_the_store.abort();
                // Play games wait for their client, possibly for minutes:
                // end them now, so they do not hold the drain.
                let _ = games_closing.send(true);
                tracing::info!(
                    "shutting down: refusing new calls, closing idle connections, \
                     finishing in-flight calls"
                );
                set_health(&health, false).await;
                // Health watchers have seen NOT_SERVING: end their streams,
                // which would otherwise hold the drain too.
                let _ = watches_closing.send(true);
            }
        };
        say_how_it_serves(&config, local_addr, metrics_addr, admission.budget());
        // Each reflection service also lists the other version.
        let reflection_v1 = reflection()
            .register_encoded_file_descriptor_set(
                tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
            )
            .build_v1()?;
        let reflection_v1alpha = reflection()
            .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
            .build_v1alpha()?;
        let routes = Routes::new(health_service)
            .add_service(reflection_v1)
            .add_service(reflection_v1alpha)
            .add_service(
                PuzzleServiceServer::new(api)
                    .max_decoding_message_size(config.message_limit())
                    .max_encoding_message_size(config.message_limit()),
            )
            .prepare();
        let calls = call_service(routes, cors, watches_closing_seen, config.message_limit());
        let mut connections = Transport::new(config.connection_policy(), connections_open, tls)
            .serve(listener, calls, stopping)
            .await;
        if tokio::time::timeout(config.shutdown_grace(), connections.closed())
            .await
            .is_err()
        {
            tracing::warn!(
                "in-flight calls did not finish within the grace period; stopping their solves"
            );
            solver.cancel_all();
            let _ = tokio::time::timeout(ANSWER_AFTER_CANCEL, connections.closed()).await;
        }
        drop(connections);
        rehashing.abort();
        writing_uses.abort();
        reloading.abort();
        if let Some(task) = serving_metrics {
            task.abort();
        }
        store.close().await;
        tracing::info!("store closed");
        Ok(())
    }
}

/// The API over the use cases of the application core, with the limits
/// of `config`; its Play games end when `games_closing` turns true.
fn puzzle_api(
    config: &Config,
    store: &Store,
    solver: &Solver,
    admission: &Arc<Admission>,
    access: &Arc<Access>,
    games_open: &Gauge,
    games_closing: tokio::sync::watch::Receiver<bool>,
) -> PuzzleApi {
    let limits = Limits {
        max_vertices: config.max_vertices,
        max_edges: config.max_edges,
    };
    let catalog = Catalog::new(
        store.clone(),
        solver.clone(),
        admission.clone(),
        config.message_limit(),
    );
    let games_budget = config
        .games_budget
        .unwrap_or_else(|| admission.budget() / 4)
        .max(1);
    let positions = Positions::new(
        catalog.clone(),
        solver.clone(),
        limits,
        admission.clone(),
        PlayLimits {
            budget: Arc::new(Admission::named(admission::GAMES, games_budget, 0)),
            idle: Duration::from_secs(config.play_idle_secs),
            message_limit: config.message_limit(),
            max_games: config.max_games,
            open: games_open.clone(),
        },
        games_closing,
    );
    let core = UseCases {
        catalog,
        generations: Generations::new(solver.clone(), store.clone(), admission.clone()),
        positions,
        solver: solver.clone(),
        access: access.clone(),
        admission: admission.clone(),
    };
    PuzzleApi::new(core, limits, config.message_limit())
}

/// What the metrics endpoint reads at each scrape: the gauges of the
/// solver, admission, store, memos and transport, and each cache's size.
fn live_counts(
    solver: &Solver,
    admission: &Arc<Admission>,
    store: &Store,
    memos: MemoSizes,
    connections_open: &Gauge,
    games_open: &Gauge,
) -> metrics_endpoint::LiveReader {
    let (solver, admission, store) = (solver.clone(), admission.clone(), store.clone());
    let (connections_open, games_open) = (connections_open.clone(), games_open.clone());
    Arc::new(move || {
        let (solver, admission, store, memos) = (
            solver.clone(),
            admission.clone(),
            store.clone(),
            memos.clone(),
        );
        let (connections_open, games_open) = (connections_open.get(), games_open.get());
        Box::pin(async move {
            LiveCounts {
                solves_running: solver.solves_running().get(),
                solves_waiting: solver.callers_waiting().get(),
                admission_waiting: admission.waiting().get(),
                games_open,
                connections_open,
                database_connections: store.connections(),
                caches: [
                    solver.cache_sizes().await,
                    memos.read().await,
                    store.cache_sizes().await,
                ]
                .concat(),
                canon_fallbacks: crate::canon::fallbacks(),
            }
        })
    })
}

/// The start-up lines: where it listens, the store, the metrics, the
/// admission budget; and a warning for limits it cannot keep.
fn say_how_it_serves(
    config: &Config,
    local_addr: SocketAddr,
    metrics_addr: Option<SocketAddr>,
    budget: u64,
) {
    tracing::info!(
        "puzzled listening on {local_addr}{}, store {}",
        if config.tls_cert.is_some() {
            " (TLS)"
        } else {
            ""
        },
        config.database_url_redacted()
    );
    if let Some(addr) = metrics_addr {
        tracing::info!("metrics at http://{addr}/metrics");
    }
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
    let max_connections = config.connection_policy().max_connections;
    if let Some(files) = crate::metrics::open_files_limit() {
        let needed = max_connections as u64 + 64;
        if files < needed {
            tracing::warn!(
                "--max-connections {max_connections} with this process's open-file limit of \
                 {files}: accepting may fail for want of file descriptors; raise the limit \
                 (ulimit -n) to {needed} or lower --max-connections"
            );
        }
    }
}

/// Every call's way in: gRPC-Web translated to gRPC first, so that
/// everything inside sees gRPC alone (request ids, spans, deadlines,
/// message limits, health watches ended at shutdown), and the page beside
/// the calls.
fn call_service(
    routes: Routes,
    cors: tower_http::cors::CorsLayer,
    watches_closing: tokio::sync::watch::Receiver<bool>,
    message_limit: usize,
) -> CallService {
    let grpc = tower::ServiceBuilder::new()
        .map_request(drop_unusable_request_id)
        .layer(SetRequestIdLayer::x_request_id(FreshRequestIds))
        .layer(PropagateRequestIdLayer::x_request_id())
        .service(CallSpans(Deadlines(MessageLimit {
            inner: EndWatchesAtShutdown {
                inner: routes,
                closing: watches_closing,
            },
            limit: message_limit,
        })));
    CallService::new(WithPage {
        inner: tower::ServiceBuilder::new()
            .layer(cors)
            .layer(tonic_web::GrpcWebLayer::new())
            .service(grpc),
    })
}

/// How often the verdicts read are written as used: the eviction order
/// of verdicts is right to within this.
const VERDICT_USES_EVERY: Duration = Duration::from_secs(5);

/// CORS for gRPC-Web calls from the browser `origins` (`*`: any); none
/// allowed when empty, so browsers keep to the same origin. Browsers may
/// read the gRPC status headers, the rich error details and the request
/// id, and send the headers a gRPC-Web client sends.
/// The store's connection pool, as configured.
fn pool_settings(config: &Config) -> PoolSettings {
    PoolSettings {
        max_connections: config.database_pool_size,
        acquire_timeout: config.database_acquire_timeout(),
    }
}

fn cors_layer(origins: &[String]) -> Result<tower_http::cors::CorsLayer, ServerError> {
    use http::header::{HeaderName, HeaderValue};
    use tower_http::cors::{AllowOrigin, CorsLayer};
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        // What a browser sends as `Origin`: scheme and host, maybe a port,
        // no path; anything else would never match.
        let is_origin = |origin: &str| {
            origin
                .strip_prefix("https://")
                .or_else(|| origin.strip_prefix("http://"))
                .is_some_and(|host| !host.is_empty() && !host.contains('/'))
        };
        let values = origins
            .iter()
            .map(|origin| {
                HeaderValue::from_str(origin)
                    .ok()
                    .filter(|_| is_origin(origin))
                    .ok_or_else(|| ServerError::CorsOrigin(origin.clone()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        AllowOrigin::list(values)
    };
    let names = |names: &[&'static str]| -> Vec<HeaderName> {
        names.iter().map(|&n| HeaderName::from_static(n)).collect()
    };
    let layer = CorsLayer::new()
        .allow_methods([http::Method::POST])
        .allow_headers(names(&[
            "content-type",
            "x-grpc-web",
            "x-user-agent",
            "grpc-timeout",
            "authorization",
            "x-request-id",
        ]))
        .expose_headers(names(&[
            "grpc-status",
            "grpc-message",
            "grpc-status-details-bin",
            "x-request-id",
        ]))
        .max_age(Duration::from_secs(24 * 60 * 60));
    Ok(if origins.is_empty() {
        layer
    } else {
        layer.allow_origin(allow)
    })
}

/// Rehashes the puzzles stored under an older canonicaliser (see
/// [`Solver::rehash_stored_puzzles`]), logging what it did.
async fn rehash_stored_puzzles(solver: Solver) {
    match solver.rehash_stored_puzzles().await {
        Ok(0) => {}
        Ok(count) => tracing::info!(count, "stored puzzles rehashed"),
        Err(error) => tracing::warn!(
            ?error,
            "rehashing stored puzzles stopped; the rest keep their old hashes until the next start"
        ),
    }
}

/// How often the health reporter checks the store.
const STORE_CHECK: Duration = Duration::from_millis(500);
/// How long a check may take before the store counts as unreachable.
const STORE_CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// Keeps the health status in step with the store. A PostgreSQL server
/// that stops answering turns it NOT_SERVING (a balancer sends calls to
/// other replicas), and SERVING again once it answers. A SQLite file that
/// was deleted or replaced turns it NOT_SERVING for good: the server would
/// reopen another file, so it must be restarted (every write is refused
/// meanwhile, see `Store::check_file`).
async fn report_the_store_health(store: Store, health: tonic_health::server::HealthReporter) {
    let mut every = tokio::time::interval(STORE_CHECK);
    let mut serving = true;
    loop {
        every.tick().await;
        let failure = match tokio::time::timeout(STORE_CHECK_TIMEOUT, store.check_reachable()).await
        {
            Ok(Ok(())) => None,
            Ok(Err(error @ StoreError::FileReplaced { .. })) => {
                tracing::error!(%error, "the store is gone; reporting NOT_SERVING until a restart");
                set_health(&health, false).await;
                return;
            }
            Ok(Err(error)) => Some(error.to_string()),
            Err(_) => Some(format!("no answer within {STORE_CHECK_TIMEOUT:?}")),
        };
        if failure.is_none() != serving {
            serving = failure.is_none();
            match failure {
                Some(why) => {
                    tracing::error!(%why, "the store is unreachable; reporting NOT_SERVING")
                }
                None => tracing::info!("the store answers again; reporting SERVING"),
            }
            set_health(&health, serving).await;
        }
    }
}

/// Sets the whole server's status and the puzzle service's.
async fn set_health(health: &tonic_health::server::HealthReporter, serving: bool) {
    use tonic::server::NamedService as _;
    let status = if serving {
        tonic_health::ServingStatus::Serving
    } else {
        tonic_health::ServingStatus::NotServing
    };
    for service in ["", PuzzleServiceServer::<PuzzleApi>::NAME] {
        health.set_service_status(service, status).await;
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
    health_check_with(addr, timeout, None).await
}

/// [`health_check`], over TLS when `addr` is `https://`: the server's
/// certificate is checked against the web's root authorities and, when
/// given, the PEM certificate `ca` (a private authority's, or a
/// self-signed server's).
pub async fn health_check_with(
    addr: &str,
    timeout: Duration,
    ca: Option<&[u8]>,
) -> Result<bool, ServerError> {
    use tonic_health::pb::health_check_response::ServingStatus;
    let connect = |source| ServerError::Connect {
        addr: addr.to_owned(),
        source,
    };
    let mut endpoint = tonic::transport::Endpoint::from_shared(addr.to_owned()).map_err(connect)?;
    if addr.starts_with("https://") {
        let mut tls = tonic::transport::ClientTlsConfig::new().with_webpki_roots();
        if let Some(ca) = ca {
            tls = tls.ca_certificate(tonic::transport::Certificate::from_pem(ca));
        }
        endpoint = endpoint.tls_config(tls).map_err(connect)?;
    }
    let channel = endpoint
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

/// Reads the writer tokens and the TLS certificate again on each SIGHUP,
/// so that a writer taken out of the file is refused, and a renewed
/// certificate served, without a restart, until the task is aborted. A
/// file that no longer reads leaves what was read before, with a warning.
fn reload_on_hangup(
    access: Arc<Access>,
    tls: Option<Arc<ServingTls>>,
) -> Result<tokio::task::JoinHandle<()>, ServerError> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut hangups = signal(SignalKind::hangup()).map_err(ServerError::Signals)?;
        Ok(tokio::spawn(async move {
            while hangups.recv().await.is_some() {
                match access.reload() {
                    Ok(writers) => tracing::info!(writers, "SIGHUP: writer tokens read again"),
                    Err(error) => tracing::warn!(
                        error = &error as &dyn std::error::Error,
                        "SIGHUP: the writer tokens could not be read; the ones before stay"
                    ),
                }
                match tls.as_deref().map(ServingTls::reload) {
                    None => {}
                    Some(Ok(())) => tracing::info!("SIGHUP: TLS certificate read again"),
                    Some(Err(error)) => tracing::warn!(
                        error = &error as &dyn std::error::Error,
                        "SIGHUP: the TLS certificate could not be read; the one before stays"
                    ),
                }
            }
        }))
    }
    #[cfg(not(unix))]
    {
        Ok(tokio::spawn(async move {
            let _ = (access, tls);
        }))
    }
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
