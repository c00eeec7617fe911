//! The metrics scrape endpoint: plain HTTP/1.1 on its own address
//! (`--metrics-listen`), `GET /metrics` in the OpenMetrics text format,
//! which Prometheus reads. Kept off the gRPC port so that scrapes never
//! compete with calls for the connection limits, and so that a site can
//! expose one without the other.

use std::convert::Infallible;
use std::sync::Arc;

use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

use crate::metrics::{LiveCounts, metrics};

/// The content type of the OpenMetrics text format.
const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Serves scrapes on `listener` until the task is dropped; `live` reads the
/// live counts at each scrape.
pub(super) async fn serve(listener: TcpListener, live: Arc<dyn Fn() -> LiveCounts + Send + Sync>) {
    loop {
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
            let answer = hyper::service::service_fn(move |request| {
                let live = live.clone();
                async move { Ok::<_, Infallible>(respond(&request, live())) }
            });
            if let Err(error) = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), answer)
                .await
            {
                tracing::debug!(%error, "a metrics connection ended with an error");
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
