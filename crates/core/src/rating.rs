//! Glicko-2 ratings of solvers and puzzles, and the rating a new puzzle
//! starts from.
//!
//! An attempt is a game between a solver and a puzzle: the solver wins
//! when it solves the puzzle, the puzzle wins otherwise (a helped attempt
//! counts as a failure). Both ratings move after every rated attempt, as on
//! Lichess's puzzle trainer: each attempt is a rating period of one game
//! ([`Glicko::after_attempt`]). A batch of results against one rating,
//! Glicko-2's own rating period ([`Glicko::after_period`]), is what lets a
//! puzzle that many solvers attempt at once (the daily puzzle) take their
//! results together rather than one row update each.
//!
//! The arithmetic is the `skillratings` crate's (no dependencies of its
//! own, tested against Glickman's worked example there and here); this
//! module fixes the constants and the clamps a site needs.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2, glicko2_rating_period};

use crate::puzzle::Difficulty;

/// A Glicko-2 rating on the public scale (1500 the centre).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Glicko {
    pub value: f64,
    /// The rating deviation: how far from `value` the true strength may
    /// be (about twice it either way holds 95% of the belief).
    pub deviation: f64,
    /// How erratic the results have been.
    pub volatility: f64,
}

/// Glicko-2's system constant τ: how fast volatility may change. Lichess
/// uses 0.75 for players and puzzles alike; Glickman suggests 0.3–1.2.
pub const TAU: f64 = 0.75;

/// The deviation of a solver or puzzle nobody has rated: Glicko-2's
/// customary starting value, the widest a rating ever has.
pub const WIDEST_DEVIATION: f64 = 350.0;

/// The deviation a new puzzle starts with when its difficulty is known:
/// narrower than an unknown one's, since the formula is informed, yet wide
/// enough for its first dozen attempts to move it by hundreds.
pub const NEW_PUZZLE_DEVIATION: f64 = 250.0;

/// The narrowest deviation kept: a rating that stopped moving could no
/// longer follow a puzzle or solver whose strength changes (Lichess keeps
/// the same floor).
pub const NARROWEST_DEVIATION: f64 = 45.0;

/// The starting volatility (Glickman's example and most sites).
pub const START_VOLATILITY: f64 = 0.06;

/// The range ratings are kept in, so that one run of surprising results
/// cannot carry a rating to a value no search by rating can use.
pub const RATING_RANGE: (f64, f64) = (400.0, 4000.0);

/// The outcome of an attempt from the solver's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Solved,
    Failed,
}

impl Glicko {
    /// A solver's or puzzle's rating before any rated attempt.
    pub const UNRATED: Glicko = Glicko {
        value: 1500.0,
        deviation: WIDEST_DEVIATION,
        volatility: START_VOLATILITY,
    };

    /// The solver's and the puzzle's ratings after one attempt.
    pub fn after_attempt(solver: Glicko, puzzle: Glicko, outcome: Outcome) -> (Glicko, Glicko) {
        let (solver, puzzle) = glicko2(
            &solver.into(),
            &puzzle.into(),
            &outcome.for_solver(),
            &config(TAU),
        );
        (Glicko::kept(solver), Glicko::kept(puzzle))
    }

    /// This rating after a rating period of `results`, each an opponent's
    /// rating (as it stood before the period) and whether this side won
    /// it, with the system constant `tau`. An empty period widens the
    /// deviation, as Glicko-2 says of a period without games.
    pub fn after_period(self, results: &[(Glicko, bool)], tau: f64) -> Glicko {
        let results: Vec<(Glicko2Rating, Outcomes)> = results
            .iter()
            .map(|&(opponent, won)| {
                let outcome = if won { Outcomes::WIN } else { Outcomes::LOSS };
                (opponent.into(), outcome)
            })
            .collect();
        Glicko::kept(glicko2_rating_period(&self.into(), &results, &config(tau)))
    }

    /// `rating` within the deviation floor and ceiling and the range.
    fn kept(rating: Glicko2Rating) -> Glicko {
        Glicko {
            value: rating.rating.clamp(RATING_RANGE.0, RATING_RANGE.1),
            deviation: rating
                .deviation
                .clamp(NARROWEST_DEVIATION, WIDEST_DEVIATION),
            volatility: rating.volatility,
        }
    }
}

impl Outcome {
    fn for_solver(self) -> Outcomes {
        match self {
            Outcome::Solved => Outcomes::WIN,
            Outcome::Failed => Outcomes::LOSS,
        }
    }
}

impl From<Glicko> for Glicko2Rating {
    fn from(rating: Glicko) -> Glicko2Rating {
        Glicko2Rating {
            rating: rating.value,
            deviation: rating.deviation,
            volatility: rating.volatility,
        }
    }
}

fn config(tau: f64) -> Glicko2Config {
    Glicko2Config {
        tau,
        ..Glicko2Config::default()
    }
}

/// The rating a new puzzle starts from, read off its difficulty and size
/// (docs/games.md, "A new puzzle's rating"):
///
/// `1000 + 150·min(depth, 10) + 400·losing share + 80·min(log2(n/8), 8)`
/// (the last term 0 below 8 vertices), within [`RATING_RANGE`], with
/// [`NEW_PUZZLE_DEVIATION`]. Each term is a reason a person misses the
/// answer: every only move is one more thing to find, a start where most
/// moves lose is a trap, and a larger board is harder to read. The
/// weights only place a puzzle for its first attempts; the attempts then
/// correct it.
pub fn new_puzzle_rating(difficulty: &Difficulty, vertex_count: u64) -> Glicko {
    let depth = f64::from(difficulty.only_move_depth.min(10));
    let traps = difficulty.losing_first_move_fraction();
    let size = (vertex_count.max(1) as f64 / 8.0).log2().clamp(0.0, 8.0);
    let value = 1000.0 + 150.0 * depth + 400.0 * traps + 80.0 * size;
    Glicko {
        value: value.clamp(RATING_RANGE.0, RATING_RANGE.1),
        deviation: NEW_PUZZLE_DEVIATION,
        volatility: START_VOLATILITY,
    }
}

/// A puzzle's rating before attempts: [`new_puzzle_rating`] when its
/// difficulty is known, else [`Glicko::UNRATED`].
pub fn start_rating(difficulty: Option<&Difficulty>, vertex_count: u64) -> Glicko {
    difficulty.map_or(Glicko::UNRATED, |difficulty| {
        new_puzzle_rating(difficulty, vertex_count)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(actual: f64, expected: f64, tolerance: f64) -> bool {
        (actual - expected).abs() <= tolerance
    }

    /// Glickman, "Example of the Glicko-2 system" (2013), section 3: a
    /// 1500/200/0.06 player beats a 1400/30, loses to a 1550/100 and to a
    /// 1700/300, with τ = 0.5, and ends at 1464.06 / 151.52 / 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Glicko {
            value: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |value, deviation| Glicko {
            value,
            deviation,
            volatility: START_VOLATILITY,
        };
        let after = player.after_period(
            &[
                (opponent(1400.0, 30.0), true),
                (opponent(1550.0, 100.0), false),
                (opponent(1700.0, 300.0), false),
            ],
            0.5,
        );
        assert!(near(after.value, 1464.06, 0.01), "{after:?}");
        assert!(near(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(near(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn solving_raises_the_solver_and_lowers_the_puzzle() {
        let solver = Glicko::UNRATED;
        let puzzle = Glicko {
            value: 1700.0,
            ..Glicko::UNRATED
        };
        let (s, p) = Glicko::after_attempt(solver, puzzle, Outcome::Solved);
        assert!(
            s.value > solver.value && p.value < puzzle.value,
            "{s:?} {p:?}"
        );
        assert!(s.deviation < solver.deviation && p.deviation < puzzle.deviation);
        let (s, p) = Glicko::after_attempt(solver, puzzle, Outcome::Failed);
        assert!(
            s.value < solver.value && p.value > puzzle.value,
            "{s:?} {p:?}"
        );
    }

    /// An expected result moves a rating less than a surprise does.
    #[test]
    fn a_surprise_moves_the_ratings_more() {
        let solver = Glicko::UNRATED;
        let easy = Glicko {
            value: 1100.0,
            ..Glicko::UNRATED
        };
        let (expected, _) = Glicko::after_attempt(solver, easy, Outcome::Solved);
        let (surprise, _) = Glicko::after_attempt(solver, easy, Outcome::Failed);
        assert!(solver.value - surprise.value > expected.value - solver.value);
    }

    /// Ratings stay in their range and deviations above the floor however
    /// long a run of results.
    #[test]
    fn long_runs_stay_within_the_clamps() {
        let mut solver = Glicko::UNRATED;
        let puzzle = Glicko {
            value: 3900.0,
            deviation: NARROWEST_DEVIATION,
            volatility: START_VOLATILITY,
        };
        for _ in 0..500 {
            solver = Glicko::after_attempt(solver, puzzle, Outcome::Solved).0;
        }
        assert!(solver.value <= RATING_RANGE.1, "{solver:?}");
        assert!(solver.deviation >= NARROWEST_DEVIATION, "{solver:?}");
        let mut puzzle = Glicko::UNRATED;
        for _ in 0..500 {
            puzzle = Glicko::after_attempt(Glicko::UNRATED, puzzle, Outcome::Solved).1;
        }
        assert!(puzzle.value >= RATING_RANGE.0, "{puzzle:?}");
    }

    fn difficulty(depth: u32, losing: u64, first: u64) -> Difficulty {
        Difficulty {
            only_move_depth: depth,
            losing_first_moves: losing,
            first_move_count: first,
            margin: None,
        }
    }

    #[test]
    fn a_new_puzzles_rating_follows_its_difficulty() {
        let plain = new_puzzle_rating(&difficulty(0, 0, 4), 8);
        assert_eq!(plain.value, 1000.0);
        assert_eq!(plain.deviation, NEW_PUZZLE_DEVIATION);
        // Each term raises it: depth, traps, size.
        assert_eq!(new_puzzle_rating(&difficulty(3, 0, 4), 8).value, 1450.0);
        assert_eq!(new_puzzle_rating(&difficulty(0, 3, 4), 8).value, 1300.0);
        assert_eq!(new_puzzle_rating(&difficulty(0, 0, 4), 64).value, 1240.0);
        // Depth counts to 10, size to 2^8 times 8 vertices.
        assert_eq!(
            new_puzzle_rating(&difficulty(10, 0, 4), 8),
            new_puzzle_rating(&difficulty(40, 0, 4), 8)
        );
        assert_eq!(
            new_puzzle_rating(&difficulty(0, 0, 4), 2048),
            new_puzzle_rating(&difficulty(0, 0, 4), 1 << 20)
        );
        // A tiny board or no first move at all is no harder than the base.
        assert_eq!(new_puzzle_rating(&difficulty(0, 0, 0), 1).value, 1000.0);
        let hardest = new_puzzle_rating(&difficulty(10, 4, 4), 1 << 20);
        assert_eq!(hardest.value, 1000.0 + 1500.0 + 400.0 + 640.0);
    }
}
