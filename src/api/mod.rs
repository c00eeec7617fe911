//! The gRPC adapter: the only module that sees proto types. Each handler
//! takes its request apart into domain values, calls the application core
//! (`app`) or the store, and builds its reply; every failure becomes a
//! `tonic::Status` in one place (`error`).
//!
//! - `handlers`: one method per RPC of `puzzled.v1.PuzzleService`;
//! - `answers`: answers to repeated `Solve` and `SolvePuzzle` requests;
//! - `reads`: answers to repeated `GetPuzzle` and `ListPuzzles` requests,
//!   while the store has not changed;
//! - `positions`: AnalyzePosition and the Play stream's games;
//! - `convert`: proto ⇄ domain, every message destructured whole;
//! - `request`: what a handler reads off its call besides the message;
//! - `error`: `AppError` → `tonic::Status`;
//! - `codec`: the wire codec (a message that does not decode is the
//!   client's fault).

pub mod answers;
pub mod codec;
pub mod convert;
pub mod error;
mod handlers;
pub mod positions;
pub mod reads;
pub mod request;

pub use handlers::{MAX_IMPORT_PUZZLES, MemoSizes, PuzzleApi};
pub use request::ClientAddress;

/// Generated code for `proto/puzzled/v1`.
pub mod proto {
    #![allow(clippy::all, missing_docs)]
    tonic::include_proto!("puzzled.v1");
}

/// The encoded descriptor set of `proto/` (with its imports), for reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/puzzled_descriptor.bin"));
