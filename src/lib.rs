//! puzzled: stores graph-game puzzles, solves them exactly with proofs
//! attached, and serves them over gRPC.
//!
//! `solver` is pure (no async, no I/O, no proto, no SQL) and depends on
//! nothing else in the crate. `puzzle` is the domain the service speaks,
//! `canon` makes cache keys, `store` is the only module that writes SQL and
//! `service` the only one that sees proto types.

pub mod canon;
pub mod config;
pub mod graph6;
pub mod graph_file;
pub mod metrics;
pub mod puzzle;
pub mod report;
pub mod service;
pub mod solver;
pub mod splitmix;
pub mod store;
