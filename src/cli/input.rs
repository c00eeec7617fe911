//! What `solve`, `analyze` and `play` share: reading a puzzle file in its
//! format and numbering, the game and distinguished vertices it sets up,
//! and errors in the file's own terms.

use anyhow::{Context as _, Result, bail};

use std::path::PathBuf;

use super::choices::{FileFormat, Game};
use super::report::{self, Labels};
use crate::graph::digraph::Digraph;
use crate::graph::file::Numbering;
use crate::graph::graph6::{self, Graph6Format};
use crate::graph::{self, Graph, Vertex, check_vertex};
use crate::solver::position::{GameSetup, InvalidPuzzle, PositionError};
use crate::solver::search_geography::{Board, Variant};

/// How a graph file is read: its layout, and its distinguished vertices in
/// its own numbering. The local commands and the client's declare these
/// flags once, here.
#[derive(clap::Args, Clone)]
pub struct FileFlags {
    /// The file's layout.
    #[arg(long, value_enum, default_value = "contest")]
    pub format: FileFormat,
    /// The Geographies: the start vertex, in the file's numbering (default: the first vertex).
    #[arg(long)]
    pub start: Option<u64>,
    /// Tree paint: black's vertex, in the file's numbering (default: the first vertex).
    #[arg(long)]
    pub black: Option<u64>,
    /// Tree paint: white's vertex, in the file's numbering (default: the last vertex).
    #[arg(long)]
    pub white: Option<u64>,
}

/// The puzzle in a graph file, as `solve`, `analyze` and `play` read it.
#[derive(clap::Args)]
pub struct PuzzleArgs {
    /// Which game the file describes.
    #[arg(long, value_enum)]
    pub game: Game,
    /// The graph file; `-` reads standard input.
    pub file: PathBuf,
    #[command(flatten)]
    pub read: FileFlags,
    /// Most vertices a graph may have (as the server's flag): a few bytes
    /// of graph6 or sparse6 can announce billions.
    #[arg(long, default_value_t = crate::config::DEFAULT_MAX_VERTICES)]
    pub max_vertices: u64,
    /// Most edges a graph may have (as the server's flag).
    #[arg(long, default_value_t = crate::config::DEFAULT_MAX_EDGES)]
    pub max_edges: u64,
    /// The games solved by search: the most states a search may explore
    /// (as the server's flag); past it the answer is refused, never guessed.
    #[arg(long, default_value_t = crate::config::DEFAULT_SEARCH_BUDGET_STATES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub search_budget_states: u64,
}

impl PuzzleArgs {
    /// The file `file` of `game` read as `read` says, with the size limits
    /// and search budget at the server's defaults (a server applies its
    /// own): how the client reads a file it sends.
    pub fn with_defaults(game: Game, file: PathBuf, read: FileFlags) -> PuzzleArgs {
        PuzzleArgs {
            game,
            file,
            read,
            max_vertices: crate::config::DEFAULT_MAX_VERTICES,
            max_edges: crate::config::DEFAULT_MAX_EDGES,
            search_budget_states: crate::config::DEFAULT_SEARCH_BUDGET_STATES,
        }
    }
}

/// How the client reads a puzzle from a graph file, as the local
/// `puzzled solve` reads it; unused for a stored puzzle, which knows its
/// game and numbering.
#[derive(clap::Args, Clone)]
pub struct FileArgs {
    /// Which game the file describes (required for a file).
    #[arg(long, value_enum)]
    pub game: Option<Game>,
    #[command(flatten)]
    pub read: FileFlags,
}

/// The numbering of a file format, and its line format for graph6/sparse6.
pub fn numbering_of(format: FileFormat) -> (Numbering, Option<Graph6Format>) {
    match format {
        FileFormat::Contest => (Numbering::OneBased, None),
        FileFormat::ZeroBased => (Numbering::ZeroBased, None),
        FileFormat::Graph6 => (Numbering::ZeroBased, Some(Graph6Format::Graph6)),
        FileFormat::Sparse6 => (Numbering::ZeroBased, Some(Graph6Format::Sparse6)),
        FileFormat::Digraph6 => (Numbering::ZeroBased, Some(Graph6Format::Digraph6)),
    }
}

/// The one graph of a puzzle file (for graph6/sparse6: its first line).
pub fn read_puzzle_file(args: &PuzzleArgs) -> Result<graph::file::EdgeListFile> {
    let text = read_input(&args.file)?;
    let (numbering, lines) = numbering_of(args.read.format);
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
        (args.game, args.read.format),
        (Game::TreePaint, FileFormat::Contest)
    );
    Ok(if tree_layout {
        graph::file::parse_tree(&text, numbering)
    } else {
        graph::file::parse_edge_list(&text, numbering)
    }?)
}

/// The whole input: the file, or standard input for `-`.
pub fn read_input(path: &std::path::Path) -> Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut text)
            .context("cannot read standard input")?;
        Ok(text)
    } else {
        Ok(graph::file::read_bytes(path)?)
    }
}

/// A puzzle file's graph, checked: for the directed games the underlying
/// simple graph, with the search's board of the games solved by search.
pub struct Loaded {
    pub graph: Graph,
    pub board: Option<Board>,
}

/// The variant of a game solved by search.
fn search_variant(game: Game) -> Option<Variant> {
    match game {
        Game::DirectedVertexGeography => Some(Variant::DirectedVertex),
        Game::UndirectedEdgeGeography => Some(Variant::UndirectedEdge),
        Game::DirectedEdgeGeography => Some(Variant::DirectedEdge),
        Game::Geography | Game::BipartiteEdge | Game::TreePaint => None,
    }
}

/// The puzzle of `args` on `loaded`: its game and distinguished vertices
/// (given in the file's numbering, defaults applied).
pub fn setup_of<'g>(
    args: &PuzzleArgs,
    loaded: &'g Loaded,
    labels: Labels,
) -> Result<GameSetup<'g>> {
    let graph = &loaded.graph;
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
    if graph.vertex_count() == 0 && (args.game == Game::Geography || loaded.board.is_some()) {
        bail!("geography needs at least one vertex to start from");
    }
    if let Some(board) = &loaded.board {
        return Ok(GameSetup::Search {
            board,
            start: vertex_arg("start", args.read.start, labels.label(0))?,
            budget_states: args.search_budget_states,
        });
    }
    Ok(match args.game {
        Game::Geography => {
            let start = vertex_arg("start", args.read.start, labels.label(0))?;
            GameSetup::Geography { graph, start }
        }
        Game::BipartiteEdge => GameSetup::BipartiteEdge { graph },
        Game::TreePaint => {
            let last = labels.label(graph.vertex_count().saturating_sub(1) as u32);
            let (black, white) = if graph.vertex_count() < 2 {
                (0, 0)
            } else {
                (
                    vertex_arg("black", args.read.black, labels.label(0))?,
                    vertex_arg("white", args.read.white, last)?,
                )
            };
            GameSetup::TreePaint {
                graph,
                black,
                white,
            }
        }
        Game::DirectedVertexGeography
        | Game::UndirectedEdgeGeography
        | Game::DirectedEdgeGeography => unreachable!("a game solved by search has a board"),
    })
}

/// The graph of a file's edge list (`source` names the file or line in
/// errors), checked against the size limits of `args` before anything is
/// allocated for it, and to be simple (a simple digraph for the directed
/// games; within the search's limits for the games solved by search).
pub fn graph_of(
    file: &graph::file::EdgeListFile,
    source: &str,
    labels: Labels,
    args: &PuzzleArgs,
) -> Result<Loaded> {
    if file.vertex_count > args.max_vertices {
        bail!(
            "{source}: {} vertices, more than --max-vertices {}",
            file.vertex_count,
            args.max_vertices
        );
    }
    let edges = file.edges.len() as u64 / 2;
    if edges > args.max_edges {
        bail!(
            "{source}: {edges} edges, more than --max-edges {}",
            args.max_edges
        );
    }
    let not_simple = |e: graph::GraphError, what: &str| {
        anyhow::anyhow!(
            "{source} is not a simple {what}: {}",
            report::graph_error_in_file(&e, labels)
        )
    };
    let variant = search_variant(args.game);
    let (graph, pairs): (Graph, Vec<(Vertex, Vertex)>) =
        if variant.is_some_and(Variant::is_directed) {
            let digraph = Digraph::from_flat_arcs(file.vertex_count, &file.edges)
                .map_err(|e| not_simple(e, "digraph"))?;
            let graph = Graph::from_pairs(file.vertex_count, &digraph.underlying_edges())
                .map_err(|e| not_simple(e, "graph"))?;
            (graph, digraph.arcs().to_vec())
        } else {
            let graph = Graph::from_flat_edges(file.vertex_count, &file.edges)
                .map_err(|e| not_simple(e, "graph"))?;
            let pairs = graph.edges().collect();
            (graph, pairs)
        };
    let board = match variant {
        Some(variant) => Some(
            Board::new(variant, graph.vertex_count(), &pairs)
                .map_err(|e| anyhow::anyhow!("{source}: {e}"))?,
        ),
        None => None,
    };
    Ok(Loaded { graph, board })
}

/// The graph of a puzzle file, checked to be simple.
pub fn load_graph(args: &PuzzleArgs, labels: Labels) -> Result<Loaded> {
    let file = read_puzzle_file(args)?;
    graph_of(&file, &args.file.display().to_string(), labels, args)
}

pub fn game_kind(game: Game) -> report::GameKind {
    match game {
        Game::Geography => report::GameKind::Geography,
        Game::BipartiteEdge => report::GameKind::BipartiteEdge,
        Game::TreePaint => report::GameKind::TreePaint,
        Game::DirectedVertexGeography
        | Game::UndirectedEdgeGeography
        | Game::DirectedEdgeGeography => report::GameKind::Geography,
    }
}

/// An analysis or game error in the file's terms: an illegal move by its
/// number in the list, a puzzle that is not one of its game by its reason.
pub fn position_error(
    error: PositionError,
    args: &PuzzleArgs,
    typed: &[String],
    labels: Labels,
) -> anyhow::Error {
    match error {
        PositionError::Illegal(illegal) => anyhow::anyhow!(
            "{}",
            report::illegal_move_text(
                illegal.index,
                typed.get(illegal.index).map_or("?", String::as_str),
                illegal.reason.code()
            )
        ),
        PositionError::InvalidPuzzle(invalid) => {
            let reason = match &invalid {
                InvalidPuzzle::TreePaint(e) => report::tree_error_in_file(e, labels),
                InvalidPuzzle::BipartiteEdge(e) => report::bipartite_error_in_file(e, labels),
                InvalidPuzzle::Start(e) => e.to_string(),
            };
            anyhow::anyhow!("{}: {reason}", args.file.display())
        }
        PositionError::Cancelled(_) => anyhow::anyhow!("stopped"),
        PositionError::SearchBudget(exceeded) => {
            anyhow::anyhow!("{exceeded}; a larger --search-budget-states may decide it")
        }
    }
}
