//! A long Play game on a large Geography puzzle against the cost of one
//! full solve of the same graph, measured in the same run: the engine,
//! standing on the winning side, answers from its witness matching, so a
//! whole game must cost at most a few solves, not one solve a move.
//!
//! ```text
//! cargo bench --bench play -- [--vertices N] [--moves K] [--quick]
//! ```
//! The opponent follows Warnsdorff's rule (the legal move with the fewest
//! onward moves, but some), which keeps the game long. The peer row replays
//! a few exchanges the way a server without the matching would: a fresh
//! analysis of the position after every move.

use std::time::{Duration, Instant};

use puzzled::graph::{Graph, Vertex};
use puzzled::solver::Player;
use puzzled::solver::cancel::Cancel;
use puzzled::solver::geography::{self, GeographyOptions};
use puzzled::solver::matching::mates_of;
use puzzled::solver::play::Game;
use puzzled::solver::position::{GameSetup, Move, geography_position_from};
use puzzled_testkit::random::{EdgeSet, XorShiftStar};

/// The server's allocator (see `src/main.rs`): allocation is part of what
/// both the game and the solves it is compared with cost.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(clap::Parser)]
struct Args {
    /// Vertices of the graph (a grid of about this many).
    #[arg(long, default_value_t = 1_000_000)]
    vertices: u32,
    /// Moves of the game (the person's and the engine's).
    #[arg(long, default_value_t = 1000)]
    moves: usize,
    /// A 10^5-vertex graph.
    #[arg(long)]
    quick: bool,
    /// `cargo bench` passes this flag to every bench binary.
    #[arg(long, hide = true)]
    bench: bool,
}

/// A `side × side` grid with every fourth horizontal edge missing, so it
/// is not bipartite-symmetric in a way that makes every start the same.
fn grid(side: u32) -> Graph {
    let id = |r: u32, c: u32| r * side + c;
    let mut edges = Vec::new();
    for r in 0..side {
        for c in 0..side {
            if c + 1 < side && (r + c) % 4 != 0 {
                edges.push((id(r, c), id(r, c + 1)));
            }
            if r + 1 < side {
                edges.push((id(r, c), id(r + 1, c)));
            }
        }
    }
    Graph::from_pairs(u64::from(side * side), &edges).expect("a valid grid")
}

fn random_cubic_like(n: u32, seed: u64) -> Graph {
    // A Hamiltonian path keeps the graph connected; random chords make it
    // sparse and irregular (average degree 3).
    let mut edges = EdgeSet::new();
    for v in 1..n {
        edges.add(v - 1, v);
    }
    edges.fill_at_random(n, (3 * n as usize) / 2, &mut XorShiftStar::new(seed | 1));
    Graph::from_pairs(u64::from(n), edges.pairs()).expect("a valid graph")
}

/// The opponent's choice, Warnsdorff's rule for long paths: the legal move
/// with the fewest unvisited neighbours, but at least one when it can.
fn long_game_move(graph: &Graph, visited: &[bool], legal: &[Move]) -> Move {
    *legal
        .iter()
        .min_by_key(|m| {
            let Move::Geography(v) = **m else {
                unreachable!("Geography moves")
            };
            let free = graph
                .neighbors(v)
                .iter()
                .filter(|&&w| !visited[w as usize])
                .count();
            (free == 0, free, v)
        })
        .expect("a legal move")
}

struct Measured {
    solve: Duration,
    opening: Duration,
    game: Duration,
    moves: usize,
    peer_per_exchange: Duration,
    /// AnalyzePosition after the whole game, warm from the solve's witness
    /// matching (as for a stored puzzle with a cached verdict) and cold.
    analysis_warm: Duration,
    analysis_cold: Duration,
}

fn measure(graph: &Graph, moves_wanted: usize) -> Measured {
    let never = Cancel::never();
    let full = GeographyOptions {
        all_starts: true,
        winning_moves: true,
    };
    // A start the first player wins from, so the engine (first) wins.
    let started = Instant::now();
    let everything = geography::solve(graph, 0, full);
    let solve = started.elapsed();
    let d = everything
        .second_player_starts
        .expect("all starts were asked for");
    // Near the middle of the ids (the middle of the grid), away from its
    // border.
    let n = graph.vertex_count() as Vertex;
    let start = (n / 2 + 7..n)
        .chain(0..n / 2)
        .find(|v| d.binary_search(v).is_err() && graph.degree(*v) > 0)
        .expect("a first-player start");
    let setup = GameSetup::Geography { graph, start };
    let started = Instant::now();
    let opening = setup.analyze(&[], &never).expect("a legal opening");
    let opening_time = started.elapsed();
    let started = Instant::now();
    let (mut game, _) =
        Game::start(setup, Player::First, opening, &never).expect("the engine opens");
    let mut visited = vec![false; graph.vertex_count()];
    visited[start as usize] = true;
    for m in game.moves() {
        if let Move::Geography(v) = m {
            visited[*v as usize] = true;
        }
    }
    while game.moves().len() < moves_wanted && !game.position().game_over {
        let chosen = long_game_move(graph, &visited, &game.position().legal_moves);
        let exchange = game.play(setup, chosen, &never).expect("a legal move");
        for m in [Some(chosen), exchange.engine_move].into_iter().flatten() {
            if let Move::Geography(v) = m {
                visited[v as usize] = true;
            }
        }
    }
    let game_time = started.elapsed();
    let moves = game.moves().len();
    assert_eq!(
        game.position().winner,
        Player::First,
        "the engine keeps its win"
    );
    // The peer: a fresh analysis of the position after each of a few
    // exchanges (two analyses per exchange: after the person's move and
    // after the engine's).
    let sample: Vec<Move> = game.moves().iter().copied().take(7).collect();
    let started = Instant::now();
    let mut exchanges = 0;
    for k in (1..sample.len()).step_by(2) {
        setup.analyze(&sample[..k], &never).expect("legal");
        setup.analyze(&sample[..k + 1], &never).expect("legal");
        exchanges += 1;
    }
    let peer_per_exchange = started.elapsed() / exchanges.max(1);
    let witness = mates_of(graph.vertex_count(), &everything.matching);
    let started = Instant::now();
    let warm =
        geography_position_from(graph, start, game.moves(), Some(&witness), &never).expect("legal");
    let analysis_warm = started.elapsed();
    let started = Instant::now();
    let cold = setup.analyze(game.moves(), &never).expect("legal");
    let analysis_cold = started.elapsed();
    assert_eq!(warm.position.winner, cold.position.winner);
    Measured {
        analysis_warm,
        analysis_cold,
        solve,
        opening: opening_time,
        game: game_time,
        moves,
        peer_per_exchange,
    }
}

fn main() {
    let args: Args = clap::Parser::parse();
    let n = if args.quick { 100_000 } else { args.vertices };
    let side = (f64::from(n).sqrt()) as u32;
    let families = [
        (format!("grid {side}², every 4th row edge gone"), grid(side)),
        (
            format!("path + random chords, n = {n}, degree 3"),
            random_cubic_like(n, 7),
        ),
    ];
    println!(
        "| graph | full solve | opening analysis | game (moves) | game / solve | per exchange | fresh analysis per exchange | analysis after the game: warm / cold |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, graph) in families {
        let m = measure(&graph, args.moves);
        let exchanges = (m.moves / 2).max(1) as u32;
        println!(
            "| {name} | {:.0} ms | {:.0} ms | {:.1} ms ({}) | {:.3} | {:.1} µs | {:.0} ms | {:.0} / {:.0} ms |",
            m.solve.as_secs_f64() * 1e3,
            m.opening.as_secs_f64() * 1e3,
            m.game.as_secs_f64() * 1e3,
            m.moves,
            m.game.as_secs_f64() / m.solve.as_secs_f64(),
            (m.game / exchanges).as_secs_f64() * 1e6,
            m.peer_per_exchange.as_secs_f64() * 1e3,
            m.analysis_warm.as_secs_f64() * 1e3,
            m.analysis_cold.as_secs_f64() * 1e3,
        );
    }
}
