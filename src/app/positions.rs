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
use super::pool::{Lane, units_of};
use super::work_budget::Payer;
use super::{AppError, Reason, Solver};
use crate::graph::Vertex;
use crate::puzzle::{Evidence, Game, Move, Spec, Verdict};
use crate::solver::Player;
use crate::solver::matching::mates_of;
use crate::solver::play::{Exchange, Game as PlayedGame, Progress};
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
    /// The position `moves` reach in `spec`, worked out for `caller`;
    /// `verdict` is a stored puzzle's, when [`analysis_wants_verdict`]
    /// asked for it. A position the search budget was too small for is
    /// remembered, and refused at once when asked again.
    pub async fn analyze_position(
        &self,
        spec: Arc<Spec>,
        verdict: Option<Verdict>,
        moves: Vec<Move>,
        payer: &Payer,
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
        let known = match spec.game().search_variant() {
            Some(_) => {
                let key = position_key(&spec, &moves, search_budget);
                self.refuse_known_over_budget(&key).await?;
                Some(key)
            }
            None => None,
        };
        let analysis = self
            .run_position_work(payer, Lane::of(&spec), move |cancel| {
                setup_of(&spec, search_budget).analyze_warm(&moves, warm.as_deref(), cancel)
            })
            .await?
            .map_err(AppError::from);
        if let (Some(key), Err(refusal @ AppError::Busy { reason, .. })) = (known, &analysis)
            && *reason == Reason::SearchBudgetExceeded
        {
            self.remember_over_budget(key, refusal).await;
        }
        analysis
    }

    /// A game on `spec` with the engine playing against `human`: the game
    /// and its first exchange (the engine's move when it opens, and the
    /// position). `verdict` is a stored puzzle's, when
    /// [`play_wants_verdict`] asked for it. Worked out for `caller`.
    pub async fn start_game(
        &self,
        spec: Arc<Spec>,
        verdict: Option<Verdict>,
        human: Player,
        payer: &Payer,
    ) -> Result<(PlayedGame, Exchange), AppError> {
        let from_verdict = verdict.and_then(|verdict| opening_from_verdict(&spec, verdict));
        let search_budget = self.search_budget_states();
        let analyses = engine_analyses_per_job(&spec);
        let job_spec = spec.clone();
        let (game, progress) = self
            .run_position_work(payer, Lane::of(&spec), move |cancel| {
                let setup = setup_of(&job_spec, search_budget);
                let opening = match from_verdict {
                    Some(opening) => opening,
                    None => setup.analyze(&[], cancel)?,
                };
                PlayedGame::start_within(setup, human.other(), opening, analyses, cancel)
            })
            .await??;
        let (game, exchange) = self.until_moved(spec, game, progress, payer).await?;
        Ok((game, exchange?))
    }

    /// The human's move `played` in `game` and the engine's answer. The
    /// game comes back either way; an illegal move leaves it as it was and
    /// comes back as the inner error. Worked out for `caller`.
    pub async fn play_move(
        &self,
        spec: Arc<Spec>,
        game: PlayedGame,
        played: Move,
        payer: &Payer,
    ) -> Result<(PlayedGame, Result<Exchange, PositionError>), AppError> {
        let search_budget = self.search_budget_states();
        let analyses = engine_analyses_per_job(&spec);
        let mut game = game;
        let job_spec = spec.clone();
        let (game, progress) = self
            .run_position_work(payer, Lane::of(&spec), move |cancel| {
                let setup = setup_of(&job_spec, search_budget);
                let result = game.play_within(setup, played, analyses, cancel);
                (game, result)
            })
            .await?;
        match progress {
            Ok(progress) => self.until_moved(spec, game, progress, payer).await,
            Err(refused) => Ok((game, Err(refused))),
        }
    }

    /// Gives the engine's choice the further jobs it needs, each weighing a
    /// bounded number of candidates (the worker is handed back between
    /// them), until the engine has moved.
    async fn until_moved(
        &self,
        spec: Arc<Spec>,
        mut game: PlayedGame,
        mut progress: Progress,
        payer: &Payer,
    ) -> Result<(PlayedGame, Result<Exchange, PositionError>), AppError> {
        let search_budget = self.search_budget_states();
        let analyses = engine_analyses_per_job(&spec);
        loop {
            if let Progress::Done(exchange) = progress {
                return Ok((game, Ok(exchange)));
            }
            let job_spec = spec.clone();
            let (thought, result) = self
                .continue_position_work(payer, Lane::of(&spec), move |cancel| {
                    let result = game.think(setup_of(&job_spec, search_budget), analyses, cancel);
                    (game, result)
                })
                .await?;
            game = thought;
            progress = match result {
                Ok(progress) => progress,
                Err(failed) => return Ok((game, Err(failed))),
            };
        }
    }
}

/// Vertices + edges the engine's candidate analyses may cover in one pool
/// job: a whole move on a small puzzle, one candidate at a time on a large
/// one (each candidate's analysis is linear in the puzzle).
pub const ENGINE_JOB_UNITS: u64 = 1 << 20;

/// How many candidate moves the engine weighs in one pool job on `spec`.
/// A game solved by search weighs one a job: each candidate is a search
/// of its own, up to the search budget.
fn engine_analyses_per_job(spec: &Spec) -> usize {
    if spec.game().search_variant().is_some() {
        return 1;
    }
    let units = units_of(spec).max(1);
    usize::try_from(ENGINE_JOB_UNITS / units)
        .unwrap_or(usize::MAX)
        .max(1)
}

/// The key a position of a game solved by search is remembered by when
/// its search ran past `budget`: the puzzle as given (game, distinguished
/// vertices, edges in their order: a search explores them in that order),
/// the moves, and the budget. Such puzzles have at most 128 edges, so the
/// key is short work.
fn position_key(spec: &Spec, moves: &[Move], budget: u64) -> String {
    use sha2::{Digest as _, Sha256};
    let raw = spec.raw();
    let mut hasher = Sha256::new();
    hasher.update(raw.game.as_str().as_bytes());
    for word in [raw.vertex_count, budget, u64::from(raw.start)] {
        hasher.update(word.to_le_bytes());
    }
    for vertex in [raw.black, raw.white] {
        hasher.update(vertex.map_or(u64::MAX, u64::from).to_le_bytes());
    }
    for endpoint in &raw.edges {
        hasher.update(endpoint.to_le_bytes());
    }
    hasher.update(format!("{moves:?}").as_bytes());
    format!("position:{:x}", hasher.finalize())
}

/// The mate array on `n` vertices of a Geography verdict's witness
/// matching.
fn witness_mates(verdict: &Verdict, n: usize) -> Option<Vec<Vertex>> {
    match &verdict.evidence {
        Evidence::Geography { matching, .. } => Some(mates_of(n, matching)),
        _ => None,
    }
}
