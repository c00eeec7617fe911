//! The one place that calls the solvers: a game, a graph in canonical labels
//! and its distinguished vertices in, a verdict with evidence out. Wiring a
//! new solver is a match arm here.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::puzzle::{Evidence, Game, Move, SolveOptions, Verdict, WinningMoves};
use crate::solver::graph::{Graph, Vertex};
use crate::solver::{SOLVER_VERSION, geography};

/// Why a solve could not produce a verdict.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("{0}")]
    Unsupported(String),
}

/// Solves `game` on `graph` (a validated spec's graph, in canonical labels)
/// with the game's distinguished vertices (see `Spec::distinguished`).
/// CPU-bound: call it off the async runtime.
pub fn solve(
    game: Game,
    graph: &Graph,
    distinguished: &[Vertex],
    options: SolveOptions,
) -> Result<Verdict, GameError> {
    // Times are kept to the microsecond, as the store keeps them, so a
    // verdict read back from the store equals the fresh one.
    let solve_time = UNIX_EPOCH
        + Duration::from_micros(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
                .as_micros() as u64,
        );
    let started = Instant::now();
    let (winner, evidence, winning_moves) = match game {
        Game::Geography => {
            let start = distinguished[0];
            let s = geography::solve(
                graph,
                start,
                geography::GeographyOptions {
                    all_starts: options.all_starts,
                    winning_moves: options.winning_moves,
                },
            );
            let geography::GeographySolution {
                winner,
                matching,
                barrier,
                start_barrier,
                second_player_starts,
                winning_moves,
            } = s;
            let winning_moves =
                winning_moves.map(|geography::WinningMoves { moves, unique }| WinningMoves {
                    moves: moves.into_iter().map(Move::Vertex).collect(),
                    unique,
                });
            (
                winner,
                Evidence::Geography {
                    matching,
                    barrier,
                    start_barrier,
                    second_player_starts,
                },
                winning_moves,
            )
        }
        Game::BipartiteEdge | Game::TreePaint => {
            return Err(GameError::Unsupported(format!(
                "the {} solver is not part of this build yet",
                game.as_str()
            )));
        }
    };
    Ok(Verdict {
        winner,
        evidence,
        winning_moves,
        solver_version: SOLVER_VERSION.to_owned(),
        solve_time,
        solve_duration: Duration::from_micros(started.elapsed().as_micros() as u64),
    })
}

/// The options that matter for `game` (the others are dropped so that they
/// do not split the cache).
pub fn effective_options(game: Game, options: SolveOptions) -> SolveOptions {
    match game {
        Game::Geography => options,
        Game::BipartiteEdge | Game::TreePaint => SolveOptions {
            all_starts: false,
            ..options
        },
    }
}
