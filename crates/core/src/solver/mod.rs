//! Pure game solvers: no async, no I/O, no proto or SQL types.
//!
//! Every public function takes a validated [`Graph`](crate::graph::Graph) and returns a
//! plain struct that carries the evidence for its verdict (a matching, a
//! barrier set, counts, winning moves), so callers and tests can check it
//! without trusting this module.

pub mod bipartite_edge;
pub mod cancel;
pub mod geography;
pub mod matching;
pub mod play;
pub mod position;
pub mod search_geography;
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

#[cfg(test)]
pub(crate) mod test_support {
    /// Two thousand cases a property unless `PROPTEST_CASES` asks for another
    /// number (proptest's own default of 256 is thin for rules this
    /// case-heavy; a deep run sets the variable).
    pub fn proptest_config() -> proptest::test_runner::Config {
        let mut config = proptest::test_runner::Config::default();
        if std::env::var_os("PROPTEST_CASES").is_none() {
            config.cases = 2000;
        }
        config
    }

    /// `m` distinct random edges on `n` vertices, flat: the test kit's
    /// `gnm` from the xorshift generator started at `seed` itself, the
    /// graphs the canonical hashes pinned in `canon` were computed on.
    pub fn random_edges(n: u32, m: usize, seed: u64) -> Vec<u32> {
        use puzzled_testkit::random::{XorShift, gnm};
        gnm(n, m, &mut XorShift::new(seed))
    }
}
