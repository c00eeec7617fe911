//! The two linear-time games against the time to read their input.
//!
//! Run with `cargo bench --bench linear_games`. For each generated input
//! (seeded, so every run sees the same graphs) the file is written once in
//! the contest layout (1-based, `N M` then `u v` lines; `N` then `a b` lines
//! for trees), then each repetition times
//! - read: reading the file, parsing it and building the validated `Graph`;
//! - solve: the solver on that graph (verdict, counts and winning moves).
//!
//! Machines here are shared and noisy, so the table reports medians and the
//! ratio solve/read measured in the same run; the claim to check is that the
//! ratio stays below 2.

use std::hint::black_box;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use puzzled::graph::{self, file::Numbering};
use puzzled::graph::{Graph, Vertex};
use puzzled::solver::{bipartite_edge, tree_paint};
use puzzled_testkit::random::{Rng as _, SplitMix};
use puzzled_testkit::stats::median;

/// The server's allocator (see `src/main.rs`): allocation is part of what
/// both reading the input and solving cost.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A random bipartite graph: `n` vertices with random ids, split into two
/// halves, and `m` distinct random edges between the halves, in random order.
fn random_bipartite(n: u64, m: u64, seed: u64) -> Vec<(Vertex, Vertex)> {
    let mut rng = SplitMix::new(seed);
    let left = n / 2;
    let right = n - left;
    assert!(m <= left * right);
    let mut keys: Vec<u64> = Vec::with_capacity(m as usize);
    while (keys.len() as u64) < m {
        while (keys.len() as u64) < m {
            keys.push(rng.below(left) * right + rng.below(right));
        }
        keys.sort_unstable();
        keys.dedup();
    }
    let mut ids: Vec<Vertex> = (0..n as Vertex).collect();
    rng.shuffle(&mut ids);
    let mut edges: Vec<(Vertex, Vertex)> = keys
        .into_iter()
        .map(|key| {
            (
                ids[(key / right) as usize],
                ids[(left + key % right) as usize],
            )
        })
        .collect();
    rng.shuffle(&mut edges);
    edges
}

/// A random recursive tree (each vertex hangs below a uniformly random
/// earlier one: shallow, with hubs), ids shuffled.
fn random_tree(n: u64, seed: u64) -> Vec<(Vertex, Vertex)> {
    let mut rng = SplitMix::new(seed);
    let mut ids: Vec<Vertex> = (0..n as Vertex).collect();
    rng.shuffle(&mut ids);
    let mut edges: Vec<(Vertex, Vertex)> = (1..n)
        .map(|v| (ids[rng.below(v) as usize], ids[v as usize]))
        .collect();
    rng.shuffle(&mut edges);
    edges
}

/// A path on `n` vertices with shuffled ids: as deep as a tree gets.
fn random_path(n: u64, seed: u64) -> Vec<(Vertex, Vertex)> {
    let mut rng = SplitMix::new(seed);
    let mut ids: Vec<Vertex> = (0..n as Vertex).collect();
    rng.shuffle(&mut ids);
    let mut edges: Vec<(Vertex, Vertex)> = ids.windows(2).map(|w| (w[0], w[1])).collect();
    rng.shuffle(&mut edges);
    edges
}

/// Writes the contest layout, 1-based; `header_edges` says whether the
/// header carries `M` (edge lists) or not (trees).
fn write_file(path: &Path, n: u64, edges: &[(Vertex, Vertex)], header_edges: bool) {
    let file = std::fs::File::create(path).expect("create the input file");
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    if header_edges {
        writeln!(out, "{n} {}", edges.len()).unwrap();
    } else {
        writeln!(out, "{n}").unwrap();
    }
    for &(u, v) in edges {
        writeln!(out, "{} {}", u + 1, v + 1).unwrap();
    }
    out.flush().unwrap();
}

/// Reads `path` with `parse` and builds the graph.
fn read_graph(
    path: &Path,
    parse: fn(&[u8], Numbering) -> Result<graph::file::EdgeListFile, graph::file::GraphFileError>,
) -> Graph {
    let file = graph::file::read(path, |text| parse(text, Numbering::OneBased)).expect("read");
    Graph::from_flat_edges(file.vertex_count, &file.edges).expect("valid graph")
}

struct Row {
    name: String,
    n: usize,
    m: usize,
    read: Duration,
    solve: Duration,
    verdict: String,
}

/// Times `reps` rounds of read+build and solve on the file at `path`.
fn measure(
    name: &str,
    path: &Path,
    reps: usize,
    parse: fn(&[u8], Numbering) -> Result<graph::file::EdgeListFile, graph::file::GraphFileError>,
    solve: impl Fn(&Graph) -> String,
) -> Row {
    let (mut reads, mut solves) = (Vec::new(), Vec::new());
    let mut shape = (0, 0);
    let mut verdict = String::new();
    for _ in 0..reps {
        let start = Instant::now();
        let graph = black_box(read_graph(path, parse));
        reads.push(start.elapsed());
        shape = (graph.vertex_count(), graph.edge_count());
        let start = Instant::now();
        verdict = black_box(solve(&graph));
        solves.push(start.elapsed());
    }
    Row {
        name: name.to_string(),
        n: shape.0,
        m: shape.1,
        read: median(&reads),
        solve: median(&solves),
        verdict,
    }
}

fn main() {
    // `cargo bench --bench linear_games -- WORD` runs only the inputs whose
    // name contains WORD; `cargo bench` itself passes `--bench`, ignored.
    let filter: Option<String> = std::env::args().skip(1).find(|arg| !arg.starts_with("--"));
    let wanted = |name: &str| filter.as_deref().is_none_or(|word| name.contains(word));
    let dir = tempfile::tempdir().expect("temp dir");
    let mut rows = Vec::new();

    let bipartite_solve = |g: &Graph| {
        let solution = bipartite_edge::solve(g).expect("bipartite by construction");
        let c = solution.counts;
        format!(
            "{:?}, x = {}, iso/oo/eo/ee = {}/{}/{}/{}, move {:?}",
            solution.winner, c.x, c.iso, c.oo, c.eo, c.ee, solution.winning_move
        )
    };
    for (name, n, m, reps, seed) in [
        ("bipartite, 10^6 edges", 200_000u64, 1_000_000u64, 7, 1),
        // Average degree 1: hundreds of thousands of components of all types.
        ("bipartite sparse, 10^6 e.", 2_000_000, 1_000_000, 7, 6),
        ("bipartite, 10^7 edges", 2_000_000, 10_000_000, 3, 2),
    ] {
        if !wanted(name) {
            continue;
        }
        let path = dir.path().join(format!("bipartite_{seed}.txt"));
        write_file(&path, n, &random_bipartite(n, m, seed), true);
        rows.push(measure(
            name,
            &path,
            reps,
            graph::file::parse_edge_list,
            bipartite_solve,
        ));
        std::fs::remove_file(&path).ok();
    }

    let paint_solve = |g: &Graph| {
        let (black, white) = tree_paint::default_endpoints(g);
        let solution = tree_paint::solve(g, black, white).expect("a tree by construction");
        format!(
            "{:?}, {} vs {}, {} winning moves",
            solution.winner,
            solution.black_count,
            solution.white_count,
            solution.winning_moves.moves.len()
        )
    };
    type TreeMaker = fn(u64, u64) -> Vec<(Vertex, Vertex)>;
    let trees: [(&str, TreeMaker, u64, u64); 3] = [
        ("random tree, 10^6 vertices", random_tree, 1_000_000, 3),
        ("path, 10^6 vertices", random_path, 1_000_000, 4),
        ("random tree, 10^7 vertices", random_tree, 10_000_000, 5),
    ];
    for (name, make, n, seed) in trees {
        if !wanted(name) {
            continue;
        }
        let path = dir.path().join(format!("tree_{seed}.txt"));
        write_file(&path, n, &make(n, seed), false);
        let reps = if n > 1_000_000 { 3 } else { 7 };
        rows.push(measure(
            name,
            &path,
            reps,
            graph::file::parse_tree,
            paint_solve,
        ));
        std::fs::remove_file(&path).ok();
    }

    println!(
        "{:<28} {:>10} {:>10} {:>14} {:>10} {:>12}  verdict",
        "input", "N", "M", "read+build ms", "solve ms", "solve/read"
    );
    for row in &rows {
        println!(
            "{:<28} {:>10} {:>10} {:>14.1} {:>10.1} {:>12.2}  {}",
            row.name,
            row.n,
            row.m,
            row.read.as_secs_f64() * 1e3,
            row.solve.as_secs_f64() * 1e3,
            row.solve.as_secs_f64() / row.read.as_secs_f64(),
            row.verdict
        );
    }
}
