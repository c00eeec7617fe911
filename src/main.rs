//! The `puzzled` binary: parses the command line and dispatches to
//! `puzzled::cli`.

use clap::Parser as _;

use puzzled::cli::args::{Cli, Command};
use puzzled::cli::{causes, client, completions, generate, play, serve, solve};

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
        // The client has exit codes of its own, one per gRPC status, and
        // local generation answers as the server would.
        Command::Client(args) => return client::run(*args),
        Command::Generate(args) => return generate::generate(*args),
        Command::Completions(args) => {
            completions::completions(args);
            Ok(())
        }
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {}", causes(&error));
            std::process::ExitCode::FAILURE
        }
    }
}
