//! The bipartite edge-adding game (GAMES.md §2, AtCoder ABC398 G).
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
use super::graph::{Graph, Vertex};

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
    /// The winning rule of GAMES.md §2 (the player to move is "first"):
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
/// use puzzled::solver::Player;
/// use puzzled::solver::bipartite_edge::{position_after_moves, solve};
/// use puzzled::solver::graph::Graph;
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
/// checked for legality (both ends in range, distinct, not yet an edge, and
/// no odd cycle). The player to move afterwards is the first player if the
/// list has even length.
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
}

impl ParityForest {
    fn new(n: usize) -> Self {
        ParityForest {
            parent: (0..n as Vertex).collect(),
            parity_to_parent: vec![0; n],
            size: vec![1; n],
        }
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
        self.parity_to_parent[small as usize] = pu ^ pv ^ 1;
        self.size[big as usize] += self.size[small as usize];
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
    let counts = &colouring.counts;
    let mut classes = Vec::new();

    // An edge inside a component: one more edge, one less room, same types.
    if counts.x > 0
        && !first_player_wins(
            counts.n,
            counts.m + 1,
            (counts.x - 1) % 2 == 1,
            counts.iso,
            counts.oo,
            counts.eo,
        )
    {
        let (start, end) = colouring
            .component_with_room
            .expect("x > 0 means some component has room");
        classes.push(WinningMoveClass {
            class: MoveClass::InsideComponent,
            edge_count: counts.x,
            example: missing_edge_in(graph, &colouring.colour, &colouring.order[start..end]),
        });
    }

    for (i, &first) in VertexClass::ALL.iter().enumerate() {
        for &second in &VertexClass::ALL[i..] {
            let pairs = join_pair_count(colouring, first, second);
            if pairs == 0 || !join_wins(counts, first, second) {
                continue;
            }
            let example = join_example(colouring, first, second)
                .expect("a class with pairs has two distinct components");
            classes.push(WinningMoveClass {
                class: MoveClass::Join(first, second),
                edge_count: pairs,
                example,
            });
        }
    }
    let edge_count = classes.iter().map(|class| class.edge_count).sum();
    WinningEdges {
        classes,
        edge_count,
        unique: edge_count == 1,
    }
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
mod tests {
    //! The solver is checked against two exhaustive searches that know
    //! nothing of the parity rule:
    //! - [`LabelledSearch`] plays on the labelled graph itself (an edge set as
    //!   a bitmask, n ≤ 7), re-checking bipartiteness after every added edge;
    //! - [`ComponentSearch`] plays on the multiset of components
    //!   `(part, part, edges)`, which determines the game exactly (a move
    //!   either adds a missing edge inside a component or joins two
    //!   components, one way or the other round), so it reaches n ≈ 12 and
    //!   with it the `eo ≥ 3` case that needs at least 9 vertices.
    //!   It is itself checked against the labelled search.

    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;

    fn graph(n: u64, edges: &[(Vertex, Vertex)]) -> Graph {
        Graph::from_pairs(n, edges).unwrap()
    }

    // ---- labelled search -------------------------------------------------

    /// Game-tree search on edge sets of a fixed small vertex count.
    struct LabelledSearch {
        n: usize,
        pairs: Vec<(usize, usize)>,
        /// Whether the player to move wins, by edge set.
        memo: HashMap<u32, bool>,
    }

    impl LabelledSearch {
        fn new(n: usize) -> Self {
            assert!(n <= 7, "edge sets are u32 bitmasks over at most 21 pairs");
            let pairs = (0..n)
                .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
                .collect();
            LabelledSearch {
                n,
                pairs,
                memo: HashMap::new(),
            }
        }

        fn mask_of(&self, g: &Graph) -> u32 {
            let mut mask = 0;
            for (i, &(u, v)) in self.pairs.iter().enumerate() {
                if g.has_edge(u as Vertex, v as Vertex) {
                    mask |= 1 << i;
                }
            }
            mask
        }

        fn graph_of(&self, mask: u32) -> Graph {
            let edges: Vec<(Vertex, Vertex)> = (0..self.pairs.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| (self.pairs[i].0 as Vertex, self.pairs[i].1 as Vertex))
                .collect();
            graph(self.n as u64, &edges)
        }

        /// Plain 2-colouring attempt on the bitmask graph.
        fn is_bipartite(&self, mask: u32) -> bool {
            let mut adjacency = [0u8; 7];
            for (i, &(u, v)) in self.pairs.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    adjacency[u] |= 1 << v;
                    adjacency[v] |= 1 << u;
                }
            }
            let mut colour = [None::<bool>; 7];
            for root in 0..self.n {
                if colour[root].is_some() {
                    continue;
                }
                colour[root] = Some(false);
                let mut stack = vec![root];
                while let Some(u) = stack.pop() {
                    for w in 0..self.n {
                        if adjacency[u] >> w & 1 == 0 {
                            continue;
                        }
                        match colour[w] {
                            None => {
                                colour[w] = Some(!colour[u].unwrap());
                                stack.push(w);
                            }
                            Some(c) if c == colour[u].unwrap() => return false,
                            Some(_) => {}
                        }
                    }
                }
            }
            true
        }

        /// The legal moves from `mask`: the indices of pairs whose addition
        /// keeps the graph bipartite.
        fn moves(&self, mask: u32) -> Vec<usize> {
            (0..self.pairs.len())
                .filter(|&i| mask >> i & 1 == 0 && self.is_bipartite(mask | 1 << i))
                .collect()
        }

        fn mover_wins_from(&mut self, mask: u32) -> bool {
            if let Some(&known) = self.memo.get(&mask) {
                return known;
            }
            let wins = self
                .moves(mask)
                .into_iter()
                .any(|i| !self.mover_wins_from(mask | 1 << i));
            self.memo.insert(mask, wins);
            wins
        }

        /// The winning moves from `mask`, as vertex pairs `(u, v)`, `u < v`.
        fn winning_moves(&mut self, mask: u32) -> Vec<(Vertex, Vertex)> {
            let winning: Vec<usize> = self
                .moves(mask)
                .into_iter()
                .filter(|&i| !self.mover_wins_from(mask | 1 << i))
                .collect();
            winning
                .into_iter()
                .map(|i| (self.pairs[i].0 as Vertex, self.pairs[i].1 as Vertex))
                .collect()
        }
    }

    /// Checks the solver on `g` against the labelled search, including every
    /// piece of evidence it returns.
    fn check_with_labelled_search(search: &mut LabelledSearch, g: &Graph) {
        let mask = search.mask_of(g);
        let solution = solve(g).unwrap();
        let expected_winner = if search.mover_wins_from(mask) {
            Player::First
        } else {
            Player::Second
        };
        assert_eq!(solution.winner, expected_winner, "winner of {g:?}");
        let winning = search.winning_moves(mask);
        check_moves_against(&solution, &winning, g);
        check_counts(&solution.counts, g);
        // x is the number of legal moves that keep two endpoints already
        // connected: count those directly.
        let connected_moves = search
            .moves(mask)
            .into_iter()
            .filter(|&i| {
                let (u, v) = search.pairs[i];
                components(g)[u] == components(g)[v]
            })
            .count() as u64;
        assert_eq!(solution.counts.x, connected_moves, "x of {g:?}");
    }

    /// The returned moves must be exactly described by `winning` (the
    /// searched set of winning edges).
    fn check_moves_against(
        solution: &BipartiteEdgeSolution,
        winning: &[(Vertex, Vertex)],
        g: &Graph,
    ) {
        let moves = &solution.winning_moves;
        assert_eq!(
            moves.edge_count,
            winning.len() as u64,
            "winning edge count of {g:?}"
        );
        assert_eq!(moves.unique, winning.len() == 1, "unique flag of {g:?}");
        assert_eq!(
            moves.classes.iter().map(|c| c.edge_count).sum::<u64>(),
            moves.edge_count
        );
        for class in &moves.classes {
            assert!(class.edge_count > 0);
            assert!(
                winning.contains(&class.example),
                "example {:?} of {:?} does not win in {g:?}",
                class.example,
                class.class
            );
        }
        match solution.winner {
            Player::First => {
                let chosen = solution.winning_move.expect("a winner to move has a move");
                assert!(
                    winning.contains(&chosen),
                    "{chosen:?} does not win in {g:?}"
                );
            }
            Player::Second => {
                assert_eq!(solution.winning_move, None);
                assert!(moves.classes.is_empty());
            }
        }
    }

    /// Component ids by a plain search, for checks independent of the solver.
    fn components(g: &Graph) -> Vec<usize> {
        let n = g.vertex_count();
        let mut id = vec![usize::MAX; n];
        for root in 0..n {
            if id[root] != usize::MAX {
                continue;
            }
            id[root] = root;
            let mut stack = vec![root as Vertex];
            while let Some(u) = stack.pop() {
                for &w in g.neighbors(u) {
                    if id[w as usize] == usize::MAX {
                        id[w as usize] = root;
                        stack.push(w);
                    }
                }
            }
        }
        id
    }

    /// The components of a bipartite graph as `(part, part, edges)`, with
    /// the parts found by a plain depth-first 2-colouring.
    fn component_shapes(g: &Graph) -> Vec<(u64, u64, u64)> {
        let n = g.vertex_count();
        let mut colour = vec![None::<bool>; n];
        let mut shapes = Vec::new();
        for root in 0..n {
            if colour[root].is_some() {
                continue;
            }
            let (mut parts, mut degrees) = ([0u64; 2], 0u64);
            colour[root] = Some(false);
            let mut stack = vec![root as Vertex];
            while let Some(u) = stack.pop() {
                let cu = colour[u as usize].unwrap();
                parts[cu as usize] += 1;
                degrees += g.degree(u) as u64;
                for &w in g.neighbors(u) {
                    if colour[w as usize].is_none() {
                        colour[w as usize] = Some(!cu);
                        stack.push(w);
                    }
                }
            }
            shapes.push((parts[0], parts[1], degrees / 2));
        }
        shapes
    }

    /// The reported counts, recomputed from the component shapes.
    fn check_counts(counts: &BipartiteCounts, g: &Graph) {
        let shapes = component_shapes(g);
        let of_type = |keep: fn(u64, u64) -> bool| {
            shapes.iter().filter(|&&(a, b, _)| keep(a, b)).count() as u64
        };
        let expected = BipartiteCounts {
            n: g.vertex_count() as u64,
            m: g.edge_count() as u64,
            x: shapes.iter().map(|&(a, b, e)| a * b - e).sum(),
            iso: of_type(|a, b| a + b == 1),
            oo: of_type(|a, b| a % 2 == 1 && b % 2 == 1),
            eo: of_type(|a, b| a + b > 1 && (a + b) % 2 == 1),
            ee: of_type(|a, b| a + b > 1 && a % 2 == 0 && b % 2 == 0),
        };
        assert_eq!(*counts, expected, "counts of {g:?}");
    }

    // ---- component-multiset search ---------------------------------------

    /// A component: the smaller part, the larger part, its edge count.
    type Shape = (u64, u64, u64);

    /// Game-tree search on sorted multisets of component shapes.
    #[derive(Default)]
    struct ComponentSearch {
        memo: HashMap<Vec<Shape>, bool>,
    }

    fn normalised(mut shapes: Vec<Shape>) -> Vec<Shape> {
        for shape in &mut shapes {
            if shape.0 > shape.1 {
                *shape = (shape.1, shape.0, shape.2);
            }
        }
        shapes.sort_unstable();
        shapes
    }

    impl ComponentSearch {
        /// Every move from `position` as (resulting position, how many
        /// distinct edges of the labelled graph make it).
        fn moves(position: &[Shape]) -> Vec<(Vec<Shape>, u64)> {
            let mut moves = Vec::new();
            for (i, &(a, b, e)) in position.iter().enumerate() {
                if e < a * b {
                    let mut next = position.to_vec();
                    next[i] = (a, b, e + 1);
                    moves.push((normalised(next), a * b - e));
                }
                for (j, &(c, d, f)) in position.iter().enumerate().skip(i + 1) {
                    let rest = || {
                        let mut rest: Vec<Shape> = position.to_vec();
                        rest.remove(j);
                        rest.remove(i);
                        rest
                    };
                    // The added edge joins opposite colours: a part of one
                    // component merges with the other part of the other.
                    for (merged, ways) in [
                        ((a + d, b + c, e + f + 1), a * c + b * d),
                        ((a + c, b + d, e + f + 1), a * d + b * c),
                    ] {
                        if ways > 0 {
                            let mut next = rest();
                            next.push(merged);
                            moves.push((normalised(next), ways));
                        }
                    }
                }
            }
            moves
        }

        fn mover_wins_from(&mut self, position: &[Shape]) -> bool {
            if let Some(&known) = self.memo.get(position) {
                return known;
            }
            let wins = Self::moves(position)
                .into_iter()
                .any(|(next, _)| !self.mover_wins_from(&next));
            self.memo.insert(position.to_vec(), wins);
            wins
        }

        /// The number of distinct winning edges from `position`.
        fn winning_edge_count(&mut self, position: &[Shape]) -> u64 {
            Self::moves(position)
                .into_iter()
                .filter(|(next, _)| !self.mover_wins_from(next))
                .map(|(_, ways)| ways)
                .sum()
        }
    }

    /// Adds `edge` to `g`, or `None` if it is already there.
    fn with_edge(g: &Graph, (u, v): (Vertex, Vertex)) -> Option<Graph> {
        let mut edges: Vec<_> = g.edges().collect();
        edges.push((u, v));
        Graph::from_pairs(g.vertex_count() as u64, &edges).ok()
    }

    /// Checks the solver on `g` against the component search: verdict,
    /// counts, the number of winning edges, and that every returned edge is
    /// legal and leaves a position the search says is lost.
    fn check_with_component_search(search: &mut ComponentSearch, g: &Graph) {
        let position = normalised(component_shapes(g));
        let solution = solve(g).unwrap();
        let mover_wins_from = search.mover_wins_from(&position);
        assert_eq!(
            solution.winner == Player::First,
            mover_wins_from,
            "winner of {g:?}"
        );
        check_counts(&solution.counts, g);
        let moves = &solution.winning_moves;
        assert_eq!(
            moves.edge_count,
            search.winning_edge_count(&position),
            "of {g:?}"
        );
        assert_eq!(moves.unique, moves.edge_count == 1);
        let returned = solution
            .winning_move
            .iter()
            .chain(moves.classes.iter().map(|c| &c.example));
        for &edge in returned {
            let after = with_edge(g, edge).expect("the move adds a new edge");
            assert!(
                is_two_colourable(&after),
                "{edge:?} makes an odd cycle in {g:?}"
            );
            let next = normalised(component_shapes(&after));
            assert!(
                !search.mover_wins_from(&next),
                "{edge:?} does not win in {g:?}"
            );
        }
        assert_eq!(solution.winning_move.is_some(), mover_wins_from);
        assert_eq!(moves.classes.is_empty(), !mover_wins_from);
    }

    // ---- tests -------------------------------------------------------------

    #[test]
    fn abc398_g_sample_1_path_of_four_is_a_first_player_win() {
        // 4 3 / 1 2 / 2 3 / 3 4 → Aoki, who moves first.
        let g = graph(4, &[(0, 1), (1, 2), (2, 3)]);
        let solution = solve(&g).unwrap();
        assert_eq!(solution.winner, Player::First);
        assert_eq!(
            solution.counts,
            BipartiteCounts {
                n: 4,
                m: 3,
                x: 1,
                iso: 0,
                oo: 0,
                eo: 0,
                ee: 1
            }
        );
        // The only winning move closes the path into a 4-cycle: joining
        // nothing is possible and the one missing cross edge is (0, 3).
        assert_eq!(solution.winning_move, Some((0, 3)));
        assert!(solution.winning_moves.unique);
    }

    #[test]
    fn small_positions_by_hand() {
        // Two separate edges: any join leaves a path of 4 with x = 1, which
        // the next player wins; no edge inside: second wins.
        assert_eq!(
            solve(&graph(4, &[(0, 1), (2, 3)])).unwrap().winner,
            Player::Second
        );
        // No vertices, no moves: the player to move loses.
        let empty = solve(&graph(0, &[])).unwrap();
        assert_eq!(empty.winner, Player::Second);
        assert_eq!(empty.winning_move, None);
        // Two isolated vertices: the one edge wins.
        let pair = solve(&graph(2, &[])).unwrap();
        assert_eq!(pair.winning_move, Some((0, 1)));
        assert!(pair.winning_moves.unique);
    }

    #[test]
    fn move_list_on_a_graph_with_an_odd_cycle_reports_the_cycle() {
        let triangle = graph(3, &[(0, 1), (1, 2), (2, 0)]);
        let Err(MoveListError::Start(BipartiteEdgeError::OddCycle { cycle })) =
            position_after_moves(&triangle, &[])
        else {
            panic!("a triangle is not a position");
        };
        assert_is_odd_cycle(&triangle, &cycle);
        let path = graph(3, &[(0, 1), (1, 2)]);
        assert_eq!(
            position_after_moves(&path, &[(2, 0)])
                .unwrap_err()
                .to_string(),
            "move 0 (edge 2-0) is illegal: the edge would close an odd cycle"
        );
    }

    #[test]
    fn x_is_counted_in_64_bits() {
        // One component with parts of 10^5 each: vertex 0 sees the whole
        // other part, and vertex 10^5 sees the whole of part 0.
        let half: Vertex = 100_000;
        let mut edges: Vec<(Vertex, Vertex)> = (half..2 * half).map(|v| (0, v)).collect();
        edges.extend((1..half).map(|u| (u, half)));
        let g = graph(2 * half as u64, &edges);
        let solution = solve(&g).unwrap();
        let m = 2 * u64::from(half) - 1;
        assert_eq!(solution.counts.m, m);
        assert_eq!(solution.counts.x, 10_000_000_000 - m);
        // One component and no other: the game adds exactly the x missing
        // cross edges, whatever the order, so the first player wins iff x is
        // odd (10^10 − 199,999 is), and every one of them wins.
        assert_eq!(solution.winner, Player::First);
        let [class] = &solution.winning_moves.classes[..] else {
            panic!("one class: {:?}", solution.winning_moves.classes);
        };
        assert_eq!(class.class, MoveClass::InsideComponent);
        assert_eq!(class.edge_count, solution.counts.x);
        assert_eq!(solution.winning_moves.edge_count, solution.counts.x);
        let (u, v) = class.example;
        assert!(!g.has_edge(u, v) && (u < half) != (v < half));
    }

    #[test]
    fn every_component_kind_is_counted_in_its_own_class() {
        // Three paths of 3 (parts 2 and 1), one edge (1 and 1), a path of 4
        // (2 and 2) and an isolated vertex.
        let g = graph(
            16,
            &[
                (0, 1),
                (1, 2),
                (3, 4),
                (4, 5),
                (6, 7),
                (7, 8),
                (9, 10),
                (11, 12),
                (12, 13),
                (13, 14),
            ],
        );
        let solution = solve(&g).unwrap();
        assert_eq!(
            solution.counts,
            BipartiteCounts {
                n: 16,
                m: 10,
                // 3·(2·1) + 1·1 + 2·2 − 10
                x: 1,
                iso: 1,
                oo: 1,
                eo: 3,
                ee: 1,
            }
        );
        // N even, eo ≥ 3: first wins iff oo + x is odd, and 1 + 1 is not.
        assert_eq!(solution.winner, Player::Second);
    }

    #[test]
    fn check_bipartite_names_an_odd_cycle() {
        let triangle = graph(4, &[(0, 1), (1, 2), (2, 0), (2, 3)]);
        let Err(BipartiteEdgeError::OddCycle { cycle }) = check_bipartite(&triangle) else {
            panic!("a triangle is not bipartite");
        };
        assert_is_odd_cycle(&triangle, &cycle);
        assert_eq!(check_bipartite(&graph(3, &[(0, 1), (1, 2)])), Ok(()));
    }

    #[test]
    fn odd_cycle_is_reported_with_its_vertices() {
        // A 4-cycle 0-1-2-3 with a chord-free pendant path to a triangle 4-5-6.
        let g = graph(
            7,
            &[
                (0, 1),
                (1, 2),
                (2, 3),
                (3, 0),
                (3, 4),
                (4, 5),
                (5, 6),
                (6, 4),
            ],
        );
        let BipartiteEdgeError::OddCycle { cycle } = solve(&g).unwrap_err();
        assert_is_odd_cycle(&g, &cycle);
        let mut sorted = cycle.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![4, 5, 6]);
        let message = BipartiteEdgeError::OddCycle {
            cycle: vec![3, 5, 9],
        }
        .to_string();
        assert_eq!(message, "graph has an odd cycle through vertices 3-5-9");
    }

    fn assert_is_odd_cycle(g: &Graph, cycle: &[Vertex]) {
        assert!(cycle.len() % 2 == 1 && cycle.len() >= 3, "{cycle:?}");
        let mut distinct = cycle.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), cycle.len(), "{cycle:?} repeats a vertex");
        for (i, &u) in cycle.iter().enumerate() {
            let v = cycle[(i + 1) % cycle.len()];
            assert!(g.has_edge(u, v), "{u}-{v} of {cycle:?} is not an edge");
        }
    }

    #[test]
    fn rule_matches_search_on_every_bipartite_graph_up_to_7_vertices() {
        let mut checked = Vec::new();
        for n in 0..=7 {
            let mut search = LabelledSearch::new(n);
            let mut graphs = 0;
            for mask in 0..1u32 << search.pairs.len() {
                if search.is_bipartite(mask) {
                    let g = search.graph_of(mask);
                    check_with_labelled_search(&mut search, &g);
                    graphs += 1;
                }
            }
            checked.push(graphs);
        }
        // The numbers of labelled bipartite graphs (OEIS A047864): the
        // enumeration missed none and let no odd cycle through.
        assert_eq!(checked, [1, 1, 2, 7, 41, 376, 5177, 103_237]);
    }

    #[test]
    fn component_search_agrees_with_labelled_search() {
        for n in 0..=6 {
            let mut labelled = LabelledSearch::new(n);
            let mut by_components = ComponentSearch::default();
            for mask in 0..1u32 << labelled.pairs.len() {
                if labelled.is_bipartite(mask) {
                    let g = labelled.graph_of(mask);
                    let position = normalised(component_shapes(&g));
                    assert_eq!(
                        labelled.mover_wins_from(mask),
                        by_components.mover_wins_from(&position)
                    );
                    assert_eq!(
                        labelled.winning_moves(mask).len() as u64,
                        by_components.winning_edge_count(&position)
                    );
                }
            }
        }
    }

    #[test]
    fn three_or_more_odd_even_components_match_component_search() {
        // Odd–even components need three vertices, so `eo ≥ 3` starts at 9
        // vertices, past the labelled search: build such positions from
        // paths of 3 and 5, stars of 5, plus an optional extra piece.
        let path = |k: Vertex| (1..k).map(|i| (i - 1, i)).collect::<Vec<_>>();
        let star = |k: Vertex| (1..k).map(|i| (0, i)).collect::<Vec<_>>();
        let odd_even: [(Vertex, Vec<(Vertex, Vertex)>); 3] =
            [(3, path(3)), (5, path(5)), (5, star(5))];
        let extras: [(Vertex, Vec<(Vertex, Vertex)>); 5] = [
            (0, vec![]),
            (1, vec![]),
            (2, vec![]),
            (2, path(2)),
            (4, path(4)),
        ];
        let mut search = ComponentSearch::default();
        let mut seen_eo = std::collections::BTreeSet::new();
        for count in 3..=4 {
            for choice in 0..3usize.pow(count) {
                for (extra_size, extra_edges) in &extras {
                    let mut pieces: Vec<&(Vertex, Vec<(Vertex, Vertex)>)> = (0..count)
                        .map(|i| &odd_even[choice / 3usize.pow(i) % 3])
                        .collect();
                    let extra = (*extra_size, extra_edges.clone());
                    pieces.push(&extra);
                    let mut edges = Vec::new();
                    let mut n: Vertex = 0;
                    for (size, piece) in pieces {
                        edges.extend(piece.iter().map(|&(u, v)| (n + u, n + v)));
                        n += size;
                    }
                    if n > 14 {
                        continue;
                    }
                    let g = graph(u64::from(n), &edges);
                    seen_eo.insert((solve(&g).unwrap().counts.eo, n % 2));
                    check_with_component_search(&mut search, &g);
                }
            }
        }
        assert!(seen_eo.contains(&(3, 0)) && seen_eo.contains(&(4, 0)));
    }

    /// A random bipartite graph: a random 2-colouring, then each pair of
    /// opposite colours is an edge with probability `density`%.
    fn bipartite_graph(max_n: usize) -> impl Strategy<Value = Graph> {
        (0..=max_n)
            .prop_flat_map(|n| {
                let pairs = n * n.saturating_sub(1) / 2;
                (
                    Just(n),
                    proptest::collection::vec(any::<bool>(), n),
                    proptest::collection::vec(0u8..100, pairs),
                    0u8..=100,
                )
            })
            .prop_map(|(n, colours, coins, density)| {
                let mut edges = Vec::new();
                let mut coin = coins.into_iter();
                for u in 0..n {
                    for v in u + 1..n {
                        if coin.next().unwrap() < density && colours[u] != colours[v] {
                            edges.push((u as Vertex, v as Vertex));
                        }
                    }
                }
                graph(n as u64, &edges)
            })
    }

    /// A disjoint union of paths, stars, complete bipartite blocks and
    /// single vertices, with the vertex ids shuffled.
    fn union_of_shapes(max_n: usize) -> impl Strategy<Value = Graph> {
        let piece = prop_oneof![
            (1usize..=6).prop_map(|k| ("path", k, 0)),
            (1usize..=6).prop_map(|k| ("star", k, 0)),
            (1usize..=3, 1usize..=3).prop_map(|(a, b)| ("complete", a, b)),
        ];
        proptest::collection::vec(piece, 0..=6)
            .prop_map(move |pieces| {
                let mut edges = Vec::new();
                let mut n = 0usize;
                for (kind, k, b) in pieces {
                    let size = if kind == "complete" { k + b } else { k };
                    if n + size > max_n {
                        break;
                    }
                    let base = n as Vertex;
                    match kind {
                        "path" => edges.extend((1..k as Vertex).map(|i| (base + i - 1, base + i))),
                        "star" => edges.extend((1..k as Vertex).map(|i| (base, base + i))),
                        _ => {
                            for i in 0..k as Vertex {
                                for j in 0..b as Vertex {
                                    edges.push((base + i, base + k as Vertex + j));
                                }
                            }
                        }
                    }
                    n += size;
                }
                (n, edges)
            })
            .prop_flat_map(|(n, edges)| {
                let ids: Vec<Vertex> = (0..n as Vertex).collect();
                (Just(n), Just(edges), Just(ids).prop_shuffle())
            })
            .prop_map(|(n, edges, ids)| {
                let relabelled: Vec<_> = edges
                    .iter()
                    .map(|&(u, v)| (ids[u as usize], ids[v as usize]))
                    .collect();
                graph(n as u64, &relabelled)
            })
    }

    use crate::solver::test_support::proptest_config as config;

    thread_local! {
        static COMPONENT_SEARCH: std::cell::RefCell<ComponentSearch> =
            std::cell::RefCell::new(ComponentSearch::default());
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn random_bipartite_graphs_match_search(g in bipartite_graph(7)) {
            let mut search = LabelledSearch::new(g.vertex_count());
            check_with_labelled_search(&mut search, &g);
        }

        #[test]
        fn bigger_random_bipartite_graphs_match_component_search(g in bipartite_graph(12)) {
            COMPONENT_SEARCH.with(|search| check_with_component_search(&mut search.borrow_mut(), &g));
        }

        #[test]
        fn unions_of_paths_stars_and_blocks_match_component_search(g in union_of_shapes(13)) {
            COMPONENT_SEARCH.with(|search| check_with_component_search(&mut search.borrow_mut(), &g));
        }

        #[test]
        fn move_lists_replay_or_name_the_first_illegal_move(
            g in bipartite_graph(7),
            candidates in proptest::collection::vec((0u32..8, 0u32..8), 0..12),
        ) {
            let n = g.vertex_count();
            let mut search = LabelledSearch::new(n);
            let mut mask = search.mask_of(&g);
            let mut moves = Vec::new();
            for (u, v) in candidates {
                let index = moves.len();
                moves.push((u, v));
                // The search's own view of the move.
                let expected = if u as usize >= n || v as usize >= n {
                    Some(IllegalEdgeReason::OutOfRange {
                        vertex: if u as usize >= n { u } else { v },
                        vertex_count: n as u64,
                    })
                } else if u == v {
                    Some(IllegalEdgeReason::SelfLoop)
                } else {
                    let pair = search
                        .pairs
                        .iter()
                        .position(|&p| p == (u.min(v) as usize, u.max(v) as usize))
                        .unwrap();
                    if mask >> pair & 1 == 1 {
                        Some(IllegalEdgeReason::AlreadyPresent)
                    } else if !search.is_bipartite(mask | 1 << pair) {
                        Some(IllegalEdgeReason::MakesOddCycle)
                    } else {
                        mask |= 1 << pair;
                        None
                    }
                };
                if let Some(reason) = expected {
                    prop_assert_eq!(
                        position_after_moves(&g, &moves),
                        Err(MoveListError::IllegalMove { index, u, v, reason })
                    );
                    return Ok(());
                }
            }
            let after = position_after_moves(&g, &moves).unwrap();
            prop_assert_eq!(search.mask_of(&after), mask);
            check_with_labelled_search(&mut search, &after);
        }

        #[test]
        fn odd_cycles_reported_are_odd_cycles_of_the_graph(
            n in 3usize..=10,
            coins in proptest::collection::vec(0u8..100, 45),
            density in 10u8..=100,
        ) {
            let mut edges = Vec::new();
            let mut coin = coins.into_iter();
            for u in 0..n {
                for v in u + 1..n {
                    if coin.next().unwrap() < density {
                        edges.push((u as Vertex, v as Vertex));
                    }
                }
            }
            let g = graph(n as u64, &edges);
            match solve(&g) {
                Err(BipartiteEdgeError::OddCycle { cycle }) => assert_is_odd_cycle(&g, &cycle),
                // Then the graph must really be bipartite.
                Ok(_) => prop_assert!(component_shapes(&g)
                    .iter()
                    .map(|&(_, _, e)| e)
                    .sum::<u64>() == g.edge_count() as u64 && is_two_colourable(&g)),
            }
        }
    }

    /// Independent bipartiteness test: a depth-first colouring that checks
    /// every edge.
    fn is_two_colourable(g: &Graph) -> bool {
        let n = g.vertex_count();
        let mut colour = vec![None::<bool>; n];
        for root in 0..n {
            if colour[root].is_some() {
                continue;
            }
            colour[root] = Some(false);
            let mut stack = vec![root as Vertex];
            while let Some(u) = stack.pop() {
                for &w in g.neighbors(u) {
                    match colour[w as usize] {
                        None => {
                            colour[w as usize] = Some(!colour[u as usize].unwrap());
                            stack.push(w);
                        }
                        Some(c) if c == colour[u as usize].unwrap() => return false,
                        Some(_) => {}
                    }
                }
            }
        }
        true
    }
}
