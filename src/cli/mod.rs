//! The `puzzled` command line. `main.rs` parses [`args::Cli`] and hands
//! each subcommand to its module here; these modules are the binary's own
//! front end, so they report with `anyhow` like `main` does.
//!
//! - `args`: the subcommands and their flags;
//! - `solve`: `puzzled solve`, one file or a stream of graph6/sparse6 lines;
//! - `play`: `puzzled analyze` and `puzzled play`;
//! - `serve`: `puzzled serve`, `puzzled healthcheck` and `puzzled backup`;
//! - `input`: reading a puzzle file, shared by the three above;
//! - `report`: what they print, for people or as JSON.

pub mod args;
mod input;
pub mod play;
pub mod report;
pub mod serve;
pub mod solve;
