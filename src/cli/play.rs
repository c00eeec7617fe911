//! `puzzled analyze` (the position a list of moves reaches) and `puzzled
//! play` (a game against the engine in the terminal).

use anyhow::{Result, bail};

use super::args::{AnalyzeArgs, PlayArgs, Side};
use super::game_loop;
use super::input::{game_kind, load_graph, numbering_of, position_error, setup_of};
use super::report;
use super::report::Labels;
use crate::solver::Player;
use crate::solver::cancel::Cancel;
use crate::solver::play::Game as PlayedGame;
use crate::solver::position::{GameSetup, Move, PlayPosition, PositionError};

pub fn analyze(args: AnalyzeArgs) -> Result<()> {
    let labels = Labels::new(numbering_of(args.puzzle.read.format).0);
    let graph = load_graph(&args.puzzle, labels)?;
    let setup = setup_of(&args.puzzle, &graph, labels)?;
    let kind = game_kind(args.puzzle.game);
    let (typed, moves) =
        report::parse_moves(&args.moves, kind, labels).map_err(|e| anyhow::anyhow!("{e}"))?;
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
    let (game, exchange) = PlayedGame::start(setup, human.other(), opening, &never)
        .map_err(|e| position_error(e, &args.puzzle, &[], labels))?;
    let kind = game_kind(args.puzzle.game);
    println!("{}", game_loop::greeting(human, kind));
    if let Some(m) = exchange.engine_move {
        println!("engine: {}", report::move_label(m, labels));
    }
    print!(
        "{}",
        report::play_state_text(game.moves(), game.position(), labels)
    );
    let typed = game
        .moves()
        .iter()
        .map(|&m| report::move_label(m, labels))
        .collect();
    let mut local = LocalGame {
        setup,
        game,
        labels,
        args: &args,
        typed,
    };
    tokio::runtime::Builder::new_current_thread()
        .build()?
        .block_on(game_loop::play(&mut local, human, kind, labels))
}

/// The engine of this process, for [`game_loop::play`].
struct LocalGame<'a> {
    setup: GameSetup<'a>,
    game: PlayedGame,
    labels: Labels,
    args: &'a PlayArgs,
    /// The moves so far as typed (the engine's as shown), for errors.
    typed: Vec<String>,
}

impl game_loop::Opponent for LocalGame<'_> {
    type Error = anyhow::Error;

    fn position(&self) -> PlayPosition {
        self.game.position().clone()
    }

    async fn play(&mut self, played: Move, typed: &str) -> Result<()> {
        let labels = self.labels;
        self.typed.push(typed.to_owned());
        match self.game.play(self.setup, played, &Cancel::never()) {
            Ok(exchange) => {
                if let Some(m) = exchange.engine_move {
                    self.typed.push(report::move_label(m, labels));
                    println!("engine: {}", report::move_label(m, labels));
                }
                print!(
                    "{}",
                    report::play_state_text(self.game.moves(), self.game.position(), labels)
                );
                Ok(())
            }
            Err(error @ PositionError::Illegal(_)) => {
                let said = position_error(error, &self.args.puzzle, &self.typed, labels);
                println!("{said}; try again");
                self.typed.pop();
                Ok(())
            }
            Err(error) => Err(position_error(
                error,
                &self.args.puzzle,
                &self.typed,
                labels,
            )),
        }
    }

    fn unreadable(&self, error: std::io::Error) -> anyhow::Error {
        anyhow::Error::new(error).context("cannot read standard input")
    }
}
