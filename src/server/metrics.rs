//! The metrics scrape endpoint: plain HTTP/1.1 on its own address
//! (`--metrics-listen`), `GET /metrics` in the OpenMetrics text format,
//! which Prometheus reads. Kept off the gRPC port so that scrapes never
//! compete with calls for the connection limits, and so that a site can
//! expose one without the other.
//!
//! Scrapers are few, so the endpoint holds few connections, and none for
//! long: at most [`MAX_CONNECTIONS`] at once (more wait in the kernel's
//! listen backlog, holding no file of this process), each closed when its
//! request's head has not arrived within [`HEADER_TIMEOUT`], and every one
//! after [`CONNECTION_LIFETIME`] (a scraper opens another). A flood of
//! unfinished requests on this port cannot take the file descriptors the
//! gRPC port needs.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::metrics::{LiveCounts, metrics};

/// The content type of the OpenMetrics text format.
const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 16;
/// Time a connection has to send a request's head.
const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// Time after which any connection is closed.
const CONNECTION_LIFETIME: Duration = Duration::from_secs(60);

/// Reads the live counts, at each scrape.
pub(super) type LiveReader =
    Arc<dyn Fn() -> std::pin::Pin<Box<dyn Future<Output = LiveCounts> + Send>> + Send + Sync>;

/// Serves scrapes on `listener` until the task is dropped; `live` reads the
/// live counts at each scrape.
pub(super) async fn serve(listener: TcpListener, live: LiveReader) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let slot = slots
            .clone()
            .acquire_owned()
            .await
            .expect("the metrics connection semaphore is never closed");
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(error) => {
                tracing::warn!(%error, "accepting a metrics scrape failed");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let live = live.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let answer = hyper::service::service_fn(move |request| {
                let live = live.clone();
                async move { Ok::<_, Infallible>(respond(&request, live().await)) }
            });
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), answer);
            match tokio::time::timeout(CONNECTION_LIFETIME, connection).await {
                Ok(Err(error)) => {
                    tracing::debug!(%error, "a metrics connection ended with an error");
                }
                Ok(Ok(())) => {}
                Err(_) => tracing::debug!("a metrics connection reached its lifetime"),
            }
        });
    }
}

fn respond<B>(request: &http::Request<B>, live: LiveCounts) -> http::Response<String> {
    let (status, content_type, body) =
        if request.method() == http::Method::GET && request.uri().path() == "/metrics" {
            (http::StatusCode::OK, CONTENT_TYPE, metrics().encode(live))
        } else {
            (
                http::StatusCode::NOT_FOUND,
                "text/plain; charset=utf-8",
                "metrics are at GET /metrics\n".to_owned(),
            )
        };
    http::Response::builder()
        .status(status)
        .header(http::header::CONTENT_TYPE, content_type)
        .body(body)
        .expect("a valid response")
}
