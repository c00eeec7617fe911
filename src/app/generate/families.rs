//! The graph families puzzles are drawn from, and the puzzle of each
//! candidate: its graph, its orientation for the directed games, and its
//! distinguished vertices.
//!
//! Every draw of candidate `k` of a request seeded `s` comes from one
//! ChaCha8 generator keyed by `(s, k)` ([`candidate_rng`]), in a fixed
//! order: the vertex count (uniform in the size range), the graph, a
//! random renumbering of its vertices (so the numbers give nothing of the
//! family's construction away), the orientation of each edge (directed
//! games), then the start vertex (the Geographies) or the black and white
//! vertices (tree painting), uniform among the vertices (black and white
//! distinct). A candidate thus depends on the request and `k` alone, not on
//! the candidates before it.
//!
//! The families, on `n` vertices:
//! - [`Family::Gnm`]: `m = round(d·n/2)` distinct edges drawn uniformly
//!   among all pairs (at most all of them), `d` the average degree
//!   ([`DEFAULT_AVERAGE_DEGREE`] unless given); in the directed games `m`
//!   distinct arcs among all ordered pairs (so `d` is the average of in-
//!   plus out-degree), not oriented afterwards.
//! - [`Family::Tree`]: a uniformly random labelled tree, decoded from a
//!   uniformly random Prüfer sequence.
//! - [`Family::GridWithHoles`]: the most nearly square grid `rows × cols`
//!   (`cols = ⌈√c⌉`, `rows = ⌈c / cols⌉`) with at least `c = ⌈n / (1 − h)⌉`
//!   cells, `h` the hole fraction ([`DEFAULT_HOLE_FRACTION`] unless
//!   given); a random spanning tree of the grid (Kruskal's on the grid's
//!   edges in random order) loses a uniformly random leaf at a time until
//!   `n` cells are left, so what is left stays connected; the graph is the
//!   grid's edges between the cells left. It has exactly `n` vertices, is
//!   connected and bipartite, and at least a fraction `h` of the grid's
//!   cells are holes.
//! - [`Family::Bipartite`]: sides `a + b = n` with `a` uniform in
//!   `1..=n − 1` (`a = n` for `n = 1`), and `m = round(d·n/2)` distinct
//!   edges between the sides drawn uniformly (at most `a·b`).
//! - [`Family::Caterpillar`]: a spine path on `s = round(f·n)` vertices
//!   (clamped to `1..=n`, `f` the spine fraction, [`DEFAULT_SPINE_FRACTION`]
//!   unless given); each other vertex is a leaf joined to a uniformly
//!   random spine vertex.
//! - [`Family::Graph6`]: the graphs of the given graph6, sparse6 or
//!   digraph6 lines (a line's first byte tells which), candidate `k` being
//!   line `k`, numbered as in the line. A line whose graph does not suit the
//!   game or the size range is passed over; only its orientation (an
//!   undirected line in a directed game) and distinguished vertices are
//!   drawn.
//!
//! The draws use rand's uniform ranges on ChaCha8Rng, value-stable within
//! a rand release series, and rand's shuffle and index sampling as
//! `draws` repeats them (so that a large drawing looks at the cancel
//! handle as it goes; its tests hold them to rand's own); the pinned
//! candidate in the tests fails if an update changes them.
//!
//! A drawing looks at the call's cancel handle every
//! [`CHECK_EVERY`](crate::solver::cancel::CHECK_EVERY) steps (cells, grid
//! edges, vertices or edges drawn) and stops with
//! [`Cancelled`] once it has fired. What it holds at its peak is what
//! [`drawing_units`] charges the call's admission for.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::draws;
use super::error::{Rejection, RequestError};
use crate::graph::Vertex;
use crate::graph::graph6::{self, Graph6Error, Graph6Format};
use crate::puzzle::{Game, RawSpec};
use crate::solver::cancel::{Cancel, Cancelled};
use crate::solver::search_geography::{MAX_ITEMS, MAX_VERTICES, Variant};

/// The average degree of [`Family::gnm`] and [`Family::bipartite`].
pub const DEFAULT_AVERAGE_DEGREE: f64 = 3.0;
/// The fraction of cells of [`Family::grid_with_holes`] that are holes.
pub const DEFAULT_HOLE_FRACTION: f64 = 0.2;
/// The fraction of a [`Family::caterpillar`]'s vertices on its spine.
pub const DEFAULT_SPINE_FRACTION: f64 = 0.5;
/// The largest hole fraction: the grid has `n / (1 − h)` cells.
pub const MAX_HOLE_FRACTION: f64 = 0.9;

/// Where candidates' graphs come from (module docs).
#[derive(Debug, Clone, PartialEq)]
pub enum Family {
    Gnm { average_degree: f64 },
    Tree,
    GridWithHoles { hole_fraction: f64 },
    Bipartite { average_degree: f64 },
    Caterpillar { spine_fraction: f64 },
    Graph6 { lines: Vec<String> },
}

impl Family {
    pub fn gnm() -> Family {
        Family::Gnm {
            average_degree: DEFAULT_AVERAGE_DEGREE,
        }
    }

    pub fn grid_with_holes() -> Family {
        Family::GridWithHoles {
            hole_fraction: DEFAULT_HOLE_FRACTION,
        }
    }

    pub fn bipartite() -> Family {
        Family::Bipartite {
            average_degree: DEFAULT_AVERAGE_DEGREE,
        }
    }

    pub fn caterpillar() -> Family {
        Family::Caterpillar {
            spine_fraction: DEFAULT_SPINE_FRACTION,
        }
    }

    pub fn graph6<S: Into<String>>(lines: impl IntoIterator<Item = S>) -> Family {
        Family::Graph6 {
            lines: lines.into_iter().map(Into::into).collect(),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Family::Gnm { .. } => "Gnm",
            Family::Tree => "Tree",
            Family::GridWithHoles { .. } => "GridWithHoles",
            Family::Bipartite { .. } => "Bipartite",
            Family::Caterpillar { .. } => "Caterpillar",
            Family::Graph6 { .. } => "Graph6",
        }
    }

    /// What else than `max_vertices` lowers the edges of the family's
    /// graphs, for a message that says what to change.
    pub fn edge_advice(&self) -> &'static str {
        match self {
            Family::Gnm { .. } | Family::Bipartite { .. } => " or the average degree",
            _ => "",
        }
    }

    /// The most edges (arcs) a graph of the family on `n` vertices has;
    /// `None` for graph6 lines, which are checked one at a time.
    pub fn most_edges(&self, n: u64, directed: bool) -> Option<u64> {
        Some(match *self {
            Family::Gnm { average_degree } => {
                let pairs = n * n.saturating_sub(1) / if directed { 1 } else { 2 };
                edges_for_degree(n, average_degree).min(pairs)
            }
            Family::Tree | Family::Caterpillar { .. } => n.saturating_sub(1),
            // The most edges `n` cells of a grid can have (Harary and
            // Harborth): 2n − ⌈2√n⌉.
            Family::GridWithHoles { .. } => 2 * n - ceil_sqrt(4 * n),
            Family::Bipartite { average_degree } => {
                edges_for_degree(n, average_degree).min(n / 2 * n.div_ceil(2))
            }
            Family::Graph6 { .. } => return None,
        })
    }
}

/// `round(d·n/2)`: the edges of `n` vertices of average degree `d`.
fn edges_for_degree(n: u64, average_degree: f64) -> u64 {
    (average_degree * n as f64 / 2.0).round() as u64
}

/// `⌈√x⌉`.
fn ceil_sqrt(x: u64) -> u64 {
    let mut r = (x as f64).sqrt() as u64;
    while r * r < x {
        r += 1;
    }
    while r > 0 && (r - 1) * (r - 1) >= x {
        r -= 1;
    }
    r
}

/// The most cells the grid of a [`Family::GridWithHoles`] graph may have:
/// its edges are numbered `2·cell + direction` in a `u32`.
pub const MAX_GRID_CELLS: u64 = 1 << 31;

/// The grid a [`Family::GridWithHoles`] graph on `n` vertices is cut
/// from, `(rows, cols)`: the most nearly square one with at least
/// `⌈n / (1 − h)⌉` cells (module docs).
fn grid_shape(n: u64, hole_fraction: f64) -> (u64, u64) {
    let cells_wanted = (n as f64 / (1.0 - hole_fraction)).ceil().max(1.0) as u64;
    let cols = ceil_sqrt(cells_wanted).max(1);
    let rows = cells_wanted.div_ceil(cols);
    (rows, cols)
}

/// The edges of a grid of `rows × cols` cells.
fn grid_edge_count(rows: u64, cols: u64) -> u64 {
    rows * cols.saturating_sub(1) + cols * rows.saturating_sub(1)
}

/// The admission units drawing a graph of `family` on `n` vertices holds
/// at its peak, one for each thing it holds a few words of (a unit stands
/// for more bytes than that, see `app::admission`):
/// - [`Family::Gnm`] and [`Family::Bipartite`]: the `n` vertices renumbered
///   and the `m` edges drawn, each held as an index of the sample and as a
///   pair (the sample holds an index for every pair only when the pairs
///   are not many more than the edges drawn);
/// - [`Family::Tree`] and [`Family::Caterpillar`]: the `n` vertices (the
///   Prüfer sequence and the degrees) and the `n − 1` edges;
/// - [`Family::GridWithHoles`]: the grid's cells and edges (the edges in
///   random order, the union-find and the tree's links over the cells),
///   which at a hole fraction `h` are `1 / (1 − h)` times the `n` cells
///   kept;
/// - [`Family::Graph6`]: nothing, the lines are parsed before the call.
pub fn drawing_units(family: &Family, n: u64, directed: bool) -> u64 {
    match *family {
        Family::GridWithHoles { hole_fraction } => {
            let (rows, cols) = grid_shape(n, hole_fraction);
            (rows * cols).saturating_add(grid_edge_count(rows, cols))
        }
        Family::Graph6 { .. } => 0,
        _ => n.saturating_add(family.most_edges(n, directed).unwrap_or(0)),
    }
}

/// Checks the family's parameters, and that it can make graphs of the
/// game's shape at all.
pub fn check_family(game: Game, family: &Family) -> Result<(), RequestError> {
    match *family {
        Family::Gnm { average_degree } | Family::Bipartite { average_degree }
            if !(average_degree.is_finite() && average_degree > 0.0) =>
        {
            return Err(RequestError::new(
                "average_degree",
                format!("{average_degree} is not a positive number"),
            ));
        }
        Family::GridWithHoles { hole_fraction }
            if !(0.0..=MAX_HOLE_FRACTION).contains(&hole_fraction) =>
        {
            return Err(RequestError::new(
                "hole_fraction",
                format!("{hole_fraction} is outside 0..={MAX_HOLE_FRACTION}"),
            ));
        }
        Family::Caterpillar { spine_fraction }
            if !(spine_fraction > 0.0 && spine_fraction <= 1.0) =>
        {
            return Err(RequestError::new(
                "spine_fraction",
                format!("{spine_fraction} is outside (0, 1]"),
            ));
        }
        Family::Graph6 { ref lines } if lines.is_empty() => {
            return Err(RequestError::new("graph6_lines", "no graph6 line given"));
        }
        _ => {}
    }
    let fits = match game {
        Game::TreePaint => matches!(
            family,
            Family::Tree | Family::Caterpillar { .. } | Family::Graph6 { .. }
        ),
        Game::BipartiteEdge => !matches!(family, Family::Gnm { .. }),
        _ => true,
    };
    if fits {
        return Ok(());
    }
    let message = match game {
        Game::TreePaint => format!(
            "tree painting needs a tree, and {} graphs are not trees: use Tree, Caterpillar, \
             or Graph6 lines of trees",
            family.name()
        ),
        _ => format!(
            "the edge game needs a bipartite graph, and {} graphs have odd cycles: use Tree, \
             GridWithHoles, Bipartite, Caterpillar, or Graph6 lines of bipartite graphs",
            family.name()
        ),
    };
    Err(RequestError::new("family", message))
}

/// Checks that the game can take graphs of the size range from the family.
pub fn check_size_range(
    game: Game,
    family: &Family,
    min_vertices: u32,
    max_vertices: u32,
) -> Result<(), RequestError> {
    if min_vertices > max_vertices {
        return Err(RequestError::new(
            "min_vertices",
            format!("{min_vertices} is more than the most vertices asked for, {max_vertices}"),
        ));
    }
    if u64::from(min_vertices) < game.min_vertices() {
        return Err(RequestError::new(
            "min_vertices",
            format!(
                "{} needs at least {} vertices, got {min_vertices}",
                game.as_str(),
                game.min_vertices()
            ),
        ));
    }
    if let Family::GridWithHoles { hole_fraction } = *family {
        let (rows, cols) = grid_shape(max_vertices.into(), hole_fraction);
        if rows * cols > MAX_GRID_CELLS {
            return Err(RequestError::new(
                "max_vertices",
                format!(
                    "GridWithHoles graphs on {max_vertices} vertices at hole fraction \
                     {hole_fraction} are cut from a grid of {} cells, more than the \
                     {MAX_GRID_CELLS} a grid may have: ask for fewer vertices or a smaller \
                     hole fraction",
                    rows * cols
                ),
            ));
        }
    }
    let Some(variant) = game.search_variant() else {
        return Ok(());
    };
    if max_vertices as usize > MAX_VERTICES {
        return Err(RequestError::new(
            "max_vertices",
            format!(
                "{} is solved by search on at most {MAX_VERTICES} vertices, got {max_vertices}",
                game.as_str()
            ),
        ));
    }
    let counts_edges = variant != Variant::DirectedVertex;
    if let Some(edges) = family.most_edges(max_vertices.into(), game.is_directed())
        && counts_edges
        && edges > MAX_ITEMS as u64
    {
        return Err(RequestError::new(
            "max_vertices",
            format!(
                "{} is solved by search on at most {MAX_ITEMS} edges, and {} graphs on \
                 {max_vertices} vertices can have {edges}: ask for fewer vertices{}",
                game.as_str(),
                family.name(),
                family.edge_advice()
            ),
        ));
    }
    Ok(())
}

/// The most moves a game of the family on `n` vertices can last: every
/// move uses up a vertex (the Geographies of vertices, tree painting but
/// for its two painted vertices), an edge or arc (the edge Geographies), or
/// a pair of the final bipartite graph (the edge game).
pub fn most_moves(game: Game, family: &Family, n: u64) -> u64 {
    match game {
        Game::Geography | Game::DirectedVertexGeography => n.saturating_sub(1),
        Game::TreePaint => n.saturating_sub(2),
        Game::BipartiteEdge => n / 2 * n.div_ceil(2),
        Game::UndirectedEdgeGeography | Game::DirectedEdgeGeography => family
            .most_edges(n, game.is_directed())
            .unwrap_or(MAX_ITEMS as u64)
            .min(MAX_ITEMS as u64),
    }
}

/// The generator of candidate `index` of a request seeded `seed`: ChaCha8
/// keyed by both (seed then index, little-endian, the rest of the key
/// zero), so that distinct pairs never share a stream.
pub fn candidate_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&index.to_le_bytes());
    ChaCha8Rng::from_seed(key)
}

/// A candidate's graph before its puzzle is set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnGraph {
    pub vertex_count: u32,
    /// Edges, or arcs `u → v` when `directed`.
    pub pairs: Vec<(Vertex, Vertex)>,
    pub directed: bool,
}

/// Parses one graph6, sparse6 or digraph6 line (an optional `>>graph6<<`
/// style header is skipped; a line end is trimmed).
pub fn parse_graph6_line(line: &str) -> Result<DrawnGraph, Graph6Error> {
    let line = line.trim_end_matches(['\r', '\n']).as_bytes();
    let body = [&b">>graph6<<"[..], b">>sparse6<<", b">>digraph6<<"]
        .into_iter()
        .find_map(|header| line.strip_prefix(header))
        .unwrap_or(line);
    let format = match body.first() {
        Some(b':') => Graph6Format::Sparse6,
        Some(b'&') => Graph6Format::Digraph6,
        _ => Graph6Format::Graph6,
    };
    let file = graph6::parse_line(body, format)?;
    let vertex_count =
        u32::try_from(file.vertex_count).map_err(|_| Graph6Error::TooManyVertices {
            vertex_count: file.vertex_count,
        })?;
    Ok(DrawnGraph {
        vertex_count,
        pairs: file.edges.chunks_exact(2).map(|p| (p[0], p[1])).collect(),
        directed: format == Graph6Format::Digraph6,
    })
}

/// Draws the graph of a random family (not [`Family::Graph6`]) on a vertex
/// count uniform in `min_vertices..=max_vertices`, renumbered at random;
/// stops once `cancel` has fired.
pub fn draw_graph(
    game: Game,
    family: &Family,
    min_vertices: u32,
    max_vertices: u32,
    rng: &mut ChaCha8Rng,
    cancel: &Cancel,
) -> Result<DrawnGraph, Cancelled> {
    let n = rng.random_range(min_vertices..=max_vertices);
    let mut directed = false;
    let mut pairs = match *family {
        Family::Gnm { average_degree } => {
            directed = game.is_directed();
            let m = edges_for_degree(n.into(), average_degree);
            gnm(n, m, directed, rng, cancel)?
        }
        Family::Tree => random_tree(n, rng, cancel)?,
        Family::GridWithHoles { hole_fraction } => grid_with_holes(n, hole_fraction, rng, cancel)?,
        Family::Bipartite { average_degree } => {
            bipartite(n, edges_for_degree(n.into(), average_degree), rng, cancel)?
        }
        Family::Caterpillar { spine_fraction } => caterpillar(n, spine_fraction, rng, cancel)?,
        Family::Graph6 { .. } => unreachable!("graph6 lines are parsed, not drawn"),
    };
    let mut renumbering: Vec<Vertex> = (0..n).collect();
    draws::shuffle(&mut renumbering, rng, cancel)?;
    for (step, (u, v)) in pairs.iter_mut().enumerate() {
        cancel.check_every(step)?;
        (*u, *v) = (renumbering[*u as usize], renumbering[*v as usize]);
    }
    Ok(DrawnGraph {
        vertex_count: n,
        pairs,
        directed,
    })
}

/// The puzzle of `game` on `graph`: oriented at random for a directed
/// game (unless it is a digraph already), pairs listed in order, the
/// distinguished vertices drawn.
pub fn raw_spec(game: Game, graph: DrawnGraph, rng: &mut ChaCha8Rng) -> Result<RawSpec, Rejection> {
    if graph.directed && !game.is_directed() {
        return Err(Rejection::NotForTheGame);
    }
    let n = graph.vertex_count;
    let mut pairs = graph.pairs;
    if game.is_directed() && !graph.directed {
        for pair in &mut pairs {
            if rng.random_bool(0.5) {
                *pair = (pair.1, pair.0);
            }
        }
    } else if !game.is_directed() {
        for pair in &mut pairs {
            *pair = (pair.0.min(pair.1), pair.0.max(pair.1));
        }
    }
    pairs.sort_unstable();
    let mut raw = RawSpec::new(
        game,
        n.into(),
        pairs.iter().flat_map(|&(u, v)| [u, v]).collect(),
    );
    if game.has_start() && n > 0 {
        raw.start = rng.random_range(0..n);
    }
    if game == Game::TreePaint {
        if n < 2 {
            return Err(Rejection::OutOfSizeRange);
        }
        let black = rng.random_range(0..n);
        let mut white = rng.random_range(0..n - 1);
        if white >= black {
            white += 1;
        }
        raw.black = Some(black);
        raw.white = Some(white);
    }
    Ok(raw)
}

/// `m` distinct pairs (at most all of them) drawn uniformly: edges
/// `(u, v)`, `u < v`, or arcs among ordered pairs.
fn gnm(
    n: u32,
    m: u64,
    directed: bool,
    rng: &mut ChaCha8Rng,
    cancel: &Cancel,
) -> Result<Vec<(Vertex, Vertex)>, Cancelled> {
    let n64 = u64::from(n);
    let total = if directed {
        n64 * n64.saturating_sub(1)
    } else {
        n64 * n64.saturating_sub(1) / 2
    };
    draws::sample(rng, total, m.min(total), cancel, |i| {
        if directed {
            // Arc i: tail i / (n − 1), head the (i mod (n − 1))-th other vertex.
            let (u, r) = (i / (n64 - 1), i % (n64 - 1));
            (u as Vertex, (r + u64::from(r >= u)) as Vertex)
        } else {
            // Pairs by their larger end v: (0, 1), (0, 2), (1, 2), (0, 3), …
            // pair i has v(v − 1)/2 ≤ i < v(v + 1)/2.
            let mut v = ((1.0 + (1.0 + 8.0 * i as f64).sqrt()) / 2.0) as u64;
            while v * (v - 1) / 2 > i {
                v -= 1;
            }
            while (v + 1) * v / 2 <= i {
                v += 1;
            }
            ((i - v * (v - 1) / 2) as Vertex, v as Vertex)
        }
    })
}

/// A uniformly random labelled tree on `n` vertices, from a random Prüfer
/// sequence (decoded in linear time).
fn random_tree(
    n: u32,
    rng: &mut ChaCha8Rng,
    cancel: &Cancel,
) -> Result<Vec<(Vertex, Vertex)>, Cancelled> {
    if n < 2 {
        return Ok(Vec::new());
    }
    let mut sequence: Vec<Vertex> = Vec::with_capacity(n as usize - 2);
    for step in 0..n as usize - 2 {
        cancel.check_every(step)?;
        sequence.push(rng.random_range(0..n));
    }
    let mut degree = vec![1u32; n as usize];
    for &v in &sequence {
        degree[v as usize] += 1;
    }
    let mut edges = Vec::with_capacity(n as usize - 1);
    // `next` scans for leaves upwards; a vertex that becomes a leaf below
    // it is used at once, so every leaf is taken in increasing order.
    let mut next = degree.iter().position(|&d| d == 1).expect("a leaf") as Vertex;
    let mut leaf = next;
    for (step, &v) in sequence.iter().enumerate() {
        cancel.check_every(step)?;
        edges.push((leaf, v));
        degree[v as usize] -= 1;
        if degree[v as usize] == 1 && v < next {
            leaf = v;
        } else {
            next += 1;
            while degree[next as usize] != 1 {
                next += 1;
            }
            leaf = next;
        }
    }
    edges.push((leaf, n - 1));
    Ok(edges)
}

/// A grid cell's links to its neighbours in the spanning tree, a bit for
/// each direction, and whether the cell has been taken off.
const RIGHT: u8 = 1;
const DOWN: u8 = 2;
const LEFT: u8 = 4;
const UP: u8 = 8;
const LINKS: u8 = RIGHT | DOWN | LEFT | UP;
const REMOVED: u8 = 16;

/// `n` cells of a grid with holes, connected (module docs). Everything it
/// holds is flat and per cell or per grid edge: the edges as `u32` codes
/// (`2·cell`, the edge to the right; `2·cell + 1`, the edge down), a
/// `u32` union-find, then the cells' numbers in the same array, a byte of
/// links per cell, and the leaves as `u32`s.
fn grid_with_holes(
    n: u32,
    hole_fraction: f64,
    rng: &mut ChaCha8Rng,
    cancel: &Cancel,
) -> Result<Vec<(Vertex, Vertex)>, Cancelled> {
    let (rows, cols) = grid_shape(n.into(), hole_fraction);
    let cells = u32::try_from(rows * cols)
        .ok()
        .filter(|&cells| u64::from(cells) <= MAX_GRID_CELLS)
        .expect("the request's check bounds the grid's cells");
    let (rows, cols) = (rows as u32, cols as u32);
    let below = |cell: u32| cell / cols + 1 < rows;
    let before_last_column = |cell: u32| cell % cols + 1 < cols;
    // The grid's edges in row-major order, each cell's right edge before
    // its lower one.
    let mut order: Vec<u32> =
        Vec::with_capacity(grid_edge_count(rows.into(), cols.into()) as usize);
    for cell in 0..cells {
        cancel.check_every(cell as usize)?;
        if before_last_column(cell) {
            order.push(2 * cell);
        }
        if below(cell) {
            order.push(2 * cell + 1);
        }
    }
    // A random spanning tree: Kruskal's on the edges in random order.
    draws::shuffle(&mut order, rng, cancel)?;
    let mut parent: Vec<u32> = (0..cells).collect();
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            parent[x as usize] = parent[parent[x as usize] as usize];
            x = parent[x as usize];
        }
        x
    }
    let mut links = vec![0u8; cells as usize];
    for (step, &code) in order.iter().enumerate() {
        cancel.check_every(step)?;
        let a = code / 2;
        let (b, forward, back) = if code % 2 == 0 {
            (a + 1, RIGHT, LEFT)
        } else {
            (a + cols, DOWN, UP)
        };
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra as usize] = rb;
            links[a as usize] |= forward;
            links[b as usize] |= back;
        }
    }
    drop(order);
    // Leaves come off one at a time: the tree still spans what is left. A
    // cell's links are those to the cells left, so a leaf has one.
    let degree = |links: u8| (links & LINKS).count_ones();
    let mut leaves: Vec<u32> = Vec::new();
    for cell in 0..cells {
        cancel.check_every(cell as usize)?;
        if degree(links[cell as usize]) == 1 {
            leaves.push(cell);
        }
    }
    for step in 0..(cells - n) as usize {
        cancel.check_every(step)?;
        let leaf = leaves.swap_remove(rng.random_range(0..leaves.len()));
        let link = links[leaf as usize] & LINKS;
        links[leaf as usize] = REMOVED;
        let (neighbour, back) = match link {
            RIGHT => (leaf + 1, LEFT),
            DOWN => (leaf + cols, UP),
            LEFT => (leaf - 1, RIGHT),
            UP => (leaf - cols, DOWN),
            // No link left: the last cell of all, whose neighbour went
            // first (taken off only when no cell at all is asked for).
            _ => continue,
        };
        links[neighbour as usize] &= !back;
        if degree(links[neighbour as usize]) == 1 {
            leaves.push(neighbour);
        }
    }
    drop(leaves);
    // The cells left, numbered in order (in the union-find's array, which
    // is done with).
    let left = |cell: u32| links[cell as usize] & REMOVED == 0;
    let mut number = parent;
    let mut kept = 0;
    for cell in 0..cells {
        cancel.check_every(cell as usize)?;
        if left(cell) {
            number[cell as usize] = kept;
            kept += 1;
        }
    }
    // The grid's edges between them, in the grid's order.
    let mut edges = Vec::new();
    for cell in 0..cells {
        cancel.check_every(cell as usize)?;
        if !left(cell) {
            continue;
        }
        let here = number[cell as usize];
        if before_last_column(cell) && left(cell + 1) {
            edges.push((here, number[cell as usize + 1]));
        }
        if below(cell) && left(cell + cols) {
            edges.push((here, number[(cell + cols) as usize]));
        }
    }
    Ok(edges)
}

/// A random bipartite graph on `n` vertices with `m` edges (at most all
/// `a·b` of them).
fn bipartite(
    n: u32,
    m: u64,
    rng: &mut ChaCha8Rng,
    cancel: &Cancel,
) -> Result<Vec<(Vertex, Vertex)>, Cancelled> {
    let left = if n < 2 { n } else { rng.random_range(1..n) };
    let right = n - left;
    let total = u64::from(left) * u64::from(right);
    draws::sample(rng, total, m.min(total), cancel, |i| {
        (
            (i / u64::from(right)) as Vertex,
            left + (i % u64::from(right)) as Vertex,
        )
    })
}

/// A caterpillar on `n` vertices: a spine path, and leaves on it.
fn caterpillar(
    n: u32,
    spine_fraction: f64,
    rng: &mut ChaCha8Rng,
    cancel: &Cancel,
) -> Result<Vec<(Vertex, Vertex)>, Cancelled> {
    let spine = ((f64::from(n) * spine_fraction).round() as u32).clamp(1, n.max(1));
    let mut edges: Vec<(Vertex, Vertex)> = (1..spine.min(n)).map(|v| (v - 1, v)).collect();
    for leaf in spine..n {
        cancel.check_every(leaf as usize)?;
        edges.push((rng.random_range(0..spine), leaf));
    }
    Ok(edges)
}
