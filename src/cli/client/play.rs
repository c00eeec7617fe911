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
use crate::api::proto;
use crate::cli::args::Side;
use crate::cli::report::{self, GameKind};
use crate::solver::position::Move;

/// The lines a person types, read on a thread of their own: standard input
/// blocks, and the game's stream must go on being served meanwhile.
fn typed_lines() -> mpsc::Receiver<std::io::Result<String>> {
    let (send, lines) = mpsc::channel(1);
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            if send.blocking_send(line).is_err() {
                return;
            }
        }
    });
    lines
}

pub async fn play(connection: &Connection, output: Output, args: PlayArgs) -> Result<()> {
    if is_stdin(std::path::Path::new(&args.puzzle)) {
        return Err(ClientError::usage(
            "play reads your moves from standard input: give the puzzle as a file or a name",
        ));
    }
    let subject = source::subject(connection, &args.puzzle, &args.file_args).await?;
    let human = match args.side {
        Side::First => proto::Player::First,
        Side::Second => proto::Player::Second,
    };
    let puzzle = match &subject.target {
        Target::Name(name) => proto::play_start::Puzzle::Name(name.clone()),
        Target::Spec(spec) => proto::play_start::Puzzle::Spec(spec.clone()),
    };
    let (send, requests) = mpsc::channel(1);
    send.send(proto::PlayRequest {
        request: Some(proto::play_request::Request::Start(proto::PlayStart {
            puzzle: Some(puzzle),
            human_side: human as i32,
        })),
    })
    .await
    .map_err(|_| ClientError::local("the game's stream closed before it started"))?;
    let mut responses = connection
        .puzzles()
        .await?
        .play(connection.stream(ReceiverStream::new(requests)))
        .await?
        .into_inner();
    let mut game = Game {
        subject: &subject,
        output,
        moves: Vec::new(),
        typed: Vec::new(),
        position: proto::PositionAnalysis::default(),
    };
    let Some(opening) = responses.message().await? else {
        return Err(ClientError::local(
            "the server ended the game before it began",
        ));
    };
    if !output.json {
        println!(
            "you play the {} player; type a move a line ({}), `hint` for the winning moves, `quit` to stop",
            show_side(human),
            if subject.kind() == GameKind::BipartiteEdge {
                "an edge u-v"
            } else {
                "a vertex"
            }
        );
    }
    game.answer(opening);
    let mut lines = typed_lines();
    while !game.position.game_over {
        let Some(line) = lines.recv().await else {
            break;
        };
        let line =
            line.map_err(|e| ClientError::local(format!("cannot read standard input: {e}")))?;
        let item = line.trim();
        match item {
            "" => continue,
            "quit" => return Ok(()),
            "hint" => {
                game.hint();
                continue;
            }
            _ => {}
        }
        let played = match report::parse_move(item, subject.kind(), subject.labels) {
            Ok(played) => played,
            Err(e) => {
                game.say(&format!("not a move: {e}"));
                continue;
            }
        };
        game.typed.push(item.to_owned());
        send.send(proto::PlayRequest {
            request: Some(proto::play_request::Request::Move(source::proto_move(
                played,
            ))),
        })
        .await
        .map_err(|_| ClientError::local("the server closed the game"))?;
        let Some(response) = responses.message().await? else {
            return Err(ClientError::local(
                "the server ended the game without an answer",
            ));
        };
        if let Some(rejected) = &response.rejected {
            game.rejected(rejected, &response);
            game.typed.pop();
        } else {
            game.moves.push(played);
            game.answer(response);
        }
    }
    // Closing our side ends the game on the server's; after a final
    // position it has ended it already.
    drop(send);
    if game.position.game_over && !output.json {
        println!(
            "{}",
            if game.position.winner == human as i32 {
                "you win"
            } else {
                "the engine wins"
            }
        );
    }
    Ok(())
}

fn show_side(side: proto::Player) -> &'static str {
    super::show::player(side as i32)
}

/// The game as this side sees it: the moves so far (as typed, for errors)
/// and the last position.
struct Game<'a> {
    subject: &'a Subject,
    output: Output,
    moves: Vec<Move>,
    typed: Vec<String>,
    position: proto::PositionAnalysis,
}

impl Game<'_> {
    /// A line for the person (on standard error with `--json`, where
    /// standard output is the responses alone).
    fn say(&self, line: &str) {
        if self.output.json {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }

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

    fn hint(&self) {
        if self.output.json {
            return;
        }
        let winning = self.position.winning.clone().unwrap_or_default();
        if winning.count == 0 {
            println!("hint: every move loses against perfect play");
        } else {
            let shown: Vec<String> = winning
                .moves
                .iter()
                .filter_map(solver_move)
                .map(|m| report::move_label(m, self.subject.labels))
                .collect();
            println!(
                "hint: winning moves ({}): {}",
                winning.count,
                shown.join(" ")
            );
        }
    }
}
