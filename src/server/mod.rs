//! The gRPC service: tonic handlers around the store, the cache and the
//! solvers. The only module that sees proto types.
//!
//! - `startup`: [`Application::build`] opens the store (running migrations),
//!   binds the listener and wires `puzzled.v1.PuzzleService`,
//!   `grpc.health.v1.Health` and server reflection (v1 and v1alpha);
//!   [`Application::run_until`] serves until its shutdown future resolves,
//!   then drains for a bounded time and closes the store.
//! - `transport`: the listener and the HTTP/2 connections: the cap on
//!   connections, their timeouts, responses the client does not read.
//! - `middleware`: what every call goes through before a handler sees it:
//!   its id and span, its arrival time and deadline, the size of its
//!   messages, the admin token.
//! - `page`: the puzzle page (`/`, `/puzzles/{id}`), built from `web/` and
//!   embedded, served on the gRPC port beside the calls.
//! - `metrics_endpoint`: `GET /metrics` on `--metrics-listen` (the metrics
//!   themselves are `crate::metrics`).
//! - `handlers`: one method per RPC of `puzzled.v1.PuzzleService`.
//! - `positions`: AnalyzePosition and the Play stream's games.
//! - `solving`: the cache, the single-flight layer and the solve pool.
//! - `convert` and `error`: proto ⇄ domain, and the one place errors become
//!   `tonic::Status`.

pub mod admission;
pub mod codec;
pub mod convert;
pub mod error;
pub mod games;
mod handlers;
mod metrics_endpoint;
mod middleware;
mod page;
pub mod positions;
pub mod solving;
mod startup;
mod transport;

pub use handlers::PuzzleApi;
pub use solving::Gauge;
pub use startup::{Application, ServerError, health_check, shutdown_signal};

/// Generated code for `proto/puzzled/v1`.
pub mod proto {
    #![allow(clippy::all, missing_docs)]
    tonic::include_proto!("puzzled.v1");
}

/// The encoded descriptor set of `proto/` (with its imports), for reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/puzzled_descriptor.bin"));
