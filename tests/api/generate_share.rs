//! GeneratePuzzles shares the solve workers fairly: each pool job of a
//! stream works on one candidate and hands its worker back, so streams
//! that can never succeed do not keep small solves waiting for a worker;
//! and a stream asks for at most `MAX_REJECTED_IN_A_ROW` candidates
//! rejected in a row.

use std::time::Duration;

use puzzled::app::generate::MAX_REJECTED_IN_A_ROW;
use tonic::Code;

use crate::helpers::*;

/// A request no candidate meets (random graphs on 4000 vertices never
/// have 128 only moves in a row, the most the main line can show), searching for as long as the cap on
/// rejections allows; each candidate is a solve of a graph of thousands of
/// vertices.
fn hopeless(seed: u64) -> proto::GeneratePuzzlesRequest {
    proto::GeneratePuzzlesRequest {
        game: proto::Game::Geography as i32,
        min_vertices: 4000,
        max_vertices: 4000,
        seed,
        min_only_move_depth: 128,
        max_rejected_in_a_row: MAX_REJECTED_IN_A_ROW as u32,
        count: 1,
        ..Default::default()
    }
}

#[tokio::test]
async fn small_solves_find_a_worker_while_hopeless_streams_search() {
    // Two busy streams and timed solves: the tests that time solves take
    // turns.
    let _turn = crate::cancel::ONE_AT_A_TIME.lock().await;
    let app = app_with(|config| config.solve_workers = Some(2)).await;
    let mut streams = Vec::new();
    for seed in [1, 2] {
        let stream = app
            .client
            .clone()
            .generate_puzzles(hopeless(seed))
            .await
            .expect("the request is valid")
            .into_inner();
        streams.push(stream);
    }
    // Both streams are searching, one candidate each on the two workers.
    until(|| app.solves_running.get() == 2).await;
    for seed in 0..3 {
        // Distinct graphs, so that no verdict is cached.
        let spec = geography(50, &random_graph(50, 75, 7000 + seed), 0);
        let solved = tokio::time::timeout(Duration::from_secs(5), app.solve(spec)).await;
        assert!(
            solved.is_ok(),
            "solve {seed} waited more than 5 s for a worker while two streams searched"
        );
    }
    // The streams were searching all along: nothing came from either.
    for stream in &mut streams {
        let sent = tokio::time::timeout(Duration::from_millis(10), stream.message()).await;
        assert!(sent.is_err(), "a hopeless stream ended: {sent:?}");
    }
}

#[tokio::test]
async fn rejections_in_a_row_past_the_cap_are_refused() {
    let app = spawn_app().await;
    let over = MAX_REJECTED_IN_A_ROW + 1;
    let status = app
        .client
        .clone()
        .generate_puzzles(proto::GeneratePuzzlesRequest {
            max_rejected_in_a_row: over as u32,
            ..hopeless(1)
        })
        .await
        .expect_err("past the cap");
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert_eq!(error_reason(&status), "INVALID_GENERATE_REQUEST");
    let message = status.message();
    assert!(
        message.starts_with("max_rejected_in_a_row")
            && message.contains(&over.to_string())
            && message.contains(&MAX_REJECTED_IN_A_ROW.to_string()),
        "{message}"
    );
}
