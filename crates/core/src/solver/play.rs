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
    EngineChoice, GameSetup, Move, PlayPosition, PositionAnalysis, PositionError, PositionEvidence,
    WinningMoves, geography_illegal, not_a_token_move,
};

/// What one exchange produced: the engine's move, if it moved, and the
/// position after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    pub engine_move: Option<Move>,
    pub position: PlayPosition,
}

/// Where a call on a [`Game`] left it: the exchange done, or the engine
/// still choosing its move from a lost position ([`Game::think`] goes on).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    Done(Exchange),
    Thinking,
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
    /// The engine's choice under way, from the analysed position it is
    /// to move in (lost for it, so it weighs every legal move). While it
    /// is set the game takes no move, only [`Game::think`].
    choosing: Option<(PositionAnalysis, EngineChoice)>,
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
        let (mut game, progress) = Game::start_within(setup, engine, opening, usize::MAX, cancel)?;
        let exchange = game.finish(setup, progress, cancel)?;
        Ok((game, exchange))
    }

    /// [`Game::start`], the engine analysing at most `analyses` of its
    /// candidate moves in this call.
    pub fn start_within(
        setup: GameSetup<'_>,
        engine: Player,
        opening: PositionAnalysis,
        analyses: usize,
        cancel: &Cancel,
    ) -> Result<(Game, Progress), PositionError> {
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
            choosing: None,
        };
        if opening.position.game_over || opening.position.to_move != engine {
            let position = game.position.clone();
            let exchange = Exchange {
                engine_move: None,
                position,
            };
            return Ok((game, Progress::Done(exchange)));
        }
        let progress = game.engine_turn(setup, Known::Analysed(opening), analyses, cancel)?;
        Ok((game, progress))
    }

    /// Goes on with the engine's choice until the exchange is done.
    fn finish(
        &mut self,
        setup: GameSetup<'_>,
        mut progress: Progress,
        cancel: &Cancel,
    ) -> Result<Exchange, PositionError> {
        loop {
            match progress {
                Progress::Done(exchange) => return Ok(exchange),
                Progress::Thinking => progress = self.think(setup, usize::MAX, cancel)?,
            }
        }
    }

    /// Goes on with the engine's choice, analysing at most `analyses` more
    /// of its candidate moves; the exchange once it has moved.
    pub fn think(
        &mut self,
        setup: GameSetup<'_>,
        analyses: usize,
        cancel: &Cancel,
    ) -> Result<Progress, PositionError> {
        let (analysis, choice) = self
            .choosing
            .take()
            .expect("think is called only while the engine is choosing");
        self.choose(setup, analysis, choice, analyses, cancel)
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
        let progress = self.play_within(setup, played, usize::MAX, cancel)?;
        self.finish(setup, progress, cancel)
    }

    /// [`Game::play`], the engine analysing at most `analyses` of its
    /// candidate moves in this call ([`Game::think`] goes on).
    pub fn play_within(
        &mut self,
        setup: GameSetup<'_>,
        played: Move,
        analyses: usize,
        cancel: &Cancel,
    ) -> Result<Progress, PositionError> {
        debug_assert!(self.choosing.is_none(), "a move while the engine chooses");
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
                return Ok(Progress::Done(Exchange {
                    engine_move: None,
                    position: self.position.clone(),
                }));
            }
        }
        self.engine_turn(setup, known, analyses, cancel)
    }

    /// The engine's move from the current position (the engine is to move
    /// and the game is not over), played; the position after it is stored.
    /// From a lost position it weighs at most `analyses` candidates now.
    fn engine_turn(
        &mut self,
        setup: GameSetup<'_>,
        known: Known,
        analyses: usize,
        cancel: &Cancel,
    ) -> Result<Progress, PositionError> {
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
                    return self.engine_turn(setup, Known::Analysed(analysis), analyses, cancel);
                }
                token_game.advance(mate);
                let chosen = Move::Geography(mate);
                self.moves.push(chosen);
                self.position = token_game.lost_position(graph, to_move_next);
                Ok(self.moved(chosen))
            }
            (Known::Analysed(analysis), _, _) => {
                // In Geography the winner answers with its mate, which
                // keeps the next position known without an analysis.
                if self.token_game.is_some() && analysis.position.winner == self.engine {
                    return self.engine_turn(setup, Known::EngineWinsByMate, analyses, cancel);
                }
                if analysis.position.winner == self.engine {
                    let chosen = *analysis
                        .position
                        .winning
                        .moves
                        .first()
                        .expect("a winning side has a winning move");
                    return self.play_engine_move(setup, chosen, cancel);
                }
                self.choose(setup, analysis, EngineChoice::default(), analyses, cancel)
            }
            (Known::EngineWinsByMate, _, _) => {
                unreachable!("only a Geography game knows the engine's mate")
            }
        }
    }

    /// Weighs up to `analyses` more candidates of `choice` from the lost
    /// position `analysis`, and plays the chosen move once all are weighed.
    fn choose(
        &mut self,
        setup: GameSetup<'_>,
        analysis: PositionAnalysis,
        mut choice: EngineChoice,
        analyses: usize,
        cancel: &Cancel,
    ) -> Result<Progress, PositionError> {
        match choice.advance(setup, &self.moves, &analysis, analyses, cancel)? {
            Some(chosen) => self.play_engine_move(setup, chosen, cancel),
            None => {
                self.choosing = Some((analysis, choice));
                Ok(Progress::Thinking)
            }
        }
    }

    /// Plays the engine's `chosen` move and analyses the position after it.
    fn play_engine_move(
        &mut self,
        setup: GameSetup<'_>,
        chosen: Move,
        cancel: &Cancel,
    ) -> Result<Progress, PositionError> {
        self.moves.push(chosen);
        let after = match (&mut self.token_game, chosen) {
            (Some(token_game), Move::Geography(w)) => {
                token_game.advance(w);
                let after = setup.analyze_warm(&self.moves, Some(&token_game.mate), cancel)?;
                token_game.take_matching(&after);
                after
            }
            _ => setup.analyze(&self.moves, cancel)?,
        };
        self.position = after.position;
        Ok(self.moved(chosen))
    }

    /// The exchange that ends with the engine's `chosen` move.
    fn moved(&self, chosen: Move) -> Progress {
        Progress::Done(Exchange {
            engine_move: Some(chosen),
            position: self.position.clone(),
        })
    }
}

#[cfg(test)]
mod tests;
