//! Solve and SolvePuzzle: verdicts with evidence checked independently,
//! caching, coalescing.

use puzzled_testkit::random::{XorShift, random_tree};

use super::checker::{Asked, check_geography};
use super::helpers::*;

#[tokio::test]
async fn the_readme_example_is_a_second_player_win_with_matching_1_2() {
    let app = spawn_app().await;
    let solution = app.solve(geography(3, &[0, 1, 1, 2], 0)).await;
    assert_eq!(solution.winner, proto::Player::Second as i32);
    let Some(proto::solution::Detail::Geography(ev)) = &solution.detail else {
        panic!("{solution:?}")
    };
    assert_eq!(ev.matching, vec![1, 2]);
    assert!(!solution.cached);
    assert!(solution.canonical_hash.starts_with("traces-v4:"));
    assert!(!solution.solver_version.is_empty());
    check_geography(3, &[0, 1, 1, 2], 0, Asked::NOTHING, &solution);
}

#[tokio::test]
async fn random_small_graphs_agree_with_game_tree_search() {
    let mut app = spawn_app().await;
    for seed in 0..40u64 {
        let n = 2 + (seed % 10) as u32;
        let m = (seed as usize * 7) % (n as usize * (n as usize - 1) / 2 + 1);
        let edges = random_graph(n, m, seed + 1);
        let start = (seed as u32 * 3) % n;
        // Every combination of the optional evidence, in turn.
        let request = proto::SolveRequest {
            spec: Some(geography(n, &edges, start)),
            include_all_starts: seed % 2 == 0,
            include_winning_moves: seed % 4 < 2,
        };
        let asked = Asked::of(&request);
        let solution = app.client.solve(request).await.unwrap().into_inner();
        check_geography(n, &edges, start, asked, &solution);
    }
}

#[tokio::test]
async fn a_larger_graph_has_checkable_evidence() {
    let mut app = spawn_app().await;
    let n = 2000;
    let edges = random_graph(n, 3000, 99);
    for start in [0, 1, 2, 3] {
        let solution = app
            .client
            .solve(proto::SolveRequest {
                spec: Some(geography(n, &edges, start)),
                include_all_starts: true,
                include_winning_moves: false,
            })
            .await
            .unwrap()
            .into_inner();
        let asked = Asked {
            all_starts: true,
            winning_moves: false,
        };
        check_geography(n, &edges, start, asked, &solution);
    }
}

#[tokio::test]
async fn solve_puzzle_matches_inline_solve_and_the_cache_answers_the_same() {
    let mut app = spawn_app().await;
    let edges = [0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 1, 5];
    let spec = geography(6, &edges, 5);
    let created = app.create(spec.clone()).await;
    let stored = app
        .client
        .solve_puzzle(proto::SolvePuzzleRequest {
            name: created.name,
            include_all_starts: true,
            include_winning_moves: true,
        })
        .await
        .unwrap()
        .into_inner();
    assert!(!stored.cached);
    assert_eq!(stored.canonical_hash, created.canonical_hash);
    check_geography(6, &edges, 5, Asked::EVERYTHING, &stored);
    // The same puzzle inline, edges reordered and reversed: a cache hit with
    // exactly the same content.
    let reordered = [5, 1, 0, 4, 4, 3, 3, 2, 2, 1, 1, 0];
    let inline = app
        .client
        .solve(proto::SolveRequest {
            spec: Some(geography(6, &reordered, 5)),
            include_all_starts: true,
            include_winning_moves: true,
        })
        .await
        .unwrap()
        .into_inner();
    assert!(inline.cached);
    assert_eq!(
        proto::Solution {
            cached: false,
            ..inline
        },
        stored
    );
    // Other options are another cache entry.
    let plain = app.solve(spec).await;
    assert!(!plain.cached);
    assert!(plain.winning_moves.is_none());
    check_geography(6, &edges, 5, Asked::NOTHING, &plain);
}

#[tokio::test]
async fn concurrent_identical_solves_compute_once() {
    let app = spawn_app().await;
    let n = 3000;
    let edges = random_graph(n, 6000, 7);
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let mut client = app.client.clone();
        let spec = geography(n, &edges, 0);
        tasks.push(tokio::spawn(async move {
            client
                .solve(solve_request(spec))
                .await
                .unwrap()
                .into_inner()
        }));
    }
    let mut solutions = Vec::new();
    for t in tasks {
        solutions.push(t.await.unwrap());
    }
    let fresh = solutions.iter().filter(|s| !s.cached).count();
    assert_eq!(fresh, 1, "exactly one request solved; the others shared it");
    let first = proto::Solution {
        cached: false,
        ..solutions[0].clone()
    };
    for s in &solutions {
        assert_eq!(
            &proto::Solution {
                cached: false,
                ..s.clone()
            },
            &first
        );
    }
    check_geography(n, &edges, 0, Asked::NOTHING, &solutions[0]);
}

/// One worker and no queue: while a long solve runs, another solve is
/// refused with RESOURCE_EXHAUSTED at once; afterwards solves run again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_solver_pool_refuses_instead_of_queueing_without_bound() {
    let mut app = app_with(|config| {
        config.solve_workers = Some(1);
        config.solve_queue = 0;
    })
    .await;
    let n = 200_000;
    let edges = random_graph(n, 400_000, 5);
    let big = app.create(geography(n, &edges, 0)).await;
    // The long solve and a probe can meet the single worker in either order;
    // when the probe held it, the long solve is the one refused: try again.
    let mut refused = None;
    let mut probe = 0u32;
    for _attempt in 0..5 {
        let mut client = app.client.clone();
        let name = big.name.clone();
        let long = tokio::spawn(async move {
            client
                .solve_puzzle(proto::SolvePuzzleRequest {
                    name,
                    ..Default::default()
                })
                .await
        });
        while !long.is_finished() {
            // A different small puzzle each time, so the cache cannot answer;
            // a game solved by search, so that it queues for the general
            // workers (small puzzles of the other games have a lane of
            // their own).
            probe += 1;
            let spec = proto::PuzzleSpec {
                game: proto::Game::DirectedVertexGeography as i32,
                ..geography(3 + probe % 120, &[0, 1, 1, 2], 0)
            };
            match app.client.solve(solve_request(spec)).await {
                Ok(_) => tokio::task::yield_now().await,
                Err(status) => {
                    refused = Some(status);
                    break;
                }
            }
        }
        let long = long.await.unwrap();
        if refused.is_some() {
            long.expect("the long solve completes");
            break;
        }
        let status = long.expect_err("no probe was refused, so the long solve must have been");
        assert_eq!(status.code(), tonic::Code::ResourceExhausted, "{status:?}");
    }
    let status = refused.expect("a solve was refused while the only worker was busy");
    assert_eq!(status.code(), tonic::Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("busy"), "{}", status.message());
    app.client
        .solve(solve_request(geography(3, &[0, 1], 2)))
        .await
        .expect("solves run again once the worker is free");
}

/// A random tree (each vertex hangs off an earlier one) with the edges to
/// every `drop_every`-th vertex left out, to make a forest.
fn random_forest_edges(n: u32, seed: u64, drop_every: u32) -> Vec<u32> {
    let tree = random_tree(n, &mut XorShift::scrambled(seed));
    tree.chunks(2)
        .filter(|edge| drop_every == 0 || edge[1] % drop_every != 0)
        .flatten()
        .copied()
        .collect()
}

#[tokio::test]
async fn edge_game_solutions_agree_with_search() {
    use super::checker::check_bipartite_edge;
    let mut app = spawn_app().await;
    // ABC398 G sample 1 (a path on 4 vertices, renumbered from 0).
    let mut cases = vec![(4, vec![0, 1, 1, 2, 2, 3])];
    for seed in 0..30u64 {
        let n = 1 + (seed % 6) as u32;
        cases.push((n, random_forest_edges(n, seed, (seed % 3) as u32 + 1)));
        // Add an even cycle now and then.
        if n >= 4 && seed % 4 == 0 {
            cases.push((n, vec![0, 1, 1, 2, 2, 3, 3, 0]));
        }
    }
    for (i, (n, edges)) in cases.into_iter().enumerate() {
        let spec = proto::PuzzleSpec {
            game: proto::Game::BipartiteEdge as i32,
            graph: graph(n, &edges),
            ..Default::default()
        };
        let (request, asked) = asked_in_turn(spec, i);
        let solution = app.client.solve(request).await.unwrap().into_inner();
        check_bipartite_edge(n, &edges, asked, &solution);
    }
}

/// The request of case `i` for `spec`, and what it asks for: winning moves
/// in two cases out of three; include_all_starts (every other case) means
/// nothing to games without a start and must not add anything.
fn asked_in_turn(spec: proto::PuzzleSpec, i: usize) -> (proto::SolveRequest, Asked) {
    let request = proto::SolveRequest {
        spec: Some(spec),
        include_all_starts: i % 2 == 1,
        include_winning_moves: i % 3 != 2,
    };
    let asked = Asked {
        all_starts: false,
        ..Asked::of(&request)
    };
    (request, asked)
}

#[tokio::test]
async fn tree_paint_solutions_agree_with_search() {
    use super::checker::check_tree_paint;
    let mut app = spawn_app().await;
    // ABC067 D sample 1, renumbered from 0: the first player (Fennec) wins.
    let sample = vec![2, 5, 0, 1, 2, 0, 6, 3, 4, 6, 0, 3];
    let mut cases = vec![(7, sample, None, None)];
    for seed in 0..30u64 {
        let n = 2 + (seed % 8) as u32;
        let edges = random_forest_edges(n, seed, 0);
        let black = (seed as u32 * 5) % n;
        let white = (black + 1 + (seed as u32 % (n - 1))) % n;
        cases.push((n, edges, Some(black), Some(white)));
    }
    for (i, (n, edges, black, white)) in cases.into_iter().enumerate() {
        let spec = proto::PuzzleSpec {
            game: proto::Game::TreePaint as i32,
            graph: graph(n, &edges),
            black,
            white,
            ..Default::default()
        };
        let (request, asked) = asked_in_turn(spec, i);
        let solution = app.client.solve(request).await.unwrap().into_inner();
        if i == 0 {
            assert_eq!(
                solution.winner,
                proto::Player::First as i32,
                "Fennec wins sample 1"
            );
        }
        check_tree_paint(
            n,
            &edges,
            (black.unwrap_or(0), white.unwrap_or(n - 1)),
            asked,
            &solution,
        );
    }
}

/// A repeat of the very same Solve request is answered from the answer
/// memo: the answer made for it, marked cached; the same puzzle with its
/// vertices labelled otherwise takes the canonical path and finds the
/// same canonical verdict.
#[tokio::test]
async fn a_repeated_request_is_answered_from_the_memo() {
    let app = spawn_app().await;
    let answer_hits = || cache_hits("answer");
    let spec = geography(7, &random_graph(7, 9, 0x6d65_6d6f), 2);
    let first = app.solve(spec.clone()).await;
    assert!(!first.cached);
    let hits = answer_hits();
    let again = app.solve(spec.clone()).await;
    assert!(answer_hits() > hits, "the repeat did not hit the memo");
    assert_eq!(
        again,
        proto::Solution {
            cached: true,
            ..first.clone()
        }
    );
    // Vertices 0 and 1 exchanged: another request, the same puzzle.
    let swap = |v: u32| match v {
        0 => 1,
        1 => 0,
        v => v,
    };
    let graph = spec.graph.clone().unwrap();
    let relabelled = proto::PuzzleSpec {
        graph: Some(proto::Graph {
            edges: graph.edges.iter().map(|&v| swap(v)).collect(),
            ..graph
        }),
        start: swap(spec.start),
        ..spec
    };
    let copy = app.solve(relabelled).await;
    assert!(copy.cached);
    assert_eq!(copy.canonical_hash, first.canonical_hash);
    assert_eq!(copy.winner, first.winner);
    app.stop().await;
}

/// A repeat of the same SolvePuzzle request is answered from the answer
/// memo, and a position of a stored puzzle from its kept answer; once the
/// puzzle is deleted both are NOT_FOUND, not the kept answer.
#[tokio::test]
async fn repeated_stored_requests_are_answered_from_memory_until_the_puzzle_goes() {
    let app = spawn_app().await;
    let stored = app
        .create(geography(7, &random_graph(7, 9, 0x5354_4f52), 2))
        .await;
    assert_eq!(stored.canonicaliser, "traces-v4");
    let mut client = app.client.clone();
    let solve = proto::SolvePuzzleRequest {
        name: stored.name.clone(),
        include_winning_moves: true,
        ..Default::default()
    };
    let first = client
        .solve_puzzle(solve.clone())
        .await
        .unwrap()
        .into_inner();
    assert!(!first.cached);
    let answer_hits = cache_hits("answer");
    let again = client
        .solve_puzzle(solve.clone())
        .await
        .unwrap()
        .into_inner();
    assert!(
        cache_hits("answer") > answer_hits,
        "the repeat did not hit the memo"
    );
    assert_eq!(
        again,
        proto::Solution {
            cached: true,
            ..first.clone()
        }
    );
    let analyze = proto::AnalyzePositionRequest {
        puzzle: Some(proto::analyze_position_request::Puzzle::Name(
            stored.name.clone(),
        )),
        moves: Vec::new(),
    };
    let opening = client
        .analyze_position(analyze.clone())
        .await
        .unwrap()
        .into_inner();
    let kept_hits = cache_hits("stored_answer");
    let repeat = client
        .analyze_position(analyze.clone())
        .await
        .unwrap()
        .into_inner();
    assert!(
        cache_hits("stored_answer") > kept_hits,
        "the repeat did not hit"
    );
    assert_eq!(repeat, opening);

    client
        .delete_puzzle(proto::DeletePuzzleRequest {
            name: stored.name.clone(),
        })
        .await
        .unwrap();
    let gone = client.solve_puzzle(solve).await.unwrap_err();
    assert_eq!(gone.code(), tonic::Code::NotFound, "{gone:?}");
    let gone = client.analyze_position(analyze).await.unwrap_err();
    assert_eq!(gone.code(), tonic::Code::NotFound, "{gone:?}");
    app.stop().await;
}
