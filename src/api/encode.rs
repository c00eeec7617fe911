//! domain -> proto: each answer of the application as the API's message.
//! Every conversion destructures its value completely, so a new field
//! fails the build until someone decides how it is sent.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::proto;
use crate::app::Solved;
use crate::app::catalog::PuzzleRecord;
use crate::app::generate::{Ask, FamilyKind, Found, Generated, WinnerWanted};
use crate::graph::Vertex;
use crate::puzzle::{Difficulty, EdgeClass, Evidence, Game, Move, RawSpec, Verdict, WinningMoves};
use crate::solver::Player;
use crate::solver::bipartite_edge::LegalMoveClass;
use crate::solver::position::PlayPosition;
use crate::solver::position::{PositionAnalysis, PositionEvidence};
use crate::solver::search_geography::{Certificate, Strategy};

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
    let rating = crate::rating::start_rating(difficulty.as_ref(), vertex_count);
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
        // See stored_puzzle_to_proto.
        cached_winner: proto::Player::Unspecified as i32,
        duplicate_of: duplicate_of
            .map(|d| format!("puzzles/{d}"))
            .unwrap_or_default(),
        create_time: Some(timestamp(create_time)),
        edge_count,
        difficulty: difficulty.map(difficulty_to_proto),
        rating: Some(proto::Rating {
            value: rating.value,
            deviation: rating.deviation,
        }),
    }
}

/// A stored puzzle with its stored winner (`cached_winner`).
pub fn stored_puzzle_to_proto(record: PuzzleRecord, winner: Option<Player>) -> proto::Puzzle {
    proto::Puzzle {
        cached_winner: winner.map_or(proto::Player::Unspecified, player_to_proto) as i32,
        ..puzzle_to_proto(record)
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

/// A generation request as the API's message: what `puzzled client
/// generate` sends for the flags `puzzled generate` reads into an [`Ask`].
pub fn ask_to_proto(ask: Ask) -> proto::GeneratePuzzlesRequest {
    let Ask {
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
    } = ask;
    let family = match family {
        None => proto::GraphFamily::Unspecified,
        Some(FamilyKind::Gnm) => proto::GraphFamily::Gnm,
        Some(FamilyKind::Tree) => proto::GraphFamily::Tree,
        Some(FamilyKind::GridWithHoles) => proto::GraphFamily::GridWithHoles,
        Some(FamilyKind::Bipartite) => proto::GraphFamily::Bipartite,
        Some(FamilyKind::Caterpillar) => proto::GraphFamily::Caterpillar,
        Some(FamilyKind::Graph6) => proto::GraphFamily::Graph6,
    };
    proto::GeneratePuzzlesRequest {
        game: game_to_proto(game) as i32,
        family: family as i32,
        min_vertices,
        max_vertices,
        winner: match winner {
            WinnerWanted::First => proto::Player::First,
            WinnerWanted::Second => proto::Player::Second,
            WinnerWanted::Either => proto::Player::Unspecified,
        } as i32,
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
    }
}
