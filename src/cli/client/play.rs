//! `puzzled client play`: a game against the server's engine on the Play
//! stream, in the terminal as the local `puzzled play` plays it (the same
//! prompts, `hint` and `quit`), moves typed and shown in the puzzle's own
//! numbering and sent in the API's.

use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::args::PlayArgs;
use super::commands::{Output, is_stdin};
use super::connect::Connection;
use super::error::{ClientError, Result};
use super::json::to_json;
use super::show::play_position;
use super::source::{self, Subject, Target, solver_move};
use crate::api::{encode, proto};
use crate::cli::args::Side;
use crate::cli::game_loop;
use crate::cli::report::{self, GameKind};
use crate::solver::Player;
use crate::solver::position::{Move, PlayPosition};

pub async fn play(connection: &Connection, output: Output, args: PlayArgs) -> Result<()> {
    if is_stdin(std::path::Path::new(&args.puzzle)) {
        return Err(ClientError::usage(
            "play reads your moves from standard input: give the puzzle as a file or a name",
        ));
    }
    let subject = source::subject(connection, &args.puzzle, &args.file_args).await?;
    let human = match args.side {
        Side::First => Player::First,
        Side::Second => Player::Second,
    };
    let puzzle = match &subject.target {
        Target::Name(name) => proto::play_start::Puzzle::Name(name.clone()),
        Target::Spec(spec) => proto::play_start::Puzzle::Spec(spec.clone()),
    };
    let (send, requests) = mpsc::channel(1);
    send.send(proto::PlayRequest {
        request: Some(proto::play_request::Request::Start(proto::PlayStart {
            puzzle: Some(puzzle),
            human_side: encode::player_to_proto(human) as i32,
        })),
    })
    .await
    .map_err(|_| ClientError::local("the game's stream closed before it started"))?;
    let responses = connection
        .puzzles()
        .await?
        .play(connection.stream(ReceiverStream::new(requests)))
        .await?
        .into_inner();
    let mut game = Game {
        subject: &subject,
        output,
        send,
        responses,
        moves: Vec::new(),
        typed: Vec::new(),
        position: proto::PositionAnalysis::default(),
    };
    let Some(opening) = game.responses.message().await? else {
        return Err(ClientError::local(
            "the server ended the game before it began",
        ));
    };
    if !output.json {
        println!("{}", game_loop::greeting(human, subject.kind()));
    }
    game.answer(opening);
    // Closing our side (when `game` goes) ends the game on the server's;
    // after a final position it has ended it already.
    game_loop::play(&mut game, human, subject.kind(), subject.labels).await
}

/// The game as this side sees it: the stream both ways, the moves so far
/// (as typed, for errors) and the last position.
struct Game<'a> {
    subject: &'a Subject,
    output: Output,
    send: mpsc::Sender<proto::PlayRequest>,
    responses: tonic::Streaming<proto::PlayResponse>,
    moves: Vec<Move>,
    typed: Vec<String>,
    position: proto::PositionAnalysis,
}

impl Game<'_> {
    fn answer(&mut self, response: proto::PlayResponse) {
        if self.output.json {
            println!("{}", to_json(&response));
        }
        let labels = self.subject.labels;
        if let Some(m) = response.server_move.as_ref().and_then(solver_move) {
            let m = self.as_game_move(m);
            self.moves.push(m);
            self.typed.push(report::move_label(m, labels));
            if !self.output.json {
                println!("engine: {}", report::move_label(m, labels));
            }
        }
        if let Some(position) = response.position {
            self.position = position;
        }
        if !self.output.json {
            print!(
                "{}",
                report::play_state_text(&self.moves, &play_position(&self.position), labels)
            );
        }
    }

    /// Tree painting's moves are paints, not token moves (the same label).
    fn as_game_move(&self, m: Move) -> Move {
        match (self.subject.kind(), m) {
            (GameKind::TreePaint, Move::Geography(v)) => Move::Paint(v),
            (_, m) => m,
        }
    }

    fn rejected(&self, rejected: &proto::MoveRejection, response: &proto::PlayResponse) {
        if self.output.json {
            println!("{}", to_json(response));
            return;
        }
        let index = self.moves.len();
        let item = self.typed.last().map_or("?", String::as_str);
        println!(
            "{}; try again",
            report::illegal_move_text(index, item, &rejected.reason)
        );
    }
}

impl game_loop::Opponent for Game<'_> {
    type Error = ClientError;

    fn position(&self) -> PlayPosition {
        play_position(&self.position)
    }

    async fn play(&mut self, played: Move, typed: &str) -> Result<()> {
        self.typed.push(typed.to_owned());
        let request = proto::PlayRequest {
            request: Some(proto::play_request::Request::Move(source::proto_move(
                played,
            ))),
        };
        self.send
            .send(request)
            .await
            .map_err(|_| ClientError::local("the server closed the game"))?;
        let Some(response) = self.responses.message().await? else {
            return Err(ClientError::local(
                "the server ended the game without an answer",
            ));
        };
        if let Some(rejected) = &response.rejected {
            self.rejected(rejected, &response);
            self.typed.pop();
        } else {
            self.moves.push(played);
            self.answer(response);
        }
        Ok(())
    }

    fn unreadable(&self, error: std::io::Error) -> ClientError {
        ClientError::local(format!("cannot read standard input: {error}"))
    }

    fn json(&self) -> bool {
        self.output.json
    }
}
