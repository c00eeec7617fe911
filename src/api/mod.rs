//! The gRPC adapter: the only module that sees proto types. Each handler
//! decodes its request into domain values, calls one use case of the
//! application core (`app`), and encodes its reply; every failure becomes
//! a `tonic::Status` in one place (`error`). Nothing here names the store.
//!
//! - `handlers`: one method per RPC of `puzzled.v1.PuzzleService`;
//! - `answers`: answers to repeated `Solve` and `SolvePuzzle` requests;
//! - `reads`: answers to repeated `GetPuzzle` and `ListPuzzles` requests,
//!   while the store has not changed;
//! - `positions`: AnalyzePosition and the Play stream's games;
//! - `decode`: proto → domain, every request message destructured whole;
//! - `encode`: domain → proto, every answer destructured whole;
//! - `sizing`: the admission units and bytes a decoded request holds;
//! - `page_token`: the opaque tokens of lists and exports;
//! - `echo`: a client's values cut short for messages and logs;
//! - `request`: what a handler reads off its call besides the message;
//! - `error`: `AppError` → `tonic::Status`;
//! - `codec`: the wire codec (a message that does not decode is the
//!   client's fault).

pub mod answers;
pub mod codec;
pub mod decode;
pub mod echo;
pub mod encode;
pub mod error;
mod handlers;
pub mod page_token;
pub mod positions;
pub mod reads;
pub mod request;
pub mod sizing;

pub use handlers::{MAX_IMPORT_PUZZLES, MemoSizes, PuzzleApi, UseCases};
pub use request::ClientAddress;

/// Generated code for `proto/puzzled/v1`.
pub mod proto {
    #![allow(clippy::all, missing_docs)]
    tonic::include_proto!("puzzled.v1");
}

/// The encoded descriptor set of `proto/` (with its imports), for reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/puzzled_descriptor.bin"));
