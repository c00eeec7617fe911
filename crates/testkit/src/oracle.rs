//! Exhaustive game-tree search for every game, written from the rules
//! alone and independent of the solvers: plain recursion over small
//! boards, memoised where the state fits a word. The unit tests of the
//! solvers, the generator's tests and the integration tests all ask these
//! searches, so a rule is read from the article once.
//!
//! - [`GeographySearch`]: Undirected Vertex Geography on (visited set,
//!   token), n ≤ 32.
//! - [`EdgeSearch`]: the bipartite edge-adding game on edge sets (a bit
//!   mask over every pair), bipartiteness re-checked after every added
//!   edge, n ≤ 11.
//! - [`PaintSearch`]: tree painting on [`Colouring`]s (black set, white
//!   set, side to move), n ≤ 32; also the minimax of the final black minus
//!   white count.
//! - [`Oracle`]: any of the six games asked about the position a line of
//!   moves reaches; the Geographies solved by search go to the plain
//!   recursion of [`strategy::Board`].
//! - [`is_bipartite`]: a plain 2-colouring by search.

use std::collections::HashMap;

use crate::strategy::{self, Rules};

/// Whether the graph on `n` vertices with these edges has no odd cycle,
/// by a plain 2-colouring.
pub fn is_bipartite(n: usize, edges: &[(u32, u32)]) -> bool {
    let mut neighbours = vec![Vec::new(); n];
    for &(u, v) in edges {
        neighbours[u as usize].push(v as usize);
        neighbours[v as usize].push(u as usize);
    }
    two_colourable(n, |u| neighbours[u].iter().copied())
}

/// Colours every component by search from its least vertex; false at the
/// first edge whose ends get the same colour.
fn two_colourable<I: Iterator<Item = usize>>(n: usize, neighbours: impl Fn(usize) -> I) -> bool {
    let mut colour: Vec<Option<bool>> = vec![None; n];
    for root in 0..n {
        if colour[root].is_some() {
            continue;
        }
        colour[root] = Some(false);
        let mut stack = vec![root];
        while let Some(u) = stack.pop() {
            let own = colour[u] == Some(true);
            for w in neighbours(u) {
                match colour[w] {
                    None => {
                        colour[w] = Some(!own);
                        stack.push(w);
                    }
                    Some(c) if c == own => return false,
                    Some(_) => {}
                }
            }
        }
    }
    true
}

/// The ascending members of a bit set.
fn members(set: u64) -> impl Iterator<Item = u32> {
    (0..64).filter(move |&v| set >> v & 1 == 1)
}

/// One bit set of neighbours per vertex.
fn adjacency_sets(n: usize, pairs: &[(u32, u32)]) -> Vec<u32> {
    assert!(n <= 32, "the searches keep vertex sets in 32 bits");
    let mut adjacency = vec![0u32; n];
    for &(u, v) in pairs {
        adjacency[u as usize] |= 1 << v;
        adjacency[v as usize] |= 1 << u;
    }
    adjacency
}

// ---- Geography ----------------------------------------------------------

/// Undirected Vertex Geography: a move takes the token along an edge to a
/// vertex never visited; a player who cannot move loses.
pub struct GeographySearch {
    adjacency: Vec<u32>,
    /// Whether the player to move wins, by (visited set, token).
    memo: HashMap<(u32, u32), bool>,
}

impl GeographySearch {
    pub fn new(n: usize, edges: &[(u32, u32)]) -> Self {
        GeographySearch {
            adjacency: adjacency_sets(n, edges),
            memo: HashMap::new(),
        }
    }

    /// The vertices the token may move to, ascending.
    pub fn legal(&self, visited: u32, token: u32) -> Vec<u32> {
        members(u64::from(self.adjacency[token as usize] & !visited)).collect()
    }

    /// Whether the player to move wins.
    pub fn mover_wins(&mut self, visited: u32, token: u32) -> bool {
        if let Some(&known) = self.memo.get(&(visited, token)) {
            return known;
        }
        let wins = self
            .legal(visited, token)
            .into_iter()
            .any(|v| !self.mover_wins(visited | 1 << v, v));
        self.memo.insert((visited, token), wins);
        wins
    }

    /// The moves after which the opponent, to move, loses; ascending.
    pub fn winning(&mut self, visited: u32, token: u32) -> Vec<u32> {
        self.legal(visited, token)
            .into_iter()
            .filter(|&v| !self.mover_wins(visited | 1 << v, v))
            .collect()
    }

    /// Whether the first player wins with the token placed on `start`.
    pub fn first_player_wins(&mut self, start: u32) -> bool {
        self.mover_wins(1 << start, start)
    }
}

// ---- The edge game -----------------------------------------------------

/// The bipartite edge-adding game: a move adds a missing edge that leaves
/// the graph bipartite; a player who cannot move loses.
pub struct EdgeSearch {
    n: usize,
    /// Every pair `(u, v)`, `u < v`, in lexicographic order; bit `i` of a
    /// mask is pair `i`.
    pairs: Vec<(u32, u32)>,
    /// Whether the player to move wins, by edge set.
    memo: HashMap<u64, bool>,
}

impl EdgeSearch {
    pub fn new(n: usize) -> Self {
        assert!(n <= 11, "edge sets are masks over at most 64 pairs");
        let pairs = (0..n as u32)
            .flat_map(|u| (u + 1..n as u32).map(move |v| (u, v)))
            .collect();
        EdgeSearch {
            n,
            pairs,
            memo: HashMap::new(),
        }
    }

    /// The number of pairs, the bits of a mask.
    pub fn pair_count(&self) -> usize {
        self.pairs.len()
    }

    /// The pair of bit `index`, `u < v`.
    pub fn pair(&self, index: usize) -> (u32, u32) {
        self.pairs[index]
    }

    /// The bit of the pair `{u, v}`, either way round; `None` for a loop
    /// or a vertex out of range.
    pub fn index_of(&self, u: u32, v: u32) -> Option<usize> {
        let key = (u.min(v), u.max(v));
        self.pairs.iter().position(|&pair| pair == key)
    }

    /// The mask of these edges.
    pub fn mask_of(&self, edges: impl IntoIterator<Item = (u32, u32)>) -> u64 {
        edges.into_iter().fold(0, |mask, (u, v)| {
            let index = self.index_of(u, v).expect("an edge of the board");
            mask | 1 << index
        })
    }

    /// Whether the edge set has no odd cycle.
    pub fn is_bipartite(&self, mask: u64) -> bool {
        let mut adjacency = [0u64; 11];
        for index in members(mask) {
            let (u, v) = self.pairs[index as usize];
            adjacency[u as usize] |= 1 << v;
            adjacency[v as usize] |= 1 << u;
        }
        two_colourable(self.n, |u| members(adjacency[u]).map(|w| w as usize))
    }

    /// The bits of the legal moves from `mask`, ascending: the missing
    /// pairs whose addition keeps the graph bipartite.
    pub fn legal(&self, mask: u64) -> Vec<usize> {
        (0..self.pairs.len())
            .filter(|&i| mask >> i & 1 == 0 && self.is_bipartite(mask | 1 << i))
            .collect()
    }

    /// The legal moves from `mask` as pairs, ascending.
    pub fn legal_pairs(&self, mask: u64) -> Vec<(u32, u32)> {
        let legal = self.legal(mask);
        legal.into_iter().map(|i| self.pairs[i]).collect()
    }

    /// Whether the player to move wins.
    pub fn mover_wins(&mut self, mask: u64) -> bool {
        if let Some(&known) = self.memo.get(&mask) {
            return known;
        }
        let wins = self
            .legal(mask)
            .into_iter()
            .any(|i| !self.mover_wins(mask | 1 << i));
        self.memo.insert(mask, wins);
        wins
    }

    /// The winning moves from `mask` as pairs `(u, v)`, `u < v`, ascending.
    pub fn winning(&mut self, mask: u64) -> Vec<(u32, u32)> {
        let winning: Vec<usize> = self
            .legal(mask)
            .into_iter()
            .filter(|&i| !self.mover_wins(mask | 1 << i))
            .collect();
        winning.into_iter().map(|i| self.pairs[i]).collect()
    }
}

// ---- Tree painting ----------------------------------------------------

/// A tree-painting position: the painted vertices of each side, and whose
/// turn it is. Black moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Colouring {
    pub black: u32,
    pub white: u32,
    pub black_to_move: bool,
}

impl Colouring {
    /// The opening: one vertex each, black to move.
    pub fn opening(black: u32, white: u32) -> Colouring {
        Colouring {
            black: 1 << black,
            white: 1 << white,
            black_to_move: true,
        }
    }

    /// After the side to move paints `v`.
    pub fn after(self, v: u32) -> Colouring {
        let mut next = self;
        if self.black_to_move {
            next.black |= 1 << v;
        } else {
            next.white |= 1 << v;
        }
        next.black_to_move = !self.black_to_move;
        next
    }

    /// The same colouring with the other side to move.
    fn passed(self) -> Colouring {
        Colouring {
            black_to_move: !self.black_to_move,
            ..self
        }
    }

    /// (the mover's vertices, the opponent's vertices).
    fn sides(self) -> (u32, u32) {
        if self.black_to_move {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        }
    }
}

/// Tree painting: a move paints an unpainted vertex next to one of the
/// mover's own; a player who cannot paint loses.
pub struct PaintSearch {
    adjacency: Vec<u32>,
    wins: HashMap<Colouring, bool>,
    margins: HashMap<Colouring, i64>,
}

impl PaintSearch {
    pub fn new(n: usize, edges: &[(u32, u32)]) -> Self {
        PaintSearch {
            adjacency: adjacency_sets(n, edges),
            wins: HashMap::new(),
            margins: HashMap::new(),
        }
    }

    /// The vertices the side to move may paint, ascending.
    pub fn legal(&self, colouring: Colouring) -> Vec<u32> {
        let (own, other) = colouring.sides();
        (0..self.adjacency.len() as u32)
            .filter(|&v| (own | other) >> v & 1 == 0 && self.adjacency[v as usize] & own != 0)
            .collect()
    }

    /// Whether the side to move wins.
    pub fn mover_wins(&mut self, colouring: Colouring) -> bool {
        if let Some(&known) = self.wins.get(&colouring) {
            return known;
        }
        let wins = self
            .legal(colouring)
            .into_iter()
            .any(|v| !self.mover_wins(colouring.after(v)));
        self.wins.insert(colouring, wins);
        wins
    }

    /// The moves after which the opponent, to move, loses; ascending.
    pub fn winning(&mut self, colouring: Colouring) -> Vec<u32> {
        self.legal(colouring)
            .into_iter()
            .filter(|&v| !self.mover_wins(colouring.after(v)))
            .collect()
    }

    /// The minimax of the final black count minus white count, black
    /// maximising and white minimising, a stuck player passing until
    /// neither can paint.
    pub fn margin(&mut self, colouring: Colouring) -> i64 {
        if let Some(&known) = self.margins.get(&colouring) {
            return known;
        }
        let moves = self.legal(colouring);
        let value = if moves.is_empty() {
            if self.legal(colouring.passed()).is_empty() {
                i64::from(colouring.black.count_ones()) - i64::from(colouring.white.count_ones())
            } else {
                self.margin(colouring.passed())
            }
        } else {
            let values = moves.into_iter().map(|v| self.margin(colouring.after(v)));
            let values: Vec<i64> = values.collect();
            let best = if colouring.black_to_move {
                values.iter().max()
            } else {
                values.iter().min()
            };
            *best.expect("a move")
        };
        self.margins.insert(colouring, value);
        value
    }
}

// ---- Any game, after a line of moves -----------------------------------

/// The six games, as the articles name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    Geography,
    BipartiteEdge,
    TreePaint,
    DirectedVertexGeography,
    UndirectedEdgeGeography,
    DirectedEdgeGeography,
}

/// One move: a vertex (the token's next vertex, or the vertex painted) or
/// an added edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Play {
    Vertex(u32),
    Edge(u32, u32),
}

impl Play {
    fn vertex(self) -> u32 {
        match self {
            Play::Vertex(v) => v,
            Play::Edge(..) => panic!("{self:?} is not a vertex move"),
        }
    }
}

/// A puzzle as plain data: `pairs` are edges, or arcs `u → v` for the
/// directed games; `start` is the token's vertex (Geographies); `black`
/// and `white` are the painted vertices (tree painting).
#[derive(Debug, Clone)]
pub struct Puzzle {
    pub game: Game,
    pub n: usize,
    pub pairs: Vec<(u32, u32)>,
    pub start: u32,
    pub black: u32,
    pub white: u32,
}

/// The exhaustive answers about the position a line of moves reaches from
/// a puzzle's start. Each method replays the line itself and panics on an
/// illegal move.
pub enum Oracle {
    Geography {
        search: GeographySearch,
        start: u32,
    },
    Edge {
        search: EdgeSearch,
        initial: u64,
    },
    Paint {
        search: PaintSearch,
        opening: Colouring,
    },
    Search(SearchedGame),
}

impl Oracle {
    pub fn of(puzzle: &Puzzle) -> Oracle {
        let Puzzle { n, ref pairs, .. } = *puzzle;
        let rules = match puzzle.game {
            Game::Geography => {
                return Oracle::Geography {
                    search: GeographySearch::new(n, pairs),
                    start: puzzle.start,
                };
            }
            Game::BipartiteEdge => {
                let search = EdgeSearch::new(n);
                let initial = search.mask_of(pairs.iter().copied());
                assert!(search.is_bipartite(initial), "the start has an odd cycle");
                return Oracle::Edge { search, initial };
            }
            Game::TreePaint => {
                return Oracle::Paint {
                    search: PaintSearch::new(n, pairs),
                    opening: Colouring::opening(puzzle.black, puzzle.white),
                };
            }
            Game::DirectedVertexGeography => Rules::DirectedVertex,
            Game::UndirectedEdgeGeography => Rules::UndirectedEdge,
            Game::DirectedEdgeGeography => Rules::DirectedEdge,
        };
        Oracle::Search(SearchedGame {
            rules,
            n,
            pairs: pairs.clone(),
            start: puzzle.start,
        })
    }

    /// Every legal move after `line`, ascending.
    pub fn legal(&mut self, line: &[Play]) -> Vec<Play> {
        match self {
            Oracle::Geography { search, start } => {
                let (visited, token) = replay_geography(search, *start, line);
                vertex_plays(search.legal(visited, token))
            }
            Oracle::Edge { search, initial } => {
                let mask = replay_edges(search, *initial, line);
                edge_plays(search.legal_pairs(mask))
            }
            Oracle::Paint { search, opening } => {
                let colouring = replay_painting(search, *opening, line);
                vertex_plays(search.legal(colouring))
            }
            Oracle::Search(game) => vertex_plays(game.legal(line)),
        }
    }

    /// Every winning move after `line`, ascending: the moves after which
    /// the side to move then loses.
    pub fn winning(&mut self, line: &[Play]) -> Vec<Play> {
        match self {
            Oracle::Geography { search, start } => {
                let (visited, token) = replay_geography(search, *start, line);
                vertex_plays(search.winning(visited, token))
            }
            Oracle::Edge { search, initial } => {
                let mask = replay_edges(search, *initial, line);
                edge_plays(search.winning(mask))
            }
            Oracle::Paint { search, opening } => {
                let colouring = replay_painting(search, *opening, line);
                vertex_plays(search.winning(colouring))
            }
            Oracle::Search(game) => vertex_plays(game.winning(line)),
        }
    }

    /// Whether the side to move after `line` wins.
    pub fn mover_wins(&mut self, line: &[Play]) -> bool {
        !self.winning(line).is_empty()
    }

    /// Tree painting's final black minus white count under minimax play
    /// from the opening; `None` for the other games.
    pub fn margin(&mut self) -> Option<i64> {
        match self {
            Oracle::Paint { search, opening } => Some(search.margin(*opening)),
            _ => None,
        }
    }
}

fn vertex_plays(vertices: Vec<u32>) -> Vec<Play> {
    vertices.into_iter().map(Play::Vertex).collect()
}

fn edge_plays(edges: Vec<(u32, u32)>) -> Vec<Play> {
    edges.into_iter().map(|(u, v)| Play::Edge(u, v)).collect()
}

/// (visited set, token) after `line`.
fn replay_geography(search: &GeographySearch, start: u32, line: &[Play]) -> (u32, u32) {
    line.iter()
        .fold((1 << start, start), |(visited, token), &played| {
            let v = played.vertex();
            assert!(
                search.legal(visited, token).contains(&v),
                "illegal {played:?} after {line:?}"
            );
            (visited | 1 << v, v)
        })
}

/// The edge set after `line`.
fn replay_edges(search: &EdgeSearch, initial: u64, line: &[Play]) -> u64 {
    line.iter().fold(initial, |mask, &played| {
        let Play::Edge(u, v) = played else {
            panic!("{played:?} is not an edge")
        };
        let index = search.index_of(u, v);
        let legal = index.filter(|&i| search.legal(mask).contains(&i));
        mask | 1 << legal.unwrap_or_else(|| panic!("illegal {played:?} after {line:?}"))
    })
}

/// The colouring after `line`.
fn replay_painting(search: &PaintSearch, opening: Colouring, line: &[Play]) -> Colouring {
    line.iter().fold(opening, |colouring, &played| {
        let v = played.vertex();
        assert!(
            search.legal(colouring).contains(&v),
            "illegal {played:?} after {line:?}"
        );
        colouring.after(v)
    })
}

// ---- The Geographies solved by search ---------------------------------

/// Directed vertex, undirected edge or directed edge Geography. A position
/// of directed vertex Geography is that game on the arcs into unvisited
/// vertices; one of the edge games is that game on the unused edges or
/// arcs, so [`strategy::Board`] answers from the token's vertex.
pub struct SearchedGame {
    rules: Rules,
    n: usize,
    pairs: Vec<(u32, u32)>,
    start: u32,
}

impl SearchedGame {
    /// The pairs still usable after `line`, and the token's vertex.
    fn replay(&self, line: &[Play]) -> (Vec<(u32, u32)>, u32) {
        let mut visited = vec![false; self.n];
        visited[self.start as usize] = true;
        let mut used = vec![false; self.pairs.len()];
        let mut token = self.start;
        for &played in line {
            let v = played.vertex();
            let way = self.pairs.iter().enumerate().position(|(i, &(a, b))| {
                let leads = match self.rules {
                    Rules::DirectedVertex | Rules::DirectedEdge => (a, b) == (token, v),
                    Rules::UndirectedEdge => (a, b) == (token, v) || (b, a) == (token, v),
                };
                let free = match self.rules {
                    Rules::DirectedVertex => !visited[v as usize],
                    _ => !used[i],
                };
                leads && free
            });
            let way = way.unwrap_or_else(|| panic!("illegal {played:?} after {line:?}"));
            used[way] = true;
            visited[v as usize] = true;
            token = v;
        }
        let usable = self
            .pairs
            .iter()
            .enumerate()
            .filter(|&(i, &(_, b))| match self.rules {
                Rules::DirectedVertex => !visited[b as usize],
                _ => !used[i],
            })
            .map(|(_, &pair)| pair)
            .collect();
        (usable, token)
    }

    fn legal(&self, line: &[Play]) -> Vec<u32> {
        let (usable, token) = self.replay(line);
        let mut targets: Vec<u32> = usable
            .iter()
            .filter_map(|&(a, b)| match self.rules {
                Rules::UndirectedEdge if b == token => Some(a),
                _ if a == token => Some(b),
                _ => None,
            })
            .collect();
        targets.sort_unstable();
        targets
    }

    fn winning(&self, line: &[Play]) -> Vec<u32> {
        let (usable, token) = self.replay(line);
        let board = strategy::Board {
            rules: self.rules,
            n: self.n,
            pairs: &usable,
        };
        board.winning_moves(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(n: u32) -> Vec<(u32, u32)> {
        (1..n).map(|v| (v - 1, v)).collect()
    }

    #[test]
    fn bipartiteness_by_colouring() {
        assert!(is_bipartite(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]));
        assert!(!is_bipartite(3, &[(0, 1), (1, 2), (2, 0)]));
        assert!(is_bipartite(0, &[]));
        let search = EdgeSearch::new(5);
        assert!(search.is_bipartite(search.mask_of(path(5))));
        assert!(!search.is_bipartite(search.mask_of([(0, 1), (1, 2), (0, 2)])));
    }

    #[test]
    fn geography_on_paths() {
        // From an end of a path the first player wins exactly when the
        // path has an even number of vertices; from the middle of P3
        // either end wins at once.
        for n in 1..=8 {
            let mut search = GeographySearch::new(n as usize, &path(n));
            assert_eq!(search.first_player_wins(0), n % 2 == 0, "P{n}");
        }
        let mut search = GeographySearch::new(3, &path(3));
        assert!(search.first_player_wins(1));
        assert_eq!(search.winning(0b010, 1), vec![0, 2]);
        assert_eq!(search.winning(0b001, 0), vec![]);
    }

    #[test]
    fn the_edge_game_by_hand() {
        // ABC398 G sample 1: on the path 0-1-2-3 closing the 4-cycle is
        // the only winning move.
        let mut search = EdgeSearch::new(4);
        let start = search.mask_of(path(4));
        assert_eq!(search.winning(start), vec![(0, 3)]);
        assert_eq!(search.legal_pairs(start), vec![(0, 3)]);
        // The empty graph on four vertices is lost for the first player.
        assert!(!search.mover_wins(0));
    }

    #[test]
    fn painting_by_hand() {
        // A path 0-1-2-3-4, black on 0, white on 4: black paints 1, white
        // 3, black 2 and white is stuck; black ends with three vertices.
        let mut search = PaintSearch::new(5, &path(5));
        let opening = Colouring::opening(0, 4);
        assert_eq!(search.legal(opening), vec![1]);
        assert!(search.mover_wins(opening));
        assert_eq!(search.margin(opening), 1);
        let mut oracle = Oracle::of(&Puzzle {
            game: Game::TreePaint,
            n: 5,
            pairs: path(5),
            start: 0,
            black: 0,
            white: 4,
        });
        assert_eq!(oracle.winning(&[Play::Vertex(1)]), vec![]);
        assert_eq!(oracle.margin(), Some(1));
    }

    #[test]
    fn the_searched_geographies_after_a_line() {
        // The directed cycle 0 → 1 → 2 → 0 from 0: the token goes round
        // once in directed edge Geography, and stops at 2 in directed
        // vertex Geography.
        let cycle = vec![(0, 1), (1, 2), (2, 0)];
        let puzzle = |game| Puzzle {
            game,
            n: 3,
            pairs: cycle.clone(),
            start: 0,
            black: 0,
            white: 0,
        };
        let line = [Play::Vertex(1), Play::Vertex(2)];
        let mut edges = Oracle::of(&puzzle(Game::DirectedEdgeGeography));
        assert_eq!(edges.legal(&line), vec![Play::Vertex(0)]);
        assert!(edges.mover_wins(&line));
        let mut vertices = Oracle::of(&puzzle(Game::DirectedVertexGeography));
        assert_eq!(vertices.legal(&line), vec![]);
        assert!(!vertices.mover_wins(&line));
    }

    #[test]
    #[should_panic(expected = "illegal")]
    fn an_illegal_line_is_refused() {
        let mut oracle = Oracle::of(&Puzzle {
            game: Game::Geography,
            n: 3,
            pairs: path(3),
            start: 0,
            black: 0,
            white: 0,
        });
        oracle.legal(&[Play::Vertex(2)]);
    }
}
