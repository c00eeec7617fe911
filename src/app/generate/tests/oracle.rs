//! The test kit's exhaustive game-tree search ([`puzzled_testkit::oracle`]),
//! asked about a generated puzzle in the service's own moves. The search
//! is written from the rules alone, independent of the solvers; it
//! replays each line itself and panics on an illegal move.

use crate::puzzle::{Game, Move, Spec};
use puzzled_testkit::oracle::{self, Play, Puzzle};

/// The oracle of one puzzle.
pub struct Oracle {
    searched: oracle::Oracle,
    /// Whether a vertex move paints (tree painting) or moves the token.
    paints: bool,
}

impl Oracle {
    pub fn of(spec: &Spec) -> Oracle {
        let raw = spec.raw();
        let game = match raw.game {
            Game::Geography => oracle::Game::Geography,
            Game::BipartiteEdge => oracle::Game::BipartiteEdge,
            Game::TreePaint => oracle::Game::TreePaint,
            Game::DirectedVertexGeography => oracle::Game::DirectedVertexGeography,
            Game::UndirectedEdgeGeography => oracle::Game::UndirectedEdgeGeography,
            Game::DirectedEdgeGeography => oracle::Game::DirectedEdgeGeography,
        };
        let puzzle = Puzzle {
            game,
            n: raw.vertex_count as usize,
            pairs: raw.edges.chunks_exact(2).map(|p| (p[0], p[1])).collect(),
            start: raw.start,
            black: raw.black.unwrap_or(0),
            white: raw.white.unwrap_or(0),
        };
        Oracle {
            searched: oracle::Oracle::of(&puzzle),
            paints: raw.game == Game::TreePaint,
        }
    }

    /// Every legal move after `line`, ascending.
    pub fn legal(&mut self, line: &[Move]) -> Vec<Move> {
        let legal = self.searched.legal(&plays(line));
        self.moves(legal)
    }

    /// Every winning move after `line`, ascending: the moves after which
    /// the side to move then loses.
    pub fn winning(&mut self, line: &[Move]) -> Vec<Move> {
        let winning = self.searched.winning(&plays(line));
        self.moves(winning)
    }

    /// Tree painting's final black minus white count under minimax play;
    /// `None` for the other games.
    pub fn margin(&mut self) -> Option<i64> {
        self.searched.margin()
    }

    fn moves(&self, plays: Vec<Play>) -> Vec<Move> {
        let as_move = |play| match play {
            Play::Vertex(v) if self.paints => Move::Paint(v),
            Play::Vertex(v) => Move::Geography(v),
            Play::Edge(u, v) => Move::Edge(u, v),
        };
        plays.into_iter().map(as_move).collect()
    }
}

fn plays(line: &[Move]) -> Vec<Play> {
    let play = |played: &Move| match *played {
        Move::Geography(v) | Move::Paint(v) => Play::Vertex(v),
        Move::Edge(u, v) => Play::Edge(u, v),
    };
    line.iter().map(play).collect()
}
