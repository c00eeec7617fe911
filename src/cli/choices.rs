//! The values the command line's flags choose from (the game, a file's
//! layout, a bulk file's layout, a side), shared by the local commands and
//! `puzzled client`.

use clap::ValueEnum;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Game {
    /// Undirected Vertex Geography.
    Geography,
    /// The bipartite edge-adding game (AtCoder ABC398 G).
    BipartiteEdge,
    /// The tree painting game (AtCoder ABC067 D).
    TreePaint,
    /// Directed vertex Geography, by search: the file's pairs are arcs
    /// `u v` = u → v.
    DirectedVertexGeography,
    /// Undirected edge Geography, by search.
    UndirectedEdgeGeography,
    /// Directed edge Geography, by search: the file's pairs are arcs.
    DirectedEdgeGeography,
}

impl From<Game> for crate::puzzle::Game {
    fn from(game: Game) -> crate::puzzle::Game {
        use crate::puzzle::Game as Domain;
        match game {
            Game::Geography => Domain::Geography,
            Game::BipartiteEdge => Domain::BipartiteEdge,
            Game::TreePaint => Domain::TreePaint,
            Game::DirectedVertexGeography => Domain::DirectedVertexGeography,
            Game::UndirectedEdgeGeography => Domain::UndirectedEdgeGeography,
            Game::DirectedEdgeGeography => Domain::DirectedEdgeGeography,
        }
    }
}

impl From<crate::puzzle::Game> for Game {
    fn from(game: crate::puzzle::Game) -> Game {
        use crate::puzzle::Game as Domain;
        match game {
            Domain::Geography => Game::Geography,
            Domain::BipartiteEdge => Game::BipartiteEdge,
            Domain::TreePaint => Game::TreePaint,
            Domain::DirectedVertexGeography => Game::DirectedVertexGeography,
            Domain::UndirectedEdgeGeography => Game::UndirectedEdgeGeography,
            Domain::DirectedEdgeGeography => Game::DirectedEdgeGeography,
        }
    }
}

/// The layout of the input file.
#[derive(Clone, Copy, ValueEnum)]
pub enum FileFormat {
    /// The source problem's layout, 1-based: `N M` then `M` lines `u v`
    /// (tree paint: `N` then `N − 1` lines `a b`).
    Contest,
    /// `n m` then `m` lines `u v`, 0-based (the benchmark families' edge lists).
    ZeroBased,
    /// graph6, one graph a line (nauty's geng), 0-based; each graph is
    /// solved in turn and gets one output line.
    Graph6,
    /// sparse6, one graph a line, 0-based; as graph6.
    Sparse6,
    /// digraph6, one digraph a line (`&`, nauty's directg), 0-based; for
    /// the directed games, as graph6.
    Digraph6,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Side {
    First,
    Second,
}

/// The layouts of bulk files.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BulkFormat {
    /// JSON Lines: one puzzle a line in the API's JSON (export writes the
    /// whole `Puzzle`; import reads a `Puzzle`, of which only `spec`, or a
    /// `PuzzleSpec`).
    Jsonl,
    /// The source problem's layout, 1-based, one puzzle a file (export
    /// writes a directory of them).
    Contest,
    /// graph6, one graph a line, 0-based; the undirected games.
    Graph6,
    /// sparse6, one graph a line, 0-based; the undirected games.
    Sparse6,
    /// digraph6, one digraph a line, 0-based; the directed games.
    Digraph6,
}
