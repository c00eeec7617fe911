//! Puzzle generation for a puzzle-sharing site: candidates drawn from a
//! graph family, solved, rated, and kept when they meet the request.
//! The generator itself is pure and synchronous (no I/O) and CPU-bound;
//! `stream` runs it for a call on the solvers' pool, one candidate a pool
//! job, and stores what it finds.
//!
//! - `ask`: a request as a client asks it, and the rules that make it the
//!   generator's (the game's default family, each family's parameters,
//!   the server's limits);
//! - `families`: the graph families, and each candidate's puzzle drawn from
//!   the request's seed and the candidate's index;
//! - `draws`: rand's shuffle and index sampling, looking at the cancel
//!   handle as they go;
//! - `difficulty`: the rating (only-move depth, losing first moves, the
//!   tree-painting margin) and the main line it walks;
//! - `error`: what a request can fail with, and why candidates are passed
//!   over;
//! - `stream`: a GeneratePuzzles call (admission, deadline, copies passed
//!   over, storing).
//!
//! Candidate `k` (from 0) is drawn from a generator keyed by the seed and
//! `k` alone, checked with [`Spec::validate`], solved by
//! [`games::solve`](crate::app::games::solve) (the verdict a stored puzzle
//! gets, in its own labels), and rated. It is kept when the start is not
//! already over (the first player has a move), the winner is the one asked
//! for, and the only-move depth is at least the minimum asked for. The
//! puzzles of a request are the kept candidates in index order: the same
//! request gives the same puzzles however many are asked for at a time, and
//! [`Generator::resume_at`] takes up a sequence where an earlier run left
//! it.
//!
//! [`GenerateRequest::max_rejected_in_a_row`] candidates rejected in a row,
//! whatever the reasons (copies of puzzles already sent and candidates
//! over the search budget included; [`DEFAULT_MAX_REJECTED_IN_A_ROW`]
//! unless given, at most [`MAX_REJECTED_IN_A_ROW`]), end a call with
//! [`GenerateError::NoPuzzleFound`], which counts the reasons and says what
//! to relax; the next call goes on from the next candidate.
//!
//! The work on a candidate (drawing, validating, solving, rating, and
//! labelling a kept one canonically) needs nothing but the request and the
//! candidate's index; the [`Generator`] keeps the rest (the next index, the
//! rejections in a row, and through its caller the puzzles already sent).
//! So each candidate can be tried on its own, one pool job each, with the
//! bookkeeping between them.

mod ask;
mod difficulty;
mod draws;
mod error;
mod families;
mod stream;

pub use ask::{Ask, FamilyKind};
pub use difficulty::{Difficulty, Rating, rate};
pub use error::{Advice, GenerateError, NoPuzzleFound, Rejection, Rejections, RequestError};
pub use families::{
    DEFAULT_AVERAGE_DEGREE, DEFAULT_HOLE_FRACTION, DEFAULT_SPINE_FRACTION, DrawnGraph, Family,
    MAX_HOLE_FRACTION, candidate_rng, parse_graph6_line,
};
pub use stream::{Delivery, Found, Generations, MAX_COUNT};

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use crate::app::games::{self, GameError};
use crate::canon::{self, Canonical};
use crate::config::DEFAULT_SEARCH_BUDGET_STATES;
use crate::puzzle::{Evidence, Game, Limits, Move, SolveOptions, Spec, Verdict};
use crate::solver::Player;
use crate::solver::cancel::Cancel;
use crate::solver::position::PositionError;

/// Candidates rejected in a row before a call gives up, by default: room
/// for filters that pass one candidate in several hundred, while a request
/// that cannot be met is told so after bounded work.
pub const DEFAULT_MAX_REJECTED_IN_A_ROW: u64 = 2000;

/// The most candidates rejected in a row a request may ask for: room for
/// filters that pass one candidate in tens of thousands, beyond which a
/// request is better relaxed than searched. It bounds the work a call
/// spends on one puzzle as the deadline bounds its time, and holds where
/// the deadline does not (a call without one, the command line).
pub const MAX_REJECTED_IN_A_ROW: u64 = 100_000;

/// Which winner the puzzles must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinnerWanted {
    First,
    Second,
    Either,
}

impl WinnerWanted {
    pub fn accepts(self, winner: Player) -> bool {
        match self {
            WinnerWanted::First => winner == Player::First,
            WinnerWanted::Second => winner == Player::Second,
            WinnerWanted::Either => true,
        }
    }
}

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerateRequest {
    pub game: Game,
    pub family: Family,
    /// Vertex counts are drawn uniformly from `min_vertices..=max_vertices`
    /// (graph6 lines outside it are passed over).
    pub min_vertices: u32,
    pub max_vertices: u32,
    pub winner: WinnerWanted,
    pub seed: u64,
    /// The least only-move depth a puzzle may have (see `difficulty`).
    pub min_only_move_depth: u32,
    /// Candidates rejected in a row before a call gives up, at most
    /// [`MAX_REJECTED_IN_A_ROW`].
    pub max_rejected_in_a_row: u64,
    /// The search budget of each solve and analysis of the games solved by
    /// search, in states.
    pub search_budget_states: u64,
}

impl GenerateRequest {
    /// A request for puzzles of `game` from `family` on
    /// `min_vertices..=max_vertices` vertices: either winner, any depth,
    /// the default bounds.
    pub fn new(
        game: Game,
        family: Family,
        min_vertices: u32,
        max_vertices: u32,
        seed: u64,
    ) -> GenerateRequest {
        GenerateRequest {
            game,
            family,
            min_vertices,
            max_vertices,
            winner: WinnerWanted::Either,
            seed,
            min_only_move_depth: 0,
            max_rejected_in_a_row: DEFAULT_MAX_REJECTED_IN_A_ROW,
            search_budget_states: DEFAULT_SEARCH_BUDGET_STATES,
        }
    }

    /// Every check made before any candidate is drawn.
    pub fn check(&self) -> Result<(), RequestError> {
        families::check_family(self.game, &self.family)?;
        families::check_size_range(
            self.game,
            &self.family,
            self.min_vertices,
            self.max_vertices,
        )?;
        // The winner has a turn at most every other move, and the main line
        // is walked a bounded number of moves.
        let most_moves = families::most_moves(self.game, &self.family, self.max_vertices.into());
        let walked = most_moves.min(difficulty::MAIN_LINE_MOVES as u64);
        let deepest = walked.div_ceil(2);
        if u64::from(self.min_only_move_depth) > deepest {
            let why = if walked < most_moves {
                format!(
                    "the only-move depth is counted along at most {walked} moves of the main \
                     line (docs/games.md, Difficulty), so at most {deepest} winner turns"
                )
            } else {
                format!(
                    "{} on at most {} vertices lasts at most {most_moves} moves, so the \
                     winner has at most {deepest} turns",
                    self.game.as_str(),
                    self.max_vertices,
                )
            };
            return Err(RequestError::new(
                "min_only_move_depth",
                format!("{why}; got {}", self.min_only_move_depth),
            ));
        }
        if self.max_rejected_in_a_row == 0 {
            return Err(RequestError::new(
                "max_rejected_in_a_row",
                "must be at least 1",
            ));
        }
        if self.max_rejected_in_a_row > MAX_REJECTED_IN_A_ROW {
            return Err(RequestError::new(
                "max_rejected_in_a_row",
                format!(
                    "{} is more than the most a request may ask for, {MAX_REJECTED_IN_A_ROW}",
                    self.max_rejected_in_a_row
                ),
            ));
        }
        if self.game.search_variant().is_some() && self.search_budget_states == 0 {
            return Err(RequestError::new(
                "search_budget_states",
                "must be at least 1",
            ));
        }
        Ok(())
    }
}

/// A puzzle generated.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The candidate's index in the request's sequence.
    pub index: u64,
    pub spec: Spec,
    /// The verdict as [`games::solve`] gives it, with the winning moves.
    pub verdict: Verdict,
    pub difficulty: Difficulty,
    /// The moves the rating walked from the start (see `difficulty`).
    pub main_line: Vec<Move>,
}

/// What became of one candidate.
#[derive(Debug, Clone)]
pub enum Candidate {
    Kept(Box<Generated>),
    Rejected(Rejection),
}

/// What each candidate of `game` is solved with: the winning moves, which
/// the rating walks, and no more. A stored puzzle keeps the verdict under
/// these options.
pub fn solve_options(game: Game) -> SolveOptions {
    games::effective_options(
        game,
        SolveOptions {
            all_starts: false,
            winning_moves: true,
        },
    )
}

/// Yields the puzzles of one request, one at a time.
#[derive(Debug, Clone)]
pub struct Generator {
    candidates: Candidates,
    next_index: u64,
    /// The candidates rejected since the last puzzle kept, across calls of
    /// `next`, by reason: the request's `max_rejected_in_a_row` bounds
    /// their total, whichever the reasons.
    rejected: Rejections,
    /// The index of the first of them.
    first_rejected: u64,
}

/// The candidates of one request, each tried on its own: what a pool job
/// needs to try one (clones share it).
#[derive(Debug, Clone)]
struct Candidates(Arc<Source>);

#[derive(Debug)]
struct Source {
    request: GenerateRequest,
    /// The graph6 lines, parsed (for [`Family::Graph6`]).
    lines: Option<Vec<DrawnGraph>>,
}

/// What became of candidate `index`, tried on its own: a kept one comes
/// with its canonical form unless the handle cut its labelling short.
#[derive(Debug)]
struct Trial {
    index: u64,
    outcome: Result<Candidate, GenerateError>,
    canonical: Option<Canonical>,
}

impl Generator {
    /// Checks `request` (every field, every graph6 line) before any work.
    pub fn new(request: GenerateRequest) -> Result<Generator, GenerateError> {
        request.check()?;
        let lines = match &request.family {
            Family::Graph6 { lines } => Some(
                lines
                    .iter()
                    .enumerate()
                    .map(|(i, line)| {
                        parse_graph6_line(line).map_err(|e| {
                            RequestError::new(format!("graph6_lines[{i}]"), e.to_string())
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            _ => None,
        };
        Ok(Generator {
            candidates: Candidates(Arc::new(Source { request, lines })),
            next_index: 0,
            rejected: Rejections::default(),
            first_rejected: 0,
        })
    }

    pub fn request(&self) -> &GenerateRequest {
        &self.candidates.0.request
    }

    /// The index of the next candidate to be tried.
    pub fn next_index(&self) -> u64 {
        self.next_index
    }

    /// Goes on from candidate `index`: after a puzzle of index `k`, from
    /// `k + 1`, the sequence continues as if it had never stopped.
    pub fn resume_at(&mut self, index: u64) {
        self.next_index = index;
        self.rejected = Rejections::default();
    }

    /// The next puzzle; `Ok(None)` once the graph6 lines are used up (the
    /// random families never end). Candidates are tried in index order
    /// until one is kept, the handle fires, or too many in a row are
    /// rejected.
    pub fn next(&mut self, cancel: &Cancel) -> Result<Option<Generated>, GenerateError> {
        self.next_new(cancel, |_| true)
    }

    /// The next puzzle that copies none whose canonical hash is in `seen`
    /// (the same puzzle up to relabelling), with its canonical form; its
    /// hash joins `seen`. Copies count as rejections (see `next_new`).
    pub fn next_unseen(
        &mut self,
        cancel: &Cancel,
        seen: &mut HashSet<String>,
        canon_budget: Duration,
    ) -> Result<Option<(Generated, Canonical)>, GenerateError> {
        loop {
            let Some(index) = self.next_to_try()? else {
                return Ok(None);
            };
            cancel.check()?;
            let trial = self.candidates.try_labelled(index, cancel, canon_budget);
            if let Some(found) = self.take_unseen(trial, seen)? {
                return Ok(Some(found));
            }
        }
    }

    /// The next puzzle `is_new` accepts: one it refuses (a copy of a
    /// puzzle the caller already has) is rejected as a [`Rejection::Copy`],
    /// and candidates over the search budget as
    /// [`Rejection::OverSearchBudget`], so that every reason counts
    /// towards the same bound of rejections in a row. Reaching it returns
    /// [`GenerateError::NoPuzzleFound`] and starts the count again: a next
    /// call goes on with the next candidate.
    fn next_new(
        &mut self,
        cancel: &Cancel,
        mut is_new: impl FnMut(&Generated) -> bool,
    ) -> Result<Option<Generated>, GenerateError> {
        loop {
            let Some(index) = self.next_to_try()? else {
                return Ok(None);
            };
            cancel.check()?;
            let outcome = self.candidates.candidate(index, cancel);
            if let Some(generated) = self.take(index, outcome, &mut is_new)? {
                return Ok(Some(generated));
            }
        }
    }

    /// The index of the next candidate to try, before it is tried:
    /// `Ok(None)` once there is none (the graph6 lines are used up, or the
    /// last index is reached: it is never drawn, so that the one after it
    /// always exists), [`GenerateError::NoPuzzleFound`] once the rejections
    /// in a row have reached the request's bound (the count then starts
    /// again).
    fn next_to_try(&mut self) -> Result<Option<u64>, GenerateError> {
        if self.rejected.total() >= self.request().max_rejected_in_a_row {
            let rejections = std::mem::take(&mut self.rejected);
            return Err(GenerateError::NoPuzzleFound(NoPuzzleFound {
                tried: rejections.total(),
                first_index: self.first_rejected,
                rejections,
            }));
        }
        let index = self.next_index;
        let lines = self.candidates.0.lines.as_ref();
        let lines_used_up = lines.is_some_and(|lines| index >= lines.len() as u64);
        if lines_used_up || index == u64::MAX {
            return Ok(None);
        }
        Ok(Some(index))
    }

    /// Takes what became of candidate `index`, the one
    /// [`Generator::next_to_try`] gave: the puzzle when it is kept and
    /// `is_new` accepts it, else `Ok(None)` with the rejection counted
    /// (see `next_new`). The generator is past the candidate whatever came
    /// of it: an error leaves it ready for the next one.
    fn take(
        &mut self,
        index: u64,
        outcome: Result<Candidate, GenerateError>,
        is_new: impl FnOnce(&Generated) -> bool,
    ) -> Result<Option<Generated>, GenerateError> {
        self.next_index = index + 1;
        let rejection = match outcome {
            Ok(Candidate::Kept(generated)) if is_new(&generated) => {
                self.rejected = Rejections::default();
                return Ok(Some(*generated));
            }
            Ok(Candidate::Kept(_)) => Rejection::Copy,
            Ok(Candidate::Rejected(rejection)) => rejection,
            Err(GenerateError::SearchBudget { .. }) => Rejection::OverSearchBudget,
            Err(error) => return Err(error),
        };
        if self.rejected.total() == 0 {
            self.first_rejected = index;
        }
        self.rejected.count(rejection);
        Ok(None)
    }

    /// [`Generator::take`] for a trial whose kept candidate must copy none
    /// whose canonical hash is in `seen`; its hash joins `seen`.
    fn take_unseen(
        &mut self,
        trial: Trial,
        seen: &mut HashSet<String>,
    ) -> Result<Option<(Generated, Canonical)>, GenerateError> {
        let Trial {
            index,
            outcome,
            canonical,
        } = trial;
        // A labelling cut short by the handle counts as a copy; the next
        // look at the handle ends the call.
        let found = self.take(index, outcome, |_| {
            canonical
                .as_ref()
                .is_some_and(|labelled| seen.insert(labelled.hash.clone()))
        })?;
        Ok(found.zip(canonical))
    }

    /// The candidates, for a pool job to try one.
    fn candidates(&self) -> Candidates {
        self.candidates.clone()
    }

    /// Candidate `index`, kept or rejected (it does not move the
    /// generator).
    pub fn candidate(&self, index: u64, cancel: &Cancel) -> Result<Candidate, GenerateError> {
        self.candidates.candidate(index, cancel)
    }
}

impl Candidates {
    /// Candidate `index`, and a kept one's canonical form: all the work of
    /// one candidate, which the handle stops.
    fn try_labelled(&self, index: u64, cancel: &Cancel, canon_budget: Duration) -> Trial {
        let outcome = self.candidate(index, cancel);
        let canonical = match &outcome {
            Ok(Candidate::Kept(generated)) => {
                canon::canonicalize_unless_cancelled(&generated.spec, canon_budget, cancel)
            }
            _ => None,
        };
        Trial {
            index,
            outcome,
            canonical,
        }
    }

    /// Candidate `index`, kept or rejected.
    fn candidate(&self, index: u64, cancel: &Cancel) -> Result<Candidate, GenerateError> {
        let Source { request, lines } = &*self.0;
        let game = request.game;
        let mut rng = candidate_rng(request.seed, index);
        let graph = match lines {
            Some(lines) => {
                let Some(graph) = usize::try_from(index).ok().and_then(|i| lines.get(i)) else {
                    return Err(RequestError::new(
                        "graph6_lines",
                        format!("there is no line {index}"),
                    )
                    .into());
                };
                let n = graph.vertex_count;
                if !(request.min_vertices..=request.max_vertices).contains(&n) {
                    return Ok(Candidate::Rejected(Rejection::OutOfSizeRange));
                }
                graph.clone()
            }
            None => families::draw_graph(
                game,
                &request.family,
                request.min_vertices,
                request.max_vertices,
                &mut rng,
                cancel,
            )?,
        };
        let raw = match families::raw_spec(game, graph, &mut rng) {
            Ok(raw) => raw,
            Err(rejection) => return Ok(Candidate::Rejected(rejection)),
        };
        let spec = match Spec::validate(raw, Limits::NONE) {
            Ok(spec) => spec,
            // A line is whatever graph it is; a drawn graph has its game's
            // shape by construction.
            Err(_) if lines.is_some() => {
                return Ok(Candidate::Rejected(Rejection::NotForTheGame));
            }
            Err(e) => {
                return Err(GenerateError::Inconsistent {
                    index,
                    message: format!("the drawn puzzle is not valid: {e}"),
                });
            }
        };
        let options = solve_options(game);
        let verdict = games::solve(&spec, options, request.search_budget_states, cancel).map_err(
            |e| match e {
                GameError::Cancelled(cancelled) => cancelled.into(),
                GameError::SearchBudget(exceeded) => {
                    GenerateError::SearchBudget { index, exceeded }
                }
                GameError::Rejected(message) => GenerateError::Inconsistent { index, message },
            },
        )?;
        if !first_player_can_move(&spec, &verdict) {
            return Ok(Candidate::Rejected(Rejection::NoFirstMove));
        }
        if !request.winner.accepts(verdict.winner) {
            return Ok(Candidate::Rejected(Rejection::WrongWinner));
        }
        let setup = games::setup_of(&spec, request.search_budget_states);
        let rating = rate(setup, cancel).map_err(|e| match e {
            PositionError::Cancelled(cancelled) => cancelled.into(),
            PositionError::SearchBudget(exceeded) => {
                GenerateError::SearchBudget { index, exceeded }
            }
            other => GenerateError::Inconsistent {
                index,
                message: other.to_string(),
            },
        })?;
        if rating.winner != verdict.winner {
            return Err(GenerateError::Inconsistent {
                index,
                message: format!(
                    "the verdict says {:?} wins, the position analysis {:?}",
                    verdict.winner, rating.winner
                ),
            });
        }
        if rating.difficulty.first_move_count == 0 {
            return Err(GenerateError::Inconsistent {
                index,
                message: "the start has a move, but its analysis lists none".into(),
            });
        }
        if rating.difficulty.only_move_depth < request.min_only_move_depth {
            return Ok(Candidate::Rejected(Rejection::TooShallow));
        }
        Ok(Candidate::Kept(Box::new(Generated {
            index,
            spec,
            verdict,
            difficulty: rating.difficulty,
            main_line: rating.main_line,
        })))
    }
}

/// Whether the first player has a legal move at the start of `spec`,
/// whose verdict is `verdict` (the edge game's counts tell: a move exists
/// unless the graph is one complete bipartite component).
fn first_player_can_move(spec: &Spec, verdict: &Verdict) -> bool {
    let graph = spec.graph();
    let distinguished = spec.distinguished();
    if let Some(board) = spec.board() {
        return !board.moves(board.start(distinguished[0])).is_empty();
    }
    match (spec.game(), &verdict.evidence) {
        (Game::Geography, _) => graph.degree(distinguished[0]) > 0,
        (Game::TreePaint, _) => graph
            .neighbors(distinguished[0])
            .iter()
            .any(|&v| v != distinguished[1]),
        (
            Game::BipartiteEdge,
            Evidence::BipartiteEdge {
                x, iso, oo, eo, ee, ..
            },
        ) => *x > 0 || iso + oo + eo + ee > 1,
        // Left to the rating, which counts the legal first moves.
        _ => true,
    }
}

#[cfg(test)]
mod tests;
