//! `puzzled completions SHELL`: a completion script for the whole `puzzled`
//! command, made by clap_complete from the same definitions clap parses.

use clap::CommandFactory as _;

use super::args::{Cli, CompletionsArgs};

pub fn completions(args: CompletionsArgs) {
    let mut command = Cli::command();
    clap_complete::generate(args.shell, &mut command, "puzzled", &mut std::io::stdout());
}
