//! The Geography variants solved by search over the wire: verdicts and
//! winning moves against the test kit's plain-recursion oracle, strategy
//! certificates through its checker, the cache keyed by nauty's digraph
//! hash, the budget's refusal, bad arcs, positions and Play.

use puzzled_testkit::random::{Rng as _, XorShift};
use puzzled_testkit::strategy::{self, Rules, check_strategy};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::helpers::*;

const GAMES: [(proto::Game, Rules); 3] = [
    (proto::Game::DirectedVertexGeography, Rules::DirectedVertex),
    (proto::Game::UndirectedEdgeGeography, Rules::UndirectedEdge),
    (proto::Game::DirectedEdgeGeography, Rules::DirectedEdge),
];

fn spec(game: proto::Game, n: u32, edges: &[u32], start: u32) -> proto::PuzzleSpec {
    proto::PuzzleSpec {
        game: game as i32,
        graph: graph(n, edges),
        start,
        ..Default::default()
    }
}

fn pairs(edges: &[u32]) -> Vec<(u32, u32)> {
    edges.chunks(2).map(|p| (p[0], p[1])).collect()
}

/// Random arcs (both directions allowed) or edges on `n` vertices.
fn random_pairs(rules: Rules, n: u32, rng: &mut XorShift) -> Vec<u32> {
    let mut flat = Vec::new();
    for u in 0..n {
        for v in 0..n {
            let candidate = if rules == Rules::UndirectedEdge {
                u < v
            } else {
                u != v
            };
            if candidate && rng.below(10) < 3 {
                flat.extend([u, v]);
            }
        }
    }
    flat
}

fn vertex(v: u32) -> proto::Move {
    proto::Move {
        r#move: Some(proto::r#move::Move::Vertex(v)),
    }
}

fn vertices(moves: &[proto::Move]) -> Vec<u32> {
    moves
        .iter()
        .map(|m| match m.r#move {
            Some(proto::r#move::Move::Vertex(v)) => v,
            ref other => panic!("not a vertex move: {other:?}"),
        })
        .collect()
}

#[tokio::test]
async fn verdicts_winning_moves_and_certificates_match_the_oracle() {
    let app = spawn_app().await;
    let mut rng = XorShift::new(3535);
    let mut certificates = 0;
    for case in 0..60 {
        let (game, rules) = GAMES[case % 3];
        let n = 2 + rng.below(5) as u32;
        let edges = random_pairs(rules, n, &mut rng);
        let start = rng.below(n.into()) as u32;
        let solution = app.solve(spec(game, n, &edges, start)).await;
        let pairs = pairs(&edges);
        let oracle = strategy::Board {
            rules,
            n: n as usize,
            pairs: &pairs,
        };
        let expected = oracle.winning_moves(start);
        let first_wins = !expected.is_empty();
        let winner = if first_wins {
            proto::Player::First
        } else {
            proto::Player::Second
        };
        assert_eq!(
            solution.winner, winner as i32,
            "{game:?} {edges:?} from {start}"
        );
        let winning = solution.winning_moves.expect("always set for search games");
        assert_eq!(vertices(&winning.moves), expected);
        assert!(winning.complete);
        let Some(proto::solution::Detail::Search(evidence)) = solution.detail else {
            panic!("search evidence expected")
        };
        let tree = evidence.strategy.expect("a small game has its certificate");
        assert!(evidence.strategy_omitted.is_empty());
        check_strategy(&oracle, start, first_wins, &tree.moves, &tree.replies)
            .unwrap_or_else(|e| panic!("{game:?} {edges:?} from {start}: {e}"));
        certificates += 1;
        let hash = &solution.canonical_hash;
        let expected_canonicaliser = if rules == Rules::UndirectedEdge {
            "traces-v4"
        } else {
            "nauty-digraph-v1"
        };
        assert_eq!(solution.canonicaliser, expected_canonicaliser);
        assert!(hash.starts_with(expected_canonicaliser), "{hash}");
    }
    assert_eq!(certificates, 60);
}

/// A relabelled copy of a directed puzzle (arcs shuffled, vertices renamed,
/// the start carried along) is answered from the cache, in its own labels;
/// the reversed digraph and the same graph in another game are not.
#[tokio::test]
async fn the_cache_is_keyed_by_the_digraph_up_to_isomorphism() {
    let app = spawn_app().await;
    // 0→1, 1→2, 2→0, 2→3: from 0 the first player moves 0→1, the second
    // 1→2, then the first chooses 2→3 (vertex game) and wins.
    let arcs = [0, 1, 1, 2, 2, 0, 2, 3];
    let first = app
        .solve(spec(proto::Game::DirectedVertexGeography, 4, &arcs, 0))
        .await;
    assert!(!first.cached);
    let perm = [2u32, 0, 3, 1];
    let copy: Vec<u32> = arcs
        .chunks(2)
        .rev()
        .flat_map(|a| [perm[a[0] as usize], perm[a[1] as usize]])
        .collect();
    let again = app
        .solve(spec(
            proto::Game::DirectedVertexGeography,
            4,
            &copy,
            perm[0],
        ))
        .await;
    assert!(again.cached, "a relabelled copy hits the cache");
    assert_eq!(again.canonical_hash, first.canonical_hash);
    assert_eq!(again.winner, first.winner);
    let relabelled: Vec<u32> = vertices(&first.winning_moves.unwrap().moves)
        .into_iter()
        .map(|v| perm[v as usize])
        .collect();
    assert_eq!(vertices(&again.winning_moves.unwrap().moves), relabelled);
    let reversed: Vec<u32> = arcs.chunks(2).flat_map(|a| [a[1], a[0]]).collect();
    let other = app
        .solve(spec(proto::Game::DirectedVertexGeography, 4, &reversed, 0))
        .await;
    assert_ne!(other.canonical_hash, first.canonical_hash);
    let edge_game = app
        .solve(spec(proto::Game::DirectedEdgeGeography, 4, &arcs, 0))
        .await;
    assert_ne!(edge_game.canonical_hash, first.canonical_hash);
    // Stored, the puzzle keeps its arcs and exports digraph6.
    let created = app
        .create(spec(proto::Game::DirectedVertexGeography, 4, &arcs, 0))
        .await;
    assert_eq!(created.canonical_hash, first.canonical_hash);
    let read = app.read(&created.name).await;
    assert_eq!(read.spec.unwrap().graph.unwrap().edges, arcs.to_vec());
    assert!(
        read.canonical_sparse6.starts_with('&'),
        "{}",
        read.canonical_sparse6
    );
    let solved = app.solve_stored(&created.name).await.unwrap();
    assert_eq!(solved.winner, first.winner);
}

#[tokio::test]
async fn past_the_search_budget_the_answer_is_refused_and_the_server_goes_on() {
    let mut app = app_with(|config| config.search_budget_states = 20).await;
    let mut rng = XorShift::new(9);
    let n = 20;
    let arcs = random_pairs(Rules::DirectedVertex, n, &mut rng);
    let status = app
        .client
        .solve(solve_request(spec(
            proto::Game::DirectedVertexGeography,
            n,
            &arcs,
            0,
        )))
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::ResourceExhausted);
    assert_eq!(error_reason(&status), "SEARCH_BUDGET_EXCEEDED");
    assert!(
        status.message().contains("explored 20 states")
            && status.message().contains("--search-budget-states 20"),
        "{}",
        status.message()
    );
    let analysis = app
        .client
        .analyze_position(proto::AnalyzePositionRequest {
            puzzle: Some(proto::analyze_position_request::Puzzle::Spec(spec(
                proto::Game::DirectedVertexGeography,
                n,
                &arcs,
                0,
            ))),
            moves: vec![],
        })
        .await
        .unwrap_err();
    assert_eq!(error_reason(&analysis), "SEARCH_BUDGET_EXCEEDED");
    // Each ran one search; asked again, both are answered from memory
    // with the same refusal, the Solve also for a relabelled copy.
    assert_eq!(app.searches_over_budget.get(), 2);
    let reversed: Vec<u32> = arcs.iter().map(|&v| n - 1 - v).collect();
    for puzzle in [
        spec(proto::Game::DirectedVertexGeography, n, &arcs, 0),
        spec(proto::Game::DirectedVertexGeography, n, &reversed, n - 1),
    ] {
        let again = app.client.solve(solve_request(puzzle)).await.unwrap_err();
        assert_eq!(again.message(), status.message());
    }
    let again = app
        .client
        .analyze_position(proto::AnalyzePositionRequest {
            puzzle: Some(proto::analyze_position_request::Puzzle::Spec(spec(
                proto::Game::DirectedVertexGeography,
                n,
                &arcs,
                0,
            ))),
            moves: vec![],
        })
        .await
        .unwrap_err();
    assert_eq!(again.message(), analysis.message());
    assert_eq!(
        app.searches_over_budget.get(),
        2,
        "a question searched twice"
    );
    // A small one still gets its answer.
    let small = app
        .solve(spec(proto::Game::DirectedEdgeGeography, 2, &[0, 1], 0))
        .await;
    assert_eq!(small.winner, proto::Player::First as i32);
}

#[tokio::test]
async fn bad_arcs_and_boards_past_the_bit_sets_are_named() {
    let mut app = spawn_app().await;
    let cases: [(proto::PuzzleSpec, &str, &str); 5] = [
        (
            spec(
                proto::Game::DirectedEdgeGeography,
                3,
                &[0, 1, 1, 2, 0, 1],
                0,
            ),
            "DUPLICATE_EDGE",
            "spec.graph.edges[4]",
        ),
        (
            spec(proto::Game::DirectedVertexGeography, 3, &[1, 1], 0),
            "SELF_LOOP",
            "spec.graph.edges[0]",
        ),
        (
            spec(proto::Game::UndirectedEdgeGeography, 3, &[0, 1, 1, 0], 0),
            "DUPLICATE_EDGE",
            "spec.graph.edges[2]",
        ),
        (
            spec(proto::Game::DirectedVertexGeography, 3, &[0, 1], 3),
            "VERTEX_OUT_OF_RANGE",
            "spec.start",
        ),
        (
            spec(proto::Game::DirectedVertexGeography, 129, &[0, 1], 0),
            "LIMIT_EXCEEDED",
            "spec.graph.vertex_count",
        ),
    ];
    for (bad, reason, field) in cases {
        let status = app.client.solve(solve_request(bad)).await.unwrap_err();
        assert_eq!(error_reason(&status), reason, "{status:?}");
        assert!(status.message().starts_with(field), "{}", status.message());
    }
    // An arc and its reverse are two arcs, not a duplicate.
    let two_cycle = app
        .solve(spec(
            proto::Game::DirectedEdgeGeography,
            2,
            &[0, 1, 1, 0],
            0,
        ))
        .await;
    // 0→1, 1→0, then the first player is stuck at 0.
    assert_eq!(two_cycle.winner, proto::Player::Second as i32);
    let many_edges: Vec<u32> = (0..129u32).flat_map(|i| [i % 60, 60 + i % 61]).collect();
    let status = app
        .client
        .solve(solve_request(spec(
            proto::Game::UndirectedEdgeGeography,
            128,
            &many_edges,
            0,
        )))
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::ResourceExhausted, "{status:?}");
    assert_eq!(error_reason(&status), "LIMIT_EXCEEDED");
    assert!(
        status.message().starts_with("spec.graph.edges")
            && status
                .message()
                .contains("at most 128 edges; this graph has 129"),
        "{}",
        status.message()
    );
}

#[tokio::test]
async fn positions_agree_with_the_oracle_and_name_used_edges() {
    let mut app = spawn_app().await;
    // Undirected edge Geography on a triangle with a tail: 0-1, 1-2, 2-0, 2-3.
    let edges = [0, 1, 1, 2, 2, 0, 2, 3];
    let request = |moves: Vec<u32>| proto::AnalyzePositionRequest {
        puzzle: Some(proto::analyze_position_request::Puzzle::Spec(spec(
            proto::Game::UndirectedEdgeGeography,
            4,
            &edges,
            0,
        ))),
        moves: moves.into_iter().map(vertex).collect(),
    };
    // 0→1→2→0 uses the triangle; the token is back on 0 with no edge left.
    let over = app
        .client
        .analyze_position(request(vec![1, 2, 0]))
        .await
        .unwrap()
        .into_inner();
    assert!(over.game_over);
    assert_eq!(over.to_move, proto::Player::Second as i32);
    assert_eq!(over.winner, proto::Player::First as i32);
    let status = app
        .client
        .analyze_position(request(vec![1, 0]))
        .await
        .unwrap_err();
    assert_eq!(error_reason(&status), "EDGE_ALREADY_USED");
    assert!(
        status.message().starts_with("moves[1]"),
        "{}",
        status.message()
    );
    let status = app
        .client
        .analyze_position(request(vec![3]))
        .await
        .unwrap_err();
    assert_eq!(error_reason(&status), "NOT_ADJACENT");
    // Every position of random games against the oracle.
    let mut rng = XorShift::new(77);
    for case in 0..30 {
        let (game, rules) = GAMES[case % 3];
        let n = 3 + rng.below(4) as u32;
        let flat = random_pairs(rules, n, &mut rng);
        let pairs = pairs(&flat);
        let start = rng.below(n.into()) as u32;
        let mut line: Vec<u32> = Vec::new();
        loop {
            let analysis = app
                .client
                .analyze_position(proto::AnalyzePositionRequest {
                    puzzle: Some(proto::analyze_position_request::Puzzle::Spec(spec(
                        game, n, &flat, start,
                    ))),
                    moves: line.iter().map(|&v| vertex(v)).collect(),
                })
                .await
                .unwrap()
                .into_inner();
            let expected = oracle_after(rules, n, &pairs, start, &line);
            assert_eq!(
                vertices(&analysis.winning_moves),
                expected,
                "{game:?} {flat:?} {line:?}"
            );
            let legal = vertices(&analysis.legal_moves);
            if legal.is_empty() {
                assert!(analysis.game_over);
                break;
            }
            line.push(legal[rng.below(legal.len() as u64) as usize]);
        }
    }
}

/// The winning moves after `line` from `start`: the oracle on the board
/// with the line's pairs removed (and, for the vertex game, its vertices
/// as visited, by removing every arc into them).
fn oracle_after(rules: Rules, n: u32, pairs: &[(u32, u32)], start: u32, line: &[u32]) -> Vec<u32> {
    let mut token = start;
    let mut remaining = pairs.to_vec();
    let mut visited = vec![start];
    for &to in line {
        let index = remaining
            .iter()
            .position(|&(u, v)| {
                (u, v) == (token, to) || (rules == Rules::UndirectedEdge && (v, u) == (token, to))
            })
            .expect("a legal line");
        remaining.remove(index);
        visited.push(to);
        token = to;
    }
    if rules == Rules::DirectedVertex {
        remaining.retain(|&(_, v)| !visited.contains(&v));
    }
    strategy::Board {
        rules,
        n: n as usize,
        pairs: &remaining,
    }
    .winning_moves(token)
}

/// Whole games against the engine from the winning side: the engine always
/// wins; from the losing side it still answers every move legally.
#[tokio::test]
async fn the_engine_wins_every_won_game() {
    let mut app = spawn_app().await;
    let mut rng = XorShift::new(4242);
    for case in 0..18 {
        let (game, rules) = GAMES[case % 3];
        let n = 3 + rng.below(4) as u32;
        let flat = random_pairs(rules, n, &mut rng);
        let start = rng.below(n.into()) as u32;
        let human_first = case % 2 == 0;
        let (send, receive) = mpsc::channel(4);
        let mut responses = app
            .client
            .play(ReceiverStream::new(receive))
            .await
            .unwrap()
            .into_inner();
        send.send(proto::PlayRequest {
            request: Some(proto::play_request::Request::Start(proto::PlayStart {
                puzzle: Some(proto::play_start::Puzzle::Spec(spec(game, n, &flat, start))),
                human_side: if human_first {
                    proto::Player::First
                } else {
                    proto::Player::Second
                } as i32,
            })),
        })
        .await
        .unwrap();
        let opening = responses.message().await.unwrap().unwrap();
        let mut position = opening.position.unwrap();
        let engine = if human_first {
            proto::Player::Second
        } else {
            proto::Player::First
        } as i32;
        let engine_stood_winning = position.winner == engine;
        while !position.game_over {
            let legal = vertices(&position.legal_moves);
            let choice = legal[rng.below(legal.len() as u64) as usize];
            send.send(proto::PlayRequest {
                request: Some(proto::play_request::Request::Move(vertex(choice))),
            })
            .await
            .unwrap();
            let response = responses.message().await.unwrap().unwrap();
            position = response.position.unwrap();
        }
        if engine_stood_winning {
            assert_eq!(position.winner, engine, "{game:?} {flat:?} from {start}");
        }
    }
}
