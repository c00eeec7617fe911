//! puzzled: stores graph-game puzzles, solves them exactly with proofs
//! attached, and serves them over gRPC.
//!
//! The pure core — `graph`, `solver`, `puzzle`, `canon` and `splitmix` —
//! is the crate `puzzled-core` (crates/core), re-exported here under the
//! same names; this crate is the service around it. Its layers, each
//! importing only those listed before it (docs/design.md has the map and
//! the rules): `store` is the only module that writes SQL; `app` is the
//! application core (no proto, no transport); `api` is the only module
//! that sees proto types; `server` runs it all; `cli` is the command line.
//! `config`, `metrics` and `caches` (the list of every in-memory cache)
//! are read by every layer that needs them and import none. What the tests and benchmarks share is the crate
//! `puzzled-testkit` (crates/testkit), a dev-dependency.

pub use puzzled_core::{canon, graph, puzzle, rating, solver, splitmix};

pub mod config;
pub mod metrics;
pub mod caches;
pub mod store;
pub mod app;
pub mod api;
pub mod server;
pub mod cli;
