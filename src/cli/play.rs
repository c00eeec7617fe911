//! `puzzled analyze` (the position a list of moves reaches) and `puzzled
//! play` (a game against the engine in the terminal).

use std::io::BufRead;

use anyhow::{Context as _, Result, bail};

use super::args::{AnalyzeArgs, PlayArgs, Side};
use super::input::{game_kind, load_graph, numbering_of, position_error, setup_of};
use super::report;
use super::report::Labels;
use crate::solver::Player;
use crate::solver::cancel::Cancel;
use crate::solver::play::Game as PlayedGame;
use crate::solver::position::PositionError;

pub fn analyze(args: AnalyzeArgs) -> Result<()> {
    let labels = Labels::new(numbering_of(args.puzzle.read.format).0);
    let graph = load_graph(&args.puzzle, labels)?;
    let setup = setup_of(&args.puzzle, &graph, labels)?;
    let typed: Vec<String> = args
        .moves
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|item| !item.is_empty())
        .map(str::to_owned)
        .collect();
    let kind = game_kind(args.puzzle.game);
    let moves = typed
        .iter()
        .enumerate()
        .map(|(i, item)| {
            report::parse_move(item, kind, labels)
                .map_err(|e| anyhow::anyhow!("--moves: move {}: {e}", i + 1))
        })
        .collect::<Result<Vec<_>>>()?;
    let analysis = setup
        .analyze(&moves, &Cancel::never())
        .map_err(|e| position_error(e, &args.puzzle, &typed, labels))?;
    if args.json {
        println!("{}", report::position_json(&analysis, labels));
    } else {
        print!("{}", report::position_text(&analysis, labels));
    }
    Ok(())
}

pub fn play(args: PlayArgs) -> Result<()> {
    let labels = Labels::new(numbering_of(args.puzzle.read.format).0);
    if args.puzzle.file.as_os_str() == "-" {
        bail!("play reads your moves from standard input: give the puzzle as a file");
    }
    let graph = load_graph(&args.puzzle, labels)?;
    let setup = setup_of(&args.puzzle, &graph, labels)?;
    let never = Cancel::never();
    let human = match args.side {
        Side::First => Player::First,
        Side::Second => Player::Second,
    };
    let opening = setup
        .analyze(&[], &never)
        .map_err(|e| position_error(e, &args.puzzle, &[], labels))?;
    let (mut game, exchange) = PlayedGame::start(setup, human.other(), opening, &never)
        .map_err(|e| position_error(e, &args.puzzle, &[], labels))?;
    let kind = game_kind(args.puzzle.game);
    println!(
        "you play the {} player; type a move a line ({}), `hint` for the winning moves, `quit` to stop",
        report::player_name(human),
        if kind == report::GameKind::BipartiteEdge {
            "an edge u-v"
        } else {
            "a vertex"
        }
    );
    if let Some(m) = exchange.engine_move {
        println!("engine: {}", report::move_label(m, labels));
    }
    print!(
        "{}",
        report::play_state_text(game.moves(), game.position(), labels)
    );
    let mut typed: Vec<String> = game
        .moves()
        .iter()
        .map(|&m| report::move_label(m, labels))
        .collect();
    // The end is said as soon as the game is over, not at the next line read.
    let mut lines = std::io::stdin().lock().lines();
    while !game.position().game_over {
        let Some(line) = lines.next() else {
            break;
        };
        let line = line.context("cannot read standard input")?;
        let item = line.trim();
        match item {
            "" => continue,
            "quit" => return Ok(()),
            "hint" => {
                let winning = &game.position().winning;
                if winning.count == 0 {
                    println!("hint: every move loses against perfect play");
                } else {
                    let shown: Vec<String> = winning
                        .moves
                        .iter()
                        .map(|&m| report::move_label(m, labels))
                        .collect();
                    println!(
                        "hint: winning moves ({}): {}",
                        winning.count,
                        shown.join(" ")
                    );
                }
                continue;
            }
            _ => {}
        }
        let played = match report::parse_move(item, kind, labels) {
            Ok(played) => played,
            Err(e) => {
                println!("not a move: {e}");
                continue;
            }
        };
        typed.push(item.to_owned());
        match game.play(setup, played, &never) {
            Ok(exchange) => {
                if let Some(m) = exchange.engine_move {
                    typed.push(report::move_label(m, labels));
                    println!("engine: {}", report::move_label(m, labels));
                }
                print!(
                    "{}",
                    report::play_state_text(game.moves(), game.position(), labels)
                );
            }
            Err(error @ PositionError::Illegal(_)) => {
                println!(
                    "{}; try again",
                    position_error(error, &args.puzzle, &typed, labels)
                );
                typed.pop();
            }
            Err(error) => return Err(position_error(error, &args.puzzle, &typed, labels)),
        }
    }
    if game.position().game_over {
        let you_won = game.position().winner == human;
        println!(
            "{}",
            if you_won {
                "you win"
            } else {
                "the engine wins"
            }
        );
    }
    Ok(())
}
