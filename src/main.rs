//! The `puzzled` binary: parses the command line and dispatches to
//! `puzzled::cli`.

use clap::Parser as _;

use puzzled::cli::args::{Cli, Command};
use puzzled::cli::{play, serve, solve};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let result = match Cli::parse().command {
        Command::Solve(args) => solve::solve(args),
        Command::Analyze(args) => play::analyze(args),
        Command::Play(args) => play::play(args),
        Command::Serve(config) => serve::serve(*config),
        Command::Healthcheck(args) => serve::healthcheck(args),
        Command::Backup(args) => serve::backup(args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {}", causes(&error));
            std::process::ExitCode::FAILURE
        }
    }
}

/// The error and its causes, `: `-separated, as `{:#}` prints them but
/// with a cause that repeats the end of the message before it said once
/// (hyper's connect errors wrap one another under one message, and sqlx's
/// database errors quote their cause).
fn causes(error: &anyhow::Error) -> String {
    let mut messages: Vec<String> = Vec::new();
    for cause in error.chain() {
        let message = cause.to_string();
        if !messages.last().is_some_and(|last| last.ends_with(&message)) {
            messages.push(message);
        }
    }
    messages.join(": ")
}
