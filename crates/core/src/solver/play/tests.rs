//! Games against the engine, checked move by move against exhaustive
//! game-tree search: every engine move is legal; from a position the
//! engine wins it moves to a position the opponent loses (so it never
//! loses a won game); every reported position (verdict, winning moves,
//! legal moves) is the search's. Opponents: one that plays a winning move
//! whenever it has one (the strongest possible), and one that plays at
//! random, which hands the engine won positions in the middle of games.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::*;
use crate::solver::bipartite_edge::tests::bipartite_graph;
use crate::solver::test_support::proptest_config as config;
use crate::solver::tree_paint::tests::random_tree;
use puzzled_testkit::oracle::{self, Oracle, Play, Puzzle};

/// The test kit's exhaustive answers about the position a line of moves
/// reaches, asked and answered in the engine's moves.
struct Referee {
    oracle: Oracle,
    /// Whether a vertex move paints (tree painting) or moves the token.
    paints: bool,
}

impl Referee {
    fn new(setup: GameSetup<'_>) -> Referee {
        let (game, graph, start, black, white) = match setup {
            GameSetup::Geography { graph, start } => (oracle::Game::Geography, graph, start, 0, 0),
            GameSetup::BipartiteEdge { graph } => (oracle::Game::BipartiteEdge, graph, 0, 0, 0),
            GameSetup::TreePaint {
                graph,
                black,
                white,
            } => (oracle::Game::TreePaint, graph, 0, black, white),
            GameSetup::Search { .. } => panic!("the search games are played in their own tests"),
        };
        let puzzle = Puzzle {
            game,
            n: graph.vertex_count(),
            pairs: graph.edges().collect(),
            start,
            black,
            white,
        };
        Referee {
            oracle: Oracle::of(&puzzle),
            paints: game == oracle::Game::TreePaint,
        }
    }

    fn plays(line: &[Move]) -> Vec<Play> {
        let play = |played: &Move| match *played {
            Move::Geography(v) | Move::Paint(v) => Play::Vertex(v),
            Move::Edge(u, v) => Play::Edge(u, v),
        };
        line.iter().map(play).collect()
    }

    fn moves(&self, plays: Vec<Play>) -> Vec<Move> {
        let as_move = |play| match play {
            Play::Vertex(v) if self.paints => Move::Paint(v),
            Play::Vertex(v) => Move::Geography(v),
            Play::Edge(u, v) => Move::Edge(u, v),
        };
        plays.into_iter().map(as_move).collect()
    }

    fn legal(&mut self, line: &[Move]) -> Vec<Move> {
        let legal = self.oracle.legal(&Self::plays(line));
        self.moves(legal)
    }

    fn mover_wins(&mut self, line: &[Move]) -> bool {
        self.oracle.mover_wins(&Self::plays(line))
    }

    fn winning(&mut self, line: &[Move]) -> Vec<Move> {
        let winning = self.oracle.winning(&Self::plays(line));
        self.moves(winning)
    }
}

/// How the engine's opponent chooses.
#[derive(Debug, Clone, Copy)]
enum Opponent {
    /// A winning move whenever it has one, else the pick.
    Perfect,
    /// The pick among the legal moves.
    Random,
}

/// Checks a reported position against the oracle. `classes` says that
/// the edge game lists one move per class, with exact counts.
fn check_position(oracle: &mut Referee, line: &[Move], position: &PlayPosition, classes: bool) {
    let legal = oracle.legal(line);
    let mover = if line.len().is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    };
    assert_eq!(position.to_move, mover, "after {line:?}");
    assert_eq!(position.game_over, legal.is_empty(), "after {line:?}");
    let wins = oracle.mover_wins(line);
    let winner = if wins { mover } else { mover.other() };
    assert_eq!(position.winner, winner, "after {line:?}");
    let winning: BTreeSet<Move> = oracle.winning(line).into_iter().collect();
    assert_eq!(
        position.legal_move_count,
        legal.len() as u64,
        "after {line:?}"
    );
    assert_eq!(
        position.winning.count,
        winning.len() as u64,
        "after {line:?}"
    );
    let normal = |m: &Move| match *m {
        Move::Edge(u, v) => Move::Edge(u.min(v), u.max(v)),
        other => other,
    };
    let reported: BTreeSet<Move> = position.winning.moves.iter().map(normal).collect();
    let legal: BTreeSet<Move> = legal.into_iter().collect();
    let listed: BTreeSet<Move> = position.legal_moves.iter().map(normal).collect();
    if classes {
        assert!(reported.is_subset(&winning), "after {line:?}");
        assert!(listed.is_subset(&legal), "after {line:?}");
    } else {
        assert_eq!(reported, winning, "after {line:?}");
        assert_eq!(listed, legal, "after {line:?}");
        assert!(position.winning.complete);
    }
}

/// Plays one whole game of `setup` with the engine as `engine` against
/// `opponent`, checking every exchange; `picks` drive the opponent's
/// choices. Returns the winner.
fn play_out(
    setup: GameSetup<'_>,
    oracle: &mut Referee,
    engine: Player,
    opponent: Opponent,
    picks: &[u64],
    classes: bool,
) -> Player {
    let never = Cancel::never();
    let opening = setup.analyze(&[], &never).unwrap();
    let (mut game, exchange) = Game::start(setup, engine, opening, &never).unwrap();
    let mut line: Vec<Move> = Vec::new();
    // Whether the engine stood on the winning side at some turn of its.
    let mut engine_won_position = false;
    let mut check_engine_move = |oracle: &mut Referee, line: &mut Vec<Move>, moved: Move| {
        let legal = oracle.legal(line);
        let normal = match moved {
            Move::Edge(u, v) => Move::Edge(u.min(v), u.max(v)),
            other => other,
        };
        assert!(
            legal.contains(&normal),
            "engine played {moved} after {line:?}"
        );
        let stood_winning = oracle.mover_wins(line);
        line.push(moved);
        if stood_winning {
            engine_won_position = true;
            assert!(
                !oracle.mover_wins(line),
                "the engine gave away a win: {line:?}"
            );
        }
    };
    if let Some(moved) = exchange.engine_move {
        check_engine_move(oracle, &mut line, moved);
    }
    check_position(oracle, &line, &exchange.position, classes);
    assert_eq!(game.moves(), line.as_slice());
    let mut turn = 0;
    while !game.position().game_over {
        let legal = oracle.legal(&line);
        let pick = picks.get(turn).copied().unwrap_or(turn as u64);
        turn += 1;
        let chosen = match opponent {
            Opponent::Perfect => {
                let winning = oracle.winning(&line);
                if winning.is_empty() {
                    legal[pick as usize % legal.len()]
                } else {
                    winning[pick as usize % winning.len()]
                }
            }
            Opponent::Random => legal[pick as usize % legal.len()],
        };
        let exchange = game.play(setup, chosen, &never).unwrap();
        line.push(chosen);
        if let Some(moved) = exchange.engine_move {
            check_engine_move(oracle, &mut line, moved);
        }
        check_position(oracle, &line, &exchange.position, classes);
        assert_eq!(game.moves(), line.as_slice());
    }
    let winner = game.position().winner;
    if engine_won_position {
        assert_eq!(winner, engine, "the engine lost a won game: {line:?}");
    }
    winner
}

fn small_graph(max_n: usize) -> impl Strategy<Value = Graph> {
    (1..=max_n).prop_flat_map(|n| {
        let pairs = n * (n - 1) / 2;
        proptest::collection::vec(0u8..100, pairs).prop_map(move |coins| {
            let mut edges = Vec::new();
            let mut i = 0;
            for u in 0..n as Vertex {
                for v in u + 1..n as Vertex {
                    if coins[i] < 45 {
                        edges.push((u, v));
                    }
                    i += 1;
                }
            }
            Graph::from_pairs(n as u64, &edges).unwrap()
        })
    })
}

fn side(first: bool) -> Player {
    if first { Player::First } else { Player::Second }
}

fn opponent(perfect: bool) -> Opponent {
    if perfect {
        Opponent::Perfect
    } else {
        Opponent::Random
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn geography_games_against_exhaustive_search(
        g in small_graph(9),
        start_pick in any::<u32>(),
        engine_first in any::<bool>(),
        perfect in any::<bool>(),
        picks in proptest::collection::vec(any::<u64>(), 10),
    ) {
        let start = start_pick % g.vertex_count() as u32;
        let setup = GameSetup::Geography { graph: &g, start };
        play_out(setup, &mut Referee::new(setup), side(engine_first), opponent(perfect), &picks, false);
    }

    #[test]
    fn edge_games_against_exhaustive_search(
        g in bipartite_graph(6),
        engine_first in any::<bool>(),
        perfect in any::<bool>(),
        picks in proptest::collection::vec(any::<u64>(), 12),
    ) {
        let setup = GameSetup::BipartiteEdge { graph: &g };
        play_out(setup, &mut Referee::new(setup), side(engine_first), opponent(perfect), &picks, true);
    }

    #[test]
    fn tree_paint_games_against_exhaustive_search(
        t in random_tree(10),
        ends in any::<(u32, u32)>(),
        engine_first in any::<bool>(),
        perfect in any::<bool>(),
        picks in proptest::collection::vec(any::<u64>(), 10),
    ) {
        let n = t.vertex_count() as u32;
        let black = ends.0 % n;
        let white = (black + 1 + ends.1 % (n - 1)) % n;
        let setup = GameSetup::TreePaint { graph: &t, black, white };
        play_out(setup, &mut Referee::new(setup), side(engine_first), opponent(perfect), &picks, false);
    }
}

/// Plays a whole game twice, once the engine choosing in one call and
/// once weighing `analyses` candidates a call (`think` between them), the
/// person playing its `pick`-th legal move each turn: both games must be
/// the same, exchange for exchange.
fn sliced_play_is_the_same_game(setup: GameSetup<'_>, engine: Player, analyses: usize) {
    let never = Cancel::never();
    let opening = setup.analyze(&[], &never).unwrap();
    let (mut whole, first) = Game::start(setup, engine, opening.clone(), &never).unwrap();
    let (mut sliced, mut progress) =
        Game::start_within(setup, engine, opening, analyses, &never).unwrap();
    let thought = |game: &mut Game, mut progress: Progress| loop {
        match progress {
            Progress::Done(exchange) => return exchange,
            Progress::Thinking => progress = game.think(setup, analyses, &never).unwrap(),
        }
    };
    assert_eq!(thought(&mut sliced, progress), first);
    let mut turn = 0;
    while !whole.position().game_over {
        let legal = &whole.position().legal_moves;
        let played = legal[turn % legal.len()];
        turn += 1;
        let expected = whole.play(setup, played, &never).unwrap();
        progress = sliced.play_within(setup, played, analyses, &never).unwrap();
        assert_eq!(thought(&mut sliced, progress), expected);
        assert_eq!(sliced.moves(), whole.moves());
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn an_engine_choosing_a_few_candidates_at_a_time_plays_the_same_game(
        g in small_graph(9),
        t in random_tree(10),
        start_pick in any::<u32>(),
        engine_first in any::<bool>(),
        analyses in 1usize..4,
    ) {
        let start = start_pick % g.vertex_count() as u32;
        let engine = side(engine_first);
        sliced_play_is_the_same_game(GameSetup::Geography { graph: &g, start }, engine, analyses);
        let n = t.vertex_count() as u32;
        if n > 1 {
            let (black, white) = (start_pick % n, (start_pick + 1) % n);
            let setup = GameSetup::TreePaint { graph: &t, black, white };
            sliced_play_is_the_same_game(setup, engine, analyses);
        }
    }
}

fn path(n: u64) -> Graph {
    let edges: Vec<(Vertex, Vertex)> = (1..n as Vertex).map(|v| (v - 1, v)).collect();
    Graph::from_pairs(n, &edges).unwrap()
}

#[test]
fn an_illegal_move_is_refused_and_the_game_goes_on() {
    let g = path(6);
    let setup = GameSetup::Geography {
        graph: &g,
        start: 0,
    };
    let never = Cancel::never();
    let opening = setup.analyze(&[], &never).unwrap();
    // From an end of an even path the first player wins: the engine moves.
    let (mut game, exchange) = Game::start(setup, Player::First, opening, &never).unwrap();
    assert_eq!(exchange.engine_move, Some(Move::Geography(1)));
    assert_eq!(exchange.position.winner, Player::First);
    let before = game.moves().to_vec();
    for (played, reason) in [
        (Move::Geography(0), "ALREADY_VISITED"),
        (Move::Geography(5), "NOT_ADJACENT"),
        (Move::Geography(9), "VERTEX_OUT_OF_RANGE"),
        (Move::Edge(1, 2), "WRONG_MOVE_KIND"),
    ] {
        let Err(PositionError::Illegal(illegal)) = game.play(setup, played, &never) else {
            panic!("{played} was accepted");
        };
        assert_eq!(illegal.reason.code(), reason);
        assert_eq!(illegal.index, 1);
        assert!(
            illegal.message.starts_with("moves[1]: "),
            "{}",
            illegal.message
        );
        assert_eq!(game.moves(), before.as_slice());
    }
    let exchange = game.play(setup, Move::Geography(2), &never).unwrap();
    assert_eq!(exchange.engine_move, Some(Move::Geography(3)));
    let exchange = game.play(setup, Move::Geography(4), &never).unwrap();
    assert_eq!(exchange.engine_move, Some(Move::Geography(5)));
    assert!(exchange.position.game_over);
    assert_eq!(exchange.position.winner, Player::First);
    let Err(PositionError::Illegal(illegal)) = game.play(setup, Move::Geography(4), &never) else {
        panic!("a move after the end was accepted");
    };
    assert_eq!(illegal.reason.code(), "GAME_OVER");
}

#[test]
fn other_games_refuse_illegal_moves_too() {
    let never = Cancel::never();
    let t = path(4);
    let setup = GameSetup::TreePaint {
        graph: &t,
        black: 0,
        white: 3,
    };
    let opening = setup.analyze(&[], &never).unwrap();
    let (mut game, _) = Game::start(setup, Player::Second, opening, &never).unwrap();
    let Err(PositionError::Illegal(illegal)) = game.play(setup, Move::Paint(2), &never) else {
        panic!("black painted next to white");
    };
    assert_eq!(illegal.reason.code(), "NOT_NEXT_TO_OWN_COLOUR");
    assert!(game.moves().is_empty());
    let exchange = game.play(setup, Move::Paint(1), &never).unwrap();
    assert_eq!(exchange.engine_move, Some(Move::Paint(2)));
    assert!(exchange.position.game_over);
}

/// A long Geography game on a graph too large for the search: the engine,
/// winning from the start, answers every move and wins; its positions agree
/// with a fresh analysis of the same moves.
#[test]
fn a_long_geography_game_keeps_its_matching_right() {
    let n = 400;
    // A ladder: two paths joined rung by rung.
    let mut edges = Vec::new();
    for i in 0..n / 2 {
        edges.push((2 * i, 2 * i + 1));
        if i + 1 < n / 2 {
            edges.push((2 * i, 2 * i + 2));
            edges.push((2 * i + 1, 2 * i + 3));
        }
    }
    let g = Graph::from_pairs(n as u64, &edges).unwrap();
    let never = Cancel::never();
    for start in [0, 1, 57, 200] {
        let setup = GameSetup::Geography { graph: &g, start };
        let opening = setup.analyze(&[], &never).unwrap();
        for engine in [Player::First, Player::Second] {
            let (mut game, _) = Game::start(setup, engine, opening.clone(), &never).unwrap();
            let mut turn = 0u64;
            while !game.position().game_over {
                let legal = &game.position().legal_moves;
                let chosen = legal[(turn * 7 + 3) as usize % legal.len()];
                turn += 1;
                let exchange = game.play(setup, chosen, &never).unwrap();
                let fresh = setup.analyze(game.moves(), &never).unwrap().position;
                assert_eq!(exchange.position, fresh, "after {:?}", game.moves());
            }
        }
    }
}
