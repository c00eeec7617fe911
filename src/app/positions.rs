//! Positions of a puzzle and games against the engine: the use cases
//! behind AnalyzePosition and Play, apart from their transport. The work
//! runs on the solve pool and stops when its caller leaves.
//!
//! A stored puzzle starts from its verdict where the verdict helps (solved
//! with winning moves, so from the verdict cache when another call has
//! solved it): its opening position is read off the verdict (Geography and
//! tree painting), and a Geography position after some moves is analysed
//! warm from the verdict's witness matching. The edge game's positions, and
//! tree painting's after moves, take one linear pass and no verdict: its
//! legal classes are not in a verdict.

use std::sync::Arc;

use super::games::{opening_from_verdict, setup_of};
use super::{AppError, Solver};
use crate::graph::Vertex;
use crate::puzzle::{Evidence, Game, Move, Spec, Verdict};
use crate::solver::Player;
use crate::solver::matching::mates_of;
use crate::solver::play::{Exchange, Game as PlayedGame};
use crate::solver::position::{PositionAnalysis, PositionError};

/// Whether AnalyzePosition of a stored puzzle of `game` reads its verdict:
/// for the opening of Geography and tree painting, and to warm Geography's
/// positions after moves.
pub fn analysis_wants_verdict(game: Game, opening: bool) -> bool {
    game == Game::Geography || (opening && game == Game::TreePaint)
}

/// Whether a Play game on a stored puzzle of `game` opens from its verdict
/// (every game but the edge game).
pub fn play_wants_verdict(game: Game) -> bool {
    game != Game::BipartiteEdge
}

impl Solver {
    /// The position `moves` reach in `spec`; `verdict` is a stored
    /// puzzle's, when [`analysis_wants_verdict`] asked for it.
    pub async fn analyze_position(
        &self,
        spec: Arc<Spec>,
        verdict: Option<Verdict>,
        moves: Vec<Move>,
    ) -> Result<PositionAnalysis, AppError> {
        let n = spec.graph().vertex_count();
        let warm = match verdict {
            Some(verdict) if moves.is_empty() => match opening_from_verdict(&spec, verdict) {
                Some(analysis) => return Ok(analysis),
                None => None,
            },
            Some(verdict) => witness_mates(&verdict, n),
            None => None,
        };
        let search_budget = self.search_budget_states();
        let analysis = self
            .run_position_work(move |cancel| {
                setup_of(&spec, search_budget).analyze_warm(&moves, warm.as_deref(), cancel)
            })
            .await??;
        Ok(analysis)
    }

    /// A game on `spec` with the engine playing against `human`: the game
    /// and its first exchange (the engine's move when it opens, and the
    /// position). `verdict` is a stored puzzle's, when
    /// [`play_wants_verdict`] asked for it.
    pub async fn start_game(
        &self,
        spec: Arc<Spec>,
        verdict: Option<Verdict>,
        human: Player,
    ) -> Result<(PlayedGame, Exchange), AppError> {
        let from_verdict = verdict.and_then(|verdict| opening_from_verdict(&spec, verdict));
        let search_budget = self.search_budget_states();
        let started = self
            .run_position_work(move |cancel| {
                let setup = setup_of(&spec, search_budget);
                let opening = match from_verdict {
                    Some(opening) => opening,
                    None => setup.analyze(&[], cancel)?,
                };
                PlayedGame::start(setup, human.other(), opening, cancel)
            })
            .await??;
        Ok(started)
    }

    /// The human's move `played` in `game` and the engine's answer. The
    /// game comes back either way; an illegal move leaves it as it was and
    /// comes back as the inner error.
    pub async fn play_move(
        &self,
        spec: Arc<Spec>,
        game: PlayedGame,
        played: Move,
    ) -> Result<(PlayedGame, Result<Exchange, PositionError>), AppError> {
        let search_budget = self.search_budget_states();
        let mut game = game;
        self.run_position_work(move |cancel| {
            let result = game.play(setup_of(&spec, search_budget), played, cancel);
            (game, result)
        })
        .await
    }
}

/// The mate array on `n` vertices of a Geography verdict's witness
/// matching.
fn witness_mates(verdict: &Verdict, n: usize) -> Option<Vec<Vertex>> {
    match &verdict.evidence {
        Evidence::Geography { matching, .. } => Some(mates_of(n, matching)),
        _ => None,
    }
}
