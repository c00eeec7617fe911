//! Generated instances for the matching benchmark (`--families`): the
//! families of docs/performance.md's tables (random graphs, regular graphs,
//! grids, trees, near-perfect matchings) and those a user may bring
//! (random geometric graphs, like road networks, and heavy-tailed Chung–Lu
//! graphs). Written as an edge list (`n m`, then `u v` lines, 0-based) so
//! that every peer and the `readonly` floor read the very same file. Every
//! family ends with a random relabelling, a shuffled edge order and random
//! orientations: the structure alone decides the difficulty.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use puzzled_testkit::random::{EdgeSet, Rng as _, XorShiftStar};

/// Every family name `--families` accepts, in the order `all` runs them.
pub const ALL: &[&str] = &[
    "gnm3",
    "gnm10",
    "cubic",
    "grid",
    "geometric",
    "powerlaw",
    "tree",
    "nearperfect",
];

/// Writes family `name` with about `n` vertices to `dir`; its path.
pub fn generate(name: &str, n: u32, seed: u64, dir: &Path) -> PathBuf {
    // Scrambled: a seed names an instance, and nearby seeds differ.
    let mut rng = XorShiftStar::scrambled(seed);
    let (n, edges) = match name {
        "gnm3" => (n, gnm(n, n as usize * 3 / 2, &mut rng)),
        "gnm10" => (n, gnm(n, n as usize * 5, &mut rng)),
        "cubic" => (n, configuration(n, 3, &mut rng)),
        "grid" => grid(n, 0.05, &mut rng),
        "geometric" => (n, geometric(n, 6.0, &mut rng)),
        "powerlaw" => (n, chung_lu(n, 4.0, 2.5, &mut rng)),
        "tree" => (n, tree(n, 4, &mut rng)),
        "nearperfect" => (n, near_perfect(n, 16, 2.0, &mut rng)),
        other => panic!(
            "unknown family {other}; the families are {}",
            ALL.join(", ")
        ),
    };
    let path = dir.join(format!("{name}_n{n}_s{seed}.txt"));
    write_shuffled(&path, n, edges, &mut rng);
    path
}

fn gnm(n: u32, m: usize, rng: &mut XorShiftStar) -> EdgeSet {
    let mut edges = EdgeSet::new();
    edges.fill_at_random(n, m, rng);
    edges
}

/// The configuration model with every degree `d`; loops and repeated
/// edges dropped (so a few vertices have less).
fn configuration(n: u32, d: u32, rng: &mut XorShiftStar) -> EdgeSet {
    let mut stubs: Vec<u32> = (0..n)
        .flat_map(|v| std::iter::repeat_n(v, d as usize))
        .collect();
    rng.shuffle(&mut stubs);
    let mut edges = EdgeSet::new();
    for pair in stubs.chunks_exact(2) {
        edges.add(pair[0], pair[1]);
    }
    edges
}

/// A side × side grid (side = ⌊√n⌋), each unit cell getting one diagonal
/// with probability `q` (odd cycles: the grid alone is bipartite).
fn grid(n: u32, q: f64, rng: &mut XorShiftStar) -> (u32, EdgeSet) {
    let side = (n as f64).sqrt() as u32;
    let id = |r: u32, c: u32| r * side + c;
    let mut edges = EdgeSet::new();
    for r in 0..side {
        for c in 0..side {
            if c + 1 < side {
                edges.add(id(r, c), id(r, c + 1));
            }
            if r + 1 < side {
                edges.add(id(r, c), id(r + 1, c));
            }
            if r + 1 < side && c + 1 < side && rng.unit() < q {
                if rng.below(2) == 0 {
                    edges.add(id(r, c), id(r + 1, c + 1));
                } else {
                    edges.add(id(r, c + 1), id(r + 1, c));
                }
            }
        }
    }
    (side * side, edges)
}

/// Random points in the unit square joined when closer than the radius
/// that gives average degree `degree`: local, planar-like, long paths (a
/// road network's shape).
fn geometric(n: u32, degree: f64, rng: &mut XorShiftStar) -> EdgeSet {
    let radius = (degree / (std::f64::consts::PI * n as f64)).sqrt();
    let points: Vec<(f64, f64)> = (0..n).map(|_| (rng.unit(), rng.unit())).collect();
    let cells = (1.0 / radius).floor().max(1.0) as usize;
    let cell_of = |x: f64| ((x * cells as f64) as usize).min(cells - 1);
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); cells * cells];
    for (v, &(x, y)) in points.iter().enumerate() {
        buckets[cell_of(x) * cells + cell_of(y)].push(v as u32);
    }
    let mut edges = EdgeSet::new();
    for (v, &(x, y)) in points.iter().enumerate() {
        let (cx, cy) = (cell_of(x), cell_of(y));
        for nx in cx.saturating_sub(1)..=(cx + 1).min(cells - 1) {
            for ny in cy.saturating_sub(1)..=(cy + 1).min(cells - 1) {
                for &w in &buckets[nx * cells + ny] {
                    let (px, py) = points[w as usize];
                    if (w as usize) > v && (px - x).powi(2) + (py - y).powi(2) < radius * radius {
                        edges.add(v as u32, w);
                    }
                }
            }
        }
    }
    edges
}

/// Chung–Lu: vertex `i` has expected degree ∝ (i + 1)^(−1/(γ−1)), scaled
/// to average `degree`: a few hubs with thousands of neighbours, many
/// vertices of degree 1 or 2.
fn chung_lu(n: u32, degree: f64, gamma: f64, rng: &mut XorShiftStar) -> EdgeSet {
    let weights: Vec<f64> = (0..n)
        .map(|i| (i as f64 + 1.0).powf(-1.0 / (gamma - 1.0)))
        .collect();
    let mut cumulative = Vec::with_capacity(n as usize);
    let mut total = 0.0;
    for w in &weights {
        total += w;
        cumulative.push(total);
    }
    let pick = |rng: &mut XorShiftStar| {
        let x = rng.unit() * total;
        cumulative.partition_point(|&c| c < x).min(n as usize - 1) as u32
    };
    let m = (degree * n as f64 / 2.0) as usize;
    let mut edges = EdgeSet::new();
    // Hubs repeat pairs; stop when few new edges come.
    let mut tries = 0;
    while edges.len() < m && tries < 4 * m {
        tries += 1;
        let (u, v) = (pick(rng), pick(rng));
        edges.add(u, v);
    }
    edges
}

/// A random tree whose vertex `i` hangs from one of the `width` vertices
/// before it: long paths, deep subtrees.
fn tree(n: u32, width: u32, rng: &mut XorShiftStar) -> EdgeSet {
    let mut edges = EdgeSet::new();
    for i in 1..n {
        let from = i.saturating_sub(width);
        edges.add(i, from + rng.below((i - from).into()) as u32);
    }
    edges
}

/// A planted perfect matching on `n + orphans` vertices with `noise` ×
/// (n + orphans) / 2 random edges, then `orphans` random vertices removed:
/// their partners need long augmenting paths through the noise.
fn near_perfect(n: u32, orphans: u32, noise: f64, rng: &mut XorShiftStar) -> EdgeSet {
    let total = n + orphans;
    let mut edges = EdgeSet::new();
    for v in (0..total.saturating_sub(1)).step_by(2) {
        edges.add(v, v + 1);
    }
    let extra = (noise * total as f64 / 2.0) as usize;
    let target = edges.len() + extra;
    edges.fill_at_random(total, target, rng);
    let mut removed = HashSet::new();
    while removed.len() < orphans as usize {
        removed.insert(rng.below(total.into()) as u32);
    }
    let mut new_id = vec![u32::MAX; total as usize];
    let mut next = 0;
    for v in 0..total {
        if !removed.contains(&v) {
            new_id[v as usize] = next;
            next += 1;
        }
    }
    let mut kept = EdgeSet::new();
    for &(u, v) in edges.pairs() {
        let (a, b) = (new_id[u as usize], new_id[v as usize]);
        if a != u32::MAX && b != u32::MAX {
            kept.add(a, b);
        }
    }
    kept
}

/// Writes the graph relabelled at random, edges shuffled and each oriented
/// at random.
fn write_shuffled(path: &Path, n: u32, edges: EdgeSet, rng: &mut XorShiftStar) {
    let label = rng.permutation(n);
    let mut list = edges.into_pairs();
    rng.shuffle(&mut list);
    let file = std::fs::File::create(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = std::io::BufWriter::new(file);
    writeln!(out, "{n} {}", list.len()).unwrap();
    for (u, v) in list {
        let (a, b) = (label[u as usize], label[v as usize]);
        if rng.below(2) == 0 {
            writeln!(out, "{a} {b}").unwrap();
        } else {
            writeln!(out, "{b} {a}").unwrap();
        }
    }
    out.flush().unwrap();
}
