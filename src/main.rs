//! The `puzzled` command line: `solve` a puzzle file, `serve` the API.

use std::io::{BufRead, Write as _};
use std::path::PathBuf;

use anyhow::{Context as _, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};

use puzzled::graph_file::{self, Numbering};
use puzzled::graph6::{self, Graph6Format};
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
    /// graph6, one graph a line (nauty's geng), 0-based; each graph is
    /// solved in turn and gets one output line.
    Graph6,
    /// sparse6, one graph a line, 0-based; as graph6.
    Sparse6,
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Which game the file describes.
    #[arg(long, value_enum)]
    game: Game,
    /// The graph file; `-` reads standard input.
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
    let (numbering, lines) = match args.format {
        FileFormat::Contest => (Numbering::OneBased, None),
        FileFormat::ZeroBased => (Numbering::ZeroBased, None),
        FileFormat::Graph6 => (Numbering::ZeroBased, Some(Graph6Format::Graph6)),
        FileFormat::Sparse6 => (Numbering::ZeroBased, Some(Graph6Format::Sparse6)),
    };
    let labels = Labels::new(numbering);
    if let Some(format) = lines {
        return solve_each_line(&args, format, labels);
    }
    let tree_layout = matches!(
        (args.game, args.format),
        (Game::TreePaint, FileFormat::Contest)
    );
    let text = read_input(&args.file)?;
    let file = if tree_layout {
        graph_file::parse_tree(&text, numbering)
    } else {
        graph_file::parse_edge_list(&text, numbering)
    }?;
    let output = solve_one(&args, &args.file.display().to_string(), file, labels)?;
    println!("{}", output.trim_end());
    Ok(())
}

/// The whole input: the file, or standard input for `-`.
fn read_input(path: &std::path::Path) -> Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut text)
            .context("cannot read standard input")?;
        Ok(text)
    } else {
        Ok(graph_file::read_bytes(path)?)
    }
}

/// One graph a line, solved as it is read, one result line each (a JSON
/// object with `--json`): the stream of `geng | puzzled solve … -`. A line
/// that is not a graph of the format stops the run with its line number; a
/// graph that is not valid for the game (not bipartite, not a tree) gets
/// its reason as its result line and the run goes on.
fn solve_each_line(args: &SolveArgs, format: Graph6Format, labels: Labels) -> Result<()> {
    let input: Box<dyn BufRead> = if args.file.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(&args.file)
                .with_context(|| format!("cannot read {}", args.file.display()))?,
        ))
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (index, line) in input.split(b'\n').enumerate() {
        let number = index + 1;
        let mut line = line.with_context(|| format!("reading line {number}"))?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.is_empty() {
            continue;
        }
        let file =
            graph6::parse_line(&line, format).map_err(|e| anyhow::anyhow!("line {number}: {e}"))?;
        let result = match solve_one(args, &format!("line {number}"), file, labels) {
            Ok(output) if args.json => output,
            Ok(output) => format!("line {number}: {}", output.trim_end().replace('\n', "; ")),
            Err(error) if args.json => {
                serde_json::json!({"line": number, "error": format!("{error:#}")}).to_string()
            }
            // The error already names the line.
            Err(error) => format!("{error:#}"),
        };
        writeln!(out, "{result}")?;
    }
    out.flush()?;
    Ok(())
}

/// Solves one graph (`source` names it in errors) and renders the result.
fn solve_one(
    args: &SolveArgs,
    source: &str,
    file: graph_file::EdgeListFile,
    labels: Labels,
) -> Result<String> {
    let graph = Graph::from_flat_edges(file.vertex_count, &file.edges).map_err(|e| {
        anyhow::anyhow!(
            "{source} is not a simple graph: {}",
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
    let not_valid = |message: String| anyhow::anyhow!("{source}: {message}");
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
    Ok(output)
}
