//! A puzzle's difficulty, read off the solver's own answers at the
//! positions of one line of play.
//!
//! **The main line.** From the start, the side that wins with perfect play
//! (the winner) plays, on each of its turns, its winning move when there is
//! exactly one, else the first of the position's winning moves (the
//! smallest for the Geographies and tree painting, the example of the
//! first winning class for the edge game); the other side plays the
//! engine's best defence ([`engine_move`]: the legal move that leaves the
//! winner the fewest winning replies, ties to the longer game, then to the
//! smallest move). The line is walked only as far as the only-move run
//! below: it stops before the first winner turn with two or more winning
//! moves (that move is not played), when the side to move has no move,
//! after [`MAIN_LINE_MOVES`] moves, or, in the edge game, once the graph is
//! connected (no turn after can count: [`no_choice_is_left`]).
//!
//! **Only-move depth.** Along the main line, count the winner's turns on
//! which it has exactly one winning move among two or more legal moves,
//! from its first turn on. A winner turn with a single legal move is
//! passed over: it neither counts nor ends the run. The run ends at the
//! first winner turn with two or more winning moves, or at the game's end.
//! In the edge game the turns are counted by *classes* of moves
//! (edges inside one component, or joining vertices of two given kinds in
//! two components): every edge of a class leads to the same
//! verdict, so two winning edges of one class are one winning idea, and
//! the run counts a turn with exactly one winning class among two or more
//! legal classes, passes over a turn with a single legal class, and ends at
//! a turn with two or more winning classes.
//!
//! **Losing first moves.** Of the first player's legal first moves, how
//! many lose against perfect play: the legal moves that are not winning
//! when the first player wins, all of them when it loses.
//! [`Difficulty::losing_first_move_fraction`] divides by the number of
//! first moves.
//!
//! **Margin** (tree painting only). The final black count minus the final
//! white count with perfect play, from the start position's evidence: every
//! vertex ends with the colour whose painted set is nearer to it, ties to
//! black (the side to move at the start), so the counts add up to the
//! vertex count. Were the game played on after a player is stuck (that
//! player passing), these would be the final counts under perfect play,
//! black counting up and white counting down. Black wins iff the margin is
//! positive. `None` for the other games.

use serde::Serialize;

use crate::solver::Player;
use crate::solver::bipartite_edge::MoveClass;
use crate::solver::cancel::Cancel;
use crate::solver::matching::mates_of;
use crate::solver::position::{
    GameSetup, Move, PositionAnalysis, PositionError, PositionEvidence, engine_move,
};

/// The difficulty of a puzzle (module docs for each definition); the
/// domain's type, as the store keeps it.
pub use crate::puzzle::Difficulty;

/// A puzzle rated: who wins, its difficulty, and the main line walked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rating {
    /// The winner with perfect play from the start.
    pub winner: Player,
    pub difficulty: Difficulty,
    /// The moves walked, from the start (module docs).
    pub main_line: Vec<Move>,
}

/// Rates the puzzle `setup`: one analysis of each position of the main
/// line, and, on the loser's turns, the engine's analyses of its moves.
/// Stops with the analysis' error (cancelled, over a search budget).
pub fn rate(setup: GameSetup<'_>, cancel: &Cancel) -> Result<Rating, PositionError> {
    let opening = setup.analyze(&[], cancel)?;
    let winner = opening.position.winner;
    let first_move_count = opening.position.legal_move_count;
    let losing_first_moves = match winner {
        Player::First => first_move_count - opening.position.winning.count,
        Player::Second => first_move_count,
    };
    let margin = match opening.evidence {
        PositionEvidence::TreePaint {
            black_count,
            white_count,
            ..
        } => Some(black_count as i64 - white_count as i64),
        _ => None,
    };
    let mut main_line = Vec::new();
    let mut only_move_depth = 0;
    let mut analysis = opening;
    while !analysis.position.game_over {
        if main_line.len() >= MAIN_LINE_MOVES || no_choice_is_left(&analysis) {
            break;
        }
        let position = &analysis.position;
        let played = if position.to_move == winner {
            let choice = Choice::of(&analysis);
            if choice.legal >= 2 {
                if choice.winning != 1 {
                    break;
                }
                only_move_depth += 1;
            }
            // The winner to move always has a winning move: the line keeps
            // the perfect-play winner winning.
            *position
                .winning
                .moves
                .first()
                .expect("the winner to move has a winning move")
        } else {
            match engine_move(setup, &main_line, &analysis, cancel)? {
                Some(defence) => defence,
                None => break,
            }
        };
        main_line.push(played);
        analysis = analyze_after(setup, &main_line, &analysis, cancel)?;
    }
    Ok(Rating {
        winner,
        difficulty: Difficulty {
            only_move_depth,
            losing_first_moves,
            first_move_count,
            margin,
        },
        main_line,
    })
}

/// The most moves the main line is walked (module docs): the run of only
/// moves stops counting there. Every move walked costs an analysis of the
/// position, which grows with the graph, and a game can last a number of
/// moves quadratic in it (the edge game's), so the walk, one job on a solve
/// worker, needs a bound of its own.
pub const MAIN_LINE_MOVES: usize = 256;

/// Whether no later turn of the game can count or end the run: in the edge
/// game once the graph is connected, every legal move is an edge inside the
/// one component, one class, so every turn after is passed over.
fn no_choice_is_left(analysis: &PositionAnalysis) -> bool {
    match &analysis.evidence {
        PositionEvidence::BipartiteEdge { classes, .. } => classes
            .iter()
            .all(|class| class.class == MoveClass::InsideComponent),
        _ => false,
    }
}

/// What the side to move chooses among, as the only-move depth counts it:
/// moves, or in the edge game classes of moves (module docs).
struct Choice {
    legal: u64,
    winning: u64,
}

impl Choice {
    fn of(analysis: &PositionAnalysis) -> Choice {
        match &analysis.evidence {
            // Every edge of a class leads to the same verdict, so a choice
            // between two edges of one class is no choice at all.
            PositionEvidence::BipartiteEdge { classes, .. } => Choice {
                legal: classes.len() as u64,
                winning: classes.iter().filter(|class| class.wins).count() as u64,
            },
            _ => Choice {
                legal: analysis.position.legal_move_count,
                winning: analysis.position.winning.count,
            },
        }
    }
}

/// The analysis of `line`, whose last move was played from the position
/// `before`: a Geography analysis starts from `before`'s maximum matching,
/// which a move changes by at most one vertex.
fn analyze_after(
    setup: GameSetup<'_>,
    line: &[Move],
    before: &PositionAnalysis,
    cancel: &Cancel,
) -> Result<PositionAnalysis, PositionError> {
    match (setup, &before.evidence) {
        (GameSetup::Geography { graph, .. }, PositionEvidence::Geography { matching, .. }) => {
            let mate = mates_of(graph.vertex_count(), matching);
            setup.analyze_warm(line, Some(&mate), cancel)
        }
        _ => setup.analyze(line, cancel),
    }
}
