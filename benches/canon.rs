//! Canonical hashing (`traces-v4`: trees by hand, refinement, Traces for what is left) against the full Geography solve
//! of the same graph (verdict, witness, barriers, all starts, all winning
//! first moves), measured in the same run: the hash must not cost more
//! than the solve it saves. Also the symmetric families, where canonical
//! labelling is hardest.
//!
//! ```text
//! cargo bench --bench canon -- [--reps N] [--budget-ms MS] [--quick] [--only NAME]
//! ```
//! Figures are medians over the repetitions; compare ratios, not absolute
//! times (the machines are shared and noisy).

use std::time::{Duration, Instant};

use puzzled::canon;
use puzzled::puzzle::{Game, Limits, RawSpec, Spec};
use puzzled::solver::geography::{self, GeographyOptions};
use puzzled_testkit::families::{
    copies_on_a_hub, cycle, disjoint_copies, grid, hypercube, paley, petersen,
};
use puzzled_testkit::random::{XorShiftStar, gnm, random_tree};
use puzzled_testkit::stats::median;

/// The server's allocator (see `src/main.rs`): allocation is part of what
/// both sides cost.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(clap::Parser)]
struct Args {
    /// Repetitions per instance; the table shows medians.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// The canonical labelling budget (past it the hash falls back).
    #[arg(long, default_value_t = 60_000)]
    budget_ms: u64,
    /// Only the instances up to 10^5 vertices.
    #[arg(long)]
    quick: bool,
    /// Only the instances whose name contains this (for profiling one).
    #[arg(long)]
    only: Option<String>,
    /// `cargo bench` passes this flag to every bench binary.
    #[arg(long, hide = true)]
    bench: bool,
}

fn spec(n: u32, edges: Vec<u32>) -> Spec {
    Spec::validate(RawSpec::new(Game::Geography, n.into(), edges), Limits::NONE)
        .expect("a valid puzzle")
}

fn main() {
    let args: Args = clap::Parser::parse();
    let budget = Duration::from_millis(args.budget_ms);
    // Generated only when run (the 10^6 ones take seconds).
    type Make = Box<dyn Fn() -> Vec<u32>>;
    let mut instances: Vec<(String, u32, Make)> = vec![
        (
            "gnm n=1e5 d=3".into(),
            100_000,
            Box::new(|| gnm(100_000, 150_000, &mut XorShiftStar::new(1))),
        ),
        (
            "random tree n=1e5".into(),
            100_000,
            Box::new(|| random_tree(100_000, &mut XorShiftStar::new(3))),
        ),
        ("grid 316x316".into(), 316 * 316, Box::new(|| grid(316))),
        ("cycle n=1e5".into(), 100_000, Box::new(|| cycle(100_000))),
        ("hypercube Q14".into(), 1 << 14, Box::new(|| hypercube(14))),
        (
            "Paley 401 (strongly regular)".into(),
            401,
            Box::new(|| paley(401)),
        ),
        (
            "50 disjoint Petersen".into(),
            500,
            Box::new(|| disjoint_copies(&petersen(), 10, 50)),
        ),
        (
            "100 disjoint Petersen".into(),
            1000,
            Box::new(|| disjoint_copies(&petersen(), 10, 100)),
        ),
        (
            "1000 disjoint Petersen".into(),
            10_000,
            Box::new(|| disjoint_copies(&petersen(), 10, 1000)),
        ),
        (
            "10000 disjoint Petersen".into(),
            100_000,
            Box::new(|| disjoint_copies(&petersen(), 10, 10_000)),
        ),
        (
            "100 Petersen on a hub".into(),
            1001,
            Box::new(|| copies_on_a_hub(&petersen(), 10, 100)),
        ),
        (
            "200 Petersen on a hub".into(),
            2001,
            Box::new(|| copies_on_a_hub(&petersen(), 10, 200)),
        ),
    ];
    if !args.quick {
        instances.extend::<[(String, u32, Make); 4]>([
            (
                "gnm n=1e6 d=3".into(),
                1_000_000,
                Box::new(|| gnm(1_000_000, 1_500_000, &mut XorShiftStar::new(3))),
            ),
            (
                "gnm n=1e6 d=10".into(),
                1_000_000,
                Box::new(|| gnm(1_000_000, 5_000_000, &mut XorShiftStar::new(5))),
            ),
            (
                "random tree n=1e6".into(),
                1_000_000,
                Box::new(|| random_tree(1_000_000, &mut XorShiftStar::new(5))),
            ),
            ("grid 1000x1000".into(), 1_000_000, Box::new(|| grid(1000))),
        ]);
    }
    println!(
        "{:<30} {:>10} {:>10} {:>12} {:>12} {:>10}  canonicaliser",
        "instance", "vertices", "edges", "hash ms", "solve ms", "hash/solve"
    );
    for (name, n, make) in instances {
        if args
            .only
            .as_ref()
            .is_some_and(|only| !name.contains(only.as_str()))
        {
            continue;
        }
        let puzzle = spec(n, make());
        let mut hash_times = Vec::new();
        let mut solve_times = Vec::new();
        let mut canonicaliser = "";
        for _ in 0..args.reps {
            let started = Instant::now();
            let canonical = canon::canonicalize(&puzzle, budget);
            hash_times.push(started.elapsed());
            canonicaliser = canonical.canonicaliser;
            let started = Instant::now();
            let solution = geography::solve(
                puzzle.graph(),
                0,
                GeographyOptions {
                    all_starts: true,
                    winning_moves: true,
                },
            );
            solve_times.push(started.elapsed());
            std::hint::black_box(solution);
        }
        let (hash, solve) = (median(&hash_times), median(&solve_times));
        println!(
            "{:<30} {:>10} {:>10} {:>12.1} {:>12.1} {:>10.2}  {}",
            name,
            puzzle.graph().vertex_count(),
            puzzle.graph().edge_count(),
            hash.as_secs_f64() * 1e3,
            solve.as_secs_f64() * 1e3,
            hash.as_secs_f64() / solve.as_secs_f64(),
            canonicaliser
        );
    }
}
