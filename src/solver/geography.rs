//! Undirected Vertex Geography (GAMES.md §1).
//!
//! The second player wins from `start` iff some maximum matching leaves
//! `start` exposed, i.e. iff `start ∈ D(G)` of the Gallai–Edmonds
//! decomposition. The winner's strategy is "answer with the mate" in the
//! witness matching.

use serde::Serialize;

use super::Player;
use super::graph::{Graph, Vertex};

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

/// Solves Geography on `graph` from `start` (which must be a vertex of `graph`).
pub fn solve(graph: &Graph, start: Vertex, options: GeographyOptions) -> GeographySolution {
    let _ = (graph, start, options);
    todo!()
}
