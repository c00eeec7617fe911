//! The Geography variants without a known polynomial rule (docs/games.md,
//! "Geography by search"): directed vertex, undirected edge and directed
//! edge Geography, solved exactly by search on small graphs.
//!
//! All three are one game on *items*: the token sits on a vertex, a move
//! uses up one item and slides the token along it, and the player who cannot
//! move loses. In directed vertex Geography the items are the vertices (a
//! move along the arc `u → v` uses up `v`; the start is used up from the
//! outset); in the edge games they are the edges or arcs (a move along an
//! edge uses it up; vertices may repeat). A position is therefore the token
//! and the set of items still unused, a bit set of at most [`MAX_ITEMS`].
//!
//! The search is a depth-first negamax with:
//! - a transposition table keyed by the *relevant* remainder: only the
//!   unused items the token can still reach (through unused items) matter,
//!   so positions that differ elsewhere share an entry;
//! - forced-move chains walked without branching or table entries;
//! - an immediate-win test (a move after which the opponent is stuck);
//! - a closed form for a region that has become acyclic (a DAG of arcs, or a
//!   tree of edges): no walk through it can repeat an item, so the game is
//!   plain reachability and a linear pass decides it;
//! - moves ordered by the opponent's mobility after them, fewest first;
//! - a symmetric digraph in directed vertex Geography is undirected vertex
//!   Geography, decided at the root by the matching rule.
//!
//! The work is bounded in states (table entries); past the budget the search
//! stops with [`SearchStop::BudgetExceeded`] rather than answer late or
//! wrongly.

use std::collections::HashMap;

use serde::Serialize;

use super::Player;
use super::cancel::{Cancel, Cancelled};
use super::geography::{self, GeographyOptions};
use crate::graph::{Graph, Vertex};

/// A set of items: bit `i` is item `i`.
type Items = u128;

/// The most items a board may have: vertices in directed vertex Geography,
/// edges or arcs in the edge games.
pub const MAX_ITEMS: usize = 128;

/// The most vertices a board may have, in every variant (the token is kept
/// in a byte and vertex sets in one word).
pub const MAX_VERTICES: usize = 128;

/// Heap bytes one transposition-table entry may take, the table's growth
/// slack included: a 32-byte slot and its control byte, in a table at most
/// half full after it doubles.
pub const TABLE_BYTES_PER_STATE: u64 = 66;

/// The default largest strategy certificate, in positions.
pub const DEFAULT_CERTIFICATE_POSITIONS: usize = 10_000;

/// Which of the three games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Move along an arc `u → v` to a vertex never visited.
    DirectedVertex,
    /// Move along an edge never used.
    UndirectedEdge,
    /// Move along an arc never used.
    DirectedEdge,
}

impl Variant {
    /// The graph's pairs are arcs `(u, v)` = `u → v`.
    pub fn is_directed(self) -> bool {
        self != Variant::UndirectedEdge
    }
}

/// A board too large for the search's bit sets.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{variant} Geography is solved by search on at most {limit} {what}; this graph has {count}"
)]
pub struct BoardTooLarge {
    pub variant: &'static str,
    pub what: &'static str,
    pub count: usize,
    pub limit: usize,
}

/// One way out of a vertex: the item it uses up and where the token lands.
#[derive(Debug, Clone, Copy)]
struct Step {
    item: u8,
    to: u8,
}

/// The game's graph, as items and the moves between vertices.
#[derive(Debug, Clone)]
pub struct Board {
    variant: Variant,
    vertex_count: usize,
    /// Per vertex, its moves, by target vertex ascending.
    steps: Vec<Vec<Step>>,
    /// Per vertex, the items its moves use up.
    out_items: Vec<Items>,
    /// Per item, the vertex a move along it lands on, from each end: for a
    /// vertex item or an arc its head (`ends.1`); for an edge `{a, b}` the
    /// other end, `a ^ b ^ from`.
    ends: Vec<(u8, u8)>,
}

/// A position: the token's vertex and the items not yet used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    token: u8,
    unused: Items,
}

impl State {
    /// The vertex holding the token.
    pub fn token(&self) -> Vertex {
        self.token.into()
    }
}

/// Why a move of a position is not legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IllegalStep {
    /// No arc or edge leads from the token's vertex to the target.
    NotAdjacent,
    /// Directed vertex Geography: the target was visited already.
    AlreadyVisited,
    /// The edge games: the edge or arc to the target was used already.
    EdgeAlreadyUsed,
}

impl Board {
    /// The board of `variant` on `vertex_count` vertices with these pairs:
    /// arcs `u → v` for the directed variants, edges otherwise. The pairs
    /// must be a valid simple (di)graph: no loops, no repeated pair (for
    /// edges, in either orientation).
    pub fn new(
        variant: Variant,
        vertex_count: usize,
        pairs: &[(Vertex, Vertex)],
    ) -> Result<Board, BoardTooLarge> {
        let too_large = |what, count, limit| BoardTooLarge {
            variant: variant_name(variant),
            what,
            count,
            limit,
        };
        if vertex_count > MAX_VERTICES {
            return Err(too_large("vertices", vertex_count, MAX_VERTICES));
        }
        if variant != Variant::DirectedVertex && pairs.len() > MAX_ITEMS {
            return Err(too_large("edges", pairs.len(), MAX_ITEMS));
        }
        let mut steps = vec![Vec::new(); vertex_count];
        let mut out_items = vec![0; vertex_count];
        let mut ends = Vec::new();
        let mut add = |from: Vertex, item: usize, to: Vertex| {
            steps[from as usize].push(Step {
                item: item as u8,
                to: to as u8,
            });
            out_items[from as usize] |= 1 << item;
        };
        match variant {
            Variant::DirectedVertex => {
                ends = (0..vertex_count).map(|v| (v as u8, v as u8)).collect();
                for &(u, v) in pairs {
                    add(u, v as usize, v);
                }
            }
            Variant::DirectedEdge => {
                for (item, &(u, v)) in pairs.iter().enumerate() {
                    add(u, item, v);
                    ends.push((u as u8, v as u8));
                }
            }
            Variant::UndirectedEdge => {
                for (item, &(u, v)) in pairs.iter().enumerate() {
                    add(u, item, v);
                    add(v, item, u);
                    ends.push((u as u8, v as u8));
                }
            }
        }
        for list in &mut steps {
            list.sort_unstable_by_key(|s| s.to);
        }
        Ok(Board {
            variant,
            vertex_count,
            steps,
            out_items,
            ends,
        })
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn vertex_count(&self) -> usize {
        self.vertex_count
    }

    /// The opening position: the token on `start` (a vertex of the board),
    /// every item unused but the start itself in directed vertex Geography.
    pub fn start(&self, start: Vertex) -> State {
        let all: Items = match self.ends.len() {
            MAX_ITEMS => Items::MAX,
            count => (1 << count) - 1,
        };
        let unused = match self.variant {
            Variant::DirectedVertex => all & !(1 << start),
            _ => all,
        };
        State {
            token: start as u8,
            unused,
        }
    }

    /// The vertices the token can move to, ascending.
    pub fn moves(&self, state: State) -> Vec<Vertex> {
        self.live_steps(state).map(|s| s.to.into()).collect()
    }

    /// The position after moving the token to `to`.
    pub fn play(&self, state: State, to: Vertex) -> Result<State, IllegalStep> {
        let mut adjacent = false;
        for step in &self.steps[state.token as usize] {
            if u32::from(step.to) == to {
                adjacent = true;
                if state.unused & (1 << step.item) != 0 {
                    return Ok(self.after(state, *step));
                }
            }
        }
        Err(match (adjacent, self.variant) {
            (false, _) => IllegalStep::NotAdjacent,
            (true, Variant::DirectedVertex) => IllegalStep::AlreadyVisited,
            (true, _) => IllegalStep::EdgeAlreadyUsed,
        })
    }

    fn live_steps(&self, state: State) -> impl Iterator<Item = Step> + '_ {
        self.steps[state.token as usize]
            .iter()
            .copied()
            .filter(move |s| state.unused & (1 << s.item) != 0)
    }

    fn after(&self, state: State, step: Step) -> State {
        State {
            token: step.to,
            unused: state.unused & !(1 << step.item),
        }
    }

    /// Where a move along `item` from `from` lands.
    #[inline]
    fn target(&self, item: u32, from: u8) -> u8 {
        let (a, b) = self.ends[item as usize];
        match self.variant {
            Variant::UndirectedEdge => a ^ b ^ from,
            Variant::DirectedVertex | Variant::DirectedEdge => b,
        }
    }

    /// The number of moves the side to move has.
    #[inline]
    fn mobility(&self, state: State) -> u32 {
        (self.out_items[state.token as usize] & state.unused).count_ones()
    }

    /// The unused items the token can still reach: those usable from a
    /// vertex reachable from the token through unused items. Nothing else
    /// can ever be used again, so the value of a position depends on the
    /// token and this set alone.
    fn relevant(&self, state: State) -> Items {
        let mut relevant: Items = 0;
        let mut seen: u128 = 1 << state.token;
        let mut stack = [0u8; MAX_VERTICES];
        stack[0] = state.token;
        let mut depth = 1;
        while depth > 0 {
            depth -= 1;
            let v = stack[depth];
            let mut fresh = self.out_items[v as usize] & state.unused & !relevant;
            relevant |= fresh;
            while fresh != 0 {
                let item = fresh.trailing_zeros();
                fresh &= fresh - 1;
                let w = self.target(item, v);
                if seen & (1 << w) == 0 {
                    seen |= 1 << w;
                    stack[depth] = w;
                    depth += 1;
                }
            }
        }
        relevant
    }

    /// The value for the side to move when the items in `relevant` form an
    /// acyclic region as far as the proof needs to look, `None` otherwise.
    ///
    /// A depth-first pass evaluates "some move reaches a losing vertex" as
    /// plain reachability, stopping at the first losing child. Every arc it
    /// follows is a tree, forward or cross arc (for edges: a tree edge), so
    /// the followed arcs are acyclic and no walk along them repeats a vertex
    /// or an item: the values it proves hold in the real game, where the
    /// used-up items only remove moves the proof never relied on. A back arc
    /// (for edges: a second way into a vertex) gives up.
    fn acyclic_value(&self, state: State, relevant: Items) -> Option<bool> {
        // Per vertex: 0 unseen, 1 on the path, 2 wins, 3 loses.
        let mut mark = [0u8; MAX_VERTICES];
        self.acyclic_visit(state.token, None, relevant, &mut mark)
    }

    fn acyclic_visit(
        &self,
        v: u8,
        entered_by: Option<u32>,
        relevant: Items,
        mark: &mut [u8; MAX_VERTICES],
    ) -> Option<bool> {
        mark[v as usize] = 1;
        let mut options = self.out_items[v as usize] & relevant;
        if let Some(item) = entered_by {
            options &= !(1 << item);
        }
        let mut wins = false;
        while options != 0 {
            let item = options.trailing_zeros();
            options &= options - 1;
            let w = self.target(item, v);
            let w_wins = match mark[w as usize] {
                0 => self.acyclic_visit(w, Some(item), relevant, mark)?,
                2 if self.variant.is_directed() => true,
                3 if self.variant.is_directed() => false,
                _ => return None,
            };
            if !w_wins {
                wins = true;
                break;
            }
        }
        mark[v as usize] = if wins { 2 } else { 3 };
        Some(wins)
    }

    /// Every arc has its reverse: the digraph is an undirected graph.
    fn is_symmetric(&self) -> bool {
        (0..self.vertex_count).all(|u| {
            self.steps[u]
                .iter()
                .all(|s| self.steps[s.to as usize].iter().any(|b| b.to as usize == u))
        })
    }

    /// The undirected graph of a symmetric digraph.
    fn undirected(&self) -> Graph {
        let pairs: Vec<(Vertex, Vertex)> = (0..self.vertex_count)
            .flat_map(|u| {
                self.steps[u]
                    .iter()
                    .filter(move |s| (s.to as usize) > u)
                    .map(move |s| (u as Vertex, s.to.into()))
            })
            .collect();
        Graph::from_pairs(self.vertex_count as u64, &pairs)
            .expect("a board's symmetric arcs are a simple graph")
    }
}

fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::DirectedVertex => "directed vertex",
        Variant::UndirectedEdge => "undirected edge",
        Variant::DirectedEdge => "directed edge",
    }
}

/// The search filled its table without deciding the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the search explored {states} states, its budget (--search-budget-states {budget}), without deciding the game"
)]
pub struct BudgetExceeded {
    pub states: u64,
    pub budget: u64,
}

/// Why a search stopped without an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SearchStop {
    #[error(transparent)]
    BudgetExceeded(#[from] BudgetExceeded),
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
}

/// A search over one board, with its transposition table. Reuse it for
/// several positions of the same board: the table carries over.
pub struct Search<'b> {
    board: &'b Board,
    /// Relevant remainder and token → whether the side to move wins.
    table: HashMap<(Items, u8), bool, foldhash::fast::FixedState>,
    budget: u64,
    cancel: &'b Cancel,
}

impl<'b> Search<'b> {
    /// A search that stops once its table holds `budget` states.
    pub fn new(board: &'b Board, budget: u64, cancel: &'b Cancel) -> Search<'b> {
        Search {
            board,
            table: HashMap::default(),
            budget,
            cancel,
        }
    }

    /// The states searched so far (the table's entries).
    pub fn states(&self) -> u64 {
        self.table.len() as u64
    }

    /// Whether the side to move wins from `state`.
    pub fn wins(&mut self, state: State) -> Result<bool, SearchStop> {
        let board = self.board;
        // The value of the current position flips once per forced move.
        let mut negate = false;
        let mut state = state;
        loop {
            let mut live = board.live_steps(state);
            match (live.next(), live.next()) {
                (None, _) => return Ok(negate),
                (Some(only), None) => {
                    state = board.after(state, only);
                    negate = !negate;
                }
                (Some(_), Some(_)) => break,
            }
        }
        if board
            .live_steps(state)
            .any(|s| board.mobility(board.after(state, s)) == 0)
        {
            return Ok(!negate);
        }
        let relevant = board.relevant(state);
        let key = (relevant, state.token);
        if let Some(&wins) = self.table.get(&key) {
            return Ok(wins != negate);
        }
        let wins = match board.acyclic_value(state, relevant) {
            Some(wins) => wins,
            None => {
                let mut steps: Vec<(u32, Step)> = board
                    .live_steps(state)
                    .map(|s| (board.mobility(board.after(state, s)), s))
                    .collect();
                steps.sort_unstable_by_key(|&(mobility, s)| (mobility, s.to));
                let mut wins = false;
                for (_, step) in steps {
                    if !self.wins(board.after(state, step))? {
                        wins = true;
                        break;
                    }
                }
                wins
            }
        };
        self.record(key, wins)?;
        Ok(wins != negate)
    }

    fn record(&mut self, key: (Items, u8), wins: bool) -> Result<(), SearchStop> {
        let states = self.table.len() as u64;
        if states >= self.budget {
            return Err(BudgetExceeded {
                states,
                budget: self.budget,
            }
            .into());
        }
        self.cancel.check_every(self.table.len())?;
        self.table.insert(key, wins);
        Ok(())
    }

    /// Every move of `state` after which the side to move wins, ascending.
    pub fn winning_moves(&mut self, state: State) -> Result<Vec<Vertex>, SearchStop> {
        let mut winning = Vec::new();
        for step in self.board.live_steps(state).collect::<Vec<_>>() {
            if !self.wins(self.board.after(state, step))? {
                winning.push(step.to.into());
            }
        }
        Ok(winning)
    }

    /// The winner's strategy from `state` as a tree of at most `limit`
    /// positions, or why there is none that small. `mover_wins` says whether
    /// the side to move at `state` is the winner.
    pub fn strategy(
        &mut self,
        state: State,
        mover_wins: bool,
        limit: usize,
    ) -> Result<Certificate, SearchStop> {
        let mut tree = Strategy {
            moves: vec![state.token.into()],
            replies: vec![0],
        };
        if self.grow(state, mover_wins, &mut tree, 0, limit)? {
            Ok(Certificate::Strategy(tree))
        } else {
            Ok(Certificate::Omitted(format!(
                "the winner's strategy has more than {limit} positions"
            )))
        }
    }

    /// Adds the children of node `at` (position `state`) to `tree`: one
    /// winning reply when the winner is to move, every move otherwise.
    /// False once the tree would pass `limit` nodes.
    fn grow(
        &mut self,
        state: State,
        winner_to_move: bool,
        tree: &mut Strategy,
        at: usize,
        limit: usize,
    ) -> Result<bool, SearchStop> {
        let steps: Vec<Step> = self.board.live_steps(state).collect();
        let mut children = Vec::new();
        if winner_to_move {
            for step in steps {
                let next = self.board.after(state, step);
                if !self.wins(next)? {
                    children.push((step.to, next));
                    break;
                }
            }
            debug_assert_eq!(children.len(), 1, "the winner always has a winning move");
        } else {
            children = steps
                .into_iter()
                .map(|s| (s.to, self.board.after(state, s)))
                .collect();
        }
        tree.replies[at] = children.len() as u32;
        for (to, next) in children {
            if tree.moves.len() >= limit {
                return Ok(false);
            }
            let node = tree.moves.len();
            tree.moves.push(to.into());
            tree.replies.push(0);
            if !self.grow(next, !winner_to_move, tree, node, limit)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// A winning strategy as a tree in preorder. Node 0 is the start (the
/// token's vertex before the first move); every other node is the vertex
/// the token moved to. `replies[i]` counts node `i`'s children, which
/// follow it in preorder: exactly one (the winner's reply) where the winner
/// is to move, and every legal move where the loser is to move (none: the
/// loser is stuck).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Strategy {
    pub moves: Vec<Vertex>,
    pub replies: Vec<u32>,
}

/// A strategy certificate, or why it is left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Certificate {
    Strategy(Strategy),
    Omitted(String),
}

/// How hard to look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// The most states the transposition table may hold.
    pub budget_states: u64,
    /// The largest strategy certificate returned, in positions.
    pub certificate_positions: usize,
}

/// The verdict from a start and its evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchSolution {
    pub winner: Player,
    /// Every winning first move, ascending (empty when the second player wins).
    pub winning_moves: Vec<Vertex>,
    /// The states the search put in its table.
    pub states: u64,
    /// The winner's strategy, when it fits the limit.
    pub certificate: Certificate,
}

/// Solves the game on `board` from `start`.
///
/// A symmetric digraph in directed vertex Geography is undirected vertex
/// Geography: the matching rule decides it and its winning moves, and the
/// search only grows the certificate. Otherwise the search decides the
/// root, then every first move, then grows the certificate, all on one
/// table; the budget bounds the whole.
pub fn solve(
    board: &Board,
    start: Vertex,
    options: SearchOptions,
    cancel: &Cancel,
) -> Result<SearchSolution, SearchStop> {
    let state = board.start(start);
    let mut search = Search::new(board, options.budget_states, cancel);
    let winning_moves = if board.variant == Variant::DirectedVertex && board.is_symmetric() {
        let solution = geography::solve_with_cancel(
            &board.undirected(),
            start,
            GeographyOptions {
                all_starts: false,
                winning_moves: true,
            },
            cancel,
        )?;
        solution.winning_moves.map(|w| w.moves).unwrap_or_default()
    } else {
        search.winning_moves(state)?
    };
    let winner = if winning_moves.is_empty() {
        Player::Second
    } else {
        Player::First
    };
    // The certificate is a luxury: past the budget it is omitted, the
    // verdict stands.
    let mover_wins = winner == Player::First;
    let certificate = match search.strategy(state, mover_wins, options.certificate_positions) {
        Ok(certificate) => certificate,
        Err(SearchStop::BudgetExceeded(_)) => Certificate::Omitted(format!(
            "growing the winner's strategy passed the search budget of {} states",
            options.budget_states
        )),
        Err(stop) => return Err(stop),
    };
    Ok(SearchSolution {
        winner,
        winning_moves,
        states: search.states(),
        certificate,
    })
}

#[cfg(test)]
mod tests;
