//! A game against an engine in the terminal, as `puzzled play` and
//! `puzzled client play` both play it: the same greeting, a move typed a
//! line at a time in the puzzle's numbering, `hint` and `quit`, a line
//! that is not a move said and passed over, and the end said as soon as
//! the game is over. Only where the engine is differs (this process's
//! solver, or a server's Play stream): an [`Opponent`].

use tokio::sync::mpsc;

use super::report::{self, GameKind, Labels};
use crate::solver::Player;
use crate::solver::position::{Move, PlayPosition};

/// The engine's side of a game in the terminal.
pub trait Opponent {
    type Error;

    /// The position the last exchange left.
    fn position(&self) -> PlayPosition;

    /// Plays the person's move `played` (typed as `typed`) and shows what
    /// came of it: the engine's answer and the position, or why the move
    /// was refused (and the game goes on). An error ends the game.
    async fn play(&mut self, played: Move, typed: &str) -> Result<(), Self::Error>;

    /// Standard input could not be read.
    fn unreadable(&self, error: std::io::Error) -> Self::Error;

    /// Whether standard output is for programs (`--json`): the person's
    /// lines go to standard error then, and hints and the result are left
    /// to the positions printed.
    fn json(&self) -> bool {
        false
    }

    /// A line for the person.
    fn say(&self, line: &str) {
        if self.json() {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }
}

/// What the person is told first.
pub fn greeting(human: Player, kind: GameKind) -> String {
    format!(
        "you play the {} player; type a move a line ({}), `hint` for the winning moves, `quit` to stop",
        report::player_name(human),
        if kind == GameKind::BipartiteEdge {
            "an edge u-v"
        } else {
            "a vertex"
        }
    )
}

/// The winning moves of `position`, as `hint` says them.
pub fn hint(position: &PlayPosition, labels: Labels) -> String {
    let winning = &position.winning;
    if winning.count == 0 {
        return "hint: every move loses against perfect play".to_owned();
    }
    let shown: Vec<String> = winning
        .moves
        .iter()
        .map(|&m| report::move_label(m, labels))
        .collect();
    format!(
        "hint: winning moves ({}): {}",
        winning.count,
        shown.join(" ")
    )
}

/// Plays the person's lines against `opponent` until the game is over,
/// the person quits, or standard input ends; says who won when it is over.
pub async fn play<O: Opponent>(
    opponent: &mut O,
    human: Player,
    kind: GameKind,
    labels: Labels,
) -> Result<(), O::Error> {
    let mut lines = typed_lines();
    while !opponent.position().game_over {
        let Some(line) = lines.recv().await else {
            return Ok(());
        };
        let line = line.map_err(|error| opponent.unreadable(error))?;
        match line.trim() {
            "" => {}
            "quit" => return Ok(()),
            "hint" if opponent.json() => {}
            "hint" => opponent.say(&hint(&opponent.position(), labels)),
            typed => match report::parse_move(typed, kind, labels) {
                Ok(played) => opponent.play(played, typed).await?,
                Err(why) => opponent.say(&format!("not a move: {why}")),
            },
        }
    }
    if !opponent.json() {
        let won = opponent.position().winner == human;
        opponent.say(if won { "you win" } else { "the engine wins" });
    }
    Ok(())
}

/// The lines a person types, read on a thread of their own: standard input
/// blocks, and a game's stream must go on being served meanwhile.
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
