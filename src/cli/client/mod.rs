//! `puzzled client`: a command-line client of a running server, for
//! operators who should not have to write protobuf JSON for grpcurl
//! (docs/client.md is its manual). It is the other end of the wire from
//! `api/`: it speaks the API's messages, and reuses the local commands'
//! file reading (`input.rs`) and wording (`report.rs`) so that a puzzle
//! file means, and prints, the same here as in `puzzled solve`.
//!
//! - `args`: the global flags and the subcommands;
//! - `connect`: the channel (TLS, token, deadlines);
//! - `source`: a stored puzzle or a file's, in its own numbering;
//! - `commands`: the single-call subcommands;
//! - `play`: the Play stream in the terminal;
//! - `import`, `export`, `records`: bulk files both ways;
//! - `generate`: GeneratePuzzles, printed as `puzzled generate` prints;
//! - `progress`: progress bars on a terminal;
//! - `show`: text for people; `json`: the API's JSON for programs;
//! - `error`: failures, their messages and exit codes.

pub mod args;
mod commands;
mod connect;
pub mod error;
pub(crate) mod export;
mod generate;
mod import;
pub(crate) mod json;
mod play;
pub(crate) mod progress;
pub(crate) mod records;
pub(crate) mod show;
pub(crate) mod source;

use std::process::ExitCode;

use self::args::{ClientArgs, ClientCommand};
use self::commands::Output;
use self::connect::Connection;

/// Runs one client command and gives the process's exit code (the table
/// is in `error.rs` and docs/client.md).
pub fn run(args: ClientArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return error::ClientError::local(format!("cannot start: {e}")).report(),
    };
    match runtime.block_on(dispatch(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => error.report(),
    }
}

async fn dispatch(args: ClientArgs) -> error::Result<()> {
    let output = Output { json: args.json };
    let connection = Connection::new(&args.connection)?;
    let ended = match args.command {
        ClientCommand::Health => commands::health(&connection, output).await,
        ClientCommand::List(list) => commands::list(&connection, output, list).await,
        ClientCommand::Get(get) => commands::get(&connection, output, get).await,
        ClientCommand::Create(create) => commands::create(&connection, output, create).await,
        ClientCommand::Delete(name) => commands::delete(&connection, output, name).await,
        ClientCommand::Solve(solve) => commands::solve(&connection, output, solve).await,
        ClientCommand::Analyze(analyze) => commands::analyze(&connection, output, analyze).await,
        ClientCommand::Play(play) => play::play(&connection, output, play).await,
        ClientCommand::Import(import) => import::import(&connection, output, import).await,
        ClientCommand::Export(export) => export::export(&connection, output, export).await,
        ClientCommand::Generate(generate) => {
            generate::generate(&connection, output, generate).await
        }
    };
    match ended {
        Err(error) => Err(connection.explained(error).await),
        done => done,
    }
}
