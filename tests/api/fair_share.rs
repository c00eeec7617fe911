//! The solve workers shared between callers: a caller's small solves are
//! served in their turn while another caller keeps the workers busy (a
//! hundred queued solves, Play games whose engine weighs hundreds of
//! moves), one caller cannot fill the queue, and a caller past its work
//! budget is refused before any work on every call that computes, while
//! answers from memory stay free.
//!
//! The fairness tests assert an order, not a time: the light caller's
//! answer must come before the heavy caller's work has got far, which a
//! queue served first come, first served cannot give.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use puzzled_testkit::families;
use puzzled_testkit::random::random_graph;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::metadata::MetadataValue;
use tonic::{Code, Request};

use crate::helpers::*;

const HEAVY: &str = "heavy-token-0123456789";
const LIGHT: &str = "light-token-0123456789";
const ADMIN: &str = "admin-token-0123456789";

fn as_caller<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        MetadataValue::try_from(format!("Bearer {token}")).unwrap(),
    );
    request
}

/// Two workers, and the heavy and light callers known by their tokens.
async fn two_workers(configure: impl FnOnce(&mut puzzled::config::Config)) -> TestApp {
    app_with(|config| {
        config.solve_workers = Some(2);
        config.writer_tokens = Some(format!("heavy={HEAVY},light={LIGHT}"));
        config.admin_token = Some(ADMIN.into());
        configure(config);
    })
    .await
}

/// A small Geography puzzle no other call asks: nothing answers it from
/// memory.
fn small_puzzle(seed: u64) -> proto::PuzzleSpec {
    geography(50, &random_graph(50, 60, seed), 0)
}

/// A puzzle that is quick to label and slow to solve: directed Geography
/// on a random digraph, solved by search up to the state budget. Its
/// solves wait in the solve pool's queue, not in the labelling's.
fn heavy_puzzle(seed: u64) -> proto::PuzzleSpec {
    proto::PuzzleSpec {
        game: proto::Game::DirectedVertexGeography as i32,
        ..geography(24, &random_graph(24, 100, seed), 0)
    }
}

/// A heavy caller's solve of `spec`, counted in `done` once answered.
fn heavy_solve(
    app: &TestApp,
    spec: proto::PuzzleSpec,
    done: &Arc<AtomicUsize>,
) -> tokio::task::JoinHandle<Result<(), tonic::Status>> {
    let (mut client, done) = (app.client.clone(), done.clone());
    tokio::spawn(async move {
        let solved = client.solve(as_caller(solve_request(spec), HEAVY)).await;
        done.fetch_add(1, Ordering::SeqCst);
        solved.map(|_| ())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_queued_solves_of_one_caller_wait_behind_another_callers_one() {
    let app = two_workers(|config| {
        config.solve_queue = 200;
        config.solve_queue_per_caller = 150;
        config.search_budget_states = 50_000;
    })
    .await;
    let heavy_done = Arc::new(AtomicUsize::new(0));
    let heavy: Vec<_> = (0..100)
        .map(|seed| heavy_solve(&app, heavy_puzzle(1000 + seed), &heavy_done))
        .collect();
    // The hundred are asked before the light caller asks.
    let asked = app.callers_waiting.clone();
    until(|| asked.get() + heavy_done.load(Ordering::SeqCst) >= 100).await;
    let light = app
        .client
        .clone()
        .solve(as_caller(solve_request(small_puzzle(1)), LIGHT))
        .await
        .expect("the light caller's solve");
    assert!(!light.into_inner().cached);
    let finished_first = heavy_done.load(Ordering::SeqCst);
    assert!(
        finished_first < 20,
        "the light caller's one solve waited for {finished_first} of the heavy caller's"
    );
    // The rest are given up: their callers leave and the searches stop.
    for solve in heavy {
        solve.abort();
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_caller_cannot_fill_the_solve_queue() {
    let app = two_workers(|config| {
        config.solve_queue_per_caller = 4;
        config.search_budget_states = 50_000;
    })
    .await;
    let done = Arc::new(AtomicUsize::new(0));
    let heavy: Vec<_> = (0..40)
        .map(|seed| heavy_solve(&app, heavy_puzzle(2000 + seed), &done))
        .collect();
    let mut refused = Vec::new();
    for solve in heavy {
        if let Err(status) = solve.await.unwrap()
            && error_reason(&status) != "SEARCH_BUDGET_EXCEEDED"
        {
            refused.push(status);
        }
    }
    // Two running and four waiting at most: most of forty are refused,
    // each saying whose queue is full.
    assert!(refused.len() >= 20, "{} refused", refused.len());
    for status in &refused {
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert_eq!(error_reason(status), "SOLVE_QUEUE_FULL");
        assert!(
            status
                .message()
                .contains("writer heavy already has 4 jobs waiting")
                && status.message().contains("--solve-queue-per-caller"),
            "{}",
            status.message()
        );
    }
    app.stop().await;
}

/// A Play call whose engine opens from a lost position with many moves
/// to weigh: the hub of 200 paths of 100 vertices (each path matched in
/// itself, so the hub is left exposed and the first player loses).
async fn open_losing_engine_game(app: &TestApp) -> tonic::Streaming<proto::PlayResponse> {
    let (legs, leg) = (200, 100);
    let edges = families::copies_on_a_hub(&families::path(leg), leg, legs);
    let hub = leg * legs;
    let (send, receive) = mpsc::channel(4);
    let mut responses = app
        .client
        .clone()
        .play(as_caller(ReceiverStream::new(receive), HEAVY))
        .await
        .expect("the call opens")
        .into_inner();
    send.send(proto::PlayRequest {
        request: Some(proto::play_request::Request::Start(proto::PlayStart {
            puzzle: Some(proto::play_start::Puzzle::Spec(geography(
                hub + 1,
                &edges,
                hub,
            ))),
            human_side: proto::Player::Second as i32,
        })),
    })
    .await
    .expect("the call is open");
    // The sender stays with the stream's task: dropping it would end the
    // game before the engine has moved.
    tokio::spawn(async move {
        send.closed().await;
    });
    let _ = &mut responses;
    responses
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn small_solves_go_between_the_engines_candidates_of_two_large_games() {
    let app = two_workers(|_| {}).await;
    let running = app.solves_running.clone();
    let mut games = Vec::new();
    for _ in 0..2 {
        let mut responses = open_losing_engine_game(&app).await;
        games.push(tokio::spawn(async move { responses.message().await }));
    }
    until(|| running.get() == 2).await;
    for seed in 0..3 {
        let solved = app
            .client
            .clone()
            .solve(as_caller(solve_request(small_puzzle(100 + seed)), LIGHT))
            .await
            .expect("the light caller's solve");
        assert!(!solved.into_inner().cached);
        assert!(
            games.iter().all(|game| !game.is_finished()),
            "a game's engine moved before the light caller's solve {seed} was answered"
        );
    }
    for game in games {
        game.abort();
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_its_work_budget_a_caller_is_refused_before_any_work_and_memory_stays_free() {
    // A minute of refill for every second of work, and nothing in hand:
    // one job of any length puts the caller in debt for a while.
    let mut app = two_workers(|config| {
        config.work_secs_per_minute = 1;
        config.work_burst_secs = 0;
        config.search_budget_states = 200_000;
    })
    .await;
    // Set up by the admin, who is never charged.
    let cached = small_puzzle(7);
    app.client
        .solve(as_caller(solve_request(cached.clone()), ADMIN))
        .await
        .unwrap();
    let stored = app
        .client
        .create_puzzle(as_caller(create_request(small_puzzle(8)), ADMIN))
        .await
        .unwrap()
        .into_inner();
    // The light caller's one long job: a search (which may run out of its
    // budget: its time is spent either way).
    let searched = app
        .client
        .solve(as_caller(solve_request(heavy_puzzle(9)), LIGHT))
        .await;
    if let Err(status) = searched {
        assert_eq!(
            error_reason(&status),
            "SEARCH_BUDGET_EXCEEDED",
            "{status:?}"
        );
    }
    let refused_with = |what: &str, status: tonic::Status| {
        assert_eq!(status.code(), Code::ResourceExhausted, "{what}: {status:?}");
        assert_eq!(error_reason(&status), "WORK_BUDGET_EXCEEDED", "{what}");
        assert!(
            status
                .message()
                .contains("writer light has used its solve workers' time")
                && status.metadata().get("retry-after").is_some(),
            "{what}: {status:?}"
        );
    };
    let mut client = app.client.clone();
    let solve = client
        .solve(as_caller(solve_request(small_puzzle(10)), LIGHT))
        .await;
    refused_with("Solve", solve.unwrap_err());
    let solve_stored = client
        .solve_puzzle(as_caller(
            proto::SolvePuzzleRequest {
                name: stored.name.clone(),
                ..Default::default()
            },
            LIGHT,
        ))
        .await;
    refused_with("SolvePuzzle", solve_stored.unwrap_err());
    let analysis = client
        .analyze_position(as_caller(
            proto::AnalyzePositionRequest {
                puzzle: Some(proto::analyze_position_request::Puzzle::Spec(small_puzzle(
                    11,
                ))),
                moves: vec![],
            },
            LIGHT,
        ))
        .await;
    refused_with("AnalyzePosition", analysis.unwrap_err());
    let created = client
        .create_puzzle(as_caller(create_request(small_puzzle(12)), LIGHT))
        .await;
    refused_with("CreatePuzzle", created.unwrap_err());
    let generated = client
        .generate_puzzles(as_caller(
            proto::GeneratePuzzlesRequest {
                game: proto::Game::Geography as i32,
                count: 1,
                min_vertices: 10,
                max_vertices: 10,
                ..Default::default()
            },
            LIGHT,
        ))
        .await;
    refused_with("GeneratePuzzles", generated.unwrap_err());
    let (send, receive) = mpsc::channel(1);
    send.send(proto::PlayRequest {
        request: Some(proto::play_request::Request::Start(proto::PlayStart {
            puzzle: Some(proto::play_start::Puzzle::Spec(small_puzzle(13))),
            human_side: proto::Player::Second as i32,
        })),
    })
    .await
    .unwrap();
    let mut game = client
        .play(as_caller(ReceiverStream::new(receive), LIGHT))
        .await
        .unwrap()
        .into_inner();
    refused_with("Play", game.message().await.unwrap_err());
    // What memory answers is free: the solve the admin made, and the
    // stored puzzle's page.
    let hit = client
        .solve(as_caller(solve_request(cached), LIGHT))
        .await
        .expect("a cached answer past the budget")
        .into_inner();
    assert!(hit.cached);
    app.read(&stored.name).await;
    // Other callers have budgets of their own.
    client
        .solve(as_caller(solve_request(small_puzzle(14)), HEAVY))
        .await
        .expect("another caller's solve");
    drop(send);
    app.stop().await;
}
