//! GeneratePuzzles: puzzles drawn from a seed, solved, rated and kept when
//! they meet the request; the same request gives the same puzzles; each
//! comes with evidence the checker accepts and a difficulty the positions
//! along its main line recount; stored ones carry their difficulty, and a
//! copy already stored is named instead of stored again.

use tokio_stream::StreamExt as _;
use tonic::Code;

use super::checker::{self, Asked};
use super::helpers::*;

const WITH_MOVES: Asked = Asked {
    all_starts: false,
    winning_moves: true,
};

fn request(game: proto::Game, vertices: (u32, u32), seed: u64) -> proto::GeneratePuzzlesRequest {
    proto::GeneratePuzzlesRequest {
        game: game as i32,
        min_vertices: vertices.0,
        max_vertices: vertices.1,
        seed,
        count: 3,
        ..Default::default()
    }
}

async fn generate(
    app: &TestApp,
    request: proto::GeneratePuzzlesRequest,
) -> Result<Vec<proto::GeneratedPuzzle>, tonic::Status> {
    let mut stream = app
        .client
        .clone()
        .generate_puzzles(request)
        .await?
        .into_inner();
    let mut out = Vec::new();
    while let Some(item) = stream.next().await {
        out.push(item?);
    }
    Ok(out)
}

fn specs(puzzles: &[proto::GeneratedPuzzle]) -> Vec<proto::PuzzleSpec> {
    puzzles.iter().map(|p| p.spec.clone().unwrap()).collect()
}

/// The positions along the puzzle's main line, analysed one by one over the
/// API, recount its difficulty: winner turns with exactly one winning move
/// (class, in the edge game) among two or more legal ones, from the winner's first turn until one
/// with several winning moves (or the end); the first player's losing
/// first moves.
async fn recount(app: &TestApp, puzzle: &proto::GeneratedPuzzle) -> proto::Difficulty {
    let spec = puzzle.spec.clone().unwrap();
    let winner = puzzle.solution.as_ref().unwrap().winner;
    let mut client = app.client.clone();
    let mut analyse = async |moves: &[proto::Move]| {
        client
            .analyze_position(proto::AnalyzePositionRequest {
                puzzle: Some(proto::analyze_position_request::Puzzle::Spec(spec.clone())),
                moves: moves.to_vec(),
            })
            .await
            .expect("every position of the main line is legal")
            .into_inner()
    };
    let opening = analyse(&[]).await;
    assert_eq!(
        opening.winner, winner,
        "the opening's winner is the verdict's"
    );
    let first_move_count = opening.legal_move_count;
    let winning_count = opening.winning.as_ref().map_or(0, |w| w.count);
    let losing_first_moves = if winner == proto::Player::First as i32 {
        first_move_count - winning_count
    } else {
        first_move_count
    };
    let mut depth = 0;
    for played in 0..=puzzle.main_line.len() {
        let position = analyse(&puzzle.main_line[..played]).await;
        if position.game_over || position.to_move != winner {
            continue;
        }
        // The edge game's depth counts classes of moves, and its move
        // lists hold one example per class.
        let (legal, winning) = if spec.game == proto::Game::BipartiteEdge as i32 {
            (
                position.legal_moves.len() as u64,
                position.winning.as_ref().unwrap().moves.len() as u64,
            )
        } else {
            (
                position.legal_move_count,
                position.winning.as_ref().unwrap().count,
            )
        };
        if winning >= 2 {
            break;
        }
        if legal >= 2 {
            depth += 1;
        }
    }
    proto::Difficulty {
        only_move_depth: depth,
        first_move_count,
        losing_first_moves,
        margin: puzzle.difficulty.unwrap().margin,
    }
}

/// The solution is checked apart from the solver, by game.
fn check_solution(puzzle: &proto::GeneratedPuzzle) {
    let spec = puzzle.spec.as_ref().unwrap();
    let graph = spec.graph.as_ref().unwrap();
    let solution = puzzle.solution.as_ref().unwrap();
    match proto::Game::try_from(spec.game).unwrap() {
        proto::Game::Geography => checker::check_geography(
            graph.vertex_count,
            &graph.edges,
            spec.start,
            WITH_MOVES,
            solution,
        ),
        proto::Game::BipartiteEdge => {
            checker::check_bipartite_edge(graph.vertex_count, &graph.edges, WITH_MOVES, solution)
        }
        proto::Game::TreePaint => checker::check_tree_paint(
            graph.vertex_count,
            &graph.edges,
            (spec.black.unwrap(), spec.white.unwrap()),
            WITH_MOVES,
            solution,
        ),
        other => panic!("not checked here: {other:?}"),
    }
}

#[tokio::test]
async fn the_same_request_gives_the_same_puzzles_and_each_meets_it() {
    let app = spawn_app().await;
    // The edge game's winning moves come in classes that win together: so
    // few small puzzles have a single winning move that three distinct ones
    // are not asked for (docs/performance.md has the rates).
    for (game, vertices, depth, average_degree) in [
        (proto::Game::Geography, (16, 20), 2, None),
        (proto::Game::BipartiteEdge, (6, 9), 0, Some(1.5)),
        (proto::Game::TreePaint, (7, 11), 1, None),
    ] {
        let ask = proto::GeneratePuzzlesRequest {
            min_only_move_depth: depth,
            winner: proto::Player::First as i32,
            average_degree,
            ..request(game, vertices, 7)
        };
        let first = generate(&app, ask.clone()).await.unwrap();
        assert_eq!(first.len(), 3, "{game:?}");
        assert_eq!(
            specs(&generate(&app, ask.clone()).await.unwrap()),
            specs(&first)
        );
        let other_seed = generate(
            &app,
            proto::GeneratePuzzlesRequest {
                seed: 8,
                ..ask.clone()
            },
        )
        .await
        .unwrap();
        assert_ne!(specs(&other_seed), specs(&first), "{game:?}");
        let mut hashes = Vec::new();
        for puzzle in &first {
            let spec = puzzle.spec.as_ref().unwrap();
            assert_eq!(spec.game, game as i32);
            let n = spec.graph.as_ref().unwrap().vertex_count;
            assert!(
                (vertices.0..=vertices.1).contains(&n),
                "{game:?}: {n} vertices"
            );
            let solution = puzzle.solution.as_ref().unwrap();
            assert_eq!(solution.winner, proto::Player::First as i32);
            check_solution(puzzle);
            let difficulty = puzzle.difficulty.unwrap();
            assert!(
                difficulty.only_move_depth >= depth,
                "{game:?}: {difficulty:?}"
            );
            assert_eq!(recount(&app, puzzle).await, difficulty, "{game:?}");
            assert_eq!(
                difficulty.margin.is_some(),
                game == proto::Game::TreePaint,
                "{difficulty:?}"
            );
            if let Some(proto::solution::Detail::TreePaint(evidence)) = &solution.detail {
                let margin = evidence.black_count as i64 - evidence.white_count as i64;
                assert_eq!(difficulty.margin, Some(margin));
            }
            // Nothing stored unless asked.
            assert!(puzzle.puzzle.is_none() && puzzle.duplicate_of.is_empty());
            hashes.push(solution.canonical_hash.clone());
        }
        hashes.sort();
        hashes.dedup();
        assert_eq!(hashes.len(), 3, "{game:?}: no puzzle is sent twice");
        // Resuming after the second puzzle gives the third.
        let resumed = generate(
            &app,
            proto::GeneratePuzzlesRequest {
                count: 1,
                first_candidate: first[1].candidate + 1,
                ..ask
            },
        )
        .await
        .unwrap();
        assert_eq!(specs(&resumed), specs(&first[2..]));
    }
    assert!(app.listed().await.is_empty());
}

#[tokio::test]
async fn the_second_player_wins_when_asked_and_the_search_games_generate_too() {
    let app = spawn_app().await;
    let second = generate(
        &app,
        proto::GeneratePuzzlesRequest {
            winner: proto::Player::Second as i32,
            ..request(proto::Game::Geography, (6, 10), 3)
        },
    )
    .await
    .unwrap();
    for puzzle in &second {
        assert_eq!(
            puzzle.solution.as_ref().unwrap().winner,
            proto::Player::Second as i32
        );
        check_solution(puzzle);
        let difficulty = puzzle.difficulty.unwrap();
        // The first player loses with every first move.
        assert_eq!(difficulty.losing_first_moves, difficulty.first_move_count);
        assert_eq!(recount(&app, puzzle).await, difficulty);
    }
    for game in [
        proto::Game::DirectedVertexGeography,
        proto::Game::UndirectedEdgeGeography,
        proto::Game::DirectedEdgeGeography,
    ] {
        let puzzles = generate(&app, request(game, (5, 7), 11)).await.unwrap();
        assert_eq!(puzzles.len(), 3, "{game:?}");
        for puzzle in &puzzles {
            let solution = puzzle.solution.as_ref().unwrap();
            assert!(
                matches!(solution.detail, Some(proto::solution::Detail::Search(_))),
                "{game:?}"
            );
            assert_eq!(
                recount(&app, puzzle).await,
                puzzle.difficulty.unwrap(),
                "{game:?}"
            );
        }
    }
}

#[tokio::test]
async fn stored_puzzles_keep_their_difficulty_and_copies_are_named_not_stored() {
    let app = spawn_app().await;
    let ask = proto::GeneratePuzzlesRequest {
        store: true,
        author: "generator".into(),
        ..request(proto::Game::TreePaint, (6, 8), 5)
    };
    let first = generate(&app, ask.clone()).await.unwrap();
    let mut names = Vec::new();
    for puzzle in &first {
        let stored = puzzle.puzzle.as_ref().expect("stored");
        assert!(puzzle.duplicate_of.is_empty());
        assert_eq!(stored.spec.as_ref().unwrap().author, "generator");
        assert_eq!(
            stored.spec.as_ref().unwrap().title,
            format!(
                "tree_paint from Tree, seed 5, candidate {}",
                puzzle.candidate
            )
        );
        assert_eq!(stored.difficulty, puzzle.difficulty);
        assert_eq!(
            stored.canonical_hash,
            puzzle.solution.as_ref().unwrap().canonical_hash
        );
        // GetPuzzle and ListPuzzles show the difficulty too, and the
        // winner: the verdict it was rated by is stored with it.
        let winner = puzzle.solution.as_ref().unwrap().winner;
        assert_eq!(stored.cached_winner, winner);
        let read = app.read(&stored.name).await;
        assert_eq!(read.difficulty, puzzle.difficulty);
        assert_eq!(read.cached_winner, winner);
        // Its rating starts from its difficulty, by the formula of
        // docs/games.md ("A new puzzle's rating").
        let difficulty = puzzle.difficulty.unwrap();
        let graph = stored.spec.as_ref().and_then(|spec| spec.graph.as_ref());
        let n = f64::from(graph.unwrap().vertex_count);
        let traps = difficulty.losing_first_moves as f64 / difficulty.first_move_count as f64;
        let expected = 1000.0
            + 150.0 * f64::from(difficulty.only_move_depth.min(10))
            + 400.0 * traps
            + 80.0 * (n / 8.0).log2().clamp(0.0, 8.0);
        for rating in [&stored.rating, &read.rating] {
            let rating = rating.as_ref().expect("a stored puzzle has a rating");
            assert!(
                (rating.value - expected).abs() < 1e-9,
                "{rating:?} {difficulty:?}"
            );
            assert_eq!(rating.deviation, 250.0);
        }
        names.push(stored.name.clone());
    }
    let listed = app.listed().await;
    assert_eq!(listed.len(), 3);
    assert!(listed.iter().all(|p| p.difficulty.is_some()));
    assert!(
        listed
            .iter()
            .all(|p| p.cached_winner != proto::Player::Unspecified as i32),
        "{listed:?}"
    );
    // Solving a stored puzzle again, with the winning moves the rating
    // found, is answered from that verdict.
    let solved = app
        .client
        .clone()
        .solve_puzzle(proto::SolvePuzzleRequest {
            name: names[0].clone(),
            include_winning_moves: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(solved.cached, "{solved:?}");
    assert_eq!(solved.winner, first[0].solution.as_ref().unwrap().winner);
    // The same request again: the same puzzles, stored already.
    let again = generate(&app, ask).await.unwrap();
    for (puzzle, name) in again.iter().zip(&names) {
        assert!(puzzle.puzzle.is_none());
        assert_eq!(&puzzle.duplicate_of, name);
    }
    assert_eq!(app.listed().await.len(), 3);
    // A puzzle nobody rated starts at 1500 with the widest deviation.
    let created = app.create(path(4)).await;
    assert_eq!(
        created.rating,
        Some(proto::Rating {
            value: 1500.0,
            deviation: 350.0
        })
    );
}

#[tokio::test]
async fn a_graph6_family_takes_its_lines_in_order_and_ends_with_them() {
    let app = spawn_app().await;
    // A path and a star on 4 vertices, and K4, which is no tree.
    use puzzled::graph::graph6::to_graph6;
    let lines = [
        to_graph6(4, [(0, 1), (1, 2), (2, 3)]),
        to_graph6(4, [(0, 1), (0, 2), (0, 3)]),
        to_graph6(4, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]),
    ];
    let puzzles = generate(
        &app,
        proto::GeneratePuzzlesRequest {
            family: proto::GraphFamily::Graph6 as i32,
            graph6_lines: lines.to_vec(),
            count: 10,
            ..request(proto::Game::TreePaint, (4, 4), 1)
        },
    )
    .await
    .unwrap();
    let candidates: Vec<u64> = puzzles.iter().map(|p| p.candidate).collect();
    // K4 (line 2) is never a tree painting puzzle; the stream ends with
    // the lines, in their order and numbering.
    assert!(!candidates.is_empty(), "a path or a star gives a puzzle");
    assert!(
        candidates.iter().all(|&c| c < 2) && candidates.windows(2).all(|w| w[0] < w[1]),
        "{candidates:?}"
    );
    for puzzle in &puzzles {
        let graph = puzzle.spec.as_ref().unwrap().graph.as_ref().unwrap();
        let line = match puzzle.candidate {
            0 => [0, 1, 1, 2, 2, 3],
            _ => [0, 1, 0, 2, 0, 3],
        };
        assert_eq!((graph.vertex_count, graph.edges.as_slice()), (4, &line[..]));
    }
}

#[tokio::test]
async fn each_bad_request_is_refused_before_the_stream_with_its_field() {
    let app = spawn_app().await;
    let refused = |request| {
        let app = &app;
        async move {
            let status = generate(app, request).await.unwrap_err();
            (
                status.code(),
                error_reason(&status),
                status.message().to_owned(),
            )
        }
    };
    let base = request(proto::Game::TreePaint, (6, 8), 1);
    let (code, reason, message) = refused(proto::GeneratePuzzlesRequest {
        family: proto::GraphFamily::Gnm as i32,
        ..base.clone()
    })
    .await;
    assert_eq!(
        (code, reason.as_str()),
        (Code::InvalidArgument, "INVALID_GENERATE_REQUEST")
    );
    assert!(message.starts_with("family"), "{message}");
    let (code, reason, message) = refused(proto::GeneratePuzzlesRequest {
        average_degree: Some(4.0),
        ..base.clone()
    })
    .await;
    assert_eq!(
        (code, reason.as_str()),
        (Code::InvalidArgument, "FIELD_NOT_FOR_FAMILY")
    );
    assert!(message.starts_with("average_degree"), "{message}");
    let (code, reason, _) = refused(proto::GeneratePuzzlesRequest {
        count: 101,
        ..base.clone()
    })
    .await;
    assert_eq!(
        (code, reason.as_str()),
        (Code::InvalidArgument, "COUNT_TOO_LARGE")
    );
    let (code, reason, _) = refused(proto::GeneratePuzzlesRequest {
        max_vertices: u32::MAX,
        ..base.clone()
    })
    .await;
    assert_eq!(
        (code, reason.as_str()),
        (Code::ResourceExhausted, "LIMIT_EXCEEDED")
    );
    let (code, reason, message) = refused(proto::GeneratePuzzlesRequest {
        min_vertices: 9,
        max_vertices: 8,
        ..base.clone()
    })
    .await;
    assert_eq!(
        (code, reason.as_str()),
        (Code::InvalidArgument, "INVALID_GENERATE_REQUEST")
    );
    assert!(message.contains("vertices"), "{message}");
    let (code, reason, message) = refused(proto::GeneratePuzzlesRequest {
        min_only_move_depth: 50,
        ..base.clone()
    })
    .await;
    assert_eq!(
        (code, reason.as_str()),
        (Code::InvalidArgument, "INVALID_GENERATE_REQUEST")
    );
    assert!(message.starts_with("min_only_move_depth"), "{message}");
    let (code, reason, message) = refused(proto::GeneratePuzzlesRequest {
        family: proto::GraphFamily::Graph6 as i32,
        graph6_lines: vec!["not graph6 at all".into()],
        ..base.clone()
    })
    .await;
    assert_eq!(
        (code, reason.as_str()),
        (Code::InvalidArgument, "INVALID_GENERATE_REQUEST")
    );
    assert!(message.starts_with("graph6_lines[0]"), "{message}");
    // Graphs past the server's edge limit, which a submitted puzzle could
    // not have either.
    let (code, reason, message) = refused(proto::GeneratePuzzlesRequest {
        family: proto::GraphFamily::Gnm as i32,
        average_degree: Some(100.0),
        ..request(proto::Game::Geography, (1_000_000, 1_000_000), 1)
    })
    .await;
    assert_eq!(
        (code, reason.as_str()),
        (Code::ResourceExhausted, "LIMIT_EXCEEDED")
    );
    assert!(
        message.contains("50000000 edges") && message.contains("(--max-edges)"),
        "{message}"
    );
    let (code, reason, message) = refused(proto::GeneratePuzzlesRequest {
        first_candidate: u64::MAX,
        ..base.clone()
    })
    .await;
    assert_eq!(
        (code, reason.as_str()),
        (Code::InvalidArgument, "INVALID_GENERATE_REQUEST")
    );
    assert!(message.starts_with("first_candidate"), "{message}");
    // A request no candidate meets within the bound: said, with what to relax.
    let (code, reason, message) = refused(proto::GeneratePuzzlesRequest {
        min_only_move_depth: 3,
        max_rejected_in_a_row: 3,
        ..request(proto::Game::Geography, (6, 6), 1)
    })
    .await;
    assert_eq!(
        (code, reason.as_str()),
        (Code::ResourceExhausted, "NO_PUZZLE_FOUND")
    );
    assert!(message.contains("first_candidate"), "{message}");
    // The server keeps serving.
    assert_eq!(generate(&app, base).await.unwrap().len(), 3);
}

#[tokio::test]
async fn storing_needs_a_writers_token_where_creating_does() {
    let app = app_with(|config| {
        config.writer_tokens = Some("alice=alice-token-0123456789".into());
    })
    .await;
    let ask = request(proto::Game::TreePaint, (6, 8), 1);
    // Generating alone is open to all.
    assert_eq!(generate(&app, ask.clone()).await.unwrap().len(), 3);
    let refused = generate(&app, proto::GeneratePuzzlesRequest { store: true, ..ask })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    assert_eq!(error_reason(&refused), "WRITER_TOKEN_MISSING");
    assert!(app.listed().await.is_empty());
}

/// A request that takes long: depth 128, the most the main line can show,
/// is never met in the edge game on random graphs (they connect long
/// before), so the search runs through its whole bound of candidates, the
/// most a request may ask for.
fn endless() -> proto::GeneratePuzzlesRequest {
    proto::GeneratePuzzlesRequest {
        min_only_move_depth: 128,
        max_rejected_in_a_row: puzzled::app::generate::MAX_REJECTED_IN_A_ROW as u32,
        ..request(proto::Game::BipartiteEdge, (200, 200), 1)
    }
}

#[tokio::test]
async fn a_client_that_leaves_or_a_deadline_that_passes_stops_the_search() {
    let app = spawn_app().await;
    let stream = app
        .client
        .clone()
        .generate_puzzles(endless())
        .await
        .unwrap();
    app.until_a_solve_runs().await;
    drop(stream);
    until(|| app.solves_running.get() == 0).await;
    let mut timed = tonic::Request::new(endless());
    timed.set_timeout(std::time::Duration::from_millis(300));
    let mut stream = app
        .client
        .clone()
        .generate_puzzles(timed)
        .await
        .unwrap()
        .into_inner();
    let ended = stream.next().await.expect("the stream ends with an error");
    let status = ended.unwrap_err();
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    until(|| app.solves_running.get() == 0).await;
}
