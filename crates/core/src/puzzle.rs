//! The product's domain: a validated puzzle specification and a verdict with
//! its evidence. No proto and no SQL types here; `service` converts from the
//! wire, `store` persists, `canon` hashes.

use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::graph::digraph::Digraph;
use crate::graph::{Graph, GraphError, Vertex, VertexFieldError, check_vertex};
use crate::solver::Player;
use crate::solver::bipartite_edge::{self, BipartiteEdgeError};
use crate::solver::search_geography::{Board, BoardTooLarge, Certificate, Strategy, Variant};
use crate::solver::tree_paint::{self, NotATree};

/// The games (docs/games.md): three with a polynomial rule, and three
/// Geography variants solved by search on small graphs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Game {
    Geography,
    BipartiteEdge,
    TreePaint,
    DirectedVertexGeography,
    UndirectedEdgeGeography,
    DirectedEdgeGeography,
}

impl Game {
    /// Every game, in the order of their wire numbers.
    pub const ALL: [Game; 6] = [
        Game::Geography,
        Game::BipartiteEdge,
        Game::TreePaint,
        Game::DirectedVertexGeography,
        Game::UndirectedEdgeGeography,
        Game::DirectedEdgeGeography,
    ];

    /// The stable name used in the store and in canonical hashes.
    pub fn as_str(self) -> &'static str {
        match self {
            Game::Geography => "geography",
            Game::BipartiteEdge => "bipartite_edge",
            Game::TreePaint => "tree_paint",
            Game::DirectedVertexGeography => "directed_vertex_geography",
            Game::UndirectedEdgeGeography => "undirected_edge_geography",
            Game::DirectedEdgeGeography => "directed_edge_geography",
        }
    }

    /// Inverse of [`Game::as_str`].
    pub fn from_name(name: &str) -> Option<Game> {
        Game::ALL.into_iter().find(|g| g.as_str() == name)
    }

    /// The fewest vertices a puzzle of this game may have.
    pub fn min_vertices(self) -> u64 {
        match self {
            Game::TreePaint => 2,
            _ => 1,
        }
    }

    /// The variant of Geography solved by search, for those games.
    pub fn search_variant(self) -> Option<Variant> {
        match self {
            Game::DirectedVertexGeography => Some(Variant::DirectedVertex),
            Game::UndirectedEdgeGeography => Some(Variant::UndirectedEdge),
            Game::DirectedEdgeGeography => Some(Variant::DirectedEdge),
            Game::Geography | Game::BipartiteEdge | Game::TreePaint => None,
        }
    }

    /// The edge list is read as arcs `(u, v)` = `u → v`.
    pub fn is_directed(self) -> bool {
        self.search_variant().is_some_and(Variant::is_directed)
    }

    /// A token moves from a start vertex: the four Geographies.
    pub fn has_start(self) -> bool {
        self == Game::Geography || self.search_variant().is_some()
    }
}

/// Longest accepted title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// Longest accepted author, in characters.
pub const MAX_AUTHOR_CHARS: usize = 100;
/// The numberings a puzzle may be shown in: from 0 or from 1.
pub const MAX_NUMBERED_FROM: u32 = 1;

/// Size limits checked before any graph is allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_vertices: u64,
    pub max_edges: u64,
}

impl Limits {
    /// No size limit (a stored puzzle passed the limits of its day; tools
    /// and tests build puzzles of any size).
    pub const NONE: Limits = Limits {
        max_vertices: u64::MAX,
        max_edges: u64::MAX,
    };
}

/// The unvalidated parts of a puzzle, as they arrive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawSpec {
    pub game: Game,
    pub vertex_count: u64,
    pub edges: Vec<u32>,
    pub start: u32,
    pub black: Option<u32>,
    pub white: Option<u32>,
    pub title: String,
    pub author: String,
    /// The number the author gives the first vertex, 0 or
    /// [`MAX_NUMBERED_FROM`]: how people are shown the puzzle's vertices.
    /// Every vertex here is numbered from 0 whatever it says.
    pub numbered_from: u32,
}

impl RawSpec {
    /// A puzzle of `game` on this graph with start 0, the default painting
    /// ends, and no title or author.
    pub fn new(game: Game, vertex_count: u64, edges: Vec<u32>) -> RawSpec {
        RawSpec {
            game,
            vertex_count,
            edges,
            start: 0,
            black: None,
            white: None,
            title: String::new(),
            author: String::new(),
            numbered_from: 0,
        }
    }
}

/// A puzzle that passed every check of its game: the graph is simple, the
/// distinguished vertices exist, an edge-game graph is bipartite, a painting
/// graph is a tree. Only [`Spec::validate`] makes one.
#[derive(Debug, Clone)]
pub struct Spec {
    raw: RawSpec,
    /// The graph; for the directed games the underlying simple graph (each
    /// pair joined by an arc, once).
    graph: Graph,
    /// The arcs, for the directed games.
    digraph: Option<Digraph>,
    /// The search's board, for the games solved by search.
    board: Option<Board>,
}

/// Why a puzzle specification is rejected. `field` paths are relative to the
/// `PuzzleSpec` message (the service adds the request's prefix).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("graph.vertex_count: {game} needs at least {need} vertices, got {got}")]
    TooFewVertices {
        game: &'static str,
        need: u64,
        got: u64,
    },
    #[error("{field}: {value} {what} is over the limit of {limit} (max_{what})")]
    OverLimit {
        field: &'static str,
        /// What is counted: "vertices" or "edges".
        what: &'static str,
        value: u64,
        limit: u64,
    },
    #[error("{0}")]
    Graph(#[from] GraphError),
    #[error("{0}")]
    Vertex(#[from] VertexFieldError),
    #[error("white: black and white are both vertex {0}; they must differ")]
    SameBlackWhite(u32),
    #[error("{field}: only {game} puzzles use this field")]
    FieldNotForGame {
        field: &'static str,
        game: &'static str,
    },
    #[error("{0}")]
    NotBipartite(#[from] BipartiteEdgeError),
    #[error("{0}")]
    NotATree(#[from] NotATree),
    #[error("{0}")]
    TooLargeForSearch(#[from] BoardTooLarge),
    #[error("{field}: {chars} characters is more than the limit of {limit}")]
    TextTooLong {
        field: &'static str,
        chars: usize,
        limit: usize,
    },
    #[error("numbered_from: {0} is neither 0 nor 1 (the number of a puzzle's first vertex)")]
    NumberingUnknown(u32),
}

impl SpecError {
    /// The offending field, relative to `PuzzleSpec`.
    pub fn field(&self) -> String {
        match self {
            SpecError::TooFewVertices { .. } => "graph.vertex_count".into(),
            SpecError::OverLimit { field, .. } => (*field).into(),
            SpecError::Graph(e) => match e {
                GraphError::VertexOutOfRange { entry, .. } => format!("graph.edges[{entry}]"),
                GraphError::SelfLoop { edge, .. } => {
                    format!("graph.edges[{}]", 2 * edge)
                }
                GraphError::DuplicateEdge { second, .. } => format!("graph.edges[{}]", 2 * second),
                GraphError::TooManyVertices { .. } => "graph.vertex_count".into(),
                GraphError::OddEdgeList { .. } | GraphError::TooManyEdges { .. } => {
                    "graph.edges".into()
                }
            },
            SpecError::Vertex(e) => e.field.into(),
            SpecError::SameBlackWhite(_) => "white".into(),
            SpecError::FieldNotForGame { field, .. } => (*field).into(),
            SpecError::NotBipartite(_) | SpecError::NotATree(_) => "graph.edges".into(),
            SpecError::TooLargeForSearch(e) if e.what == "vertices" => "graph.vertex_count".into(),
            SpecError::TooLargeForSearch(_) => "graph.edges".into(),
            SpecError::TextTooLong { field, .. } => (*field).into(),
            SpecError::NumberingUnknown(_) => "numbered_from".into(),
        }
    }

    /// Whether the input was well-formed but too big for this server.
    pub fn is_limit(&self) -> bool {
        matches!(
            self,
            SpecError::OverLimit { .. }
                | SpecError::TooLargeForSearch(_)
                | SpecError::Graph(
                    GraphError::TooManyVertices { .. } | GraphError::TooManyEdges { .. }
                )
        )
    }
}

impl Spec {
    /// Checks `raw` against `limits` (before allocating anything sized by the
    /// input) and against the rules of its game.
    pub fn validate(raw: RawSpec, limits: Limits) -> Result<Spec, SpecError> {
        let RawSpec {
            game,
            vertex_count,
            ref edges,
            start,
            black,
            white,
            ref title,
            ref author,
            numbered_from,
        } = raw;
        if numbered_from > MAX_NUMBERED_FROM {
            return Err(SpecError::NumberingUnknown(numbered_from));
        }
        for (field, text, limit) in [
            ("title", title, MAX_TITLE_CHARS),
            ("author", author, MAX_AUTHOR_CHARS),
        ] {
            let chars = text.chars().count();
            if chars > limit {
                return Err(SpecError::TextTooLong {
                    field,
                    chars,
                    limit,
                });
            }
        }
        if vertex_count > limits.max_vertices {
            return Err(SpecError::OverLimit {
                field: "graph.vertex_count",
                what: "vertices",
                value: vertex_count,
                limit: limits.max_vertices,
            });
        }
        let edge_count = edges.len() as u64 / 2;
        if edge_count > limits.max_edges {
            return Err(SpecError::OverLimit {
                field: "graph.edges",
                what: "edges",
                value: edge_count,
                limit: limits.max_edges,
            });
        }
        if vertex_count < game.min_vertices() {
            return Err(SpecError::TooFewVertices {
                game: game.as_str(),
                need: game.min_vertices(),
                got: vertex_count,
            });
        }
        if !game.has_start() && start != 0 {
            return Err(SpecError::FieldNotForGame {
                field: "start",
                game: Game::Geography.as_str(),
            });
        }
        if game != Game::TreePaint {
            for (field, value) in [("black", black), ("white", white)] {
                if value.is_some() {
                    return Err(SpecError::FieldNotForGame {
                        field,
                        game: Game::TreePaint.as_str(),
                    });
                }
            }
        }
        let (graph, digraph) = if game.is_directed() {
            let digraph = Digraph::from_flat_arcs(vertex_count, edges)?;
            let graph = Graph::from_pairs(vertex_count, &digraph.underlying_edges())?;
            (graph, Some(digraph))
        } else {
            (Graph::from_flat_edges(vertex_count, edges)?, None)
        };
        let n = graph.vertex_count();
        let mut board = None;
        match game {
            Game::Geography => {
                check_vertex("start", start.into(), n)?;
            }
            Game::DirectedVertexGeography
            | Game::UndirectedEdgeGeography
            | Game::DirectedEdgeGeography => {
                check_vertex("start", start.into(), n)?;
                let variant = game.search_variant().expect("a game solved by search");
                let pairs = match &digraph {
                    Some(digraph) => digraph.arcs().to_vec(),
                    None => graph.edges().collect(),
                };
                board = Some(Board::new(variant, n, &pairs)?);
            }
            Game::BipartiteEdge => bipartite_edge::check_bipartite(&graph)?,
            Game::TreePaint => {
                let b = check_vertex("black", black.unwrap_or(0).into(), n)?;
                let w = check_vertex("white", white.unwrap_or(n as u32 - 1).into(), n)?;
                if b == w {
                    return Err(SpecError::SameBlackWhite(b));
                }
                tree_paint::check_tree(&graph)?;
            }
        }
        Ok(Spec {
            raw,
            graph,
            digraph,
            board,
        })
    }

    pub fn raw(&self) -> &RawSpec {
        &self.raw
    }

    pub fn game(&self) -> Game {
        self.raw.game
    }

    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The arcs of a directed game's puzzle, in input order.
    pub fn arcs(&self) -> Option<&[(Vertex, Vertex)]> {
        self.digraph.as_ref().map(Digraph::arcs)
    }

    /// The edge or arc count of the puzzle as submitted (an arc and its
    /// reverse are two).
    pub fn pair_count(&self) -> usize {
        self.raw.edges.len() / 2
    }

    /// The board of a game solved by search.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// The distinguished vertices of the game, defaults applied: geography
    /// `[start]`, edge game `[]`, painting `[black, white]`.
    pub fn distinguished(&self) -> Vec<Vertex> {
        let n = self.graph.vertex_count() as u32;
        match self.raw.game {
            Game::Geography
            | Game::DirectedVertexGeography
            | Game::UndirectedEdgeGeography
            | Game::DirectedEdgeGeography => vec![self.raw.start],
            Game::BipartiteEdge => vec![],
            Game::TreePaint => vec![self.raw.black.unwrap_or(0), self.raw.white.unwrap_or(n - 1)],
        }
    }
}

/// What to compute beyond the verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SolveOptions {
    pub all_starts: bool,
    pub winning_moves: bool,
}

pub use crate::solver::position::{Move, WinningMoves};

/// How hard a puzzle is, from the solver's answers along its main line
/// (docs/games.md, "Difficulty", defines each number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difficulty {
    /// Consecutive turns of the winning side, from its first, on which
    /// exactly one of at least two legal moves wins (in the edge game:
    /// one class of moves among at least two; docs/games.md).
    pub only_move_depth: u32,
    /// The first player's first moves that lose.
    pub losing_first_moves: u64,
    /// The first player's legal first moves.
    pub first_move_count: u64,
    /// Tree painting: black's final count minus white's with perfect play.
    pub margin: Option<i64>,
}

impl Difficulty {
    /// `losing_first_moves / first_move_count`, 0 when there is no first
    /// move.
    pub fn losing_first_move_fraction(&self) -> f64 {
        if self.first_move_count == 0 {
            0.0
        } else {
            self.losing_first_moves as f64 / self.first_move_count as f64
        }
    }
}

/// A class of winning edge-game moves: its name, size and one example.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeClass {
    pub class: String,
    pub edge_count: u64,
    pub example: (Vertex, Vertex),
}

/// The evidence behind a verdict, in one labelling (canonical labels in the
/// cache and store, the request's labels in replies).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum Evidence {
    Geography {
        matching: Vec<(Vertex, Vertex)>,
        barrier: Vec<Vertex>,
        start_barrier: Option<Vec<Vertex>>,
        second_player_starts: Option<Vec<Vertex>>,
    },
    BipartiteEdge {
        n: u64,
        m: u64,
        x: u64,
        iso: u64,
        oo: u64,
        eo: u64,
        ee: u64,
        winning_move: Option<(Vertex, Vertex)>,
        winning_move_classes: Option<Vec<EdgeClass>>,
    },
    TreePaint {
        black_count: u64,
        white_count: u64,
        winning_move: Option<Vertex>,
    },
    /// The Geography variants solved by search (the winning first moves are
    /// the verdict's `winning_moves`).
    Search {
        /// The states the search put in its table.
        states: u64,
        /// The winner's strategy, or why it is left out.
        certificate: Certificate,
    },
}

/// A verdict as the solver produced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub winner: Player,
    pub evidence: Evidence,
    pub winning_moves: Option<WinningMoves>,
    pub solver_version: String,
    pub solve_time: SystemTime,
    pub solve_duration: Duration,
}

impl Verdict {
    /// The same verdict with every vertex renamed by `f` (sets re-sorted,
    /// matching pairs normalised to `u < v` and sorted).
    pub fn relabel(&self, f: impl Fn(Vertex) -> Vertex) -> Verdict {
        let set = |vs: &Vec<Vertex>| {
            let mut out: Vec<Vertex> = vs.iter().map(|&v| f(v)).collect();
            out.sort_unstable();
            out
        };
        let pair = |(u, v): (Vertex, Vertex)| {
            let (a, b) = (f(u), f(v));
            (a.min(b), a.max(b))
        };
        let evidence = match &self.evidence {
            Evidence::Geography {
                matching,
                barrier,
                start_barrier,
                second_player_starts,
            } => {
                let mut matching: Vec<_> = matching.iter().map(|&p| pair(p)).collect();
                matching.sort_unstable();
                Evidence::Geography {
                    matching,
                    barrier: set(barrier),
                    start_barrier: start_barrier.as_ref().map(set),
                    second_player_starts: second_player_starts.as_ref().map(set),
                }
            }
            Evidence::BipartiteEdge {
                n,
                m,
                x,
                iso,
                oo,
                eo,
                ee,
                winning_move,
                winning_move_classes,
            } => Evidence::BipartiteEdge {
                n: *n,
                m: *m,
                x: *x,
                iso: *iso,
                oo: *oo,
                eo: *eo,
                ee: *ee,
                winning_move: winning_move.map(pair),
                winning_move_classes: winning_move_classes.as_ref().map(|classes| {
                    classes
                        .iter()
                        .map(|c| EdgeClass {
                            class: c.class.clone(),
                            edge_count: c.edge_count,
                            example: pair(c.example),
                        })
                        .collect()
                }),
            },
            Evidence::TreePaint {
                black_count,
                white_count,
                winning_move,
            } => Evidence::TreePaint {
                black_count: *black_count,
                white_count: *white_count,
                winning_move: winning_move.map(&f),
            },
            Evidence::Search {
                states,
                certificate,
            } => Evidence::Search {
                states: *states,
                certificate: match certificate {
                    Certificate::Strategy(tree) => Certificate::Strategy(Strategy {
                        moves: tree.moves.iter().map(|&v| f(v)).collect(),
                        replies: tree.replies.clone(),
                    }),
                    Certificate::Omitted(why) => Certificate::Omitted(why.clone()),
                },
            },
        };
        let winning_moves = self.winning_moves.as_ref().map(|w| {
            let mut moves: Vec<Move> = w
                .moves
                .iter()
                .map(|m| match *m {
                    Move::Geography(v) => Move::Geography(f(v)),
                    Move::Paint(v) => Move::Paint(f(v)),
                    Move::Edge(u, v) => {
                        let (a, b) = pair((u, v));
                        Move::Edge(a, b)
                    }
                })
                .collect();
            moves.sort_unstable();
            WinningMoves {
                moves,
                unique: w.unique,
                count: w.count,
                complete: w.complete,
            }
        });
        Verdict {
            evidence,
            winning_moves,
            solver_version: self.solver_version.clone(),
            ..*self
        }
    }

    /// A cheap consistency check of evidence read back from a cache against
    /// the graph it claims to be about: every vertex in range, the matching a
    /// set of disjoint edges of `graph`, counts and moves that fit. It is not
    /// a proof of the verdict; it catches a cache entry for another graph.
    pub fn fits(&self, graph: &Graph) -> bool {
        let n = graph.vertex_count();
        let in_range = |v: Vertex| (v as usize) < n;
        let all_in_range = |vs: &[Vertex]| vs.iter().all(|&v| in_range(v));
        let evidence_ok = match &self.evidence {
            Evidence::Geography {
                matching,
                barrier,
                start_barrier,
                second_player_starts,
            } => {
                let mut used = vec![false; n];
                matching.iter().all(|&(u, v)| {
                    in_range(u)
                        && in_range(v)
                        && graph.has_edge(u, v)
                        && !std::mem::replace(&mut used[u as usize], true)
                        && !std::mem::replace(&mut used[v as usize], true)
                }) && all_in_range(barrier)
                    && start_barrier.as_deref().is_none_or(all_in_range)
                    && second_player_starts.as_deref().is_none_or(all_in_range)
            }
            Evidence::BipartiteEdge {
                n: count_n,
                m,
                winning_move,
                winning_move_classes,
                ..
            } => {
                let new_edge = |(u, v): (Vertex, Vertex)| {
                    in_range(u) && in_range(v) && u != v && !graph.has_edge(u, v)
                };
                *count_n == n as u64
                    && *m == graph.edge_count() as u64
                    && winning_move.is_none_or(new_edge)
                    && winning_move_classes
                        .as_deref()
                        .is_none_or(|cs| cs.iter().all(|c| new_edge(c.example)))
            }
            Evidence::TreePaint {
                black_count,
                white_count,
                winning_move,
            } => black_count + white_count == n as u64 && winning_move.is_none_or(in_range),
            Evidence::Search { certificate, .. } => match certificate {
                Certificate::Strategy(tree) => {
                    tree.moves.len() == tree.replies.len() && all_in_range(&tree.moves)
                }
                Certificate::Omitted(_) => true,
            },
        };
        let moves_ok = self.winning_moves.as_ref().is_none_or(|w| {
            w.moves.iter().all(|m| match (*m, &self.evidence) {
                (Move::Geography(v), Evidence::Geography { .. } | Evidence::Search { .. })
                | (Move::Paint(v), Evidence::TreePaint { .. }) => in_range(v),
                (Move::Edge(u, v), Evidence::BipartiteEdge { .. }) => in_range(u) && in_range(v),
                _ => false,
            })
        });
        evidence_ok && moves_ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(game: Game, n: u64, edges: &[u32]) -> RawSpec {
        RawSpec {
            game,
            vertex_count: n,
            edges: edges.to_vec(),
            start: 0,
            black: None,
            white: None,
            title: String::new(),
            author: String::new(),
            numbered_from: 0,
        }
    }

    const LIMITS: Limits = Limits {
        max_vertices: 100,
        max_edges: 100,
    };

    #[test]
    fn odd_cycle_is_listed() {
        let err = Spec::validate(
            raw(
                Game::BipartiteEdge,
                6,
                &[0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 4, 5],
            ),
            LIMITS,
        )
        .unwrap_err();
        let SpecError::NotBipartite(BipartiteEdgeError::OddCycle { cycle }) = &err else {
            panic!("{err:?}")
        };
        assert_eq!(cycle.len() % 2, 1);
        let mut sorted = cycle.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2, 3, 4]);
        assert!(
            err.to_string()
                .starts_with("graph has an odd cycle through vertices")
        );
    }

    #[test]
    fn even_cycles_are_bipartite() {
        Spec::validate(
            raw(Game::BipartiteEdge, 4, &[0, 1, 1, 2, 2, 3, 3, 0]),
            LIMITS,
        )
        .unwrap();
    }

    #[test]
    fn painting_needs_a_tree() {
        let err = Spec::validate(raw(Game::TreePaint, 3, &[0, 1, 1, 2, 2, 0]), LIMITS).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("tree paint needs a tree: 3 vertices but 3 edges"),
            "{err}"
        );
        let err = Spec::validate(raw(Game::TreePaint, 4, &[0, 1, 1, 2, 2, 0]), LIMITS).unwrap_err();
        assert!(matches!(err, SpecError::NotATree(_)), "{err:?}");
        assert!(err.to_string().contains("not connected"));
    }

    #[test]
    fn limits_come_before_allocation() {
        let err = Spec::validate(raw(Game::Geography, 4_000_000_000, &[]), LIMITS).unwrap_err();
        assert_eq!(err.field(), "graph.vertex_count");
        assert!(err.is_limit());
    }
}
