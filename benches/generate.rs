//! Puzzle generation's rate, per game and size, against the solves its
//! puzzles take.
//!
//! ```sh
//! cargo bench --bench generate -- [--seconds S] [--depth D] [--sizes 20,100,1000] [--seed K] [--games LIST]
//! ```
//!
//! For every game and family (each game's default: trees for tree paint,
//! bipartite graphs for the edge game, gnm for the others; the edge
//! Geographies also on sparser gnm graphs and on trees, which stay under
//! the search's 128 edges at 100 vertices) and every size `n`, one
//! generator (`app::generate::Generator`, on one thread, as one
//! GeneratePuzzles call runs) draws candidates of exactly `n` vertices
//! for `--seconds` (default 3), keeping those with only-move depth at
//! least `--depth` (default 3). The table gives the puzzles kept, the
//! puzzles a second, the candidates drawn for each puzzle kept, and the
//! peer measured in the same run: the kept puzzles solved again alone
//! (`app::games::solve` with the winning moves, as the generator solves
//! each candidate). The last column, generation time / solve time, says
//! how many solves' worth of work a puzzle costs: the candidates rejected,
//! and the rating's walk down the main line with a position analysis at
//! each turn.
//!
//! A size the game refuses (the games solved by search take at most 128
//! moves) is "refused", with the reason; "0 of N" is a game, family and
//! size where none of the N candidates drawn was deep enough.

use std::time::{Duration, Instant};

use clap::Parser;
use puzzled::app::games;
use puzzled::app::generate::{
    Candidate, Family, GenerateError, GenerateRequest, Generated, Generator,
};
use puzzled::config::DEFAULT_SEARCH_BUDGET_STATES;
use puzzled::puzzle::{Game, SolveOptions};
use puzzled::solver::cancel::Cancel;

/// The server's allocator (see `src/main.rs`): allocation is part of what
/// both generation and the solves it is compared with cost.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "generate", bin_name = "cargo bench --bench generate --")]
struct Args {
    /// How long each game and size generates.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// The least only-move depth of every puzzle.
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// The vertex counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "20,100,1000")]
    sizes: Vec<u32>,
    /// The generators' seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only these games (comma-separated, as `puzzled generate --game`
    /// names them); every game by default.
    #[arg(long, value_delimiter = ',')]
    games: Vec<String>,
    /// Accepted from `cargo bench`, which passes it to every bench.
    #[arg(long, hide = true)]
    bench: bool,
}

/// The families measured for `game`: its default, and for the edge
/// Geographies sparser gnm graphs and trees, which stay under the search's
/// 128 edges at 100 vertices.
fn families(game: Game) -> Vec<Family> {
    match game {
        Game::TreePaint => vec![Family::Tree],
        Game::BipartiteEdge => vec![Family::bipartite()],
        Game::UndirectedEdgeGeography | Game::DirectedEdgeGeography => vec![
            Family::gnm(),
            Family::Gnm {
                average_degree: 2.5,
            },
            Family::Tree,
        ],
        _ => vec![Family::gnm()],
    }
}

fn family_label(family: &Family) -> String {
    match family {
        Family::Gnm { average_degree } | Family::Bipartite { average_degree } => {
            format!("{} d={average_degree}", family.name())
        }
        family => family.name().to_owned(),
    }
}

/// What one game, family and size gave.
enum Outcome {
    Refused(String),
    Measured {
        puzzles: Vec<Generated>,
        candidates: u64,
        /// Candidates passed over because their search passed its budget.
        over_budget: u64,
        elapsed: Duration,
    },
}

fn generate(game: Game, family: &Family, n: u32, args: &Args) -> Outcome {
    let mut request = GenerateRequest::new(game, family.clone(), n, n, args.seed);
    request.min_only_move_depth = args.depth;
    let mut generator = match Generator::new(request) {
        Ok(generator) => generator,
        Err(error) => return Outcome::Refused(error.to_string()),
    };
    let cancel = Cancel::never();
    let budget = Duration::from_secs_f64(args.seconds);
    let started = Instant::now();
    let mut puzzles = Vec::new();
    let mut over_budget = 0;
    while started.elapsed() < budget {
        // One candidate at a time, so that the clock is looked at between
        // them (a generator's `next` may pass over thousands).
        let index = generator.next_index();
        generator.resume_at(index + 1);
        match generator.candidate(index, &cancel) {
            Ok(Candidate::Kept(puzzle)) => puzzles.push(*puzzle),
            Ok(Candidate::Rejected(_)) => {}
            // As a GeneratePuzzles call does: the candidate is passed over.
            Err(GenerateError::SearchBudget { .. }) => over_budget += 1,
            Err(error) => panic!("{} at n = {n}: {error}", game.as_str()),
        }
    }
    Outcome::Measured {
        candidates: generator.next_index(),
        over_budget,
        elapsed: started.elapsed(),
        puzzles,
    }
}

/// The time the kept puzzles take to solve again, alone.
fn solve_again(game: Game, puzzles: &[Generated]) -> Duration {
    let options = games::effective_options(
        game,
        SolveOptions {
            all_starts: false,
            winning_moves: true,
        },
    );
    let cancel = Cancel::never();
    let started = Instant::now();
    for puzzle in puzzles {
        let verdict = games::solve(&puzzle.spec, options, DEFAULT_SEARCH_BUDGET_STATES, &cancel)
            .expect("a generated puzzle solves");
        assert_eq!(
            verdict.winner, puzzle.verdict.winner,
            "the same winner twice"
        );
    }
    started.elapsed()
}

fn main() {
    let args = Args::parse();
    let sizes = args
        .sizes
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let only = if args.games.is_empty() {
        String::new()
    } else {
        format!(" --games {}", args.games.join(","))
    };
    println!(
        "$ cargo bench --bench generate -- --seconds {} --depth {} --sizes {sizes} --seed {}{only}",
        args.seconds, args.depth, args.seed
    );
    println!(
        "{:<40} {:>5} {:>8} {:>11} {:>14} {:>15}",
        "game (family)", "n", "puzzles", "puzzles/s", "candidates/p", "gen/solve time"
    );
    let games: Vec<Game> = Game::ALL
        .into_iter()
        .filter(|game| {
            args.games.is_empty() || args.games.contains(&game.as_str().replace('_', "-"))
        })
        .collect();
    for game in games {
        for family in families(game) {
            let label = format!("{} ({})", game.as_str(), family_label(&family));
            for &n in &args.sizes {
                match generate(game, &family, n, &args) {
                    Outcome::Refused(reason) => {
                        println!("{label:<40} {n:>5} refused: {reason}");
                    }
                    Outcome::Measured {
                        puzzles,
                        candidates,
                        over_budget,
                        elapsed,
                    } => {
                        let rate = puzzles.len() as f64 / elapsed.as_secs_f64();
                        let (per_puzzle, ratio) = if puzzles.is_empty() {
                            (format!("0 of {candidates}"), "—".to_owned())
                        } else {
                            let solving = solve_again(game, &puzzles);
                            (
                                format!("{:.1}", candidates as f64 / puzzles.len() as f64),
                                format!("{:.1}", elapsed.as_secs_f64() / solving.as_secs_f64()),
                            )
                        };
                        let over = if over_budget > 0 {
                            format!(" ({over_budget} over the search budget)")
                        } else {
                            String::new()
                        };
                        println!(
                            "{label:<40} {n:>5} {:>8} {rate:>11.1} {per_puzzle:>14} {ratio:>15}{over}",
                            puzzles.len()
                        );
                    }
                }
            }
        }
    }
}
