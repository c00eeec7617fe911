//! The bipartite edge-adding game (docs/games.md, the edge-adding game, AtCoder ABC398 G).
//!
//! A position is a simple graph without odd cycles. A move adds one edge that
//! is not present and keeps the graph bipartite; a player who cannot move
//! loses. Every position is just such a graph, so analysing the position
//! after some added edges is the same call as analysing the start.
//!
//! The verdict depends only on a handful of counts (see [`BipartiteCounts`]
//! and [`BipartiteCounts::first_player_wins`]). Winning moves fall into a few
//! classes — an edge inside a component, or an edge joining two components
//! whose types and sides are given — and all moves of one class lead to
//! positions with the same counts up to parity, so the classes are evaluated
//! with the same O(1) rule and only then turned into concrete vertex pairs.

use serde::Serialize;

use super::Player;
use super::cancel::{Cancel, Cancelled, uncancelled};
use crate::graph::{Graph, Vertex};

/// The counts the verdict is computed from, all 64-bit (`x` alone reaches
/// about 10^10 for one component with parts of 10^5 each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BipartiteCounts {
    /// Vertices `N`.
    pub n: u64,
    /// Edges `M`.
    pub m: u64,
    /// `Σ a·b − M` over the components with parts `(a, b)`: the edges that
    /// can still be added without joining two components.
    pub x: u64,
    /// Components that are a single vertex.
    pub iso: u64,
    /// Components whose two parts both have odd size.
    pub oo: u64,
    /// Components with at least two vertices whose parts have different
    /// parities (so an odd number of vertices, at least three).
    pub eo: u64,
    /// Components with at least two vertices whose parts both have even size.
    pub ee: u64,
}

impl BipartiteCounts {
    /// The winning rule of docs/games.md, the edge-adding game (the player to move is "first"):
    /// - `N` odd: first wins iff `M` is odd;
    /// - `N` even, `eo ≥ 3`: first wins iff `oo + x` is odd;
    /// - `N` even, `eo ∈ {1, 2}`: first wins;
    /// - `N` even, `eo = 0`: first wins iff `x + ⌊iso / 2⌋` is odd.
    pub fn first_player_wins(&self) -> bool {
        first_player_wins(self.n, self.m, self.x % 2 == 1, self.iso, self.oo, self.eo)
    }
}

/// The rule itself, on the only information it uses: `x` enters through its
/// parity alone, which is what lets a whole class of moves be evaluated at
/// once.
fn first_player_wins(n: u64, m: u64, x_odd: bool, iso: u64, oo: u64, eo: u64) -> bool {
    if n % 2 == 1 {
        return m % 2 == 1;
    }
    match eo {
        0 => x_odd ^ ((iso / 2) % 2 == 1),
        1 | 2 => true,
        _ => x_odd ^ (oo % 2 == 1),
    }
}

/// Where a vertex sits: the type of its component and, for components with
/// parts of different parity, which part. A joining move is described by the
/// classes of its two endpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VertexClass {
    /// The only vertex of a single-vertex component.
    Isolated,
    /// A vertex of a component whose parts are both odd.
    OddOdd,
    /// A vertex in the odd part of a component whose parts differ in parity.
    OddPartOfOddEven,
    /// A vertex in the even part of a component whose parts differ in parity.
    EvenPartOfOddEven,
    /// A vertex of a component (two or more vertices) whose parts are both even.
    EvenEven,
}

impl VertexClass {
    const ALL: [VertexClass; 5] = [
        VertexClass::Isolated,
        VertexClass::OddOdd,
        VertexClass::OddPartOfOddEven,
        VertexClass::EvenPartOfOddEven,
        VertexClass::EvenEven,
    ];

    fn index(self) -> usize {
        self as usize
    }

    /// Parities of (the vertex's own part, the other part).
    fn part_parities(self) -> (bool, bool) {
        match self {
            VertexClass::Isolated | VertexClass::OddPartOfOddEven => (true, false),
            VertexClass::OddOdd => (true, true),
            VertexClass::EvenPartOfOddEven => (false, true),
            VertexClass::EvenEven => (false, false),
        }
    }

    /// The class of a vertex whose own part has `own` vertices and the other
    /// part `other` vertices.
    fn of_parts(own: u64, other: u64) -> VertexClass {
        match (own % 2 == 1, other % 2 == 1) {
            _ if own + other == 1 => VertexClass::Isolated,
            (true, true) => VertexClass::OddOdd,
            (true, false) => VertexClass::OddPartOfOddEven,
            (false, true) => VertexClass::EvenPartOfOddEven,
            (false, false) => VertexClass::EvenEven,
        }
    }
}

/// A class of moves that all lead to positions with the same verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveClass {
    /// An edge between the two parts of one component that is not yet present
    /// (there are exactly `x` of them).
    InsideComponent,
    /// An edge joining a vertex of class `.0` to a vertex of class `.1` in
    /// another component (`.0 ≤ .1`). Every such pair is a legal move.
    Join(VertexClass, VertexClass),
}

/// The winning moves of one [`MoveClass`]: how many there are and one of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WinningMoveClass {
    pub class: MoveClass,
    /// The number of distinct edges of this class (every one of them wins).
    pub edge_count: u64,
    /// One of these edges, as `(u, v)` with `u < v`.
    pub example: (Vertex, Vertex),
}

/// Every winning move, described by classes, because there can be
/// quadratically many (an empty graph on an even number of vertices with
/// `N/2` odd has `N(N−1)/2` winning first moves). The classes partition the
/// set of winning edges: an edge wins iff it falls in one of the listed
/// classes, and `edge_count` is the exact size of that set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WinningEdges {
    pub classes: Vec<WinningMoveClass>,
    /// The exact number of winning edges (at most `N(N−1)/2`, so it fits).
    pub edge_count: u64,
    /// Whether exactly one edge wins.
    pub unique: bool,
}

/// The verdict for a position and its evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BipartiteEdgeSolution {
    /// The player to move is [`Player::First`].
    pub winner: Player,
    pub counts: BipartiteCounts,
    /// When the player to move wins: an edge `(u, v)`, `u < v`, that keeps the
    /// graph bipartite and leaves a position the opponent loses.
    pub winning_move: Option<(Vertex, Vertex)>,
    /// All winning moves, by class (no classes when the player to move loses).
    pub winning_moves: WinningEdges,
}

/// Why a graph is not a position of this game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BipartiteEdgeError {
    /// The graph is not bipartite. `cycle` lists the vertices of one odd cycle
    /// in order (consecutive vertices are adjacent, and so are the last and
    /// the first).
    #[error("graph has an odd cycle through vertices {}", join_dashes(.cycle))]
    OddCycle { cycle: Vec<Vertex> },
}

fn join_dashes(cycle: &[Vertex]) -> String {
    cycle
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

/// Colour of a vertex not reached yet by the 2-colouring.
const UNSEEN: u8 = 2;

/// Solves the position `graph` with the player to move as "first".
///
/// Duplicate edges and self-loops are already excluded by [`Graph`]; an odd
/// cycle is reported with its vertices.
///
/// Time `O(N + M)` (one BFS 2-colouring, then O(1) work per move class and
/// one scan of one component to pick a concrete edge inside it); memory
/// about `6·N` bytes beyond the graph. No recursion, so deep graphs are fine.
///
/// A mid-game position is just the graph with the added edges; build it
/// with [`position_after_moves`], which also checks that each move was legal.
///
/// ```
/// use puzzled_core::solver::Player;
/// use puzzled_core::solver::bipartite_edge::{position_after_moves, solve};
/// use puzzled_core::graph::Graph;
///
/// // ABC398 G sample 1: the path 1-2-3-4 (here 0-1-2-3); the first player wins
/// // by closing the 4-cycle, the only winning move.
/// let path = Graph::from_pairs(4, &[(0, 1), (1, 2), (2, 3)]).unwrap();
/// let solution = solve(&path).unwrap();
/// assert_eq!(solution.winner, Player::First);
/// assert_eq!(solution.winning_move, Some((0, 3)));
/// assert!(solution.winning_moves.unique);
/// // After that move the opponent, now "first", has no move left.
/// let after = position_after_moves(&path, &[(0, 3)]).unwrap();
/// assert_eq!(solve(&after).unwrap().winner, Player::Second);
/// ```
pub fn solve(graph: &Graph) -> Result<BipartiteEdgeSolution, BipartiteEdgeError> {
    uncancelled(solve_with_cancel(graph, &Cancel::never()))
}

/// [`solve`] that stops with [`Cancelled`] soon after `cancel` fires (the
/// 2-colouring pass looks at it). The outer result says whether the solve
/// ran to the end, the inner one is its answer.
pub fn solve_with_cancel(
    graph: &Graph,
    cancel: &Cancel,
) -> Result<Result<BipartiteEdgeSolution, BipartiteEdgeError>, Cancelled> {
    let colouring = match two_colour(graph, cancel)? {
        Ok(colouring) => colouring,
        Err(invalid) => return Ok(Err(invalid)),
    };
    let counts = colouring.counts;
    let winner = if counts.first_player_wins() {
        Player::First
    } else {
        Player::Second
    };
    let winning_moves = if winner == Player::First {
        winning_edges(graph, &colouring)
    } else {
        WinningEdges {
            classes: Vec::new(),
            edge_count: 0,
            unique: false,
        }
    };
    let winning_move = winning_moves.classes.first().map(|class| class.example);
    Ok(Ok(BipartiteEdgeSolution {
        winner,
        counts,
        winning_move,
        winning_moves,
    }))
}

/// One class of legal moves: its size, one of its edges, and whether its
/// edges win (every edge of a class leads to the same verdict).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LegalMoveClass {
    pub class: MoveClass,
    /// The number of distinct edges of this class, all of them legal.
    pub edge_count: u64,
    /// One of these edges, as `(u, v)` with `u < v`.
    pub example: (Vertex, Vertex),
    /// Whether these edges leave the opponent lost.
    pub wins: bool,
}

/// A position analysed for play: the verdict of [`solve`] and every legal
/// move, by class.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BipartiteEdgePosition {
    pub solution: BipartiteEdgeSolution,
    /// Every non-empty class of legal moves; together they partition the
    /// legal moves. The winning classes are those of
    /// `solution.winning_moves`, in the same order.
    pub legal_classes: Vec<LegalMoveClass>,
    /// The exact number of legal moves (`x` plus the pairs of vertices in
    /// different components); 0 when the game is over.
    pub legal_edge_count: u64,
}

/// [`solve_with_cancel`] plus every class of legal moves, for analysing a
/// position during play. Same time bound, `O(N + M)`.
pub fn analyze_graph_with_cancel(
    graph: &Graph,
    cancel: &Cancel,
) -> Result<Result<BipartiteEdgePosition, BipartiteEdgeError>, Cancelled> {
    let colouring = match two_colour(graph, cancel)? {
        Ok(colouring) => colouring,
        Err(invalid) => return Ok(Err(invalid)),
    };
    let legal_classes = move_classes(graph, &colouring, false);
    let legal_edge_count = legal_classes.iter().map(|class| class.edge_count).sum();
    let winning: Vec<WinningMoveClass> = legal_classes
        .iter()
        .filter(|class| class.wins)
        .map(|class| WinningMoveClass {
            class: class.class,
            edge_count: class.edge_count,
            example: class.example,
        })
        .collect();
    let edge_count = winning.iter().map(|class| class.edge_count).sum();
    // The rule says the mover wins iff some move leaves the opponent lost;
    // the classes were evaluated with the same rule, so the two agree.
    let winner = if colouring.counts.first_player_wins() {
        Player::First
    } else {
        Player::Second
    };
    debug_assert_eq!(winner == Player::First, edge_count > 0);
    let solution = BipartiteEdgeSolution {
        winner,
        counts: colouring.counts,
        winning_move: winning.first().map(|class| class.example),
        winning_moves: WinningEdges {
            classes: winning,
            edge_count,
            unique: edge_count == 1,
        },
    };
    Ok(Ok(BipartiteEdgePosition {
        solution,
        legal_classes,
        legal_edge_count,
    }))
}

/// Why a move of a move list is illegal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalEdgeReason {
    #[error("vertex {vertex} is out of range 0..{vertex_count}")]
    OutOfRange { vertex: Vertex, vertex_count: u64 },
    #[error("an edge needs two different vertices")]
    SelfLoop,
    #[error("the edge is already in the graph")]
    AlreadyPresent,
    #[error("the edge would close an odd cycle")]
    MakesOddCycle,
    /// The move comes after the end of the game: the graph was already a
    /// connected complete bipartite graph, where no edge can be added.
    #[error("the game is over: the graph is connected and complete bipartite")]
    GameOver,
}

/// Why a move list cannot be replayed on a graph.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveListError {
    /// The starting graph itself is not a position.
    #[error(transparent)]
    Start(#[from] BipartiteEdgeError),
    #[error("move {index} (edge {u}-{v}) is illegal: {reason}")]
    IllegalMove {
        /// Position in the move list, from 0.
        index: usize,
        u: Vertex,
        v: Vertex,
        reason: IllegalEdgeReason,
    },
}

/// The position after adding the edges `moves` to `graph` in order, each
/// checked for legality in this order: both ends in range, the game is not
/// over, the ends are distinct, the edge is not there yet, it closes no odd
/// cycle. The player to move afterwards is the first player if the list has
/// even length.
///
/// Time `O((N + M + k) · α)` for `k` moves (union–find with parity), plus
/// building the new graph.
pub fn position_after_moves(
    graph: &Graph,
    moves: &[(Vertex, Vertex)],
) -> Result<Graph, MoveListError> {
    let n = graph.vertex_count();
    let mut parity = ParityForest::new(n);
    for (u, v) in graph.edges() {
        if !parity.join_opposite(u, v) {
            // Report the cycle the way `solve` does.
            let BipartiteEdgeError::OddCycle { cycle } =
                uncancelled(two_colour(graph, &Cancel::never()))
                    .err()
                    .expect("an edge inside a colour class means an odd cycle");
            return Err(BipartiteEdgeError::OddCycle { cycle }.into());
        }
    }
    let mut added = std::collections::HashSet::with_capacity(moves.len());
    for (index, &(u, v)) in moves.iter().enumerate() {
        let illegal = |reason| MoveListError::IllegalMove {
            index,
            u,
            v,
            reason,
        };
        for vertex in [u, v] {
            if vertex as usize >= n {
                return Err(illegal(IllegalEdgeReason::OutOfRange {
                    vertex,
                    vertex_count: n as u64,
                }));
            }
        }
        // Every earlier move added one edge.
        if parity.is_complete_and_connected(graph.edge_count() as u64 + index as u64) {
            return Err(illegal(IllegalEdgeReason::GameOver));
        }
        if u == v {
            return Err(illegal(IllegalEdgeReason::SelfLoop));
        }
        let key = (u.min(v), u.max(v));
        if graph.has_edge(u, v) || added.contains(&key) {
            return Err(illegal(IllegalEdgeReason::AlreadyPresent));
        }
        if !parity.join_opposite(u, v) {
            return Err(illegal(IllegalEdgeReason::MakesOddCycle));
        }
        added.insert(key);
    }
    let edges: Vec<(Vertex, Vertex)> = graph.edges().chain(moves.iter().copied()).collect();
    Ok(Graph::from_pairs(n as u64, &edges).expect("every added edge was checked"))
}

/// Union–find that also records, for each vertex, the parity of its path to
/// the root: two vertices of one set have opposite colours iff the parities
/// differ. Iterative with path halving, union by size.
struct ParityForest {
    parent: Vec<Vertex>,
    /// Parity of the edge from a vertex to its parent (1 = opposite colours).
    parity_to_parent: Vec<u8>,
    size: Vec<u32>,
    /// For a root: how many vertices of its set have parity 0 and 1 to it
    /// (the sizes of the set's two colour classes).
    part_sizes: Vec<[u64; 2]>,
    /// The number of sets.
    components: usize,
}

impl ParityForest {
    fn new(n: usize) -> Self {
        ParityForest {
            parent: (0..n as Vertex).collect(),
            parity_to_parent: vec![0; n],
            size: vec![1; n],
            part_sizes: vec![[1, 0]; n],
            components: n,
        }
    }

    /// Whether a graph with `edge_count` edges, all of them joined here, is
    /// connected and complete bipartite, so that no edge can be added: one
    /// set (or none) whose colour classes `a`, `b` already have all `a·b`
    /// edges between them.
    fn is_complete_and_connected(&mut self, edge_count: u64) -> bool {
        if self.components > 1 {
            return false;
        }
        if self.parent.is_empty() {
            return true;
        }
        let (root, _) = self.find(0);
        let [a, b] = self.part_sizes[root as usize];
        a * b == edge_count
    }

    /// The root of `v` and the colour parity between `v` and that root.
    fn find(&mut self, mut v: Vertex) -> (Vertex, u8) {
        // First pass: find the root and the parity; second pass: point every
        // vertex on the way straight at the root with its own parity.
        let mut root = v;
        let mut total = 0u8;
        while self.parent[root as usize] != root {
            total ^= self.parity_to_parent[root as usize];
            root = self.parent[root as usize];
        }
        let mut remaining = total;
        while self.parent[v as usize] != v {
            let next = self.parent[v as usize];
            let step = self.parity_to_parent[v as usize];
            self.parent[v as usize] = root;
            self.parity_to_parent[v as usize] = remaining;
            remaining ^= step;
            v = next;
        }
        (root, total)
    }

    /// Records that `u` and `v` have opposite colours; `false` if they are
    /// already known to have the same colour (an odd cycle).
    fn join_opposite(&mut self, u: Vertex, v: Vertex) -> bool {
        let (ru, pu) = self.find(u);
        let (rv, pv) = self.find(v);
        if ru == rv {
            return pu != pv;
        }
        let (big, small) = if self.size[ru as usize] >= self.size[rv as usize] {
            (ru, rv)
        } else {
            (rv, ru)
        };
        self.parent[small as usize] = big;
        // small's parity to big makes u and v opposite: pu ^ x ^ pv = 1.
        let parity = pu ^ pv ^ 1;
        self.parity_to_parent[small as usize] = parity;
        self.size[big as usize] += self.size[small as usize];
        // A vertex with parity q to `small` has parity q ^ parity to `big`.
        let [zero, one] = self.part_sizes[small as usize];
        let moved = if parity == 0 {
            [zero, one]
        } else {
            [one, zero]
        };
        let parts = &mut self.part_sizes[big as usize];
        parts[0] += moved[0];
        parts[1] += moved[1];
        self.components -= 1;
        true
    }
}

/// A component recorded for picking example moves.
#[derive(Debug, Clone, Copy)]
struct ComponentRef {
    /// Position of the component among all components (distinguishes them).
    ordinal: u64,
    /// A vertex of the requested class in this component.
    vertex: Vertex,
}

/// Per vertex class: the totals needed to count joining moves exactly, and
/// the first two components that have vertices of the class.
#[derive(Debug, Clone, Copy, Default)]
struct ClassTally {
    /// Vertices of this class over all components.
    vertices: u64,
    /// Σ over components of (vertices of this class in it)².
    squares: u128,
    /// The first two components with a vertex of this class.
    first_two: [Option<ComponentRef>; 2],
}

impl ClassTally {
    fn add(&mut self, ordinal: u64, vertex: Vertex, count: u64) {
        self.vertices += count;
        self.squares += u128::from(count) * u128::from(count);
        if let Some(slot) = self.first_two.iter_mut().find(|slot| slot.is_none()) {
            *slot = Some(ComponentRef { ordinal, vertex });
        }
    }
}

/// The result of the 2-colouring pass.
struct Colouring {
    counts: BipartiteCounts,
    tallies: [ClassTally; 5],
    /// Σ over odd–even components of (odd part size)·(even part size): the
    /// pairs inside one component that a join between the two parts of
    /// odd–even components must not count.
    odd_even_cross: u128,
    /// `colour[v] ∈ {0, 1}`: the part of `v` in its component.
    colour: Vec<u8>,
    /// Vertices in BFS order; each component is a contiguous range.
    order: Vec<Vertex>,
    /// The range in `order` of the first component that still has a missing
    /// edge between its parts (exists iff `x > 0`).
    component_with_room: Option<(usize, usize)>,
}

/// Checks that `graph` is a position of this game (no odd cycle), without
/// solving it. Linear time.
pub fn check_bipartite(graph: &Graph) -> Result<(), BipartiteEdgeError> {
    uncancelled(two_colour(graph, &Cancel::never())).map(|_| ())
}

/// BFS 2-colouring of every component, counting as it goes. Returns the odd
/// cycle error on the first edge inside a colour class.
fn two_colour(
    graph: &Graph,
    cancel: &Cancel,
) -> Result<Result<Colouring, BipartiteEdgeError>, Cancelled> {
    let n = graph.vertex_count();
    let mut colour = vec![UNSEEN; n];
    let mut order: Vec<Vertex> = Vec::with_capacity(n);
    let mut counts = BipartiteCounts {
        n: n as u64,
        m: graph.edge_count() as u64,
        x: 0,
        iso: 0,
        oo: 0,
        eo: 0,
        ee: 0,
    };
    let mut tallies = [ClassTally::default(); 5];
    let mut odd_even_cross = 0u128;
    let mut component_with_room = None;
    let mut ordinal = 0u64;
    for root in 0..n as Vertex {
        if colour[root as usize] != UNSEEN {
            continue;
        }
        let start = order.len();
        colour[root as usize] = 0;
        order.push(root);
        // Invariant: order[start..head] are coloured and fully scanned,
        // order[head..] are coloured and waiting.
        let mut head = start;
        let mut part_sizes = [0u64; 2];
        let mut representative = [root; 2];
        let mut degree_sum = 0u64;
        while head < order.len() {
            cancel.check_every(head)?;
            let u = order[head];
            head += 1;
            let cu = colour[u as usize];
            if part_sizes[cu as usize] == 0 {
                representative[cu as usize] = u;
            }
            part_sizes[cu as usize] += 1;
            let neighbours = graph.neighbors(u);
            degree_sum += neighbours.len() as u64;
            if u != root && neighbours.len() == 1 {
                // A leaf's one neighbour is the vertex that found it, coloured
                // already; skipping the read saves a cache miss per leaf,
                // which is most of the work on sparse graphs.
                continue;
            }
            for &w in neighbours {
                let cw = colour[w as usize];
                if cw == UNSEEN {
                    colour[w as usize] = 1 - cu;
                    order.push(w);
                } else if cw == cu {
                    return Ok(Err(BipartiteEdgeError::OddCycle {
                        cycle: odd_cycle_from(graph, root),
                    }));
                }
            }
        }
        let [a, b] = part_sizes;
        let component_edges = degree_sum / 2;
        let room = a * b - component_edges;
        counts.x += room;
        if room > 0 && component_with_room.is_none() {
            component_with_room = Some((start, order.len()));
        }
        let class_of_part = [VertexClass::of_parts(a, b), VertexClass::of_parts(b, a)];
        match class_of_part[0] {
            VertexClass::Isolated => counts.iso += 1,
            VertexClass::OddOdd => counts.oo += 1,
            VertexClass::OddPartOfOddEven | VertexClass::EvenPartOfOddEven => {
                counts.eo += 1;
                odd_even_cross += u128::from(a) * u128::from(b);
            }
            VertexClass::EvenEven => counts.ee += 1,
        }
        if class_of_part[0] == class_of_part[1] {
            // Both parts are in the same class: count the component once.
            tallies[class_of_part[0].index()].add(ordinal, representative[0], a + b);
        } else {
            for (part, class) in class_of_part.into_iter().enumerate() {
                if part_sizes[part] > 0 {
                    tallies[class.index()].add(ordinal, representative[part], part_sizes[part]);
                }
            }
        }
        ordinal += 1;
    }
    Ok(Ok(Colouring {
        counts,
        tallies,
        odd_even_cross,
        colour,
        order,
        component_with_room,
    }))
}

/// Finds an odd cycle in the component of `root`, which is known to contain
/// one. A fresh BFS with parents and depths: a non-bipartite component has
/// an edge `{u, w}` inside one BFS layer, and the two tree paths up from `u`
/// and `w` to their lowest common ancestor close an odd cycle.
///
/// Only runs on invalid input, so it may allocate what the main pass avoids.
fn odd_cycle_from(graph: &Graph, root: Vertex) -> Vec<Vertex> {
    let n = graph.vertex_count();
    let mut depth = vec![u32::MAX; n];
    let mut parent = vec![Vertex::MAX; n];
    let mut queue = vec![root];
    depth[root as usize] = 0;
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head];
        head += 1;
        for &w in graph.neighbors(u) {
            if depth[w as usize] == u32::MAX {
                depth[w as usize] = depth[u as usize] + 1;
                parent[w as usize] = u;
                queue.push(w);
            } else if depth[w as usize] == depth[u as usize] {
                let (mut left, mut right) = (vec![u], vec![w]);
                let (mut a, mut b) = (u, w);
                while a != b {
                    a = parent[a as usize];
                    b = parent[b as usize];
                    left.push(a);
                    right.push(b);
                }
                // left ends at the common ancestor, right too: drop the copy.
                right.pop();
                left.extend(right.into_iter().rev());
                return left;
            }
        }
    }
    unreachable!("odd_cycle_from is only called on a component with an odd cycle")
}

/// Evaluates every move class with the rule and keeps the ones that leave the
/// opponent lost. Only called when the player to move wins.
fn winning_edges(graph: &Graph, colouring: &Colouring) -> WinningEdges {
    let classes: Vec<WinningMoveClass> = move_classes(graph, colouring, true)
        .into_iter()
        .map(|class| WinningMoveClass {
            class: class.class,
            edge_count: class.edge_count,
            example: class.example,
        })
        .collect();
    let edge_count = classes.iter().map(|class| class.edge_count).sum();
    WinningEdges {
        classes,
        edge_count,
        unique: edge_count == 1,
    }
}

/// The non-empty move classes, in a fixed order (inside a component first,
/// then joins by vertex class), each evaluated with the rule; with
/// `only_winning` the losing classes are left out before their example is
/// picked (picking the inside-component example costs a linear scan).
fn move_classes(graph: &Graph, colouring: &Colouring, only_winning: bool) -> Vec<LegalMoveClass> {
    let counts = &colouring.counts;
    let mut classes = Vec::new();

    // An edge inside a component: one more edge, one less room, same types.
    if counts.x > 0 {
        let wins = !first_player_wins(
            counts.n,
            counts.m + 1,
            (counts.x - 1) % 2 == 1,
            counts.iso,
            counts.oo,
            counts.eo,
        );
        if wins || !only_winning {
            let (start, end) = colouring
                .component_with_room
                .expect("x > 0 means some component has room");
            classes.push(LegalMoveClass {
                class: MoveClass::InsideComponent,
                edge_count: counts.x,
                example: missing_edge_in(graph, &colouring.colour, &colouring.order[start..end]),
                wins,
            });
        }
    }

    for (i, &first) in VertexClass::ALL.iter().enumerate() {
        for &second in &VertexClass::ALL[i..] {
            let pairs = join_pair_count(colouring, first, second);
            if pairs == 0 {
                continue;
            }
            let wins = join_wins(counts, first, second);
            if !wins && only_winning {
                continue;
            }
            let example = join_example(colouring, first, second)
                .expect("a class with pairs has two distinct components");
            classes.push(LegalMoveClass {
                class: MoveClass::Join(first, second),
                edge_count: pairs,
                example,
                wins,
            });
        }
    }
    classes
}

/// Whether joining a vertex of class `first` to a vertex of class `second`
/// in another component leaves the opponent lost.
///
/// The two vertices get opposite colours, so the part of `u` merges with the
/// other part of `v` and vice versa: new parts `(p_u + q_v, q_u + p_v)`. The
/// room changes by `p_u·p_v + q_u·q_v − 1` (the new cross pairs minus the
/// edge just added), whose parity depends only on the part parities.
fn join_wins(counts: &BipartiteCounts, first: VertexClass, second: VertexClass) -> bool {
    let mut type_counts = [counts.iso, counts.oo, counts.eo, counts.ee];
    for class in [first, second] {
        type_counts[type_index(class)] -= 1;
    }
    let (p_u, q_u) = first.part_parities();
    let (p_v, q_v) = second.part_parities();
    let merged = match (p_u ^ q_v, q_u ^ p_v) {
        (true, true) => VertexClass::OddOdd,
        (false, false) => VertexClass::EvenEven,
        _ => VertexClass::OddPartOfOddEven,
    };
    type_counts[type_index(merged)] += 1;
    let room_change_odd = ((p_u & p_v) ^ (q_u & q_v)) ^ true;
    let x_odd = (counts.x % 2 == 1) ^ room_change_odd;
    let [iso, oo, eo, _] = type_counts;
    !first_player_wins(counts.n, counts.m + 1, x_odd, iso, oo, eo)
}

/// Index into `[iso, oo, eo, ee]` of the component type of a vertex class.
fn type_index(class: VertexClass) -> usize {
    match class {
        VertexClass::Isolated => 0,
        VertexClass::OddOdd => 1,
        VertexClass::OddPartOfOddEven | VertexClass::EvenPartOfOddEven => 2,
        VertexClass::EvenEven => 3,
    }
}

/// The exact number of vertex pairs `{u, v}` in different components with
/// `u` of class `first` and `v` of class `second`.
fn join_pair_count(colouring: &Colouring, first: VertexClass, second: VertexClass) -> u64 {
    let s = &colouring.tallies[first.index()];
    let t = &colouring.tallies[second.index()];
    let product = u128::from(s.vertices) * u128::from(t.vertices);
    let pairs = if first == second {
        (product - s.squares) / 2
    } else if type_index(first) == type_index(second) {
        // The odd and even parts of odd–even components: drop the pairs that
        // lie inside one component.
        product - colouring.odd_even_cross
    } else {
        product
    };
    u64::try_from(pairs).expect("at most N(N-1)/2 pairs, which fits in 64 bits")
}

/// Two vertices of the given classes in different components, or `None` if
/// there are no such two.
fn join_example(
    colouring: &Colouring,
    first: VertexClass,
    second: VertexClass,
) -> Option<(Vertex, Vertex)> {
    let s = &colouring.tallies[first.index()].first_two;
    let t = &colouring.tallies[second.index()].first_two;
    s.iter()
        .flatten()
        .flat_map(|a| t.iter().flatten().map(move |b| (a, b)))
        .find(|(a, b)| a.ordinal != b.ordinal)
        .map(|(a, b)| (a.vertex.min(b.vertex), a.vertex.max(b.vertex)))
}

/// A pair of opposite colours in `component` (its vertices, one component)
/// that is not an edge; the component must have one.
///
/// Some colour-0 vertex has fewer neighbours than the colour-1 part (else the
/// component would be complete bipartite); mark its neighbours and take any
/// unmarked colour-1 vertex. Time `O(N)` for the mark array plus the size of
/// the component.
fn missing_edge_in(graph: &Graph, colour: &[u8], component: &[Vertex]) -> (Vertex, Vertex) {
    let other_part_size = component
        .iter()
        .filter(|&&v| colour[v as usize] == 1)
        .count();
    let u = component
        .iter()
        .copied()
        .find(|&v| colour[v as usize] == 0 && graph.degree(v) < other_part_size)
        .expect("a component with room has a vertex that misses a neighbour");
    let mut adjacent_to_u = vec![false; graph.vertex_count()];
    for &w in graph.neighbors(u) {
        adjacent_to_u[w as usize] = true;
    }
    let v = component
        .iter()
        .copied()
        .find(|&v| colour[v as usize] == 1 && !adjacent_to_u[v as usize])
        .expect("u has fewer neighbours than the other part has vertices");
    (u.min(v), u.max(v))
}

#[cfg(test)]
pub(crate) mod tests;
