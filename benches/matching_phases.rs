//! Where the time of the full Geography answer goes, phase by phase, on
//! big graph files (edge lists as `families/mod.rs` writes them).
//!
//! ```text
//! cargo bench --bench matching_phases -- [--reps N] [--start V] FILES…
//! cargo bench --bench matching_phases --features matching-stats -- FILES…
//! ```
//! The phases are the steps `puzzled solve --game geography` takes, timed
//! through the public API one after the other: read the file, parse it,
//! build the CSR graph, the greedy (Karp–Sipser) start, the augmenting and
//! failing searches, the read-off of the answer from the forest
//! (barrier, D(G), the witness matching), the analysis of G − start for
//! the winning moves (continuing the first one, as `geography::solve`
//! does: no graph is built, so that column is 0), and rendering the text
//! report. The last
//! column is a full `geography::solve` with every option plus the report,
//! to check that the phases add up. Figures are medians over the
//! repetitions.
//!
//! With the `matching-stats` feature each file also gets the engine's
//! counters (exposed vertices after the greedy start, augmentations,
//! scanned vertices and edges of successful and failing searches, …) for
//! both search runs.

use std::path::Path;
use std::time::Instant;

use puzzled::cli::report::{self, Labels};
use puzzled::graph::{self, file::Numbering};
use puzzled::graph::{Graph, Vertex};
use puzzled::solver::Player;
use puzzled::solver::cancel::Cancel;
use puzzled::solver::geography::{self, GeographyOptions};
use puzzled::solver::matching::{self, MatchingAnalysis, VertexClass};
use puzzled_testkit::stats::median;

/// The server's allocator (see `src/main.rs`): allocation is part of what
/// each phase costs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(clap::Parser)]
struct Args {
    /// Repetitions per file; the table shows medians.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// The Geography start vertex.
    #[arg(long, default_value_t = 0)]
    start: Vertex,
    /// A matching of the one instance file given, one mate a vertex (-1
    /// for an exposed vertex), such as `benches/karp_sipser_degree_two.py`
    /// writes: the searches on G are also timed from it, beside the same
    /// searches from the greedy start.
    #[arg(long, value_name = "MATES_FILE")]
    start_matching: Option<String>,
    /// `cargo bench` passes this flag to every bench binary.
    #[arg(long, hide = true)]
    bench: bool,
    files: Vec<String>,
}

const PHASES: [&str; 10] = [
    "read file",
    "parse",
    "CSR",
    "greedy",
    "searches",
    "read-off",
    "G − start",
    "searches on G − start",
    "report",
    "full solve + report",
];

fn main() {
    let args = <Args as clap::Parser>::parse();
    if args.files.is_empty() {
        println!("matching_phases: no instance files given, nothing measured");
        return;
    }
    if args.start_matching.is_some() && args.files.len() != 1 {
        eprintln!("matching_phases: --start-matching is a matching of one instance: give one file");
        std::process::exit(2);
    }
    let header: String = PHASES.iter().map(|p| format!(" {p} ms |")).collect();
    println!("| instance | n | m | ν | winner |{header}");
    println!("|{}", "---|".repeat(5 + PHASES.len()));
    for file in &args.files {
        let mut samples: Vec<Vec<f64>> = vec![Vec::new(); PHASES.len()];
        let mut facts = String::new();
        let mut counters = Vec::new();
        for _ in 0..args.reps {
            let (times, f, c) = phases(file, args.start);
            counters = c;
            for (s, t) in samples.iter_mut().zip(times) {
                s.push(t);
            }
            facts = f;
        }
        let name = Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let cells: String = samples
            .into_iter()
            .map(|s| format!(" {:.1} |", median(&s)))
            .collect();
        println!("| {name} | {facts} |{cells}");
        // The counters of the last repetition (the runs are deterministic).
        for (label, run) in ["G", "G − start"].iter().zip(&counters) {
            println!("{name} [{label}] {run}");
        }
        if let Some(mates_file) = &args.start_matching {
            compare_starts(file, mates_file, args.reps);
        }
    }
}

/// The searches on G from the greedy start and from the matching in
/// `mates_file`, each line with the exposed vertices it starts from and
/// the median time over `reps` runs.
fn compare_starts(file: &str, mates_file: &str, reps: usize) {
    let parsed = graph::file::read(Path::new(file), |text| {
        graph::file::parse_edge_list(text, Numbering::ZeroBased)
    })
    .unwrap_or_else(|e| panic!("{file}: {e}"));
    let graph = Graph::from_flat_edges(parsed.vertex_count, &parsed.edges)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let given = read_mates(mates_file, &graph);
    let greedy = matching::start_matching(&graph);
    for (name, start) in [("the greedy start", greedy), (mates_file, given)] {
        let exposed = start.iter().filter(|&&m| m == matching::NONE).count();
        let times: Vec<f64> = (0..reps)
            .map(|_| {
                let start = start.clone();
                let t = Instant::now();
                let analysis = MatchingAnalysis::from_matching(&graph, start);
                let ms = millis(t);
                std::hint::black_box(analysis);
                ms
            })
            .collect();
        println!(
            "searches on G from {name} ({exposed} exposed): {:.1} ms",
            median(&times)
        );
    }
}

/// A mate file of `graph`, checked to be a matching of it.
fn read_mates(path: &str, graph: &Graph) -> Vec<Vertex> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mate: Vec<Vertex> = text
        .split_whitespace()
        .map(|token| match token.parse::<i64>() {
            Ok(-1) => matching::NONE,
            Ok(u) if (0..graph.vertex_count() as i64).contains(&u) => u as Vertex,
            _ => panic!("{path}: {token:?} is neither -1 nor a vertex of the graph"),
        })
        .collect();
    assert!(
        matching::is_matching_of(graph, &mate),
        "{path}: not a matching of the graph (one mate a vertex, partners naming each other, each pair an edge)"
    );
    mate
}

/// One pass through the phases: their times in ms, "n | m | ν | winner",
/// and (with `matching-stats`) the counters of the run on G and of the run
/// on G − start.
fn phases(file: &str, start: Vertex) -> (Vec<f64>, String, Vec<String>) {
    #[cfg(feature = "matching-stats")]
    matching::stats::take();
    let mut times = Vec::new();
    let t = Instant::now();
    let text = graph::file::read_bytes(Path::new(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    times.push(millis(t));
    let t = Instant::now();
    let parsed = graph::file::parse_edge_list(&text, Numbering::ZeroBased)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    drop(text);
    times.push(millis(t));
    let t = Instant::now();
    let graph = Graph::from_flat_edges(parsed.vertex_count, &parsed.edges)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    drop(parsed);
    times.push(millis(t));

    let t = Instant::now();
    let mate = matching::start_matching(&graph);
    times.push(millis(t));
    let t = Instant::now();
    let analysis = MatchingAnalysis::from_matching(&graph, mate);
    times.push(millis(t));

    // What geography::solve reads off the forest.
    let t = Instant::now();
    let barrier = analysis.barrier();
    let d = analysis.vertices_in(VertexClass::D);
    let exposing = analysis.matching_exposing(start);
    let (winner, witness) = match &exposing {
        Some(mate) => (Player::Second, matching::pairs_of(mate)),
        None => (Player::First, analysis.pairs()),
    };
    let start_barrier: Vec<Vertex> = barrier.iter().copied().filter(|&v| v != start).collect();
    times.push(millis(t));
    std::hint::black_box((&d, &witness, &start_barrier));

    // The winning moves: the analysis of G − start continues the first one
    // (one search from the start's mate at most; no copy of the graph, so
    // "build G − start" stays 0).
    let (build_rest, mut rest_search) = (0.0, 0.0);
    if winner == Player::First {
        let t = Instant::now();
        let moves = analysis
            .moves_into_d_without(&graph, start, &Cancel::never())
            .expect("never cancelled")
            .len();
        rest_search = millis(t);
        std::hint::black_box(moves);
    } else {
        drop(analysis);
    }
    times.push(build_rest);
    times.push(rest_search);
    #[cfg(feature = "matching-stats")]
    let counters: Vec<String> = matching::stats::take()
        .iter()
        .map(|r| format!("{r:?}"))
        .collect();
    #[cfg(not(feature = "matching-stats"))]
    let counters = Vec::new();

    // The report of the real solve (timed apart from it), then the whole
    // answer in one call as the CLI computes it.
    let options = GeographyOptions {
        all_starts: true,
        winning_moves: true,
    };
    let t = Instant::now();
    let solution = geography::solve(&graph, start, options);
    let solve_ms = millis(t);
    let t = Instant::now();
    let text = report::geography_text(&graph, start, &solution, Labels::new(Numbering::ZeroBased));
    let report_ms = millis(t);
    std::hint::black_box(text.len());
    times.push(report_ms);
    times.push(solve_ms + report_ms);
    let facts = format!(
        "{} | {} | {} | {winner:?}",
        graph.vertex_count(),
        graph.edge_count(),
        solution.matching.len()
    );
    (times, facts, counters)
}

fn millis(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}
