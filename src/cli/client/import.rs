//! `puzzled client import`: the puzzles of files stored through
//! ImportPuzzles, in calls of at most `MAX_IMPORT_PUZZLES`. Every puzzle
//! carries a request id made from its content and line (`records.rs`), so
//! that an import run again after an interruption stores nothing twice.
//! Each puzzle that fails, here (it does not read) or on the server (it is
//! not a valid puzzle), is reported with its file and line and the others
//! go on; the command then ends with `EXIT_PARTIAL`.

use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::args::{BulkFormat, ImportArgs};
use super::commands::Output;
use super::connect::Connection;
use super::error::{ClientError, Result};
use super::json::to_json;
use super::progress::Progress;
use super::records::{self, Item, Reader};
use crate::api::{MAX_IMPORT_PUZZLES, proto};
use crate::cli::args::FileFormat;
use crate::cli::input::{FileArgs, FileFlags};

/// What the import did, over all its calls.
#[derive(Default)]
struct Totals {
    created: u64,
    replayed: u64,
    /// Refused by the server.
    failed: u64,
    /// Never sent: they did not read.
    unreadable: u64,
}

impl Totals {
    fn failed(&self) -> u64 {
        self.failed + self.unreadable
    }
}

fn check_flags(args: &ImportArgs) -> Result<()> {
    let graph_flags = args.start.is_some() || args.black.is_some() || args.white.is_some();
    match (args.format, args.game) {
        (BulkFormat::Jsonl, Some(_)) => Err(ClientError::usage(
            "--game: JSON Lines name each puzzle's game (and its start and colours)",
        )),
        (BulkFormat::Jsonl, None) if graph_flags => Err(ClientError::usage(
            "--start, --black and --white are for contest and graph6 files: JSON Lines name \
             each puzzle's own",
        )),
        (BulkFormat::Jsonl, None) => Ok(()),
        (_, None) => Err(ClientError::usage(
            "--game: which game do the files' graphs describe?",
        )),
        (format, Some(game)) => match records::unfit(format, game) {
            Some(why) => Err(ClientError::usage(why)),
            None => Ok(()),
        },
    }
}

pub async fn import(connection: &Connection, output: Output, args: ImportArgs) -> Result<()> {
    check_flags(&args)?;
    let file_args = FileArgs {
        game: args.game,
        read: FileFlags {
            // The graph formats are 0-based, contest files 1-based.
            format: match args.format {
                BulkFormat::Contest => FileFormat::Contest,
                _ => FileFormat::ZeroBased,
            },
            start: args.start,
            black: args.black,
            white: args.white,
        },
    };
    let progress = Progress::new(
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            records::count(&args.files, args.format)
        } else {
            None
        },
        "puzzles",
    );
    let mut reader = Reader::new(args.files.clone(), args.format, file_args).peekable();
    let mut totals = Totals::default();
    while reader.peek().is_some() {
        let ended = import_call(connection, output, &mut reader, &progress, &mut totals).await;
        if let Err(error) = ended {
            progress.finish();
            eprintln!(
                "import stopped: {} created, {} replayed, {} failed so far; the same command \
                 again stores nothing twice",
                totals.created,
                totals.replayed,
                totals.failed()
            );
            return Err(error);
        }
    }
    progress.finish();
    if output.json {
        println!(
            "{{\"created\":{},\"replayed\":{},\"failed\":{}}}",
            totals.created,
            totals.replayed,
            totals.failed()
        );
    } else {
        println!(
            "imported: {} created, {} replayed, {} failed",
            totals.created,
            totals.replayed,
            totals.failed()
        );
    }
    if totals.failed() > 0 {
        return Err(ClientError::Partial(format!(
            "{} of the puzzles were not stored",
            totals.failed()
        )));
    }
    Ok(())
}

/// An item of one call, in input order.
enum Entry {
    /// The n-th puzzle sent in the call, from this source.
    Sent(String),
    Unreadable {
        source: String,
        message: String,
    },
}

/// One ImportPuzzles call: the next puzzles (at most the server's limit)
/// streamed as they are read, then every item's outcome reported in input
/// order.
async fn import_call(
    connection: &Connection,
    output: Output,
    reader: &mut std::iter::Peekable<Reader>,
    progress: &Progress,
    totals: &mut Totals,
) -> Result<()> {
    let (send, requests) = mpsc::channel(16);
    let mut puzzles = connection.puzzles().await?;
    let request = connection.stream(ReceiverStream::new(requests));
    let call = tokio::spawn(async move { puzzles.import_puzzles(request).await });
    let mut entries: Vec<Entry> = Vec::new();
    let mut sent = 0usize;
    while sent < MAX_IMPORT_PUZZLES {
        let Some(item) = reader.next() else {
            break;
        };
        progress.inc();
        match item {
            Item::Unreadable { source, message } => {
                entries.push(Entry::Unreadable { source, message });
            }
            Item::Puzzle {
                source,
                spec,
                request_id,
            } => {
                let message = proto::ImportPuzzlesRequest {
                    puzzle: Some(proto::Puzzle {
                        spec: Some(spec),
                        ..Default::default()
                    }),
                    request_id,
                };
                entries.push(Entry::Sent(source));
                sent += 1;
                // A closed stream means the call has ended; its status says why.
                if send.send(message).await.is_err() {
                    break;
                }
            }
        }
    }
    drop(send);
    let response = call
        .await
        .map_err(|e| ClientError::local(format!("the import's call failed: {e}")));
    let results = match response {
        Ok(Ok(response)) => response.into_inner().results,
        // A call that carried nothing (every item unreadable) was not
        // needed, and its status says nothing.
        Ok(Err(_)) if sent == 0 => Vec::new(),
        Ok(Err(status)) => {
            report_unreadable(&entries, output, progress, totals);
            return Err(status.into());
        }
        Err(error) => {
            report_unreadable(&entries, output, progress, totals);
            return Err(error);
        }
    };
    let mut results = results.iter();
    for entry in &entries {
        let (source, result) = match entry {
            Entry::Sent(source) => match results.next() {
                Some(result) => (source, result),
                None => {
                    return Err(ClientError::local(format!(
                        "{source}: the server answered fewer results than puzzles sent"
                    )));
                }
            },
            Entry::Unreadable { source, message } => {
                unreadable(source, message, output, progress, totals);
                continue;
            }
        };
        match proto::ImportOutcome::try_from(result.outcome) {
            Ok(proto::ImportOutcome::Created) => totals.created += 1,
            Ok(proto::ImportOutcome::Replayed) => totals.replayed += 1,
            _ => {
                totals.failed += 1;
                if !output.json {
                    progress.line(&failure_line(source, result));
                }
            }
        }
        if output.json {
            // The client's envelope around the API's own JSON of the result.
            println!(
                "{{\"source\":{},\"result\":{}}}",
                serde_json::Value::from(source.as_str()),
                to_json(result)
            );
        }
    }
    Ok(())
}

fn unreadable(
    source: &str,
    message: &str,
    output: Output,
    progress: &Progress,
    totals: &mut Totals,
) {
    totals.unreadable += 1;
    if output.json {
        println!(
            "{{\"source\":{},\"error\":{}}}",
            serde_json::Value::from(source),
            serde_json::Value::from(message)
        );
    } else {
        progress.line(&format!("{source}: {message}"));
    }
}

fn report_unreadable(entries: &[Entry], output: Output, progress: &Progress, totals: &mut Totals) {
    for entry in entries {
        if let Entry::Unreadable { source, message } = entry {
            unreadable(source, message, output, progress, totals);
        }
    }
}

/// `puzzles.jsonl:17: INVALID_ARGUMENT VERTEX_OUT_OF_RANGE
/// puzzle.spec.graph.edges[3]: …`: a refused puzzle, where it came from and
/// what CreatePuzzle would have answered.
fn failure_line(source: &str, result: &proto::ImportResult) -> String {
    let mut line = format!("{source}: {}", result.code);
    if !result.reason.is_empty() {
        line.push(' ');
        line.push_str(&result.reason);
    }
    let mut message = result.message.as_str();
    if !result.field.is_empty() {
        line.push(' ');
        line.push_str(&result.field);
        message = message
            .strip_prefix(&format!("{}: ", result.field))
            .unwrap_or(message);
    }
    line.push_str(": ");
    line.push_str(message);
    line
}
