//! puzzled: stores graph-game puzzles, solves them exactly with proofs
//! attached, and serves them over gRPC.
//!
//! `solver` is pure (no async, no I/O, no proto, no SQL) and depends on
//! nothing else in the crate.

pub mod graph_file;
pub mod report;
pub mod solver;
