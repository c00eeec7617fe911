//! proto <-> domain, in one place. Every conversion destructures its message
//! completely, so a new proto field fails the build until someone decides
//! what it means.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::proto;
use crate::app::Reason;
use crate::app::admission::search_table_units;
use crate::app::generate::{
    self, Delivery, Family, Found, GenerateRequest, Generated, WinnerWanted,
};
use crate::app::{AppError, Solved};
use crate::graph::Vertex;
use crate::puzzle::{
    Difficulty, EdgeClass, Evidence, Game, Limits, MAX_AUTHOR_CHARS, Move, RawSpec, Spec, Verdict,
    WinningMoves,
};
use crate::solver::Player;
use crate::solver::bipartite_edge::LegalMoveClass;
use crate::solver::position::PlayPosition;
use crate::solver::position::{PositionAnalysis, PositionEvidence};
use crate::solver::search_geography::{Certificate, Strategy};
use crate::store::{PuzzleRecord, is_well_formed_id};

/// The game of a request field; unset and unknown numbers are errors, never
/// a default.
pub fn game_from_proto(value: i32, field: &str) -> Result<Game, AppError> {
    match proto::Game::try_from(value) {
        Ok(proto::Game::Geography) => Ok(Game::Geography),
        Ok(proto::Game::BipartiteEdge) => Ok(Game::BipartiteEdge),
        Ok(proto::Game::TreePaint) => Ok(Game::TreePaint),
        Ok(proto::Game::DirectedVertexGeography) => Ok(Game::DirectedVertexGeography),
        Ok(proto::Game::UndirectedEdgeGeography) => Ok(Game::UndirectedEdgeGeography),
        Ok(proto::Game::DirectedEdgeGeography) => Ok(Game::DirectedEdgeGeography),
        Ok(proto::Game::Unspecified) => Err(AppError::invalid(
            field,
            Reason::GameUnspecified,
            format!(
                "{field} is required: GAME_GEOGRAPHY, GAME_BIPARTITE_EDGE, GAME_TREE_PAINT, \
                 GAME_DIRECTED_VERTEX_GEOGRAPHY, GAME_UNDIRECTED_EDGE_GEOGRAPHY or \
                 GAME_DIRECTED_EDGE_GEOGRAPHY"
            ),
        )),
        Err(_) => Err(AppError::invalid(
            field,
            Reason::UnknownGame,
            format!("{field}: {value} is not a game this server knows"),
        )),
    }
}

/// The game filter of a list request: unset lists all games.
pub fn game_filter_from_proto(value: i32, field: &str) -> Result<Option<Game>, AppError> {
    if value == proto::Game::Unspecified as i32 {
        Ok(None)
    } else {
        game_from_proto(value, field).map(Some)
    }
}

pub fn game_to_proto(game: Game) -> proto::Game {
    match game {
        Game::Geography => proto::Game::Geography,
        Game::BipartiteEdge => proto::Game::BipartiteEdge,
        Game::TreePaint => proto::Game::TreePaint,
        Game::DirectedVertexGeography => proto::Game::DirectedVertexGeography,
        Game::UndirectedEdgeGeography => proto::Game::UndirectedEdgeGeography,
        Game::DirectedEdgeGeography => proto::Game::DirectedEdgeGeography,
    }
}

/// What a request's puzzle counts against the admission budget: its
/// vertices plus its edges, read off the message before anything is
/// allocated for it. A puzzle over the size limits counts as one at the
/// limits: validation refuses it before it allocates.
pub fn units_of(spec: Option<&proto::PuzzleSpec>, limits: Limits) -> u64 {
    let Some(graph) = spec.and_then(|s| s.graph.as_ref()) else {
        return 0;
    };
    let vertices = u64::from(graph.vertex_count).min(limits.max_vertices);
    let edges = (graph.edges.len() as u64).div_ceil(2).min(limits.max_edges);
    vertices + edges
}

/// The units a solve of the request's puzzle holds beside its graph (see
/// [`search_table_units`]); nothing when the game is not one solved by
/// search or not a game at all (validation then refuses it).
pub fn search_units_of(spec: Option<&proto::PuzzleSpec>, search_budget_states: u64) -> u64 {
    spec.and_then(|spec| game_from_proto(spec.game, "spec.game").ok())
        .map_or(0, |game| search_table_units(game, search_budget_states))
}

/// The bytes a decoded `spec` holds: its edge list and its texts (what a
/// request keeps while it waits for admission).
pub fn held_bytes(spec: Option<&proto::PuzzleSpec>) -> u64 {
    spec.map_or(0, |spec| {
        let edges = spec.graph.as_ref().map_or(0, |g| g.edges.capacity());
        (edges * std::mem::size_of::<u32>() + spec.title.len() + spec.author.len()) as u64
    })
}

/// Validates a `PuzzleSpec` found at `prefix` (e.g. `"spec"` or
/// `"puzzle.spec"`) into a domain [`Spec`].
pub fn spec_from_proto(
    spec: Option<proto::PuzzleSpec>,
    prefix: &str,
    limits: Limits,
) -> Result<Spec, AppError> {
    let spec = spec.ok_or_else(|| AppError::missing(prefix))?;
    let proto::PuzzleSpec {
        game,
        graph,
        start,
        black,
        white,
        title,
        author,
        numbered_from,
    } = spec;
    let game = game_from_proto(game, &format!("{prefix}.game"))?;
    let proto::Graph {
        vertex_count,
        edges,
    } = graph.unwrap_or_default();
    let raw = RawSpec {
        game,
        vertex_count: vertex_count.into(),
        edges,
        start,
        black,
        white,
        title,
        author,
        numbered_from,
    };
    Spec::validate(raw, limits).map_err(|e| AppError::from_spec(e, prefix))
}

pub fn puzzle_to_proto(record: PuzzleRecord) -> proto::Puzzle {
    let PuzzleRecord {
        seq: _,
        id,
        spec,
        canonical_hash,
        create_time,
        duplicate_of,
        edge_count,
        canonical_labels,
        difficulty,
    } = record;
    let (game, vertex_count, edges) = (spec.game, spec.vertex_count, &spec.edges);
    // Edges read (the FULL view): the canonical graph for export.
    let canonical_sparse6 = if edges.len() as u64 == 2 * edge_count {
        let label = |v: u32| match &canonical_labels {
            Some(labels) => labels.get(v as usize).copied().unwrap_or(v),
            None => v,
        };
        let pairs = edges.chunks_exact(2).map(|e| (label(e[0]), label(e[1])));
        if game.is_directed() {
            crate::graph::graph6::to_digraph6(vertex_count as u32, pairs)
        } else {
            crate::graph::graph6::to_sparse6(vertex_count as u32, pairs)
        }
    } else {
        String::new()
    };
    proto::Puzzle {
        name: format!("puzzles/{id}"),
        spec: Some(spec_to_proto(spec)),
        canonicaliser: crate::canon::canonicaliser_of(&canonical_hash).to_owned(),
        canonical_hash,
        canonical_sparse6,
        // Filled in by the handlers, which know the solver's version.
        cached_winner: proto::Player::Unspecified as i32,
        duplicate_of: duplicate_of
            .map(|d| format!("puzzles/{d}"))
            .unwrap_or_default(),
        create_time: Some(timestamp(create_time)),
        edge_count,
        difficulty: difficulty.map(difficulty_to_proto),
    }
}

pub fn spec_to_proto(raw: RawSpec) -> proto::PuzzleSpec {
    let RawSpec {
        game,
        vertex_count,
        edges,
        start,
        black,
        white,
        title,
        author,
        numbered_from,
    } = raw;
    proto::PuzzleSpec {
        game: game_to_proto(game) as i32,
        graph: Some(proto::Graph {
            vertex_count: vertex_count as u32,
            edges,
        }),
        start,
        black,
        white,
        title,
        author,
        numbered_from,
    }
}

pub fn difficulty_to_proto(difficulty: Difficulty) -> proto::Difficulty {
    proto::Difficulty {
        only_move_depth: difficulty.only_move_depth,
        first_move_count: difficulty.first_move_count,
        losing_first_moves: difficulty.losing_first_moves,
        margin: difficulty.margin,
    }
}

/// A GeneratePuzzles request as the generator takes it, and what to deliver.
/// Fields a family does not use are refused rather than ignored.
pub fn generate_request_from_proto(
    request: proto::GeneratePuzzlesRequest,
    limits: Limits,
    search_budget_states: u64,
) -> Result<(GenerateRequest, Delivery), AppError> {
    let proto::GeneratePuzzlesRequest {
        game,
        family,
        min_vertices,
        max_vertices,
        winner,
        seed,
        min_only_move_depth,
        count,
        store,
        graph6_lines,
        average_degree,
        hole_fraction,
        spine_fraction,
        max_rejected_in_a_row,
        first_candidate,
        author,
    } = request;
    let game = game_from_proto(game, "game")?;
    let unused = |field: &str, family: &str| {
        AppError::invalid(
            field,
            Reason::FieldNotForFamily,
            format!("{field}: the {family} family does not use it"),
        )
    };
    let family_value = proto::GraphFamily::try_from(family).map_err(|_| {
        AppError::invalid(
            "family",
            Reason::UnknownFamily,
            format!("family: {family} is not a graph family this server knows"),
        )
    })?;
    let family_value = match family_value {
        proto::GraphFamily::Unspecified => match game {
            Game::TreePaint => proto::GraphFamily::Tree,
            Game::BipartiteEdge => proto::GraphFamily::Bipartite,
            _ => proto::GraphFamily::Gnm,
        },
        chosen => chosen,
    };
    let family_name = family_value.as_str_name();
    if average_degree.is_some()
        && !matches!(
            family_value,
            proto::GraphFamily::Gnm | proto::GraphFamily::Bipartite
        )
    {
        return Err(unused("average_degree", family_name));
    }
    if hole_fraction.is_some() && family_value != proto::GraphFamily::GridWithHoles {
        return Err(unused("hole_fraction", family_name));
    }
    if spine_fraction.is_some() && family_value != proto::GraphFamily::Caterpillar {
        return Err(unused("spine_fraction", family_name));
    }
    if !graph6_lines.is_empty() && family_value != proto::GraphFamily::Graph6 {
        return Err(unused("graph6_lines", family_name));
    }
    let family = match family_value {
        proto::GraphFamily::Gnm => Family::Gnm {
            average_degree: average_degree.unwrap_or(generate::DEFAULT_AVERAGE_DEGREE),
        },
        proto::GraphFamily::Bipartite => Family::Bipartite {
            average_degree: average_degree.unwrap_or(generate::DEFAULT_AVERAGE_DEGREE),
        },
        proto::GraphFamily::Tree => Family::Tree,
        proto::GraphFamily::GridWithHoles => Family::GridWithHoles {
            hole_fraction: hole_fraction.unwrap_or(generate::DEFAULT_HOLE_FRACTION),
        },
        proto::GraphFamily::Caterpillar => Family::Caterpillar {
            spine_fraction: spine_fraction.unwrap_or(generate::DEFAULT_SPINE_FRACTION),
        },
        proto::GraphFamily::Graph6 | proto::GraphFamily::Unspecified => Family::Graph6 {
            lines: graph6_lines,
        },
    };
    let max_vertices = if max_vertices == 0 {
        min_vertices
    } else {
        max_vertices
    };
    if u64::from(max_vertices) > limits.max_vertices {
        return Err(AppError::OverLimit {
            field: "max_vertices".into(),
            message: format!(
                "max_vertices: {max_vertices} is over the server's limit of {} vertices \
                 (--max-vertices)",
                limits.max_vertices
            ),
        });
    }
    let winner = match proto::Player::try_from(winner) {
        Ok(proto::Player::Unspecified) => WinnerWanted::Either,
        Ok(proto::Player::First) => WinnerWanted::First,
        Ok(proto::Player::Second) => WinnerWanted::Second,
        Err(_) => {
            return Err(AppError::invalid(
                "winner",
                Reason::UnknownPlayer,
                format!("winner: {winner} is not PLAYER_FIRST or PLAYER_SECOND"),
            ));
        }
    };
    let count = match count {
        0 => 1,
        n if n > generate::MAX_COUNT => {
            return Err(AppError::invalid(
                "count",
                Reason::CountTooLarge,
                format!(
                    "count: {n} is more than the {} puzzles a call sends; ask again with \
                     first_candidate after the last one received",
                    generate::MAX_COUNT
                ),
            ));
        }
        n => n,
    };
    if author.chars().count() > MAX_AUTHOR_CHARS {
        return Err(AppError::invalid(
            "author",
            Reason::TextTooLong,
            format!("author: more than {MAX_AUTHOR_CHARS} characters"),
        ));
    }
    let request = GenerateRequest {
        winner,
        min_only_move_depth,
        max_rejected_in_a_row: match max_rejected_in_a_row {
            0 => generate::DEFAULT_MAX_REJECTED_IN_A_ROW,
            n => u64::from(n),
        },
        search_budget_states,
        ..GenerateRequest::new(game, family, min_vertices, max_vertices, seed)
    };
    // A drawn graph must fit the server's limits as a submitted one does.
    // (A graph6 line is bounded by the message that carries it.)
    if let Some(edges) = request
        .family
        .most_edges(max_vertices.into(), game.is_directed())
        && edges > limits.max_edges
    {
        return Err(AppError::OverLimit {
            field: "max_vertices".into(),
            message: format!(
                "max_vertices: {} graphs on {max_vertices} vertices can have {edges} edges, \
                 over the server's limit of {} edges (--max-edges); ask for fewer vertices{}",
                request.family.name(),
                limits.max_edges,
                request.family.edge_advice()
            ),
        });
    }
    if first_candidate == u64::MAX {
        return Err(AppError::invalid(
            "first_candidate",
            Reason::InvalidGenerateRequest,
            format!("first_candidate: {first_candidate} is the last index; nothing comes after it"),
        ));
    }
    let delivery = Delivery {
        count,
        first_candidate,
        store,
        author,
    };
    Ok((request, delivery))
}

/// A generated puzzle as GeneratePuzzles sends it.
pub fn generated_to_proto(found: Found) -> proto::GeneratedPuzzle {
    let Found {
        generated:
            Generated {
                index,
                spec,
                verdict,
                difficulty,
                main_line,
            },
        canonical_hash,
        canonicaliser,
        stored,
        duplicate_of,
    } = found;
    let winner = player_to_proto(verdict.winner) as i32;
    proto::GeneratedPuzzle {
        spec: Some(spec_to_proto(spec.raw().clone())),
        solution: Some(solved_to_proto(Solved {
            verdict,
            canonical_hash,
            canonicaliser: canonicaliser.to_owned(),
            cached: false,
        })),
        difficulty: Some(difficulty_to_proto(difficulty)),
        main_line: main_line.into_iter().map(move_to_proto).collect(),
        candidate: index,
        puzzle: stored.map(|mut record| {
            // The BASIC view: the spec above has the edges.
            record.spec.edges.clear();
            // Its verdict was kept with it (`Solver::keep_verdict`).
            proto::Puzzle {
                cached_winner: winner,
                ..puzzle_to_proto(record)
            }
        }),
        duplicate_of: duplicate_of
            .map(|id| format!("puzzles/{id}"))
            .unwrap_or_default(),
    }
}

/// Whether a read returns edge lists (AIP-157 views).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Basic,
    Full,
}

/// The view asked for in `field`, `default` when unspecified.
pub fn view_from_proto(value: i32, field: &str, default: View) -> Result<View, AppError> {
    match proto::PuzzleView::try_from(value) {
        Ok(proto::PuzzleView::Unspecified) => Ok(default),
        Ok(proto::PuzzleView::Basic) => Ok(View::Basic),
        Ok(proto::PuzzleView::Full) => Ok(View::Full),
        Err(_) => Err(AppError::invalid(
            field,
            Reason::UnknownView,
            format!("{field}: {value} is not a PuzzleView"),
        )),
    }
}

/// The id in a resource name `puzzles/{id}`.
pub fn id_from_name<'a>(name: &'a str, field: &str) -> Result<&'a str, AppError> {
    match name.strip_prefix("puzzles/") {
        Some(id) if is_well_formed_id(id) => Ok(id),
        _ => Err(AppError::invalid(
            field,
            Reason::MalformedName,
            format!(
                "{field}: {} is not a puzzle name (puzzles/ID, as CreatePuzzle returns)",
                echo(name)
            ),
        )),
    }
}

/// Longest part of a client's value an error message repeats.
pub const MAX_ECHO_CHARS: usize = 64;

/// `value` quoted for an error message, cut after [`MAX_ECHO_CHARS`]
/// characters with "…": an error about a 20 MB string must not be 20 MB
/// of trailers.
pub fn echo(value: &str) -> String {
    let (kept, rest) = split_for_echo(value);
    if rest {
        format!("{kept:?}…")
    } else {
        format!("{kept:?}")
    }
}

/// `value` cut after [`MAX_ECHO_CHARS`] characters with "…", unquoted: a
/// client's value as a log field. A log line must not grow with what a
/// client sends.
pub fn cut(value: &str) -> String {
    let (kept, rest) = split_for_echo(value);
    if rest {
        format!("{kept}…")
    } else {
        kept.to_owned()
    }
}

/// The first [`MAX_ECHO_CHARS`] characters of `value`, and whether any
/// were left out.
fn split_for_echo(value: &str) -> (&str, bool) {
    match value.char_indices().nth(MAX_ECHO_CHARS) {
        None => (value, false),
        Some((at, _)) => (&value[..at], true),
    }
}

fn timestamp(t: SystemTime) -> prost_types::Timestamp {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    prost_types::Timestamp {
        seconds: d.as_secs() as i64,
        nanos: d.subsec_nanos() as i32,
    }
}

fn duration(d: Duration) -> prost_types::Duration {
    prost_types::Duration {
        seconds: d.as_secs() as i64,
        nanos: d.subsec_nanos() as i32,
    }
}

pub fn player_to_proto(p: Player) -> proto::Player {
    match p {
        Player::First => proto::Player::First,
        Player::Second => proto::Player::Second,
    }
}

fn flatten(pairs: &[(u32, u32)]) -> Vec<u32> {
    pairs.iter().flat_map(|&(u, v)| [u, v]).collect()
}

fn edge(u: u32, v: u32) -> proto::Edge {
    proto::Edge { u, v }
}

pub fn move_to_proto(m: Move) -> proto::Move {
    proto::Move {
        r#move: Some(match m {
            Move::Geography(v) | Move::Paint(v) => proto::r#move::Move::Vertex(v),
            Move::Edge(u, v) => proto::r#move::Move::Edge(edge(u, v)),
        }),
    }
}

/// A move of `game` from the request field `field` (e.g. `moves[3]`): a
/// vertex for Geography and tree painting, an edge for the edge game. A
/// move of the other shape is passed on as it is, for the game's replay to
/// name it (reason `WRONG_MOVE_KIND`, in order with the other moves).
pub fn move_from_proto(m: proto::Move, game: Game, field: &str) -> Result<Move, AppError> {
    match m.r#move {
        Some(proto::r#move::Move::Vertex(v)) => Ok(match game {
            Game::TreePaint => Move::Paint(v),
            _ => Move::Geography(v),
        }),
        Some(proto::r#move::Move::Edge(proto::Edge { u, v })) => Ok(Move::Edge(u, v)),
        None => Err(AppError::invalid(
            field,
            Reason::MoveRequired,
            format!("{field}: empty move; set `vertex` or `edge`"),
        )),
    }
}

/// The side a Play client takes; unset means the first player.
pub fn player_from_proto(value: i32, field: &str) -> Result<Player, AppError> {
    match proto::Player::try_from(value) {
        Ok(proto::Player::Unspecified | proto::Player::First) => Ok(Player::First),
        Ok(proto::Player::Second) => Ok(Player::Second),
        Err(_) => Err(AppError::invalid(
            field,
            Reason::UnknownPlayer,
            format!("{field}: {value} is not PLAYER_FIRST or PLAYER_SECOND"),
        )),
    }
}

fn edge_class_to_proto(class: LegalMoveClass) -> proto::WinningEdgeClass {
    let LegalMoveClass {
        class,
        edge_count,
        example: (u, v),
        wins: _,
    } = class;
    proto::WinningEdgeClass {
        class: crate::app::games::move_class_name(class),
        edge_count,
        example: Some(edge(u, v)),
    }
}

/// An analysed position as the reply of AnalyzePosition, evidence included.
pub fn position_to_proto(analysis: PositionAnalysis) -> proto::PositionAnalysis {
    let PositionAnalysis { position, evidence } = analysis;
    // The smallest winning move (the first winning class's example for the
    // edge game), as a Solution's evidence names one.
    let first_winning = position.winning.moves.first().copied();
    let detail = match evidence {
        PositionEvidence::Geography {
            current: _,
            matching,
            barrier,
            current_barrier,
        } => proto::position_analysis::Detail::Geography(geography_evidence(
            &matching,
            barrier,
            current_barrier,
            None,
        )),
        PositionEvidence::BipartiteEdge { counts, classes } => {
            proto::position_analysis::Detail::BipartiteEdge(proto::BipartiteEdgeEvidence {
                vertex_count: counts.n,
                edge_count: counts.m,
                x: counts.x,
                iso: counts.iso,
                oo: counts.oo,
                eo: counts.eo,
                ee: counts.ee,
                winning_move: match first_winning {
                    Some(Move::Edge(u, v)) => Some(edge(u, v)),
                    _ => None,
                },
                winning_move_classes: classes
                    .iter()
                    .filter(|class| class.wins)
                    .cloned()
                    .map(edge_class_to_proto)
                    .collect(),
                legal_move_classes: classes.into_iter().map(edge_class_to_proto).collect(),
            })
        }
        PositionEvidence::TreePaint {
            black_future: _,
            white_future: _,
            black_count,
            white_count,
        } => proto::position_analysis::Detail::TreePaint(proto::TreePaintEvidence {
            black_count,
            white_count,
            winning_move: match first_winning {
                Some(Move::Paint(v)) => Some(v),
                _ => None,
            },
        }),
        PositionEvidence::Search { current: _, states } => {
            proto::position_analysis::Detail::Search(proto::SearchEvidence {
                states_searched: states,
                strategy: None,
                strategy_omitted: String::new(),
            })
        }
    };
    let mut reply = play_position_to_proto(position);
    reply.detail = Some(detail);
    reply
}

/// Geography's evidence, for a solution (from the start) or a position
/// (from the token; no second-player starts there).
fn geography_evidence(
    matching: &[(Vertex, Vertex)],
    barrier: Vec<Vertex>,
    start_barrier: Option<Vec<Vertex>>,
    second_player_starts: Option<Vec<Vertex>>,
) -> proto::GeographyEvidence {
    proto::GeographyEvidence {
        matching_size: matching.len() as u32,
        matching: flatten(matching),
        barrier,
        start_barrier: start_barrier.map(|vertices| proto::VertexSet { vertices }),
        second_player_starts: second_player_starts.map(|vertices| proto::VertexSet { vertices }),
    }
}

/// A position of a Play game: the analysis without its evidence.
pub fn play_position_to_proto(position: PlayPosition) -> proto::PositionAnalysis {
    let PlayPosition {
        game_over,
        to_move,
        winner,
        winning,
        legal_moves,
        legal_move_count,
    } = position;
    let winning = winning_moves_to_proto(winning);
    proto::PositionAnalysis {
        game_over,
        to_move: player_to_proto(to_move) as i32,
        winner: player_to_proto(winner) as i32,
        winning_moves: winning.moves.clone(),
        winning: Some(winning),
        legal_moves: legal_moves.into_iter().map(move_to_proto).collect(),
        legal_move_count,
        detail: None,
    }
}

fn winning_moves_to_proto(winning: WinningMoves) -> proto::WinningMoves {
    let WinningMoves {
        moves,
        unique,
        count,
        complete,
    } = winning;
    proto::WinningMoves {
        moves: moves.into_iter().map(move_to_proto).collect(),
        unique,
        count,
        complete,
    }
}

/// A solve's result, already in the request's labels, as the reply.
pub fn solved_to_proto(solved: Solved) -> proto::Solution {
    let Solved {
        verdict,
        canonical_hash,
        canonicaliser,
        cached,
    } = solved;
    let Verdict {
        winner,
        evidence,
        winning_moves,
        solver_version,
        solve_time,
        solve_duration,
    } = verdict;
    let detail = match evidence {
        Evidence::Geography {
            matching,
            barrier,
            start_barrier,
            second_player_starts,
        } => proto::solution::Detail::Geography(geography_evidence(
            &matching,
            barrier,
            start_barrier,
            second_player_starts,
        )),
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
        } => proto::solution::Detail::BipartiteEdge(proto::BipartiteEdgeEvidence {
            vertex_count: n,
            edge_count: m,
            x,
            iso,
            oo,
            eo,
            ee,
            winning_move: winning_move.map(|(u, v)| edge(u, v)),
            legal_move_classes: Vec::new(),
            winning_move_classes: winning_move_classes
                .unwrap_or_default()
                .into_iter()
                .map(
                    |EdgeClass {
                         class,
                         edge_count,
                         example: (u, v),
                     }| proto::WinningEdgeClass {
                        class,
                        edge_count,
                        example: Some(edge(u, v)),
                    },
                )
                .collect(),
        }),
        Evidence::TreePaint {
            black_count,
            white_count,
            winning_move,
        } => proto::solution::Detail::TreePaint(proto::TreePaintEvidence {
            black_count,
            white_count,
            winning_move,
        }),
        Evidence::Search {
            states,
            certificate,
        } => {
            let (strategy, strategy_omitted) = match certificate {
                Certificate::Strategy(Strategy { moves, replies }) => {
                    (Some(proto::StrategyTree { moves, replies }), String::new())
                }
                Certificate::Omitted(why) => (None, why),
            };
            proto::solution::Detail::Search(proto::SearchEvidence {
                states_searched: states,
                strategy,
                strategy_omitted,
            })
        }
    };
    proto::Solution {
        winner: player_to_proto(winner) as i32,
        canonical_hash,
        canonicaliser,
        cached,
        solver_version,
        solve_time: Some(timestamp(solve_time)),
        solve_duration: Some(duration(solve_duration)),
        detail: Some(detail),
        winning_moves: winning_moves.map(winning_moves_to_proto),
    }
}

/// Page tokens: opaque to clients, they carry the position (`seq` to continue
/// below) and the filter they were issued for, so a token used with another
/// filter is refused instead of silently skipping puzzles.
/// The canonical hash a listing is filtered by, checked: empty is none; else
/// `NAME:HEX` as a Puzzle's `canonical_hash` gives it (a canonicaliser's
/// name, then 64 lower-case hex digits).
pub fn hash_filter_from_proto<'a>(
    value: &'a str,
    field: &str,
) -> Result<Option<&'a str>, AppError> {
    if value.is_empty() {
        return Ok(None);
    }
    let well_formed = value.split_once(':').is_some_and(|(name, hex)| {
        !name.is_empty()
            && name.len() <= 32
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && hex.len() == 64
            && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    });
    if well_formed {
        Ok(Some(value))
    } else {
        Err(AppError::invalid(
            field,
            Reason::MalformedCanonicalHash,
            format!(
                "{field}: {} is not a canonical hash (NAME:64 hex digits, as a Puzzle's canonical_hash)",
                echo(value)
            ),
        ))
    }
}

/// Page tokens: opaque to clients, one canonical form per position.
///
/// A token is the unpadded base64url of 18 bytes: a version byte (1), the
/// `seq` to continue below as a big-endian `i64` (positive), the game
/// filter it was issued for (0 = all games, else the game's number in the
/// API), and the first 8 bytes of the SHA-256 of its canonical-hash filter
/// (zeros for none). Decoding is strict: the exact length, alphabet and
/// version, a known filter byte, a positive position, and the token must
/// re-encode to itself, so no two spellings name the same page.
pub mod page_token {
    use base64::Engine as _;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use sha2::{Digest as _, Sha256};

    use super::*;
    use crate::store::ListFilter;

    const VERSION: u8 = 1;
    const LEN: usize = 18;

    fn game_byte(game: Option<Game>) -> u8 {
        game.map_or(0, |g| game_to_proto(g) as i32 as u8)
    }

    fn hash_bytes(hash: Option<&str>) -> [u8; 8] {
        hash.map_or([0; 8], |h| {
            Sha256::digest(h.as_bytes())[..8]
                .try_into()
                .expect("8 bytes")
        })
    }

    pub fn encode(before: i64, filter: ListFilter<'_>) -> String {
        let mut bytes = [0u8; LEN];
        bytes[0] = VERSION;
        bytes[1..9].copy_from_slice(&before.to_be_bytes());
        bytes[9] = game_byte(filter.game);
        bytes[10..18].copy_from_slice(&hash_bytes(filter.canonical_hash));
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// The position in `token`, checked against the request's filter.
    pub fn decode(token: &str, filter: ListFilter<'_>) -> Result<Option<i64>, AppError> {
        if token.is_empty() {
            return Ok(None);
        }
        let malformed = || {
            AppError::invalid(
                "page_token",
                Reason::MalformedPageToken,
                "page_token: not a token this server issued (pass next_page_token unchanged)",
            )
        };
        // 18 bytes are 24 base64 characters; a longer token is never read.
        if token.len() != LEN.div_ceil(3) * 4 {
            return Err(malformed());
        }
        let bytes = URL_SAFE_NO_PAD.decode(token).map_err(|_| malformed())?;
        let bytes: [u8; LEN] = bytes.try_into().map_err(|_| malformed())?;
        let before = i64::from_be_bytes(bytes[1..9].try_into().expect("8 bytes"));
        let game = match bytes[9] {
            0 => None,
            n => Some(game_from_proto(i32::from(n), "page_token").map_err(|_| malformed())?),
        };
        if bytes[0] != VERSION || before <= 0 {
            return Err(malformed());
        }
        let same_filter = game == filter.game && bytes[10..18] == hash_bytes(filter.canonical_hash);
        if !same_filter {
            return Err(AppError::invalid(
                "page_token",
                Reason::PageTokenFilterMismatch,
                "page_token: it was issued for another filter than this request's",
            ));
        }
        if encode(before, filter) != token {
            return Err(malformed());
        }
        Ok(Some(before))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str =
        "sorted-edges-v1:00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    fn games(game: Option<Game>) -> crate::store::ListFilter<'static> {
        crate::store::ListFilter {
            game,
            canonical_hash: None,
        }
    }

    #[test]
    fn page_tokens_round_trip_and_remember_their_filter() {
        let tree_paint = games(Some(Game::TreePaint));
        let token = page_token::encode(42, tree_paint);
        assert_eq!(page_token::decode(&token, tree_paint), Ok(Some(42)));
        assert!(page_token::decode(&token, games(None)).is_err());
        assert!(page_token::decode(&token, games(Some(Game::Geography))).is_err());
        assert_eq!(page_token::decode("", games(None)), Ok(None));
        let all = page_token::encode(7, games(None));
        assert_eq!(page_token::decode(&all, games(None)), Ok(Some(7)));
        let by_hash = crate::store::ListFilter {
            game: None,
            canonical_hash: Some(HASH),
        };
        let token = page_token::encode(9, by_hash);
        assert_eq!(page_token::decode(&token, by_hash), Ok(Some(9)));
        let mismatch = page_token::decode(&token, games(None)).unwrap_err();
        assert!(matches!(
            mismatch,
            AppError::InvalidArgument {
                reason: Reason::PageTokenFilterMismatch,
                ..
            }
        ));
        for bad in ["x", "7031", "é", &"ab".repeat(200)] {
            assert!(page_token::decode(bad, games(None)).is_err(), "{bad}");
        }
        // Strict: padding, the other base64 alphabet, a changed version.
        let good = page_token::encode(1234, games(None));
        let padded = format!("{good}=");
        let last_padded = format!("{}=", &good[..good.len() - 1]);
        let standard = good.replace('-', "+").replace('_', "/");
        let mut raw = {
            use base64::Engine as _;
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(&good)
                .unwrap()
        };
        raw[0] = 2;
        let other_version = {
            use base64::Engine as _;
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&raw)
        };
        for bad in [&padded, &last_padded, &other_version] {
            assert!(page_token::decode(bad, games(None)).is_err(), "{bad}");
        }
        if standard != good {
            assert!(page_token::decode(&standard, games(None)).is_err());
        }
    }

    /// One spelling per position: tokens with another version, a position
    /// that is not positive, an unknown filter or padding are all
    /// MALFORMED_PAGE_TOKEN.
    #[test]
    fn page_tokens_are_strict() {
        use base64::Engine as _;
        use base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let token = page_token::encode(29, games(None));
        assert_eq!(token.len(), 24);
        let forged = |head: [u8; 10]| {
            let mut bytes = [0u8; 18];
            bytes[..10].copy_from_slice(&head);
            URL_SAFE_NO_PAD.encode(bytes)
        };
        assert_eq!(forged([1, 0, 0, 0, 0, 0, 0, 0, 29, 0]), token);
        let other_version = [2, 0, 0, 0, 0, 0, 0, 0, 29, 0];
        let negative = [1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfb, 0];
        let zero = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let unknown_game = [1, 0, 0, 0, 0, 0, 0, 0, 29, 9];
        for bad in [
            forged(other_version),
            forged(negative),
            forged(zero),
            forged(unknown_game),
            format!("{token}="),
            format!("+{token}"),
            token[..23].to_owned(),
        ] {
            let err = page_token::decode(&bad, games(None)).unwrap_err();
            assert!(
                matches!(
                    err,
                    AppError::InvalidArgument {
                        reason: Reason::MalformedPageToken,
                        ..
                    }
                ),
                "{bad}: {err:?}"
            );
        }
    }

    #[test]
    fn hash_filters_must_look_like_canonical_hashes() {
        assert_eq!(hash_filter_from_proto("", "h"), Ok(None));
        assert_eq!(hash_filter_from_proto(HASH, "h"), Ok(Some(HASH)));
        for bad in [
            "sorted-edges-v1:",
            "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
            &HASH.to_uppercase(),
            &format!("{HASH}0"),
            &format!("a b{}", &HASH[15..]),
        ] {
            assert!(hash_filter_from_proto(bad, "h").is_err(), "{bad}");
        }
    }

    #[test]
    fn names_must_be_puzzle_names_with_well_formed_ids() {
        assert_eq!(
            id_from_name("puzzles/0123456789abcdef0123", "name"),
            Ok("0123456789abcdef0123")
        );
        for bad in [
            "",
            "puzzles/",
            "puzzles/ABCDEF0123456789abcd",
            "games/0123456789abcdef0123",
        ] {
            assert!(id_from_name(bad, "name").is_err(), "{bad}");
        }
    }

    #[test]
    fn echoed_values_are_cut_after_64_characters() {
        assert_eq!(echo("puzzles/x"), "\"puzzles/x\"");
        let long = "é".repeat(10_000);
        let echoed = echo(&long);
        assert_eq!(echoed, format!("{:?}…", "é".repeat(64)));
        assert_eq!(echo(&"a".repeat(64)), format!("{:?}", "a".repeat(64)));
    }

    #[test]
    fn unknown_and_unset_games_are_rejected() {
        assert_eq!(game_from_proto(1, "g"), Ok(Game::Geography));
        assert!(game_from_proto(0, "g").is_err());
        assert_eq!(game_from_proto(6, "g"), Ok(Game::DirectedEdgeGeography));
        assert!(game_from_proto(7, "g").is_err());
        assert_eq!(game_filter_from_proto(0, "g"), Ok(None));
        assert!(game_filter_from_proto(-1, "g").is_err());
    }
}
