//! A call that carries more than one `authorization` entry is refused
//! UNAUTHENTICATED, reason AUTHORIZATION_REPEATED, by every method that
//! reads the token, whether or not the server needs one and whichever
//! entry holds a good token: the server does not guess which one counts.

use tonic::metadata::MetadataValue;
use tonic::{Code, Request, Status};

use crate::helpers::*;

const ALICE: &str = "alice-token-0123456789";
const ADMIN: &str = "admin-token-0123456789";

/// `message` with an `authorization` entry for each of `tokens`.
fn with_tokens<T>(message: T, tokens: &[&str]) -> Request<T> {
    let mut request = Request::new(message);
    for token in tokens {
        request.metadata_mut().append(
            "authorization",
            MetadataValue::try_from(format!("Bearer {token}")).unwrap(),
        );
    }
    request
}

fn assert_repeated(status: &Status, count: usize, method: &str) {
    assert_eq!(status.code(), Code::Unauthenticated, "{method}: {status:?}");
    assert_eq!(
        error_reason(status),
        "AUTHORIZATION_REPEATED",
        "{method}: {status:?}"
    );
    assert!(
        status.message().starts_with(&format!(
            "the call carries {count} authorization headers; send one"
        )),
        "{method}: {status:?}"
    );
}

/// Every method that reads the token, each with `tokens`, the stored
/// puzzle `stored` named where a method needs one: each is refused for
/// `tokens.len()` entries, and none stores or deletes anything.
async fn every_reader_refuses(app: &TestApp, stored: &str, tokens: &[&str]) {
    let count = tokens.len();
    let mut client = app.client.clone();
    let listed = app.listed().await.len();
    let refused = client
        .create_puzzle(with_tokens(create_request(path(3)), tokens))
        .await
        .unwrap_err();
    assert_repeated(&refused, count, "CreatePuzzle");
    let refused = client
        .solve(with_tokens(solve_request(path(3)), tokens))
        .await
        .unwrap_err();
    assert_repeated(&refused, count, "Solve");
    let refused = client
        .solve_puzzle(with_tokens(
            proto::SolvePuzzleRequest {
                name: stored.to_owned(),
                ..Default::default()
            },
            tokens,
        ))
        .await
        .unwrap_err();
    assert_repeated(&refused, count, "SolvePuzzle");
    let refused = client
        .delete_puzzle(with_tokens(
            proto::DeletePuzzleRequest {
                name: stored.to_owned(),
            },
            tokens,
        ))
        .await
        .unwrap_err();
    assert_repeated(&refused, count, "DeletePuzzle");
    let item = proto::ImportPuzzlesRequest {
        puzzle: Some(proto::Puzzle {
            spec: Some(path(4)),
            ..Default::default()
        }),
        request_id: "repeated".into(),
    };
    let refused = client
        .import_puzzles(with_tokens(tokio_stream::iter([item]), tokens))
        .await
        .unwrap_err();
    assert_repeated(&refused, count, "ImportPuzzles");
    let generate = proto::GeneratePuzzlesRequest {
        game: proto::Game::Geography as i32,
        min_vertices: 4,
        max_vertices: 6,
        count: 1,
        store: true,
        ..Default::default()
    };
    let refused = client
        .generate_puzzles(with_tokens(generate, tokens))
        .await
        .unwrap_err();
    assert_repeated(&refused, count, "GeneratePuzzles");
    assert_eq!(app.listed().await.len(), listed);
    app.read(stored).await;
}

/// On a server that needs no token, where a single `authorization` of any
/// kind goes through: two or three are refused all the same.
#[tokio::test]
async fn repeated_authorization_is_refused_where_no_token_is_needed() {
    let app = spawn_app().await;
    let stored = app.create(path(5)).await.name;
    every_reader_refuses(
        &app,
        &stored,
        &["one-token-0123456789", "another-0123456789"],
    )
    .await;
    every_reader_refuses(&app, &stored, &["a", "b", "c"]).await;
    // One is not judged here: the call goes through.
    app.client
        .clone()
        .create_puzzle(with_tokens(create_request(path(3)), &["one-token"]))
        .await
        .expect("one authorization entry is taken");
    app.stop().await;
}

/// On a server with writer and admin tokens: two entries are refused even
/// when both hold the admin's token, which alone passes every check.
#[tokio::test]
async fn repeated_authorization_is_refused_even_when_each_token_is_good() {
    let app = app_with(|config| {
        config.writer_tokens = Some(format!("alice={ALICE}"));
        config.admin_token = Some(ADMIN.into());
    })
    .await;
    let mut client = app.client.clone();
    let stored = client
        .create_puzzle(with_tokens(create_request(path(5)), &[ADMIN]))
        .await
        .expect("the admin stores")
        .into_inner()
        .name;
    every_reader_refuses(&app, &stored, &[ALICE, ADMIN]).await;
    for tokens in [[ADMIN, ADMIN], [ALICE, ADMIN], [ALICE, ALICE]] {
        let refused = client
            .create_puzzle(with_tokens(create_request(path(3)), &tokens))
            .await
            .unwrap_err();
        assert_repeated(&refused, 2, "CreatePuzzle");
        let refused = client
            .solve(with_tokens(solve_request(path(3)), &tokens))
            .await
            .unwrap_err();
        assert_repeated(&refused, 2, "Solve");
        let refused = client
            .delete_puzzle(with_tokens(
                proto::DeletePuzzleRequest {
                    name: stored.clone(),
                },
                &tokens,
            ))
            .await
            .unwrap_err();
        assert_repeated(&refused, 2, "DeletePuzzle");
    }
    app.read(&stored).await;
    client
        .delete_puzzle(with_tokens(
            proto::DeletePuzzleRequest {
                name: stored.clone(),
            },
            &[ADMIN],
        ))
        .await
        .expect("one admin token deletes");
    app.stop().await;
}
