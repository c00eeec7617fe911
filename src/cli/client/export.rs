//! `puzzled client export`: the ExportPuzzles stream written as it comes,
//! a puzzle at a time, in the layout asked for. Each puzzle is flushed
//! before its resume token counts as reached, so the token printed when the
//! stream is cut (by the server, the network or Ctrl-C) resumes right after
//! the last puzzle that was written, and a resumed export appends to the
//! same file.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::args::{BulkFormat, ExportArgs};
use super::commands::Output;
use super::connect::Connection;
use super::error::{ClientError, Result};
use super::json::to_json;
use super::progress::Progress;
use super::records;
use super::source::proto_game;
use crate::api::proto;

/// Where the puzzles go.
pub enum Sink {
    /// One puzzle a line.
    Lines(Box<dyn std::io::Write>, String),
    /// One contest file a puzzle, in this directory.
    Directory(PathBuf),
}

impl Sink {
    /// Where `format` puzzles go: `file` (a directory for contest files,
    /// appended to when `append`), or standard output.
    pub fn open(file: Option<&Path>, format: BulkFormat, append: bool) -> Result<Sink> {
        let cannot = |path: &Path, error: std::io::Error| {
            ClientError::local(format!("cannot write {}: {error}", path.display()))
        };
        match (file, format) {
            (Some(dir), BulkFormat::Contest) => {
                std::fs::create_dir_all(dir).map_err(|e| cannot(dir, e))?;
                Ok(Sink::Directory(dir.to_owned()))
            }
            (None, BulkFormat::Contest) => Err(ClientError::usage(
                "--format contest writes a file a puzzle: give the directory to write them in",
            )),
            (Some(path), _) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .write(true)
                    .append(append)
                    .truncate(!append)
                    .open(path)
                    .map_err(|e| cannot(path, e))?;
                Ok(Sink::Lines(
                    Box::new(std::io::BufWriter::new(file)),
                    path.display().to_string(),
                ))
            }
            (None, _) => Ok(Sink::Lines(
                Box::new(std::io::BufWriter::new(std::io::stdout())),
                "standard output".into(),
            )),
        }
    }

    /// Writes one puzzle through to the file (`stem.txt` in a directory of
    /// contest files); Err(None) for a puzzle the format cannot hold (said,
    /// and skipped), Err(Some) when writing fails.
    pub fn write(
        &mut self,
        format: BulkFormat,
        puzzle: &proto::Puzzle,
        stem: &str,
    ) -> std::result::Result<(), Option<ClientError>> {
        let failed = |target: &str, error: std::io::Error| {
            Some(ClientError::local(format!(
                "cannot write {target}: {error}"
            )))
        };
        match self {
            Sink::Directory(dir) => {
                let path = dir.join(format!("{stem}.txt"));
                std::fs::write(&path, records::contest_text(puzzle))
                    .map_err(|e| failed(&path.display().to_string(), e))
            }
            Sink::Lines(out, target) => {
                let line = match format {
                    BulkFormat::Jsonl => to_json(puzzle),
                    _ => match records::graph_line(format, puzzle) {
                        Ok(line) => line,
                        Err(why) => {
                            let what = if puzzle.name.is_empty() {
                                stem
                            } else {
                                &puzzle.name
                            };
                            eprintln!("{what}: skipped: {why}");
                            return Err(None);
                        }
                    },
                };
                writeln!(out, "{line}")
                    .and_then(|()| out.flush())
                    .map_err(|e| failed(target, e))
            }
        }
    }
}

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
