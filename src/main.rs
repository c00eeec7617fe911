//! The `puzzled` command line: `solve` a puzzle file, `serve` the API.

use std::io::{BufRead, Write as _};
use std::path::PathBuf;

use anyhow::{Context as _, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};

use puzzled::graph_file::{self, Numbering};
use puzzled::graph6::{self, Graph6Format};
use puzzled::report::{self, Labels};
use puzzled::solver::cancel::Cancel;
use puzzled::solver::geography::{self, GeographyOptions};
use puzzled::solver::graph::{Graph, check_vertex};
use puzzled::solver::play::Game as PlayedGame;
use puzzled::solver::position::{GameSetup, InvalidPuzzle, PositionError};
use puzzled::solver::{Player, bipartite_edge, tree_paint};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// Analyse the position a list of moves reaches in the puzzle of a
    /// graph file: who is to move, who wins, the winning and legal moves.
    Analyze(AnalyzeArgs),
    /// Play the puzzle of a graph file against the engine in the terminal:
    /// type a move a line (a vertex, or `u-v` for the edge game), `hint`
    /// for the winning moves, `quit` to stop.
    Play(PlayArgs),
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

/// The puzzle in a graph file, as `solve`, `analyze` and `play` read it.
#[derive(clap::Args)]
struct PuzzleArgs {
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
}

#[derive(clap::Args)]
struct SolveArgs {
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// Print the full evidence as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct AnalyzeArgs {
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// The moves played from the start, in the file's numbering, separated
    /// by commas or spaces: vertices (`2,5,3`), or edges for the edge game
    /// (`1-4,2-3`).
    #[arg(long, default_value = "")]
    moves: String,
    /// Print the analysis and its evidence as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Side {
    First,
    Second,
}

#[derive(clap::Args)]
struct PlayArgs {
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// The side you play; the engine plays the other.
    #[arg(long, value_enum, default_value = "first")]
    side: Side,
}

fn main() -> std::process::ExitCode {
    let result = match Cli::parse().command {
        Command::Solve(args) => solve(args),
        Command::Analyze(args) => analyze(args),
        Command::Play(args) => play(args),
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
    let filter = tracing_subscriber::EnvFilter::try_from_env("PUZZLED_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false);
    // `PUZZLED_LOG_FORMAT=json`: one JSON object a line, the call's span
    // fields (method, request id, puzzle, hash, cache, solve time) in it.
    match std::env::var("PUZZLED_LOG_FORMAT").as_deref() {
        Ok("json") => logs
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .init(),
        Ok("text") | Err(std::env::VarError::NotPresent) => logs
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
            .init(),
        Ok(other) => anyhow::bail!("PUZZLED_LOG_FORMAT={other:?}: use text (the default) or json"),
        Err(std::env::VarError::NotUnicode(_)) => {
            anyhow::bail!("PUZZLED_LOG_FORMAT is not UTF-8: use text (the default) or json")
        }
    }
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
    let (numbering, lines) = numbering_of(args.puzzle.format);
    let labels = Labels::new(numbering);
    if let Some(format) = lines {
        return solve_each_line(&args, format, labels);
    }
    let file = read_puzzle_file(&args.puzzle)?;
    let output = solve_one(&args, &args.puzzle.file.display().to_string(), file, labels)?;
    println!("{}", output.trim_end());
    Ok(())
}

/// The numbering of a file format, and its line format for graph6/sparse6.
fn numbering_of(format: FileFormat) -> (Numbering, Option<Graph6Format>) {
    match format {
        FileFormat::Contest => (Numbering::OneBased, None),
        FileFormat::ZeroBased => (Numbering::ZeroBased, None),
        FileFormat::Graph6 => (Numbering::ZeroBased, Some(Graph6Format::Graph6)),
        FileFormat::Sparse6 => (Numbering::ZeroBased, Some(Graph6Format::Sparse6)),
    }
}

/// The one graph of a puzzle file (for graph6/sparse6: its first line).
fn read_puzzle_file(args: &PuzzleArgs) -> Result<graph_file::EdgeListFile> {
    let text = read_input(&args.file)?;
    let (numbering, lines) = numbering_of(args.format);
    if let Some(format) = lines {
        let line = text
            .split(|&b| b == b'\n')
            .next()
            .filter(|line| !line.is_empty())
            .context("the file holds no graph")?;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        return graph6::parse_line(line, format).map_err(|e| anyhow::anyhow!("line 1: {e}"));
    }
    let tree_layout = matches!(
        (args.game, args.format),
        (Game::TreePaint, FileFormat::Contest)
    );
    Ok(if tree_layout {
        graph_file::parse_tree(&text, numbering)
    } else {
        graph_file::parse_edge_list(&text, numbering)
    }?)
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
    let path = &args.puzzle.file;
    let input: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?,
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
    let graph = graph_of(&file, source, labels)?;
    let not_valid = |message: String| anyhow::anyhow!("{source}: {message}");
    let output = match setup_of(&args.puzzle, &graph, labels)? {
        GameSetup::Geography { graph, start } => {
            let options = GeographyOptions {
                all_starts: true,
                winning_moves: true,
            };
            let solution = geography::solve(graph, start, options);
            if args.json {
                report::geography_json(graph, start, &solution, labels).to_string()
            } else {
                report::geography_text(graph, start, &solution, labels)
            }
        }
        GameSetup::BipartiteEdge { graph } => {
            let solution = bipartite_edge::solve(graph)
                .map_err(|e| not_valid(report::bipartite_error_in_file(&e, labels)))?;
            if args.json {
                report::bipartite_edge_json(graph, &solution, labels).to_string()
            } else {
                report::bipartite_edge_text(graph, &solution, labels)
            }
        }
        GameSetup::TreePaint {
            graph,
            black,
            white,
        } => {
            let solution = tree_paint::solve(graph, black, white)
                .map_err(|e| not_valid(report::tree_error_in_file(&e, labels)))?;
            if args.json {
                report::tree_paint_json(graph, &solution, labels).to_string()
            } else {
                report::tree_paint_text(graph, &solution, labels)
            }
        }
    };
    Ok(output)
}

/// The puzzle of `args` on `graph`: its game and distinguished vertices
/// (given in the file's numbering, defaults applied).
fn setup_of<'g>(args: &PuzzleArgs, graph: &'g Graph, labels: Labels) -> Result<GameSetup<'g>> {
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
    Ok(match args.game {
        Game::Geography => {
            if graph.vertex_count() == 0 {
                bail!("geography needs at least one vertex to start from");
            }
            let start = vertex_arg("start", args.start, labels.label(0))?;
            GameSetup::Geography { graph, start }
        }
        Game::BipartiteEdge => GameSetup::BipartiteEdge { graph },
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
            GameSetup::TreePaint {
                graph,
                black,
                white,
            }
        }
    })
}

/// The graph of a file's edge list (`source` names the file or line in
/// errors), checked to be simple.
fn graph_of(file: &graph_file::EdgeListFile, source: &str, labels: Labels) -> Result<Graph> {
    Graph::from_flat_edges(file.vertex_count, &file.edges).map_err(|e| {
        anyhow::anyhow!(
            "{source} is not a simple graph: {}",
            report::graph_error_in_file(&e, labels)
        )
    })
}

/// The graph of a puzzle file, checked to be simple.
fn load_graph(args: &PuzzleArgs, labels: Labels) -> Result<Graph> {
    let file = read_puzzle_file(args)?;
    graph_of(&file, &args.file.display().to_string(), labels)
}

fn game_kind(game: Game) -> report::GameKind {
    match game {
        Game::Geography => report::GameKind::Geography,
        Game::BipartiteEdge => report::GameKind::BipartiteEdge,
        Game::TreePaint => report::GameKind::TreePaint,
    }
}

/// An analysis or game error in the file's terms: an illegal move by its
/// number in the list, a puzzle that is not one of its game by its reason.
fn position_error(
    error: PositionError,
    args: &PuzzleArgs,
    typed: &[String],
    labels: Labels,
) -> anyhow::Error {
    match error {
        PositionError::Illegal(illegal) => {
            let detail = if labels.are_ids() {
                format!(": {}", illegal.message)
            } else {
                String::new()
            };
            anyhow::anyhow!(
                "move {} ({}) is illegal: {}{detail}",
                illegal.index + 1,
                typed.get(illegal.index).map_or("?", String::as_str),
                illegal.reason.code()
            )
        }
        PositionError::InvalidPuzzle(invalid) => {
            let reason = match &invalid {
                InvalidPuzzle::TreePaint(e) => report::tree_error_in_file(e, labels),
                InvalidPuzzle::BipartiteEdge(e) => report::bipartite_error_in_file(e, labels),
                InvalidPuzzle::Start(e) => e.to_string(),
            };
            anyhow::anyhow!("{}: {reason}", args.file.display())
        }
        PositionError::Cancelled(_) => anyhow::anyhow!("stopped"),
    }
}

fn analyze(args: AnalyzeArgs) -> Result<()> {
    let labels = Labels::new(numbering_of(args.puzzle.format).0);
    let graph = load_graph(&args.puzzle, labels)?;
    let setup = setup_of(&args.puzzle, &graph, labels)?;
    let typed: Vec<String> = args
        .moves
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|item| !item.is_empty())
        .map(str::to_owned)
        .collect();
    let kind = game_kind(args.puzzle.game);
    let moves = typed
        .iter()
        .enumerate()
        .map(|(i, item)| {
            report::parse_move(item, kind, labels)
                .map_err(|e| anyhow::anyhow!("--moves: move {}: {e}", i + 1))
        })
        .collect::<Result<Vec<_>>>()?;
    let analysis = setup
        .analyze(&moves, &Cancel::never())
        .map_err(|e| position_error(e, &args.puzzle, &typed, labels))?;
    if args.json {
        println!("{}", report::position_json(&analysis, labels));
    } else {
        print!("{}", report::position_text(&analysis, labels));
    }
    Ok(())
}

fn play(args: PlayArgs) -> Result<()> {
    let labels = Labels::new(numbering_of(args.puzzle.format).0);
    if args.puzzle.file.as_os_str() == "-" {
        bail!("play reads your moves from standard input: give the puzzle as a file");
    }
    let graph = load_graph(&args.puzzle, labels)?;
    let setup = setup_of(&args.puzzle, &graph, labels)?;
    let never = Cancel::never();
    let human = match args.side {
        Side::First => Player::First,
        Side::Second => Player::Second,
    };
    let opening = setup
        .analyze(&[], &never)
        .map_err(|e| position_error(e, &args.puzzle, &[], labels))?;
    let (mut game, exchange) = PlayedGame::start(setup, human.other(), opening, &never)
        .map_err(|e| position_error(e, &args.puzzle, &[], labels))?;
    let kind = game_kind(args.puzzle.game);
    println!(
        "you play the {} player; type a move a line ({}), `hint` for the winning moves, `quit` to stop",
        report::player_name(human),
        if kind == report::GameKind::BipartiteEdge {
            "an edge u-v"
        } else {
            "a vertex"
        }
    );
    if let Some(m) = exchange.engine_move {
        println!("engine: {}", report::move_label(m, labels));
    }
    print!(
        "{}",
        report::play_state_text(game.moves(), game.position(), labels)
    );
    let mut typed: Vec<String> = game
        .moves()
        .iter()
        .map(|&m| report::move_label(m, labels))
        .collect();
    for line in std::io::stdin().lock().lines() {
        if game.position().game_over {
            break;
        }
        let line = line.context("cannot read standard input")?;
        let item = line.trim();
        match item {
            "" => continue,
            "quit" => return Ok(()),
            "hint" => {
                let winning = &game.position().winning;
                if winning.count == 0 {
                    println!("hint: every move loses against perfect play");
                } else {
                    let shown: Vec<String> = winning
                        .moves
                        .iter()
                        .map(|&m| report::move_label(m, labels))
                        .collect();
                    println!(
                        "hint: winning moves ({}): {}",
                        winning.count,
                        shown.join(" ")
                    );
                }
                continue;
            }
            _ => {}
        }
        let played = match report::parse_move(item, kind, labels) {
            Ok(played) => played,
            Err(e) => {
                println!("not a move: {e}");
                continue;
            }
        };
        typed.push(item.to_owned());
        match game.play(setup, played, &never) {
            Ok(exchange) => {
                if let Some(m) = exchange.engine_move {
                    typed.push(report::move_label(m, labels));
                    println!("engine: {}", report::move_label(m, labels));
                }
                print!(
                    "{}",
                    report::play_state_text(game.moves(), game.position(), labels)
                );
            }
            Err(error @ PositionError::Illegal(_)) => {
                println!(
                    "{}; try again",
                    position_error(error, &args.puzzle, &typed, labels)
                );
                typed.pop();
            }
            Err(error) => return Err(position_error(error, &args.puzzle, &typed, labels)),
        }
    }
    if game.position().game_over {
        let you_won = game.position().winner == human;
        println!(
            "{}",
            if you_won {
                "you win"
            } else {
                "the engine wins"
            }
        );
    }
    Ok(())
}
