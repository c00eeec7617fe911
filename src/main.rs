//! The `puzzled` command line: `solve` a puzzle file, `serve` the API.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::{Parser, Subcommand, ValueEnum};

use puzzled::graph_file::{self, Numbering};
use puzzled::report::{self, Labels};
use puzzled::solver::geography::{self, GeographyOptions};
use puzzled::solver::graph::{Graph, check_vertex};
use puzzled::solver::{bipartite_edge, tree_paint};

#[derive(Parser)]
#[command(
    name = "puzzled",
    version,
    about = "Graph-game puzzles, solved exactly with proofs attached"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve the puzzle in a graph file and print the verdict and its evidence.
    Solve(SolveArgs),
    /// Run the gRPC service.
    Serve(puzzled::config::Config),
    /// Ask a running service whether it is SERVING (exit 0) or not (exit 1),
    /// through the gRPC health service; for container health checks.
    Healthcheck(HealthcheckArgs),
}

#[derive(clap::Args)]
struct HealthcheckArgs {
    /// The service's address.
    #[arg(
        long,
        env = "PUZZLED_HEALTHCHECK_ADDR",
        default_value = "http://127.0.0.1:50051"
    )]
    addr: String,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 3)]
    timeout_secs: u64,
}

#[derive(Clone, Copy, ValueEnum)]
enum Game {
    /// Undirected Vertex Geography.
    Geography,
    /// The bipartite edge-adding game (AtCoder ABC398 G).
    BipartiteEdge,
    /// The tree painting game (AtCoder ABC067 D).
    TreePaint,
}

/// The layout of the input file.
#[derive(Clone, Copy, ValueEnum)]
enum FileFormat {
    /// The source problem's layout, 1-based: `N M` then `M` lines `u v`
    /// (tree paint: `N` then `N − 1` lines `a b`).
    Contest,
    /// `n m` then `m` lines `u v`, 0-based (as written by gen.py).
    ZeroBased,
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Which game the file describes.
    #[arg(long, value_enum)]
    game: Game,
    /// The graph file.
    file: PathBuf,
    #[arg(long, value_enum, default_value = "contest")]
    format: FileFormat,
    /// Geography: the start vertex, in the file's numbering (default: the first vertex).
    #[arg(long)]
    start: Option<u64>,
    /// Tree paint: black's vertex, in the file's numbering (default: the first vertex).
    #[arg(long)]
    black: Option<u64>,
    /// Tree paint: white's vertex, in the file's numbering (default: the last vertex).
    #[arg(long)]
    white: Option<u64>,
    /// Print the full evidence as JSON.
    #[arg(long)]
    json: bool,
}

fn main() -> std::process::ExitCode {
    let result = match Cli::parse().command {
        Command::Solve(args) => solve(args),
        Command::Serve(config) => serve(config),
        Command::Healthcheck(args) => healthcheck(args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn serve(config: puzzled::config::Config) -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("PUZZLED_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let served = runtime.block_on(async {
        let app = puzzled::service::Application::build(config).await?;
        app.run_until_stopped().await
    });
    // The grace period is over: solves were told to stop, and whatever
    // still runs on the blocking pool must not hold the exit.
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    served?;
    Ok(())
}

fn healthcheck(args: HealthcheckArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let timeout = std::time::Duration::from_secs(args.timeout_secs);
    let serving = runtime.block_on(puzzled::service::health_check(&args.addr, timeout))?;
    if serving {
        println!("SERVING");
        Ok(())
    } else {
        bail!("{} is not serving", args.addr)
    }
}

fn solve(args: SolveArgs) -> Result<()> {
    let numbering = match args.format {
        FileFormat::Contest => Numbering::OneBased,
        FileFormat::ZeroBased => Numbering::ZeroBased,
    };
    let labels = Labels::new(numbering);
    let tree_layout = matches!(
        (args.game, args.format),
        (Game::TreePaint, FileFormat::Contest)
    );
    let file = graph_file::read(&args.file, |text| {
        if tree_layout {
            graph_file::parse_tree(text, numbering)
        } else {
            graph_file::parse_edge_list(text, numbering)
        }
    })?;
    let graph = Graph::from_flat_edges(file.vertex_count, &file.edges).map_err(|e| {
        anyhow::anyhow!(
            "{} is not a simple graph: {}",
            args.file.display(),
            report::graph_error_in_file(&e, labels)
        )
    })?;
    let vertex_arg = |field: &'static str, label: Option<u64>, default: u64| -> Result<u32> {
        let label = label.unwrap_or(default);
        let Some(v) = labels.vertex(label) else {
            bail!("--{field}: vertex {label} is not in the file's numbering (it starts at 1)");
        };
        check_vertex(field, v, graph.vertex_count()).map_err(|_| {
            anyhow::anyhow!(
                "--{field}: vertex {label} is not in the graph ({} vertices)",
                graph.vertex_count()
            )
        })
    };
    let not_valid = |message: String| anyhow::anyhow!("{}: {message}", args.file.display());
    let output = match args.game {
        Game::Geography => {
            if graph.vertex_count() == 0 {
                bail!("geography needs at least one vertex to start from");
            }
            let start = vertex_arg("start", args.start, labels.label(0))?;
            let options = GeographyOptions {
                all_starts: true,
                winning_moves: true,
            };
            let solution = geography::solve(&graph, start, options);
            if args.json {
                report::geography_json(&graph, start, &solution, labels).to_string()
            } else {
                report::geography_text(&graph, start, &solution, labels)
            }
        }
        Game::BipartiteEdge => {
            let solution = bipartite_edge::solve(&graph)
                .map_err(|e| not_valid(report::bipartite_error_in_file(&e, labels)))?;
            if args.json {
                report::bipartite_edge_json(&graph, &solution, labels).to_string()
            } else {
                report::bipartite_edge_text(&graph, &solution, labels)
            }
        }
        Game::TreePaint => {
            let last = labels.label(graph.vertex_count().saturating_sub(1) as u32);
            let (black, white) = if graph.vertex_count() < 2 {
                (0, 0)
            } else {
                (
                    vertex_arg("black", args.black, labels.label(0))?,
                    vertex_arg("white", args.white, last)?,
                )
            };
            let solution = tree_paint::solve(&graph, black, white)
                .map_err(|e| not_valid(report::tree_error_in_file(&e, labels)))?;
            if args.json {
                report::tree_paint_json(&graph, &solution, labels).to_string()
            } else {
                report::tree_paint_text(&graph, &solution, labels)
            }
        }
    };
    println!("{}", output.trim_end());
    Ok(())
}
