//! The puzzle a command is about: a stored one (`puzzles/…`, read in the
//! BASIC view for its game and distinguished vertices) or a graph file,
//! read, numbered and checked exactly as the local `puzzled solve` reads
//! it and sent inline. Either way it carries its numbering, so that moves
//! are typed and shown in the puzzle's own: the API's 0-based one for a
//! stored puzzle, the file's for a file (1-based in the contest layout).

use std::path::Path;

use super::connect::Connection;
use super::error::{ClientError, Result};
use crate::api::proto;
use crate::cli::choices::{FileFormat, Game};
use crate::cli::input::{self, game_kind, numbering_of};
use crate::cli::input::{FileArgs, PuzzleArgs};
use crate::cli::report::{GameKind, Labels};
use crate::solver::position::GameSetup;

/// Where the puzzle is: the RPCs take one or the other.
pub enum Target {
    Name(String),
    Spec(proto::PuzzleSpec),
}

/// A puzzle and what the output needs to speak of it in its own numbering.
pub struct Subject {
    pub target: Target,
    /// The name, or the file as given.
    pub shown: String,
    pub game: Game,
    pub labels: Labels,
    pub vertex_count: u64,
    pub edge_count: u64,
    /// The distinguished vertices, 0-based (those of the game).
    pub start: u32,
    pub black: u32,
    pub white: u32,
}

impl Subject {
    pub fn kind(&self) -> GameKind {
        game_kind(self.game)
    }
}

/// A stored puzzle's name, as opposed to a file: `puzzles/…` (a file in a
/// folder of that name is `./puzzles/…`).
pub fn is_name(argument: &str) -> bool {
    argument.starts_with("puzzles/")
}

/// The puzzle `argument` names: a stored one, or a file read with `file_args`.
pub async fn subject(
    connection: &Connection,
    argument: &str,
    file_args: &FileArgs,
) -> Result<Subject> {
    if is_name(argument) {
        if any_file_flag(file_args) {
            return Err(ClientError::usage(format!(
                "{argument} is a stored puzzle: --game, --format, --start, --black and --white \
                 are for a file"
            )));
        }
        stored(connection, argument).await
    } else {
        let (subject, _) = from_file(Path::new(argument), file_args)?;
        Ok(subject)
    }
}

fn any_file_flag(file_args: &FileArgs) -> bool {
    file_args.game.is_some()
        || !matches!(file_args.read.format, FileFormat::Contest)
        || file_args.read.start.is_some()
        || file_args.read.black.is_some()
        || file_args.read.white.is_some()
}

/// A stored puzzle, read in the BASIC view (no edges).
pub async fn stored(connection: &Connection, name: &str) -> Result<Subject> {
    let puzzle = connection
        .puzzles()
        .await?
        .get_puzzle(connection.unary(proto::GetPuzzleRequest {
            name: name.to_owned(),
            view: proto::PuzzleView::Basic as i32,
        }))
        .await?
        .into_inner();
    let spec = puzzle.spec.unwrap_or_default();
    let game = game_of(spec.game).ok_or_else(|| {
        ClientError::local(format!(
            "{name} is of a game this client does not know (number {})",
            spec.game
        ))
    })?;
    let vertex_count = spec.graph.as_ref().map_or(0, |g| u64::from(g.vertex_count));
    Ok(Subject {
        target: Target::Name(name.to_owned()),
        shown: name.to_owned(),
        game,
        labels: Labels::numbered_from(spec.numbered_from),
        vertex_count,
        edge_count: puzzle.edge_count,
        start: spec.start,
        black: spec.black.unwrap_or(0),
        white: spec.white.unwrap_or(vertex_count.saturating_sub(1) as u32),
    })
}

/// The puzzle of a graph file, and its spec (what `create` stores).
pub fn from_file(path: &Path, file_args: &FileArgs) -> Result<(Subject, proto::PuzzleSpec)> {
    let Some(game) = file_args.game else {
        return Err(ClientError::usage(format!(
            "{}: which game does the file describe? Give --game",
            path.display()
        )));
    };
    let args = PuzzleArgs::with_defaults(game, path.to_owned(), file_args.read.clone());
    let shown = path.display().to_string();
    let labels = Labels::new(numbering_of(args.read.format).0);
    let file = input::read_puzzle_file(&args).map_err(|e| in_file(&shown, &e))?;
    let spec = spec_of(&args, &file, &shown, labels).map_err(|e| in_file(&shown, &e))?;
    let subject = Subject {
        target: Target::Spec(spec.clone()),
        shown,
        game,
        labels,
        vertex_count: file.vertex_count,
        edge_count: file.edges.len() as u64 / 2,
        start: spec.start,
        black: spec.black.unwrap_or(0),
        white: spec.white.unwrap_or(0),
    };
    Ok((subject, spec))
}

/// The spec of one graph read for `args` (`source` names it in errors):
/// checked as `puzzled solve` checks it (a simple graph, or digraph for the
/// directed games; the distinguished vertices in the file's numbering and
/// in the graph), its vertices 0-based as the API numbers them.
pub fn spec_of(
    args: &PuzzleArgs,
    file: &crate::graph::file::EdgeListFile,
    source: &str,
    labels: Labels,
) -> anyhow::Result<proto::PuzzleSpec> {
    let loaded = input::graph_of(file, source, labels, args)?;
    let (start, colours) = match input::setup_of(args, &loaded, labels)? {
        GameSetup::Geography { start, .. } | GameSetup::Search { start, .. } => (start, None),
        GameSetup::BipartiteEdge { .. } => (0, None),
        GameSetup::TreePaint { black, white, .. } => (0, Some((black, white))),
    };
    Ok(proto::PuzzleSpec {
        game: proto_game(args.game) as i32,
        graph: Some(proto::Graph {
            // Within --max-vertices, checked by `graph_of`.
            vertex_count: file.vertex_count as u32,
            edges: file.edges.clone(),
        }),
        start,
        black: colours.map(|(black, _)| black),
        white: colours.map(|(_, white)| white),
        title: String::new(),
        author: String::new(),
        numbered_from: labels.first(),
    })
}

/// An error about a file, with the file's name in front unless it names it.
pub fn in_file(shown: &str, error: &anyhow::Error) -> ClientError {
    let message = crate::cli::causes(error);
    if message.contains(shown) {
        ClientError::local(message)
    } else {
        ClientError::local(format!("{shown}: {message}"))
    }
}

pub fn proto_game(game: Game) -> proto::Game {
    crate::api::encode::game_to_proto(game.into())
}

/// The game of a proto `Game` number, if it is one this client knows.
pub fn game_of(value: i32) -> Option<Game> {
    crate::api::decode::game_from_proto(value, "game")
        .ok()
        .map(Game::from)
}

/// The game as the command line writes it (`tree-paint`).
pub fn game_flag(game: Game) -> String {
    clap::ValueEnum::to_possible_value(&game)
        .map(|value| value.get_name().to_owned())
        .unwrap_or_default()
}

/// Whether the game reads its pairs as arcs.
pub fn is_directed(game: Game) -> bool {
    matches!(
        game,
        Game::DirectedVertexGeography | Game::DirectedEdgeGeography
    )
}

/// A proto move as a solver move, to print it as the local commands do.
pub fn solver_move(m: &proto::Move) -> Option<crate::solver::position::Move> {
    use crate::solver::position::Move;
    match m.r#move.as_ref()? {
        proto::r#move::Move::Vertex(v) => Some(Move::Geography(*v)),
        proto::r#move::Move::Edge(e) => Some(Move::Edge(e.u, e.v)),
    }
}

/// A solver move (parsed as the local commands parse it) for the API.
pub fn proto_move(m: crate::solver::position::Move) -> proto::Move {
    use crate::solver::position::Move;
    proto::Move {
        r#move: Some(match m {
            Move::Geography(v) | Move::Paint(v) => proto::r#move::Move::Vertex(v),
            Move::Edge(u, v) => proto::r#move::Move::Edge(proto::Edge { u, v }),
        }),
    }
}
