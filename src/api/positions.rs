//! AnalyzePosition and the Play stream: the puzzle named or given inline,
//! admitted and opened; the moves decoded; the work asked of
//! `app::positions`; the game's stream kept (one response per message, the
//! idle time, the limit on open games, the end at shutdown).

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, mpsc, watch};
use tonic::{Status, Streaming};

use super::proto;
use super::{decode, encode, sizing};
use crate::app::Reason;
use crate::app::access::Caller;
use crate::app::admission::{Admission, Admitted};
use crate::app::catalog::{Catalog, Opened};
use crate::app::pool::off_runtime_if_large;
use crate::app::positions::{analysis_wants_verdict, play_wants_verdict};
use crate::app::work_budget::Payer;
use crate::app::{AppError, Gauge, Solver};
use crate::puzzle::{Game, Limits, Move, Spec, Verdict};
use crate::solver::play::Exchange;
use crate::solver::position::PositionError;

/// The limits on Play games.
#[derive(Debug, Clone)]
pub struct PlayLimits {
    /// The units open games hold, apart from the requests' budget: a game
    /// holds its puzzle's vertices + edges until it ends.
    pub budget: Arc<Admission>,
    /// How long a game waits for the client's next legal move.
    pub idle: Duration,
    /// The largest message sent (`--max-message-bytes`): a Play response
    /// leaves its move lists out rather than pass it.
    pub message_limit: usize,
    /// Games open at once.
    pub max_games: usize,
    /// Counts the games open now (for the metrics).
    pub open: Gauge,
}

/// Which puzzle a position request is about.
pub enum PuzzleRef {
    Name(String),
    Spec(proto::PuzzleSpec),
}

impl From<proto::analyze_position_request::Puzzle> for PuzzleRef {
    fn from(puzzle: proto::analyze_position_request::Puzzle) -> PuzzleRef {
        match puzzle {
            proto::analyze_position_request::Puzzle::Name(name) => PuzzleRef::Name(name),
            proto::analyze_position_request::Puzzle::Spec(spec) => PuzzleRef::Spec(spec),
        }
    }
}

impl From<proto::play_start::Puzzle> for PuzzleRef {
    fn from(puzzle: proto::play_start::Puzzle) -> PuzzleRef {
        match puzzle {
            proto::play_start::Puzzle::Name(name) => PuzzleRef::Name(name),
            proto::play_start::Puzzle::Spec(spec) => PuzzleRef::Spec(spec),
        }
    }
}

/// A puzzle ready for position work, holding its admission units.
struct OpenPuzzle {
    spec: Arc<Spec>,
    /// A stored puzzle's verdict with winning moves, in its labels.
    verdict: Option<Verdict>,
    _admitted: Admitted,
}

/// What position work needs from the server; cheap to clone into a game's
/// task.
#[derive(Clone)]
pub struct Positions {
    catalog: Catalog,
    solver: Solver,
    limits: Limits,
    admission: Arc<Admission>,
    play: PlayLimits,
    games: Arc<Semaphore>,
    /// Becomes true when the server starts shutting down: open games end
    /// then, rather than hold the shutdown for their idle time.
    closing: watch::Receiver<bool>,
}

impl Positions {
    pub fn new(
        catalog: Catalog,
        solver: Solver,
        limits: Limits,
        admission: Arc<Admission>,
        play: PlayLimits,
        closing: watch::Receiver<bool>,
    ) -> Positions {
        Positions {
            closing,
            catalog,
            solver,
            limits,
            admission,
            games: Arc::new(Semaphore::new(play.max_games)),
            play,
        }
    }

    /// The puzzle `puzzle` (the oneof `puzzle` of the message at `prefix`:
    /// `""` for the request itself, `"start."` for a Play start) validated,
    /// admitted from `admission` with `extra_units` beyond its own, and for
    /// a stored puzzle whose game `wants_verdict`, with its verdict (solved
    /// for `payer` if it must be).
    async fn open(
        &self,
        (admission, extra_units): (&Admission, u64),
        puzzle: Option<PuzzleRef>,
        prefix: &str,
        deadline: Option<Instant>,
        wants_verdict: impl FnOnce(Game) -> bool,
        payer: &Payer,
    ) -> Result<OpenPuzzle, AppError> {
        let missing = || {
            AppError::invalid(
                format!("{prefix}puzzle"),
                Reason::FieldRequired,
                format!(
                    "{prefix}puzzle is required: set {prefix}name (a stored puzzle) or \
                     {prefix}spec (an inline one)"
                ),
            )
        };
        let search_budget = self.solver.search_budget_states();
        // The move list the request holds while it waits.
        let moves_held = extra_units.saturating_mul(std::mem::size_of::<proto::Move>() as u64);
        match puzzle.ok_or_else(missing)? {
            PuzzleRef::Name(name) => {
                let name_field = format!("{prefix}name");
                let id = decode::id_from_name(&name, &name_field)?;
                let Opened {
                    spec,
                    verdict,
                    admitted,
                } = self
                    .catalog
                    .open(
                        id,
                        admission,
                        (extra_units, moves_held),
                        deadline,
                        payer,
                        wants_verdict,
                    )
                    .await?;
                Ok(OpenPuzzle {
                    spec,
                    verdict,
                    _admitted: admitted,
                })
            }
            PuzzleRef::Spec(spec) => {
                let spec_field = format!("{prefix}spec");
                let limits = self.limits;
                let units = sizing::units_of(Some(&spec), limits);
                let held = sizing::held_bytes(Some(&spec)).saturating_add(moves_held);
                let table = sizing::search_units_of(Some(&spec), search_budget);
                let admitted = admission
                    .admit_holding(
                        units.saturating_add(extra_units).saturating_add(table),
                        held,
                        &spec_field,
                    )
                    .await?;
                let spec = off_runtime_if_large(units, move || {
                    decode::spec_from_proto(Some(spec), &spec_field, limits)
                })
                .await??;
                Ok(OpenPuzzle {
                    spec: Arc::new(spec),
                    verdict: None,
                    _admitted: admitted,
                })
            }
        }
    }

    /// AnalyzePosition: the position `moves` reach in `puzzle`.
    pub async fn analyze(
        &self,
        puzzle: Option<PuzzleRef>,
        moves: Vec<proto::Move>,
        deadline: Option<Instant>,
        caller: &Caller,
    ) -> Result<proto::PositionAnalysis, AppError> {
        let payer = Payer::new(caller.clone());
        let opening = moves.is_empty();
        let wants_verdict = |game| analysis_wants_verdict(game, opening);
        // Each move is a unit too: a long list on a small puzzle is as much
        // work and memory as a large puzzle.
        let open = self
            .open(
                (&self.admission, moves.len() as u64),
                puzzle,
                "",
                deadline,
                wants_verdict,
                &payer,
            )
            .await?;
        let game = open.spec.game();
        let moves = moves
            .into_iter()
            .enumerate()
            .map(|(i, m)| decode::move_from_proto(m, game, &format!("moves[{i}]")))
            .collect::<Result<Vec<Move>, AppError>>()?;
        let analysis = self
            .solver
            .analyze_position(open.spec.clone(), open.verdict, moves, &payer)
            .await?;
        Ok(encode::position_to_proto(analysis))
    }

    /// Plays one game on `inbound`, sending one response per client
    /// message on `outbound`; an error ends the call with its status.
    pub async fn play(
        self,
        mut inbound: Streaming<proto::PlayRequest>,
        outbound: mpsc::Sender<Result<proto::PlayResponse, Status>>,
        caller: Caller,
    ) {
        if let Err(error) = self.play_game(&mut inbound, &outbound, &caller).await {
            let _ = outbound.send(Err(error.into())).await;
        }
    }

    async fn play_game(
        &self,
        inbound: &mut Streaming<proto::PlayRequest>,
        outbound: &mpsc::Sender<Result<proto::PlayResponse, Status>>,
        caller: &Caller,
    ) -> Result<(), AppError> {
        let Some(first) = self
            .next_message(inbound, Instant::now() + self.play.idle)
            .await?
        else {
            return Ok(());
        };
        let Some(proto::play_request::Request::Start(start)) = first.request else {
            return Err(AppError::invalid(
                "start",
                Reason::StartRequired,
                "the first message of a Play call must be `start`, naming the puzzle",
            ));
        };
        let _slot = self
            .games
            .clone()
            .try_acquire_owned()
            .map_err(|_| AppError::Busy {
                reason: Reason::TooManyGames,
                message: format!(
                    "the server already runs {} games (--max-games); try again later",
                    self.play.max_games
                ),
            })?;
        let _counted = self.play.open.enter();
        let proto::PlayStart { puzzle, human_side } = start;
        let human = decode::player_from_proto(human_side, "start.human_side")?;
        let payer = Payer::new(caller.clone());
        let open = self
            .open(
                (&self.play.budget, 0),
                puzzle.map(PuzzleRef::from),
                "start.",
                None,
                play_wants_verdict,
                &payer,
            )
            .await?;
        let started = self
            .solver
            .start_game(open.spec.clone(), open.verdict, human, &payer);
        let (mut game, exchange) = until_left(outbound, started).await?;
        let game_over = exchange.position.game_over;
        if send(outbound, reply(exchange, self.play.message_limit))
            .await
            .is_err()
            || game_over
        {
            return Ok(());
        }
        // Only a legal move starts the idle time again: a client that sends
        // nothing but refused moves holds its game no longer than a silent
        // one.
        let mut idle_until = Instant::now() + self.play.idle;
        while let Some(message) = self.next_message(inbound, idle_until).await? {
            let played = match message.request {
                Some(proto::play_request::Request::Move(m)) => {
                    decode::move_from_proto(m, open.spec.game(), "move")
                }
                _ => Err(AppError::invalid(
                    "move",
                    Reason::NotAMove,
                    "the game has started: send a `move`",
                )),
            };
            let (response, over) = match played {
                Ok(played) => {
                    // Each move is a step of its own: the budget is checked before it.
                    let payer = Payer::new(caller.clone());
                    let exchanged = self
                        .solver
                        .play_move(open.spec.clone(), game, played, &payer);
                    let (returned, result) = until_left(outbound, exchanged).await?;
                    game = returned;
                    match result {
                        Ok(exchange) => {
                            idle_until = Instant::now() + self.play.idle;
                            let over = exchange.position.game_over;
                            (reply(exchange, self.play.message_limit), over)
                        }
                        Err(PositionError::Illegal(illegal)) => (
                            rejection(Reason::Move(illegal.reason), illegal.message),
                            false,
                        ),
                        Err(other) => return Err(other.into()),
                    }
                }
                Err(AppError::InvalidArgument {
                    reason, message, ..
                }) => (rejection(reason, message), false),
                Err(other) => return Err(other),
            };
            if send(outbound, response).await.is_err() || over {
                return Ok(());
            }
        }
        Ok(())
    }

    /// The client's next message, if it comes by `idle_until`; `None` once
    /// the client has closed its side. A shutdown ends the wait (and the
    /// game) at once.
    async fn next_message(
        &self,
        inbound: &mut Streaming<proto::PlayRequest>,
        idle_until: Instant,
    ) -> Result<Option<proto::PlayRequest>, AppError> {
        let mut closing = self.closing.clone();
        let next = tokio::select! {
            next = tokio::time::timeout_at(idle_until.into(), inbound.message()) => next,
            _ = closing.wait_for(|&closing| closing) => {
                return Err(AppError::Unavailable {
                    reason: Reason::ShuttingDown,
                    message: "the server is shutting down; the game is closed".into(),
                });
            }
        };
        match next {
            Ok(Ok(message)) => Ok(message),
            // The client's stream broke: nobody is left to answer.
            Ok(Err(status)) => {
                tracing::debug!(%status, "a Play stream broke");
                Ok(None)
            }
            Err(_) => Err(AppError::GameIdle {
                seconds: self.play.idle.as_secs(),
            }),
        }
    }
}

/// `work`, stopped (and its solve with it) when the client leaves.
async fn until_left<T>(
    outbound: &mpsc::Sender<Result<proto::PlayResponse, Status>>,
    work: impl Future<Output = Result<T, AppError>>,
) -> Result<T, AppError> {
    tokio::select! {
        result = work => result,
        () = outbound.closed() => Err(AppError::DeadlineExceeded),
    }
}

/// The answer to an exchange. Its move lists are left out, the largest
/// first, when with them it would pass `message_limit`: a game on a large
/// puzzle goes on, its counts say how many moves there are, and
/// AnalyzePosition with the game's moves pages them.
fn reply(exchange: Exchange, message_limit: usize) -> proto::PlayResponse {
    use prost::Message as _;
    let mut response = proto::PlayResponse {
        server_move: exchange.engine_move.map(encode::move_to_proto),
        position: Some(encode::play_position_to_proto(exchange.position)),
        rejected: None,
    };
    if response.encoded_len() > message_limit
        && let Some(position) = response.position.as_mut()
    {
        position.legal_moves = Vec::new();
        if response.encoded_len() > message_limit
            && let Some(position) = response.position.as_mut()
        {
            position.winning_moves = Vec::new();
            if let Some(winning) = position.winning.as_mut() {
                winning.moves = Vec::new();
                winning.complete = false;
            }
        }
        tracing::info!(
            "a Play response left its move lists out: with them it passes the message limit"
        );
    }
    response
}

/// The answer to a refused move: why, and nothing else. The position is
/// unchanged, and the client has it from the response before: sending it
/// again would cost a list of every legal move for a few bytes of request.
fn rejection(reason: Reason, message: String) -> proto::PlayResponse {
    proto::PlayResponse {
        server_move: None,
        position: None,
        rejected: Some(proto::MoveRejection {
            reason: reason.as_str().to_owned(),
            message,
        }),
    }
}

async fn send(
    outbound: &mpsc::Sender<Result<proto::PlayResponse, Status>>,
    response: proto::PlayResponse,
) -> Result<(), ()> {
    outbound.send(Ok(response)).await.map_err(|_| ())
}
