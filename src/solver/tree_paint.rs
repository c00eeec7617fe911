//! The tree painting game (GAMES.md §3, AtCoder ABC067 D "Fennec VS. Snuke").
//!
//! A tree; one vertex is black and another white. The first player paints an
//! uncoloured vertex adjacent to a black one black, the second an uncoloured
//! vertex adjacent to a white one white; a player who cannot paint loses.
//!
//! **Rule.** From any position (a connected black set, a connected white set,
//! a side to move) let every uncoloured vertex go to the set nearer to it
//! through uncoloured vertices, ties to the side to move. The side to move
//! wins iff it gets more vertices than the other side. Optimal play races
//! along the path between the two sets; when the sets touch, nothing is
//! contested and every legal move of the winner wins.
//!
//! **All winning moves.** Let the side to move get `own` vertices outright,
//! `tied` at equal distance, and the opponent `theirs` (`own + tied >
//! theirs` when it wins). Moving onto the path towards the other set keeps
//! the split as it is, so it wins exactly when the position is won. Any other
//! legal move paints a vertex the mover owns anyway and hands the tied
//! vertices to the opponent, who then moves first: it wins iff
//! `own > theirs + tied`. So the winning moves are the path move alone, or
//! every legal move, or none; each case is found in linear time. The tests
//! check every one of these claims against exhaustive search, on unreachable
//! positions as well.

use serde::Serialize;

use super::Player;
use super::cancel::{Cancel, Cancelled, uncancelled};
use super::geography::WinningMoves;
use super::graph::{Graph, Vertex, VertexFieldError, check_vertex};

/// A mid-game position. The first player paints black, the second white.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TreePaintPosition {
    /// The black vertices: non-empty and connected in the tree.
    pub black: Vec<Vertex>,
    /// The white vertices: non-empty, connected, disjoint from `black`.
    pub white: Vec<Vertex>,
    pub to_move: Player,
}

/// The verdict for a position and its evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionVerdict {
    pub to_move: Player,
    pub winner: Player,
    /// Uncoloured vertices black will paint under optimal play.
    pub black_future: u64,
    /// Uncoloured vertices white will paint under optimal play.
    pub white_future: u64,
    /// Black vertices at the end: the black set plus `black_future`.
    pub black_count: u64,
    /// White vertices at the end: the white set plus `white_future`.
    pub white_count: u64,
    /// Every winning move of the side to move, sorted (empty when it loses),
    /// and whether there is exactly one.
    pub winning_moves: WinningMoves,
}

/// The verdict for the start position, black at `black`, white at `white`,
/// black (the first player) to move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TreePaintSolution {
    pub winner: Player,
    pub black: Vertex,
    pub white: Vertex,
    /// Vertices black ends with: those at distance to `black` ≤ distance to
    /// `white` (the first player wins iff `black_count > white_count`).
    pub black_count: u64,
    /// Vertices white ends with: the others.
    pub white_count: u64,
    /// When black wins: a winning first move, the next vertex towards white
    /// (or, when white is adjacent, the smallest legal move).
    pub winning_move: Option<Vertex>,
    /// Every winning first move of black, sorted (empty when white wins), and
    /// whether there is exactly one.
    pub winning_moves: WinningMoves,
}

/// Why the graph is not a tree.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotATree {
    #[error("tree paint needs a tree with at least 2 vertices, the graph has {vertex_count}")]
    TooFewVertices { vertex_count: u64 },
    /// With `n` or more edges there is a cycle, and `cycle` names one; with
    /// fewer than `n − 1` the graph is disconnected and `cycle` is `None`.
    #[error(
        "tree paint needs a tree: {vertex_count} vertices but {edge_count} edges (a tree on {vertex_count} vertices has {}){}",
        vertex_count - 1,
        cycle_note(.cycle)
    )]
    WrongEdgeCount {
        vertex_count: u64,
        edge_count: u64,
        cycle: Option<Vec<Vertex>>,
    },
    /// With `n − 1` edges a disconnected graph has a cycle; both are named.
    #[error(
        "tree paint needs a tree, and this graph is not connected: vertex {unreached} cannot be reached from vertex 0 (and vertices {} form a cycle)",
        join_dashes(.cycle)
    )]
    NotConnected {
        unreached: Vertex,
        cycle: Vec<Vertex>,
    },
}

/// Which colour a set or a move is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    /// The colour the given player paints.
    pub fn of(player: Player) -> Colour {
        match player {
            Player::First => Colour::Black,
            Player::Second => Colour::White,
        }
    }
}

impl std::fmt::Display for Colour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Colour::Black => "black",
            Colour::White => "white",
        })
    }
}

/// Why a move of a move list is illegal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMoveReason {
    #[error("vertex {vertex} is out of range 0..{vertex_count}")]
    OutOfRange { vertex: Vertex, vertex_count: u64 },
    #[error("vertex {vertex} is already {colour}")]
    AlreadyPainted { vertex: Vertex, colour: Colour },
    #[error("vertex {vertex} has no {colour} neighbour")]
    NotAdjacent { vertex: Vertex, colour: Colour },
}

/// Why a tree-paint question cannot be answered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TreePaintError {
    #[error(transparent)]
    NotATree(#[from] NotATree),
    /// `black` or `white` is not a vertex of the tree.
    #[error(transparent)]
    Vertex(#[from] VertexFieldError),
    #[error("black and white must be different vertices, both are {vertex}")]
    SameVertex { vertex: Vertex },
    #[error("the {colour} set is empty")]
    EmptySet { colour: Colour },
    #[error("{colour}[{index}]: vertex {vertex} out of range 0..{vertex_count}")]
    SetVertexOutOfRange {
        colour: Colour,
        index: usize,
        vertex: Vertex,
        vertex_count: u64,
    },
    #[error("{colour}[{index}]: vertex {vertex} is listed twice")]
    ListedTwice {
        colour: Colour,
        index: usize,
        vertex: Vertex,
    },
    #[error("white[{index}]: vertex {vertex} is also black")]
    BothColours { index: usize, vertex: Vertex },
    #[error(
        "the {colour} set is not connected: vertex {cut_off} cannot be reached from vertex {first} within it"
    )]
    SetNotConnected {
        colour: Colour,
        first: Vertex,
        cut_off: Vertex,
    },
    #[error("move {index} ({colour} paints vertex {vertex}) is illegal: {reason}")]
    IllegalMove {
        /// Position in the move list, from 0; even moves are black's.
        index: usize,
        colour: Colour,
        vertex: Vertex,
        reason: IllegalMoveReason,
    },
}

fn cycle_note(cycle: &Option<Vec<Vertex>>) -> String {
    match cycle {
        Some(cycle) => format!("; vertices {} form a cycle", join_dashes(cycle)),
        None => String::new(),
    }
}

fn join_dashes(cycle: &[Vertex]) -> String {
    cycle
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

/// The start vertices the API uses when none are given: black at `0`, white
/// at `n − 1`, as in the original problem (vertices `1` and `N`).
pub fn default_endpoints(graph: &Graph) -> (Vertex, Vertex) {
    (0, graph.vertex_count().saturating_sub(1) as Vertex)
}

/// Solves the game from its start: black at `black`, white at `white`, black
/// to move.
///
/// Errors: the graph is not a tree ([`NotATree`]), `black`/`white` out of
/// range, or `black == white`. Time and memory `O(n)`, no recursion.
///
/// This is the hot path for big trees, so it avoids breadth-first search,
/// whose pointer chasing costs a cache miss or three per vertex on a tree
/// with scattered ids. Instead leaves other than `black` and `white` are
/// peeled until only the path `black = p_0, …, p_d = white` is left, each
/// path vertex carrying the weight `s_i` of itself and everything that hung
/// off it (one miss per vertex). A vertex hanging off `p_i` is nearer to
/// white iff `2i > d` and tied iff `2i = d` (ties go to black, who moves
/// first), so the split is a sum over the path.
///
/// ```
/// use puzzled::solver::Player;
/// use puzzled::solver::graph::Graph;
/// use puzzled::solver::tree_paint::{default_endpoints, solve};
///
/// // ABC067 D sample 2: edges 1-4 4-2 2-3, black at 1, white at 4 → Snuke
/// // (the second player) wins.
/// let tree = Graph::from_pairs(4, &[(0, 3), (3, 1), (1, 2)]).unwrap();
/// let (black, white) = default_endpoints(&tree);
/// let solution = solve(&tree, black, white).unwrap();
/// assert_eq!(solution.winner, Player::Second);
/// assert_eq!((solution.black_count, solution.white_count), (1, 3));
/// ```
pub fn solve(
    graph: &Graph,
    black: Vertex,
    white: Vertex,
) -> Result<TreePaintSolution, TreePaintError> {
    uncancelled(solve_with_cancel(graph, black, white, &Cancel::never()))
}

/// [`solve`] that stops with [`Cancelled`] soon after `cancel` fires (the
/// peeling loop looks at it). The outer result says whether the solve ran to
/// the end, the inner one is its answer.
pub fn solve_with_cancel(
    graph: &Graph,
    black: Vertex,
    white: Vertex,
    cancel: &Cancel,
) -> Result<Result<TreePaintSolution, TreePaintError>, Cancelled> {
    let n = graph.vertex_count();
    if n < 2 {
        return Ok(Err(NotATree::TooFewVertices {
            vertex_count: n as u64,
        }
        .into()));
    }
    let endpoints = check_vertex("black", u64::from(black), n)
        .and_then(|black| Ok((black, check_vertex("white", u64::from(white), n)?)));
    let (black, white) = match endpoints {
        Ok(endpoints) => endpoints,
        Err(e) => return Ok(Err(e.into())),
    };
    if black == white {
        // Still say first if the graph is not a tree: that is the bigger problem.
        return Ok(Err(match check_tree(graph) {
            Err(not_a_tree) => not_a_tree.into(),
            Ok(()) => TreePaintError::SameVertex { vertex: black },
        }));
    }
    let Some(path) = path_with_weights(graph, black, white, cancel)? else {
        let Err(not_a_tree) = check_tree(graph) else {
            unreachable!("peeling fails only on graphs that are not trees");
        };
        return Ok(Err(not_a_tree.into()));
    };
    let d = path.len() - 1;
    // Uncoloured vertices only: p_0 = black and p_d = white are painted.
    let white_future: u64 = path[d / 2 + 1..].iter().map(|&(_, w)| w).sum::<u64>() - 1;
    let tied = if d % 2 == 0 { path[d / 2].1 } else { 0 };
    let black_own = n as u64 - 2 - white_future - tied;
    let black_future = black_own + tied;
    let black_wins = black_future > white_future;
    // Same case analysis as for mid-game positions (see the module docs).
    let moves: Vec<Vertex> = if !black_wins {
        Vec::new()
    } else if black_own > white_future + tied {
        graph
            .neighbors(black)
            .iter()
            .copied()
            .filter(|&w| w != white)
            .collect()
    } else {
        vec![path[1].0]
    };
    let winning_move = black_wins.then(|| if d >= 2 { path[1].0 } else { moves[0] });
    Ok(Ok(TreePaintSolution {
        winner: if black_wins {
            Player::First
        } else {
            Player::Second
        },
        black,
        white,
        black_count: 1 + black_future,
        white_count: 1 + white_future,
        winning_move,
        winning_moves: WinningMoves {
            unique: moves.len() == 1,
            moves,
        },
    }))
}

/// Marks an idle peeling chain (never a vertex: see `graph::MAX_VERTICES`).
const NO_VERTEX: Vertex = Vertex::MAX;

/// One vertex during leaf peeling. Aligned so a record never straddles two
/// cache lines: peeling a long path touches one random record per step.
#[derive(Debug, Clone, Copy)]
#[repr(align(16))]
struct PeelRecord {
    /// XOR of the neighbours not yet peeled (so with one left, that one).
    neighbour_xor: Vertex,
    /// Neighbours not yet peeled; 0 once peeled.
    degree: u32,
    /// This vertex plus everything peeled into it.
    weight: u32,
}

/// The path from `black` to `white` as `(p_i, s_i)`: the path vertices in
/// order and their weights (the vertex plus the subtrees hanging off it),
/// or `None` if the graph is not a tree; [`Cancelled`] soon after `cancel`
/// fires.
///
/// Peels leaves other than the two ends. Each peel removes one edge, so if
/// the graph has `n − 1` edges, the unpeeled vertices walk as a simple path
/// from `black` to `white`, and peeled + path vertices = `n`, every edge is
/// accounted for and every vertex hangs off the path: a tree. A cycle never
/// peels, so any other graph fails one of those checks.
fn path_with_weights(
    graph: &Graph,
    black: Vertex,
    white: Vertex,
    cancel: &Cancel,
) -> Result<Option<Vec<(Vertex, u64)>>, Cancelled> {
    let n = graph.vertex_count();
    if graph.edge_count() != n - 1 {
        return Ok(None);
    }
    // Sequential over the CSR arrays: cheap.
    let mut records: Vec<PeelRecord> = (0..n as Vertex)
        .map(|v| PeelRecord {
            neighbour_xor: graph.neighbors(v).iter().fold(0, |acc, &w| acc ^ w),
            degree: graph.degree(v) as u32,
            weight: 1,
        })
        .collect();
    // A chain is a vertex about to be peeled; peeling it moves the chain to
    // the parent, which may have just become a leaf. Several chains advance
    // in turn so that their cache misses overlap (a path peels as two long
    // chains, one from each end). Each step re-checks that its vertex is
    // still a leaf, so two chains reaching one vertex peel it only once.
    const CHAINS: usize = 8;
    let is_leaf = |records: &[PeelRecord], v: Vertex| {
        v != black && v != white && records[v as usize].degree == 1
    };
    let mut chains = [NO_VERTEX; CHAINS];
    let mut next_start: Vertex = 0;
    let mut peeled = 0usize;
    for round in 0usize.. {
        cancel.check_every(round)?;
        for chain in chains.iter_mut().filter(|chain| **chain == NO_VERTEX) {
            while (next_start as usize) < n && !is_leaf(&records, next_start) {
                next_start += 1;
            }
            if (next_start as usize) < n {
                *chain = next_start;
                next_start += 1;
            }
        }
        if chains.iter().all(|&chain| chain == NO_VERTEX) {
            break;
        }
        for chain in &mut chains {
            let v = *chain;
            if v == NO_VERTEX || !is_leaf(&records, v) {
                *chain = NO_VERTEX;
                continue;
            }
            let PeelRecord {
                neighbour_xor: parent,
                weight,
                ..
            } = records[v as usize];
            records[v as usize].degree = 0;
            let up = &mut records[parent as usize];
            up.neighbour_xor ^= v;
            up.degree -= 1;
            up.weight += weight;
            peeled += 1;
            *chain = parent;
        }
    }
    // Walk what is left from black: each inner vertex has two neighbours
    // left, the one we came from and the next.
    let mut path = Vec::new();
    let (mut previous, mut current) = (Vertex::MAX, black);
    loop {
        cancel.check_every(path.len())?;
        let record = records[current as usize];
        path.push((current, u64::from(record.weight)));
        if current == white {
            break Ok((record.degree == 1 && peeled + path.len() == n).then_some(path));
        }
        let expected_degree = if current == black { 1 } else { 2 };
        if record.degree != expected_degree || path.len() == n {
            return Ok(None);
        }
        let next = if current == black {
            record.neighbour_xor
        } else {
            record.neighbour_xor ^ previous
        };
        (previous, current) = (current, next);
    }
}

/// Analyses a mid-game position: who wins with the side to move, the final
/// counts, and every winning move of the side to move.
///
/// The position need not be reachable by legal play: any connected black
/// set and connected white set, disjoint, are accepted. Errors name the
/// offending set entry. Time and memory `O(n)`.
pub fn analyze_position(
    graph: &Graph,
    position: &TreePaintPosition,
) -> Result<PositionVerdict, TreePaintError> {
    check_tree(graph)?;
    let n = graph.vertex_count();
    let mut colour = vec![UNCOLOURED; n];
    for (set, paint) in [
        (&position.black, Colour::Black),
        (&position.white, Colour::White),
    ] {
        if set.is_empty() {
            return Err(TreePaintError::EmptySet { colour: paint });
        }
        for (index, &vertex) in set.iter().enumerate() {
            if vertex as usize >= n {
                return Err(TreePaintError::SetVertexOutOfRange {
                    colour: paint,
                    index,
                    vertex,
                    vertex_count: n as u64,
                });
            }
            match (colour[vertex as usize], paint) {
                (UNCOLOURED, _) => {}
                (BLACK, Colour::White) => {
                    return Err(TreePaintError::BothColours { index, vertex });
                }
                _ => {
                    return Err(TreePaintError::ListedTwice {
                        colour: paint,
                        index,
                        vertex,
                    });
                }
            }
            colour[vertex as usize] = paint_code(paint);
        }
        check_set_connected(graph, &colour, set, paint)?;
    }
    Ok(analyze_colouring(graph, &colour, position.to_move))
}

/// The position after `moves` from the start (black at `black`, white at
/// `white`): moves alternate black, white, black, … and each must paint an
/// uncoloured vertex next to a vertex of the mover's colour. The sets in the
/// result list the start vertex first, then the moves in order.
///
/// Time `O(n + Σ degree of the painted vertices)`, so `O(n)` overall.
pub fn position_after_moves(
    graph: &Graph,
    black: Vertex,
    white: Vertex,
    moves: &[Vertex],
) -> Result<TreePaintPosition, TreePaintError> {
    check_tree(graph)?;
    let n = graph.vertex_count();
    let black = check_vertex("black", u64::from(black), n)?;
    let white = check_vertex("white", u64::from(white), n)?;
    if black == white {
        return Err(TreePaintError::SameVertex { vertex: black });
    }
    let mut colour = vec![UNCOLOURED; n];
    colour[black as usize] = BLACK;
    colour[white as usize] = WHITE;
    let mut position = TreePaintPosition {
        black: vec![black],
        white: vec![white],
        to_move: Player::First,
    };
    for (index, &vertex) in moves.iter().enumerate() {
        let paint = Colour::of(position.to_move);
        let illegal = |reason| TreePaintError::IllegalMove {
            index,
            colour: paint,
            vertex,
            reason,
        };
        if vertex as usize >= n {
            return Err(illegal(IllegalMoveReason::OutOfRange {
                vertex,
                vertex_count: n as u64,
            }));
        }
        match colour[vertex as usize] {
            UNCOLOURED => {}
            code => {
                return Err(illegal(IllegalMoveReason::AlreadyPainted {
                    vertex,
                    colour: if code == BLACK {
                        Colour::Black
                    } else {
                        Colour::White
                    },
                }));
            }
        }
        let code = paint_code(paint);
        if !graph
            .neighbors(vertex)
            .iter()
            .any(|&w| colour[w as usize] == code)
        {
            return Err(illegal(IllegalMoveReason::NotAdjacent {
                vertex,
                colour: paint,
            }));
        }
        colour[vertex as usize] = code;
        match paint {
            Colour::Black => position.black.push(vertex),
            Colour::White => position.white.push(vertex),
        }
        position.to_move = position.to_move.other();
    }
    Ok(position)
}

const UNCOLOURED: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

fn paint_code(colour: Colour) -> u8 {
    match colour {
        Colour::Black => BLACK,
        Colour::White => WHITE,
    }
}

/// A tree: at least 2 vertices, `n − 1` edges, connected (which with `n − 1`
/// edges rules out cycles). Linear time; the errors name a cycle or an
/// unreachable vertex.
pub fn check_tree(graph: &Graph) -> Result<(), NotATree> {
    let n = graph.vertex_count();
    if n < 2 {
        return Err(NotATree::TooFewVertices {
            vertex_count: n as u64,
        });
    }
    if graph.edge_count() != n - 1 {
        return Err(NotATree::WrongEdgeCount {
            vertex_count: n as u64,
            edge_count: graph.edge_count() as u64,
            cycle: find_cycle(graph),
        });
    }
    let mut seen = vec![false; n];
    seen[0] = true;
    let mut stack = vec![0 as Vertex];
    while let Some(u) = stack.pop() {
        for &w in graph.neighbors(u) {
            if !seen[w as usize] {
                seen[w as usize] = true;
                stack.push(w);
            }
        }
    }
    match seen.iter().position(|&reached| !reached) {
        None => Ok(()),
        Some(unreached) => Err(NotATree::NotConnected {
            unreached: unreached as Vertex,
            cycle: find_cycle(graph).expect("n − 1 edges and disconnected means a cycle"),
        }),
    }
}

/// Some cycle of `graph`, as vertices in order, if it has one. Iterative
/// depth-first search: the first edge to an already visited vertex other than
/// the parent closes a cycle through the tree path back to it (in an
/// undirected DFS that vertex is an ancestor, still on the stack).
fn find_cycle(graph: &Graph) -> Option<Vec<Vertex>> {
    let n = graph.vertex_count();
    let mut parent = vec![Vertex::MAX; n];
    let mut visited = vec![false; n];
    for root in 0..n as Vertex {
        if visited[root as usize] {
            continue;
        }
        visited[root as usize] = true;
        // (vertex, index of the next neighbour to look at)
        let mut stack = vec![(root, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (u, next) = *top;
            let neighbours = graph.neighbors(u);
            if next == neighbours.len() {
                stack.pop();
                continue;
            }
            top.1 += 1;
            let w = neighbours[next];
            if w == parent[u as usize] {
                continue;
            }
            if visited[w as usize] {
                let mut cycle = vec![u];
                let mut v = u;
                while v != w {
                    v = parent[v as usize];
                    cycle.push(v);
                }
                return Some(cycle);
            }
            visited[w as usize] = true;
            parent[w as usize] = u;
            stack.push((w, 0));
        }
    }
    None
}

/// Checks that `set` (already painted `paint` in `colour`) is connected in
/// the tree, by a search that stays inside the set.
fn check_set_connected(
    graph: &Graph,
    colour: &[u8],
    set: &[Vertex],
    paint: Colour,
) -> Result<(), TreePaintError> {
    let code = paint_code(paint);
    let first = set[0];
    let mut reached = std::collections::HashSet::with_capacity(set.len());
    reached.insert(first);
    let mut stack = vec![first];
    while let Some(u) = stack.pop() {
        for &w in graph.neighbors(u) {
            if colour[w as usize] == code && reached.insert(w) {
                stack.push(w);
            }
        }
    }
    match set.iter().find(|v| !reached.contains(v)) {
        None => Ok(()),
        Some(&cut_off) => Err(TreePaintError::SetNotConnected {
            colour: paint,
            first,
            cut_off,
        }),
    }
}

/// Distances from every vertex of colour `code`, through uncoloured vertices
/// only (`u32::MAX` where there is no such path; coloured vertices get 0 for
/// their own colour and `MAX` for the other).
fn distances_from(graph: &Graph, colour: &[u8], code: u8) -> Vec<u32> {
    let n = graph.vertex_count();
    let mut distance = vec![u32::MAX; n];
    let mut queue: Vec<Vertex> = (0..n as Vertex)
        .filter(|&v| colour[v as usize] == code)
        .collect();
    for &v in &queue {
        distance[v as usize] = 0;
    }
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head];
        head += 1;
        for &w in graph.neighbors(u) {
            if colour[w as usize] == UNCOLOURED && distance[w as usize] == u32::MAX {
                distance[w as usize] = distance[u as usize] + 1;
                queue.push(w);
            }
        }
    }
    distance
}

/// The rule on a validated colouring (both sets non-empty and connected).
fn analyze_colouring(graph: &Graph, colour: &[u8], to_move: Player) -> PositionVerdict {
    let black_distance = distances_from(graph, colour, BLACK);
    let white_distance = distances_from(graph, colour, WHITE);
    let (mover_code, mover_distance, other_distance) = match to_move {
        Player::First => (BLACK, &black_distance, &white_distance),
        Player::Second => (WHITE, &white_distance, &black_distance),
    };
    // Split the uncoloured vertices: every one is reachable from at least one
    // set, because the tree is connected and both sets are non-empty.
    let (mut own, mut tied, mut theirs) = (0u64, 0u64, 0u64);
    for v in 0..colour.len() {
        if colour[v] != UNCOLOURED {
            continue;
        }
        match mover_distance[v].cmp(&other_distance[v]) {
            std::cmp::Ordering::Less => own += 1,
            std::cmp::Ordering::Equal => tied += 1,
            std::cmp::Ordering::Greater => theirs += 1,
        }
    }
    let mover_future = own + tied;
    let mover_wins = mover_future > theirs;

    // The legal moves: uncoloured neighbours of the mover's set. The path
    // move is the one that can still reach the other set.
    let mut legal = Vec::new();
    for u in 0..colour.len() as Vertex {
        if colour[u as usize] == mover_code {
            legal.extend(
                graph
                    .neighbors(u)
                    .iter()
                    .copied()
                    .filter(|&w| colour[w as usize] == UNCOLOURED),
            );
        }
    }
    // In a tree an uncoloured vertex has at most one neighbour in a connected
    // set, so `legal` has no repeats.
    let path_move = legal
        .iter()
        .copied()
        .find(|&v| other_distance[v as usize] != u32::MAX);
    let other_moves_win = own > theirs + tied;
    let mut moves: Vec<Vertex> = if !mover_wins {
        Vec::new()
    } else if other_moves_win {
        legal
    } else {
        path_move.into_iter().collect()
    };
    moves.sort_unstable();

    let winner = if mover_wins { to_move } else { to_move.other() };
    let (black_future, white_future) = match to_move {
        Player::First => (mover_future, theirs),
        Player::Second => (theirs, mover_future),
    };
    let count = |code| colour.iter().filter(|&&c| c == code).count() as u64;
    PositionVerdict {
        to_move,
        winner,
        black_future,
        white_future,
        black_count: count(BLACK) + black_future,
        white_count: count(WHITE) + white_future,
        winning_moves: WinningMoves {
            unique: moves.len() == 1,
            moves,
        },
    }
}

#[cfg(test)]
mod tests {
    //! Everything is checked against [`PaintSearch`], a memoised game-tree
    //! search over full colourings that knows nothing of distances or paths.

    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;

    fn tree(n: u64, edges: &[(Vertex, Vertex)]) -> Graph {
        Graph::from_pairs(n, edges).unwrap()
    }

    /// Game-tree search on one tree of at most 16 vertices. A state packs the
    /// colour of vertex `v` into bits `2v..2v + 2` (0 none, 1 black, 2 white).
    struct PaintSearch<'a> {
        tree: &'a Graph,
        memo: HashMap<(u32, Player), bool>,
    }

    impl<'a> PaintSearch<'a> {
        fn new(tree: &'a Graph) -> Self {
            assert!(tree.vertex_count() <= 16);
            PaintSearch {
                tree,
                memo: HashMap::new(),
            }
        }

        fn state_of(black: &[Vertex], white: &[Vertex]) -> u32 {
            let mut state = 0;
            for &v in black {
                state |= 1 << (2 * v);
            }
            for &v in white {
                state |= 2 << (2 * v);
            }
            state
        }

        fn colour(state: u32, v: Vertex) -> u32 {
            state >> (2 * v) & 3
        }

        fn moves(&self, state: u32, to_move: Player) -> Vec<Vertex> {
            let own = if to_move == Player::First { 1 } else { 2 };
            (0..self.tree.vertex_count() as Vertex)
                .filter(|&v| {
                    Self::colour(state, v) == 0
                        && self
                            .tree
                            .neighbors(v)
                            .iter()
                            .any(|&w| Self::colour(state, w) == own)
                })
                .collect()
        }

        fn play(state: u32, v: Vertex, to_move: Player) -> u32 {
            let own = if to_move == Player::First { 1 } else { 2 };
            state | own << (2 * v)
        }

        fn mover_wins_from(&mut self, state: u32, to_move: Player) -> bool {
            if let Some(&known) = self.memo.get(&(state, to_move)) {
                return known;
            }
            let wins = self
                .moves(state, to_move)
                .into_iter()
                .any(|v| !self.mover_wins_from(Self::play(state, v, to_move), to_move.other()));
            self.memo.insert((state, to_move), wins);
            wins
        }

        fn winning_moves(&mut self, state: u32, to_move: Player) -> Vec<Vertex> {
            let moves = self.moves(state, to_move);
            moves
                .into_iter()
                .filter(|&v| !self.mover_wins_from(Self::play(state, v, to_move), to_move.other()))
                .collect()
        }
    }

    /// Checks a position verdict against the search: winner and the exact
    /// set of winning moves (which also makes every returned move legal and
    /// winning).
    fn check_position(search: &mut PaintSearch, position: &TreePaintPosition) {
        let verdict = analyze_position(search.tree, position).unwrap();
        let state = PaintSearch::state_of(&position.black, &position.white);
        let wins = search.mover_wins_from(state, position.to_move);
        let expected_winner = if wins {
            position.to_move
        } else {
            position.to_move.other()
        };
        assert_eq!(
            verdict.winner, expected_winner,
            "{position:?} on {:?}",
            search.tree
        );
        let expected_moves = search.winning_moves(state, position.to_move);
        assert_eq!(
            verdict.winning_moves.moves, expected_moves,
            "{position:?} on {:?}",
            search.tree
        );
        assert_eq!(verdict.winning_moves.unique, expected_moves.len() == 1);
        assert_eq!(verdict.to_move, position.to_move);
        assert_eq!(
            verdict.black_count + verdict.white_count,
            search.tree.vertex_count() as u64
        );
    }

    /// Checks `solve` from a start against the search and against the
    /// distance split of GAMES.md §3 (computed here by plain BFS).
    fn check_start(search: &mut PaintSearch, black: Vertex, white: Vertex) {
        let g = search.tree;
        let solution = solve(g, black, white).unwrap();
        let state = PaintSearch::state_of(&[black], &[white]);
        let first_wins = search.mover_wins_from(state, Player::First);
        assert_eq!(
            solution.winner == Player::First,
            first_wins,
            "{black} vs {white} on {g:?}"
        );
        let expected_moves = search.winning_moves(state, Player::First);
        assert_eq!(solution.winning_moves.moves, expected_moves);
        assert_eq!(solution.winning_moves.unique, expected_moves.len() == 1);
        match solution.winning_move {
            Some(v) => assert!(expected_moves.contains(&v)),
            None => assert!(!first_wins),
        }
        let (from_black, from_white) = (bfs(g, black), bfs(g, white));
        let black_count = (0..g.vertex_count())
            .filter(|&v| from_black[v] <= from_white[v])
            .count() as u64;
        assert_eq!(solution.black_count, black_count);
        assert_eq!(solution.white_count, g.vertex_count() as u64 - black_count);
        assert_eq!(first_wins, black_count > solution.white_count);
        // The start as a position goes through the general (BFS) analysis:
        // both paths must agree.
        let start = TreePaintPosition {
            black: vec![black],
            white: vec![white],
            to_move: Player::First,
        };
        let verdict = analyze_position(g, &start).unwrap();
        assert_eq!(verdict.winner, solution.winner);
        assert_eq!(verdict.winning_moves, solution.winning_moves);
        assert_eq!(
            (verdict.black_count, verdict.white_count),
            (solution.black_count, solution.white_count)
        );
        if let Some(v) = solution.winning_move {
            // The documented choice: the first step towards white, unless
            // white is adjacent.
            let path_move = g
                .neighbors(black)
                .iter()
                .copied()
                .find(|&u| from_white[u as usize] < from_white[black as usize]);
            if path_move != Some(white) {
                assert_eq!(Some(v), path_move);
            }
        }
    }

    fn bfs(g: &Graph, source: Vertex) -> Vec<usize> {
        let mut distance = vec![usize::MAX; g.vertex_count()];
        distance[source as usize] = 0;
        let mut queue = std::collections::VecDeque::from([source]);
        while let Some(u) = queue.pop_front() {
            for &w in g.neighbors(u) {
                if distance[w as usize] == usize::MAX {
                    distance[w as usize] = distance[u as usize] + 1;
                    queue.push_back(w);
                }
            }
        }
        distance
    }

    /// Every rooted tree shape with up to `max` vertices, once each, as
    /// parent arrays (`parent[0]` unused, `parent[v] < v`). Every free tree
    /// shape appears among them (rooted at each of its vertex orbits).
    fn rooted_shapes(max: usize) -> Vec<Vec<Vec<usize>>> {
        // by_size[k]: the rooted shapes with k vertices.
        let mut by_size: Vec<Vec<Vec<usize>>> = vec![vec![], vec![vec![0]]];
        for k in 2..=max {
            let mut shapes = Vec::new();
            // A root with a multiset of child shapes, listed by non-increasing
            // (size, index) so each multiset is produced once.
            let mut stack: Vec<(Vec<(usize, usize)>, usize)> = vec![(vec![], k - 1)];
            while let Some((children, remaining)) = stack.pop() {
                if remaining == 0 {
                    let mut parent = vec![0];
                    for &(size, index) in &children {
                        let offset = parent.len();
                        let child = &by_size[size][index];
                        parent.push(0);
                        parent.extend(child[1..].iter().map(|&p| p + offset));
                    }
                    shapes.push(parent);
                    continue;
                }
                let limit = children.last().copied().unwrap_or((usize::MAX, usize::MAX));
                for (size, shapes_of_size) in by_size.iter().enumerate().take(remaining + 1).skip(1)
                {
                    for index in 0..shapes_of_size.len() {
                        if (size, index) <= limit {
                            let mut more = children.clone();
                            more.push((size, index));
                            stack.push((more, remaining - size));
                        }
                    }
                }
            }
            by_size.push(shapes);
        }
        by_size
    }

    fn tree_of_parents(parent: &[usize]) -> Graph {
        let edges: Vec<(Vertex, Vertex)> = (1..parent.len())
            .map(|v| (parent[v] as Vertex, v as Vertex))
            .collect();
        tree(parent.len() as u64, &edges)
    }

    /// All colourings of `g` with a non-empty connected black set and a
    /// non-empty connected white set.
    fn all_positions(g: &Graph) -> Vec<(Vec<Vertex>, Vec<Vertex>)> {
        let n = g.vertex_count() as u32;
        let connected = |set: &[Vertex]| {
            let mut reached = vec![set[0]];
            let mut i = 0;
            while i < reached.len() {
                for &w in g.neighbors(reached[i]) {
                    if set.contains(&w) && !reached.contains(&w) {
                        reached.push(w);
                    }
                }
                i += 1;
            }
            reached.len() == set.len()
        };
        let mut positions = Vec::new();
        for code in 0..3u32.pow(n) {
            let (mut black, mut white) = (Vec::new(), Vec::new());
            let mut rest = code;
            for v in 0..n {
                match rest % 3 {
                    1 => black.push(v),
                    2 => white.push(v),
                    _ => {}
                }
                rest /= 3;
            }
            if !black.is_empty() && !white.is_empty() && connected(&black) && connected(&white) {
                positions.push((black, white));
            }
        }
        positions
    }

    #[test]
    fn abc067_d_samples() {
        // Sample 1: 7 vertices, edges 3-6 1-2 3-1 7-4 5-7 1-4 → Fennec (first).
        let one_based = [(3, 6), (1, 2), (3, 1), (7, 4), (5, 7), (1, 4)];
        let edges: Vec<_> = one_based.iter().map(|&(a, b)| (a - 1, b - 1)).collect();
        let g = tree(7, &edges);
        let (black, white) = default_endpoints(&g);
        assert_eq!((black, white), (0, 6));
        let solution = solve(&g, black, white).unwrap();
        assert_eq!(solution.winner, Player::First);
        // Black reaches 1, 2, 3, 6 (and 4, at distance 1 from each end).
        assert_eq!((solution.black_count, solution.white_count), (5, 2));
        // Sample 2: 4 vertices, edges 1-4 4-2 2-3 → Snuke (second).
        let g = tree(4, &[(0, 3), (3, 1), (1, 2)]);
        let solution = solve(&g, 0, 3).unwrap();
        assert_eq!(solution.winner, Player::Second);
        assert_eq!(solution.winning_move, None);
        assert!(solution.winning_moves.moves.is_empty());
    }

    #[test]
    fn seed_004_example_first_move() {
        // The seed's example (same tree as sample 1) says black wins by
        // painting vertex 2 (1-based) first; that vertex is 1 here, and
        // it is a winning move among others.
        let g = tree(7, &[(2, 5), (0, 1), (2, 0), (6, 3), (4, 6), (0, 3)]);
        let solution = solve(&g, 0, 6).unwrap();
        assert!(solution.winning_moves.moves.contains(&1));
        assert!(!solution.winning_moves.unique);
    }

    #[test]
    fn every_position_on_every_tree_shape_up_to_8_vertices() {
        let shapes = rooted_shapes(8);
        for parents in shapes.iter().skip(2).flatten() {
            let g = tree_of_parents(parents);
            let n = g.vertex_count();
            let mut search = PaintSearch::new(&g);
            let positions = all_positions(&g);
            // The enumeration is complete where it can be counted by hand:
            // every start (one black, one white vertex) is there, once.
            let starts = positions
                .iter()
                .filter(|(black, white)| black.len() == 1 && white.len() == 1)
                .count();
            assert_eq!(starts, n * (n - 1), "starts on {g:?}");
            // A path has n(n+1)/2 connected sets (its intervals); two
            // disjoint ones form a position.
            if (0..n as Vertex).all(|v| g.neighbors(v).len() <= 2) {
                let intervals: Vec<(usize, usize)> =
                    (0..n).flat_map(|a| (a..n).map(move |b| (a, b))).collect();
                let disjoint = intervals
                    .iter()
                    .flat_map(|x| intervals.iter().map(move |y| (x, y)))
                    .filter(|(x, y)| x.1 < y.0 || y.1 < x.0)
                    .count();
                assert_eq!(positions.len(), disjoint, "positions on the path {g:?}");
            }
            for (black, white) in positions {
                for to_move in [Player::First, Player::Second] {
                    let position = TreePaintPosition {
                        black: black.clone(),
                        white: white.clone(),
                        to_move,
                    };
                    check_position(&mut search, &position);
                }
            }
        }
    }

    #[test]
    fn every_start_on_every_tree_shape_up_to_10_vertices() {
        let shapes = rooted_shapes(10);
        // The rooted shape counts (OEIS A000081): the generator missed none.
        let counts: Vec<usize> = shapes.iter().map(Vec::len).collect();
        assert_eq!(counts, [0, 1, 1, 2, 4, 9, 20, 48, 115, 286, 719]);
        for parents in shapes.iter().skip(2).flatten() {
            let g = tree_of_parents(parents);
            let mut search = PaintSearch::new(&g);
            let n = g.vertex_count() as Vertex;
            for black in 0..n {
                for white in (0..n).filter(|&w| w != black) {
                    check_start(&mut search, black, white);
                }
            }
        }
    }

    /// Every start up to symmetry: a start (black b, white w) on a tree is
    /// the rooted tree (tree, b) with w marked, and every rooted tree is
    /// isomorphic to one of `rooted_shapes` with its root as vertex 0. So
    /// black on the root against every other vertex covers every start of
    /// every tree with 11 or 12 vertices.
    #[test]
    fn every_start_up_to_symmetry_on_every_tree_of_11_and_12_vertices() {
        let shapes = rooted_shapes(12);
        // OEIS A000081 again, for the larger sizes.
        let counts: Vec<usize> = shapes[11..].iter().map(Vec::len).collect();
        assert_eq!(counts, [1842, 4766]);
        let mut starts = 0;
        for parents in shapes[11..].iter().flatten() {
            let g = tree_of_parents(parents);
            let mut search = PaintSearch::new(&g);
            let n = g.vertex_count() as Vertex;
            for white in 1..n {
                check_start(&mut search, 0, white);
                starts += 1;
            }
        }
        assert_eq!(starts, 1842 * 10 + 4766 * 11);
    }

    /// A uniformly random labelled tree with `2..=max` vertices, from a
    /// Prüfer sequence.
    fn random_tree(max: usize) -> impl Strategy<Value = Graph> {
        (2..=max)
            .prop_flat_map(|n| proptest::collection::vec(0..n as Vertex, n - 2))
            .prop_map(|prufer| {
                let n = prufer.len() + 2;
                let mut degree = vec![1usize; n];
                for &v in &prufer {
                    degree[v as usize] += 1;
                }
                let mut edges = Vec::new();
                for &v in &prufer {
                    let leaf = (0..n).find(|&u| degree[u] == 1).unwrap();
                    edges.push((leaf as Vertex, v));
                    degree[leaf] -= 1;
                    degree[v as usize] -= 1;
                }
                let last: Vec<usize> = (0..n).filter(|&u| degree[u] == 1).collect();
                edges.push((last[0] as Vertex, last[1] as Vertex));
                tree(n as u64, &edges)
            })
    }

    /// A random position: two distinct seeds grown by random adjacent
    /// uncoloured vertices, in any proportion (so many positions cannot come
    /// from alternating play), and a random side to move.
    fn random_position(max: usize) -> impl Strategy<Value = (Graph, TreePaintPosition)> {
        (
            random_tree(max),
            any::<u64>(),
            any::<u64>(),
            proptest::collection::vec((any::<bool>(), any::<u64>()), 0..12),
            any::<bool>(),
        )
            .prop_map(|(g, b, w, growth, black_moves)| {
                let n = g.vertex_count() as u64;
                let black = (b % n) as Vertex;
                let white = ((black as u64 + 1 + w % (n - 1)) % n) as Vertex;
                let mut sets = [vec![black], vec![white]];
                for (grow_white, pick) in growth {
                    let set = usize::from(grow_white);
                    let coloured = |v: Vertex| sets.iter().any(|s| s.contains(&v));
                    let frontier: Vec<Vertex> = (0..n as Vertex)
                        .filter(|&v| {
                            !coloured(v) && g.neighbors(v).iter().any(|w| sets[set].contains(w))
                        })
                        .collect();
                    if !frontier.is_empty() {
                        sets[set].push(frontier[(pick % frontier.len() as u64) as usize]);
                    }
                }
                let [black, white] = sets;
                let to_move = if black_moves {
                    Player::First
                } else {
                    Player::Second
                };
                (
                    g,
                    TreePaintPosition {
                        black,
                        white,
                        to_move,
                    },
                )
            })
    }

    use crate::solver::test_support::proptest_config as config;

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn random_starts_match_search(g in random_tree(12), b in any::<u64>(), w in any::<u64>()) {
            let n = g.vertex_count() as u64;
            let black = (b % n) as Vertex;
            let white = ((u64::from(black) + 1 + w % (n - 1)) % n) as Vertex;
            check_start(&mut PaintSearch::new(&g), black, white);
        }

        #[test]
        fn random_positions_match_search((g, position) in random_position(12)) {
            check_position(&mut PaintSearch::new(&g), &position);
        }

        #[test]
        fn legal_move_lists_replay_and_match_search(
            g in random_tree(12),
            b in any::<u64>(),
            w in any::<u64>(),
            picks in proptest::collection::vec(any::<u64>(), 0..12),
        ) {
            let n = g.vertex_count() as u64;
            let black = (b % n) as Vertex;
            let white = ((u64::from(black) + 1 + w % (n - 1)) % n) as Vertex;
            let mut search = PaintSearch::new(&g);
            // Play random legal moves (as the search sees them) until the
            // picks or the moves run out.
            let mut moves = Vec::new();
            let mut state = PaintSearch::state_of(&[black], &[white]);
            let mut to_move = Player::First;
            for pick in picks {
                let legal = search.moves(state, to_move);
                if legal.is_empty() {
                    break;
                }
                let v = legal[(pick % legal.len() as u64) as usize];
                moves.push(v);
                state = PaintSearch::play(state, v, to_move);
                to_move = to_move.other();
            }
            let position = position_after_moves(&g, black, white, &moves).unwrap();
            prop_assert_eq!(position.to_move, to_move);
            prop_assert_eq!(PaintSearch::state_of(&position.black, &position.white), state);
            check_position(&mut search, &position);
        }
    }

    #[test]
    fn not_a_tree_errors_say_which() {
        let err = |g: &Graph| solve(g, 0, 1).unwrap_err();
        assert_eq!(
            err(&tree(1, &[])).to_string(),
            "tree paint needs a tree with at least 2 vertices, the graph has 1"
        );
        // 8 vertices, 9 edges.
        let mut edges: Vec<(Vertex, Vertex)> = (1..8).map(|v| (v - 1, v)).collect();
        edges.extend([(0, 2), (3, 5)]);
        let too_many = tree(8, &edges);
        let message = err(&too_many).to_string();
        assert!(
            message.starts_with(
                "tree paint needs a tree: 8 vertices but 9 edges (a tree on 8 vertices has 7); vertices "
            ),
            "{message}"
        );
        let TreePaintError::NotATree(NotATree::WrongEdgeCount {
            cycle: Some(cycle), ..
        }) = err(&too_many)
        else {
            panic!("expected a cycle in {too_many:?}");
        };
        assert_is_cycle(&too_many, &cycle);
        // Too few edges: 8 vertices, 6 edges, no cycle to name.
        assert_eq!(
            err(&tree(8, &edges[..6])).to_string(),
            "tree paint needs a tree: 8 vertices but 6 edges (a tree on 8 vertices has 7)"
        );
        // Right count, but a triangle 0-1-2 and vertex 5 cut off.
        let g = tree(6, &[(0, 1), (1, 2), (2, 0), (3, 4), (3, 5)]);
        let TreePaintError::NotATree(NotATree::NotConnected { unreached, cycle }) = err(&g) else {
            panic!("expected NotConnected for {g:?}");
        };
        assert_eq!(unreached, 3);
        assert_is_cycle(&g, &cycle);
        assert_eq!(
            err(&g).to_string(),
            "tree paint needs a tree, and this graph is not connected: vertex 3 cannot be reached from vertex 0 (and vertices 2-1-0 form a cycle)"
        );
        // The cycle may lie in the part that vertex 0 does not reach.
        let g = tree(5, &[(0, 1), (2, 3), (3, 4), (4, 2)]);
        assert_eq!(
            err(&g),
            TreePaintError::NotATree(NotATree::NotConnected {
                unreached: 2,
                cycle: vec![4, 3, 2]
            })
        );
    }

    fn assert_is_cycle(g: &Graph, cycle: &[Vertex]) {
        assert!(cycle.len() >= 3, "{cycle:?}");
        let mut distinct = cycle.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), cycle.len(), "{cycle:?} repeats a vertex");
        for (i, &u) in cycle.iter().enumerate() {
            let v = cycle[(i + 1) % cycle.len()];
            assert!(g.has_edge(u, v), "{u}-{v} of {cycle:?} is not an edge");
        }
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn graphs_that_are_not_trees_name_the_reason_and_a_real_cycle(
            (n, pairs, extra) in (4usize..=12).prop_flat_map(|n| {
                let pairs: Vec<(Vertex, Vertex)> = (0..n as Vertex)
                    .flat_map(|u| (u + 1..n as Vertex).map(move |v| (u, v)))
                    .collect();
                (Just(n), Just(pairs).prop_shuffle(), 0usize..=3)
            }),
        ) {
            // n − 2 to n + 1 distinct random edges.
            let edge_count = n - 2 + extra;
            let g = tree(n as u64, &pairs[..edge_count]);
            let connected = bfs(&g, 0).iter().all(|&d| d != usize::MAX);
            match solve(&g, 0, 1) {
                Ok(_) => prop_assert!(edge_count == n - 1 && connected),
                Err(TreePaintError::NotATree(NotATree::NotConnected { unreached, cycle })) => {
                    prop_assert_eq!(edge_count, n - 1);
                    prop_assert_eq!(bfs(&g, 0)[unreached as usize], usize::MAX);
                    assert_is_cycle(&g, &cycle);
                }
                Err(TreePaintError::NotATree(NotATree::WrongEdgeCount { edge_count: reported, cycle, .. })) => {
                    prop_assert_eq!(reported as usize, edge_count);
                    prop_assert!(edge_count != n - 1);
                    // With n or more edges there must be a cycle; with fewer
                    // than n − 1 there may be one, and it must be real.
                    match cycle {
                        Some(cycle) => assert_is_cycle(&g, &cycle),
                        None => prop_assert!(edge_count < n - 1),
                    }
                }
                Err(other) => prop_assert!(false, "unexpected {other}"),
            }
        }
    }

    #[test]
    fn start_vertex_errors_name_the_field() {
        let g = tree(3, &[(0, 1), (1, 2)]);
        assert_eq!(
            solve(&g, 0, 3).unwrap_err().to_string(),
            "white: vertex 3 out of range 0..3"
        );
        assert_eq!(
            solve(&g, 9, 1).unwrap_err().to_string(),
            "black: vertex 9 out of range 0..3"
        );
        assert_eq!(
            solve(&g, 2, 2).unwrap_err(),
            TreePaintError::SameVertex { vertex: 2 }
        );
    }

    #[test]
    fn position_errors_name_the_entry() {
        // The path 0-1-2-3-4.
        let g = tree(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
        let at = |black: Vec<Vertex>, white: Vec<Vertex>| {
            analyze_position(
                &g,
                &TreePaintPosition {
                    black,
                    white,
                    to_move: Player::First,
                },
            )
            .unwrap_err()
            .to_string()
        };
        assert_eq!(at(vec![], vec![4]), "the black set is empty");
        assert_eq!(
            at(vec![0, 7], vec![4]),
            "black[1]: vertex 7 out of range 0..5"
        );
        assert_eq!(
            at(vec![0, 1, 0], vec![4]),
            "black[2]: vertex 0 is listed twice"
        );
        assert_eq!(
            at(vec![0, 1], vec![4, 1]),
            "white[1]: vertex 1 is also black"
        );
        assert_eq!(
            at(vec![0, 2], vec![4]),
            "the black set is not connected: vertex 2 cannot be reached from vertex 0 within it"
        );
    }

    #[test]
    fn illegal_moves_name_the_move_and_why() {
        // The path 0-1-2-3-4, black at 0, white at 4.
        let g = tree(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
        let after = |moves: &[Vertex]| {
            position_after_moves(&g, 0, 4, moves)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            after(&[1, 3, 3]),
            "move 2 (black paints vertex 3) is illegal: vertex 3 is already white"
        );
        assert_eq!(
            after(&[1, 2]),
            "move 1 (white paints vertex 2) is illegal: vertex 2 has no white neighbour"
        );
        assert_eq!(
            after(&[5]),
            "move 0 (black paints vertex 5) is illegal: vertex 5 is out of range 0..5"
        );
        let position = position_after_moves(&g, 0, 4, &[1, 3]).unwrap();
        assert_eq!(
            position,
            TreePaintPosition {
                black: vec![0, 1],
                white: vec![4, 3],
                to_move: Player::First
            }
        );
        // Black takes 2 and wins: 3 against 2.
        let verdict = analyze_position(&g, &position).unwrap();
        assert_eq!(verdict.winner, Player::First);
        assert_eq!(
            verdict.winning_moves,
            WinningMoves {
                moves: vec![2],
                unique: true
            }
        );
    }

    #[test]
    fn a_million_vertex_path_needs_no_recursion() {
        let n: Vertex = 1_000_000;
        let edges: Vec<(Vertex, Vertex)> = (1..n).map(|v| (v - 1, v)).collect();
        let g = tree(u64::from(n), &edges);
        let solution = solve(&g, 0, n - 1).unwrap();
        // Even length: the halves are equal and the second player wins.
        assert_eq!(
            (solution.black_count, solution.white_count),
            (500_000, 500_000)
        );
        assert_eq!(solution.winner, Player::Second);
    }
}
