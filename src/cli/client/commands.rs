//! The single-call subcommands: `health`, `list`, `get`, `create`,
//! `delete`, `solve` and `analyze`. Each prints its answer for people, or
//! with `--json` the API's message as one line of JSON.

use std::path::Path;

use super::args::{AnalyzeArgs, CreateArgs, GetArgs, ListArgs, NameArg, SolveArgs};
use super::connect::Connection;
use super::error::{ClientError, Result, bad_request_field};
use super::json::{ApiMessage, to_json};
use super::show;
use super::source::{self, Target, proto_game};
use crate::api::proto;
use crate::cli::report::{self, Labels};

/// How the results are printed.
#[derive(Clone, Copy)]
pub struct Output {
    pub json: bool,
}

impl Output {
    /// Prints `message` as JSON, or `text` for people.
    pub fn print<M: ApiMessage>(self, message: &M, text: impl FnOnce(&M) -> String) {
        if self.json {
            println!("{}", to_json(message));
        } else {
            print!("{}", text(message));
        }
    }
}

pub async fn health(connection: &Connection, output: Output) -> Result<()> {
    use tonic_health::pb::health_check_response::ServingStatus;
    let answer = tonic_health::pb::health_client::HealthClient::new(connection.channel().await?)
        .check(connection.unary(tonic_health::pb::HealthCheckRequest {
            service: String::new(),
        }))
        .await?
        .into_inner();
    let status = ServingStatus::try_from(answer.status)
        .map(|status| status.as_str_name().to_owned())
        .unwrap_or_else(|_| answer.status.to_string());
    output.print(&answer, |_| format!("{status}\n"));
    if answer.status == ServingStatus::Serving as i32 {
        Ok(())
    } else {
        Err(ClientError::NotServing {
            addr: connection.addr.clone(),
            status,
        })
    }
}

pub async fn list(connection: &Connection, output: Output, args: ListArgs) -> Result<()> {
    let mut request = proto::ListPuzzlesRequest {
        page_size: match args.page_size {
            Some(size) => i32::try_from(size)
                .map_err(|_| ClientError::usage("--page-size: at most 1000 a page"))?,
            None => 0,
        },
        page_token: args.page_token.unwrap_or_default(),
        game: args.game.map_or(0, |game| proto_game(game) as i32),
        view: proto::PuzzleView::Basic as i32,
        canonical_hash: args.canonical_hash.unwrap_or_default(),
    };
    let mut listed = 0usize;
    loop {
        let page = connection
            .puzzles()
            .await?
            .list_puzzles(connection.unary(request.clone()))
            .await?
            .into_inner();
        listed += page.puzzles.len();
        output.print(&page, |page| {
            page.puzzles
                .iter()
                .map(|puzzle| show::list_line(puzzle) + "\n")
                .collect()
        });
        if page.next_page_token.is_empty() {
            break;
        }
        if !args.all {
            if !output.json {
                println!("more: --page-token {}", page.next_page_token);
            }
            break;
        }
        request.page_token = page.next_page_token;
    }
    if listed == 0 && !output.json {
        println!("no puzzles");
    }
    Ok(())
}

pub async fn get(connection: &Connection, output: Output, args: GetArgs) -> Result<()> {
    let view = if args.basic {
        proto::PuzzleView::Basic
    } else {
        proto::PuzzleView::Full
    };
    let puzzle = connection
        .puzzles()
        .await?
        .get_puzzle(connection.unary(proto::GetPuzzleRequest {
            name: args.name,
            view: view as i32,
        }))
        .await?
        .into_inner();
    output.print(&puzzle, show::puzzle_text);
    Ok(())
}

pub async fn create(connection: &Connection, output: Output, args: CreateArgs) -> Result<()> {
    let (subject, mut spec) = source::from_file(&args.file, &args.file_args)?;
    spec.title = args.title.unwrap_or_default();
    spec.author = args.author.unwrap_or_default();
    let puzzle = connection
        .puzzles()
        .await?
        .create_puzzle(connection.unary(proto::CreatePuzzleRequest {
            puzzle: Some(proto::Puzzle {
                spec: Some(spec),
                ..Default::default()
            }),
            request_id: args.request_id.unwrap_or_default(),
        }))
        .await
        .map_err(|status| in_subject(status, &subject.shown, subject.labels))?
        .into_inner();
    output.print(&puzzle, show::puzzle_text);
    Ok(())
}

pub async fn delete(connection: &Connection, output: Output, args: NameArg) -> Result<()> {
    connection
        .puzzles()
        .await?
        .delete_puzzle(connection.unary(proto::DeletePuzzleRequest {
            name: args.name.clone(),
        }))
        .await?;
    output.print(&(), |_| format!("deleted {}\n", args.name));
    Ok(())
}

pub async fn solve(connection: &Connection, output: Output, args: SolveArgs) -> Result<()> {
    let subject = source::subject(connection, &args.puzzle, &args.file_args).await?;
    let mut puzzles = connection.puzzles().await?;
    let solution = match &subject.target {
        Target::Name(name) => puzzles
            .solve_puzzle(connection.unary(proto::SolvePuzzleRequest {
                name: name.clone(),
                include_all_starts: args.all_starts,
                include_winning_moves: args.winning_moves,
            }))
            .await?
            .into_inner(),
        Target::Spec(spec) => puzzles
            .solve(connection.unary(proto::SolveRequest {
                spec: Some(spec.clone()),
                include_all_starts: args.all_starts,
                include_winning_moves: args.winning_moves,
            }))
            .await
            .map_err(|status| in_subject(status, &subject.shown, subject.labels))?
            .into_inner(),
    };
    output.print(&solution, |solution| {
        show::solution_text(&subject, solution)
    });
    Ok(())
}

pub async fn analyze(connection: &Connection, output: Output, args: AnalyzeArgs) -> Result<()> {
    let subject = source::subject(connection, &args.puzzle, &args.file_args).await?;
    let (typed, moves) = report::parse_moves(&args.moves, subject.kind(), subject.labels)
        .map_err(ClientError::usage)?;
    let moves: Vec<proto::Move> = moves.into_iter().map(source::proto_move).collect();
    let puzzle = match &subject.target {
        Target::Name(name) => proto::analyze_position_request::Puzzle::Name(name.clone()),
        Target::Spec(spec) => proto::analyze_position_request::Puzzle::Spec(spec.clone()),
    };
    let analysis = connection
        .puzzles()
        .await?
        .analyze_position(connection.unary(proto::AnalyzePositionRequest {
            puzzle: Some(puzzle),
            moves: moves.clone(),
        }))
        .await
        .map_err(|status| match illegal_move(&status, &typed) {
            Some(message) => ClientError::Status {
                status: Box::new(status),
                context: None,
                message: Some(message),
            },
            None => in_subject(status, &subject.shown, subject.labels),
        })?
        .into_inner();
    output.print(&analysis, |analysis| {
        show::analysis_text(&subject, &moves, analysis)
    });
    Ok(())
}

/// An illegal move's error in the terms it was typed in (`move 2 (1) is
/// illegal: it was visited already`, after the status's reason): the server's
/// sentence numbers moves and vertices from 0, the person may not.
pub fn illegal_move(status: &tonic::Status, typed: &[String]) -> Option<String> {
    let field = bad_request_field(status)?;
    let index: usize = field
        .strip_prefix("moves[")?
        .strip_suffix(']')?
        .parse()
        .ok()?;
    let item = typed.get(index).map_or("?", String::as_str);
    let code = super::error::reason(status)?;
    Some(report::illegal_move_sentence(index, item, &code))
}

/// A refused puzzle, said of its file or name. The server numbers
/// vertices from 0; a file numbered from 1 gets a reminder of it. Errors
/// that are not about the puzzle (a token, the server's state) stand alone.
fn in_subject(status: tonic::Status, shown: &str, labels: Labels) -> ClientError {
    let context = match status.code() {
        tonic::Code::InvalidArgument if labels.are_ids() => Some(shown.to_owned()),
        tonic::Code::InvalidArgument => {
            Some(format!("{shown} (the server numbers vertices from 0)"))
        }
        _ => None,
    };
    ClientError::Status {
        status: Box::new(status),
        context,
        message: None,
    }
}

/// Whether `path` is standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}
