//! Exhaustive game-tree search for every game, written from the rules
//! alone and independent of the solvers: plain recursion over small
//! boards, memoised where the state fits a word. A position is the puzzle
//! plus the moves played; each oracle replays the moves itself and panics
//! on an illegal one.
//!
//! - Geography: (visited set, token), memoised.
//! - The edge game: the edge set as a bit mask over all pairs, memoised,
//!   bipartiteness re-checked after every added edge.
//! - Tree painting: (black set, white set, side to move), memoised; also
//!   the minimax of the final black minus white count, a stuck player
//!   passing until neither can move.
//! - The search Geographies: the test kit's plain recursion
//!   ([`strategy::Board`]) on the pairs still usable, the token's vertex
//!   as the start. A position of directed vertex Geography is that game on
//!   the arcs into unvisited vertices; one of the edge games is that game
//!   on the unused edges or arcs.

use std::collections::HashMap;

use crate::puzzle::{Game, Move, Spec};
use puzzled_testkit::strategy::{self, Rules};

/// The oracle of one puzzle.
pub enum Oracle {
    Geography(GeographyOracle),
    Edge(EdgeOracle),
    Paint(PaintOracle),
    Search(SearchOracle),
}

impl Oracle {
    pub fn of(spec: &Spec) -> Oracle {
        let raw = spec.raw();
        let n = raw.vertex_count as usize;
        let pairs: Vec<(u32, u32)> = raw.edges.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let rules = match raw.game {
            Game::Geography => {
                return Oracle::Geography(GeographyOracle::new(n, &pairs, raw.start));
            }
            Game::BipartiteEdge => return Oracle::Edge(EdgeOracle::new(n, &pairs)),
            Game::TreePaint => {
                let (black, white) = (raw.black.unwrap(), raw.white.unwrap());
                return Oracle::Paint(PaintOracle::new(n, &pairs, black, white));
            }
            Game::DirectedVertexGeography => Rules::DirectedVertex,
            Game::UndirectedEdgeGeography => Rules::UndirectedEdge,
            Game::DirectedEdgeGeography => Rules::DirectedEdge,
        };
        Oracle::Search(SearchOracle {
            rules,
            n,
            pairs,
            start: raw.start,
        })
    }

    /// Every legal move after `line`, ascending.
    pub fn legal(&mut self, line: &[Move]) -> Vec<Move> {
        match self {
            Oracle::Geography(o) => o.legal(line),
            Oracle::Edge(o) => o.legal(line),
            Oracle::Paint(o) => o.legal(line),
            Oracle::Search(o) => o.legal(line),
        }
    }

    /// Every winning move after `line`, ascending: the moves after which
    /// the side to move then loses.
    pub fn winning(&mut self, line: &[Move]) -> Vec<Move> {
        match self {
            Oracle::Geography(o) => o.winning(line),
            Oracle::Edge(o) => o.winning(line),
            Oracle::Paint(o) => o.winning(line),
            Oracle::Search(o) => o.winning(line),
        }
    }
}

fn vertex_of(played: Move) -> u32 {
    match played {
        Move::Geography(v) | Move::Paint(v) => v,
        Move::Edge(..) => panic!("{played:?} is not a vertex move"),
    }
}

// ---- Geography ----------------------------------------------------------

pub struct GeographyOracle {
    adjacency: Vec<u32>,
    start: u32,
    memo: HashMap<(u32, u32), bool>,
}

impl GeographyOracle {
    fn new(n: usize, pairs: &[(u32, u32)], start: u32) -> Self {
        assert!(n <= 32);
        let mut adjacency = vec![0u32; n];
        for &(u, v) in pairs {
            adjacency[u as usize] |= 1 << v;
            adjacency[v as usize] |= 1 << u;
        }
        GeographyOracle {
            adjacency,
            start,
            memo: HashMap::new(),
        }
    }

    fn replay(&self, line: &[Move]) -> (u32, u32) {
        let (mut visited, mut token) = (1u32 << self.start, self.start);
        for &played in line {
            let v = vertex_of(played);
            assert!(
                self.adjacency[token as usize] >> v & 1 == 1 && visited >> v & 1 == 0,
                "illegal {played:?} after {line:?}"
            );
            visited |= 1 << v;
            token = v;
        }
        (visited, token)
    }

    fn moves(&self, visited: u32, token: u32) -> Vec<u32> {
        let options = self.adjacency[token as usize] & !visited;
        (0..32).filter(|&v| options >> v & 1 == 1).collect()
    }

    fn mover_wins(&mut self, visited: u32, token: u32) -> bool {
        if let Some(&known) = self.memo.get(&(visited, token)) {
            return known;
        }
        let wins = self
            .moves(visited, token)
            .into_iter()
            .any(|v| !self.mover_wins(visited | 1 << v, v));
        self.memo.insert((visited, token), wins);
        wins
    }

    fn legal(&self, line: &[Move]) -> Vec<Move> {
        let (visited, token) = self.replay(line);
        self.moves(visited, token)
            .into_iter()
            .map(Move::Geography)
            .collect()
    }

    fn winning(&mut self, line: &[Move]) -> Vec<Move> {
        let (visited, token) = self.replay(line);
        self.moves(visited, token)
            .into_iter()
            .filter(|&v| !self.mover_wins(visited | 1 << v, v))
            .map(Move::Geography)
            .collect()
    }
}

// ---- The edge game -----------------------------------------------------

pub struct EdgeOracle {
    n: usize,
    /// Every pair `(u, v)`, `u < v`; bit `i` of a mask is pair `i`.
    pairs: Vec<(u32, u32)>,
    start: u64,
    memo: HashMap<u64, bool>,
}

impl EdgeOracle {
    fn new(n: usize, edges: &[(u32, u32)]) -> Self {
        let pairs: Vec<(u32, u32)> = (0..n as u32)
            .flat_map(|u| (u + 1..n as u32).map(move |v| (u, v)))
            .collect();
        assert!(pairs.len() <= 64);
        let mut oracle = EdgeOracle {
            n,
            pairs,
            start: 0,
            memo: HashMap::new(),
        };
        for &(u, v) in edges {
            oracle.start |= 1 << oracle.pair_index(u, v);
        }
        assert!(oracle.is_bipartite(oracle.start));
        oracle
    }

    fn pair_index(&self, u: u32, v: u32) -> usize {
        let key = (u.min(v), u.max(v));
        self.pairs.iter().position(|&p| p == key).unwrap()
    }

    /// A plain 2-colouring by search.
    fn is_bipartite(&self, mask: u64) -> bool {
        let mut colour: Vec<Option<bool>> = vec![None; self.n];
        for root in 0..self.n {
            if colour[root].is_some() {
                continue;
            }
            colour[root] = Some(false);
            let mut stack = vec![root];
            while let Some(u) = stack.pop() {
                for (i, &(a, b)) in self.pairs.iter().enumerate() {
                    if mask >> i & 1 == 0 || (a as usize != u && b as usize != u) {
                        continue;
                    }
                    let w = (a + b) as usize - u;
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

    fn moves(&self, mask: u64) -> Vec<usize> {
        (0..self.pairs.len())
            .filter(|&i| mask >> i & 1 == 0 && self.is_bipartite(mask | 1 << i))
            .collect()
    }

    fn mover_wins(&mut self, mask: u64) -> bool {
        if let Some(&known) = self.memo.get(&mask) {
            return known;
        }
        let wins = self
            .moves(mask)
            .into_iter()
            .any(|i| !self.mover_wins(mask | 1 << i));
        self.memo.insert(mask, wins);
        wins
    }

    fn replay(&self, line: &[Move]) -> u64 {
        let mut mask = self.start;
        for &played in line {
            let Move::Edge(u, v) = played else {
                panic!("{played:?} is not an edge")
            };
            let i = self.pair_index(u, v);
            assert!(
                mask >> i & 1 == 0 && self.is_bipartite(mask | 1 << i),
                "illegal {played:?} after {line:?}"
            );
            mask |= 1 << i;
        }
        mask
    }

    fn as_move(&self, i: usize) -> Move {
        Move::Edge(self.pairs[i].0, self.pairs[i].1)
    }

    fn legal(&self, line: &[Move]) -> Vec<Move> {
        let mask = self.replay(line);
        self.moves(mask)
            .into_iter()
            .map(|i| self.as_move(i))
            .collect()
    }

    fn winning(&mut self, line: &[Move]) -> Vec<Move> {
        let mask = self.replay(line);
        let winning: Vec<usize> = self
            .moves(mask)
            .into_iter()
            .filter(|&i| !self.mover_wins(mask | 1 << i))
            .collect();
        winning.into_iter().map(|i| self.as_move(i)).collect()
    }
}

// ---- Tree painting ----------------------------------------------------

pub struct PaintOracle {
    adjacency: Vec<u32>,
    black: u32,
    white: u32,
    wins: HashMap<(u32, u32, bool), bool>,
    margins: HashMap<(u32, u32, bool), i64>,
}

impl PaintOracle {
    fn new(n: usize, pairs: &[(u32, u32)], black: u32, white: u32) -> Self {
        assert!(n <= 32);
        let mut adjacency = vec![0u32; n];
        for &(u, v) in pairs {
            adjacency[u as usize] |= 1 << v;
            adjacency[v as usize] |= 1 << u;
        }
        PaintOracle {
            adjacency,
            black,
            white,
            wins: HashMap::new(),
            margins: HashMap::new(),
        }
    }

    /// The vertices the side painting `own` may paint.
    fn moves(&self, own: u32, other: u32) -> Vec<u32> {
        let painted = own | other;
        (0..self.adjacency.len() as u32)
            .filter(|&v| painted >> v & 1 == 0 && self.adjacency[v as usize] & own != 0)
            .collect()
    }

    /// (black, white, black to move) after `line`; black moves first.
    fn replay(&self, line: &[Move]) -> (u32, u32, bool) {
        let (mut black, mut white) = (1u32 << self.black, 1u32 << self.white);
        for (i, &played) in line.iter().enumerate() {
            let v = vertex_of(played);
            let black_moves = i.is_multiple_of(2);
            let (own, other) = if black_moves {
                (&mut black, white)
            } else {
                (&mut white, black)
            };
            assert!(
                (*own | other) >> v & 1 == 0 && self.adjacency[v as usize] & *own != 0,
                "illegal {played:?} after {line:?}"
            );
            *own |= 1 << v;
        }
        (black, white, line.len().is_multiple_of(2))
    }

    fn mover_moves(&self, black: u32, white: u32, black_to_move: bool) -> Vec<u32> {
        if black_to_move {
            self.moves(black, white)
        } else {
            self.moves(white, black)
        }
    }

    fn after(black: u32, white: u32, black_to_move: bool, v: u32) -> (u32, u32, bool) {
        if black_to_move {
            (black | 1 << v, white, false)
        } else {
            (black, white | 1 << v, true)
        }
    }

    /// Whether the side to move wins: a player who cannot paint loses.
    fn mover_wins(&mut self, black: u32, white: u32, black_to_move: bool) -> bool {
        let key = (black, white, black_to_move);
        if let Some(&known) = self.wins.get(&key) {
            return known;
        }
        let wins = self
            .mover_moves(black, white, black_to_move)
            .into_iter()
            .any(|v| {
                let (b, w, t) = Self::after(black, white, black_to_move, v);
                !self.mover_wins(b, w, t)
            });
        self.wins.insert(key, wins);
        wins
    }

    /// The minimax of the final black count minus white count, black
    /// maximising and white minimising, a stuck player passing until
    /// neither can paint.
    pub fn margin_from(&mut self, black: u32, white: u32, black_to_move: bool) -> i64 {
        let key = (black, white, black_to_move);
        if let Some(&known) = self.margins.get(&key) {
            return known;
        }
        let moves = self.mover_moves(black, white, black_to_move);
        let value = if moves.is_empty() {
            if self.mover_moves(black, white, !black_to_move).is_empty() {
                i64::from(black.count_ones()) - i64::from(white.count_ones())
            } else {
                self.margin_from(black, white, !black_to_move)
            }
        } else {
            let values = moves.into_iter().map(|v| {
                let (b, w, t) = Self::after(black, white, black_to_move, v);
                self.margin_from(b, w, t)
            });
            let values: Vec<i64> = values.collect();
            if black_to_move {
                *values.iter().max().unwrap()
            } else {
                *values.iter().min().unwrap()
            }
        };
        self.margins.insert(key, value);
        value
    }

    pub fn margin(&mut self) -> i64 {
        let (black, white, black_to_move) = self.replay(&[]);
        self.margin_from(black, white, black_to_move)
    }

    fn legal(&self, line: &[Move]) -> Vec<Move> {
        let (black, white, black_to_move) = self.replay(line);
        self.mover_moves(black, white, black_to_move)
            .into_iter()
            .map(Move::Paint)
            .collect()
    }

    fn winning(&mut self, line: &[Move]) -> Vec<Move> {
        let (black, white, black_to_move) = self.replay(line);
        self.mover_moves(black, white, black_to_move)
            .into_iter()
            .filter(|&v| {
                let (b, w, t) = Self::after(black, white, black_to_move, v);
                !self.mover_wins(b, w, t)
            })
            .map(Move::Paint)
            .collect()
    }
}

// ---- The Geographies solved by search ---------------------------------

pub struct SearchOracle {
    rules: Rules,
    n: usize,
    pairs: Vec<(u32, u32)>,
    start: u32,
}

impl SearchOracle {
    /// The pairs still usable after `line`, and the token's vertex.
    fn replay(&self, line: &[Move]) -> (Vec<(u32, u32)>, u32) {
        let mut visited = vec![false; self.n];
        visited[self.start as usize] = true;
        let mut used = vec![false; self.pairs.len()];
        let mut token = self.start;
        for &played in line {
            let v = vertex_of(played);
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
            assert!(way.is_some(), "illegal {played:?} after {line:?}");
            used[way.unwrap()] = true;
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

    fn legal(&self, line: &[Move]) -> Vec<Move> {
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
        targets.into_iter().map(Move::Geography).collect()
    }

    fn winning(&mut self, line: &[Move]) -> Vec<Move> {
        let (usable, token) = self.replay(line);
        let board = strategy::Board {
            rules: self.rules,
            n: self.n,
            pairs: &usable,
        };
        board
            .winning_moves(token)
            .into_iter()
            .map(Move::Geography)
            .collect()
    }
}
