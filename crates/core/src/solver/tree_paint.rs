//! The tree painting game (docs/games.md, tree painting, AtCoder ABC067 D "Fennec VS. Snuke").
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
use crate::graph::{Graph, Vertex, VertexFieldError, check_vertex};

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
    /// Every legal move of the side to move (the uncoloured neighbours of its
    /// set), sorted; empty when the game is over.
    pub legal_moves: Vec<Vertex>,
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
    /// The move comes after the end of the game: the mover had no legal
    /// move left, so it had already lost.
    #[error("the game is over: no uncoloured vertex is next to a {colour} one")]
    GameOver { colour: Colour },
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
/// use puzzled_core::solver::Player;
/// use puzzled_core::graph::Graph;
/// use puzzled_core::solver::tree_paint::{default_endpoints, solve};
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
/// Each move is checked in order: the vertex is in range, the mover still
/// has a legal move (else the game is over), the vertex is uncoloured, it
/// is next to the mover's colour.
///
/// Time `O(n + Σ degree of the painted vertices)`, so `O(n)` overall.
pub fn position_after_moves(
    graph: &Graph,
    black: Vertex,
    white: Vertex,
    moves: &[Vertex],
) -> Result<TreePaintPosition, TreePaintError> {
    replay(graph, black, white, moves).map(|replayed| replayed.position)
}

/// [`position_after_moves`] followed by [`analyze_position`] on the result,
/// without checking again what the replay established (a tree, connected
/// disjoint sets). Time and memory `O(n)`.
pub fn analyze_after_moves(
    graph: &Graph,
    black: Vertex,
    white: Vertex,
    moves: &[Vertex],
) -> Result<(TreePaintPosition, PositionVerdict), TreePaintError> {
    let replayed = replay(graph, black, white, moves)?;
    let verdict = analyze_colouring(graph, &replayed.colour, replayed.position.to_move);
    Ok((replayed.position, verdict))
}

/// A replayed move list: the position and its colouring.
struct Replayed {
    position: TreePaintPosition,
    /// `UNCOLOURED`, `BLACK` or `WHITE` per vertex.
    colour: Vec<u8>,
}

fn replay(
    graph: &Graph,
    black: Vertex,
    white: Vertex,
    moves: &[Vertex],
) -> Result<Replayed, TreePaintError> {
    check_tree(graph)?;
    let n = graph.vertex_count();
    let black = check_vertex("black", u64::from(black), n)?;
    let white = check_vertex("white", u64::from(white), n)?;
    if black == white {
        return Err(TreePaintError::SameVertex { vertex: black });
    }
    let mut colour = vec![UNCOLOURED; n];
    let mut frontier = Frontier::new(n);
    for (vertex, code) in [(black, BLACK), (white, WHITE)] {
        colour[vertex as usize] = code;
        frontier.paint(graph, &colour, vertex, code);
    }
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
        let code = paint_code(paint);
        if frontier.legal_moves(code) == 0 {
            return Err(illegal(IllegalMoveReason::GameOver { colour: paint }));
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
        if !frontier.is_next_to(vertex, code) {
            return Err(illegal(IllegalMoveReason::NotAdjacent {
                vertex,
                colour: paint,
            }));
        }
        colour[vertex as usize] = code;
        frontier.paint(graph, &colour, vertex, code);
        match paint {
            Colour::Black => position.black.push(vertex),
            Colour::White => position.white.push(vertex),
        }
        position.to_move = position.to_move.other();
    }
    Ok(Replayed { position, colour })
}

/// The legal moves of both sides, kept up to date while a move list is
/// replayed, so that a move after the end of the game is found in `O(1)`.
///
/// Invariant: `neighbours_of[c][v]` is the number of neighbours of `v`
/// painted with colour code `c`, and `legal[c]` the number of uncoloured
/// vertices with at least one such neighbour: the legal moves of the
/// player painting `c`.
struct Frontier {
    /// Indexed by colour code; the `UNCOLOURED` row stays unused.
    neighbours_of: [Vec<u32>; 3],
    legal: [u64; 3],
}

impl Frontier {
    fn new(n: usize) -> Frontier {
        Frontier {
            neighbours_of: [vec![], vec![0; n], vec![0; n]],
            legal: [0; 3],
        }
    }

    fn legal_moves(&self, code: u8) -> u64 {
        self.legal[code as usize]
    }

    fn is_next_to(&self, vertex: Vertex, code: u8) -> bool {
        self.neighbours_of[code as usize][vertex as usize] > 0
    }

    /// Records that `vertex`, uncoloured until now, has been painted `code`
    /// (already stored in `colour`). Time `O(degree)`.
    fn paint(&mut self, graph: &Graph, colour: &[u8], vertex: Vertex, code: u8) {
        for either in [BLACK, WHITE] {
            if self.is_next_to(vertex, either) {
                self.legal[either as usize] -= 1;
            }
        }
        for &w in graph.neighbors(vertex) {
            let count = &mut self.neighbours_of[code as usize][w as usize];
            *count += 1;
            if *count == 1 && colour[w as usize] == UNCOLOURED {
                self.legal[code as usize] += 1;
            }
        }
    }
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
    legal.sort_unstable();
    let moves: Vec<Vertex> = if !mover_wins {
        Vec::new()
    } else if other_moves_win {
        legal.clone()
    } else {
        path_move.into_iter().collect()
    };

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
        legal_moves: legal,
    }
}

#[cfg(test)]
pub(crate) mod tests;
