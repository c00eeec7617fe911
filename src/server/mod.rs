//! The server around the API: start-up and shutdown, the listener and its
//! connections, what every call goes through before its handler, the
//! puzzle page, and the metrics endpoint.
//!
//! - `startup`: [`Application::build`] opens the store (running migrations),
//!   binds the listener and wires `puzzled.v1.PuzzleService`,
//!   `grpc.health.v1.Health` and server reflection (v1 and v1alpha);
//!   [`Application::run_until`] serves until its shutdown future resolves,
//!   then drains for a bounded time and closes the store.
//! - `transport`: the listener and the HTTP/2 connections: the cap on
//!   connections, their timeouts, responses the client does not read;
//! - `tls`: the serving port's certificate and key, reloaded on SIGHUP.
//! - `middleware`: what every call goes through before a handler sees it:
//!   its id and span, its arrival time and deadline, the size of its
//!   messages.
//! - `methods`: the methods served, read off their descriptors once.
//! - `page`: the puzzle page (`/`, `/puzzles/{id}`), built from `web/` and
//!   embedded, served on the gRPC port beside the calls.
//! - `metrics`: `GET /metrics` on `--metrics-listen` (the metrics
//!   themselves are `crate::metrics`).

mod methods;
mod metrics;
mod middleware;
mod page;
mod startup;
mod tls;
mod transport;

pub use startup::{Application, ServerError, health_check, health_check_with, shutdown_signal};
