//! The `puzzled` command line. `main.rs` parses [`args::Cli`] and hands
//! each subcommand to its module here; these modules are the binary's own
//! front end, so they report with `anyhow` like `main` does.
//!
//! - `args`: the subcommands and their flags;
//! - `solve`: `puzzled solve`, one file or a stream of graph6/sparse6 lines;
//! - `play`: `puzzled analyze` and `puzzled play`;
//! - `game_loop`: a game against an engine in the terminal, as `play` and
//!   `client play` both play it;
//! - `serve`: `puzzled serve`, `puzzled healthcheck` and `puzzled backup`;
//! - `client`: `puzzled client`, the command line of a running server;
//! - `connect_advice`: what a failed connection means (TLS mistakes), for
//!   the client and `healthcheck`;
//! - `generate`: `puzzled generate`, and the flags and output that
//!   `puzzled client generate` shares with it;
//! - `completions`: `puzzled completions`, shell completion scripts;
//! - `choices`: the values flags choose from (game, file layout, side);
//! - `input`: reading a puzzle file, shared by the three above and the client;
//! - `report`: what they print, for people or as JSON.

pub mod args;
mod choices;
pub mod client;
pub mod completions;
mod connect_advice;
mod game_loop;
pub mod generate;
mod input;
pub mod play;
pub mod report;
pub mod serve;
pub mod solve;

/// The error and its causes, `: `-separated, as `{:#}` prints them but
/// with a cause that repeats the end of the message before it said once
/// (hyper's connect errors wrap one another under one message, and sqlx's
/// database errors quote their cause).
pub fn causes(error: &anyhow::Error) -> String {
    let mut messages: Vec<String> = Vec::new();
    for cause in error.chain() {
        let message = cause.to_string();
        if !messages.last().is_some_and(|last| last.ends_with(&message)) {
            messages.push(message);
        }
    }
    messages.join(": ")
}
