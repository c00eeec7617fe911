//! `puzzled client …`: the global flags (which server, as whom, how to
//! print) and one subcommand per task an operator has (docs/client.md).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::connect::SERVER_OPTIONS;
pub use super::connect::ServerFlags;
pub use crate::cli::choices::BulkFormat;
use crate::cli::choices::{Game, Side};
pub use crate::cli::input::FileArgs;

#[derive(Args)]
pub struct ClientArgs {
    #[command(flatten)]
    pub connection: ServerFlags,
    /// Print each result as the API's JSON (the proto3 JSON mapping, as
    /// grpcurl prints it), one document a line.
    #[arg(long, global = true, help_heading = SERVER_OPTIONS)]
    pub json: bool,
    #[command(subcommand)]
    pub command: ClientCommand,
}

#[derive(Subcommand)]
pub enum ClientCommand {
    /// Ask whether the server is SERVING (exit 0) or not.
    Health,
    /// List stored puzzles, newest first, a page at a time.
    List(ListArgs),
    /// Show one stored puzzle.
    Get(GetArgs),
    /// Store the puzzle of a graph file.
    Create(CreateArgs),
    /// Delete a stored puzzle (the admin's token, when the server has one).
    Delete(NameArg),
    /// Solve a stored puzzle (`puzzles/…`) or the puzzle of a graph file.
    Solve(SolveArgs),
    /// Analyse the position some moves reach in a stored puzzle or a file's.
    Analyze(AnalyzeArgs),
    /// Play a stored puzzle or a file's against the server's engine: type a
    /// move a line, `hint` for the winning moves, `quit` to stop.
    Play(PlayArgs),
    /// Store the puzzles of files (JSON Lines, contest files or graph6 lines),
    /// in calls of at most 1000; a run again stores nothing twice.
    Import(ImportArgs),
    /// Write every stored puzzle (or a game's, or a hash's) to a file or
    /// standard output; an interrupted export resumes with --resume-token.
    Export(ExportArgs),
    /// Generate puzzles on the server (GeneratePuzzles): a game, a graph
    /// family, a size, the winner and the least only-move depth; the same
    /// seed gives the same puzzles; --store keeps them.
    Generate(GenerateArgs),
}

#[derive(Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub generation: crate::cli::generate::GenerationArgs,
    /// Store each puzzle with its difficulty (a writer's token where
    /// creating needs one); a puzzle stored already is named, not stored.
    #[arg(long)]
    pub store: bool,
    /// With --store: the puzzles' author.
    #[arg(long)]
    pub author: Option<String>,
}

#[derive(Args)]
pub struct NameArg {
    /// The stored puzzle, `puzzles/ID`.
    pub name: String,
}

#[derive(Args)]
pub struct ListArgs {
    /// Only puzzles of this game.
    #[arg(long, value_enum)]
    pub game: Option<Game>,
    /// Only puzzles with this canonical hash (every stored copy of one puzzle).
    #[arg(long)]
    pub canonical_hash: Option<String>,
    /// Puzzles a page (the server's default 50, at most 1000).
    #[arg(long)]
    pub page_size: Option<u32>,
    /// Start at the page a previous list named.
    #[arg(long)]
    pub page_token: Option<String>,
    /// Walk every page to the end.
    #[arg(long)]
    pub all: bool,
}

#[derive(Args)]
pub struct GetArgs {
    /// The stored puzzle, `puzzles/ID`.
    pub name: String,
    /// Leave out the edge list (the BASIC view).
    #[arg(long)]
    pub basic: bool,
}

#[derive(Args)]
pub struct CreateArgs {
    /// The graph file; `-` reads standard input.
    pub file: PathBuf,
    #[command(flatten)]
    pub file_args: FileArgs,
    /// The puzzle's title (at most 200 characters).
    #[arg(long)]
    pub title: Option<String>,
    /// The puzzle's author (at most 100 characters).
    #[arg(long)]
    pub author: Option<String>,
    /// An idempotency key: the same create sent again stores nothing twice.
    #[arg(long)]
    pub request_id: Option<String>,
}

#[derive(Args)]
pub struct SolveArgs {
    /// A stored puzzle, `puzzles/ID`, or a graph file (`-` for standard input).
    pub puzzle: String,
    #[command(flatten)]
    pub file_args: FileArgs,
    /// Also list every winning first move.
    #[arg(long)]
    pub winning_moves: bool,
    /// Geography: also list every start the second player wins from.
    #[arg(long)]
    pub all_starts: bool,
}

#[derive(Args)]
pub struct AnalyzeArgs {
    /// A stored puzzle, `puzzles/ID`, or a graph file (`-` for standard input).
    pub puzzle: String,
    #[command(flatten)]
    pub file_args: FileArgs,
    /// The moves played from the start, in the puzzle's numbering, separated
    /// by commas or spaces: vertices (`2,5,3`), or edges for the edge game
    /// (`1-4,2-3`).
    #[arg(long, default_value = "")]
    pub moves: String,
}

#[derive(Args)]
pub struct PlayArgs {
    /// A stored puzzle, `puzzles/ID`, or a graph file.
    pub puzzle: String,
    #[command(flatten)]
    pub file_args: FileArgs,
    /// The side you play; the engine plays the other.
    #[arg(long, value_enum, default_value = "first")]
    pub side: Side,
}

#[derive(Args)]
pub struct ImportArgs {
    /// The files to read, in order (`-` reads standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Their layout.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: BulkFormat,
    /// The game of every puzzle (contest and the graph6 formats; JSON
    /// Lines name their own).
    #[arg(long, value_enum)]
    pub game: Option<Game>,
    /// The Geographies: every puzzle's start vertex, in the files' numbering
    /// (default the first).
    #[arg(long)]
    pub start: Option<u64>,
    /// Tree paint: black's vertex, in the files' numbering (default the first).
    #[arg(long)]
    pub black: Option<u64>,
    /// Tree paint: white's vertex, in the files' numbering (default the last).
    #[arg(long)]
    pub white: Option<u64>,
}

#[derive(Args)]
pub struct ExportArgs {
    /// Where to write: a file (a directory for --format contest); standard
    /// output when left out.
    pub file: Option<PathBuf>,
    /// The layout.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: BulkFormat,
    /// Only puzzles of this game (required by every format but jsonl).
    #[arg(long, value_enum)]
    pub game: Option<Game>,
    /// Only puzzles with this canonical hash.
    #[arg(long)]
    pub canonical_hash: Option<String>,
    /// Go on after the puzzle this token was printed for (an interrupted
    /// export prints it); FILE is appended to, not replaced.
    #[arg(long)]
    pub resume_token: Option<String>,
}
