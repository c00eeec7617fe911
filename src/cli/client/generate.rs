//! `puzzled client generate`: the GeneratePuzzles stream, printed and
//! written as `puzzled generate` prints and writes puzzles made locally.
//! A call sends at most 100 puzzles, so more are asked for in turns, each
//! going on after the last candidate received.

use std::collections::HashSet;

use super::args::GenerateArgs;
use super::commands::Output;
use super::connect::Connection;
use super::error::{ClientError, Result};
use crate::app::AppError;
use crate::app::generate::{DEFAULT_MAX_REJECTED_IN_A_ROW, MAX_COUNT, NoPuzzleFound, Rejections};
use crate::cli::generate::{Delivered, in_flag_words};

pub async fn generate(connection: &Connection, output: Output, args: GenerateArgs) -> Result<()> {
    generate_in_turns(connection, output, args)
        .await
        .map_err(in_flag_words)
}

async fn generate_in_turns(
    connection: &Connection,
    output: Output,
    args: GenerateArgs,
) -> Result<()> {
    let wanted = args.generation.count;
    let mut delivered = Delivered::open(&args.generation, output.json)?;
    // Built once: graph6 lines from standard input can be read only once,
    // and every turn sends them all (candidates index the lines).
    let mut ask = args.generation.ask(0, args.generation.first_candidate)?;
    ask.store = args.store;
    ask.author = args.author.clone().unwrap_or_default();
    let mut request = crate::api::encode::ask_to_proto(ask);
    let most_copies = args
        .generation
        .max_rejected_in_a_row
        .map_or(DEFAULT_MAX_REJECTED_IN_A_ROW, u64::from);
    // Each call passes over copies of its own puzzles; the turns together
    // pass over copies of earlier turns' too, and as many in a row as the
    // request allows rejections end the command as a call would end.
    let mut sent = HashSet::new();
    let mut copies_in_a_row = 0u64;
    while delivered.count < wanted {
        request.count = (wanted - delivered.count).min(MAX_COUNT);
        let mut stream = connection
            .puzzles()
            .await?
            .generate_puzzles(connection.stream(request.clone()))
            .await?
            .into_inner();
        let mut received = 0;
        while let Some(generated) = stream.message().await? {
            received += 1;
            request.first_candidate = generated.candidate.saturating_add(1);
            let hash = generated
                .solution
                .as_ref()
                .map(|s| s.canonical_hash.clone());
            if sent.insert(hash.unwrap_or_default()) {
                copies_in_a_row = 0;
                delivered.put(&generated)?;
            } else {
                copies_in_a_row += 1;
                if copies_in_a_row >= most_copies {
                    return Err(no_new_puzzle(copies_in_a_row, request.first_candidate));
                }
            }
        }
        // A graph6 family ends with its lines.
        if received < request.count {
            break;
        }
    }
    delivered.finish();
    Ok(())
}

/// The status a call would end with had it met the copies itself.
fn no_new_puzzle(copies: u64, next_candidate: u64) -> ClientError {
    let none = NoPuzzleFound {
        tried: copies,
        first_index: next_candidate.saturating_sub(copies),
        rejections: Rejections {
            copies,
            ..Rejections::default()
        },
    };
    tonic::Status::from(AppError::NoPuzzleFound(none)).into()
}
