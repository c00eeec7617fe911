//! GeneratePuzzles shares the server fairly: a stream asks for at most
//! `MAX_REJECTED_IN_A_ROW` candidates rejected in a row.

use puzzled::app::generate::MAX_REJECTED_IN_A_ROW;
use tonic::Code;

use crate::helpers::*;

/// A request no candidate meets (random graphs on 4000 vertices never
/// have 1999 only moves in a row), searching for as long as the cap on
/// rejections allows.
fn hopeless(seed: u64) -> proto::GeneratePuzzlesRequest {
    proto::GeneratePuzzlesRequest {
        game: proto::Game::Geography as i32,
        min_vertices: 4000,
        max_vertices: 4000,
        seed,
        min_only_move_depth: 1999,
        max_rejected_in_a_row: MAX_REJECTED_IN_A_ROW as u32,
        count: 1,
        ..Default::default()
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
