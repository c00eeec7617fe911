//! Undirected Vertex Geography (docs/games.md, Geography).
//!
//! The second player wins from `start` iff some maximum matching leaves
//! `start` exposed, i.e. iff `start ∈ D(G)` of the Gallai–Edmonds
//! decomposition. The winner's strategy is "answer with the mate" in the
//! witness matching.

use serde::Serialize;

use super::Player;
use super::cancel::{Cancel, Cancelled, uncancelled};
use super::matching::{MatchingAnalysis, NONE, VertexClass, is_matching_of, pairs_of};
use crate::graph::{Graph, Vertex};

/// What to compute beyond the verdict and its certificates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GeographyOptions {
    /// Also return `D(G)`: every start the second player wins from.
    pub all_starts: bool,
    /// Also return every winning first move (empty when the second player wins).
    pub winning_moves: bool,
}

/// The verdict for one start vertex and the evidence behind it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GeographySolution {
    pub winner: Player,
    /// A maximum matching, as pairs `(u, v)` with `u < v`, sorted. When the
    /// second player wins it leaves `start` exposed; when the first player
    /// wins it covers `start` and `mate(start)` is a winning first move.
    pub matching: Vec<(Vertex, Vertex)>,
    /// Tutte–Berge barrier `B = A(G)` (sorted): `(n + |B| − odd(G − B)) / 2 = |matching|`.
    pub barrier: Vec<Vertex>,
    /// When the first player wins: a barrier `B'` of `G − start` (sorted) with
    /// `(n − 1 + |B'| − odd(G − start − B')) / 2 = |matching| − 1`, proving that
    /// every maximum matching of `G` covers `start`.
    pub start_barrier: Option<Vec<Vertex>>,
    /// `D(G)` (sorted), when asked: the starts the second player wins from.
    pub second_player_starts: Option<Vec<Vertex>>,
    /// When asked: every winning first move (the neighbours `u` of the start
    /// with `u ∈ D(G − start)`); empty when the second player wins.
    pub winning_moves: Option<WinningMoves>,
}

/// All winning moves of a position and whether the winning move is unique.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WinningMoves {
    pub moves: Vec<Vertex>,
    pub unique: bool,
}

/// Solves Geography on `graph` from `start` (which must be a vertex of
/// `graph`).
///
/// One maximum-matching run gives the verdict, both certificates and the
/// all-starts set; winning moves cost one more run on `G − start`, warm
/// started from the first matching. Time `O(V·E·α)` in the worst case,
/// near-linear on sparse graphs; memory `O(V + E)`.
pub fn solve(graph: &Graph, start: Vertex, options: GeographyOptions) -> GeographySolution {
    uncancelled(solve_with_cancel(graph, start, options, &Cancel::never()))
}

/// [`solve`] that stops with [`Cancelled`] soon after `cancel` fires (both
/// matching runs look at it; building `G − start` is one linear pass).
pub fn solve_with_cancel(
    graph: &Graph,
    start: Vertex,
    options: GeographyOptions,
    cancel: &Cancel,
) -> Result<GeographySolution, Cancelled> {
    let analysis = MatchingAnalysis::with_cancel(graph, cancel)?;
    solution_from(graph, start, options, analysis, cancel)
}

/// The verdict and evidence read off a finished matching analysis of
/// `graph` (see [`solve_with_cancel`]).
fn solution_from(
    graph: &Graph,
    start: Vertex,
    options: GeographyOptions,
    analysis: MatchingAnalysis,
    cancel: &Cancel,
) -> Result<GeographySolution, Cancelled> {
    let barrier = analysis.barrier();
    let second_player_starts = options
        .all_starts
        .then(|| analysis.vertices_in(VertexClass::D));
    let (winner, matching, start_barrier) = match analysis.matching_exposing(start) {
        Some(mate) => (Player::Second, pairs_of(&mate), None),
        None => {
            // start ∈ A: dropping it from A leaves the components of G − A
            // unchanged; start ∈ C: start's C-component minus start has
            // exactly one odd component (the one holding its mate).
            let start_barrier = barrier.iter().copied().filter(|&v| v != start).collect();
            (Player::First, analysis.pairs(), Some(start_barrier))
        }
    };
    let winning_moves = match (options.winning_moves, winner) {
        (false, _) => None,
        (true, Player::First) => Some(first_moves_into_d(graph, analysis, start, cancel)?),
        (true, Player::Second) => Some(WinningMoves {
            moves: Vec::new(),
            unique: false,
        }),
    };
    Ok(GeographySolution {
        winner,
        matching,
        barrier,
        start_barrier,
        second_player_starts,
        winning_moves,
    })
}

/// The winning first moves when every maximum matching covers `start`: a move
/// to `u` wins iff the opponent, now first to move from `u` in `G − start`,
/// loses, i.e. iff `u ∈ D(G − start)`. The analysis of `G − start` continues
/// `analysis` (see [`MatchingAnalysis::moves_into_d_without`]): two small
/// trees per neighbour of `start`, or at most one search from `start`'s
/// mate, not a second matching run.
fn first_moves_into_d(
    graph: &Graph,
    analysis: MatchingAnalysis,
    start: Vertex,
    cancel: &Cancel,
) -> Result<WinningMoves, Cancelled> {
    cancel.check()?;
    let moves = analysis.moves_into_d_without(graph, start, cancel)?;
    let unique = moves.len() == 1;
    Ok(WinningMoves { moves, unique })
}

/// A mid-game position: who is to move, who wins from here with perfect
/// play, and which moves win.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GeographyPosition {
    /// The vertex holding the token.
    pub current: Vertex,
    pub to_move: Player,
    /// Who wins from here with perfect play, in whole-game terms.
    pub winner: Player,
    /// No legal move is left: the player to move has lost.
    pub game_over: bool,
    /// The unvisited neighbours of `current`, ascending.
    pub legal_moves: Vec<Vertex>,
    /// Every move that wins for the player to move (empty if it loses).
    pub winning_moves: Vec<Vertex>,
    pub unique_winning_move: bool,
    /// The winner's strategy move when the player to move wins: the mate of
    /// `current` in a maximum matching of the remaining graph.
    pub strategy_move: Option<Vertex>,
    /// The evidence, about the remaining graph (the visited vertices other
    /// than `current` deleted, ids kept): a maximum matching, pairs `(u, v)`
    /// with `u < v`, sorted. It leaves `current` exposed when the player to
    /// move loses and covers it when that player wins.
    pub matching: Vec<(Vertex, Vertex)>,
    /// A Tutte–Berge barrier of the remaining graph proving `matching`
    /// maximum (see [`GeographySolution::barrier`]).
    pub barrier: Vec<Vertex>,
    /// When the player to move wins: a barrier of the remaining graph minus
    /// `current` proving that every maximum matching covers `current` (see
    /// [`GeographySolution::start_barrier`]).
    pub current_barrier: Option<Vec<Vertex>>,
}

/// A move that cannot be played in the position reached so far.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("moves[{index}]: vertex {vertex} out of range 0..{vertex_count}")]
    OutOfRange {
        index: usize,
        vertex: u64,
        vertex_count: usize,
    },
    #[error("moves[{index}]: vertex {vertex} is not adjacent to vertex {from}, the current vertex")]
    NotAdjacent {
        index: usize,
        vertex: Vertex,
        from: Vertex,
    },
    #[error("moves[{index}]: vertex {vertex} has already been visited")]
    AlreadyVisited { index: usize, vertex: Vertex },
    /// The move comes after the end of the game: the token's vertex has no
    /// unvisited neighbour left.
    #[error(
        "moves[{index}]: the game is over: vertex {current}, the current vertex, has no unvisited neighbour"
    )]
    GameOver { index: usize, current: Vertex },
}

/// Analyses the position after `moves` have been played from `start`.
///
/// The rest of the game is Geography on `G − {visited except the token's
/// vertex}` started at the token's vertex, with the player to move as
/// "first" (docs/games.md, Geography, mid-game positions).
///
/// `start` must be a vertex of `graph` (see [`check_vertex`](crate::graph::check_vertex)).
/// Moves are checked in order: the vertex is in range, the game is not over,
/// the vertex is unvisited, it is adjacent to the token's vertex.
pub fn analyze_position(
    graph: &Graph,
    start: Vertex,
    moves: &[u64],
) -> Result<GeographyPosition, IllegalMove> {
    uncancelled(analyze_position_from(
        graph,
        start,
        moves,
        None,
        &Cancel::never(),
    ))
}

/// [`analyze_position`] that stops with [`Cancelled`] soon after `cancel`
/// fires (the matching runs look at it), and starts from a known maximum
/// matching `warm` of `graph` or of an earlier remaining graph (a mate
/// array: `warm[v]` is `v`'s partner or [`NONE`]), such as a cached
/// witness. Deleting the visited vertices frees at most one vertex per
/// move, so the matching run on the remaining graph needs at most that
/// many augmentations instead of a new matching. A `warm` that is not a
/// matching of `graph` is ignored (the analysis then starts cold). The
/// outer result says whether the analysis ran to the end, the inner one is
/// its answer.
pub fn analyze_position_from(
    graph: &Graph,
    start: Vertex,
    moves: &[u64],
    warm: Option<&[Vertex]>,
    cancel: &Cancel,
) -> Result<Result<GeographyPosition, IllegalMove>, Cancelled> {
    let (mut visited, current) = match replay(graph, start, moves, cancel)? {
        Ok(replayed) => replayed,
        Err(illegal) => return Ok(Err(illegal)),
    };
    let to_move = if moves.len().is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    };
    visited[current as usize] = false;
    let rest = graph.without_vertices(&visited);
    let legal_moves = rest.neighbors(current).to_vec();
    let options = GeographyOptions {
        all_starts: false,
        winning_moves: true,
    };
    let analysis = match warm.filter(|warm| is_matching_of(graph, warm)) {
        Some(warm) => {
            let mut mate = warm.to_vec();
            for v in 0..mate.len() {
                let partner = mate[v];
                if visited[v] && partner != NONE {
                    mate[v] = NONE;
                    mate[partner as usize] = NONE;
                }
            }
            MatchingAnalysis::from_matching_with_cancel(&rest, mate, cancel)?
        }
        None => MatchingAnalysis::with_cancel(&rest, cancel)?,
    };
    let solution = solution_from(&rest, current, options, analysis, cancel)?;
    let mover_wins = solution.winner == Player::First;
    let strategy_move = mover_wins.then(|| {
        solution
            .matching
            .iter()
            .find_map(|&(u, v)| match (u == current, v == current) {
                (true, _) => Some(v),
                (_, true) => Some(u),
                _ => None,
            })
            .expect("the start is matched when the first player wins")
    });
    let winning_moves = solution
        .winning_moves
        .expect("winning moves were asked for");
    Ok(Ok(GeographyPosition {
        current,
        to_move,
        winner: if mover_wins { to_move } else { to_move.other() },
        game_over: legal_moves.is_empty(),
        legal_moves,
        winning_moves: winning_moves.moves,
        unique_winning_move: winning_moves.unique,
        strategy_move,
        matching: solution.matching,
        barrier: solution.barrier,
        current_barrier: solution.start_barrier,
    }))
}

/// Checks that `moves` can be played from `start` (see [`analyze_position`]
/// for the checks and their order), without analysing the position reached.
/// `start` must be a vertex of `graph`. Time `O(k + Σ degree)` for `k` moves.
pub fn check_moves(graph: &Graph, start: Vertex, moves: &[u64]) -> Result<(), IllegalMove> {
    uncancelled(replay(graph, start, moves, &Cancel::never())).map(|_| ())
}

/// Replays `moves` from `start`: the visited vertices (the start and every
/// move) and the token's vertex, or the first illegal move.
fn replay(
    graph: &Graph,
    start: Vertex,
    moves: &[u64],
    cancel: &Cancel,
) -> Result<Result<(Vec<bool>, Vertex), IllegalMove>, Cancelled> {
    let n = graph.vertex_count();
    let mut visited = vec![false; n];
    visited[start as usize] = true;
    let mut current = start;
    for (index, &vertex) in moves.iter().enumerate() {
        cancel.check_every(index)?;
        match check_move(graph, &visited, current, index, vertex) {
            Ok(vertex) => {
                visited[vertex as usize] = true;
                current = vertex;
            }
            Err(illegal) => return Ok(Err(illegal)),
        }
    }
    Ok(Ok((visited, current)))
}

/// Checks move number `index`, to `vertex`, with the token on `current`
/// and `visited` marking the start and every vertex moved to so far; the
/// vertex moved to when the move is legal. The checks, in order: in range,
/// the game is not over, unvisited, adjacent. Time `O(degree)`.
pub fn check_move(
    graph: &Graph,
    visited: &[bool],
    current: Vertex,
    index: usize,
    vertex: u64,
) -> Result<Vertex, IllegalMove> {
    let n = graph.vertex_count();
    if vertex >= n as u64 {
        return Err(IllegalMove::OutOfRange {
            index,
            vertex,
            vertex_count: n,
        });
    }
    let vertex = vertex as Vertex;
    if graph
        .neighbors(current)
        .iter()
        .all(|&w| visited[w as usize])
    {
        return Err(IllegalMove::GameOver { index, current });
    }
    if visited[vertex as usize] {
        return Err(IllegalMove::AlreadyVisited { index, vertex });
    }
    if !graph.has_edge(current, vertex) {
        return Err(IllegalMove::NotAdjacent {
            index,
            vertex,
            from: current,
        });
    }
    Ok(vertex)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: u64, edges: &[(Vertex, Vertex)]) -> Graph {
        Graph::from_pairs(n, edges).unwrap()
    }

    const ALL: GeographyOptions = GeographyOptions {
        all_starts: true,
        winning_moves: true,
    };

    #[test]
    fn path_of_three_from_an_end_is_a_second_player_win() {
        let g = graph(3, &[(0, 1), (1, 2)]);
        let s = solve(&g, 0, ALL);
        assert_eq!(s.winner, Player::Second);
        assert_eq!(s.matching, vec![(1, 2)]);
        assert_eq!(s.barrier, vec![1]);
        assert_eq!(s.second_player_starts, Some(vec![0, 2]));
        let s = solve(&g, 1, ALL);
        assert_eq!(s.winner, Player::First);
        assert_eq!(s.start_barrier, Some(vec![]));
        assert_eq!(s.winning_moves.unwrap().moves, vec![0, 2]);
    }

    #[test]
    fn hamilg_samples() {
        // CodeChef HAMILG: the number of starts the starter (our first
        // player) loses from is |D(G)|.
        let k4 = graph(4, &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
        assert_eq!(solve(&k4, 0, ALL).second_player_starts.unwrap().len(), 0);
        let path = graph(3, &[(0, 1), (1, 2)]);
        assert_eq!(solve(&path, 0, ALL).second_player_starts.unwrap().len(), 2);
    }

    #[test]
    fn mid_game_position_answers_with_the_mate() {
        // Path 0-1-2-3: from 0 the first player moves to 1 (the mate) and wins.
        let g = graph(4, &[(0, 1), (1, 2), (2, 3)]);
        let p = analyze_position(&g, 0, &[]).unwrap();
        assert_eq!(p.winner, Player::First);
        assert_eq!(p.winning_moves, vec![1]);
        assert!(p.unique_winning_move);
        assert_eq!(p.strategy_move, Some(1));
        let p = analyze_position(&g, 0, &[1, 2]).unwrap();
        assert_eq!(p.to_move, Player::First);
        assert_eq!(p.legal_moves, vec![3]);
        assert_eq!(p.winner, Player::First);
        let p = analyze_position(&g, 0, &[1, 2, 3]).unwrap();
        assert!(p.game_over);
        assert_eq!(p.winner, Player::First);
    }

    #[test]
    fn illegal_moves_name_the_move() {
        let g = graph(4, &[(0, 1), (1, 2), (2, 3)]);
        assert_eq!(
            analyze_position(&g, 0, &[2]).unwrap_err().to_string(),
            "moves[0]: vertex 2 is not adjacent to vertex 0, the current vertex"
        );
        assert_eq!(
            analyze_position(&g, 0, &[1, 2, 3, 0]).unwrap_err(),
            IllegalMove::GameOver {
                index: 3,
                current: 3
            }
        );
        assert_eq!(
            analyze_position(&g, 0, &[1, 0]).unwrap_err().to_string(),
            "moves[1]: vertex 0 has already been visited"
        );
        assert_eq!(
            analyze_position(&g, 0, &[9]).unwrap_err().to_string(),
            "moves[0]: vertex 9 out of range 0..4"
        );
    }
}
