//! `puzzled client export`: the ExportPuzzles stream written as it comes,
//! a puzzle at a time, in the layout asked for. Each puzzle is flushed
//! before its resume token counts as reached, so the token printed when the
//! stream is cut (by the server, the network or Ctrl-C) resumes right after
//! the last puzzle that was written, and a resumed export appends to the
//! same file.

use super::args::{BulkFormat, ExportArgs};
use super::commands::Output;
use super::connect::Connection;
use super::error::{ClientError, Result};
use super::progress::Progress;
use super::records::{self, Sink};
use super::source::proto_game;
use crate::api::proto;

fn check_flags(args: &ExportArgs) -> Result<()> {
    match (args.format, args.game) {
        (BulkFormat::Jsonl, _) => Ok(()),
        (_, None) => Err(ClientError::usage(
            "--game: the contest and graph formats do not say the game, so an export in them \
             is of one game",
        )),
        (format, Some(game)) => match records::unfit(format, game) {
            Some(why) => Err(ClientError::usage(why)),
            None => Ok(()),
        },
    }
}

pub async fn export(connection: &Connection, output: Output, args: ExportArgs) -> Result<()> {
    check_flags(&args)?;
    let mut sink = Sink::open(
        args.file.as_deref(),
        args.format,
        args.resume_token.is_some(),
    )?;
    let mut stream = connection
        .puzzles()
        .await?
        .export_puzzles(connection.stream(proto::ExportPuzzlesRequest {
            game: args.game.map_or(0, |game| proto_game(game) as i32),
            canonical_hash: args.canonical_hash.clone().unwrap_or_default(),
            page_token: args.resume_token.clone().unwrap_or_default(),
        }))
        .await?
        .into_inner();
    // Puzzles written to the terminal itself need no count drawn over them.
    let progress = if args.file.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        Progress::hidden()
    } else {
        Progress::new(None, "puzzles")
    };
    let mut last_token = args.resume_token.clone();
    let (mut written, mut skipped) = (0u64, 0u64);
    let interrupted = tokio::signal::ctrl_c();
    tokio::pin!(interrupted);
    // Said when there is something to go on from: an export that failed
    // before writing anything is simply run again.
    let cut = |error: ClientError, written: u64, last_token: &Option<String>| {
        progress.finish();
        let interrupted = matches!(error, ClientError::Interrupted);
        match last_token {
            _ if written == 0 && !interrupted => {}
            Some(token) => eprintln!(
                "export interrupted after {}; to go on, run it again with --resume-token {token}",
                puzzles(written)
            ),
            None => eprintln!("export interrupted before its first puzzle; run it again"),
        }
        error
    };
    loop {
        // Ctrl-C first: a stream that always has its next puzzle ready
        // would otherwise never let it be seen.
        let next = tokio::select! {
            biased;
            _ = &mut interrupted => {
                return Err(cut(ClientError::Interrupted, written, &last_token));
            }
            next = stream.message() => next,
        };
        let exported = match next {
            Ok(Some(exported)) => exported,
            Ok(None) => break,
            Err(status) => return Err(cut(status.into(), written, &last_token)),
        };
        let puzzle = exported.puzzle.unwrap_or_default();
        let id = puzzle.name.strip_prefix("puzzles/").unwrap_or(&puzzle.name);
        match sink.write(args.format, &puzzle, id) {
            Ok(()) => written += 1,
            Err(None) => skipped += 1,
            Err(Some(error)) => return Err(cut(error, written, &last_token)),
        }
        last_token = Some(exported.resume_token);
        progress.inc();
        // Lets the runtime read its signals between two puzzles that
        // arrive at once.
        tokio::task::yield_now().await;
    }
    progress.finish();
    if !output.json {
        let target = match (&sink, &args.file) {
            (Sink::Directory(dir), _) => format!(" to {}", dir.display()),
            (_, Some(path)) => format!(" to {}", path.display()),
            (_, None) => String::new(),
        };
        eprintln!("exported {}{target}", puzzles(written));
    }
    if skipped > 0 {
        return Err(ClientError::Partial(format!(
            "{} skipped: --format {} cannot hold them",
            puzzles(skipped),
            clap::ValueEnum::to_possible_value(&args.format)
                .map(|v| v.get_name().to_owned())
                .unwrap_or_default()
        )));
    }
    Ok(())
}

/// `1 puzzle`, `2 puzzles`.
fn puzzles(count: u64) -> String {
    crate::cli::report::counted(count as usize, "puzzle", "puzzles")
}
