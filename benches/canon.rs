//! Canonical hashing (`traces-v3`: trees by hand, refinement, Traces for what is left) against the full Geography solve
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

/// A deterministic generator (xorshift64*), so every run hashes the same
/// graphs.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

/// `m` distinct random edges on `n` vertices.
fn gnm(n: u32, m: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng(seed | 1);
    let mut seen = std::collections::HashSet::with_capacity(m);
    let mut edges = Vec::with_capacity(2 * m);
    while seen.len() < m {
        let (u, v) = (rng.below(n.into()) as u32, rng.below(n.into()) as u32);
        if u != v && seen.insert((u.min(v), u.max(v))) {
            edges.extend([u, v]);
        }
    }
    edges
}

fn random_tree(n: u32, seed: u64) -> Vec<u32> {
    let mut rng = Rng(seed | 1);
    (1..n)
        .flat_map(|v| [rng.below(v.into()) as u32, v])
        .collect()
}

fn grid(side: u32) -> Vec<u32> {
    let id = |r: u32, c: u32| r * side + c;
    let mut edges = Vec::new();
    for r in 0..side {
        for c in 0..side {
            if c + 1 < side {
                edges.extend([id(r, c), id(r, c + 1)]);
            }
            if r + 1 < side {
                edges.extend([id(r, c), id(r + 1, c)]);
            }
        }
    }
    edges
}

fn cycle(n: u32) -> Vec<u32> {
    (0..n).flat_map(|v| [v, (v + 1) % n]).collect()
}

fn hypercube(d: u32) -> Vec<u32> {
    (0..1u32 << d)
        .flat_map(|u| (0..d).map(move |b| (u, u ^ (1 << b))))
        .filter(|&(u, v)| u < v)
        .flat_map(|(u, v)| [u, v])
        .collect()
}

fn petersen_copies(copies: u32) -> Vec<u32> {
    let mut one = Vec::new();
    for i in 0..5 {
        one.extend([i, (i + 1) % 5, i, i + 5, i + 5, (i + 2) % 5 + 5]);
    }
    (0..copies)
        .flat_map(|k| one.iter().map(move |&v| v + 10 * k))
        .collect()
}

/// The Paley graph on prime `q ≡ 1 (mod 4)`: strongly regular.
fn paley(q: u32) -> Vec<u32> {
    let squares: std::collections::HashSet<u64> = (1..q as u64).map(|x| x * x % q as u64).collect();
    (0..q)
        .flat_map(|u| (u + 1..q).map(move |v| (u, v)))
        .filter(|&(u, v)| squares.contains(&(((v - u) % q) as u64)))
        .flat_map(|(u, v)| [u, v])
        .collect()
}

fn spec(n: u32, edges: Vec<u32>) -> Spec {
    Spec::validate(RawSpec::new(Game::Geography, n.into(), edges), Limits::NONE)
        .expect("a valid puzzle")
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
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
            Box::new(|| gnm(100_000, 150_000, 1)),
        ),
        (
            "random tree n=1e5".into(),
            100_000,
            Box::new(|| random_tree(100_000, 2)),
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
            Box::new(|| petersen_copies(50)),
        ),
        (
            "100 disjoint Petersen".into(),
            1000,
            Box::new(|| petersen_copies(100)),
        ),
    ];
    if !args.quick {
        instances.extend::<[(String, u32, Make); 4]>([
            (
                "gnm n=1e6 d=3".into(),
                1_000_000,
                Box::new(|| gnm(1_000_000, 1_500_000, 3)),
            ),
            (
                "gnm n=1e6 d=10".into(),
                1_000_000,
                Box::new(|| gnm(1_000_000, 5_000_000, 4)),
            ),
            (
                "random tree n=1e6".into(),
                1_000_000,
                Box::new(|| random_tree(1_000_000, 5)),
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
        let (hash, solve) = (median(hash_times), median(solve_times));
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
