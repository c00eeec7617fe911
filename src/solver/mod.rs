//! Pure game solvers: no async, no I/O, no proto or SQL types.
//!
//! Every public function takes a validated [`graph::Graph`] and returns a
//! plain struct that carries the evidence for its verdict (a matching, a
//! barrier set, counts, winning moves), so callers and tests can check it
//! without trusting this module.

pub mod bipartite_edge;
pub mod geography;
pub mod graph;
pub mod matching;
pub mod tree_paint;

use serde::Serialize;

/// One of the two players. The first player moves first; a player who cannot
/// move loses (normal play) in all three games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    First,
    Second,
}

impl Player {
    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// Names the solver build that produced a verdict; stored beside cached
/// verdicts so an upgrade can tell its own answers from older ones.
pub const SOLVER_VERSION: &str = concat!("puzzled-solver/", env!("CARGO_PKG_VERSION"));
