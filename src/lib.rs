//! puzzled: stores graph-game puzzles, solves them exactly with proofs
//! attached, and serves them over gRPC.
//!
//! The layers, each importing only those listed before it (docs/design.md
//! has the map and the rules): `graph` checks input; `solver` is pure (no
//! async, no I/O, no proto, no SQL); `canon` makes cache keys; `puzzle` is
//! the domain the service speaks; `store` is the only module that writes
//! SQL; `app` is the application core (no proto, no transport); `api` is
//! the only module that sees proto types; `server` runs it all; `cli` is
//! the command line. `config` and `metrics` are read by every layer that
//! needs them and import none. `testkit` (hidden from the documentation)
//! is what the tests and benchmarks share; the server never calls it.

pub mod api;
pub mod app;
pub mod canon;
pub mod cli;
pub mod config;
pub mod graph;
pub mod metrics;
pub mod puzzle;
pub mod server;
pub mod solver;
pub mod splitmix;
pub mod store;
#[doc(hidden)]
pub mod testkit;
