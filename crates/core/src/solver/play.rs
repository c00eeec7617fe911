//! A game against the engine, one exchange at a time: the person's move,
//! then the engine's answer.
//!
//! The engine plays by [`engine_move`]'s rule, with one difference in
//! Geography: while it stands on the winning side it answers with the mate
//! of the token's vertex in its witness matching (a winning move, though not
//! always the smallest). That keeps a Geography game on a large graph cheap:
//!
//! - The game keeps a maximum matching `M` of the remaining graph (the
//!   unvisited vertices and the token's), with the invariant that `M`
//!   covers the token's vertex iff the side to move wins (docs/games.md, Geography).
//! - The winner moving to its mate leaves the mate exposed in `M` minus
//!   that edge, which stays maximum: the loser is to move, known without
//!   any search. The loser's move `t → w` leaves `M` maximum in the smaller
//!   graph and covering `w` (every reply from a lost position wins), so the
//!   winner's answer is again the mate. While the engine wins an exchange
//!   costs `O(degree)`: no matching work at all.
//! - Any other move (the engine on the losing side, or a winning player
//!   choosing a winning move other than the mate) is followed by a full
//!   analysis of the new position, warm-started from `M`: one augmenting
//!   path per deleted vertex at most, plus the final alternating forest.
//!   It restores the invariant from the analysis' own evidence, so a
//!   mistake that hands the engine the win is seen at once, and from there
//!   the engine plays its mates again.
//!
//! Positions reported here ([`PlayPosition`]) carry the verdict, the
//! winning moves and the legal moves but no evidence: the evidence is as
//! large as the graph, and a game on a large graph would send it with every
//! move. [`GameSetup::analyze`] gives it for any position.

use super::Player;
use super::cancel::Cancel;
use super::geography;
use super::matching::{NONE, mates_of};
use crate::graph::{Graph, Vertex};

use super::position::{
    GameSetup, Move, PlayPosition, PositionAnalysis, PositionError, PositionEvidence, WinningMoves,
    engine_move, geography_illegal, not_a_token_move,
};

/// What one exchange produced: the engine's move, if it moved, and the
/// position after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    pub engine_move: Option<Move>,
    pub position: PlayPosition,
}

/// A game in progress between a person and the engine. It holds no
/// reference to the puzzle: every call takes the same [`GameSetup`].
#[derive(Debug, Clone)]
pub struct Game {
    engine: Player,
    moves: Vec<Move>,
    position: PlayPosition,
    /// Geography only: the token and its matching (module docs).
    token_game: Option<TokenGame>,
}

/// The state of a Geography game.
#[derive(Debug, Clone)]
struct TokenGame {
    /// The start and every vertex moved to.
    visited: Vec<bool>,
    token: Vertex,
    /// Invariant: a maximum matching of the remaining graph that covers
    /// `token` iff the side to move wins.
    mate: Vec<Vertex>,
}

impl TokenGame {
    /// The state at the opening, its matching taken from the opening's
    /// analysis.
    fn opening(graph: &Graph, start: Vertex, opening: &PositionAnalysis) -> TokenGame {
        let mut visited = vec![false; graph.vertex_count()];
        visited[start as usize] = true;
        let mut game = TokenGame {
            visited,
            token: start,
            mate: Vec::new(),
        };
        game.take_matching(opening);
        game
    }

    /// Takes the matching of `analysis`, a Geography analysis of the
    /// current position, which keeps the invariant by construction.
    fn take_matching(&mut self, analysis: &PositionAnalysis) {
        let PositionEvidence::Geography {
            current, matching, ..
        } = &analysis.evidence
        else {
            unreachable!("a Geography game is analysed as Geography");
        };
        debug_assert_eq!(*current, self.token);
        self.mate = mates_of(self.visited.len(), matching);
    }

    /// Moves the token to `w` (a legal move): the old token leaves the
    /// remaining graph, and with it its matched edge.
    fn advance(&mut self, w: Vertex) {
        let t = self.token;
        let partner = self.mate[t as usize];
        if partner != NONE {
            self.mate[t as usize] = NONE;
            self.mate[partner as usize] = NONE;
        }
        self.visited[w as usize] = true;
        self.token = w;
    }

    /// The position after the winner moved to its mate: the side to move
    /// (`to_move`) loses.
    fn lost_position(&self, graph: &Graph, to_move: Player) -> PlayPosition {
        let legal_moves: Vec<Move> = graph
            .neighbors(self.token)
            .iter()
            .filter(|&&w| !self.visited[w as usize])
            .map(|&w| Move::Geography(w))
            .collect();
        PlayPosition {
            game_over: legal_moves.is_empty(),
            to_move,
            winner: to_move.other(),
            winning: WinningMoves::complete_list(Vec::new()),
            legal_move_count: legal_moves.len() as u64,
            legal_moves,
        }
    }
}

/// What is known about the position the engine must move from.
enum Known {
    /// Geography, the engine wins: its mate is a winning move.
    EngineWinsByMate,
    Analysed(PositionAnalysis),
}

impl Game {
    /// A new game of `setup` in which the engine plays `engine`, from the
    /// opening position's analysis `opening` (of `setup` with no moves,
    /// e.g. built from a cached verdict). When the engine moves first, it
    /// moves now.
    pub fn start(
        setup: GameSetup<'_>,
        engine: Player,
        opening: PositionAnalysis,
        cancel: &Cancel,
    ) -> Result<(Game, Exchange), PositionError> {
        let token_game = match setup {
            GameSetup::Geography { graph, start } => {
                Some(TokenGame::opening(graph, start, &opening))
            }
            _ => None,
        };
        let mut game = Game {
            engine,
            moves: Vec::new(),
            position: opening.position.clone(),
            token_game,
        };
        let engine_move = if !opening.position.game_over && opening.position.to_move == engine {
            Some(game.engine_turn(setup, Known::Analysed(opening), cancel)?)
        } else {
            None
        };
        let position = game.position.clone();
        Ok((
            game,
            Exchange {
                engine_move,
                position,
            },
        ))
    }

    /// The moves played so far, the engine's included.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The current position.
    pub fn position(&self) -> &PlayPosition {
        &self.position
    }

    /// Plays the person's move, then the engine's answer unless the game is
    /// over. An illegal move leaves the game as it was and names the
    /// problem (its index is the move's number in the whole game).
    pub fn play(
        &mut self,
        setup: GameSetup<'_>,
        played: Move,
        cancel: &Cancel,
    ) -> Result<Exchange, PositionError> {
        let known = match (&mut self.token_game, setup) {
            (Some(token_game), GameSetup::Geography { graph, .. }) => {
                let index = self.moves.len();
                let Move::Geography(w) = played else {
                    return Err(not_a_token_move(index, played).into());
                };
                let w = geography::check_move(
                    graph,
                    &token_game.visited,
                    token_game.token,
                    index,
                    u64::from(w),
                )
                .map_err(|illegal| {
                    let mut line = self.moves.clone();
                    line.push(played);
                    geography_illegal(&line, illegal)
                })?;
                let mover_won = self.position.winner == self.position.to_move;
                token_game.advance(w);
                self.moves.push(played);
                if !mover_won {
                    // From a lost position every reply wins: the engine is
                    // to move, winning, and `M` still covers the token.
                    Known::EngineWinsByMate
                } else {
                    // The mover won: after its mate the engine loses; after
                    // another move either may win. Both need the analysis.
                    let analysis =
                        setup.analyze_warm(&self.moves, Some(&token_game.mate), cancel)?;
                    token_game.take_matching(&analysis);
                    Known::Analysed(analysis)
                }
            }
            _ => {
                let mut line = self.moves.clone();
                line.push(played);
                let analysis = setup.analyze(&line, cancel)?;
                self.moves = line;
                Known::Analysed(analysis)
            }
        };
        if let Known::Analysed(analysis) = &known {
            self.position = analysis.position.clone();
            if analysis.position.game_over {
                return Ok(Exchange {
                    engine_move: None,
                    position: self.position.clone(),
                });
            }
        }
        let engine_move = self.engine_turn(setup, known, cancel)?;
        Ok(Exchange {
            engine_move: Some(engine_move),
            position: self.position.clone(),
        })
    }

    /// The engine's move from the current position (the engine is to move
    /// and the game is not over), played; the position after it is stored.
    fn engine_turn(
        &mut self,
        setup: GameSetup<'_>,
        known: Known,
        cancel: &Cancel,
    ) -> Result<Move, PositionError> {
        let to_move_next = self.engine.other();
        match (known, &mut self.token_game, setup) {
            (Known::EngineWinsByMate, Some(token_game), GameSetup::Geography { graph, .. }) => {
                let mate = token_game.mate[token_game.token as usize];
                if mate == NONE {
                    // The invariant rules this out; should it ever fail,
                    // analyse afresh (which restores the matching from
                    // the analysis' own evidence) rather than guess.
                    debug_assert!(false, "the winner's token is exposed");
                    let analysis = setup.analyze(&self.moves, cancel)?;
                    token_game.take_matching(&analysis);
                    return self.engine_turn(setup, Known::Analysed(analysis), cancel);
                }
                token_game.advance(mate);
                let chosen = Move::Geography(mate);
                self.moves.push(chosen);
                self.position = token_game.lost_position(graph, to_move_next);
                Ok(chosen)
            }
            (Known::Analysed(analysis), _, _) => {
                // In Geography the winner answers with its mate, which
                // keeps the next position known without an analysis.
                if self.token_game.is_some() && analysis.position.winner == self.engine {
                    return self.engine_turn(setup, Known::EngineWinsByMate, cancel);
                }
                let chosen = engine_move(setup, &self.moves, &analysis, cancel)?
                    .expect("the engine moves only while the game is not over");
                self.moves.push(chosen);
                let after = match (&mut self.token_game, chosen) {
                    (Some(token_game), Move::Geography(w)) => {
                        token_game.advance(w);
                        let after =
                            setup.analyze_warm(&self.moves, Some(&token_game.mate), cancel)?;
                        token_game.take_matching(&after);
                        after
                    }
                    _ => setup.analyze(&self.moves, cancel)?,
                };
                self.position = after.position;
                Ok(chosen)
            }
            (Known::EngineWinsByMate, _, _) => {
                unreachable!("only a Geography game knows the engine's mate")
            }
        }
    }
}

#[cfg(test)]
mod tests;
