//! The command line's arguments: `puzzled solve | analyze | play | serve |
//! healthcheck | backup | client | completions`, parsed by clap.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

pub use super::choices::{FileFormat, Game, Side};
pub use super::input::{FileArgs, FileFlags, PuzzleArgs};

#[derive(Parser)]
#[command(
    name = "puzzled",
    version,
    about = "Graph-game puzzles, solved exactly with proofs attached"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Solve the puzzle in a graph file and print the verdict and its evidence.
    Solve(SolveArgs),
    /// Analyse the position a list of moves reaches in the puzzle of a
    /// graph file: who is to move, who wins, the winning and legal moves.
    Analyze(AnalyzeArgs),
    /// Play the puzzle of a graph file against the engine in the terminal:
    /// type a move a line (a vertex, or `u-v` for the edge game), `hint`
    /// for the winning moves, `quit` to stop.
    Play(PlayArgs),
    /// Generate puzzles here, with the server's own generator and no
    /// server: a game, a graph family, a size, the winner and the least
    /// only-move depth; the same seed gives the same puzzles.
    Generate(Box<crate::cli::generate::GenerateArgs>),
    /// Run the gRPC service.
    Serve(Box<crate::config::Config>),
    /// Ask a running service whether it is SERVING (exit 0) or not (exit 1),
    /// through the gRPC health service; for container health checks.
    Healthcheck(HealthcheckArgs),
    /// Copy the SQLite store into a new file, consistently, while servers
    /// keep using it (see docs/operations.md#backups-restores-and-upgrades).
    Backup(BackupArgs),
    /// Talk to a running service: list, get, create, delete, solve, analyze,
    /// play, generate, import and export puzzles (docs/client.md).
    Client(Box<crate::cli::client::args::ClientArgs>),
    /// Print a shell completion script for `puzzled` to standard output.
    Completions(CompletionsArgs),
}

#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(clap::Args)]
pub struct BackupArgs {
    /// The store, as `serve` takes it (sqlite://PATH).
    #[arg(long = "database", env = "PUZZLED_DATABASE_URL", default_value = crate::config::DEFAULT_DATABASE_URL)]
    pub database_url: String,
    /// The new file to write; an existing file is never written over.
    pub destination: PathBuf,
}

#[derive(clap::Args)]
pub struct HealthcheckArgs {
    /// The service's address.
    #[arg(
        long,
        env = "PUZZLED_HEALTHCHECK_ADDR",
        default_value = crate::config::DEFAULT_SERVER
    )]
    pub addr: String,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 3)]
    pub timeout_secs: u64,
    /// Ask again until the service is SERVING or this many seconds have
    /// passed (a service that is still starting), rather than once.
    #[arg(long, default_value_t = 0)]
    pub wait_secs: u64,
    /// For an https:// address: a PEM certificate to trust besides the
    /// web's root authorities (a private authority's, or the server's own
    /// when it is self-signed).
    #[arg(long, env = "PUZZLED_HEALTHCHECK_CA_CERT")]
    pub ca_cert: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// Print the full evidence as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// The moves played from the start, in the file's numbering, separated
    /// by commas or spaces: vertices (`2,5,3`), or edges for the edge game
    /// (`1-4,2-3`).
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Print the analysis and its evidence as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// The side you play; the engine plays the other.
    #[arg(long, value_enum, default_value = "first")]
    pub side: Side,
}
