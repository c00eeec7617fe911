//! One model of a game position for all three games: the puzzle plus the
//! moves played so far, replayed and checked move by move, then analysed.
//!
//! Each game keeps its own replay and analysis (in its module); this module
//! only gives them one vocabulary:
//! - a [`Move`] of any game,
//! - an [`IllegalMove`] that names the first illegal move, with one
//!   [`IllegalReason`] enum across games (and a stable code for each reason),
//! - a [`PositionAnalysis`]: whether the game is over, who is to move, who
//!   wins with perfect play, the winning moves ([`WinningMoves`], one type for
//!   all games), the legal moves and the evidence,
//! - [`engine_move`]: the move an engine plays from a position.
//!
//! The first player moves first in every game: from the start of Geography,
//! on the starting graph of the edge game, and as black in tree painting.
//! After `k` moves the first player is to move iff `k` is even.

use std::cmp::Reverse;
use std::fmt;

use serde::Serialize;

use super::Player;
use super::bipartite_edge::{
    self, BipartiteCounts, BipartiteEdgeError, IllegalEdgeReason, LegalMoveClass, MoveListError,
    WinningEdges,
};
use super::cancel::{Cancel, Cancelled};
use super::geography;
use super::search_geography::{Board, BudgetExceeded, IllegalStep, Search, SearchStop};
use super::tree_paint::{self, Colour, IllegalMoveReason, TreePaintError};
use crate::graph::{Graph, Vertex, VertexFieldError, check_vertex};

/// A move of any of the three games.
///
/// Ordered (variant, then vertices), which gives the "smallest move" that
/// breaks ties in [`engine_move`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// Geography: the vertex the token moves to.
    Geography(Vertex),
    /// The edge game: the edge added. Either order is accepted; the solver
    /// reports edges as `(u, v)` with `u < v`.
    Edge(Vertex, Vertex),
    /// Tree painting: the vertex painted in the mover's colour (black for the
    /// first player, white for the second).
    Paint(Vertex),
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Geography(v) => write!(f, "move to vertex {v}"),
            Move::Edge(u, v) => write!(f, "edge ({u}, {v})"),
            Move::Paint(v) => write!(f, "paint vertex {v}"),
        }
    }
}

/// The winning moves of the side to move, in the same shape for every game.
///
/// For Geography and tree painting `moves` lists every winning move
/// (ascending). The edge game can have quadratically many, so `moves` holds
/// one example per winning class there; `count` is exact in every game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WinningMoves {
    /// Every winning move when `complete`, else one example per class.
    pub moves: Vec<Move>,
    /// The exact number of winning moves; 0 when the side to move loses.
    pub count: u64,
    /// Exactly one move wins.
    pub unique: bool,
    /// `moves` lists every winning move (`count == moves.len()`).
    pub complete: bool,
}

impl WinningMoves {
    /// A complete list of winning moves.
    pub fn complete_list(moves: Vec<Move>) -> WinningMoves {
        let count = moves.len() as u64;
        WinningMoves {
            moves,
            count,
            unique: count == 1,
            complete: true,
        }
    }

    /// The vertex moves of Geography or tree painting (both solvers report
    /// them as [`geography::WinningMoves`], which does not say which game it
    /// is about, hence `as_move`: `Move::Geography` or `Move::Paint`).
    pub fn from_vertex_moves(
        winning: geography::WinningMoves,
        as_move: fn(Vertex) -> Move,
    ) -> WinningMoves {
        WinningMoves::complete_list(winning.moves.into_iter().map(as_move).collect())
    }
}

impl From<WinningEdges> for WinningMoves {
    /// One example per winning class of the edge game, with the exact count.
    fn from(winning: WinningEdges) -> WinningMoves {
        let moves: Vec<Move> = winning
            .classes
            .iter()
            .map(|class| Move::Edge(class.example.0, class.example.1))
            .collect();
        WinningMoves {
            complete: winning.edge_count == moves.len() as u64,
            moves,
            count: winning.edge_count,
            unique: winning.unique,
        }
    }
}

/// The evidence behind a [`PositionAnalysis`], per game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum PositionEvidence {
    /// About the remaining graph: the input graph with every visited vertex
    /// except `current` deleted (vertex ids kept). The side to move wins iff
    /// every maximum matching of it covers `current`.
    Geography {
        /// The vertex holding the token.
        current: Vertex,
        /// A maximum matching of the remaining graph, pairs `(u, v)` with
        /// `u < v`, sorted; it covers `current` iff the side to move wins.
        matching: Vec<(Vertex, Vertex)>,
        /// A Tutte–Berge barrier `B` proving `matching` maximum:
        /// `(n + |B| − odd(R − B)) / 2 = |matching|` for the remaining graph
        /// `R` on all `n` ids.
        barrier: Vec<Vertex>,
        /// When the side to move wins: a barrier of `R − current` proving
        /// that its maximum matchings are one smaller, so every maximum
        /// matching of `R` covers `current`.
        current_barrier: Option<Vec<Vertex>>,
    },
    /// The counts the edge game's rule reads, and every class of legal
    /// moves (the winning classes are those with `wins`).
    BipartiteEdge {
        counts: BipartiteCounts,
        classes: Vec<LegalMoveClass>,
    },
    /// The Geography variants solved by search.
    Search {
        /// The vertex holding the token.
        current: Vertex,
        /// The states the search of this position put in its table.
        states: u64,
    },
    /// The split of the uncoloured vertices under optimal play.
    TreePaint {
        /// Uncoloured vertices black paints from here under optimal play.
        black_future: u64,
        /// Uncoloured vertices white paints from here under optimal play.
        white_future: u64,
        /// Black vertices at the end (painted now plus `black_future`).
        black_count: u64,
        /// White vertices at the end (painted now plus `white_future`).
        white_count: u64,
    },
}

/// A position: the same questions answered for every game. A game in
/// progress reports this; an analysis adds the evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayPosition {
    /// The side to move has no legal move: it has lost.
    pub game_over: bool,
    pub to_move: Player,
    /// Who wins from here with perfect play; once the game is over, the
    /// actual result (the player not to move).
    pub winner: Player,
    /// The winning moves of the side to move (none when it loses).
    pub winning: WinningMoves,
    /// Every legal move, ascending; for the edge game one example per class
    /// of legal moves, in the order of the evidence's classes.
    pub legal_moves: Vec<Move>,
    /// The exact number of legal moves.
    pub legal_move_count: u64,
}

/// A position analysed: the position and the evidence for its verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionAnalysis {
    #[serde(flatten)]
    pub position: PlayPosition,
    pub evidence: PositionEvidence,
}

/// Why a move is illegal, across all games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum IllegalReason {
    /// A move of another game (an edge in Geography, …).
    WrongMoveKind,
    /// A vertex that is not in the graph.
    VertexOutOfRange,
    /// The side to move had no legal move left: the game had ended.
    GameOver,
    /// Geography: the vertex is not next to the token's vertex.
    NotAdjacent,
    /// Geography: the vertex has been visited (the start counts).
    AlreadyVisited,
    /// The edge game: both ends are one vertex.
    SelfLoop,
    /// The edge game: the edge is in the graph already.
    EdgeAlreadyPresent,
    /// The edge game: the edge would close an odd cycle.
    ClosesOddCycle,
    /// Tree painting: the vertex has no neighbour of the mover's colour.
    NotNextToOwnColour,
    /// Tree painting: the vertex is black or white already.
    AlreadyPainted,
    /// Edge Geography: the edge or arc to the vertex was used already.
    EdgeAlreadyUsed,
}

impl IllegalReason {
    /// A stable UPPER_SNAKE_CASE name for the reason, for error details
    /// that clients match on.
    pub fn code(&self) -> &'static str {
        match self {
            IllegalReason::WrongMoveKind => "WRONG_MOVE_KIND",
            IllegalReason::VertexOutOfRange => "VERTEX_OUT_OF_RANGE",
            IllegalReason::GameOver => "GAME_OVER",
            IllegalReason::NotAdjacent => "NOT_ADJACENT",
            IllegalReason::AlreadyVisited => "ALREADY_VISITED",
            IllegalReason::SelfLoop => "SELF_LOOP",
            IllegalReason::EdgeAlreadyPresent => "EDGE_ALREADY_PRESENT",
            IllegalReason::ClosesOddCycle => "CLOSES_ODD_CYCLE",
            IllegalReason::NotNextToOwnColour => "NOT_NEXT_TO_OWN_COLOUR",
            IllegalReason::AlreadyPainted => "ALREADY_PAINTED",
            IllegalReason::EdgeAlreadyUsed => "EDGE_ALREADY_USED",
        }
    }
}

impl IllegalReason {
    /// Every reason, for looking one up by its code.
    pub const ALL: [IllegalReason; 11] = [
        IllegalReason::WrongMoveKind,
        IllegalReason::VertexOutOfRange,
        IllegalReason::GameOver,
        IllegalReason::NotAdjacent,
        IllegalReason::AlreadyVisited,
        IllegalReason::SelfLoop,
        IllegalReason::EdgeAlreadyPresent,
        IllegalReason::ClosesOddCycle,
        IllegalReason::NotNextToOwnColour,
        IllegalReason::AlreadyPainted,
        IllegalReason::EdgeAlreadyUsed,
    ];

    /// The reason whose [`code`](IllegalReason::code) is `code`.
    pub fn from_code(code: &str) -> Option<IllegalReason> {
        IllegalReason::ALL
            .into_iter()
            .find(|reason| reason.code() == code)
    }

    /// Why the move is illegal, in words that name no vertex: whoever
    /// shows it can put the move in front in the numbering its reader
    /// uses (a [`IllegalMove`]'s message numbers vertices from 0).
    pub fn explanation(&self) -> &'static str {
        match self {
            IllegalReason::WrongMoveKind => "this game takes another kind of move",
            IllegalReason::VertexOutOfRange => "there is no such vertex",
            IllegalReason::GameOver => "the game is over",
            IllegalReason::NotAdjacent => "it is not next to the token",
            IllegalReason::AlreadyVisited => "it was visited already",
            IllegalReason::SelfLoop => "both ends are one vertex",
            IllegalReason::EdgeAlreadyPresent => "the edge is in the graph already",
            IllegalReason::ClosesOddCycle => "the edge would close an odd cycle",
            IllegalReason::NotNextToOwnColour => "it is not next to a vertex of the mover's colour",
            IllegalReason::AlreadyPainted => "it is painted already",
            IllegalReason::EdgeAlreadyUsed => "the way to it was used already",
        }
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The first illegal move of a move list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message}")]
pub struct IllegalMove {
    /// Position in the move list, from 0.
    pub index: usize,
    /// The move as given.
    pub played: Move,
    pub reason: IllegalReason,
    /// A sentence naming the move and why it is illegal, starting
    /// `moves[index]: `.
    pub message: String,
}

/// The puzzle itself is not a position of its game (callers normally
/// validate puzzles before storing them, so this is a caller bug or a stale
/// puzzle rather than a bad move).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPuzzle {
    /// Geography's start vertex is not in the graph.
    #[error(transparent)]
    Start(#[from] VertexFieldError),
    #[error(transparent)]
    BipartiteEdge(#[from] BipartiteEdgeError),
    /// Not a tree, or bad black and white vertices.
    #[error(transparent)]
    TreePaint(TreePaintError),
}

/// Why a position could not be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    #[error(transparent)]
    InvalidPuzzle(#[from] InvalidPuzzle),
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
    /// A Geography variant solved by search passed its budget.
    #[error(transparent)]
    SearchBudget(#[from] BudgetExceeded),
}

impl From<SearchStop> for PositionError {
    fn from(stop: SearchStop) -> Self {
        match stop {
            SearchStop::BudgetExceeded(exceeded) => PositionError::SearchBudget(exceeded),
            SearchStop::Cancelled(cancelled) => PositionError::Cancelled(cancelled),
        }
    }
}

/// A puzzle of one of the games, without moves.
#[derive(Debug, Clone, Copy)]
pub enum GameSetup<'a> {
    Geography {
        graph: &'a Graph,
        start: Vertex,
    },
    BipartiteEdge {
        graph: &'a Graph,
    },
    TreePaint {
        graph: &'a Graph,
        black: Vertex,
        white: Vertex,
    },
    /// A Geography variant solved by search, within `budget_states`.
    Search {
        board: &'a Board,
        start: Vertex,
        budget_states: u64,
    },
}

impl GameSetup<'_> {
    /// The position after `moves`, analysed, through the game's entry point
    /// ([`geography_position`], [`bipartite_edge_position`],
    /// [`tree_paint_position`]).
    pub fn analyze(
        &self,
        moves: &[Move],
        cancel: &Cancel,
    ) -> Result<PositionAnalysis, PositionError> {
        self.analyze_warm(moves, None, cancel)
    }

    /// [`GameSetup::analyze`], a Geography position warm-started from
    /// `warm`, a known maximum matching of the graph or of an earlier
    /// remaining graph as a mate array (see [`geography_position_from`]).
    /// The other games have no matching to start from and ignore it.
    pub fn analyze_warm(
        &self,
        moves: &[Move],
        warm: Option<&[Vertex]>,
        cancel: &Cancel,
    ) -> Result<PositionAnalysis, PositionError> {
        match *self {
            GameSetup::Geography { graph, start } => {
                geography_position_from(graph, start, moves, warm, cancel)
            }
            GameSetup::BipartiteEdge { graph } => bipartite_edge_position(graph, moves, cancel),
            GameSetup::TreePaint {
                graph,
                black,
                white,
            } => tree_paint_position(graph, black, white, moves, cancel),
            GameSetup::Search {
                board,
                start,
                budget_states,
            } => search_position(board, start, budget_states, moves, cancel),
        }
    }
}

/// The side to move after `move_count` moves.
fn to_move_after(move_count: usize) -> Player {
    if move_count.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    }
}

/// The payloads of the leading moves of the right kind, and the index of the
/// first move of another kind, if any. Moves are checked in order, so a
/// replay of the leading moves decides whether an earlier move is illegal
/// before the wrong kind is reported.
fn leading_moves_of_kind<T>(
    moves: &[Move],
    payload: impl Fn(Move) -> Option<T>,
) -> (Vec<T>, Option<usize>) {
    let mut leading = Vec::with_capacity(moves.len());
    for (index, &played) in moves.iter().enumerate() {
        match payload(played) {
            Some(value) => leading.push(value),
            None => return (leading, Some(index)),
        }
    }
    (leading, None)
}

/// A move of another kind where a Geography wants the vertex the token
/// moves to.
pub(super) fn not_a_token_move(index: usize, played: Move) -> IllegalMove {
    wrong_kind(
        index,
        played,
        "Geography",
        "name the vertex the token moves to",
    )
}

pub(super) fn wrong_kind(index: usize, played: Move, game: &str, expected: &str) -> IllegalMove {
    IllegalMove {
        index,
        played,
        reason: IllegalReason::WrongMoveKind,
        message: format!(
            "moves[{index}]: {played} is not a move of {game}, whose moves {expected}"
        ),
    }
}

/// Geography (undirected vertex geography) from `start` after `moves`, each
/// a [`Move::Geography`]: the token starts on `start`, which counts as
/// visited; each move slides it to an unvisited neighbour; a player who
/// cannot move loses.
///
/// Each move is checked in order: its kind, the vertex is in range, the
/// game is not over, the vertex is unvisited, it is next to the token. The
/// analysis lists every winning and every legal move. Time: one or two
/// maximum-matching runs on the remaining graph (see [`geography::solve`]).
pub fn geography_position(
    graph: &Graph,
    start: Vertex,
    moves: &[Move],
    cancel: &Cancel,
) -> Result<PositionAnalysis, PositionError> {
    geography_position_from(graph, start, moves, None, cancel)
}

/// [`geography_position`] warm-started from a known maximum matching of
/// `graph` or of an earlier remaining graph, as a mate array (such as a
/// cached witness): a few augmentations instead of a new matching (see
/// [`geography::analyze_position_from`]).
pub fn geography_position_from(
    graph: &Graph,
    start: Vertex,
    moves: &[Move],
    warm: Option<&[Vertex]>,
    cancel: &Cancel,
) -> Result<PositionAnalysis, PositionError> {
    let start = check_vertex("start", u64::from(start), graph.vertex_count())
        .map_err(InvalidPuzzle::from)?;
    let (vertices, wrong) = leading_moves_of_kind(moves, |played| match played {
        Move::Geography(v) => Some(u64::from(v)),
        _ => None,
    });
    if let Some(index) = wrong {
        geography::check_moves(graph, start, &vertices)
            .map_err(|illegal| geography_illegal(moves, illegal))?;
        return Err(not_a_token_move(index, moves[index]).into());
    }
    let position = geography::analyze_position_from(graph, start, &vertices, warm, cancel)?
        .map_err(|illegal| geography_illegal(moves, illegal))?;
    let legal_moves: Vec<Move> = position
        .legal_moves
        .iter()
        .copied()
        .map(Move::Geography)
        .collect();
    Ok(PositionAnalysis {
        position: PlayPosition {
            game_over: position.game_over,
            to_move: position.to_move,
            winner: position.winner,
            winning: WinningMoves::complete_list(
                position
                    .winning_moves
                    .iter()
                    .copied()
                    .map(Move::Geography)
                    .collect(),
            ),
            legal_move_count: legal_moves.len() as u64,
            legal_moves,
        },
        evidence: PositionEvidence::Geography {
            current: position.current,
            matching: position.matching,
            barrier: position.barrier,
            current_barrier: position.current_barrier,
        },
    })
}

/// A Geography variant solved by search (directed vertex, undirected edge,
/// directed edge) from `start` after `moves`, each a [`Move::Geography`]
/// naming the vertex the token moves to (on a simple graph the edge or arc
/// it moves along is the one from the token's vertex to it).
///
/// Each move is checked in order: its kind, the vertex is in range, the
/// game is not over, an arc or edge leads there, and it (or, in directed
/// vertex Geography, the vertex) is unused. The analysis searches the
/// position within `budget_states`, and lists every winning and every
/// legal move.
pub fn search_position(
    board: &Board,
    start: Vertex,
    budget_states: u64,
    moves: &[Move],
    cancel: &Cancel,
) -> Result<PositionAnalysis, PositionError> {
    let n = board.vertex_count();
    let start = check_vertex("start", u64::from(start), n).map_err(InvalidPuzzle::from)?;
    let mut state = board.start(start);
    for (index, &played) in moves.iter().enumerate() {
        let Move::Geography(to) = played else {
            return Err(not_a_token_move(index, played).into());
        };
        let illegal = |reason, message: String| IllegalMove {
            index,
            played,
            reason,
            message: format!("moves[{index}]: {message}"),
        };
        let from = state.token();
        if to as usize >= n {
            return Err(illegal(
                IllegalReason::VertexOutOfRange,
                format!("vertex {to} is out of range 0..{n}"),
            )
            .into());
        }
        if board.moves(state).is_empty() {
            return Err(illegal(
                IllegalReason::GameOver,
                format!("the game is over: the token on {from} cannot move"),
            )
            .into());
        }
        state = board.play(state, to).map_err(|step| match step {
            IllegalStep::NotAdjacent => illegal(
                IllegalReason::NotAdjacent,
                format!("no arc or edge leads from the token's vertex {from} to {to}"),
            ),
            IllegalStep::AlreadyVisited => illegal(
                IllegalReason::AlreadyVisited,
                format!("vertex {to} has been visited"),
            ),
            IllegalStep::EdgeAlreadyUsed => illegal(
                IllegalReason::EdgeAlreadyUsed,
                format!("the way from {from} to {to} has been used"),
            ),
        })?;
    }
    let legal_moves: Vec<Move> = board
        .moves(state)
        .into_iter()
        .map(Move::Geography)
        .collect();
    let mut search = Search::new(board, budget_states, cancel);
    let winning = search.winning_moves(state)?;
    let to_move = to_move_after(moves.len());
    let winner = if winning.is_empty() {
        to_move.other()
    } else {
        to_move
    };
    Ok(PositionAnalysis {
        position: PlayPosition {
            game_over: legal_moves.is_empty(),
            to_move,
            winner,
            winning: WinningMoves::complete_list(
                winning.into_iter().map(Move::Geography).collect(),
            ),
            legal_move_count: legal_moves.len() as u64,
            legal_moves,
        },
        evidence: PositionEvidence::Search {
            current: state.token(),
            states: search.states(),
        },
    })
}

/// The unified form of Geography's illegal move; `moves` is the list the
/// move's index points into.
pub(super) fn geography_illegal(moves: &[Move], illegal: geography::IllegalMove) -> IllegalMove {
    let message = illegal.to_string();
    let (index, reason) = match illegal {
        geography::IllegalMove::OutOfRange { index, .. } => {
            (index, IllegalReason::VertexOutOfRange)
        }
        geography::IllegalMove::NotAdjacent { index, .. } => (index, IllegalReason::NotAdjacent),
        geography::IllegalMove::AlreadyVisited { index, .. } => {
            (index, IllegalReason::AlreadyVisited)
        }
        geography::IllegalMove::GameOver { index, .. } => (index, IllegalReason::GameOver),
    };
    IllegalMove {
        index,
        played: moves[index],
        reason,
        message,
    }
}

/// The bipartite edge-adding game after `moves`, each a [`Move::Edge`]
/// added to `graph`: a move adds an edge that keeps the graph simple and
/// bipartite; a player who cannot move loses.
///
/// Each move is checked in order: its kind, both ends in range, the game is
/// not over, the ends differ, the edge is not there yet, it closes no odd
/// cycle. Legal and winning moves come as one example per class with exact
/// counts (there can be quadratically many). Time `O(N + M + k·α)`.
pub fn bipartite_edge_position(
    graph: &Graph,
    moves: &[Move],
    cancel: &Cancel,
) -> Result<PositionAnalysis, PositionError> {
    let (edges, wrong) = leading_moves_of_kind(moves, |played| match played {
        Move::Edge(u, v) => Some((u, v)),
        _ => None,
    });
    let after = bipartite_edge::position_after_moves(graph, &edges).map_err(edge_move_error)?;
    if let Some(index) = wrong {
        return Err(wrong_kind(index, moves[index], "the edge game", "name the edge added").into());
    }
    let position =
        bipartite_edge::analyze_graph_with_cancel(&after, cancel)?.map_err(InvalidPuzzle::from)?;
    let to_move = to_move_after(moves.len());
    let mover_wins = position.solution.winner == Player::First;
    Ok(PositionAnalysis {
        position: PlayPosition {
            game_over: position.legal_edge_count == 0,
            to_move,
            winner: if mover_wins { to_move } else { to_move.other() },
            winning: position.solution.winning_moves.into(),
            legal_moves: position
                .legal_classes
                .iter()
                .map(|class| Move::Edge(class.example.0, class.example.1))
                .collect(),
            legal_move_count: position.legal_edge_count,
        },
        evidence: PositionEvidence::BipartiteEdge {
            counts: position.solution.counts,
            classes: position.legal_classes,
        },
    })
}

fn edge_move_error(error: MoveListError) -> PositionError {
    match error {
        MoveListError::Start(invalid) => InvalidPuzzle::from(invalid).into(),
        MoveListError::IllegalMove {
            index,
            u,
            v,
            reason,
        } => {
            let code = match reason {
                IllegalEdgeReason::OutOfRange { .. } => IllegalReason::VertexOutOfRange,
                IllegalEdgeReason::SelfLoop => IllegalReason::SelfLoop,
                IllegalEdgeReason::AlreadyPresent => IllegalReason::EdgeAlreadyPresent,
                IllegalEdgeReason::MakesOddCycle => IllegalReason::ClosesOddCycle,
                IllegalEdgeReason::GameOver => IllegalReason::GameOver,
            };
            IllegalMove {
                index,
                played: Move::Edge(u, v),
                reason: code,
                message: format!("moves[{index}]: edge ({u}, {v}) cannot be added: {reason}"),
            }
            .into()
        }
    }
}

/// Tree painting after `moves`, each a [`Move::Paint`]: black starts on
/// `black`, white on `white`; moves alternate black (the first player),
/// white, …, each painting an uncoloured vertex next to the mover's colour;
/// a player who cannot paint loses.
///
/// Each move is checked in order: its kind, the vertex is in range, the
/// mover still has a legal move, the vertex is uncoloured, it is next to
/// the mover's colour. The analysis lists every winning and every legal
/// move. Time and memory `O(n)`.
pub fn tree_paint_position(
    graph: &Graph,
    black: Vertex,
    white: Vertex,
    moves: &[Move],
    cancel: &Cancel,
) -> Result<PositionAnalysis, PositionError> {
    let (vertices, wrong) = leading_moves_of_kind(moves, |played| match played {
        Move::Paint(v) => Some(v),
        _ => None,
    });
    if let Some(index) = wrong {
        tree_paint::position_after_moves(graph, black, white, &vertices)
            .map_err(tree_paint_error)?;
        return Err(wrong_kind(
            index,
            moves[index],
            "tree painting",
            "name the vertex painted",
        )
        .into());
    }
    // Linear work only: one look at the handle before it is enough to keep
    // a cancelled request from starting it.
    cancel.check()?;
    let (_, verdict) = tree_paint::analyze_after_moves(graph, black, white, &vertices)
        .map_err(tree_paint_error)?;
    let legal_moves: Vec<Move> = verdict
        .legal_moves
        .iter()
        .copied()
        .map(Move::Paint)
        .collect();
    Ok(PositionAnalysis {
        position: PlayPosition {
            game_over: legal_moves.is_empty(),
            to_move: verdict.to_move,
            winner: verdict.winner,
            winning: WinningMoves::from_vertex_moves(verdict.winning_moves, Move::Paint),
            legal_move_count: legal_moves.len() as u64,
            legal_moves,
        },
        evidence: PositionEvidence::TreePaint {
            black_future: verdict.black_future,
            white_future: verdict.white_future,
            black_count: verdict.black_count,
            white_count: verdict.white_count,
        },
    })
}

fn tree_paint_error(error: TreePaintError) -> PositionError {
    let TreePaintError::IllegalMove {
        index,
        colour,
        vertex,
        reason,
    } = error
    else {
        return InvalidPuzzle::TreePaint(error).into();
    };
    let code = match reason {
        IllegalMoveReason::OutOfRange { .. } => IllegalReason::VertexOutOfRange,
        IllegalMoveReason::AlreadyPainted { .. } => IllegalReason::AlreadyPainted,
        IllegalMoveReason::NotAdjacent { .. } => IllegalReason::NotNextToOwnColour,
        IllegalMoveReason::GameOver { .. } => IllegalReason::GameOver,
    };
    IllegalMove {
        index,
        played: Move::Paint(vertex),
        reason: code,
        message: format!("moves[{index}]: {colour} cannot paint vertex {vertex}: {reason}"),
    }
    .into()
}

/// The move an engine plays from the position `moves` of `setup`, whose
/// analysis is `analysis` (from [`GameSetup::analyze`] on the same
/// arguments); `None` once the game is over.
///
/// The rule:
/// - when the side to move wins, the first of `analysis.winning.moves`: the
///   smallest winning move for Geography and tree painting, the example of
///   the first winning class for the edge game;
/// - when it loses, the legal move that leaves the opponent the fewest
///   winning replies; ties go to the move that promises the longest game,
///   then to the smallest move ([`Move`]'s order). "Longest game" is
///   measured by a proxy computed on the position after the move:
///   - Geography: the vertices the token can still reach (the component of
///     the token's vertex among the unvisited vertices);
///   - tree painting: the vertices the mover still paints under optimal
///     play (its future count);
///   - the edge game: the number of legal moves left.
///
/// For the edge game the losing side chooses among one example per class
/// of legal moves (there can be quadratically many moves).
///
/// Time: one analysis per legal move when the side to move loses
/// (`legal moves × analysis`), a copy of the winning move otherwise. The
/// handle is looked at before each analysis. [`EngineChoice`] makes the
/// same choice a bounded number of analyses at a time.
pub fn engine_move(
    setup: GameSetup<'_>,
    moves: &[Move],
    analysis: &PositionAnalysis,
    cancel: &Cancel,
) -> Result<Option<Move>, PositionError> {
    if analysis.position.game_over {
        return Ok(None);
    }
    if analysis.position.winner == analysis.position.to_move {
        return Ok(analysis.position.winning.moves.first().copied());
    }
    EngineChoice::default().advance(setup, moves, analysis, usize::MAX, cancel)
}

/// [`engine_move`]'s choice from a lost position (the side to move loses
/// and the game is not over), made over several calls: each analyses at
/// most a given number of the legal moves, so that a caller can hand its
/// worker back between them. Invariant: `best` is the best of the first
/// `next` legal moves by [`engine_move`]'s order.
#[derive(Debug, Clone, Default)]
pub struct EngineChoice {
    next: usize,
    best: Option<(u64, Reverse<u64>, Move)>,
}

impl EngineChoice {
    /// Analyses up to `most` more of `analysis`'s legal moves (of the
    /// position `moves` reach); the chosen move once every one has been.
    pub fn advance(
        &mut self,
        setup: GameSetup<'_>,
        moves: &[Move],
        analysis: &PositionAnalysis,
        most: usize,
        cancel: &Cancel,
    ) -> Result<Option<Move>, PositionError> {
        let legal = &analysis.position.legal_moves;
        let end = self.next.saturating_add(most.max(1)).min(legal.len());
        let mut line = moves.to_vec();
        for &candidate in &legal[self.next..end] {
            cancel.check()?;
            line.push(candidate);
            let after = setup.analyze(&line, cancel)?;
            let key = (
                after.position.winning.count,
                Reverse(game_length_proxy(setup, &line, &after)),
                candidate,
            );
            line.pop();
            if self.best.as_ref().is_none_or(|best| key < *best) {
                self.best = Some(key);
            }
        }
        self.next = end;
        Ok((end == legal.len())
            .then(|| self.best.map(|(_, _, chosen)| chosen))
            .flatten())
    }
}

/// The "longest game" proxy of [`engine_move`] for the position `line`
/// (legal, just analysed as `after`); larger means a longer game.
fn game_length_proxy(setup: GameSetup<'_>, line: &[Move], after: &PositionAnalysis) -> u64 {
    match (setup, &after.evidence) {
        (GameSetup::Geography { graph, start }, PositionEvidence::Geography { current, .. }) => {
            reachable_unvisited(graph, start, line, *current)
        }
        (
            GameSetup::TreePaint { .. },
            PositionEvidence::TreePaint {
                black_future,
                white_future,
                ..
            },
        ) => {
            // The side that just moved is the one not to move now.
            match Colour::of(after.position.to_move.other()) {
                Colour::Black => *black_future,
                Colour::White => *white_future,
            }
        }
        // The opponent's search from here: the longer it is, the harder
        // the position is to play right.
        (GameSetup::Search { .. }, PositionEvidence::Search { states, .. }) => *states,
        _ => after.position.legal_move_count,
    }
}

/// The number of vertices the token on `current` can still reach through
/// unvisited vertices, after the Geography moves `line` from `start` (a
/// legal line, so every vertex in it is in range).
fn reachable_unvisited(graph: &Graph, start: Vertex, line: &[Move], current: Vertex) -> u64 {
    let mut seen = vec![false; graph.vertex_count()];
    seen[start as usize] = true;
    for played in line {
        if let Move::Geography(v) = played {
            seen[*v as usize] = true;
        }
    }
    let mut stack = vec![current];
    let mut reached = 0u64;
    while let Some(u) = stack.pop() {
        for &w in graph.neighbors(u) {
            if !seen[w as usize] {
                seen[w as usize] = true;
                reached += 1;
                stack.push(w);
            }
        }
    }
    reached
}

#[cfg(test)]
pub(crate) mod tests;
